"""The strategy table: the value of every start-of-turn state, by backward induction.

States with more boxes filled are solved first; all states with the same number of
boxes filled are solved together, a chunk of columns at a time (every upper total and
flag of many sheets in one array), so NumPy does the work in large, cache-sized steps.

>>> from dicetray.rules import load_ruleset
>>> table = build_table(Model.build(load_ruleset("yacht")))
>>> round(table.expected, 4) > 0
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dicetray.rules.advisor.model import Model
from dicetray.rules.advisor.turn import TurnPlan, Workspace, solve_turn

__all__ = [
    "CHUNK",
    "Progress",
    "StrategyTable",
    "build_table",
    "layer_columns",
    "plan_turn",
    "spread_layer",
]

# Columns solved in one step: (462 hands x 1024 columns) float64 arrays are 3.8 MB, about
# what the L2/L3 caches of a desktop and of a Raspberry Pi 4 (1 MB L2) handle well;
# measured on this machine, 512 and 2048 were both a few per cent slower.
CHUNK = 1024

Progress = Callable[[int, int], None]


@dataclass(frozen=True, eq=False)
class StrategyTable:
    """``values[mask, upper, flag]``: expected final points still to come from the start of
    a turn (the upper bonus included when it is still to be earned)."""

    model: Model
    values: np.ndarray
    op: str = "mean"

    @property
    def expected(self) -> float:
        """The figure for an empty sheet."""
        return float(self.values[0, 0, 0])

    def value(self, mask: int, upper: int, flag: int) -> float:
        """The value of one state (upper totals past the threshold count as the threshold)."""
        upper = min(upper, self.model.threshold)
        if self.model.threshold == 0:
            upper = 0
        upper = int(self.model.umap[self.model.subset[mask], upper])
        return float(self.values[mask, upper, flag if self.model.flagged else 0])


def plan_turn(table: StrategyTable, mask: int, upper: int, flag: int) -> TurnPlan:
    """The turn from one state solved in full (for hints): keeps and final values."""
    model = table.model
    upper = min(upper, model.threshold) if model.threshold else 0
    cm = np.array([mask], dtype=np.int64)
    cu = np.array([upper], dtype=np.intp)
    cy = np.array([flag if model.flagged else 0], dtype=np.intp)
    cache: dict[int, np.ndarray] = {}

    def finals(j: int) -> np.ndarray:
        c = model.context[j]
        if c not in cache:
            cache[c] = model.finals(table.values, cm, cu, cy, j)
        return cache[c]

    return solve_turn(model.lat, finals, model.ruleset.rolls, model.ruleset.hold, table.op)


def build_table(
    model: Model, op: str = "mean", progress: Progress | None = None, chunk: int = CHUNK
) -> StrategyTable:
    """Solve every state of ``model``; ``progress(done, total)`` is told as columns finish."""
    nb = len(model.boxes)
    values = np.full((1 << nb, model.uppers, 2), np.nan)
    full = model.full
    ups = np.arange(model.uppers)
    values[full] = model.end_value(ups)[:, None]
    masks = np.arange(1 << nb)
    popcount = np.array([bin(m).count("1") for m in range(1 << nb)])
    layers = [masks[popcount == k] for k in range(nb - 1, -1, -1)]
    columns = [layer_columns(model, layer) for layer in layers]
    total = sum(len(c[0]) for c in columns)
    done = 0
    work = Workspace()
    rolls, hold = model.ruleset.rolls, model.ruleset.hold
    for layer, (cm, cu, cy) in zip(layers, columns, strict=True):
        for start in range(0, len(cm), chunk):
            part = slice(start, start + chunk)
            m, u, y = cm[part], cu[part], cy[part]
            cache: dict[int, np.ndarray] = {}

            def finals(j: int, m=m, u=u, y=y, cache=cache) -> np.ndarray:
                c = model.context[j]
                if c not in cache:
                    cache[c] = model.finals(values, m, u, y, j, work)
                return cache[c]

            values[m, u, y] = solve_turn(model.lat, finals, rolls, hold, op, work).start
            done += len(m)
            if progress:
                progress(done, total)
        spread_layer(model, values, layer)
    return StrategyTable(model, values, op)


def layer_columns(model: Model, layer: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The states of one layer to solve: each mask's distinct upper totals and flags."""
    cms, cus, cys = [], [], []
    five_bit = 1 << model.five if model.five >= 0 else 0
    for mask in layer.tolist():
        reps = model.reps(mask)
        flags = 2 if model.flagged and mask & five_bit else 1
        for flag in range(flags):
            cms.append(np.full(len(reps), mask, dtype=np.int64))
            cus.append(reps)
            cys.append(np.full(len(reps), flag, dtype=np.intp))
    return np.concatenate(cms), np.concatenate(cus).astype(np.intp), np.concatenate(cys)


def spread_layer(model: Model, values: np.ndarray, layer: np.ndarray) -> None:
    """Copy each solved state to the upper totals and flags it stands for."""
    rows = model.umap[model.subset[layer]]
    values[layer] = values[layer[:, None], rows]
    if model.flagged:
        open_five = layer[(layer & (1 << model.five)) == 0]
        values[open_five, :, 1] = values[open_five, :, 0]
    else:
        values[layer, :, 1] = values[layer, :, 0]
