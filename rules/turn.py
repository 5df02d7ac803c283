"""One player's turn: rolls used and left, kept dice, a declaration, the scoring context.

A :class:`Turn` is an immutable value: every action returns a new turn, so a game can
keep the old one for undo. The dice values always come from outside (the camera, a
phone, or a seeded :class:`random.Random` through :func:`throw`); the turn only checks
them against the rule set.

>>> from dicetray.rules import load_ruleset
>>> turn = Turn.start(load_ruleset("yahtzee"))
>>> turn = turn.roll((2, 2, 5, 6, 2))
>>> turn = turn.keep((0, 1, 4))            # the three twos go onto the ledge
>>> turn.rolls_left
2
>>> turn = turn.roll((2, 3))               # only the two thrown dice, in position order
>>> turn.dice
(2, 2, 2, 3, 2)
>>> turn.context().roll, turn.context().thrown
(2, 2)
"""

from __future__ import annotations

import itertools
import operator
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dicetray.rules.errors import (
    DeclarationError,
    HoldForbidden,
    InvalidDice,
    NoRollsLeft,
    NotRolled,
)
from dicetray.rules.ruleset import RuleSet, ScoreContext

__all__ = ["Declaration", "Roll", "Turn", "throw"]


@dataclass(frozen=True)
class Declaration:
    """A box named after roll 1: Mickey's declared box, or the box an announce column aims at.

    ``column`` is None on a one-column sheet.

    >>> Declaration("mickey")
    Declaration(box='mickey', column=None)
    """

    box: str
    column: str | None = None


@dataclass(frozen=True)
class Roll:
    """One throw: all dice after it (by position) and the positions that were thrown.

    >>> Roll(dice=(3, 3, 4, 5, 6), thrown=(2, 3, 4)).count
    3
    """

    dice: tuple[int, ...]
    thrown: tuple[int, ...]

    @property
    def count(self) -> int:
        """How many dice this roll threw."""
        return len(self.thrown)


