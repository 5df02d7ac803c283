#!/usr/bin/env python3
"""What teaching does to the classifier's answers, die by die: taught on the dice of the
first ``--teach`` photos (by name) of one half of a shared set, every die of the other
half read by the classifier alone and by the head the teaching fits
(:func:`dicetray.vision.teaching.fit_head`) at each ``--pull``, and by the teaching as
the reader uses it (the shipped pull, the classifier's answer kept where the head agrees
and is less sure). Per way: dice read right,
dice read at ``--sure`` or more (what settles a die the pips doubt), and how many of
those are wrong (what could become a silent error).

    python3 benchmarks/teaching_head.py --sets nell-byler,matteop65 --teach 10

The dice are the detector's finds matched to labelled boxes, cropped at the find's
centre and size as the reader crops them, each read in the classifier's eight views; the
photos' halves are ``benchmarks/halves.py``'s.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.datasets import Photo  # noqa: E402
from benchmarks.taught import splits  # noqa: E402
from dicetray.vision.classifier import classify  # noqa: E402
from dicetray.vision.teaching import Confirmed, Teaching, fit_head, head  # noqa: E402
from training.evaluate import boxes  # noqa: E402
from training.real import labelled_finds  # noqa: E402


def answers(photos: list[Photo], outlined: dict) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's answers (n x 8) on the dice of ``photos`` as the reader crops them
    (each detector find matched to a labelled box, :func:`training.real.labelled_finds`,
    as ``benchmarks/faces.py`` reads them), and their labelled values (n)."""
    probs, values = [], []
    for photo in photos:
        frame = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if frame is None:
            raise OSError(f"cannot decode {photo.path}")
        paired, _ = labelled_finds(frame, outlined.get(photo.path, []))
        if paired:
            probs.append(classify(frame, [(c.x, c.y, c.size) for c, _ in paired]))
            values += [box[4] for _, box in paired]
    if not probs:
        return np.zeros((0, 8)), np.zeros(0, int)
    return np.concatenate(probs).astype(np.float64), np.array(values)


def scores(values_probs: np.ndarray, truth: np.ndarray, sure: float) -> str:
    """Right, sure and wrong among sure, for the values' probabilities per die (n x 6).

    >>> scores(np.array([[0.9, 0.1, 0, 0, 0, 0], [0.5, 0.5, 0, 0, 0, 0],
    ...                  [0, 0.85, 0.15, 0, 0, 0]]), np.array([1, 2, 1]), 0.8)
    '1 (33.3%) | 2 (66.7%) | 1'
    """
    best = values_probs.argmax(axis=1) + 1
    top = values_probs.max(axis=1)
    n = len(truth)
    sure_ = top >= sure
    wrong = int((sure_ & (best != truth)).sum())
    return (f"{int((best == truth).sum())} ({(best == truth).mean():.1%}) | "
            f"{int(sure_.sum())} ({sure_.mean():.1%}) | {wrong}") if n else "- | - | -"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="nell-byler,matteop65")
    parser.add_argument("--teach", type=int, default=10, help="photos taught from per way")
    parser.add_argument("--pull", default="0.3,1,3,10,30", help="pulls to fit heads at")
    parser.add_argument("--sure", type=float, default=0.8)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    pulls = [float(v) for v in args.pull.split(",")]
    print("| set, half read (taught on the other) | dice taught | dice read | reader "
          "| right | sure | wrong among sure |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    for name in args.sets.split(","):
        outlined = boxes(name)
        for read in ("held-out", "train"):
            teach, rest = splits(name, read)
            taught_p, taught_v = answers(teach[:args.teach], outlined)
            read_p, read_v = answers(rest, outlined)
            # each reader's share of the values, as the reader weighs it: what the
            # classifier gives unreadable and no die is kept out of it
            share = 1.0 - read_p[:, 0] - read_p[:, 7]
            rows = [("the classifier alone", read_p[:, 1:7])]
            for pull in pulls:
                w = fit_head(taught_p, taught_v, pull)
                rows.append((f"taught head, pull {pull:g}",
                             share[:, None] * np.stack([head(w, p) for p in read_p])))
            taught = Teaching(tuple(Confirmed(int(v), tuple(p))
                                    for v, p in zip(taught_v, taught_p, strict=True)))
            rows.append(("taught, as the reader reads it (`Teaching.second_opinion`)",
                         np.stack([taught.second_opinion(p)[1:7] for p in read_p])))
            for label, values in rows:
                right, sure, wrong = scores(values, read_v, args.sure).split(" | ")
                print(f"| {name}, {read} | {len(taught_v)} | {len(read_v)} | {label} "
                      f"| {right} | {sure} | {wrong} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
