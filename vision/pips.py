"""Pip candidates: small, round, high-contrast blobs of either polarity.

Dark pips are found on the per-pixel *maximum* channel (a dark pip is dark in every
channel, a face is bright in at least one, even a blue one); light pips on the
per-pixel *minimum* channel (a light pip is bright in every channel, a coloured or
black face is dark in at least one). A morphological hat transform with a kernel a
little larger than a pip keeps exactly the blobs smaller than it.

>>> import numpy as np, cv2
>>> face = np.full((60, 60, 3), 230, np.uint8)
>>> _ = cv2.circle(face, (30, 30), 4, (20, 20, 20), -1)
>>> found = find_pips(face, kernel=13)
>>> len(found), bool(found.dark[0]), round(float(found.x[0])), round(float(found.y[0]))
(1, True, 30, 30)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["PipMaps", "Pips", "channels", "chroma", "ellipse", "find_pips", "find_pips_in",
           "hat_maps", "hat_maps_of", "pip_maps"]

#: A blob counts as a pip candidate when its contrast against its face reaches this.
MIN_PEAK = 38.0
#: Pixels belong to a blob above this fraction of the blob's own peak contrast.
LOW_FRACTION = 0.45
MIN_LOW = 16.0
#: The least response a pixel needs, per strongest response near it, to belong to a blob
#: (above :data:`MIN_LOW` and at least :data:`LOW_FRACTION` of that strongest).
_LEAST = np.maximum(np.ceil(LOW_FRACTION * np.arange(256)), math.floor(MIN_LOW) + 1).clip(
    0, 255).astype(np.uint8)


@dataclass(frozen=True)
class PipMaps:
    """Per-polarity contrast maps of a working image (uint8, same size as it)."""

    dark: np.ndarray
    light: np.ndarray
    kernel: int
    #: each plane's own (dark, light) maps, when asked for (see :func:`hat_maps`)
    planes: tuple[tuple[np.ndarray, np.ndarray], ...] = ()

    def of(self, dark: bool) -> np.ndarray:
        """The map for one polarity."""
        return self.dark if dark else self.light


@dataclass(frozen=True)
class Pips:
    """Pip candidates as parallel arrays (working-image pixels)."""

    x: np.ndarray
    y: np.ndarray
    d: np.ndarray  # equivalent diameter
    peak: np.ndarray  # contrast against the surrounding face, 0..255
    dark: np.ndarray  # bool: dark pip on a lighter face
    elong: np.ndarray  # major/minor axis ratio of the blob
    fill: np.ndarray  # area / (pi/4 * major * minor): 1 for a clean ellipse

    def __len__(self) -> int:
        return len(self.x)

    @classmethod
    def empty(cls) -> Pips:
        """No candidates."""
        none = np.zeros(0)
        return cls(none, none, none, none, np.zeros(0, bool), none, none)

    @classmethod
    def join(cls, parts: list[Pips]) -> Pips:
        """The candidates of several sets as one."""
        if not parts:
            return cls.empty()
        return cls(*(np.concatenate(column)
                     for column in zip(*(p.columns() for p in parts), strict=True)))

    def columns(self) -> tuple[np.ndarray, ...]:
        """The seven arrays, in the order of the fields."""
        return self.x, self.y, self.d, self.peak, self.dark, self.elong, self.fill

    def shifted(self, dx: float, dy: float) -> Pips:
        """The same candidates moved by (dx, dy)."""
        return Pips(self.x + dx, self.y + dy, self.d, self.peak, self.dark, self.elong, self.fill)

    def take(self, index: np.ndarray) -> Pips:
        """The candidates at ``index`` (bool mask or integer indices)."""
        return Pips(self.x[index], self.y[index], self.d[index], self.peak[index],
                    self.dark[index], self.elong[index], self.fill[index])

    def apart_from(self, other: Pips) -> np.ndarray:
        """Which of these candidates lie clear of every one of ``other`` of the same
        polarity (no nearer than half their own diameter, and 2 px): pips found anew.

        >>> one = np.ones(2)
        >>> new = Pips(np.array([1.0, 9.0]), 0 * one, 4 * one, 50 * one, one > 0, one, one)
        >>> new.apart_from(new.take(np.array([0]))).tolist()
        [False, True]
        """
        dist = np.hypot(self.x[:, None] - other.x[None, :], self.y[:, None] - other.y[None, :])
        near = (dist < np.maximum(self.d / 2, 2.0)[:, None]) & (
            self.dark[:, None] == other.dark[None, :])
        return ~near.any(axis=1)


def channels(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The per-pixel maximum and minimum over the colour channels."""
    if image.ndim == 2:
        return image, image
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)


