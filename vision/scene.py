"""The world the rendered camera looks at: a tray, a hold ledge, dice, light and camera.

Everything is a frozen value object, so a scene is a complete, reproducible
description of one frame. Tray coordinates are millimetres from the tray floor's
far-left corner as the camera sees it: ``x`` to the right, ``y`` towards the
camera (down the image). The hold ledge is a strip in front of the tray, at
``y`` from ``tray_mm[1] + wall_mm`` to that plus ``ledge_mm``.

>>> scene = random_scene(seed=7, dice=5)
>>> len(scene.dice), all(1 <= d.value <= 6 for d in scene.dice)
(5, True)
>>> random_scene(seed=7, dice=5) == scene
True
>>> scene.zone_at(10.0, 10.0), scene.zone_at(10.0, scene.ledge_y[0] + 5)
('tray', 'ledge')
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class DieState:
    """One die in the world.

    ``value`` is the face pointing up (before any tilt); ``rotation`` turns the die
    about the vertical axis (degrees); ``tilt`` leans it (a cocked die) towards
    ``tilt_direction`` (degrees in the tray plane, 0 = +x); ``motion`` is how far
    (mm) it travels during one exposure and ``spin`` how far it turns (degrees),
    both zero for a die at rest.
    """

    value: int
    x: float
    y: float
    rotation: float = 0.0
    zone: str = "tray"
    tilt: float = 0.0
    tilt_direction: float = 0.0
    motion: tuple[float, float] = (0.0, 0.0)
    spin: float = 0.0

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or self.value not in range(1, 7):
            raise ValueError(f"die value must be 1..6, got {self.value!r}")
        if self.zone not in ("tray", "ledge"):
            raise ValueError(f"die zone must be 'tray' or 'ledge', got {self.zone!r}")
        if not 0.0 <= self.tilt < 60.0:
            raise ValueError(f"die tilt must be in [0, 60) degrees, got {self.tilt!r}")

    @property
    def cocked(self) -> bool:
        """True when the die leans visibly (its top face is not flat)."""
        return self.tilt >= COCKED_DEGREES

    @property
    def moving(self) -> bool:
        """True while the die moves during the exposure (it will look blurred)."""
        return math.hypot(*self.motion) > 0.3 or abs(self.spin) > 2.0


_PLACES = {"tray": "on the tray", "ledge": "on the ledge", "off": "off the tray and ledge"}

COCKED_DEGREES = 6.0
"""A die tilted at least this much counts as cocked."""


@dataclass(frozen=True)
class DiceStyle:
    """The dice's colours: body, pips, how opaque (translucent dice < 1) and glossy; the
    pips' diameter as a share of the die's edge (about a sixth on most dice, up to a
    quarter on many gaming dice) and their spacing: how far the corner pips sit from the
    face's centre along each edge, as a share of the edge (0.27 on most dice; the pips of
    some crowd towards the middle, down to about 0.19); ``ghosts``, how plainly a
    translucent body (``opacity`` < 1) shows the far faces through it: their pips, and
    their rounded edges catching the light (0 none, 1 as plain as the glass lets).

    >>> DiceStyle("smoky", (60, 58, 56), (40, 36, 214), opacity=0.7, ghosts=0.8).ghosts
    0.8
    """

    name: str
    die_color: BGR
    pip_color: BGR
    opacity: float = 1.0
    gloss: float = 0.35
    pip_diameter: float = 0.17
    pip_spacing: float = 0.27
    ghosts: float = 0.0


STYLES: dict[str, DiceStyle] = {
    style.name: style
    for style in (
        DiceStyle("white", (236, 236, 232), (28, 26, 24)),
        DiceStyle("ivory", (196, 226, 240), (40, 34, 30), gloss=0.25),
        DiceStyle("red", (38, 34, 196), (236, 236, 236)),
        DiceStyle("blue", (178, 84, 22), (238, 238, 238)),
        DiceStyle("green", (70, 150, 30), (240, 240, 240)),
        DiceStyle("black", (34, 32, 32), (232, 232, 228), gloss=0.5),
        DiceStyle("translucent-red", (50, 40, 210), (240, 240, 240), opacity=0.72, gloss=0.6),
        DiceStyle("translucent-blue", (200, 110, 40), (240, 240, 240), opacity=0.72, gloss=0.6),
    )
}
"""The colour schemes the renderer knows, by name."""


@dataclass(frozen=True)
class Look:
    """Light, surfaces and camera imperfections.

    ``light`` is the main lamp's (azimuth, elevation) in degrees; ``unevenness``
    how much the light falls off across the frame (0 = flat); ``noise`` the
    sensor noise's standard deviation in grey levels; ``jpeg`` a JPEG quality or
    None for lossless; ``defocus`` a Gaussian blur sigma in px.
    """

    light: tuple[float, float] = (215.0, 55.0)
    brightness: float = 1.0
    unevenness: float = 0.15
    shadow: float = 0.45
    glare: float = 0.5
    noise: float = 2.0
    jpeg: int | None = None
    defocus: float = 0.5
    felt: BGR = (92, 120, 40)
    table: BGR = (70, 105, 140)
    wall: BGR = (60, 60, 64)
    ledge: BGR = (120, 150, 175)


CLEAN_LOOK = Look(unevenness=0.05, shadow=0.3, glare=0.0, noise=0.0, jpeg=None, defocus=0.0)
"""A look with no imperfections, for tests that count pips."""


@dataclass(frozen=True)
class CameraPose:
    """Where the camera is: ``elevation`` 90 looks straight down; ``fill`` is how much
    of the frame the tray and ledge span (above 1 cuts them off); ``yaw`` and
    ``roll`` turn the view (degrees)."""

    image_size: tuple[int, int] = (1280, 960)
    elevation: float = 78.0
    distance_mm: float = 420.0
    fill: float = 0.92
    yaw: float = 0.0
    roll: float = 0.0


@dataclass(frozen=True)
class Scene:
    """One frame's world: the tray's shape, the dice, their style, the light, the camera."""

    dice: tuple[DieState, ...]
    style: DiceStyle = STYLES["white"]
    look: Look = Look()
    camera: CameraPose = CameraPose()
    tray_mm: tuple[float, float] = (210.0, 150.0)
    wall_mm: float = 10.0
    wall_height_mm: float = 22.0
    ledge_mm: float = 34.0
    die_mm: float = 16.0
    seed: int = 0

    def __post_init__(self) -> None:
        for i, die in enumerate(self.dice):
            where = self.zone_at(die.x, die.y)
            if where != die.zone:
                raise ValueError(f"die {i} is said to be on the {die.zone} but lies at "
                                 f"({die.x:.1f}, {die.y:.1f}) mm, {_PLACES[where]}")

    @property
    def ledge_y(self) -> tuple[float, float]:
        """The ledge strip's (near-tray, far-from-tray) y range in tray mm."""
        start = self.tray_mm[1] + self.wall_mm
        return (start, start + self.ledge_mm)

    def zone_at(self, x: float, y: float) -> str:
        """"tray", "ledge" or "off" for a point in tray mm."""
        width, depth = self.tray_mm
        if 0 <= x <= width and 0 <= y <= depth:
            return "tray"
        low, high = self.ledge_y
        if self.ledge_mm > 0 and 0 <= x <= width and low <= y <= high:
            return "ledge"
        return "off"

    def with_dice(self, dice: Sequence[DieState]) -> Scene:
        """The same scene with other dice."""
        return replace(self, dice=tuple(dice))


