"""The six pip layouts of a die and fitting them to observed pips.

Positions live on a 3x3 grid in the face's own frame, in units of the pip offset
``a`` (centre to a corner pip's x or y): 1 centre; 2 and 3 a diagonal; 4 the
corners; 5 corners and centre; 6 two columns of three. A fit finds the affine map
from that frame to the image that best explains the pips, so a tilted camera (a
face seen as a parallelogram) still fits while a pip in the wrong place does not.

>>> import numpy as np
>>> five = np.array([[0, 0], [10, 10], [-10, 10], [10, -10], [-10, -10]], float) + 50
>>> fit = fit_layout(five)
>>> fit.value, round(fit.residual, 3), [round(float(v), 1) for v in fit.centre]
(5, 0.0, [50.0, 50.0])
>>> fit_layout(np.array([[0, 0], [10, 10], [-10, 10], [10, -10], [-10, -3]], float)) is None
True
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

__all__ = ["GRID", "LAYOUTS", "LayoutFit", "fit_layout", "value_of_spots"]

#: The nine grid positions of a face, in units of the pip offset ``a``.
GRID = np.array([(gx, gy) for gy in (-1, 0, 1) for gx in (-1, 0, 1)], float)

#: Pip positions of each face value, in the face's own frame.
LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([(0, 0)], float),
    2: np.array([(-1, -1), (1, 1)], float),
    3: np.array([(-1, -1), (0, 0), (1, 1)], float),
    4: np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float),
    5: np.array([(-1, -1), (1, -1), (1, 1), (-1, 1), (0, 0)], float),
    6: np.array([(-1, -1), (1, -1), (1, 0), (1, 1), (-1, 1), (-1, 0)], float),
}

def _spot_sets() -> dict[frozenset[int], int]:
    """Every way a face can look on the grid: its layout and the layout turned 90 degrees."""
    index = {tuple(g): k for k, g in enumerate(GRID.tolist())}
    turn = np.array([[0.0, -1.0], [1.0, 0.0]])
    sets: dict[frozenset[int], int] = {}
    for value, spots in LAYOUTS.items():
        for pts in (spots, spots @ turn.T):
            sets[frozenset(index[tuple(p)] for p in (pts + 0.0).tolist())] = value
    return sets


_SPOT_SETS = _spot_sets()


def value_of_spots(on: np.ndarray) -> int | None:
    """The face value whose pips fill exactly the grid spots marked in ``on`` (9 bools).

    >>> value_of_spots(np.array([1, 0, 1, 1, 0, 1, 1, 0, 1], bool))
    6
    >>> value_of_spots(np.array([0, 0, 1, 0, 1, 0, 1, 0, 0], bool))
    3
    >>> value_of_spots(np.array([1, 1, 0, 0, 0, 0, 0, 0, 0], bool)) is None
    True
    """
    return _SPOT_SETS.get(frozenset(np.flatnonzero(on).tolist()))


#: Largest residual (rms, in units of ``a``) for pips to count as a layout.
MAX_RESIDUAL = 0.2


@dataclass(frozen=True)
class LayoutFit:
    """A layout matched to pips: ``value``, face ``centre`` and the frame-to-image map.

    ``affine`` maps face-frame grid units (see :data:`GRID`) to image offsets from
    ``centre``; ``residual`` is the rms misfit in grid units.
    """

    value: int
    centre: np.ndarray
    affine: np.ndarray
    residual: float

    @property
    def offset(self) -> float:
        """The pip offset ``a`` in image px (geometric mean of the two axes)."""
        (a, b), (c, d) = self.affine.tolist()
        return math.sqrt(abs(a * d - b * c))

    @property
    def skew(self) -> float:
        """How far the face is from a square: ratio of the map's singular values (>= 1)."""
        (a, b), (c, d) = self.affine.tolist()
        # a 2 x 2 map's singular values in closed form (NumPy's SVD costs 15 us a call)
        half = (a * a + b * b + c * c + d * d) / 2
        det = abs(a * d - b * c)
        big = math.sqrt(half + math.sqrt(max(half * half - det * det, 0.0)))
        return big / max(det / big if big else 0.0, 1e-9)

    @property
    def angle(self) -> float:
        """Rotation of the face in degrees, in ``[0, 90)``."""
        return math.degrees(math.atan2(self.affine[1, 0], self.affine[0, 0])) % 90.0

    def grid(self) -> np.ndarray:
        """The nine grid positions in image px (same order as :data:`GRID`)."""
        return self.centre + GRID @ self.affine.T

    def corners(self, half_edge: float) -> np.ndarray:
        """The face's four corners in image px, ``half_edge`` in grid units."""
        sq = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float) * half_edge
        return self.centre + sq @ self.affine.T


