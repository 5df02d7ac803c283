"""A calibration from photos of the dice alone, for a tray whose empty view nobody took:
the tray is the whole frame, nothing is left out as the empty tray's, and the dice's
size, colours and face layouts are learnt from the dice the reader reads in them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from dicetray.firmware.cli import main
from dicetray.vision import read
from dicetray.vision.calibration import Calibration, build_calibration
from dicetray.vision.errors import CalibrationError
from dicetray.vision.sketch import SketchDie, sketch, spots

# dice drawn further from the usual than the trial: 6s with their columns close, 2s and
# 3s with their pips drawn in
FACES = {6: spots(6, columns=0.45), 2: spots(2, spread=0.12), 3: spots(3, spread=0.16)}


def _roll(values: tuple[int, ...], seed: int) -> tuple:
    dice = [SketchDie(v, 350 + 300 * i, 400 + 120 * (i % 3), 90.0, 12.0 * i + 5 * seed,
                      face=FACES.get(v)) for i, v in enumerate(values)]
    return sketch(dice, seed=seed), tuple(sorted(values))


CALIBRATE = [_roll((1, 2, 3, 4, 5), 1), _roll((6, 2, 5, 3, 4), 2), _roll((2, 6, 1, 6, 3), 3),
             _roll((5, 4, 6, 2, 1), 4)]
LATER = [_roll((6, 6, 2, 3, 1), 5), _roll((2, 2, 6, 4, 5), 6), _roll((6, 1, 2, 6, 2), 7)]


def test_dice_frames_alone_make_a_calibration_with_the_whole_frame_as_the_tray() -> None:
    calibration, report = build_calibration([], [f for f, _ in CALIBRATE], dice=5)
    assert len(report.readings) == len(CALIBRATE)
    h, w = CALIBRATE[0][0].shape[:2]
    assert calibration.tray == ((0.0, 0.0), (w - 1.0, 0.0), (w - 1.0, h - 1.0), (0.0, h - 1.0))
    assert calibration.background_pixels is None
    # drawn 90 px wide; measured on the pips' grid, which these drawn-in faces shrink
    assert 45 <= calibration.die_size <= 95
    assert {layout.value for layout in calibration.layouts} >= {2, 6}


def test_it_reads_the_trays_own_faces_that_the_fixed_layouts_refuse(unlike_the_dice) -> None:
    # the second opinion a classifier that learnt other dice gives (6s as 4s, 2s as 1s):
    # the faces these dice draw are read by the layouts the calibration learnt
    calibration, _ = build_calibration([], [f for f, _ in CALIBRATE], dice=5)

    def right(cal: Calibration | None) -> int:
        rolls = [(read(frame, cal, 5, classifier=unlike_the_dice), values)
                 for frame, values in LATER]
        assert all(r.values == v for r, v in rolls if r.ok)  # never silently wrong
        return sum(r.ok for r, _ in rolls)

    assert right(calibration) > right(None)


def test_without_dice_the_reader_can_read_it_says_what_is_missing() -> None:
    blank = sketch([], seed=1)
    with pytest.raises(CalibrationError, match="0 read, 3 needed"):
        build_calibration([], [blank, blank], dice=5)


def test_the_command_calibrates_from_dice_images_alone(tmp_path: Path) -> None:
    names = []
    for i, (frame, _) in enumerate(CALIBRATE):
        names += ["--dice", str(tmp_path / f"roll{i}.png")]
        cv2.imwrite(names[-1], frame)
    out = tmp_path / "cal.json"
    result = CliRunner().invoke(main, ["calibrate", *names, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["written"] and len(report["readings"]) == len(CALIBRATE)
    assert Calibration.load(out).background_pixels is None
    assert not (tmp_path / "cal.background.png").exists()
