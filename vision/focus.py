"""A frame out of focus: how far the edges of the dice read are blurred, as a share of a
die's edge, and the roll refused where that is too far for the pips to be told apart.

An edge blurred by a Gaussian of ``sigma`` px, blurred again by ``reblur`` px, keeps
``sigma / sqrt(sigma**2 + reblur**2)`` of its steepest gradient, whatever its contrast:
the ratio ``r`` of the two gradients gives ``sigma = reblur / sqrt(r**2 - 1)`` back. Taken
at a die's strongest edges (its outline and its pips' rims), less what the measure reads
on a perfectly sharp edge (``focus_floor``), it says how blurred the die is; the median
over the dice read says how blurred the frame is. A die larger than the working image's
(``work_pip / pip_per_edge`` px) is measured shrunk to that size; a smaller one as it is
(enlarged, its own pixels would read as blur).

Out of focus, the dice whose pips blur together are found with no pips, or found faintly,
and left out, and a 4 may read as a 2: the dice read still make an answer, a die short
or wrong. So a frame whose dice are blurred over ``defocus`` of an edge is refused, blur
being the reason, whatever the dice read.

>>> import numpy as np, cv2
>>> sharp = np.full((120, 120, 3), 60, np.uint8)
>>> _ = cv2.rectangle(sharp, (40, 40), (80, 80), (220, 220, 220), -1)
>>> st = DEFAULT_SETTINGS
>>> round(blur_at(sharp, 60.0, 60.0, 40.0, st), 3)
0.0
>>> round(blur_at(cv2.GaussianBlur(sharp, (0, 0), 3.0), 60.0, 60.0, 40.0, st) * 40)
3
"""

from __future__ import annotations

import math
import statistics

import cv2
import numpy as np

from dicetray.vision.pipfaces import Die, shown_edge
from dicetray.vision.pipscene import Scene
from dicetray.vision.reading import Reason
from dicetray.vision.settings import DEFAULT_SETTINGS, ReaderSettings

__all__ = ["OUT_OF_FOCUS", "blur_at", "defocus", "out_of_focus"]

#: The reason's words for a frame out of focus.
OUT_OF_FOCUS = ("the frame is out of focus: the dice's edges are blurred over {share:.1%} of "
                "a die (the pips blur together from {limit:.0%})")


def _steepest(grey: np.ndarray) -> np.ndarray:
    """The gradient's magnitude at every pixel of ``grey`` (float32, Sobel)."""
    return cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))


def blur_at(img: np.ndarray, x: float, y: float, edge: float,
            st: ReaderSettings = DEFAULT_SETTINGS) -> float | None:
    """How blurred the die of ``edge`` px centred at (``x``, ``y``) in the BGR ``img``
    is: the Gaussian blur its strongest edges show (see the module's docstring), as a
    share of its edge; None where too little of it lies inside the frame to tell, or the
    die is under a pixel."""
    if not edge >= 1.0:
        return None
    half = round(float(edge) * st.patch)
    h, w = img.shape[:2]
    x0, y0 = max(0, int(x) - half), max(0, int(y) - half)
    x1, y1 = min(w, int(x) + half + 1), min(h, int(y) + half + 1)
    if min(x1 - x0, y1 - y0) < 8:
        return None
    patch = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    shrink = min(1.0, st.work_pip / st.pip_per_edge / edge)
    if shrink < 1.0:
        patch = cv2.resize(patch, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    grey = patch.astype(np.float32)
    once = _steepest(grey).ravel()
    again = _steepest(cv2.GaussianBlur(grey, (0, 0), st.reblur)).ravel()
    k = min(int(once.size * (1.0 - st.strong_edges)), once.size - 1)
    edges = (once >= np.partition(once, k)[k]) & (again > 1e-3)
    if not edges.any():
        return None
    ratios = once[edges] / again[edges]
    mid = len(ratios) // 2  # (the blur falls as the ratio grows: the median ratio's blur)
    ratio = float(np.partition(ratios, mid)[mid])
    sigma = st.reblur / math.sqrt(max(ratio**2 - 1.0, 1e-4))
    return math.sqrt(max(sigma**2 - st.focus_floor**2, 0.0)) / (edge * shrink)


def defocus(img: np.ndarray, dice: list[Die], sc: Scene) -> float | None:
    """The median blur (:func:`blur_at`, a share of a die's edge) of the ``dice`` read in
    the frame ``img`` at the scene ``sc``; None when none can be measured."""
    s = sc.scale
    shares = [blur_at(img, float(d.fit.centre[0]) / s, float(d.fit.centre[1]) / s,
                      shown_edge(sc, d), sc.st) for d in dice if d.value]
    known = [v for v in shares if v is not None]
    return statistics.median(known) if known else None


def out_of_focus(img: np.ndarray, dice: list[Die], sc: Scene) -> None:
    """Refuse the roll (each die read blurred, :attr:`Reason.BLUR`) when the frame's dice
    are blurred over ``defocus`` of an edge (:func:`defocus`)."""
    share = defocus(img, dice, sc)
    if share is None or share <= sc.st.defocus:
        return
    detail = OUT_OF_FOCUS.format(share=share, limit=sc.st.defocus)
    for die in dice:
        die.problem, die.detail = Reason.BLUR, detail
