"""The scoring kinds on their own: parameters, defaults, validation and judging."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from dicetray.rules import RuleSetError, ScoreContext
from dicetray.rules.kinds import KINDS, best_groups, best_straight, get_kind, runs

EMPTY = ScoreContext()


def judge(kind: str, dice: tuple[int, ...], ctx: ScoreContext = EMPTY, **raw: Any) -> int | None:
    found = get_kind(kind)
    params = found.resolve(raw, dice=len(dice), faces=6)
    return found.judge(dice, params, ctx)


def problem(kind: str, raw: dict[str, Any], dice: int = 5) -> tuple[str, str]:
    with pytest.raises(RuleSetError) as caught:
        get_kind(kind).resolve(raw, dice=dice, faces=6)
    return caught.value.key, caught.value.problem


class TestGroups:
    def test_best_groups_prefers_the_highest_faces(self) -> None:
        assert best_groups((1, 1, 6, 6, 3), [2]) == [6, 6]
        assert best_groups((6, 6, 5, 5, 4, 4), [2, 2]) == [6, 6, 5, 5]

    def test_full_house_groups_need_different_faces(self) -> None:
        assert best_groups((2, 2, 2, 3, 3), [3, 2]) == [2, 2, 2, 3, 3]
        assert best_groups((2, 2, 2, 2, 2), [3, 2]) is None
        assert best_groups((2, 2, 2, 2, 2), [3, 2], distinct=False) == [2, 2, 2, 2, 2]

    def test_bigger_group_is_found_whatever_the_order_of_sizes(self) -> None:
        assert best_groups((3, 3, 3, 3, 6, 6), [2, 4]) == [3, 3, 3, 3, 6, 6]

    def test_runs_and_straights(self) -> None:
        assert runs(5, 6) == [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]]
        assert runs(7, 6) == []
        assert best_straight((2, 3, 4, 5, 6), runs(4, 6)) == [3, 4, 5, 6]
        assert best_straight((1, 1, 2, 3, 5), runs(4, 6)) is None


class TestParams:
    def test_defaults_are_filled_in(self) -> None:
        params = get_kind("full-house").resolve({}, dice=5, faces=6)
        assert params == {"groups": [3, 2], "all_equal": False, "score": "fixed", "points": 25}

    def test_unknown_parameter(self) -> None:
        key, text = problem("n-of-a-kind", {"n": 3, "size": 2})
        assert key == "size" and "unknown parameter" in text and "n, exact" in text

    def test_missing_required_parameter(self) -> None:
        assert problem("upper", {}) == ("face", "kind 'upper' needs this parameter")

    @pytest.mark.parametrize(
        ("kind", "raw", "key", "words"),
        [
            ("upper", {"face": 0}, "face", "from 1 to 6"),
            ("upper", {"face": "6"}, "face", "whole number"),
            ("upper", {"face": True}, "face", "whole number"),
            ("n-of-a-kind", {"n": 1}, "n", "at least 2"),
            ("n-of-a-kind", {"n": 6}, "n", "needs 6 dice but the game has 5"),
            ("n-of-a-kind", {"n": 3, "score": "fixed"}, "points", "needed when score is 'fixed'"),
            ("n-of-a-kind", {"n": 3, "score": "sum"}, "score", "must be one of"),
            ("n-of-a-kind", {"n": 3, "exact": "yes"}, "exact", "true or false"),
            ("two-pairs", {"points": -1, "score": "fixed"}, "points", "at least 0"),
            ("full-house", {"groups": [4, 3]}, "groups", "needs 7 dice"),
            ("full-house", {"groups": []}, "groups", "non-empty list"),
            ("straight", {"points": 30}, "length", "exactly one of"),
            ("straight", {"length": 4, "faces": [[1, 2, 3, 4]], "points": 30}, "length", "one of"),
            ("straight", {"length": 7, "points": 30}, "length", "only 6 faces"),
            ("straight", {"faces": [[1, 2, 9]], "points": 30}, "faces[0]", "from 1 to 6"),
            ("straight", {"faces": [[1, 1, 2]], "points": 30}, "faces[0]", "a face shows twice"),
            ("straight", {"faces": [1, 2, 3], "points": 30}, "faces", "list of lists"),
            ("straight", {"length": 4}, "points", "needed when score is 'fixed'"),
            ("thirteen", {"crag_box": 5}, "crag_box", "must be a string"),
        ],
    )
    def test_bad_values_name_the_parameter(
        self, kind: str, raw: dict[str, Any], key: str, words: str
    ) -> None:
        found_key, text = problem(kind, raw)
        assert found_key == key
        assert words in text

    def test_three_pairs_need_six_dice(self) -> None:
        assert problem("three-pairs", {}, dice=5) == ("", "needs 6 dice but the game has 5")

    def test_every_kind_describes_its_defaults(self) -> None:
        needs_something = {"upper": {"face": 3}, "n-of-a-kind": {"n": 3}}
        needs_something["straight"] = {"length": 4, "points": 30}
        for name, kind in KINDS.items():
            params = kind.resolve(needs_something.get(name, {}), dice=6, faces=6)
            assert kind.describe(params)


class TestJudging:
    def test_upper_counts_only_its_face(self) -> None:
        assert judge("upper", (3, 1, 3, 6, 3), face=3) == 9
        assert judge("upper", (1, 1, 2, 2, 4), face=6) == 0

    @pytest.mark.parametrize(
        ("score", "dice", "points"),
        [
            ("all", (5, 5, 5, 2, 1), 18),
            ("used", (5, 5, 5, 2, 1), 15),
            ("fixed", (5, 5, 5, 2, 1), 7),
        ],
    )
    def test_score_modes(self, score: str, dice: tuple[int, ...], points: int) -> None:
        assert judge("n-of-a-kind", dice, n=3, score=score, points=7) == points

    def test_n_of_a_kind_takes_more_than_n_unless_exact(self) -> None:
        assert judge("n-of-a-kind", (4, 4, 4, 4, 4), n=4, score="used") == 16
        assert judge("n-of-a-kind", (4, 4, 4, 4, 4), n=4, exact=True) is None
        assert judge("n-of-a-kind", (4, 4, 4, 4, 2), n=4, exact=True) == 18

    def test_one_pair_used_is_the_highest_pair(self) -> None:
        assert judge("n-of-a-kind", (1, 1, 6, 2, 6), n=2, score="used") == 12

    def test_two_pairs_distinct_or_not(self) -> None:
        assert judge("two-pairs", (3, 3, 5, 5, 5), score="used") == 16
        assert judge("two-pairs", (4, 4, 4, 4, 1), score="used") is None
        assert judge("two-pairs", (4, 4, 4, 4, 1), score="used", distinct=False) == 16
        assert judge("two-pairs", (4, 4, 2, 2, 1)) == 13

    def test_full_house_all_equal_switch(self) -> None:
        assert judge("full-house", (6, 6, 6, 6, 6)) is None
        assert judge("full-house", (6, 6, 6, 6, 6), all_equal=True) == 25
        assert judge("full-house", (6, 6, 6, 6, 6), all_equal=True, score="all") == 30

    def test_straight_by_length_and_by_faces(self) -> None:
        assert judge("straight", (6, 4, 3, 5, 3), length=4, points=30) == 30
        assert judge("straight", (1, 2, 3, 5, 6), length=4, points=30) is None
        assert judge("straight", (2, 3, 4, 5, 6), faces=[[1, 2, 3, 4, 5]], points=15) is None
        assert judge("straight", (2, 3, 4, 5, 6), length=5, score="used") == 20

    def test_all_equal(self) -> None:
        assert judge("all-equal", (2, 2, 2, 2, 2)) == 50
        assert judge("all-equal", (2, 2, 2, 2, 1)) is None

    def test_mickey_needs_the_second_roll(self) -> None:
        dice = (1, 2, 3, 4, 5)
        assert judge("mickey", dice, ScoreContext(roll=2)) == 50
        assert judge("mickey", dice, ScoreContext(roll=1)) is None
        assert judge("mickey", dice, ScoreContext(roll=3)) is None
        assert judge("mickey", dice) == 50
        assert judge("mickey", (1, 2, 3, 4, 6), ScoreContext(roll=2)) is None

    def test_max_min_computes_from_filled_boxes(self) -> None:
        kind = get_kind("max-min")
        params = kind.resolve({}, dice=5, faces=6)
        assert kind.compute is not None
        assert kind.compute({"maximum": 25, "minimum": 10, "ones": 2}, params) == 30
        assert kind.compute({"maximum": 25, "minimum": 10}, params) is None
        assert kind.judge((1, 1, 1, 1, 1), params, EMPTY) is None


def test_every_kind_is_pure_on_every_five_dice_roll() -> None:
    """Judging twice gives the same answer and never raises, for every roll."""
    examples = {"upper": {"face": 2}, "n-of-a-kind": {"n": 2}, "straight": {"length": 3}}
    examples["straight"]["points"] = 9
    for name, kind in KINDS.items():
        if name in ("three-pairs", "two-triples"):  # six-dice kinds
            continue
        params = kind.resolve(examples.get(name, {}), dice=5, faces=6)
        for dice in itertools.combinations_with_replacement(range(1, 7), 5):
            first = kind.judge(dice, params, EMPTY)
            assert first == kind.judge(tuple(reversed(dice)), params, EMPTY)
            assert first is None or first >= 0
