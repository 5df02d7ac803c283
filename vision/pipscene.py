"""Stage 2a, the pips' scene: the frame scaled so pips are a few pixels wide, the pip
candidates of both polarities (:mod:`dicetray.vision.pips`) kept where the ring around
them is evenly face-coloured, and their contrast maps; read only in the windows around
the dice the detector found, when it found any.

>>> import numpy as np, cv2
>>> tray = np.full((120, 160, 3), (60, 110, 40), np.uint8)
>>> _ = cv2.rectangle(tray, (50, 40), (80, 70), (235, 235, 235), -1)
>>> _ = cv2.circle(tray, (65, 55), 3, (20, 20, 20), -1)
>>> sc = scene(tray, 1.0)
>>> len(sc.pips), bool(sc.pips.dark[0])
(1, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from dicetray.vision.detector import Candidate
from dicetray.vision.faces import groups, linkable
from dicetray.vision.gradients import Window, structure_at, structure_windows
from dicetray.vision.layouts import FaceLayouts, LayoutFit, fit_layout
from dicetray.vision.measure import median, odd, pixels, roundness
from dicetray.vision.pips import (
    Pips,
    channels,
    chroma,
    ellipse,
    find_pips_in,
    pip_maps_with,
)
from dicetray.vision.resize import resize
from dicetray.vision.settings import DEFAULT_SETTINGS, ReaderSettings

__all__ = ["Scene", "face_pips", "face_tolerance", "links", "pips_around", "scene", "smeared",
           "widened", "windows"]

#: Points on the ring sampled around each pip.
_RING_POINTS = 12
_TURN = np.linspace(0, 2 * np.pi, _RING_POINTS, endpoint=False)
_COS, _SIN = np.cos(_TURN), np.sin(_TURN)


@dataclass
class Scene:
    """The working image and everything derived from it for one frame (or, when the
    detector has found the dice, for the windows around them; elsewhere all is zero),
    the settings it is read with, and the layouts its faces are fitted to."""

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
    st: ReaderSettings = DEFAULT_SETTINGS
    layouts: FaceLayouts | None = None  # the faces the tray's dice draw (None: the fixed)
    # with ``layouts``: the dice's edge (working px) as the detector found them, the size a
    # face fitted to those layouts has (None: none found)
    die_size: float | None = None
    # the layouts fitted so far, by the pips' points (see fit): as faces are split and
    # finds read, the same pips are fitted again and again
    fitted: dict[tuple[Any, ...], LayoutFit | None] = field(
        default_factory=dict, repr=False, compare=False)

    def fit(self, points: np.ndarray) -> LayoutFit | None:
        """:func:`~dicetray.vision.layouts.fit_layout` of ``points`` (n x 2 working px) to
        the scene's layouts, each set of points fitted once."""
        key = (points.dtype.str, points.shape, points.tobytes(), id(self.layouts))
        if key not in self.fitted:
            self.fitted[key] = fit_layout(points, self.layouts)
        return self.fitted[key]

    def peak_map(self, dark: bool) -> np.ndarray:
        return self.dark_max if dark else self.light_max

    def tensor_at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The gradient structure tensor (gxx, gyy, gxy) at points, n x 3 float32."""
        return structure_at(self.work, self.windows, self.box, x, y)

    def tensor_map(self) -> np.ndarray:
        """The gradient structure tensor of every pixel (zero outside the windows)."""
        return structure_windows(self.work, self.windows, self.box)

    def on_find(self, cand: Candidate) -> tuple[np.ndarray, float, np.ndarray]:
        """A find in working px: its centre, its pip offset ``a``, and each pip's distance
        from the centre."""
        p, s = self.pips, self.scale
        centre = np.array([cand.x * s, cand.y * s])
        return (centre, cand.size * s / (2 * self.st.half_edge),
                np.hypot(p.x - centre[0], p.y - centre[1]))


def _ring(pips: Pips, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points on a circle of ``radius`` around each pip (pips x 12)."""
    rx = pips.x[:, None] + radius[:, None] * _COS[None, :]
    ry = pips.y[:, None] + radius[:, None] * _SIN[None, :]
    return rx, ry


