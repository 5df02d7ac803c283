#!/usr/bin/env python3
"""Where the recognizer's time goes: median ms per frame of each stage, on the speed
frames of ``benchmarks/vision.py`` (easy rendered frames of five dice), one OpenCV
thread. Each stage is timed on its own, twice per frame (the second run kept).

    python3 benchmarks/stages.py              # 20 frames at 640x480 and 1280x960
    python3 benchmarks/stages.py --frames 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from dicetray.vision.classifier import TURNS, classify  # noqa: E402
from dicetray.vision.detector import detect  # noqa: E402
from dicetray.vision.recognizer import read  # noqa: E402
from dicetray.vision.render import render_dataset  # noqa: E402

SIZES = ((640, 480), (1280, 960))


def median_ms(frames: list[np.ndarray], run: Callable[[int, np.ndarray], object]) -> float:
    """Median over ``frames`` of the second of two runs of ``run(index, frame)``."""
    times = []
    for i, frame in enumerate(frames):
        run(i, frame)
        start = time.perf_counter()
        run(i, frame)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def stages(size: tuple[int, int], frames: int, seed: int) -> dict[str, float]:
    """Median ms of each stage at one frame size."""
    shots = [f for f, _ in render_dataset(frames, seed=seed, hard=False, dice=5, image_size=size)]
    dice = [[(c.x, c.y, c.size) for c in detect(f)] for f in shots]
    return {
        "whole read": median_ms(shots, lambda i, f: read(f)),
        "detector (resize + network + peaks)": median_ms(shots, lambda i, f: detect(f)),
        "classifier, each die once": median_ms(shots, lambda i, f: classify(f, dice[i], turns=1)),
        f"classifier, each die at {TURNS} turns": median_ms(
            shots, lambda i, f: classify(f, dice[i])),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    table = {size: stages(size, args.frames, args.seed) for size in SIZES}
    print("| stage | " + " | ".join(f"{w}×{h}" for w, h in SIZES) + " |")
    print("| --- |" + " ---: |" * len(SIZES))
    for name in table[SIZES[0]]:
        print(f"| {name} | " + " | ".join(f"{table[s][name]:.1f}" for s in SIZES) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
