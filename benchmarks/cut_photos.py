#!/usr/bin/env python3
"""The reader on real photos cut through one die: every photo of a shared set cropped so
that one labelled die is cut by the frame's edge (:func:`benchmarks.tray_view.cut_through`,
the share ``--cut`` of its box left inside, every other die whole), read at its own size.

No reader should answer such a photo, so a refusal counts as right and an answer as
silently wrong unless every value is still right (the cut die's too). A photo a method
already refuses whole is refused cut as well, which says nothing about the cut; so each
method is judged on the photos it reads right whole, and the table gives how many those
are beside right / silently wrong on their cut copies. Each photo is read by the shipped
reader without and with the count of its dice, and by the standard method (Golsteyn 2020,
``benchmarks/baseline_golsteyn.py``), in one run:

    python3 benchmarks/cut_photos.py --cut 0.5
    python3 benchmarks/cut_photos.py --cut 0.35 --sets matteop65

The labelled boxes of matteop65 frame the top face alone, so every other die is kept
``--margin`` of its box's side (0.25) further from the edge: its side faces whole too.
Photos in which no die can be cut so are skipped. The cut photos whose answer is not
right go to stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from benchmarks.datasets import load_set  # noqa: E402
from benchmarks.metrics import outcome  # noqa: E402
from benchmarks.tray_view import cut_through  # noqa: E402
from dicetray.vision import read  # noqa: E402
from training.evaluate import boxes  # noqa: E402

WAYS = ("dicetray", "dicetray, told the count", "Golsteyn 2020")
SETS = ("matteop65", "nell-byler")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--cut", type=float, default=0.5, metavar="V",
                    help="the share (0-1) of the cut die's box left inside the frame")
    ap.add_argument("--margin", type=float, default=0.25,
                    help="how far (a share of its box's side) every other die stays inside")
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated shared sets")
    ap.add_argument("--threads", type=int, default=1, help="OpenCV threads")
    args = ap.parse_args(argv)
    if not 0 < args.cut < 1:
        ap.error("--cut takes the share of a die left inside the frame, between 0 and 1")
    cv2.setNumThreads(args.threads)
    # (here, not at the top: the Pi's venv, which runs the tests, has no scikit-learn)
    from benchmarks.baseline_golsteyn import GolsteynReader

    baseline = GolsteynReader()
    print(f"real photos cut so one die is {args.cut:g} inside the frame (a refusal is "
          "right); per method, of the photos it reads right whole: how many, and on "
          "their cut copies right / silently wrong\n")
    print("| set | photos cut | " + " | ".join(WAYS) + " |")
    print("| --- | ---: |" + " ---: |" * len(WAYS))
    for name in args.sets.split(","):
        outlined = boxes(name)
        counts = {way: Counter() for way in WAYS}
        cut_count = 0
        for photo in load_set(name):
            frame = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if frame is None:
                raise OSError(f"cannot decode {photo.path}")
            cut = cut_through(frame, [b[:4] for b in outlined[photo.path]], args.cut,
                              args.margin)
            if cut is None:
                continue
            cut_count += 1
            n = photo.n_dice
            for way, method in zip(WAYS, (read, lambda f, n=n: read(f, dice=n),
                                          baseline.read), strict=True):
                whole = method(frame)
                if outcome(whole.status, whole.values, photo.values) != "right":
                    continue
                counts[way]["whole"] += 1
                answer = method(cut)
                got = outcome(answer.status, answer.values, photo.values, True)
                counts[way][got] += 1
                if got != "right":
                    print(f"  {name} {photo.name} ({way}): {answer.values}, "
                          f"true {photo.values}", file=sys.stderr)
        cells = [f"{c['whole']}: {c['right']} / {c['wrong']}" for c in counts.values()]
        print(f"| {name} | {cut_count} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
