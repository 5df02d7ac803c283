"""Where the dice are: a small neural network that finds each die's top face.

The pips say what a die shows; this says where the dice are, so that a side face's
pips, a speck of dust or a stray shadow never becomes a die, touching dice stay two,
and a die whose pips cannot be read is known to be there. The network (trained on
rendered frames only, see ``training/``) runs (:mod:`dicetray.vision.networks`) on the frame
scaled to a long side of :data:`INPUT_SIDE` px, and marks every die as ``flat``,
``cocked`` (leaning, its top face not level) or ``moving`` (blurred mid-tumble).
:func:`find_dice` scales the frame again when the dice came out much smaller or larger
than the size the network reads best (:data:`DIE_AT_INPUT`), so a die a fortieth of the
frame wide is found as well as one a tenth wide. The reader runs the network's phased
copy (:func:`network_file`): the same outputs in fewer operations.

>>> import numpy as np
>>> detect(np.full((240, 320, 3), 128, np.uint8))
[]
"""

from __future__ import annotations

import functools
import math
import statistics
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dicetray.vision.networks import Network, default_engine, load, soon
from dicetray.vision.resize import resize

__all__ = [
    "INPUT_SIDE",
    "KINDS",
    "MODEL",
    "Candidate",
    "copy_pays",
    "detect",
    "find_dice",
    "from_mirror",
    "from_phases",
    "median_size",
    "network",
    "network_file",
    "network_input",
    "phased",
    "side_for",
]

MODEL = Path(__file__).with_name("models") / "dice-detector.onnx"
#: Long side, px, of the image the network looks at.
INPUT_SIDE = 320
#: What the network tells apart, in the order of its heat maps.
KINDS: tuple[str, ...] = ("flat", "cocked", "moving")
_STRIDE = 4
_SIZE_REF = 16.0
#: Least heat for a die on the network's word alone.
THRESHOLD = 0.3
#: Edge length (px at the network's input) of the dice it reads best on real photos:
#: fewest things taken for dice (keys, labels) with none missed. Measured over input
#: sides of 240-480 px on the labelled photos (docs/benchmarks.md).
DIE_AT_INPUT = 14.0
#: How far (a factor either way) the dice may come out from :data:`DIE_AT_INPUT` before
#: the frame is scaled again.
SIZE_BAND = 1.35
#: Least long side (px) the frame is scaled to: below it the network loses dice.
MIN_SIDE = 240
#: Most difference between the outputs of the network and of its phased copy for the copy
#: to be run in its place: the copy sums in another order, which moves its outputs by
#: float rounding only (at most 4e-7 on ONNX Runtime, 3e-7 on OpenCV 4.6, 7e-6 on
#: OpenCV 5, for inputs up to 1280×960); another network's weights move them by far more.
SAME_OUTPUTS = 1e-5
#: The input both are compared on: 16×24 px of values spread over -1..1.
_PROBE = np.sin(np.arange(3 * 16 * 24, dtype=np.float32)).reshape(1, 3, 16, 24)
_ASKING = threading.Lock()


@dataclass(frozen=True)
class Candidate:
    """A die found in a frame: its top face's centre and edge length (frame px), how
    sure the network is, and its ``kind`` (one of :data:`KINDS`)."""

    x: float
    y: float
    size: float
    score: float
    kind: str


