"""Top-down sketches of a dice tray: flat dice drawn as a camera straight above sees them.

Where :mod:`dicetray.vision.render` renders dice in 3D with a random look, a sketch draws
exactly the faces asked for: white dice with coloured pips, a 6 whose columns sit close
together, a 2 whose pips sit towards the centre, clips on the tray's rim, knots in a
wooden bowl. The tests use them for the faces that real trays showed and the rendered
frames did not.

>>> frame = sketch([SketchDie(5, 200.0, 150.0, edge=80.0)], size=(400, 300))
>>> frame.shape, frame.dtype.name
((300, 400, 3), 'uint8')
>>> spots(6, columns=0.6)[0]
(-0.162, -0.27)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import cv2
import numpy as np

__all__ = ["Fixture", "FixtureKind", "SketchDie", "sketch", "spots"]

Colour = tuple[int, int, int]

#: Pip offset from the face's centre on most dice, as a share of the edge.
SPREAD = 0.27


def spots(value: int, spread: float = SPREAD, columns: float = 1.0) -> tuple[
        tuple[float, float], ...]:
    """The pips of a face ``value`` as (x, y) shares of the edge from its centre:
    ``spread`` from the centre to a corner pip's row and column; ``columns`` the share
    of it the 6's columns keep (1.0: the usual grid, 0.6: close together).

    >>> spots(2, spread=0.2)
    ((-0.2, -0.2), (0.2, 0.2))
    >>> spots(6, columns=0.5)[:2]
    ((-0.135, -0.27), (-0.135, 0.0))
    """
    s = spread
    if not 1 <= value <= 6:
        raise ValueError(f"a die face is 1..6, got {value}")
    if value == 6:
        c = round(s * columns, 6)
        return ((-c, -s), (-c, 0.0), (-c, s), (c, -s), (c, 0.0), (c, s))
    corners = {1: (), 2: ((-s, -s), (s, s)), 3: ((-s, -s), (s, s)),
               4: ((-s, -s), (s, -s), (-s, s), (s, s)),
               5: ((-s, -s), (s, -s), (-s, s), (s, s))}[value]
    return (*corners, *(((0.0, 0.0),) if value % 2 else ()))


@dataclass(frozen=True)
class SketchDie:
    """One flat die: its value, centre (px), edge (px), turn (degrees) and look.
    ``face`` replaces the usual pips (shares of the edge from the centre, see
    :func:`spots`)."""

    value: int
    x: float
    y: float
    edge: float = 90.0
    angle: float = 0.0
    body: Colour = (238, 240, 242)
    pip: Colour = (50, 40, 190)  # BGR: red
    pip_diameter: float = 0.17
    face: tuple[tuple[float, float], ...] | None = None


class FixtureKind(StrEnum):
    """Things on a tray that are not dice."""

    CLIP = "clip"  # a plastic clip holding the cloth on the rim: a dark block with a slot
    KNOT = "knot"  # a knot in wood: a dark oval ringed by grain


@dataclass(frozen=True)
class Fixture:
    """A thing that is no die, centred at (x, y), ``size`` px long."""

    kind: FixtureKind
    x: float
    y: float
    size: float
    angle: float = 0.0
    colour: Colour = (45, 45, 50)


def _draw_die(img: np.ndarray, die: SketchDie) -> None:
    half = die.edge / 2
    c, s = math.cos(math.radians(die.angle)), math.sin(math.radians(die.angle))

    def at(u: float, v: float) -> tuple[float, float]:
        return die.x + c * u - s * v, die.y + s * u + c * v

    r = 0.12 * die.edge
    outline = []
    for cx, cy, start in ((half - r, half - r, 0), (-half + r, half - r, 90),
                          (-half + r, -half + r, 180), (half - r, -half + r, 270)):
        for k in range(6):
            t = math.radians(start + 18 * k)
            outline.append(at(cx + r * math.cos(t), cy + r * math.sin(t)))
    pts = np.rint(np.array(outline) * 16).astype(np.int32)
    cv2.fillPoly(img, [pts], tuple(int(v) - 40 for v in die.body), cv2.LINE_AA, shift=4)
    inner = np.rint((np.array(outline) - (die.x, die.y)) * 0.92 * 16
                    + np.array([die.x, die.y]) * 16).astype(np.int32)
    cv2.fillPoly(img, [inner], die.body, cv2.LINE_AA, shift=4)
    face = die.face if die.face is not None else spots(die.value)
    radius = die.pip_diameter * die.edge / 2
    for u, v in face:
        px, py = at(u * die.edge, v * die.edge)
        cv2.circle(img, (round(px * 16), round(py * 16)), round(radius * 16), die.pip, -1,
                   cv2.LINE_AA, shift=4)


def _draw_fixture(img: np.ndarray, f: Fixture) -> None:
    if f.kind is FixtureKind.CLIP:
        box = cv2.boxPoints(((f.x, f.y), (f.size, 0.55 * f.size), f.angle))
        cv2.fillPoly(img, [np.rint(box).astype(np.int32)], f.colour, cv2.LINE_AA)
        slot = cv2.boxPoints(((f.x, f.y), (0.7 * f.size, 0.12 * f.size), f.angle))
        lighter = tuple(min(255, v + 60) for v in f.colour)
        cv2.fillPoly(img, [np.rint(slot).astype(np.int32)], lighter, cv2.LINE_AA)
    else:
        for k, shade in enumerate((0.55, 0.7, 0.85)):
            axes = (round(f.size / 2 * (1.6 - 0.3 * k)), round(f.size / 3 * (1.6 - 0.3 * k)))
            colour = tuple(int(v * shade) for v in f.colour)
            cv2.ellipse(img, (round(f.x), round(f.y)), axes, f.angle, 0, 360, colour, 2,
                        cv2.LINE_AA)
        cv2.ellipse(img, (round(f.x), round(f.y)), (round(f.size / 2), round(f.size / 3)),
                    f.angle, 0, 360, f.colour, -1, cv2.LINE_AA)


def sketch(dice: Sequence[SketchDie], size: tuple[int, int] = (1920, 1080), *,
           floor: Colour = (70, 60, 55), rim: Colour | None = (30, 30, 34), rim_width: int = 60,
           fixtures: Sequence[Fixture] = (), wood: bool = False, blur: float = 0.0,
           seed: int = 0) -> np.ndarray:
    """A BGR top-down frame of ``size`` (w, h): a tray floor (felt, or ``wood`` grain),
    a ``rim`` round it when given, the ``fixtures``, then the ``dice``; ``blur`` is a
    Gaussian sigma in px (0: sharp), ``seed`` the floor's noise."""
    w, h = size
    rng = np.random.default_rng(seed)
    img = np.empty((h, w, 3), np.float32)
    img[:] = floor
    if wood:
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        grain = 0.5 + 0.5 * np.sin(y / 7.0 + 3.0 * np.sin(x / 180.0))
        img *= (0.8 + 0.25 * grain)[..., None]
    img += rng.normal(0, 4.0, (h, w, 1)).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rim is not None:
        cv2.rectangle(out, (0, 0), (w - 1, h - 1), rim, rim_width)
    for f in fixtures:
        _draw_fixture(out, f)
    for die in dice:
        _draw_die(out, die)
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    return out
