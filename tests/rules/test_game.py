"""Games and matches: turn order, the end and the winners, extra turns, undo, wrong input."""

from __future__ import annotations

import pytest

from dicetray.rules import (
    BoxFilled,
    DeclarationError,
    GameOver,
    HoldForbidden,
    InvalidDice,
    NoRollsLeft,
    NotRolled,
    NotYourTurn,
    OrderViolation,
    RulesError,
    UnknownBox,
    load_ruleset,
)
from dicetray.rules.events import Kept, Rolled, Scored, Undone
from dicetray.rules.game import Game, Match, PlayersError
from dicetray.rules.sheet import UndoError

FIVE_SIXES = (6, 6, 6, 6, 6)


def game_of(ruleset_id: str, players=("Ann", "Bo")) -> Game:
    return Game(load_ruleset(ruleset_id), players)


def play_turn(game: Game, dice) -> None:
    """One turn: a single roll, scored in the first box offered."""
    game.roll(dice)
    first = game.options()[0]
    game.score(first.box, first.column)


def finish(game: Game, dice) -> None:
    while not game.finished:
        play_turn(game, dice)


class TestPlayers:
    def test_names_or_a_count(self) -> None:
        assert Game(load_ruleset("yahtzee"), 3).players == ("Player 1", "Player 2", "Player 3")

    @pytest.mark.parametrize("players", [0, 9, ("Ann", "Ann"), ("Ann", "")])
    def test_bad_players(self, players) -> None:
        with pytest.raises(PlayersError):
            Game(load_ruleset("yahtzee"), players)


class TestTurnOrder:
    def test_players_take_turns_in_order(self) -> None:
        game = game_of("yahtzee", ("Ann", "Bo", "Cy"))
        seen = []
        for _ in range(4):
            seen.append(game.player)
            play_turn(game, (1, 2, 3, 4, 6))
        assert seen == ["Ann", "Bo", "Cy", "Ann"]

    def test_wrong_player(self) -> None:
        game = game_of("yahtzee")
        with pytest.raises(NotYourTurn, match="Ann's turn, not Bo's"):
            game.roll((1, 2, 3, 4, 5), player=1)
        game.roll((1, 2, 3, 4, 5), player=0)
        with pytest.raises(NotYourTurn):
            game.score("chance", player=1)

    def test_scoring_before_rolling(self) -> None:
        with pytest.raises(NotRolled):
            game_of("yahtzee").score("chance")

    def test_the_entry_uses_the_turns_roll_and_context(self) -> None:
        game = game_of("general")
        game.roll((2, 2, 6, 6, 6))
        assert game.score("full-house").points == 35
        game.roll((2, 2, 6, 6, 1))
        game.keep((0, 1, 2, 3))
        game.roll((6,))
        assert game.score("full-house").points == 30


class TestEnd:
    def test_the_game_ends_when_every_box_is_filled(self) -> None:
        game = game_of("crag")
        finish(game, (1, 3, 5))
        assert game.turns_played == 2 * 13
        assert all(sheet.full for sheet in game.sheets)
        with pytest.raises(GameOver):
            game.roll((1, 2, 3))

    def test_winner_and_ties(self) -> None:
        game = game_of("crag")
        finish(game, (1, 3, 5))
        assert game.totals()[0] == game.totals()[1]
        assert game.winners() == (0, 1)

        game = game_of("crag")
        game.roll((1, 3, 5))
        game.score("odd-straight")
        finish(game, (2, 2, 2))
        assert game.totals()[0] > game.totals()[1]
        assert game.winners() == (0,)

    def test_no_winners_before_the_end(self) -> None:
        assert game_of("yahtzee").winners() == ()

    def test_columns_need_every_box_of_every_column(self) -> None:
        game = game_of("yahtzee+columns-3", ("Ann",))
        finish(game, (1, 2, 3, 4, 6))
        assert game.turns_played == 3 * 13


class TestExtraTurn:
    def test_a_further_kniffel_grants_an_extra_turn(self) -> None:
        game = game_of("kniffel-extra-turn")
        game.roll(FIVE_SIXES)
        game.score("kniffel")
        play_turn(game, (1, 2, 3, 4, 6))
        game.roll((3,) * 5)
        entry = game.score(None)
        assert entry.extra == 100
        assert game.player == "Ann"  # the extra turn
        play_turn(game, (1, 2, 3, 4, 6))
        assert game.player == "Bo"
        finish(game, (1, 2, 3, 4, 6))
        assert game.turns_played == 2 * 13 + 1
        assert game.sheets[0].totals().extras == 100


