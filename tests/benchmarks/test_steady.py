"""The steadiness yardstick: the same noisy frames for every detector, the detector given
is the one read with, and a photo counts as moved only when its outcome changes."""

from __future__ import annotations

import numpy as np

from benchmarks.steady import FileDetector, noisy, steadiness
from benchmarks.vision import rendered_samples
from dicetray.vision.detector import Candidate


class FindsNothing:
    def find(self, frame: np.ndarray, threshold: float,
             die_size: float | None) -> list[Candidate]:
        return []


def test_without_noise_no_photo_moves_and_every_read_counts() -> None:
    samples = list(rendered_samples(2, 2026, (640, 480)))
    seen = steadiness(samples, FileDetector(), draws=2, sigma=0.0)
    assert seen.photos == 2 and sum(seen.outcomes.values()) == 6 and seen.moved == 0


def test_the_detector_given_is_the_one_read_with() -> None:
    samples = [s for s in rendered_samples(6, 2026, (640, 480)) if not s.refuse_expected][:2]
    seen = steadiness(samples, FindsNothing(), draws=1, sigma=1.0)
    assert seen.outcomes == {"refused": 4}
    shipped = steadiness(samples, FileDetector(), draws=1, sigma=1.0)
    assert shipped.outcomes["refused"] < 4


def test_each_draw_is_its_own_and_the_same_every_time() -> None:
    frame = np.full((30, 40, 3), 128, np.uint8)
    assert (noisy(frame, 2.0, 1) == noisy(frame, 2.0, 1)).all()
    assert (noisy(frame, 2.0, 1) != noisy(frame, 2.0, 2)).any()
    assert abs(float(noisy(frame, 2.0, 1).astype(float).std()) - 2.0) < 0.5
