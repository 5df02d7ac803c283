"""``dicetray calibrate`` fed hostile sizes, targets and frames (issue 25, classes 1, 2,
4 and 5), run in a child process under the limits of conftest.py: every mistake is one
``Error:`` line with status 1, found before the frames are taken where it can be."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dicetray.firmware.cli import main

SIM = ["calibrate", "--source", "sim:3", "--yes", "--frames", "1"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--size", "20000x20000"], "each side must be 64 to 4608 pixels, got '20000x20000'"),
        (["--size", "0x0"], "each side must be 64 to 4608 pixels, got '0x0'"),
        (["--size", "640x-480"], "each side must be 64 to 4608"),
        (["--size", "big"], "expected WIDTHxHEIGHT, got 'big'"),
        (["--size", "9" * 5000 + "x9"], "expected WIDTHxHEIGHT, got '99999999"),
        (["--out", "a-file/c.json"], "--out a-file/c.json: "),
        (["--out", "a-folder"], "'--out': File 'a-folder' is a directory"),
        (["--data-dir", "a-file/tray"], "a-file is a file, not a folder"),
        (["--count", "0"], "'--count': 0 is not in the range 1<=x<=30"),
        (["--frames", "99"], "'--frames': 99 is not in the range 1<=x<=20"),
        (["--tray", "1,2 3"], "expected corners"),
        (["--frobnicate"], "No such option '--frobnicate'"),
        (["--empty", "x.png"], "give either --source or --empty/--dice images, not both"),
    ],
)
def test_mistakes_end_in_one_line_before_any_frame_is_taken(dicetray: Callable,
                                                            tmp_path: Path, args: list[str],
                                                            needle: str) -> None:
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "a-folder").mkdir()
    done = dicetray(*SIM, *args)
    assert done.out == ""
    done.assert_one_error_line(needle)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "a-folder"]


def _frame(path: Path, cut: int = 0) -> Path:
    ok, data = cv2.imencode(path.suffix, np.full((240, 320, 3), 120, np.uint8))
    assert ok
    path.write_bytes(data.tobytes()[: len(data) - cut])
    return path


@pytest.mark.parametrize(
    ("empty", "needle"),
    [
        ("bomb", "too large (32000x32000 pixels declared"),
        ("cut", "not a complete image"),
        ("fifo", "not a regular file"),
        ("folder-of-one-folder", "is a folder, not an image"),
    ],
)
def test_a_bad_frame_file_is_one_line(dicetray: Callable, bomb_png: bytes, tmp_path: Path,
                                      empty: str, needle: str) -> None:
    dice = _frame(tmp_path / "dice.png")
    path = tmp_path / "empty.png"
    if empty == "bomb":
        path.write_bytes(bomb_png)
    elif empty == "cut":
        _frame(tmp_path / "empty.jpg", cut=300)
        path = tmp_path / "empty.jpg"
    elif empty == "fifo":
        os.mkfifo(path)
    elif empty == "folder-of-one-folder":
        (tmp_path / "frames" / "empty.png").mkdir(parents=True)
        path = tmp_path / "frames"
    done = dicetray("calibrate", "--empty", str(path), "--dice", str(dice),
                    "--out", str(tmp_path / "c.json"))
    assert done.out == ""
    done.assert_one_error_line(needle)
    assert not (tmp_path / "c.json").exists()


def test_a_full_disk_is_one_line_and_leaves_nothing_half_written(dicetray: Callable,
                                                                 tmp_path: Path) -> None:
    done = dicetray(*SIM, "--out", "tray/c.json", limits={"RLIMIT_FSIZE": 64 * 1024})
    done.assert_one_error_line("tray/c.background.png: cannot write the file (File too large)")
    assert list((tmp_path / "tray").iterdir()) == []


def test_a_calibration_in_a_folder_named_in_bytes_that_are_not_utf8(dicetray: Callable,
                                                                    tmp_path: Path) -> None:
    done = dicetray(*SIM, "--out", b"tray\xff/c.json")
    assert done.status == 0, done
    assert done.out.splitlines()[-1] == "calibration written to tray\\xff/c.json"
    frame = _frame(tmp_path / "frame.png")
    done = dicetray("read", "--calibration", b"tray\xff/c.json", str(frame))
    assert done.out.startswith(f"{frame}: error (the frame is 320x240 but the calibration is")


@settings(max_examples=150, deadline=None)
@given(size=st.one_of(st.text(max_size=12),
                      st.tuples(st.integers(-10, 10 ** 6), st.integers(-10, 10 ** 6)).map(
                          lambda wh: f"{wh[0]}x{wh[1]}")))
@example(size="20000x20000")
@example(size="0x0")
@example(size="64x4608")
def test_any_size_is_one_line_before_any_frame_is_taken(size: str) -> None:
    """In process (nothing is taken: --empty and --source together are refused after the
    size is checked), so many sizes are tried."""
    result = CliRunner().invoke(main, ["calibrate", "--source", "sim", "--empty", "x.png",
                                       "--size", size])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    try:
        width, height = (int(v) for v in size.lower().split("x"))
    except ValueError:
        fits = False
    else:
        fits = 64 <= width <= 4608 and 64 <= height <= 4608
    assert ("not both" in lines[0]) == fits, lines[0]


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        (b"opencv:vid\xff.avi", "opencv: vid\\xff.avi: the name is not valid UTF-8"),
        (b"opencv:" + b"v" * 300, "File name too long"),
        (b"folder:shots\xff", "folder: shots\\xff is not a folder"),
    ],
)
def test_a_source_named_in_odd_bytes_is_one_line(dicetray: Callable, tmp_path: Path,
                                                 source: bytes, needle: str) -> None:
    (tmp_path / os.fsdecode(b"vid\xff.avi")).write_bytes(b"\x00" * 64)
    done = dicetray("calibrate", "--source", source, "--yes", "--out", "c.json")
    assert done.out == ""
    done.assert_one_error_line(needle)
