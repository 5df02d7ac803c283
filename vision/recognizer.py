"""The pip recognizer: ``read(frame) -> Reading``.

Steps, all on a working copy scaled so pips are a few pixels wide:

1. the dice detector (:mod:`dicetray.vision.detector`) says where the dice are, how big,
   and which lean or move, looking again at another scale when the dice come out too
   small or too large for it (or once, at the calibration's die size); their size sets
   the working scale, and only the windows around them are read;
2. pip candidates of both polarities (:mod:`dicetray.vision.pips`), kept only when
   the ring around them is evenly face-coloured;
3. pips grouped into faces by polarity, size, distance and an unbroken run of face
   colour between them (:mod:`dicetray.vision.faces`);
4. each group fitted to the six real layouts (:mod:`dicetray.vision.layouts`) and
   checked on the full 3x3 grid: every layout spot must hold a pip and every other
   spot must be blank, so a missed pip or a speck of dust is caught, not counted;
5. faces kept only on a die the detector found (a side face's pips, a speck or a
   shadow never become a die); a die found with no face read is read from the pips
   nearest its centre (or, failing that, from any few of them, or from pips looked for
   closer there: in every colour channel, and cut out of blobs run together with a
   marbled face's marks), or refused when it shows pips that fit no face;
6. refusals: a face cut by the frame edge (or a find centred on it), a die leaning or
   moving, a face far from square compared with the others (cocked die), blurred pips,
   the wrong number of dice (told more than it read, the finds left out likeliest to
   show a face are shown too, as guesses);
7. a second opinion (:mod:`dicetray.vision.classifier`): a small network reads each die's
   crop as a whole; a find it calls no die (a key, a plug, a coin) is dropped unless the
   frame cuts it; one the frame cuts on which it reads no face refuses the roll without
   showing a value; where it reads another value than the pips, the die is read again
   from its top face alone (a slanted view's side-face pip left out) and, if that does
   not settle it, refused; a face the pips read in doubt it settles when it is sure of
   their value, or of another that the top face alone reads as; a lone spot on a faint
   find is no die unless it is sure of the 1; a die the pips could not read it reads
   alone when sure (a face read only by looking closer stands only where it reads
   a value unsure, or calls it unreadable unsurely: then in doubt), and a find without
   pips it calls a moving or leaning die is refused, and one it reads unsurely is
   shown in doubt when it looks like the dice read (their body colour, size and shape:
   a die of the set whose pips hardly show, where keys and plugs are unlike them);
   so is a find the detector scores too low to keep that is smeared one way and that it
   is sure shows no face (a die blurred mid-tumble: left out, the dice at rest would be
   answered as the whole roll).

>>> import numpy as np, cv2
>>> tray = np.full((240, 320, 3), (60, 110, 40), np.uint8)
>>> _ = cv2.rectangle(tray, (100, 80), (160, 140), (235, 235, 235), -1)
>>> for px, py in [(112, 92), (148, 92), (130, 110), (112, 128), (148, 128)]:
...     _ = cv2.circle(tray, (px, py), 5, (20, 20, 20), -1)
>>> roll = read(tray)
>>> roll.status, roll.values
('ok', (5,))
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from dicetray.vision.classifier import CLASSES, classify, classify_soon
from dicetray.vision.detector import THRESHOLD, Candidate, find_dice, median_size
from dicetray.vision.errors import FrameError
from dicetray.vision.faces import fit_or_split, groups, linkable
from dicetray.vision.gradients import Window, structure_at, structure_windows
from dicetray.vision.layouts import LayoutFit, fit_layout, value_of_spots
from dicetray.vision.pips import PipMaps, Pips, channels, chroma, find_pips, hat_maps, pip_maps
from dicetray.vision.reading import DieReading, LeftOut, Reading, Reason, Why
from dicetray.vision.resize import resize

__all__ = ["read"]

#: Pip diameter aimed for in the working image, px.
WORK_PIP = 6.0
#: Long side of the coarse image used to find the scale when nothing else tells it.
COARSE_SIDE = 320
#: Long side of the working image when the coarse pass finds no usable pips.
FINE_SIDE = 640
#: Largest enlargement of the frame, so the pips of small dice are wide enough to read.
MAX_UPSCALE = 2.0
#: Half the face edge in grid units (pip offset a is ~0.3 of the edge).
HALF_EDGE = 1.65
#: Least isotropy of the gradients around a die's pips before it counts as blurred.
MIN_ROUNDNESS = 0.3
#: A grid spot holds a pip at this fraction of the die's pip contrast; below SPOT_OFF
#: it is blank face; in between it is unclear.
SPOT_ON = 0.5
SPOT_OFF = 0.3
#: Detector score from which a die whose pips fit no face is refused rather than ignored.
SURE_DIE = 0.5
#: Largest pip-to-pip distance on one face, in pip diameters.
MAX_LINK = 7.0
#: Half-side of the window read around each die the detector found, in die edges (the
#: die, its side faces and room for the pips of a die the detector sized too small).
WINDOW = 1.3


def _check_frame(frame: Any) -> np.ndarray:
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a NumPy image array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise FrameError(f"a frame must be 8-bit (uint8), got {frame.dtype}")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise FrameError(f"a frame must be BGR (h x w x 3), got shape {frame.shape}")
    if min(frame.shape[:2]) < 16:
        raise FrameError(f"frame too small to hold dice: {frame.shape[1]}x{frame.shape[0]}")
    return frame


def _check_size(img: np.ndarray, calibration: Any) -> None:
    size = getattr(calibration, "image_size", None)
    h, w = img.shape[:2]
    if size is not None and tuple(size) != (w, h):
        raise FrameError(f"the frame is {w}x{h} but the calibration is for {size[0]}x{size[1]} "
                         "frames (calibrate the camera at the size it captures)")


def _median(values: Any) -> float:
    """The median of a few numbers (an array or a list; NaN for none), without NumPy's
    overhead, which is most of the time for the handful a die has.

    >>> _median(np.array([3.0, 1.0, 2.0, 10.0])), _median([])
    (2.5, nan)
    """
    values = values.tolist() if isinstance(values, np.ndarray) else values
    return statistics.median(values) if len(values) else math.nan


def _odd(v: float) -> int:
    return max(3, round(v) | 1)


def _sample(img: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return img[_pixels(img.shape, x, y)]


def _pixels(shape: tuple[int, ...], x: np.ndarray,
            y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (rows, columns) nearest the points (x, y), kept inside an image of
    ``shape``: to index it, or several images of its size, with."""
    xi = np.rint(x).astype(np.intp)
    yi = np.rint(y).astype(np.intp)
    np.maximum(xi, 0, out=xi)
    np.maximum(yi, 0, out=yi)
    np.minimum(xi, shape[1] - 1, out=xi)
    np.minimum(yi, shape[0] - 1, out=yi)
    return yi, xi


_TURN = np.linspace(0, 2 * np.pi, 12, endpoint=False)
_COS, _SIN = np.cos(_TURN), np.sin(_TURN)


