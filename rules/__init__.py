"""The rules engine: rule sets as data, scoring, sheets, turns and games.

>>> from dicetray.rules import load_ruleset
>>> load_ruleset("yahtzee").score("small-straight", [1, 2, 3, 4, 6])
30
"""

from dicetray.rules.errors import (
    BoxFilled,
    DeclarationError,
    GameOver,
    HoldForbidden,
    InvalidDice,
    NoRollsLeft,
    NotRolled,
    NotYourTurn,
    OrderViolation,
    RulesError,
    RuleSetError,
    UnknownBox,
    UnknownRuleSet,
)
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

__all__ = [
    "BoxFilled",
    "BoxSpec",
    "ColumnSpec",
    "DeclarationError",
    "ExtraPolicy",
    "GameOver",
    "HoldForbidden",
    "InvalidDice",
    "NoRollsLeft",
    "NotRolled",
    "NotYourTurn",
    "OrderViolation",
    "RuleSet",
    "RuleSetError",
    "RulesError",
    "ScoreContext",
    "SharpPolicy",
    "StrictPolicy",
    "UnknownBox",
    "UnknownRuleSet",
    "UpperBonus",
    "list_options",
    "list_rulesets",
    "load_ruleset",
]
