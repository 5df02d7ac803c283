"""Stage 2b, the faces the pips make: groups of pips fitted to the six real layouts
(:mod:`dicetray.vision.layouts`), kept only on a die the detector found (a side face's
pips, a speck or a shadow never become a die); a find no face was read on is read from
the pips nearest its centre (or, failing that, from any few of them, or from pips looked
for closer there: in every colour channel, the pips cut out of blobs run together with a
marbled face's marks as at first). A pip that colour kept apart from its face (a lamp's highlight)
is taken back where it completes the face's layout.

Each die being read is a :class:`Die`: mutable while the stages weigh it, then turned
into a :class:`~dicetray.vision.reading.DieReading` by the verdict.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from dicetray.vision.detector import Candidate, median_size
from dicetray.vision.faces import fit_or_split, inside
from dicetray.vision.layouts import FaceLayouts, LayoutFit
from dicetray.vision.measure import cut, median, pixels, sample
from dicetray.vision.pips import PipMaps, Pips
from dicetray.vision.pipscene import Scene, face_pips, face_tolerance, links, scene, widened
from dicetray.vision.pipscene import windows as windows_around
from dicetray.vision.reading import Reason
from dicetray.vision.settings import DEFAULT_SETTINGS, ReaderSettings

__all__ = ["Die", "Doubt", "analyse", "confirm", "doubt", "face_of", "faces", "look_closer",
           "read_apart", "read_as", "read_candidate", "shown_edge", "take", "unread_at"]

#: The most pips a face shows.
_MOST_PIPS = 6
#: Points on each circle sampled around a lone pip.
_AROUND = 16


class Doubt(StrEnum):
    """Which check put a face's pips in doubt (the roll's reason words it,
    :mod:`dicetray.vision.verdict`); the classifier, sure of the value, may settle it."""

    NO_LAYOUT = "no-layout"  # the grid's pip spots make no value
    UNCLEAR_SPOT = "unclear-spot"  # a grid spot neither clearly pip nor clearly blank face
    SIZE = "size"  # the face is of another size than the other dice
    SIDE_FACE = "side-face"  # a rounder-pipped face of the same die lies beside it
    SIDE_PIP = "side-pip"  # a 2 whose one pip is as oval as the side faces' beside it
    LONE_PIP = "lone-pip"  # a lone pip read as a 1, with contrast on its face's other spots
    BARE = "bare"  # a sure find that showed no pips, unsurely a face to the classifier
    CLOSER = "closer"  # more pips looked at closer than first read


@dataclass
class Die:
    """A die being read (working px)."""

    value: int  # 0: not read
    fit: LayoutFit
    offset: float  # pip offset a, working px
    pips: list[int]
    dark: bool
    confidence: float
    problem: Reason | None = None  # why the roll is refused for it
    detail: str = ""  # the reason's words, with {where}, when not the usual ones
    doubt: Doubt | None = None  # the check that put its pips in doubt (ambiguous)
    found: Candidate | None = None  # the detector's find this die is
    # read only by looking closer (look_closer): the placeholder it was before, and
    # whether that was a bare find
    fallback: tuple[Die, bool] | None = None
    # a face read by looking closer: the contrast map its grid is read on, and the
    # working px of its top-left corner
    spots_map: tuple[np.ndarray, int, int] | None = None


def shown_edge(sc: Scene, die: Die) -> float:
    """The edge (frame px) ``die`` is shown with: its pips' spread scaled to an edge (a
    lone pip's is the spread of the frame's other faces, as wide apart as their pips
    are to its pip's width: :func:`analyse`)."""
    return 2 * sc.st.half_edge * die.offset / sc.scale


def doubt(die: Die, why: Doubt) -> None:
    """Put ``die`` in doubt (:attr:`Reason.AMBIGUOUS`) for ``why``, unless it has a problem
    already (the first one found is the roll's reason)."""
    if die.problem is None:
        die.problem, die.doubt = Reason.AMBIGUOUS, why


