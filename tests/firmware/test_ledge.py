"""Holds read off the ledge: which positions are kept, what was thrown, what is flagged."""

from __future__ import annotations

from dicetray.firmware.ledge import Seen, throw_from
from dicetray.rules import Game, load_ruleset


def rolled(values, ruleset="yahtzee", keep=()):
    game = Game(load_ruleset(ruleset))
    game.roll(values)
    if keep:
        game.keep(keep)
    return game


def test_first_roll_counts_every_die_in_left_to_right_order():
    game = Game(load_ruleset("yahtzee"))
    seen = [Seen(5, "tray", 90, 1), Seen(2, "tray", 10, 1), Seen(3, "unknown", 50, 1),
            Seen(1, "tray", 30, 1), Seen(6, "tray", 70, 1)]
    throw = throw_from(game.turn, seen)
    assert throw.held == () and throw.thrown == (2, 1, 3, 6, 5) and throw.flags == ()
    assert throw.spots[0] == (10, 1)
    game.roll(throw.thrown)  # the rules take it


def test_dice_on_the_ledge_at_a_first_roll_are_thrown_and_flagged():
    game = Game(load_ruleset("yahtzee"))
    seen = [Seen(4, "ledge", 10, 1)] + [Seen(v, "tray", 20 + v, 50) for v in (1, 2, 3, 5)]
    throw = throw_from(game.turn, seen)
    assert len(throw.thrown) == 5 and throw.flags


def test_dice_moved_to_the_ledge_become_kept_positions_and_the_game_accepts_the_roll():
    game = rolled((6, 2, 6, 3, 1))
    seen = [Seen(6, "ledge", 10, 5), Seen(6, "ledge", 30, 5), Seen(3, "ledge", 50, 5),
            Seen(4, "tray", 50, 60), Seen(2, "tray", 20, 70)]
    throw = throw_from(game.turn, seen)
    assert throw.held == (0, 2, 3) and throw.thrown == (2, 4)
    game.keep(throw.held)
    game.roll(throw.thrown)
    assert game.turn.dice == (6, 2, 6, 3, 4)


def test_a_kept_die_that_changed_is_flagged_and_keeps_its_value():
    game = rolled((5, 5, 1, 2, 3), keep=(0, 1))
    seen = [Seen(5, "ledge", 10, 5), Seen(6, "ledge", 20, 5),
            Seen(1, "tray", 50, 60), Seen(1, "tray", 60, 60), Seen(1, "tray", 70, 60)]
    throw = throw_from(game.turn, seen)
    assert throw.held == (0, 1) and throw.thrown == (1, 1, 1)
    assert throw.flags == ("a kept 5 now shows 6: the 5 was kept",)


def test_without_a_ledge_in_sight_the_turns_keeps_stand():
    game = rolled((4, 4, 1, 2, 3), keep=(0, 1))
    seen = [Seen(4, "unknown", 10, 5), Seen(4, "unknown", 20, 5),
            Seen(6, "unknown", 50, 60), Seen(6, "unknown", 60, 60), Seen(2, "unknown", 70, 60)]
    throw = throw_from(game.turn, seen)
    assert throw.held == (0, 1) and sorted(throw.thrown) == [2, 6, 6]