def _ring(pips: Pips, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Twelve points on a circle of ``radius`` around each pip (pips x 12)."""
    rx = pips.x[:, None] + radius[:, None] * _COS[None, :]
    ry = pips.y[:, None] + radius[:, None] * _SIN[None, :]
    return rx, ry


@dataclass
class _Scene:
    """The working image and everything derived from it for one frame (or, when the
    detector has found the dice, for the windows around them; elsewhere all is zero)."""

    work: np.ndarray  # BGR, uint8
    scale: float
    pips: Pips
    face: np.ndarray  # per pip BGR face colour
    dark_max: np.ndarray
    light_max: np.ndarray
    windows: list[Window]  # the parts of the working image read (each filtered alone)
    box: int  # the side, working px, the gradient structure tensor is averaged over
    dark_raw: np.ndarray | None = None  # the pip contrast maps before widening
    light_raw: np.ndarray | None = None

    def peak_map(self, dark: bool) -> np.ndarray:
        return self.dark_max if dark else self.light_max

    def tensor_at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The gradient structure tensor (gxx, gyy, gxy) at points, n x 3 float32."""
        return structure_at(self.work, self.windows, self.box, x, y)

    def tensor_map(self) -> np.ndarray:
        """The gradient structure tensor of every pixel (zero outside the windows)."""
        return structure_windows(self.work, self.windows, self.box)


def _face_pips(work: np.ndarray, kernel: int, closer: bool = False,
               hue: bool = False) -> tuple[Pips, np.ndarray, Any]:
    """Pip candidates whose surrounding ring is evenly face-coloured, and that colour;
    ``closer``: looked for in every colour channel too, and cut out of larger blobs (see
    :func:`dicetray.vision.pips.find_pips`); ``hue``: and in each opponent channel alone
    (:func:`dicetray.vision.pips.chroma`: a red pip on a grey or blue face)."""
    extremes = channels(work)
    maps = pip_maps(work, kernel, every_channel=closer, extremes=extremes, planes=closer)
    pips = find_pips(work, kernel, maps, split=closer)
    hues = chroma(work) if hue else ()
    for ch in hues:
        # each opponent channel on its own: maxed into the maps above, a face's light
        # swirl runs a pip's blob into the next one's
        own = hat_maps(ch, kernel, planes=True)
        more = find_pips(work, kernel, own, split=True)
        pips = Pips.join([pips, more.take(more.apart_from(pips))])
        maps = replace(maps, planes=maps.planes + own.planes)
    if len(pips) == 0:
        return pips, np.zeros((0, 3), np.float32), maps
    radius = pips.d / 2 + np.maximum(1.5, 0.2 * pips.d)
    rx, ry = _ring(pips, radius)
    need = 0.3 * pips.peak[:, None]
    dark_ok = np.zeros(len(pips), bool)
    light_ok = np.zeros(len(pips), bool)
    at_pip, on_ring = _pixels(work.shape, pips.x, pips.y), _pixels(work.shape, rx, ry)
    for ch in (*extremes, *cv2.split(work), *hues) if closer else extremes:
        centre = ch[at_pip].astype(np.float32)[:, None]
        ring = np.sort(ch[on_ring].astype(np.float32), axis=1)
        # the third-worst ring sample, so a neighbouring pip does not veto a pip
        dark_ok |= ring[:, 2] >= centre[:, 0] + need[:, 0]
        light_ok |= ring[:, -3] <= centre[:, 0] - need[:, 0]
    ok = np.where(pips.dark, dark_ok, light_ok)
    ring = np.sort(work[on_ring].astype(np.float32), axis=1)
    face = (ring[:, ring.shape[1] // 2 - 1] + ring[:, ring.shape[1] // 2]) / 2  # the median
    return pips.take(ok), face[ok], maps


def _windows(candidates: list[Candidate], s: float, shape: tuple[int, ...]) -> list[Window]:
    """Working-image windows around the dice found, overlapping ones merged into one."""
    h, w = round(shape[0] * s), round(shape[1] * s)
    boxes = []
    for c in candidates:
        r = WINDOW * c.size * s
        boxes.append([max(0, math.floor(c.x * s - r)), max(0, math.floor(c.y * s - r)),
                      min(w, math.ceil(c.x * s + r)), min(h, math.ceil(c.y * s + r))])
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [(x0, y0, x1, y1) for x0, y0, x1, y1 in boxes if x1 - x0 >= 8 and y1 - y0 >= 8]


def _scene(img: np.ndarray, s: float, windows: list[Window] | None = None) -> _Scene:
    """The scene at scale ``s``: of the whole frame, or only inside ``windows``."""
    h, w = img.shape[:2]
    size = (max(1, round(h * s)), max(1, round(w * s)))
    if windows is None:
        windows = [(0, 0, size[1], size[0])]
    kernel = _odd(2.2 * WORK_PIP)
    work = np.zeros((*size, 3), np.uint8)
    parts = []
    for x0, y0, x1, y1 in windows:
        # the frame region that scales onto this window (to within half a working pixel)
        sx0, sy0 = math.floor(x0 / s), math.floor(y0 / s)
        sx1, sy1 = min(w, math.ceil(x1 / s)), min(h, math.ceil(y1 / s))
        sub = resize(img[sy0:sy1, sx0:sx1], (x1 - x0, y1 - y0))
        work[y0:y1, x0:x1] = sub
        pips, face, maps = _face_pips(sub, kernel)
        parts.append((x0, y0, pips, face, maps))
    pips = Pips.join([p.shifted(x0, y0) for x0, y0, p, _, _ in parts])
    face = np.concatenate([f for *_, f, _ in parts]) if parts else np.zeros((0, 3), np.float32)
    dmed = _median(pips.d) if len(pips) else WORK_PIP
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(0.7 * dmed),) * 2)
    dark_max = np.zeros(size, np.uint8)
    light_max = np.zeros(size, np.uint8)
    dark_raw = np.zeros(size, np.uint8)
    light_raw = np.zeros(size, np.uint8)
    for x0, y0, _, _, maps in parts:
        win = (slice(y0, y0 + maps.dark.shape[0]), slice(x0, x0 + maps.dark.shape[1]))
        dark_max[win] = cv2.dilate(maps.dark, k)
        light_max[win] = cv2.dilate(maps.light, k)
        dark_raw[win] = maps.dark
        light_raw[win] = maps.light
    # the structure tensor is worked out only where it is asked for (see _check)
    return _Scene(work=work, scale=s, pips=pips, face=face, dark_max=dark_max,
                  light_max=light_max, windows=windows, box=_odd(1.6 * dmed),
                  dark_raw=dark_raw, light_raw=light_raw)


def _pip_size(sc: _Scene, found: list[_Die]) -> float | None:
    """The median pip diameter over dice read from two or more pips, or None."""
    d = [sc.pips.d[die.pips] for die in found if len(die.pips) >= 2]
    return _median(np.concatenate(d)) if d else None


def _analyse(img: np.ndarray, die_size: float | None,
             candidates: list[Candidate]) -> tuple[_Scene, list[_Die]]:
    """Pick the working scale (from the calibration or the dice) and read the dice there:
    only around the dice the detector found, when it found any."""
    h, w = img.shape[:2]
    if die_size:
        s = min(MAX_UPSCALE, WORK_PIP / (0.17 * die_size))
        sc = _scene(img, s, _windows(candidates, s, img.shape) if candidates else None)
        return sc, _dice(sc)
    tried: list[tuple[_Scene, list[_Die]]] = []
    for side in (COARSE_SIDE, FINE_SIDE):
        s = min(1.0, side / max(h, w))
        if tried and abs(s - tried[-1][0].scale) < 1e-6:
            break
        sc = _scene(img, s)
        tried.append((sc, _dice(sc)))
    # the scale at which most faces show two or more pips is the one that resolves them
    sc, found = max(tried, key=lambda t: sum(len(d.pips) >= 2 for d in t[1]))
    d = _pip_size(sc, found)
    if d is None:
        return sc, found
    better = min(1.0, sc.scale * WORK_PIP / d)
    if abs(better / sc.scale - 1.0) < 0.25:
        return sc, found
    sc = _scene(img, better)
    return sc, _dice(sc)


def _links(sc: _Scene) -> list[list[int]]:
    p = sc.pips
    n = len(p)
    if n < 2:
        return [[i] for i in range(n)]
    i, j = np.triu_indices(n, 1)
    dist = np.hypot(p.x[i] - p.x[j], p.y[i] - p.y[j])
    dmean = (p.d[i] + p.d[j]) / 2
    ratio = np.maximum(p.d[i], p.d[j]) / np.minimum(p.d[i], p.d[j])
    fdist = np.sqrt(((sc.face[i] - sc.face[j]) ** 2).sum(axis=1))
    tol = np.maximum(30.0, 0.3 * np.minimum(p.peak[i], p.peak[j]))
    cand = (p.dark[i] == p.dark[j]) & (dist <= MAX_LINK * dmean) & (ratio <= 1.7) & (fdist <= tol)
    pairs = np.stack([i[cand], j[cand]], axis=1)
    on_pip = np.zeros(sc.work.shape[:2], np.uint8)
    for x, y, d in zip(p.x.tolist(), p.y.tolist(), p.d.tolist(), strict=True):
        cv2.circle(on_pip, (round(x), round(y)), round(d / 2 + 1.5), 1, -1)
    ok = linkable(sc.work, on_pip.astype(bool), p.x, p.y, sc.face, pairs, tol[cand])
    return groups(n, pairs[ok])


@dataclass
class _Die:
    value: int
    fit: LayoutFit
    offset: float  # pip offset a, working px
    pips: list[int]
    dark: bool
    confidence: float
    problem: str = ""
    detail: str = ""  # the reason's words, with {where}, when not the usual ones
    found: Candidate | None = None  # the detector's find this die is
    # read only by looking closer (_look_closer): the placeholder it was before, and
    # whether that was a bare find
    fallback: tuple[_Die, bool] | None = None
    # a face read by looking closer: the contrast map its grid is read on, and the
    # working px of its top-left corner
    spots_map: tuple[np.ndarray, int, int] | None = None


def _single_ok(sc: _Scene, i: int, a: float) -> tuple[bool, np.ndarray, np.ndarray]:
    """Whether lone pip ``i`` sits alone in the middle of a face: (face, inner, outer)."""
    p = sc.pips
    th = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    pts = []
    for r in (a, math.sqrt(2) * a):
        pts.append(np.stack([p.x[i] + r * np.cos(th), p.y[i] + r * np.sin(th)], 1))
    inner = np.concatenate(pts)
    contrast = _sample(sc.peak_map(bool(p.dark[i])), inner[:, 0], inner[:, 1]).astype(np.float32)
    on_face = np.stack([p.x[i] + 0.9 * a * np.cos(th), p.y[i] + 0.9 * a * np.sin(th)], 1)
    beyond = np.stack([p.x[i] + 2.8 * a * np.cos(th), p.y[i] + 2.8 * a * np.sin(th)], 1)
    col_in = _sample(sc.work, on_face[:, 0], on_face[:, 1])
    col_out = _sample(sc.work, beyond[:, 0], beyond[:, 1])
    dist_in = np.sqrt(((col_in - sc.face[i]) ** 2).sum(axis=1))
    dist_out = np.sqrt(((col_out - sc.face[i]) ** 2).sum(axis=1))
    # evenly face-coloured around the pip, and somewhere beyond the corners it ends
    inside = max(30.0, 0.3 * float(p.peak[i]))
    beyond = max(20.0, 0.12 * float(p.peak[i]))
    is_face = bool((dist_in <= inside).all() and (dist_out > beyond).sum() >= 3)
    return is_face, contrast, dist_out


def _without_side_faces(p: Pips, found: list[_Die]) -> list[_Die]:
    """Drop faces whose pips are clearly more oval than the round pips right beside them.

    Seen at an angle, a die shows its top face and side faces; a side face is
    foreshortened, so its pips look oval where the top face's look round.
    """
    keep = []
    for die in found:
        own = _median(p.elong[die.pips])
        reach = 1.3 * 2 * HALF_EDGE * die.offset
        dist = np.hypot(p.x - die.fit.centre[0], p.y - die.fit.centre[1])
        near = (dist <= reach) & (p.dark == die.dark)
        near[die.pips] = False
        if near.any() and _median(p.elong[near]) <= own - 0.3:
            continue
        keep.append(die)
    return keep


def _dice(sc: _Scene) -> list[_Die]:
    """The faces the pips make (groups that fit no layout are left to the detector's dice)."""
    p = sc.pips
    found: list[_Die] = []
    singles: list[int] = []

    def accept(idx: list[int], fit: LayoutFit) -> bool:
        if fit.value == 1:
            return False
        d = p.d[idx]
        if d.max() > 1.7 * d.min():
            return False
        ratio = fit.offset / _median(d)
        return 0.75 <= ratio <= 3.6 and fit.skew <= 2.2

    def side(face: list[int], other: list[int]) -> bool:
        return _median(p.elong[other]) >= _median(p.elong[face]) + 0.2

    for members in _links(sc):
        if len(members) == 1:
            singles.append(members[0])
            continue
        pts = np.stack([p.x[members], p.y[members]], axis=1)
        fits = fit_or_split(
            pts,
            lambda local, fit, m=members: accept([m[k] for k in local], fit),
            HALF_EDGE,
            lambda face, other, m=members: side([m[k] for k in face], [m[k] for k in other]),
        )
        if fits is None:
            continue
        for local, fit in fits:
            idx = [members[k] for k in local]
            found.append(_Die(fit.value, fit, fit.offset, idx, bool(p.dark[idx[0]]), 1.0))
    # the spacing of the dice found tells how far from a lone pip its face reaches
    ratios = [die.offset / _median(p.d[die.pips]) for die in found]
    a_per_d = _median(ratios) if ratios else 1.9
    ref_d = _median(np.concatenate([p.d[die.pips] for die in found])) if found else None
    found = _without_side_faces(p, found)
    for i in singles:
        if p.elong[i] > 1.8 or (ref_d is not None and p.d[i] < 0.8 * ref_d):
            continue
        a = a_per_d * (ref_d if ref_d is not None else float(p.d[i]) / 1.3)
        is_face, contrast, _ = _single_ok(sc, i, a)
        if not is_face:
            continue
        fit = LayoutFit(1, np.array([p.x[i], p.y[i]]), np.eye(2) * a, 0.0)
        die = _Die(1, fit, a, [i], bool(p.dark[i]), 1.0)
        if contrast.max() > 0.45 * p.peak[i]:
            die.problem = "ambiguous"
        found.append(die)
    return found


def _confirm(sc: _Scene, found: list[_Die], candidates: list[Candidate],
             frame: tuple[float, float]) -> tuple[list[_Die], list[_Die], list[_Die]]:
    """Keep the faces that lie on a die the detector found; read the dice it found that
    no face was read on; drop faces beside a die (its side faces) or on no die at all.
    ``frame`` is the frame's (w, h).

    Returns (dice, unread, bare): ``unread`` holds a placeholder per die seen but not
    read, ``bare`` one per flat find that shows no pips or that the detector is unsure
    of (a die only if the face classifier reads one).
    """
    s = sc.scale
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
        if i in match or j in taken or dist > 0.4 * size[j]:
            continue
        match[i] = j
        taken.add(j)
    dice = []
    for i, j in match.items():
        die = found[i]
        _attach(die, candidates[j], frame)
        dice.append(die)
    unread, bare = [], []
    for j, cand in enumerate(candidates):
        if j in taken:
            continue
        die = _read_candidate(sc, cand)
        if not die.value:
            closer = _look_closer(sc, cand)
            if closer is not None:
                _attach(die, cand, frame)
                closer.fallback = (die, _bare(die, cand))
                die = closer
        _attach(die, cand, frame)
        if die.value:
            dice.append(die)
        elif _bare(die, cand):
            bare.append(die)  # every face shows a pip, and a magnet or a button shows none
        else:
            unread.append(die)  # a die seen but not read
    return dice, unread, bare


def _bare(die: _Die, cand: Candidate) -> bool:
    """Whether an unread find is bare: flat, with no pips seen on it (or only faintly
    found), rather than a die seen but not read."""
    return cand.kind == "flat" and not (die.pips and cand.score >= SURE_DIE)


def _look_closer(sc: _Scene, cand: Candidate) -> _Die | None:
    """A find whose face the pips could not read, read again from the pips found looking
    closer at its top face (every colour channel, pips cut out of larger blobs: a red pip
    on a blue face, pips run together with a marbled face's marks; on a find the detector
    is sure of, the opponent channels too: red pips joined by a face's light swirl), or
    None. The pips it reads from join the scene's; its grid is checked on the channel
    they stand out in (:func:`_best_plane`), where the scene's maps may not show them."""
    s = sc.scale
    centre, a, _ = _on_find(sc, cand)
    r = 0.75 * cand.size * s
    h, w = sc.work.shape[:2]
    x0, y0 = max(0, math.floor(centre[0] - r)), max(0, math.floor(centre[1] - r))
    x1, y1 = min(w, math.ceil(centre[0] + r)), min(h, math.ceil(centre[1] + r))
    if min(x1 - x0, y1 - y0) < 8:
        return None
    pips, face, maps = _face_pips(sc.work[y0:y1, x0:x1], _odd(2.2 * WORK_PIP), closer=True,
                                  hue=cand.score >= SURE_DIE)
    pips = pips.shifted(x0, y0)
    old = sc.pips
    near = np.hypot(pips.x - centre[0], pips.y - centre[1]) <= 1.1 * HALF_EDGE * a
    new = pips.apart_from(old) & near
    if not new.any():
        return None
    sc.pips = Pips.join([old, pips.take(new)])
    sc.face = np.concatenate([sc.face, face[new]])
    die = _read_candidate(sc, cand)
    if not die.value:
        sc.pips, sc.face = old, sc.face[:len(old)]
        return None
    if die.value > 1:
        die.spots_map = (_best_plane(maps, sc.pips.take(np.array(die.pips)), x0, y0), x0, y0)
    return die


def _best_plane(maps: PipMaps, pips: Pips, x0: int, y0: int) -> np.ndarray:
    """The contrast map of a window (its ``maps``, with each plane's own kept: the colour
    channels, their extremes and, on a sure find, the opponent channels) in which a face's
    ``pips`` (working px) stand out best, either polarity, widened as the scene's maps
    are (see :func:`_scene`)."""
    at = _pixels(maps.dark.shape, pips.x - x0, pips.y - y0)
    best, strength = None, -1.0
    for plane in maps.planes:
        for m in plane:
            weakest = float(m[at].min())
            if weakest > strength:
                best, strength = m, weakest
    assert best is not None
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(0.7 * _median(pips.d)),) * 2)
    return cv2.dilate(best, k)


