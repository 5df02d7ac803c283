#!/usr/bin/env python3
"""The reader on the view a tray's own camera has: clean top-down frames of every dice style.

Each roll is :func:`dicetray.vision.scene.tray_view` (five flat dice apart, sharp, a random
light, felt and table, the camera 80-90 degrees above, 1920x1080 unless ``--size``),
rendered once per dice style the renderer knows (white, ivory, red, blue, green, black,
translucent red and blue): ``--rolls`` rolls from seed ``--seed`` on. Every frame is a
roll a player would expect read, so a refusal is a clean photo refused. Each frame is read
by the shipped reader without and with the count (five) and by the standard method
(Golsteyn 2020, ``benchmarks/baseline_golsteyn.py``); per style and in all: right /
refused / silently wrong, and each refusal's reason.

Seeds 1000-1024 are the rolls the mechanisms of "A face fitted askew, read again" were
found on (docs/benchmarks.md); report on others:

    python3 benchmarks/tray_view.py --rolls 40 --seed 3000

With ``--calibrated N`` the frames are read as a calibrated tray reads them: per dice
style, N trays (tray ``t`` has the light, felt, table and camera of
``tray_view(seed + 1000 t)``), each calibrated as ``dicetray calibrate`` does
(``build_calibration``: two frames of the empty tray and ``--calibrate`` rolls, seeds
``seed + 1000 t + 1`` on) and then ``--rolls`` further rolls of that tray read without a
calibration, with it, and with it told the count:

    python3 benchmarks/tray_view.py --calibrated 5 --rolls 8 --seed 40000

Tray views are rendered as JPEG photos of quality 90 (``tray_view``'s look). With
``--jpeg Q`` every frame (calibration frames too) is rendered at quality Q instead (the
renderer's own JPEG step: OpenCV's encoder, colour at half the resolution, as most cameras
store it), as photos from a phone or a web page arrive.

With ``--cut V`` each frame is cropped so that one die is cut by the frame's edge, the
share ``V`` (0-1) of its outline's width (or height) left inside, every other die whole
(:func:`cut_through`): a photo no reader should answer, so a refusal counts as right and
an answer as silently wrong (unless every value is still right). Rolls no die can be cut
so in are skipped:

    python3 benchmarks/tray_view.py --rolls 40 --seed 180000 --cut 0.35

With ``--blur S`` each frame is blurred by a Gaussian of ``S`` px, as a lens out of focus
blurs it: a frame blurred so far that its pips blur together should be refused, and one
only a little soft read; silently wrong is what must not happen (a refusal is counted as
refused, to show how many are):

    python3 benchmarks/tray_view.py --rolls 10 --seed 190000 --blur 6

With ``--pips C`` the dice's pips are drawn in colour C (a name of :data:`PIP_COLOURS`,
or B,G,R) in place of the style's: white dice with red, blue, green or gold pips, as
many sets come. ``--pip-diameter D`` and ``--pip-spacing S`` draw them D of the edge
across and their corner pips S of the edge from the face's centre (the renderer's 0.17
and 0.27 unless given: gaming dice have pips up to a quarter of the edge, and on some the
pips crowd towards the middle, down to about 0.19; large close pips touch):

    python3 benchmarks/tray_view.py --styles white,ivory --pips red --rolls 40 --seed 5000
    python3 benchmarks/tray_view.py --styles white,black --pip-diameter 0.25 \
        --pip-spacing 0.25 --rolls 40 --seed 5000
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from benchmarks.metrics import outcome  # noqa: E402
from dicetray.vision import read  # noqa: E402
from dicetray.vision.render import render  # noqa: E402
from dicetray.vision.scene import STYLES, tray_view  # noqa: E402

#: Pip colours by name for ``--pips`` (BGR), as sets of white dice come.
PIP_COLOURS: dict[str, tuple[int, int, int]] = {
    "black": (28, 26, 24), "red": (40, 40, 200), "blue": (170, 80, 20),
    "green": (60, 140, 30), "gold": (40, 140, 200), "yellow": (30, 190, 230),
    "white": (236, 236, 236),
}
#: A die's outline in a frame: x0, y0, x1, y1 (px).
Box = tuple[float, float, float, float]
WAYS = ("dicetray", "dicetray, told the count", "Golsteyn 2020")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=40, help="rolls per dice style")
    ap.add_argument("--seed", type=int, default=3000, help="the first roll's seed")
    ap.add_argument("--size", default="1920x1080", help="frame size WxH")
    ap.add_argument("--styles", default=",".join(STYLES), help="comma-separated dice styles")
    ap.add_argument("--threads", type=int, default=1, help="OpenCV threads")
    ap.add_argument("--calibrated", type=int, default=0,
                    help="trays per style read with a calibration of their own (see above)")
    ap.add_argument("--calibrate", type=int, default=4, help="rolls each tray is calibrated on")
    ap.add_argument("--jpeg", type=int, default=0, metavar="Q",
                    help="render each frame as a JPEG of quality Q (1-100; 0: the view's own, 90)")
    ap.add_argument("--cut", type=float, default=0.0, metavar="V",
                    help="crop each frame so one die is cut, the share V (0-1) of it inside")
    ap.add_argument("--blur", type=float, default=0.0, metavar="S",
                    help="blur each frame by a Gaussian of S px (out of focus)")
    ap.add_argument("--pips", metavar="C",
                    help=f"draw the pips in colour C ({', '.join(PIP_COLOURS)}, or B,G,R)")
    ap.add_argument("--pip-diameter", type=float, metavar="D",
                    help="draw the pips D of the die's edge across (the renderer's 0.17)")
    ap.add_argument("--pip-spacing", type=float, metavar="S",
                    help="corner pips S of the edge from the face's centre (0.27)")
    args = ap.parse_args(argv)
    try:
        pips = PipLook.parse(args.pips, args.pip_diameter, args.pip_spacing)
    except ValueError as exc:
        ap.error(str(exc))
    if not 0 <= args.jpeg <= 100:
        ap.error("--jpeg takes a quality from 1 to 100 (0: no JPEG)")
    if not 0 <= args.cut < 1:
        ap.error("--cut takes the share of a die left inside the frame, from 0 to 1 "
                 "(0: no cut)")
    if args.blur < 0:
        ap.error("--blur takes a Gaussian's sigma in px (0: no blur)")
    cv2.setNumThreads(args.threads)
    w, h = (int(v) for v in args.size.lower().split("x"))
    if args.calibrated:
        return calibrated(args.calibrated, args.calibrate, args.rolls, args.seed,
                          args.styles.split(","), (w, h), args.jpeg, pips)
    # (here, not at the top: the Pi's venv, which runs the tests, has no scikit-learn)
    from benchmarks.baseline_golsteyn import GolsteynReader

    baseline = GolsteynReader()

    def rolls(style: str) -> Iterator[tuple[str, Any, tuple[Any, ...]]]:
        for seed in range(args.seed, args.seed + args.rolls):
            frame, truth = shot(pips.on(tray_view(seed, style, image_size=(w, h))), args.jpeg)
            if args.cut:
                frame = cut_through(frame, [d.bbox for d in truth.dice], args.cut)
                if frame is None:
                    continue
            if args.blur:
                frame = cv2.GaussianBlur(frame, (0, 0), args.blur)
            yield (f"seed {seed}", truth,
                   (read(frame), read(frame, dice=len(truth.dice)), baseline.read(frame)))

    cut = (f"; cut so one die is {args.cut:g} inside the frame (a refusal is right)"
           if args.cut else "") + (f"; blurred by a Gaussian of {args.blur:g} px"
                                   if args.blur else "")
    print(f"{args.rolls} rolls a style from seed {args.seed}, {w}x{h}{_as_jpeg(args.jpeg)}"
          f"{pips}{cut}; right / refused / silently wrong\n")
    reasons = _table(WAYS, args.styles.split(","), rolls, shown=2, refuse=bool(args.cut))
    print("\nthe reader's refusals (without and with the count), by reason: "
          + (", ".join(f"{k} {v}" for k, v in reasons.most_common()) or "none"))
    return 0


CALIBRATED = ("no calibration", "calibrated", "calibrated, told the count")


@dataclass(frozen=True)
class PipLook:
    """How the pips are drawn in place of each style's own (None: the style's): their
    colour (BGR), diameter and corner pips' spacing, as shares of the edge.

    >>> look = PipLook.parse("red", 0.25, None)
    >>> look
    PipLook(colour=(40, 40, 200), diameter=0.25, spacing=None)
    >>> str(look)
    '; pips (40, 40, 200), 0.25 across'
    >>> style = look.on(tray_view(3000, "white", image_size=(320, 180))).style
    >>> style.pip_color, style.pip_diameter, style.pip_spacing, style.die_color
    ((40, 40, 200), 0.25, 0.27, (236, 236, 232))
    >>> PipLook.parse("0,0,255", None, None).colour, str(PipLook())
    ((0, 0, 255), '')
    >>> PipLook.parse("mauve", None, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --pips takes a colour name (black, red, ...) or B,G,R (0-255 each), not 'mauve'
    >>> PipLook.parse(None, 0.5, None)
    Traceback (most recent call last):
    ...
    ValueError: --pip-diameter takes a share of the edge above 0 and at most 0.3, not 0.5
    """

    colour: tuple[int, int, int] | None = None
    diameter: float | None = None
    spacing: float | None = None

    @classmethod
    def parse(cls, colour: str | None, diameter: float | None,
              spacing: float | None) -> PipLook:
        """From the command line's values (None: the style's own), checked."""
        bgr = None
        if colour is not None:
            parts = colour.split(",")
            if colour in PIP_COLOURS:
                bgr = PIP_COLOURS[colour]
            elif len(parts) == 3 and all(p.strip().isdigit() and int(p) <= 255 for p in parts):
                bgr = (int(parts[0]), int(parts[1]), int(parts[2]))
            else:
                raise ValueError(f"--pips takes a colour name ({', '.join(PIP_COLOURS)}) or "
                                 f"B,G,R (0-255 each), not {colour!r}")
        # a pip wider than 0.3 of the edge leaves no face between a 6's pips; corner pips
        # nearer than 0.15 or farther than 0.35 from the centre leave none around them
        if diameter is not None and not 0 < diameter <= 0.3:
            raise ValueError(f"--pip-diameter takes a share of the edge above 0 and at most "
                             f"0.3, not {diameter:g}")
        if spacing is not None and not 0.15 <= spacing <= 0.35:
            raise ValueError(f"--pip-spacing takes a share of the edge from 0.15 to 0.35, "
                             f"not {spacing:g}")
        return cls(bgr, diameter, spacing)

    def on(self, scene: Any) -> Any:
        """``scene`` with its dice's pips drawn so."""
        style = scene.style
        return replace(scene, style=replace(
            style,
            pip_color=self.colour if self.colour is not None else style.pip_color,
            pip_diameter=self.diameter if self.diameter is not None else style.pip_diameter,
            pip_spacing=self.spacing if self.spacing is not None else style.pip_spacing))

    def __str__(self) -> str:
        said = [f"pips {self.colour}" if self.colour is not None else "",
                f"{self.diameter:g} across" if self.diameter is not None else "",
                f"corner pips {self.spacing:g} from the centre" if self.spacing is not None
                else ""]
        said = [s for s in said if s]
        return f"; {', '.join(said)}" if said else ""


