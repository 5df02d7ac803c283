"""A player's score sheet: open boxes per column, the legal entries for a roll, totals, undo.

:meth:`Sheet.options` lists every legal entry for a roll and :meth:`Sheet.record` writes
one; both come from the same candidate table, so ``record`` accepts exactly what
``options`` offers and names the rule that refuses anything else. :meth:`Sheet.pop`
takes the last entry back (python-chess style push/pop).

>>> from dicetray.rules import load_ruleset
>>> sheet = Sheet(load_ruleset("yahtzee"))
>>> sheet.record("full-house", (3, 3, 3, 5, 5))
Entry(column='main', box='full-house', points=25, extra=0, dice=(3, 3, 3, 5, 5))
>>> sheet.totals().total
25
>>> sheet.record("full-house", (2, 2, 2, 5, 5))
Traceback (most recent call last):
...
dicetray.rules.errors.BoxFilled: full-house already holds 25
>>> sheet.pop().box
'full-house'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from dicetray.rules.errors import (
    BoxFilled,
    ColumnError,
    DeclarationError,
    ExtraRuleError,
    OrderViolation,
    RulesError,
    ScratchError,
    UndoError,
    UnknownBox,
)
from dicetray.rules.ruleset import BoxSpec, RuleSet, ScoreContext
from dicetray.rules.turn import Declaration

__all__ = [
    "ColumnError",
    "ColumnTotals",
    "Entry",
    "ExtraRuleError",
    "ScratchError",
    "Sheet",
    "UndoError",
]


@dataclass(frozen=True)
class Entry:
    """What is written on the sheet for one turn.

    ``points`` count for their section (and the upper bonus); ``extra`` is a
    five-of-a-kind bonus earned with this entry beside the box's own points (the Yahtzee
    bonus; Kniffel's 100 in an upper box), which never counts towards the upper bonus.
    ``box`` is None for a further Kniffel noted beside the sheet (``extra-turn``).

    >>> Entry("main", "threes", 15, extra=100).value
    115
    """

    column: str
    box: str | None
    points: int
    extra: int = 0
    dice: tuple[int, ...] = ()

    @property
    def value(self) -> int:
        """What the box shows: points plus any extra bonus."""
        return self.points + self.extra

    def to_dict(self) -> dict[str, object]:
        """JSON-able form."""
        return {
            "column": self.column,
            "box": self.box,
            "points": self.points,
            "extra": self.extra,
            "dice": list(self.dice),
        }


@dataclass(frozen=True)
class ColumnTotals:
    """The sums of one column (or of the whole sheet): ``total`` is what counts."""

    upper: int
    upper_bonus: int
    lower: int
    extras: int
    computed: int

    @property
    def total(self) -> int:
        return self.upper + self.upper_bonus + self.lower + self.extras + self.computed

    def __add__(self, other: ColumnTotals) -> ColumnTotals:
        return ColumnTotals(
            self.upper + other.upper,
            self.upper_bonus + other.upper_bonus,
            self.lower + other.lower,
            self.extras + other.extras,
            self.computed + other.computed,
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "upper": self.upper,
            "upper_bonus": self.upper_bonus,
            "lower": self.lower,
            "extras": self.extras,
            "computed": self.computed,
            "total": self.total,
        }


Key = tuple[str, str | None]
Candidate = Entry | RulesError


class Sheet:
    """The boxes of one player under one rule set, with every column the rule set plays."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self._specs = {spec.id: spec for spec in ruleset.boxes}
        self._scorable = tuple(b.id for b in ruleset.boxes if b.section != "computed")
        self._orders = {
            c.id: "down" if ruleset.strict is not None else c.order for c in ruleset.columns
        }
        self._filled: dict[tuple[str, str], Entry] = {}
        self._stack: list[Entry] = []

    # -- reading the sheet --------------------------------------------------------------

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self._orders)

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry in the order recorded."""
        return tuple(self._stack)

    @property
    def scorable(self) -> tuple[str, ...]:
        """Box ids a roll can be entered in (computed lines excluded), in sheet order."""
        return self._scorable

    def entry(self, box: str, column: str | None = None) -> Entry | None:
        """The entry in ``box`` of ``column``, or None while it is open."""
        return self._filled.get((self._column(column), box))

    def open_boxes(self, column: str | None = None) -> tuple[str, ...]:
        """Open boxes of one column, in sheet order.

        >>> from dicetray.rules import load_ruleset
        >>> sheet = Sheet(load_ruleset("kniffel+columns-3"))
        >>> _ = sheet.record("ones", (1, 1, 2, 3, 4), column="down")
        >>> sheet.open_boxes("down")[:2], len(sheet.open_boxes("up"))
        (('twos', 'threes'), 13)
        """
        col = self._column(column)
        return tuple(b for b in self._scorable if (col, b) not in self._filled)

    @property
    def full(self) -> bool:
        """True once every box of every column holds a score."""
        return len(self._filled) == len(self._scorable) * len(self._orders)

    @property
    def boxes_left(self) -> int:
        return sum(len(self.open_boxes(c)) for c in self.columns)

    def totals(self, column: str | None = None) -> ColumnTotals:
        """Sums of one column, or of the whole sheet when a many-column sheet gets no column.

        >>> from dicetray.rules import load_ruleset
        >>> sheet = Sheet(load_ruleset("yahtzee"))
        >>> for face, box in enumerate(sheet.ruleset.upper_ids, 1):
        ...     other = 6 if face == 1 else 1
        ...     _ = sheet.record(box, (face, face, face, other, other))
        >>> sheet.totals().upper, sheet.totals().upper_bonus
        (63, 35)
        """
        if column is None and len(self.columns) > 1:
            parts = [self._column_totals(c) for c in self.columns]
            return sum(parts[1:], parts[0])
        return self._column_totals(self._column(column))

    @property
    def total(self) -> int:
        """The grand total of every column."""
        return sum(self._column_totals(c).total for c in self.columns)

    def computed(self, box: str, column: str | None = None) -> int | None:
        """The value of a computed line (None while the boxes it needs are open)."""
        spec = self.ruleset.box(box)
        if spec.section != "computed":
            raise UnknownBox(f"{box} is not a computed line")
        return spec.compute(self._points_of(self._column(column)))

    # -- the legal entries ---------------------------------------------------------------

    def options(
        self,
        dice: Sequence[int],
        ctx: ScoreContext | None = None,
        declared: Declaration | None = None,
    ) -> tuple[Entry, ...]:
        """Every legal entry for ``dice``: one per (column, box), in column then sheet order.

        >>> from dicetray.rules import load_ruleset
        >>> sheet = Sheet(load_ruleset("yahtzee"))
        >>> [(e.box, e.points) for e in sheet.options((6, 6, 6, 6, 6))][:3]
        [('ones', 0), ('twos', 0), ('threes', 0)]
        """
        table = self._candidates(dice, ctx or ScoreContext(), declared)
        return tuple(c for c in table.values() if isinstance(c, Entry))

    def record(
        self,
        box: str | None,
        dice: Sequence[int],
        ctx: ScoreContext | None = None,
        column: str | None = None,
        declared: Declaration | None = None,
    ) -> Entry:
        """Write ``dice`` into ``box``; refuses anything :meth:`options` would not offer.

        ``box=None`` notes a further Kniffel beside the sheet (``extra-turn``).

        >>> from dicetray.rules import load_ruleset
        >>> sheet = Sheet(load_ruleset("kniffel"))
        >>> sheet.record("kniffel", (5, 5, 5, 5, 5)).value
        50
        >>> sheet.record("twos", (2, 2, 2, 2, 2))  # 100 + the dice, not towards the 63
        Entry(column='main', box='twos', points=10, extra=100, dice=(2, 2, 2, 2, 2))
        """
        col = self._column(column)
        if box is not None:
            spec = self.ruleset.box(box)  # UnknownBox for ids not on the sheet
            if spec.section == "computed":
                raise UnknownBox(f"{box} is a computed line: no roll is entered there")
        table = self._candidates(dice, ctx or ScoreContext(), declared)
        found = table.get((col, box))
        if found is None:
            raise UnknownBox(
                "name a box: only a further five-of-a-kind under the extra-turn rule "
                "is noted beside the sheet"
            )
        if isinstance(found, RulesError):
            raise found
        if box is not None:
            self._filled[(col, box)] = found
        self._stack.append(found)
        return found

    def check_declaration(self, declared: Declaration) -> Declaration:
        """Check a declaration against this sheet; returns it with its column filled in.

        >>> from dicetray.rules import load_ruleset
        >>> Sheet(load_ruleset("mickey")).check_declaration(Declaration("mickey"))
        Declaration(box='mickey', column='main')
        >>> Sheet(load_ruleset("mickey+strict")).check_declaration(Declaration("mickey"))
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.OrderViolation: boxes are filled top to bottom: next is ones
        """
        col = self._column(declared.column)
        spec = self.ruleset.box(declared.box)
        if spec.section == "computed":
            raise UnknownBox(f"{declared.box} is a computed line and cannot be declared")
        order = self._order(col)
        if order != "announce" and self.ruleset.declaration != "mickey":
            raise DeclarationError(f"nothing is declared in column {col!r} of {self.ruleset.id}")
        if (col, declared.box) in self._filled:
            raise BoxFilled(
                f"{declared.box} already holds {self._filled[(col, declared.box)].value}"
            )
        open_ = self.open_boxes(col)
        if order in ("down", "up") and declared.box not in self._allowed(col, open_, None):
            raise self._order_error(col, declared.box, open_)  # it could never be entered
        return Declaration(declared.box, col)

    def pop(self) -> Entry:
        """Take back the last entry.

        >>> from dicetray.rules import load_ruleset
        >>> Sheet(load_ruleset("yahtzee")).pop()
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.UndoError: the sheet is empty: nothing to undo
        """
        if not self._stack:
            raise UndoError("the sheet is empty: nothing to undo")
        entry = self._stack.pop()
        if entry.box is not None:
            del self._filled[(entry.column, entry.box)]
        return entry

    def copy(self) -> Sheet:
        """An independent sheet with the same entries (for trying entries out).

        >>> from dicetray.rules import load_ruleset
        >>> sheet = Sheet(load_ruleset("yahtzee"))
        >>> trial = sheet.copy()
        >>> _ = trial.record("chance", (6, 6, 6, 6, 5))
        >>> sheet.total, trial.total
        (0, 29)
        """
        other = Sheet(self.ruleset)
        other._filled = dict(self._filled)
        other._stack = list(self._stack)
        return other

    def to_dict(self) -> dict[str, object]:
        """JSON-able state: per column the box values, computed lines and totals."""
        columns: dict[str, object] = {}
        for col in self.columns:
            boxes: dict[str, int | None] = {}
            for spec in self.ruleset.boxes:
                if spec.section == "computed":
                    boxes[spec.id] = spec.compute(self._points_of(col))
                else:
                    found = self._filled.get((col, spec.id))
                    boxes[spec.id] = None if found is None else found.value
            columns[col] = {"boxes": boxes, "totals": self._column_totals(col).to_dict()}
        return {
            "ruleset": self.ruleset.id,
            "columns": columns,
            "entries": [e.to_dict() for e in self._stack],
            "total": self.total,
        }

    def __repr__(self) -> str:
        return f"<Sheet {self.ruleset.id} {len(self._stack)} entries, total {self.total}>"

    # -- internals -----------------------------------------------------------------------

    def _column(self, column: str | None) -> str:
        columns = self.columns
        if column is None:
            if len(columns) == 1:
                return columns[0]
            raise ColumnError(f"this sheet has columns {', '.join(columns)}: say which one")
        if column not in columns:
            raise ColumnError(f"no column {column!r}; this sheet has {', '.join(columns)}")
        return column

    def _order(self, column: str) -> str:
        return self._orders[column]

    def _points_of(self, column: str) -> dict[str, int]:
        return {box: e.points for (col, box), e in self._filled.items() if col == column}

    def _column_totals(self, column: str) -> ColumnTotals:
        upper = lower = extras = 0
        for entry in self._stack:
            if entry.column != column:
                continue
            extras += entry.extra
            if entry.box is None:
                continue
            if self._specs[entry.box].section == "upper":
                upper += entry.points
            else:
                lower += entry.points
        bonus = 0
        rule = self.ruleset.upper_bonus
        points = self._points_of(column)
        if rule is not None and sum(points.get(b, 0) for b in rule.boxes) >= rule.threshold:
            bonus = rule.points
        computed = 0
        for spec in self.ruleset.boxes:
            if spec.section == "computed":
                computed += spec.compute(points) or 0
        return ColumnTotals(upper, bonus, lower, extras, computed)

    def _candidates(
        self, dice: Sequence[int], ctx: ScoreContext, declared: Declaration | None
    ) -> dict[Key, Candidate]:
        """Every (column, box) with the entry it would get, or the error refusing it."""
        dice = self.ruleset.validate_dice(dice)
        table: dict[Key, Candidate] = {}
        for col in self.columns:
            table.update(self._column_candidates(col, dice, ctx, declared))
        if declared is not None:
            declared = self.check_declaration(declared)
            if self._order(declared.column or "") == "announce":
                table = self._announced(table, declared, dice)
            else:
                for key, found in table.items():
                    if key != (declared.column, declared.box) and isinstance(found, Entry):
                        table[key] = DeclarationError(
                            f"this turn declared {declared.box}: the roll goes there"
                        )
        if self.ruleset.scratch == "swiss":
            self._swiss(table)
        if not any(isinstance(found, Entry) for found in table.values()):
            self._unannounced_scratch(table, dice)
        return table

    def _unannounced_scratch(self, table: dict[Key, Candidate], dice: tuple[int, ...]) -> None:
        """Only announce-column boxes left and nothing announced: the roll is a scratch there."""
        for key, found in table.items():
            col, box = key
            if (
                box is not None
                and isinstance(found, DeclarationError)
                and self._order(col) == "announce"
                and (col, box) not in self._filled
            ):
                table[key] = Entry(col, box, 0, 0, dice)

    def _column_candidates(
        self,
        col: str,
        dice: tuple[int, ...],
        ctx: ScoreContext,
        declared: Declaration | None,
    ) -> dict[Key, Candidate]:
        table: dict[Key, Candidate] = {}
        open_ = self.open_boxes(col)
        filled = frozenset(b for b in self.scorable if (col, b) in self._filled)
        ctx = replace(ctx, filled=filled)
        allowed = self._allowed(col, open_, declared)
        for box in self.scorable:
            if (col, box) in self._filled:
                table[(col, box)] = BoxFilled(
                    f"{box} already holds {self._filled[(col, box)].value}"
                )
            elif box in allowed:
                table[(col, box)] = self._entry(col, box, dice, ctx)
            else:
                table[(col, box)] = self._order_error(col, box, open_)
        self._apply_extra_rule(col, dice, table, allowed)
        return table

    def _allowed(
        self, col: str, open_: tuple[str, ...], declared: Declaration | None
    ) -> tuple[str, ...]:
        order = self._order(col)
        if order == "down":
            return open_[:1]
        if order == "up":
            return open_[-1:]
        if order == "announce":
            if declared is not None and declared.column == col and declared.box in open_:
                return (declared.box,)
            return ()
        return open_

    def _order_error(self, col: str, box: str, open_: tuple[str, ...]) -> RulesError:
        order = self._order(col)
        where = "" if len(self.columns) == 1 else f" in column {col}"
        if order == "down":
            return OrderViolation(f"boxes are filled top to bottom{where}: next is {open_[0]}")
        if order == "up":
            return OrderViolation(f"boxes are filled bottom to top{where}: next is {open_[-1]}")
        return DeclarationError(f"column {col} takes only the box announced after the first roll")

    def _entry(self, col: str, box: str, dice: tuple[int, ...], ctx: ScoreContext) -> Entry:
        """The entry for an allowed box, with jokers, extra bonuses, strict and sharp rules."""
        spec = self._specs[box]
        points = spec.points(dice, ctx)
        sharp = self.ruleset.sharp_factor(box, ctx)
        rule = self._extra_state(col, dice)
        if rule is None:
            if self._strict_chance(col, dice, spec):
                strict = self.ruleset.strict.chance_five_of_a_kind  # type: ignore[union-attr]
                return Entry(col, box, strict or 0, 0, dice)
            if self._strict_full_house(dice, spec):
                points = spec.joker_points(dice)
            return Entry(col, box, points * sharp, 0, dice)
        held, bonus = rule
        upper = spec.section == "upper"
        mode = self.ruleset.extra.mode
        if mode in ("kniffel", "book") and held and not upper:
            return Entry(col, box, bonus * sharp, 0, dice)  # the box itself takes the bonus
        extra = bonus if mode != "book" else 0
        if mode == "lower-joker" and upper:
            points = 0
        elif self._joker(mode, held, spec, col, dice):
            points = spec.joker_points(dice)
        return Entry(col, box, points * sharp, extra, dice)

    def _joker(self, mode: str, held: bool, spec: BoxSpec, col: str, dice: tuple[int, ...]) -> bool:
        """Whether a further five-of-a-kind scores ``spec`` as a joker (as if it fitted)."""
        if spec.section == "upper":
            return False
        if mode in ("forced-joker", "lower-joker"):
            return True
        if mode == "free-joker":
            return self._matching_filled(col, dice)
        return mode == "kniffel" and not held and spec.kind == "full-house"

    def _extra_state(self, col: str, dice: tuple[int, ...]) -> tuple[bool, int] | None:
        """For a further five-of-a-kind in ``col``: (box holds >0, bonus earned); else None."""
        five = self.ruleset.five_of_a_kind
        if five is None or self.ruleset.strict is not None or len(set(dice)) != 1:
            return None
        if self.ruleset.extra.mode == "none":
            return None
        found = self._filled.get((col, five))
        if found is None:
            return None
        held = found.points > 0
        return held, self.ruleset.extra.bonus if held else 0

    def _strict_chance(self, col: str, dice: tuple[int, ...], spec: BoxSpec) -> bool:
        strict = self.ruleset.strict
        five = self.ruleset.five_of_a_kind
        if strict is None or five is None or strict.chance_five_of_a_kind is None:
            return False
        if spec.kind != "chance" or len(set(dice)) != 1:
            return False
        found = self._filled.get((col, five))
        return found is not None and found.points > 0

    def _strict_full_house(self, dice: tuple[int, ...], spec: BoxSpec) -> bool:
        """Strict: a five-of-a-kind entered in Full House counts as a full house (seed 001)."""
        strict = self.ruleset.strict
        if strict is None or not strict.full_house or spec.kind != "full-house":
            return False
        return len(set(dice)) == 1

    def _matching(self, dice: tuple[int, ...]) -> tuple[str, ...]:
        """Upper boxes these dice score in (for five equal dice: the matching one)."""
        return tuple(
            b.id for b in self.ruleset.boxes if b.section == "upper" and b.points(dice) > 0
        )

    def _matching_filled(self, col: str, dice: tuple[int, ...]) -> bool:
        return all((col, box) in self._filled for box in self._matching(dice))

    def _apply_extra_rule(
        self,
        col: str,
        dice: tuple[int, ...],
        table: dict[Key, Candidate],
        allowed: tuple[str, ...],
    ) -> None:
        """Where a further five-of-a-kind must go: matching upper box, lower section, beside."""
        rule = self._extra_state(col, dice)
        if rule is None:
            return
        held, bonus = rule
        mode = self.ruleset.extra.mode
        upper = [b for b in allowed if self._specs[b].section == "upper"]
        lower = [b for b in allowed if self._specs[b].section == "lower"]
        if mode == "extra-turn" and held:
            for box in allowed:
                table[(col, box)] = ExtraRuleError(
                    "a further five-of-a-kind is noted beside the sheet and earns an extra turn"
                )
            table[(col, None)] = Entry(col, None, 0, bonus, dice)
            return
        if mode == "forced-joker":
            matching = [b for b in upper if b in self._matching(dice)]
            if matching:
                why = f"a further five-of-a-kind must go in {matching[0]} while it is open"
                for box in allowed:
                    if box != matching[0]:
                        table[(col, box)] = ExtraRuleError(why)
                return
        if mode in ("forced-joker", "lower-joker") and lower:
            for box in upper:
                table[(col, box)] = ExtraRuleError(
                    "a further five-of-a-kind goes in the lower section while a box is open there"
                )

    def _announced(
        self, table: dict[Key, Candidate], declared: Declaration, dice: tuple[int, ...]
    ) -> dict[Key, Candidate]:
        """After an announcement: the announced box, or scratch any open box of any column."""
        result: dict[Key, Candidate] = {}
        for key, found in table.items():
            col, box = key
            if key == (declared.column, declared.box) or box is None or (col, box) in self._filled:
                result[key] = found
            else:
                result[key] = Entry(col, box, 0, 0, dice)
        return result

    def _swiss(self, table: dict[Key, Candidate]) -> None:
        scoring_upper = [
            e
            for e in table.values()
            if isinstance(e, Entry)
            and e.box is not None
            and self._specs[e.box].section == "upper"
            and e.points > 0
        ]
        if not scoring_upper:
            return
        where = scoring_upper[0].box
        for key, found in table.items():
            if (
                isinstance(found, Entry)
                and found.box is not None
                and self._specs[found.box].section == "lower"
                and found.value == 0
            ):
                table[key] = ScratchError(
                    f"a lower box may be scratched only if no die scores above: try {where}"
                )
