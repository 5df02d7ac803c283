"""What the advisor raises: part of the rules engine's one family under RulesError.

>>> from dicetray.rules import RulesError
>>> issubclass(Unsolvable, AdvisorError) and issubclass(AdvisorError, RulesError)
True
"""

# ruff: noqa: N818

from __future__ import annotations

from enum import StrEnum

from dicetray.rules.errors import RulesError

__all__ = ["AdvisorError", "Refusal", "Unsolvable"]


class Refusal(StrEnum):
    """Which rule made the advisor refuse (the pages translate these)."""

    COLUMNS = "columns"
    ORDER = "order"
    DECLARATION = "declaration"
    SAVE_ROLLS = "save-rolls"
    SHARP = "sharp"
    SCRATCH = "scratch"
    EXTRA_TURNS = "extra-turns"
    DICE = "dice"
    COMPUTED = "computed"
    BOX_PARAMS = "box-params"
    BOXES = "boxes"
    JOKER_UPPER = "joker-upper"
    HOLDS = "holds"
    UNSOLVABLE = "unsolvable"


class AdvisorError(RulesError):
    """Base of the advisor's errors."""


class Unsolvable(AdvisorError):
    """A rule set (or a question) the solver does not model exactly; says why.

    ``code`` names the rule refused (for a translated message); ``unsolvable`` when no
    single rule is to blame.

    >>> Unsolvable("mickey declares the box", code=Refusal.DECLARATION).code
    <Refusal.DECLARATION: 'declaration'>
    """

    def __init__(self, message: str, *, code: Refusal = Refusal.UNSOLVABLE) -> None:
        super().__init__(message)
        self.code = code
