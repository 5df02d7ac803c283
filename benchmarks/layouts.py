#!/usr/bin/env python3
"""The gain of the face layouts learnt at calibration, on sketched trays.

A tray is drawn (:mod:`dicetray.vision.sketch`): white dice with red pips, five to a roll
at random places and turns, 1920×1080, whose 6s keep ``--columns`` of the usual column
spread and whose 2s and 3s have their pips ``--two`` and ``--three`` of the edge from the
centre (common dice: 1.0, 0.27, 0.27). A calibration is made (``build_calibration``,
the shipped reader) from two empty frames (none with ``--no-empty``) and ``--calibrate``
rolls of its own; then
``--rolls`` other rolls (``--seed``) are read, told there are five dice, three ways:
without a calibration, with that calibration but its learnt layouts taken out, and with
it whole. Per way: rolls right / refused / silently wrong, and the refusals' reasons.

With ``--rendered N``, instead, N hard rendered trays (:func:`~dicetray.vision.scene.
random_scene`, 640×480, each its own camera, light and dice) are each calibrated on three
empty frames and three rolls of their own and read on ``--frames`` others, with that
calibration without and with its learnt layouts, each frame counted as the other
benchmarks count it (``benchmarks.metrics.outcome``: a frame with a cocked, blurred or cut
die is right when refused, and right when answered with every value right).

    python3 benchmarks/layouts.py --rolls 40 --seed 7
    python3 benchmarks/layouts.py --rolls 40 --seed 7 --columns 0.45 --two 0.12 --three 0.16
    python3 benchmarks/layouts.py --rendered 20 --frames 6
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def tray_rolls(n: int, seed: int, columns: float, two: float,
               three: float) -> list[tuple[Any, tuple[int, ...]]]:
    """``n`` sketched rolls of five dice of one tray: (frame, the values drawn, sorted)."""
    import numpy as np

    from dicetray.vision.sketch import SketchDie, sketch, spots

    faces = {6: spots(6, columns=columns), 2: spots(2, spread=two),
             3: spots(3, spread=three)}
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        dice = []
        for i in range(5):
            value = int(rng.integers(1, 7))
            x, y = 350 + 300 * i + rng.uniform(-40, 40), 540 + rng.uniform(-250, 250)
            dice.append(SketchDie(value, x, y, 90.0, float(rng.uniform(0, 90)),
                                  face=faces.get(value)))
        out.append((sketch(dice, seed=seed * 1000 + k), tuple(sorted(d.value for d in dice))))
    return out


def rendered(trays: int, frames: int) -> None:
    """Rendered hard trays read with their calibration, without and with its layouts."""
    from benchmarks.metrics import OUTCOMES, outcome
    from dicetray.vision import read
    from dicetray.vision.calibration import build_calibration
    from dicetray.vision.errors import CalibrationError
    from dicetray.vision.render import render
    from dicetray.vision.scene import random_scene

    tally = {"calibration without layouts": [0, 0, 0], "calibration with learnt layouts": [0, 0, 0]}
    differ = 0
    for k in range(trays):
        scene = random_scene(500 + k, dice=5, hard=True, image_size=(640, 480))
        empty = [render(scene.with_dice(()), i)[0] for i in range(3)]
        shots = [render(scene.with_dice(random_scene((500 + k) * 100 + i + 1, dice=5,
                                                     hard=True).dice), i)
                 for i in range(3 + frames)]
        try:
            calibration, _ = build_calibration(empty, [f for f, _ in shots[:3]], dice=5)
        except CalibrationError as exc:
            print(f"tray {k}: not calibrated ({exc})")
            continue
        ways = dict(zip(tally, (replace(calibration, layouts=()), calibration), strict=True))
        for frame, truth in shots[3:]:
            seen = []
            for name, cal in ways.items():
                roll = read(frame, cal, dice=len(truth.values))
                got = outcome(roll.status, roll.values, truth.values, not truth.readable)
                tally[name][OUTCOMES.index(got)] += 1
                seen.append((got, roll.values))
            differ += seen[0] != seen[1]
    for name, (right, refused, wrong) in tally.items():
        print(f"{name}: {right + refused + wrong} frames of {trays} trays: right {right}, "
              f"refused {refused}, silently wrong {wrong}")
    print(f"frames answered otherwise with the layouts: {differ}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rolls", type=int, default=40, help="rolls read")
    parser.add_argument("--seed", type=int, default=7, help="seed of the rolls read")
    parser.add_argument("--calibrate", type=int, default=4, help="rolls calibrated on")
    parser.add_argument("--columns", type=float, default=0.6, help="the 6s' column share")
    parser.add_argument("--two", type=float, default=0.16, help="the 2s' pip offset (edges)")
    parser.add_argument("--three", type=float, default=0.27, help="the 3s' pip offset (edges)")
    parser.add_argument("--rendered", type=int, default=0, help="rendered trays instead")
    parser.add_argument("--frames", type=int, default=6, help="frames read per rendered tray")
    parser.add_argument("--no-empty", action="store_true",
                        help="calibrate from the dice rolls alone (no empty-tray frames)")
    args = parser.parse_args(argv)
    if args.rendered:
        rendered(args.rendered, args.frames)
        return 0
    from dicetray.vision import read
    from dicetray.vision.calibration import build_calibration
    from dicetray.vision.sketch import sketch

    shape = (args.columns, args.two, args.three)
    # the calibration's rolls are drawn with another seed than the rolls read
    frames = [f for f, _ in tray_rolls(args.calibrate, args.seed + 1000, *shape)]
    empty = [] if args.no_empty else [sketch([], seed=1), sketch([], seed=2)]
    calibration, _ = build_calibration(empty, frames, dice=5)
    learnt = ", ".join(f"{f.value} ({f.dice} dice)" for f in calibration.layouts) or "none"
    print(f"tray: 6s' columns {args.columns}, 2s at {args.two}, 3s at {args.three}; "
          f"calibrated on {args.calibrate} rolls{' alone' if args.no_empty else ''}, "
          f"layouts learnt: {learnt}")
    ways = {"no calibration": None,
            "calibration without layouts": replace(calibration, layouts=()),
            "calibration with learnt layouts": calibration}
    held = tray_rolls(args.rolls, args.seed, *shape)
    for name, cal in ways.items():
        right = wrong = 0
        reasons: Counter[str] = Counter()
        for frame, truth in held:
            roll = read(frame, cal, dice=5)
            if not roll.ok:
                reasons[roll.kind + (": classifier" if "looks like" in roll.reason else "")] += 1
            elif roll.values == truth:
                right += 1
            else:
                wrong += 1
        refused = sum(reasons.values())
        why = ", ".join(f"{k} {v}" for k, v in reasons.most_common())
        print(f"{name}: {len(held)} rolls: right {right}, refused {refused}"
              f"{f' ({why})' if why else ''}, silently wrong {wrong}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
