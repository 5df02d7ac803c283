"""What happens at the table, as data: a game is the fold of its events.

Each event is a small frozen value with a JSON form (one dict with a ``type`` field).
Replaying a game's events on a fresh game reproduces its state exactly; the event store
keeps one row per event.

>>> events = [Started("yahtzee", ("Ann", "Bo")), Rolled((1, 2, 3, 4, 5)), Scored("chance")]
>>> text = dumps(events)
>>> loads(text) == events
True
>>> to_dict(events[1])
{'type': 'roll', 'dice': [1, 2, 3, 4, 5], 'player': None}
"""

from __future__ import annotations

import itertools
import json
import operator
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from dicetray.rules.errors import EventError
from dicetray.rules.limits import LIMITS, check_tree

__all__ = [
    "Declared",
    "Event",
    "EventError",
    "Kept",
    "NextGame",
    "Rolled",
    "Scored",
    "Started",
    "Undone",
    "dumps",
    "from_dict",
    "loads",
    "to_dict",
]


@dataclass(frozen=True)
class Started:
    """A new game (or match of ``games`` games) under a rule set, players in turn order."""

    ruleset: str
    players: tuple[str, ...]
    games: int = 1
    type: ClassVar[str] = "start"

    def __post_init__(self) -> None:
        _checked(self)


@dataclass(frozen=True)
class Rolled:
    """A roll: the thrown dice in position order (or all dice; held ones unchanged)."""

    dice: tuple[int, ...]
    player: int | None = None
    type: ClassVar[str] = "roll"

    def __post_init__(self) -> None:
        _checked(self)


@dataclass(frozen=True)
class Kept:
    """The dice now on the ledge, by position (replaces the previous keep)."""

    held: tuple[int, ...]
    player: int | None = None
    type: ClassVar[str] = "keep"

    def __post_init__(self) -> None:
        _checked(self)


@dataclass(frozen=True)
class Declared:
    """A box declared after the first roll (Mickey, announce column)."""

    box: str
    column: str | None = None
    player: int | None = None
    type: ClassVar[str] = "declare"

    def __post_init__(self) -> None:
        _checked(self)


@dataclass(frozen=True)
class Scored:
    """The turn's dice written into a box (``box`` None: noted beside the sheet)."""

    box: str | None
    column: str | None = None
    player: int | None = None
    type: ClassVar[str] = "score"

    def __post_init__(self) -> None:
        _checked(self)


@dataclass(frozen=True)
class Undone:
    """Take back the last action that is not already taken back."""

    type: ClassVar[str] = "undo"


@dataclass(frozen=True)
class NextGame:
    """Start the next game of a match once the current one is over."""

    type: ClassVar[str] = "next-game"


Event = Started | Rolled | Kept | Declared | Scored | Undone | NextGame

_TYPES: dict[str, type[Any]] = {
    cls.type: cls for cls in (Started, Rolled, Kept, Declared, Scored, Undone, NextGame)
}


def to_dict(event: Event) -> dict[str, Any]:
    """The JSON-able dict of one event, ``type`` first."""
    out: dict[str, Any] = {"type": event.type}
    for spec in fields(event):
        value = getattr(event, spec.name)
        out[spec.name] = list(value) if isinstance(value, tuple) else value
    return out


def from_dict(data: Mapping[str, Any]) -> Event:
    """Read one event back from its dict; :class:`EventError` for anything malformed.

    >>> from_dict({"type": "score", "box": "chance"})
    Scored(box='chance', column=None, player=None)
    >>> from_dict({"type": "shout"})
    Traceback (most recent call last):
    ...
    dicetray.rules.errors.EventError: unknown event type 'shout'
    """
    if not isinstance(data, Mapping):
        raise EventError(f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event type {kind!r}")
    known = {spec.name: spec for spec in fields(cls)}
    extra = set(data) - set(known) - {"type"}
    if extra:
        raise EventError(f"{kind} event has unknown field(s) {sorted(extra)}")
    values: dict[str, Any] = {}
    for name, spec in known.items():
        if name not in data:
            if spec.default is MISSING:
                raise EventError(f"{kind} event lacks {name!r}")
            continue
        values[name] = _field(kind, name, data[name])
    return cls(**values)


def _checked(event: Any) -> None:
    """Check an event's fields as it is made (by a caller or from JSON), normalised:
    sequences become tuples and any integer type (NumPy's too) a plain int."""
    for spec in fields(event):
        value = _field(event.type, spec.name, getattr(event, spec.name))
        object.__setattr__(event, spec.name, value)


_MOST = 64  # more dice, positions or players than any game has; a longer list is refused


def _sequence(kind: str, name: str, value: Any) -> tuple[Any, ...]:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise EventError(f"{kind} event: {name} must be a list, not {_brief(value)}")
    items = tuple(itertools.islice(value, _MOST + 1))
    if len(items) > _MOST:
        raise EventError(f"{kind} event: {name} has more than {_MOST} entries")
    return items


def _whole(kind: str, name: str, value: Any, what: str = "an integer") -> int:
    if isinstance(value, bool):
        raise EventError(f"{kind} event: {name} must be {what}, not {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise EventError(f"{kind} event: {name} must be {what}, not {_brief(value)}") from None
    if number.bit_length() >= LIMITS.int_bits:
        raise EventError(f"{kind} event: {name} is past the {LIMITS.int_bits}-bit integers")
    return number


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}..."


def _field(kind: str, name: str, value: Any) -> Any:
    """Check one field's value and turn sequences into tuples of plain values."""
    if name in ("dice", "held"):
        return tuple(_whole(kind, name, v, "a list of integers")
                     for v in _sequence(kind, name, value))
    if name == "players":
        players = _sequence(kind, name, value)
        if not all(isinstance(v, str) for v in players):
            raise EventError(f"{kind} event: players must be a list of names")
        return players
    if name in ("player", "games"):
        return None if value is None else _whole(kind, name, value)
    if value is not None and not isinstance(value, str):
        raise EventError(f"{kind} event: {name} must be a string")
    if value is None and (kind, name) in (("start", "ruleset"), ("declare", "box")):
        raise EventError(f"{kind} event: {name} must be a string")
    return value


def dumps(events: Iterable[Event]) -> str:
    """A JSON array of events."""
    return json.dumps([to_dict(e) for e in events])


def loads(text: str) -> list[Event]:
    """Events back from :func:`dumps` output, within :data:`~dicetray.rules.limits.LIMITS`.

    >>> loads("[" * 100_000 + "]" * 100_000)
    Traceback (most recent call last):
    ...
    dicetray.rules.errors.EventError: events are nested too deeply
    """
    if len(text) > LIMITS.max_events_bytes:
        raise EventError(f"events are larger than {LIMITS.max_events_bytes:,} characters")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EventError(f"events are not valid JSON: {exc}") from None
    except RecursionError:
        raise EventError("events are nested too deeply") from None
    except ValueError:  # an integer of over 4,300 digits
        raise EventError("events hold a number of over 4,300 digits") from None
    if not isinstance(data, list):
        raise EventError("events are a JSON array")
    try:
        check_tree(data)
    except ValueError as exc:
        raise EventError(f"events: {exc}") from None
    return [from_dict(d) for d in data]
