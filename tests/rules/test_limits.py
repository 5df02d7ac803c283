"""Bounds on what the rules engine reads, and the best groups found without a blow-up."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dicetray.rules.kinds import best_groups
from dicetray.rules.limits import LIMITS, check_toml, check_tree


def _every_way(dice: tuple[int, ...], sizes: list[int], distinct: bool) -> int | None:
    """The best sum of the dice used, trying every face for every group (slow, plain)."""
    counts = Counter(dice)
    best = None
    for faces in itertools.product(sorted(counts), repeat=len(sizes)):
        if distinct and len(set(faces)) < len(faces):
            continue
        need = Counter()
        for face, size in zip(faces, sizes, strict=True):
            need[face] += size
        if all(counts[face] >= n for face, n in need.items()):
            total = sum(face * size for face, size in zip(faces, sizes, strict=True))
            best = total if best is None else max(best, total)
    return best


@settings(max_examples=400, deadline=None)
@given(dice=st.lists(st.integers(1, 6), min_size=1, max_size=7).map(tuple),
       sizes=st.lists(st.integers(1, 4), min_size=1, max_size=4),
       distinct=st.booleans())
@example(dice=(3, 3, 5, 5, 5), sizes=[3, 2], distinct=True)
@example(dice=(4, 4, 4, 4, 1), sizes=[2, 2], distinct=False)
def test_best_groups_finds_what_trying_every_way_finds(dice: tuple[int, ...], sizes: list[int],
                                                       distinct: bool) -> None:
    used = best_groups(dice, sizes, distinct)
    expected = _every_way(dice, sizes, distinct)
    if expected is None:
        assert used is None
        return
    assert used is not None and sum(used) == expected
    assert sorted(used, reverse=True) == used or len(set(sizes)) > 1
    assert not Counter(used) - Counter(dice)  # only dice that are there
    assert len(used) == sum(sizes)


def test_best_groups_of_twelve_groups_of_one_and_of_pairs() -> None:
    dice = tuple(range(1, 13))
    assert best_groups(dice, [1] * 12) == list(range(12, 0, -1))
    assert best_groups(dice, [1] * 13) is None
    assert best_groups((6,) * 12, [2] * 6, distinct=False) == [6] * 12
    assert best_groups((6,) * 12, [2] * 6) is None


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from('ab1_-."\' \t\n=[]{}\\'), max_size=400))
@example(text="a" + ".a" * 16 + " = 1")
@example(text='"x"' + ' . "x"' * 16 + " = 1")
@example(text="[" + ".".join(["t"] * 17) + "]")
def test_check_toml_refuses_exactly_the_keys_of_many_parts(text: str) -> None:
    try:
        check_toml(text)
    except ValueError as exc:
        assert str(exc) == f"a dotted key of more than {LIMITS.max_key_parts} parts"
        assert text.count(".") > LIMITS.max_key_parts - 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"a": 2 ** 63}, "a: 9223372036854775808 is past the 64-bit"),
        ({"a": -(2 ** 63) - 1}, "past the 64-bit"),
        ({"a": [[[[[[[[[[[[[1]]]]]]]]]]]]]}, "nested more than 12 levels deep"),
        ({"a": [0] * (LIMITS.max_values + 1)}, "more than 200,000 values"),
        ({"a": 10 ** 4000}, "a number of 4001 digits"),
    ],
)
def test_check_tree_bounds_depth_size_and_integers(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_tree(data)


def test_check_tree_lets_the_64_bit_integers_and_a_rule_set_through() -> None:
    check_tree({"a": [2 ** 63 - 1, -(2 ** 63)], "boxes": [{"params": {"faces": [[1, 2]]}}]})


_PART = st.one_of(
    st.sampled_from(["yahtzee", "kniffel", "sharp", "full-cup", "columns", "", "..", "/",
                     "/dev/zero", "/etc/passwd", "./x.toml", "a\x00b", "ü.toml"]),
    st.text(max_size=12),
    st.integers(250, 5000).map(lambda n: "n" * n),
)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_PART, min_size=1, max_size=20))
@example(parts=["a" * 300])
@example(parts=["yahtzee", "o" * 300])
@example(parts=["yahtzee"] + ["sharp"] * 17)
@example(parts=["./" + "d/" * 3000 + "x.toml"])
def test_any_rule_set_name_loads_or_is_a_rules_error(parts: list[str]) -> None:
    from dicetray.rules import RulesError, RuleSet, load_ruleset

    try:
        loaded = load_ruleset("+".join(parts))
    except RulesError as exc:
        assert "\n" not in str(exc)  # one line, whatever the name
        return
    assert isinstance(loaded, RuleSet)