def shot(scene: Any, jpeg: int = 0, variant: int = 0) -> tuple[Any, Any]:
    """``scene`` rendered (``variant``: see :func:`~dicetray.vision.render.render`); with
    ``jpeg`` (a quality, 1-100) as a JPEG photo of that quality in place of its look's.

    >>> from dicetray.vision.scene import tray_view
    >>> view = tray_view(3000, "red", image_size=(320, 180))
    >>> (as90, truth), (as75, same) = shot(view), shot(view, jpeg=75)
    >>> as75.shape == as90.shape and same == truth and bool((as75 != as90).any())
    True
    >>> bool((shot(view, jpeg=90)[0] == as90).all())  # a tray view's own quality
    True
    """
    if jpeg:
        scene = replace(scene, look=replace(scene.look, jpeg=jpeg))
    return render(scene, variant)


def cut_through(frame: Any, boxes: Sequence[Box], share: float,
                margin: float = 0.0) -> Any | None:
    """The part of ``frame`` in which one die of those outlined by ``boxes`` (x0, y0, x1,
    y1 each) is cut by the frame's edge, the ``share`` of its outline's width (cut from the
    left or right) or height (from the top or bottom) left inside, every other die whole
    (at least 2 px and ``margin`` of its own outline's side from the edge) and at least
    half the frame kept each way: of the dice and sides that allow it, the one leaving the
    most of the frame. None where no die allows it.

    >>> from dicetray.vision.scene import tray_view
    >>> frame, truth = shot(tray_view(3000, "white", image_size=(320, 180)))
    >>> cut_through(frame, [d.bbox for d in truth.dice], 0.35).shape
    (180, 217, 3)
    >>> two = [(10.0, 40.0, 30.0, 60.0), (40.0, 40.0, 60.0, 60.0)]  # 10 px apart
    >>> cut_through(frame, two, 0.5).shape  # the first cut from the left
    (180, 300, 3)
    >>> cut_through(frame, two, 0.5, margin=1.0) is None  # the second 22 px from its edge
    True
    """
    h, w = frame.shape[:2]
    gone = 1 - share
    best: tuple[float, tuple[int, int, int, int]] | None = None
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        # the other dice's outlines, widened by ``margin`` and 2 px
        others = [(b[0] - m, b[1] - m, b[2] + m, b[3] + m) for j, b in enumerate(boxes)
                  if j != i for m in [2 + margin * max(b[2] - b[0], b[3] - b[1])]]
        # where the frame's edge cuts the die, from each side
        left, right = x0 + gone * (x1 - x0), x1 - gone * (x1 - x0)
        top, bottom = y0 + gone * (y1 - y0), y1 - gone * (y1 - y0)
        crops = (  # (left, top, right, bottom) of the part kept, and whether the rest fit
            ((int(left), 0, w, h), all(b[0] >= left for b in others)),
            ((0, 0, int(right) + 1, h), all(b[2] <= right for b in others)),
            ((0, int(top), w, h), all(b[1] >= top for b in others)),
            ((0, 0, w, int(bottom) + 1), all(b[3] <= bottom for b in others)),
        )
        for (a, b, c, d), fits in crops:
            a, b, c, d = max(0, a), max(0, b), min(w, c), min(h, d)
            kept = (c - a) * (d - b)
            if fits and c - a >= w / 2 and d - b >= h / 2 and (best is None or kept > best[0]):
                best = (kept, (a, b, c, d))
    if best is None:
        return None
    a, b, c, d = best[1]
    return frame[b:d, a:c].copy()


