"""The structure tensor worked out at points holds what the whole map holds there."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dicetray.vision.gradients import structure_at, structure_windows


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("box", [3, 7, 11])
def test_points_read_the_same_as_the_whole_map_even_at_window_edges(seed: int, box: int) -> None:
    rng = np.random.default_rng(seed)
    gray = cv2.GaussianBlur(rng.integers(0, 256, (70, 90)).astype(np.uint8), (5, 5), 1.0)
    # two windows, one thinner than the box, and points all over (some off the image)
    windows = [(3, 4, 40, 66), (50, 10, 55, 70)]
    x, y = rng.uniform(-3, 93, 400), rng.uniform(-3, 73, 400)
    at = structure_at(gray, windows, box, x, y)
    xi = np.clip(np.rint(x).astype(int), 0, 89)
    yi = np.clip(np.rint(y).astype(int), 0, 69)
    expected = structure_windows(gray, windows, box)[yi, xi]
    assert np.array_equal(at, expected)
    assert (at[~expected.any(axis=1)] == 0).all()  # outside the windows: nothing


@pytest.mark.parametrize("seed", range(3))
def test_a_colour_image_reads_as_its_grey_copy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    colour = cv2.GaussianBlur(rng.integers(0, 256, (60, 80, 3)).astype(np.uint8), (5, 5), 1.0)
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    windows = [(0, 0, 45, 60), (50, 5, 78, 40)]
    x, y = rng.uniform(0, 80, 300), rng.uniform(0, 60, 300)
    assert np.array_equal(structure_at(colour, windows, 9, x, y),
                          structure_at(grey, windows, 9, x, y))


def test_no_points_and_points_outside_every_window() -> None:
    gray = np.full((10, 10), 50, np.uint8)
    assert structure_at(gray, [(0, 0, 5, 5)], 3, np.zeros(0), np.zeros(0)).shape == (0, 3)
    far = structure_at(gray, [(0, 0, 5, 5)], 3, np.array([8.0]), np.array([8.0]))
    assert far.tolist() == [[0.0, 0.0, 0.0]]


def test_a_streak_has_gradients_one_way() -> None:
    gray = np.zeros((21, 21), np.uint8)
    gray[:, 10:] = 200  # an edge running down the image: gradients across it only
    gxx, gyy, gxy = structure_at(gray, [(0, 0, 21, 21)], 5, np.array([10.0]), np.array([10.0]))[0]
    assert gxx > 0 and gyy == 0 and gxy == 0