class TestSharpThrows:
    def test_doubled_only_when_the_scoring_roll_threw_every_die(self) -> None:
        game = game_of("kniffel+sharp", ("Ann",))
        game.roll((1, 2, 3, 4, 6))
        game.roll((3, 3, 3, 5, 5))  # nothing held: all five thrown again
        assert game.score("full-house").points == 50
        game.roll((4, 4, 4, 1, 2))
        game.keep((0, 1, 2))
        game.roll((2, 2))
        assert game.score("three-of-a-kind").points == 16


class TestSavedRolls:
    def test_unused_rolls_carry_over(self) -> None:
        game = game_of("kniffel+save-rolls", ("Ann",))
        game.roll((2, 3, 4, 5, 6))
        game.score("large-straight")
        assert game.saved_rolls == (2,)
        assert game.turn.rolls_left == 5
        for _ in range(5):
            game.roll((1, 1, 2, 2, 3))
        game.score("chance")
        assert game.turn.rolls_left == 3


class TestDeclarations:
    def test_mickey_declaration_binds_the_entry(self) -> None:
        game = game_of("mickey")
        game.roll((1, 2, 3, 4, 6))
        game.declare("mickey")
        game.keep((0, 1, 2, 3))
        game.roll((5,))
        with pytest.raises(DeclarationError):
            game.score("straight")
        assert game.score("mickey").points == 50

    def test_a_large_straight_on_roll_one_must_be_thrown_again(self) -> None:
        game = game_of("mickey")
        game.roll((1, 2, 3, 4, 5))
        game.declare("mickey")
        assert [e.points for e in game.options()] == [0]
        game.keep((0, 1, 2, 3))
        game.roll((5,))
        assert game.score("mickey").points == 50

    def test_declaring_a_filled_box(self) -> None:
        game = game_of("mickey", ("Ann",))
        game.roll(FIVE_SIXES)
        game.score("sixes")
        game.roll((6, 6, 1, 2, 3))
        with pytest.raises(BoxFilled):
            game.declare("sixes")
        assert game.turn.declaration is None

    def test_nothing_to_declare_in_plain_yahtzee(self) -> None:
        game = game_of("yahtzee")
        game.roll((1, 2, 3, 4, 5))
        with pytest.raises(DeclarationError):
            game.declare("chance")

    def test_announce_column(self) -> None:
        game = game_of("kniffel+columns", ("Ann",))
        game.roll((6, 6, 6, 1, 2))
        game.declare("sixes", "announce")
        game.keep((0, 1, 2))
        game.roll((1, 6))
        assert game.score("sixes", "announce").points == 24
        game.roll((6, 6, 6, 1, 2))
        game.declare("kniffel", "announce")
        game.roll((1, 2, 3, 4, 5))
        entry = game.score("ones", "down")  # failed: scratch a box of any column
        assert entry.points == 0


class TestUndo:
    def test_undo_each_kind_of_action(self) -> None:
        game = game_of("yahtzee")
        game.roll((6, 6, 1, 2, 3))
        game.keep((0, 1))
        game.roll((6, 6, 6))
        game.score("yahtzee")
        assert game.player == "Bo"
        assert game.undo() == Scored("yahtzee")
        assert game.player == "Ann"
        assert game.sheets[0].entry("yahtzee") is None
        assert game.undo() == Rolled((6, 6, 6))
        assert game.turn.rolls_used == 1
        assert game.undo() == Kept((0, 1))
        assert game.turn.held == ()
        game.undo()
        assert not game.turn.rolled
        with pytest.raises(UndoError):
            game.undo()
        assert isinstance(game.events[-1], Undone)

    def test_undo_the_last_score_of_a_finished_game(self) -> None:
        game = game_of("crag", ("Ann",))
        finish(game, (1, 3, 5))
        game.undo()
        assert not game.finished
        assert game.sheets[0].boxes_left == 1


class TestMatch:
    def test_a_match_of_several_games(self) -> None:
        match = Match(load_ruleset("crag"), ("Ann", "Bo"), games=2)
        with pytest.raises(GameOver, match="still being played"):
            match.next_game()
        finish(match.game, (6, 6, 1))
        first = match.game.totals()
        match.next_game()
        assert match.number == 2
        finish(match.game, (1, 3, 5))
        assert match.finished
        second = match.game.totals()
        assert match.totals() == tuple(a + b for a, b in zip(first, second, strict=True))
        assert match.winners() == (0, 1)
        with pytest.raises(GameOver, match="match of 2 games is over"):
            match.next_game()

    def test_games_per_match_from_the_rule_set(self) -> None:
        assert Match(load_ruleset("general"), 2).length == 6
        assert Match(load_ruleset("mickey"), 2).length == 4

    def test_undo_the_start_of_the_next_game(self) -> None:
        match = Match(load_ruleset("crag"), ("Ann",), games=2)
        finish(match.game, (6, 6, 1))
        match.next_game()
        match.apply(Undone())
        assert match.number == 1
        match.apply(Undone())
        assert not match.game.finished

    def test_match_events_rebuild_the_match(self) -> None:
        match = Match(load_ruleset("crag"), ("Ann", "Bo"), games=2)
        finish(match.game, (6, 6, 1))
        match.next_game()
        play_turn(match.game, (2, 2, 2))
        again = Match.from_events(match.events)
        assert again.to_dict() == match.to_dict()


