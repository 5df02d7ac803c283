"""Training crops for the face classifier: one rendered die per crop, with its value.

The frames are the detector's (:func:`training.data.compose`: any dice colours, floors,
angles, leaning and moving dice), scaled down now and then so pips shrink to a pixel or
two, then given camera faults. Each die is cropped the way the recognizer crops a
detector's find (:func:`dicetray.vision.classifier.crop`), off-centre and off-size by as
much as the detector errs. Labels (:data:`dicetray.vision.classifier.CLASSES`): 0 a die
with no readable face (leaning or moving), 1-6 the value on top, 7 no die (a crop of
floor, or of a thing on it that is not a die: :mod:`training.clutter`). Dice cut by the
frame edge as rendered are left out. With ``--edges``, :func:`edge_crops` also cuts some
whole dice as a frame's edge would: through the die (labelled "no readable face": the part
left inside holds no value a reader may trust) and just beyond it (labelled with its value:
a whole die at the frame's edge); and the things that are not dice through them ("no die").

    python3 -m training.crops --out /tmp/crops.npz --workers 2   # 16,000 frames from seed 800000
"""

from __future__ import annotations

import functools
import math
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dicetray.vision.classifier import CLASSES, crop  # noqa: E402
from training.data import (  # noqa: E402
    RENDER_SIZE,
    camera_faults,
    compose,
    maker_parser,
    over_seeds,
)

#: Crops per die (each with its own jitter).
PER_DIE = 2
#: Most things that are not dice drawn into one frame (each cropped once as "no die").
CLUTTER = 3
UNREADABLE, NO_DIE = CLASSES.index("unreadable"), CLASSES.index("none")
#: The share of a die's outline left inside a frame that cuts it (uniform between the two):
#: from a sliver whose find is still near the edge to most of the top face, some of it cut.
CUT_FROM, CUT_TO = 0.15, 0.7
#: How far beyond a whole die the frame's edge may lie, in die edges (uniform from 0).
CLEAR_TO = 0.35
#: The chance that a die (or a thing that is not one) is also cut as at the frame's edge.
EDGE_CHANCE = 0.5

Outline = tuple[float, float, float, float]  # x0, y0, x1, y1


def edge_cut(frame: np.ndarray, box: Outline, inside: float,
             side: int) -> tuple[np.ndarray, int, int]:
    """The part of ``frame`` a frame's edge leaves when it runs across the outline ``box``
    (x0, y0, x1, y1) with the share ``inside`` of its width (or height) inside, cut from
    the ``side`` 0 left, 1 right, 2 top, 3 bottom; ``inside`` over 1 puts the edge beyond
    the outline. Returns the part (a view) and its origin in ``frame`` (x, y).

    >>> frame = np.zeros((100, 200, 3), np.uint8)
    >>> part, x0, y0 = edge_cut(frame, (50.0, 40.0, 70.0, 60.0), 0.25, 0)
    >>> part.shape, x0, y0
    ((100, 135, 3), 65, 0)
    >>> edge_cut(frame, (50.0, 40.0, 70.0, 60.0), 1.5, 3)[0].shape  # 10 px below it
    (70, 200, 3)
    """
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = box
    gone = 1.0 - inside
    if side == 0:
        a = min(w - 4, max(0, round(x0 + gone * (x1 - x0))))
        return frame[:, a:], a, 0
    if side == 1:
        b = max(4, min(w, round(x1 - gone * (x1 - x0))))
        return frame[:, :b], 0, 0
    if side == 2:
        a = min(h - 4, max(0, round(y0 + gone * (y1 - y0))))
        return frame[a:], 0, a
    b = max(4, min(h, round(y1 - gone * (y1 - y0))))
    return frame[:b], 0, 0


