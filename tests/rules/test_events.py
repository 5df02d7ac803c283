"""Events: JSON form, malformed input, and rebuilding a game by replaying them."""

from __future__ import annotations

import json
import random

import pytest

from dicetray.rules import load_ruleset
from dicetray.rules.events import (
    Declared,
    EventError,
    Kept,
    NextGame,
    Rolled,
    Scored,
    Started,
    Undone,
    dumps,
    from_dict,
    loads,
    to_dict,
)
from dicetray.rules.game import Game

EVERY_KIND = [
    Started("kniffel+columns", ("Ann", "Bo"), 2),
    Rolled((1, 2, 3, 4, 5), 0),
    Kept((0, 1)),
    Declared("sixes", "announce", 0),
    Scored("sixes", "announce"),
    Scored(None, "free"),
    Undone(),
    NextGame(),
]


class TestJsonForm:
    @pytest.mark.parametrize("event", EVERY_KIND, ids=lambda e: e.type)
    def test_round_trip(self, event) -> None:
        data = to_dict(event)
        assert data["type"] == event.type
        assert from_dict(json.loads(json.dumps(data))) == event

    def test_a_list_of_events(self) -> None:
        assert loads(dumps(EVERY_KIND)) == EVERY_KIND

    def test_optional_fields_may_be_left_out(self) -> None:
        assert from_dict({"type": "roll", "dice": [6, 6]}) == Rolled((6, 6))
        assert from_dict({"type": "start", "ruleset": "crag", "players": ["A"]}).games == 1


class TestMalformed:
    @pytest.mark.parametrize(
        ("data", "message"),
        [
            ({"type": "shout"}, "unknown event type 'shout'"),
            ({"dice": [1]}, "unknown event type None"),
            ({"type": "roll"}, "lacks 'dice'"),
            ({"type": "roll", "dice": [1, "2"]}, "list of integers"),
            ({"type": "roll", "dice": [1], "colour": "red"}, r"unknown field\(s\) \['colour'\]"),
            ({"type": "keep", "held": [0], "player": "Ann"}, "player must be an integer"),
            ({"type": "start", "ruleset": "crag", "players": [1]}, "list of names"),
            ({"type": "declare", "box": None}, "box must be a string"),
            ({"type": "score", "box": 3}, "box must be a string"),
            ([1, 2], "JSON object"),
        ],
    )
    def test_clear_errors(self, data, message: str) -> None:
        with pytest.raises(EventError, match=message):
            from_dict(data)

    def test_bad_json(self) -> None:
        with pytest.raises(EventError, match="not valid JSON"):
            loads("[{")
        with pytest.raises(EventError, match="JSON array"):
            loads('{"type": "undo"}')


class TestReplay:
    def test_replay_reproduces_the_game(self) -> None:
        game = Game(load_ruleset("yahtzee"), ("Ann", "Bo"))
        rng = random.Random(5)
        for _ in range(7):
            game.roll_random(rng)
            game.keep((0, 1))
            game.roll_random(rng)
            option = game.options()[-1]
            game.score(option.box)
        game.undo()
        game.roll_random(rng)
        again = Game.from_events(loads(dumps(game.events)))
        assert again.to_dict() == game.to_dict()
        assert again.events == game.events

    def test_a_rule_set_file_is_given_explicitly(self) -> None:
        ruleset = load_ruleset("kniffel+sharp")
        game = Game(ruleset, 1)
        game.roll((3, 3, 3, 5, 5))
        game.score("full-house")
        again = Game.from_events(game.events, ruleset)
        assert again.sheets[0].total == 50

    def test_a_game_from_a_file_names_the_file(self, tmp_path) -> None:
        path = tmp_path / "house.toml"
        path.write_text(
            'extends = "kniffel"\n[[boxes]]\nid = "full-house"\nparams = { points = 30 }\n'
        )
        game = Game(load_ruleset(f"{path}+sharp"), 1)
        game.roll((3, 3, 3, 5, 5))
        game.score("full-house")
        start = game.events[0]
        assert isinstance(start, Started) and start.ruleset == f"{path.absolute()}+sharp"
        again = Game.from_events(loads(dumps(game.events)))
        assert again.to_dict() == game.to_dict() and again.sheets[0].total == 60

    def test_events_begin_with_a_start(self) -> None:
        with pytest.raises(EventError, match="begin with a start"):
            Game.from_events([Rolled((1, 2, 3, 4, 5))])

    def test_no_second_start_inside_a_game(self) -> None:
        game = Game(load_ruleset("yahtzee"), 1)
        with pytest.raises(EventError, match="does not belong inside a game"):
            game.apply(Started("yahtzee", ("A",)))
