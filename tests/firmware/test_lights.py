"""The status light's colour per status (blinking where it should) and the tray light."""

from __future__ import annotations

import threading

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from dicetray.firmware.config import LightsConfig
from dicetray.firmware.errors import DeviceError
from dicetray.firmware.lights import BLINKING, COLOURS, Status, StatusLight, TrayLight

CONFIG = LightsConfig(red_pin=12, green_pin=13, blue_pin=19, tray_light_pin=24, blink_s=0.01)
RGB = (12, 13, 19)


def rgb(factory: MockFactory) -> tuple[float, ...]:
    return tuple(round(float(factory.pin(n).state), 3) for n in RGB)


def wait_for(condition, seconds: float = 10.0) -> bool:
    """Wait until ``condition()`` (the blink runs in gpiozero's own thread)."""
    done = threading.Event()
    for _ in range(int(seconds / 0.005)):
        if condition():
            return True
        done.wait(0.005)
    return condition()


class TestStatusLight:
    def test_values_are_the_agreed_names(self) -> None:
        assert [s.value for s in Status] == ["idle", "rolling", "reading", "needs-help",
                                             "error"]

    def test_opens_showing_idle(self, factory: MockFactory) -> None:
        light = StatusLight(CONFIG, pin_factory=factory)
        assert light.status is Status.IDLE
        assert rgb(factory) == COLOURS[Status.IDLE]
        light.close()

    @pytest.mark.parametrize("status", [Status.IDLE, Status.ROLLING, Status.READING])
    def test_steady_statuses_show_their_colour(self, factory: MockFactory,
                                                status: Status) -> None:
        light = StatusLight(CONFIG, pin_factory=factory)
        light.show(status)
        assert light.status is status
        assert rgb(factory) == COLOURS[status]
        light.close()

    def test_the_steady_colours_are_all_different(self) -> None:
        assert len(set(COLOURS.values())) == len(Status)

    @pytest.mark.parametrize("status", sorted(BLINKING))
    def test_needs_help_and_error_blink_their_colour(self, factory: MockFactory,
                                                     status: Status) -> None:
        light = StatusLight(CONFIG, pin_factory=factory)
        seen: set[tuple[float, ...]] = set()

        def on_and_off_seen() -> bool:
            seen.add(rgb(factory))
            return {COLOURS[status], (0.0, 0.0, 0.0)} <= seen
        light.show(status)
        assert wait_for(on_and_off_seen)
        assert seen <= {COLOURS[status], (0.0, 0.0, 0.0)}  # only on and off, no other colour
        light.show(Status.IDLE)  # a steady colour stops the blink for good
        assert rgb(factory) == COLOURS[Status.IDLE]
        threading.Event().wait(0.05)
        assert rgb(factory) == COLOURS[Status.IDLE]
        light.close()

    def test_a_common_anode_led_is_driven_inverted(self, factory: MockFactory) -> None:
        config = LightsConfig(red_pin=12, green_pin=13, blue_pin=19, active_high=False)
        light = StatusLight(config, pin_factory=factory)
        light.show(Status.ROLLING)
        assert rgb(factory) == (1.0, 1.0, 0.0)
        light.close()

    def test_close_switches_off_and_is_idempotent(self, factory: MockFactory) -> None:
        light = StatusLight(CONFIG, pin_factory=factory)
        light.show(Status.ERROR)
        light.close()
        light.close()
        assert rgb(factory) == (0.0, 0.0, 0.0)

    def test_a_busy_pin_is_named(self, factory: MockFactory) -> None:
        other = LED(13, pin_factory=factory)
        with pytest.raises(DeviceError, match=r"status light \(red GPIO12, green GPIO13"):
            StatusLight(CONFIG, pin_factory=factory)
        other.close()


class TestTrayLight:
    def test_on_only_within_lit(self, factory: MockFactory) -> None:
        lamp = TrayLight(CONFIG, pin_factory=factory)
        pin = factory.pin(24)
        assert pin.state == 0 and not lamp.is_lit
        with lamp.lit():
            assert pin.state == 1 and lamp.is_lit
        assert pin.state == 0
        lamp.close()

    def test_off_after_a_failed_capture(self, factory: MockFactory) -> None:
        lamp = TrayLight(CONFIG, pin_factory=factory)
        with pytest.raises(OSError), lamp.lit():
            raise OSError("camera gone")
        assert factory.pin(24).state == 0
        lamp.close()

    def test_on_and_off_and_an_inverted_gate(self, factory: MockFactory) -> None:
        config = LightsConfig(tray_light_pin=24, tray_light_active_high=False)
        lamp = TrayLight(config, pin_factory=factory)
        assert factory.pin(24).state == 1  # off: a P-channel gate held high
        lamp.on()
        assert factory.pin(24).state == 0 and lamp.is_lit
        lamp.off()
        assert factory.pin(24).state == 1
        lamp.close()
        lamp.close()

    def test_a_busy_pin_is_named(self, factory: MockFactory) -> None:
        other = LED(24, pin_factory=factory)
        with pytest.raises(DeviceError, match=r"tray light \(GPIO24\)"):
            TrayLight(CONFIG, pin_factory=factory)
        other.close()