def analyse(img: np.ndarray, die_size: float | None, candidates: list[Candidate],
            st: ReaderSettings = DEFAULT_SETTINGS,
            layouts: FaceLayouts | None = None) -> tuple[Scene, list[Die]]:
    """Pick the working scale (from the calibration or the dice) and read the faces there:
    only around the dice the detector found, when it found any; faces are fitted to the
    ``layouts`` the tray's dice were seen to draw (learnt at calibration) where given, at
    the size of the dice found."""
    h, w = img.shape[:2]
    # the dice's edge as the detector measures it: the yardstick of the layouts' pips
    edge = median_size(candidates) if layouts is not None else None

    def at(s: float, wins: list | None = None) -> Scene:
        sc = scene(img, s, wins, st)
        sc.layouts = layouts
        sc.die_size = edge * s if edge else None
        return sc

    if not die_size and candidates:  # none found flat: as large as the leaning ones
        die_size = median([c.size for c in candidates])
    if not die_size:  # nothing found: no face is read (a face is read on a find only),
        # and the whole frame is looked at small, for a smear over it (verdict)
        return at(min(1.0, st.coarse_side / max(h, w))), []
    s = min(st.max_upscale, st.work_pip / (st.pip_per_edge * die_size))
    sc = at(s, windows_around(candidates, s, img.shape, st))
    return sc, faces(sc)


def _single_ok(sc: Scene, i: int, a: float) -> tuple[bool, np.ndarray, np.ndarray]:
    """Whether lone pip ``i`` sits alone in the middle of a face: (face, inner, outer)."""
    p, st = sc.pips, sc.st
    th = np.linspace(0, 2 * np.pi, _AROUND, endpoint=False)
    pts = []
    for r in (a, math.sqrt(2) * a):  # the grid's edge and corner spots
        pts.append(np.stack([p.x[i] + r * np.cos(th), p.y[i] + r * np.sin(th)], 1))
    inner = np.concatenate(pts)
    contrast = sample(sc.peak_map(bool(p.dark[i])), inner[:, 0], inner[:, 1]).astype(np.float32)
    # the face between the pip and the grid's edge spots, and past its corners
    on_face = np.stack([p.x[i] + st.lone_face * a * np.cos(th),
                        p.y[i] + st.lone_face * a * np.sin(th)], 1)
    beyond = np.stack([p.x[i] + st.face_ends * a * np.cos(th),
                       p.y[i] + st.face_ends * a * np.sin(th)], 1)
    col_in = sample(sc.work, on_face[:, 0], on_face[:, 1])
    col_out = sample(sc.work, beyond[:, 0], beyond[:, 1])
    dist_in = np.sqrt(((col_in - sc.face[i]) ** 2).sum(axis=1))
    dist_out = np.sqrt(((col_out - sc.face[i]) ** 2).sum(axis=1))
    # evenly face-coloured around the pip, and somewhere beyond the corners it ends
    inside = face_tolerance(float(p.peak[i]), st)
    is_face = bool((dist_in <= inside).all() and (dist_out > st.face_ends_colour).any())
    return is_face, contrast, dist_out


def _without_side_faces(sc: Scene, found: list[Die]) -> list[Die]:
    """Drop faces whose pips are clearly more oval than the round pips right beside them.

    Seen at an angle, a die shows its top face and side faces; a side face is
    foreshortened, so its pips look oval where the top face's look round.
    """
    p, st = sc.pips, sc.st
    keep = []
    for die in found:
        own = median(p.elong[die.pips])
        reach = st.reach * 2 * st.half_edge * die.offset
        dist = np.hypot(p.x - die.fit.centre[0], p.y - die.fit.centre[1])
        near = (dist <= reach) & (p.dark == die.dark)
        near[die.pips] = False
        if near.any() and median(p.elong[near]) <= own - st.side_drop_elong:
            continue
        keep.append(die)
    return keep


