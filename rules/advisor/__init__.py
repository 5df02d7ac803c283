"""The coach: exact optimal play for solitaire games of the rule sets it can model.

The solver needs NumPy; this package imports it only when a name below is first used,
so ``dicetray.rules`` keeps working on a bare install.

- :mod:`.lattice`: dice as multisets (252 rolls, 462 keeps for five dice).
- :mod:`.model`: what an entry scores, read from the rule set; refusals with the reason.
- :mod:`.turn`: one turn solved for many states at once.
- :mod:`.table`: backward induction over start-of-turn states.
- :mod:`.cache`: the table stored in the data directory, checked before it is trusted.
- :mod:`.advice`: the best keep or box for a situation.
- :mod:`.analysis`: what each decision of a played game cost.
- :mod:`.extremes`: the theoretical maximum.

>>> from dicetray.rules.advisor import Unsolvable
>>> Unsolvable.__mro__[2].__name__
'RulesError'
"""

from __future__ import annotations

import importlib
from typing import Any

from dicetray.rules.advisor.errors import AdvisorError, Unsolvable

_LAZY = {
    "Model": "model",
    "check_solvable": "model",
    "StrategyTable": "table",
    "build_table": "table",
    "TableCache": "cache",
    "load_table": "cache",
    "Advice": "advice",
    "Option": "advice",
    "advise": "advice",
    "advise_game": "advice",
    "Analysis": "analysis",
    "Decision": "analysis",
    "analyse": "analysis",
    "theoretical_max": "extremes",
}

__all__ = ["AdvisorError", "Unsolvable", *sorted(_LAZY)]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = importlib.import_module(f"{__name__}.{_LAZY[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
