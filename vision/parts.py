"""The networks a reader is built with, as :class:`typing.Protocol` s, and the shipped ones.

:func:`dicetray.vision.read` takes a ``detector`` (where the dice are) and a
``classifier`` (a second opinion on each die's face) as keyword arguments; the defaults,
:class:`ShippedDetector` and :class:`ShippedClassifier`, run the models installed with
dicetray (:mod:`~dicetray.vision.detector`, :mod:`~dicetray.vision.classifier`), loaded
the first time they are asked. A test passes its own instead.

>>> import numpy as np
>>> frame = np.full((120, 160, 3), 90, np.uint8)
>>> ShippedClassifier().classify(frame, [(80.0, 60.0, 40.0)], turns=1).shape
(1, 8)
>>> ShippedDetector().find(frame, 0.12, None)
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from dicetray.vision import classifier as _classifier
from dicetray.vision import detector as _detector
from dicetray.vision.classifier import TURNS, Ahead
from dicetray.vision.detector import Candidate

__all__ = ["DiceDetector", "FaceClassifier", "ShippedClassifier", "ShippedDetector", "Teacher"]

#: A die to classify: its centre (x, y) and edge, frame px.
Where = tuple[float, float, float]


class DiceDetector(Protocol):
    """Finds the dice in a frame."""

    def find(self, frame: np.ndarray, threshold: float,
             die_size: float | None) -> list[Candidate]:
        """Every find scored ``threshold`` or more, most certain first; ``die_size`` (frame
        px), when known, sets the scale it looks at."""
        ...


class FaceClassifier(Protocol):
    """Reads a die's value from its crop as a whole: per die, the probabilities of
    :data:`dicetray.vision.classifier.CLASSES` (unreadable, 1-6, no die)."""

    def classify(self, frame: np.ndarray, dice: Sequence[Where], *, turns: int = TURNS,
                 first: np.ndarray | None = None, settled: float | None = None,
                 more: np.ndarray | None = None) -> np.ndarray:
        """N x 8 probabilities, each crop read in ``turns`` views (``first``: the answers
        of the first view, already read; ``more``: the next views, read ahead, as
        :meth:`classify_soon` gives them; ``settled``: the views past the four turns only
        where those are in doubt, see :func:`dicetray.vision.classifier.classify`)."""
        ...

    def classify_soon(self, frame: np.ndarray, dice: Sequence[Where]) -> Future[Ahead]:
        """:meth:`classify` with one view, answered while the caller goes on, and as many
        more views as it read meanwhile (:class:`dicetray.vision.classifier.Ahead`; a
        classifier that reads at once gives :func:`dicetray.vision.classifier.answered`)."""
        ...


class Teacher(Protocol):
    """The dice confirmed on one tray (:class:`dicetray.vision.teaching.Teaching`)."""

    def second_opinion(self, probs: np.ndarray) -> np.ndarray:
        """The classifier's answer read by what was taught."""
        ...


@dataclass(frozen=True)
class ShippedDetector:
    """The dice detector installed with dicetray (:func:`dicetray.vision.detector.find_dice`),
    or the same way of finding dice with the network in another ONNX file ``model`` (run
    as it is, to compare one with the installed network)."""

    model: Path = _detector.MODEL

    def find(self, frame: np.ndarray, threshold: float,
             die_size: float | None) -> list[Candidate]:
        return _detector.find_dice(frame, threshold, die_size, model=self.model)


@dataclass(frozen=True)
class ShippedClassifier:
    """The face classifier installed with dicetray (:func:`dicetray.vision.classifier.classify`),
    or the same with the network in another ONNX file ``model`` (run as it is, unless an
    8-bit copy of it lies beside it, as beside the installed one)."""

    model: Path = _classifier.MODEL

    def classify(self, frame: np.ndarray, dice: Sequence[Where], *, turns: int = TURNS,
                 first: np.ndarray | None = None, settled: float | None = None,
                 more: np.ndarray | None = None) -> np.ndarray:
        return _classifier.classify(frame, dice, self.model, turns=turns, first=first,
                                    settled=settled, more=more)

    def classify_soon(self, frame: np.ndarray, dice: Sequence[Where]) -> Future[Ahead]:
        return _classifier.classify_soon(frame, dice, self.model)
