"""Property tests over every built-in rule set and a few house-rule combinations.

Random players make random legal keeps, declarations and choices (and probe random
illegal ones); whole games must end with every box filled after the right number of
turns, never score below zero, and replay from their events into the same state.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetray.rules import (
    RulesError,
    RuleSetError,
    ScoreContext,
    list_options,
    list_rulesets,
    load_ruleset,
)
from dicetray.rules.events import dumps, loads
from dicetray.rules.game import Game
from dicetray.rules.ruleset import RuleSet
from dicetray.rules.sheet import Sheet
from dicetray.rules.turn import Declaration

COMBINATIONS = [
    "kniffel+columns",
    "yahtzee+columns-3",
    "kniffel+strict",
    "yahtzee+swiss",
    "kniffel+sharp+save-rolls",
    "kniffel+full-cup",
    "kniffel+croatian+pairs",
    "kniffel-extra-turn+columns-3",
    "mickey+columns-3",  # a declaration names its column; down and up columns bind it
    "mickey+strict",
    "kniffel-book+sharp+strict",
]
RULESETS = list_rulesets() + COMBINATIONS
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _announce_columns(ruleset: RuleSet) -> list[str]:
    return [c.id for c in ruleset.columns if c.order == "announce"]


def _declarable(sheet: Sheet, column: str) -> tuple[str, ...]:
    """Boxes of ``column`` its order rule lets a declaration name now."""
    open_boxes = sheet.open_boxes(column)
    order = {c.id: c.order for c in sheet.ruleset.columns}[column]
    return {"down": open_boxes[:1], "up": open_boxes[-1:]}.get(order, open_boxes)


def _mickey_declaration(sheet: Sheet, rng: random.Random) -> Declaration | None:
    """A random legal Mickey declaration (None when no column has an open box)."""
    columns = [c for c in sheet.columns if sheet.open_boxes(c)]
    if not columns:
        return None
    column = rng.choice(columns)
    named = column if len(sheet.columns) > 1 else None
    return Declaration(rng.choice(_declarable(sheet, column)), named)


def _maybe_declare(game: Game, rng: random.Random) -> None:
    """After roll 1: declare a random open box (Mickey) or sometimes announce a box."""
    ruleset, turn = game.ruleset, game.turn
    if turn.rolls_used != 1 or turn.declaration is not None:
        return
    if ruleset.declaration == "mickey" and rng.random() < 0.8:
        declared = _mickey_declaration(game.sheet, rng)
        if declared is not None:
            game.declare(declared.box, declared.column)
        return
    for column in _announce_columns(ruleset):
        open_boxes = game.sheet.open_boxes(column)
        if open_boxes and rng.random() < 0.4:
            game.declare(rng.choice(open_boxes), column)
            return


def _random_keep(game: Game, rng: random.Random) -> list[int] | None:
    """A keep the hold policy allows that leaves a die to throw, or None if there is none."""
    turn, ruleset = game.turn, game.ruleset
    if ruleset.hold == "none":
        return []
    keep = {p for p in range(ruleset.dice) if rng.random() < 0.4}
    if ruleset.hold == "locked":
        keep |= set(turn.locked)
    if len(keep) == ruleset.dice:
        free = [p for p in keep if p not in turn.locked]
        if not free:
            return None
        keep.discard(rng.choice(free))
    return sorted(keep)


def _probe_and_score(game: Game, rng: random.Random) -> None:
    """Try a random (column, box); it must work exactly when options() offers it."""
    options = game.options()
    assert options, "a player with open boxes always has a legal entry"
    offered = {(e.column, e.box): e for e in options}
    keys = [(c, b) for c in game.sheet.columns for b in (*game.sheet.scorable, None)]
    column, box = rng.choice(keys)
    sheet = game.sheet
    if rng.random() < 0.4:
        try:
            game.score(box, column)
        except RulesError:
            assert (column, box) not in offered
        else:
            assert sheet.entries[-1] == offered[(column, box)]
            return
    greedy = rng.random() < 0.6  # often the best entry, so bonuses happen too
    pick = max(options, key=lambda e: e.value) if greedy else rng.choice(options)
    game.score(pick.box, pick.column)


def play_random_turn(game: Game, rng: random.Random) -> None:
    if rng.random() < 0.15:  # loaded dice now and then, so the extra five-of-a-kind rules run
        game.roll((rng.randint(1, game.ruleset.faces),) * game.ruleset.dice)
    else:
        game.roll_random(rng)
    while True:
        _maybe_declare(game, rng)
        turn = game.turn
        if turn.rolls_left == 0 or rng.random() < 0.35:
            break
        if game.ruleset.declaration == "mickey" and turn.declaration is None:
            break  # rolling again needs a declaration first
        keep = _random_keep(game, rng)
        if keep is None:
            break
        game.keep(keep)
        game.roll_random(rng)
    _probe_and_score(game, rng)


def play_random_game(ruleset: RuleSet, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(ruleset, players)
    while not game.finished:
        play_random_turn(game, rng)
        if rng.random() < 0.05:
            game.undo()  # takes the entry back: the same dice are scored again
            _probe_and_score(game, rng)
    return game


@pytest.fixture(scope="module", params=RULESETS)
def ruleset(request: pytest.FixtureRequest) -> RuleSet:
    return load_ruleset(request.param)


class TestRandomGames:
    @settings(max_examples=20, deadline=None)
    @given(seed=SEEDS, players=st.integers(min_value=1, max_value=4))
    def test_full_games_end_right_and_replay(
        self, ruleset: RuleSet, seed: int, players: int
    ) -> None:
        game = play_random_game(ruleset, players, seed)
        _check_game(game)
        for sheet in game.sheets:
            totals = sheet.totals()
            assert totals.total - totals.computed >= 0  # Croatian's computed line may be < 0
        again = Game.from_events(loads(dumps(game.events)))
        assert (again.current, again.finished, again.turns_played) == (
            game.current,
            game.finished,
            game.turns_played,
        )


def _check_game(game: Game) -> None:
    """Every box filled after the right number of turns, no entry below 0, replay equal."""
    ruleset = game.ruleset
    beside = sum(1 for s in game.sheets for e in s.entries if e.box is None)
    boxes = len(ruleset.scored_ids) * len(ruleset.columns)
    assert game.turns_played == len(game.players) * boxes + beside
    assert all(sheet.full for sheet in game.sheets)
    assert game.winners()
    for sheet in game.sheets:
        assert all(e.points >= 0 and e.extra >= 0 for e in sheet.entries)
    again = Game.from_events(loads(dumps(game.events)))
    assert again.to_dict() == game.to_dict()


EVERY_OPTION_ON_EVERY_BASE = [f"{b}+{o}" for b in list_rulesets() for o in list_options()]


@pytest.mark.parametrize("spec", EVERY_OPTION_ON_EVERY_BASE)
def test_every_option_on_every_base(spec: str) -> None:
    """One seeded game each; an option a base cannot take is refused naming the option."""
    try:
        ruleset = load_ruleset(spec)
    except RuleSetError as exc:
        assert exc.path.endswith(f"{spec.split('+')[1]}.toml") and exc.key
        return
    _check_game(play_random_game(ruleset, 1, seed=len(spec)))


class TestUndo:
    @settings(max_examples=10, deadline=None)
    @given(seed=SEEDS, turns=st.integers(min_value=0, max_value=30))
    def test_undo_restores_the_state_exactly(self, ruleset: RuleSet, seed: int, turns: int) -> None:
        rng = random.Random(seed)
        game = Game(ruleset, 2)
        for _ in range(turns):
            if game.finished:
                return
            play_random_turn(game, rng)
        if game.finished:
            return
        before, logged = game.to_dict(), len(game.events)
        play_random_turn(game, rng)
        for _ in range(len(game.events) - logged):  # every action of that turn
            game.undo()
        assert game.to_dict() == before


class TestOptionsMatchRecord:
    @settings(max_examples=20, deadline=None)
    @given(seed=SEEDS, turns=st.integers(min_value=0, max_value=40))
    def test_record_accepts_exactly_the_options(
        self, ruleset: RuleSet, seed: int, turns: int
    ) -> None:
        rng = random.Random(seed)
        game = Game(ruleset, 1)
        for _ in range(turns):
            if game.finished:
                break
            play_random_turn(game, rng)
        sheet: Sheet = game.sheets[0]
        for _ in range(3):
            dice = _random_dice(ruleset, rng)
            ctx = ScoreContext(roll=rng.randint(1, 3), thrown=rng.randint(1, ruleset.dice))
            declared = _random_declaration(sheet, rng)
            offered = {(e.column, e.box): e for e in sheet.options(dice, ctx, declared)}
            for column in sheet.columns:
                for box in (*sheet.scorable, None):
                    try:
                        entry = sheet.record(box, dice, ctx, column, declared)
                    except RulesError:
                        assert (column, box) not in offered
                    else:
                        assert offered[(column, box)] == entry
                        sheet.pop()


def _random_dice(ruleset: RuleSet, rng: random.Random) -> tuple[int, ...]:
    if rng.random() < 0.3:  # five-of-a-kind often, for the extra rules
        return (rng.randint(1, ruleset.faces),) * ruleset.dice
    return tuple(rng.randint(1, ruleset.faces) for _ in range(ruleset.dice))


def _random_declaration(sheet: Sheet, rng: random.Random) -> Declaration | None:
    ruleset = sheet.ruleset
    columns = _announce_columns(ruleset)
    if ruleset.declaration == "mickey" and rng.random() < 0.5:
        return _mickey_declaration(sheet, rng)
    if columns and sheet.open_boxes(columns[0]) and rng.random() < 0.5:
        return Declaration(rng.choice(sheet.open_boxes(columns[0])), columns[0])
    return None
