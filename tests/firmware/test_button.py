"""The roll button: one press per press however it bounces, holds instead of presses,
nothing while busy."""

from __future__ import annotations

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from dicetray.firmware.button import RollButton
from dicetray.firmware.clock import ManualClock
from dicetray.firmware.config import ButtonConfig
from dicetray.firmware.errors import DeviceError

CONFIG = ButtonConfig(pin=23, hold_s=1.5, bounce_s=0.05)


class Log:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def press(self) -> None:
        self.calls.append("press")

    def hold(self) -> None:
        self.calls.append("hold")


@pytest.fixture
def log() -> Log:
    return Log()


@pytest.fixture
def button(factory: MockFactory, clock: ManualClock, log: Log):
    made = RollButton(CONFIG, pin_factory=factory, clock=clock, on_press=log.press,
                      on_hold=log.hold)
    yield made
    made.close()


def bounce(factory: MockFactory, clock: ManualClock, final: str, edges: int = 5) -> None:
    """Contact bounce: the pin flips ``edges`` times 4 ms apart, ending ``final``."""
    pin = factory.pin(23)
    levels = ["low", "high"] if final == "low" else ["high", "low"]
    for i in range(edges):
        getattr(pin, f"drive_{levels[i % 2]}")()
        clock.sleep(0.004)
    assert (pin.state == 0) == (final == "low")


def press(factory: MockFactory, clock: ManualClock, seconds: float = 0.2) -> None:
    factory.pin(23).drive_low()
    clock.sleep(seconds)
    factory.pin(23).drive_high()
    clock.sleep(0.3)


class TestPress:
    def test_the_pin_idles_high_on_its_pull_up(self, button: RollButton,
                                                factory: MockFactory) -> None:
        assert factory.pin(23).state == 1 and not button.pressed

    def test_a_press_calls_on_press_once_when_let_go(
            self, button: RollButton, factory: MockFactory, clock: ManualClock,
            log: Log) -> None:
        factory.pin(23).drive_low()
        clock.sleep(0.2)
        assert button.pressed and log.calls == []
        factory.pin(23).drive_high()
        assert log.calls == ["press"] and not button.pressed

    def test_a_bouncing_press_and_release_is_one_press(
            self, button: RollButton, factory: MockFactory, clock: ManualClock,
            log: Log) -> None:
        bounce(factory, clock, "low")
        clock.sleep(0.15)
        bounce(factory, clock, "high")
        clock.sleep(0.5)
        assert log.calls == ["press"]

    def test_two_presses_apart_are_two(self, button: RollButton, factory: MockFactory,
                                       clock: ManualClock, log: Log) -> None:
        press(factory, clock)
        press(factory, clock)
        assert log.calls == ["press", "press"]

    def test_a_press_can_be_wired_later(self, button: RollButton, factory: MockFactory,
                                        clock: ManualClock) -> None:
        later: list[str] = []
        button.on_press = lambda: later.append("roll")
        press(factory, clock)
        assert later == ["roll"]


class TestHold:
    def test_a_hold_calls_on_hold_instead_of_on_press(
            self, button: RollButton, factory: MockFactory, clock: ManualClock,
            log: Log) -> None:
        press(factory, clock, seconds=1.6)
        assert log.calls == ["hold"]

    def test_just_short_of_hold_s_is_a_press(
            self, button: RollButton, factory: MockFactory, clock: ManualClock,
            log: Log) -> None:
        press(factory, clock, seconds=1.4)
        assert log.calls == ["press"]

    def test_a_bouncing_hold_is_one_hold(
            self, button: RollButton, factory: MockFactory, clock: ManualClock,
            log: Log) -> None:
        bounce(factory, clock, "low")
        clock.sleep(2.0)
        bounce(factory, clock, "high")
        assert log.calls == ["hold"]

    def test_without_a_hold_action_a_hold_does_nothing(
            self, factory: MockFactory, clock: ManualClock, log: Log) -> None:
        button = RollButton(CONFIG, pin_factory=factory, clock=clock, on_press=log.press)
        press(factory, clock, seconds=2.0)
        assert log.calls == []
        button.close()


class TestBusy:
    def test_presses_and_holds_are_ignored_while_busy(
            self, button: RollButton, factory: MockFactory, clock: ManualClock,
            log: Log) -> None:
        button.busy = True
        press(factory, clock)
        press(factory, clock, seconds=2.0)
        assert log.calls == []
        button.busy = False
        press(factory, clock)
        assert log.calls == ["press"]

    def test_a_press_ending_during_a_roll_is_ignored(
            self, button: RollButton, factory: MockFactory, clock: ManualClock,
            log: Log) -> None:
        factory.pin(23).drive_low()
        clock.sleep(0.1)
        button.busy = True  # the phone started a roll meanwhile
        factory.pin(23).drive_high()
        assert log.calls == []

    def test_a_press_started_while_busy_does_not_count_after(
            self, button: RollButton, factory: MockFactory, clock: ManualClock,
            log: Log) -> None:
        button.busy = True
        factory.pin(23).drive_low()
        clock.sleep(0.1)
        button.busy = False
        factory.pin(23).drive_high()
        assert log.calls == []


def test_a_busy_pin_is_a_device_error_naming_it(factory: MockFactory,
                                                clock: ManualClock) -> None:
    other = LED(23, pin_factory=factory)
    with pytest.raises(DeviceError, match=r"roll button \(GPIO23\): cannot be opened"):
        RollButton(CONFIG, pin_factory=factory, clock=clock, on_press=lambda: None)
    other.close()
