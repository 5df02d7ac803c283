"""The scoring model: what entering a roll in a box gives, read from the rule set itself.

A start-of-turn state is (filled boxes as a bit mask, the upper total capped at the bonus
threshold, a flag: the five-of-a-kind box holds points). For every box and every roll the
model keeps the points :meth:`RuleSet.score` gives (a 252-entry table per box, one per
scoring context that differs, e.g. General's served boxes). A further five-of-a-kind under a
joker rule is scored by asking a real :class:`~dicetray.rules.sheet.Sheet` in a few
representative situations: the entry depends on the sheet only through the flag, whether
the matching upper box is open and whether any lower box is open (checked against
:meth:`Sheet.options` on random sheets in the tests).

Rule sets the model cannot play exactly are refused with the reason.

>>> from dicetray.rules import load_ruleset
>>> model = Model.build(load_ruleset("yahtzee"))
>>> model.boxes[:2], model.threshold, model.flagged
(('ones', 'twos'), 63, True)
>>> Model.build(load_ruleset("kniffel+columns-3"))
Traceback (most recent call last):
...
dicetray.rules.advisor.errors.Unsolvable: kniffel+columns-3 plays 3 columns at once; ...
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from dicetray.rules.advisor.errors import Refusal, Unsolvable
from dicetray.rules.advisor.lattice import Lattice, lattice
from dicetray.rules.advisor.turn import Workspace
from dicetray.rules.kinds import get_kind
from dicetray.rules.ruleset import RuleSet, ScoreContext
from dicetray.rules.sheet import Sheet

__all__ = ["JOKER_MODES", "MAX_BOXES", "Model", "check_solvable"]

# Joker rules whose entries the model reads from representative sheets.
JOKER_MODES = ("none", "forced-joker", "free-joker", "lower-joker", "kniffel", "book")
# 2^16 masks x 64 upper totals x 2 flags: about 100 MB of float64 values, the most the
# table is allowed to take (Yatzy's 15 boxes need a quarter of that).
MAX_BOXES = 16
NEG = -np.inf


def check_solvable(ruleset: RuleSet, max_dice: int = 5) -> None:
    """Raise :class:`Unsolvable` naming the first rule the solver does not model exactly."""
    found = _refusal(ruleset, max_dice)
    if found:
        code, why = found
        raise Unsolvable(
            f"{ruleset.reference} {why}; the advisor solves only games it models exactly",
            code=code,
        )


def _refusal(rs: RuleSet, max_dice: int) -> tuple[Refusal, str] | None:
    """(a one-word code, the reason) of the first rule the solver does not model."""
    if len(rs.columns) > 1:
        return Refusal.COLUMNS, f"plays {len(rs.columns)} columns at once"
    if rs.columns[0].order != "free":
        return Refusal.ORDER, f"fills boxes in a fixed order ({rs.columns[0].order})"
    if rs.declaration != "none":
        return Refusal.DECLARATION, "declares the box after the first roll"
    if rs.save_rolls:
        return Refusal.SAVE_ROLLS, "carries unused rolls over to later turns"
    if rs.strict is not None:
        return Refusal.ORDER, "fills boxes top to bottom (strict)"
    if rs.sharp is not None:
        return Refusal.SHARP, "doubles scores by how many dice were thrown (sharp throws)"
    if rs.scratch != "any":
        return Refusal.SCRATCH, "limits scratching (Swiss rule)"
    if rs.extra.mode not in JOKER_MODES:
        mode = rs.extra.mode
        return Refusal.EXTRA_TURNS, f"gives extra turns for a further five-of-a-kind ({mode})"
    if rs.dice > max_dice:
        return Refusal.DICE, f"plays {rs.dice} dice; the advisor plays 2 to {max_dice}"
    if rs.dice < 2:
        return Refusal.DICE, "plays a single die; the advisor plays 2 to 5"
    for box in rs.boxes:
        if box.section == "computed":
            return Refusal.COMPUTED, f"has a computed line ({box.id})"
        if get_kind(box.kind).box_params:
            return Refusal.BOX_PARAMS, f"scores {box.id} by which other boxes are filled"
    if len(rs.scored_ids) > MAX_BOXES:
        count = len(rs.scored_ids)
        return Refusal.BOXES, f"has {count} boxes; the exact table stops at {MAX_BOXES}"
    return None


@dataclass(frozen=True, eq=False)
class Model:
    """A rule set as the solver sees it (arrays indexed by box number, roll, context).

    ``points[c, b, r]``: points of roll r (index within the rolls) in box b, context c;
    ``context[j]``: the context of roll j of the turn (0-based); ``up[c, b, r]``: what the
    entry adds to the upper total. ``joker_*[c, f, b, h, m, l]``: a further five-of-a-kind
    of face f+1 in box b with flag h, matching upper box open m, a lower box open l.
    ``umap[s, u]``: the upper total standing for u when the bonus boxes filled are subset s.
    """

    ruleset: RuleSet
    lat: Lattice
    boxes: tuple[str, ...]
    bonus_mask: int
    threshold: int
    bonus: int
    five: int
    flagged: bool
    context: tuple[int, ...]
    points: np.ndarray
    up: np.ndarray
    joker_legal: np.ndarray
    joker_total: np.ndarray
    joker_up: np.ndarray
    match_bit: np.ndarray
    lower_mask: int
    subset: np.ndarray
    umap: np.ndarray
    distinct: tuple[tuple[tuple[np.ndarray, np.ndarray, int, np.ndarray], ...], ...]

    @classmethod
    def build(cls, ruleset: RuleSet) -> Model:
        check_solvable(ruleset)
        return _build(ruleset)

    # -- sizes -------------------------------------------------------------------------

    @property
    def full(self) -> int:
        """The mask of a full sheet."""
        return (1 << len(self.boxes)) - 1

    @property
    def uppers(self) -> int:
        """How many upper totals are told apart (threshold + 1)."""
        return self.threshold + 1

    @property
    def flags(self) -> int:
        return 2 if self.flagged else 1

    @property
    def five_rows(self) -> np.ndarray:
        """Row (index within the rolls) of all dice showing face f+1, for each f."""
        lat = self.lat
        return np.array(
            [
                lat.index[tuple(lat.n if g == f else 0 for g in range(lat.faces))] - lat.rolls.start
                for f in range(lat.faces)
            ]
        )

    def reps(self, mask: int) -> np.ndarray:
        """The upper totals that stand for themselves on a sheet with this mask."""
        row = self.umap[self.subset[mask]]
        return np.flatnonzero(row == np.arange(self.uppers))

    def end_value(self, upper: np.ndarray) -> np.ndarray:
        """What a full sheet still adds: the upper bonus once the total is reached."""
        if self.threshold == 0:
            return np.zeros(upper.shape)
        return np.where(upper >= self.threshold, float(self.bonus), 0.0)

    # -- entries -----------------------------------------------------------------------

    def finals(
        self,
        values: np.ndarray,
        cm: np.ndarray,
        cu: np.ndarray,
        cy: np.ndarray,
        j: int,
        work: Workspace | None = None,
    ) -> np.ndarray:
        """Best value of scoring each roll (rows) in states (columns) after roll ``j``.

        ``values[mask, u, y]`` are start-of-turn values of later states; the result is
        points now plus the value of the state the entry leads to, best over open boxes.
        """
        work = work or Workspace()
        c = self.context[j]
        rolls = self.points.shape[2]
        flat = values.reshape(-1)
        out = work.get(f"finals{c}", (rolls, len(cm)))
        out.fill(NEG)
        for b in range(len(self.boxes)):
            bit = 1 << b
            open_ = (cm & bit) == 0
            if not open_.any():
                continue
            vals, where, common, others = self.distinct[c][b]
            w = np.take(flat, self.after_scoring(b, vals, cm, cu, cy))
            w += vals[:, None]
            w[:, ~open_] = NEG
            if len(others) * 3 < rolls:
                # most rolls score the same here (0 in a pattern box): no gather for them
                np.maximum(out, w[common][None, :], out=out)
                out[others] = np.maximum(out[others], w[where[others]])
            else:
                tmp = work.get("finals-tmp", out.shape)
                np.take(w, where, axis=0, out=tmp, mode="clip")
                np.maximum(out, tmp, out=out)
        if self.flagged:
            self._jokers(out, values, cm, cu, cy, c)
        return out

    def after_scoring(self, box: int, vals: np.ndarray, cm: np.ndarray, cu: np.ndarray,
                      cy: np.ndarray) -> np.ndarray:
        """Where each of ``vals`` points entered in ``box`` leads from the states ``(cm, cu,
        cy)``: positions in a flat table of start-of-turn values (one row a value, one
        column a state), ``(mask * uppers + upper) * 2 + flag``."""
        base = (cm | 1 << box) * (self.uppers * 2)
        gain = self.gain_of(box, vals)
        if gain.any():
            pos = base[None, :] + np.minimum(self.threshold, cu[None, :] + gain[:, None]) * 2
        else:
            pos = np.broadcast_to(base + cu * 2, (len(vals), len(cm)))
        if self.flagged and box == self.five:
            return pos + (vals > 0).astype(np.intp)[:, None]
        return pos + cy[None, :]

    def gain_of(self, box: int, vals: np.ndarray) -> np.ndarray:
        """What points ``vals`` entered in ``box`` add to the upper total."""
        if self.bonus_mask >> box & 1:
            return vals.astype(np.intp)
        return np.zeros(len(vals), dtype=np.intp)

    def _jokers(
        self,
        out: np.ndarray,
        values: np.ndarray,
        cm: np.ndarray,
        cu: np.ndarray,
        cy: np.ndarray,
        c: int,
    ) -> None:
        """Rows of five equal dice once the five-of-a-kind box is filled: joker entries."""
        jokers = self.joker_states(cm, cu, cy)
        if jokers is None:
            return
        best = np.full(jokers.match.shape, NEG)
        for entry in jokers.entries(self, c, range(len(self.boxes))):
            v = entry.points + values[entry.mask, entry.upper, jokers.cy[None, :]]
            np.maximum(best, np.where(entry.legal, v, NEG), out=best)
        out[self.five_rows[:, None], jokers.cols[None, :]] = best

    def joker_states(self, cm: np.ndarray, cu: np.ndarray,
                     cy: np.ndarray) -> JokerStates | None:
        """Of the states ``(cm, cu, cy)``, those whose five-of-a-kind box is filled (where
        five equal dice are jokers); None if there are none."""
        filled = (cm & (1 << self.five)) != 0
        if not filled.any():
            return None
        cm, cu, cy = cm[filled], cu[filled], cy[filled]
        bits = self.match_bit[:, None]
        return JokerStates(
            cols=np.flatnonzero(filled), cm=cm, cu=cu, cy=cy,
            lower=((cm & self.lower_mask) != self.lower_mask).astype(np.intp)[None, :],
            # (faces, states): the upper box matching the five dice is open
            match=(((cm[None, :] & bits) == 0) & (bits != 0)).astype(np.intp),
            faces=np.arange(self.lat.faces)[:, None],
        )

    def entry(
        self, mask: int, flag: int, box: int, roll: int, j: int
    ) -> tuple[int, int, int] | None:
        """(points with extras, upper gain, next flag) of entering roll index ``roll`` in
        ``box`` after roll ``j``; None when the rules forbid that box now."""
        if mask >> box & 1:
            return None
        c = self.context[j]
        lat = self.lat
        hand = lat.rolls.start + roll
        counts = lat.counts[hand]
        if self.flagged and mask >> self.five & 1 and counts.max() == lat.n:
            f = int(np.argmax(counts))
            bit = int(self.match_bit[f])
            m = int(bit != 0 and mask & bit == 0)
            low = int(mask & self.lower_mask != self.lower_mask)
            if not self.joker_legal[c, f, box, flag, m, low]:
                return None
            return (
                int(self.joker_total[c, f, box, flag, m, low]),
                int(self.joker_up[c, f, box, flag, m, low]),
                flag,
            )
        pts = int(self.points[c, box, roll])
        nflag = int(pts > 0) if (self.flagged and box == self.five) else flag
        return pts, int(self.up[c, box, roll]), nflag


def _build(rs: RuleSet) -> Model:
    lat = lattice(rs.dice, rs.faces)
    boxes = rs.scored_ids
    rolls = [lat.dice(i) for i in range(lat.rolls.start, lat.rolls.stop)]
    bonus_rule = rs.upper_bonus
    bonus_ids = set(bonus_rule.boxes) if bonus_rule else set()
    bonus_mask = sum(1 << b for b, box in enumerate(boxes) if box in bonus_ids)
    threshold = bonus_rule.threshold if bonus_rule else 0
    if threshold == 0:
        bonus_mask = 0
    tables: list[np.ndarray] = []
    context: list[int] = []
    for j in range(rs.rolls):
        ctx = ScoreContext(roll=j + 1)
        table = np.array([[rs.score(box, dice, ctx) for dice in rolls] for box in boxes])
        for c, seen in enumerate(tables):
            if np.array_equal(seen, table):
                context.append(c)
                break
        else:
            context.append(len(tables))
            tables.append(table)
    points = np.array(tables, dtype=np.int64)
    up = points * np.array([(bonus_mask >> b) & 1 for b in range(len(boxes))])[None, :, None]
    five = boxes.index(rs.five_of_a_kind) if rs.five_of_a_kind in boxes else -1
    flagged = five >= 0 and rs.extra.mode != "none"
    uppers = [b for b, box in enumerate(boxes) if rs.box(box).section == "upper"]
    lower_mask = sum(1 << b for b, box in enumerate(boxes) if rs.box(box).section == "lower")
    match_bit = np.zeros(rs.faces, dtype=np.int64)
    shape = (len(tables), rs.faces, len(boxes), 2, 2, 2)
    legal = np.zeros(shape, dtype=bool)
    total = np.zeros(shape, dtype=np.int64)
    gain = np.zeros(shape, dtype=np.int64)
    if flagged:
        for f in range(rs.faces):
            dice = (f + 1,) * rs.dice
            matching = [b for b in uppers if rs.box(boxes[b]).points(dice) > 0]
            if len(matching) > 1:
                raise Unsolvable(
                    f"{rs.reference} has {len(matching)} upper boxes for five {f + 1}s; "
                    "the joker rules need at most one",
                    code=Refusal.JOKER_UPPER,
                )
            match_bit[f] = 1 << matching[0] if matching else 0
        _read_jokers(rs, boxes, five, match_bit, lower_mask, context, legal, total, gain)
        gain *= np.array([(bonus_mask >> b) & 1 for b in range(len(boxes))])[
            None, None, :, None, None, None
        ]
    subset, umap = _upper_map(len(boxes), bonus_mask, threshold, points, gain, legal)
    distinct = tuple(tuple(_distinct(row) for row in table) for table in points)
    return Model(
        rs,
        lat,
        boxes,
        bonus_mask,
        threshold,
        bonus_rule.points if bonus_rule else 0,
        five,
        flagged,
        tuple(context),
        points,
        up,
        legal,
        total,
        gain,
        match_bit,
        lower_mask,
        subset,
        umap,
        distinct,
    )


def _distinct(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
    """A box's points as (distinct values, value of each roll, the commonest, other rolls)."""
    vals, where = np.unique(points, return_inverse=True)
    where = where.ravel()
    common = int(np.bincount(where).argmax())
    return vals, where, common, np.flatnonzero(where != common)