def face_pips(work: np.ndarray, kernel: int, st: ReaderSettings, closer: bool = False,
              hue: bool = False) -> tuple[Pips, np.ndarray, Any]:
    """Pip candidates whose surrounding ring is evenly face-coloured, and that colour;
    each also cut out of a larger blob (see :func:`dicetray.vision.pips.find_pips`: two
    pips, or a pip and a side face's mark, that a brighter gap runs together, as a JPEG's
    ringing does between a red face's white pips); ``closer``: looked for in every colour
    channel too; ``hue``: and in each opponent channel alone
    (:func:`dicetray.vision.pips.chroma`: a red pip on a grey or blue face)."""
    extremes = channels(work)
    hues = chroma(work) if hue else ()
    # each opponent channel on its own: maxed into the maps above, a face's light swirl
    # runs a pip's blob into the next one's
    maps, *own = pip_maps_with(work, kernel, every_channel=closer, extremes=extremes,
                               planes=closer, more=hues)
    # cut out of larger blobs at first as when looking closer: where only the closer look
    # cut them, a face whose pips ran together read more pips closer than at first, and
    # was refused (measured: docs/benchmarks.md, 2026-11-30, late); every map's pips
    # found at once, each map's as when found alone
    pips, *more = find_pips_in([maps, *own], kernel, split=True)
    for found, hat in zip(more, own, strict=True):
        pips = Pips.join([pips, found.take(found.apart_from(pips))])
        maps = replace(maps, planes=maps.planes + hat.planes)
    if len(pips) == 0:
        return pips, np.zeros((0, 3), np.float32), maps
    radius = pips.d / 2 + np.maximum(st.ring_gap_px, st.ring_gap * pips.d)
    rx, ry = _ring(pips, radius)
    need = st.spot_off * pips.peak[:, None]
    at_pip, on_ring = pixels(work.shape, pips.x, pips.y), pixels(work.shape, rx, ry)
    # every channel's samples at once, sorted as whole numbers (in the same order as
    # floats): pips x channels at the pips, pips x ring points x channels on the rings
    looked = (*extremes, *hues) if closer else extremes
    colour = np.sort(work[on_ring], axis=1)
    centre = np.stack([ch[at_pip] for ch in looked], axis=1)
    ring = np.sort(np.stack([ch[on_ring] for ch in looked], axis=2), axis=1)
    if closer and work.ndim == 3:
        centre = np.concatenate([centre, work[at_pip]], axis=1)
        ring = np.concatenate([ring, colour], axis=2)
    k = st.ring_spoilers
    # the (k+1)-th worst ring sample, so a neighbouring pip does not veto a pip
    dark_ok = (ring[:, k] >= centre + need).any(axis=1)
    light_ok = (ring[:, -1 - k] <= centre - need).any(axis=1)
    ok = np.where(pips.dark, dark_ok, light_ok)
    half = colour.shape[1] // 2
    face = (colour[:, half - 1].astype(np.float32) + colour[:, half]) / 2  # the median
    return pips.take(ok), face[ok], maps