def _attach(die: _Die, cand: Candidate, frame: tuple[float, float]) -> None:
    """Link a die to the detector's find, and mark a find that leans or moves, or whose
    face's centre lies within a quarter edge of the ``frame`` (w, h) border: a die cut by
    it (the pips read may be all on the part inside)."""
    die.found = cand
    if cand.kind == "cocked":
        die.problem = "cocked"
    elif cand.kind == "moving":
        die.problem = "blur"
    if _cut(cand, frame, 0.25):
        die.problem = "edge"


def _cut(cand: Candidate, frame: tuple[float, float], margin: float) -> bool:
    """Whether a find's centre lies within ``margin`` of its edge length of the border of
    a ``frame`` (w, h): 0.5 for a face reaching past it, 0.25 for a die cut by it.

    >>> _cut(Candidate(20.0, 50.0, 30.0, 0.9, "flat"), (100.0, 100.0), 0.5)
    False
    >>> _cut(Candidate(10.0, 50.0, 30.0, 0.9, "flat"), (100.0, 100.0), 0.5)
    True
    """
    m = margin * cand.size
    return not (m <= cand.x <= frame[0] - 1 - m and m <= cand.y <= frame[1] - 1 - m)


def _on_find(sc: _Scene, cand: Candidate) -> tuple[np.ndarray, float, np.ndarray]:
    """A find in working px: its centre, its pip offset ``a``, and each pip's distance
    from the centre."""
    p, s = sc.pips, sc.scale
    centre = np.array([cand.x * s, cand.y * s])
    return centre, cand.size * s / (2 * HALF_EDGE), np.hypot(p.x - centre[0], p.y - centre[1])


def _unread(sc: _Scene, cand: Candidate, problem: str, detail: str) -> _Die:
    """A die seen at a find but not read (value 0), with its ``problem`` and reason."""
    centre, a, _ = _on_find(sc, cand)
    die = _Die(0, LayoutFit(1, centre, np.eye(2) * a, 0.0), a, [], True, 0.0, problem, detail)
    die.found = cand
    return die


def _read_candidate(sc: _Scene, cand: Candidate) -> _Die:
    """Read a die the detector found from the pips on its face (value 0: unreadable)."""
    p = sc.pips
    centre, a, dist = _on_find(sc, cand)
    unread = _unread(sc, cand, "ambiguous", "die at {where} shows no face that can be read")
    if len(p) == 0:
        return unread
    near = np.flatnonzero(dist <= 1.1 * HALF_EDGE * a)
    if len(near) == 0:
        return unread
    unread.pips = near.tolist()
    majority = bool(np.mean(p.dark[near]) >= 0.5)
    for dark in (majority, not majority):
        own = near[p.dark[near] == dark]
        own = own[np.argsort(dist[own])]
        # the face's own pips lie nearest its centre; side faces' and neighbours' further out
        for k in range(min(6, len(own)), 0, -1):
            die = _face_of(p, own[:k], centre, a, dark)
            if die is not None:
                return die
        # at a slant a side face's pip can lie nearer the centre than the face's own: try
        # leaving out any pips, the most pips and the nearest first
        for idx in _subsets(own[:SUBSET_PIPS], dist):
            die = _face_of(p, idx, centre, a, dark)
            if die is not None:
                return die
    return unread


#: Most pips near a find whose subsets are tried when its nearest pips make no face.
SUBSET_PIPS = 7
#: Most subsets tried per find (each a layout fit).
SUBSET_TRIES = 48


def _subsets(pips: np.ndarray, dist: np.ndarray) -> list[np.ndarray]:
    """Subsets of two or more of ``pips`` other than the nearest-k ones, largest first,
    then nearest the centre (``dist``); at most :data:`SUBSET_TRIES`.

    >>> dist = np.array([0, 0, 0, 0, 1, 0, 0, 2, 0, 3.0])  # pips 4, 7 and 9 at 1, 2 and 3
    >>> [s.tolist() for s in _subsets(np.array([4, 7, 9]), dist)]
    [[4, 9], [7, 9]]
    """
    out = []
    for k in range(min(6, len(pips)), 1, -1):
        combos = [c for c in itertools.combinations(range(len(pips)), k) if c != tuple(range(k))]
        combos.sort(key=lambda c: sum(float(dist[pips[i]]) for i in c))
        out += [pips[list(c)] for c in combos]
        if len(out) >= SUBSET_TRIES:
            break
    return out[:SUBSET_TRIES]


#: Least pip offset of a face read at a find, as a share of the offset its size implies
#: (0.3 of the edge): some dice have large pips drawn in towards the middle, and a die's
#: rounded edges make the find a little larger than its flat top.
MIN_OFFSET = 0.35
#: Reach from a single pip, in pip offsets, within which no other pip of its colour may
#: lie for it to be read as a 1 (the face reaches 1.65 from its centre; a 2 whose pips
#: sit towards the centre has them 0.9 apart).
LONE = 1.3


