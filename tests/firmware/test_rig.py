"""The rig: every device built from the config; simulated, the cup's pins move the dice."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from dicetray.firmware.clock import ManualClock
from dicetray.firmware.config import (
    CameraConfig,
    CupConfig,
    CupKind,
    GpioConfig,
    GpioFactory,
    TrayConfig,
    TumbleStep,
)
from dicetray.firmware.cup import Cup
from dicetray.firmware.errors import CupStalled, DeviceError
from dicetray.firmware.lights import Status
from dicetray.firmware.rig import Rig, SimulatedCamera, build_rig
from dicetray.vision.errors import CameraError

SMALL = TrayConfig(camera=CameraConfig(size=(320, 240)))


@pytest.fixture
def rig() -> Iterator[Rig]:
    made = build_rig(SMALL, simulate=True, fast=True, seed=4)
    yield made
    made.close()


def motor_pins(rig: Rig) -> tuple[float, float]:
    return (rig.factory.pin(17).state, rig.factory.pin(27).state)


class TestSimulatedRig:
    def test_the_parts(self, rig: Rig) -> None:
        assert rig.simulated and rig.sim is not None
        assert isinstance(rig.factory, MockFactory)
        assert isinstance(rig.clock, ManualClock) and not rig.clock.realtime
        assert isinstance(rig.cup, Cup) and isinstance(rig.camera, SimulatedCamera)
        assert rig.camera_problem is None
        assert rig.status.status is Status.IDLE
        assert rig.sim.at_home and rig.factory.pin(22).state == 0  # resting on the switch

    def test_a_tumble_throws_the_dice_which_then_settle_with_new_values(
            self, rig: Rig) -> None:
        assert rig.sim is not None
        before = rig.sim.values()
        flying: list[bool] = []
        rig.clock.watch(lambda now: flying.append(
            any(d.moving for d in rig.camera.scene().dice)))
        rig.cup.tumble()
        assert rig.sim.rolls > 0 and all(flying)  # moving at every step of the tumble
        assert motor_pins(rig) == (0, 0) and rig.sim.at_home
        blurred = rig.sim.truth()
        assert any(d.blurred for d in blurred.dice)  # frames taken now are blurred
        rig.clock.sleep(1.5)
        assert rig.sim.settled
        still = rig.sim.truth()
        assert not any(d.blurred for d in still.dice)
        assert rig.sim.values() != before
        assert sorted(rig.sim.values()) == sorted(still.values)

    def test_each_capture_waits_one_frame_on_the_rigs_clock(self, rig: Rig) -> None:
        assert rig.sim is not None
        rig.cup.tumble()
        start = rig.clock.now()
        frames = [rig.capture() for _ in range(2)]
        interval = 1.0 / SMALL.cycle.frames_per_second
        assert rig.clock.now() == pytest.approx(start + 2 * interval)
        assert not rig.sim.settled and frames[0].shape == (240, 320, 3)
        taken = 2
        while not rig.sim.settled:  # frames alone bring the dice to rest: one time
            rig.capture()
            taken += 1
        assert rig.clock.now() == pytest.approx(start + taken * interval)

    def test_a_settle_detector_on_the_cameras_clock_sees_the_dice_come_to_rest(
            self, rig: Rig) -> None:
        from dicetray.vision.settle import SettleDetector, wait_until_settled

        assert rig.sim is not None and rig.camera is not None
        rig.cup.tumble()
        detector = SettleDetector(clock=rig.camera.clock)
        frame = wait_until_settled(rig.camera, detector, timeout_s=5.0)
        assert rig.sim.settled and frame.shape == (240, 320, 3)

    def test_playing_with_fewer_dice(self, rig: Rig) -> None:
        assert rig.sim is not None
        rig.sim.use(3)
        rig.cup.tumble()
        rig.clock.sleep(2.0)
        assert len(rig.sim.values()) == 3 and len(rig.sim.truth().dice) == 3

    def test_the_same_seed_gives_the_same_dice(self) -> None:
        outcomes = []
        for _ in range(2):
            with build_rig(SMALL, simulate=True, fast=True, seed=11) as made:
                made.cup.tumble()
                made.cup.tumble()
                assert made.sim is not None
                outcomes.append(made.sim.values())
        assert outcomes[0] == outcomes[1]

    def test_a_jammed_cup_stalls_with_the_motor_off_and_the_dice_unmoved(
            self, rig: Rig) -> None:
        assert rig.sim is not None
        before = rig.sim.values()
        rig.sim.jam()
        with pytest.raises(CupStalled):
            rig.cup.tumble()
        assert motor_pins(rig) == (0, 0) and not rig.cup.turning
        assert rig.sim.rolls == 0 and rig.sim.values() == before
        rig.sim.unjam()
        rig.cup.tumble()  # freed, it tumbles and finds home again
        assert rig.sim.at_home and rig.sim.rolls > 0

    def test_the_button_can_be_pressed_and_held(self) -> None:
        said: list[str] = []
        with build_rig(SMALL, simulate=True, fast=True, on_press=lambda: said.append("press"),
                       on_hold=lambda: said.append("hold")) as made:
            assert made.sim is not None
            made.sim.press()
            made.sim.hold()
            made.button.busy = True
            made.sim.press()
        assert said == ["press", "hold"]

    def test_kept_dice_stay_on_the_ledge_through_a_tumble(self, rig: Rig) -> None:
        assert rig.sim is not None
        rig.cup.tumble()
        rig.clock.sleep(2.0)
        target = rig.sim.truth().dice[2]
        index = rig.sim.keep(target.x, target.y)
        assert index == 2
        x, y = rig.sim.spot(index)  # where the camera now sees it: on the ledge
        assert rig.sim.truth().dice[2].zone == "ledge"
        assert rig.camera is not None and rig.camera.nearest_die(x, y) == 2
        kept_value = rig.sim.values()[2]
        rig.cup.tumble()
        rig.clock.sleep(2.0)
        truth = rig.sim.truth()
        assert [d.zone for d in truth.dice].count("ledge") == 1
        assert rig.sim.values()[2] == kept_value
        rig.sim.release_all()
        assert [d.zone for d in rig.sim.truth().dice].count("ledge") == 0

    def test_an_unplugged_camera_raises_camera_error_on_capture(self, rig: Rig) -> None:
        assert rig.sim is not None
        assert rig.capture().dtype == np.uint8
        rig.sim.unplug_camera()
        with pytest.raises(CameraError, match="unplugged"):
            rig.capture()
        assert rig.factory.pin(24).state == 0  # the tray light went off again
        rig.sim.plug_camera_in()
        assert rig.capture().shape == (240, 320, 3)

    def test_the_tray_light_is_on_for_each_capture(self, rig: Rig) -> None:
        assert rig.camera is not None
        lit: list[bool] = []
        original = rig.camera.capture

        class Watching:
            def capture(self) -> np.ndarray:
                lit.append(rig.tray_light.is_lit)
                return original()
        rig.camera.capture = Watching().capture  # type: ignore[method-assign]
        rig.capture()
        assert lit == [True] and not rig.tray_light.is_lit

    def test_a_realtime_rig_by_default(self) -> None:
        with build_rig(SMALL, simulate=True) as made:
            assert isinstance(made.clock, ManualClock) and made.clock.realtime

    def test_a_phase_enable_cup_is_simulated_too(self) -> None:
        config = TrayConfig(cup=CupConfig(kind=CupKind.PHASE_ENABLE, phase_pin=5,
                                          enable_pin=6), camera=CameraConfig(size=(320, 240)))
        with build_rig(config, simulate=True, fast=True) as made:
            made.cup.tumble()
            assert made.sim is not None and made.sim.rolls > 0 and made.sim.at_home

    def test_a_servo_cup_throws_the_dice(self) -> None:
        config = TrayConfig(cup=CupConfig(kind=CupKind.SERVO, servo_pin=18,
                                          pattern=(TumbleStep(-1, 0.4), TumbleStep(1, 0.4))),
                            camera=CameraConfig(size=(320, 240)))
        with build_rig(config, simulate=True, fast=True, seed=2) as made:
            assert made.sim is not None
            before = made.sim.values()
            made.cup.tumble()
            made.clock.sleep(2.0)
            assert made.sim.rolls > 0 and made.sim.settled and made.sim.values() != before


class TestClosing:
    def test_close_mid_tumble_stops_the_motor_first(self) -> None:
        made = build_rig(SMALL, simulate=True, fast=True)
        at_close: list[tuple[float, float]] = []

        def close_at_one_second(now: float) -> None:
            if round(now, 6) == 1.0:
                at_close.append(motor_pins(made))
                made.close()
        made.clock.watch(close_at_one_second)
        with pytest.raises(DeviceError, match="stopped before the tumble finished"):
            made.cup.tumble()
        assert at_close == [(0.8, 0)]
        assert made.closed
        made.close()  # idempotent

    def test_closing_releases_every_pin(self) -> None:
        made = build_rig(SMALL, simulate=True, fast=True)
        factory = made.factory
        made.close()
        assert all(pin.state == 0 for pin in (factory.pin(n) for n in (17, 27, 12, 13, 19, 24)))


class TestHardwareRig:
    """Without ``simulate``: the config's pin factory (mock here) and the config's camera."""

    def test_a_camera_that_cannot_be_opened_is_not_fatal(self, tmp_path) -> None:
        config = TrayConfig(gpio=GpioConfig(factory=GpioFactory.MOCK),
                            camera=CameraConfig(source=f"folder:{tmp_path / 'none'}"))
        with build_rig(config, simulate=False) as made:
            assert not made.simulated and made.sim is None
            assert made.camera is None
            assert made.camera_problem is not None and "is not a folder" in made.camera_problem
            with pytest.raises(CameraError, match="is not a folder"):
                made.capture()

    def test_the_configured_camera_is_opened(self) -> None:
        config = TrayConfig(gpio=GpioConfig(factory=GpioFactory.MOCK),
                            camera=CameraConfig(source="sim:3", size=(320, 240)))
        with build_rig(config, simulate=False) as made:
            assert made.camera is not None and made.camera_problem is None
            assert made.capture().shape == (240, 320, 3)

    def test_a_simulated_rig_needs_a_manual_clock(self) -> None:
        from dicetray.firmware.clock import SystemClock

        with pytest.raises(TypeError, match="ManualClock"):
            build_rig(SMALL, simulate=True, clock=SystemClock())
