"""Calibrating from a phone, through the table service over a simulated tray: the
calibration's standing, the live view, the zones, exposure and focus, the empty tray, the
save with the command's report, and the camera kept apart from a roll."""

from __future__ import annotations

import dataclasses
import json
import threading

import cv2
import numpy as np
import pytest

from dicetray.firmware.calibrating import Calibrating, Standing
from dicetray.firmware.errors import BadRequest, Busy, NotReady, StaleVersion
from dicetray.firmware.rig import expose
from dicetray.firmware.tray import open_tray
from dicetray.vision import read
from dicetray.vision.calibration import Calibration, CameraSettings
from dicetray.vision.errors import CameraError
from dicetray.vision.frames import picamera2_controls


def inline(job):
    job()


@pytest.fixture
def opened(tmp_path):
    """Open simulated trays whose calibration lives in ``calibration.json`` as a real
    tray's does (missing or damaged: uncalibrated, and said so); closed afterwards."""
    trays = []

    def make(seed=5, **options):
        options.setdefault("run", inline)
        tray = open_tray(tmp_path, simulate=True, fast=True, seed=seed, code="CALIB",
                         calibration_file=tmp_path / "calibration.json", **options)
        trays.append(tray)
        return tray

    yield make
    for tray in trays:
        tray.close()


def sim_ledge(tray):
    return [list(p) for p in tray.rig.sim.truth().ledge]


def calibrated(tray, force=False):
    """Zones as the builder drags them, the empty tray, then save: the answer."""
    table = tray.table
    status = table.calibration_status()
    status = table.set_zones(status["version"], status["draft"]["tray"], sim_ledge(tray))
    status = table.capture_empty(status["version"])
    return table.save_calibration(status["version"], force=force)


def brightness(frame):
    return float(frame.mean())


