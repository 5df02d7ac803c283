"""The tray's lights: a status light (an RGB LED) and the tray light for the camera.

The status light says what the tray is doing, in colours a player learns at once:

=============  ================  ===========================================
status         colour            meaning
=============  ================  ===========================================
idle           dim green         ready: press the button
rolling        blue              the cup is tumbling
reading        cyan              the dice are settling and being read
needs-help     amber, blinking   the players must confirm or correct on a phone
error          red, blinking     something is broken (a stalled cup, no camera)
=============  ================  ===========================================

The tray light is switched on for every capture (:meth:`TrayLight.lit`), so every frame
is lit alike whatever the room's light, and off in between.

>>> from gpiozero.pins.mock import MockFactory, MockPWMPin
>>> from dicetray.firmware.config import LightsConfig
>>> factory = MockFactory(pin_class=MockPWMPin)
>>> light = StatusLight(LightsConfig(), pin_factory=factory)
>>> light.show(Status.ROLLING)
>>> [float(factory.pin(n).state) for n in (12, 13, 19)]
[0.0, 0.0, 1.0]
>>> lamp = TrayLight(LightsConfig(), pin_factory=factory)
>>> with lamp.lit():
...     factory.pin(24).state == 1
True
>>> factory.pin(24).state == 1
False
>>> light.close(); lamp.close()
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterator
from typing import Any

from gpiozero import RGBLED, DigitalOutputDevice

from dicetray.firmware.config import LightsConfig
from dicetray.firmware.pins import open_device

__all__ = ["BLINKING", "COLOURS", "Status", "StatusLight", "TrayLight"]


class Status(enum.StrEnum):
    """What the status light shows."""

    IDLE = "idle"
    ROLLING = "rolling"
    READING = "reading"
    NEEDS_HELP = "needs-help"
    ERROR = "error"


COLOURS: dict[Status, tuple[float, float, float]] = {
    Status.IDLE: (0.0, 0.25, 0.0),  # dim: it is on for hours at a table
    Status.ROLLING: (0.0, 0.0, 1.0),
    Status.READING: (0.0, 0.5, 0.5),
    Status.NEEDS_HELP: (1.0, 0.45, 0.0),
    Status.ERROR: (1.0, 0.0, 0.0),
}
"""(red, green, blue) brightness of each status, 0..1."""

BLINKING = frozenset({Status.NEEDS_HELP, Status.ERROR})
"""Statuses that want a player's attention blink."""



class StatusLight:
    """The RGB status LED; shows :attr:`Status.IDLE` once opened."""

    def __init__(self, config: LightsConfig, *, pin_factory: Any) -> None:
        self.config = config
        pins = f"red GPIO{config.red_pin}, green GPIO{config.green_pin}, " \
               f"blue GPIO{config.blue_pin}"
        self._led = open_device(f"status light ({pins})", lambda: RGBLED(
            config.red_pin, config.green_pin, config.blue_pin,
            active_high=config.active_high, pwm=True, pin_factory=pin_factory))
        self._status = Status.IDLE
        self.show(Status.IDLE)

    @property
    def status(self) -> Status:
        """What the light shows now."""
        return self._status

    def show(self, status: Status) -> None:
        """Show ``status``: its colour, blinking for needs-help and error."""
        status = Status(status)
        colour = COLOURS[status]
        if status in BLINKING:
            self._led.blink(on_time=self.config.blink_s, off_time=self.config.blink_s,
                            on_color=colour, off_color=(0, 0, 0), background=True)
        else:
            self._led.color = colour  # also stops a blink
        self._status = status

    def close(self) -> None:
        """Switch off and release the pins (idempotent)."""
        if not self._led.closed:
            self._led.off()
        self._led.close()


class TrayLight:
    """The light over the tray, switched through a MOSFET."""

    def __init__(self, config: LightsConfig, *, pin_factory: Any) -> None:
        self._light = open_device(f"tray light (GPIO{config.tray_light_pin})",
                              lambda: DigitalOutputDevice(
                                  config.tray_light_pin,
                                  active_high=config.tray_light_active_high,
                                  initial_value=False, pin_factory=pin_factory))

    @property
    def is_lit(self) -> bool:
        """True while the light is on."""
        return bool(self._light.value)

    def on(self) -> None:
        """Switch the light on."""
        self._light.on()

    def off(self) -> None:
        """Switch the light off."""
        if not self._light.closed:
            self._light.off()

    @contextlib.contextmanager
    def lit(self) -> Iterator[None]:
        """On for the block (a capture), off after it, also when it fails."""
        self.on()
        try:
            yield
        finally:
            self.off()

    def close(self) -> None:
        """Switch off and release the pin (idempotent)."""
        self.off()
        self._light.close()
