"""A frame out of focus (:mod:`dicetray.vision.focus`): the blur measured at the dice's
edges, and the roll refused where the dice are blurred too far for their pips to be told
apart, rather than answered a die short."""

from __future__ import annotations

import dataclasses

import cv2
import pytest

from dicetray.vision import read
from dicetray.vision.focus import blur_at
from dicetray.vision.reading import Reason
from dicetray.vision.render import render
from dicetray.vision.scene import tray_view
from dicetray.vision.settings import DEFAULT_SETTINGS, ReaderSettings
from dicetray.vision.sketch import SketchDie, sketch

EDGE = 90.0
ROLL = (
    SketchDie(3, 500, 400, EDGE, 10), SketchDie(5, 800, 500, EDGE, 35),
    SketchDie(1, 1100, 350, EDGE, 60), SketchDie(4, 1300, 700, EDGE, 20),
    SketchDie(2, 700, 750, EDGE, 75),
)
#: The working size a die is measured at (larger dice are shrunk to it), px.
WORKING = DEFAULT_SETTINGS.work_pip / DEFAULT_SETTINGS.pip_per_edge
NO_GATE = ReaderSettings(defocus=1.0)


@pytest.mark.parametrize("sigma", [0.0, 2.0, 4.0, 6.0, 9.0])
def test_a_die_measures_the_blur_it_was_drawn_with(sigma: float) -> None:
    frame = sketch(ROLL, blur=sigma) if sigma else sketch(ROLL)
    for die in ROLL:
        share = blur_at(frame, die.x, die.y, EDGE)
        assert share is not None
        # (within a pixel and a half: a sketch's edges are drawn smoothed by about a pixel)
        assert share == pytest.approx(sigma / EDGE, abs=1.5 / EDGE)


@pytest.mark.parametrize("floor", [(40, 40, 40), (120, 90, 60), (20, 90, 30)])
def test_the_measure_is_the_same_on_a_dark_and_a_coloured_floor(
        floor: tuple[int, int, int]) -> None:
    # the ratio of two gradients at an edge does not depend on the edge's contrast
    dark = blur_at(sketch(ROLL[:1], blur=4.0), 500, 400, EDGE)
    other = blur_at(sketch(ROLL[:1], floor=floor, blur=4.0), 500, 400, EDGE)
    assert dark is not None and other is not None
    assert other == pytest.approx(dark, abs=0.003)


def test_the_floor_setting_is_what_a_sharp_edge_measures() -> None:
    # the blur the measure itself reads on a die drawn sharp, at the working size
    unfloored = dataclasses.replace(DEFAULT_SETTINGS, focus_floor=0.0)
    share = blur_at(sketch(ROLL[:1]), 500, 400, EDGE, unfloored)
    assert share is not None
    assert share * WORKING == pytest.approx(DEFAULT_SETTINGS.focus_floor, abs=0.15)


@pytest.mark.parametrize(("x", "edge"), [(-200.0, EDGE), (500.0, 0.0), (500.0, float("nan"))])
def test_a_die_outside_the_frame_or_of_no_size_is_not_measured(x: float, edge: float) -> None:
    assert blur_at(sketch(ROLL[:1]), x, x if x < 0 else 400.0, edge) is None


@pytest.mark.parametrize("sigma", [0.0, 2.0])
def test_a_frame_in_focus_is_answered(sigma: float) -> None:
    roll = read(sketch(ROLL, blur=sigma) if sigma else sketch(ROLL))
    assert roll.ok and roll.values == (1, 2, 3, 4, 5), roll.reason


@pytest.mark.parametrize("sigma", [6.0, 9.0])
def test_a_frame_out_of_focus_is_refused_though_its_dice_read(sigma: float) -> None:
    frame = sketch(ROLL, blur=sigma)
    # read without the check, these dice happen to read right ...
    assert read(frame, settings=NO_GATE).values == (1, 2, 3, 4, 5)
    # ... but a frame this blurred is read by luck: it is refused, saying why
    roll = read(frame)
    assert not roll.ok
    assert roll.reason.startswith(f"{Reason.BLUR}: the frame is out of focus"), roll.reason


def test_the_threshold_setting_decides() -> None:
    frame = sketch(ROLL, blur=6.0)
    assert not read(frame, settings=ReaderSettings(defocus=0.06)).ok
    assert read(frame, settings=ReaderSettings(defocus=0.08)).ok


@pytest.mark.parametrize(("seed", "style", "sigma"), [(180037, "white", 8.0),
                                                      (180013, "ivory", 6.0)])
def test_a_tray_view_out_of_focus_is_refused_not_answered_dice_short(
        seed: int, style: str, sigma: float) -> None:
    frame, truth = render(tray_view(seed, style))
    assert read(frame).values == truth.values  # in focus, every die is read
    blurred = cv2.GaussianBlur(frame, (0, 0), sigma)
    # without the check, the dice blurred past their pips are left out ...
    short = read(blurred, settings=NO_GATE)
    assert short.ok and len(short.values) < len(truth.values)
    # ... with it, the roll is refused for the blur
    roll = read(blurred)
    assert not roll.ok and roll.reason.startswith(f"{Reason.BLUR}: the frame is out of focus")
