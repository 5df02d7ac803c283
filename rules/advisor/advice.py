"""The best keep or box for a situation, with the expected final score of every option.

>>> import tempfile
>>> from dicetray.rules import Game, load_ruleset
>>> from dicetray.rules.advisor.cache import load_table
>>> table = load_table(load_ruleset("general"), tempfile.mkdtemp())
>>> game = Game(load_ruleset("general"))
>>> _ = game.roll((6, 6, 6, 6, 6))
>>> advice = advise_game(table, game)
>>> advice.best.kind, advice.best.box
(<OptionKind.SCORE: 'score'>, 'general')
>>> figures = [o.expected for o in advice.options]
>>> figures == sorted(figures, reverse=True)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from dicetray.rules.advisor.errors import AdvisorError
from dicetray.rules.advisor.table import StrategyTable, plan_turn
from dicetray.rules.advisor.turn import TurnPlan
from dicetray.rules.errors import GameOver, InvalidDice, NotRolled, UnknownBox
from dicetray.rules.game import Game
from dicetray.rules.ruleset import RuleSet
from dicetray.rules.sheet import Sheet

__all__ = [
    "TIE",
    "Advice",
    "Option",
    "OptionKind",
    "Situation",
    "advise",
    "advise_game",
    "check_table",
    "expected_final",
    "plan_for",
]


#: Options whose expected final scores differ by less than this are equally good. Two
#: mathematically equal options (keep 1 1 or keep 6 for a last three-of-a-kind: both 170/36)
#: come out of different floating-point sums a few ulps apart (about 1e-15), and that noise
#: must not choose between them; real differences between options are many orders larger.
TIE = 1e-9


class OptionKind(StrEnum):
    KEEP = "keep"
    SCORE = "score"


@dataclass(frozen=True)
class Option:
    """One choice: keep ``dice`` and roll the rest, or score ``box`` for ``points``.

    ``expected`` is the expected final score of the game after this choice, played on
    optimally.
    """

    kind: OptionKind
    expected: float
    dice: tuple[int, ...] = ()
    box: str | None = None
    points: int | None = None

    def describe(self) -> str:
        """The option in words: ``keep 6 6 6`` or ``score full-house (25)``.

        >>> Option(OptionKind.KEEP, 250.0, dice=()).describe()
        'keep nothing'
        """
        if self.kind is OptionKind.KEEP:
            return "keep " + (" ".join(map(str, self.dice)) if self.dice else "nothing")
        return f"score {self.box} ({self.points})"


@dataclass(frozen=True)
class Situation:
    """A player's sheet as the advisor needs it: boxes filled, the upper total towards the
    bonus, whether the five-of-a-kind box holds points, and the points so far (the upper
    bonus not counted: the table's values still include it)."""

    filled: frozenset[str]
    upper: int
    flag: bool
    total: int

    @classmethod
    def from_sheet(cls, sheet: Sheet) -> Situation:
        rs = sheet.ruleset
        filled = frozenset(b for b in sheet.scorable if sheet.entry(b) is not None)
        bonus = rs.upper_bonus.boxes if rs.upper_bonus else ()
        upper = sum(sheet.entry(b).points for b in bonus if sheet.entry(b) is not None)
        five = sheet.entry(rs.five_of_a_kind) if rs.five_of_a_kind else None
        totals = sheet.totals()
        return cls(
            filled, upper, five is not None and five.points > 0, totals.total - totals.upper_bonus
        )

    @classmethod
    def from_scores(cls, ruleset: RuleSet, scores: Mapping[str, int]) -> Situation:
        """From the boxes filled and what each holds (extra bonuses may be added in).

        >>> from dicetray.rules import load_ruleset
        >>> found = Situation.from_scores(load_ruleset("yahtzee"), {"Sixes": 24, "yahtzee": 50})
        >>> sorted(found.filled), found.upper, found.flag, found.total
        (['sixes', 'yahtzee'], 24, True, 74)
        """
        found: dict[str, int] = {}
        for name, value in scores.items():
            box = ruleset.find_box(name)
            if box.section == "computed":
                raise UnknownBox(f"{box.id} is a computed line: no roll is entered there")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise AdvisorError(f"{box.id} must hold a whole number of points, not {value!r}")
            found[box.id] = value
        bonus = ruleset.upper_bonus.boxes if ruleset.upper_bonus else ()
        upper = sum(v for b, v in found.items() if b in bonus)
        five = ruleset.five_of_a_kind
        return cls(frozenset(found), upper, bool(found.get(five or "", 0)), sum(found.values()))


@dataclass(frozen=True)
class Advice:
    """Every option for a situation, best first; ``expected`` is the best one's."""

    options: tuple[Option, ...]
    rolls_left: int
    dice: tuple[int, ...]

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def expected(self) -> float:
        return self.options[0].expected

    def option(self, kind: OptionKind, dice: Iterable[int] = (), box: str | None = None) -> Option:
        """The option matching a choice made (keeps by value, any order)."""
        wanted = tuple(sorted(dice))
        for found in self.options:
            if found.kind is kind and (
                found.box == box if kind is OptionKind.SCORE else found.dice == wanted
            ):
                return found
        raise AdvisorError(f"no such option: {kind} {box or wanted}")


def check_table(table: StrategyTable, ruleset: RuleSet) -> None:
    """Refuse a table solved for other rules than ``ruleset``'s (same content, any name)."""
    from dicetray.rules.advisor.cache import content_key

    if content_key(table.model.ruleset) != content_key(ruleset):
        raise AdvisorError(
            f"the table is for {table.model.ruleset.id}, the game plays {ruleset.id}"
        )


def _mask(table: StrategyTable, situation: Situation) -> int:
    boxes = table.model.boxes
    unknown = situation.filled - set(boxes)
    if unknown:
        raise UnknownBox(f"no box {sorted(unknown)[0]!r} in {table.model.ruleset.id}")
    return sum(1 << boxes.index(b) for b in situation.filled)


def plan_for(table: StrategyTable, situation: Situation) -> TurnPlan:
    """The turn from ``situation`` solved once, for several :func:`advise` calls."""
    model = table.model
    flag = int(situation.flag) if model.flagged else 0
    upper = min(situation.upper, model.threshold) if model.threshold else 0
    return plan_turn(table, _mask(table, situation), upper, flag)


def expected_final(table: StrategyTable, situation: Situation) -> float:
    """Expected final score from the start of a turn in ``situation``."""
    mask = _mask(table, situation)
    return situation.total + table.value(mask, situation.upper, int(situation.flag))


def advise(
    table: StrategyTable,
    situation: Situation,
    dice: Sequence[int],
    rolls_left: int,
    locked: Sequence[int] = (),
    plan: TurnPlan | None = None,
) -> Advice:
    """Every option after a roll of ``dice`` with ``rolls_left`` rolls to come, best first.

    ``locked`` are dice set aside at an earlier roll (locked-hold rule sets keep them out).
    ``plan`` is this turn already solved (:func:`~.table.plan_turn`), to reuse within a turn.
    """
    model = table.model
    rs = model.ruleset
    values = tuple(sorted(rs.validate_dice(dice)))
    if not 0 <= rolls_left < rs.rolls:
        raise AdvisorError(f"rolls left must be 0 to {rs.rolls - 1} after a roll, not {rolls_left}")
    mask = _mask(table, situation)
    if mask == model.full:
        raise GameOver("the sheet is full: nothing left to decide")
    held = Counter(locked)
    if held - Counter(values):
        raise InvalidDice(f"the locked dice {sorted(locked)} are not among {list(values)}")
    flag = int(situation.flag) if model.flagged else 0
    upper = min(situation.upper, model.threshold) if model.threshold else 0
    j = rs.rolls - rolls_left - 1
    lat = model.lat
    roll = lat.hand(values) - lat.rolls.start
    # (expected points still to come, option): options are ranked by what is still to come,
    # so the same state gets the same advice whatever the points so far
    ranked: list[tuple[float, Option]] = []
    for b, box in enumerate(model.boxes):
        found = model.entry(mask, flag, b, roll, j)
        if found is None:
            continue
        points, gain, nflag = found
        to_come = points + table.value(mask | 1 << b, upper + gain, nflag)
        ranked.append(
            (to_come, Option(OptionKind.SCORE, situation.total + to_come, box=box, points=points))
        )
    if rolls_left:
        plan = plan or plan_turn(table, mask, upper, flag)
        keeps = plan.keeps[j + 1][:, 0]
        for hand in lat.sub_hands(lat.rolls.start + roll):
            kept = lat.dice(hand)
            if len(kept) == rs.dice or (rs.hold == "none" and kept):
                continue
            if rs.hold == "locked" and held - Counter(kept):
                continue
            to_come = float(keeps[hand])
            ranked.append((to_come, Option(OptionKind.KEEP, situation.total + to_come, dice=kept)))
    return Advice(tuple(o for _, o in _in_order(ranked)), rolls_left, values)


def _in_order(ranked: list[tuple[float, Option]]) -> list[tuple[float, Option]]:
    """Best first. Options within :data:`TIE` of the best are equally good: scoring comes
    first (boxes by id), then keeping, the higher dice first (the rule under which the
    published spread of optimal Yahtzee scores comes out; docs/benchmarks.md, Advisor)."""
    if not ranked:
        return ranked
    top = max(r[0] for r in ranked)
    ranked = sorted(ranked, key=lambda r: r[1].dice, reverse=True)
    return sorted(ranked, key=lambda r: (
        -(top if r[0] >= top - TIE else r[0]), r[1].kind is OptionKind.KEEP, r[1].box or ""))


def advise_game(table: StrategyTable, game: Game) -> Advice:
    """Advice for the current player of ``game`` on the dice now on the table."""
    if game.finished:
        raise GameOver("the game is over: every box is filled")
    if not game.turn.rolled:
        raise NotRolled("no roll yet this turn: roll first")
    check_table(table, game.ruleset)
    turn = game.turn
    locked = tuple(turn.dice[p] for p in turn.locked) if game.ruleset.hold == "locked" else ()
    return advise(table, Situation.from_sheet(game.sheet), turn.dice, turn.rolls_left, locked)
