#!/usr/bin/env python3
"""The reader on the view a tray's own camera has: clean top-down frames of every dice style.

Each roll is :func:`dicetray.vision.scene.tray_view` (five flat dice apart, sharp, a random
light, felt and table, the camera 80-90 degrees above, 1920x1080 unless ``--size``),
rendered once per dice style the renderer knows (white, ivory, red, blue, green, black,
translucent red and blue): ``--rolls`` rolls from seed ``--seed`` on. Every frame is a
roll a player would expect read, so a refusal is a clean photo refused. Each frame is read
by the shipped reader without and with the count (five) and by the standard method
(Golsteyn 2020, ``benchmarks/baseline_golsteyn.py``); per style and in all: right /
refused / silently wrong, and each refusal's reason.

Seeds 1000-1024 are the rolls the mechanisms of "A face fitted askew, read again" were
found on (docs/benchmarks.md); report on others:

    python3 benchmarks/tray_view.py --rolls 40 --seed 3000
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

from benchmarks.baseline_golsteyn import GolsteynReader  # noqa: E402
from benchmarks.metrics import outcome  # noqa: E402
from dicetray.vision import read  # noqa: E402
from dicetray.vision.render import render  # noqa: E402
from dicetray.vision.scene import STYLES, tray_view  # noqa: E402

WAYS = ("dicetray", "dicetray, told the count", "Golsteyn 2020")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=40, help="rolls per dice style")
    ap.add_argument("--seed", type=int, default=3000, help="the first roll's seed")
    ap.add_argument("--size", default="1920x1080", help="frame size WxH")
    ap.add_argument("--styles", default=",".join(STYLES), help="comma-separated dice styles")
    ap.add_argument("--threads", type=int, default=1, help="OpenCV threads")
    args = ap.parse_args(argv)
    cv2.setNumThreads(args.threads)
    w, h = (int(v) for v in args.size.lower().split("x"))
    baseline = GolsteynReader()
    totals = {way: Counter() for way in WAYS}
    reasons: Counter[str] = Counter()
    print(f"{args.rolls} rolls a style from seed {args.seed}, {w}x{h}; right / refused / "
          "silently wrong\n")
    print("| dice | " + " | ".join(WAYS) + " |")
    print("| --- |" + " ---: |" * len(WAYS))
    for style in args.styles.split(","):
        counts = {way: Counter() for way in WAYS}
        for seed in range(args.seed, args.seed + args.rolls):
            frame, truth = render(tray_view(seed, style, image_size=(w, h)))
            for way, reading in zip(WAYS, (read(frame), read(frame, dice=len(truth.dice)),
                                           baseline.read(frame)), strict=True):
                got = outcome(reading.status, reading.values, truth.values)
                counts[way][got] += 1
                if way != WAYS[2] and got == "refused":
                    reasons[reading.reason.split(":")[0]] += 1
                if way != WAYS[2] and got == "wrong":
                    print(f"  silently wrong: {style} seed {seed} ({way}): read "
                          f"{reading.values}, truth {truth.values}", file=sys.stderr)
        for way in WAYS:
            totals[way].update(counts[way])
        print(f"| {style} | " + " | ".join(_cell(counts[w_]) for w_ in WAYS) + " |")
    print("| all | " + " | ".join(f"**{_cell(totals[w_])}**" for w_ in WAYS) + " |")
    print("\nthe reader's refusals (without and with the count), by reason: "
          + (", ".join(f"{k} {v}" for k, v in reasons.most_common()) or "none"))
    return 0


def _cell(c: Counter) -> str:
    return f"{c['right']} / {c['refused']} / {c['wrong']}"


if __name__ == "__main__":
    sys.exit(main())