def faces(sc: Scene) -> list[Die]:
    """The faces the pips make (groups that fit no layout are left to the detector's dice),
    fitted to the scene's layouts."""
    p, st = sc.pips, sc.st
    found: list[Die] = []
    singles: list[int] = []

    def accept(idx: list[int], fit: LayoutFit) -> bool:
        if fit.value == 1:
            return False
        d = p.d[idx]
        if d.max() > st.pip_ratio * d.min():
            return False
        ratio = fit.offset / median(d)
        return (st.offset_per_pip[0] <= ratio <= st.offset_per_pip[1]
                and fit.skew <= st.max_skew
                and of_its_size(sc, fit))

    def side(face: list[int], other: list[int]) -> bool:
        return median(p.elong[other]) >= median(p.elong[face]) + st.side_split_elong

    for members in links(sc):
        if len(members) == 1:
            singles.append(members[0])
            continue
        pts = np.stack([p.x[members], p.y[members]], axis=1)
        fits = fit_or_split(
            pts,
            lambda local, fit, m=members: accept([m[k] for k in local], fit),
            st.half_edge,
            lambda face, other, m=members: side([m[k] for k in face], [m[k] for k in other]),
            sc.fit,
        )
        if fits is None:
            continue
        for local, fit in fits:
            idx = [members[k] for k in local]
            found.append(Die(fit.value, fit, fit.offset, idx, bool(p.dark[idx[0]]), 1.0))
    singles = _centre_pips(sc, found, singles, accept)
    # the spacing of the dice found tells how far from a lone pip its face reaches
    ratios = [die.offset / median(p.d[die.pips]) for die in found]
    # (none read: standard dice's, half their edge half_edge offsets, a pip pip_per_edge of it)
    a_per_d = median(ratios) if ratios else 1 / (2 * st.half_edge * st.pip_per_edge)
    ref_d = median(np.concatenate([p.d[die.pips] for die in found])) if found else None
    found = _without_side_faces(sc, found)
    for i in singles:
        if p.elong[i] > st.lone_max_elong:
            continue
        a = a_per_d * (ref_d if ref_d is not None else float(p.d[i]) / st.lone_pip_larger)
        is_face, contrast, _ = _single_ok(sc, i, a)
        if not is_face:
            continue
        fit = LayoutFit(1, np.array([p.x[i], p.y[i]]), np.eye(2) * a, 0.0)
        die = Die(1, fit, a, [i], bool(p.dark[i]), 1.0)
        if contrast.max() > st.spot_on * p.peak[i]:
            doubt(die, Doubt.LONE_PIP)
        found.append(die)
    return found


def _centre_pips(sc: Scene, found: list[Die], singles: list[int],
                 accept: Callable[[list[int], LayoutFit], bool]) -> list[int]:
    """Take into a face each lone pip (of ``singles``) that lies on it where its pips
    and the pip make one layout together, fitted and vetted (``accept``) as any face is;
    the faces in ``found`` are replaced in place. Returns the pips left alone.

    A lamp's highlight on a glossy face lights the face round its middle pip: the face
    colour there is the face's plus light, and the line from an outer pip crosses it, so
    the middle pip of a 5 (or a 3) is not linked to the others and the face reads as a 4
    (a 2) with a 1 in its middle, both on one find (seen on clean tray views of black and
    translucent dice). Where the pips lie is the evidence colour could not give: a pip
    on a face that completes its layout is on that face."""
    p, st = sc.pips, sc.st
    left = []
    for i in singles:
        at = np.array([[p.x[i], p.y[i]]])
        for k, die in enumerate(found):
            if die.dark != bool(p.dark[i]) or not inside(at, die.fit, st.half_edge)[0]:
                continue
            idx = [*die.pips, i]
            fit = sc.fit(np.stack([p.x[idx], p.y[idx]], axis=1))
            if fit is not None and fit.value == len(idx) and accept(idx, fit):
                found[k] = Die(fit.value, fit, fit.offset, idx, die.dark, 1.0)
                break
        else:
            left.append(i)
    return left


def confirm(sc: Scene, found: list[Die], candidates: list[Candidate],
            frame: tuple[float, float]) -> tuple[list[Die], list[Die], list[Die]]:
    """Keep the faces that lie on a die the detector found; read the dice it found that
    no face was read on; drop faces beside a die (its side faces) or on no die at all.
    ``frame`` is the frame's (w, h).

    Returns (dice, unread, bare): ``unread`` holds a placeholder per die seen but not
    read, ``bare`` one per flat find that shows no pips or that the detector is unsure
    of (a die only if the face classifier reads one).
    """
    s, st = sc.scale, sc.st
    cx = np.array([c.x * s for c in candidates])
    cy = np.array([c.y * s for c in candidates])
    size = np.array([c.size * s for c in candidates])
    pairs = sorted(
        (math.hypot(die.fit.centre[0] - cx[j], die.fit.centre[1] - cy[j]), i, j)
        for i, die in enumerate(found) for j in range(len(candidates))
    )
    match: dict[int, int] = {}
    taken: set[int] = set()
    for dist, i, j in pairs:
        if i in match or j in taken or dist > st.middle * size[j]:
            continue
        match[i] = j
        taken.add(j)
    dice = []
    for i, j in match.items():
        die = found[i]
        attach(die, candidates[j], frame, st)
        dice.append(die)
    unread, bare = [], []
    free = [i for i in range(len(found)) if i not in match]
    for j, cand in enumerate(candidates):
        if j in taken:
            continue
        die = read_candidate(sc, cand)
        whole = _whole_face(sc, cand, die, [found[i] for i in free])
        if whole is not None:
            die = found[free.pop(whole)]
        if not die.value:
            closer = look_closer(sc, cand)
            if closer is not None:
                attach(die, cand, frame, st)
                closer.fallback = (die, is_bare(die, cand, st))
                die = closer
        attach(die, cand, frame, st)
        if die.value:
            dice.append(die)
        elif is_bare(die, cand, st):
            bare.append(die)  # every face shows a pip, and a magnet or a button shows none
        else:
            unread.append(die)  # a die seen but not read
    return _completed(sc, dice, frame), unread, bare


