"""Training frames for the dice detector: rendered dice on varied floors, with their truth.

Every frame comes from the rendered camera (:mod:`dicetray.vision.render`), pushed well
beyond a tidy tray so the detector learns what a die is rather than what our tray looks
like: any dice colour (several colours in one frame), small and large dice, up to 25
of them, steep and flat camera angles, and the floor swapped for procedural wood, cloth,
paper, stone or clutter with the dice's own shadows kept. Camera faults (defocus, noise,
JPEG, colour casts) come last.

Each sample is a frame at the detector's input scale and one row per die:
``(x, y, size, kind)`` with ``kind`` 0 = flat and still, 1 = cocked, 2 = moving.

    python3 -m training.data --out /tmp/dice-train.npz --frames 12000 --workers 2
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Callable
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dicetray.vision.render import Camera, FrameTruth, _pose, _silhouette, render  # noqa: E402
from dicetray.vision.scene import STYLES, CameraPose, DiceStyle, Look, random_scene  # noqa: E402
from training.clutter import Spot, scatter  # noqa: E402

#: Size the frames are rendered at, and the detector's input size (long side 320).
RENDER_SIZE = (640, 480)
INPUT_SIZE = (320, 240)
FLAT, COCKED, MOVING = 0, 1, 2
T = TypeVar("T")


def _random_colour(rng: np.random.Generator, lo: int = 0, hi: int = 255) -> tuple[int, int, int]:
    """Any colour half the time, else a muted one (most tables, cloths and trays)."""
    if rng.random() < 0.5:
        return tuple(int(v) for v in rng.integers(lo, hi + 1, 3))  # type: ignore[return-value]
    grey = float(rng.uniform(lo, hi))
    tint = rng.normal(0, 18, 3) + np.array([-1.0, 0.0, 1.0]) * rng.uniform(0, 25)  # warm
    return tuple(int(v) for v in np.clip(grey + tint, 0, 255))  # type: ignore[return-value]


#: Dark bodies of smoky translucent dice (BGR): grey, black, dark red, dark blue.
_SMOKY_BODIES: tuple[tuple[int, int, int], ...] = ((60, 58, 56), (26, 24, 24), (30, 26, 96),
                                                    (96, 40, 22))
#: Coloured pips (BGR): red, orange, yellow, white.
_BRIGHT_PIPS: tuple[tuple[int, int, int], ...] = ((40, 36, 214), (30, 128, 240), (40, 214, 236),
                                                   (236, 236, 232))


def _jitter(rng: np.random.Generator, colour: tuple[int, int, int],
            spread: float = 14.0) -> tuple[int, int, int]:
    """A colour moved a little in each channel."""
    moved = np.clip(np.array(colour, np.float64) + rng.normal(0, spread, 3), 0, 255)
    return tuple(int(v) for v in moved)  # type: ignore[return-value]


def _dim(colour: tuple[int, int, int], light: float) -> tuple[int, int, int]:
    """A colour at ``light`` of its brightness (its hue kept).

    >>> _dim((40, 36, 214), 0.5)
    (20, 18, 107)
    """
    return tuple(round(v * light) for v in colour)  # type: ignore[return-value]


def _pip_layout(rng: np.random.Generator) -> tuple[float, float]:
    """The pips' diameter and spacing: from a little smaller than most dice's to the large
    ones of gaming dice, now and then crowded towards the face's middle (a 6's pips still
    apart)."""
    pips = float(rng.uniform(0.13, 0.25)) if rng.random() < 0.4 else 0.17
    spacing = float(rng.uniform(0.19, 0.27)) if rng.random() < 0.3 else 0.27
    return min(pips, spacing / 1.15), spacing


def random_style(rng: np.random.Generator) -> DiceStyle:
    """A dice style: a known one, or any body colour with dark or light pips, often of
    another size than most dice's; one in five of the latter a dark smoky translucent
    body with coloured pips (as on many real gaming dice), half of them dull (dark red
    paint that stands out from the body by little more than its hue), most showing
    their far faces' pips and lit edges through the body."""
    if rng.random() < 0.4:
        return STYLES[str(rng.choice(sorted(STYLES)))]
    if rng.random() < 0.2:  # smoky: dark, see-through, with red, orange, yellow or white pips
        body = _jitter(rng, _SMOKY_BODIES[int(rng.integers(len(_SMOKY_BODIES)))])
        pip = _jitter(rng, _BRIGHT_PIPS[int(rng.integers(len(_BRIGHT_PIPS)))])
        if rng.random() < 0.5:  # dull paint, told from the body by little more than its hue
            pip = _dim(pip, float(rng.uniform(0.25, 0.6)))
        diameter, spacing = _pip_layout(rng)
        return DiceStyle("random", body, pip, opacity=float(rng.uniform(0.6, 0.85)),
                         gloss=float(rng.uniform(0.3, 0.8)), pip_diameter=diameter,
                         pip_spacing=spacing, ghosts=_ghosts(rng, 0.8))
    hue = int(rng.integers(0, 180))
    hsv = np.uint8([[[hue, rng.integers(0, 256), rng.integers(20, 256)]]])
    body = tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    luma = 0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2]
    if luma > 150 or (luma > 90 and rng.random() < 0.5):
        pip = _random_colour(rng, 0, 70)
    else:
        pip = _random_colour(rng, 190, 255)
        if rng.random() < 0.2:  # gold or coloured pips
            pip = (int(rng.integers(0, 120)), int(rng.integers(150, 230)), 230)
    if rng.random() < 0.4:  # pips of any hue, as long as some channel sets them apart
        for _ in range(10):
            pip_hue, sat, val = rng.integers(0, 180), rng.integers(120, 256), rng.integers(60, 256)
            hsv = np.uint8([[[pip_hue, sat, val]]])
            cand = tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
            if max(abs(a - b) for a, b in zip(cand, body, strict=True)) >= 80:
                pip = cand
                break
    if 80 <= hue < 130 and rng.random() < 0.3:  # red pips on blue and teal bodies
        pip = _jitter(rng, _BRIGHT_PIPS[0])
    opacity = float(rng.uniform(0.65, 0.9)) if rng.random() < 0.15 else 1.0
    diameter, spacing = _pip_layout(rng)
    return DiceStyle("random", body, pip, opacity=opacity, gloss=float(rng.uniform(0.1, 0.7)),
                     pip_diameter=diameter, pip_spacing=spacing,
                     ghosts=_ghosts(rng, 0.5) if opacity < 1 else 0.0)


