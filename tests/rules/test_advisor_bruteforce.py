"""The solver on cut-down games against a brute-force expectimax in exact fractions.

The brute force plays the real :class:`~dicetray.rules.sheet.Sheet` (its options, its
totals, its joker rules) and tries every keep and every box, with exact probabilities; it
shares nothing with the solver but the rule set. The games are small: three dice of four
faces, a few boxes, every joker rule and every hold policy.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from dicetray.rules import RuleSet, ScoreContext, Sheet, load_ruleset

BOXES = """
[[boxes]]
id = "ones"
kind = "upper"
names = { en = "Ones" }
params = { face = 1 }

[[boxes]]
id = "twos"
kind = "upper"
names = { en = "Twos" }
params = { face = 2 }

[[boxes]]
id = "threes"
kind = "upper"
names = { en = "Threes" }
params = { face = 3 }

[[boxes]]
id = "fours"
kind = "upper"
names = { en = "Fours" }
params = { face = 4 }

[[boxes]]
id = "run"
kind = "straight"
names = { en = "Run" }
params = { length = 3, points = 20 }

[[boxes]]
id = "yahtzee"
kind = "all-equal"
names = { en = "Yahtzee" }
params = { points = 30 }

[[boxes]]
id = "chance"
kind = "chance"
names = { en = "Chance" }
"""


def small_game(folder: Path, mode: str, hold: str = "free", rolls: int = 3, drop=()) -> RuleSet:
    text = f"""
names = {{ en = "Small {mode} {hold}" }}
dice = 3
faces = 4
rolls = {rolls}
hold = "{hold}"
five_of_a_kind = "yahtzee"
upper_bonus = {{ threshold = 12, points = 15 }}
extra = {{ mode = "{mode}", bonus = 40 }}
"""
    for block in BOXES.split("[[boxes]]")[1:]:
        if not any(f'id = "{box}"' in block for box in drop):
            text += "[[boxes]]" + block
    path = folder / f"small-{mode}-{hold}-{rolls}-{len(drop)}.toml"
    path.write_text(text)
    return load_ruleset(path)


def hands(n: int, faces: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of n dice with its exact chance."""
    out = []
    for hand in itertools.combinations_with_replacement(range(1, faces + 1), n):
        ways = math.factorial(n) // math.prod(math.factorial(c) for c in Counter(hand).values())
        out.append((hand, Fraction(ways, faces**n)))
    return out


def sub_hands(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(sorted(c)) for k in range(len(dice) + 1) for c in itertools.combinations(dice, k)}


def expectimax(rs: RuleSet) -> Fraction:
    """Expected final score of optimal play from an empty sheet, exactly."""
    five = rs.five_of_a_kind
    threshold = rs.upper_bonus.threshold if rs.upper_bonus else 0
    sheets: dict[tuple, Sheet] = {}

    def key(sheet: Sheet) -> tuple:
        upper = sum(sheet.entry(b).points for b in rs.upper_ids if sheet.entry(b))
        held = sheet.entry(five) is not None and sheet.entry(five).points > 0
        filled = frozenset(b for b in rs.box_ids if sheet.entry(b))
        return (filled, min(upper, threshold), held)

    def remember(sheet: Sheet) -> tuple:
        k = key(sheet)
        sheets.setdefault(k, sheet)
        return k

    @cache
    def future(k: tuple) -> Fraction:
        sheet = sheets[k]
        if sheet.full:
            return Fraction(0)
        return sum(p * turn(k, hand, rs.rolls - 1, ()) for hand, p in hands(rs.dice, rs.faces))

    @cache
    def turn(k: tuple, dice: tuple[int, ...], left: int, locked: tuple[int, ...]) -> Fraction:
        sheet = sheets[k]
        ctx = ScoreContext(roll=rs.rolls - left)
        best = None
        for entry in sheet.options(dice, ctx):
            trial = sheet.copy()
            before = trial.total
            trial.record(entry.box, dice, ctx)
            value = trial.total - before + future(remember(trial))
            best = value if best is None else max(best, value)
        if left:
            if rs.hold == "none":
                keeps = {()}
            else:
                keeps = {h for h in sub_hands(dice) if len(h) < len(dice)}
                if rs.hold == "locked":
                    keeps = {h for h in keeps if not Counter(locked) - Counter(h)}
            for keep in keeps:
                value = sum(
                    p
                    * turn(
                        k, tuple(sorted(keep + more)), left - 1, keep if rs.hold == "locked" else ()
                    )
                    for more, p in hands(rs.dice - len(keep), rs.faces)
                )
                best = value if best is None else max(best, value)
        assert best is not None
        return best

    return future(remember(Sheet(rs)))


MODES = ["none", "forced-joker", "free-joker", "lower-joker", "kniffel", "book"]


@pytest.mark.parametrize("mode", MODES)
def test_every_joker_rule_matches_the_brute_force(folder, cache_, mode) -> None:
    rs = small_game(folder, mode, rolls=2, drop=("twos", "threes"))
    exact = expectimax(rs)
    assert cache_.load_or_build(rs).expected == pytest.approx(float(exact), abs=1e-9)


@pytest.mark.parametrize("hold", ["locked", "none"])
def test_every_hold_policy_matches_the_brute_force(folder, cache_, hold) -> None:
    rs = small_game(folder, "free-joker", hold=hold, drop=("twos", "threes", "chance"))
    exact = expectimax(rs)
    assert cache_.load_or_build(rs).expected == pytest.approx(float(exact), abs=1e-9)


@pytest.mark.slow
def test_three_rolls_and_more_boxes_match_the_brute_force(folder, cache_) -> None:
    rs = small_game(folder, "forced-joker", rolls=3, drop=("threes", "run"))
    exact = expectimax(rs)
    assert cache_.load_or_build(rs).expected == pytest.approx(float(exact), abs=1e-9)
