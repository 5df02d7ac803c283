"""The live camera view as an MJPEG stream (``multipart/x-mixed-replace``), which a phone's
``<img>`` shows as video.

Each open stream holds one of the web server's threads, so :class:`CameraStreams` lets only
a few be open at once (the rest are refused at once, never queued), and ends them all when
the server stops (:meth:`CameraStreams.stop`), so none holds up the shutdown. A stream also
ends when the phone goes (the server's next write fails) or the camera is gone. While a roll
uses the camera the stream sends nothing and waits: the phone keeps the last frame.

>>> streams = CameraStreams(limit=1, interval_s=0.0)
>>> frames = iter([b"\\xff\\xd8one", b"\\xff\\xd8two"])
>>> parts = streams.open(lambda: next(frames))
>>> streams.open(lambda: b"") is None  # the one slot is taken
True
>>> next(parts).split(b"\\r\\n")[:3]
[b'--frame', b'Content-Type: image/jpeg', b'Content-Length: 5']
>>> parts.close(); streams.open(lambda: b"") is not None  # closed: the slot is free again
True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from dicetray.firmware.service import Busy, TableError

__all__ = ["BOUNDARY", "CameraStreams"]

BOUNDARY = "frame"


class CameraStreams:
    """At most ``limit`` live streams at once, each sending a frame every ``interval_s``
    (the time a frame takes to make counts towards it)."""

    def __init__(self, *, limit: int, interval_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.interval_s = interval_s
        self.clock = clock
        self._limit = limit
        self._open = 0
        self._lock = threading.Lock()
        self._stopped = threading.Event()

    def open(self, frames: Callable[[], bytes],
             first: bytes | None = None) -> Iterator[bytes] | None:
        """A stream of the JPEGs ``frames()`` makes (``first`` first, when given), or None
        when every slot is taken or the streams were stopped."""
        with self._lock:
            if self._stopped.is_set() or self._open >= self._limit:
                return None
            self._open += 1
        return _Parts(frames, self, first)

    @property
    def full(self) -> bool:
        """True while every slot is taken."""
        return self._open >= self._limit

    @property
    def open_count(self) -> int:
        """How many streams are open now."""
        return self._open

    def stop(self) -> None:
        """End every stream (the server is stopping) and open no more."""
        self._stopped.set()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def pause(self, since: float) -> bool:
        """Wait until one frame interval has passed ``since`` (a time of :attr:`clock`);
        True when the streams were stopped meanwhile."""
        return self._stopped.wait(max(0.0, since + self.interval_s - self.clock()))

    def give_back(self) -> None:
        """A stream ended: its slot is free."""
        with self._lock:
            self._open -= 1


class _Parts:
    """The stream's body: one multipart part per frame. Its slot is given back when it is
    closed (the WSGI server closes the body when the phone goes or the stream ends)."""

    def __init__(self, frames: Callable[[], bytes], streams: CameraStreams,
                 first: bytes | None) -> None:
        self._frames = frames
        self._next = first
        self._streams = streams
        self._first = True
        self._sent = 0.0
        self._closed = False
        self._lock = threading.Lock()

    def __iter__(self) -> _Parts:
        return self

    def __next__(self) -> bytes:
        streams = self._streams
        while not self._closed:
            if not self._first and streams.pause(self._sent):
                break
            self._first = False
            self._sent = streams.clock()
            if streams.stopped:
                break
            jpeg, self._next = self._next, None
            try:
                jpeg = jpeg or self._frames()
            except Busy:  # a roll has the camera: the phone keeps the last frame
                continue
            except TableError:  # no camera (any more): nothing to show
                break
            head = (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                    f"Content-Length: {len(jpeg)}\r\n\r\n").encode("ascii")
            return head + jpeg + b"\r\n"
        self.close()
        raise StopIteration

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._streams.give_back()
