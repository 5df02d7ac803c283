"""A face whose pips read another face, or none, read again by laying the classifier's
value's layout on two of its pips (:func:`dicetray.vision.pipcheck.read_laid`): taken
only where the face's whole grid bears that value out."""

from __future__ import annotations

from concurrent.futures import Future

import numpy as np
import pytest

from dicetray.vision import read
from dicetray.vision.classifier import CLASSES, Ahead, answered
from dicetray.vision.reading import Reason
from dicetray.vision.render import random_scene, render


class Says:
    """A classifier sure of one value everywhere."""

    def __init__(self, value: int, p: float = 0.9) -> None:
        self.probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
        self.probs[value] = p

    def classify(self, frame: np.ndarray, dice: list, *, turns: int = 8,
                 first: np.ndarray | None = None,
                 settled: float | None = None) -> np.ndarray:
        return np.tile(self.probs, (len(dice), 1))

    def classify_soon(self, frame: np.ndarray, dice: list) -> Future[Ahead]:
        return answered(self.classify(frame, dice, turns=1))


@pytest.fixture(scope="module")
def red_four() -> np.ndarray:
    """A hard rendered frame (``render_dataset(400, seed=2026)``'s 136th): one red die
    showing 4, seen at a slant, the three pips of a side face beside its top face's. Its
    pips read a 6 (the top face's and the side face's column) in doubt."""
    frame, truth = render(random_scene(1396220978, 1, hard=True, image_size=(640, 480)))
    assert truth.values == (4,) and truth.readable
    return frame


def test_a_face_whose_pips_read_another_is_read_by_its_grid_as_the_classifier_sees_it(
        red_four: np.ndarray) -> None:
    # before, refused: "die at (481, 412) shows more pips looked at closer than at first"
    roll = read(red_four)
    assert roll.ok and roll.values == (4,), roll


@pytest.mark.parametrize("value", [3, 5])
def test_a_value_the_grid_does_not_bear_out_leaves_the_die_in_doubt(
        red_four: np.ndarray, value: int) -> None:
    # a 3 or a 5 needs a pip on the centre spot, which the 4 leaves blank: however sure
    # the classifier, the roll is refused, not answered with its value
    roll = read(red_four, classifier=Says(value))
    assert not roll.ok and roll.kind == Reason.AMBIGUOUS, roll


def test_the_value_the_grid_bears_out_is_read_as_surely_as_the_classifier_sees_it(
        red_four: np.ndarray) -> None:
    roll = read(red_four, classifier=Says(4, 0.8))
    assert roll.ok and roll.values == (4,) and roll.dice[0].confidence <= 0.8, roll
