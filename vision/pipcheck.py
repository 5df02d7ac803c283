"""Stage 2c, the faces checked: each face read off its whole 3x3 grid (every layout spot
must hold a pip and every other spot must be blank, so a missed pip or a speck of dust
is caught, not counted; a face fitted to a layout the tray's dice were seen to draw is
read off that layout's pips and the grid's spots clear of them), and marked when it is
cut by the frame, far from square compared with the faces of its value (a cocked die),
of another size than the other dice, blurred, or beside a rounder-pipped face of its own
die; each gets its confidence.
"""

from __future__ import annotations

import numpy as np

from dicetray.vision.layouts import GRID, LAYOUTS, LayoutFit, fit_layout, value_of_spots
from dicetray.vision.measure import median, roundness, sample
from dicetray.vision.pipfaces import Die, Doubt, doubt, shown_edge
from dicetray.vision.pipscene import Scene
from dicetray.vision.reading import Reason

__all__ = ["check", "dice_size", "like_size", "read_laid", "side_faces", "spots"]


def check(sc: Scene, dice: list[Die], among: list[Die] | None = None, *,
          blank: float | None = None) -> None:
    """Mark each die's problem (edge, cocked, blur, ambiguous) and its confidence,
    weighed against the faces ``among`` (default ``dice``: the frame's dice read). A grid
    spot is clearly blank under ``blank`` (default ``spot_off``; up to ``spot_on`` where a
    second opinion settles a die in doubt, see :func:`read_laid`)."""
    if not dice:
        return
    p, st = sc.pips, sc.st
    blank = st.spot_off if blank is None else blank
    h, w = sc.work.shape[:2]
    frame = dice if among is None else among
    # each layout's aspect as these dice draw it (a 6's columns may sit close together,
    # so its grid is no square): a face is compared with faces of its own value only,
    # by the aspect of its grid, whatever its turn
    refs = {}
    for value in (4, 5, 6):  # the faces whose grid has an aspect (a 2's, 3's is a line)
        skews = [die.fit.skew for die in frame if die.value == value]
        if len(skews) >= st.refs:
            refs[value] = median(skews)
    sizes = dice_size(sc, frame)
    # every die's pips' gradient structure at once (its cost is per call, not per pip)
    own = [np.asarray(die.pips, np.intp) for die in dice]
    at = np.concatenate(own)
    tensors = np.split(sc.tensor_at(p.x[at], p.y[at]), np.cumsum([len(i) for i in own])[:-1])
    for die, tensor in zip(dice, tensors, strict=True):
        fit = die.fit
        if die.value == 1:
            c = fit.centre
            reach = st.half_edge * die.offset
            out = c[0] < reach or c[1] < reach or c[0] > w - 1 - reach or c[1] > h - 1 - reach
            margin = 1.0
        else:
            corners = fit.corners(st.half_edge)
            out = bool(
                (corners[:, 0] < 0).any()
                or (corners[:, 1] < 0).any()
                or (corners[:, 0] > w - 1).any()
                or (corners[:, 1] > h - 1).any()
            )
            # read the face off the whole grid: a pip the finder missed still shows as
            # contrast on its spot, and a spot that is neither clearly pip nor clearly
            # blank face leaves the value in doubt
            if fit.learnt:
                value, on_grid, on = _learnt_grid(sc, die)
            else:
                on_grid = _near_spots(sc, die, spots(sc, die))
                on = on_grid >= st.spot_on
                value = value_of_spots(on)
            unclear = (on_grid > blank) & ~on
            if value is None or unclear.any():
                doubt(die, Doubt.NO_LAYOUT if value is None else Doubt.UNCLEAR_SPOT)
            else:
                die.value = value
            lowest_on = min(float(on_grid[on].min()), 1.0) if on.any() else 0.0
            margin = lowest_on - (float(on_grid[~on].max()) if (~on).any() else 0.0)
        if sizes is not None and not like_size(sc, die, sizes):
            doubt(die, Doubt.SIZE)
        if out:
            die.problem = Reason.EDGE
        elif die.value >= 4 and (die.value in refs or die.value != 6 or fit.learnt):
            ref = refs.get(die.value)
            dev = abs(fit.skew / ref - 1.0) if ref is not None else abs(fit.skew - 1.0)
            if dev > (st.cocked_aspect if ref is not None else st.cocked_square):
                die.problem = die.problem or Reason.COCKED
        # motion blur smears pips along one direction: the gradients around them lose
        # their roundness (a sharp pip has an isotropic structure tensor)
        r = roundness(*(float(v) for v in tensor.sum(axis=0)))
        if r < st.min_roundness:
            die.problem = Reason.BLUR
        die.confidence = min(max(
            min(margin, 1.0) * (1.0 - fit.residual) * min(1.0, st.round_credit + r), 0.0), 1.0)


