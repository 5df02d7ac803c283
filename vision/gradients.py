"""The local gradient structure tensor of a working image: per pixel, the box-averaged
products of its Sobel gradients (gxx, gyy, gxy). A sharp pip's gradients point every way
around it; motion blur makes them run one way (see the recognizer's refusals).

The recognizer needs it at a few pips only, so :func:`structure_at` works it out just
there, with the same numbers the whole map (:func:`structure_map`) holds at those pixels:
each window of the working image is filtered on its own, its borders reflected as
OpenCV reflects them (``BORDER_REFLECT_101``), so a pip's value does not depend on how
much of the window around it was worked out.

>>> import numpy as np
>>> gray = np.zeros((20, 20), np.uint8)
>>> gray[5:15, 5:15] = 200
>>> whole = structure_map(gray, 5)
>>> at = structure_at(gray, [(0, 0, 20, 20)], 5, np.array([5.0, 9.0]), np.array([5.0, 2.0]))
>>> bool(np.allclose(at, whole[[5, 2], [5, 9]], rtol=1e-6))
True
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

__all__ = ["Window", "structure_at", "structure_map", "structure_windows"]

#: A rectangle of an image, px: x0, y0, x1, y1 (x1 and y1 exclusive).
Window = tuple[int, int, int, int]

_SMOOTH = np.array([1.0, 2.0, 1.0], np.float32)
_SLOPE = np.array([-1.0, 0.0, 1.0], np.float32)


def structure_map(gray: np.ndarray, box: int) -> np.ndarray:
    """The structure tensor (H x W x 3: gxx, gyy, gxy, float32) of a uint8 ``gray``
    image, its products averaged over ``box`` x ``box`` pixels."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.boxFilter(cv2.merge([gx * gx, gy * gy, gx * gy]), -1, (box, box))


def structure_windows(image: np.ndarray, windows: Sequence[Window], box: int) -> np.ndarray:
    """The structure tensor (H x W x 3) of a uint8 image (grey, or BGR: made grey) whose
    ``windows`` (disjoint) are each filtered on their own (:func:`structure_map`); zero
    outside them: what :func:`structure_at` reads at points."""
    out = np.zeros((*image.shape[:2], 3), np.float32)
    for x0, y0, x1, y1 in windows:
        part = image[y0:y1, x0:x1]
        grey = cv2.cvtColor(part, cv2.COLOR_BGR2GRAY) if part.ndim == 3 else part
        out[y0:y1, x0:x1] = structure_map(grey, box)
    return out


def _reflect(i: np.ndarray, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """Indices ``i`` folded into [start, stop) as ``BORDER_REFLECT_101`` folds them.

    >>> _reflect(np.array([-2, -1, 0, 4, 5, 6]), np.array(0), np.array(5)).tolist()
    [2, 1, 0, 4, 3, 2]
    """
    length = stop - start
    period = np.maximum(2 * (length - 1), 1)
    j = np.abs(i - start) % period
    j = np.where(j >= length, period - j, j)
    return start + np.minimum(j, length - 1)


def _grey(pixels: np.ndarray, colour: bool) -> np.ndarray:
    """Pixels (uint8) gathered from an image, in grey as OpenCV makes a BGR image grey
    (pixel by pixel: the same numbers as converting the whole image), as float32."""
    if colour:
        flat = np.ascontiguousarray(pixels).reshape(-1, 1, 3)
        pixels = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).reshape(pixels.shape[:-1])
    return pixels.astype(np.float32)


def structure_at(image: np.ndarray, windows: Sequence[Window], box: int,
                 x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The structure tensor (n x 3) at the pixels nearest the points (``x``, ``y``) of a
    uint8 image (grey, or BGR: made grey where read) whose ``windows`` (disjoint) were
    each filtered on their own, as :func:`structure_windows` holds it there; zero
    outside them."""
    h, w = image.shape[:2]
    colour = image.ndim == 3
    xi = np.clip(np.rint(x).astype(np.intp), 0, w - 1)
    yi = np.clip(np.rint(y).astype(np.intp), 0, h - 1)
    out = np.zeros((len(xi), 3), np.float32)
    if len(xi) == 0:
        return out
    bounds = np.array(windows, np.intp).reshape(-1, 4)
    inside = ((bounds[None, :, 0] <= xi[:, None]) & (xi[:, None] < bounds[None, :, 2])
              & (bounds[None, :, 1] <= yi[:, None]) & (yi[:, None] < bounds[None, :, 3]))
    has = inside.any(axis=1)
    if not has.any():
        return out
    wx0, wy0, wx1, wy1 = bounds[inside.argmax(axis=1)[has]].T
    xs, ys = xi[has], yi[has]
    # most points lie a box and a pixel inside their window: their gradients need no
    # reflected pixel, and come from one patch each
    reach = box // 2 + 1
    clear = (xs - reach >= wx0) & (xs + reach < wx1) & (ys - reach >= wy0) & (ys + reach < wy1)
    gx = np.empty((len(xs), box, box), np.float32)
    gy = np.empty_like(gx)
    if clear.any():
        span = np.arange(-reach, reach + 1)
        g = _grey(image[(ys[clear, None] + span)[:, :, None],
                        (xs[clear, None] + span)[:, None, :]], colour)
        gx[clear] = _sobel_x(g)
        gy[clear] = _sobel_x(g.transpose(0, 2, 1)).transpose(0, 2, 1)
    edge = ~clear
    if edge.any():
        gx[edge], gy[edge] = _folded(image, box, xs[edge], ys[edge],
                                     *(b[edge, None] for b in (wx0, wy0, wx1, wy1)))
    # each product is a whole number under 2**24 and their sum under 2**53: exact in any
    # order, as the box filter's sum is
    products = np.stack([gx * gx, gy * gy, gx * gy], axis=-1).astype(np.float64)
    out[has] = (products.sum(axis=(1, 2)) / (box * box)).astype(np.float32)
    return out


def _sobel_x(g: np.ndarray) -> np.ndarray:
    """The x Sobel response of patches ``g`` (n x (box + 2) x (box + 2)) on their inner
    box x box pixels."""
    slope = g[:, :, 2:] - g[:, :, :-2]
    return slope[:, :-2] + 2 * slope[:, 1:-1] + slope[:, 2:]


def _folded(image: np.ndarray, box: int, xs: np.ndarray, ys: np.ndarray, wx0: np.ndarray,
            wy0: np.ndarray, wx1: np.ndarray, wy1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Sobel gradients (each n x box x box) on the box around points near their
    window's edge: the box's pixels folded into the window, then each one's 3 x 3
    neighbours folded again (a gradient beyond the edge is the one at its reflection)."""
    half = box // 2
    span = np.arange(-half, box - half)
    cols = _reflect(xs[:, None] + span, wx0, wx1)  # n x box
    rows = _reflect(ys[:, None] + span, wy0, wy1)
    step = np.arange(-1, 2)
    ncols = _reflect(cols[:, :, None] + step, wx0[:, :, None], wx1[:, :, None])  # n x box x 3
    nrows = _reflect(rows[:, :, None] + step, wy0[:, :, None], wy1[:, :, None])
    # n x box(rows) x box(cols) x 3(rows) x 3(cols)
    g = _grey(image[nrows[:, :, None, :, None], ncols[:, None, :, None, :]], image.ndim == 3)
    return (np.einsum("nijab,a,b->nij", g, _SMOOTH, _SLOPE),
            np.einsum("nijab,a,b->nij", g, _SLOPE, _SMOOTH))
