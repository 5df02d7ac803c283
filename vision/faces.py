"""Grouping pip candidates into die faces.

Two pips belong to one face when they have the same polarity and a similar size,
sit close enough for one face, and the straight line between them runs over face
colour all the way (no background, gap or seam crossed). Touching dice are kept
apart by that line-of-sight test; a group that still fits no layout is split by a
straight cut into two groups that each fit one.

>>> import numpy as np
>>> groups(4, np.array([[0, 2], [2, 3]]))
[[0, 2, 3], [1]]
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from dicetray.vision.layouts import LayoutFit, fit_layout

__all__ = ["fit_or_split", "groups", "inside", "linkable"]

#: Fits a layout to pips (n x 2 image px): a fit, or None when none fits.
Fit = Callable[[np.ndarray], "LayoutFit | None"]


def groups(n: int, pairs: np.ndarray) -> list[list[int]]:
    """The connected groups of ``n`` pips joined by the index ``pairs`` (k x 2)."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in pairs.tolist():
        parent[root(i)] = root(j)
    out: dict[int, list[int]] = {}
    for i in range(n):
        out.setdefault(root(i), []).append(i)
    return sorted(out.values())


def linkable(
    colour: np.ndarray,
    on_pip: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    face: np.ndarray,
    pairs: np.ndarray,
    tolerance: np.ndarray,
    samples: int = 9,
) -> np.ndarray:
    """For each pair (i, j), whether the segment between pips i and j stays on face colour.

    ``colour`` is the working image (float32 BGR), ``on_pip`` a bool mask of pip pixels
    (samples there are ignored), ``face`` the per-pip face colour and ``tolerance`` the
    per-pair allowed colour distance.
    """
    if len(pairs) == 0:
        return np.zeros(0, bool)
    h, w = on_pip.shape
    t = np.linspace(0.12, 0.88, samples)[None, :]
    i, j = pairs[:, 0], pairs[:, 1]
    sx = np.clip(np.rint(x[i, None] + (x[j] - x[i])[:, None] * t), 0, w - 1).astype(np.intp)
    sy = np.clip(np.rint(y[i, None] + (y[j] - y[i])[:, None] * t), 0, h - 1).astype(np.intp)
    seen = colour[sy, sx]  # pairs x samples x 3
    ref = (face[i] + face[j])[:, None, :] / 2
    off = np.sqrt(((seen - ref) ** 2).sum(axis=2)) > tolerance[:, None]
    valid = ~on_pip[sy, sx]
    bad = (off & valid).sum(axis=1)
    return bad == 0


def _split_fits(
    points: np.ndarray, accept, depth: int = 2, fitter: Fit = fit_layout
) -> list[tuple[list[int], LayoutFit]] | None:
    """The best straight cut of ``points`` into groups that each fit a layout.

    Each side of a cut either fits or is cut again (up to ``depth`` times), so a row of
    touching dice comes apart too.
    """
    # cuts at nearby angles part the pips the same way: each part is fitted once
    fitted: dict[tuple[int, ...], LayoutFit | None] = {}

    def fit_of(half: list[int]) -> LayoutFit | None:
        key = tuple(half)
        if key not in fitted:
            found = fitter(points[half])
            fitted[key] = found if found is not None and accept(half, found) else None
        return fitted[key]

    best: tuple[float, list[tuple[list[int], LayoutFit]]] | None = None
    for deg in range(0, 180, 15):
        th = math.radians(deg)
        proj = points @ np.array([math.cos(th), math.sin(th)])
        order = np.argsort(proj)
        gaps = np.diff(proj[order])
        # a cut between two faces runs through one of the widest gaps across the pips
        for k in (np.argsort(gaps)[::-1][:2] + 1).tolist():
            parts = []
            for half in (sorted(order[:k].tolist()), sorted(order[k:].tolist())):
                fit = fit_of(half)
                if fit is not None:
                    parts.append([(half, fit)])
                elif depth > 0 and len(half) > 6:
                    sub = _split_fits(points[half], accept, depth - 1, fitter)
                    if sub is None:
                        break
                    parts.append([([half[i] for i in idx], f) for idx, f in sub])
                else:
                    break
            if len(parts) < 2:
                continue
            found = parts[0] + parts[1]
            # prefer cuts through a wide gap, few faces and tight fits
            score = sum(f.residual for _, f in found) + 0.5 * len(found) - 0.02 * float(
                gaps[k - 1]
            )
            if best is None or score < best[0]:
                best = (score, found)
    return None if best is None else best[1]


def inside(points: np.ndarray, fit: LayoutFit, half_edge: float) -> np.ndarray:
    """Which ``points`` (n x 2) fall on the face square of ``fit`` (``half_edge`` grid units
    either way of its centre)."""
    inv = np.linalg.inv(fit.affine)
    local = (points - fit.centre) @ inv.T
    return (np.abs(local) <= half_edge).all(axis=1)


def fit_or_split(
    points: np.ndarray, accept, half_edge: float, side, fit: Fit = fit_layout
) -> list[tuple[list[int], LayoutFit]] | None:
    """Fit one layout to ``points``; failing that, split them; else None.

    ``accept(indices, fit)`` vets a candidate fit (size, spacing, layout check). A split
    is either two groups that each fit, or one group that fits with every other pip off
    its face that ``side(face_indices, other_indices)`` judges a side face seen at an
    angle (its pips more oval than the face's), whose pips are left unread. ``fit`` fits
    a layout to pips (:func:`~dicetray.vision.layouts.fit_layout` with the fixed layouts
    unless told).
    """
    whole = fit(points)
    if whole is not None and accept(list(range(len(points))), whole):
        return [(list(range(len(points))), whole)]
    if len(points) < 2 or len(points) > 18:
        return None
    both = _split_fits(points, accept, fitter=fit)
    if both is not None:
        return both
    return _fit_with_leftover(points, accept, half_edge, side, fit)


def _fit_with_leftover(
    points: np.ndarray, accept, half_edge: float, side, fit: Fit = fit_layout
) -> list[tuple[list[int], LayoutFit]] | None:
    n = len(points)
    best: tuple[tuple[int, float], list[tuple[list[int], LayoutFit]]] | None = None
    tried: set[tuple[int, ...]] = set()  # a part met again at another angle scores the same
    for deg in range(0, 180, 10):
        th = math.radians(deg)
        order = np.argsort(points @ np.array([math.cos(th), math.sin(th)]))
        for k in range(1, n):
            for part in (order[:k], order[k:]):
                if len(part) > 6 or len(part) < 2:
                    continue
                idx = sorted(part.tolist())
                if tuple(idx) in tried:
                    continue
                tried.add(tuple(idx))
                found = fit(points[idx])
                if found is None or not accept(idx, found):
                    continue
                rest = np.setdiff1d(np.arange(n), idx)
                if (inside(points[rest], found, half_edge).any()
                        or not side(idx, rest.tolist())):
                    continue
                key = (-len(idx), found.residual)
                if best is None or key < best[0]:
                    best = (key, [(idx, found)])
    return None if best is None else best[1]
