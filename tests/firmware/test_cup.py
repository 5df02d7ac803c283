"""The cup: pattern steps, reversal and homing on mock pins; stalls, errors and stops."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gpiozero import LED, Motor
from gpiozero.pins.mock import MockFactory

from dicetray.firmware.clock import ManualClock
from dicetray.firmware.config import CupConfig, CupKind, TumbleStep
from dicetray.firmware.cup import Cup, MotorCup, PhaseEnableCup, ServoCup, make_cup
from dicetray.firmware.errors import CupStalled, DeviceError

PATTERN = (TumbleStep(0.8, 1.0), TumbleStep(-0.6, 0.5), TumbleStep(1.0, 0.5))
CONFIG = CupConfig(pattern=PATTERN, home_speed=0.4, home_timeout_s=2.0, tick_s=0.05)


def motor_pins(factory: MockFactory) -> tuple[float, float]:
    return (factory.pin(17).state, factory.pin(27).state)


class Recorder:
    """Watches the clock: the motor pins' states at every tick, and an optional action."""

    def __init__(self, factory: MockFactory, clock: ManualClock,
                 action: Callable[[float], None] | None = None) -> None:
        self.factory = factory
        self.ticks: list[tuple[float, float, float]] = []
        self.action = action
        clock.watch(self)

    def __call__(self, now: float) -> None:
        forward, backward = motor_pins(self.factory)
        self.ticks.append((round(now, 6), forward, backward))
        if self.action is not None:
            self.action(now)

    def during(self, start: float, end: float) -> set[tuple[float, float]]:
        """Pin states seen at ticks in (start, end]: the states driven during that span."""
        return {(f, b) for t, f, b in self.ticks if start < t <= end}


def home_after(factory: MockFactory, seconds_homing: float, pattern_s: float = 2.0):
    """Mechanics: the switch opens as the cup leaves home and closes again once the cup
    has been homing for ``seconds_homing``."""
    switch = factory.pin(22)

    def act(now: float) -> None:
        if now >= pattern_s + seconds_homing - 1e-9:
            switch.drive_low()
        else:
            switch.drive_high()
    return act


