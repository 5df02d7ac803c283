"""What the recognizer saw: one :class:`Reading` per frame, one :class:`DieReading` per die.

A reading is ``ok`` only when every die on the tray was read with confidence; otherwise
it is ``unsure`` and its ``reason`` starts with one of :data:`REASONS` followed by detail.

>>> die = DieReading(value=5, x=120.0, y=80.5, angle=12.0, zone="tray",
...                  confidence=0.93, size=48.0)
>>> roll = Reading("ok", "", (die, DieReading(2, 40.0, 60.0, 0.0, "ledge", 0.88, 47.0)))
>>> roll.values
(2, 5)
>>> roll.ok, [d.value for d in roll.in_zone("ledge")]
(True, [2])
>>> roll.to_json("roll.png")["dice"][0]
{'value': 5, 'x': 120.0, 'y': 80.5, 'confidence': 0.93, 'angle': 12.0, 'zone': 'tray',
 'size': 48.0, 'problem': ''}
>>> Reading("unsure", "blur: frame too blurred (sharpness 0.21)", ()).ok
False

An unsure reading says which dice it doubts: a die read whose value is in doubt carries
its ``problem`` (a reason of its own, as the roll's), and a die seen but not read at all
(leaning, smeared, cut by the frame's edge) is kept as an :class:`UnreadDie`, so a user
sees every die the roll was refused for, not only the one the reason names:

>>> leaning = UnreadDie(60.0, 90.0, 40.0, "cocked: die at (60, 90) is not flat")
>>> doubted = DieReading(4, 30.0, 20.0, 0.0, "unknown", 0.41, 40.0,
...                      problem="ambiguous: die at (30, 20) is read too unsurely to answer")
>>> roll = Reading("unsure", leaning.problem, (doubted,), unread=(leaning,)).to_json()
>>> roll["unread"]
[{'x': 60.0, 'y': 90.0, 'size': 40.0, 'problem': 'cocked: die at (60, 90) is not flat'}]
>>> roll["dice"][0]["problem"][:9]
'ambiguous'

Every find of the detector that the answer leaves out is kept too, with why (a key, a
clip on the tray's rim, a knot in the wood), so a user can see what was passed by:

>>> clip = LeftOut(300.0, 12.0, 40.0, Why.UNLIKE)
>>> Reading("ok", "", (die,), left_out=(clip,)).to_json()["left_out"]
[{'x': 300.0, 'y': 12.0, 'size': 40.0, 'why': 'unlike'}]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Literal

__all__ = [
    "REASONS",
    "STATUSES",
    "ZONES",
    "DieReading",
    "LeftOut",
    "Reading",
    "Reason",
    "Status",
    "UnreadDie",
    "Why",
    "Zone",
    "kind_of",
]

Status = Literal["ok", "unsure"]
Zone = Literal["tray", "ledge", "unknown"]

STATUSES: tuple[str, ...] = ("ok", "unsure")
ZONES: tuple[str, ...] = ("tray", "ledge", "unknown")


class Reason(StrEnum):
    """Why a reading is ``unsure``: the leading word of its reason."""

    WRONG_COUNT = "wrong-count"  # told how many dice, another number was read
    COCKED = "cocked"  # a die leans on something: no face lies flat
    EDGE = "edge"  # a die is cut by the frame's edge
    BLUR = "blur"  # a die, or the frame, is smeared by motion
    AMBIGUOUS = "ambiguous"  # a face's pips do not make one value cleanly
    NO_DICE = "no-dice"  # nothing die-like in the frame
    OVERLAP = "overlap"  # dice lie on one another


#: Leading word of every ``unsure`` reason (the rest of the reason is free detail).
REASONS: tuple[str, ...] = tuple(r.value for r in Reason)


@dataclass(frozen=True)
class DieReading:
    """One die as read from a frame.

    ``x``, ``y`` are the centre of its top face in the original image's pixels;
    ``angle`` is the face's rotation in degrees in ``[0, 90)``; ``size`` its edge
    length in pixels; ``zone`` is ``"tray"``, ``"ledge"`` or ``"unknown"`` (no
    calibration); ``confidence`` is in ``[0, 1]``; ``problem`` is why its value is in
    doubt, a reason as an unsure reading's (``""``: read cleanly).

    >>> DieReading(7, 0, 0, 0, "tray", 1.0, 10)
    Traceback (most recent call last):
    ...
    ValueError: die value must be 1..6, got 7
    """

    value: int
    x: float
    y: float
    angle: float
    zone: str
    confidence: float
    size: float
    problem: str = ""

    def __post_init__(self) -> None:
        _check_problem(self.problem, blank=True)
        if isinstance(self.value, bool) or not 1 <= int(self.value) <= 6:
            raise ValueError(f"die value must be 1..6, got {self.value}")
        if self.zone not in ZONES:
            raise ValueError(f"zone must be one of {ZONES}, got {self.zone!r}")
        if not 0.0 <= float(self.confidence) <= 1.0:
            raise ValueError(f"confidence must be within 0..1, got {self.confidence}")
        if not (math.isfinite(self.x) and math.isfinite(self.y) and self.size >= 0):
            raise ValueError(f"bad die geometry: x={self.x}, y={self.y}, size={self.size}")

    def to_json(self) -> dict[str, Any]:
        """This die as a plain JSON-ready dict (rounded for people, stable keys)."""
        return {
            "value": int(self.value),
            "x": round(float(self.x), 1),
            "y": round(float(self.y), 1),
            "confidence": round(float(self.confidence), 3),
            "angle": round(float(self.angle), 1),
            "zone": self.zone,
            "size": round(float(self.size), 1),
            "problem": self.problem,
        }


@dataclass(frozen=True)
class UnreadDie:
    """A die seen but not read (leaning, smeared, cut by the frame's edge, no face that
    can be read): where its top face is (original image px), how large, and its
    ``problem``, a reason as an unsure reading's.

    >>> UnreadDie(1.0, 2.0, 3.0, "sleepy: dozed off")
    Traceback (most recent call last):
    ...
    ValueError: a problem must start with one of wrong-count, cocked, ...; got 'sleepy: dozed off'
    """

    x: float
    y: float
    size: float
    problem: str

    def __post_init__(self) -> None:
        _check_problem(self.problem, blank=False)

    def to_json(self) -> dict[str, Any]:
        """This die as a plain JSON-ready dict."""
        return {"x": round(float(self.x), 1), "y": round(float(self.y), 1),
                "size": round(float(self.size), 1), "problem": self.problem}


def kind_of(reason: str) -> str:
    """The leading word of an unsure ``reason`` (one of :data:`REASONS`), ``""`` for none.

    >>> kind_of("edge: die cut by the frame at (3, 40)"), kind_of("ok")
    ('edge', '')
    """
    return next((w for w in REASONS if reason.startswith(w)), "")


def _check_problem(problem: str, *, blank: bool) -> None:
    if (problem or not blank) and not kind_of(problem):
        raise ValueError(f"a problem must start with one of {', '.join(REASONS)}; "
                         f"got {problem!r}")


class Why(StrEnum):
    """Why a find of the detector is left out of the answer."""

    #: the detector scored it under its threshold and nothing on it reads as a die
    FAINT = "faint"
    #: the face classifier is sure it is no die (a key, a plug, a coin)
    NO_DIE = "no-die"
    #: no pips on it, and the classifier reads no face there (a magnet, a button)
    BARE = "bare"
    #: one spot on something far smaller than the dice, or a faint one (a speck, a screw)
    SPECK = "speck"
    #: unlike the dice read in the frame: their body colour, or their size (a clip on
    #: the tray's rim, a knot in the wood)
    UNLIKE = "unlike"
    #: part of the empty tray the calibration was made on (a fixture, the wood's grain)
    BACKGROUND = "background"
    #: a second find on a die read: its centre lies on that die's top face (one die found
    #: twice, its pips read once)
    ON_A_DIE = "on-a-die"


@dataclass(frozen=True)
class LeftOut:
    """A find left out of the answer: where (original image px), how large, and why.

    >>> LeftOut(1.0, 2.0, 3.0, "speck").why is Why.SPECK
    True
    """

    x: float
    y: float
    size: float
    why: Why

    def __post_init__(self) -> None:
        object.__setattr__(self, "why", Why(self.why))

    def to_json(self) -> dict[str, Any]:
        """This find as a plain JSON-ready dict."""
        return {"x": round(float(self.x), 1), "y": round(float(self.y), 1),
                "size": round(float(self.size), 1), "why": str(self.why)}


@dataclass(frozen=True)
class Reading:
    """The recognizer's answer for one frame.

    ``status`` is ``"ok"`` or ``"unsure"``; ``reason`` is ``""`` when ok, otherwise
    one of :data:`REASONS` plus detail (e.g. ``"cocked: die at (310, 200) leans"``).
    ``dice`` holds every die found (also when unsure, as far as it could be read);
    ``ms`` is the time spent reading; ``left_out`` the finds not taken for dice, with why
    (:class:`LeftOut`); ``unread`` the dice seen but not read (:class:`UnreadDie`).

    >>> Reading("ok", "oops", ())
    Traceback (most recent call last):
    ...
    ValueError: an ok reading has no reason, got 'oops'
    >>> Reading("unsure", "sleepy: dice asleep", ())
    Traceback (most recent call last):
    ...
    ValueError: reason must start with one of wrong-count, cocked, ...; got 'sleepy: dice asleep'
    """

    status: str
    reason: str
    dice: tuple[DieReading, ...] = field(default_factory=tuple)
    ms: float = 0.0
    left_out: tuple[LeftOut, ...] = field(default_factory=tuple)
    unread: tuple[UnreadDie, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for name in ("left_out", "unread"):
            if not isinstance(getattr(self, name), tuple):
                object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.status not in STATUSES:
            raise ValueError(f"status must be 'ok' or 'unsure', got {self.status!r}")
        if not isinstance(self.dice, tuple):
            object.__setattr__(self, "dice", tuple(self.dice))
        if self.status == "ok" and self.reason:
            raise ValueError(f"an ok reading has no reason, got {self.reason!r}")
        if self.status == "unsure" and not self.kind:
            raise ValueError(
                f"reason must start with one of {', '.join(REASONS)}; got {self.reason!r}"
            )

    @property
    def ok(self) -> bool:
        """True when every die was read with confidence."""
        return self.status == "ok"

    @property
    def values(self) -> tuple[int, ...]:
        """The values of all dice read, sorted ascending."""
        return tuple(sorted(d.value for d in self.dice))

    @property
    def kind(self) -> str:
        """The leading word of the reason (``""`` when ok).

        >>> Reading("unsure", "edge: die cut by the frame at (3, 40)", ()).kind
        'edge'
        """
        return kind_of(self.reason)

    def in_zone(self, zone: str) -> tuple[DieReading, ...]:
        """The dice read in ``zone`` (``"tray"``, ``"ledge"`` or ``"unknown"``)."""
        if zone not in ZONES:
            raise ValueError(f"zone must be one of {ZONES}, got {zone!r}")
        return tuple(d for d in self.dice if d.zone == zone)

    def with_ms(self, ms: float) -> Reading:
        """A copy of this reading with its timing set."""
        return replace(self, ms=float(ms))

    def to_json(self, image: str | None = None) -> dict[str, Any]:
        """This reading as a JSON-ready dict: image, status, reason, dice, ms, left_out,
        unread.

        >>> Reading("unsure", "no-dice: nothing die-like", (), 1.234).to_json()
        {'image': None, 'status': 'unsure', 'reason': 'no-dice: nothing die-like',
         'dice': [], 'ms': 1.23, 'left_out': [], 'unread': []}
        """
        return {
            "image": image,
            "status": self.status,
            "reason": self.reason,
            "dice": [d.to_json() for d in self.dice],
            "ms": round(float(self.ms), 2),
            "left_out": [f.to_json() for f in self.left_out],
            "unread": [d.to_json() for d in self.unread],
        }
