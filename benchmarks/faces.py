#!/usr/bin/env python3
"""The face classifier on real crops it never learnt from: per face value, per model.

Each photo of the held-out half of each shared set (:mod:`benchmarks.halves`) is read by
the reader's detector; each find inside a labelled box is cropped and read as the reader
does (:func:`dicetray.vision.classifier.classify` at the find's centre and size, once and
in eight views), and the finds far from every labelled die should be read as no die
(:func:`training.real.labelled_finds`). Also the model's size and its time per crop.

    python3 benchmarks/faces.py --models /tmp/old.onnx vision/models/face-classifier.onnx
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.datasets import SETS  # noqa: E402
from benchmarks.halves import Half, photos_in  # noqa: E402
from dicetray.vision.classifier import CLASSES, MODEL, classify  # noqa: E402
from training.evaluate import boxes  # noqa: E402
from training.real import NO_DIE, labelled_finds  # noqa: E402

#: The least probability counted as sure (the recognizer reads a die the pips could not
#: read when the classifier is this sure).
SURE = 0.8


@dataclass
class Tally:
    """Per label: crops, read right once, read right in eight views, sure and wrong."""

    crops: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    once: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    eight: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    sure_wrong: dict[int, int] = field(default_factory=lambda: defaultdict(int))


def held_out_finds(set_name: str) -> list[tuple[np.ndarray, list[tuple[float, float, float]],
                                                list[int]]]:
    """Per held-out photo of ``set_name``: the image, its finds (x, y, size), their labels."""
    truth = boxes(set_name)
    out = []
    for photo in photos_in(set_name, Half.HELD_OUT):
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        paired, far = labelled_finds(image, truth.get(photo.path, []))
        where = [(c.x, c.y, c.size) for c, _ in paired] + [(c.x, c.y, c.size) for c in far]
        labels = [box[4] for _, box in paired] + [NO_DIE] * len(far)
        if where:
            out.append((image, where, labels))
    return out


def tally(finds: list[tuple[np.ndarray, list[tuple[float, float, float]], list[int]]],
          model: Path) -> Tally:
    t = Tally()
    for image, where, labels in finds:
        once = classify(image, where, model, turns=1)
        eight = classify(image, where, model, turns=8)
        for label, p1, p8 in zip(labels, once, eight, strict=True):
            t.crops[label] += 1
            t.once[label] += int(np.argmax(p1)) == label
            t.eight[label] += int(np.argmax(p8)) == label
            t.sure_wrong[label] += float(p8.max()) >= SURE and int(np.argmax(p8)) != label
    return t


def per_crop_ms(models: list[Path], repeat: int = 50) -> dict[Path, tuple[float, float]]:
    """Per model, the median ms per crop for five dice read once and in eight views (one
    thread), the models taking turns so a busy machine slows each alike."""
    frame = np.random.default_rng(0).integers(0, 255, (480, 640, 3), np.uint8)
    dice = [(100.0 + 100 * k, 240.0, 50.0) for k in range(5)]
    times: dict[tuple[Path, int], list[float]] = defaultdict(list)
    for model in models:
        for turns in (1, 8):
            classify(frame, dice, model, turns=turns, threads=1)  # load and warm up
    for _ in range(repeat):
        for model in models:
            for turns in (1, 8):
                start = time.perf_counter()
                classify(frame, dice, model, turns=turns, threads=1)
                times[model, turns].append((time.perf_counter() - start) * 1000 / len(dice))
    return {m: (statistics.median(times[m, 1]), statistics.median(times[m, 8])) for m in models}


def _pct(right: int, n: int) -> str:
    return f"{right / n:.1%}" if n else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", type=Path, nargs="+", default=[MODEL])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--repeat", type=int, default=50, help="timing runs per model")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    finds = {name: held_out_finds(name) for name in sets}
    labels = [*range(1, 7), NO_DIE]
    print("| set | model | " + " | ".join(CLASSES[k] for k in labels)
          + " | all dice | sure (p >= 0.8) and wrong |")
    print("| --- | --- |" + " ---: |" * (len(labels) + 2))
    for name in sets:
        for model in args.models:
            t = tally(finds[name], model)
            cells = [f"{_pct(t.once[k], t.crops[k])} / {_pct(t.eight[k], t.crops[k])} "
                     f"of {t.crops[k]}" for k in labels]
            dice = [k for k in labels if k != NO_DIE]
            n = sum(t.crops[k] for k in dice)
            all_dice = (f"{_pct(sum(t.once[k] for k in dice), n)} / "
                        f"{_pct(sum(t.eight[k] for k in dice), n)} of {n}")
            wrong = sum(t.sure_wrong.values())
            print(f"| {name} | {model} | " + " | ".join(cells) + f" | {all_dice} | {wrong} |",
                  flush=True)
    print()
    print("| model | bytes | ms per crop, read once | in eight views |")
    print("| --- | ---: | ---: | ---: |")
    for model, (once, eight) in per_crop_ms(args.models, args.repeat).items():
        print(f"| {model} | {model.stat().st_size} | {once:.3f} | {eight:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
