"""Photos made harder on purpose, to see how the recognizer copes with photos unlike the
labelled sets: taken from farther away, blurred by a moving hand, out of focus, or held
another way up (the same photo turned: whatever the recognizer says should not change).

A distortion is named ``kind:amount`` (see :data:`KINDS`):

>>> frame = np.full((40, 60, 3), 200, np.uint8)
>>> distort(frame, "zoom-out:2").shape
(80, 120, 3)
>>> distort(frame, "motion:9").shape, distort(frame, "defocus:3").shape
((40, 60, 3), (40, 60, 3))
>>> distort(frame, "turn:90").shape
(60, 40, 3)
>>> distort(frame, "fog:2")
Traceback (most recent call last):
...
ValueError: unknown distortion 'fog:2'; use zoom-out:F, motion:PX, defocus:PX or turn:90|180|270
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

__all__ = ["KINDS", "defocused", "distort", "motion_blurred", "turned", "zoomed_out"]


def zoomed_out(frame: np.ndarray, factor: float) -> np.ndarray:
    """``frame`` in the middle of a canvas ``factor`` times its size filled with its median
    colour: the same dice, ``factor`` times smaller against the frame (as if shot from
    farther away, on a larger table).

    >>> zoomed_out(np.full((4, 6, 3), 9, np.uint8), 2.0)[:, :, 0].tolist()[0]
    [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]
    """
    if factor <= 1.0:
        return frame
    h, w = frame.shape[:2]
    top, left = round(h * (factor - 1) / 2), round(w * (factor - 1) / 2)
    fill = [int(v) for v in np.median(frame.reshape(-1, 3), axis=0)]
    return cv2.copyMakeBorder(frame, top, top, left, left, cv2.BORDER_CONSTANT, value=fill)


def motion_blurred(frame: np.ndarray, length: float) -> np.ndarray:
    """``frame`` smeared along a line ``length`` px long at 30° (a camera or dice moving
    during the exposure).

    >>> dot = np.zeros((21, 21, 3), np.uint8); dot[10, 10] = 250
    >>> ys, xs = np.nonzero(motion_blurred(dot, 9)[..., 0])
    >>> int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1  # a streak 9 px wide, 5 px tall
    (9, 5)
    """
    n = max(1, round(length))
    kernel = np.zeros((n, n), np.float32)
    kernel[n // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), 30, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (n, n))
    return cv2.filter2D(frame, -1, kernel / kernel.sum())


def defocused(frame: np.ndarray, radius: float) -> np.ndarray:
    """``frame`` out of focus: each point spread over a disc of ``radius`` px."""
    r = max(1, round(radius))
    disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    cv2.circle(disc, (r, r), r, 1.0, -1)
    return cv2.filter2D(frame, -1, disc / disc.sum())


def turned(frame: np.ndarray, degrees: float) -> np.ndarray:
    """``frame`` turned clockwise by a whole number of quarter turns (``degrees`` 90, 180
    or 270; 0 leaves it as it is).

    >>> turned(np.arange(6, dtype=np.uint8).reshape(2, 3), 90).tolist()
    [[3, 0], [4, 1], [5, 2]]
    """
    quarters, rest = divmod(degrees, 90)
    if rest:
        raise ValueError(f"a turn is a whole number of quarter turns, not {degrees}°")
    return np.ascontiguousarray(np.rot90(frame, -int(quarters) % 4))


#: The distortions by name, each taking the frame and its amount.
KINDS: dict[str, Callable[[np.ndarray, float], np.ndarray]] = {
    "zoom-out": zoomed_out,
    "motion": motion_blurred,
    "defocus": defocused,
    "turn": turned,
}


def distort(frame: np.ndarray, spec: str) -> np.ndarray:
    """``frame`` distorted as ``spec`` (``kind:amount``, e.g. ``motion:9``) says."""
    kind, _, amount = spec.partition(":")
    try:
        return KINDS[kind](frame, float(amount))
    except (KeyError, ValueError):
        raise ValueError(
            f"unknown distortion {spec!r}; use zoom-out:F, motion:PX, defocus:PX or "
            "turn:90|180|270"
        ) from None
