"""Fitting pips to the six layouts, and the measures of a fit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dicetray.vision.layouts import (
    GRID,
    LAYOUTS,
    PIP_SHARE,
    LayoutFit,
    LearntLayout,
    fit_layout,
    layouts_from,
    learn_layout,
)


def _map(scale: float, degrees: float, stretch: float = 1.0) -> np.ndarray:
    th = math.radians(degrees)
    turn = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]])
    return scale * turn @ np.diag([stretch, 1.0])


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("degrees", [0.0, 17.0, 63.0])
def test_pips_of_a_turned_face_seen_at_an_angle_fit_their_layout(value: int,
                                                                 degrees: float) -> None:
    # two or three pips on a diagonal give only a turn and a scale; four or more a shear
    stretch = 1.3 if value >= 4 else 1.0
    affine = _map(9.0, degrees, stretch)
    centre = np.array([120.0, 80.0])
    pips = centre + LAYOUTS[value] @ affine.T
    rng = np.random.default_rng(value)
    fit = fit_layout(rng.permutation(pips))
    assert fit is not None and fit.value == value
    assert np.allclose(fit.centre, centre)
    assert fit.residual < 1e-6
    assert fit.offset == pytest.approx(9.0 * math.sqrt(stretch))
    assert fit.skew == pytest.approx(stretch)
    # the fitted grid holds every pip
    grid = fit.grid()
    assert all(np.hypot(*(grid - p).T).min() < 1e-6 for p in pips)


def test_pips_that_make_no_layout_fit_none() -> None:
    line = np.array([[0.0, 0.0], [10.0, 0.0], [20.0, 0.0], [30.0, 0.0]])
    assert fit_layout(line) is None
    assert fit_layout(np.zeros((7, 2))) is None


def test_offset_and_skew_agree_with_numpy_on_any_map() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        affine = rng.normal(size=(2, 2)) * rng.uniform(0.1, 20)
        fit = LayoutFit(4, np.zeros(2), affine, 0.0)
        s = np.linalg.svd(affine, compute_uv=False)
        assert fit.offset == pytest.approx(math.sqrt(abs(np.linalg.det(affine))), rel=1e-9)
        assert fit.skew == pytest.approx(s[0] / s[1], rel=1e-6)
    flat = LayoutFit(2, np.zeros(2), np.array([[1.0, 2.0], [2.0, 4.0]]), 0.0)
    assert flat.skew > 1e6  # a map that folds the face to a line
    assert GRID.shape == (9, 2)


# -- layouts learnt from a tray's dice ----------------------------------------------------

CLOSE_SIX = np.array([(-0.2, -0.34), (-0.2, 0.0), (-0.2, 0.34),
                      (0.2, -0.34), (0.2, 0.0), (0.2, 0.34)])
TURNS = [np.array(m, float) for m in (((0, -1), (1, 0)), ((-1, 0), (0, -1)), ((1, 0), (0, -1)))]


def test_a_face_seen_turned_or_mirrored_teaches_the_same_layout() -> None:
    rng = np.random.default_rng(1)
    seen = [rng.permutation(CLOSE_SIX @ m.T) + 0.01 * rng.normal(size=(6, 2)) for m in TURNS]
    six = learn_layout(6, seen)
    assert six is not None and six.dice == 3
    spots = np.array(six.spots)
    assert np.allclose(np.abs(spots[:, 0]), 0.2, atol=0.02)  # columns drawn in
    assert np.allclose(np.abs(spots[[0, 1, 3, 4], 1]), 0.34, atol=0.02)
    # in the fixed layout's order, and as symmetric as a 6 is
    assert np.allclose(np.sign(spots), np.sign(LAYOUTS[6]))
    assert np.allclose(spots, -spots[[3, 4, 5, 0, 1, 2]], atol=1e-9)


def test_a_two_learns_how_far_in_its_pips_sit() -> None:
    two = learn_layout(2, [np.array([(0.1, -0.1), (-0.1, 0.1)]), np.array([(0.14, 0.14),
                                                                             (-0.14, -0.14)])])
    assert two is not None
    assert np.allclose(np.abs(two.spots), 0.12)


def test_nothing_seen_learns_nothing_and_a_wrong_count_is_refused() -> None:
    assert learn_layout(4, []) is None
    with pytest.raises(ValueError, match="a face 4 has 4 pips, got 3"):
        learn_layout(4, [np.zeros((3, 2))])


def test_layouts_from_put_the_learnt_faces_on_the_dice_own_grid() -> None:
    six = LearntLayout(6, tuple(map(tuple, CLOSE_SIX[[0, 3, 4, 5, 2, 1]])), 2)
    alone = layouts_from([six])
    assert np.allclose(alone[6], np.array(six.spots) / PIP_SHARE)
    # a learnt 4 sets the unit: its corners are the grid's corners
    four = LearntLayout(4, ((-0.3, -0.3), (0.3, -0.3), (0.3, 0.3), (-0.3, 0.3)), 5)
    both = layouts_from([six, four])
    assert np.allclose(both[4], LAYOUTS[4]) and np.allclose(both[6], np.array(six.spots) / 0.3)
    for value in (1, 2, 3, 5):
        assert np.array_equal(both[value], LAYOUTS[value])
    assert all(np.array_equal(layouts_from(None)[v], LAYOUTS[v]) for v in LAYOUTS)
    # the learnt layouts still fit as their faces
    fit = fit_layout(100 + 40 * both[6])
    assert fit is not None and fit.value == 6 and fit.residual < 1e-6


@pytest.mark.parametrize(("value", "spots", "dice", "reason"), [
    (7, ((0.0, 0.0),), 1, "a face value is 1..6, got 7"),
    (True, ((0.0, 0.0),), 1, "a face value is 1..6, got True"),
    (1, ((0.0, 0.0),), 0, "face 1: learnt from 0 dice"),
    (3, ((0.1, 0.1), (-0.1, -0.1)), 1, "face 3: 2 pips, a 3 shows 3"),
    (2, ((0.1, 0.1), (-0.8, -0.1)), 1, "face 2: pip (-0.8, -0.1) lies off the face"),
    (2, ((0.1, 0.1), (float("nan"), 0.1)), 1, "face 2: pip (nan, 0.1) is not an (x, y)"),
    (4, ((0.3, 0.3), (-0.3, 0.3), (0.3, -0.3), (0.0, 0.1)), 1, "face 4: its pips do not make a 4"),
])
def test_a_layout_no_die_could_show_is_refused(value: object, spots: object, dice: object,
                                               reason: str) -> None:
    with pytest.raises(ValueError) as caught:
        LearntLayout(value, spots, dice)  # type: ignore[arg-type]
    assert str(caught.value).startswith(reason)
