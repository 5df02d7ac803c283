"""What the advisor raises: part of the rules engine's one family under RulesError.

>>> from dicetray.rules import RulesError
>>> issubclass(Unsolvable, AdvisorError) and issubclass(AdvisorError, RulesError)
True
"""

# ruff: noqa: N818

from __future__ import annotations

from dicetray.rules.errors import RulesError

__all__ = ["AdvisorError", "Unsolvable"]


class AdvisorError(RulesError):
    """Base of the advisor's errors."""


class Unsolvable(AdvisorError):
    """A rule set (or a question) the solver does not model exactly; says why."""