def _face_of(p: Pips, idx: np.ndarray, centre: np.ndarray, a: float, dark: bool) -> _Die | None:
    """The face that pips ``idx`` make on a die centred at ``centre`` (pip offset ``a``)."""
    d = p.d[idx]
    if d.max() > 1.7 * d.min() or not (0.25 * a <= _median(d) <= 1.3 * a):
        return None
    if len(idx) == 1:
        i = int(idx[0])
        if math.hypot(p.x[i] - centre[0], p.y[i] - centre[1]) > 0.5 * a:
            return None
        # a 1 says the rest of its face is blank: another pip of its colour well inside
        # the face (a side face's lie past its edge) says otherwise
        others = (p.dark == dark) & (np.hypot(p.x - p.x[i], p.y - p.y[i]) <= LONE * a)
        others[i] = False
        if others.any():
            return None
        return _Die(1, LayoutFit(1, np.array([p.x[i], p.y[i]]), np.eye(2) * a, 0.0), a, [i],
                    dark, 1.0)
    fit = fit_layout(np.stack([p.x[idx], p.y[idx]], axis=1))
    if (fit is None or not MIN_OFFSET <= fit.offset / a <= 1.6
            or math.hypot(*(fit.centre - centre)) > 0.6 * a):
        return None
    return _Die(fit.value, fit, fit.offset, idx.tolist(), dark, 1.0)


#: Face classifier probability from which it reads a die the pips could not, or calls a
#: find no readable die.
NET_SURE = 0.8
#: Classifier probability from which its value is shown for a die the pips read unsure ...
GUESS = 0.5
#: ... or how many times likelier than the pips' value it must find its own to show it.
GUESS_RATIO = 2.0
#: Below this probability (at first look) for the value the pips read, the classifier
#: looks again in eight views (four quarter turns, and their mirror images).
AGREE = 0.5
#: Classifier probability from which it settles a face the pips read in doubt (a grid
#: spot unclear, a size unlike the others', a side face's round pips beside it).
#: Averaged over turns, its answers seldom reach 0.9; measured with the count told, 0.7
#: reads the most rolls right on every set with no more silent errors (0.6: one more).
CONFIRM = 0.7
#: Classifier probability of "no die" from which a find is dropped whatever its pips
#: read: a key and its letter, a plug, a coin (on the real photos no die reaches 0.45).
NO_DIE = 0.6
#: Detector score below which a find the pips could not read (and the frame does not
#: cut) is dropped when "no die" is the classifier's likeliest answer, however unsure
#: (smeared cables, labels; a moving die it calls unreadable).
FAINT_NONE = 0.5
#: Classifier probability of another value than the pips read from which the die is read
#: again from its top face alone (the pips must then make that face by themselves). At
#: 0.6 a die leaning on another, which hides it from the detector, is read as a flat 1.
READ_AGAIN = 0.7
#: Below this probability for the value the pips read, the classifier disagrees.
NET_DOUBT = 0.2
#: Least confidence of the pips' own reading of a face of two or more pips (its grid's
#: margin, fit and sharpness: see :func:`_check`) that counts as clean: where the
#: classifier (trained on rendered crops; on a tray's white dice with red pips it read 11
#: of 16 6s as 4s) reads several clean faces otherwise (:data:`UNHEARD`) it cannot veto
#: them, and only the top face's pips agreeing with it change a value (:func:`_read_as`).
#: Heeded always, it answered 7 more matteop65 photos silently wrong (a 1 and a slanted
#: view's side-face pip read as a 2, one at a time).
CLEAN_READ = 0.6
#: How many clean faces in one frame the classifier must read otherwise for its
#: disagreement to be set aside there.
UNHEARD = 2
#: ... also when its likeliest answer is "no die" or "no readable face", if it gives
#: another value this much at least (a side face's pip read in with a 1's, say).
OTHER_VALUE = 0.3
#: Detector score from which a find with no pips that the classifier calls a die with no
#: readable face is refused (below it, such finds are mostly cables, keys and clips).
BARE_SURE = 0.5
#: ... and the classifier's least probability for it (keys and clips look unreadable too).
BARE_UNREADABLE = 0.75
#: Classifier probability of a value from which a faint bare find is a die, shown with
#: that value in an unsure answer (below it, such finds are mostly keys and clips).
BARE_GUESS = 0.6
#: Most size, as a share of the median find's, of a find read as a single spot that is
#: no die unless the classifier is sure of the 1: a die showing 1 is as large as the
#: others, a speck or a crumb on the tray much smaller (measured: specks 0.47-0.53 of
#: it, real 1s from 0.68 on, over the real photos and the rendered frames).
SPECK = 0.6
#: Least detector score of a faint find that is looked at for a die smeared by motion
#: (the dice the recognizer reads start at the detector's own threshold).
FAINT_FIND = 0.12
#: Classifier probability of "unreadable" from which a smeared find is a moving die ...
MOVING_SURE = 0.9
#: ... or, for a find whose pips read a face, its likeliest class and this probable at
#: least: streaked pips can happen to make a face (a die mid-tumble read as a 6).
MOVING_READ = 0.8
#: ... when the gradients around it are this far from round at most (see _roundness: a
#: die blurred mid-tumble is smeared one way; a key or a sharp die is not).
SMEARED = 0.4
_UNREADABLE, _NONE = CLASSES.index("unreadable"), CLASSES.index("none")


def _second_opinion(img: np.ndarray, sc: _Scene, dice: list[_Die], unread: list[_Die],
                    bare: list[_Die], faint: list[Candidate],
                    early: dict[Candidate, np.ndarray], why: dict[Candidate, Why] | None = None,
                    teaching: Any = None
                    ) -> tuple[list[_Die], list[_Die], list[tuple[Candidate, np.ndarray]]]:
    """Ask the face classifier about every die found (see :mod:`dicetray.vision.classifier`),
    drop the finds it says are no die (:data:`NO_DIE`), and weigh its answer against the
    pips' (:func:`_weigh_read`, :func:`_weigh_unread`); a find the frame cuts on which it
    reads no face is kept unread, to refuse the roll without a value (:data:`CUT_NONE`);
    a ``faint`` find (under the detector's threshold) it sees as a die smeared by motion
    is a moving die (:func:`_moving`), and so is a die the pips read on a smeared find it
    likeliest calls unreadable (:data:`MOVING_READ`). ``early`` holds the classifier's
    answers, read once, on the finds it was asked about before the pips were read; ``why``
    gets why each find it leaves out is left out (:class:`~dicetray.vision.reading.Why`).
    Returns (dice, unread, left out): the last, each find no die stands for, with the
    classifier's probabilities (see :func:`_guesses`)."""
    why = {} if why is None else why
    finds = [d.found for d in (*dice, *unread, *bare) if d.found is not None]
    moving = [_unread(sc, c, "blur", MOVING) for c in _moving(img, faint, finds)]
    every = [*dice, *unread, *bare]  # each one a find of the detector (see _confirm)
    if not every:
        return dice, [*unread, *moving], []
    seen = _opinions(img, every, early)
    if teaching is not None:  # read by the prototypes of the dice confirmed on this tray
        seen = {k: teaching.second_opinion(p) for k, p in seen.items()}
    # a face read only by looking closer stands only where the classifier reads a value
    # but is unsure of it, or is unsure the die shows no readable face (then in doubt);
    # elsewhere the find is weighed as before it was looked at again
    kept = []
    for die in dice:
        p = seen[id(die)]
        best = int(np.argmax(p))
        if die.fallback is None:
            kept.append(die)
            continue
        placeholder, is_bare = die.fallback
        # one spot looked for closer on a find the detector is unsure of and that showed
        # no pips at first: a speck or a screw, as often as a die showing 1
        faint = (is_bare and die.value == 1 and die.found is not None
                 and die.found.score < BARE_SURE)
        if best not in (_UNREADABLE, _NONE) and float(p[best]) < NET_SURE and not faint:
            kept.append(die)
            continue
        # on a find the detector is sure of that the classifier, unsurely, calls a die with
        # no readable face, the face the pips read closer is shown, in doubt (left to the
        # classifier, such a find is dropped as a key or a clip)
        if (best == _UNREADABLE and float(p[best]) < BARE_UNREADABLE
                and die.found is not None and die.found.score >= BARE_SURE):
            die.problem = die.problem or "ambiguous"
            kept.append(die)
            continue
        seen[id(placeholder)] = p
        (bare if is_bare else unread).append(placeholder)
    dice = kept
    # a thing on the table the detector took for a die, whatever its marks read as (the
    # classifier never saw a die cut by the frame: such a find stays, to be refused)
    frame = (float(img.shape[1]), float(img.shape[0]))
    for d in (*dice, *unread, *bare):
        if d.found is not None and float(seen[id(d)][_NONE]) >= NO_DIE:
            why[d.found] = Why.NO_DIE
    dice, unread, bare = ([d for d in group if float(seen[id(d)][_NONE]) < NO_DIE
                           or d.found is None or _cut(d.found, frame, 0.5)]
                          for group in (dice, unread, bare))
    rescued, unread = _weigh_unread(img, sc, unread, bare, seen, finds, why)
    unread, unlike = _set_apart(img, unread, dice)
    moving, unlike_moving = _set_apart(img, moving, dice)
    for d in (*unlike, *unlike_moving):
        if d.found is not None:
            why[d.found] = Why.UNLIKE
    taken = {id(d) for d in (*rescued, *unread)}
    rescued += _look_alike(img, [d for d in bare if id(d) not in taken], [*dice, *rescued],
                           unread, seen, finds)
    # pips read on a find smeared one way that the classifier is sure shows no face: a
    # die moving, whose streaked pips happened to make a face
    for die in dice:
        if (not die.problem and die.found is not None
                and int(np.argmax(seen[id(die)])) == _UNREADABLE
                and _moving(img, [die.found], finds, seen[id(die)], MOVING_READ)):
            die.problem, die.detail = "blur", MOVING
    for die in dice:
        _fewer_than_seen(sc, die, seen[id(die)])
    answered = [*_weigh_read(sc, dice, seen, why), *rescued]
    _odd_one_out(img, answered, seen)
    # a find the frame cuts shows a value only where the classifier reads a face there
    # (a cut die's pips may be outside; keys at the border make pip-like spots)
    hidden = [d for d in answered if d.found is not None and _cut(d.found, frame, 0.5)
              and int(np.argmax(seen[id(d)])) in (_UNREADABLE, _NONE)]
    cut = [_unread(sc, d.found, "edge", CUT_NONE) for d in hidden if d.found is not None]
    hidden_ids = {id(d) for d in hidden}
    answered = [d for d in answered if id(d) not in hidden_ids]
    unread = [*unread, *moving, *cut]
    shown = {d.found for d in (*answered, *unread)}
    left_out = {d.found: seen[id(d)] for d in every
                if d.found is not None and d.found not in shown}
    return answered, unread, list(left_out.items())


