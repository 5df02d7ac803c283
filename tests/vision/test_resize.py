"""Shrinking in halving steps gives the area-averaged image, whatever the sizes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dicetray.vision.resize import resize


@pytest.mark.parametrize(("shape", "size", "most"), [
    ((960, 1280, 3), (320, 240), 1),  # exact halvings: rounding only
    ((300, 200), (150, 100), 0),
    ((482, 642, 3), (100, 75), 2),  # halved once, then the area resize (321 x 241 is odd)
    ((481, 643, 3), (100, 75), 0),  # odd: one area step
])
def test_shrinking_matches_the_area_average(
    shape: tuple[int, ...], size: tuple[int, int], most: int
) -> None:
    rng = np.random.default_rng(0)
    image = cv2.GaussianBlur(rng.integers(0, 256, shape, dtype=np.uint8), (0, 0), 2)
    got = resize(image, size)
    want = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    assert got.shape == want.shape
    diff = np.abs(got.astype(int) - want)
    assert diff.max() <= most


def test_enlarging_and_same_size() -> None:
    image = np.zeros((10, 20, 3), np.uint8)
    image[:, 10:] = 200
    big = resize(image, (40, 20))
    assert big.shape == (20, 40, 3) and big[0, 0, 0] == 0 and big[0, -1, 0] == 200
    assert resize(image, (20, 10)) is image


def test_shrinking_by_less_than_half_keeps_a_pip() -> None:
    # a dark pip 9 px across on a light face, shrunk by 1.65 (as a window of a 1280 x 960
    # frame is): bilinear, its darkest point within a few grey levels of the area average's
    image = np.full((165, 165), 220, np.uint8)
    cv2.circle(image, (82, 82), 4, 30, -1, cv2.LINE_AA)
    got = resize(image, (100, 100))
    want = cv2.resize(image, (100, 100), interpolation=cv2.INTER_AREA)
    assert abs(int(got.min()) - int(want.min())) <= 12 and got.min() < 80
    assert np.abs(got.astype(int) - want).mean() < 1.0