def _read_jokers(
    rs: RuleSet,
    boxes: tuple[str, ...],
    five: int,
    match_bit: np.ndarray,
    lower_mask: int,
    context: list[int],
    legal: np.ndarray,
    total: np.ndarray,
    gain: np.ndarray,
) -> None:
    """Fill the joker tables by asking sheets in each representative situation."""
    plain = tuple([1] * (rs.dice - 1) + [2])
    lowers = [b for b in range(len(boxes)) if lower_mask >> b & 1 and b != five]
    first_roll = {c: j for j, c in reversed(list(enumerate(context)))}
    for f, b, h, m, low in itertools.product(
        range(rs.faces), range(len(boxes)), (0, 1), (0, 1), (0, 1)
    ):
        if b == five:
            continue
        match = int(match_bit[f]).bit_length() - 1  # -1: no upper box for this face
        is_lower = bool(lower_mask >> b & 1)
        if (b == match and not m) or (is_lower and not low) or (m and match < 0):
            continue
        open_ = {b}
        if m:
            open_.add(match)
        if low and not is_lower:
            extra = [x for x in lowers if x != match]
            if not extra:
                continue
            open_.add(extra[0])
        sheet = Sheet(rs)
        sheet.record(boxes[five], (1,) * rs.dice if h else plain)
        for x in range(len(boxes)):
            if x != five and x not in open_:
                sheet.record(boxes[x], plain)
        for c, j in first_roll.items():
            ctx = ScoreContext(roll=j + 1)
            for entry in sheet.options((f + 1,) * rs.dice, ctx):
                if entry.box == boxes[b]:
                    legal[c, f, b, h, m, low] = True
                    total[c, f, b, h, m, low] = entry.value
                    gain[c, f, b, h, m, low] = entry.points


