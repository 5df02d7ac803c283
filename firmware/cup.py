"""The tumbling cup: a DC gear motor with a home switch, or a hobby servo.

A tumble runs the configured pattern (each step a speed, negative for backwards, held for
some seconds), then turns slowly forwards until the home switch closes. Not home within
``home_timeout_s``: the motor stops and :class:`~dicetray.firmware.errors.CupStalled` is
raised. Whatever happens the motor stops: at the end, on a stall, on any exception, and when
:meth:`stop` is called (from another thread or a signal handler: it only writes pins and
sets a flag the tumble checks every ``tick_s``).

>>> from gpiozero.pins.mock import MockFactory, MockPWMPin
>>> from dicetray.firmware.clock import ManualClock
>>> from dicetray.firmware.config import CupConfig, TumbleStep
>>> factory = MockFactory(pin_class=MockPWMPin)
>>> clock = ManualClock()
>>> cup = make_cup(CupConfig(pattern=(TumbleStep(0.5, 1.0),)), pin_factory=factory,
...                clock=clock)
>>> factory.pin(22).drive_low()  # the cup is at home: its cam holds the switch closed
>>> cup.tumble()
>>> round(clock.now(), 3), cup.turning, factory.pin(17).state
(1.0, False, 0.0)
>>> cup.close()
"""

from __future__ import annotations

import threading
from typing import Any, Protocol, runtime_checkable

from gpiozero import DigitalInputDevice, Motor, PhaseEnableMotor, Servo

from dicetray.firmware.clock import Clock, SystemClock
from dicetray.firmware.config import CupConfig, CupKind
from dicetray.firmware.errors import CupStalled, DeviceError
from dicetray.firmware.pins import open_device

__all__ = ["Cup", "MotorCup", "PhaseEnableCup", "ServoCup", "make_cup"]

_EPSILON = 1e-9  # float slack when summing ticks up to a step's length


@runtime_checkable
class Cup(Protocol):
    """Something that tumbles the dice."""

    def tumble(self) -> None:
        """Run one tumble and come back to rest (CupStalled when home is not reached)."""
        ...

    def stop(self) -> None:
        """Stop at once; safe from a signal handler or another thread."""
        ...

    def close(self) -> None:
        """Stop and let the pins go."""
        ...

    @property
    def turning(self) -> bool:
        """True while the cup is driven."""
        ...



def _halted() -> DeviceError:
    return DeviceError("cup: stopped before the tumble finished")


class _DrivenCup:
    """A cup turned by a DC motor, homed by a switch (the motor is made by subclasses)."""

    def __init__(self, config: CupConfig, *, pin_factory: Any,
                 clock: Clock | None = None) -> None:
        self.config = config
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._halt = threading.Event()
        self._motor = self._open_motor(pin_factory)
        home = config.home_pin
        try:
            # a plain input, not a gpiozero Button: a Button's hold thread, waiting out its
            # hold_time while the switch is closed (the cup at rest), delays close() by 1 s
            self._home = open_device(f"cup home switch (GPIO{home})", lambda: DigitalInputDevice(
                home, pull_up=True, pin_factory=pin_factory))
        except DeviceError:
            self._motor.close()
            raise

    def _open_motor(self, pin_factory: Any) -> Any:
        raise NotImplementedError

    @property
    def turning(self) -> bool:
        """True while the motor is driven."""
        return bool(self._motor.value)

    @property
    def at_home(self) -> bool:
        """True while the home switch is closed."""
        return bool(self._home.is_active)

    def tumble(self) -> None:
        """Run the pattern, then home; CupStalled (motor stopped) when home is not reached.

        DeviceError when :meth:`stop` was called before the tumble finished.
        """
        self._halt.clear()
        try:
            for step in self.config.pattern:
                self._drive(step.speed)
                self._wait(step.seconds)
            self._home_cup()
        finally:
            self._halt_motor()

    def _home_cup(self) -> None:
        config = self.config
        self._drive(config.home_speed)
        deadline = self._clock.now() + config.home_timeout_s
        while not self._home.is_active:
            left = deadline - self._clock.now()
            if left <= _EPSILON:
                self._halt_motor()
                raise CupStalled(
                    f"cup: not home within {config.home_timeout_s:g} s (home switch on "
                    f"GPIO{config.home_pin} never closed); the motor is stopped: is the cup "
                    "jammed or the switch unplugged?")
            self._clock.sleep(min(config.tick_s, left))
            self._check_halt()

    def _drive(self, speed: float) -> None:
        self._check_halt()
        self._motor.value = speed
        # stop() may have run between the check and the write: it set the flag first,
        # so looking again here means the motor is never left turning
        self._check_halt()

    def _wait(self, seconds: float) -> None:
        end = self._clock.now() + seconds
        while (left := end - self._clock.now()) > _EPSILON:
            self._clock.sleep(min(self.config.tick_s, left))
            self._check_halt()

    def _check_halt(self) -> None:
        if self._halt.is_set():
            self._halt_motor()
            raise _halted()

    def _halt_motor(self) -> None:
        if not self._motor.closed:  # closed mid-tumble (the rig shutting down): already off
            self._motor.stop()

    def stop(self) -> None:
        """Stop the motor now (pin writes only: safe in a signal handler)."""
        self._halt.set()
        self._halt_motor()

    def close(self) -> None:
        """Stop the motor and release its pins and the home switch (idempotent)."""
        self.stop()
        self._motor.close()
        self._home.close()