def heat_maps(frame: np.ndarray, model: Path = MODEL, side: int = INPUT_SIDE,
              mirror: bool = True,
              passes: dict[tuple[Path, int], np.ndarray] | None = None
              ) -> tuple[np.ndarray, float]:
    """The network's output (C x gh x gw) for a BGR frame scaled to a long side of
    ``side`` px, and the scale it ran at.

    With ``mirror`` (as the recognizer reads) the output is averaged with the network's
    output for the frame's mirror image, mapped back: a die looks the same either way,
    but the network's scores and sizes do not quite, and a die's score near a threshold
    or its size decides much downstream (measured on the real photos, each also turned a
    quarter, half and three quarters: see docs/benchmarks.md). The mirrored pass runs on
    the networks' worker thread (:func:`dicetray.vision.networks.soon`), each pass on half
    the cores. ``passes`` keeps the unmirrored pass's output by model and side, for the
    same frame's next look (not run again: :func:`find_dice`).
    """
    blob = network_input(frame, side)
    s = side / max(frame.shape[:2])
    done = None if passes is None else passes.get((model, side))
    if not mirror:
        maps = network(model).run(blob)[0] if done is None else done
    elif done is not None:
        maps = (done + _mirrored(model, blob, cv2.getNumThreads(), copy=0)) / 2
    else:
        half = max(1, cv2.getNumThreads() // 2)  # each pass on half the cores
        mirrored = soon(_mirrored, model, blob, half)
        direct = network(model, threads=half).run(blob)[0]
        return (direct + mirrored.result()) / 2, s
    if passes is not None:
        passes[model, side] = maps
    return maps, s


def phased(model: Path) -> Path:
    """Where the phased copy of the detector in ``model`` is kept: the same network with
    its head's work done at the deep map's size (``training/phased.py``), a sixth less
    arithmetic for the same outputs.

    >>> phased(Path("models/dice-detector.onnx")).name
    'dice-detector.phased.onnx'
    """
    return model.with_name(f"{model.stem}.phased{model.suffix}")


def network_file(model: Path = MODEL, engine: str | None = None) -> Path:
    """The file run for the detector in ``model`` on ``engine`` (None: the one
    :func:`~dicetray.vision.networks.load` uses): its phased copy (:func:`phased`) where
    the engine runs it faster (:func:`copy_pays`) and its outputs on a probe input, put
    back in place (:func:`from_phases`), are within :data:`SAME_OUTPUTS` of the model's;
    else ``model`` itself, so a copy left from before the network was retrained (or any
    other file there) is never run. Asked once per model file and engine.

    >>> network_file(MODEL, "onnxruntime") == phased(MODEL)
    True
    """
    engine = engine or default_engine()
    if not copy_pays(engine):
        return model
    with _ASKING:  # the direct and mirrored passes may ask at once, and OpenCV's
        return _file(model, engine)  # networks must not run on two threads at once


def copy_pays(engine: str, opencv: str = cv2.__version__) -> bool:
    """Whether ``engine`` runs the phased copy faster than the trained file. Measured on
    the 552×416 input of a phone photo's second look, one thread (docs/benchmarks.md):
    ONNX Runtime takes 0.87 of the time, OpenCV 4.6's engine (a Pi's) 0.85; OpenCV 5's
    1.16 (it runs small convolutions of stride 2 padded on one side slowly).

    >>> copy_pays("onnxruntime"), copy_pays("opencv", "4.6.0"), copy_pays("opencv", "5.0.0")
    (True, True, False)
    """
    return engine != "opencv" or int(opencv.split(".")[0]) < 5


@functools.lru_cache(maxsize=8)
def _file(model: Path, engine: str) -> Path:
    copy = phased(model)
    if not copy.is_file() or not model.is_file():
        return model
    try:
        gap = np.abs(from_phases(load(copy, "dice detector", engine, threads=1).run(_PROBE))
                     - load(model, "dice detector", engine, threads=1).run(_PROBE)).max()
    except Exception:  # another network (ONNX Runtime's errors share no base but Exception)
        return model
    return copy if gap <= SAME_OUTPUTS else model


def network(model: Path = MODEL, threads: int | None = None, copy: int = 0) -> Network:
    """The detector in ``model`` as it is run (:func:`network_file`), loaded on ``threads``
    (``copy``: see :func:`dicetray.vision.networks.load`): its output is the trained
    network's, also when its phased copy runs."""
    run = network_file(model)
    net = load(run, "dice detector", threads=threads, copy=copy)
    return net if run == model else _Phased(net)


class _Phased:
    """The phased copy of the detector, its output put back in place."""

    def __init__(self, net: Network) -> None:
        self._net = net

    def run(self, blob: np.ndarray) -> np.ndarray:
        return from_phases(self._net.run(blob))


def from_phases(maps: np.ndarray) -> np.ndarray:
    """The phased copy's output (N x 4·C x h x w: the maps of the points of each phase of
    every 2×2 block, rows then columns even or odd, phase by phase) put back in place:
    N x C x 2h x 2w (``training/phased.py``).

    >>> side = np.arange(4.0).reshape(1, 4, 1, 1)  # one block, its four phases
    >>> from_phases(side)[0, 0].tolist()
    [[0.0, 1.0], [2.0, 3.0]]
    """
    n, c4, h, w = maps.shape
    c = c4 // 4
    return maps.reshape(n, 2, 2, c, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c, 2 * h, 2 * w)


def network_input(frame: np.ndarray, side: int = INPUT_SIDE) -> np.ndarray:
    """The network's input (1 x 3 x H x W, float32 in -1..1) for a BGR ``frame`` scaled to
    a long side of ``side`` px, padded to a multiple of 8 (the network halves three times).

    >>> network_input(np.zeros((480, 640, 3), np.uint8)).shape
    (1, 3, 240, 320)
    """
    h, w = frame.shape[:2]
    s = side / max(h, w)
    sw, sh = max(8, round(w * s)), max(8, round(h * s))
    small = resize(frame, (sw, sh))
    pw, ph = -(-sw // 8) * 8, -(-sh // 8) * 8
    if (pw, ph) != (sw, sh):
        small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
    # plane by plane into place: the same float32 arithmetic as scaling the whole image
    # and turning it after, with one pass over the pixels fewer and no copy to turn it
    blob = np.empty((1, 3, ph, pw), np.float32)
    for c, plane in enumerate(cv2.split(small)):
        np.divide(plane, np.float32(127.5), out=blob[0, c], dtype=np.float32)
    blob -= np.float32(1.0)
    return blob


def _mirrored(model: Path, blob: np.ndarray, threads: int, copy: int = 1) -> np.ndarray:
    """The network's output for the mirror image of ``blob``, mapped back (columns
    reversed, the x offsets negated); ``copy``: of the network (one per thread running it
    at once, see :func:`dicetray.vision.networks.load`)."""
    net = network(model, threads=threads, copy=copy)
    return from_mirror(net.run(np.ascontiguousarray(blob[..., ::-1]))[0])


def from_mirror(maps: np.ndarray) -> np.ndarray:
    """The network's output (C x gh x gw) for a frame's mirror image, mapped back onto the
    frame: its columns reversed and its x offsets negated (a new array).

    >>> maps = np.zeros((len(KINDS) + 3, 1, 2), np.float32)
    >>> maps[0, 0, 1], maps[len(KINDS) + 1, 0, 0] = 0.9, 0.25
    >>> back = from_mirror(maps)
    >>> float(back[0, 0, 0]), float(back[len(KINDS) + 1, 0, 1])
    (0.8999999761581421, -0.25)
    """
    back = maps[..., ::-1].copy()
    back[len(KINDS) + 1] *= -1
    return back


def detect(frame: np.ndarray, threshold: float = THRESHOLD, model: Path = MODEL,
           side: int = INPUT_SIDE, mirror: bool = True,
           passes: dict[tuple[Path, int], np.ndarray] | None = None) -> list[Candidate]:
    """Every die in a BGR ``frame``, most certain first, the frame scaled to a long side
    of ``side`` px for the network (``mirror``, ``passes``: see :func:`heat_maps`)."""
    maps, s = heat_maps(frame, model, side, mirror, passes)
    kinds = len(KINDS)
    heat = maps[:kinds].max(axis=0)
    peaks = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    out = []
    for gy, gx in zip(*np.nonzero(peaks), strict=True):
        kind = KINDS[int(np.argmax(maps[:kinds, gy, gx]))]
        size = _SIZE_REF * math.exp(float(maps[kinds, gy, gx])) / s
        x = (gx + 0.5 + float(maps[kinds + 1, gy, gx])) * _STRIDE / s
        y = (gy + 0.5 + float(maps[kinds + 2, gy, gx])) * _STRIDE / s
        out.append(Candidate(x, y, size, float(heat[gy, gx]), kind))
    return _suppress(sorted(out, key=lambda c: -c.score))


def median_size(candidates: list[Candidate]) -> float | None:
    """The median edge length of the flat dice the network is sure of (None: none).

    >>> median_size([Candidate(0, 0, 20.0, 0.9, "flat"), Candidate(0, 0, 90.0, 0.9, "cocked")])
    20.0
    """
    flat = [c.size for c in candidates if c.kind == "flat" and c.score >= THRESHOLD]
    return statistics.median(flat) if flat else None


def side_for(die_size: float, long_side: int) -> int:
    """The long side (px) to scale a frame of ``long_side`` px to for the network, for
    dice of ``die_size`` frame px: :data:`INPUT_SIDE` unless that makes them come out
    more than :data:`SIZE_BAND` off :data:`DIE_AT_INPUT`.

    >>> side_for(28.0, 640), side_for(12.0, 1280), side_for(200.0, 640)
    (320, 1280, 240)
    """
    if 1 / SIZE_BAND <= die_size * INPUT_SIDE / long_side / DIE_AT_INPUT <= SIZE_BAND:
        return INPUT_SIDE
    side = round(long_side * DIE_AT_INPUT / die_size)
    return max(MIN_SIDE, min(max(long_side, INPUT_SIDE), side))


def find_dice(frame: np.ndarray, threshold: float = THRESHOLD,
              die_size: float | None = None, mirror: bool = True, *, model: Path = MODEL,
              look: Callable[..., list[Candidate]] | None = None) -> list[Candidate]:
    """Every die in a BGR ``frame`` (see :func:`detect`), the frame scaled for dice of
    ``die_size`` px (:func:`side_for`), or, when that is not known, for the size of the
    dice a first look at :data:`INPUT_SIDE` finds; at that size when it finds none
    (``mirror``: see :func:`heat_maps`), with the network in ``model``. ``look`` takes the
    place of :func:`detect` (called with the same arguments, but for ``model``).

    The first look only measures the dice, so it runs without the mirror pass (the
    finds are those of the look at the scale chosen). Before, the first look had its
    mirror pass and its finds were kept when it was at the right scale: the same
    answers but for the scale chosen, and on every shared set as many read right or
    more, as many silently wrong or fewer (docs/benchmarks.md), where a phone photo of
    small dice spends a quarter less on the detector. Where the first look was at the
    right scale its pass is kept for the second look, which runs only the mirror pass:
    two passes, as before.

    >>> find_dice(np.full((480, 640, 3), 128, np.uint8), die_size=60.0)
    []
    """
    if look is None:  # a pass the first look ran is not run again
        look = functools.partial(detect, model=model, passes={})
    if die_size is None:
        # only the finds median_size counts are looked for: a surer find is never
        # suppressed by a fainter one, so they are the same
        die_size = median_size(look(frame, max(threshold, THRESHOLD), mirror=False))
    side = INPUT_SIDE if die_size is None else side_for(die_size, max(frame.shape[:2]))
    return look(frame, threshold, side=side, mirror=mirror)


def _suppress(candidates: list[Candidate]) -> list[Candidate]:
    """Drop a candidate whose centre lies on the top face of a surer one (one die, two peaks)."""
    kept: list[Candidate] = []
    for c in candidates:
        if all(math.hypot(c.x - k.x, c.y - k.y) > 0.5 * max(c.size, k.size) for k in kept):
            kept.append(c)
    return kept