#: How far the opponent channels' spread about neutral grey is stretched (JPEG keeps
#: little of a photo's colour contrast).
CHROMA_GAIN = 3.0


def chroma(image: np.ndarray) -> tuple[np.ndarray, ...]:
    """The red-green and blue-yellow opponent channels (CIELAB a and b), their spread
    about neutral grey stretched by :data:`CHROMA_GAIN`: a pip that differs from its
    face in hue more than in brightness (red on grey or blue) stands out in them."""
    if image.ndim != 3:
        return ()
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    # saturating at 0 and 255 (a strong blue or green lies below grey by more than half)
    return tuple(cv2.addWeighted(lab[:, :, i], CHROMA_GAIN, lab[:, :, i], 0.0,
                                 -128.0 * (CHROMA_GAIN - 1)) for i in (1, 2))


def hat_maps(image: np.ndarray, kernel: int, planes: bool = False) -> PipMaps:
    """Contrast maps for dark and light blobs smaller than ``kernel`` px in any channel of
    ``image`` (each pixel's strongest channel kept); ``planes``: each channel's own maps
    kept too.

    >>> spot = np.full((15, 15), 200, np.uint8)
    >>> spot[6:9, 6:9] = 50
    >>> int(hat_maps(spot, 7).dark[7, 7]), int(hat_maps(spot, 7).light[7, 7])
    (150, 0)
    >>> len(hat_maps(np.dstack([spot, spot]), 7, planes=True).planes)
    2
    """
    dark, light = _hats(image, kernel)
    return PipMaps(_strongest(dark), _strongest(light), kernel,
                   tuple(zip(dark, light, strict=True)) if planes else ())


def hat_maps_of(groups: Sequence[Sequence[np.ndarray]], kernel: int,
                planes: bool = False) -> list[PipMaps]:
    """:func:`hat_maps` of each group of planes (of one size) as one image: every plane
    transformed in one call (each on its own, so the maps are the same as group by
    group, in a fraction of the time on a small window).

    >>> spot = np.full((15, 15), 200, np.uint8)
    >>> spot[6:9, 6:9] = 50
    >>> both = hat_maps_of([(spot, 255 - spot), (spot,)], 7, planes=True)
    >>> [(int(m.dark[7, 7]), int(m.light[7, 7]), len(m.planes)) for m in both]
    [(150, 150, 2), (150, 0, 1)]
    """
    every = [plane for group in groups for plane in group]
    dark, light = _hats(cv2.merge(every) if len(every) > 1 else every[0], kernel)
    out = []
    for end, group in zip(itertools.accumulate(len(g) for g in groups), groups, strict=True):
        own = slice(end - len(group), end)
        out.append(PipMaps(_strongest(dark[own]), _strongest(light[own]), kernel,
                           tuple(zip(dark[own], light[own], strict=True)) if planes else ()))
    return out


