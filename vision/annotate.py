"""Drawing a :class:`~dicetray.vision.reading.Reading` onto its frame, for people to check.

>>> import numpy as np
>>> from dicetray.vision.reading import DieReading, Reading
>>> frame = np.zeros((120, 160, 3), np.uint8)
>>> roll = Reading("ok", "", (DieReading(3, 80.0, 60.0, 10.0, "unknown", 0.9, 40.0),))
>>> out = annotate(frame, roll)
>>> out.shape, bool(out.any()), bool(frame.any())
((120, 160, 3), True, False)
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from dicetray.vision.reading import Reading

__all__ = ["annotate"]

OK_COLOUR = (60, 200, 60)
UNSURE_COLOUR = (40, 140, 255)


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    """A copy of ``frame`` with each die's box, value and confidence, and the status."""
    out = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    colour = OK_COLOUR if reading.ok else UNSURE_COLOUR
    scale = max(0.4, min(out.shape[:2]) / 900)
    thick = max(1, round(2 * scale))
    for die in reading.dice:
        box = cv2.boxPoints(((die.x, die.y), (die.size, die.size), die.angle))
        cv2.polylines(out, [np.rint(box).astype(np.int32)], True, colour, thick)
        label = f"{die.value} {die.confidence:.2f}"
        org = (round(die.x - die.size / 2), round(die.y - die.size / 2 * math.sqrt(2) - 4))
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick)
    status = "ok " + " ".join(map(str, reading.values)) if reading.ok else reading.reason
    org = (8, round(28 * scale) + 4)
    cv2.putText(out, status, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2)
    cv2.putText(out, status, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick)
    return out
