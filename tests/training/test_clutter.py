"""Things on the table that are not dice, drawn for the face classifier's "no die" class."""

from __future__ import annotations

import math

import numpy as np
import pytest

from training.clutter import KINDS, scatter
from training.data import compose


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_draws_something_where_it_says(kind: str) -> None:
    for seed in range(5):
        rng = np.random.default_rng(seed)
        image = np.full((240, 320, 3), 128, np.float32)
        x, y, size = KINDS[kind](rng, image, 160.0, 120.0, 30.0)
        assert 0 <= x < 320 and 0 <= y < 240 and 5 < size < 60
        changed = np.abs(image - 128).max(axis=2) > 10
        r = round(size)
        assert changed[round(y) - r:round(y) + r, round(x) - r:round(x) + r].any()


def test_things_lie_clear_of_the_dice() -> None:
    dice = [(100.0, 100.0, 30.0), (220.0, 140.0, 30.0)]
    for seed in range(10):
        image = np.full((240, 320, 3), 128, np.float32)
        for x, y, _ in scatter(np.random.default_rng(seed), image, dice, 30.0, 3):
            assert all(math.hypot(x - dx, y - dy) > 0.9 * (30 + s) for dx, dy, s in dice)


def test_things_stay_under_the_dice_and_leave_frames_without_them_alone() -> None:
    plain = compose(5)
    _, image, truth, things = compose(5, 3)
    assert plain[3] == [] and plain[2].dice == truth.dice
    for die in truth.dice:  # the middle of every die looks as it did
        x, y = round(die.x), round(die.y)
        if 0 <= x < image.shape[1] and 0 <= y < image.shape[0] and not die.cut:
            assert np.allclose(image[y, x], plain[1][y, x], atol=1.0)
    assert len(things) <= 3
