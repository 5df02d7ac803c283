"""Calibration files: round trip, and refusal of every kind of corruption."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetray.vision.calibration import (
    CALIBRATION_VERSION,
    Calibration,
    CameraSettings,
    homography_from_corners,
)
from dicetray.vision.errors import CalibrationError, VisionError

TRAY = ((100.0, 80.0), (540.0, 90.0), (530.0, 390.0), (110.0, 400.0))
LEDGE = ((100.0, 410.0), (540.0, 410.0), (540.0, 470.0), (100.0, 470.0))


def _calibration(background: bool = True) -> Calibration:
    rng = np.random.default_rng(3)
    pixels = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8) if background else None
    h, size = homography_from_corners(TRAY, (440, 320))
    return Calibration(
        image_size=(640, 480),
        tray=TRAY,
        ledge=LEDGE,
        homography=h,
        topdown_size=size,
        die_size=41.5,
        die_color=(230, 228, 225),
        pip_color=(25, 20, 30),
        camera=CameraSettings(exposure_us=9000, analogue_gain=2.0, colour_gains=(1.8, 1.4),
                              lens_position=3.5),
        quality={"dice_found": 5.0, "read_ok": 1.0},
        background_pixels=pixels,
    )


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "calibration.json"
    _calibration().save(path)
    return path


class TestRoundTrip:
    def test_everything_survives_save_and_load(self, saved: Path) -> None:
        original = _calibration()
        loaded = Calibration.load(saved)
        assert loaded == replace(original, background="calibration.background.png")
        assert loaded.quality == {"dice_found": 5.0, "read_ok": 1.0}
        assert loaded.background == "calibration.background.png"
        assert (saved.parent / "calibration.background.png").is_file()
        assert np.array_equal(loaded.background_image(), original.background_pixels)

    def test_without_background(self, tmp_path: Path) -> None:
        path = tmp_path / "c.json"
        _calibration(background=False).save(path)
        loaded = Calibration.load(path)
        assert loaded.background is None and loaded.background_image() is None
        assert not list(tmp_path.glob("*.png"))

    def test_json_is_versioned_and_readable(self, saved: Path) -> None:
        data = json.loads(saved.read_text())
        assert data["version"] == CALIBRATION_VERSION
        assert data["camera"]["colour_gains"] == [1.8, 1.4]

    def test_zones(self) -> None:
        cal = _calibration(background=False)
        assert cal.zone_of(320, 240) == "tray"
        assert cal.zone_of(320, 440) == "ledge"
        assert cal.zone_of(5, 5) == "unknown"
        mask = cal.zone_mask()
        assert mask[240, 320] == 255 and mask[440, 320] == 255 and mask[5, 5] == 0
        assert cal.zone_mask(("ledge",))[240, 320] == 0

    def test_homography_maps_tray_corners_to_topdown_rectangle(self) -> None:
        cal = _calibration(background=False)
        corners = cal.to_topdown(TRAY)
        assert corners == pytest.approx(np.array([[0, 0], [440, 0], [440, 320], [0, 320]]),
                                        abs=1e-3)
        warped = cal.topdown(np.zeros((480, 640, 3), np.uint8))
        assert warped.shape == (320, 440, 3)


def _corrupt(saved: Path, change) -> None:
    data = json.loads(saved.read_text())
    change(data)
    saved.write_text(json.dumps(data))


CORRUPTIONS = {
    "wrong version": (lambda d: d.update(version=2), "unsupported version 2"),
    "missing version": (lambda d: d.pop("version"), "missing field 'version'"),
    "missing tray": (lambda d: d.pop("tray"), "missing field 'tray'"),
    "missing die size": (lambda d: d.pop("die_size"), "missing field 'die_size'"),
    "ill-typed die size": (lambda d: d.update(die_size="big"), "die_size"),
    "ill-typed image size": (lambda d: d.update(image_size=[640.5, 480]), "image_size"),
    "ill-typed tray": (lambda d: d.update(tray="square"), "tray must be a list"),
    "tray point not a pair": (lambda d: d["tray"].__setitem__(0, [1, 2, 3]), "tray polygon point"),
    "two-point tray": (lambda d: d.update(tray=d["tray"][:2]), "at least 3 points"),
    "degenerate tray": (lambda d: d.update(tray=[[0, 0], [10, 10], [20, 20], [30, 30]]),
                        "degenerate"),
    "degenerate ledge": (lambda d: d.update(ledge=[[5, 5], [5, 5], [5, 5]]), "ledge polygon"),
    "singular homography": (lambda d: d.update(homography=[[1, 2, 3], [2, 4, 6], [0, 0, 1]]),
                            "singular"),
    "homography not 3x3": (lambda d: d.update(homography=[[1, 0], [0, 1]]), "3x3"),
    "homography without size": (lambda d: d.update(topdown_size=None), "topdown_size"),
    "colour out of range": (lambda d: d.update(die_color=[0, 0, 300]), "die_color"),
    "bad exposure": (lambda d: d["camera"].update(exposure_us=-5), "exposure_us"),
    "bad colour gains": (lambda d: d["camera"].update(colour_gains=[1.0]), "colour_gains"),
    "unknown field": (lambda d: d.update(zoom=3), "unknown fields"),
    "background path escapes": (lambda d: d.update(background="../x.png"), "plain file name"),
    "quality not numbers": (lambda d: d.update(quality={"ok": "yes"}), "quality"),
    "not an object": (lambda d: None, None),
}


class TestRefusal:
    @pytest.mark.parametrize("case", sorted(CORRUPTIONS))
    def test_corrupt_field_is_refused_with_file_and_reason(self, saved: Path, case: str) -> None:
        change, reason = CORRUPTIONS[case]
        if reason is None:
            saved.write_text("[1, 2, 3]")
            reason = "JSON object"
        else:
            _corrupt(saved, change)
        with pytest.raises(CalibrationError) as info:
            Calibration.load(saved)
        assert str(saved) in str(info.value)
        assert reason in str(info.value)

    def test_bad_json(self, saved: Path) -> None:
        saved.write_text('{"version": 1, "tray": [')
        with pytest.raises(CalibrationError, match="not valid JSON"):
            Calibration.load(saved)

    def test_missing_file(self, tmp_path: Path) -> None:
        with pytest.raises(CalibrationError, match="no calibration file"):
            Calibration.load(tmp_path / "nope.json")

    def test_missing_background(self, saved: Path) -> None:
        (saved.parent / "calibration.background.png").unlink()
        with pytest.raises(CalibrationError, match=r"background image .* is missing"):
            Calibration.load(saved)

    def test_unreadable_background(self, saved: Path) -> None:
        (saved.parent / "calibration.background.png").write_bytes(b"not a png")
        with pytest.raises(CalibrationError, match="unreadable"):
            Calibration.load(saved)

    def test_background_of_wrong_size(self, saved: Path) -> None:
        cv2.imwrite(str(saved.parent / "calibration.background.png"),
                    np.zeros((10, 10, 3), np.uint8))
        with pytest.raises(CalibrationError, match="expected 640x480"):
            Calibration.load(saved)

    def test_errors_belong_to_the_vision_family(self) -> None:
        with pytest.raises(VisionError):
            Calibration(image_size=(640, 480), tray=((0, 0), (1, 1), (2, 2)), die_size=40)

    def test_implausible_die_size_when_built_directly(self) -> None:
        with pytest.raises(CalibrationError, match="die_size"):
            Calibration(image_size=(640, 480), tray=TRAY, die_size=0.5)
