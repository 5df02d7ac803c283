"""Settling: read the dice only once the tray has been still for a while.

Each frame is shrunk to a small grey image and compared with the one before and
with the first frame of the current still spell; the share of pixels (inside the
tray and ledge when calibrated) that changed by more than a few grey levels is
the tray's *motion*. Once motion has stayed below the threshold for ``still_s``
seconds the tray is settled. Time comes from an injectable clock, so tests need
not sleep.

>>> import numpy as np
>>> now = [0.0]
>>> detector = SettleDetector(still_s=0.25, clock=lambda: now[0])
>>> frame = np.full((120, 160, 3), 90, np.uint8)
>>> states = []
>>> for _ in range(5):
...     states.append(detector.update(frame))
...     now[0] += 0.1
>>> states
[False, False, False, True, True]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import cv2
import numpy as np

from dicetray.vision.calibration import Calibration
from dicetray.vision.errors import SettleTimeout
from dicetray.vision.frames import FrameSource

__all__ = ["SettleDetector", "wait_until_settled"]


class SettleDetector:
    """Watches a stream of frames and says when the tray has come to rest.

    ``threshold`` is the share of the (zone) pixels allowed to change between
    frames; ``pixel_step`` how many grey levels make a pixel count as changed;
    ``width`` the width frames are shrunk to before comparing.
    """

    def __init__(
        self,
        calibration: Calibration | None = None,
        *,
        still_s: float = 0.6,
        threshold: float = 0.002,
        pixel_step: int = 10,
        width: int = 160,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if still_s < 0 or not 0 < threshold < 1 or width < 16:
            raise ValueError("still_s >= 0, 0 < threshold < 1 and width >= 16 are required")
        self.calibration = calibration
        self.still_s = still_s
        self.threshold = threshold
        self.pixel_step = pixel_step
        self.width = width
        self.clock = clock
        self.motion = 1.0
        self._mask: np.ndarray | None = None
        self.reset()

    def reset(self) -> None:
        """Forget the frames seen so far (call when the cup tumbles again)."""
        self._previous: np.ndarray | None = None
        self._reference: np.ndarray | None = None
        self._still_since: float | None = None
        self._previous_at = 0.0
        self.motion = 1.0

    @property
    def settled(self) -> bool:
        """True when the tray has been still for ``still_s`` seconds."""
        return (self._still_since is not None
                and self.clock() - self._still_since >= self.still_s)

    def update(self, frame: np.ndarray) -> bool:
        """Take in one frame; return True once the tray is settled."""
        small = self._shrink(frame)
        now = self.clock()
        previous_at, self._previous_at = self._previous_at, now
        if self._previous is None or self._previous.shape != small.shape:
            self._previous, self._reference, self._still_since = small, small, None
            self.motion = 1.0
            return False
        self.motion = max(self._changed(small, self._previous),
                          self._changed(small, self._reference))
        self._previous = small
        if self.motion > self.threshold:
            self._reference, self._still_since = small, None
            return False
        if self._still_since is None:
            self._still_since = previous_at  # still since the frame this one matches
        return now - self._still_since >= self.still_s

    def _shrink(self, frame: np.ndarray) -> np.ndarray:
        if frame.ndim != 3 or frame.shape[2] != 3:
            grey = frame if frame.ndim == 2 else frame[:, :, 0]
        else:
            grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        height = max(1, round(grey.shape[0] * self.width / grey.shape[1]))
        small = cv2.resize(grey, (self.width, height), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0).astype(np.int16)

    def _zone(self, shape: tuple[int, ...]) -> np.ndarray | None:
        if self.calibration is None:
            return None
        if self._mask is None or self._mask.shape != shape:
            full = self.calibration.zone_mask()
            self._mask = cv2.resize(full, (shape[1], shape[0]),
                                    interpolation=cv2.INTER_NEAREST) > 0
        return self._mask

    def _changed(self, a: np.ndarray, b: np.ndarray) -> float:
        changed = np.abs(a - b) > self.pixel_step
        zone = self._zone(a.shape)
        if zone is None:
            return float(changed.mean())
        area = int(zone.sum())
        return float((changed & zone).sum() / area) if area else 0.0


def wait_until_settled(
    frames: FrameSource | Iterable[np.ndarray],
    detector: SettleDetector | None = None,
    *,
    timeout_s: float = 10.0,
) -> np.ndarray:
    """Take frames until the tray is still; return the last (settled) frame.

    Raises :class:`~dicetray.vision.errors.SettleTimeout` when the tray is still
    moving after ``timeout_s`` seconds (on the detector's clock), or when the
    frames run out first.

    >>> import numpy as np
    >>> now = [0.0]
    >>> def shaking():
    ...     rng = np.random.default_rng(0)
    ...     while True:
    ...         now[0] += 0.5
    ...         yield rng.integers(0, 255, (60, 80, 3), dtype=np.uint8)
    >>> wait_until_settled(shaking(), SettleDetector(clock=lambda: now[0]), timeout_s=3)
    Traceback (most recent call last):
    ...
    dicetray.vision.errors.SettleTimeout: the tray never settled in 3 s (motion 0...)
    """
    detector = detector or SettleDetector()
    stream = frames.frames() if isinstance(frames, FrameSource) else iter(frames)
    start = detector.clock()
    frame = None
    for frame in stream:
        if detector.update(frame):
            return frame
        if detector.clock() - start > timeout_s:
            raise SettleTimeout(
                f"the tray never settled in {timeout_s:g} s (motion {detector.motion:.3f})")
    raise SettleTimeout("the frames ran out before the tray settled"
                        if frame is not None else "no frames to watch")
