"""How well a player played: what each decision cost against optimal play.

A game is replayed from its events (undone actions dropped). After each of the player's
rolls the decision is what came next: the dice held when the next roll was thrown, or the
box scored. Its loss is the expected final score of the best option minus that of the
option taken, both from :func:`~dicetray.rules.advisor.advice.advise`.

>>> import random, tempfile
>>> from dicetray.rules import Game, load_ruleset
>>> from dicetray.rules.advisor.cache import load_table
>>> table = load_table(load_ruleset("general"), tempfile.mkdtemp())
>>> game = Game(load_ruleset("general"))
>>> rng = random.Random(1)
>>> while not game.finished:
...     _ = game.roll_random(rng)
...     _ = game.score(game.sheet.open_boxes()[0])
>>> report = analyse(table, game)
>>> len(report.decisions), report.total_loss >= 0, len(report.costliest)
(10, True, 3)
>>> report.final == game.totals()[0]
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dicetray.rules.advisor.advice import (
    Advice,
    Option,
    OptionKind,
    Situation,
    advise,
    check_table,
    expected_final,
)
from dicetray.rules.advisor.errors import AdvisorError
from dicetray.rules.advisor.table import StrategyTable
from dicetray.rules.events import Event, Kept, Rolled, Scored, Started, Undone
from dicetray.rules.game import Game

__all__ = ["Analysis", "Decision", "analyse"]


@dataclass(frozen=True)
class Decision:
    """One choice the player made: after roll ``roll`` of turn ``turn`` (both from 1)."""

    turn: int
    roll: int
    dice: tuple[int, ...]
    chosen: Option
    best: Option

    @property
    def loss(self) -> float:
        """Expected final points given away (0 for an optimal choice)."""
        return max(0.0, self.best.expected - self.chosen.expected)


@dataclass(frozen=True)
class Analysis:
    """A player's game against optimal play.

    ``expected_by_turn[t]``: the expected final score at the start of turn t+1 (played
    optimally from there); the last entry is the final score once the sheet is full.
    """

    player: int
    decisions: tuple[Decision, ...]
    expected_by_turn: tuple[float, ...]
    final: int | None

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def costliest(self) -> tuple[Decision, ...]:
        """The three decisions that cost most (fewer if the game had fewer)."""
        return tuple(sorted(self.decisions, key=lambda d: -d.loss)[:3])


def _effective(events: Iterable[Event]) -> list[Event]:
    """The events that stand: each Undone takes back the latest action still standing."""
    kept: list[Event] = []
    for event in events:
        if isinstance(event, Undone):
            if len(kept) > 1:
                kept.pop()
        else:
            kept.append(event)
    return kept


def analyse(table: StrategyTable, game: Game | Iterable[Event], player: int = 0) -> Analysis:
    """Replay ``game`` (a :class:`Game` or its events) and judge every choice of ``player``."""
    events = game.events if isinstance(game, Game) else tuple(game)
    standing = _effective(events)
    if not standing or not isinstance(standing[0], Started):
        raise AdvisorError("a game's events begin with its start")
    replay = Game.from_events(standing[:1], table.model.ruleset)
    if not 0 <= player < len(replay.players):
        raise AdvisorError(f"no player {player}: the game has {len(replay.players)}")
    check_table(table, replay.ruleset)
    decisions: list[Decision] = []
    expected: list[float] = []
    pending: tuple[Advice, int, int] | None = None
    turn = 0
    for event in standing[1:]:
        ours = replay.current == player and not replay.finished
        if ours and isinstance(event, Rolled):
            if not replay.turn.rolled:
                turn += 1
                expected.append(expected_final(table, Situation.from_sheet(replay.sheet)))
            elif pending is not None:
                kept = tuple(replay.turn.dice[p] for p in replay.turn.held)
                decisions.append(_decision(pending, OptionKind.KEEP, kept, None))
            replay.apply(event)
            pending = (_advice(table, replay), turn, replay.turn.rolls_used)
            continue
        if ours and isinstance(event, Scored) and pending is not None:
            decisions.append(_decision(pending, OptionKind.SCORE, (), event.box))
            pending = None
        elif not isinstance(event, Kept | Scored) and ours:
            pending = None
        replay.apply(event)
    sheet = replay.sheets[player]
    final = sheet.total if sheet.full else None
    if final is not None:
        expected.append(float(final))
    return Analysis(player, tuple(decisions), tuple(expected), final)


def _advice(table: StrategyTable, game: Game) -> Advice:
    turn = game.turn
    locked = tuple(turn.dice[p] for p in turn.locked) if game.ruleset.hold == "locked" else ()
    return advise(table, Situation.from_sheet(game.sheet), turn.dice, turn.rolls_left, locked)


def _decision(
    pending: tuple[Advice, int, int], kind: OptionKind, kept: tuple[int, ...], box: str | None
) -> Decision:
    advice, turn, roll = pending
    chosen = advice.option(kind, kept, box)
    return Decision(turn, roll, advice.dice, chosen, advice.best)
