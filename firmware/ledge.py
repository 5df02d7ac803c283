"""From a reading of the tray and the hold ledge to a roll of the game.

The camera sees two zones: the tray (the dice just thrown) and the hold ledge (the dice a
player kept). The whole state of a roll is in one reading: the dice on the ledge say which
positions are kept, the dice on the tray are the values thrown. A kept die whose value is
not on the ledge any more (someone turned it) is flagged, and the game keeps the value it
had: the rules never let a kept die change.

>>> from dicetray.rules import Game, load_ruleset
>>> game = Game(load_ruleset("yahtzee"))
>>> _ = game.roll((6, 2, 6, 3, 1))
>>> seen = [Seen(6, "ledge", 10, 5), Seen(6, "ledge", 30, 5),
...         Seen(4, "tray", 50, 60), Seen(4, "tray", 20, 70), Seen(5, "tray", 90, 40)]
>>> throw = throw_from(game.turn, seen)
>>> throw.held, throw.thrown, throw.flags
((0, 2), (4, 4, 5), ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dicetray.rules import Turn

__all__ = ["Seen", "Throw", "throw_from"]


@dataclass(frozen=True)
class Seen:
    """One die the camera saw: its value, its zone (``tray``, ``ledge`` or ``unknown``) and
    where its top face is in the frame."""

    value: int
    zone: str
    x: float
    y: float


@dataclass(frozen=True)
class Throw:
    """What a reading means for the game: the positions kept on the ledge, the values thrown
    into the other positions (in position order), where each position's die lies in the
    frame, and flags for the players."""

    held: tuple[int, ...]
    thrown: tuple[int, ...]
    spots: tuple[tuple[float, float], ...]
    flags: tuple[str, ...] = ()


def throw_from(turn: Turn, seen: Sequence[Seen]) -> Throw:
    """The throw a reading shows, given the turn before it.

    On the first roll of a turn every die counts as thrown. Later, the dice on the ledge
    are matched to positions by value (a position already kept first); without a ledge in
    sight (no die in zone ``ledge``, as without a calibration) the turn's own keeps stand
    and the dice matching them are taken out of the thrown ones.

    >>> from dicetray.rules import Game, load_ruleset
    >>> game = Game(load_ruleset("yahtzee"))
    >>> _ = game.roll((6, 2, 6, 3, 1))
    >>> _ = game.keep((0, 2))
    >>> turned = [Seen(6, "ledge", 10, 5), Seen(5, "ledge", 30, 5),
    ...           Seen(1, "tray", 50, 60), Seen(2, "tray", 20, 70), Seen(3, "tray", 90, 40)]
    >>> throw_from(game.turn, turned).flags
    ('a kept 6 now shows 5: the 6 was kept',)
    """
    ordered = sorted(seen, key=lambda d: (d.x, d.y))
    count = turn.ruleset.dice
    if not turn.rolled:
        spots = tuple((d.x, d.y) for d in ordered)
        flags = ("dice on the ledge at a turn's first roll were counted as thrown",) if any(
            d.zone == "ledge" for d in ordered) else ()
        return Throw((), tuple(d.value for d in ordered), spots, flags)
    dice = turn.dice
    ledge = [d for d in ordered if d.zone == "ledge"]
    rest = [d for d in ordered if d.zone != "ledge"]
    flags: list[str] = []
    spots: dict[int, tuple[float, float]] = {}
    if ledge:
        held: list[int] = []
        unmatched: list[Seen] = []
        for die in ledge:
            position = _match(die.value, dice, turn.held, held)
            if position is None:
                unmatched.append(die)
            else:
                held.append(position)
                spots[position] = (die.x, die.y)
        for die in unmatched:  # a kept die that changed value: keep what the game had
            position = next((p for p in turn.held if p not in held), None)
            if position is None:
                flags.append(f"a {die.value} on the ledge matches no die of this turn")
                rest.append(die)
                continue
            held.append(position)
            spots[position] = (die.x, die.y)
            flags.append(f"a kept {dice[position]} now shows {die.value}: "
                         f"the {dice[position]} was kept")
    else:
        held = list(turn.held)
        for position in held:  # the kept dice are in the frame too, somewhere
            twin = next((d for d in rest if d.value == dice[position]), None)
            if twin is not None:
                rest.remove(twin)
                spots[position] = (twin.x, twin.y)
    free = [p for p in range(count) if p not in held]
    for position, die in zip(free, rest, strict=False):
        spots[position] = (die.x, die.y)
    return Throw(
        tuple(sorted(held)),
        tuple(d.value for d in rest),
        tuple(spots.get(p, (0.0, 0.0)) for p in range(count)),
        tuple(flags),
    )


def _match(value: int, dice: Sequence[int], kept: Sequence[int],
           taken: Sequence[int]) -> int | None:
    """The position a ledge die of ``value`` stands for: a kept one first, then any."""
    for pool in (kept, range(len(dice))):
        for position in pool:
            if position not in taken and dice[position] == value:
                return position
    return None
