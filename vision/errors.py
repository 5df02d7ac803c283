"""The one error family of :mod:`dicetray.vision`.

Every failure the vision package raises on purpose is a :class:`VisionError`, so
callers can catch the whole family at once and still tell the cases apart.

>>> from dicetray.vision.errors import FrameError, VisionError
>>> issubclass(FrameError, VisionError)
True
>>> try:
...     raise FrameError("frame.png: not an image (0 bytes)")
... except VisionError as exc:
...     print(exc)
frame.png: not an image (0 bytes)
"""

from __future__ import annotations

__all__ = [
    "CalibrationError",
    "CameraError",
    "FrameError",
    "SettleTimeout",
    "TeachingError",
    "VisionError",
]


class VisionError(Exception):
    """Base of every deliberate error raised by :mod:`dicetray.vision`."""


class CameraError(VisionError):
    """The camera is missing or failing; the message names the backend and the reason."""


class CalibrationError(VisionError):
    """A calibration is missing, corrupt or invalid; the message names the path and reason."""


class SettleTimeout(VisionError):  # noqa: N818 (name agreed in the vision model)
    """The tray never settled (dice still moving) within the allowed time."""


class FrameError(VisionError):
    """An image could not be read or has the wrong shape/type for the recognizer."""


class TeachingError(VisionError):
    """A teaching file is missing, foreign, of another version or damaged (the message
    names the path and the reason), or a confirmed die is malformed."""
