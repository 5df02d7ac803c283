"""The photos the phones are sent: each reading's frame made small enough for a phone.

A phone shows the tray's photo of a roll about 360 CSS pixels wide; sending it the camera's
whole 1280×960 frame (about 145 KB as the tray keeps it) costs every phone at the table the
transfer and the decoding at the moment the roll is read. So each frame is also kept as a
*view*: scaled down to :attr:`~dicetray.firmware.config.CameraConfig.view_width` pixels wide
and encoded once, when it is read, for however many phones ask. The last few views are kept
in memory; an older one (a game in the history) is made again from its stored frame.

>>> import numpy as np
>>> views = Views(width=320, quality=80)
>>> jpeg = views.add(7, np.full((960, 1280, 3), 128, np.uint8))
>>> jpeg[:2] == b"\\xff\\xd8", views.get(7) is jpeg
(True, True)
>>> views.get(8) is None  # not kept, and no frame file to make it from
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

__all__ = ["Views"]


class Views:
    """Phone-sized JPEGs of the readings' frames, the newest ``keep`` in memory."""

    def __init__(self, *, width: int, quality: int, keep: int = 16) -> None:
        self.width = width
        self.quality = quality
        self.keep = keep
        self._kept: OrderedDict[int, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, reading_id: int, frame: Any) -> bytes | None:
        """Make and keep the view of a frame just read (a BGR image); None if it cannot be
        encoded."""
        jpeg = self._encode(frame)
        if jpeg is not None:
            self._remember(reading_id, jpeg)
        return jpeg

    def get(self, reading_id: int, frame_path: Path | None = None) -> bytes | None:
        """The view of a reading: kept, or made from its stored frame file; None if neither
        is there (or the file is not an image)."""
        with self._lock:
            jpeg = self._kept.get(reading_id)
            if jpeg is not None:
                self._kept.move_to_end(reading_id)
                return jpeg
        if frame_path is None:
            return None
        import cv2
        import numpy as np

        try:
            data = np.fromfile(frame_path, dtype=np.uint8)
        except OSError:
            return None
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if frame is None:
            return None
        return self.add(reading_id, frame)

    def _encode(self, frame: Any) -> bytes | None:
        import cv2

        height, width = frame.shape[:2]
        if width > self.width:
            size = (self.width, max(1, round(height * self.width / width)))
            frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        return data.tobytes() if ok else None

    def _remember(self, reading_id: int, jpeg: bytes) -> None:
        with self._lock:
            self._kept[reading_id] = jpeg
            self._kept.move_to_end(reading_id)
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