def _completed(sc: Scene, dice: list[Die], frame: tuple[float, float]) -> list[Die]:
    """``dice`` with each die read on a find from some of its pips read again with the
    one more pip that completes its face: a pip of its colour that no die was read from,
    with which its pips make the layout of one value more, of the find's size and centred
    on it (:func:`face_of`, as any face read on a find). The pips looked at lie within an
    edge of the find's centre (:attr:`~dicetray.vision.settings.ReaderSettings.half_edge`
    each way twice): the find lies on the die's top face, so all its pips lie there.

    Seen on clean tray views (black, red and translucent dice): a lamp's highlight between
    a 3's lower pips parts the lowest from the others by face colour, and the detector's
    find lies off the die's centre towards them, so the die was read from the pips nearest
    the find as a 2 of half its size (the lowest beyond the find's reach); and a 2 whose
    pips were not linked was read from one of them as a 1 on a find half-way between
    them. The 1 or 2 and the classifier's 3 (or 2) then disagreed, and a clean roll was
    refused. A neighbour's pip completes no face of this find: a 2 and a pip in line with
    it make a 3 of twice its offset, a 1 and a pip a 2 centred half an edge off the find.
    Faces read by looking closer (their own pips) are left as read."""
    p, st = sc.pips, sc.st
    used = {i for die in dice for i in die.pips}
    out = []
    for die in dice:
        cand = die.found
        if cand is None or die.spots_map is not None or die.fallback is not None:
            out.append(die)
            continue
        centre, a, dist = sc.on_find(cand)
        reach = 2 * st.half_edge * a
        best = None
        for i in np.flatnonzero((p.dark == die.dark) & (dist <= reach)).tolist():
            if i in used:
                continue
            idx = np.array([*die.pips, i])
            grown = face_of(sc, idx, centre, a, die.dark)
            if grown is not None and grown.value == len(idx) and (
                    best is None or grown.fit.residual < best.fit.residual):
                best = grown
        if best is None:
            out.append(die)
            continue
        used.update(best.pips)
        attach(best, cand, frame, st)
        out.append(best)
    return out


def _whole_face(sc: Scene, cand: Candidate, die: Die, faces_left: list[Die]) -> int | None:
    """Which of the faces matched to no find (``faces_left``) is the whole of ``die``'s
    face, the find ``cand`` read from the pips nearest its centre: a face holding every
    pip the find was read from, and more, whose centre lies on the find's top face (within
    half an edge of its centre) though not in its middle. A find on a die of little
    contrast may lie that far off (seen: a black 2 on dark felt found 0.43 of an edge
    towards one pip, and read from that pip as a 1). None: no such face, or more than one."""
    if not die.value:
        return None
    centre, a, _ = sc.on_find(cand)
    hits = [k for k, face in enumerate(faces_left)
            if len(face.pips) > len(die.pips) and set(die.pips) <= set(face.pips)
            and math.hypot(*(face.fit.centre - centre)) <= sc.st.half_edge * a]
    return hits[0] if len(hits) == 1 else None