def pips_around(img: np.ndarray, cand: Candidate, sc: Scene,
                mirrored: bool = False) -> tuple[Pips, np.ndarray]:
    """The pips found in the frame ``img`` around a find (``patch`` of its edge each side,
    the part inside the frame) at the scene's scale, as :func:`face_pips` finds them, and
    each one's face colour (BGR); none where that part is too small to look at. For a
    find outside the windows the scene was read in (see :func:`scene`). ``mirrored``: the
    part of the patch beyond the frame's edge filled with the frame's mirror image there,
    so a pip the edge cuts in two is whole again, ringed by its face (none where the
    patch lies inside the frame).

    >>> import cv2
    >>> tray = np.full((120, 160, 3), (60, 110, 40), np.uint8)
    >>> _ = cv2.rectangle(tray, (50, 40), (80, 70), (235, 235, 235), -1)
    >>> _ = cv2.circle(tray, (65, 55), 3, (20, 20, 20), -1)
    >>> pips, face = pips_around(tray, Candidate(65.0, 55.0, 30.0, 0.2, "flat"), scene(tray, 1.0))
    >>> len(pips), bool(pips.dark[0]), face[0].tolist()
    (1, True, [235.0, 235.0, 235.0])
    >>> cut = tray[:55]  # the frame's edge through the pip's middle: half a pip
    >>> [len(pips_around(cut, Candidate(65.0, 50.0, 30.0, 0.2, "flat"), scene(cut, 1.0), m)[0])
    ...  for m in (False, True)]
    [0, 1]
    """
    st, s = sc.st, sc.scale
    h, w = img.shape[:2]
    r = st.patch * cand.size
    left, top = math.floor(cand.x - r), math.floor(cand.y - r)
    right, bottom = math.ceil(cand.x + r), math.ceil(cand.y + r)
    x0, y0, x1, y1 = max(0, left), max(0, top), min(w, right), min(h, bottom)
    size = (round((x1 - x0) * s), round((y1 - y0) * s))
    if min(size) < st.kernel_side:
        return Pips.empty(), np.zeros((0, 3), np.float32)
    patch = img[y0:y1, x0:x1]
    if mirrored:
        # how far the patch reaches past each edge, at most the part inside less a pixel
        # (a mirror shows only what is there)
        beyond = [min(max(0, v), n - 1) for v, n in ((y0 - top, y1 - y0), (bottom - y1, y1 - y0),
                                                     (x0 - left, x1 - x0), (right - x1, x1 - x0))]
        if not any(beyond):
            return Pips.empty(), np.zeros((0, 3), np.float32)
        patch = cv2.copyMakeBorder(patch, *beyond, cv2.BORDER_REFLECT)
        size = (round(patch.shape[1] * s), round(patch.shape[0] * s))
    pips, face, _ = face_pips(resize(patch, size), st.kernel_side, st)
    return pips, face


def windows(candidates: list[Candidate], s: float, shape: tuple[int, ...],
            st: ReaderSettings = DEFAULT_SETTINGS) -> list[Window]:
    """Working-image windows around the dice found, overlapping ones merged into one.

    >>> windows([Candidate(50, 50, 20.0, 0.9, "flat"), Candidate(70, 50, 20.0, 0.9, "flat")],
    ...         1.0, (100, 200))
    [(24, 24, 96, 76)]
    """
    h, w = round(shape[0] * s), round(shape[1] * s)
    boxes = []
    for c in candidates:
        r = st.reach * c.size * s
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
    m = st.kernel_side
    return [(x0, y0, x1, y1) for x0, y0, x1, y1 in boxes if x1 - x0 >= m and y1 - y0 >= m]


def widened(contrast: np.ndarray, pip: float, st: ReaderSettings) -> np.ndarray:
    """A pip contrast map widened (:attr:`~dicetray.vision.settings.ReaderSettings.widen`)
    for pips ``pip`` px wide."""
    return cv2.dilate(contrast, ellipse(odd(st.widen * pip)))


