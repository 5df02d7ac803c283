"""The steadiness yardstick: the same noisy frames for every detector, the detector and
the classifier given are the ones read with, and a photo counts as moved only when its
outcome changes."""

from __future__ import annotations

import shutil
from concurrent.futures import Future
from pathlib import Path

import numpy as np

from benchmarks.steady import noisy, steadiness
from benchmarks.vision import rendered_samples
from dicetray.vision.classifier import CLASSES, MODEL, Ahead, answered
from dicetray.vision.detector import Candidate
from dicetray.vision.parts import ShippedClassifier, ShippedDetector


class FindsNothing:
    def find(self, frame: np.ndarray, threshold: float,
             die_size: float | None) -> list[Candidate]:
        return []


def test_without_noise_no_photo_moves_and_every_read_counts() -> None:
    samples = list(rendered_samples(2, 2026, (640, 480)))
    seen = steadiness(samples, ShippedDetector(), draws=2, sigma=0.0)
    assert seen.photos == 2 and sum(seen.outcomes.values()) == 6 and seen.moved == 0


def test_the_detector_given_is_the_one_read_with() -> None:
    samples = [s for s in rendered_samples(6, 2026, (640, 480)) if not s.refuse_expected][:2]
    seen = steadiness(samples, FindsNothing(), draws=1, sigma=1.0)
    assert seen.outcomes == {"refused": 4}
    shipped = steadiness(samples, ShippedDetector(), draws=1, sigma=1.0)
    assert shipped.outcomes["refused"] < 4


def test_each_draw_is_its_own_and_the_same_every_time() -> None:
    frame = np.full((30, 40, 3), 128, np.uint8)
    assert (noisy(frame, 2.0, 1) == noisy(frame, 2.0, 1)).all()
    assert (noisy(frame, 2.0, 1) != noisy(frame, 2.0, 2)).any()
    assert abs(float(noisy(frame, 2.0, 1).astype(float).std()) - 2.0) < 0.5


class SaysNoDie:
    """A classifier sure that nothing is a die."""

    def classify(self, frame: np.ndarray, dice: list, *, turns: int = 8,
                 first: np.ndarray | None = None,
                 settled: float | None = None) -> np.ndarray:
        probs = np.zeros((len(dice), len(CLASSES)), np.float32)
        probs[:, CLASSES.index("none")] = 1.0
        return probs

    def classify_soon(self, frame: np.ndarray, dice: list) -> Future[Ahead]:
        return answered(self.classify(frame, dice))


def test_the_classifier_given_is_the_one_read_with() -> None:
    samples = [s for s in rendered_samples(6, 2026, (640, 480)) if not s.refuse_expected][:2]
    seen = steadiness(samples, ShippedDetector(), draws=1, sigma=1.0, classifier=SaysNoDie())
    assert seen.outcomes == {"refused": 4}


def test_a_classifier_file_is_run_as_it_is(tmp_path: Path) -> None:
    # the float network, away from the 8-bit copy that lies beside the shipped file
    float_file = Path(shutil.copy(MODEL, tmp_path / "float.onnx"))
    frame = next(iter(rendered_samples(1, 2026, (640, 480)))).load()
    dice = [(200.0, 200.0, 50.0), (400.0, 260.0, 50.0)]
    shipped = ShippedClassifier().classify(frame, dice, turns=1)
    read = ShippedClassifier(float_file).classify(frame, dice, turns=1)
    soon = ShippedClassifier(float_file).classify_soon(frame, dice).result().first
    assert np.allclose(read, soon, atol=1e-6)
    assert not np.allclose(read, shipped, atol=1e-6)  # not the 8-bit copy
    assert np.allclose(read, shipped, atol=0.2)  # but the same network
