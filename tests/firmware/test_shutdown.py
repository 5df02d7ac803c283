"""SIGTERM and Ctrl-C stop the devices: the real signal, sent to this process mid-tumble."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from gpiozero.pins.mock import MockFactory

from dicetray.firmware.clock import ManualClock
from dicetray.firmware.config import CupConfig, TumbleStep
from dicetray.firmware.cup import make_cup
from dicetray.firmware.shutdown import stop_on_signals

CONFIG = CupConfig(pattern=(TumbleStep(0.8, 2.0), TumbleStep(-0.8, 2.0)), tick_s=0.05)


def signal_at(clock: ManualClock, factory: MockFactory, when: float, signum: int,
              seen: list[tuple[float, float]]):
    def send(now: float) -> None:
        if round(now, 6) == when:
            seen.append((factory.pin(17).state, factory.pin(27).state))
            os.kill(os.getpid(), signum)
    clock.watch(send)


class TestMidTumble:
    def test_sigterm_stops_the_motor_and_exits_143(self, factory: MockFactory,
                                                    clock: ManualClock) -> None:
        cup = make_cup(CONFIG, pin_factory=factory, clock=clock)
        at_signal: list[tuple[float, float]] = []
        signal_at(clock, factory, 1.0, signal.SIGTERM, at_signal)
        with pytest.raises(SystemExit) as exited, stop_on_signals(cup.stop):
            cup.tumble()
        assert exited.value.code == 128 + signal.SIGTERM
        assert at_signal == [(0.8, 0)]  # it was turning when the signal came
        assert (factory.pin(17).state, factory.pin(27).state) == (0, 0)
        assert not cup.turning
        assert clock.now() == pytest.approx(1.0)  # nothing ran on after the signal
        cup.close()

    def test_ctrl_c_stops_the_motor_and_interrupts(self, factory: MockFactory,
                                                    clock: ManualClock) -> None:
        cup = make_cup(CONFIG, pin_factory=factory, clock=clock)
        at_signal: list[tuple[float, float]] = []
        signal_at(clock, factory, 2.5, signal.SIGINT, at_signal)
        with pytest.raises(KeyboardInterrupt), stop_on_signals(cup.stop):
            cup.tumble()
        assert at_signal == [(0, 0.8)]
        assert (factory.pin(17).state, factory.pin(27).state) == (0, 0)
        cup.close()


class TestHandlers:
    def test_every_stop_runs_even_when_one_fails(self, capfd: pytest.CaptureFixture) -> None:
        called: list[str] = []

        def broken() -> None:
            called.append("broken")
            raise OSError("pin gone")
        with pytest.raises(SystemExit), stop_on_signals(
                lambda: called.append("first"), broken, lambda: called.append("last")):
            os.kill(os.getpid(), signal.SIGTERM)
        assert called == ["first", "broken", "last"]
        assert "pin gone" in capfd.readouterr().err

    def test_previous_handlers_come_back(self) -> None:
        before = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
        with stop_on_signals(lambda: None):
            assert signal.getsignal(signal.SIGTERM) is not before[signal.SIGTERM]
        assert {sig: signal.getsignal(sig) for sig in before} == before
        with pytest.raises(ValueError), stop_on_signals(lambda: None):
            raise ValueError("the block failed")
        assert {sig: signal.getsignal(sig) for sig in before} == before

    def test_outside_the_block_nothing_is_stopped(self) -> None:
        called: list[str] = []
        with stop_on_signals(lambda: called.append("stop")):
            pass
        previous = signal.signal(signal.SIGTERM, lambda signum, frame: None)
        try:
            os.kill(os.getpid(), signal.SIGTERM)
        finally:
            signal.signal(signal.SIGTERM, previous)
        assert called == []

    def test_only_the_main_thread_may_install_handlers(self) -> None:
        errors: list[BaseException] = []

        def enter() -> None:
            try:
                with stop_on_signals(lambda: None):
                    pass
            except RuntimeError as exc:
                errors.append(exc)
        worker = threading.Thread(target=enter)
        worker.start()
        worker.join()
        assert len(errors) == 1 and "main thread" in str(errors[0])
