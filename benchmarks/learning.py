#!/usr/bin/env python3
"""The tray learning its dice in play: what a correction's lesson costs, and what a full
teaching adds to a read.

Rendered rolls of the simulated tray are read and confirmed as read, lesson after lesson
(:meth:`dicetray.firmware.learning.Learning.learn`: the classifier's answer on each die,
the file written and synced), until the teaching holds ``--kept`` dice of every value;
then the same frames are read untaught and taught. Medians of repeated runs.

    python3 benchmarks/learning.py --kept 50
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from dicetray.firmware.config import TrayConfig
from dicetray.firmware.learning import Die, Learning, LearningSettings
from dicetray.firmware.rig import build_rig
from dicetray.vision import read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kept", type=int, default=LearningSettings().kept_per_value,
                        help="dice kept per value")
    parser.add_argument("--reads", type=int, default=21, help="reads timed each way")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rig = build_rig(TrayConfig(), simulate=True, fast=True, seed=args.seed)
    try:
        frames = []
        for _ in range(6):
            rig.sim.tray.roll()
            rig.clock.sleep(rig.sim.tray.tumble_s)
            frames.append(rig.capture())
        readings = [read(f, None, 5) for f in frames]
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "teaching.json"
            learning = Learning(path, settings=LearningSettings(kept_per_value=args.kept))
            first, full = [], []
            lessons = 0
            while min(learning.counts().values()) < args.kept and lessons < 100 * args.kept:
                frame, reading = frames[lessons % 6], readings[lessons % 6]
                dice = [Die(d.value, d.x, d.y, d.size) for d in reading.dice]
                was_full = sum(learning.counts().values()) >= 5 * args.kept
                start = time.perf_counter()
                learning.learn(frame, dice, [d.value for d in dice])
                took = (time.perf_counter() - start) * 1000
                (full if was_full else first).append(took)
                lessons += 1
            size = path.stat().st_size
            taught = learning.taught
            times: dict[str, list[float]] = {"untaught": [], "taught": []}
            for k in range(args.reads):
                for name, teaching in (("untaught", None), ("taught", taught)):
                    start = time.perf_counter()
                    read(frames[k % 6], None, 5, teaching=teaching)
                    times[name].append((time.perf_counter() - start) * 1000)
    finally:
        rig.close()
    held = sum(learning.counts().values())
    print(f"| measure ({held} dice kept, {args.kept} per value, file {size / 1024:.0f} KB) "
          "| median ms |")
    print("| --- | ---: |")
    print(f"| a correction's lesson, first {len(first[:10])} lessons "
          f"| {statistics.median(first[:10]):.1f} |")
    if full:
        print(f"| a correction's lesson, teaching nearly full ({len(full)} lessons) "
              f"| {statistics.median(full):.1f} |")
    for name, found in times.items():
        print(f"| a read (1280×960, five dice), {name} | {statistics.median(found):.1f} |")


if __name__ == "__main__":
    main()
