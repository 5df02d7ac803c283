"""How widely optimal play's final scores spread: their standard deviation, exactly.

Besides each state's expected future points (the strategy table), the second moment of
the future points is carried back through every turn, following the choices the table
makes (each max of the expected values picks the option whose second moment is kept;
ties go to the first option, as in :func:`~.turn.solve_turn`). Free and no holds only.

For Yahtzee with a free-choice joker this gives 59.6117 (tests/rules/test_advisor_figures.py).

>>> Spread(mean=254.5896, sd=59.6117).sd
59.6117
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dicetray.rules.advisor.errors import Refusal, Unsolvable
from dicetray.rules.advisor.lattice import Lattice
from dicetray.rules.advisor.model import NEG, Model
from dicetray.rules.advisor.table import CHUNK, Progress, StrategyTable, layer_columns, spread_layer

__all__ = ["Spread", "score_spread"]


@dataclass(frozen=True)
class Spread:
    """Mean and standard deviation of the final score of optimal play from an empty sheet."""

    mean: float
    sd: float


def score_spread(table: StrategyTable, progress: Progress | None = None) -> Spread:
    """The exact standard deviation of optimal play's final score (mean-maximising play)."""
    model = table.model
    rs = model.ruleset
    if rs.hold == "locked":
        raise Unsolvable(
            f"{rs.reference}: the spread is worked out for free or no holds only",
            code=Refusal.HOLDS,
        )
    values = table.values
    second = np.full(values.shape, np.nan)
    second[model.full] = model.end_value(np.arange(model.uppers))[:, None] ** 2
    nb = len(model.boxes)
    popcount = np.array([bin(m).count("1") for m in range(1 << nb)])
    masks = np.arange(1 << nb)
    layers = [masks[popcount == k] for k in range(nb - 1, -1, -1)]
    columns = [layer_columns(model, layer) for layer in layers]
    total, done = sum(len(c[0]) for c in columns), 0
    for layer, (cm, cu, cy) in zip(layers, columns, strict=True):
        for start in range(0, len(cm), CHUNK):
            part = slice(start, start + CHUNK)
            m, u, y = cm[part], cu[part], cy[part]
            mean, square = _turn(model, values, second, m, u, y)
            second[m, u, y] = square
            done += len(m)
            if progress:
                progress(done, total)
        spread_layer(model, second, layer)
    mean = float(values[0, 0, 0])
    return Spread(mean, math.sqrt(max(0.0, float(second[0, 0, 0]) - mean**2)))


def _turn(
    model: Model,
    values: np.ndarray,
    second: np.ndarray,
    cm: np.ndarray,
    cu: np.ndarray,
    cy: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    lat = model.lat
    rolls, hold = model.ruleset.rolls, model.ruleset.hold
    finals = [_finals(model, values, second, cm, cu, cy, j) for j in range(rolls)]
    mean, square = finals[-1]
    for j in range(rolls - 1, 0, -1):
        keep_m, keep_q = _expand(lat, mean), _expand(lat, square)
        score_m, score_q = finals[j - 1]
        if hold == "none":
            better = keep_m[0][None, :] > score_m
            mean = np.where(better, keep_m[0][None, :], score_m)
            square = np.where(better, keep_q[0][None, :], score_q)
        else:
            mean, square = _decide(lat, keep_m, keep_q, score_m, score_q)
    probs = lat.prob[lat.rolls]
    return probs @ mean, probs @ square


def _pick(cur_m, cur_q, new_m, new_q) -> None:
    better = new_m > cur_m
    np.copyto(cur_m, new_m, where=better)
    np.copyto(cur_q, new_q, where=better)


def _finals(model, values, second, cm, cu, cy, j) -> tuple[np.ndarray, np.ndarray]:
    c = model.context[j]
    rolls = model.points.shape[2]
    flat_v, flat_q = values.reshape(-1), second.reshape(-1)
    out_m = np.full((rolls, len(cm)), NEG)
    out_q = np.zeros((rolls, len(cm)))
    for b in range(len(model.boxes)):
        bit = 1 << b
        open_ = (cm & bit) == 0
        if not open_.any():
            continue
        vals, where, _, _ = model.distinct[c][b]
        pos = model.after_scoring(b, vals, cm, cu, cy)
        v, q = np.take(flat_v, pos), np.take(flat_q, pos)
        p = vals[:, None].astype(float)
        w_m = p + v
        w_q = p * p + 2 * p * v + q
        w_m[:, ~open_] = NEG
        _pick(out_m, out_q, w_m[where], w_q[where])
    if model.flagged:
        _jokers(model, values, second, cm, cu, cy, c, out_m, out_q)
    return out_m, out_q


def _jokers(model, values, second, cm, cu, cy, c, out_m, out_q) -> None:
    jokers = model.joker_states(cm, cu, cy)
    if jokers is None:
        return
    best_m = np.full(jokers.match.shape, NEG)
    best_q = np.zeros(jokers.match.shape)
    cy = jokers.cy[None, :]
    for entry in jokers.entries(model, c, range(len(model.boxes))):
        p = entry.points.astype(float)
        v, q = values[entry.mask, entry.upper, cy], second[entry.mask, entry.upper, cy]
        _pick(best_m, best_q, np.where(entry.legal, p + v, NEG), p * p + 2 * p * v + q)
    rows = model.five_rows[:, None]
    out_m[rows, jokers.cols[None, :]] = best_m
    out_q[rows, jokers.cols[None, :]] = best_q


def _expand(lat: Lattice, top: np.ndarray) -> np.ndarray:
    out = np.empty((lat.size, top.shape[1]))
    out[lat.rolls] = top
    for k in range(lat.n - 1, -1, -1):
        child = lat.child[lat.level[k]]
        out[lat.level[k]] = out[child].mean(axis=1)
    return out


def _decide(lat, keep_m, keep_q, score_m, score_q) -> tuple[np.ndarray, np.ndarray]:
    best_m = keep_m[: lat.rolls.start].copy()
    best_q = keep_q[: lat.rolls.start].copy()
    out_m, out_q = score_m.copy(), score_q.copy()
    for k in range(1, lat.n + 1):
        rows = lat.level[k]
        acc_m = best_m[rows] if k < lat.n else out_m
        acc_q = best_q[rows] if k < lat.n else out_q
        for p, count in enumerate(lat.spread[k]):
            parents = lat.parents[rows.start : rows.start + count, p]
            _pick(acc_m[:count], acc_q[:count], best_m[parents], best_q[parents])
    return out_m, out_q
