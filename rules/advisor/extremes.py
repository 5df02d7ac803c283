"""The theoretical maximum: the best final score when every die falls as wished.

No chance is involved, so this is a plain search over the sheet's states (boxes filled,
upper total, five-of-a-kind flag): in each, the best of every box with the best roll for
it under any scoring context (which roll of the turn, all dice thrown or not). Scores come
from the rule set; a further five-of-a-kind is scored by asking real sheets (see
:mod:`.model`). It works for every built-in rule set, six dice and Crag included.

>>> from dicetray.rules import load_ruleset
>>> theoretical_max(load_ruleset("yahtzee")), theoretical_max(load_ruleset("yatzy"))
(1575, 374)
>>> theoretical_max(load_ruleset("kniffel-extra-turn"))
Traceback (most recent call last):
...
dicetray.rules.advisor.extremes.Unbounded: kniffel-extra-turn has no maximum: ...
"""

# ruff: noqa: N818

from __future__ import annotations

import numpy as np

from dicetray.rules.advisor.errors import AdvisorError, Unsolvable
from dicetray.rules.advisor.lattice import lattice
from dicetray.rules.advisor.model import _read_jokers
from dicetray.rules.kinds import get_kind
from dicetray.rules.ruleset import RuleSet, ScoreContext

__all__ = ["Unbounded", "theoretical_max"]

# 2^18 boxes (six-dice Yatzy) x 85 upper totals of int32 is 90 MB; more is refused.
MAX_BOXES = 18
LOW = -(2**40)


class Unbounded(AdvisorError):
    """The rule set has no maximum (extra turns can go on for ever)."""


def theoretical_max(ruleset: RuleSet) -> int:
    """The highest final score the rules allow for one player's sheet."""
    rs = ruleset
    if rs.extra.mode == "extra-turn" and rs.five_of_a_kind:
        raise Unbounded(
            f"{rs.reference} has no maximum: every further five-of-a-kind earns "
            f"{rs.extra.bonus} and another turn"
        )
    why = _refusal(rs)
    if why:
        raise Unsolvable(f"{rs.reference} {why}; the maximum search does not model that")
    boxes = rs.scored_ids
    nb = len(boxes)
    lat = lattice(rs.dice, rs.faces)
    rolls = [lat.dice(i) for i in range(lat.rolls.start, lat.rolls.stop)]
    five_rolls = {tuple([f] * rs.dice) for f in range(1, rs.faces + 1)}
    contexts = [ScoreContext(roll=j, thrown=rs.dice) for j in range(1, rs.rolls + 1)]
    contexts += [ScoreContext(roll=j, thrown=rs.dice - 1) for j in range(2, rs.rolls + 1)]
    refs = [_refs(rs, box) for box in boxes]
    # best[b, variant, kind]: kind 0 = any roll, 1 = no five-of-a-kind roll
    best = np.zeros((nb, 2, 2), dtype=np.int64)
    for b, box in enumerate(boxes):
        for variant in (0, 1):
            filled = frozenset(refs[b]) if variant else frozenset()
            for ctx in contexts:
                ctx = ScoreContext(ctx.roll, ctx.thrown, filled)
                for dice in rolls:
                    points = rs.score(box, dice, ctx)
                    best[b, variant, 0] = max(best[b, variant, 0], points)
                    if dice not in five_rolls:
                        best[b, variant, 1] = max(best[b, variant, 1], points)
    bonus = rs.upper_bonus
    threshold = bonus.threshold if bonus else 0
    counts = np.array([int(bonus is not None and box in bonus.boxes) for box in boxes])
    five = boxes.index(rs.five_of_a_kind) if rs.five_of_a_kind in boxes else -1
    flagged = five >= 0 and rs.extra.mode != "none"
    jokers = _jokers(rs, boxes, five) if flagged else None
    ref_bits = np.array([sum(1 << boxes.index(r) for r in refs[b]) for b in range(nb)])
    ups, flags = threshold + 1, 2 if flagged else 1
    top = np.zeros((1 << nb, ups, flags), dtype=np.int64)
    u = np.arange(ups)[None, :, None]
    y = np.arange(flags)[None, None, :]
    top[-1] = (np.arange(ups) >= threshold)[:, None] * (bonus.points if bonus and threshold else 0)
    masks = np.arange(1 << nb)
    popcount = np.array([bin(m).count("1") for m in masks.tolist()])
    for k in range(nb - 1, -1, -1):
        layer = masks[popcount == k]
        cur = np.full((len(layer), ups, flags), LOW, dtype=np.int64)
        for b in range(nb):
            open_ = (layer >> b & 1) == 0
            if not open_.any():
                continue
            rows = layer[open_]
            nm = (rows | 1 << b)[:, None, None]
            variant = ((rows & ref_bits[b]) == ref_bits[b]).astype(np.intp) if ref_bits[b] else 0
            held = (rows >> five & 1).astype(np.intp) if flagged else np.zeros(len(rows), np.intp)
            points = best[b, variant, held]
            points = np.broadcast_to(points, rows.shape)[:, None, None]
            if b == five and flagged:
                outcomes = [(points, 1), (np.zeros_like(points), 0)]
            else:
                outcomes = [(points, y)]
            value = np.full((len(rows), ups, flags), LOW, dtype=np.int64)
            for pts, ny in outcomes:
                nu = np.minimum(threshold, u + pts * counts[b])
                np.maximum(value, pts + top[nm, nu, ny], out=value)
            if flagged and b != five:
                _joker_values(value, jokers, rows, b, five, boxes, top, threshold, counts)
            cur[open_] = np.maximum(cur[open_], value)
        top[layer] = cur
    return int(top[0, 0, 0])


