"""``dicetray read``: plain and JSON output, annotated copies, bad images."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from click.testing import CliRunner

from dicetray.firmware.cli import main
from dicetray.vision.layouts import LAYOUTS


def _photo(path: Path, values: list[int]) -> Path:
    img = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    for k, value in enumerate(values):
        cx, cy = 100 + 110 * k, 240
        cv2.rectangle(img, (cx - 30, cy - 30), (cx + 30, cy + 30), (235, 235, 235), -1)
        for gx, gy in LAYOUTS[value] * 16:
            cv2.circle(img, (round(cx + gx), round(cy + gy)), 5, (25, 25, 25), -1)
    cv2.imwrite(str(path), img)
    return path


def test_plain_line_per_image(tmp_path: Path) -> None:
    a = _photo(tmp_path / "a.png", [2, 3, 3, 5, 6])
    b = _photo(tmp_path / "b.png", [4, 1])
    result = CliRunner().invoke(main, ["read", str(a), str(b)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"{a}: ok 2 3 3 5 6", f"{b}: ok 1 4"]


def test_json_and_expected_count(tmp_path: Path) -> None:
    a = _photo(tmp_path / "a.png", [2, 3, 3, 5, 6])
    result = CliRunner().invoke(main, ["read", "--json", "--dice", "4", str(a)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["image"] == str(a)
    assert data["status"] == "unsure" and data["reason"].startswith("wrong-count")
    assert sorted(d["value"] for d in data["dice"]) == [2, 3, 3, 5, 6]
    assert {"value", "x", "y", "confidence"} <= set(data["dice"][0])
    assert data["ms"] > 0


def test_missing_and_broken_images_are_error_lines(tmp_path: Path) -> None:
    good = _photo(tmp_path / "good.png", [6])
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png")
    result = CliRunner().invoke(main, ["read", str(tmp_path / "gone.png"), str(broken), str(good)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"{tmp_path / 'gone.png'}: error (no such file)"
    assert lines[1].startswith(f"{broken}: error (not a readable image")
    assert lines[2] == f"{good}: ok 6"
    assert "2 of 3" in lines[3]
    assert "Traceback" not in result.output


def test_annotate_to_a_file_and_a_folder(tmp_path: Path) -> None:
    a = _photo(tmp_path / "a.png", [5])
    b = _photo(tmp_path / "b.png", [3])
    out = tmp_path / "seen.png"
    assert CliRunner().invoke(main, ["read", "--annotate", str(out), str(a)]).exit_code == 0
    drawn = cv2.imread(str(out))
    assert drawn.shape == (480, 640, 3) and not np.array_equal(drawn, cv2.imread(str(a)))
    folder = tmp_path / "annotated"
    result = CliRunner().invoke(main, ["read", "--annotate", str(folder), str(a), str(b)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["a.annotated.png", "b.annotated.png"]


def test_bad_calibration_is_a_clear_error(tmp_path: Path) -> None:
    a = _photo(tmp_path / "a.png", [5])
    bad = tmp_path / "cal.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(main, ["read", "--calibration", str(bad), str(a)])
    assert result.exit_code != 0
    assert "Traceback" not in result.output and "cal.json" in result.output


def test_a_photo_of_another_size_than_the_calibration_is_an_error_line(tmp_path: Path) -> None:
    from dicetray.vision.calibration import Calibration

    a = _photo(tmp_path / "a.png", [2, 5])
    cal = tmp_path / "cal.json"
    square = ((10.0, 10.0), (1270.0, 10.0), (1270.0, 950.0), (10.0, 950.0))
    Calibration(image_size=(1280, 960), tray=square, ledge=None, die_size=70.0).save(cal)
    result = CliRunner().invoke(main, ["read", "--calibration", str(cal), str(a)])
    assert result.exit_code == 1
    assert f"{a}: error (the frame is 640x480 but the calibration is for 1280x960" in result.output


def test_data_dir_after_the_command_is_taken(tmp_path: Path) -> None:
    a = _photo(tmp_path / "a.png", [3])
    result = CliRunner().invoke(main, ["read", "--data-dir", str(tmp_path / "d"), str(a)])
    assert result.exit_code == 0, result.output
    assert result.output == f"{a}: ok 3\n"