def scene(img: np.ndarray, s: float, wins: list[Window] | None = None,
          st: ReaderSettings = DEFAULT_SETTINGS) -> Scene:
    """The scene at scale ``s``: of the whole frame, or only inside the windows ``wins``."""
    h, w = img.shape[:2]
    size = (max(1, round(h * s)), max(1, round(w * s)))
    if wins is None:
        wins = [(0, 0, size[1], size[0])]
    kernel = st.kernel_side
    work = np.zeros((*size, 3), np.uint8)
    parts = []
    for x0, y0, x1, y1 in wins:
        # the frame region that scales onto this window (to within half a working pixel)
        sx0, sy0 = math.floor(x0 / s), math.floor(y0 / s)
        sx1, sy1 = min(w, math.ceil(x1 / s)), min(h, math.ceil(y1 / s))
        sub = resize(img[sy0:sy1, sx0:sx1], (x1 - x0, y1 - y0))
        work[y0:y1, x0:x1] = sub
        pips, face, maps = face_pips(sub, kernel, st)
        parts.append((x0, y0, pips, face, maps))
    pips = Pips.join([p.shifted(x0, y0) for x0, y0, p, _, _ in parts])
    face = np.concatenate([f for *_, f, _ in parts]) if parts else np.zeros((0, 3), np.float32)
    dmed = median(pips.d) if len(pips) else st.work_pip
    # one block for the four maps: a third of the time of four (each too large to be
    # kept for the next)
    dark_max, light_max, dark_raw, light_raw = np.zeros((4, *size), np.uint8)
    for x0, y0, _, _, maps in parts:
        win = (slice(y0, y0 + maps.dark.shape[0]), slice(x0, x0 + maps.dark.shape[1]))
        dark_max[win] = widened(maps.dark, dmed, st)
        light_max[win] = widened(maps.light, dmed, st)
        dark_raw[win] = maps.dark
        light_raw[win] = maps.light
    # the structure tensor is worked out only where it is asked for (see pipcheck)
    return Scene(work=work, scale=s, pips=pips, face=face, dark_max=dark_max,
                 light_max=light_max, windows=wins, box=odd(st.tensor_box * dmed),
                 dark_raw=dark_raw, light_raw=light_raw, st=st)


def face_tolerance(peak: np.ndarray | float, st: ReaderSettings) -> np.ndarray | float:
    """Most colour distance between two parts of one face, for pips of contrast ``peak``:
    a difference fainter than :attr:`~dicetray.vision.settings.ReaderSettings.spot_off` of
    it (or than ``face_colour``) is the face's own shading."""
    return np.maximum(st.face_colour, st.spot_off * peak)


def links(sc: Scene) -> list[list[int]]:
    """The scene's pips grouped into faces: by polarity, size, distance and an unbroken
    run of face colour between them (:mod:`dicetray.vision.faces`)."""
    p, st = sc.pips, sc.st
    n = len(p)
    if n < 2:
        return [[i] for i in range(n)]
    i, j = np.triu_indices(n, 1)
    dist = np.hypot(p.x[i] - p.x[j], p.y[i] - p.y[j])
    dmean = (p.d[i] + p.d[j]) / 2
    ratio = np.maximum(p.d[i], p.d[j]) / np.minimum(p.d[i], p.d[j])
    fdist = np.sqrt(((sc.face[i] - sc.face[j]) ** 2).sum(axis=1))
    tol = face_tolerance(np.minimum(p.peak[i], p.peak[j]), st)
    cand = ((p.dark[i] == p.dark[j]) & (dist <= st.max_link * dmean)
            & (ratio <= st.pip_ratio) & (fdist <= tol))
    pairs = np.stack([i[cand], j[cand]], axis=1)
    if len(pairs) == 0:
        return groups(n, pairs)
    on_pip = np.zeros(sc.work.shape[:2], np.uint8)
    for x, y, d in zip(p.x.tolist(), p.y.tolist(), p.d.tolist(), strict=True):
        cv2.circle(on_pip, (round(x), round(y)), round(d / 2 + st.ring_gap_px), 1, -1)
    # 0 or 1: the same bytes read as bools, not a copy
    ok = linkable(sc.work, on_pip.view(bool), p.x, p.y, sc.face, pairs, tol[cand])
    return groups(n, pairs[ok])


def smeared(sc: Scene) -> bool:
    """Whether the frame's strong edges all run one way (motion blur over the whole frame)."""
    st = sc.st
    t = sc.tensor_map().reshape(-1, 3)
    energy = t[:, 0] + t[:, 1]
    strong = energy >= max(float(np.quantile(energy, 1.0 - st.strong_edges)), 1.0)
    if strong.sum() < st.smear_pixels:
        return False
    return roundness(*(float(v) for v in t[strong].sum(axis=0))) < st.min_roundness

