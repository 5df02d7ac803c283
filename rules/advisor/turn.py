"""One turn solved for many states at once: rolls, keeps and the best choice at each roll.

Every array has one column per state (start-of-turn situation) and one row per hand of
dice (:mod:`.lattice`). ``finals(j)`` gives, after roll j (0-based), the value of scoring
each roll now; the solver works back through the keeps to the value before roll 0.

``op`` says what the dice do: ``mean`` (they fall at random: expected values), ``min``
(they fall as badly as they can: what a cautious player can guarantee) or ``max``
(they fall as wished).

Keeps are solved die by die: the value of holding hand K before a roll is the average,
over the face of one more die, of holding K plus that die, down from the full hands; the
best keep within a roll is the best of the hand itself and of the hand less one die.

>>> import numpy as np
>>> from dicetray.rules.advisor.lattice import lattice
>>> lat = lattice(2, 6)
>>> sums = np.array([[float(sum(lat.dice(i)))] for i in range(lat.rolls.start, lat.rolls.stop)])
>>> plan = solve_turn(lat, lambda j: sums, rolls=1, hold="free")
>>> round(float(plan.start[0]), 9)
7.0
>>> round(float(solve_turn(lat, lambda j: sums, rolls=2, hold="free").start[0]), 9)
8.5
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dicetray.rules.advisor.lattice import Lattice

__all__ = ["OPS", "TurnPlan", "Workspace", "solve_turn"]

OPS = ("mean", "min", "max")


class Workspace:
    """Scratch arrays reused from one chunk of states to the next.

    Fresh multi-megabyte arrays cost page faults on every chunk (measured: as much system
    time as compute time), so the hot loops write into arrays kept here.
    """

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        found = self._arrays.get(name)
        if found is None or found.shape != shape:
            found = np.empty(shape)
            self._arrays[name] = found
        return found


@dataclass(frozen=True, eq=False)
class TurnPlan:
    """A solved turn: ``start`` per state, and ``keeps[j][hand]`` the value of holding
    (or, for locked holds, having set aside) that hand before roll j (j >= 1)."""

    start: np.ndarray
    keeps: dict[int, np.ndarray]


def solve_turn(
    lat: Lattice,
    finals: Callable[[int], np.ndarray],
    rolls: int,
    hold: str,
    op: str = "mean",
    work: Workspace | None = None,
) -> TurnPlan:
    """Solve a turn of ``rolls`` rolls; ``finals(j)`` is the (rolls x states) array of
    scoring after roll j. Arrays in ``work`` are reused (then ``keeps`` live until the
    next call with the same workspace)."""
    if op not in OPS:
        raise ValueError(f"op must be one of {OPS}, not {op!r}")
    work = work or Workspace()
    keeps: dict[int, np.ndarray] = {}
    values = finals(rolls - 1)
    if hold == "locked":
        if rolls > 1:
            keeps[rolls - 1] = _expand(lat, values, op, work, f"keep{rolls - 1}")
            for j in range(rolls - 2, 0, -1):
                keeps[j] = _locked(lat, keeps[j + 1], finals(j), op)
            values = _decide(lat, keeps[1], finals(0), work)
    else:
        for j in range(rolls - 1, 0, -1):
            keeps[j] = _expand(lat, values, op, work, f"keep{j}")
            if hold == "none":
                values = np.maximum(finals(j - 1), keeps[j][0][None, :])
            else:
                values = _decide(lat, keeps[j], finals(j - 1), work)
    if op == "mean":
        start = lat.prob[lat.rolls] @ values
    else:
        start = values.min(axis=0) if op == "min" else values.max(axis=0)
    return TurnPlan(start, keeps)


def _expand(lat: Lattice, top: np.ndarray, op: str, work: Workspace, name: str) -> np.ndarray:
    """Values of holding every hand before a roll, from the values of the full hands."""
    cols = top.shape[1]
    out = work.get(name, (lat.size, cols))
    out[lat.rolls] = top
    combine = {"mean": np.add, "min": np.minimum, "max": np.maximum}[op]
    for k in range(lat.n - 1, -1, -1):
        rows = lat.level[k]
        child = lat.child[rows]
        acc = out[rows]
        tmp = work.get(f"expand{k}", acc.shape)
        np.take(out, child[:, 0], axis=0, out=acc, mode="clip")
        for f in range(1, lat.faces):
            np.take(out, child[:, f], axis=0, out=tmp, mode="clip")
            combine(acc, tmp, out=acc)
        if op == "mean":
            acc *= 1.0 / lat.faces
    return out


def _decide(lat: Lattice, keep: np.ndarray, scores: np.ndarray, work: Workspace) -> np.ndarray:
    """Best of scoring now and every keep smaller than the roll, for each roll."""
    cols = keep.shape[1]
    best = work.get("best", (lat.rolls.start, cols))
    best[0] = keep[0]
    for k in range(1, lat.n + 1):
        rows = lat.level[k]
        if k < lat.n:
            acc = best[rows]
            acc[:] = keep[rows]
        else:
            acc = work.get("decided", scores.shape)
            acc[:] = scores
        tmp = work.get(f"decide{k}", acc.shape)
        for p, count in enumerate(lat.spread[k]):
            np.take(
                best,
                lat.parents[rows.start : rows.start + count, p],
                axis=0,
                out=tmp[:count],
                mode="clip",
            )
            np.maximum(acc[:count], tmp[:count], out=acc[:count])
    return acc


@dataclass(frozen=True, eq=False)
class _Pairs:
    """Pairs (set aside L, hand T ⊇ L) for locked holds, by how many dice T adds to L."""

    levels: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]  # (hand T, parent pairs)
    top_parents: np.ndarray  # for each (L, roll D) pair: the (L, D - f) pairs
    top_roll: np.ndarray  # D (index within the rolls) of each top pair
    top_owner: np.ndarray  # L of each top pair
    top_weight: np.ndarray  # chance of throwing D - L with n - |L| dice
    owners: np.ndarray  # the L (|L| < n) in the order of the top pairs' groups
    starts: np.ndarray  # where each L's group of top pairs begins


@lru_cache(maxsize=8)
def _pairs(lat: Lattice) -> _Pairs:
    index: dict[tuple[int, int], int] = {}
    by_level: list[list[tuple[int, int]]] = [[] for _ in range(lat.n)]
    for low in range(lat.rolls.start):
        for high in lat.sub_hands_above(low):
            gap = int(lat.counts[high].sum() - lat.counts[low].sum())
            by_level[gap].append((low, high))
    flat = [p for level in by_level for p in level]
    index = {p: i for i, p in enumerate(flat)}
    levels = []
    for gap, level in enumerate(by_level):
        hands = np.array([h for _, h in level], dtype=np.intp)
        width = max(1, min(gap, lat.faces))
        parents = np.zeros((len(level), width), dtype=np.intp)
        for row, (low, high) in enumerate(level):
            found = _less_one(lat, low, high, index)
            if found:
                parents[row] = (found * width)[:width]
        levels.append((np.array([index[p] for p in level], dtype=np.intp), hands, parents))
    width = min(lat.n, lat.faces)
    tops, owners_of, rolls, weights = [], [], [], []
    for low in range(lat.rolls.start):
        left = lat.n - int(lat.counts[low].sum())
        for roll in range(lat.rolls.start, lat.rolls.stop):
            if not lat.contains(roll, low):
                continue
            found = _less_one(lat, low, roll, index)
            tops.append((found * width)[:width])
            owners_of.append(low)
            rolls.append(roll - lat.rolls.start)
            rest = tuple(int(x) for x in lat.counts[roll] - lat.counts[low])
            weights.append(lat.prob[lat.index[rest]] if left else 1.0)
    owner = np.array(owners_of, dtype=np.intp)
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    return _Pairs(
        tuple(levels),
        np.array(tops, dtype=np.intp),
        np.array(rolls, dtype=np.intp),
        owner,
        np.array(weights),
        owner[starts],
        starts,
    )


def _less_one(lat: Lattice, low: int, high: int, index: dict[tuple[int, int], int]) -> list[int]:
    found = []
    counts = lat.counts[high]
    for f in range(lat.faces):
        if counts[f] > lat.counts[low][f]:
            smaller = counts.copy()
            smaller[f] -= 1
            found.append(index[(low, lat.index[tuple(int(x) for x in smaller)])])
    return found


def _locked(lat: Lattice, keep: np.ndarray, scores: np.ndarray, op: str) -> np.ndarray:
    """Value of having set aside each hand L before a roll that throws the other dice."""
    pairs = _pairs(lat)
    total = sum(len(rows) for rows, _, _ in pairs.levels)
    best = np.empty((total, keep.shape[1]))
    for gap, (rows, hands, parents) in enumerate(pairs.levels):
        acc = keep[hands]
        for p in range(parents.shape[1] if gap else 0):
            np.maximum(acc, best[parents[:, p]], out=acc)
        best[rows] = acc
    top = scores[pairs.top_roll]
    for p in range(pairs.top_parents.shape[1]):
        np.maximum(top, best[pairs.top_parents[:, p]], out=top)
    out = np.full((lat.size, keep.shape[1]), np.nan)
    out[lat.rolls] = scores
    if op == "mean":
        out[pairs.owners] = np.add.reduceat(top * pairs.top_weight[:, None], pairs.starts, axis=0)
    else:
        ufunc = np.minimum if op == "min" else np.maximum
        out[pairs.owners] = ufunc.reduceat(top, pairs.starts, axis=0)
    return out
