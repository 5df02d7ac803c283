#!/usr/bin/env python3
"""How far the reader's answers move under noise no one can see, and a detector judged
against that: the yardstick for a change that moves the detector's numbers a little.

A camera never gives the same pixels twice. Each photo (or rendered frame) is read as it
is and again under ``--draws`` draws of Gaussian noise of ``--sigma`` grey levels (each
draw seeded by the photo's name and the draw's number, so every detector sees the same
noisy frames). Per set it prints, for the shipped detector and for each ``--candidate``
(an ONNX detector file read in place of the shipped one, e.g. an 8-bit copy), the
outcomes summed over all the reads (right / refused / silently wrong) and how many
photos get another outcome from some noisy read than from the clean one (its
steadiness).

    python3 benchmarks/steady.py --sets matteop65,nell-byler,rendered --draws 4 \
        --candidate /tmp/qat/dice-detector.int8.onnx

``--classifier`` puts face classifier files beside the shipped one the same way (each
read with the shipped detector; a file is run as it is, unless an 8-bit copy of it lies
beside it, as the shipped float file's does: copy such a file elsewhere to read it):

    git show b585192:vision/models/face-classifier.int8.onnx > /tmp/old8.onnx
    cp vision/models/face-classifier.onnx /tmp/float.onnx
    python3 benchmarks/steady.py --rendered 200 --classifier /tmp/old8.onnx /tmp/float.onnx
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.datasets import load_set  # noqa: E402
from benchmarks.halves import Half, photos_in  # noqa: E402
from benchmarks.metrics import outcome  # noqa: E402
from benchmarks.vision import Sample, photo_samples, rendered_samples  # noqa: E402
from dicetray.vision import read  # noqa: E402
from dicetray.vision.parts import (  # noqa: E402
    DiceDetector,
    FaceClassifier,
    ShippedClassifier,
    ShippedDetector,
)

__all__ = ["Steadiness", "noisy", "steadiness"]


def noisy(frame: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    """``frame`` with Gaussian noise of ``sigma`` grey levels added (``seed``: the draw).

    >>> frame = np.full((8, 8, 3), 100, np.uint8)
    >>> bool((noisy(frame, 1.0, 3) == noisy(frame, 1.0, 3)).all()), int(noisy(frame, 0, 3).sum())
    (True, 19200)
    """
    if sigma <= 0:
        return frame
    noise = np.random.default_rng(seed).normal(0.0, sigma, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


@dataclass
class Steadiness:
    """One pair of networks on one set: outcomes over every read, and photos whose outcome
    moved."""

    outcomes: Counter = field(default_factory=Counter)
    moved: int = 0
    photos: int = 0

    def row(self, name: str) -> str:
        o = self.outcomes
        return (f"| {name} | {self.photos} | {o['right']} | {o['refused']} | {o['wrong']} "
                f"| {self.moved} |")


def steadiness(samples: list[Sample], detector: DiceDetector, draws: int,
               sigma: float, first: int = 1,
               classifier: FaceClassifier | None = None) -> Steadiness:
    """Read each of ``samples`` clean and under ``draws`` noise draws numbered from
    ``first`` (see the module), with ``detector`` and ``classifier`` (None: the shipped
    one)."""
    classifier = classifier or ShippedClassifier()
    out = Steadiness()
    for sample in samples:
        frame = sample.load()
        seen = []
        for draw in [0, *range(first, first + draws)]:
            seed = zlib.crc32(f"{sample.name}#{draw}".encode())
            shown = frame if draw == 0 else noisy(frame, sigma, seed)
            r = read(shown, detector=detector, classifier=classifier)
            seen.append(outcome(r.status, r.values, sample.values, sample.refuse_expected))
        out.outcomes.update(seen)
        out.moved += len(set(seen)) > 1
        out.photos += 1
    return out


def samples_of(name: str, half: str | None, rendered: int, seed: int) -> list[Sample]:
    """The samples of a shared set (``half`` of it, when given) or the rendered frames."""
    if name == "rendered":
        return list(rendered_samples(rendered, seed, (640, 480)))
    photos = load_set(name) if half is None else photos_in(name, Half(half))
    return list(photo_samples(photos))


def lines(sets: list[str], candidates: list[Path], draws: int, sigma: float,
          half: str | None, rendered: int, seed: int, first: int = 1,
          classifiers: tuple[Path, ...] = ()) -> Iterator[str]:
    """The report's Markdown lines, a table per set: a row for the shipped networks, one
    for each detector candidate and one for each classifier candidate."""
    detector, classifier = ShippedDetector(), ShippedClassifier()
    readers = {"shipped networks": (detector, classifier),
               **{f"detector {path}": (ShippedDetector(path), classifier)
                  for path in candidates},
               **{f"classifier {path}": (detector, ShippedClassifier(path))
                  for path in classifiers}}
    for name in sets:
        samples = samples_of(name, half, rendered, seed)
        yield (f"\n{name}{f' ({half} half)' if half else ''}: each read clean and under "
               f"{draws} draws of noise σ={sigma:g} (draws {first}-{first + draws - 1}), "
               "outcomes over every read\n")
        yield "| networks | photos | right | refused | silently wrong | photos moved |"
        yield "| --- | ---: | ---: | ---: | ---: | ---: |"
        for label, (detector, classifier) in readers.items():
            yield steadiness(samples, detector, draws, sigma, first, classifier).row(label)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", default="matteop65,nell-byler,rendered")
    parser.add_argument("--candidate", type=Path, nargs="*", default=[],
                        help="ONNX detector files read beside the shipped one")
    parser.add_argument("--classifier", type=Path, nargs="*", default=[],
                        help="ONNX face classifier files read beside the shipped one")
    parser.add_argument("--draws", type=int, default=4)
    parser.add_argument("--sigma", type=float, default=1.0, help="grey levels")
    parser.add_argument("--first-draw", type=int, default=1,
                        help="number of the first noise draw (another number: other draws)")
    parser.add_argument("--half", choices=[h.value for h in Half])
    parser.add_argument("--rendered", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026, help="of the rendered frames")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    for path in args.candidate:
        if not path.is_file():
            parser.error(f"no detector file {path}")
    for path in args.classifier:
        if not path.is_file():
            parser.error(f"no classifier file {path}")
    cv2.setNumThreads(args.threads)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    for line in lines(sets, args.candidate, args.draws, args.sigma, args.half,
                      args.rendered, args.seed, args.first_draw, tuple(args.classifier)):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
