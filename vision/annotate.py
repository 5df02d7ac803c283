"""Drawing a :class:`~dicetray.vision.reading.Reading` onto its frame, for people to check.

>>> import numpy as np
>>> from dicetray.vision.reading import DieReading, Reading
>>> frame = np.zeros((120, 160, 3), np.uint8)
>>> roll = Reading("ok", "", (DieReading(3, 80.0, 60.0, 10.0, "unknown", 0.9, 40.0),))
>>> out = annotate(frame, roll)
>>> out.shape, bool(out.any()), bool(frame.any())
((120, 160, 3), True, False)

A find left out of the answer gets a dashed outline of its own colour and its reason:

>>> from dicetray.vision.reading import LeftOut
>>> clip = Reading("ok", "", (), left_out=(LeftOut(120.0, 30.0, 24.0, "unlike"),))
>>> tuple(int(v) for v in annotate(frame, clip)[30, 108]) == LEFT_OUT_COLOUR
True

So does a die seen but not read, in the unsure colour, with "?" and its problem's word;
a die read whose value is in doubt has "?" after its value:

>>> from dicetray.vision.reading import UnreadDie
>>> leaning = Reading("unsure", "cocked: die at (40, 60) is not flat", (),
...                   unread=(UnreadDie(40.0, 60.0, 30.0, "cocked: die at (40, 60) is not flat"),))
>>> tuple(int(v) for v in annotate(frame, leaning)[60, 25]) == UNSURE_COLOUR
True
>>> label(DieReading(4, 0.0, 0.0, 0.0, "unknown", 0.4, 9.0, "ambiguous: pips in doubt"))
'4? 0.40'
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from dicetray.vision.reading import DieReading, Reading, kind_of

__all__ = ["LEFT_OUT_COLOUR", "UNSURE_COLOUR", "annotate", "label"]

OK_COLOUR = (60, 200, 60)
UNSURE_COLOUR = (40, 140, 255)
#: Magenta: no die has it, so a find left out never looks like a die read.
LEFT_OUT_COLOUR = (255, 0, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    """A copy of ``frame`` with each die's box, value and confidence, and the status."""
    out = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    colour = OK_COLOUR if reading.ok else UNSURE_COLOUR
    scale = max(0.4, min(out.shape[:2]) / 900)
    thick = max(1, round(2 * scale))
    for die in reading.dice:
        box = cv2.boxPoints(((die.x, die.y), (die.size, die.size), die.angle))
        cv2.polylines(out, [np.rint(box).astype(np.int32)], True, colour, thick)
        _label(out, label(die), die.x, die.y, die.size, colour, scale, thick, above=True)
    # a die not read is labelled above its box, as a die read is; a find left out below
    marks = [(d.x, d.y, d.size, f"? {kind_of(d.problem)}", UNSURE_COLOUR, scale, True)
             for d in reading.unread]
    marks += [(f.x, f.y, f.size, str(f.why), LEFT_OUT_COLOUR, 0.8 * scale, False)
              for f in reading.left_out]
    for x, y, size, text, tint, text_scale, above in marks:
        _dashed_square(out, x, y, size, tint, thick)
        _label(out, text, x, y, size, tint, text_scale, thick, above=above)
    status = "ok " + " ".join(map(str, reading.values)) if reading.ok else reading.reason
    y = 4
    for line in _wrap(status, out.shape[1] - 16, scale, thick):
        (_, h), _ = cv2.getTextSize(line, FONT, scale, thick)
        y += h + 8
        _text(out, line, (8, y), colour, scale, thick)
    return out


def label(die: DieReading) -> str:
    """What is written beside a die read: its value (with "?" when it is in doubt) and
    how sure the reader is of it."""
    return f"{die.value}{'?' if die.problem else ''} {die.confidence:.2f}"


def _label(out: np.ndarray, text: str, x: float, y: float, size: float,
           colour: tuple[int, int, int], scale: float, thick: int, *, above: bool) -> None:
    """``text`` beside the box ``size`` wide centred on (x, y): ``above`` it where there is
    room (past its corners, however it is turned), else below, kept inside the frame."""
    (w, h), base = cv2.getTextSize(text, FONT, scale, thick)
    if above:
        reach = size / 2 * math.sqrt(2) + 4
        ty = y - reach if y - reach - h - 3 >= 0 else y + reach + h
    else:
        ty = y + size / 2 + h + 4
    tx = min(max(3.0, x - size / 2), out.shape[1] - w - 4.0)
    ty = max(min(ty, out.shape[0] - base - 2), h + 3)
    _text(out, text, (round(tx), round(ty)), colour, scale, thick)


def _dashed_square(out: np.ndarray, x: float, y: float, size: float,
                   colour: tuple[int, int, int], thick: int) -> None:
    """An upright square ``size`` wide centred on (x, y), drawn in dashes."""
    half = size / 2
    corners = [(x - half, y - half), (x + half, y - half), (x + half, y + half),
               (x - half, y + half)]
    dash = max(3.0, size / 8)
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        steps = max(1, math.ceil(size / dash))
        for k in range(0, steps, 2):
            a, b = k / steps, min(1.0, (k + 1) / steps)
            cv2.line(out, (round(x0 + a * (x1 - x0)), round(y0 + a * (y1 - y0))),
                     (round(x0 + b * (x1 - x0)), round(y0 + b * (y1 - y0))), colour, thick)


def _text(out: np.ndarray, text: str, org: tuple[int, int], colour: tuple[int, int, int],
          scale: float, thick: int) -> None:
    """``text`` with its baseline's left end at ``org``, on a dark box so it reads on any
    frame (an outline drawn as thicker text does not line up in every OpenCV version)."""
    (w, h), base = cv2.getTextSize(text, FONT, scale, thick)
    x, y = org
    cv2.rectangle(out, (x - 3, y - h - 3), (x + w + 3, y + base + 1), (0, 0, 0), cv2.FILLED)
    cv2.putText(out, text, org, FONT, scale, colour, thick, cv2.LINE_AA)


def _wrap(text: str, width: int, scale: float, thick: int) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` px (a longer word
    stands alone).

    >>> lines = _wrap("ambiguous: die at (3, 4): its pips read 2", 100, 0.4, 1)
    >>> len(lines) > 1, " ".join(lines)
    (True, 'ambiguous: die at (3, 4): its pips read 2')
    """
    lines: list[str] = []
    for word in text.split():
        wider = f"{lines[-1]} {word}" if lines else word
        if lines and cv2.getTextSize(wider, FONT, scale, thick)[0][0] <= width:
            lines[-1] = wider
        else:
            lines.append(word)
    return lines or [""]
