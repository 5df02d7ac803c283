"""The calibration learns where the tray's dice draw each face's pips, keeps it in its
file, and refuses a file whose learnt layouts are damaged or foreign."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dicetray.vision.calibration import Calibration, build_calibration
from dicetray.vision.errors import CalibrationError
from dicetray.vision.layouts import LAYOUTS, LearntLayout, layouts_from
from dicetray.vision.sketch import SketchDie, sketch, spots

EDGE = 90.0
PLACES = ((400, 350), (750, 600), (1100, 350), (1450, 600), (750, 850))


def _tray(columns: float, two: float) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Empty frames and two rolls of a sketched tray whose 6s keep ``columns`` of the
    usual spread and whose 2s have their pips ``two`` of the edge from the centre."""
    def die(value: int, k: int, angle: float) -> SketchDie:
        face = (spots(6, columns=columns) if value == 6
                else spots(2, spread=two) if value == 2 else None)
        x, y = PLACES[k]
        return SketchDie(value, x, y, EDGE, angle, face=face)

    rolls = [(6, 6, 2, 4, 5), (6, 2, 3, 4, 6)]
    frames = [sketch([die(v, k, 13.0 * k + 29.0 * r) for k, v in enumerate(roll)], seed=r + 5)
              for r, roll in enumerate(rolls)]
    return [sketch([], seed=1), sketch([], seed=2)], frames


@pytest.fixture(scope="module")
def close_tray() -> Calibration:
    return build_calibration(*_tray(columns=0.6, two=0.16), dice=5)[0]


@pytest.fixture(scope="module")
def common_tray() -> Calibration:
    return build_calibration(*_tray(columns=1.0, two=0.27), dice=5)[0]


def _face(calibration: Calibration, value: int) -> LearntLayout:
    return next(f for f in calibration.layouts if f.value == value)


def _columns_to_rows(six: np.ndarray) -> float:
    """How far a 6's columns sit apart, as a share of how far its rows do."""
    return float(np.abs(six[:, 0]).mean() / np.abs(six[:, 1]).max())


def test_a_tray_whose_sixes_have_close_columns_learns_close_columns(
        close_tray: Calibration, common_tray: Calibration) -> None:
    assert _columns_to_rows(np.array(_face(close_tray, 6).spots)) == pytest.approx(0.6, abs=0.08)
    assert _columns_to_rows(np.array(_face(common_tray, 6).spots)) == pytest.approx(1.0, abs=0.08)
    # the layouts the reader fits: the 6's columns drawn in, its rows on the usual grid
    six = layouts_from(close_tray)[6]
    assert np.abs(six[:, 0]).max() == pytest.approx(0.6, abs=0.08)
    assert np.abs(six[:, 1]).max() == pytest.approx(1.0, abs=0.08)


def test_a_two_whose_pips_sit_towards_the_centre_is_learnt_so(
        close_tray: Calibration, common_tray: Calibration) -> None:
    assert _face(close_tray, 2).dice >= 1
    drawn_in = np.abs(layouts_from(close_tray)[2]).max()
    usual = np.abs(layouts_from(common_tray)[2]).max()
    assert drawn_in == pytest.approx(0.16 / 0.27, abs=0.08)
    assert usual == pytest.approx(1.0, abs=0.08)


def test_faces_drawn_as_usual_stay_on_the_fixed_grid(close_tray: Calibration) -> None:
    learnt = layouts_from(close_tray)
    for value in (4, 5):
        assert np.allclose(learnt[value], LAYOUTS[value], atol=0.06)


def test_learnt_layouts_are_kept_in_the_file(close_tray: Calibration, tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    close_tray.save(path)
    again = Calibration.load(path)
    assert again.layouts == close_tray.layouts and {f.value for f in again.layouts} >= {2, 6}
    assert json.loads(path.read_text())["layouts"]["version"] == 1


def _file(tmp_path: Path, layouts: object | None) -> Path:
    data = Calibration(image_size=(640, 480), tray=((0, 0), (600, 0), (600, 400)),
                       die_size=40.0).to_json()
    if layouts is not None:
        data["layouts"] = layouts
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(data))
    return path


SIX = [[-0.2, -0.34], [0.2, -0.34], [0.2, 0.0], [0.2, 0.34], [-0.2, 0.34], [-0.2, 0.0]]


def test_a_file_from_before_learnt_layouts_loads_with_none(tmp_path: Path) -> None:
    assert Calibration.load(_file(tmp_path, None)).layouts == ()


def test_a_file_with_a_learnt_six_loads_it(tmp_path: Path) -> None:
    path = _file(tmp_path, {"version": 1, "faces": {"6": {"spots": SIX, "dice": 4}}})
    (six,) = Calibration.load(path).layouts
    assert six.value == 6 and six.dice == 4 and six.spots[0] == (-0.2, -0.34)


@pytest.mark.parametrize(("layouts", "reason"), [
    ([SIX], "layouts must be an object"),
    ({"version": 2, "faces": {}}, "layouts: unsupported version 2 (expected 1)"),
    ({"faces": {}}, "layouts: unsupported version None"),
    ({"version": 1, "faces": {}, "owner": "x"}, "layouts has unknown fields ['owner']"),
    ({"version": 1, "faces": {"7": {"spots": SIX, "dice": 1}}},
     "layouts: unknown face '7' (a die shows 1..6)"),
    ({"version": 1, "faces": {"6": {"spots": SIX[:4], "dice": 1}}},
     "layouts: face 6: 4 pips, a 6 shows 6"),
    ({"version": 1, "faces": {"6": {"spots": [[0.9, 0.0], *SIX[1:]], "dice": 1}}},
     "layouts: face 6: pip (0.9, 0) lies off the face"),
    ({"version": 1, "faces": {"6": {"spots": [[0.05, 0.2], *SIX[1:]], "dice": 1}}},
     "layouts: face 6: its pips do not make a 6"),
    ({"version": 1, "faces": {"2": {"spots": [[0.1, 0.1], [0.1, 0.1]], "dice": 1}}},
     "layouts: face 2: pips 1 and 2 lie on one spot"),
    ({"version": 1, "faces": {"2": {"spots": [[0.1, 0.1], ["a", 0.1]], "dice": 1}}},
     "layouts: face 2: pip ('a', 0.1) is not an (x, y) pair of numbers"),
    ({"version": 1, "faces": {"6": {"spots": SIX, "dice": 0}}},
     "layouts: face 6: learnt from 0 dice"),
    ({"version": 1, "faces": {"6": {"spots": SIX}}},
     "layouts: face 6 must be an object with spots and dice"),
])
def test_a_damaged_or_foreign_layout_is_refused_with_its_reason(
        tmp_path: Path, layouts: object, reason: str) -> None:
    path = _file(tmp_path, layouts)
    with pytest.raises(CalibrationError) as caught:
        Calibration.load(path)
    assert str(caught.value).startswith(f"{path}: {reason}")