def _similarity(vec: np.ndarray, canon: np.ndarray) -> np.ndarray:
    """The rotation+scale taking canonical vector ``canon`` onto ``vec``."""
    z = complex(*vec) / complex(*canon)
    return np.array([[z.real, -z.imag], [z.imag, z.real]])


def _by_angle(points: np.ndarray) -> np.ndarray:
    return points[np.argsort(np.arctan2(points[:, 1], points[:, 0]))]


@functools.cache
def _orders(k: int) -> np.ndarray:
    """Every way of pairing k pips in angular order with a ring of k layout spots: the
    ring turned by each step, then mirrored and turned (rows: indices into the pips)."""
    j = np.arange(k)
    turns = [(j + shift) % k for shift in range(k)]
    mirrored = [(k - 1 - j + shift) % k for shift in range(k)]
    return np.array(turns + mirrored)


@functools.cache
def _ring(value: int) -> tuple[np.ndarray, np.ndarray]:
    """The ring of layout spots a face of ``value`` (4-6) is fitted to, in angular order,
    and its pseudo-inverse (the same for every fit)."""
    ring = _by_angle(LAYOUTS[value][:4] if value == 5 else LAYOUTS[value])
    return ring, np.linalg.pinv(ring)


def _fit_affine(points: np.ndarray, value: int) -> LayoutFit | None:
    centre = points.mean(axis=0)
    rel = points - centre
    if value == 5:
        mid = int(np.argmin(np.hypot(rel[:, 0], rel[:, 1])))
        rel = np.delete(rel, mid, axis=0)
    obs = _by_angle(rel)
    ring, solve = _ring(value)
    # least squares ring @ m = obs for every pairing at once (ring is the same each time)
    paired = obs[_orders(len(ring))]  # pairings x k x 2
    m = solve @ paired  # pairings x 2 x 2
    det = np.abs(m[:, 0, 0] * m[:, 1, 1] - m[:, 0, 1] * m[:, 1, 0])
    err = ((paired - ring @ m) ** 2).sum(axis=2).mean(axis=1)
    ok = det >= 1e-6
    if not ok.any():
        return None
    res = np.sqrt(np.where(ok, err, np.inf) / np.where(ok, det, 1.0))
    # the first of equal fits (a symmetric layout fits as well turned or mirrored)
    best = int(np.flatnonzero(res <= res.min() * (1 + 1e-9))[0])
    affine, residual = m[best].T, float(res[best])
    if value == 5:
        mid_err = float(np.hypot(*points[mid] - centre)) / math.sqrt(float(det[best]))
        residual = math.hypot(residual, mid_err)
    return LayoutFit(value, centre, affine, residual)


def _fit_diagonal(points: np.ndarray) -> LayoutFit | None:
    if len(points) == 2:
        ends, res = points, 0.0
        value = 2
    else:
        centre = points.mean(axis=0)
        mid = int(np.argmin(np.hypot(*(points - centre).T)))
        ends = np.delete(points, mid, axis=0)
        span = float(np.hypot(*(ends[1] - ends[0])))
        if span < 1e-6:
            return None
        # misfit of the middle pip, in grid units (the half diagonal is sqrt(2) units)
        res = float(np.hypot(*(points[mid] - ends.mean(axis=0)))) / (span / (2 * math.sqrt(2)))
        value = 3
    affine = _similarity(ends[1] - ends[0], np.array([2.0, 2.0]))
    return LayoutFit(value, ends.mean(axis=0), affine, res)


def fit_layout(points: np.ndarray) -> LayoutFit | None:
    """The layout that explains ``points`` (n x 2 image px), or None when none does.

    One to six pips are tried against the layout with that many pips; a one-pip
    fit has a unit map (its scale and angle come from elsewhere).
    """
    n = len(points)
    if n == 1:
        return LayoutFit(1, points[0].astype(float), np.eye(2), 0.0)
    if n in (2, 3):
        fit = _fit_diagonal(points.astype(float))
    elif n in (4, 5, 6):
        fit = _fit_affine(points.astype(float), n)
    else:
        return None
    if fit is None or fit.residual > MAX_RESIDUAL:
        return None
    return fit
