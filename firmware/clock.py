"""Time for the devices: the real clock, or a manual one that tests and the simulation move.

Every device that waits (the cup's tumble, the button's debounce and hold) asks a
:class:`Clock`, passed in as ``clock=``. On the Pi that is :class:`SystemClock`. Tests and
the simulated tray use :class:`ManualClock`: ``sleep`` moves its time on at once (or, with
``realtime=True``, also really waits) and then tells every watcher the new time, so the
simulated mechanics can react to the motor without a thread.

>>> clock = ManualClock()
>>> seen = []
>>> clock.watch(seen.append)
>>> clock.sleep(1.5); clock.advance(0.5)
>>> clock.now(), seen
(2.0, [1.5, 2.0])
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "ManualClock", "SystemClock"]


@runtime_checkable
class Clock(Protocol):
    """Seconds that only go forward, and a way to wait."""

    def now(self) -> float:
        """Seconds since an arbitrary start."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""
        ...


class SystemClock:
    """The machine's monotonic clock.

    >>> clock = SystemClock()
    >>> clock.now() <= clock.now()
    True
    """

    def now(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """``time.sleep(seconds)`` (nothing for a zero or negative wait)."""
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock that moves only when someone sleeps on it or advances it.

    With ``realtime`` each sleep also takes that long for real, so a simulated tray
    tumbles as slowly as a real one; time still moves in exact steps. Watchers are called
    after every step, in the sleeping thread, with the new time (so with several sleeping
    threads, watchers must be thread-safe).

    >>> clock = ManualClock(10.0)
    >>> clock.sleep(-1)
    Traceback (most recent call last):
    ...
    ValueError: cannot sleep a negative time (-1 s)
    """

    def __init__(self, now: float = 0.0, *, realtime: bool = False) -> None:
        self._now = float(now)
        self.realtime = realtime
        self._watchers: list[Callable[[float], None]] = []
        self._lock = threading.Lock()

    def now(self) -> float:
        """The clock's time."""
        return self._now

    def watch(self, callback: Callable[[float], None]) -> None:
        """Call ``callback(now)`` after every step of this clock."""
        self._watchers.append(callback)

    def unwatch(self, callback: Callable[[float], None]) -> None:
        """Stop calling ``callback`` (nothing if it was not watching)."""
        if callback in self._watchers:
            self._watchers.remove(callback)

    def sleep(self, seconds: float) -> None:
        """Move time on by ``seconds`` (waiting for real when realtime), then tell watchers.

        Threads sleeping at once do not add up: each wakes at its own start plus its
        ``seconds`` (the clock takes the later of that and where another sleeper took it),
        so a realtime clock slept on by two threads still keeps pace with the wall clock.
        """
        if seconds < 0:
            raise ValueError(f"cannot sleep a negative time ({seconds:g} s)")
        with self._lock:
            wake = self._now + seconds
        if self.realtime and seconds > 0:
            time.sleep(seconds)
        with self._lock:
            self._now = max(self._now, wake)
            now = self._now
        for watcher in list(self._watchers):
            watcher(now)

    advance = sleep
