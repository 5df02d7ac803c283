"""A second opinion on each die: a small network reads the value from the die's crop.

The pip pipeline reads a face by fitting its pips to the six layouts; this network
(trained on rendered crops only, see ``training/``) looks at the same die as a whole,
scaled to :data:`CROP` px, and says how likely each value is, that no face can be read
(a leaning or moving die), or that there is no die there at all. The recognizer answers
only where both agree, so a face the pipeline misread is caught rather than reported.

>>> import numpy as np
>>> frame = np.full((120, 160, 3), 90, np.uint8)
>>> crops(frame, [(80.0, 60.0, 40.0)]).shape
(1, 3, 40, 40)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dicetray.vision.errors import VisionError
from dicetray.vision.networks import Network, load, soon
from dicetray.vision.resize import resize

__all__ = [
    "AHEAD",
    "CLASSES",
    "CROP",
    "MODEL",
    "SPAN",
    "Ahead",
    "answered",
    "classify",
    "classify_soon",
    "crop",
    "crops",
    "read_ahead",
]

MODEL = Path(__file__).with_name("models") / "face-classifier.onnx"
#: Side, px, of the square crop the network looks at.
CROP = 40
#: Crop side as a multiple of the die's edge (a margin shows where the die ends).
SPAN = 1.5
#: What the network tells apart, in the order of its outputs: a die with no readable
#: face (leaning or moving), the values 1-6 (a die's value is its index), no die at all.
CLASSES: tuple[str, ...] = ("unreadable", "1", "2", "3", "4", "5", "6", "none")
#: Views each crop is read in: quarter turns, then the same turns of its mirror image
#: (measured on the real photos: 4 turns read 1-1.5 points more dice right than one,
#: and fewer wrong with p >= 0.8; 8 views, the mirror's too, read 0.6 points more of
#: nell-byler's dice than 4, and as many of matteop65's; the reader reads the mirror's
#: only where the four turns are in doubt, see :func:`classify`'s ``settled``: four for
#: every crop left one rendered frame silently wrong that eight refuse, docs/benchmarks.md).
TURNS = 8
_QUARTERS = 4  # the views that are turns of the crop itself
#: Views of each find read ahead where a core is spare (:func:`classify_soon`): the four
#: quarter turns, which every find whose answer decides something is read in. Measured on
#: nell-byler's photos at 1280x960 on two threads, one process taking turns photo by photo
#: (median ms a read, two runs): 46.8 and 45.4 reading one view ahead, 44.7 and 42.3 four,
#: 44.1 and 42.9 all eight (the worker then finishes after the pips: 2.7 ms a read waited
#: for it); docs/benchmarks.md, "The classifier's views read ahead".
AHEAD = _QUARTERS


def crop(frame: np.ndarray, x: float, y: float, size: float) -> np.ndarray:
    """The ``CROP`` x ``CROP`` BGR square around a die centred at (x, y) with edge ``size``;
    beyond the frame the edge pixels are repeated."""
    half = max(2.0, SPAN * size / 2)
    x0, y0 = round(x - half), round(y - half)
    side = max(4, round(2 * half))
    h, w = frame.shape[:2]
    if min(x0, y0) >= 0 and x0 + side <= w and y0 + side <= h:
        roi = frame[y0:y0 + side, x0:x0 + side]
    else:  # each row and column beyond the frame is its nearest edge's (as
        # cv2.BORDER_REPLICATE pads), the square taken alone, not the frame padded whole
        ys, xs = (np.clip(np.arange(v, v + side), 0, n - 1) for v, n in ((y0, h), (x0, w)))
        roi = frame[np.ix_(ys, xs)]
    return resize(roi, (CROP, CROP))


def crops(frame: np.ndarray, dice: Sequence[tuple[float, float, float]]) -> np.ndarray:
    """The network's input (N x 3 x CROP x CROP, float32 in -1..1) for dice (x, y, size)."""
    if not dice:
        return np.zeros((0, 3, CROP, CROP), np.float32)
    batch = np.stack([crop(frame, x, y, s) for x, y, s in dice]).astype(np.float32)
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2) / 127.5 - 1.0)


