"""The big roll button: a press rolls, a long hold does the tray's long-hold action.

The button is wired between its pin and ground; the Pi's pull-up holds the pin high, so a
press pulls it low. :class:`RollButton` decides when the button is let go: held shorter
than ``hold_s`` it calls ``on_press``, held ``hold_s`` or longer it calls ``on_hold``
*instead*; never both. Which action a long hold means is the tray's to decide (the table
service maps ``on_hold`` to its long-hold action and documents it); this class only tells
a hold from a press.

Debouncing is done here, on the injected clock, rather than by gpiozero's ``bounce_time``:
gpiozero's mock pins ignore ``bounce_time`` (so it could not be tested), and doing it in one
place makes the Pi behave exactly as the tests and the simulation do. An edge sooner than
``bounce_s`` after the last accepted edge is contact bounce and is dropped.

While :attr:`RollButton.busy` is True (a roll is running) presses are ignored, including a
press that started before and ends during the roll.

>>> from gpiozero.pins.mock import MockFactory
>>> from dicetray.firmware.clock import ManualClock
>>> from dicetray.firmware.config import ButtonConfig
>>> factory, clock, said = MockFactory(), ManualClock(), []
>>> button = RollButton(ButtonConfig(), pin_factory=factory, clock=clock,
...                     on_press=lambda: said.append("roll"), on_hold=lambda: said.append("hold"))
>>> pin = factory.pin(23)
>>> pin.drive_low(); clock.sleep(0.2); pin.drive_high()    # a press
>>> clock.sleep(1); pin.drive_low(); clock.sleep(2); pin.drive_high()  # a long hold
>>> said
['roll', 'hold']
>>> button.close()
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

from gpiozero import Button

from dicetray.firmware.clock import Clock, SystemClock
from dicetray.firmware.config import ButtonConfig
from dicetray.firmware.errors import DeviceError

__all__ = ["RollButton"]


def _nothing() -> None:
    """The default long-hold action: none."""


class RollButton:
    """The roll button on ``config.pin``; see the module's description.

    ``on_press`` and ``on_hold`` are plain attributes and may be set after construction
    (the table wires them once it exists). They are called in the thread that reports the
    pin's edges (gpiozero's callback thread on a Pi), so they should hand work over rather
    than run a whole roll themselves.
    """

    def __init__(self, config: ButtonConfig, *, pin_factory: Any,
                 on_press: Callable[[], None], on_hold: Callable[[], None] = _nothing,
                 clock: Clock | None = None) -> None:
        self.config = config
        self.on_press = on_press
        self.on_hold = on_hold
        self.busy = False
        """While True, presses and holds are ignored (set by the tray during a roll)."""
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._lock = threading.Lock()
        self._down_at: float | None = None
        self._last_edge = -math.inf
        try:
            self._button = Button(config.pin, pull_up=True, bounce_time=None,
                                  pin_factory=pin_factory)
        except Exception as exc:
            detail = " ".join(str(exc).split()) or type(exc).__name__
            raise DeviceError(f"roll button (GPIO{config.pin}): cannot be opened ({detail})"
                              ) from None
        self._button.when_pressed = self._pressed
        self._button.when_released = self._released

    @property
    def pressed(self) -> bool:
        """True while the button is held down (as debounced)."""
        return self._down_at is not None

    def _pressed(self) -> None:
        now = self._clock.now()
        with self._lock:
            if now - self._last_edge < self.config.bounce_s:
                return
            self._last_edge = now
            # a press while already down means the release was lost in bounce: start over
            self._down_at = None if self.busy else now

    def _released(self) -> None:
        now = self._clock.now()
        with self._lock:
            if now - self._last_edge < self.config.bounce_s or self._down_at is None:
                return
            self._last_edge = now
            held = now - self._down_at
            self._down_at = None
            if self.busy:
                return
            action = self.on_hold if held >= self.config.hold_s else self.on_press
        action()

    def close(self) -> None:
        """Release the pin (idempotent)."""
        self._button.close()
