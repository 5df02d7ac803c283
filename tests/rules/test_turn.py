"""A turn: rolls used and left, holds under each policy, declarations, scoring context."""

from __future__ import annotations

import random

import pytest

from dicetray.rules import (
    DeclarationError,
    HoldForbidden,
    InvalidDice,
    NoRollsLeft,
    NotRolled,
    load_ruleset,
)
from dicetray.rules.turn import Declaration, Turn, throw


def start(ruleset_id: str, saved: int = 0) -> Turn:
    return Turn.start(load_ruleset(ruleset_id), saved)


class TestRolls:
    def test_rolls_used_and_left(self) -> None:
        turn = start("yahtzee")
        assert (turn.rolls_used, turn.rolls_left) == (0, 3)
        turn = turn.roll((1, 2, 3, 4, 5)).roll((1, 2, 3, 4, 6))
        assert (turn.rolls_used, turn.rolls_left) == (2, 1)

    def test_a_roll_past_the_last(self) -> None:
        turn = start("crag").roll((1, 2, 3)).roll((4, 5, 6))
        with pytest.raises(NoRollsLeft, match="2 of 2"):
            turn.roll((1, 1, 1))

    def test_dice_before_the_first_roll(self) -> None:
        with pytest.raises(NotRolled):
            start("yahtzee").context()

    @pytest.mark.parametrize("values", [(1, 2, 3, 4, 7), (0, 1, 2, 3, 4), (1, 2, 3, 4, True)])
    def test_die_outside_the_faces(self, values) -> None:
        with pytest.raises(InvalidDice, match=r"a die shows 1\.\.6"):
            start("yahtzee").roll(values)

    def test_wrong_number_of_dice(self) -> None:
        with pytest.raises(InvalidDice, match="threw 6 dice but 5"):
            start("ohio").roll((1, 2, 3, 4, 5))

    def test_only_the_thrown_dice_change(self) -> None:
        turn = start("yahtzee").roll((6, 1, 6, 2, 6)).keep((0, 2, 4)).roll((6, 5))
        assert turn.dice == (6, 6, 6, 5, 6)

    def test_all_dice_may_be_given_when_held_ones_stay(self) -> None:
        turn = start("yahtzee").roll((6, 1, 6, 2, 6)).keep((0, 2, 4))
        assert turn.roll((6, 3, 6, 3, 6)).dice == (6, 3, 6, 3, 6)
        with pytest.raises(InvalidDice, match="position 0 changed from 6 to 5"):
            turn.roll((5, 3, 6, 3, 6))

    def test_a_roll_throws_at_least_one_die(self) -> None:
        turn = start("yahtzee").roll((6, 6, 6, 6, 6)).keep(range(5))
        with pytest.raises(HoldForbidden, match="nothing left to throw"):
            turn.roll(())


class TestContext:
    def test_served_and_sharp_facts(self) -> None:
        turn = start("yahtzee").roll((1, 2, 3, 4, 5))
        assert (turn.context().roll, turn.context().thrown) == (1, 5)
        turn = turn.keep((0, 1)).roll((6, 6, 6))
        assert (turn.context().roll, turn.context().thrown) == (2, 3)
        turn = turn.keep(()).roll((2, 2, 2, 2, 2))
        assert (turn.context().roll, turn.context().thrown) == (3, 5)


class TestFreeHold:
    def test_held_dice_may_be_thrown_again(self) -> None:
        turn = start("yahtzee").roll((6, 1, 6, 2, 6)).keep((0, 2)).roll((1, 1, 1))
        turn = turn.keep((1,))
        assert turn.to_throw == (0, 2, 3, 4)

    def test_keep_before_rolling(self) -> None:
        with pytest.raises(NotRolled):
            start("yahtzee").keep((0,))

    @pytest.mark.parametrize("positions", [(5,), (-1,), (0, "1"), (True,)])
    def test_keep_a_die_that_is_not_there(self, positions) -> None:
        with pytest.raises(InvalidDice, match="no die at position"):
            start("yahtzee").roll((1, 2, 3, 4, 5)).keep(positions)

    def test_keep_by_value(self) -> None:
        turn = start("yahtzee").roll((6, 1, 6, 2, 6))
        assert turn.keep_values([6, 6, 2]).held == (0, 2, 3)
        with pytest.raises(InvalidDice, match=r"do not hold \[5\]"):
            turn.keep_values([5])