class TestTumble:
    def test_pattern_steps_reversal_homing_then_off(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = MotorCup(CONFIG, pin_factory=factory, clock=clock)
        factory.pin(22).drive_low()  # at home
        record = Recorder(factory, clock, home_after(factory, 0.3))
        cup.tumble()
        assert record.during(0.0, 1.0) == {(0.8, 0)}
        assert record.during(1.0, 1.5) == {(0, 0.6)}  # the reversal
        assert record.during(1.5, 2.0) == {(1.0, 0)}
        assert record.during(2.0, 2.3) == {(0.4, 0)}  # homing, slowly forwards
        assert clock.now() == pytest.approx(2.3)
        assert motor_pins(factory) == (0, 0)
        assert not cup.turning and cup.at_home
        cup.close()

    def test_a_second_tumble_runs_the_whole_pattern_again(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = make_cup(CONFIG, pin_factory=factory, clock=clock)
        Recorder(factory, clock, lambda now: factory.pin(22).drive_low())
        cup.tumble()
        first = clock.now()
        cup.tumble()
        assert clock.now() == pytest.approx(2 * first)
        cup.close()

    def test_turning_while_driven(self, factory: MockFactory, clock: ManualClock) -> None:
        cup = make_cup(CONFIG, pin_factory=factory, clock=clock)
        seen: list[bool] = []
        clock.watch(lambda now: seen.append(cup.turning))
        clock.watch(home_after(factory, 0.1))
        cup.tumble()
        assert seen and all(seen)
        assert not cup.turning
        cup.close()

    def test_an_enable_pin_is_held_high_while_open(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = make_cup(CupConfig(enable_pin=18), pin_factory=factory, clock=clock)
        assert factory.pin(18).state == 1
        cup.close()
        assert factory.pin(18).state == 0


class TestAlwaysStops:
    def test_a_stall_raises_and_leaves_the_motor_off(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = MotorCup(CONFIG, pin_factory=factory, clock=clock)
        record = Recorder(factory, clock)  # the switch never closes: a jammed cup
        with pytest.raises(CupStalled, match=r"not home within 2 s.*GPIO22.*motor is stopped"):
            cup.tumble()
        assert record.during(2.0, 4.0) == {(0.4, 0)}  # it did try, for the whole timeout
        assert clock.now() == pytest.approx(4.0)
        assert motor_pins(factory) == (0, 0)
        assert not cup.turning
        cup.close()

    def test_an_exception_mid_tumble_leaves_the_motor_off(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = MotorCup(CONFIG, pin_factory=factory, clock=clock)

        def fail(now: float) -> None:
            if round(now, 6) >= 1.2:
                assert motor_pins(factory) == (0, 0.6)  # really turning when it fails
                raise RuntimeError("the table fell over")
        clock.watch(fail)
        with pytest.raises(RuntimeError, match="fell over"):
            cup.tumble()
        assert motor_pins(factory) == (0, 0)
        cup.close()

    def test_stop_from_outside_ends_the_tumble_with_the_motor_off(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = MotorCup(CONFIG, pin_factory=factory, clock=clock)

        def stop_at_half_a_second(now: float) -> None:
            if round(now, 6) >= 0.5 and cup.turning:
                cup.stop()
        record = Recorder(factory, clock, stop_at_half_a_second)
        with pytest.raises(DeviceError, match="stopped before the tumble finished"):
            cup.tumble()
        assert max(t for t, _, _ in record.ticks) == pytest.approx(0.5)  # no more driving
        assert motor_pins(factory) == (0, 0)
        cup.close()

    def test_stop_and_close_are_safe_to_repeat(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = MotorCup(CONFIG, pin_factory=factory, clock=clock)
        cup.stop()
        cup.close()
        cup.close()
        cup.stop()
        assert factory.pin(17).state == 0


class TestPhaseEnable:
    def test_direction_on_phase_speed_on_enable(
            self, factory: MockFactory, clock: ManualClock) -> None:
        config = CupConfig(kind=CupKind.PHASE_ENABLE, phase_pin=5, enable_pin=6,
                           pattern=PATTERN, home_speed=0.4, tick_s=0.05)
        cup = make_cup(config, pin_factory=factory, clock=clock)
        assert isinstance(cup, PhaseEnableCup)
        states: list[tuple[float, float, float]] = []
        clock.watch(lambda now: states.append(
            (round(now, 6), factory.pin(5).state, factory.pin(6).state)))
        clock.watch(home_after(factory, 0.2))
        cup.tumble()
        assert {(p, e) for t, p, e in states if t <= 1.0} == {(0, 0.8)}
        assert {(p, e) for t, p, e in states if 1.0 < t <= 1.5} == {(1, 0.6)}
        assert {(p, e) for t, p, e in states if t > 2.0} == {(0, 0.4)}
        assert factory.pin(6).state == 0
        cup.close()


class TestServo:
    CONFIG = CupConfig(kind=CupKind.SERVO, servo_pin=18, tick_s=0.05, servo_travel_s=0.4,
                       pattern=(TumbleStep(-1.0, 0.3), TumbleStep(1.0, 0.3)))

    def test_swings_through_the_pattern_returns_home_and_lets_go(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = make_cup(self.CONFIG, pin_factory=factory, clock=clock)
        assert isinstance(cup, ServoCup)
        pin = factory.pin(18)
        assert not cup.turning
        states: list[tuple[float, float]] = []
        clock.watch(lambda now: states.append((round(now, 6), round(pin.state, 4))))
        cup.tumble()
        # 50 Hz frames: 1 ms pulses (-1) are a 5 % duty, 2 ms (+1) 10 %, 1.5 ms (home) 7.5 %
        assert {s for t, s in states if t <= 0.3} == {0.05}
        assert {s for t, s in states if 0.3 < t <= 0.6} == {0.1}
        assert {s for t, s in states if 0.6 < t <= 1.0} == {0.075}
        assert clock.now() == pytest.approx(1.0)
        assert pin.state == 0 and not cup.turning  # no pulses at rest
        cup.close()

    def test_an_error_mid_swing_lets_the_servo_go(
            self, factory: MockFactory, clock: ManualClock) -> None:
        cup = make_cup(self.CONFIG, pin_factory=factory, clock=clock)

        def fail(now: float) -> None:
            raise RuntimeError("boom")
        clock.watch(fail)
        with pytest.raises(RuntimeError):
            cup.tumble()
        assert factory.pin(18).state == 0 and not cup.turning
        cup.close()


class TestOpening:
    def test_a_busy_motor_pin_is_a_device_error_naming_device_and_pin(
            self, factory: MockFactory, clock: ManualClock) -> None:
        other = LED(27, pin_factory=factory)
        with pytest.raises(DeviceError, match=r"cup motor \(forward GPIO17, backward GPIO27\)"):
            make_cup(CONFIG, pin_factory=factory, clock=clock)
        other.close()

    def test_a_busy_home_switch_pin_releases_the_motor(
            self, factory: MockFactory, clock: ManualClock) -> None:
        other = LED(22, pin_factory=factory)
        with pytest.raises(DeviceError, match=r"cup home switch \(GPIO22\)"):
            make_cup(CONFIG, pin_factory=factory, clock=clock)
        Motor(17, 27, pin_factory=factory).close()  # the motor's pins were let go
        other.close()

    def test_a_busy_servo_pin(self, factory: MockFactory, clock: ManualClock) -> None:
        other = LED(18, pin_factory=factory)
        with pytest.raises(DeviceError, match=r"cup servo \(GPIO18\)"):
            make_cup(TestServo.CONFIG, pin_factory=factory, clock=clock)
        other.close()

    def test_every_kind_is_a_cup(self, factory: MockFactory, clock: ManualClock) -> None:
        configs = [CONFIG, CupConfig(kind=CupKind.PHASE_ENABLE, phase_pin=5, enable_pin=6),
                   TestServo.CONFIG]
        for config in configs:
            cup = make_cup(config, pin_factory=factory, clock=clock)
            assert isinstance(cup, Cup)
            cup.close()