def of_its_size(sc: Scene, fit: LayoutFit) -> bool:
    """Whether a face fitted to a layout the tray's dice were seen to draw is as large as
    the dice found (:attr:`~dicetray.vision.pipscene.Scene.die_size`), within
    :attr:`~dicetray.vision.settings.ReaderSettings.like_size`: a tray's dice draw each
    face at one size, so two pips of a 3 fitted as a 2 of half its size are no face of
    them. (The dice found, not the die's own find: the detector's edge for one die may be
    a fifth off.) A face of the fixed layouts always is: their spread is the dice's design
    (a 2's pips may sit towards the centre), unknown without a calibration; and so is one
    of a layout learnt from fewer than :attr:`~dicetray.vision.settings.ReaderSettings.refs`
    dice: one die's find a third too large draws the layout a third too small."""
    if (not fit.learnt or sc.layouts is None or sc.die_size is None
            or sc.layouts.dice(fit.value) < sc.st.refs):
        return True
    ratio = fit.offset / (sc.layouts.unit * sc.die_size)
    return 1 / sc.st.like_size <= ratio <= sc.st.like_size


def is_bare(die: Die, cand: Candidate, st: ReaderSettings) -> bool:
    """Whether an unread find is bare: flat, with no pips seen on it (or only faintly
    found), rather than a die seen but not read."""
    return cand.kind == "flat" and not (die.pips and cand.score >= st.sure_find)


def look_closer(sc: Scene, cand: Candidate) -> Die | None:
    """A find whose face the pips could not read, read again from the pips found looking
    closer at its top face (every colour channel, pips cut out of larger blobs as at first:
    a red pip on a blue face, pips run together with a marbled face's marks; on a find the detector
    is sure of, the opponent channels too: red pips joined by a face's light swirl), or
    None. The pips it reads from join the scene's; its grid is checked on the channel
    they stand out in (:func:`_best_plane`), where the scene's maps may not show them."""
    s, st = sc.scale, sc.st
    centre, a, _ = sc.on_find(cand)
    r = st.patch * cand.size * s
    h, w = sc.work.shape[:2]
    x0, y0 = max(0, math.floor(centre[0] - r)), max(0, math.floor(centre[1] - r))
    x1, y1 = min(w, math.ceil(centre[0] + r)), min(h, math.ceil(centre[1] + r))
    if min(x1 - x0, y1 - y0) < st.kernel_side:
        return None
    pips, face, maps = face_pips(sc.work[y0:y1, x0:x1], st.kernel_side, st,
                                 closer=True, hue=cand.score >= st.sure_find)
    pips = pips.shifted(x0, y0)
    old = sc.pips
    near = np.hypot(pips.x - centre[0], pips.y - centre[1]) <= st.find_reach * st.half_edge * a
    new = pips.apart_from(old) & near
    if not new.any():
        return None
    sc.pips = Pips.join([old, pips.take(new)])
    sc.face = np.concatenate([sc.face, face[new]])
    die = read_candidate(sc, cand)
    if not die.value:
        sc.pips, sc.face = old, sc.face[:len(old)]
        return None
    if die.value > 1:
        die.spots_map = (_best_plane(maps, sc.pips.take(np.array(die.pips)), x0, y0, st), x0, y0)
    return die


def _best_plane(maps: PipMaps, pips: Pips, x0: int, y0: int, st: ReaderSettings) -> np.ndarray:
    """The contrast map of a window (its ``maps``, with each plane's own kept: the colour
    channels, their extremes and, on a sure find, the opponent channels) in which a face's
    ``pips`` (working px) stand out best, either polarity, widened as the scene's maps
    are (see :func:`dicetray.vision.pipscene.scene`)."""
    at = pixels(maps.dark.shape, pips.x - x0, pips.y - y0)
    best, strength = None, -1.0
    for plane in maps.planes:
        for m in plane:
            weakest = float(m[at].min())
            if weakest > strength:
                best, strength = m, weakest
    assert best is not None
    return widened(best, median(pips.d), st)


def attach(die: Die, cand: Candidate, frame: tuple[float, float], st: ReaderSettings) -> None:
    """Link a die to the detector's find, and mark a find that leans or moves, or whose
    face's centre lies near the ``frame`` (w, h) border
    (:attr:`~dicetray.vision.settings.ReaderSettings.cut_die`): a die cut by it (the pips
    read may be all on the part inside)."""
    die.found = cand
    if cand.kind == "cocked":
        die.problem = Reason.COCKED
    elif cand.kind == "moving":
        die.problem = Reason.BLUR
    if cut(cand, frame, st.cut_die):
        die.problem = Reason.EDGE