# -- random scenes -------------------------------------------------------------------


def random_scene(
    seed: int = 0,
    dice: int = 5,
    *,
    hard: bool = False,
    ledge_dice: int | None = None,
    image_size: tuple[int, int] = (1280, 960),
    style: str | None = None,
) -> Scene:
    """A random but reproducible scene with ``dice`` dice.

    Easy scenes are well lit, sharp, with dice apart and flat. ``hard`` scenes vary
    the camera, light, colours and dice size, and sometimes touch, cock, blur or
    cut off dice, as a real tray would.
    """
    rng = np.random.default_rng(seed)
    if hard:
        look = _random_look(rng)
        camera = CameraPose(
            image_size=image_size,
            elevation=float(rng.uniform(62, 88)),
            distance_mm=float(rng.uniform(330, 520)),
            fill=float(rng.choice([rng.uniform(0.8, 0.97), rng.uniform(1.1, 1.45)], p=[0.8, 0.2])),
            yaw=float(rng.uniform(-6, 6)),
            roll=float(rng.uniform(-4, 4)),
        )
        die_mm = float(rng.uniform(12, 19))
        chosen = STYLES[style] if style else STYLES[str(rng.choice(sorted(STYLES)))]
    else:
        look = replace(Look(), light=(float(rng.uniform(180, 260)), float(rng.uniform(50, 70))))
        camera = CameraPose(image_size=image_size)
        die_mm = 16.0
        chosen = STYLES[style or "white"]
    scene = Scene(dice=(), style=chosen, look=look, camera=camera, die_mm=die_mm, seed=seed)
    if ledge_dice is None:
        ledge_dice = int(rng.integers(0, min(dice, 3) + 1)) if hard else 0
    ledge_dice = min(ledge_dice, dice)
    placed = _place_dice(rng, scene, dice - ledge_dice, hard) + _place_on_ledge(
        rng, scene, ledge_dice
    )
    return scene.with_dice(placed)