class TestLockedHold:
    """General and Yacht: dice set aside are never thrown again."""

    def test_locked_dice_stay_held(self) -> None:
        turn = start("general").roll((6, 6, 1, 2, 3)).keep((0, 1)).roll((6, 4, 5))
        assert turn.locked == (0, 1)
        with pytest.raises(HoldForbidden, match=r"\[1\] must stay held"):
            turn.keep((0,))
        assert turn.keep((0, 1, 2)).held == (0, 1, 2)

    def test_keep_may_change_before_the_next_roll(self) -> None:
        turn = start("general").roll((6, 6, 1, 2, 3)).keep((0, 1))
        assert turn.keep((2,)).held == (2,)


class TestFullCup:
    """Voller Becher: nothing is held, every roll throws all the dice."""

    def test_no_keeps(self) -> None:
        turn = start("kniffel+full-cup").roll((6, 6, 6, 1, 2))
        with pytest.raises(HoldForbidden, match="keeps no dice"):
            turn.keep((0, 1, 2))
        turn = turn.keep(()).roll((1, 2, 3, 4, 5))
        assert turn.context().thrown == 5


class TestMickeyDeclaration:
    def test_declare_after_the_first_roll_before_the_second(self) -> None:
        turn = start("mickey").roll((1, 2, 3, 4, 6))
        with pytest.raises(DeclarationError, match="before rolling again"):
            turn.roll((1, 2, 3, 4, 5))
        assert turn.declare("straight").declaration == Declaration("straight")

    def test_declaring_before_rolling_or_too_late(self) -> None:
        with pytest.raises(NotRolled):
            start("mickey").declare("sixes")
        turn = start("mickey").roll((1, 2, 3, 4, 6)).declare("sixes").roll((6, 6, 6, 6, 6))
        with pytest.raises(DeclarationError, match="already declared"):
            start("mickey").roll((1, 2, 3, 4, 6)).declare("sixes").declare("ones")
        with pytest.raises(DeclarationError, match="right after the first roll"):
            turn.declare("fives")

    def test_declaring_mickey_leaves_no_third_roll(self) -> None:
        turn = start("mickey").roll((1, 2, 3, 4, 6)).declare("mickey")
        assert turn.rolls_left == 1
        turn = turn.keep((0, 1, 2, 3)).roll((5,))
        with pytest.raises(NoRollsLeft):
            turn.roll((6,))

    def test_other_declarations_keep_three_rolls(self) -> None:
        assert start("mickey").roll((1, 2, 3, 4, 6)).declare("straight").rolls_left == 2


class TestSavedRolls:
    def test_saved_rolls_add_to_the_allowance(self) -> None:
        assert start("kniffel+save-rolls", saved=2).rolls_left == 5

    def test_ignored_without_save_rolls(self) -> None:
        assert start("kniffel", saved=2).rolls_left == 3

    def test_negative_saved_rolls(self) -> None:
        with pytest.raises(NoRollsLeft):
            start("kniffel+save-rolls", saved=-1)


class TestThrow:
    def test_seeded_throws_repeat_and_keep_held_dice(self) -> None:
        first = throw(start("yahtzee"), random.Random(3))
        again = throw(start("yahtzee"), random.Random(3))
        assert first.dice == again.dice
        held = first.keep((0, 1))
        after = throw(held, random.Random(4))
        assert after.dice[:2] == first.dice[:2]
        assert after.context().thrown == 3
        assert all(1 <= d <= 6 for d in after.dice)
