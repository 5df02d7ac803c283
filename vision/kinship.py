"""Stage 3b, kinship: the dice of a game come as a set, so a find is weighed by how like
the dice read in the frame it is (its body colour, size and shape). A faint find like
them is one of them (smoky dice whose pips hardly show); a key, a plug, a label, a clip
on the tray's rim or a knot in the wood is unlike every die read.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable

import cv2
import numpy as np

from dicetray.vision.classifier import CLASSES
from dicetray.vision.detector import Candidate
from dicetray.vision.measure import (
    along_edge,
    body,
    colour_distances,
    colour_gap,
    cut,
    median,
    median_colour,
    near,
    patch_roundness,
    reaches_past,
    surround,
)
from dicetray.vision.pipfaces import Die
from dicetray.vision.pips import Pips
from dicetray.vision.pipscene import Scene, pips_around
from dicetray.vision.reading import Reason
from dicetray.vision.settings import ReaderSettings

__all__ = ["alone", "could_be_kin", "cut_off_die", "cut_off_dim", "cut_off_kin", "look_alike",
           "odd_one_out", "set_apart"]

_NONE = CLASSES.index("none")


def look_alike(img: np.ndarray, dropped: list[Die], known: list[Die], unread: list[Die],
               seen: dict[int, np.ndarray], finds: list, st: ReaderSettings, *,
               read: bool = False) -> list[Die]:
    """The finds the classifier did not read (``dropped``: bare ones, or ones the detector
    found only faintly) that look like a die read in the frame (``known``;
    ``look_alike``), are about as large as the other ``finds`` (``like_size``), die-shaped
    (``alike_round``) and a die to the classifier (``alike_none``), and are no die
    already shown (``known``, ``unread``) found twice: each shown in doubt with the value
    the classifier finds likeliest. With ``read``,
    the dropped finds hold a value the pips read, which they keep: a die to the
    classifier is then one whose value it finds likelier than no die, and its patch need
    not be die-shaped (the pip says it shows a face).
    """
    measured = _measured(img, known, unread, finds, st) if dropped else None
    if measured is None:
        return []
    bodies, shown, mid = measured
    out: list[Die] = []
    for die in sorted(dropped, key=lambda d: d.found.score if d.found else 0.0, reverse=True):
        cand, p = die.found, seen[id(die)]
        assert cand is not None
        not_die = (float(p[_NONE]) >= float(p[die.value]) if read
                   else float(p[_NONE]) > st.alike_none)
        # a pip read on it is a face: its patch need not be die-shaped (beside a tray's
        # rim or a table's edge a die's patch runs one way, and a die dropped so leaves the
        # answer a die short)
        if not_die or not _kin(img, cand, bodies, shown, mid, st, shaped=not read):
            continue
        shown.append(cand)
        if read:
            die.confidence = min(die.confidence, float(p[die.value]))
        else:
            die.value = 1 + int(np.argmax(p[1:7]))
            die.confidence = float(p[die.value])
        die.problem = Reason.AMBIGUOUS
        die.detail = f"die at {{where}} is found faintly and read unsurely as a {die.value}"
        out.append(die)
    return out


def could_be_kin(img: np.ndarray, finds: list, known: list[Die], unread: list[Die],
                 every: list, st: ReaderSettings) -> list:
    """The ``finds`` that :func:`look_alike` could show, whatever the classifier reads
    there: about as large as ``every`` find, die-shaped, like a die read (``known``) in
    colour, and no die already shown (``known``, ``unread``) found twice. (The classifier
    is asked only about these.)"""
    measured = _measured(img, known, unread, every, st) if finds else None
    if measured is None:
        return []
    bodies, shown, mid = measured
    return [c for c in finds if _kin(img, c, bodies, shown, mid, st)]


def cut_off_kin(img: np.ndarray, cand: Candidate, dice: list[Die],
                st: ReaderSettings) -> bool:
    """Whether a find centred beyond the frame's edge (more of it outside than in) is like
    a die the pips read cleanly (``dice``) in body colour (``look_alike``), measured on
    the part inside the frame: a die mostly cut off. Its sliver shows no pips and the
    classifier, which never learnt cut dice, calls it no die; a thing on the table the
    frame cuts, a key or a cable, is unlike the dice."""
    h, w = img.shape[:2]
    if not cut(cand, (float(w), float(h)), 0.0):
        return False
    bodies = _clean_bodies(img, dice, st)
    if not len(bodies):
        return False
    return colour_gap(body(img, cand, st.middle), bodies) <= st.look_alike


def cut_off_die(img: np.ndarray, cand: Candidate, dice: list[Die], sc: Scene, *,
                plain_floor: bool = True) -> bool:
    """Whether a find the frame cuts (its box reaches past the edge) may be a die partly
    out of view: it stands alone on a plain floor (:func:`alone`, weighed against the
    colours of the dice read cleanly; only with ``plain_floor``), or it shows a pip like
    the dice's (:func:`_marked`). A die half out of the frame or more is found only
    faintly, or found with no face read, and left out it would leave the roll answered a
    die short. A pip like the dice's outweighs whatever else a find centred beyond the
    frame's edge was left out for (its sliver's colour and shape); standing alone does not
    (a dark thing alone among white dice is set apart by its colour)."""
    h, w = img.shape[:2]
    if not reaches_past(cand, (float(w), float(h))):
        return False
    return ((plain_floor and alone(img, cand, sc.st, _clean_bodies(img, dice, sc.st)))
            or _marked(img, cand, dice, sc))


def cut_off_dim(img: np.ndarray, dim: list[Candidate], dice: list[Die], shown: list[Candidate],
                st: ReaderSettings) -> list[Candidate]:
    """Where a die lies that the frame cuts so far that the detector hardly sees it, or
    sees only its sliver, away from every find ``shown`` (``streak``): a patch of the
    dice's colour the edge cuts (:func:`_dice_coloured`) with one of the ``dim`` finds
    (scored under ``faint_find``, or centred beyond the frame's edge and left out by the
    rules for whole dice) whose box reaches past the edge beside it, standing
    for it; or, where the detector scores nothing there, the patch itself when its middle
    lies within half the dice's median size of the edge (a find of that size there). A die a
    third inside the frame shows a strip of its body and a pip or two; the detector,
    which learnt whole dice, scores it 0.03-0.5, and one a fifth inside at times not at
    all. What else the frame cuts (a laptop's keys, cables, the table's grain, a tray's
    rim) is unlike the dice, or runs on along the edge, or runs deeper than a die; the
    pale table between two dark things the frame cuts is the dice's floor.
    """
    h, w = img.shape[:2]
    frame = (float(w), float(h))
    clean = [d.found for d in _clean(dice) if d.found is not None]
    if not clean:
        return []
    loose = [c for c in dim if reaches_past(c, frame) and not near(c, shown, st.streak)]
    size = statistics.median(c.size for c in clean)
    others = [*(d.found for d in dice if d.found is not None), *shown]
    patches = _dice_coloured(img, _alone(clean, others, st), _clean_bodies(img, dice, st),
                             size, st)
    out: list[Candidate] = []
    for c in sorted(loose, key=lambda c: -c.score):
        if (any(math.hypot(c.x - x, c.y - y) <= st.patch * size for x, y in patches)
                and not near(c, out, st.streak)):
            out.append(c)
    for x, y in patches:
        c = Candidate(x, y, size, 0.0, "flat")
        if reaches_past(c, frame) and not near(c, [*shown, *out], st.streak):
            out.append(c)
    return out


def _alone(clean: list[Candidate], others: list[Candidate],
           st: ReaderSettings) -> list[Candidate]:
    """The ``clean`` finds whose floor ring (``alone_ring`` to half an edge past it) holds
    none of the ``others``' boxes: their rings show the floor. A die lying against another
    rings the other's body too, and takes it into its floor's colour (nell-byler's green 5
    beside a green 4, whose ring's lightness fell from the floor's 181-190 to 170, nearer
    an ivory die than the ivory's own body; docs/benchmarks.md, "A die's floor sampled
    only where no other die lies"). All of them where none is alone.

    >>> st = ReaderSettings()
    >>> a, b, c = (Candidate(x, 50, 20.0, 0.9, "flat") for x in (50, 70, 200))
    >>> [round(f.x) for f in _alone([a, b, c], [a, b, c], st)]
    [200]
    """
    def apart(c: Candidate, o: Candidate) -> bool:
        reach = (st.alone_ring + 0.5) * c.size + o.size / 2
        return abs(c.x - o.x) >= reach or abs(c.y - o.y) >= reach

    alone = [c for c in clean if all(o == c or apart(c, o) for o in others)]
    return alone or clean


def _dice_coloured(img: np.ndarray, floored: list[Candidate], bodies: np.ndarray, size: float,
                   st: ReaderSettings) -> list[tuple[float, float]]:
    """The middles (frame px) of the patches of the dice's colour that one of the frame's
    edges cuts along at least ``blob_along`` of a die's edge (``size``) and at most
    ``blob_outline`` of it, no deeper than its diagonal, and that end there as a die does
    (beside them along the edge, half a die each way, the floor and not their colour, or
    a thing of their colour deeper than a die: a wall the die lies against).
    Looked for in the strips along the frame's edges a die's diagonal deep, each shrunk to
    ``blob_side`` px a die: the pixels nearer one of the clean dice's body colours
    (``bodies``, one a row) than any floor (the ring :func:`alone` looks at, around each
    of the ``floored`` finds), and more than ``plain_gap`` from every floor.

    >>> st = ReaderSettings()
    >>> img = np.full((200, 300, 3), 60, np.uint8)
    >>> img[90:130, 130:170] = 230; img[180:, 30:70] = 230  # a die; a white strip at the foot
    >>> die = Candidate(150, 110, 40.0, 0.9, "flat")
    >>> _dice_coloured(img, [die], np.array([body(img, die, st.middle)]), 40.0, st)
    [(49.5, 189.5)]
    >>> img[100:, 230:270] = 230  # a white strip a die wide, 2.5 dice deep: no die
    >>> _dice_coloured(img, [die], np.array([body(img, die, st.middle)]), 40.0, st)
    [(49.5, 189.5)]
    >>> img[100:, 230:270] = 60; img[180:, 30:70] = 60  # the strip gone; the die cut at
    >>> img[180:, 100:140] = 230  # the foot lies between two things that run deep
    >>> img[135:, 60:96] = img[135:, 144:180] = 230  # into the frame, each beside it
    >>> _dice_coloured(img, [die], np.array([body(img, die, st.middle)]), 40.0, st)
    [(119.5, 189.5)]
    """
    floors = [surround(img, c, st.alone_ring, st.alone_ring + 0.5)[0] for c in floored]
    rings = np.array([median_colour(r) for r in floors if len(r)], np.float32)
    if not len(rings):
        return []
    k = st.blob_side / size
    # a die cut by a straight edge shows at most its diagonal, along the edge and into
    # the frame; a patch one px deeper than that is no die's
    deep = math.ceil(math.sqrt(2) * st.blob_side) + 1
    out = []
    for edge in range(4):  # the strips along the top, bottom, left and right, edge first
        small, to_frame = _strip(img, edge, max(1, math.ceil(deep / k)), k)
        for x, y in _patches(cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32),
                             rings, bodies, st):
            out.append(to_frame(x, y))
    return sorted(out)


def _strip(img: np.ndarray, edge: int, depth: int, k: float
           ) -> tuple[np.ndarray, Callable[[float, float], tuple[float, float]]]:
    """The strip of ``img`` ``depth`` px deep along its top, bottom, left or right edge
    (``edge`` 0-3), shrunk by ``k`` (``INTER_AREA``) and turned so that the edge is its
    first row, running left to right or top to bottom; and the mapping of a point (along,
    into; px of the shrunk strip) in it back to the frame. The strip is shrunk where it
    lies and turned after: area shrinking commutes with turning, so this is the turned
    strip shrunk to the bit, without copying the strips along the sides to turn them.

    >>> img = np.zeros((40, 60, 3), np.uint8); img[30:, 50:] = 200
    >>> small, to_frame = _strip(img, 3, 10, 0.5)  # the right edge, 10 px deep: 5 shrunk
    >>> small.shape, to_frame(17.5, 0.5), int(small[0, 17, 0]), int(small[0, 0, 0])
    ((5, 20, 3), (57.5, 35.5), 200, 0)
    """
    h, w = img.shape[:2]
    d = min(depth, h if edge < 2 else w)
    part = (img[:d], img[h - d:], img[:, :d], img[:, w - d:])[edge]
    rows, cols = part.shape[:2]
    small = cv2.resize(part, (max(1, round(cols * k)), max(1, round(rows * k))),
                       interpolation=cv2.INTER_AREA)
    if edge == 1:
        small = small[::-1]
    elif edge == 2:
        small = small.transpose(1, 0, 2)
    elif edge == 3:
        small = small[:, ::-1].transpose(1, 0, 2)
    # each shrunk px stands for the frame's px about its middle
    along, into = (cols, rows) if edge < 2 else (rows, cols)
    sa, si = along / small.shape[1], into / small.shape[0]

    def to_frame(a: float, i: float) -> tuple[float, float]:
        a, i = (a + 0.5) * sa - 0.5, (i + 0.5) * si - 0.5
        return ((a, i), (a, h - 1 - i), (i, a), (w - 1 - i, a))[edge]

    return np.ascontiguousarray(small), to_frame


def _patches(lab: np.ndarray, rings: np.ndarray, bodies: np.ndarray,
             st: ReaderSettings) -> list[tuple[float, float]]:
    """The middles (px of ``lab``, a strip along the frame's edge turned so that the edge
    is its first row: :func:`_strip`) of the patches of the dice's colour that the edge
    cuts, as :func:`_dice_coloured` looks for them."""
    to_floor = colour_distances(lab, rings)
    # the dice's colours are measured only where the floors are far: each pixel's
    # distances are its own, so the mask is the same, at about half the cost
    apart = to_floor > st.plain_gap
    mask = np.zeros(apart.shape, np.uint8)
    mask[apart] = colour_distances(lab[apart], bodies) < to_floor[apart]
    n, labels, boxes, middles = cv2.connectedComponentsWithStats(mask, connectivity=8)
    rows, cols = mask.shape
    reach = round(st.blob_side / 2)
    # the patches as deep as the strip: things that run into the frame deeper than a die
    # (a tray's wall, a rim the edge cuts across), none of a die's
    deep = boxes[:, 1] + boxes[:, 3] == rows
    deep[0] = False  # (the background)
    out = []
    for i in range(1, n):
        x0, y0, bw, bh = (int(v) for v in boxes[i, :4])
        # on the edge, at neither of the strip's ends (another edge of the frame: a corner)
        # and not as deep as the strip
        if y0 != 0 or x0 == 0 or x0 + bw == cols or y0 + bh == rows:
            continue
        along = np.flatnonzero(labels[0] == i)
        # as long as a third of a die and no longer than a die's outline (seen at a slant,
        # its side faces show too): a die cut anywhere by a straight edge
        if not st.blob_along * st.blob_side <= len(along) <= st.blob_outline * st.blob_side:
            continue
        # beside it along the edge, half a die each way, the floor and not its colour: it
        # ends as a die does (a larger thing of a colour between the dice's and the
        # floor's, split into pieces by the frame's noise, runs on). A thing beside it that
        # runs deeper than a die is another thing, not more of it: a die lying against
        # the tray's wall, the wall's shadow as dark as the dice
        first, last = int(along[0]), int(along[-1]) + 1
        side = np.r_[max(0, first - reach):first, last:min(cols, last + reach)]
        beside = lab[0, side[~deep[labels[0, side]]]]
        own = np.median(lab[labels == i], axis=0)
        if _ends(beside, own, rings[np.argmin(np.linalg.norm(rings - own, axis=1))]):
            out.append((float(middles[i, 0]), float(middles[i, 1])))
    return out


def alone(img: np.ndarray, cand: Candidate, st: ReaderSettings,
          kin: np.ndarray | None = None) -> bool:
    """Whether a find stands alone on a plain floor, as a die does and the things the
    frame cuts on the shared photos do not: the square ring around it (from
    ``alone_ring`` of its edge from its centre to half an edge further) is of one colour
    (``alone_plain`` of its pixels within ``plain_gap`` of their median), at least
    ``alone_inside`` of that ring lies inside the frame, and the find's middle stands
    out of it (its colour more than ``alone_apart`` away). A laptop's keys lie among
    other keys, a cable runs on, a label or a box is larger than a die; a die whose pips
    lie beyond the edge, or that is unlike the dice read, is still a thing alone.

    A find whose middle is nearer the colour of one of the dice read (``kin``: their
    body colours, one a row) than the floor's, and no part of the floor (farther than
    ``kin_plain_gap``), is one of the dice on a floor less plain: the ring within
    ``kin_plain_gap`` (a die's own shadow on the floor). Centred beyond the frame's edge
    (more of it out of view than in), it needs no plain floor, only to end as a die does:
    along the frame's edge beside it (the ring's span) most pixels are nearer the
    floor's colour than its own. A die read beside it, or a soft shadow, falls in its
    ring; a label or a tray's rim the frame cuts runs on along the edge. A blue die on
    dark felt is nearer the blue dice than the felt, though not ``alone_apart`` from it;
    the grain of a table the frame cuts is nearer the table.

    >>> st = ReaderSettings()
    >>> img = np.full((100, 200, 3), 200, np.uint8); img[80:, 80:120] = 30  # cut at the foot
    >>> alone(img, Candidate(100, 100, 40.0, 0.3, "flat"), st)
    True
    >>> img[80:, 30:70] = img[80:, 130:170] = 30  # others beside it: a row of keys
    >>> alone(img, Candidate(100, 100, 40.0, 0.3, "flat"), st)
    False
    """
    ring, inside = surround(img, cand, st.alone_ring, st.alone_ring + 0.5)
    if inside < st.alone_inside:
        return False
    floor = median_colour(ring)
    gaps = colour_distances(ring, floor[None])
    middle = body(img, cand, st.middle)
    apart = float(np.linalg.norm(middle - floor))
    if float((gaps <= st.plain_gap).mean()) >= st.alone_plain and apart > st.alone_apart:
        return True
    if kin is None or len(kin) == 0 or apart <= st.kin_plain_gap or (
            colour_gap(middle, kin) >= apart):
        return False
    if float((gaps <= st.kin_plain_gap).mean()) >= st.alone_plain:
        return True
    # (empty where it is centred inside the frame: nothing beside it along the edge)
    return _ends(along_edge(img, cand, st.alone_ring, st.alone_ring + 0.5), middle, floor)


def _ends(beside: np.ndarray, own: np.ndarray, floor: np.ndarray) -> bool:
    """Whether a thing the frame's edge cuts, of colour ``own``, ends there as a die does:
    most of the edge's pixels ``beside`` it (colours, one a row; none: False) are nearer
    the ``floor``'s colour than its own. A strip of paper, a label, a tray's rim runs on.

    >>> floor, own = np.array([60.0, 128, 128]), np.array([230.0, 128, 128])
    >>> _ends(np.array([[62.0, 128, 128], [58, 128, 128], [200, 128, 128]]), own, floor)
    True
    >>> _ends(np.array([[220.0, 128, 128], [200, 128, 128], [58, 128, 128]]), own, floor)
    False
    """
    if not len(beside):
        return False
    runs_on = np.linalg.norm(beside - own, axis=1) < np.linalg.norm(beside - floor, axis=1)
    return float(runs_on.mean()) < 0.5


def _marked(img: np.ndarray, cand: Candidate, dice: list[Die], sc: Scene) -> bool:
    """Whether a find shows, on its part inside the frame
    (:func:`~dicetray.vision.pipscene.pips_around`), a pip like those of a die the pips
    read cleanly (``dice``): of its marks' polarity, about its pips' size (``pip_ratio``),
    on a face of its body colour (``look_alike``, measured around the pip). A die half
    out of the frame still shows a pip of its top face, often; the pale things the frame
    cuts on the shared photos (a laptop's key, a sheet of paper, the table by a cable)
    show none. A pip the frame's edge cuts in two is looked for too, made whole in the
    frame's mirror image; half its ring is then the mirror of the other half, so its face
    must be nearer the body's colour (half ``look_alike``): a label's print the edge cuts
    comes out round too. Where the dice read are of many colours (:func:`_many_colours`),
    a die's colour says nothing of another's, and the pip is weighed alone: a black die
    cut by the frame beside a red one and a green one."""
    st = sc.st
    kin = [d for d in _clean(dice) if d.pips]
    if not kin:
        return False
    # each die's polarity, pip size and body colour, measured once for both looks
    looks = []
    for die in kin:
        assert die.found is not None
        looks.append((die.dark, median(sc.pips.d[die.pips]), body(img, die.found, st.middle)))
    bounds = ((False, st.look_alike), (True, st.look_alike / 2))
    if _many_colours([colour for *_, colour in looks], st.look_alike):
        bounds = ((False, math.inf), (True, math.inf))
    return any(_pip_like(*pips_around(img, cand, sc, mirrored), looks, st.pip_ratio, alike)
               for mirrored, alike in bounds)


def _pip_like(pips: Pips, face: np.ndarray, looks: list[tuple[bool, float, np.ndarray]],
              pip_ratio: float, alike: float) -> bool:
    """Whether one of ``pips`` (on faces of colour ``face``, BGR) is like the pips of one
    of the dice whose ``looks`` are given (polarity, pip size, body colour in CIELAB): of
    its polarity, within ``pip_ratio`` of its pips' size, its face within ``alike`` of its
    body colour."""
    if len(pips) == 0:
        return False
    faces = cv2.cvtColor(face.clip(0, 255).astype(np.uint8)[None], cv2.COLOR_BGR2LAB)[0]
    for dark, size, colour in looks:
        ratio = np.maximum(pips.d, size) / np.minimum(pips.d, size)
        gap = np.linalg.norm(faces - colour, axis=1)
        if ((pips.dark == dark) & (ratio <= pip_ratio) & (gap <= alike)).any():
            return True
    return False


def _many_colours(colours: list[np.ndarray], alike: float) -> bool:
    """Whether dice of ``colours`` (CIELAB) are of many colours: no colour (all within
    ``alike`` of one die's) is shared by more than half of them, or two of them or more
    lie apart from the commonest. One thing read as a die among dice of one colour (a
    grey key among white dice) does not make them many: judged so (any two apart),
    matteop65's Train three_37 at 1280x960 was refused for a label the frame cuts.
    Dice of many colours have no one look a find could be compared with
    (:func:`set_apart`, :func:`cut_off_die`).

    >>> white, red, green = (np.array(c, float) for c in ([250, 128, 128], [130, 190, 160],
    ...                                                      [150, 80, 160]))
    >>> _many_colours([white, red], 45), _many_colours([white] * 4 + [red], 45)
    (True, False)
    >>> _many_colours([white] * 4 + [red, green], 45), _many_colours([white], 45)
    (True, False)
    """
    gaps = np.linalg.norm(np.array(colours)[:, None] - np.array(colours)[None], axis=2)
    commonest = int((gaps <= alike).sum(axis=1).max())
    return 2 * commonest <= len(colours) or len(colours) - commonest >= 2


def _clean(dice: list[Die]) -> list[Die]:
    """The dice the pips read cleanly, each on a find: what the set looks like."""
    return [d for d in dice if d.value and not d.problem and d.found is not None]


def _clean_bodies(img: np.ndarray, dice: list[Die], st: ReaderSettings) -> np.ndarray:
    """The body colours (:func:`~dicetray.vision.measure.body`, one a row) of the dice
    the pips read cleanly (:func:`_clean`); an empty array when there are none."""
    return np.array([body(img, d.found, st.middle) for d in _clean(dice)
                     if d.found is not None]).reshape(-1, 3)


def _measured(img: np.ndarray, known: list[Die], unread: list[Die], every: list,
              st: ReaderSettings) -> tuple[np.ndarray, list, float] | None:
    """What a find is weighed against: the body colours of the dice read (``known``),
    the finds shown (``known``, ``unread``) and the median size of ``every`` find; None
    when no die was read."""
    kin = [d.found for d in known if d.found is not None]
    if not kin:
        return None
    bodies = np.array([body(img, k, st.middle) for k in kin])
    shown = [d.found for d in (*known, *unread) if d.found is not None]
    return bodies, shown, statistics.median(f.size for f in every)


def _kin(img: np.ndarray, cand: Candidate, bodies: np.ndarray, shown: list,
         mid: float, st: ReaderSettings, shaped: bool = True) -> bool:
    """Whether ``cand`` is no find already ``shown`` (``twice``), about as large as the
    median find ``mid``, die-shaped (where ``shaped`` asks it), and like one of the dice's
    ``bodies`` in colour."""
    return not (near(cand, shown, st.twice)
                or not 1 / st.like_size <= cand.size / mid <= st.like_size
                or (shaped and patch_roundness(img, cand, st.patch * cand.size) < st.alike_round)
                or colour_gap(body(img, cand, st.middle), bodies) > st.look_alike)


def set_apart(img: np.ndarray, unread: list[Die], dice: list[Die],
              st: ReaderSettings, *, faces: bool = False) -> tuple[list[Die], list[Die]]:
    """The finds no face was read on (``unread``) split into (kept, unlike): unlike are
    those whose body colour lies further than ``unlike_colour`` from every die the pips
    read cleanly (``dice``), or whose size is off theirs by more than ``unlike_size``,
    when those dice are a set (two at least, not of many colours: :func:`_many_colours`):
    a clip on the tray's rim or a knot in the wood is not a die, and must not refuse a
    roll the dice themselves read cleanly. A find the frame cuts is kept (refused) unless
    its colour is unlike theirs: its size says nothing (a die half out of the frame is
    found small), its middle's colour is its own (a clip on the rim at the frame's edge
    is no white die).
    With ``faces``, a find a face was read on is judged too where its marks stand out the
    other way from every clean die's pips (light marks on a dark body among dark pips on
    white dice: a laptop's key and its glyph); a face marked as theirs is kept."""
    kin = _clean(dice)
    clean = [d.found for d in kin if d.found is not None]
    marks = {d.dark for d in kin}
    if len(clean) < 2 or not unread:
        return unread, []
    bodies = np.array([body(img, f, st.middle) for f in clean])
    if _many_colours(list(bodies), st.look_alike):
        return unread, []  # dice of many colours: no one look to compare with
    size = statistics.median(f.size for f in clean)
    frame = (float(img.shape[1]), float(img.shape[0]))
    kept, unlike = [], []
    for die in unread:
        cand = die.found
        if (die.value and (not faces or die.dark in marks)) or cand is None:
            kept.append(die)
            continue
        off = (not reaches_past(cand, frame)
               and not 1 / st.unlike_size <= cand.size / size <= st.unlike_size)
        (unlike if off or colour_gap(body(img, cand, st.middle), bodies) > st.unlike_colour
         else kept).append(die)
    return kept, unlike


def odd_one_out(img: np.ndarray, dice: list[Die], seen: dict[int, np.ndarray],
                st: ReaderSettings) -> None:
    """Put in doubt a lone spot read as a 1 that the classifier does not find likely
    (under ``likely``) on something unlike every other die read (``look_alike``, two
    others at least): a laptop key, a button or a screw beside the dice of a set.
    Measured on the real photos: two laptop keys read as a 1 at 0.28 and 0.34, 115 and
    185 from the nearest die; every die showing 1 that the classifier doubts as much
    lies within 17 of another die read, and every one unlike the rest is at 0.55 or
    more. It only ever makes an answer ``unsure``."""
    doubtful = [d for d in dice if d.value == 1 and not d.problem and d.found is not None
                and float(seen[id(d)][1]) < st.likely]
    found = [(d, d.found) for d in dice if d.found is not None]
    if not doubtful or len(found) < st.refs:  # itself and two others
        return
    bodies = np.array([body(img, f, st.middle) for _, f in found])
    for die in doubtful:
        i = next(k for k, (d, _) in enumerate(found) if d is die)
        if colour_gap(bodies[i], np.delete(bodies, i, axis=0)) > st.look_alike:
            die.problem = Reason.AMBIGUOUS
            die.detail = "die at {where} is one spot on something unlike every other die"