def _ghosts(rng: np.random.Generator, often: float) -> float:
    """How plainly a translucent die shows its far faces (``often``: how often at all)."""
    return float(rng.uniform(0.3, 1.0)) if rng.random() < often else 0.0


def _look(rng: np.random.Generator) -> Look:
    return Look(
        light=(float(rng.uniform(0, 360)), float(rng.uniform(30, 85))),
        brightness=float(rng.uniform(0.65, 1.2)),
        unevenness=float(rng.uniform(0.0, 0.45)),
        shadow=float(rng.uniform(0.1, 0.7)),
        glare=float(rng.uniform(0.0, 1.0)),
        noise=0.0, jpeg=None, defocus=0.0,  # camera faults come after compositing
        felt=_random_colour(rng), table=_random_colour(rng), wall=_random_colour(rng, 20, 200),
        ledge=_random_colour(rng, 40, 230),
    )


def procedural_floor(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A float32 BGR floor: wood, cloth, paper, stone, a gradient or clutter."""
    w, h = size
    base = np.array(_random_colour(rng, 15, 250), np.float32)
    kind = rng.choice(["plain", "wood", "grain", "gradient", "blotch", "clutter"])
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    gain = np.ones((h, w), np.float32)
    if kind == "wood":
        angle = rng.uniform(0, math.pi)
        t = xs * math.cos(angle) + ys * math.sin(angle)
        wobble = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h),
                            interpolation=cv2.INTER_CUBIC) * rng.uniform(5, 30)
        period = rng.uniform(6, 40)
        gain = 1 + rng.uniform(0.04, 0.18) * np.sin((t + wobble) / period * 2 * math.pi)
    elif kind == "grain":
        cell = int(rng.integers(1, 6))
        small = rng.normal(1, rng.uniform(0.02, 0.12), (h // cell + 1, w // cell + 1))
        gain = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    elif kind == "gradient":
        angle = rng.uniform(0, 2 * math.pi)
        t = (xs * math.cos(angle) + ys * math.sin(angle)) / max(w, h)
        gain = 1 + rng.uniform(-0.5, 0.5) * t
    elif kind == "blotch":
        small = rng.normal(1, rng.uniform(0.05, 0.25), (6, 8)).astype(np.float32)
        gain = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    floor = base[None, None, :] * gain[..., None]
    if kind == "clutter":  # cables, a laptop's edge, paper: things that are not dice
        for _ in range(int(rng.integers(1, 5))):
            colour = tuple(float(v) for v in _random_colour(rng))
            if rng.random() < 0.5:
                pts = np.cumsum(rng.normal(0, 40, (6, 2)), axis=0) + rng.uniform(0, [w, h])
                cv2.polylines(floor, [pts.astype(np.int32)], False, colour,
                              int(rng.integers(3, 14)), cv2.LINE_AA)
            else:
                corner = rng.uniform(0, [w, h])
                cv2.rectangle(floor, tuple(int(v) for v in corner),
                              tuple(int(v) for v in corner + rng.uniform(40, 300, 2)),
                              colour, -1)
    fine = rng.normal(1, rng.uniform(0.0, 0.04), (h, w)).astype(np.float32)
    return np.clip(floor * fine[..., None], 0, 255)


def _dice_mask(scene, size: tuple[int, int]) -> np.ndarray:
    camera = Camera.for_scene(scene)
    mask = np.zeros((size[1], size[0]), np.uint8)
    for die in scene.dice:
        hull = _silhouette(scene, _pose(scene, die), camera)
        cv2.fillConvexPoly(mask, np.round(hull * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    return mask.astype(np.float32)[..., None] / 255


def camera_faults(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    image = image * rng.uniform(0.85, 1.15, 3)[None, None, :] + rng.uniform(-20, 20)
    if rng.random() < 0.3:
        gamma = rng.uniform(0.7, 1.4)
        image = 255 * (np.clip(image, 0, 255) / 255) ** gamma
    if rng.random() < 0.5:
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.6))
    image = image + rng.normal(0, rng.uniform(0, 7), image.shape)
    frame = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 96))])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


def compose(seed: int, clutter: int = 0) -> tuple[np.random.Generator, np.ndarray, FrameTruth,
                                                  list[Spot]]:
    """A float32 BGR frame at :data:`RENDER_SIZE` (before camera faults), its truth, the
    generator to go on drawing from, and where up to ``clutter`` things that are not dice
    lie on the floor (:mod:`training.clutter`; none drawn when 0)."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 3, 4, 5, 5, 5, 6, 8, 10, 14, 20, 25]))
    big = n > 8
    tray = (300.0, 220.0) if big else (210.0, 150.0)
    scene = random_scene(int(rng.integers(2**31)), n, hard=True, image_size=RENDER_SIZE)
    scene = replace(scene, tray_mm=tray, dice=())
    scene = replace(scene, dice=tuple(random_scene(int(rng.integers(2**31)), n, hard=True,
                                                   image_size=RENDER_SIZE).dice)
                    if not big else _spread(rng, scene, n))
    camera = CameraPose(image_size=RENDER_SIZE, elevation=float(rng.uniform(40, 90)),
                        distance_mm=float(rng.uniform(300, 600)),
                        fill=float(rng.uniform(0.7, 2.4)), yaw=float(rng.uniform(-180, 180)),
                        roll=float(rng.uniform(-10, 10)))
    scene = replace(scene, camera=camera, look=_look(rng), style=random_style(rng),
                    die_mm=float(rng.uniform(11, 20)), ledge_mm=0.0 if big else scene.ledge_mm,
                    dice=tuple(_upset(rng, die) for die in scene.dice))
    frame, truth = render(scene)
    image = frame.astype(np.float32)
    body = _dice_mask(scene, RENDER_SIZE)  # where the dice are, 0..1
    marbled = rng.random() < 0.3
    pips = _pip_mask(scene, frame) if marbled else None
    shade = None
    if rng.random() < 0.4 and n > 1:  # a second set of dice in another colour
        others = [i for i in range(n) if rng.random() < 0.5]
        if others:
            second = replace(scene, style=random_style(rng),
                             dice=tuple(scene.dice[i] for i in others))
            frame2, _ = render(second)
            mask2 = _dice_mask(second, RENDER_SIZE)
            image = image * (1 - mask2) + frame2.astype(np.float32) * mask2
            if pips is not None:
                pips = pips * (1 - mask2) + _pip_mask(second, frame2) * mask2
    if rng.random() < 0.65:  # another floor, the dice's shadows kept
        empty = render(scene.with_dice(()))[0].astype(np.float32)
        shade = np.clip((image.mean(axis=2, keepdims=True) + 4)
                        / (empty.mean(axis=2, keepdims=True) + 4), 0.2, 1.1)
        floor = procedural_floor(rng, RENDER_SIZE)
        image = image * body + floor * shade * (1 - body)
    if pips is not None:  # marbled or swirled dice
        image = _marble(rng, image, body * (1 - pips))
    spots: list[Spot] = []
    if clutter and truth.dice:  # things on the floor, under the dice
        layer = image.copy()
        size = float(np.median([d.size for d in truth.dice]))
        spots = scatter(rng, layer, [(d.x, d.y, d.size) for d in truth.dice], size,
                        int(rng.integers(0, clutter + 1)))
        image = image * body + layer * (1 - body)
    return rng, image, truth, spots


def _pip_mask(scene, frame: np.ndarray) -> np.ndarray:
    """Where ``frame`` (``scene`` rendered) shows pips, 0..1 (H x W x 1): the difference
    from the same scene rendered with pips the body's colour."""
    bare = replace(scene, style=replace(scene.style, pip_color=scene.style.die_color))
    diff = np.abs(frame.astype(np.float32) - render(bare)[0].astype(np.float32)).max(axis=2)
    return np.clip(diff / 25.0, 0, 1)[..., None]


def _marble(rng: np.random.Generator, image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Swirls or thin veins of a second colour over the dice's bodies (``mask``), strong
    enough to look like pips now and then: the pips are what counts, not specks."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, math.pi)
    warp = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h),
                      interpolation=cv2.INTER_CUBIC) * rng.uniform(10, 60)
    t = (xs * math.cos(angle) + ys * math.sin(angle) + warp) / rng.uniform(4, 15)
    if rng.random() < 0.5:
        swirl = (0.5 + 0.5 * np.sin(t)) ** rng.uniform(1, 4)
    else:  # veins where the wave crosses zero
        swirl = np.exp(-(np.sin(t) / rng.uniform(0.08, 0.35)) ** 2)
    alpha = (swirl * rng.uniform(0.3, 0.9))[..., None] * mask
    colour = np.array(_random_colour(rng), np.float32)[None, None, :]
    return image * (1 - alpha) + colour * alpha