def unread_at(sc: Scene, cand: Candidate, problem: Reason | None, detail: str) -> Die:
    """A die seen at a find but not read (value 0), with its ``problem`` and reason."""
    centre, a, _ = sc.on_find(cand)
    die = Die(0, LayoutFit(1, centre, np.eye(2) * a, 0.0), a, [], True, 0.0, problem, detail)
    die.found = cand
    return die


def read_candidate(sc: Scene, cand: Candidate) -> Die:
    """Read a die the detector found from the pips on its face (value 0: unreadable): the
    face the most pips nearest its centre make, of the polarity most of the pips near it
    have, or of the other when that takes in more pips (one pip found in two channels,
    light in one and dark in the other)."""
    p, st = sc.pips, sc.st
    centre, a, dist = sc.on_find(cand)
    near = np.flatnonzero(dist <= st.find_reach * st.half_edge * a)
    if len(near):
        majority = bool(2 * np.count_nonzero(p.dark[near]) >= len(near))  # half or more dark
        # each polarity's pips near the find, nearest its centre first
        nearest = {dark: near[p.dark[near] == dark] for dark in (True, False)}
        nearest = {dark: own[np.argsort(dist[own])] for dark, own in nearest.items()}
        for dark in (majority, not majority):
            own = nearest[dark]
            die = _nearest_face(sc, own, centre, a, dark)
            if die is not None and dark == majority:
                # looked at closer, one pip can be found twice: a white pip on a red face
                # is light in the colour channels and dark in the red-green opponent one;
                # the other polarity's face is read when it takes in more pips
                return _nearest_face(sc, nearest[not dark], centre, a, not dark,
                                     len(die.pips)) or die
            if die is not None:
                return die
            # at a slant a side face's pip can lie nearer the centre than the face's own:
            # try leaving out any pips, the most pips and the nearest first
            for idx in _subsets(own[:st.subset_pips], dist):
                die = face_of(sc, idx, centre, a, dark)
                if die is not None:
                    return die
    unread = unread_at(sc, cand, Reason.AMBIGUOUS, "die at {where} shows no face that can be read")
    unread.pips = near.tolist()
    return unread


def _nearest_face(sc: Scene, own: np.ndarray, centre: np.ndarray, a: float, dark: bool,
                  more_than: int = 0) -> Die | None:
    """The face the most of ``own`` (pips of one polarity, nearest the centre first)
    make, taken nearest first, of more than ``more_than`` pips: the face's own pips lie
    nearest its centre, side faces' and neighbours' further out."""
    for k in range(min(_MOST_PIPS, len(own)), more_than, -1):
        die = face_of(sc, own[:k], centre, a, dark)
        if die is not None:
            return die
    return None


def _subsets(pips: np.ndarray, dist: np.ndarray) -> Iterator[np.ndarray]:
    """Subsets of two or more of ``pips`` (at most six) other than the nearest-k ones,
    largest first, then nearest the centre (``dist``); each size's made only once the
    larger ones are all tried (the first that makes a face ends the search).

    >>> dist = np.array([0, 0, 0, 0, 1, 0, 0, 2, 0, 3.0])  # pips 4, 7 and 9 at 1, 2 and 3
    >>> [s.tolist() for s in _subsets(np.array([4, 7, 9]), dist)]
    [[4, 9], [7, 9]]
    """
    for k in range(min(_MOST_PIPS, len(pips)), 1, -1):
        combos = [c for c in itertools.combinations(range(len(pips)), k) if c != tuple(range(k))]
        combos.sort(key=lambda c: sum(float(dist[pips[i]]) for i in c))
        for c in combos:
            yield pips[list(c)]


