#!/usr/bin/env python3
"""The gain of teaching: taught on a few photos of one split, read on the other.

For each set, the first ``--teach`` photos of one split whose dice the recognizer reads
as the labelled values (the players would confirm them; a refused answer counts when its
values are the labelled ones) teach it (:mod:`dicetray.vision.teaching`); the photos of
the other split are then read untaught and taught, side by side. matteop65 teaches on
Train and reads Valid; nell-byler (no split) teaches on its first half by name and reads
the second. ``sketched`` is a tray like the one the issue's trial used, drawn
(:mod:`dicetray.vision.sketch`): white dice with red pips whose 6s have their columns
close together and whose 2s have their pips towards the centre, five to a roll, 1920×1080;
it teaches on its first rolls (confirmed by the truth, die by die) and reads 40 others.

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


def sketched_rolls(n: int, seed: int) -> list[tuple[Any, tuple[Any, ...]]]:
    """``n`` sketched rolls of five trial-like dice: (frame, the dice drawn)."""
    import numpy as np

    from dicetray.vision.sketch import SketchDie, sketch, spots

    rng = np.random.default_rng(seed)
    rolls = []
    for k in range(n):
        dice = []
        for i in range(5):
            value = int(rng.integers(1, 7))
            face = (spots(6, columns=0.6) if value == 6 else
                    spots(2, spread=0.16) if value == 2 else None)
            x, y = 350 + 300 * i + rng.uniform(-40, 40), 540 + rng.uniform(-250, 250)
            dice.append(SketchDie(value, x, y, 90.0, float(rng.uniform(0, 90)), face=face))
        rolls.append((sketch(dice, seed=k), tuple(dice)))
    return rolls


def teach_sketched(rolls: list[tuple[Any, tuple[Any, ...]]]) -> tuple[Any, int]:
    """The teaching from sketched rolls, each die read confirmed by the die drawn there."""
    import math

    from dicetray.vision import read
    from dicetray.vision.teaching import Teaching, confirmed

    teaching = Teaching()
    for frame, drawn in rolls:
        reading = read(frame, dice=len(drawn))
        values = [min(drawn, key=lambda t, d=d: math.hypot(t.x - d.x, t.y - d.y)).value
                  for d in reading.dice]
        for event in confirmed(frame, reading.dice, values):
            teaching = teaching.apply(event)
    return teaching, len(rolls)


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
    parser.add_argument("--sets", default="matteop65,nell-byler,sketched")
    parser.add_argument("--teach", type=int, default=10, help="photos taught from per set")
    args = parser.parse_args(argv)
    from dicetray.vision import read

    print("| set | taught on | read | untaught: right / refused / silently wrong "
          "| taught | dice right, answered only: untaught | taught |")
    print("| --- | --- | ---: | --- | --- | ---: | ---: |")
    for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        if name == "sketched":
            rolls = sketched_rolls(args.teach + 40, seed=23)
            teaching, used = teach_sketched(rolls[:args.teach])
            held = [(frame, tuple(d.value for d in drawn)) for frame, drawn in
                    rolls[args.teach:]]
        else:
            learn, photos = splits(name)
            teaching, used = teach(learn, args.teach)
            held = [(cv2.imread(str(p.path)), p.values) for p in photos]
        before, after = Tally(), Tally()
        for frame, values in held:
            a = read(frame)
            b = read(frame, teaching=teaching)
            before.add(a.status, a.values, values)
            after.add(b.status, b.values, values)
        print(f"| {name} | {used} photos, {len(teaching.examples)} dice | {len(held)} | "
              f"{before.right} / {before.refused} / {before.wrong} | "
              f"{after.right} / {after.refused} / {after.wrong} | "
              f"{100 * before.answered_accuracy:.1f} % | {100 * after.answered_accuracy:.1f} % |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
