"""The whole distribution of optimal play's final score, exactly (no simulation).

The table's policy (the advisor's best option at every decision; among options within
:data:`~.advice.TIE` of the best, the one :func:`~.advice.advise` lists first) is followed
from an empty sheet. Probability mass moves forward over (start-of-turn state, points so
far), one layer of states (boxes filled) at a time: each state's turn gives a distribution
over (next state, points) from its final rolls (the first roll's chances, the policy's
keep, the chances of the roll from that keep, again, then the policy's box). Only states
the policy reaches are solved; the mean and the standard deviation of optimal play come
from it exactly. Free and no holds only.

>>> Distribution(np.array([0.5, 0.0, 0.5])).sd
1.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dicetray.rules.advisor.advice import TIE
from dicetray.rules.advisor.errors import Refusal, Unsolvable
from dicetray.rules.advisor.lattice import Lattice
from dicetray.rules.advisor.model import NEG, Model
from dicetray.rules.advisor.table import Progress, StrategyTable, layer_columns
from dicetray.rules.advisor.turn import Workspace, solve_turn

__all__ = ["Distribution", "score_distribution"]

# States whose turn is solved in one step: (252 rolls x 512 states) float64 arrays stay in
# the caches; the mass of a layer is moved in blocks of as many rows.
CHUNK = 512
# Numbers moved in one step between layers (arrays of 32 MB each).
BLOCK = 1 << 22


@dataclass(frozen=True, eq=False)
class Distribution:
    """``probabilities[s]``: the chance that the final score is exactly s.

    >>> d = Distribution(np.array([0.25, 0.0, 0.5, 0.25]))
    >>> d.mean, d.median, d.mode, d.percentile(80), round(d.sd, 4)
    (1.75, 2, 2, 3, 1.0897)
    """

    probabilities: np.ndarray

    @property
    def scores(self) -> np.ndarray:
        return np.arange(len(self.probabilities))

    @property
    def mean(self) -> float:
        return float(self.scores @ self.probabilities)

    @property
    def sd(self) -> float:
        second = float((self.scores.astype(float) ** 2) @ self.probabilities)
        return math.sqrt(max(0.0, second - self.mean**2))

    @property
    def mode(self) -> int:
        """The commonest final score (the lowest of equally common ones)."""
        return int(np.argmax(self.probabilities))

    @property
    def median(self) -> int:
        return self.percentile(50)

    def percentile(self, q: float) -> int:
        """The lowest score that at least ``q`` per cent of games do not exceed."""
        if not 0 <= q <= 100:
            raise ValueError(f"a percentile is 0 to 100, not {q}")
        cdf = np.cumsum(self.probabilities)
        # a sum of floats may fall short of q/100 by rounding: allow a few ulps
        return int(np.searchsorted(cdf, q / 100 * (1 - 1e-12), side="left"))


def score_distribution(table: StrategyTable, progress: Progress | None = None) -> Distribution:
    """The exact distribution of the final score when every choice is the table's best."""
    model = table.model
    rs = model.ruleset
    if rs.hold == "locked" or table.op != "mean":
        raise Unsolvable(
            f"{rs.reference}: the distribution is worked out for mean-maximising play with "
            "free or no holds only",
            code=Refusal.HOLDS,
        )
    flow = _Flow(model, table.values)
    nb = len(model.boxes)
    popcount = np.array([bin(m).count("1") for m in range(1 << nb)])
    sizes = [len(layer_columns(model, np.flatnonzero(popcount == k))[0]) for k in range(nb)]
    total, before = sum(sizes), 0
    layer = _Layer(np.array([0], dtype=np.int64), np.array([0]), np.array([1]), np.ones(1))
    for k in range(nb):
        src, dst, points, chance = [], [], [], []
        keys = layer.keys
        for start in range(0, len(keys), CHUNK):
            s, d, p, q = flow.turn(keys[start : start + CHUNK])
            src.append(s + start)
            dst.append(d)
            points.append(p)
            chance.append(q)
            if progress:
                progress(before + sizes[k] * min(len(keys), start + CHUNK) // len(keys), total)
        before += sizes[k]
        layer = layer.move(
            np.concatenate(src), np.concatenate(dst), np.concatenate(points),
            np.concatenate(chance),
        )
    upper = (layer.keys // 2) % model.uppers
    bonus = model.end_value(upper).astype(np.int64)
    if progress:
        progress(total, total)
    return Distribution(layer.collect(bonus))


@dataclass(frozen=True, eq=False)
class _Layer:
    """The mass of one layer of states: state i (key ``keys[i]``) holds the chance of each
    points total from ``low[i]`` to ``low[i] + width[i] - 1``, stored one state after the
    other in ``mass`` (most states can have come by only a few totals)."""

    keys: np.ndarray
    low: np.ndarray
    width: np.ndarray
    mass: np.ndarray

    @property
    def starts(self) -> np.ndarray:
        return np.cumsum(self.width) - self.width

    def move(
        self, src: np.ndarray, dst: np.ndarray, points: np.ndarray, chance: np.ndarray
    ) -> _Layer:
        """The next layer: state ``src`` sends ``chance`` of its mass, ``points`` on, to the
        state keyed ``dst``, for every transition."""
        keys, row = np.unique(dst, return_inverse=True)
        first = self.low[src] + points
        last = first + self.width[src]
        low = np.full(len(keys), np.iinfo(np.int64).max)
        np.minimum.at(low, row, first)
        high = np.zeros(len(keys), dtype=np.int64)
        np.maximum.at(high, row, last)
        width = high - low
        out = np.zeros(int(width.sum()))
        starts, to_starts = self.starts, np.cumsum(width) - width
        # one block of transitions at a time: each moves ``width[src]`` numbers
        reach = np.cumsum(self.width[src])
        a = 0
        while a < len(src):
            b = max(a + 1, int(np.searchsorted(reach, reach[a] + BLOCK, side="left")))
            s, r = src[a:b], row[a:b]
            w = self.width[s]
            each = np.repeat(np.arange(b - a), w)
            within = np.arange(int(w.sum())) - np.repeat(np.cumsum(w) - w, w)
            frm = starts[s][each] + within
            to = (to_starts[r] + first[a:b] - low[r])[each] + within
            out += np.bincount(to, weights=self.mass[frm] * chance[a:b][each], minlength=len(out))
            a = b
        return _Layer(keys, low, width, out)

    def collect(self, extra: np.ndarray) -> np.ndarray:
        """Chance of each final score once state i's ``extra`` points are added."""
        low = self.low + extra
        size = int((low + self.width).max())
        each = np.repeat(np.arange(len(self.keys)), self.width)
        within = np.arange(len(self.mass)) - np.repeat(self.starts, self.width)
        return np.bincount(low[each] + within, weights=self.mass, minlength=size)


class _Flow:
    """One turn of many states under the table's policy: where the mass goes."""

    def __init__(self, model: Model, values: np.ndarray) -> None:
        self.model = model
        self.values = values
        self.work = Workspace()
        lat = model.lat
        self.subs = _sub_hands(lat, model.ruleset.hold)
        self.reroll = _reroll(lat)
        # the advisor ranks equal options by box id: try boxes in that order, first wins
        self.order = sorted(range(len(model.boxes)), key=lambda b: model.boxes[b])

    def turn(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Transitions (state column, next state key, points, chance) of ``keys``' turns."""
        model, lat = self.model, self.model.lat
        uppers = model.uppers
        cy = (keys % 2).astype(np.intp)
        cu = ((keys // 2) % uppers).astype(np.intp)
        cm = keys // (2 * uppers)
        cols = len(keys)
        rs = model.ruleset
        boxes: dict[int, np.ndarray] = {}
        best: dict[int, np.ndarray] = {}

        def finals(j: int) -> np.ndarray:
            c = model.context[j]
            if c not in best:
                best[c], boxes[c] = self._boxes(cm, cu, cy, c)
            return best[c]

        plan = solve_turn(lat, finals, rs.rolls, rs.hold, "mean", self.work)
        rolls = lat.rolls.stop - lat.rolls.start
        here = np.broadcast_to(lat.prob[lat.rolls][:, None], (rolls, cols)).copy()
        scored = {c: np.zeros((rolls, cols)) for c in set(model.context)}
        column = np.arange(cols)[None, :]
        for j in range(rs.rolls - 1):
            keep = plan.keeps[j + 1]
            # the best of scoring now and every keep; within TIE of it, the advisor's order:
            # scoring first, then the keeps (already in its order)
            top = finals(j).copy()
            for p in range(self.subs.shape[1]):
                np.maximum(top, keep[self.subs[:, p]], out=top)
            top -= TIE
            keeping = finals(j) < top
            k_hand = np.full((rolls, cols), -1, dtype=np.intp)
            for p in range(self.subs.shape[1] - 1, -1, -1):  # the first in order wins
                hand = self.subs[:, p]
                good = keep[hand] >= top
                np.copyto(k_hand, np.broadcast_to(hand[:, None], good.shape), where=good)
            scored[model.context[j]] += np.where(keeping, 0.0, here)
            kept = np.bincount(
                (np.where(keeping, k_hand, 0) * cols + column).ravel(),
                weights=np.where(keeping, here, 0.0).ravel(),
                minlength=lat.size * cols,
            ).reshape(lat.size, cols)
            here = self.reroll @ kept
        finals(rs.rolls - 1)
        scored[model.context[rs.rolls - 1]] += here
        parts = [self._outcomes(cm, cu, cy, c, boxes[c], scored[c]) for c in scored]
        col, dst, pts, q = (np.concatenate(x) for x in zip(*parts, strict=True))
        # one transition per (state, next state, points)
        span = int(pts.max()) + 1
        code = (col * (int(dst.max()) + 1) + dst) * span + pts
        code, where = np.unique(code, return_inverse=True)
        q = np.bincount(where, weights=q)
        pts = code % span
        rest = code // span
        return rest // (int(dst.max()) + 1), rest % (int(dst.max()) + 1), pts, q

    def _boxes(
        self, cm: np.ndarray, cu: np.ndarray, cy: np.ndarray, c: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Best value of scoring each roll now and the box the advisor picks for it."""
        model = self.model
        flat = self.values.reshape(-1)
        rolls = model.points.shape[2]
        best = np.full((rolls, len(cm)), NEG)
        found = []
        for b in self.order:
            bit = 1 << b
            open_ = (cm & bit) == 0
            if not open_.any():
                continue
            vals, where, _, _ = model.distinct[c][b]
            w = np.take(flat, model.after_scoring(b, vals, cm, cu, cy))
            w += vals[:, None]
            w[:, ~open_] = NEG
            w = w[where]
            np.maximum(best, w, out=best)
            found.append((b, w))
        box = _first_good(found, best)
        if model.flagged:
            self._jokers(cm, cu, cy, c, best, box)
        return best, box

    def _jokers(self, cm, cu, cy, c, best, box) -> None:
        model = self.model
        jokers = model.joker_states(cm, cu, cy)
        if jokers is None:
            return
        j_best = np.full(jokers.match.shape, NEG)
        found = []
        for entry in jokers.entries(model, c, self.order):
            v = entry.points + self.values[entry.mask, entry.upper, jokers.cy[None, :]]
            v = np.where(entry.legal, v, NEG)
            np.maximum(j_best, v, out=j_best)
            found.append((entry.box, v))
        j_box = _first_good(found, j_best)
        rows = model.five_rows[:, None]
        best[rows, jokers.cols[None, :]] = j_best
        box[rows, jokers.cols[None, :]] = j_box

    def _outcomes(self, cm, cu, cy, c, box, scored):
        """(state column, next state key, points, chance) of each roll scored with context c."""
        model = self.model
        r, col = np.nonzero(scored > 0)
        b = box[r, col]
        m, u, y = cm[col], cu[col], cy[col]
        pts = model.points[c, b, r]
        gain = model.up[c, b, r]
        flag = y.copy()
        if model.flagged:
            flag = np.where(b == model.five, (pts > 0).astype(np.intp), y)
            five = model.five_rows
            face = np.full(model.points.shape[2], -1)
            face[five] = np.arange(len(five))
            joker = ((m & (1 << model.five)) != 0) & (face[r] >= 0)
            if joker.any():
                mj = m[joker]
                f = face[r[joker]]
                bit = model.match_bit[f]
                open_match = ((bit != 0) & ((mj & bit) == 0)).astype(np.intp)
                low = ((mj & model.lower_mask) != model.lower_mask).astype(np.intp)
                key = (c, f, b[joker], y[joker], open_match, low)
                if not model.joker_legal[key].all():
                    raise AssertionError("the policy chose a box the joker rule forbids")
                pts = pts.copy()
                gain = gain.copy()
                pts[joker] = model.joker_total[key]
                gain[joker] = model.joker_up[key]
                flag[joker] = y[joker]
        nm = m | (np.int64(1) << b)
        if model.threshold:
            nu = model.umap[model.subset[nm], np.minimum(model.threshold, u + gain)]
        else:
            nu = np.zeros_like(u)
        dst = (nm * model.uppers + nu) * 2 + flag
        return col, dst, pts.astype(np.int64), scored[r, col]


def _first_good(found: list[tuple[int, np.ndarray]], best: np.ndarray) -> np.ndarray:
    """Per entry, the first box (in the advisor's order) whose value is within TIE of
    ``best``."""
    box = np.full(best.shape, -1, dtype=np.intp)
    for b, value in reversed(found):
        box[value >= best - TIE] = b
    return box


def _sub_hands(lat: Lattice, hold: str) -> np.ndarray:
    """For each roll, the keeps the advisor offers (smaller hands it contains), in the
    order it lists equally good ones (the higher dice first), padded by repeating the
    first."""
    start = lat.rolls.start
    if hold == "none":
        return np.zeros((lat.rolls.stop - start, 1), dtype=np.intp)
    found = []
    for i in range(start, lat.rolls.stop):
        hands = [h for h in lat.sub_hands(i) if h < start]
        found.append(sorted(hands, key=lat.dice, reverse=True))
    width = max(len(h) for h in found)
    return np.array([h + [h[0]] * (width - len(h)) for h in found], dtype=np.intp)


def _reroll(lat: Lattice) -> np.ndarray:
    """``[roll, hand]``: the chance that throwing the dice not in ``hand`` gives ``roll``."""
    start = lat.rolls.start
    out = np.zeros((lat.rolls.stop - start, lat.size))
    for hand in range(start):
        for roll in range(start, lat.rolls.stop):
            if lat.contains(roll, hand):
                rest = tuple(int(x) for x in lat.counts[roll] - lat.counts[hand])
                out[roll - start, hand] = lat.prob[lat.index[rest]]
    return out
