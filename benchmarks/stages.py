#!/usr/bin/env python3
"""Where the recognizer's time goes: median ms per frame of each stage, on the speed
frames of ``benchmarks/vision.py`` (easy rendered frames of five dice), one OpenCV
thread, with each network engine (:mod:`dicetray.vision.networks`) side by side. Each
stage is timed on its own, twice per frame and engine (the second run kept), the
engines interleaved frame by frame.

    python3 benchmarks/stages.py              # 20 frames at 640x480 and 1280x960
    python3 benchmarks/stages.py --frames 50 --threads 2

With ``--photos SET`` it times instead the reader's four stages as they run within whole
reads (each stage's calls summed per read) on every photo of a shared set letterboxed to
the camera's 1280×960, beside the standard method (Golsteyn) on the same photos, taking
turns photo by photo (the default engine; each photo read ``--repeat`` times, the median
kept):

    python3 benchmarks/stages.py --photos nell-byler --threads 1
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.baseline_golsteyn import PUBLISHED  # noqa: E402
from benchmarks.datasets import Photo, load_set  # noqa: E402
from benchmarks.vision import REAL_SIZE, engine_chosen, letterbox, photo_samples  # noqa: E402
from dicetray.vision import pipscene  # noqa: E402
from dicetray.vision import reader as reader_module  # noqa: E402
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

    def second_read(_: int, frame: np.ndarray) -> float:
        read(frame)
        spent.clear()
        read(frame)
        return sum(spent)

    with timed_calls(pipscene, "resize", spent.append):
        return _per_engine(frames, second_read)


@contextlib.contextmanager
def timed_calls(owner: object, name: str, record: Callable[[float], object]) -> Iterator[None]:
    """Within the block, each call of ``owner.name`` (a module's function as its callers
    there look it up, or a class's method) hands its ms to ``record``; put back after."""
    plain = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return plain(*args, **kwargs)
        finally:
            record((time.perf_counter() - start) * 1000)

    setattr(owner, name, timed)
    try:
        yield
    finally:
        setattr(owner, name, plain)


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


#: The reader's stages as :mod:`dicetray.vision.reader` calls them: (stage, the names it
#: calls them by; a name with a dot is a method of the class before it).
READER_STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("1. find (the detector's looks, the empty tray)", ("find",)),
    ("2. read the pips (scene, faces, confirm, checks)",
     ("analyse", "confirm", "check", "side_faces")),
    ("3. second opinion (the classifier, weighed)", ("Opinion.weigh",)),
    ("4. verdict", ("verdict",)),
)


def _stages_timed(stack: contextlib.ExitStack, spent: dict[str, float]) -> None:
    """Until ``stack`` closes, each call of a stage's names in the reader's module adds
    its ms to ``spent[stage]``."""
    for stage, names in READER_STAGES:
        def add(ms: float, stage: str = stage) -> None:
            spent[stage] = spent.get(stage, 0.0) + ms

        for name in names:
            owner: object = reader_module
            if "." in name:
                cls, name = name.split(".")
                owner = getattr(reader_module, cls)
            stack.enter_context(timed_calls(owner, name, add))


def photo_stages(photos: list[Photo], repeat: int) -> dict[str, tuple[float, float]]:
    """Median and mean ms per photo (each photo's median of ``repeat`` reads) of the whole
    read, each reader stage and the standard method, over ``photos`` letterboxed to
    :data:`REAL_SIZE` (the stages' means add up to the whole read's, less the checks of
    the frame before the first)."""
    rows: dict[str, list[float]] = {}
    spent: dict[str, float] = {}
    with contextlib.ExitStack() as stack:
        _stages_timed(stack, spent)
        for sample in photo_samples(photos):
            frame = letterbox(sample.load(), REAL_SIZE)
            runs: dict[str, list[float]] = {}
            for _ in range(repeat):
                spent.clear()
                start = time.perf_counter()
                reader_module.read(frame)
                runs.setdefault("whole read", []).append((time.perf_counter() - start) * 1000)
                for stage, _names in READER_STAGES:
                    runs.setdefault(stage, []).append(spent.get(stage, 0.0))
                start = time.perf_counter()
                PUBLISHED.read(frame)
                runs.setdefault("standard method (Golsteyn)", []).append(
                    (time.perf_counter() - start) * 1000)
            for name, ms in runs.items():
                rows.setdefault(name, []).append(statistics.median(ms))
    return {name: (statistics.median(ms), statistics.mean(ms)) for name, ms in rows.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=1, help="OpenCV (and network) threads")
    parser.add_argument("--photos", metavar="SET",
                        help="time the reader's stages on every photo of this shared set instead")
    parser.add_argument("--repeat", type=int, default=3, help="reads of each photo (--photos)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(args.threads)
    if args.photos:
        photos = load_set(args.photos)
        row = photo_stages(photos, args.repeat)
        print(f"| {args.photos}, {len(photos)} photos at {REAL_SIZE[0]}×{REAL_SIZE[1]}, "
              f"{args.threads} thread(s) | median ms a photo | mean |")
        print("| --- | ---: | ---: |")
        for name, (median, mean) in row.items():
            print(f"| {name} | {median:.1f} | {mean:.1f} |")
        return 0
    table = {size: stages(size, args.frames, args.seed) for size in SIZES}
    columns = [(size, engine) for size in SIZES for engine in ENGINES]
    print("| stage | " + " | ".join(f"{w}×{h}, {e}" for (w, h), e in columns) + " |")
    print("| --- |" + " ---: |" * len(columns))
    for name in table[SIZES[0]]:
        print(f"| {name} | " + " | ".join(f"{table[s][name][e]:.1f}" for s, e in columns) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