def sample(seed: int, clutter: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """One training frame at :data:`INPUT_SIZE` and its dice ``(x, y, size, kind)``, with
    up to ``clutter`` things that are not dice on the floor (to be passed by)."""
    rng, image, truth, _ = compose(seed, clutter)
    # a window of the frame, so dice span from a few pixels to a third of the input
    k = float(np.exp(rng.uniform(np.log(0.3), 0)))
    cw, ch = RENDER_SIZE[0] * k, RENDER_SIZE[1] * k
    x0, y0 = rng.uniform(0, RENDER_SIZE[0] - cw), rng.uniform(0, RENDER_SIZE[1] - ch)
    s = INPUT_SIZE[0] / cw
    warp = np.float32([[s, 0, -x0 * s], [0, s, -y0 * s]])
    faulty = camera_faults(rng, image)
    small = cv2.warpAffine(faulty, warp, INPUT_SIZE, flags=cv2.INTER_AREA if s < 1
                           else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    rows = [((d.x - x0) * s, (d.y - y0) * s, d.size * s,
             COCKED if d.cocked else MOVING if d.blurred else FLAT) for d in truth.dice
            if -d.size * s < (d.x - x0) * s < INPUT_SIZE[0] + d.size * s
            and -d.size * s < (d.y - y0) * s < INPUT_SIZE[1] + d.size * s]  # dice in the window
    return small, np.array(rows, np.float32).reshape(-1, 4)


def _upset(rng: np.random.Generator, die):
    """Now and then a die leans or is still moving (few enough in tidy scenes to learn)."""
    roll = rng.random()
    if roll < 0.1 and not die.cocked:
        return replace(die, tilt=float(rng.uniform(10, 35)),
                       tilt_direction=float(rng.uniform(0, 360)))
    if roll < 0.18 and not die.moving:
        return replace(die, motion=(float(rng.uniform(-16, 16)), float(rng.uniform(-16, 16))),
                       spin=float(rng.uniform(-45, 45)))
    return die


def _spread(rng: np.random.Generator, scene, n: int):
    """Many dice scattered over a big tray (random_scene places at most a handful well)."""
    from dicetray.vision.scene import DieState

    placed: list[DieState] = []
    width, depth = scene.tray_mm
    size = 16.0
    for _ in range(n):
        for _attempt in range(100):
            x, y = float(rng.uniform(15, width - 15)), float(rng.uniform(15, depth - 15))
            if all(math.hypot(x - d.x, y - d.y) >= size * 1.5 for d in placed):
                break
        placed.append(DieState(int(rng.integers(1, 7)), x, y, float(rng.uniform(0, 360))))
    return tuple(placed)


def over_seeds(make: Callable[[int], T], frames: int, seed: int, workers: int) -> list[T]:
    """``make(s)`` for the seeds ``seed``, ``seed + 1``, … (``frames`` of them), made on
    ``workers`` processes."""
    seeds = range(seed, seed + frames)
    if workers > 1:
        with Pool(workers) as pool:
            return pool.map(make, seeds, chunksize=32)
    return [make(s) for s in seeds]


def build(frames: int, seed: int, workers: int,
          clutter: int = 0) -> tuple[np.ndarray, list[np.ndarray]]:
    """``frames`` samples (seeds ``seed``, ``seed + 1``, …) made on ``workers`` processes,
    each with up to ``clutter`` things that are not dice."""
    pairs = over_seeds(functools.partial(sample, clutter=clutter), frames, seed, workers)
    return np.stack([p[0] for p in pairs]), [p[1] for p in pairs]


def maker_parser(doc: str | None, frames: int, seed: int) -> argparse.ArgumentParser:
    """The command line of the tools that render training data (``--out``, ``--frames``, …)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--frames", type=int, default=frames)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--workers", type=int, default=2)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = maker_parser(__doc__, frames=12000, seed=0)
    parser.add_argument("--clutter", type=int, default=0,
                        help="most things that are not dice (keys, plugs, labels) per frame")
    args = parser.parse_args(argv)
    images, dice = build(args.frames, args.seed, args.workers, args.clutter)
    counts = np.array([len(d) for d in dice])
    np.savez_compressed(args.out, images=images, dice=np.concatenate(dice), counts=counts)
    print(f"{len(images)} frames, {counts.sum()} dice -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