def edge_crops(rng: np.random.Generator, frame: np.ndarray, x: float, y: float, size: float,
               box: Outline | None, value: int | None) -> tuple[list[np.ndarray], list[int]]:
    """Crops of a die centred at (x, y) (edge ``size``, outline ``box``; None: the square
    of side ``size`` around its centre) as a frame's edge leaves it, each as the reader
    crops a find there (beyond the frame the edge pixels are repeated): cut through
    (labelled :data:`UNREADABLE`, its find's centre jittered or moved onto the part
    inside, as the detector places it) and whole with the edge just beyond it (labelled
    ``value``); for a thing that is not a die (``value`` None), cut through only, labelled
    :data:`NO_DIE`."""
    if box is None:
        box = (x - size / 2, y - size / 2, x + size / 2, y + size / 2)
    out, labels = [], []
    side = int(rng.integers(4))
    part, ox, oy = edge_cut(frame, box, float(rng.uniform(CUT_FROM, CUT_TO)), side)
    cx, cy = x - ox, y - oy
    if rng.random() < 0.3:  # centred on what is left inside
        ph, pw = part.shape[:2]
        cx, cy = min(max(cx, 0.0), pw - 1.0), min(max(cy, 0.0), ph - 1.0)
    jx, jy = rng.normal(0, 0.12 * size, 2)
    out.append(crop(part, cx + jx, cy + jy, size * float(np.exp(rng.normal(0, 0.15)))))
    labels.append(UNREADABLE if value is not None else NO_DIE)
    if value is not None:
        part, ox, oy = edge_cut(frame, box, 1.0 + float(rng.uniform(0, CLEAR_TO)), side)
        jx, jy = rng.normal(0, 0.08 * size, 2)
        out.append(crop(part, x - ox + jx, y - oy + jy, size * float(np.exp(rng.normal(0, 0.12)))))
        labels.append(value)
    return out, labels


def sample_crops(seed: int, edges: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The crops (N x CROP x CROP x 3, uint8) and labels (N,) of one rendered frame: each
    die's, one of bare floor, each thing's that is not a die, then (with ``edges``) those
    :func:`edge_crops` cuts of some of them."""
    rng, image, truth, things = compose(seed, CLUTTER)
    k = float(np.exp(rng.uniform(math.log(0.35), 0))) if rng.random() < 0.5 else 1.0
    if k < 1.0:
        size = (round(RENDER_SIZE[0] * k), round(RENDER_SIZE[1] * k))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    frame = camera_faults(rng, image)
    out, labels = [], []
    at_edge: list[np.ndarray] = []
    edge_labels: list[int] = []
    centres = []
    for d in truth.dice:
        x, y, size = d.x * k, d.y * k, d.size * k
        centres.append((x, y, size))
        if d.cut:
            continue
        label = UNREADABLE if d.cocked or d.blurred else d.value
        for _ in range(PER_DIE):
            jx, jy = rng.normal(0, 0.08 * size, 2)
            js = float(np.exp(rng.normal(0, 0.12)))
            out.append(crop(frame, x + jx, y + jy, size * js))
            labels.append(label)
        if edges and rng.random() < EDGE_CHANCE:
            x0, y0, x1, y1 = d.bbox
            got, values = edge_crops(rng, frame, x, y, size, (x0 * k, y0 * k, x1 * k, y1 * k),
                                     label)
            at_edge += got
            edge_labels += values
    if centres:  # a crop of floor, a die's size away from every die
        size = float(np.median([c[2] for c in centres]))
        h, w = frame.shape[:2]
        for _ in range(20):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if all(math.hypot(x - cx, y - cy) > 0.9 * (size + cs) for cx, cy, cs in centres):
                out.append(crop(frame, x, y, size * float(np.exp(rng.normal(0, 0.12)))))
                labels.append(NO_DIE)
                break
    for x, y, size in things:  # the detector now and then finds such a thing
        jx, jy = rng.normal(0, 0.1 * size * k, 2)
        out.append(crop(frame, (x + jx) * k, (y + jy) * k, size * k))
        labels.append(NO_DIE)
        if edges and rng.random() < EDGE_CHANCE:
            got, values = edge_crops(rng, frame, x * k, y * k, size * k, None, None)
            at_edge += got
            edge_labels += values
    out += at_edge
    labels += edge_labels
    if not out:
        return np.zeros((0, 1, 1, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(out), np.array(labels, np.int64)


def build(frames: int, seed: int, workers: int,
          edges: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Crops and labels from ``frames`` frames (seeds ``seed``, ``seed + 1``, …), with
    ``edges`` some cut as at a frame's edge too (:func:`edge_crops`)."""
    pairs = over_seeds(functools.partial(sample_crops, edges=edges), frames, seed, workers)
    pairs = [p for p in pairs if len(p[1])]
    return np.concatenate([p[0] for p in pairs]), np.concatenate([p[1] for p in pairs])


def main(argv: list[str] | None = None) -> int:
    parser = maker_parser(__doc__, frames=16000, seed=800000)
    parser.add_argument("--edges", action="store_true",
                        help="cut some dice and things as at a frame's edge too (edge_crops)")
    args = parser.parse_args(argv)
    images, labels = build(args.frames, args.seed, args.workers, args.edges)
    np.savez_compressed(args.out, images=images, labels=labels)
    counts = dict(zip(CLASSES, np.bincount(labels, minlength=len(CLASSES)).tolist(), strict=True))
    print(f"{len(images)} crops ({counts}) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
