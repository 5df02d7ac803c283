"""Fixtures for the device tests: a fresh mock pin factory per test (never gpiozero's global
one), reset afterwards, and a manual clock so nothing waits for real."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from dicetray.firmware.clock import ManualClock


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """Mock pins that take PWM, fresh for each test; every pin is released afterwards."""
    pins = MockFactory(pin_class=MockPWMPin)
    yield pins
    pins.reset()


@pytest.fixture(autouse=True)
def _global_pin_factory_untouched() -> Iterator[None]:
    """Every device gets its factory injected: gpiozero's global default is never set."""
    before = Device.pin_factory
    yield
    assert Device.pin_factory is before, "a device was made without pin_factory="


@pytest.fixture
def clock() -> ManualClock:
    """A clock that moves only when slept on."""
    return ManualClock()
