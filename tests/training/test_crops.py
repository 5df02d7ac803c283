"""The face classifier's training crops: reproducible, and labelled with what they show."""

from __future__ import annotations

import numpy as np

from dicetray.vision.classifier import CLASSES, CROP
from training.crops import CLUTTER, PER_DIE, sample_crops
from training.data import compose


def test_crops_are_reproducible_from_their_seed() -> None:
    first, second = sample_crops(3), sample_crops(3)
    assert np.array_equal(first[0], second[0]) and np.array_equal(first[1], second[1])
    assert first[0].shape[1:] == (CROP, CROP, 3) and first[0].dtype == np.uint8


def test_labels_follow_the_rendered_truth() -> None:
    for seed in range(10):
        _, _, truth, things = compose(seed, CLUTTER)
        _, labels = sample_crops(seed)
        expected = []
        for die in truth.dice:
            if not die.cut:
                label = CLASSES.index("unreadable") if die.cocked or die.blurred else die.value
                expected += [label] * PER_DIE
        # the dice first, in order, then at most one crop of bare floor and one of each
        # thing on it that is not a die
        assert labels[: len(expected)].tolist() == expected
        rest = labels[len(expected):].tolist()
        assert rest == [CLASSES.index("none")] * len(rest)
        assert len(things) <= len(rest) <= len(things) + 1


def test_every_class_is_made() -> None:
    seen = set()
    for seed in range(40):
        seen |= set(sample_crops(seed)[1].tolist())
    assert seen == set(range(len(CLASSES)))
