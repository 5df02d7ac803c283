"""Scaling images the way the recognizer needs: area-averaged when shrinking (no aliasing
of small pips), bilinear when enlarging.

OpenCV's area resize is several times slower for large factors than for an exact half,
so a big reduction is done in halving steps first; each halving averages 2 x 2 blocks,
which is what the area resize does too: for a power-of-two factor the result differs by
rounding only, for others by a grey level or two on fine texture. (Only even sides are
halved; an odd one would lose a row or column.)

>>> import numpy as np
>>> image = np.arange(64, dtype=np.uint8).reshape(8, 8)
>>> resize(image, (2, 2)).tolist()
[[14, 18], [46, 50]]
>>> resize(image, (16, 16)).shape
(16, 16)
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["resize"]


def resize(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` scaled to ``size`` (width, height); ``image`` itself, not a copy, when it
    is that size already."""
    w, h = size
    while (image.shape[1] >= 2 * w and image.shape[0] >= 2 * h
           and image.shape[0] % 2 == 0 and image.shape[1] % 2 == 0):
        half = (image.shape[1] // 2, image.shape[0] // 2)
        image = cv2.resize(image, half, interpolation=cv2.INTER_AREA)
    if (image.shape[1], image.shape[0]) == (w, h):
        return image
    shrink = image.shape[1] > w or image.shape[0] > h
    return cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
