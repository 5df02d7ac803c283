#!/usr/bin/env python3
"""Where the recognizer's time goes: median ms per frame of each stage, on the speed
frames of ``benchmarks/vision.py`` (easy rendered frames of five dice), one OpenCV
thread, with each network engine (:mod:`dicetray.vision.networks`) side by side. Each
stage is timed on its own, twice per frame and engine (the second run kept), the
engines interleaved frame by frame.

    python3 benchmarks/stages.py              # 20 frames at 640x480 and 1280x960
    python3 benchmarks/stages.py --frames 50 --threads 2
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

from benchmarks.vision import engine_chosen  # noqa: E402
from dicetray.vision import pipscene  # noqa: E402
from dicetray.vision.classifier import TURNS, classify  # noqa: E402
from dicetray.vision.detector import detect  # noqa: E402
from dicetray.vision.networks import ENGINES  # noqa: E402
from dicetray.vision.reader import read  # noqa: E402
from dicetray.vision.render import render_dataset  # noqa: E402

SIZES = ((640, 480), (1280, 960))


def _per_engine(frames: list[np.ndarray],
                measure: Callable[[int, np.ndarray], float]) -> dict[str, float]:
    """Per engine, the median over ``frames`` of ``measure(index, frame)`` (ms); the
    engines take turns on each frame."""
    times: dict[str, list[float]] = {engine: [] for engine in ENGINES}
    for i, frame in enumerate(frames):
        for engine in ENGINES:
            with engine_chosen(engine):
                times[engine].append(measure(i, frame))
    return {engine: statistics.median(ms) for engine, ms in times.items()}


def median_ms(frames: list[np.ndarray],
              run: Callable[[int, np.ndarray], object]) -> dict[str, float]:
    """Per engine, the median over ``frames`` of the second of two runs of
    ``run(index, frame)``; the engines take turns on each frame."""
    def second_run(i: int, frame: np.ndarray) -> float:
        run(i, frame)
        start = time.perf_counter()
        run(i, frame)
        return (time.perf_counter() - start) * 1000

    return _per_engine(frames, second_run)


def windows_scaled_ms(frames: list[np.ndarray]) -> dict[str, float]:
    """Per engine, the median over ``frames`` of the time a whole read spends scaling the
    pip windows to the working scale (every call of the recognizer's ``resize``, summed;
    the second of two reads kept)."""
    spent: list[float] = []
    plain = pipscene.resize

    def timed(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        start = time.perf_counter()
        out = plain(image, size)
        spent.append((time.perf_counter() - start) * 1000)
        return out

    def second_read(_: int, frame: np.ndarray) -> float:
        read(frame)
        spent.clear()
        read(frame)
        return sum(spent)

    pipscene.resize = timed  # type: ignore[assignment]
    try:
        return _per_engine(frames, second_read)
    finally:
        pipscene.resize = plain  # type: ignore[assignment]


def stages(size: tuple[int, int], frames: int, seed: int) -> dict[str, dict[str, float]]:
    """Median ms of each stage at one frame size, per engine."""
    shots = [f for f, _ in render_dataset(frames, seed=seed, hard=False, dice=5, image_size=size)]
    dice = [[(c.x, c.y, c.size) for c in detect(f)] for f in shots]
    return {
        "whole read": median_ms(shots, lambda i, f: read(f)),
        "detector (resize + network + peaks)": median_ms(shots, lambda i, f: detect(f)),
        "detector, without the mirrored pass": median_ms(
            shots, lambda i, f: detect(f, mirror=False)),
        "pip windows scaled (within the whole read)": windows_scaled_ms(shots),
        "classifier, each die once": median_ms(shots, lambda i, f: classify(f, dice[i], turns=1)),
        f"classifier, each die in {TURNS} views": median_ms(
            shots, lambda i, f: classify(f, dice[i])),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=1, help="OpenCV (and network) threads")
    args = parser.parse_args(argv)
    cv2.setNumThreads(args.threads)
    table = {size: stages(size, args.frames, args.seed) for size in SIZES}
    columns = [(size, engine) for size in SIZES for engine in ENGINES]
    print("| stage | " + " | ".join(f"{w}×{h}, {e}" for (w, h), e in columns) + " |")
    print("| --- |" + " ---: |" * len(columns))
    for name in table[SIZES[0]]:
        print(f"| {name} | " + " | ".join(f"{table[s][name][e]:.1f}" for s, e in columns) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
