"""Small measurements the reader's stages share: medians, pixels, gradients' roundness,
a find's body colour, whether the frame cuts a find.

>>> median([3.0, 1.0, 2.0, 10.0]), odd(4.2)
(2.5, 5)
"""

from __future__ import annotations

import math
import statistics
from typing import Any

import cv2
import numpy as np

from dicetray.vision.detector import Candidate

__all__ = ["along_edge", "body", "colour_distances", "colour_gap", "cut", "median",
           "median_colour", "near", "odd", "patch_roundness", "pixels", "reaches_past", "roundness",
           "sample"]


def median(values: Any) -> float:
    """The median of a few numbers (an array or a list; NaN for none), without NumPy's
    overhead, which is most of the time for the handful a die has.

    >>> median(np.array([3.0, 1.0, 2.0, 10.0])), median([])
    (2.5, nan)
    """
    values = values.tolist() if isinstance(values, np.ndarray) else values
    return statistics.median(values) if len(values) else math.nan


def median_colour(colours: np.ndarray) -> np.ndarray:
    """Each channel's median of 8-bit colours (one a row): ``np.median(colours, axis=0)``
    to the bit (the middle value, or the mean of the middle two, as float64), found by
    counting each channel's values where there are many (a ring of 34,000 pixels: 0.12
    against 1.1 ms) rather than by sorting them.

    >>> c = np.array([[1, 200, 7], [3, 100, 7], [2, 0, 9], [250, 50, 8]], np.uint8)
    >>> median_colour(c).tolist(), np.median(c, axis=0).tolist()
    ([2.5, 75.0, 7.5], [2.5, 75.0, 7.5])
    >>> big = np.random.default_rng(0).integers(0, 256, (3001, 3)).astype(np.uint8)
    >>> bool(np.array_equal(median_colour(big), np.median(big, axis=0)))
    True
    """
    assert colours.dtype == np.uint8 and colours.ndim == 2 and colours.shape[1] == 3
    n = len(colours)
    if not 1000 <= n < 2**24:  # sorting a few is as quick; counting past 2**24 is inexact
        return np.median(colours, axis=0)
    img = np.ascontiguousarray(colours).reshape(-1, 1, 3)
    counts = np.stack([cv2.calcHist([img], [c], None, [256], [0, 256]).ravel()
                       for c in range(3)])
    below = np.cumsum(counts, axis=1)  # float32 counts, exact under 2**24
    # the values at the middle places (n - 1) // 2 and n // 2 (from 0) of each channel
    low, high = (below <= (n - 1) // 2).sum(axis=1), (below <= n // 2).sum(axis=1)
    return (low + high) / 2


def odd(v: float) -> int:
    """The odd kernel side nearest ``v`` (3 at least)."""
    return max(3, round(v) | 1)


def pixels(shape: tuple[int, ...], x: np.ndarray,
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


def sample(img: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``img`` at the pixels nearest the points (x, y)."""
    return img[pixels(img.shape, x, y)]


def roundness(jxx: float, jyy: float, jxy: float) -> float:
    """Isotropy of a structure tensor: 1 for round gradients, 0 for one direction only.

    >>> roundness(1.0, 1.0, 0.0), roundness(1.0, 0.0, 0.0)
    (1.0, 0.0)
    """
    half_tr = (jxx + jyy) / 2
    disc = math.sqrt(max(half_tr**2 - (jxx * jyy - jxy**2), 0.0))
    return float((half_tr - disc) / max(half_tr + disc, 1e-6))


def patch_roundness(img: np.ndarray, cand: Candidate, half: float) -> float:
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
    return roundness(float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum()))


def middle(img: np.ndarray, cand: Candidate, half: float) -> np.ndarray:
    """The square ``half`` of a find's edge each side of its centre (at least 2 px), the
    part inside the image; of a find centred further beyond the image's edge than that,
    the image's row or column nearest it (never empty: a die all but cut off shows only
    there).

    >>> img = np.zeros((10, 10, 3), np.uint8); img[:, 0] = 200
    >>> middle(img, Candidate(5.0, 5.0, 10.0, 0.9, "flat"), 0.4).shape
    (8, 8, 3)
    >>> edge = middle(img, Candidate(-6.0, 5.0, 10.0, 0.9, "flat"), 0.4)
    >>> edge.shape, int(edge.min())
    ((8, 1, 3), 200)
    """
    h = max(2, round(half * cand.size))
    rows, cols = img.shape[:2]
    # the centre moved at most as near as keeps one row and column of the square inside
    x = min(max(round(cand.x), 1 - h), cols - 1 + h)
    y = min(max(round(cand.y), 1 - h), rows - 1 + h)
    return img[max(0, y - h):y + h, max(0, x - h):x + h]


def body(img: np.ndarray, cand: Candidate, half: float) -> np.ndarray:
    """The median colour (CIELAB, OpenCV's 8-bit scale) of the middle of a find (``half``
    of its edge each side): a die's body colour, its pips too few to sway it.

    >>> img = np.zeros((40, 40, 3), np.uint8); img[10:30, 10:30] = 255
    >>> img[19:21, 19:21] = 0  # a pip
    >>> body(img, Candidate(20, 20, 20.0, 0.9, "flat"), 0.4).tolist()
    [255.0, 128.0, 128.0]
    """
    patch = middle(img, cand, half)
    return median_colour(cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3))


def surround(img: np.ndarray, cand: Candidate, inner: float,
             outer: float) -> tuple[np.ndarray, float]:
    """The colours (CIELAB, OpenCV's 8-bit scale, one a row) of the square ring around a
    find from ``inner`` to ``outer`` of its edge from its centre, the part inside the
    image, and the share of the ring that is inside.

    >>> img = np.zeros((40, 40, 3), np.uint8); img[15:25, 15:25] = 255
    >>> ring, inside = surround(img, Candidate(20, 20, 10.0, 0.9, "flat"), 0.8, 1.2)
    >>> len(ring), int(ring[:, 0].max()), inside
    (400, 0, 1.0)
    >>> round(surround(img, Candidate(0, 20, 10.0, 0.9, "flat"), 0.8, 1.2)[1], 2)
    0.51
    """
    rows, cols = img.shape[:2]
    far, near_ = outer * cand.size, inner * cand.size
    # the pixels at most ``far`` from the centre each way, less those nearer than ``near_``
    # both ways: (first, last + 1) along x and y, before and after clipping to the image
    spans = [(math.ceil(c - far), math.floor(c + far) + 1) for c in (cand.x, cand.y)]
    holes = [(math.floor(c - near_) + 1, math.ceil(c + near_)) for c in (cand.x, cand.y)]

    def area(x: tuple[int, int], y: tuple[int, int], clip: bool) -> int:
        (x0, x1), (y0, y1) = x, y
        if clip:
            x0, x1, y0, y1 = max(0, x0), min(cols, x1), max(0, y0), min(rows, y1)
        return max(0, x1 - x0) * max(0, y1 - y0)

    whole = area(*spans, False) - area(*holes, False)
    inside = area(*spans, True) - area(*holes, True)
    if inside <= 0:
        return np.zeros((0, 3), np.uint8), 0.0
    (x0, x1), (y0, y1) = spans
    x0, y0 = max(0, x0), max(0, y0)
    square = img[y0:y1, x0:x1]
    # the rows above and below the hole, and left and right of it between: row by row,
    # each part turned to CIELAB alone (the hole's pixels are not needed)
    (hx0, hx1), (hy0, hy1) = holes
    top, bottom = max(0, hy0 - y0), max(0, hy1 - y0)
    left, right = max(0, hx0 - x0), max(0, hx1 - x0)
    if bottom <= top or right <= left:  # no hole
        return _lab(square).reshape(-1, 3), inside / whole
    between = np.concatenate([_lab(square[top:bottom, :left]), _lab(square[top:bottom, right:])],
                             axis=1)
    return np.concatenate([_lab(square[:top]).reshape(-1, 3), between.reshape(-1, 3),
                           _lab(square[bottom:]).reshape(-1, 3)]), inside / whole


def _lab(bgr: np.ndarray) -> np.ndarray:
    """``bgr`` (rows x columns x 3, 8-bit) in CIELAB, OpenCV's 8-bit scale; empty stays
    empty (OpenCV refuses an empty image)."""
    if bgr.size == 0:
        return np.zeros(bgr.shape, np.uint8)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)


def along_edge(img: np.ndarray, cand: Candidate, inner: float,
               outer: float) -> np.ndarray:
    """The colours (CIELAB, OpenCV's 8-bit scale, one a row) of the frame's outermost row
    or column beside a find centred beyond it (of the edges it lies beyond, the farthest),
    from ``inner`` to ``outer`` of its edge from its centre, each side: where a thing the
    frame cuts runs on along the edge, or a die cut off ends. Empty where the find is
    centred inside the frame.

    >>> img = np.zeros((40, 60, 3), np.uint8); img[30:, 10:50] = 255  # a strip at the foot
    >>> edge = along_edge(img, Candidate(30, 41, 10.0, 0.9, "flat"), 0.8, 1.3)
    >>> len(edge), float(edge[:, 0].min())  # 17-22 and 38-43 along the foot: the strip
    (12, 255.0)
    >>> len(along_edge(img, Candidate(30, 20, 10.0, 0.9, "flat"), 0.8, 1.3))
    0
    """
    rows, cols = img.shape[:2]
    beyond = [(-cand.x, 0), (cand.x - (cols - 1), 0), (-cand.y, 1), (cand.y - (rows - 1), 1)]
    far_, axis = max(beyond)
    if far_ <= 0:
        return np.zeros((0, 3))
    if axis == 0:  # beyond the left or right edge: the column along it
        line, at = img[:, 0 if cand.x < 0 else cols - 1], cand.y
    else:
        line, at = img[0 if cand.y < 0 else rows - 1], cand.x
    n = len(line)
    spans = [(at - outer * cand.size, at - inner * cand.size),
             (at + inner * cand.size, at + outer * cand.size)]
    picks = [line[max(0, math.ceil(a)):min(n, math.floor(b) + 1)] for a, b in spans]
    part = np.concatenate(picks).reshape(-1, 1, 3)
    if len(part) == 0:
        return np.zeros((0, 3))
    return cv2.cvtColor(part, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)


def colour_distances(pixels: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """Each pixel's distance to the nearest of ``colours`` (one a row): ``pixels`` of any
    shape, channels last; the same values to the bit as
    ``np.linalg.norm(pixels[..., None, :] - colours, axis=-1).min(axis=-1)``, which builds
    a pixels x colours x channels array (285,000 float32 pixels and six colours, as the
    reader once measured a nell-byler photo at 1280x960 whole: 74 against 5 ms). Here
    one colour and one channel plane at a time, the squares
    summed in the channels' order as a norm sums them; the least squared distance's root
    is the least distance.

    >>> colour_distances(np.array([[0, 0, 0], [3, 4, 0]], np.uint8),
    ...                  np.array([[0.0, 0, 0], [3, 4, 12]])).tolist()
    [0.0, 5.0]
    """
    dt = np.result_type(pixels, colours)
    planes = [np.ascontiguousarray(pixels[..., c], dt) for c in range(3)]
    least = None
    for colour in np.asarray(colours, dt):
        squared = np.square(planes[0] - colour[0])
        for plane, value in zip(planes[1:], colour[1:], strict=True):
            squared += np.square(plane - value)
        least = squared if least is None else np.minimum(least, squared, out=least)
    assert least is not None, "no colours to measure against"
    return np.sqrt(least)


def colour_gap(colour: np.ndarray, colours: np.ndarray) -> float:
    """How far a body colour (:func:`body`) lies from the nearest of ``colours`` (one a row).

    >>> colour_gap(np.array([255.0, 128, 128]), np.array([[0.0, 128, 128], [252, 128, 124]]))
    5.0
    """
    return float(np.linalg.norm(colours - colour, axis=1).min())


def near(cand: Candidate, others: list[Candidate], reach: float) -> bool:
    """Whether a find lies within ``reach`` of the larger edge of one of ``others``.

    >>> a, b = Candidate(0, 0, 20.0, 0.9, "flat"), Candidate(10, 0, 16.0, 0.9, "flat")
    >>> near(a, [a, b], 0.6), near(a, [a, b], 0.4)
    (True, False)
    """
    return any(k is not cand and math.hypot(cand.x - k.x, cand.y - k.y)
               <= reach * max(cand.size, k.size) for k in others)


def cut(cand: Candidate, frame: tuple[float, float], margin: float) -> bool:
    """Whether a find's centre lies within ``margin`` of its edge length of the border of
    a ``frame`` (w, h).

    >>> cut(Candidate(20.0, 50.0, 30.0, 0.9, "flat"), (100.0, 100.0), 0.5)
    False
    >>> cut(Candidate(10.0, 50.0, 30.0, 0.9, "flat"), (100.0, 100.0), 0.5)
    True
    """
    m = margin * cand.size
    return not (m <= cand.x <= frame[0] - 1 - m and m <= cand.y <= frame[1] - 1 - m)


def reaches_past(cand: Candidate, frame: tuple[float, float]) -> bool:
    """Whether a find's box (its edge long, on its centre) reaches past the border of a
    ``frame`` (w, h): its centre lies within half its edge of it.

    >>> reaches_past(Candidate(16.0, 50.0, 30.0, 0.9, "flat"), (100.0, 100.0))
    False
    >>> reaches_past(Candidate(14.0, 50.0, 30.0, 0.9, "flat"), (100.0, 100.0))
    True
    """
    return cut(cand, frame, 1 / 2)
