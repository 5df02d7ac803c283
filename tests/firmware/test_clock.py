"""The clocks the devices wait on."""

from __future__ import annotations

import pytest

from dicetray.firmware.clock import Clock, ManualClock, SystemClock


class TestManualClock:
    def test_sleep_moves_time_and_tells_watchers_in_order(self) -> None:
        clock = ManualClock(5.0)
        seen: list[tuple[str, float]] = []
        clock.watch(lambda t: seen.append(("a", t)))
        clock.watch(lambda t: seen.append(("b", t)))
        clock.sleep(0.25)
        clock.advance(1.0)
        assert clock.now() == 6.25
        assert seen == [("a", 5.25), ("b", 5.25), ("a", 6.25), ("b", 6.25)]

    def test_unwatched_callback_is_no_longer_called(self) -> None:
        clock = ManualClock()
        seen: list[float] = []
        clock.watch(seen.append)
        clock.sleep(1)
        clock.unwatch(seen.append)
        clock.sleep(1)
        assert seen == [1.0]

    def test_a_watcher_may_sleep_no_further_but_may_read_the_time(self) -> None:
        clock = ManualClock()
        reads: list[float] = []
        clock.watch(lambda t: reads.append(clock.now()))
        clock.sleep(2)
        assert reads == [2.0]

    def test_negative_sleep_is_refused_and_time_stays(self) -> None:
        clock = ManualClock(1.0)
        with pytest.raises(ValueError, match="negative"):
            clock.sleep(-0.5)
        assert clock.now() == 1.0

    def test_both_clocks_are_clocks(self) -> None:
        assert isinstance(ManualClock(), Clock)
        assert isinstance(SystemClock(), Clock)


def test_system_clock_never_goes_back() -> None:
    clock = SystemClock()
    first = clock.now()
    clock.sleep(0)
    assert clock.now() >= first


def test_threads_sleeping_at_once_do_not_add_up() -> None:
    import threading

    clock = ManualClock(realtime=True)
    both_ready = threading.Barrier(2)

    def nap() -> None:
        both_ready.wait()
        clock.sleep(0.2)
    other = threading.Thread(target=nap)
    other.start()
    nap()
    other.join()
    # each slept 0.2 s of the same 0.2 s; stepping alone, the clock would read 0.4
    assert clock.now() == pytest.approx(0.2)

