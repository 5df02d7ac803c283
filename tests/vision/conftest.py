"""A face classifier unlike the dice in a frame, for the tests of what the reader does when
its second opinion is wrong: such a test must not depend on the shipped model misreading."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future

import numpy as np
import pytest

from dicetray.vision.classifier import TURNS, Ahead, answered
from dicetray.vision.parts import FaceClassifier, ShippedClassifier


class Misreads:
    """The shipped classifier's answers as a model that learnt other dice gives them: what
    it gives a value in ``swaps`` and the value that value is read as, together, goes
    ``share`` to the latter (the issue's trial: a tray's close-columned 6s read as 4s, a
    fifth to a quarter left to 6; its close-set 2s as 1s), whichever of the two the
    shipped model read. Unreadable and no die keep their share."""

    def __init__(self, swaps: dict[int, int], share: float = 0.75,
                 inner: FaceClassifier | None = None) -> None:
        self.swaps, self.share = swaps, share
        self.inner = ShippedClassifier() if inner is None else inner

    def _misread(self, probs: np.ndarray) -> np.ndarray:
        out = np.array(probs, np.float32)
        for value, read_as in self.swaps.items():
            both = out[:, value] + out[:, read_as]
            out[:, read_as] = both * self.share
            out[:, value] = both - out[:, read_as]
        return out

    def classify(self, frame: np.ndarray, dice: Sequence[tuple[float, float, float]], *,
                 turns: int = TURNS, first: np.ndarray | None = None,
                 settled: float | None = None) -> np.ndarray:
        # ``first`` (this classifier's own answers) is not handed on: the shipped one
        # reads every view again, so the misreading is applied once; ``settled`` is
        # weighed on the shipped one's own answers
        return self._misread(self.inner.classify(frame, dice, turns=turns, settled=settled))

    def classify_soon(self, frame: np.ndarray,
                      dice: Sequence[tuple[float, float, float]]) -> Future[Ahead]:
        return answered(self.classify(frame, dice, turns=1))


@pytest.fixture
def unlike_the_dice() -> Misreads:
    """The classifier of the issue's trial, on the sketched tray's dice: 6s read as 4s and
    2s as 1s."""
    return Misreads({6: 4, 2: 1})


@pytest.fixture
def unsure_of_the_one() -> Misreads:
    """A classifier as unsure of a slanted die's 1 as the shipped one was on matteop65's
    ``dice_19`` and ``dice_31`` (it gave the 2 the pips read 0.30 and 0.35): a 1 read
    half as a 2."""
    return Misreads({1: 2}, share=0.5)


@pytest.fixture
def unsure_of_the_six() -> Misreads:
    """A classifier that reads a 6 half as a 4: sure of neither."""
    return Misreads({6: 4}, share=0.5)


@pytest.fixture
def unsure_of_the_four() -> Misreads:
    """A classifier that reads a 4 half as a 6: sure of neither."""
    return Misreads({4: 6}, share=0.5)