@dataclass(frozen=True)
class Ahead:
    """The classifier's answers on N crops read ahead, while the caller went on:
    ``first``, the first view's probabilities (N x 8, as ``classify(turns=1)`` gives
    them); ``more``, each next view's apart (k x N x 8, float64, as :func:`classify` reads
    them before it averages; None: none read). A find whose answer decides something is
    read in four views (see :func:`classify`); with ``more`` read where a core was spare,
    only what is left is read then.

    >>> probs = np.eye(len(CLASSES), dtype=np.float32)[[1, 6]]
    >>> [(first.argmax(), more) for first, more in Ahead(probs).rows()]
    [(np.int64(1), None), (np.int64(6), None)]
    """

    first: np.ndarray
    more: np.ndarray | None = None

    def rows(self) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """Per crop, its first view's answer and its next views' (k x 8, or None)."""
        return [(row, None if self.more is None else self.more[:, i])
                for i, row in enumerate(self.first)]


def classify(frame: np.ndarray, dice: Sequence[tuple[float, float, float]],
             model: Path = MODEL, turns: int = TURNS,
             first: np.ndarray | None = None, threads: int | None = None,
             settled: float | None = None, more: np.ndarray | None = None) -> np.ndarray:
    """Per die (x, y, size) in a BGR frame, the probabilities of each of :data:`CLASSES`
    (N x 8): a die showing no readable face, each value 1-6, or no die at all.

    Each crop is read in ``turns`` views (at most 8), the answers averaged: a quarter
    turn apart, the mirror image's after the first four (a face's value changes neither
    as it turns nor in a mirror: each of the six layouts is its own mirror image, turned).
    ``first``, the answers already read unturned (``turns=1``), spares reading that view
    again; ``more``, the next views already read (:attr:`Ahead.more`: k x N x 8, k under
    ``turns``), spares those. ``threads``: how many the
    network runs on (None: as many as OpenCV; see :func:`dicetray.vision.networks.load`).
    ``settled``: the mirror image's views are read only for the crops whose four turns
    are in doubt, their likeliest classes not all the same or their mean of it under
    ``settled``; the others are answered by the four turns (None: every crop in every
    view).

    >>> frame = np.full((120, 160, 3), 90, np.uint8)
    >>> dice = [(80.0, 60.0, 40.0), (40.0, 40.0, 30.0)]
    >>> every = classify(frame, dice)
    >>> bool(np.allclose(every, classify(frame, dice, settled=1.01), atol=1e-6))  # none settled
    True
    >>> four = classify(frame, dice, turns=4)  # a plain grey crop: the same in every turn
    >>> bool(np.allclose(four, classify(frame, dice, settled=0.0), atol=1e-6))
    True
    >>> ahead = read_ahead(frame, dice, turns=4)  # the same, three views of it read ahead
    >>> bool((classify(frame, dice, first=ahead.first, more=ahead.more, settled=0.3)
    ...       == classify(frame, dice, first=ahead.first, settled=0.3)).all())
    True
    """
    blob = crops(frame, dice)
    n = len(blob)
    if n == 0:
        return np.zeros((0, len(CLASSES)), np.float32)
    turns = max(1, min(8, turns))
    read: list[np.ndarray] = []  # the views already read, each N x 8
    if first is not None:
        if first.shape != (n, len(CLASSES)):
            raise ValueError(f"first answers must be {n} x {len(CLASSES)}, got {first.shape}")
        read.append(first.astype(np.float64))
    if more is not None:
        if first is None or more.ndim != 3 or more.shape[1:] != (n, len(CLASSES)) \
                or len(more) >= turns:
            raise ValueError(f"more views must follow the first, at most {turns - 1} x {n} "
                             f"x {len(CLASSES)}, got {more.shape}")
        read.extend(more)
    net = load(model, "face classifier", threads=threads)

    def views(rows: np.ndarray | slice, ks: range) -> np.ndarray:
        """The probabilities of crops ``rows`` in views ``ks`` (views x rows x classes),
        those in ``read`` taken from it."""
        done = np.asarray(read[ks.start:ks.stop]).reshape(-1, n, len(CLASSES))[:, rows]
        if ks.start + len(done) >= ks.stop:
            return done
        return np.concatenate([done, _views(net, model, blob[rows],
                                            range(ks.start + len(done), ks.stop))])

    if settled is None or turns <= _QUARTERS:
        start = min(len(read), 1)  # the views after ``first`` are summed with the rest
        total = read[0] if read else np.zeros((n, len(CLASSES)), np.float64)
        if start < turns:
            total = total + views(slice(None), range(start, turns)).sum(axis=0)
        return (total / turns).astype(np.float32)
    each = views(slice(None), range(_QUARTERS))
    mean = each.mean(axis=0)
    likeliest = mean.argmax(axis=1)
    doubt = np.flatnonzero(~((each.argmax(axis=2) == likeliest).all(axis=0)
                             & (mean.max(axis=1) >= settled)))
    if len(doubt):
        later = views(doubt, range(_QUARTERS, turns)).sum(axis=0)
        mean[doubt] = (each[:, doubt].sum(axis=0) + later) / turns
    return mean.astype(np.float32)


