"""Training crops of the real labelled photos: the dice the reader finds there, cut the
way the reader cuts them for the face classifier, labelled from the photos' boxes.

Only the photos of one half (:mod:`benchmarks.halves`) are cut: the classifier learns
from the ``train`` half and is reported on the ``held-out`` half, never the other way.
For each photo the reader's detector finds the dice (:func:`dicetray.vision.detector.find_dice`
at the faintest find the reader considers); each find inside a labelled box is cropped
at the find's centre and size (:func:`dicetray.vision.classifier.crop`, as the reader
does) and labelled with the box's value, once as found and again off-centre and off-size
by as much as the detector errs; a find far from every labelled die (a key, a plug, a
knot in the wood) is cropped once as "no die". The labelled dice are also cut smeared
as a die still moving is (:func:`smear`: a long motion blur along a random direction),
labelled "unreadable": the real photos hold no such die, and without them a model that
learns the real dice grows readier to read a value on a moving one.

    python3 -m training.real --out /tmp/real-train.npz              # the train halves
    python3 -m training.real --out /tmp/real-held.npz --half held-out --copies 0 --smeared 0
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.datasets import SETS  # noqa: E402
from benchmarks.halves import Half, photos_in  # noqa: E402
from dicetray.vision.classifier import CLASSES, crop  # noqa: E402
from dicetray.vision.detector import Candidate, find_dice  # noqa: E402
from training.crops import edge_crops  # noqa: E402
from training.evaluate import Box, boxes, matches  # noqa: E402

NO_DIE, UNREADABLE = CLASSES.index("none"), CLASSES.index("unreadable")


def smear(image: np.ndarray, x: float, y: float, size: float, length: float,
          angle: float) -> np.ndarray:
    """The crop of the die at (x, y) (edge ``size``) as it looks moving ``length`` px
    along ``angle`` (radians) during the exposure: the area around it blurred along that
    line, then cut as :func:`~dicetray.vision.classifier.crop` cuts it."""
    k = int(length) | 1
    kernel = np.zeros((k, k), np.float32)
    c, r = k // 2, (k - 1) / 2
    dx, dy = math.cos(angle) * r, math.sin(angle) * r
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1,
             cv2.LINE_AA)
    kernel /= kernel.sum()
    half = int(size + length) + 4  # the crop's reach (0.75 size) and the kernel's, with room
    x0, y0 = int(x) - half, int(y) - half
    h, w = image.shape[:2]
    roi = cv2.copyMakeBorder(
        image[max(y0, 0):min(y0 + 2 * half, h), max(x0, 0):min(x0 + 2 * half, w)],
        max(-y0, 0), max(y0 + 2 * half - h, 0), max(-x0, 0), max(x0 + 2 * half - w, 0),
        cv2.BORDER_REPLICATE)
    return crop(cv2.filter2D(roi, -1, kernel), x - x0, y - y0, size)


@dataclass(frozen=True)
class Cutting:
    """How the real crops are cut."""

    #: The faintest find the reader looks at (the recognizer's ``FAINT_FIND``): the
    #: classifier reads such finds too.
    faint: float = 0.12
    #: Jittered crops per labelled die, besides the one cut as found: the real dice are
    #: few (about 1,500 in the train halves) beside the rendered ones (16 per frame).
    copies: int = 6
    #: Jitter of a copy's centre (a share of the die's edge, standard deviation) and of its
    #: size (log scale): as much as the detector errs, as :mod:`training.crops` jitters.
    shift: float = 0.08
    scale: float = 0.12
    #: Smeared crops per labelled die, labelled "unreadable" (:func:`smear`).
    smeared: int = 2
    #: How far a smeared die moves during the exposure, in die edges (uniform between
    #: the two): the rendered moving dice's range (up to 14 mm a side on a 16 mm die, plus
    #: spin), from where no pip is left apart (0.5 edge, a pip smeared over its own
    #: width twice or more).
    smear_from: float = 0.5
    smear_to: float = 1.3
    #: Times each labelled die and each find that is no die is cut as at the frame's edge
    #: (:func:`training.crops.edge_crops`: a die cut through, "unreadable", and whole
    #: beside the edge; a thing that is no die cut through, "no die").
    edges: int = 0
    #: A find is "no die" only this many labelled edges or more from every labelled die
    #: (nearer, it may be the die's own side face or a touching die the labels boxed
    #: apart).
    clear: float = 1.5


def labelled_finds(image: np.ndarray, truth: list[Box], faint: float = Cutting.faint
                   ) -> tuple[list[tuple[Candidate, Box]], list[Candidate]]:
    """The finds of the reader's detector in ``image`` matched to the labelled boxes
    (each with its box: the value is its last field), and the finds far from every box
    (no dice)."""
    finds = find_dice(image, faint)
    paired = [(c, box) for box, c in matches(truth, finds)]
    taken = {id(c) for c, _ in paired}
    far = [c for c in finds if id(c) not in taken and all(
        math.hypot(c.x - (b[0] + b[2]) / 2, c.y - (b[1] + b[3]) / 2)
        >= Cutting.clear * max(b[2] - b[0], b[3] - b[1]) for b in truth)]
    return paired, far


def photo_crops(image: np.ndarray, truth: list[Box], rng: np.random.Generator,
                cutting: Cutting = Cutting()) -> tuple[list[np.ndarray], list[int]]:
    """The crops and labels of one photo (see the module's docstring)."""
    paired, far = labelled_finds(image, truth, cutting.faint)
    out, labels = [], []
    for c, (*_, value) in paired:
        out.append(crop(image, c.x, c.y, c.size))
        labels.append(value)
        for _ in range(cutting.copies):
            jx, jy = rng.normal(0, cutting.shift * c.size, 2)
            js = float(np.exp(rng.normal(0, cutting.scale)))
            out.append(crop(image, c.x + jx, c.y + jy, c.size * js))
            labels.append(value)
    for c in far:
        out.append(crop(image, c.x, c.y, c.size))
        labels.append(NO_DIE)
    for c, _ in paired:
        for _ in range(cutting.smeared):
            jx, jy = rng.normal(0, cutting.shift * c.size, 2)
            js = float(np.exp(rng.normal(0, cutting.scale)))
            length = rng.uniform(cutting.smear_from, cutting.smear_to) * c.size
            out.append(smear(image, c.x + jx, c.y + jy, c.size * js, length,
                             rng.uniform(0, math.pi)))
            labels.append(UNREADABLE)
    for _ in range(cutting.edges):  # as a frame's edge would leave them
        for c, (x0, y0, x1, y1, value) in paired:
            got, values = edge_crops(rng, image, c.x, c.y, c.size, (x0, y0, x1, y1), value)
            out += got
            labels += values
        for c in far:
            got, values = edge_crops(rng, image, c.x, c.y, c.size, None, None)
            out += got
            labels += values
    return out, labels


def build(sets: list[str], half: str, seed: int,
          cutting: Cutting = Cutting()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops (N x CROP x CROP x 3, uint8), labels (N,) and each crop's set name (N,) of
    the photos of ``half`` of each of ``sets``, jittered by a generator seeded ``seed``."""
    rng = np.random.default_rng(seed)
    images, labels, names = [], [], []
    for name in sets:
        truth = boxes(name)
        for photo in photos_in(name, half):
            image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if image is None:
                raise OSError(f"cannot decode {photo.path}")
            got, values = photo_crops(image, truth.get(photo.path, []), rng, cutting)
            images += got
            labels += values
            names += [name] * len(got)
    return (np.stack(images), np.array(labels, np.int64), np.array(names))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--half", default=Half.TRAIN.value, choices=[h.value for h in Half])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--copies", type=int, default=Cutting.copies,
                        help="jittered crops per die besides the one cut as found")
    parser.add_argument("--smeared", type=int, default=Cutting.smeared,
                        help="smeared crops per die, labelled unreadable")
    parser.add_argument("--edges", type=int, default=Cutting.edges,
                        help="times each die and each thing that is no die is cut as at "
                             "the frame's edge")
    args = parser.parse_args(argv)
    if args.half != Half.TRAIN and (args.copies or args.smeared or args.edges):
        print("note: cutting the held-out half: never train on it", file=sys.stderr)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    cutting = Cutting(copies=args.copies, smeared=args.smeared, edges=args.edges)
    images, labels, names = build(sets, args.half, args.seed, cutting)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, images=images, labels=labels, sets=names)
    counts = dict(zip(CLASSES, np.bincount(labels, minlength=len(CLASSES)).tolist(), strict=True))
    print(f"{len(images)} crops of the {args.half} half of {', '.join(sets)} ({counts}) "
          f"-> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
