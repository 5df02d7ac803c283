"""The shared measurements the reader's rules lean on: a find's ring of floor and the
median colour, each checked against the plain way of computing it."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from dicetray.vision.detector import Candidate
from dicetray.vision.measure import colour_distances, median_colour, surround


def _ring_by_mask(img: np.ndarray, cand: Candidate, inner: float, outer: float) -> np.ndarray:
    """The ring's pixels the plain way: every pixel of the image, row by row, at most
    ``outer`` of the edge from the centre both ways and not nearer than ``inner`` both."""
    rows, cols = img.shape[:2]
    far, near = outer * cand.size, inner * cand.size
    ys, xs = np.mgrid[0:rows, 0:cols]
    within = ((xs >= math.ceil(cand.x - far)) & (xs <= math.floor(cand.x + far))
              & (ys >= math.ceil(cand.y - far)) & (ys <= math.floor(cand.y + far)))
    hole = ((xs > math.floor(cand.x - near)) & (xs < math.ceil(cand.x + near))
            & (ys > math.floor(cand.y - near)) & (ys < math.ceil(cand.y + near)))
    return cv2.cvtColor(img, cv2.COLOR_BGR2LAB)[within & ~hole]


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    return np.random.default_rng(7).integers(0, 256, (90, 120, 3)).astype(np.uint8)


@pytest.mark.parametrize("x, y, size, inner", [
    (60.0, 45.0, 20.0, 0.8),    # well inside
    (60.4, 44.6, 17.3, 0.8),    # off the pixel grid
    (3.0, 45.0, 20.0, 0.8),     # its ring cut by the left edge
    (118.5, 88.7, 20.0, 0.8),   # by the bottom right corner
    (-6.0, 10.0, 20.0, 0.8),    # centred beyond the frame
    (60.0, 45.0, 20.0, 0.0),    # no hole
    (60.5, 45.5, 20.0, 0.01),   # a hole of one pixel
    (60.0, 45.0, 0.4, 0.8),     # a ring of no pixel
    (60.0, 45.0, 200.0, 0.8),   # a hole larger than the frame
])
def test_the_ring_is_every_pixel_between_its_squares_row_by_row(frame, x, y, size, inner):
    cand = Candidate(x, y, size, 0.9, "flat")
    ring, inside = surround(frame, cand, inner, 1.3)
    expected = _ring_by_mask(frame, cand, inner, 1.3)
    assert ring.dtype == np.uint8
    assert np.array_equal(ring, expected)
    assert 0.0 <= inside <= 1.0 and (inside > 0.0) == (len(ring) > 0)


def test_a_ring_wholly_beyond_the_frame_is_empty(frame):
    ring, inside = surround(frame, Candidate(-100.0, 45.0, 20.0, 0.9, "flat"), 0.8, 1.3)
    assert ring.shape == (0, 3) and inside == 0.0


@pytest.mark.parametrize("n", [1, 2, 3, 998, 999, 1000, 1001, 5000, 34020])
def test_the_median_colour_is_numpys_to_the_bit(n):
    rng = np.random.default_rng(n)
    for colours in (rng.integers(0, 256, (n, 3)).astype(np.uint8),
                    (rng.integers(0, 4, (n, 3)) * 80).astype(np.uint8),  # many ties
                    np.full((n, 3), 200, np.uint8)):
        got, expected = median_colour(colours), np.median(colours, axis=0)
        assert got.dtype == expected.dtype
        assert np.array_equal(got, expected)


@pytest.mark.parametrize("colours", [
    np.array([[128.0, 128.0, 128.0]]),                          # one, as a floor's
    np.array([[60.0, 130.5, 127.0], [200.5, 128.0, 140.0],
              [128.0, 90.0, 170.5]]),                           # medians' halves
    np.random.default_rng(5).uniform(0, 255, (7, 3)).astype(np.float32),  # any
])
def test_each_pixels_distance_to_the_nearest_colour_is_the_norms_to_the_bit(colours):
    pixels = np.random.default_rng(4).integers(0, 256, (40, 30, 3)).astype(np.uint8)
    for shaped in (pixels, pixels.reshape(-1, 3), pixels.astype(np.float32)):
        expected = np.linalg.norm(shaped[..., None, :] - colours, axis=-1).min(axis=-1)
        got = colour_distances(shaped, colours)
        assert got.shape == shaped.shape[:-1]
        assert np.array_equal(got, expected)