def read_ahead(frame: np.ndarray, dice: Sequence[tuple[float, float, float]],
               model: Path = MODEL, turns: int = 1,
               threads: int | None = None) -> Ahead:
    """The first ``turns`` views of each crop (at most :data:`TURNS`) read ahead
    (:class:`Ahead`; ``threads``: see :func:`classify`).

    >>> frame = np.full((120, 160, 3), 90, np.uint8)
    >>> ahead = read_ahead(frame, [(80.0, 60.0, 40.0)], turns=4)
    >>> ahead.first.shape, ahead.more.shape
    ((1, 8), (3, 1, 8))
    >>> bool((ahead.first == classify(frame, [(80.0, 60.0, 40.0)], turns=1)).all())
    True
    """
    turns = max(1, min(TURNS, turns))
    blob = crops(frame, dice)
    if len(blob) == 0:
        return Ahead(np.zeros((0, len(CLASSES)), np.float32))
    each = _views(load(model, "face classifier", threads=threads), model, blob, range(turns))
    return Ahead(each[0].astype(np.float32), each[1:] if turns > 1 else None)


def answered(first: np.ndarray) -> Future[Ahead]:
    """A future already done, holding ``first`` (the first view's answers) and nothing read
    ahead: what a classifier that reads at once gives for ``classify_soon``.

    >>> answered(np.zeros((2, len(CLASSES)), np.float32)).result().more is None
    True
    """
    done: Future[Ahead] = Future()
    done.set_result(Ahead(first))
    return done


def _views(net: Network, model: Path, blob: np.ndarray, ks: range) -> np.ndarray:
    """The probabilities (views x N x classes, float64) of the crops in ``blob`` in views
    ``ks``, each read by ``net`` (the network in ``model``, named in errors)."""
    turned = [_view(blob, k) for k in ks]
    logits = net.run(np.concatenate(turned)).astype(np.float64)
    logits = logits.reshape(len(turned) * len(turned[0]), -1)
    if logits.shape[1] != len(CLASSES):
        raise VisionError(f"face classifier model {model} answers {logits.shape[1]} "
                          f"classes, not {len(CLASSES)} (reinstall dicetray)")
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).reshape(len(turned), len(turned[0]), -1)


def _view(blob: np.ndarray, k: int) -> np.ndarray:
    """View ``k`` (0-7) of crops N x C x H x W: turned ``k`` quarter turns, mirrored
    (columns reversed) from the fifth on.

    >>> b = np.arange(4.0).reshape(1, 1, 2, 2)
    >>> _view(b, 0)[0, 0].tolist(), _view(b, 1)[0, 0].tolist(), _view(b, 4)[0, 0].tolist()
    ([[0.0, 1.0], [2.0, 3.0]], [[1.0, 3.0], [0.0, 2.0]], [[1.0, 0.0], [3.0, 2.0]])
    """
    return np.rot90(blob[..., ::-1] if k >= 4 else blob, k % 4, axes=(2, 3))


def classify_soon(frame: np.ndarray, dice: Sequence[tuple[float, float, float]],
                  model: Path = MODEL, turns: int | None = None, *,
                  run: Callable[..., Ahead] | None = None) -> Future[Ahead]:
    """:func:`read_ahead` run on a worker thread, on one core: the network leaves Python's
    lock while it runs, so the caller's own work (the pips) goes on meanwhile on another,
    and ``turns`` views of each crop are read (None: :data:`AHEAD`, so that a find whose
    answer decides something has only what is left read then).
    With OpenCV set to one thread (one core) it runs at once, here, and reads the first
    view only (None), as a view read ahead for a find whose answer decides nothing would
    be time lost. ``run`` takes the place of :func:`read_ahead` (called with the same
    arguments).

    >>> frame = np.full((120, 160, 3), 90, np.uint8)
    >>> classify_soon(frame, [(80.0, 60.0, 40.0)]).result().first.shape
    (1, 8)
    """
    if turns is None:
        turns = AHEAD if cv2.getNumThreads() > 1 else 1
    return soon(read_ahead if run is None else run, frame, list(dice), model, turns=turns,
                threads=1)
