"""The dice reader: ``read(frame) -> Reading``, four stages in a row.

1. **find** (:mod:`~dicetray.vision.finding`): the dice detector says where the dice are,
   how big, and which lean or move; finds that were there on the calibration's empty
   tray are left out;
2. **read the pips**: on a working copy scaled so pips are a few pixels wide, read only
   around the finds (:mod:`~dicetray.vision.pipscene`), pips are grouped into faces and
   fitted to the six layouts, kept on a find, and a find no face was read on is read
   from the pips nearest its centre or looked at closer (:mod:`~dicetray.vision.pipfaces`);
   each face is checked on its whole grid, for the frame's edge, a cocked die, blur
   (:mod:`~dicetray.vision.pipcheck`);
3. **second opinion** (:mod:`~dicetray.vision.opinion`, :mod:`~dicetray.vision.kinship`):
   the face classifier reads each find's crop as a whole, and its answer is weighed
   against the pips';
4. **verdict** (:mod:`~dicetray.vision.verdict`): ``ok`` or ``unsure`` with the reason,
   and every find left out with why.

The networks, the calibration, the teaching and the thresholds
(:class:`~dicetray.vision.settings.ReaderSettings`) are passed in; the defaults are the
shipped models (loaded the first time they are asked) and settings.

>>> import numpy as np, cv2
>>> tray = np.full((240, 320, 3), (60, 110, 40), np.uint8)
>>> _ = cv2.rectangle(tray, (100, 80), (160, 140), (235, 235, 235), -1)
>>> for px, py in [(112, 92), (148, 92), (130, 110), (112, 128), (148, 128)]:
...     _ = cv2.circle(tray, (px, py), 5, (20, 20, 20), -1)
>>> roll = read(tray)
>>> roll.status, roll.values
('ok', (5,))
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from dicetray.vision.detector import median_size
from dicetray.vision.finding import check_frame, check_size, find
from dicetray.vision.focus import out_of_focus
from dicetray.vision.layouts import face_layouts
from dicetray.vision.opinion import Opinion, guesses
from dicetray.vision.parts import (
    DiceDetector,
    FaceClassifier,
    ShippedClassifier,
    ShippedDetector,
    Teacher,
)
from dicetray.vision.pipcheck import check, side_faces
from dicetray.vision.pipfaces import analyse, confirm
from dicetray.vision.reading import Reading
from dicetray.vision.settings import DEFAULT_SETTINGS, ReaderSettings
from dicetray.vision.verdict import verdict

__all__ = ["read"]

_SHIPPED_DETECTOR = ShippedDetector()
_SHIPPED_CLASSIFIER = ShippedClassifier()


def read(frame: np.ndarray, calibration: Any = None, dice: int | None = None, *,
         teaching: Teacher | None = None, detector: DiceDetector | None = None,
         classifier: FaceClassifier | None = None,
         settings: ReaderSettings | None = None) -> Reading:
    """Read the dice in a BGR ``frame``; ``dice`` is the number expected (None: any).

    With a ``calibration`` (see :mod:`dicetray.vision.calibration`) its die size sets
    the scale, its empty tray leaves out what was there, the faces are fitted to the
    layouts it learnt the tray's dice draw, and each die gets its zone; without one the
    dice set the scale. With a ``teaching``
    (:class:`dicetray.vision.teaching.Teaching`: the dice the players confirmed on this
    tray) the classifier's answers are read by its prototypes. ``detector``,
    ``classifier`` and ``settings`` replace the shipped ones.

    >>> read(np.zeros((100, 100, 3), np.uint8)).reason
    'no-dice: nothing die-like in the frame'
    >>> read(np.zeros((100, 100, 3), np.uint8), 5)
    Traceback (most recent call last):
    ...
    TypeError: calibration must be a Calibration, got 5 (for the number of dice: dice=)
    >>> read(np.zeros((5, 5), np.float64))
    Traceback (most recent call last):
    ...
    dicetray.vision.errors.FrameError: a frame must be 8-bit (uint8), got float64
    """
    start = time.perf_counter()
    st = DEFAULT_SETTINGS if settings is None else settings
    detector = _SHIPPED_DETECTOR if detector is None else detector
    classifier = _SHIPPED_CLASSIFIER if classifier is None else classifier
    img = check_frame(frame)
    if dice is not None and dice < 0:
        raise ValueError(f"the number of dice cannot be negative, got {dice}")
    if isinstance(calibration, (int, float, str, bytes, os.PathLike)):  # e.g. read(frame, 5)
        raise TypeError(f"calibration must be a Calibration, got {calibration!r} "
                        "(for the number of dice: dice=)")
    check_size(img, calibration)
    # 1. find
    finds = find(img, calibration, detector, st)
    candidates = finds.candidates
    # the classifier reads every find while the pips are read (see Opinion._opinions)
    asked = classifier.classify_soon(img, [(c.x, c.y, c.size) for c in candidates])
    # 2. read the pips
    known = getattr(calibration, "die_size", None)
    die_size = known or median_size(candidates)
    sc, found = analyse(img, float(die_size) if die_size else None, candidates, st,
                        face_layouts(calibration))
    found, unread, bare = confirm(sc, found, candidates, (img.shape[1], img.shape[0]))
    check(sc, found)
    side_faces(sc, found)
    # 3. second opinion
    early = dict(zip(candidates, asked.result().rows(), strict=True))
    opinion = Opinion(img, sc, classifier, teaching)
    found, unread, left_out = opinion.weigh(found, unread, bare, finds.faint, early,
                                            finds.why, finds.dim)
    # out of focus, dice whose pips blur together are left out and the rest still answer
    out_of_focus(img, found, sc)
    # 4. verdict: told how many dice the tray holds and fewer were read, the likeliest of
    # the finds left out are shown too, as guesses, in the unsure answer
    count = len(found) + len(unread)
    guessed = guesses(sc, left_out, dice - count) if dice is not None and count < dice else []
    return verdict(sc, found, unread, guessed, finds.every, finds.why, dice, calibration, start)