def _upper_map(
    nboxes: int,
    bonus_mask: int,
    threshold: int,
    points: np.ndarray,
    joker_up: np.ndarray,
    joker_legal: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Which upper totals can occur for each set of bonus boxes filled, and which are alike.

    Totals that cannot reach the threshold any more all stand for one another (the future
    does not depend on them); totals that cannot occur map to themselves and are never read.
    """
    bonus_boxes = [b for b in range(nboxes) if bonus_mask >> b & 1]
    masks = np.arange(1 << nboxes)
    subset = np.zeros(len(masks), dtype=np.intp)
    for i, b in enumerate(bonus_boxes):
        subset |= ((masks >> b) & 1) << i
    top = threshold
    umap = np.tile(np.arange(top + 1), (1 << len(bonus_boxes), 1))
    if not bonus_boxes:
        return subset, umap
    gains = []
    for b in bonus_boxes:
        seen = set(np.unique(points[:, b]).tolist())
        seen |= set(np.unique(joker_up[:, :, b][joker_legal[:, :, b]]).tolist())
        gains.append(sorted(seen))
    for s in range(1 << len(bonus_boxes)):
        reach = {0}
        for i, values in enumerate(gains):
            if s >> i & 1:
                reach = {min(top, r + v) for r in reach for v in values}
        room = sum(max(values) for i, values in enumerate(gains) if not s >> i & 1)
        hopeless = sorted(r for r in reach if r + room < top)
        for r in reach:
            umap[s, r] = hopeless[0] if r in hopeless else r
    return subset, umap


@dataclass(frozen=True)
class JokerEntry:
    """Five equal dice entered as a joker in ``box``, for each face and state: the ``points``
    (with extras), the next state's ``mask`` and ``upper`` total, and where it is ``legal``."""

    box: int
    mask: np.ndarray
    upper: np.ndarray
    points: np.ndarray
    legal: np.ndarray


@dataclass(frozen=True)
class JokerStates:
    """States whose five-of-a-kind box is filled (:meth:`Model.joker_states`): their
    columns among the states asked about, their masks, upper totals and flags, whether the
    lower section has an open box, and whether each face's upper box is open."""

    cols: np.ndarray
    cm: np.ndarray
    cu: np.ndarray
    cy: np.ndarray
    lower: np.ndarray
    match: np.ndarray
    faces: np.ndarray

    def entries(self, model: Model, c: int, order: Iterable[int]) -> Iterator[JokerEntry]:
        """The boxes, in ``order``, where five equal dice may go as a joker in some state
        (after roll context ``c``)."""
        for b in order:
            bit = 1 << b
            open_ = (self.cm & bit) == 0
            if not open_.any():
                continue
            key = (c, self.faces, b, self.cy[None, :], self.match, self.lower)
            legal = model.joker_legal[key] & open_[None, :]
            if not legal.any():
                continue
            upper = np.minimum(model.threshold, self.cu[None, :] + model.joker_up[key])
            yield JokerEntry(b, (self.cm | bit)[None, :], upper, model.joker_total[key], legal)
