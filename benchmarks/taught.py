#!/usr/bin/env python3
"""The gain of teaching: taught on a few photos of one half, read on the other.

For each set, the first ``--teach`` photos of one half whose dice the recognizer reads
as the labelled values (the players would confirm them; a refused answer counts when its
values are the labelled ones) teach it (:mod:`dicetray.vision.teaching`); the photos of
the other half are then read untaught and taught, side by side. The halves of the shared
sets are the face classifier's (:mod:`benchmarks.halves`): by default it teaches on the
half the classifier may learn from and reads the held-out half (``--read held-out``);
``--read train`` turns that round (the classifier may have learnt those photos: tuned
on), ``--read both`` gives both rows. ``rendered`` teaches on easy rendered frames of
their own seed and reads the 400 hard frames the Vision benchmark reads (seed 2026,
640×480; a frame with a cocked, blurred or cut die is right when refused). ``sketched``
is a tray like the one the issue's trial used, drawn (:mod:`dicetray.vision.sketch`):
white dice with red pips whose 6s have their columns close together and whose 2s have
their pips towards the centre, five to a roll, 1920×1080; it teaches on its first rolls
(confirmed by the truth, die by die) and reads 40 others.

    python3 benchmarks/taught.py --teach 10 --read both
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

from benchmarks.datasets import Photo  # noqa: E402
from benchmarks.halves import photos_in  # noqa: E402
from benchmarks.metrics import Tally  # noqa: E402


def splits(name: str, read: str = "held-out") -> tuple[list[Photo], list[Photo]]:
    """(photos to teach from, photos to read) of a shared set: ``read`` is the half read."""
    other = "train" if read == "held-out" else "held-out"
    return (sorted(photos_in(name, other), key=lambda p: p.name),
            sorted(photos_in(name, read), key=lambda p: p.name))


def rendered_frames(n: int, seed: int, hard: bool) -> list[tuple[Any, tuple[int, ...], bool]]:
    """``n`` rendered frames at 640×480: (frame, the values, whether to refuse it)."""
    from dicetray.vision.render import render_dataset

    return [(frame, truth.values, not truth.readable) for frame, truth in
            render_dataset(n, seed=seed, hard=hard, image_size=(640, 480))]


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


def teach(photos: list[tuple[Any, tuple[int, ...]]], n: int) -> tuple[Any, int]:
    """The teaching from the first ``n`` (frame, values) whose dice read as labelled."""
    from dicetray.vision import read
    from dicetray.vision.teaching import Teaching, confirmed

    teaching, used = Teaching(), 0
    for frame, values in photos:
        if used >= n:
            break
        reading = read(frame, dice=len(values))
        if sorted(reading.values) != sorted(values):
            continue
        for event in confirmed(frame, reading.dice, [d.value for d in reading.dice]):
            teaching = teaching.apply(event)
        used += 1
    return teaching, used


def _photos(photos: list[Photo]) -> list[tuple[Any, tuple[int, ...], bool]]:
    return [(cv2.imread(str(p.path)), tuple(p.values), False) for p in photos]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", default="matteop65,nell-byler,rendered,sketched")
    parser.add_argument("--teach", type=int, default=10, help="photos taught from per set")
    parser.add_argument("--read", choices=("held-out", "train", "both"), default="held-out",
                        help="which half of a shared set is read (the other teaches)")
    parser.add_argument("--rendered", type=int, default=400, help="hard rendered frames read")
    args = parser.parse_args(argv)
    from dicetray.vision import read

    print("| set | read | taught on | photos read | untaught: right / refused / silently "
          "wrong | taught | dice right, answered only: untaught | taught |")
    print("| --- | --- | --- | ---: | --- | --- | ---: | ---: |")
    halves = ["held-out", "train"] if args.read == "both" else [args.read]
    for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        for half in halves if name in ("matteop65", "nell-byler") else ["-"]:
            if name == "sketched":
                rolls = sketched_rolls(args.teach + 40, seed=23)
                teaching, used = teach_sketched(rolls[:args.teach])
                held = [(frame, tuple(d.value for d in drawn), False) for frame, drawn in
                        rolls[args.teach:]]
                half = "40 other rolls"
            elif name == "rendered":
                easy = rendered_frames(3 * args.teach, seed=7, hard=False)
                teaching, used = teach([(f, v) for f, v, _ in easy], args.teach)
                held = rendered_frames(args.rendered, seed=2026, hard=True)
                half = "hard frames, seed 2026"
            else:
                learn, photos = splits(name, half)
                teaching, used = teach([(f, v) for f, v, _ in _photos(learn)], args.teach)
                held = _photos(photos)
                half = f"{half}{' (tuned on)' if half == 'train' else ''}"
            before, after = Tally(), Tally()
            for frame, values, refuse in held:
                a = read(frame)
                b = read(frame, teaching=teaching)
                before.add(a.status, a.values, values, refuse)
                after.add(b.status, b.values, values, refuse)
            print(f"| {name} | {half} | {used} photos, {len(teaching.examples)} dice | "
                  f"{len(held)} | {before.right} / {before.refused} / {before.wrong} | "
                  f"{after.right} / {after.refused} / {after.wrong} | "
                  f"{100 * before.answered_accuracy:.1f} % | "
                  f"{100 * after.answered_accuracy:.1f} % |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