def _refusal(rs: RuleSet) -> str | None:
    if len(rs.columns) > 1:
        return f"plays {len(rs.columns)} columns at once"
    if rs.columns[0].order != "free" or rs.strict is not None:
        return "fills boxes in a fixed order"
    if rs.scratch != "any":
        return "limits scratching (Swiss rule)"
    if any(box.section == "computed" for box in rs.boxes):
        return "has a computed line"
    if len(rs.scored_ids) > MAX_BOXES:
        return f"has {len(rs.scored_ids)} boxes; the search stops at {MAX_BOXES}"
    return None


def _refs(rs: RuleSet, box_id: str) -> tuple[str, ...]:
    """Boxes whose being filled changes what ``box_id`` scores (Crag for Thirteen)."""
    box = rs.box(box_id)
    kind = get_kind(box.kind)
    return tuple(box.params[p] for p in kind.box_params if box.params.get(p))


def _jokers(rs: RuleSet, boxes: tuple[str, ...], five: int) -> tuple[np.ndarray, ...]:
    """Joker entries for every roll of the turn, as in :mod:`.model`."""
    shape = (rs.rolls, rs.faces, len(boxes), 2, 2, 2)
    legal = np.zeros(shape, dtype=bool)
    total = np.zeros(shape, dtype=np.int64)
    gain = np.zeros(shape, dtype=np.int64)
    uppers = [b for b, box in enumerate(boxes) if rs.box(box).section == "upper"]
    match_bit = np.zeros(rs.faces, dtype=np.int64)
    for f in range(rs.faces):
        dice = (f + 1,) * rs.dice
        matching = [b for b in uppers if rs.box(boxes[b]).points(dice) > 0]
        if len(matching) > 1:
            raise Unsolvable(f"{rs.reference} has {len(matching)} upper boxes for five {f + 1}s")
        match_bit[f] = 1 << matching[0] if matching else 0
    lower_mask = sum(1 << b for b, box in enumerate(boxes) if rs.box(box).section == "lower")
    _read_jokers(rs, boxes, five, match_bit, lower_mask, list(range(rs.rolls)), legal, total, gain)
    return legal, total, gain, match_bit, np.int64(lower_mask)


def _joker_values(
    value: np.ndarray,
    jokers: tuple[np.ndarray, ...] | None,
    rows: np.ndarray,
    b: int,
    five: int,
    boxes: tuple[str, ...],
    top: np.ndarray,
    threshold: int,
    counts: np.ndarray,
) -> None:
    """A further five-of-a-kind entered in box b, where the five-of-a-kind box is filled."""
    assert jokers is not None
    legal, total, gain, match_bit, lower_mask = jokers
    held_rows = np.flatnonzero(rows >> five & 1)
    if not len(held_rows):
        return
    sub = rows[held_rows]
    low = ((sub & lower_mask) != lower_mask).astype(np.intp)
    nm = sub | 1 << b
    ups = top.shape[1]
    u = np.arange(ups)[None, :]
    for flag in (0, 1):
        for f in range(len(match_bit)):
            bit = int(match_bit[f])
            m = ((sub & bit) == 0).astype(np.intp) if bit else np.zeros(len(sub), np.intp)
            for c in range(legal.shape[0]):
                ok = legal[c, f, b, flag, m, low]
                if not ok.any():
                    continue
                pts = total[c, f, b, flag, m, low][:, None]
                nu = np.minimum(threshold, u + gain[c, f, b, flag, m, low][:, None] * counts[b])
                got = np.where(ok[:, None], pts + top[nm[:, None], nu, flag], LOW)
                np.maximum(value[held_rows, :, flag], got, out=got)
                value[held_rows, :, flag] = got
