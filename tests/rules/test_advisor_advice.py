"""Advice for situations and games, analysis of played games, optimal self-play."""

from __future__ import annotations

import random
import statistics

import pytest

from dicetray.rules import Game, GameOver, InvalidDice, NotRolled, UnknownBox, load_ruleset
from dicetray.rules.advisor import AdvisorError
from dicetray.rules.advisor.advice import (
    OptionKind,
    Situation,
    advise,
    advise_game,
    expected_final,
)
from dicetray.rules.advisor.analysis import analyse
from dicetray.rules.advisor.selfplay import play_optimally


def _start_value_from_first_rolls(table, situation: Situation) -> float:
    """The mean, over every first roll, of the best option's expected final score."""
    lat = table.model.lat
    total = 0.0
    for hand in range(lat.rolls.start, lat.rolls.stop):
        advice = advise(table, situation, lat.dice(hand), table.model.ruleset.rolls - 1)
        total += lat.prob[hand] * advice.expected
    return total


@pytest.mark.parametrize("ruleset", ["general", "yacht"])
def test_the_best_options_average_to_the_tables_value(advisor_table, ruleset) -> None:
    table = advisor_table(ruleset)
    empty = Situation(frozenset(), 0, False, 0)
    assert _start_value_from_first_rolls(table, empty) == pytest.approx(table.expected, abs=1e-9)
    later = Situation.from_scores(
        load_ruleset(ruleset),
        {"sixes": 24, "ones": 0, "chance": 20} if ruleset == "yacht" else {"sixes": 24, "ones": 0},
    )
    assert _start_value_from_first_rolls(table, later) == pytest.approx(
        expected_final(table, later), abs=1e-9
    )


def test_options_are_sorted_and_name_every_legal_box(advisor_table) -> None:
    table = advisor_table("general")
    game = Game(load_ruleset("general"))
    game.roll((2, 3, 4, 5, 6))
    advice = advise_game(table, game)
    figures = [o.expected for o in advice.options]
    assert figures == sorted(figures, reverse=True)
    boxes = {o.box for o in advice.options if o.kind is OptionKind.SCORE}
    assert boxes == {e.box for e in game.options()}
    assert advice.best.box == "straight"  # a served straight (25) on the first roll
    keeps = [o for o in advice.options if o.kind is OptionKind.KEEP]
    assert len(keeps) == 31  # every proper sub-hand of five different dice


def test_locked_dice_stay_in_every_keep(advisor_table) -> None:
    table = advisor_table("yacht")
    game = Game(load_ruleset("yacht"))
    game.roll((6, 6, 1, 2, 3))
    game.keep((0, 1))
    game.roll((6, 1, 2))
    advice = advise_game(table, game)
    for option in advice.options:
        if option.kind is OptionKind.KEEP:
            assert option.dice.count(6) >= 2


def test_bad_situations_are_refused(advisor_table) -> None:
    table = advisor_table("general")
    rs = load_ruleset("general")
    empty = Situation(frozenset(), 0, False, 0)
    with pytest.raises(InvalidDice):
        advise(table, empty, (1, 2, 3), 1)
    with pytest.raises(AdvisorError):
        advise(table, empty, (1, 2, 3, 4, 5), 3)
    with pytest.raises(InvalidDice):
        advise(table, empty, (1, 2, 3, 4, 5), 1, locked=(6,))
    with pytest.raises(UnknownBox):
        Situation.from_scores(rs, {"chance": 20})
    with pytest.raises(AdvisorError):
        Situation.from_scores(rs, {"ones": -1})
    full = Situation(frozenset(rs.scored_ids), 0, False, 100)
    with pytest.raises(GameOver):
        advise(table, full, (1, 2, 3, 4, 5), 0)
    with pytest.raises(NotRolled):
        advise_game(table, Game(rs))
    other = Game(load_ruleset("yacht"))
    other.roll((1, 2, 3, 4, 5))
    with pytest.raises(AdvisorError, match="table is for general"):
        advise_game(table, other)


def test_self_play_finishes_games_the_rules_accept(advisor_table) -> None:
    table = advisor_table("general")
    game = play_optimally(table, random.Random(5))
    assert game.finished
    again = Game.from_events(game.events)
    assert again.totals() == game.totals()


def test_optimal_play_scores_its_expected_value(advisor_table) -> None:
    """300 games: the mean lies within four standard errors of the solver's value."""
    table = advisor_table("general")
    rng = random.Random(11)
    totals = [play_optimally(table, random.Random(rng.random())).totals()[0] for _ in range(300)]
    se = statistics.stdev(totals) / len(totals) ** 0.5
    assert abs(statistics.fmean(totals) - table.expected) < 4 * se


class TestAnalysis:
    def test_optimal_play_loses_nothing(self, advisor_table) -> None:
        table = advisor_table("general")
        game = play_optimally(table, random.Random(2))
        report = analyse(table, game)
        assert report.total_loss == pytest.approx(0, abs=1e-9)
        assert report.final == game.totals()[0]
        assert len(report.expected_by_turn) == len(table.model.boxes) + 1
        assert report.expected_by_turn[0] == pytest.approx(table.expected)

    def test_a_bad_choice_costs_its_difference(self, advisor_table) -> None:
        table = advisor_table("general")
        game = Game(load_ruleset("general"), ("Ann", "Bo"))
        game.roll((6, 6, 6, 6, 6))
        advice = advise_game(table, game)
        game.score("ones")  # throws a General away
        game.roll((1, 2, 3, 4, 6))
        game.undo()  # Bo's roll taken back and made again
        game.roll((1, 2, 2, 4, 6))
        report = analyse(table, game.events, player=0)
        (decision,) = report.decisions
        assert decision.chosen.box == "ones"
        assert decision.loss == pytest.approx(
            advice.best.expected - advice.option(OptionKind.SCORE, box="ones").expected
        )
        assert decision.loss > 40
        assert report.costliest == (decision,)
        assert analyse(table, game, player=1).decisions == ()

    def test_keeps_are_judged_by_the_dice_held_at_the_next_roll(self, advisor_table) -> None:
        table = advisor_table("general")
        game = Game(load_ruleset("general"))
        game.roll((6, 6, 1, 2, 3))
        game.keep((0,))
        game.keep((0, 1))  # changed mind: the pair is what was kept
        game.roll((6, 4, 4))
        report = analyse(table, game)
        assert report.decisions[0].chosen.dice == (6, 6)
        assert report.decisions[0].roll == 1

    def test_an_unknown_player_is_refused(self, advisor_table) -> None:
        with pytest.raises(AdvisorError):
            analyse(advisor_table("general"), Game(load_ruleset("general")), player=3)
