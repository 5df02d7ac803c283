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

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["PipMaps", "Pips", "channels", "find_pips", "pip_maps"]

#: A blob counts as a pip candidate when its contrast against its face reaches this.
MIN_PEAK = 38.0
#: Pixels belong to a blob above this fraction of the blob's own peak contrast.
LOW_FRACTION = 0.45
MIN_LOW = 16.0


@dataclass(frozen=True)
class PipMaps:
    """Per-polarity contrast maps of a working image (uint8, same size as it)."""

    dark: np.ndarray
    light: np.ndarray
    kernel: int

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
        return cls(*(np.concatenate([getattr(p, f) for p in parts])
                     for f in cls.__dataclass_fields__))

    def shifted(self, dx: float, dy: float) -> Pips:
        """The same candidates moved by (dx, dy)."""
        return dataclasses.replace(self, x=self.x + dx, y=self.y + dy)

    def take(self, index: np.ndarray) -> Pips:
        """The candidates at ``index`` (bool mask or integer indices)."""
        return Pips(*(getattr(self, f)[index] for f in self.__dataclass_fields__))


def channels(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The per-pixel maximum and minimum over the colour channels."""
    if image.ndim == 2:
        return image, image
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r)


def pip_maps(image: np.ndarray, kernel: int) -> PipMaps:
    """Contrast maps for dark and light blobs smaller than ``kernel`` pixels.

    Both channel extremes are used for both polarities: a yellow pip on a teal face is
    light only in the maximum channel, a blue pip on a white face dark only in the minimum.
    """
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel, kernel))
    hi, lo = channels(image)
    dark = cv2.max(
        cv2.morphologyEx(hi, cv2.MORPH_BLACKHAT, k), cv2.morphologyEx(lo, cv2.MORPH_BLACKHAT, k)
    )
    light = cv2.max(
        cv2.morphologyEx(lo, cv2.MORPH_TOPHAT, k), cv2.morphologyEx(hi, cv2.MORPH_TOPHAT, k)
    )
    return PipMaps(dark, light, kernel)


def _blobs(response: np.ndarray, dark: bool, min_area: int, reach: int) -> list[np.ndarray]:
    # each pixel is judged against the strongest response near it, so two pips (or a
    # pip and the face between pips) only merge when the gap between them is bright
    local = cv2.dilate(response, np.ones((reach, reach), np.uint8))
    mask = ((response > MIN_LOW) & (response >= LOW_FRACTION * local)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return []
    flat = np.flatnonzero(mask)
    lab_on = labels.ravel()[flat]
    peaks = np.zeros(n, np.float32)
    # Per-blob maximum without ufunc.at: after a stable sort by value, the last write wins.
    order = np.argsort(response.ravel()[flat], kind="stable")
    peaks[lab_on[order]] = response.ravel()[flat][order]
    area = stats[:, cv2.CC_STAT_AREA]
    w = stats[:, cv2.CC_STAT_WIDTH]
    h = stats[:, cv2.CC_STAT_HEIGHT]
    keep = (peaks >= MIN_PEAK) & (area >= min_area) & (np.maximum(w, h) <= 4 * np.minimum(w, h))
    keep[0] = False
    ids = np.flatnonzero(keep)
    if ids.size == 0:
        return []
    # Second moments of every kept blob in one pass: centre, diameter, elongation, fill.
    sel = np.zeros(n, bool)
    sel[ids] = True
    on = sel[lab_on]
    ys, xs = np.divmod(flat[on], response.shape[1])
    lb = lab_on[on]
    m00 = np.bincount(lb, minlength=n).astype(np.float64)
    mx = np.bincount(lb, xs, minlength=n)
    my = np.bincount(lb, ys, minlength=n)
    mxx = np.bincount(lb, xs.astype(np.float64) ** 2, minlength=n)
    myy = np.bincount(lb, ys.astype(np.float64) ** 2, minlength=n)
    mxy = np.bincount(lb, xs.astype(np.float64) * ys, minlength=n)
    m00, mx, my, mxx, myy, mxy = (a[ids] for a in (m00, mx, my, mxx, myy, mxy))
    cx, cy = mx / m00, my / m00
    vxx = mxx / m00 - cx**2 + 1 / 12
    vyy = myy / m00 - cy**2 + 1 / 12
    vxy = mxy / m00 - cx * cy
    tr, det = vxx + vyy, vxx * vyy - vxy**2
    disc = np.sqrt(np.maximum(tr**2 / 4 - det, 0))
    l1, l2 = tr / 2 + disc, np.maximum(tr / 2 - disc, 1e-6)
    major, minor = 4 * np.sqrt(l1), 4 * np.sqrt(l2)
    d = np.sqrt(4 * m00 / np.pi)
    fill = m00 / (np.pi / 4 * major * minor)
    elong = major / minor
    return [
        cx,
        cy,
        d,
        peaks[ids].astype(np.float64),
        np.full(ids.size, dark),
        elong,
        fill,
    ]


def find_pips(image: np.ndarray, kernel: int, maps: PipMaps | None = None) -> Pips:
    """Round, high-contrast blobs smaller than ``kernel`` px, dark and light ones."""
    maps = maps or pip_maps(image, kernel)
    cols: list[list[np.ndarray]] = [[] for _ in range(7)]
    for dark in (True, False):
        found = _blobs(maps.of(dark), dark, min_area=4, reach=max(3, kernel // 3))
        for col, arr in zip(cols, found, strict=False):
            col.append(arr)
    if not cols[0]:
        return Pips.empty()
    x, y, d, peak, dark, elong, fill = (np.concatenate(c) for c in cols)
    round_ = (elong <= 2.2) & (fill >= 0.6) & (fill <= 1.35) & (d <= 0.85 * kernel)
    pips = Pips(x, y, d, peak, dark.astype(bool), elong, fill)
    return pips.take(round_)