@dataclass(frozen=True)
class Turn:
    """The state of the current player's turn under one rule set.

    ``allowance`` is how many rolls this turn may use (the rule set's rolls plus saved
    rolls when ``save_rolls``); ``held`` are the positions on the ledge now; ``locked``
    the positions that were held at an earlier roll (only the ``locked`` hold policy
    keeps them from being thrown again).
    """

    ruleset: RuleSet = field(repr=False)
    allowance: int
    rolls: tuple[Roll, ...] = ()
    held: tuple[int, ...] = ()
    locked: tuple[int, ...] = ()
    declaration: Declaration | None = None

    @classmethod
    def start(cls, ruleset: RuleSet, saved: int = 0) -> Turn:
        """A fresh turn; ``saved`` rolls carried over are added when the rule set saves rolls.

        >>> from dicetray.rules import load_ruleset
        >>> Turn.start(load_ruleset("yahtzee")).rolls_left
        3
        """
        if saved < 0:
            raise NoRollsLeft(f"saved rolls cannot be negative (got {saved})")
        extra = saved if ruleset.save_rolls else 0
        return cls(ruleset=ruleset, allowance=ruleset.rolls + extra)

    # -- what the turn looks like ------------------------------------------------------

    @property
    def rolled(self) -> bool:
        """Whether at least one roll has been made."""
        return bool(self.rolls)

    @property
    def rolls_used(self) -> int:
        return len(self.rolls)

    @property
    def max_rolls(self) -> int:
        """Rolls this turn may use: declaring Mickey leaves no third roll."""
        if self.declaration is not None and self._declares_mickey():
            return min(self.allowance, 2)
        return self.allowance

    @property
    def rolls_left(self) -> int:
        """Rolls still allowed this turn (what ``save_rolls`` carries over when scoring)."""
        return max(0, self.max_rolls - self.rolls_used)

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice after the last roll, by position.

        >>> from dicetray.rules import load_ruleset
        >>> Turn.start(load_ruleset("yahtzee")).dice
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.NotRolled: no roll yet this turn
        """
        return self._last().dice

    @property
    def to_throw(self) -> tuple[int, ...]:
        """Positions the next roll throws (all on the first roll)."""
        if not self.rolls:
            return tuple(range(self.ruleset.dice))
        return tuple(p for p in range(self.ruleset.dice) if p not in self.held)

    @property
    def can_declare(self) -> bool:
        """Whether a box may be declared now: right after roll 1, under Mickey or with an
        announce column.

        >>> from dicetray.rules import load_ruleset
        >>> Turn.start(load_ruleset("mickey")).roll((1, 2, 3, 4, 6)).can_declare
        True
        """
        if self.rolls_used != 1 or self.declaration is not None:
            return False
        announce = any(c.order == "announce" for c in self.ruleset.columns)
        return self.ruleset.declaration == "mickey" or announce

    def to_dict(self) -> dict[str, object]:
        """JSON-able state of the turn (for the phones)."""
        declared = self.declaration
        return {
            "dice": list(self.dice) if self.rolls else None,
            "held": list(self.held),
            "locked": list(self.locked),
            "rolls_used": self.rolls_used,
            "rolls_left": self.rolls_left,
            "can_declare": self.can_declare,
            "declared": None
            if declared is None
            else {"box": declared.box, "column": declared.column},
        }

    def context(self) -> ScoreContext:
        """Which roll produced the dice and how many dice it threw (sharp, served)."""
        last = self._last()
        return ScoreContext(roll=self.rolls_used, thrown=last.count)

    # -- actions ------------------------------------------------------------------------

    def roll(self, values: Sequence[int]) -> Turn:
        """Throw every die not held; ``values`` are the thrown dice (in position order) or
        all dice (then the held ones must keep their values).

        >>> from dicetray.rules import load_ruleset
        >>> Turn.start(load_ruleset("yahtzee")).roll((1, 2, 3))
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.InvalidDice: the roll threw 5 dice but 3 values were given
        """
        if self.rolls_left <= 0:
            raise NoRollsLeft(
                f"no rolls left: {self.rolls_used} of {self.max_rolls} used this turn"
            )
        if (
            self.ruleset.declaration == "mickey"
            and self.rolls_used == 1
            and self.declaration is None
        ):
            raise DeclarationError("declare the box after the first roll, before rolling again")
        thrown = self.to_throw
        if not thrown:
            raise HoldForbidden("every die is held: nothing left to throw")
        values = _numbers(values, "dice", 64)
        self._check_faces(values)
        before = list(self.dice) if self.rolls else [0] * self.ruleset.dice
        if len(values) == len(thrown):
            for position, value in zip(thrown, values, strict=True):
                before[position] = value
        elif len(values) == self.ruleset.dice:
            for position in self.held:
                if values[position] != before[position]:
                    raise InvalidDice(
                        f"the held die at position {position} changed from "
                        f"{before[position]} to {values[position]}"
                    )
            before = list(values)
        else:
            raise InvalidDice(
                f"the roll threw {len(thrown)} dice but {len(values)} values were given"
            )
        locked = self.locked
        if self.ruleset.hold == "locked":
            locked = tuple(sorted(set(locked) | set(self.held)))
        return replace(self, rolls=(*self.rolls, Roll(tuple(before), thrown)), locked=locked)

    def keep(self, positions: Iterable[int]) -> Turn:
        """Put the dice at ``positions`` on the ledge (and every other die in the cup).

        >>> from dicetray.rules import load_ruleset
        >>> Turn.start(load_ruleset("general")).roll((6, 6, 1, 2, 3)).keep((0, 1)).held
        (0, 1)
        """
        if not self.rolls:
            raise NotRolled("no roll yet this turn: nothing to keep")
        given = list(_numbers(positions, "positions", 64))
        for position in given:
            if not _is_position(position, self.ruleset.dice):
                raise InvalidDice(
                    f"no die at position {position!r}: positions are 0..{self.ruleset.dice - 1}"
                )
        wanted = tuple(sorted(set(given)))
        if self.ruleset.hold == "none" and wanted:
            raise HoldForbidden("this rule set keeps no dice: every roll throws all of them")
        if self.ruleset.hold == "locked":
            freed = sorted(set(self.locked) - set(wanted))
            if freed:
                raise HoldForbidden(
                    f"dice set aside are never thrown again: position(s) {freed} must stay held"
                )
        return replace(self, held=wanted)

    def keep_values(self, values: Iterable[int]) -> Turn:
        """Keep dice by value (the first matching positions), e.g. ``keep_values([6, 6])``.

        >>> from dicetray.rules import load_ruleset
        >>> Turn.start(load_ruleset("yahtzee")).roll((6, 1, 6, 2, 6)).keep_values([6, 6]).held
        (0, 2)
        """
        dice = self.dice
        wanted = Counter(values)
        positions: list[int] = []
        # locked dice come first so a locked hold can be kept by value too
        order = list(self.locked) + [p for p in range(len(dice)) if p not in self.locked]
        for position in order:
            if wanted[dice[position]] > 0:
                wanted[dice[position]] -= 1
                positions.append(position)
        missing = +wanted
        if missing:
            raise InvalidDice(f"the dice {dice} do not hold {sorted(missing.elements())}")
        return self.keep(positions)

    def declare(self, box: str, column: str | None = None) -> Turn:
        """Name the box to aim at, right after the first roll (Mickey, announce column).

        Whether the box is open is the sheet's business; here only the timing is checked.

        >>> from dicetray.rules import load_ruleset
        >>> turn = Turn.start(load_ruleset("mickey")).roll((1, 2, 3, 4, 6)).declare("mickey")
        >>> turn.max_rolls
        2
        >>> turn.declare("straight")
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.DeclarationError: this turn already declared 'mickey'; ...
        """
        if not self.rolls:
            raise NotRolled("declare after the first roll")
        if self.rolls_used != 1:
            raise DeclarationError("a box is declared right after the first roll, not later")
        if self.declaration is not None:
            raise DeclarationError(
                f"this turn already declared {self.declaration.box!r}; it cannot change"
            )
        return replace(self, declaration=Declaration(box, column))

    # -- helpers ------------------------------------------------------------------------

    def _last(self) -> Roll:
        if not self.rolls:
            raise NotRolled("no roll yet this turn")
        return self.rolls[-1]

    def _check_faces(self, values: tuple[int, ...]) -> None:
        faces = self.ruleset.faces
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
                raise InvalidDice(f"a die shows 1..{faces}, not {value!r}")

    def _declares_mickey(self) -> bool:
        if self.declaration is None or self.ruleset.declaration != "mickey":
            return False
        box_ids = self.ruleset.box_ids
        if self.declaration.box not in box_ids:
            return False
        return self.ruleset.box(self.declaration.box).kind == "mickey"


def throw(turn: Turn, rng: random.Random) -> Turn:
    """Roll ``turn`` with dice from ``rng`` (simulation and tests; the tray uses the camera).

    >>> from dicetray.rules import load_ruleset
    >>> turn = throw(Turn.start(load_ruleset("yahtzee")), random.Random(7))
    >>> len(turn.dice), turn.rolls_used
    (5, 1)
    """
    faces = turn.ruleset.faces
    return turn.roll(tuple(rng.randint(1, faces) for _ in turn.to_throw))


def _numbers(values: Any, what: str, most: int) -> tuple[Any, ...]:
    """``values`` as a tuple, integers of any type (NumPy's too) as plain ints; InvalidDice
    when ``values`` is no sequence or holds more than ``most`` entries."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InvalidDice(f"{what} must be a sequence of whole numbers, not {values!r}")
    items = tuple(itertools.islice(values, most + 1))
    if len(items) > most:
        raise InvalidDice(f"{what}: more than {most} given")
    out = []
    for value in items:
        try:
            out.append(value if isinstance(value, bool) else operator.index(value))
        except TypeError:
            out.append(value)  # refused with its own message by the caller's check
    return tuple(out)


def _is_position(position: object, dice: int) -> bool:
    return isinstance(position, int) and not isinstance(position, bool) and 0 <= position < dice