def _hats(image: np.ndarray, kernel: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each channel's black-hat and top-hat maps."""
    k = ellipse(kernel)
    # every channel in one call: the same work, a third less time than channel by channel
    return (_split(cv2.morphologyEx(image, cv2.MORPH_BLACKHAT, k)),
            _split(cv2.morphologyEx(image, cv2.MORPH_TOPHAT, k)))


@functools.cache
def ellipse(side: int) -> np.ndarray:
    """The elliptic structuring element ``side`` px across (not to be written to)."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))


def _split(maps: np.ndarray) -> list[np.ndarray]:
    return list(cv2.split(maps)) if maps.ndim == 3 else [maps]


def _strongest(planes: list[np.ndarray]) -> np.ndarray:
    out = planes[0]
    for more in planes[1:]:
        out = cv2.max(out, more)
    return out


def pip_maps(image: np.ndarray, kernel: int, every_channel: bool = False,
             extremes: tuple[np.ndarray, np.ndarray] | None = None,
             planes: bool = False) -> PipMaps:
    """Contrast maps for dark and light blobs smaller than ``kernel`` pixels.

    Both channel extremes are used for both polarities: a yellow pip on a teal face is
    light only in the maximum channel, a blue pip on a white face dark only in the minimum.
    With ``every_channel`` each colour channel is used as well: a red pip on a blue face
    is about as bright as the face in the maximum and as dark in the minimum, but darker
    in the blue channel. ``extremes``: the image's :func:`channels`, when worked out
    already; ``planes``: each plane's own maps kept too (see :func:`hat_maps`).
    """
    return pip_maps_with(image, kernel, every_channel, extremes, planes)[0]


def pip_maps_with(image: np.ndarray, kernel: int, every_channel: bool = False,
                  extremes: tuple[np.ndarray, np.ndarray] | None = None, planes: bool = False,
                  more: Sequence[np.ndarray] = ()) -> list[PipMaps]:
    """:func:`pip_maps`, then :func:`hat_maps` of each of ``more`` planes of the image's
    size alone (with their planes), worked out in one call."""
    used = extremes if extremes is not None else channels(image)
    if image.ndim != 3:
        return [hat_maps(used[0], kernel, planes), *(hat_maps(m, kernel, True) for m in more)]
    if every_channel:
        used += tuple(cv2.split(image))
    if not planes and more:
        return [hat_maps_of([used], kernel)[0], *hat_maps_of([(m,) for m in more], kernel, True)]
    return hat_maps_of([used, *((m,) for m in more)], kernel, planes)


def _moments(values: np.ndarray, lab_on: np.ndarray, xs: np.ndarray, ys: np.ndarray,
             n: int, known: tuple[np.ndarray, np.ndarray] | None = None
             ) -> tuple[np.ndarray, ...]:
    """Per component 0..n-1 (``lab_on``: the label of each mask pixel, at whole ``xs``,
    ``ys``, of response ``values``, uint8): peak, area, centre, equivalent diameter,
    elongation and fill (area over its moment ellipse's). ``known``: the areas and x
    centres already worked out (OpenCV's labelling statistics: the same numbers, as the
    sums are of whole numbers, exact in any order)."""
    peaks = np.zeros(n, np.uint8)
    np.maximum.at(peaks, lab_on, values)  # fast for bytes
    peaks = peaks.astype(np.float32)
    if known is None:
        m00 = np.maximum(np.bincount(lab_on, minlength=n).astype(np.float64), 1.0)
        cx = np.bincount(lab_on, xs, minlength=n) / m00
    else:
        m00, cx = known
    cy = np.bincount(lab_on, ys, minlength=n) / m00
    vxx = np.bincount(lab_on, xs * xs, minlength=n) / m00 - cx**2 + 1 / 12
    vyy = np.bincount(lab_on, ys * ys, minlength=n) / m00 - cy**2 + 1 / 12
    vxy = np.bincount(lab_on, xs * ys, minlength=n) / m00 - cx * cy
    tr, det = vxx + vyy, vxx * vyy - vxy**2
    disc = np.sqrt(np.maximum(tr**2 / 4 - det, 0))
    l1, l2 = tr / 2 + disc, np.maximum(tr / 2 - disc, 1e-6)
    major, minor = 4 * np.sqrt(l1), 4 * np.sqrt(l2)
    d = np.sqrt(4 * m00 / np.pi)
    fill = m00 / (np.pi / 4 * major * minor)
    return peaks, m00, cx, cy, d, major / minor, fill


def _pip_shaped(d: np.ndarray, elong: np.ndarray, fill: np.ndarray, kernel: int) -> np.ndarray:
    """Which blobs are round and small enough for a pip (a ``kernel`` px hat transform)."""
    return (elong <= 2.2) & (fill >= 0.6) & (fill <= 1.35) & (d <= 0.85 * kernel)


#: Fractions of a blob's own peak at which a blob too large or too ragged for a pip is
#: cut again, highest last: on a textured or marbled face (or on a die's outline) the
#: pips' blobs run into the face's own small marks, which are fainter than the pips.
SPLIT_FRACTIONS = (0.5, 0.65)
#: Most elongation, least fill and least diameter (in hat kernels) of a blob cut out of a
#: larger one for it to count as a pip.
SPLIT_ELONG = 1.5
SPLIT_FILL = 0.75
SPLIT_D = 0.4


def _labelled(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The 8-connected components of a bool ``mask``, with OpenCV's statistics."""
    # 16-bit labels when they cannot run out (isolated pixels, at most one in four):
    # OpenCV labels them in a third of the time
    few = (mask.shape[0] + 1) // 2 * ((mask.shape[1] + 1) // 2) < 2**16
    return cv2.connectedComponentsWithStats(
        mask.view(np.uint8), connectivity=8, ltype=cv2.CV_16U if few else cv2.CV_32S)


def _blobs(maps: Sequence[PipMaps], min_area: int, reach: int,
           kernel: int | None = None) -> np.ndarray | None:
    """The blobs of ``maps`` as pip columns, one a row (x, y, d, peak, plane: twice the
    map's index, plus one for its light plane, elongation, fill; None: no blob at all),
    each plane's found whole first and then those cut out of larger blobs (with
    ``kernel``), round by round. Every map is labelled in one image, one below the other,
    at least ``reach`` blank rows apart: no blob nor the strongest response near a pixel
    reaches across, so each map's blobs are what they are alone (and the calls are one per
    image, not per map: on the small windows looked at closer, the calls are most of the
    work)."""
    planes = [m for pair in maps for m in (pair.dark, pair.light)]
    h, w = planes[0].shape
    # each map's first row: even, as OpenCV labels two rows at a time (so each map's
    # blobs are numbered as when it is labelled alone)
    step = h + reach + (h + reach) % 2
    response = np.zeros(((len(planes) - 1) * step + h, w), np.uint8)
    for i, plane in enumerate(planes):
        response[i * step:i * step + h] = plane
    # each pixel is judged against the strongest response near it, so two pips (or a
    # pip and the face between pips) only merge when the gap between them is bright
    local = cv2.dilate(response, _square(reach))
    mask = response >= cv2.LUT(local, _LEAST)  # bool: NumPy finds its pixels fastest
    n, labels, stats, centres = _labelled(mask)
    if n <= 1:
        return None
    values = response.ravel()

    def blobs(flat: np.ndarray, labels: np.ndarray, n: int, stats: np.ndarray,
              centres: np.ndarray, top: int = 0) -> tuple[np.ndarray, ...]:
        """Per blob: whether it is large and strong enough for a pip, and its columns
        (see above); per pixel of ``flat``: its blob and response (``labels``: of the
        rows from ``top`` on)."""
        lab_on = labels.ravel()[flat - top * w]
        vals = values[flat]
        ys, xs = np.divmod(flat, w)
        ys %= step  # each map's own rows
        area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
        area[0] = 1.0  # the background: counted as no pixel (its row is never kept)
        peaks, area, cx, cy, d, elong, fill = _moments(
            vals, lab_on, xs.astype(np.float64), ys.astype(np.float64), n,
            (area, centres[:, 0].copy()))
        enough = (peaks >= MIN_PEAK) & (area >= min_area)
        enough[0] = False
        # each blob's plane (the rows between maps are never in a blob)
        plane = (stats[:, cv2.CC_STAT_TOP] + top) // step
        return enough, np.stack([cx, cy, d, peaks, plane, elong, fill]), lab_on, vals

    flat = np.flatnonzero(mask)
    enough, table, lab_on, vals = blobs(flat, labels, n, stats, centres)
    _, _, d, peaks, _, elong, fill = table
    bw = stats[:, cv2.CC_STAT_WIDTH]
    bh = stats[:, cv2.CC_STAT_HEIGHT]
    keep = enough & (np.maximum(bw, bh) <= 4 * np.minimum(bw, bh))
    found = [table[:, keep]]
    if kernel is not None:
        # a blob no pip could be (too large, ragged or long) is cut again nearer its peak
        bad = enough & ~(keep & _pip_shaped(d, elong, fill, kernel))
        for fraction in SPLIT_FRACTIONS:
            if not bad.any():
                break
            # as float32, as the peaks were found (whole numbers)
            least = np.where(bad, fraction * peaks.astype(np.float32), np.float32(np.inf))
            flat = flat[vals >= least[lab_on]]
            # labelled only on the rows they span, from an even one (OpenCV labels two
            # rows at a time: so numbered as on the whole image; the columns, and so the
            # x centres, are the whole image's)
            top = int(flat[0]) // w & ~1
            sub = np.zeros((int(flat[-1]) // w + 1 - top, w), bool)
            sub.ravel()[flat - top * w] = True
            n, labels, stats, centres = _labelled(sub)
            if n <= 1:
                break
            enough, table, lab_on, vals = blobs(flat, labels, n, stats, centres, top)
            _, _, d, peaks, _, elong, fill = table
            # what is cut out of a larger blob is a pip only when clean and round: the
            # pieces of a die's outline or of a marbled face are small, ragged or long
            good = (enough & _pip_shaped(d, elong, fill, kernel) & (elong <= SPLIT_ELONG)
                    & (fill >= SPLIT_FILL) & (d >= SPLIT_D * kernel))
            found.append(table[:, good])
            bad = enough & ~good
    return np.concatenate(found, axis=1) if len(found) > 1 else found[0]


@functools.cache
def _square(side: int) -> np.ndarray:
    """A square structuring element ``side`` px across (not to be written to)."""
    return np.ones((side, side), np.uint8)


def find_pips(image: np.ndarray, kernel: int, maps: PipMaps | None = None,
              split: bool = False) -> Pips:
    """Round, high-contrast blobs smaller than ``kernel`` px, dark and light ones; with
    ``split``, also the clean round blobs cut out of a larger one nearer its peak
    (:data:`SPLIT_FRACTIONS`)."""
    return find_pips_in([maps or pip_maps(image, kernel)], kernel, split)[0]


def find_pips_in(maps: Sequence[PipMaps], kernel: int, split: bool = False) -> list[Pips]:
    """:func:`find_pips` in each of several maps of one image (the same pips, found at
    once)."""
    if not maps:
        return []
    table = _blobs(maps, min_area=4, reach=max(3, kernel // 3), kernel=kernel if split else None)
    if table is None:
        return [Pips.empty() for _ in maps]
    # each map's dark pips, then its light ones, each in the order they were found
    round_ = np.flatnonzero(_pip_shaped(table[2], table[5], table[6], kernel))
    x, y, d, peak, plane, elong, fill = table[:, round_[np.argsort(table[4, round_],
                                                                   kind="stable")]]
    dark = plane % 2 == 0  # the first of each map's two planes
    ends = np.searchsorted(plane, np.arange(0, 2 * len(maps) + 1, 2)).tolist()
    return [Pips(x[lo:hi], y[lo:hi], d[lo:hi], peak[lo:hi], dark[lo:hi], elong[lo:hi],
                 fill[lo:hi]) for lo, hi in itertools.pairwise(ends)]