def sharpness(frame):
    return float(cv2.Laplacian(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


class TestStanding:
    def test_no_file_is_missing_and_the_tray_runs_uncalibrated(self, opened):
        tray = opened()
        status = tray.table.calibration_status()
        assert status["status"] == "missing" and status["calibration"] is None
        assert tray.table.calibration is None
        assert tray.table.state()["calibration"] == {"status": "missing", "why": ""}

    def test_a_damaged_file_is_bad_with_its_reason_and_the_tray_still_plays(self, opened,
                                                                           tmp_path):
        (tmp_path / "calibration.json").write_text('{"version": 1, "tray": [[0, 0]]}')
        tray = opened()
        table = tray.table
        status = table.calibration_status()
        assert status["status"] == "bad"
        assert "calibration.json" in status["why"] and "image_size" in status["why"]
        assert table.state()["calibration"]["status"] == "bad"
        table.new_game(table.version, "yahtzee", ["Ann"])
        state = table.roll(table.version)  # the reader reads uncalibrated
        assert state["cycle"] in ("idle", "needs-help") and state["reading"] is not None

    def test_a_file_that_is_not_even_json_is_bad(self, tmp_path):
        path = tmp_path / "calibration.json"
        path.write_bytes(b"\x00\xff garbage")
        found = Calibrating.load(path)
        assert found.standing is Standing.BAD and found.problem


class TestSaving:
    def test_capture_zones_and_save_write_the_calibration_and_the_commands_report(self, opened,
                                                                                   tmp_path):
        tray = opened()
        table = tray.table
        before = table.version
        status = calibrated(tray)
        assert status["status"] == "ok" and status["saved"] is True
        report = status["report"]
        assert report[0].startswith("dice found per frame: ")
        assert any(line.startswith("frame 1: read ") for line in report)
        assert "status: ok" in report
        assert any(line.startswith("die size: ") for line in report)
        assert report[-1] == "calibration written to calibration.json"
        saved = Calibration.load(tmp_path / "calibration.json")
        assert saved == table.calibration
        assert saved.background_image() is not None
        ledge = sim_ledge(tray)
        assert np.allclose(saved.ledge, ledge)
        assert table.version > before  # every phone hears of it
        assert table.state()["calibration"] == {"status": "ok", "why": ""}

    def test_the_next_roll_reads_with_the_new_calibration(self, opened):
        tray = opened()
        calibrated(tray)
        table = tray.table
        table.new_game(table.version, "yahtzee", ["Ann"])
        state = table.roll(table.version)
        assert state["reading"]["status"] == "ok", state["reading"]
        zones = {d["zone"] for d in state["reading"]["dice"]}
        assert zones == {"tray"}  # zones come from a calibration; uncalibrated is unknown
        assert sorted(state["game"]["turn"]["dice"]) == sorted(tray.rig.sim.values())

    def test_a_saved_calibration_is_used_after_a_restart(self, opened, tmp_path):
        first = opened()
        calibrated(first)
        first.close()
        again = opened()
        assert again.table.calibration_status()["status"] == "ok"
        assert again.table.calibration == Calibration.load(tmp_path / "calibration.json")

    def test_a_damaged_file_is_replaced_by_a_good_save(self, opened, tmp_path):
        (tmp_path / "calibration.json").write_text("{broken")
        tray = opened()
        assert calibrated(tray)["status"] == "ok"
        assert Calibration.load(tmp_path / "calibration.json") == tray.table.calibration

    def test_save_needs_the_empty_tray_first(self, opened):
        table = opened().table
        with pytest.raises(NotReady, match="capture the empty tray first"):
            table.save_calibration(table.version)

    def test_an_empty_tray_saved_as_dice_is_refused_with_what_to_do(self, opened):
        tray = opened()
        table = tray.table
        status = table.capture_empty(table.version)
        tray.rig.sim.use(0)  # no dice to roll onto the tray
        with pytest.raises(NotReady, match=r"no dice found.*put the 0 dice on the tray"):
            table.save_calibration(status["version"])
        assert table.calibration_status()["status"] == "missing"

    def test_an_unsure_calibration_keeps_a_good_one_unless_forced(self, opened, tmp_path):
        tray = opened()
        calibrated(tray)
        good = (tmp_path / "calibration.json").read_bytes()

        def doubtful(frame, calibration=None, dice=None, *, teaching=None):
            reading = read(frame, calibration, dice, teaching=teaching)
            return dataclasses.replace(reading, status="unsure",
                                       reason="ambiguous: a test's doubt")

        tray.table.reader = doubtful
        status = calibrated(tray)
        assert status["saved"] is False and "status: unsure" in status["report"]
        assert status["report"][-1].startswith("calibration NOT written")
        assert (tmp_path / "calibration.json").read_bytes() == good
        status = calibrated(tray, force=True)
        assert status["saved"] is True
        assert (tmp_path / "calibration.json").read_bytes() != good


class TestDraft:
    def test_zones_are_checked_and_kept_in_the_draft(self, opened):
        table = opened().table
        version = table.version
        for tray, ledge in [([[0, 0], [10, 0]], None),  # two corners
                            ([[0, 0], [5000, 0], [5000, 10]], None),  # outside the frame
                            ([[0, 0], [10, 10], [20, 20]], None),  # no area
                            ([[0, 0], [100, 0], [100, 100]], "shelf"),
                            ([[0, 0], [100, 0], [True, 100]], None)]:
            with pytest.raises(BadRequest):
                table.set_zones(version, tray, ledge)
        assert table.version == version  # nothing changed
        status = table.set_zones(version, [[10, 10], [600, 10], [600, 400], [10, 400]],
                                 [[10, 500], [600, 500], [600, 560]])
        assert status["version"] == version + 1
        assert status["draft"]["tray"][1] == [600, 10]
        assert status["draft"]["ledge"][2] == [600, 560]
        with pytest.raises(StaleVersion):
            table.set_zones(version, [[10, 10], [600, 10], [600, 400]], None)

    def test_exposure_brightens_the_frames_and_a_lens_off_focus_blurs_them(self, opened):
        tray = opened()
        table, rig = tray.table, tray.rig
        plain = rig.capture()
        status = table.set_camera(table.version, 20_000, None)
        assert status["draft"]["camera"]["exposure_us"] == 20_000
        assert brightness(rig.capture()) > 1.3 * brightness(plain)
        sharp_at = rig.camera.sharp_at
        table.set_camera(table.version, 10_000, round(sharp_at, 2))
        focused = sharpness(rig.capture())
        table.set_camera(table.version, 10_000, round(sharp_at + 2.0, 2))
        assert sharpness(rig.capture()) < 0.5 * focused

    def test_the_camera_settings_are_checked(self, opened):
        table = opened().table
        for exposure, lens in [(0, None), (10**9, None), ("10000", None), (True, None),
                               (10_000, -1), (10_000, 99), (10_000, "near")]:
            with pytest.raises(BadRequest):
                table.set_camera(table.version, exposure, lens)

    def test_saved_settings_go_into_the_calibration(self, opened, tmp_path):
        tray = opened()
        table = tray.table
        table.set_camera(table.version, 12_000, round(tray.rig.camera.sharp_at, 2))
        calibrated(tray)
        saved = Calibration.load(tmp_path / "calibration.json").camera
        assert saved.exposure_us == 12_000
        assert saved.lens_position == round(tray.rig.camera.sharp_at, 2)

    def test_the_live_view_is_a_jpeg_with_the_dice_drawn(self, opened):
        tray = opened()
        jpeg = tray.table.camera_view(zones=True)
        assert jpeg[:2] == b"\xff\xd8"
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape[1] == tray.table.calibrating.settings.live_width
        bare = tray.rig.capture()
        small = cv2.resize(bare, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_AREA)
        # the overlay's green boxes and labels: many pixels far from the plain frame
        assert (np.abs(image.astype(int) - small.astype(int)).max(axis=2) > 80).sum() > 500


class TestTheCameraIsShared:
    def test_calibrating_is_refused_while_a_roll_uses_the_camera(self, opened):
        jobs = []
        tray = opened(run=jobs.append)
        table = tray.table
        table.new_game(table.version, "yahtzee", ["Ann"])
        table.roll(table.version)
        assert table.cycle.busy
        for command in (lambda: table.capture_empty(table.version),
                        lambda: table.save_calibration(table.version),
                        lambda: table.set_zones(table.version, [[0, 0], [90, 0], [90, 90]], None),
                        lambda: table.set_camera(table.version, 9000, None),
                        lambda: table.camera_view()):
            with pytest.raises(Busy, match="tumbling"):
                command()
        while jobs:
            jobs.pop(0)()
        assert not table.cycle.busy
        assert table.capture_empty(table.version)["draft"]["empty"] is True

    def test_a_roll_is_refused_while_calibrating_uses_the_camera(self, opened):
        reading = threading.Event()
        go_on = threading.Event()

        def slow(frame, calibration=None, dice=None, *, teaching=None):
            reading.set()
            go_on.wait(30)
            return read(frame, calibration, dice, teaching=teaching)

        tray = opened()
        table = tray.table
        table.new_game(table.version, "yahtzee", ["Ann"])
        status = table.capture_empty(table.version)
        table.reader = slow
        answers = []
        saving = threading.Thread(
            target=lambda: answers.append(table.save_calibration(status["version"])))
        saving.start()
        try:
            assert reading.wait(30)
            with pytest.raises(Busy, match="saving the calibration"):
                table.roll(table.version)
            table.press()  # the button does nothing meanwhile
            assert table.cycle.phase == "idle"
        finally:
            go_on.set()
            saving.join(60)
        assert answers and answers[0]["status"] == "ok"
        table.reader = None
        assert table.roll(table.version)["reading"] is not None


class TestCameraControls:
    def test_picamera2_gets_manual_exposure_and_focus(self):
        controls = picamera2_controls(CameraSettings(exposure_us=15_000, analogue_gain=2.0,
                                                     lens_position=3.0), focus=True,
                                      manual_focus="manual")
        assert controls["AeEnable"] is False and controls["ExposureTime"] == 15_000
        assert controls["AnalogueGain"] == 2.0
        assert controls["AfMode"] == "manual" and controls["LensPosition"] == 3.0
        assert isinstance(controls["ExposureTime"], int)

    def test_a_lens_position_for_a_camera_that_cannot_focus_is_refused(self):
        with pytest.raises(CameraError, match="no focus control"):
            picamera2_controls(CameraSettings(lens_position=1.0), focus=False)

    def test_the_simulated_exposure_scales_and_clips(self):
        frame = np.full((8, 8, 3), 200, np.uint8)
        assert int(expose(frame, CameraSettings(exposure_us=5_000), sharp_at=2.0)[0, 0, 0]) == 100
        assert int(expose(frame, CameraSettings(exposure_us=20_000), sharp_at=2.0)[0, 0, 0]) == 255


def test_the_report_is_json_ready(opened):
    tray = opened()
    json.dumps(calibrated(tray))


def test_a_frame_the_reader_fails_on_is_still_shown(opened):
    def broken(frame, calibration=None, dice=None, *, teaching=None):
        raise ValueError("the reader broke")

    tray = opened(reader=broken)
    assert tray.table.camera_view()[:2] == b"\xff\xd8"
