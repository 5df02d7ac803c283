"""Stopping the devices on SIGTERM and Ctrl-C.

gpiozero does not clean up when the process is signalled: a SIGTERM (``systemctl stop``)
arriving mid-tumble would end Python without running ``finally`` blocks on some paths, and
a motor driver keeps its last input, so the cup would go on turning. Inside
:func:`stop_on_signals` a SIGTERM or SIGINT first calls every stop function (each on its own,
so one failing does not skip the others), then ends the program the usual way:
``SystemExit(128 + signal)`` for SIGTERM (exit status 143, what systemd expects), and
``KeyboardInterrupt`` for SIGINT. The previous handlers come back when the block ends.

>>> import os, signal
>>> stopped = []
>>> try:
...     with stop_on_signals(lambda: stopped.append("cup")):
...         os.kill(os.getpid(), signal.SIGTERM)
... except SystemExit as exit:
...     print(stopped, exit.code)
['cup'] 143
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

__all__ = ["SIGNALS", "stop_on_signals"]

SIGNALS = (signal.SIGTERM, signal.SIGINT)


@contextlib.contextmanager
def stop_on_signals(*stops: Callable[[], None]) -> Iterator[None]:
    """Call every ``stop`` on SIGTERM or SIGINT, then exit; must be entered in the main
    thread (only it may install signal handlers)."""
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("stop_on_signals must be entered in the main thread")

    def handler(signum: int, frame: FrameType | None) -> None:
        for stop in stops:
            try:
                stop()
            except Exception as exc:  # the others must still run
                # os.write: a signal handler must not take the locks logging and print use
                os.write(2, f"dicetray: stopping {getattr(stop, '__qualname__', stop)} "
                            f"failed: {exc}\n".encode(errors="replace"))
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)

    previous = {sig: signal.signal(sig, handler) for sig in SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
