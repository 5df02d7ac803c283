"""Settle detection: still trays settle after the hold time, moving ones time out."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from dicetray.vision.calibration import Calibration
from dicetray.vision.errors import SettleTimeout
from dicetray.vision.frames import SimulatedSource
from dicetray.vision.render import render
from dicetray.vision.scene import SimulatedTray, random_scene
from dicetray.vision.settle import SettleDetector, wait_until_settled

SIZE = (320, 240)


class Clock:
    """A fake clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def ticking(frames: Iterator[np.ndarray], clock: Clock, step: float) -> Iterator[np.ndarray]:
    for frame in frames:
        yield frame
        clock.now += step


def noisy_still(seed: int = 0) -> Iterator[np.ndarray]:
    scene = random_scene(seed, image_size=SIZE)
    index = 0
    while True:
        yield render(scene, index)[0]  # same dice, fresh sensor noise
        index += 1


class TestDetector:
    def test_a_still_tray_settles_after_the_hold_time(self) -> None:
        clock = Clock()
        detector = SettleDetector(still_s=0.45, clock=clock)
        states = []
        for frame in ticking(noisy_still(), clock, 0.1):
            states.append(detector.update(frame))
            if len(states) == 10:
                break
        # the second frame matches the first: still since t=0, settled at t=0.5
        assert states == [False] * 5 + [True] * 5
        assert detector.motion < detector.threshold

    def test_a_moving_die_restarts_the_hold(self) -> None:
        clock = Clock()
        detector = SettleDetector(still_s=0.25, clock=clock)
        still = random_scene(1, image_size=SIZE)
        die = still.dice[0]
        moved = still.with_dice([type(die)(die.value, die.x + 20, die.y), *still.dice[1:]])
        sequence = [still, still, still, moved, moved, moved, moved, moved]
        states = []
        for scene in sequence:
            states.append(detector.update(render(scene)[0]))
            clock.now += 0.1
        # still since t=0 but the hold is broken at t=0.3, so it starts again from there
        assert states == [False, False, False, False, False, False, True, True]

    def test_motion_outside_the_zones_is_ignored_when_calibrated(self) -> None:
        scene = random_scene(3, image_size=SIZE)
        frame, truth = render(scene)
        calibration = Calibration(image_size=SIZE, tray=truth.tray, ledge=truth.ledge,
                                  die_size=truth.die_size)
        clock = Clock()
        zoned = SettleDetector(calibration, still_s=0.2, clock=clock)
        plain = SettleDetector(still_s=0.2, clock=clock)
        rng = np.random.default_rng(0)
        results = []
        for _ in range(5):
            shaken = frame.copy()
            # a hand waving over the table, off the tray: the frame's top-left corner
            shaken[:30, :40] = rng.integers(0, 255, (30, 40, 3), dtype=np.uint8)
            results.append((zoned.update(shaken), plain.update(shaken)))
            clock.now += 0.1
        assert results[-1] == (True, False)

    def test_bad_parameters(self) -> None:
        with pytest.raises(ValueError):
            SettleDetector(threshold=0)


class TestWait:
    def test_waits_through_a_tumble(self) -> None:
        clock = Clock()
        tray = SimulatedTray(seed=8, clock=clock, tumble_s=1.0,
                             base=random_scene(8, image_size=SIZE))
        tray.roll([3, 3, 4, 5, 6])
        source = SimulatedSource(tray)
        frame = wait_until_settled(ticking(source.frames(), clock, 0.1),
                                   SettleDetector(still_s=0.4, clock=clock), timeout_s=5)
        # the dice barely creep in the last tenth of the tumble; never read before that
        assert tray.settled and 0.9 + 0.4 <= clock.now <= 1.0 + 0.4 + 0.2
        assert source.truth().values == (3, 3, 4, 5, 6)
        assert frame.shape == (240, 320, 3)

    def test_never_still_times_out(self) -> None:
        clock = Clock()
        rng = np.random.default_rng(1)
        shaking = (rng.integers(0, 255, (60, 80, 3), dtype=np.uint8) for _ in iter(int, 1))
        with pytest.raises(SettleTimeout, match="the tray never settled in 2 s"):
            wait_until_settled(ticking(shaking, clock, 0.25), SettleDetector(clock=clock),
                               timeout_s=2)
        assert clock.now == pytest.approx(2.25)

    def test_frames_running_out(self) -> None:
        frames = [np.zeros((60, 80, 3), np.uint8)] * 3
        with pytest.raises(SettleTimeout, match="ran out"):
            wait_until_settled(frames, SettleDetector(still_s=5, clock=Clock()))
