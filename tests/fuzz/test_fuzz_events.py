"""Event logs fed hostile JSON (issue 25, classes 2 and 4): replayed in a child process
under the limits of conftest.py, each is read or refused with an EventError."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dicetray.rules import Game, RulesError, load_ruleset
from dicetray.rules.events import EventError, dumps, loads

SLOW = settings(max_examples=5, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

SEEDS = {
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "long-int.json": '[{"type": "roll", "dice": [' + "9" * 5_000 + "]}]",
    "int-65-bits.json": '[{"type": "roll", "dice": [1, 2, 3, 4, 36893488147419103232]}]',
    "many-dice.json": '[{"type": "roll", "dice": [' + ", ".join(["1"] * 10_000) + "]}]",
    "deep-field.json": '[{"type": "score", "box": ' + "[" * 50 + "]" * 50 + "}]",
}


def test_every_seed_of_the_issue_is_refused_cleanly(load_each: Callable,
                                                    tmp_path: Path) -> None:
    paths = []
    for name, text in SEEDS.items():
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    outcomes = load_each("events", paths)
    assert [o["outcome"] for o in outcomes] == ["error"] * len(SEEDS), outcomes
    assert all(o["type"] == "EventError" for o in outcomes)


_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2 ** 80), 2 ** 80), st.floats(),
              st.text(max_size=8), st.sampled_from(["roll", "keep", "score", "start"])),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
        st.sampled_from(["type", "dice", "held", "box", "player", "players", "ruleset",
                         "games", "column"]), inner, max_size=5),
    max_leaves=30,
)


@SLOW
@given(logs=st.lists(st.lists(_JSON, max_size=8).map(json.dumps), min_size=1, max_size=12))
@example(logs=[SEEDS["deep.json"], SEEDS["long-int.json"]])
def test_random_event_logs_are_read_or_refused_cleanly(
    load_each: Callable, tmp_path_factory: pytest.TempPathFactory, logs: list[str],
) -> None:
    folder = tmp_path_factory.mktemp("events")
    paths = []
    for index, text in enumerate(logs):
        (folder / f"e{index}.json").write_text(text)
        paths.append(str(folder / f"e{index}.json"))
    outcomes = load_each("events", paths)
    assert {o["outcome"] for o in outcomes} <= {"ok", "error"}


@settings(max_examples=100, deadline=None)
@given(events=st.lists(_JSON, max_size=12))
def test_replaying_random_events_is_a_game_or_a_rules_error(events: list) -> None:
    try:
        game = Game.from_events(loads(json.dumps(events)))
    except RulesError:
        return
    assert loads(dumps(game.events)) == list(game.events)


@pytest.mark.parametrize(
    ("act", "message"),
    [
        (lambda g: g.roll(5), "dice must be a list, not 5"),
        (lambda g: g.roll(None), "dice must be a list, not None"),
        (lambda g: g.roll("12345"), "dice must be a list"),
        (lambda g: g.roll((1, 2, 3, 4, 5.0)), "must be a list of integers, not 5.0"),
        (lambda g: g.roll((1, 2, 3, 4, 5), player="0"), "player must be an integer, not '0'"),
        (lambda g: g.roll((1, 2, 3, 4, 5), player=2 ** 70), "past the 64-bit"),
        (lambda g: g.roll(iter(range(10 ** 9))), "more than 64 entries"),
        (lambda g: g.score(5), "box must be a string"),
    ],
)
def test_game_actions_of_the_wrong_type_are_rules_errors(act: Callable, message: str) -> None:
    game = Game(load_ruleset("yahtzee"))
    with pytest.raises(EventError, match=message):
        act(game)
    assert game.events[1:] == ()


def test_keep_of_a_number_is_a_rules_error_and_numpy_integers_are_dice() -> None:
    game = Game(load_ruleset("yahtzee"))
    game.roll(np.array([6, 6, 6, 2, 3]), player=np.int64(0))
    with pytest.raises(EventError, match="held must be a list, not 3"):
        game.keep(3)
    game.keep(np.arange(3))
    game.roll([np.int32(6), np.uint8(6)])
    assert game.score("yahtzee").points == 50
    assert loads(dumps(game.events)) == list(game.events)
    assert json.loads(dumps(game.events))[1] == {"type": "roll", "dice": [6, 6, 6, 2, 3],
                                                  "player": 0}


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [
        (10 ** 100, None, "a table seats 1 to 8 players, not 1000"),
        (-1, None, "a table seats 1 to 8 players, not -1"),
        (None, None, "players are a list of names or a count, not None"),
        ("Ann", None, "players are a list of names or a count, not 'Ann'"),
        (2.0, None, "not 2.0"),
        (("A",) * 10 ** 6, None, "a table seats 1 to 8 players, not more"),
        (2, "x", "games is a whole number, not 'x'"),
        (2, 2.5, "games is a whole number, not 2.5"),
        (2, 0, "a match has at least one game, not 0"),
    ],
)
def test_a_table_of_the_wrong_shape_is_a_rules_error(players: object, games: object,
                                                     message: str) -> None:
    from dicetray.rules import Match, PlayersError

    with pytest.raises(PlayersError, match=message):
        Match(load_ruleset("yahtzee"), players, games=games)  # type: ignore[arg-type]


def test_numpy_counts_of_players_and_games_are_counts() -> None:
    from dicetray.rules import Match

    match = Match(load_ruleset("yahtzee"), np.int64(3), games=np.int32(2))
    assert match.players == ("Player 1", "Player 2", "Player 3") and match.length == 2