def _guesses(sc: _Scene, left_out: list[tuple[Candidate, np.ndarray]], n: int) -> list[_Die]:
    """When fewer dice were read than the tray holds, the ``n`` finds left out (each with
    the classifier's probabilities) that look likeliest to show a face, each shown with
    the value the classifier finds likeliest: guesses for the players to confirm, never
    part of an ``ok`` answer."""
    def face(item: tuple[Candidate, np.ndarray]) -> float:
        return float(item[1][1:7].max())

    out = []
    for cand, p in sorted(left_out, key=face, reverse=True)[:n]:
        die = _unread(sc, cand, "", "")
        die.value = 1 + int(np.argmax(p[1:7]))
        die.confidence = float(p[die.value])
        out.append(die)
    return out


def _opinions(img: np.ndarray, every: list[_Die],
              early: dict[Candidate, np.ndarray]) -> dict[int, np.ndarray]:
    """The classifier's probabilities per die (by ``id``), each read once (taken from
    ``early`` where it was read already), and again in eight views (quarter turns and
    mirror images: surer, but eight times the work) where the answer decides something:
    a die the pips did not read, or read unlike the classifier."""
    finds = [d.found for d in every]
    assert all(f is not None for f in finds)
    # cropped where the detector saw the die (centring on the pips' fit was measured to
    # make the classifier echo the pips' misreadings)
    where = [(f.x, f.y, f.size) for f in finds if f is not None]
    probs = np.zeros((len(finds), len(CLASSES)), np.float32)
    late = []
    for i, f in enumerate(finds):
        if f in early:
            probs[i] = early[f]
        else:
            late.append(i)
    if late:
        probs[late] = classify(img, [where[i] for i in late], turns=1)
    again = [i for i, d in enumerate(every)
             if not d.value or d.fallback is not None or probs[i, d.value] < AGREE]
    if again:
        probs[again] = classify(img, [where[i] for i in again], first=probs[again])
    return {id(d): p for d, p in zip(every, probs, strict=True)}


def _fewer_than_seen(sc: _Scene, die: _Die, p: np.ndarray) -> None:
    """Look closer (:func:`_look_closer`) at a die in doubt, or whose value the classifier
    all but excludes (:data:`NET_DOUBT`), whose pips read fewer than the classifier's
    likeliest value (its probabilities ``p``; :data:`OTHER_VALUE` at least), and read it
    from the pips found there when they make a face of more pips: a red pip on a blue
    face, or on a dark smoky one, shows in no channel extreme the scene's pips are found
    on. The face read stays in doubt unless the classifier confirms it (:data:`CONFIRM`,
    see :func:`_weigh_read`)."""
    seen = 1 + int(np.argmax(p[1:7]))
    if (die.found is None or die.fallback is not None or seen <= die.value
            or float(p[seen]) < OTHER_VALUE or die.problem not in ("", "ambiguous")
            or (not die.problem and float(p[die.value]) >= NET_DOUBT)):
        return
    old = sc.pips, sc.face
    closer = _look_closer(sc, die.found)
    if closer is not None and closer.value > die.value:
        _check(sc, [closer])
        if closer.problem in ("", "ambiguous"):
            _take(die, closer, 1.0)
            die.dark, die.spots_map = closer.dark, closer.spots_map
            die.problem, die.detail = "ambiguous", ""  # settled if the classifier confirms it
            return
    sc.pips, sc.face = old


def _weigh_read(sc: _Scene, dice: list[_Die], seen: dict[int, np.ndarray],
                why: dict[Candidate, Why] | None = None) -> list[_Die]:
    """The dice the pips read, weighed against the classifier (``seen``).

    A single pip on a faint find is a die only when the classifier is sure of the 1 (or
    sees another face there), and so is one on a find far smaller than the others
    (:data:`SPECK`). A value the classifier is fairly sure is another
    (:data:`READ_AGAIN`) is read again from the top face alone (:func:`_read_as`);
    failing that, or when the classifier is less sure, a value it reads as another
    (:data:`NET_DOUBT`, :data:`OTHER_VALUE`) is put in doubt. A die the pips read in
    doubt is settled when the classifier is sure of the same value (:data:`CONFIRM`), or
    when the top face alone reads as another it is fairly sure of; one still in doubt
    shows the classifier's value when it is the likelier, unless that value needs a pip
    on the face's blank centre (:func:`_centre_blank`).
    """
    sizes = [d.found.size for d in dice if d.found is not None]
    small = SPECK * statistics.median(sizes) if sizes else 0.0

    def stray(d: _Die) -> bool:
        """One spot the classifier is not sure is a 1, on a faint find it sees as no
        other face (a key, a screw: measured, never a die showing 1 on the real photos)
        or on a find far smaller than the other dice (a speck, a crumb)."""
        p = seen[id(d)]
        if d.value != 1 or d.found is None or float(p[1]) >= NET_SURE:
            return False
        faint = (not d.problem and d.found.score < BARE_SURE
                 and int(np.argmax(p)) in (_UNREADABLE, 1, _NONE))
        return faint or d.found.size < small

    for d in dice:
        if why is not None and d.found is not None and stray(d):
            why[d.found] = Why.SPECK
    dice = [d for d in dice if not stray(d)]
    # the classifier was trained on rendered dice: where it reads two or more of the
    # faces the pips read cleanly otherwise, and the top face's pips bear out none of
    # its values, it is not reading these dice, and its disagreement is no evidence
    # against a clean face (one disagreement is heeded)
    clean = {id(d) for d in dice if not d.problem and d.value > 1
             and d.confidence >= CLEAN_READ and _centred(sc, d)}
    disagree = [(d, 1 + int(np.argmax(seen[id(d)][1:7]))) for d in dice if id(d) in clean]
    disagree = [(d, v) for d, v in disagree if v != d.value]
    credible = (len(disagree) < UNHEARD
                or any(_read_as(sc, d, v) is not None for d, v in disagree))
    for die in dice:
        p = seen[id(die)]
        value = 1 + int(np.argmax(p[1:7]))  # the value it finds likeliest
        if die.problem == "ambiguous" and not die.detail and die.value:
            if float(p[die.value]) >= CONFIRM:
                die.problem = ""  # the pips' doubt settled: the classifier is sure of them
                die.confidence = float(p[die.value])
            elif value != die.value and float(p[value]) >= READ_AGAIN:
                face = _read_as(sc, die, value)  # sure of another: do the top's pips agree?
                if face is not None:
                    _take(die, face, float(p[value]))
                    die.problem = ""
                    continue
        if die.problem:  # unsure anyway: show the likelier value of the two opinions
            if _likelier(p, value, die.value) and not _centre_blank(sc, die, value):
                die.value = value
            continue
        best = int(np.argmax(p))
        if not credible and id(die) in clean:
            # a face whose pips fill its layout cleanly: the classifier is a second
            # opinion only; where it reads another value the top face's pips must agree
            if best != die.value and 1 <= best <= 6 and float(p[best]) >= READ_AGAIN:
                face = _read_as(sc, die, best)
                if face is not None:
                    _take(die, face, float(p[best]))
            continue
        die.confidence = min(die.confidence, float(p[die.value]))
        if best in (_UNREADABLE, _NONE) and float(p[value]) >= OTHER_VALUE:
            best = value
        # else a die it calls unreadable or no die is left to the pips: on real photos an
        # angled view of a flat die can look like a leaning one
        if float(p[die.value]) < NET_DOUBT and best not in (_UNREADABLE, _NONE):
            face = _read_as(sc, die, best) if float(p[best]) >= READ_AGAIN else None
            if face is not None:  # the pips took in a side face's: they read as it does
                _take(die, face, float(p[best]))
                continue
            _doubt(die, best)
            # unsure now: show the likelier of the two values
            if _likelier(p, best, die.value) and not _centre_blank(sc, die, best):
                die.value = best
    return dice


#: Farthest a face's fit may lie from the centre of the die the detector found, in pip
#: offsets, for it to count as the whole top face (every layout is centred on its face).
#: On 400 rendered hard frames the 2s read off a side's two corners (of a 4, a 5) or a
#: 1 and a neighbour's pip lay 0.49-0.9 off; true 2s and 3s mostly under 0.4.
CENTRED = 0.4


def _centred(sc: _Scene, die: _Die) -> bool:
    """Whether a face's fit is centred on its find (:data:`CENTRED`)."""
    if die.found is None:
        return False
    centre, a, _ = _on_find(sc, die.found)
    return math.hypot(*(die.fit.centre - centre)) <= CENTRED * a


def _centre_blank(sc: _Scene, die: _Die, seen: int) -> bool:
    """Whether the classifier's value ``seen`` is a 3 or 5, the corner pips of the pips' 2,
    4 or 6 and a centre pip, while the face, read where the detector found the die, shows
    a blank centre spot: the pip it counted is another face's or a mark (its crop holds
    the die's side faces, and a slanted 2 shows a side face's pip beside its own). Not
    when the pips may be a 3's corner and centre read as a small 2 (a spot as far on past
    either pip)."""
    if (die.value, seen) not in ((2, 3), (4, 5), (6, 5)) or die.found is None:
        return False
    centre, a, _ = _on_find(sc, die.found)
    if math.hypot(*(die.fit.centre - centre)) > 0.6 * a or _spots(sc, die)[4] >= SPOT_OFF:
        return False  # a face beside the find (a side face's, maybe), or a centre pip
    if die.value > 2:
        return True
    if len(die.pips) != 2:
        return False
    xy = np.stack([sc.pips.x[die.pips], sc.pips.y[die.pips]], axis=1)
    past = np.array([2 * xy[0] - xy[1], 2 * xy[1] - xy[0]])
    return bool(_spots(sc, die, past).max() < SPOT_OFF)


def _likelier(p: np.ndarray, seen: int, read: int) -> bool:
    """Whether to show the classifier's value ``seen`` (its probabilities ``p``) for a die in
    doubt whose pips read ``read``: when it is fairly sure (:data:`GUESS`) or finds it
    clearly likelier than the pips' value (:data:`GUESS_RATIO`).

    >>> p = np.array([0.1, 0.0, 0.15, 0.4, 0.1, 0.1, 0.1, 0.05])
    >>> _likelier(p, 3, 2), _likelier(p, 3, 4), _likelier(p, 3, 5)
    (True, True, True)
    >>> _likelier(np.array([0.1, 0.0, 0.25, 0.4, 0.1, 0.1, 0.0, 0.05]), 3, 2)
    False
    """
    return float(p[seen]) >= GUESS or float(p[seen]) >= GUESS_RATIO * float(p[read])