def _learnt_grid(sc: Scene, die: Die) -> tuple[int | None, np.ndarray, np.ndarray]:
    """A face fitted to a layout the tray's dice draw, read off its own spots: its
    layout's pips, and the spots of the 3x3 grid at these dice's scale that lie clear of
    them (:attr:`~dicetray.vision.settings.ReaderSettings.pip_apart`: nearer, a spot
    reads as the pip beside it, and tells nothing). Returns (value, contrast on those
    spots, which hold a pip): the face's value when its pips are all there and the other
    spots blank; when a spot clear of them holds a pip too, the value of the layout that
    all the pips seen make, if any; else None."""
    p, st, fit = sc.pips, sc.st, die.fit
    own = fit.pips()
    grid = fit.grid()
    d = median(p.d[die.pips])
    apart = np.hypot(grid[:, None, 0] - own[None, :, 0], grid[:, None, 1] - own[None, :, 1])
    clear = grid[apart.min(axis=1) >= st.pip_apart * d]
    at = np.concatenate([own, clear])
    contrast = spots(sc, die, at)
    on = contrast >= st.spot_on
    if not on[:len(own)].all():
        return None, contrast, on
    if not on[len(own):].any():
        return die.value, contrast, on
    more = fit_layout(at[on], sc.layouts)
    return (None if more is None else more.value), contrast, on


def dice_size(sc: Scene, dice: list[Die]) -> float | None:
    """The size of the frame's ``dice``: the median edge of their finds, None with fewer
    than :attr:`~dicetray.vision.settings.ReaderSettings.refs` faces to measure. Dice in
    one frame are one size: a face read at another size was framed wrongly. Only faces
    of two pips or more set it (it was once their pips' spread, which a 1 has not)."""
    multi = [_size_of(sc, die) for die in dice if die.value > 1]
    return median(multi) if len(multi) >= sc.st.refs else None


def like_size(sc: Scene, die: Die, size: float) -> bool:
    """Whether ``die`` is of the dice's ``size`` (:func:`dice_size`), within
    :attr:`~dicetray.vision.settings.ReaderSettings.like_size`."""
    return 1 / sc.st.like_size <= _size_of(sc, die) / size <= sc.st.like_size


def _size_of(sc: Scene, die: Die) -> float:
    """A die's size for comparing with the others', frame px: its find's edge when the
    detector found it, else the edge it is shown with (:func:`shown_edge`)."""
    if die.found is not None:
        return float(die.found.size)
    return shown_edge(sc, die)


def _near_spots(sc: Scene, die: Die, on_grid: np.ndarray) -> np.ndarray:
    """``on_grid`` (the contrast on a face's nine grid spots) with those nearer a pip of
    the face than :attr:`~dicetray.vision.settings.ReaderSettings.pip_apart`, but not on
    it, read again on the maps before widening: a 6 whose columns sit close together, a 2
    whose pips sit towards the centre. A pip really there still reads as one."""
    raw = sc.dark_raw if die.dark else sc.light_raw
    if raw is None or die.spots_map is not None:
        return on_grid
    p = sc.pips
    grid = die.fit.grid()
    own = np.stack([p.x[die.pips], p.y[die.pips]], axis=1)
    d = median(p.d[die.pips])
    r = np.hypot(grid[:, None, 0] - own[None, :, 0], grid[:, None, 1] - own[None, :, 1]).min(1)
    near = (r > d / 2) & (r < sc.st.pip_apart * d)  # not on the pip, but near it
    if not near.any():
        return on_grid
    out = on_grid.copy()
    peak = median(p.peak[die.pips])
    out[near] = sample(raw, *grid[near].T).astype(np.float32) / peak
    return out


def spots(sc: Scene, die: Die, at: np.ndarray | None = None) -> np.ndarray:
    """The contrast on the nine grid spots of a die's fit (or at points ``at``, n x 2
    working px), as a share of its own pips': on the scene's maps, or, for a face read
    closer, on the channel its pips stand out in."""
    p = sc.pips
    at = die.fit.grid() if at is None else at
    if die.spots_map is None:
        peak = median(p.peak[die.pips])
        return sample(sc.peak_map(die.dark), *at.T).astype(np.float32) / peak
    m, x0, y0 = die.spots_map
    own = sample(m, p.x[die.pips] - x0, p.y[die.pips] - y0).astype(np.float32)
    return sample(m, *(at - (x0, y0)).T).astype(np.float32) / max(median(own), 1.0)


def side_faces(sc: Scene, dice: list[Die]) -> None:
    """Mark a face read while a rounder-pipped face of the same die sits beside it, and a
    2 read from a top face's pip and a side face's (``side_split_elong``).

    On an angled view a die shows its top and one or two side faces; the side faces are
    foreshortened, so their pips look more oval than the top face's. The two pips of a 2
    lie on one face and are equally foreshortened; a 1's pip and the nearest pip of a side
    face lie as a 2's do, but one is as oval as the side face's pips and the other is not.
    """
    p, st = sc.pips, sc.st
    if len(p) == 0:
        return
    for die in dice:
        reach = st.reach * 2 * st.half_edge * die.offset
        dist = np.hypot(p.x - die.fit.centre[0], p.y - die.fit.centre[1])
        near = (dist <= reach) & (p.dark == die.dark)
        near[die.pips] = False
        if not near.any():
            continue
        beside = median(p.elong[near])
        own = p.elong[die.pips]
        if beside < median(own) - st.side_split_elong:
            doubt(die, Doubt.SIDE_FACE)
        elif (len(die.pips) == 2 and own.max() - own.min() >= st.side_split_elong
              and own.max() - own.min() >= beside - own.max()):
            # a 2 with one pip rounder, the other as oval as the side faces' beside it
            # (nearer their ovalness than its partner's): a 1's pip on the top face and a
            # side face's just past its edge
            doubt(die, Doubt.SIDE_PIP)


