"""The standard public method to compare against: Golsteyn (2020), "counting dice pips with OpenCV".

The method (https://golsteyn.com/writing/dice), written here from its description:

1. median-blur the frame (7 px aperture) and turn it grey;
2. find the pips as dark blobs with OpenCV's ``SimpleBlobDetector`` (default parameters,
   inertia filter raised to 0.6 so elongated blobs are dropped);
3. cluster the pip centres with DBSCAN (``eps`` 40 px at 640 px frame width, one pip is
   enough for a cluster); every cluster is a die and its value is its number of pips.

It knows nothing of dice outlines, faces or colours. It answers ``unsure`` only when it
finds no pips at all or a cluster of more than six pips (touching dice); otherwise it
answers, so its silent errors are its own.

:data:`PUBLISHED` uses the published filter settings; :data:`TUNED` the stricter blob
filters that did best on the ``matteop65`` photos in a small sweep (inertia and
circularity 0.8), to show the method at its best there.

>>> import numpy as np, cv2
>>> tray = np.full((480, 640, 3), 235, np.uint8)
>>> for x, y in [(100, 100), (120, 120), (400, 300)]:
...     _ = cv2.circle(tray, (x, y), 6, (20, 20, 20), -1)
>>> roll = read(tray)
>>> roll.status, roll.values
('ok', (1, 2))
>>> read(np.full((480, 640, 3), 235, np.uint8)).reason
'no-dice: no pips found'
"""

from __future__ import annotations

import cv2
import numpy as np
from sklearn.cluster import DBSCAN

from dicetray.vision import DieReading, Reading

__all__ = ["EPS_AT_640", "MAX_PIPS", "PUBLISHED", "TUNED", "GolsteynReader", "group_pips", "read"]

EPS_AT_640 = 40.0
MAX_PIPS = 6
_BLUR_APERTURE = 7


def group_pips(pips: np.ndarray, width: int) -> list[np.ndarray]:
    """The pips clustered into dice (DBSCAN, ``eps`` scaled from 40 px at 640 px width).

    >>> [len(g) for g in group_pips(np.array([[0, 0], [30, 0], [300, 300.0]]), 640)]
    [2, 1]
    """
    if len(pips) == 0:
        return []
    eps = EPS_AT_640 * width / 640.0
    labels = DBSCAN(eps=eps, min_samples=1).fit(pips).labels_
    return [pips[labels == k] for k in range(labels.max() + 1)]


class GolsteynReader:
    """The method with its blob filters: minimum inertia ratio and (optional) circularity."""

    def __init__(self, min_inertia: float = 0.6, min_circularity: float | None = None) -> None:
        params = cv2.SimpleBlobDetector_Params()
        params.filterByInertia = True
        params.minInertiaRatio = min_inertia
        if min_circularity is not None:
            params.filterByCircularity = True
            params.minCircularity = min_circularity
        self.min_inertia = min_inertia
        self.min_circularity = min_circularity
        self._detector = cv2.SimpleBlobDetector_create(params)

    def __repr__(self) -> str:
        return (
            f"GolsteynReader(min_inertia={self.min_inertia}, "
            f"min_circularity={self.min_circularity})"
        )

    def find_pips(self, frame: np.ndarray) -> np.ndarray:
        """Centres of the dark round blobs in a BGR frame, as an ``(n, 2)`` float array."""
        grey = cv2.cvtColor(cv2.medianBlur(frame, _BLUR_APERTURE), cv2.COLOR_BGR2GRAY)
        points = [kp.pt for kp in self._detector.detect(grey)]
        return np.array(points, dtype=np.float64).reshape(-1, 2)

    def read(self, frame: np.ndarray) -> Reading:
        """Read a BGR frame; ``unsure`` only for no pips or a cluster of more than six."""
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError(f"expected a BGR uint8 frame, got {frame.dtype} {frame.shape}")
        groups = group_pips(self.find_pips(frame), frame.shape[1])
        if not groups:
            return Reading("unsure", "no-dice: no pips found", ())
        dice = tuple(
            DieReading(
                value=len(g),
                x=float(g[:, 0].mean()),
                y=float(g[:, 1].mean()),
                angle=0.0,
                zone="unknown",
                confidence=1.0,
                size=float(np.ptp(g, axis=0).max()),
            )
            for g in groups
            if len(g) <= MAX_PIPS
        )
        crowded = [g for g in groups if len(g) > MAX_PIPS]
        if crowded:
            x, y = crowded[0].mean(axis=0)
            return Reading(
                "unsure",
                f"overlap: {len(crowded[0])} pips in one cluster at ({x:.0f}, {y:.0f})",
                dice,
            )
        return Reading("ok", "", dice)


PUBLISHED = GolsteynReader()
TUNED = GolsteynReader(min_inertia=0.8, min_circularity=0.8)
read = PUBLISHED.read