def tray_view(seed: int, style: str, dice: int = 5, *,
              image_size: tuple[int, int] = (1920, 1080)) -> Scene:
    """A clean top-down view of a tray, as a camera straight above it sees the dice: flat
    and apart (as in an easy :func:`random_scene`), sharp, with little noise and light
    JPEG, but in a random light, felt and table, the camera 80-90 degrees above the
    tray and near enough that it fills most of the frame.

    >>> view = tray_view(3, "black")
    >>> view.style.name, view.camera.image_size, 80 <= view.camera.elevation <= 90
    ('black', (1920, 1080), True)
    """
    scene = random_scene(seed, dice, style=style, image_size=image_size)
    rng = np.random.default_rng(seed)
    look = replace(_random_look(rng), defocus=0.0, noise=2.0, jpeg=90)
    camera = CameraPose(image_size=image_size, elevation=float(rng.uniform(80, 90)),
                        distance_mm=float(rng.uniform(330, 450)),
                        fill=float(rng.uniform(0.85, 0.97)))
    return replace(scene, look=look, camera=camera)


def _random_look(rng: np.random.Generator) -> Look:
    felts = [(92, 120, 40), (40, 40, 40), (120, 60, 30), (200, 200, 196), (40, 40, 120),
             (90, 90, 90), (70, 100, 130)]
    tables = [(70, 105, 140), (50, 70, 95), (200, 200, 200), (40, 40, 44), (140, 160, 175)]
    return Look(
        light=(float(rng.uniform(0, 360)), float(rng.uniform(35, 80))),
        brightness=float(rng.uniform(0.7, 1.15)),
        unevenness=float(rng.uniform(0.05, 0.4)),
        shadow=float(rng.uniform(0.2, 0.65)),
        glare=float(rng.uniform(0.0, 1.0)),
        noise=float(rng.uniform(1.0, 7.0)),
        jpeg=int(rng.integers(55, 96)) if rng.random() < 0.8 else None,
        defocus=float(rng.uniform(0.0, 1.4)),
        felt=felts[int(rng.integers(len(felts)))],
        table=tables[int(rng.integers(len(tables)))],
        wall=tuple(int(v) for v in rng.integers(30, 140, 3)),  # type: ignore[arg-type]
        ledge=tuple(int(v) for v in rng.integers(60, 200, 3)),  # type: ignore[arg-type]
    )


def _place_dice(rng: np.random.Generator, scene: Scene, n: int, hard: bool) -> list[DieState]:
    """Dice scattered on the tray floor, apart (or, when hard, sometimes touching/cocked)."""
    size = scene.die_mm
    width, depth = scene.tray_mm
    margin = size * 0.75
    placed: list[DieState] = []
    for _ in range(n):
        for _attempt in range(200):
            value = int(rng.integers(1, 7))
            rotation = float(rng.uniform(0, 360))
            if hard and placed and rng.random() < 0.25:
                # touching: lined up against a die already placed, face to face
                other = placed[int(rng.integers(len(placed)))]
                side = math.radians(other.rotation + 90 * int(rng.integers(4)))
                gap = size * float(rng.uniform(1.0, 1.04))
                x, y = other.x + gap * math.cos(side), other.y + gap * math.sin(side)
                rotation = other.rotation + float(rng.uniform(-3, 3))
                clearance = size * 0.95
            else:
                x = float(rng.uniform(margin, width - margin))
                y = float(rng.uniform(margin, depth - margin))
                clearance = size * 1.5
            if not (margin * 0.9 <= x <= width - margin * 0.9
                    and margin * 0.9 <= y <= depth - margin * 0.9):
                continue
            if all(math.hypot(x - d.x, y - d.y) >= clearance for d in placed):
                break
        tilt, direction = 0.0, 0.0
        blurred = hard and rng.random() < 0.06
        if hard and rng.random() < 0.08:
            tilt, direction, x, y = _lean(rng, scene, x, y, placed)
            rotation = -direction + 90 * int(rng.integers(4))
        placed.append(
            DieState(
                value=value, x=x, y=y, rotation=rotation, tilt=tilt, tilt_direction=direction,
                motion=(float(rng.uniform(-14, 14)), float(rng.uniform(-14, 14)))
                if blurred else (0.0, 0.0),
                spin=float(rng.uniform(-40, 40)) if blurred else 0.0,
            )
        )
    return placed