def _pips_inside(sc: _Scene, cand: Candidate) -> int:
    """How many pips of one colour (the more numerous) lie well inside a find's top face
    (within :data:`LONE` pip offsets of its centre, where no side face's pip lies)."""
    p = sc.pips
    if len(p) == 0:
        return 0
    _, a, dist = _on_find(sc, cand)
    inside = dist <= LONE * a
    return int(max((inside & p.dark).sum(), (inside & ~p.dark).sum()))


def _weigh_unread(img: np.ndarray, sc: _Scene, unread: list[_Die], bare: list[_Die],
                  seen: dict[int, np.ndarray], finds: list[Candidate],
                  why: dict[Candidate, Why] | None = None) -> tuple[list[_Die], list[_Die]]:
    """The finds the pips could not read (``unread``) or saw no pips on (``bare``), read by
    the classifier (``seen``): returns (dice it read, dice still unread).

    A die the pips could not read the classifier reads alone when it is sure (else it
    stays unread, or shows the classifier's guess with an unsure answer); a faint one
    whose likeliest class is no die is dropped unless the frame cuts it. A bare find (no
    pips, or a faint one) is a die when the classifier is sure of it, or reads a value
    there fairly surely (:data:`BARE_GUESS`), or when the detector is sure and the
    classifier reads a value at all (unsure then, showing that value); one smeared by
    motion (:func:`_moving`, away from the other ``finds``) is a moving die.
    """
    h, w = img.shape[:2]
    dice, kept = [], []
    bare_ids = {id(d) for d in bare}
    why = {} if why is None else why
    for die in (*unread, *bare):
        p = seen[id(die)]
        best = int(np.argmax(p))
        sure = float(p[best]) >= NET_SURE
        cand = die.found
        assert cand is not None
        if id(die) in bare_ids and _moving(img, [cand], finds, p):
            die.problem, die.detail = "blur", MOVING
            kept.append(die)
            continue
        if id(die) in bare_ids and (best == _NONE or (
                float(p[best]) < BARE_GUESS and cand.score < BARE_SURE) or (
                best == _UNREADABLE and (cand.score < BARE_SURE
                                         or float(p[best]) < BARE_UNREADABLE))):
            why[cand] = Why.BARE
            continue  # no die: every face shows a pip, and a magnet or a button shows none
        cut = _cut(cand, (w, h), 0.5)
        if best == _NONE and cand.score < FAINT_NONE and not cut:
            why[cand] = Why.FAINT
            continue  # neither network sees a die: a smeared cable, a label
        if best in (_UNREADABLE, _NONE):
            if best == _UNREADABLE:
                _doubt(die, best)
            kept.append(die)
            continue
        if best < _pips_inside(sc, cand):
            _doubt(die, best)  # the face shows more pips than the classifier's value
            kept.append(die)
            continue
        die.value, die.confidence = best, float(p[best])
        if cut:
            die.problem = "edge"
        elif sure and die.problem == "ambiguous":
            die.problem, die.detail = "", ""
        dice.append(die)  # read, or unsure with the classifier's best guess
    return dice, kept


#: Most colour difference (CIELAB on OpenCV's 8-bit scale) between the body of a find
#: the pips saw nothing on, dropped as no die, and a die read in the same frame for it
#: to be taken for one of the set (:func:`_look_alike`). Measured on the real photos,
#: among the dropped finds that pass the other tests below: nell-byler's 21 dice lie
#: 4-43 from a die read (smoky beside smoky, blue beside smoky), matteop65's 11 keys,
#: plugs and labels 75 and more from its white dice ...
LOOK_ALIKE = 45.0
#: ... the classifier's most probability of "no die" there ...
ALIKE_NONE = 0.1
#: ... the least roundness of the gradients around it (a die's square body has edges
#: every way; a cable, a label's print or a key's letters run mostly one way) ...
ALIKE_ROUND = 0.5
#: ... and the most factor between its size and the median find's.
ALIKE_SIZE = 1.35
#: Most factor between the size of a find no face was read on and the dice read cleanly
#: for it to be taken for one of them (:func:`_set_apart`): a leaning die's find comes
#: out up to a third larger than a flat one's.
UNLIKE_SIZE = 1.6
#: ... and the least colour difference (as :data:`LOOK_ALIKE`) from every one of them: a
#: die smeared by motion mixes its colour with the floor's (a grey die on 400 rendered
#: hard frames lay 49 from its set), a clip or a knot is far from white dice (90 and more).
UNLIKE_COLOUR = 90.0


def _near(cand: Candidate, others: list[Candidate], reach: float) -> bool:
    """Whether a find lies within ``reach`` of the larger edge of one of ``others``.

    >>> a, b = Candidate(0, 0, 20.0, 0.9, "flat"), Candidate(10, 0, 16.0, 0.9, "flat")
    >>> _near(a, [a, b], 0.6), _near(a, [a, b], 0.4)
    (True, False)
    """
    return any(k is not cand and math.hypot(cand.x - k.x, cand.y - k.y)
               <= reach * max(cand.size, k.size) for k in others)


def _body(img: np.ndarray, cand: Candidate) -> np.ndarray:
    """The median colour (CIELAB, OpenCV's 8-bit scale) of the middle of a find: a die's
    body colour, its pips too few to sway it.

    >>> img = np.zeros((40, 40, 3), np.uint8); img[10:30, 10:30] = 255
    >>> img[19:21, 19:21] = 0  # a pip
    >>> _body(img, Candidate(20, 20, 20.0, 0.9, "flat")).tolist()
    [255.0, 128.0, 128.0]
    """
    h = max(2, round(0.4 * cand.size))
    x, y = round(cand.x), round(cand.y)
    patch = img[max(0, y - h):y + h, max(0, x - h):x + h]
    return np.median(cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3), axis=0)


def _colour_gap(body: np.ndarray, bodies: np.ndarray) -> float:
    """How far a body colour (:func:`_body`) lies from the nearest of ``bodies`` (one a row).

    >>> _colour_gap(np.array([255.0, 128, 128]), np.array([[0.0, 128, 128], [252, 128, 124]]))
    5.0
    """
    return float(np.linalg.norm(bodies - body, axis=1).min())


def _look_alike(img: np.ndarray, dropped: list[_Die], known: list[_Die], unread: list[_Die],
                seen: dict[int, np.ndarray], finds: list[Candidate]) -> list[_Die]:
    """The bare finds :func:`_weigh_unread` dropped (``dropped``) that look like a die read
    in the frame (``known``; :data:`LOOK_ALIKE`), are about as large as the other
    ``finds`` (:data:`ALIKE_SIZE`), die-shaped (:data:`ALIKE_ROUND`) and a die to the
    classifier (:data:`ALIKE_NONE`), and are no die already shown (``known``,
    ``unread``) found twice: each shown in doubt with the value the classifier finds
    likeliest. The dice of a game come as a set, so a faint find like them is one of
    them (on the real photos, smoky dice whose pips hardly show), where a key, a plug or
    a label is unlike every die read.
    """
    kin = [d.found for d in known if d.found is not None]
    if not dropped or not kin:
        return []
    bodies = np.array([_body(img, k) for k in kin])
    shown = [d.found for d in (*known, *unread) if d.found is not None]
    median = statistics.median(f.size for f in finds)
    out: list[_Die] = []
    for die in sorted(dropped, key=lambda d: d.found.score if d.found else 0.0, reverse=True):
        cand, p = die.found, seen[id(die)]
        assert cand is not None
        # within 0.6 of an edge of a die shown: the same die found twice (two flat dice
        # lie an edge apart at least)
        if (float(p[_NONE]) > ALIKE_NONE or _near(cand, shown, 0.6)
                or not 1 / ALIKE_SIZE <= cand.size / median <= ALIKE_SIZE
                or _patch_roundness(img, cand, 0.75 * cand.size) < ALIKE_ROUND
                or _colour_gap(_body(img, cand), bodies) > LOOK_ALIKE):
            continue
        shown.append(cand)
        die.value = 1 + int(np.argmax(p[1:7]))
        die.confidence = float(p[die.value])
        die.problem = "ambiguous"
        die.detail = f"die at {{where}} is found faintly and read unsurely as a {die.value}"
        out.append(die)
    return out


def _set_apart(img: np.ndarray, unread: list[_Die],
               dice: list[_Die]) -> tuple[list[_Die], list[_Die]]:
    """The finds no face was read on (``unread``) split into (kept, unlike): unlike are
    those whose body colour lies further than :data:`UNLIKE_COLOUR` from every die the
    pips read cleanly (``dice``), or whose size is off theirs by more than
    :data:`UNLIKE_SIZE`, when those dice are a set (two at least, alike in colour):
    a clip on the tray's rim or a knot in the wood is not a die, and must not refuse a
    roll the dice themselves read cleanly. A find the frame cuts is kept (refused)."""
    clean = [d.found for d in dice if d.value and not d.problem and d.found is not None]
    if len(clean) < 2 or not unread:
        return unread, []
    bodies = np.array([_body(img, f) for f in clean])
    spread = max(float(np.linalg.norm(bodies[i] - bodies[j]))
                 for i in range(len(bodies)) for j in range(i + 1, len(bodies)))
    if spread > LOOK_ALIKE:
        return unread, []  # dice of many colours: no one look to compare with
    size = statistics.median(f.size for f in clean)
    frame = (float(img.shape[1]), float(img.shape[0]))
    kept, unlike = [], []
    for die in unread:
        cand = die.found
        if die.value or cand is None or _cut(cand, frame, 0.5):
            kept.append(die)
            continue
        off = not 1 / UNLIKE_SIZE <= cand.size / size <= UNLIKE_SIZE
        (unlike if off or _colour_gap(_body(img, cand), bodies) > UNLIKE_COLOUR
         else kept).append(die)
    return kept, unlike