def _as_jpeg(quality: int) -> str:
    return f", rendered as JPEG photos of quality {quality}" if quality else ""


def calibrated(trays: int, calibrate: int, rolls: int, seed: int, styles: list[str],
               size: tuple[int, int], jpeg: int = 0, pips: PipLook = PipLook()) -> int:
    """Tray views read by trays calibrated on frames of their own (see the module's
    docstring): per style and in all, right / refused / silently wrong each way, and every
    answer that is not right."""
    from dicetray.vision.calibration import build_calibration

    def read_back(style: str) -> Iterator[tuple[str, Any, tuple[Any, ...]]]:
        for t in range(trays):
            first = seed + 1000 * t
            base = pips.on(tray_view(first, style, image_size=size))
            empty = [shot(base.with_dice(()), jpeg, i)[0] for i in range(2)]
            shots = [shot(base.with_dice(tray_view(first + k, style, image_size=size).dice),
                          jpeg, k) for k in range(1, calibrate + rolls + 1)]
            calibration, _ = build_calibration(empty, [f for f, _ in shots[:calibrate]], dice=5)
            for k, (frame, truth) in enumerate(shots[calibrate:], calibrate + 1):
                yield (f"tray {first}, roll {first + k}", truth,
                       (read(frame), read(frame, calibration),
                        read(frame, calibration, dice=len(truth.dice))))

    print(f"{trays} trays a style from seed {seed}, each calibrated on 2 empty frames and "
          f"{calibrate} rolls, {rolls} other rolls read; {size[0]}x{size[1]}{_as_jpeg(jpeg)}"
          f"{pips}; right / refused / silently wrong\n")
    _table(CALIBRATED, styles, read_back, shown=len(CALIBRATED))
    return 0