def _lean(
    rng: np.random.Generator, scene: Scene, x: float, y: float, placed: Sequence[DieState]
) -> tuple[float, float, float, float]:
    """A cocked die leaning on its nearest neighbour or wall: (tilt, direction, x, y).

    The die is turned square to its support and moved up against it, so its
    raised edge rests on the neighbour's side (or the wall) instead of floating.
    """
    size = scene.die_mm
    width, depth = scene.tray_mm
    tilt = float(rng.uniform(14, 32))
    # how far the leaning die reaches from its centre towards the support
    reach = 0.5 * size * (math.cos(math.radians(tilt)) + math.sin(math.radians(tilt)))
    supports = [(x, 180.0, reach, y), (width - x, 0.0, width - reach, y),
                (y, 270.0, x, reach), (depth - y, 90.0, x, depth - reach)]
    for d in placed:
        angle = math.atan2(d.y - y, d.x - x)
        gap = reach + 0.5 * size
        supports.append((math.hypot(d.x - x, d.y - y), math.degrees(angle),
                         d.x - gap * math.cos(angle), d.y - gap * math.sin(angle)))
    _, direction, new_x, new_y = min(supports)
    return tilt, direction % 360, float(new_x), float(new_y)


def _place_on_ledge(rng: np.random.Generator, scene: Scene, n: int) -> list[DieState]:
    """Kept dice in a loose row on the ledge."""
    if n == 0:
        return []
    size = scene.die_mm
    width = scene.tray_mm[0]
    low, high = scene.ledge_y
    slots = np.linspace(size, width - size, max(n, 5))
    chosen = sorted(rng.choice(len(slots), size=n, replace=False))
    return [
        DieState(
            value=int(rng.integers(1, 7)),
            x=float(slots[i] + rng.uniform(-3, 3)),
            y=float((low + high) / 2 + rng.uniform(-2, 2)),
            rotation=float(rng.uniform(-12, 12)),
            zone="ledge",
        )
        for i in chosen
    ]


# -- a tray that tumbles --------------------------------------------------------------