def _odd_one_out(img: np.ndarray, dice: list[_Die], seen: dict[int, np.ndarray]) -> None:
    """Put in doubt a lone spot read as a 1 that the classifier does not find likely
    (under :data:`GUESS`) on something unlike every other die read (:data:`LOOK_ALIKE`,
    two others at least): a laptop key, a button or a screw beside the dice of a set.
    Measured on the real photos: two laptop keys read as a 1 at 0.28 and 0.34, 115 and
    185 from the nearest die; every die showing 1 that the classifier doubts as much
    lies within 17 of another die read, and every one unlike the rest is at 0.55 or
    more. It only ever makes an answer ``unsure``."""
    doubtful = [d for d in dice if d.value == 1 and not d.problem and d.found is not None
                and float(seen[id(d)][1]) < GUESS]
    found = [(d, d.found) for d in dice if d.found is not None]
    if not doubtful or len(found) < 3:
        return
    bodies = np.array([_body(img, f) for _, f in found])
    for die in doubtful:
        i = next(k for k, (d, _) in enumerate(found) if d is die)
        if _colour_gap(bodies[i], np.delete(bodies, i, axis=0)) > LOOK_ALIKE:
            die.problem = "ambiguous"
            die.detail = "die at {where} is one spot on something unlike every other die"


#: The reason given for a find cut by the frame on which the classifier reads no face
#: (it calls it no die, or a die with no readable face): it may be a die (the classifier
#: never saw one cut), so the roll is refused, but no value is shown for it.
CUT_NONE = "something cut by the frame edge at {where} may be a die"
#: The reason given for a die smeared by motion.
MOVING = "die at {where} is moving: smeared, no face can be read"
#: Least confidence of a die in an ``ok`` answer (its grid's margin, its fit, its pips'
#: sharpness and the classifier's probability, see :func:`_check` and
#: :func:`_weigh_read`): on the real photos a laptop key read as a 1 and a die blurred
#: mid-tumble read as a 2 came out at 0.02-0.03, and one die read right; since the
#: detector's mirrored pass, a 1 read as a 2 with a side face's pip (0.15) and a cocked
#: die read as flat (0.14) fall under 0.15, and no roll read right. At the classifier's
#: own doubt (:data:`NET_DOUBT`): a die the classifier all but rules out is never
#: answered, not even where it calls the die unreadable and the pips' value stands (a
#: cocked die read from its side face: 0.199, where the first roll read right is at
#: 0.173; docs/benchmarks.md).
MIN_CONFIDENCE = NET_DOUBT
#: The reason given for a die read less surely than that.
UNSURE_READ = "die at {where} is read too unsurely to answer"


def _moving(img: np.ndarray, finds: list[Candidate], others: list[Candidate],
            probs: np.ndarray | None = None, sure: float = MOVING_SURE) -> list[Candidate]:
    """The ``finds`` that are dice smeared by motion: not beside one of the ``others``
    (within an edge of its centre: a side face of a die seen at a slant looks smeared
    too), the gradients around each run one way (:data:`SMEARED`) and the face
    classifier (its ``probs`` when given, one row per find) is ``sure`` no face can be
    read there (:data:`MOVING_SURE` unless told).

    A die blurred mid-tumble is a streak the detector scores low and the pips cannot
    read; left out, the dice still on the tray would be answered as the whole roll.
    """
    smeared = []
    for i, c in enumerate(finds):
        if _near(c, others, 1.0):
            continue
        if _patch_roundness(img, c, c.size) < SMEARED:
            smeared.append(i)
    if not smeared:
        return []
    if probs is None:
        probs = classify(img, [(finds[i].x, finds[i].y, finds[i].size) for i in smeared])
    else:
        probs = probs.reshape(len(finds), -1)[smeared]
    return [finds[i] for i, p in zip(smeared, probs, strict=True)
            if float(p[_UNREADABLE]) >= sure]


def _read_as(sc: _Scene, die: _Die, value: int) -> _Die | None:
    """``die`` read again as ``value`` from its find's top face alone: when exactly that
    many pips of its colour lie within a half edge of the find's centre and they make
    that face, else None. (Seen at a slant, a die's side face shows pips just past its
    top face's edge, which the pips' own reading may have taken in.)"""
    cand = die.found
    if cand is None:
        return None
    centre, a, dist = _on_find(sc, cand)
    own = np.flatnonzero((sc.pips.dark == die.dark) & (dist <= HALF_EDGE * a))
    if len(own) != value:
        return None
    face = _face_of(sc.pips, own[np.argsort(dist[own])], centre, a, die.dark)
    return face if face is not None and face.value == value else None


def _take(die: _Die, face: _Die, sure: float) -> None:
    """Read ``die`` as ``face`` (its top face read again), as sure as the classifier is."""
    die.value, die.fit, die.offset, die.pips = face.value, face.fit, face.offset, face.pips
    die.confidence = min(face.confidence, sure)


def _doubt(die: _Die, seen: int) -> None:
    """Mark a die whose face the classifier reads otherwise (``seen``: its best class)."""
    if seen == _UNREADABLE:
        moving = die.found is not None and die.found.kind == "moving"
        die.problem = die.problem if die.problem in ("blur", "cocked") else (
            "blur" if moving else "cocked")
        die.detail = "die at {where} is leaning or moving: no face can be read"
    elif not die.value:
        die.problem = "ambiguous"
        die.detail = f"die at {{where}} shows more pips than the {seen} it looks like"
    else:
        die.problem = "ambiguous"
        die.detail = f"die at {{where}}: its pips read {die.value} but it looks like a {seen}"


def _check(sc: _Scene, dice: list[_Die]) -> None:
    """Mark each die's problem (edge, cocked, blur, ambiguous) and its confidence."""
    if not dice:
        return
    p = sc.pips
    h, w = sc.work.shape[:2]
    # each layout's aspect as these dice draw it (a 6's columns may sit close together,
    # so its grid is no square): a face is compared with faces of its own value only,
    # by the aspect of its grid, whatever its turn
    refs = {}
    for value in (4, 5, 6):
        skews = [die.fit.skew for die in dice if die.value == value]
        if len(skews) >= 3:
            refs[value] = _median(skews)
    # dice in one frame are one size: a face read at another size was framed wrongly.
    # The size is the die's body where the detector found it (a 2's pips may sit
    # towards the centre: their spread is the dice's design, not the die's size)
    multi = [_size_of(die) for die in dice if die.value > 1]
    sizes = _median(multi) if len(multi) >= 3 else None
    # every die's pips' gradient structure at once (its cost is per call, not per pip)
    own = [np.asarray(die.pips, np.intp) for die in dice]
    at = np.concatenate(own)
    tensors = np.split(sc.tensor_at(p.x[at], p.y[at]), np.cumsum([len(i) for i in own])[:-1])
    for die, tensor in zip(dice, tensors, strict=True):
        fit = die.fit
        if die.value == 1:
            c = fit.centre
            reach = HALF_EDGE * die.offset
            out = c[0] < reach or c[1] < reach or c[0] > w - 1 - reach or c[1] > h - 1 - reach
            margin = 1.0
        else:
            corners = fit.corners(HALF_EDGE)
            out = bool(
                (corners[:, 0] < 0).any()
                or (corners[:, 1] < 0).any()
                or (corners[:, 0] > w - 1).any()
                or (corners[:, 1] > h - 1).any()
            )
            # read the face off the whole grid: a pip the finder missed still shows as
            # contrast on its spot, and a spot that is neither clearly pip nor clearly
            # blank face leaves the value in doubt
            spots = _near_spots(sc, die, _spots(sc, die))
            on = spots >= SPOT_ON
            value = value_of_spots(on)
            unclear = (spots > SPOT_OFF) & ~on
            if value is None or unclear.any():
                die.problem = die.problem or "ambiguous"
            else:
                die.value = value
            lowest_on = min(float(spots[on].min()), 1.0) if on.any() else 0.0
            margin = lowest_on - (float(spots[~on].max()) if (~on).any() else 0.0)
        if sizes is not None and not 0.75 <= _size_of(die) / sizes <= 1.33:
            die.problem = die.problem or "ambiguous"
        if out:
            die.problem = "edge"
        elif die.value >= 4 and (die.value in refs or die.value != 6):
            ref = refs.get(die.value)
            dev = abs(fit.skew / ref - 1.0) if ref is not None else abs(fit.skew - 1.0)
            if dev > (COCKED_ASPECT if ref is not None else 0.8):
                die.problem = die.problem or "cocked"
        # motion blur smears pips along one direction: the gradients around them lose
        # their roundness (a sharp pip has an isotropic structure tensor)
        roundness = _roundness(*(float(v) for v in tensor.sum(axis=0)))
        if roundness < MIN_ROUNDNESS:
            die.problem = "blur"
        die.confidence = min(max(
            min(margin, 1.0) * (1.0 - fit.residual) * min(1.0, 0.5 + roundness), 0.0), 1.0)


#: Most a face's grid aspect may differ, as a share, from the median of three or more
#: faces of its value in the frame before it is called cocked (a die leaning 40 degrees
#: shows its face foreshortened to 0.77, an aspect 1.3 times the flat faces').
COCKED_ASPECT = 0.3


def _size_of(die: _Die) -> float:
    """A die's size for comparing with the others': its find's edge when the detector
    found it (working px do not matter: the dice of one frame share them), else its
    pips' spread scaled to an edge."""
    if die.found is not None:
        return float(die.found.size)
    return 2 * HALF_EDGE * die.offset


#: Nearest a grid spot may lie to a pip found on its face, in pip diameters, for its
#: contrast to be read on the widened maps (:func:`_scene` widens each pip's contrast by
#: 0.35 of a pip so a grid a little off still finds it): nearer, the widening alone
#: makes the spot read as the pip, so it is read on the maps as found (:func:`_near_spots`).
#: Measured on sketched dice: a 6's middle spots with its columns at 0.6 of the usual
#: spread lie 0.89 pip diameters from them and read 0.55 widened; a 2's blank spots with
#: its pips drawn in to 0.14 of the edge lie 0.86 away and read 0.7-1.0 widened.
PIP_APART = 1.0


def _near_spots(sc: _Scene, die: _Die, spots: np.ndarray) -> np.ndarray:
    """``spots`` (the contrast on a face's nine grid spots) with those nearer a pip of the
    face than :data:`PIP_APART`, but not on it, read again on the maps before widening:
    a 6 whose columns sit close together, a 2 whose pips sit towards the centre. A pip
    really there still reads as one."""
    raw = sc.dark_raw if die.dark else sc.light_raw
    if raw is None or die.spots_map is not None:
        return spots
    p = sc.pips
    grid = die.fit.grid()
    own = np.stack([p.x[die.pips], p.y[die.pips]], axis=1)
    d = _median(p.d[die.pips])
    r = np.hypot(grid[:, None, 0] - own[None, :, 0], grid[:, None, 1] - own[None, :, 1]).min(1)
    near = (r > 0.5 * d) & (r < PIP_APART * d)
    if not near.any():
        return spots
    out = spots.copy()
    peak = _median(p.peak[die.pips])
    out[near] = _sample(raw, *grid[near].T).astype(np.float32) / peak
    return out