def _table(ways: tuple[str, ...], styles: list[str],
           readings: Callable[[str], Iterable[tuple[str, Any, tuple[Any, ...]]]],
           shown: int, refuse: bool = False) -> Counter[str]:
    """Print right / refused / silently wrong per style and in all, each way's column
    from ``readings(style)`` (a label, the truth and one reading per way, frame by frame);
    every answer of the first ``shown`` ways that is not right goes to stderr. With
    ``refuse``, no frame should be answered: a refusal is right. Returns their refusals
    counted by reason."""
    totals = {way: Counter() for way in ways}
    reasons: Counter[str] = Counter()
    print("| dice | " + " | ".join(ways) + " |")
    print("| --- |" + " ---: |" * len(ways))
    for style in styles:
        counts = {way: Counter() for way in ways}
        for label, truth, answers in readings(style):
            for k, (way, reading) in enumerate(zip(ways, answers, strict=True)):
                got = outcome(reading.status, reading.values, truth.values, refuse)
                counts[way][got] += 1
                if k < shown and got != "right":
                    if got == "refused":
                        reasons[reading.reason.split(":")[0]] += 1
                    print(f"  {style}, {label} ({way}): {got}: "
                          f"{reading.reason or reading.values}", file=sys.stderr)
        for way in ways:
            totals[way].update(counts[way])
        print(f"| {style} | " + " | ".join(_cell(counts[w_]) for w_ in ways) + " |")
    print("| all | " + " | ".join(f"**{_cell(totals[w_])}**" for w_ in ways) + " |")
    return reasons


def _cell(c: Counter) -> str:
    return f"{c['right']} / {c['refused']} / {c['wrong']}"


if __name__ == "__main__":
    sys.exit(main())
