#!/usr/bin/env python3
"""The gain of teaching: taught on a few photos of one split, read on the other.

For each set, the first ``--teach`` photos of one split whose dice the recognizer reads
as the labelled values (the players would confirm them; a refused answer counts when its
values are the labelled ones) teach it (:mod:`dicetray.vision.teaching`); the photos of
the other split are then read untaught and taught, side by side. matteop65 teaches on
Train and reads Valid; nell-byler (no split) teaches on its first half by name and reads
the second.

    python3 benchmarks/taught.py --teach 10
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from benchmarks.datasets import Photo, load_set  # noqa: E402
from benchmarks.metrics import Tally  # noqa: E402


def splits(name: str) -> tuple[list[Photo], list[Photo]]:
    """(photos to teach from, photos to read) of a set."""
    photos = load_set(name)
    if name == "matteop65":
        return ([p for p in photos if p.split == "Train"], [p for p in photos
                                                             if p.split == "Valid"])
    photos = sorted(photos, key=lambda p: p.name)
    half = len(photos) // 2
    return photos[:half], photos[half:]


def teach(photos: list[Photo], n: int) -> tuple[Any, int]:
    """The teaching from the first ``n`` photos whose dice read as labelled."""
    from dicetray.vision import read
    from dicetray.vision.teaching import Teaching, confirmed

    teaching, used = Teaching(), 0
    for photo in photos:
        if used >= n:
            break
        frame = cv2.imread(str(photo.path))
        reading = read(frame, dice=len(photo.values))
        if sorted(reading.values) != sorted(photo.values):
            continue
        for event in confirmed(frame, reading.dice, [d.value for d in reading.dice]):
            teaching = teaching.apply(event)
        used += 1
    return teaching, used


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", default="matteop65,nell-byler")
    parser.add_argument("--teach", type=int, default=10, help="photos taught from per set")
    args = parser.parse_args(argv)
    from dicetray.vision import read

    print("| set | taught on | read | untaught: right / refused / silently wrong "
          "| taught | dice right, answered only: untaught | taught |")
    print("| --- | --- | ---: | --- | --- | ---: | ---: |")
    for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        learn, held = splits(name)
        teaching, used = teach(learn, args.teach)
        before, after = Tally(), Tally()
        for photo in held:
            frame = cv2.imread(str(photo.path))
            a = read(frame)
            b = read(frame, teaching=teaching)
            before.add(a.status, a.values, photo.values)
            after.add(b.status, b.values, photo.values)
        print(f"| {name} | {used} photos, {len(teaching.examples)} dice | {len(held)} | "
              f"{before.right} / {before.refused} / {before.wrong} | "
              f"{after.right} / {after.refused} / {after.wrong} | "
              f"{100 * before.answered_accuracy:.1f} % | {100 * after.answered_accuracy:.1f} % |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