@dataclass
class SimulatedTray:
    """A simulated tray whose dice tumble when rolled and come to rest after a while.

    Time comes from ``clock`` (seconds), so tests can drive it without sleeping.
    Kept dice sit on the ledge and do not tumble.

    >>> now = [0.0]
    >>> tray = SimulatedTray(seed=3, clock=lambda: now[0])
    >>> values = tray.roll()
    >>> tray.settled, len(values)
    (False, 5)
    >>> now[0] = 5.0
    >>> tray.settled, tray.values() == values
    (True, True)
    >>> tray.keep(0); [d.zone for d in tray.scene().dice].count("ledge")
    1
    """

    seed: int = 0
    dice: int = 5
    tumble_s: float = 1.4
    clock: Callable[[], float] = time.monotonic
    base: Scene | None = None
    _rng: np.random.Generator = field(init=False, repr=False)
    _start: list[DieState] = field(init=False, repr=False)
    _rest: list[DieState] = field(init=False, repr=False)
    _rolled_at: float = field(init=False, default=-1e9, repr=False)
    _cleared: bool = field(init=False, default=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = np.random.default_rng(self.seed)
        if self.base is None:
            self.base = random_scene(self.seed, self.dice)
        self._rest = list(self.base.dice)
        self._start = list(self._rest)

    @property
    def settled(self) -> bool:
        """True once the last roll has come to rest."""
        return self.clock() - self._rolled_at >= self.tumble_s

    def values(self) -> tuple[int, ...]:
        """The values the dice show (or will show once at rest), in die order."""
        return tuple(d.value for d in self._rest)

    def roll(self, values: Sequence[int] | None = None) -> tuple[int, ...]:
        """Tumble every die on the tray (not the ledge); return the values they land on.

        ``values`` fixes the outcome for the dice on the tray (in their order).
        """
        assert self.base is not None
        self._cleared = False
        tray_idx = [i for i, d in enumerate(self._rest) if d.zone == "tray"]
        if values is not None and len(values) != len(tray_idx):
            raise ValueError(f"{len(tray_idx)} dice on the tray, {len(values)} values given")
        fresh = _place_dice(self._rng, self.base.with_dice(()), len(tray_idx), hard=False)
        self._start = list(self._rest)
        for k, i in enumerate(tray_idx):
            value = int(values[k]) if values is not None else fresh[k].value
            self._rest[i] = replace(fresh[k], value=value)
            # a tumbling die comes in from the cup's side of the tray
            self._start[i] = replace(self._rest[i], x=float(self._rng.uniform(0, 40)),
                                     y=float(self._rng.uniform(0, self.base.tray_mm[1])))
        self._rolled_at = self.clock()
        return self.values()

    def use(self, n: int) -> None:
        """Play with ``n`` dice from now on, all at rest on the tray (none kept).

        >>> tray = SimulatedTray(seed=1)
        >>> tray.use(3); len(tray.roll())
        3
        """
        if n < 0:
            raise ValueError(f"the number of dice cannot be negative, got {n}")
        assert self.base is not None
        self.dice = n
        self._rest = _place_dice(self._rng, self.base.with_dice(()), n, hard=False)
        self._start = list(self._rest)
        self._rolled_at = -1e9

    def clear(self) -> None:
        """Take every die off the tray and ledge (an empty tray) until the next roll."""
        self._cleared = True

    def keep(self, index: int) -> None:
        """Slide die ``index`` onto the ledge (a kept die)."""
        self._move(index, "ledge")

    def release(self, index: int) -> None:
        """Put die ``index`` back from the ledge into the tray."""
        self._move(index, "tray")

    def _move(self, index: int, zone: str) -> None:
        assert self.base is not None
        die = self._rest[index]
        if die.zone == zone:
            return
        if zone == "ledge":
            taken = [d.x for d in self._rest if d.zone == "ledge"]
            size = self.base.die_mm
            slots = [x for x in np.linspace(size, self.base.tray_mm[0] - size, 6)
                     if all(abs(x - t) > size * 1.3 for t in taken)]
            low, high = self.base.ledge_y
            moved = replace(die, zone="ledge", x=float(slots[0]) if slots else die.x,
                            y=(low + high) / 2, tilt=0.0)
        else:
            spot = _place_dice(self._rng, self.base.with_dice(
                [d for d in self._rest if d.zone == "tray"]), 1, hard=False)[0]
            moved = replace(die, zone="tray", x=spot.x, y=spot.y)
        self._rest[index] = moved
        self._start[index] = moved

    def scene(self) -> Scene:
        """The world right now: dice in flight (blurred, changing faces) or at rest."""
        assert self.base is not None
        if self._cleared:
            return self.base.with_dice(())
        t = (self.clock() - self._rolled_at) / self.tumble_s
        if t >= 1.0:
            return self.base.with_dice(self._rest)
        ease = 1.0 - (1.0 - max(t, 0.0)) ** 3
        dice = []
        for k, (start, rest) in enumerate(zip(self._start, self._rest, strict=True)):
            if start == rest:
                dice.append(rest)
                continue
            speed = 3.0 * (1.0 - t) ** 2  # d(ease)/dt
            dx, dy = rest.x - start.x, rest.y - start.y
            turns = int((1.0 - ease) * 12 + k)
            dice.append(replace(
                rest,
                x=start.x + dx * ease,
                y=start.y + dy * ease,
                value=rest.value if t > 0.8 else (rest.value + turns) % 6 + 1,
                rotation=rest.rotation + 400.0 * (1.0 - ease),
                motion=(dx * speed * 0.03, dy * speed * 0.03),
                spin=60.0 * speed * 0.3,
            ))
        return self.base.with_dice(dice)
