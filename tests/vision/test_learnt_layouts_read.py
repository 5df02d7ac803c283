"""The reader fits each face to the layout the calibration learnt the tray's dice draw
(a 6 with close columns, a 2 or a 3 with its pips towards the centre): such a face is read
where the fixed 3x3 grid leaves it in doubt, a clean face that fits the learnt layout is
read whatever the classifier alone says, and a calibration without layouts reads as none.

The second opinion is a controlled classifier (:class:`Sketched`), so nothing here hangs on
the shipped classifier's weights."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import replace

import numpy as np
import pytest

from dicetray.vision import read
from dicetray.vision.calibration import Calibration, build_calibration
from dicetray.vision.classifier import CLASSES, Ahead, answered
from dicetray.vision.detector import find_dice
from dicetray.vision.layouts import (
    FaceLayouts,
    LearntLayout,
    face_layouts,
    fit_layout,
    learn_layout,
)
from dicetray.vision.reading import Reading
from dicetray.vision.render import render
from dicetray.vision.scene import tray_view
from dicetray.vision.sketch import SketchDie, sketch, spots

EDGE = 90.0
WHOLE = ((0, 0), (1919, 0), (1919, 1079), (0, 1079))


class Sketched:
    """A face classifier that knows the dice drawn: it reads each as drawn (``sure`` of
    it, the rest spread over the other classes), a value in ``misreads`` as another, and
    a find far from every die as no die."""

    def __init__(self, drawn: Sequence[SketchDie], sure: float = 0.95,
                 misreads: dict[int, int] | None = None) -> None:
        self.drawn, self.sure, self.misreads = tuple(drawn), sure, misreads or {}

    def classify(self, frame: np.ndarray, dice: Sequence[tuple[float, float, float]], *,
                 turns: int = 8, first: np.ndarray | None = None,
                 settled: float | None = None) -> np.ndarray:
        out = np.full((len(dice), len(CLASSES)), (1 - self.sure) / (len(CLASSES) - 1),
                      np.float32)
        for i, (x, y, size) in enumerate(dice):
            near = min(self.drawn, key=lambda d: math.hypot(d.x - x, d.y - y))
            if math.hypot(near.x - x, near.y - y) > size:
                out[i, CLASSES.index("none")] = self.sure
            else:
                out[i, self.misreads.get(near.value, near.value)] = self.sure
        return out

    def classify_soon(self, frame: np.ndarray,
                      dice: Sequence[tuple[float, float, float]]) -> Future[Ahead]:
        return answered(self.classify(frame, dice, turns=1))


def _faces(columns: float, two: float, three: float) -> dict[int, tuple]:
    return {6: spots(6, columns=columns), 2: spots(2, spread=two), 3: spots(3, spread=three)}


def _die(value: int, x: float, y: float, angle: float, faces: dict[int, tuple]) -> SketchDie:
    return SketchDie(value, x, y, EDGE, angle, face=faces.get(value))


@functools.cache
def _found_edge() -> float:
    """The edge of a sketched die as the dice detector finds it, a share of ``EDGE``."""
    dice = [SketchDie(v, 300 + 250 * v, 500, EDGE, 15 * v) for v in range(1, 7)]
    return float(np.median([c.size for c in find_dice(sketch(dice))])) / EDGE


def _calibration(faces: dict[int, tuple], learnt: bool = True) -> Calibration:
    """A calibration of the whole frame that learnt the layouts ``faces`` draw (in shares
    of the edge as the detector finds it, as the calibration learns them) and the usual 4
    and 5."""
    drawn = {4: spots(4), 5: spots(5), **faces}
    share = _found_edge()
    layouts = tuple(learn_layout(v, [np.array(drawn[v]) / share]) for v in sorted(drawn))
    return Calibration(image_size=(1920, 1080), tray=WHOLE, die_size=EDGE * share,
                       layouts=layouts if learnt else ())


def _right(roll: Reading, dice: Sequence[SketchDie]) -> bool:
    return roll.ok and roll.values == tuple(sorted(d.value for d in dice))


# -- fitting ------------------------------------------------------------------------------

def _turned(pips: Sequence[tuple[float, float]], angle: float, scale: float) -> np.ndarray:
    t = math.radians(angle)
    turn = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return np.array(pips) @ turn.T * scale + (400.0, 300.0)


def test_a_face_is_fitted_to_the_layout_its_tray_draws() -> None:
    tray = face_layouts(_calibration(_faces(columns=0.5, two=0.14, three=0.27)))
    assert tray is not None and tray.values == {2, 3, 4, 5, 6}
    six = _turned(spots(6, columns=0.5), 30.0, EDGE)
    learnt, fixed = fit_layout(six, tray), fit_layout(six)
    assert learnt is not None and fixed is not None
    assert learnt.learnt and not fixed.learnt and learnt.value == fixed.value == 6
    # drawn as these dice draw it, the 6 is square and of the dice's own scale; on the
    # fixed grid it is a squashed face of a smaller one
    assert learnt.skew == pytest.approx(1.0, abs=0.01)
    assert fixed.skew == pytest.approx(2.0, abs=0.05)
    assert learnt.offset == pytest.approx(0.27 * EDGE, rel=0.02)
    two = fit_layout(_turned(spots(2, spread=0.14), 10.0, EDGE), tray)
    assert two is not None and two.learnt
    assert two.offset == pytest.approx(0.27 * EDGE, rel=0.02)
    assert fit_layout(_turned(spots(2, spread=0.14), 10.0, EDGE)).offset == pytest.approx(
        0.14 * EDGE, rel=0.02)


def test_pips_that_make_no_learnt_face_fit_none_or_stretched() -> None:
    tray = face_layouts(_calibration(_faces(columns=0.5, two=0.14, three=0.16)))
    # a 3 whose middle pip is off the diagonal the tray's 3s draw
    bent = np.array([(-0.16, -0.16), (0.1, -0.05), (0.16, 0.16)]) * EDGE + 300
    assert fit_layout(bent, tray) is None
    # the usual 6 fits a tray whose 6s have close columns only stretched (as a die
    # leaning shows its face), which the check calls cocked
    usual = fit_layout(_turned(spots(6), 0.0, EDGE), tray)
    assert usual is not None and usual.skew == pytest.approx(2.0, abs=0.05)


def test_a_calibration_without_layouts_fits_the_fixed_ones() -> None:
    bare = _calibration(_faces(columns=0.5, two=0.14, three=0.27), learnt=False)
    assert face_layouts(bare) is None and face_layouts(None) is None
    six = _turned(spots(6, columns=0.7), 20.0, EDGE)
    fit = fit_layout(six, face_layouts(bare))
    assert fit is not None and not fit.learnt and fit.affine.tolist() == fit_layout(
        six).affine.tolist()


def test_face_layouts_that_no_die_could_show_are_refused() -> None:
    with pytest.raises(ValueError, match="grid unit"):
        FaceLayouts(((2, ((-1.0, -1.0), (1.0, 1.0))),), unit=0.0)
    with pytest.raises(ValueError, match="a 6 with 4 pips"):
        FaceLayouts(((6, ((0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0))),))
    with pytest.raises(ValueError, match="each once"):
        FaceLayouts(((2, ((-0.5, -0.5), (0.5, 0.5))), (2, ((-0.4, -0.4), (0.4, 0.4)))))
    with pytest.raises(ValueError, match="its pips do not make a 6"):
        LearntLayout(6, ((0.05, 0.2), *spots(6)[1:]), 1)


# -- reading ------------------------------------------------------------------------------

CLOSE = _faces(columns=0.6, two=0.16, three=0.27)
ROLL = (_die(6, 600, 500, 30, CLOSE), _die(3, 900, 500, 10, CLOSE),
        _die(5, 1200, 500, 50, CLOSE), _die(4, 900, 800, 70, CLOSE))


def test_a_clean_learnt_face_the_classifier_reads_otherwise_is_read() -> None:
    # the classifier reads this tray's 6 as a 4 (as the shipped one, trained on rendered
    # dice, did): alone against one clean face it is heeded, and the roll refused
    frame, classifier = sketch(ROLL), Sketched(ROLL, misreads={6: 4})
    alone = read(frame, dice=4, classifier=classifier)
    bare = read(frame, _calibration(CLOSE, learnt=False), dice=4, classifier=classifier)
    assert not alone.ok and "looks like a 4" in alone.reason
    assert not bare.ok and bare.kind == alone.kind and "6 but it looks like a 4" in bare.reason
    # the calibration learnt that these dice draw their 6s so: the pips fit it cleanly
    learnt = read(frame, _calibration(CLOSE), dice=4, classifier=classifier)
    assert _right(learnt, ROLL), learnt.reason


FAR = _faces(columns=0.45, two=0.12, three=0.16)
FAR_ROLLS = (
    (_die(6, 500, 400, 20, FAR), _die(2, 800, 600, 60, FAR), _die(3, 1100, 400, 35, FAR),
     _die(6, 1400, 600, 80, FAR), _die(5, 800, 300, 5, FAR)),
    (_die(3, 500, 600, 70, FAR), _die(6, 800, 400, 45, FAR), _die(2, 1100, 700, 15, FAR),
     _die(4, 1400, 400, 25, FAR), _die(1, 1100, 300, 0, FAR)),
)


@pytest.mark.parametrize("dice", FAR_ROLLS)
def test_faces_far_from_the_usual_are_read_with_the_learnt_layouts(
        dice: tuple[SketchDie, ...]) -> None:
    # a classifier unsure of every die: neither settles a doubt nor vetoes a face
    frame, classifier = sketch(dice), Sketched(dice, sure=0.4)
    fixed = read(frame, dice=5, classifier=classifier)
    assert not fixed.ok  # the fixed grid cannot tell these faces cleanly
    learnt = read(frame, _calibration(FAR), dice=5, classifier=classifier)
    assert _right(learnt, dice), learnt.reason


def test_a_calibration_learns_from_its_frames_the_faces_its_reader_refused() -> None:
    rolls = [(_die(6, 400, 400, 10, FAR), _die(2, 700, 600, 40, FAR),
              _die(3, 1000, 400, 65, FAR), _die(4, 1300, 600, 20, FAR),
              _die(5, 1600, 400, 80, FAR)),
             (_die(2, 400, 600, 75, FAR), _die(3, 700, 400, 5, FAR),
              _die(6, 1000, 600, 50, FAR), _die(5, 1300, 400, 30, FAR),
              _die(1, 1600, 600, 0, FAR))]
    drawn = [d for roll in rolls for d in roll] + [d for roll in FAR_ROLLS for d in roll]

    def reader(frame: np.ndarray, calibration: Calibration | None, dice: int | None) -> Reading:
        return read(frame, calibration, dice, classifier=Sketched(drawn, sure=0.4))

    calibration, _ = build_calibration([sketch([], seed=1), sketch([], seed=2)],
                                       [sketch(r, seed=k) for k, r in enumerate(rolls)],
                                       dice=5, reader=reader)
    layouts = face_layouts(calibration)
    assert layouts is not None and {2, 3, 6} <= layouts.values
    six, two = layouts.spots(6), layouts.spots(2)
    assert six is not None and two is not None
    assert np.abs(six[:, 0]).max() / np.abs(six[:, 1]).max() == pytest.approx(0.45, abs=0.08)
    assert np.abs(two).max() == pytest.approx(0.12 / 0.27, abs=0.08)
    for dice in FAR_ROLLS:
        roll = reader(sketch(dice, seed=9), calibration, 5)
        assert _right(roll, dice), roll.reason
    # the same calibration without them refuses the rolls it reads
    bare = replace(calibration, layouts=())
    assert not any(reader(sketch(d, seed=9), bare, 5).ok for d in FAR_ROLLS)


def test_a_learnt_face_with_a_pip_where_its_layout_has_none_is_refused() -> None:
    # a 2 of this tray (pips drawn in) with a third pip on a blank corner of the grid:
    # no face of these dice looks so, and it is not read as the 2 its learnt pips make
    marked = (*spots(2, spread=0.16), (0.27, -0.27))
    dice = (SketchDie(2, 600, 500, EDGE, 25, face=marked), _die(3, 900, 500, 10, CLOSE),
            _die(5, 1200, 500, 50, CLOSE), _die(4, 900, 800, 70, CLOSE))
    clean = (_die(2, 600, 500, 25, CLOSE), *dice[1:])
    classifier = Sketched(clean, sure=0.4)
    assert _right(read(sketch(clean), _calibration(CLOSE), dice=4, classifier=classifier),
                  clean)
    roll = read(sketch(dice), _calibration(CLOSE), dice=4, classifier=classifier)
    assert not roll.ok and roll.kind == "ambiguous", roll.reason


def test_the_classifier_is_still_heeded_against_a_face_drawn_as_usual() -> None:
    # a tray of common dice learnt its layouts too: they are the usual ones, which the
    # classifier knows, so its word against one clean face still refuses the roll
    usual = _faces(columns=1.0, two=0.27, three=0.27)
    dice = (_die(6, 600, 500, 30, usual), _die(3, 900, 500, 10, usual),
            _die(5, 1200, 500, 50, usual), _die(4, 900, 800, 70, usual))
    calibration = _calibration(usual)
    layouts = face_layouts(calibration)
    assert layouts is not None and 6 in layouts.values
    roll = read(sketch(dice), calibration, dice=4, classifier=Sketched(dice, misreads={6: 4}))
    assert not roll.ok and "6 but it looks like a 4" in roll.reason
    assert _right(read(sketch(dice), calibration, dice=4, classifier=Sketched(dice)), dice)


class TestAFaceOfTheTraysSize:
    """On a calibrated tray a face fitted to the layouts its dice draw is as large as the
    dice: two pips of a 3 fitted as a 2 of half its size are no face of them. Rendered
    clean top-down trays at 1920x1080, calibrated as ``dicetray calibrate`` does (two
    frames of the empty tray and four rolls)."""

    @staticmethod
    @functools.cache
    def tray(first: int, style: str, roll: int
             ) -> tuple[Calibration, np.ndarray, tuple[int, ...]]:
        """The calibration of the tray of ``tray_view(first, style)`` made on rolls
        ``first + 1`` to ``first + 4``, and roll ``roll`` of it with its values."""
        base = tray_view(first, style)
        empty = [render(base.with_dice(()), i)[0] for i in range(2)]
        shots = [render(base.with_dice(tray_view(first + k, style).dice), k)[0]
                 for k in range(1, 5)]
        calibration, _ = build_calibration(empty, shots, dice=5)
        frame, truth = render(base.with_dice(tray_view(roll, style).dice), roll - first)
        return calibration, frame, truth.values

    def test_a_3_is_not_read_as_a_2_of_half_the_dices_size(self) -> None:
        # the 3 lies beside a side face's pip that its pips' group takes in
        calibration, frame, values = self.tray(9000, "green", 9005)
        layouts = face_layouts(calibration)
        assert layouts is not None and layouts.dice(2) >= 3 and layouts.dice(3) >= 3
        assert 3 in values
        for dice in (None, 5):
            roll = read(frame, calibration, dice=dice)
            assert roll.ok and roll.values == tuple(sorted(values)), roll.reason
            assert all(d.size == pytest.approx(calibration.die_size, rel=0.2)
                       for d in roll.dice)

    def test_without_its_layouts_the_calibration_reads_it_too(self) -> None:
        calibration, frame, values = self.tray(9000, "green", 9005)
        roll = read(frame, replace(calibration, layouts=()))
        assert roll.ok and roll.values == tuple(sorted(values)), roll.reason

    def test_a_layout_learnt_from_one_die_sets_no_size(self) -> None:
        # this tray learnt its 6 from one die whose find came out a half too large: a
        # 6 two thirds the size of the others', which its 6s do not match
        calibration, frame, values = self.tray(61000, "ivory", 61009)
        layouts = face_layouts(calibration)
        assert layouts is not None and layouts.dice(6) == 1 and 6 in values
        six = layouts.spots(6)
        assert six is not None and float(np.abs(six).max()) < 0.7
        roll = read(frame, calibration)
        assert roll.ok and roll.values == tuple(sorted(values)), roll.reason
