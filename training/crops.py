"""Training crops for the face classifier: one rendered die per crop, with its value.

The frames are the detector's (:func:`training.data.compose`: any dice colours, floors,
angles, leaning and moving dice), scaled down now and then so pips shrink to a pixel or
two, then given camera faults. Each die is cropped the way the recognizer crops a
detector's find (:func:`dicetray.vision.classifier.crop`), off-centre and off-size by as
much as the detector errs. Labels (:data:`dicetray.vision.classifier.CLASSES`): 0 a die
with no readable face (leaning or moving), 1-6 the value on top, 7 no die (a crop of
floor, or of a thing on it that is not a die: :mod:`training.clutter`). Dice cut by the
frame edge are left out (the recognizer refuses them by their place).

    python3 -m training.crops --out /tmp/crops.npz --workers 2   # 16,000 frames from seed 800000
"""

from __future__ import annotations

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


def sample_crops(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The crops (N x CROP x CROP x 3, uint8) and labels (N,) of one rendered frame."""
    rng, image, truth, things = compose(seed, CLUTTER)
    k = float(np.exp(rng.uniform(math.log(0.35), 0))) if rng.random() < 0.5 else 1.0
    if k < 1.0:
        size = (round(RENDER_SIZE[0] * k), round(RENDER_SIZE[1] * k))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    frame = camera_faults(rng, image)
    out, labels = [], []
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
    if not out:
        return np.zeros((0, 1, 1, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(out), np.array(labels, np.int64)


def build(frames: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Crops and labels from ``frames`` frames (seeds ``seed``, ``seed + 1``, …)."""
    pairs = over_seeds(sample_crops, frames, seed, workers)
    pairs = [p for p in pairs if len(p[1])]
    return np.concatenate([p[0] for p in pairs]), np.concatenate([p[1] for p in pairs])


def main(argv: list[str] | None = None) -> int:
    args = maker_parser(__doc__, frames=16000, seed=800000).parse_args(argv)
    images, labels = build(args.frames, args.seed, args.workers)
    np.savez_compressed(args.out, images=images, labels=labels)
    counts = dict(zip(CLASSES, np.bincount(labels, minlength=len(CLASSES)).tolist(), strict=True))
    print(f"{len(images)} crops ({counts}) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