def read_laid(sc: Scene, die: Die, value: int, *, blank: float | None = None) -> Die | None:
    """``die`` read again as ``value`` (a second opinion's) with that face's layout laid
    on two of its pips, or None. Where the finder missed some of a face's pips (large
    pips on a marbled face, a pip run together with a side face's) or took a side face's
    pip or a mark for one, the pips it found make another face or none, but the top
    face's grid still shows every pip and no mark.

    The pips tried are the die's own and those of its colour within a half edge of its
    find's centre (the nearest ``subset_pips``); each pair of them is taken for each pair
    of the layout's pips, which places the layout (a turn and a scale), and a placement
    counts when it is of the find's size (``offset_band``), centred on it (``beside``)
    and read as any face's grid is (:func:`check`): every layout spot a pip (``spot_on``)
    and every other spot blank face (``spot_off``). Of those, the one whose spots part
    widest is the face, its pips those found on its spots; it is then checked as any
    face is. Not for a 1 (one pip places no grid), nor a value the tray's dice were seen
    to draw otherwise (their learnt grid reads it). Only for a value a second opinion
    gives: laid every way, some layout fits most pairs of marks. ``blank``: the most a
    blank spot may show (default ``spot_off``; a die in doubt whose value the second
    opinion is fairly sure of is read with ``spot_on``: every spot under a pip's share is
    blank, and the doubt between is the classifier's to settle)."""
    cand = die.found
    if (cand is None or value < 2
            or (sc.layouts is not None and value in dict(sc.layouts.faces))):
        return None
    p, st = sc.pips, sc.st
    blank = st.spot_off if blank is None else blank
    centre, a, dist = sc.on_find(cand)
    pool = np.union1d(np.asarray(die.pips, np.intp),
                      np.flatnonzero((p.dark == die.dark) & (dist <= st.half_edge * a)))
    pool = pool[np.argsort(dist[pool], kind="stable")][:st.subset_pips]
    layout = LAYOUTS[value]
    # points as complex numbers: the map from the face's frame to the image, a turn and a
    # scale, is then a multiplication (and a shift)
    at = p.x[pool] + 1j * p.y[pool]
    spot = layout[:, 0] + 1j * layout[:, 1]
    i, j = np.nonzero(~np.eye(len(pool), dtype=bool))  # every pair of pips ...
    k, m = np.nonzero(~np.eye(len(spot), dtype=bool))  # ... on every pair of spots
    turn = (at[j] - at[i])[:, None] / (spot[m] - spot[k])[None, :]
    mid = at[i][:, None] - turn * spot[k][None, :]
    size = np.abs(turn) / a
    placed = ((st.offset_band[0] <= size) & (size <= st.offset_band[1])
              & (np.abs(mid - complex(*centre)) <= st.beside * a))
    # one placement each: a layout turned half round (a 4's or 5's, a quarter) is itself,
    # and so is a pair of pips taken in the other order
    turns, mids = turn[placed], mid[placed]
    same = (turns / a) ** (4 if value in (4, 5) else 2)
    _, first = np.unique(np.round(np.stack([mids.real, mids.imag, same.real, same.imag]), 2),
                         axis=1, return_index=True)
    first.sort()
    on_layout = (GRID[:, None, :] == layout[None, :, :]).all(axis=2).any(axis=1)
    h, w = sc.work.shape[:2]
    best, widest = None, -np.inf
    for z, o in zip(turns[first], mids[first], strict=True):
        fit = LayoutFit(value, np.array([o.real, o.imag]),
                        np.array([[z.real, -z.imag], [z.imag, z.real]]), 0.0)
        grid, pips = fit.grid(), fit.pips()
        if grid.min() < 0 or (grid[:, 0] > w - 1).any() or (grid[:, 1] > h - 1).any():
            continue
        on = np.hypot(p.x[pool][:, None] - pips[None, :, 0],
                      p.y[pool][:, None] - pips[None, :, 1]).min(axis=1) <= p.d[pool] / 2
        face = Die(value, fit, abs(z), pool[on].tolist(), die.dark, 1.0)
        contrast = _near_spots(sc, face, spots(sc, face))
        low, high = float(contrast[on_layout].min()), float(contrast[~on_layout].max())
        if low >= st.spot_on and high <= blank and low - high > widest:
            best, widest = face, low - high
    return best
