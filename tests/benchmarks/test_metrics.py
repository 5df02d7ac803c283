"""The scoring rules of the vision benchmark: overlap, outcomes and tallies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.metrics import Answer, Tally, choose_floor, outcome, overlap, tally_of

dice = st.lists(st.integers(1, 6), max_size=8)


class TestOverlap:
    def test_two_of_three(self) -> None:
        assert overlap([2, 3, 3], [3, 3, 4]) == 2

    def test_counts_repeats_only_as_often_as_true(self) -> None:
        assert overlap([5, 5, 5, 5], [5, 1]) == 1

    def test_nothing_read(self) -> None:
        assert overlap([], [1, 2, 3]) == 0

    @settings(max_examples=60, deadline=None)
    @given(dice, dice)
    def test_symmetric_and_bounded(self, read: list[int], true: list[int]) -> None:
        both = overlap(read, true)
        assert both == overlap(true, read)
        assert 0 <= both <= min(len(read), len(true))

    @settings(max_examples=60, deadline=None)
    @given(st.permutations([1, 2, 2, 6, 6]))
    def test_order_does_not_matter(self, shuffled: list[int]) -> None:
        assert overlap(shuffled, [1, 2, 2, 6, 6]) == 5


class TestOutcome:
    def test_right_in_any_order(self) -> None:
        assert outcome("ok", (6, 1, 3), (1, 3, 6)) == "right"

    def test_missing_die_is_silently_wrong(self) -> None:
        assert outcome("ok", (1, 3), (1, 3, 6)) == "wrong"

    def test_extra_die_is_silently_wrong(self) -> None:
        assert outcome("ok", (1, 3, 6, 6), (1, 3, 6)) == "wrong"

    def test_unsure_is_refused_even_with_right_values(self) -> None:
        assert outcome("unsure", (1, 3, 6), (1, 3, 6)) == "refused"

    def test_refusing_an_unreadable_frame_is_right(self) -> None:
        assert outcome("unsure", (), (2, 2), refuse_expected=True) == "right"

    def test_answering_an_unreadable_frame_wrongly_is_wrong(self) -> None:
        assert outcome("ok", (2, 3), (2, 2), refuse_expected=True) == "wrong"

    def test_answering_an_unreadable_frame_rightly_is_right(self) -> None:
        assert outcome("ok", (2, 2), (2, 2), refuse_expected=True) == "right"

    def test_bad_status(self) -> None:
        with pytest.raises(ValueError, match="status"):
            outcome("OK", (), ())


class TestTally:
    def test_counts_each_outcome(self) -> None:
        tally = Tally()
        tally.add("ok", (1, 2), (1, 2))
        tally.add("ok", (1, 2), (1, 3))
        tally.add("unsure", (), (4,))
        tally.add("unsure", (5,), (5,), refuse_expected=True)
        assert (tally.photos, tally.right, tally.wrong, tally.refused) == (4, 2, 1, 1)
        assert tally.correct_refusals == 1
        assert tally.share("wrong") == pytest.approx(0.25)

    def test_per_die_accuracy_over_all_dice(self) -> None:
        tally = Tally()
        tally.add("ok", (2, 3, 3), (3, 3, 4))  # 2 of 3
        tally.add("unsure", (), (1, 1))  # 0 of 2
        assert (tally.dice_read, tally.dice_total) == (2, 5)
        assert tally.die_accuracy == pytest.approx(0.4)

    def test_a_die_read_that_is_not_there_counts_as_a_miss(self) -> None:
        tally = Tally()
        tally.add("ok", (1, 2, 3, 4), (1, 2))
        assert tally.die_accuracy == pytest.approx(0.5)

    def test_empty_tally(self) -> None:
        assert Tally().share("right") == 0.0
        with pytest.raises(ValueError, match="outcome"):
            Tally().share("lost")  # type: ignore[arg-type]


class TestHonestFigures:
    def test_answered_accuracy_leaves_out_the_dice_of_refused_photos(self) -> None:
        tally = Tally()
        tally.add("unsure", (1, 2, 3), (1, 2, 3))  # shown right, but refused
        tally.add("ok", (4, 4), (4, 5))
        assert tally.die_accuracy == pytest.approx(4 / 5)
        assert tally.answered_accuracy == pytest.approx(1 / 2)
        assert (tally.answered, tally.clean_refused) == (1, 1)

    def test_a_rightly_refused_frame_is_neither_answered_nor_a_clean_refusal(self) -> None:
        tally = Tally()
        tally.add("unsure", (), (2,), refuse_expected=True)
        assert (tally.answered, tally.clean_refused, tally.answered_accuracy) == (0, 0, 1.0)


class TestFloors:
    ANSWERS = (
        Answer("ok", (1, 2), (1, 2), confidence=0.9),
        Answer("ok", (3,), (3,), confidence=0.5),
        Answer("ok", (5,), (6,), confidence=0.4),
        Answer("unsure", (2,), (2,), confidence=0.9),
    )

    def test_a_floor_refuses_the_answers_under_it_only(self) -> None:
        t = tally_of(self.ANSWERS, 0.45)
        assert (t.right, t.refused, t.wrong) == (2, 2, 0)

    def test_the_floor_chosen_trades_refusals_for_silent_errors(self) -> None:
        assert choose_floor(self.ANSWERS) == pytest.approx(0.45)
        # when a silent error cost nothing, no floor would be needed
        assert choose_floor(self.ANSWERS, wrong_cost=0.0) == 0.0
