"""``dicetray calibrate``: from image files or a frame source, with clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from dicetray.firmware.cli import main
from dicetray.vision.calibration import Calibration
from dicetray.vision.render import render
from dicetray.vision.scene import random_scene

SIZE = (480, 360)


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Rendered photos of an empty tray and of dice on it, as files."""
    folder = tmp_path_factory.mktemp("photos")
    scene = random_scene(12, image_size=SIZE)
    paths: dict[str, list[Path]] = {"empty": [], "dice": []}
    for i in range(2):
        path = folder / f"empty{i}.png"
        cv2.imwrite(str(path), render(scene.with_dice(()), i)[0])
        paths["empty"].append(path)
    for i in range(2):
        path = folder / f"dice{i}.png"
        cv2.imwrite(str(path), render(scene.with_dice(random_scene(40 + i).dice), i)[0])
        paths["dice"].append(path)
    return paths


def _args(photos: dict[str, list[Path]]) -> list[str]:
    return [arg for kind in ("empty", "dice") for p in photos[kind]
            for arg in (f"--{kind}", str(p))]


def test_calibrates_from_image_files_into_the_data_dir(photos, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "calibrate",
                                       *_args(photos)])
    assert result.exit_code == 0, result.output
    assert "dice found per frame: 5, 5" in result.output
    assert f"calibration written to {tmp_path / 'calibration.json'}" in result.output
    calibration = Calibration.load(tmp_path / "calibration.json")
    assert calibration.image_size == SIZE and calibration.background_image() is not None


def test_data_dir_from_the_environment_and_json_report(photos, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["calibrate", "--json", "--count", "5", *_args(photos)],
                                env={"DICETRAY_DATA_DIR": str(tmp_path / "data")})
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["calibration"] == str(tmp_path / "data" / "calibration.json")
    assert report["dice_found"] == [5, 5] and len(report["readings"]) == 2
    assert [r["image"] for r in report["readings"]] == [str(p) for p in photos["dice"]]
    assert report["status"] in ("ok", "unsure")


def test_out_file_and_given_tray(photos, tmp_path: Path) -> None:
    out = tmp_path / "my.json"
    tray = "20,20 460,20 460,340 20,340"
    result = CliRunner().invoke(main, ["calibrate", "--out", str(out), "--tray", tray,
                                       *_args(photos)])
    assert result.exit_code == 0, result.output
    assert Calibration.load(out).tray == ((20, 20), (460, 20), (460, 340), (20, 340))
    assert (tmp_path / "my.background.png").is_file()


def test_folder_of_images_as_arguments(photos, tmp_path: Path) -> None:
    empty_dir, dice_dir = tmp_path / "e", tmp_path / "d"
    for folder, kind in ((empty_dir, "empty"), (dice_dir, "dice")):
        folder.mkdir()
        for p in photos[kind]:
            (folder / p.name).write_bytes(p.read_bytes())
    result = CliRunner().invoke(main, ["calibrate", "--out", str(tmp_path / "c.json"),
                                       "--empty", str(empty_dir), "--dice", str(dice_dir)])
    assert result.exit_code == 0, result.output
    assert "dice found per frame: 5, 5" in result.output


def test_frames_from_a_folder_source(photos, tmp_path: Path) -> None:
    replay = tmp_path / "replay"
    replay.mkdir()
    for i, p in enumerate([*photos["empty"], *photos["dice"]]):
        (replay / f"{i:02}.png").write_bytes(p.read_bytes())
    result = CliRunner().invoke(main, ["calibrate", "--source", f"folder:{replay}",
                                       "--frames", "2", "--yes", "--out",
                                       str(tmp_path / "c.json")])
    assert result.exit_code == 0, result.output
    assert "dice found per frame: 5, 5" in result.output


def test_frames_from_the_simulated_tray(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["calibrate", "--source", "sim:5", "--size", "320x240",
                                       "--frames", "1", "--out", str(tmp_path / "c.json")])
    assert result.exit_code == 0, result.output
    assert "dice found per frame: 5" in result.output
    calibration = Calibration.load(tmp_path / "c.json")
    assert calibration.image_size == (320, 240)
    assert calibration.ledge is not None  # the simulated tray knows where its ledge is
    assert "ledge corners: none" not in result.output


def test_the_simulated_tray_rolls_as_many_dice_as_asked(tmp_path: Path) -> None:
    out = str(tmp_path / "c.json")
    result = CliRunner().invoke(main, ["calibrate", "--source", "sim:5", "--count", "3",
                                       "--frames", "2", "--json", "--out", out])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["dice_found"] == [3, 3]
    assert all(len(r["dice"]) == 3 for r in report["readings"])


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--empty", "/nonexistent.png", "--dice", "/nonexistent.png"], 1,
         "/nonexistent.png: no such file"),
        (["--source", "telescope"], 1, "unknown frame source 'telescope'"),
        (["--source", "picamera2", "--empty", "x.png"], 1, "not both"),
        ([], 1, "give --dice images"),
        (["--empty", "x.png"], 1, "give --dice images"),
        (["--source", "sim", "--tray", "1,2 3"], 1, "expected corners"),
        (["--source", "sim", "--size", "big"], 1, "WIDTHxHEIGHT"),
    ],
)
def test_errors_are_one_line_without_traceback(args: list[str], code: int,
                                               message: str) -> None:
    result = CliRunner().invoke(main, ["calibrate", *args])
    assert result.exit_code == code
    assert message in result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1


def test_frames_without_a_tray_are_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain.png"
    cv2.imwrite(str(plain), np.full((120, 160, 3), 128, np.uint8))
    result = CliRunner().invoke(main, ["calibrate", "--out", str(tmp_path / "c.json"),
                                       "--empty", str(plain), "--dice", str(plain)])
    assert result.exit_code == 1
    assert "Error: could not find the tray" in result.output
    assert not (tmp_path / "c.json").exists()


def test_an_unsure_calibration_never_replaces_a_good_one(photos, tmp_path: Path) -> None:
    target = tmp_path / "c.json"
    good = CliRunner().invoke(main, ["calibrate", "--out", str(target), *_args(photos)])
    assert good.exit_code == 0 and "calibration written" in good.output
    before = target.read_bytes()
    # four dice expected where five lie: the reading is unsure
    unsure = CliRunner().invoke(main, ["calibrate", "--count", "4", "--json", "--out",
                                       str(target), *_args(photos)])
    report = json.loads(unsure.output)
    assert report["status"] == "unsure" and report["written"] is False
    assert target.read_bytes() == before
    forced = CliRunner().invoke(main, ["calibrate", "--count", "4", "--force", "--out",
                                       str(target), *_args(photos)])
    assert "calibration written" in forced.output


def test_json_readings_name_their_frames_from_a_source(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["calibrate", "--source", "sim:5", "--size", "320x240",
                                       "--frames", "2", "--json", "--out",
                                       str(tmp_path / "c.json")])
    assert result.exit_code == 0, result.output
    names = [r["image"] for r in json.loads(result.output)["readings"]]
    assert names == ["sim:5 frame 1", "sim:5 frame 2"]
