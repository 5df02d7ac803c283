"""A face whose pips read another face, or none, read again by laying the classifier's
value's layout on two of its pips (:func:`dicetray.vision.pipcheck.read_laid`): taken
only where the face's whole grid bears that value out."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import replace

import cv2
import numpy as np
import pytest

from dicetray.vision import read
from dicetray.vision.classifier import CLASSES, Ahead, answered
from dicetray.vision.reading import Reason
from dicetray.vision.render import random_scene, render
from dicetray.vision.scene import tray_view
from dicetray.vision.sketch import SketchDie, sketch


class Says:
    """A classifier sure of one value everywhere."""

    def __init__(self, value: int, p: float = 0.9) -> None:
        self.probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
        self.probs[value] = p

    def classify(self, frame: np.ndarray, dice: list, *, turns: int = 8,
                 first: np.ndarray | None = None,
                 settled: float | None = None) -> np.ndarray:
        return np.tile(self.probs, (len(dice), 1))

    def classify_soon(self, frame: np.ndarray, dice: list) -> Future[Ahead]:
        return answered(self.classify(frame, dice, turns=1))


@pytest.fixture(scope="module")
def red_four() -> np.ndarray:
    """A hard rendered frame (``render_dataset(400, seed=2026)``'s 136th): one red die
    showing 4, seen at a slant, the three pips of a side face beside its top face's. Its
    pips read a 6 (the top face's and the side face's column) in doubt."""
    frame, truth = render(random_scene(1396220978, 1, hard=True, image_size=(640, 480)))
    assert truth.values == (4,) and truth.readable
    return frame


def test_a_face_whose_pips_read_another_is_read_by_its_grid_as_the_classifier_sees_it(
        red_four: np.ndarray) -> None:
    # before, refused: "die at (481, 412) shows more pips looked at closer than at first"
    roll = read(red_four)
    assert roll.ok and roll.values == (4,), roll


@pytest.mark.parametrize("value", [3, 5])
def test_a_value_the_grid_does_not_bear_out_leaves_the_die_in_doubt(
        red_four: np.ndarray, value: int) -> None:
    # a 3 or a 5 needs a pip on the centre spot, which the 4 leaves blank: however sure
    # the classifier, the roll is refused, not answered with its value
    roll = read(red_four, classifier=Says(value))
    assert not roll.ok and roll.kind == Reason.AMBIGUOUS, roll


def test_the_value_the_grid_bears_out_is_read_as_surely_as_the_classifier_sees_it(
        red_four: np.ndarray) -> None:
    roll = read(red_four, classifier=Says(4, 0.8))
    assert roll.ok and roll.values == (4,) and roll.dice[0].confidence <= 0.8, roll


@pytest.fixture(scope="module")
def crowded() -> np.ndarray:
    """A tray view (seed 5011, white dice, 1920×1080) drawn with the pips close together
    (0.17 of the edge across, the corner pips 0.19 from the centre, not 0.27): the 6 at
    (1402, 619) runs its pips' columns together, and they read a 3 the classifier does
    not believe."""
    scene = tray_view(5011, "white")
    scene = replace(scene, style=replace(scene.style, pip_diameter=0.17, pip_spacing=0.19))
    frame, truth = render(scene)
    assert truth.values == (3, 4, 5, 6, 6) and truth.readable
    return frame


def test_a_face_whose_pips_read_fewer_is_read_by_its_grid_as_the_classifier_sees_it(
        crowded: np.ndarray) -> None:
    # before, refused: "die at (1397, 604): its pips read 3 but it looks like a 6"
    roll = read(crowded)
    assert roll.ok and roll.values == (3, 4, 5, 6, 6), roll


def test_a_laid_face_never_drops_a_pip_the_die_was_read_with(crowded: np.ndarray) -> None:
    # a 2 laid small on two neighbouring pips of the 4 reads on its own grid (the 4's
    # other pips lie off it), but it would drop two of the 4's pips: the classifier is
    # left in doubt, not taken, however sure
    roll = read(crowded, classifier=Says(2))
    assert not roll.ok and roll.kind == Reason.AMBIGUOUS, roll
    assert "pips read 4 but it looks like a 2" in roll.reason, roll


def marked_six(share: float) -> np.ndarray:
    """Three sketched dice (red pips on white, 90 px), the 6 with a mark on its blank
    centre spot, ``share`` of the way from its face's colour to its pips': marbling, a
    scratch, a speck of dirt."""
    frame = sketch([SketchDie(6, 700, 500, 90.0, 20), SketchDie(3, 1000, 520, 90.0, 10),
                    SketchDie(5, 1250, 480, 90.0, 40)])
    body, pip = np.array(SketchDie.body), np.array(SketchDie.pip)
    mark = tuple(int(v) for v in body + share * (pip - body))
    cv2.circle(frame, (700, 500), round(0.17 * 90 / 2), mark, -1, cv2.LINE_AA)
    return frame


@pytest.mark.parametrize("share", [0.35, 0.45])
def test_a_spot_between_pip_and_blank_is_settled_by_a_fairly_sure_classifier(
        share: float) -> None:
    # the mark is neither clearly a pip nor clearly blank face (spot_off .. spot_on of a
    # pip's contrast): before, the roll was refused however sure the classifier was of
    # the 6; the spots under a pip's share are now read as blank when it is fairly sure
    frame = marked_six(share)
    roll = read(frame, classifier=Says(6, 0.9))
    assert roll.ok and roll.values == (3, 5, 6), roll
    unsure = read(frame, classifier=Says(6, 0.6))  # not fairly sure: the doubt stands
    assert not unsure.ok and unsure.kind == Reason.AMBIGUOUS, unsure