def face_of(sc: Scene, idx: np.ndarray, centre: np.ndarray, a: float, dark: bool,
            beside: float | None = None) -> Die | None:
    """The face that pips ``idx`` make on a die centred at ``centre`` (pip offset ``a``),
    its fit within ``beside`` pip offsets of it (None: the settings')."""
    p, st = sc.pips, sc.st
    beside = st.beside if beside is None else beside
    d = p.d[idx]
    if (d.max() > st.pip_ratio * d.min()
            or not (st.pip_per_offset[0] * a <= median(d) <= st.pip_per_offset[1] * a)):
        return None
    if len(idx) == 1:
        i = int(idx[0])
        if math.hypot(p.x[i] - centre[0], p.y[i] - centre[1]) > st.centred * a:
            return None
        # a 1 says the rest of its face is blank: another pip of its colour well inside
        # the face (a side face's lie past its edge) says otherwise
        others = (p.dark == dark) & (np.hypot(p.x - p.x[i], p.y - p.y[i]) <= st.lone * a)
        others[i] = False
        if others.any():
            return None
        return Die(1, LayoutFit(1, np.array([p.x[i], p.y[i]]), np.eye(2) * a, 0.0), a, [i],
                   dark, 1.0)
    fit = sc.fit(np.stack([p.x[idx], p.y[idx]], axis=1))
    if (fit is None or not st.offset_band[0] <= fit.offset / a <= st.offset_band[1]
            or not of_its_size(sc, fit)
            or math.hypot(*(fit.centre - centre)) > beside * a):
        return None
    return Die(fit.value, fit, fit.offset, idx.tolist(), dark, 1.0)


def read_as(sc: Scene, die: Die, value: int) -> Die | None:
    """``die`` read again as ``value`` from its find's top face alone: when exactly that
    many pips of its colour lie within a half edge of the find's centre and they make
    that face, else None. (Seen at a slant, a die's side face shows pips just past its
    top face's edge, which the pips' own reading may have taken in.)"""
    cand = die.found
    if cand is None:
        return None
    centre, a, dist = sc.on_find(cand)
    own = np.flatnonzero((sc.pips.dark == die.dark) & (dist <= sc.st.half_edge * a))
    if len(own) != value:
        return None
    face = face_of(sc, own[np.argsort(dist[own])], centre, a, die.dark)
    return face if face is not None and face.value == value else None


def read_apart(sc: Scene, die: Die, value: int) -> Die | None:
    """``die`` read again as ``value`` from pips that make that face with the others off
    it, or None: of its own pips and those of its colour within an edge of its find's
    centre (``half_edge`` each way twice, as :func:`_completed` looks; the nearest
    ``subset_pips`` in all), the ``value`` that fit that face closest, centred on the
    find's top face (within its half edge, as :func:`_whole_face` asks), while every one
    left out lies off both the find and that face (past either's half edge). Where the
    detector centred a find off a die's top face (towards a side face whose pips the
    reading took in, or towards one pip of a 2 at a slant) or sized it short, the top
    face's far pips lie further from the find's centre than a half edge (:func:`read_as`
    finds too few there), and a side face's lie past the top face's edge; a face's own
    pips, as a 6's third row, lie on the find. (Asked for the classifier's value: a
    face taken so is one both opinions read. Seen on clean tray views of red, blue
    and translucent dice: a 2's find a quarter of an edge off towards one pip and an
    eighth short, its other pip past ``find_reach``, the 2 centred 0.9 pip offsets off
    the find, past ``beside``; the pips read a 1 and the classifier's 2 refused the
    roll.)"""
    cand = die.found
    if cand is None:
        return None
    p, st = sc.pips, sc.st
    centre, a, dist = sc.on_find(cand)
    own = p.dark == die.dark
    on_find = np.flatnonzero(own & (dist <= st.half_edge * a))
    near = np.flatnonzero(own & (dist <= 2 * st.half_edge * a))
    pool = np.union1d(np.asarray(die.pips, np.intp), near)
    pool = pool[np.argsort(dist[pool], kind="stable")][:st.subset_pips]
    if not np.isin(on_find, pool).all():
        return None
    best = None
    for chosen in itertools.combinations(range(len(pool)), value):
        rest = np.delete(pool, list(chosen))
        if np.isin(rest, on_find).any():
            continue
        face = face_of(sc, pool[list(chosen)], centre, a, die.dark, beside=st.half_edge)
        if (face is None or face.value != value
                or (best is not None and best.fit.residual <= face.fit.residual)):
            continue
        if not inside(np.stack([p.x[rest], p.y[rest]], axis=1), face.fit, st.half_edge).any():
            best = face
    return best


def take(die: Die, face: Die, sure: float) -> None:
    """Read ``die`` as ``face`` (its top face read again), as sure as the classifier is."""
    die.value, die.fit, die.offset, die.pips = face.value, face.fit, face.offset, face.pips
    die.confidence = min(face.confidence, sure)
