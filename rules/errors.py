"""Everything the rules engine raises: one family under :class:`RulesError`.

>>> err = RuleSetError("house.toml", "boxes[3].params.n", "must be between 2 and 6")
>>> str(err)
'house.toml: boxes[3].params.n: must be between 2 and 6'
>>> isinstance(err, RulesError)
True

Bad input at the table raises one of these too: a die outside 1..faces or the wrong
number of dice (:class:`InvalidDice`), an unknown or filled box (:class:`UnknownBox`,
:class:`BoxFilled`), scoring before rolling (:class:`NotRolled`), a roll past the last
(:class:`NoRollsLeft`), a keep the hold policy forbids (:class:`HoldForbidden`), a box the
order rule forbids (:class:`OrderViolation`).

>>> from dicetray.rules import Game, load_ruleset
>>> game = Game(load_ruleset("yahtzee"))
>>> game.score("chance")
Traceback (most recent call last):
...
dicetray.rules.errors.NotRolled: no roll yet this turn
"""

# The names are the agreed model shared with the play modules; they read as events.
# ruff: noqa: N818

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the rules engine raises."""


class RuleSetError(RulesError):
    """A malformed rule-set file: names the file, the dotted key and what is wrong."""

    def __init__(self, path: str, key: str, problem: str) -> None:
        self.path = str(path)
        self.key = key
        self.problem = problem
        parts = [p for p in (self.path, key, problem) if p]
        super().__init__(": ".join(parts))


class UnknownRuleSet(RulesError):
    """A rule-set id that is neither built in nor the path of a file."""


class InvalidDice(RulesError):
    """A die outside 1..faces, or the wrong number of dice."""


class UnknownBox(RulesError):
    """A category id that is not on this sheet."""


class BoxFilled(RulesError):
    """The box already holds a score."""


class NotRolled(RulesError):
    """Scoring, keeping or declaring before the first roll of the turn."""


class NoRollsLeft(RulesError):
    """A roll past the last one of the turn."""


class HoldForbidden(RulesError):
    """A keep the hold policy forbids (``none`` or ``locked``)."""


class OrderViolation(RulesError):
    """A box the column's order rule does not allow now."""


class DeclarationError(RulesError):
    """A missing, late or illegal declaration (Mickey, the announce column)."""


class GameOver(RulesError):
    """Acting on a game that is already finished."""


class NotYourTurn(RulesError):
    """A player acting out of turn."""


class ExtraRuleError(RulesError):
    """A further five-of-a-kind must go where the extra rule sends it (joker rules, extra turn)."""


class ScratchError(RulesError):
    """Swiss rule: a lower box may be scratched only if no die scores in an open upper box."""


class ColumnError(RulesError):
    """The column is not on this sheet (or a many-column sheet was not told which one)."""


class UndoError(RulesError):
    """Undo with nothing recorded."""


class PlayersError(RulesError):
    """Too few or too many players for the rule set, or a player that is not at the table."""


class EventError(RulesError):
    """An event that cannot be read (unknown type, missing or malformed field)."""
