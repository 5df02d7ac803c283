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

Dice differ: on some a 6's columns sit close together, on others a 2's pips sit towards
the centre. :func:`learn_layout` learns where one face value's pips sit on the dice of one
tray, from the pips of dice seen there (the calibration does this with its dice frames),
and :func:`layouts_from` gives the six layouts with each learnt face in place of the fixed
one; :func:`face_layouts` makes them the :class:`FaceLayouts` that :func:`fit_layout`
fits a tray's faces to (the reader takes them from its calibration):

>>> close = np.array([(-0.2, -0.34), (-0.2, 0.0), (-0.2, 0.34),
...                   (0.2, -0.34), (0.2, 0.0), (0.2, 0.34)])
>>> six = learn_layout(6, [close, close[:, ::-1]])   # one die seen turned
>>> six.spots[:2], six.dice
(((-0.2, -0.34), (0.2, -0.34)), 2)
>>> layouts_from([six])[6][:2].round(2).tolist()
[[-0.59, -1.0], [0.59, -1.0]]
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["GRID", "LAYOUTS", "PIP_SHARE", "FaceLayouts", "LayoutFit", "LearntLayout",
           "drawn_otherwise", "face_layouts", "fit_layout", "layouts_from", "learn_layout",
           "value_of_spots"]

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
    ``centre``; ``residual`` is the rms misfit in grid units; ``layout``: the pips (grid
    units, the face's frame) of the layout a tray's dice were seen to draw that it was
    fitted to (:class:`FaceLayouts`), None for the fixed one (:data:`LAYOUTS`).
    """

    value: int
    centre: np.ndarray
    affine: np.ndarray
    residual: float
    layout: np.ndarray | None = None

    @property
    def learnt(self) -> bool:
        """Whether it was fitted to a layout learnt from the tray's own dice."""
        return self.layout is not None

    @property
    def unusual(self) -> bool:
        """Whether it was fitted to a learnt layout that the fixed one does not explain
        (:func:`drawn_otherwise`): a face that dice commonly do not show."""
        return self.layout is not None and drawn_otherwise(self.value, self.layout)

    def pips(self) -> np.ndarray:
        """Where its layout's pips lie, image px (in the order of its layout's spots)."""
        spots = LAYOUTS[self.value] if self.layout is None else self.layout
        return self.centre + spots @ self.affine.T

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


def _fit_affine(points: np.ndarray, value: int,
                ring: tuple[np.ndarray, np.ndarray] | None = None,
                mid_spot: np.ndarray | None = None,
                layout: np.ndarray | None = None) -> LayoutFit | None:
    """Fit a 4, 5 or 6 to ``points``: the fixed layout's ring, or the ``ring`` given (spots
    in angular order and its pseudo-inverse) with a 5's centre pip at ``mid_spot``."""
    centre = points.mean(axis=0)
    rel = points - centre
    if value == 5:
        mid = int(np.argmin(np.hypot(rel[:, 0], rel[:, 1])))
        rel = np.delete(rel, mid, axis=0)
    obs = _by_angle(rel)
    ring_spots, solve = _ring(value) if ring is None else ring
    # least squares ring @ m = obs for every pairing at once (ring is the same each time)
    paired = obs[_orders(len(ring_spots))]  # pairings x k x 2
    m = solve @ paired  # pairings x 2 x 2
    det = np.abs(m[:, 0, 0] * m[:, 1, 1] - m[:, 0, 1] * m[:, 1, 0])
    err = ((paired - ring_spots @ m) ** 2).sum(axis=2).mean(axis=1)
    ok = det >= 1e-6
    if not ok.any():
        return None
    res = np.sqrt(np.where(ok, err, np.inf) / np.where(ok, det, 1.0))
    # the first of equal fits (a symmetric layout fits as well turned or mirrored)
    best = int(np.flatnonzero(res <= res.min() * (1 + 1e-9))[0])
    affine, residual = m[best].T, float(res[best])
    if value == 5:
        miss = points[mid] - centre
        if mid_spot is not None:
            miss = miss - affine @ mid_spot
        mid_err = float(np.hypot(*miss)) / math.sqrt(float(det[best]))
        residual = math.hypot(residual, mid_err)
    return LayoutFit(value, centre, affine, residual, layout)


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


def fit_layout(points: np.ndarray, layouts: FaceLayouts | None = None) -> LayoutFit | None:
    """The layout that explains ``points`` (n x 2 image px), or None when none does.

    One to six pips are tried against the layout with that many pips: the one these
    dice were seen to draw when ``layouts`` (learnt on the tray) hold it, then the fixed
    one (a face seen at a slant the learnt one was not, say); a one-pip fit has a unit map
    (its scale and angle come from elsewhere).
    """
    n = len(points)
    if n == 1:
        return LayoutFit(1, points[0].astype(float), np.eye(2), 0.0)
    if layouts is not None and n in layouts.values:
        fit = layouts.fit(points.astype(float))
        if fit is not None and fit.residual <= MAX_RESIDUAL:
            return fit
    if n in (2, 3):
        fit = _fit_diagonal(points.astype(float))
    elif n in (4, 5, 6):
        fit = _fit_affine(points.astype(float), n)
    else:
        return None
    if fit is None or fit.residual > MAX_RESIDUAL:
        return None
    return fit


# -- layouts learnt from a tray's own dice --------------------------------------------------

#: A corner pip's offset from the face's centre (x or y) as a share of the die's edge as
#: the dice detector measures it, on common dice: their pips sit at 0.27 of the true edge,
#: and the detector's edge is about 0.8 of the true one (sketched dice of 90 px: finds of
#: 67-74 px). The unit of a learnt layout when neither a 4 nor a 5 was learnt.
PIP_SHARE = 0.34
#: Farthest a learnt pip may lie from the face's centre (x or y, shares of the detector's
#: edge): a corner pip at the very corner of the true face lies at 0.5 / 0.8 = 0.63.
MAX_SPOT = 0.7
#: Nearest two learnt pips of one face may lie (shares of the edge): nearer, they are one.
MIN_GAP = 0.03

#: The eight turns and mirror images of a square face, as 2 x 2 maps.
_SQUARE = tuple(
    np.array(m, float) for m in (
        ((1, 0), (0, 1)), ((0, -1), (1, 0)), ((-1, 0), (0, -1)), ((0, 1), (-1, 0)),
        ((-1, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 0), (0, -1)), ((0, -1), (-1, 0)),
    )
)


@dataclass(frozen=True)
class LearntLayout:
    """Where the pips of face ``value`` sit on one tray's dice: ``spots`` are (x, y) pip
    positions in the face's own frame, shares of the die's edge (as the dice detector
    measures it) from the face's centre, in the order of :data:`LAYOUTS` [value]; learnt
    from ``dice`` dice. ValueError names what is wrong with a layout no die could show.

    >>> LearntLayout(2, ((-0.1, -0.1), (0.1, 0.1)), 3).spots
    ((-0.1, -0.1), (0.1, 0.1))
    >>> LearntLayout(6, ((0.0, 0.0),) * 6, 3)
    Traceback (most recent call last):
    ...
    ValueError: face 6: pips 1 and 2 lie on one spot
    """

    value: int
    spots: tuple[tuple[float, float], ...]
    dice: int

    def __post_init__(self) -> None:
        v = self.value
        if type(v) is not int or not 1 <= v <= 6:
            raise ValueError(f"a face value is 1..6, got {v!r}")
        if type(self.dice) is not int or self.dice < 1:
            raise ValueError(f"face {v}: learnt from {self.dice!r} dice, not a count of dice")
        spots = self.spots
        if not isinstance(spots, (tuple, list)) or len(spots) != v:
            n = len(spots) if isinstance(spots, (tuple, list)) else type(spots).__name__
            raise ValueError(f"face {v}: {n} pips, a {v} shows {v}")
        clean = []
        for p in spots:
            if not (isinstance(p, (tuple, list)) and len(p) == 2
                    and all(isinstance(c, (int, float)) and not isinstance(c, bool)
                            and math.isfinite(c) for c in p)):
                raise ValueError(f"face {v}: pip {str(p)[:40]} is not an (x, y) pair of numbers")
            if max(abs(p[0]), abs(p[1])) > MAX_SPOT:
                raise ValueError(f"face {v}: pip ({p[0]:g}, {p[1]:g}) lies off the face "
                                 f"(farther than {MAX_SPOT} of the edge from its centre)")
            clean.append((float(p[0]), float(p[1])))
        for (i, a), (j, b) in itertools.combinations(enumerate(clean, 1), 2):
            if math.dist(a, b) < MIN_GAP:
                raise ValueError(f"face {v}: pips {i} and {j} lie on one spot")
        if v > 1:
            fit = fit_layout(np.array(clean))
            if fit is None or fit.value != v:
                raise ValueError(f"face {v}: its pips do not make a {v}")
        object.__setattr__(self, "spots", tuple(clean))


@functools.cache
def _orderings(n: int) -> np.ndarray:
    """Every order of ``n`` pips (rows of indices)."""
    return np.array(list(itertools.permutations(range(n))), int).reshape(-1, n)


def _aligned(value: int, pips: np.ndarray) -> list[np.ndarray]:
    """``pips`` (shares of the edge, the face's frame) put in the order of the layout's
    spots, turned or mirrored to lie as the fixed layout does: every turn that fits best
    (a symmetric face fits equally well in several, and each counts, so what is learnt
    keeps the face's symmetry)."""
    canon = LAYOUTS[value] * PIP_SHARE
    orders = _orderings(value)
    tried = []
    for m in _SQUARE:
        turned = (pips @ m.T)[orders]  # orderings x value x 2
        costs = ((turned - canon) ** 2).sum(axis=(1, 2))
        k = int(np.argmin(costs))
        tried.append((float(costs[k]), turned[k]))
    best = min(c for c, _ in tried)
    return [t for c, t in tried if c <= best + 1e-9]


def learn_layout(value: int, faces: Iterable[np.ndarray]) -> LearntLayout | None:
    """Where face ``value``'s pips sit, learnt from ``faces``: per die read showing it, its
    pips (``value`` x 2) as offsets from the face's centre in shares of the die's edge,
    in the face's own frame (turned by the die's angle; any quarter turn or mirror image,
    it is undone here). The mean over the dice, or None without any; ValueError when the
    mean makes no such face (the pips measured were not this face's).
    """
    sums = np.zeros((value, 2))
    count = dice = 0
    for pips in faces:
        pips = np.asarray(pips, float).reshape(-1, 2)
        if len(pips) != value:
            raise ValueError(f"a face {value} has {value} pips, got {len(pips)}")
        for turned in _aligned(value, pips - pips.mean(axis=0)):
            sums += turned
            count += 1
        dice += 1
    if not dice:
        return None
    mean = sums / count
    spots = tuple((round(float(x), 4) + 0.0, round(float(y), 4) + 0.0) for x, y in mean)
    return LearntLayout(value, spots, dice)


def _unit(learnt: Sequence[LearntLayout]) -> float:
    """The pip offset ``a`` of these dice (shares of the edge): the mean corner offset of
    their 4s and 5s when learnt, else :data:`PIP_SHARE`."""
    corners = [abs(c) for face in learnt if face.value in (4, 5)
               for p in face.spots[:4] for c in p]
    return float(np.mean(corners)) if corners else PIP_SHARE


def layouts_from(learnt: Any = None) -> dict[int, np.ndarray]:
    """The six layouts (as :data:`LAYOUTS`: grid units, the face's own frame) with each
    face in ``learnt`` where these dice draw its pips instead of the fixed grid.

    ``learnt``: learnt layouts, or a calibration holding them (its ``layouts``), or None
    (the fixed layouts). The grid unit is these dice's own corner-pip offset (that of
    their 4s and 5s when learnt), so the faces that match the fixed grid stay on it.

    >>> layouts_from(None)[6].tolist() == LAYOUTS[6].tolist()
    True
    """
    faces = _learnt_of(learnt)
    out = {v: spots.copy() for v, spots in LAYOUTS.items()}
    unit = _unit(faces)
    for face in faces:
        out[face.value] = np.array(face.spots, float) / unit
    return out


def drawn_otherwise(value: int, spots: np.ndarray) -> bool:
    """Whether a face ``value`` whose pips lie at ``spots`` (grid units, the face's frame,
    at these dice's own scale) is drawn otherwise than the fixed layout: the rms distance
    from each pip to the nearest of the fixed layout's, turned either way, is more than a
    fit allows (:data:`MAX_RESIDUAL`).

    >>> drawn_otherwise(2, np.array([(-0.9, -0.9), (0.9, 0.9)]))
    False
    >>> drawn_otherwise(2, np.array([(-0.55, -0.55), (0.55, 0.55)]))
    True
    >>> drawn_otherwise(6, LAYOUTS[6] * (0.6, 1.0))
    True
    """
    spots = np.asarray(spots, float)
    best = math.inf
    for fixed in (LAYOUTS[value], LAYOUTS[value][:, ::-1]):
        gaps = np.hypot(*(spots[:, None, :] - fixed[None, :, :]).transpose(2, 0, 1)).min(axis=1)
        best = min(best, math.sqrt(float((gaps ** 2).mean())))
    return best > MAX_RESIDUAL


def _learnt_of(learnt: Any) -> tuple[LearntLayout, ...]:
    if learnt is not None and not isinstance(learnt, (list, tuple)):
        learnt = getattr(learnt, "layouts", ())
    return tuple(learnt or ())


@dataclass(frozen=True)
class FaceLayouts:
    """The layouts one tray's dice were seen to draw, as the reader fits them: per face
    value learnt, its pips in grid units in the face's own frame (the unit these dice's
    own corner-pip offset, see :func:`layouts_from`). A face of a value not learnt is
    fitted to the fixed layout. Made by :func:`face_layouts`.

    >>> close = ((-0.2, -0.34), (0.2, -0.34), (0.2, 0.0), (0.2, 0.34), (-0.2, 0.34),
    ...          (-0.2, 0.0))
    >>> tray = face_layouts([LearntLayout(6, close, 3)])
    >>> six = np.array(close) * 100 + 50    # a 6 of this tray, 100 px to the edge
    >>> fit = fit_layout(six, tray)
    >>> fit.value, fit.learnt, round(fit.skew, 2), round(fit.residual, 3)
    (6, True, 1.0, 0.0)
    >>> round(fit_layout(six).skew, 2)      # the fixed 3x3 grid fits it squashed
    1.7
    """

    faces: tuple[tuple[int, tuple[tuple[float, float], ...]], ...]
    #: One grid unit as a share of the dice's edge (as the detector measures it): these
    #: dice's corner-pip offset (see :func:`layouts_from`).
    unit: float = PIP_SHARE
    #: How many dice each face was learnt from, as (value, dice), in ``faces``' order
    #: (none given: one each).
    seen: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if not 0.0 < self.unit < 0.5:
            raise ValueError(f"face layouts: a grid unit of {self.unit!r} edges (0..0.5)")
        values = [v for v, _ in self.faces]
        if len(set(values)) != len(values) or not all(2 <= v <= 6 for v in values):
            raise ValueError(f"face layouts: values {values} (2..6, each once)")
        for value, spots in self.faces:
            if len(spots) != value:
                raise ValueError(f"face layouts: a {value} with {len(spots)} pips")

    @functools.cached_property
    def values(self) -> frozenset[int]:
        """The face values learnt."""
        return frozenset(v for v, _ in self.faces)

    @functools.cached_property
    def _spots(self) -> dict[int, np.ndarray]:
        return {v: np.array(spots, float) for v, spots in self.faces}

    @functools.cached_property
    def _dice(self) -> dict[int, int]:
        return {v: 1 for v in self.values} | dict(self.seen)

    def dice(self, value: int) -> int:
        """How many dice face ``value`` was learnt from (0: not learnt)."""
        return self._dice.get(value, 0)

    def spots(self, value: int) -> np.ndarray | None:
        """Where face ``value``'s pips lie (grid units), None when it was not learnt."""
        spots = self._spots.get(value)
        return None if spots is None else spots.copy()

    @functools.cached_property
    def _rings(self) -> dict[int, tuple[tuple[np.ndarray, np.ndarray], np.ndarray | None]]:
        """Per learnt 4, 5 or 6: its ring of pips in angular order round the ring's own
        centre with the pseudo-inverse, and a 5's centre pip from that centre."""
        out = {}
        for value, spots in self._spots.items():
            if value < 4:
                continue
            mid = None
            ring = spots
            if value == 5:
                k = int(np.argmin(np.hypot(*(spots - spots.mean(axis=0)).T)))
                ring = np.delete(spots, k, axis=0)
            middle = ring.mean(axis=0)
            if value == 5:
                mid = spots[k] - middle
            ring = _by_angle(ring - middle)
            out[value] = ((ring, np.linalg.pinv(ring)), mid)
        return out

    def fit(self, points: np.ndarray) -> LayoutFit | None:
        """The learnt layout with as many pips as ``points`` fitted to them (unchecked)."""
        n = len(points)
        spots = self._spots[n]
        if n >= 4:
            ring, mid = self._rings[n]
            return _fit_affine(points, n, ring, mid, spots)
        # a 2's pips, or a 3's corner pips, and a 3's middle one
        ends_at, mid_at = _ends(spots)
        if n == 2:
            ends, res = points, 0.0
        else:
            mid, ends = _ends(points)[1], _ends(points)[0]
        canon = ends_at[1] - ends_at[0]
        if float(np.hypot(*(ends[1] - ends[0]))) < 1e-6 or float(np.hypot(*canon)) < 1e-9:
            return None
        affine = _similarity(ends[1] - ends[0], canon)
        centre = ends.mean(axis=0) - affine @ ends_at.mean(axis=0)
        if n == 3:
            # misfit of the middle pip from where the learnt 3 draws it, in grid units
            miss = mid - (centre + affine @ mid_at)
            res = float(np.hypot(*miss)) / math.sqrt(abs(float(np.linalg.det(affine))))
        return LayoutFit(n, centre, affine, res, spots)


def _ends(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A diagonal face's end pips (2 x 2) and its middle pip (a 3's: the one nearest their
    mean; a 2's: the mean itself)."""
    if len(points) == 2:
        return points, points.mean(axis=0)
    k = int(np.argmin(np.hypot(*(points - points.mean(axis=0)).T)))
    return np.delete(points, k, axis=0), points[k]


def face_layouts(learnt: Any = None) -> FaceLayouts | None:
    """The layouts the reader fits on a tray whose dice were seen to draw ``learnt``
    (learnt layouts, or a calibration holding them as its ``layouts``), or None when
    nothing was learnt (then the reader fits the fixed layouts only). A learnt 1 tells
    nothing a fit could use.

    >>> face_layouts(None) is None
    True
    """
    faces = _learnt_of(learnt)
    if not faces:
        return None
    grid = layouts_from(faces)
    out = tuple((f.value, tuple((float(x), float(y)) for x, y in grid[f.value].tolist()))
                for f in faces if f.value > 1)
    seen = tuple((f.value, f.dice) for f in faces if f.value > 1)
    return FaceLayouts(out, _unit(faces), seen) if out else None
