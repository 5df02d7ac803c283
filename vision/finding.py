"""Stage 1, find: where the dice may be.

The dice detector (a :class:`~dicetray.vision.parts.DiceDetector`) finds every die down
to a faint score; a find that was there on the calibration's empty tray is left out as
part of the tray (:attr:`~dicetray.vision.reading.Why.BACKGROUND`); the rest are split
into the finds read as dice (:attr:`Finds.candidates`) and the faint ones looked at only
for a die smeared by motion (:attr:`Finds.faint`); dimmer ones still are looked at only
for a die the frame cuts (:attr:`Finds.dim`).

>>> import numpy as np
>>> class NoDice:
...     def find(self, frame, threshold, die_size): return []
>>> find(np.zeros((60, 80, 3), np.uint8), None, NoDice()).candidates
[]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from dicetray.vision.detector import Candidate
from dicetray.vision.errors import FrameError
from dicetray.vision.measure import middle
from dicetray.vision.parts import DiceDetector
from dicetray.vision.reading import Why
from dicetray.vision.settings import DEFAULT_SETTINGS, ReaderSettings

__all__ = ["Finds", "check_frame", "find", "on_empty_tray"]

#: Smallest frame side that can hold a die, px.
MIN_FRAME = 16


@dataclass
class Finds:
    """What the detector found in one frame."""

    every: list[Candidate]  # every find, faint ones too, most certain first
    candidates: list[Candidate]  # those read as dice
    faint: list[Candidate]  # under the detector's threshold: looked at for a moving die
    #: under the faint ones: looked at only for a die the frame cuts (``dim_find``)
    dim: list[Candidate] = field(default_factory=list)
    #: why each find left out is left out, filled in by every stage
    why: dict[Candidate, Why] = field(default_factory=dict)


def check_frame(frame: Any) -> np.ndarray:
    """``frame`` as a BGR uint8 image, or :class:`~dicetray.vision.errors.FrameError`."""
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a NumPy image array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise FrameError(f"a frame must be 8-bit (uint8), got {frame.dtype}")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise FrameError(f"a frame must be BGR (h x w x 3), got shape {frame.shape}")
    if min(frame.shape[:2]) < MIN_FRAME:
        raise FrameError(f"frame too small to hold dice: {frame.shape[1]}x{frame.shape[0]}")
    return frame


def check_size(img: np.ndarray, calibration: Any) -> None:
    """Refuse a frame of another size than the calibration's."""
    size = getattr(calibration, "image_size", None)
    h, w = img.shape[:2]
    if size is not None and tuple(size) != (w, h):
        raise FrameError(f"the frame is {w}x{h} but the calibration is for {size[0]}x{size[1]} "
                         "frames (calibrate the camera at the size it captures)")


def background(calibration: Any, img: np.ndarray) -> np.ndarray | None:
    """The calibration's empty-tray image when it has one of the frame's size."""
    get = getattr(calibration, "background_image", None)
    bg = get() if callable(get) else None
    if not isinstance(bg, np.ndarray) or bg.shape != img.shape or bg.dtype != np.uint8:
        return None
    return bg


def on_empty_tray(img: np.ndarray, bg: np.ndarray | None, finds: list[Candidate],
                  settings: ReaderSettings = DEFAULT_SETTINGS) -> list[Candidate]:
    """The finds that were there on the empty tray ``bg``
    (:attr:`~dicetray.vision.settings.ReaderSettings.background_same`): fixtures and
    texture, never dice.

    >>> tray = np.full((80, 80, 3), 120, np.uint8)
    >>> frame = tray.copy(); frame[10:30, 10:30] = 240
    >>> found = [Candidate(20, 20, 20.0, 0.9, "flat"), Candidate(60, 60, 20.0, 0.9, "flat")]
    >>> [c.x for c in on_empty_tray(frame, tray, found)]
    [60]
    """
    if bg is None:
        return []
    same = []
    for c in finds:
        a, b = middle(img, c, settings.middle), middle(bg, c, settings.middle)
        k = (settings.background_blur,) * 2
        diff = cv2.absdiff(cv2.GaussianBlur(a, k, 0), cv2.GaussianBlur(b, k, 0))
        if (float(np.percentile(diff.max(axis=2), settings.background_percentile))
                < settings.background_same):
            same.append(c)
    return same


def find(img: np.ndarray, calibration: Any, detector: DiceDetector,
         settings: ReaderSettings = DEFAULT_SETTINGS) -> Finds:
    """Every find of ``detector`` in ``img`` (looked at for the calibration's die size when
    it has one), those on the calibration's empty tray left out."""
    known = getattr(calibration, "die_size", None)
    found = detector.find(img, settings.dim_find, float(known) if known else None)
    # (a find under ``faint_find`` drops none over it: the detector suppresses a find
    # beside a likelier one only)
    every = [c for c in found if c.score >= settings.faint_find]
    why: dict[Candidate, Why] = {}
    for c in on_empty_tray(img, background(calibration, img), every, settings):
        why[c] = Why.BACKGROUND
    keep = settings.keep_find
    return Finds(every=every,
                 candidates=[c for c in every if c.score >= keep and c not in why],
                 faint=[c for c in every if c.score < keep and c not in why], why=why,
                 dim=[c for c in found if c.score < settings.faint_find])
