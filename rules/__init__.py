"""The rules engine: rule sets as data, scoring, sheets, turns and games.

Rule sets (:mod:`.ruleset`, :mod:`.kinds`, :mod:`.loader`) say how a roll scores; the play
modules (:mod:`.turn`, :mod:`.sheet`, :mod:`.game`, :mod:`.events`) keep the state of a
game. Everything here is standard library only, but the optimal advisor
(:mod:`.advisor`), which imports NumPy when first used.

>>> from dicetray.rules import load_ruleset
>>> load_ruleset("yahtzee").score("small-straight", [1, 2, 3, 4, 6])
30
"""

from dicetray.rules.advisor.errors import AdvisorError, Unsolvable
from dicetray.rules.errors import (
    BoxFilled,
    ColumnError,
    DeclarationError,
    EventError,
    ExtraRuleError,
    GameOver,
    HoldForbidden,
    InvalidDice,
    NoRollsLeft,
    NotRolled,
    NotYourTurn,
    OrderViolation,
    PlayersError,
    RulesError,
    RuleSetError,
    ScratchError,
    UndoError,
    UnknownBox,
    UnknownRuleSet,
)
from dicetray.rules.events import (
    Declared,
    Event,
    Kept,
    NextGame,
    Rolled,
    Scored,
    Started,
    Undone,
    dumps,
    loads,
)
from dicetray.rules.files import read_bytes, sync_folder, write_durably
from dicetray.rules.game import Game, Match
from dicetray.rules.loader import list_options, list_rulesets, load_ruleset
from dicetray.rules.ruleset import (
    BoxSpec,
    ColumnSpec,
    ExtraPolicy,
    RuleSet,
    ScoreContext,
    SharpPolicy,
    StrictPolicy,
    UpperBonus,
)
from dicetray.rules.sheet import ColumnTotals, Entry, Sheet
from dicetray.rules.turn import Declaration, Roll, Turn, throw

__all__ = [
    "AdvisorError",
    "BoxFilled",
    "BoxSpec",
    "ColumnError",
    "ColumnSpec",
    "ColumnTotals",
    "Declaration",
    "DeclarationError",
    "Declared",
    "Entry",
    "Event",
    "EventError",
    "ExtraPolicy",
    "ExtraRuleError",
    "Game",
    "GameOver",
    "HoldForbidden",
    "InvalidDice",
    "Kept",
    "Match",
    "NextGame",
    "NoRollsLeft",
    "NotRolled",
    "NotYourTurn",
    "OrderViolation",
    "PlayersError",
    "Roll",
    "Rolled",
    "RuleSet",
    "RuleSetError",
    "RulesError",
    "ScoreContext",
    "Scored",
    "ScratchError",
    "SharpPolicy",
    "Sheet",
    "Started",
    "StrictPolicy",
    "Turn",
    "UndoError",
    "Undone",
    "UnknownBox",
    "UnknownRuleSet",
    "Unsolvable",
    "UpperBonus",
    "dumps",
    "list_options",
    "list_rulesets",
    "load_ruleset",
    "loads",
    "read_bytes",
    "sync_folder",
    "throw",
    "write_durably",
]