class MotorCup(_DrivenCup):
    """A DC gear motor on an H-bridge with forward and backward inputs (gpiozero ``Motor``),
    PWM on both for the speed, an optional enable input held high."""

    def _open_motor(self, pin_factory: Any) -> Any:
        c = self.config
        pins = f"forward GPIO{c.forward_pin}, backward GPIO{c.backward_pin}"
        if c.enable_pin is not None:
            pins += f", enable GPIO{c.enable_pin}"
        return open_device(f"cup motor ({pins})", lambda: Motor(
            c.forward_pin, c.backward_pin, enable=c.enable_pin, pwm=True,
            pin_factory=pin_factory))


class PhaseEnableCup(_DrivenCup):
    """A DC gear motor on a phase/enable driver (gpiozero ``PhaseEnableMotor``): the phase
    input sets the direction, PWM on enable the speed."""

    def _open_motor(self, pin_factory: Any) -> Any:
        c = self.config
        return open_device(f"cup motor (phase GPIO{c.phase_pin}, enable GPIO{c.enable_pin})",
                       lambda: PhaseEnableMotor(c.phase_pin, c.enable_pin, pwm=True,
                                                pin_factory=pin_factory))


class ServoCup:
    """A cup rocked by a hobby servo: each pattern step is a position (-1..1) held for its
    seconds; then the cup goes back to ``servo_home`` and the servo is let go (no pulses, so
    it does not hum or jitter at rest). No home switch: a servo knows where it is."""

    def __init__(self, config: CupConfig, *, pin_factory: Any,
                 clock: Clock | None = None) -> None:
        self.config = config
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._halt = threading.Event()
        self._servo = open_device(f"cup servo (GPIO{config.servo_pin})", lambda: Servo(
            config.servo_pin, initial_value=None, min_pulse_width=config.servo_min_pulse_s,
            max_pulse_width=config.servo_max_pulse_s, pin_factory=pin_factory))

    @property
    def turning(self) -> bool:
        """True while the servo is driven."""
        return self._servo.value is not None

    def tumble(self) -> None:
        """Swing through the pattern, return home, let go."""
        self._halt.clear()
        try:
            for step in self.config.pattern:
                self._move(step.speed, step.seconds)
            self._move(self.config.servo_home, self.config.servo_travel_s)
        finally:
            self._let_go()

    def _move(self, position: float, seconds: float) -> None:
        if self._halt.is_set():
            raise _halted()
        self._servo.value = position
        end = self._clock.now() + seconds
        while (left := end - self._clock.now()) > _EPSILON:
            self._clock.sleep(min(self.config.tick_s, left))
            if self._halt.is_set():
                self._let_go()
                raise _halted()

    def _let_go(self) -> None:
        if not self._servo.closed:
            self._servo.detach()

    def stop(self) -> None:
        """Let the servo go now (no more pulses)."""
        self._halt.set()
        self._let_go()

    def close(self) -> None:
        """Let the servo go and release its pin (idempotent)."""
        self.stop()
        self._servo.close()


def make_cup(config: CupConfig, *, pin_factory: Any, clock: Clock | None = None) -> Cup:
    """The cup the config describes; DeviceError naming the device and pin when a pin is
    wrong or busy."""
    kinds: dict[CupKind, type[Any]] = {CupKind.MOTOR: MotorCup,
                                       CupKind.PHASE_ENABLE: PhaseEnableCup,
                                       CupKind.SERVO: ServoCup}
    return kinds[config.kind](config, pin_factory=pin_factory, clock=clock)
