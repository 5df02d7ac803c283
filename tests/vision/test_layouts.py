"""Fitting pips to the six layouts, and the measures of a fit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dicetray.vision.layouts import GRID, LAYOUTS, LayoutFit, fit_layout


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