class TestState:
    def test_state_lists_the_turn_and_the_options(self) -> None:
        game = game_of("mickey")
        assert game.to_dict()["options"] == []
        game.roll((1, 2, 3, 4, 6))
        state = game.to_dict()
        assert state["turn"]["can_declare"] is True
        assert state["turn"]["dice"] == [1, 2, 3, 4, 6]
        assert {o["box"] for o in state["options"]} == set(game.sheet.scorable)
        game.declare("straight")
        state = game.to_dict()
        assert state["turn"]["declared"] == {"box": "straight", "column": "main"}
        assert [o["box"] for o in state["options"]] == ["straight"]
        assert state["turn"]["can_declare"] is False

    def test_nothing_to_declare_without_mickey_or_announce(self) -> None:
        game = game_of("yahtzee")
        game.roll((1, 2, 3, 4, 6))
        assert game.turn.can_declare is False


class TestBadInput:
    """Every kind of bad input raises a RulesError subclass with a one-line message."""

    @staticmethod
    def refused(game: Game, action, error: type[RulesError], words: str) -> None:
        before = game.to_dict()
        with pytest.raises(error) as caught:
            action(game)
        assert isinstance(caught.value, RulesError)
        assert words in str(caught.value) and "\n" not in str(caught.value)
        assert game.to_dict() == before  # a refused action changes nothing

    @pytest.mark.parametrize(
        ("ruleset", "setup", "action", "error", "words"),
        [
            ("yahtzee", [], lambda g: g.roll((1, 2, 3, 4, 7)), InvalidDice, "1..6, not 7"),
            ("yahtzee", [], lambda g: g.roll((1, 2, 3, 0, 4)), InvalidDice, "not 0"),
            ("yahtzee", [], lambda g: g.roll((1, 2, 3, 4)), InvalidDice, "5 dice but 4"),
            ("crag", [], lambda g: g.roll((1, 2, 3, 4, 5)), InvalidDice, "3 dice but 5"),
            ("yahtzee", [(1, 2, 3, 4, 5)], lambda g: g.score("yacht"), UnknownBox, "no box"),
            ("yahtzee", [], lambda g: g.score("chance"), NotRolled, "no roll yet"),
            ("yahtzee", [], lambda g: g.keep((0,)), NotRolled, "nothing to keep"),
            ("crag", [(1, 2, 3), (4, 5, 6)], lambda g: g.roll((1, 1, 1)), NoRollsLeft, "2 of 2"),
            ("kniffel+full-cup", [(6, 6, 1, 2, 3)], lambda g: g.keep((0, 1)), HoldForbidden, ""),
            ("yahtzee", [(6, 6, 1, 2, 3)], lambda g: g.keep((5,)), InvalidDice, "position"),
            ("kniffel+strict", [(6, 6, 1, 2, 3)], lambda g: g.score("sixes"), OrderViolation, ""),
            ("mickey", [(6, 6, 1, 2, 3)], lambda g: g.roll((1, 2, 3)), DeclarationError, ""),
            ("yahtzee", [(6, 6, 1, 2, 3)], lambda g: g.score("sixes", player=1), NotYourTurn, ""),
        ],
    )
    def test_refused(self, ruleset: str, setup, action, error, words: str) -> None:
        game = game_of(ruleset)
        for dice in setup:
            game.roll(dice)
        self.refused(game, action, error, words)

    def test_a_filled_box(self) -> None:
        game = game_of("yahtzee", ("Ann",))
        play_turn(game, (1, 1, 2, 3, 4))  # into ones
        game.roll((1, 1, 1, 5, 6))
        self.refused(game, lambda g: g.score("ones"), BoxFilled, "ones already holds 2")

    def test_a_locked_die_cannot_be_taken_back(self) -> None:
        game = game_of("general", ("Ann",))
        game.roll((6, 6, 1, 2, 3))
        game.keep((0, 1))
        game.roll((4, 4, 4))
        self.refused(game, lambda g: g.keep((0, 2, 3, 4)), HoldForbidden, "[1]")

    def test_after_the_end(self) -> None:
        game = game_of("crag", ("Ann",))
        finish(game, (1, 2, 3))
        self.refused(game, lambda g: g.roll((1, 2, 3)), GameOver, "over")