def _shape(fit: LayoutFit) -> np.ndarray:
    """The face's shape in the image, whatever its size: its map scaled to unit area,
    times its own transpose (the identity for a face seen square on)."""
    g = fit.affine / fit.offset
    return g @ g.T


def _spots(sc: _Scene, die: _Die, at: np.ndarray | None = None) -> np.ndarray:
    """The contrast on the nine grid spots of a die's fit (or at points ``at``, n x 2
    working px), as a share of its own pips': on the scene's maps, or, for a face read
    closer, on the channel its pips stand out in (see :func:`_best_plane`)."""
    p = sc.pips
    at = die.fit.grid() if at is None else at
    if die.spots_map is None:
        peak = _median(p.peak[die.pips])
        return _sample(sc.peak_map(die.dark), *at.T).astype(np.float32) / peak
    m, x0, y0 = die.spots_map
    own = _sample(m, p.x[die.pips] - x0, p.y[die.pips] - y0).astype(np.float32)
    return _sample(m, *(at - (x0, y0)).T).astype(np.float32) / max(_median(own), 1.0)


def _side_faces(sc: _Scene, dice: list[_Die]) -> None:
    """Mark a face read while a rounder-pipped face of the same die sits beside it.

    On an angled view a die shows its top and one or two side faces; the side faces are
    foreshortened, so their pips look more oval than the top face's.
    """
    p = sc.pips
    if len(p) == 0:
        return
    for die in dice:
        reach = 1.2 * 2 * HALF_EDGE * die.offset
        dist = np.hypot(p.x - die.fit.centre[0], p.y - die.fit.centre[1])
        near = (dist <= reach) & (p.dark == die.dark)
        near[die.pips] = False
        if not near.any():
            continue
        if _median(p.elong[near]) < _median(p.elong[die.pips]) - 0.1:
            die.problem = die.problem or "ambiguous"


def _roundness(jxx: float, jyy: float, jxy: float) -> float:
    """Isotropy of a structure tensor: 1 for round gradients, 0 for one direction only."""
    half_tr = (jxx + jyy) / 2
    disc = math.sqrt(max(half_tr**2 - (jxx * jyy - jxy**2), 0.0))
    return float((half_tr - disc) / max(half_tr + disc, 1e-6))


def _patch_roundness(img: np.ndarray, cand: Candidate, half: float) -> float:
    """The roundness of the gradients in the square ``half`` wide each side of a find
    (1.0 where the patch is too small to tell)."""
    h = max(3, round(half))
    x0, y0 = max(0, round(cand.x) - h), max(0, round(cand.y) - h)
    patch = img[y0:round(cand.y) + h, x0:round(cand.x) + h]
    if min(patch.shape[:2]) < 3:
        return 1.0
    patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    return _roundness(float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum()))


def _smeared(sc: _Scene) -> bool:
    """Whether the frame's strong edges all run one way (motion blur over the whole frame)."""
    t = sc.tensor_map().reshape(-1, 3)
    energy = t[:, 0] + t[:, 1]
    strong = energy >= max(float(np.percentile(energy, 98)), 1.0)
    if strong.sum() < 16:
        return False
    return _roundness(*(float(v) for v in t[strong].sum(axis=0))) < MIN_ROUNDNESS


_REASON_ORDER = (Reason.BLUR, Reason.EDGE, Reason.COCKED, Reason.AMBIGUOUS)


def _zone(calibration: Any, x: float, y: float) -> str:
    zone_of = getattr(calibration, "zone_of", None)
    if zone_of is None:
        return "unknown"
    try:
        zone = str(zone_of(x, y))
    except Exception:  # a calibration that cannot place a point leaves the zone unknown
        return "unknown"
    return zone if zone in ("tray", "ledge") else "unknown"


#: Least difference (8-bit, the strongest channel, 99th percentile over the middle of a
#: find, both smoothed 5x5) between a frame and the calibration's empty tray for a find
#: to be something put there: a die's pips differ by 60 and more even on a floor of its
#: own colour, and a 1's pip covers 3 % of that middle; a clip, a knot or the wood's
#: grain that was there empty differs by noise and light.
BACKGROUND_SAME = 25.0


def _background(calibration: Any, img: np.ndarray) -> np.ndarray | None:
    """The calibration's empty-tray image when it has one of the frame's size."""
    get = getattr(calibration, "background_image", None)
    bg = get() if callable(get) else None
    if not isinstance(bg, np.ndarray) or bg.shape != img.shape or bg.dtype != np.uint8:
        return None
    return bg


def _on_empty_tray(img: np.ndarray, bg: np.ndarray | None,
                   finds: list[Candidate]) -> list[Candidate]:
    """The finds that were there on the empty tray (:data:`BACKGROUND_SAME`): fixtures and
    texture, never dice.

    >>> tray = np.full((80, 80, 3), 120, np.uint8)
    >>> frame = tray.copy(); frame[10:30, 10:30] = 240
    >>> found = [Candidate(20, 20, 20.0, 0.9, "flat"), Candidate(60, 60, 20.0, 0.9, "flat")]
    >>> [c.x for c in _on_empty_tray(frame, tray, found)]
    [60]
    """
    if bg is None:
        return []
    same = []
    for c in finds:
        h = max(2, round(0.4 * c.size))
        x, y = round(c.x), round(c.y)
        ys, xs = slice(max(0, y - h), y + h), slice(max(0, x - h), x + h)
        a, b = img[ys, xs], bg[ys, xs]
        if a.size == 0:
            continue
        diff = cv2.absdiff(cv2.GaussianBlur(a, (5, 5), 0), cv2.GaussianBlur(b, (5, 5), 0))
        if float(np.percentile(diff.max(axis=2), 99)) < BACKGROUND_SAME:
            same.append(c)
    return same


def read(frame: np.ndarray, calibration: Any = None, dice: int | None = None, *,
         teaching: Any = None) -> Reading:
    """Read the dice in a BGR ``frame``; ``dice`` is the number expected (None: any).

    With a ``teaching`` (:class:`dicetray.vision.teaching.Teaching`: the dice the players
    confirmed on this tray) the classifier's answers are read by its prototypes.

    With a ``calibration`` (see :mod:`dicetray.vision.calibration`) its die size sets
    the scale and each die gets its zone; without one the dice set the scale.

    >>> read(np.zeros((100, 100, 3), np.uint8)).reason
    'no-dice: nothing die-like in the frame'
    >>> read(np.zeros((5, 5), np.float64))
    Traceback (most recent call last):
    ...
    dicetray.vision.errors.FrameError: a frame must be 8-bit (uint8), got float64
    """
    start = time.perf_counter()
    img = _check_frame(frame)
    if dice is not None and dice < 0:
        raise ValueError(f"the number of dice cannot be negative, got {dice}")
    _check_size(img, calibration)
    known = getattr(calibration, "die_size", None)
    finds = find_dice(img, FAINT_FIND, float(known) if known else None)
    why: dict[Candidate, Why] = {}
    for c in _on_empty_tray(img, _background(calibration, img), finds):
        why[c] = Why.BACKGROUND
    candidates = [c for c in finds if c.score >= THRESHOLD and c not in why]
    # the classifier reads every find while the pips are read (see _opinions)
    asked = classify_soon(img, [(c.x, c.y, c.size) for c in candidates])
    die_size = known or median_size(candidates)
    sc, found = _analyse(img, float(die_size) if die_size else None, candidates)
    found, unread, bare = _confirm(sc, found, candidates, (img.shape[1], img.shape[0]))
    _check(sc, found)
    _side_faces(sc, found)
    faint = [c for c in finds if c.score < THRESHOLD and c not in why]
    early = dict(zip(candidates, asked.result(), strict=True))
    found, unread, left_out = _second_opinion(img, sc, found, unread, bare, faint, early, why,
                                              teaching)
    for die in found:
        if not die.problem and die.confidence < MIN_CONFIDENCE:
            die.problem, die.detail = "ambiguous", UNSURE_READ
    count = len(found) + len(unread)
    # told how many dice the tray holds and fewer were read: the likeliest of the finds
    # left out are shown too, as guesses, in the unsure answer (the roll is refused)
    guessed = _guesses(sc, left_out, dice - count) if dice is not None and count < dice else []
    s = sc.scale
    readings = tuple(
        DieReading(
            value=die.value,
            x=float(die.fit.centre[0]) / s,
            y=float(die.fit.centre[1]) / s,
            angle=die.fit.angle if die.value > 1 else 0.0,
            zone=_zone(calibration, float(die.fit.centre[0]) / s, float(die.fit.centre[1]) / s),
            confidence=die.confidence,
            size=2 * HALF_EDGE * die.offset / s,
        )
        for die in sorted((*found, *guessed), key=lambda d: (d.fit.centre[1], d.fit.centre[0]))
    )
    reason = ""
    problems = [die for die in (*found, *unread) if die.problem]
    if problems:
        kind = min((d.problem for d in problems), key=_REASON_ORDER.index)
        die = next(d for d in problems if d.problem == kind)
        where = f"({die.fit.centre[0] / s:.0f}, {die.fit.centre[1] / s:.0f})"
        detail = die.detail or {
            "blur": "pips blurred at {where}",
            "edge": "die cut by the frame edge at {where}",
            "cocked": "die at {where} is not flat",
            "ambiguous": "pips of the die at {where} do not fit one face cleanly",
        }[kind]
        reason = f"{kind}: {detail.format(where=where)}"
    elif dice is not None and count != dice:
        reason = f"wrong-count: expected {dice} dice, found {count}"
        if guessed:
            reason += f" ({len(guessed)} more shown as a guess)"
    elif not found and dice != 0:
        reason = (
            "blur: the frame is smeared, no pips sharp enough to read"
            if _smeared(sc)
            else "no-dice: nothing die-like in the frame"
        )
    shown = {d.found for d in (*found, *unread, *guessed)}
    passed_by = tuple(
        LeftOut(c.x, c.y, c.size, why.get(c, Why.FAINT if c.score < THRESHOLD else Why.BARE))
        for c in finds if c not in shown)
    ms = (time.perf_counter() - start) * 1000
    return Reading("unsure" if reason else "ok", reason, readings, ms, passed_by)
