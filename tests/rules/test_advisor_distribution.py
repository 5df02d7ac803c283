"""The exact score distribution of optimal play, against a brute force and the figures.

The brute force plays the real :class:`~dicetray.rules.sheet.Sheet` (its totals, its joker
rules), takes every choice from :func:`~dicetray.rules.advisor.advice.advise` (so ties go
the way the advisor breaks them) and follows every roll with its exact chance as a
fraction; it shares with the forward propagation only the strategy table.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from test_advisor_bruteforce import MODES, hands, small_game

from dicetray.firmware.cli import main
from dicetray.rules import RuleSet, ScoreContext, Sheet
from dicetray.rules.advisor.advice import OptionKind, Situation, advise, plan_for
from dicetray.rules.advisor.distribution import Distribution, score_distribution
from dicetray.rules.advisor.errors import Unsolvable
from dicetray.rules.advisor.table import StrategyTable


def advisor_play(table: StrategyTable, rs: RuleSet) -> dict[int, Fraction]:
    """Final score -> exact chance when every choice is the advisor's best option."""
    sheets: dict[tuple, Sheet] = {}

    def remember(sheet: Sheet) -> tuple:
        situation = Situation.from_sheet(sheet)
        threshold = rs.upper_bonus.threshold if rs.upper_bonus else 0
        key = (situation.filled, min(situation.upper, threshold), situation.flag)
        sheets.setdefault(key, sheet)
        return key

    def shifted(dist: dict[int, Fraction], points: int, chance: Fraction) -> Counter:
        return Counter({s + points: p * chance for s, p in dist.items()})

    @cache
    def plan(key: tuple):
        return plan_for(table, Situation.from_sheet(sheets[key]))

    @cache
    def future(key: tuple) -> dict[int, Fraction]:
        """Points still to come from the start of a turn (bonuses included)."""
        if sheets[key].full:
            return {0: Fraction(1)}
        out: Counter = Counter()
        for dice, p in hands(rs.dice, rs.faces):
            out.update(shifted(turn(key, dice, rs.rolls - 1), 0, p))
        return dict(out)

    @cache
    def turn(key: tuple, dice: tuple[int, ...], left: int) -> dict[int, Fraction]:
        sheet = sheets[key]
        best = advise(table, Situation.from_sheet(sheet), dice, left, plan=plan(key)).best
        if best.kind is OptionKind.SCORE:
            trial = sheet.copy()
            trial.record(best.box, dice, ScoreContext(roll=rs.rolls - left))
            return dict(shifted(future(remember(trial)), trial.total - sheet.total, Fraction(1)))
        out: Counter = Counter()
        for more, p in hands(rs.dice - len(best.dice), rs.faces):
            out.update(shifted(turn(key, tuple(sorted(best.dice + more)), left - 1), 0, p))
        return dict(out)

    return future(remember(Sheet(rs)))


def as_array(exact: dict[int, Fraction]) -> np.ndarray:
    out = np.zeros(max(exact) + 1)
    for score, p in exact.items():
        out[score] = float(p)
    return out


def same(found: Distribution, exact: dict[int, Fraction]) -> None:
    want = as_array(exact)
    got = found.probabilities
    size = max(len(want), len(got))
    want, got = np.pad(want, (0, size - len(want))), np.pad(got, (0, size - len(got)))
    assert np.abs(got - want).max() < 1e-12
    assert sum(exact.values()) == 1


@pytest.mark.parametrize("mode", MODES)
def test_every_joker_rule_matches_the_brute_force(folder, cache_, mode) -> None:
    rs = small_game(folder, mode, rolls=2, drop=("twos", "threes"))
    table = cache_.load_or_build(rs)
    same(score_distribution(table), advisor_play(table, rs))


def test_no_holds_match_the_brute_force(folder, cache_) -> None:
    rs = small_game(folder, "none", hold="none", rolls=3, drop=("twos",))
    table = cache_.load_or_build(rs)
    same(score_distribution(table), advisor_play(table, rs))


def test_three_rolls_and_the_advisors_tie_breaks(folder, cache_) -> None:
    """Here options of equal expectation lead to different scores: the ties must go the
    advisor's way (letting rounding break them gives another deviation)."""
    rs = small_game(folder, "none", rolls=3, drop=("twos", "threes"))
    table = cache_.load_or_build(rs)
    found = score_distribution(table)
    same(found, advisor_play(table, rs))
    assert found.mean == pytest.approx(table.expected, abs=1e-9)


def test_the_chances_add_up_and_the_mean_is_the_tables(folder, cache_) -> None:
    rs = small_game(folder, "forced-joker", rolls=3)
    table = cache_.load_or_build(rs)
    found = score_distribution(table)
    assert found.probabilities.sum() == pytest.approx(1, abs=1e-12)
    assert found.mean == pytest.approx(table.expected, abs=1e-9)
    assert (found.probabilities >= 0).all()


def test_locked_holds_are_refused(advisor_table) -> None:
    with pytest.raises(Unsolvable, match="free or no holds"):
        score_distribution(advisor_table("yacht"))


class TestSummary:
    d = Distribution(np.array([0.1, 0.2, 0.0, 0.4, 0.3]))

    def test_median_mode_and_percentiles(self) -> None:
        assert (self.d.median, self.d.mode) == (3, 3)
        assert [self.d.percentile(q) for q in (0, 10, 11, 30, 31, 70, 71, 100)] == [
            0, 0, 1, 1, 3, 3, 4, 4,
        ]
        assert self.d.mean == pytest.approx(0.2 + 1.2 + 1.2)

    def test_a_percentile_past_100_is_refused(self) -> None:
        with pytest.raises(ValueError, match="0 to 100"):
            self.d.percentile(101)


@pytest.mark.slow
def test_the_published_distribution_of_optimal_yahtzee(advisor_table) -> None:
    """yahtzee-free-joker: the mean is the solver's; the deviation, median, mode and 1st
    percentile are the published ones (the 99th: docs/benchmarks.md, Advisor)."""
    table = advisor_table("yahtzee-free-joker")
    found = score_distribution(table)
    assert found.probabilities.sum() == pytest.approx(1, abs=1e-12)
    assert found.mean == pytest.approx(table.expected, abs=1e-6)
    assert found.sd == pytest.approx(59.6117, abs=1e-4)
    assert (found.median, found.mode, found.percentile(1)) == (248, 266, 151)
    # P(score <= 473) falls short of 0.99 by 1.3e-9: the 99th percentile is 474 here
    assert np.cumsum(found.probabilities)[473] == pytest.approx(0.99, abs=1e-8)
    assert len(found.probabilities) == 1576  # 0 .. 1575, the theoretical maximum
    assert found.probabilities[1575] > 0


class TestCommand:
    """``dicetray advise RULESET --distribution``: the summary, the median last."""

    def test_prints_the_summary_with_the_median_last(self, folder, cache_, tmp_path) -> None:
        rs = small_game(folder, "free-joker", rolls=3, drop=("twos",))
        found = score_distribution(cache_.load_or_build(rs))
        path = str(folder / "small-free-joker-free-3-1.toml")
        code, out, err = run(tmp_path, path, "--distribution")
        assert code == 0, err
        lines = dict(line.strip().rsplit(None, 1) for line in out.splitlines()[1:-1]
                     if "mode" not in line)
        assert float(lines["mean"]) == pytest.approx(found.mean, abs=1e-4)
        assert float(lines["standard deviation"]) == pytest.approx(found.sd, abs=1e-4)
        assert int(lines["percentile 99"]) == found.percentile(99)
        assert out.splitlines()[-1] == f"median: {found.median}"
        code, expected, _ = run(tmp_path, path, "--expected")
        assert float(expected.split()[-1]) == pytest.approx(found.mean, abs=1e-4)

    def test_locked_holds_end_in_one_error_line(self, tmp_path) -> None:
        code, _, err = run(tmp_path, "general", "--distribution")
        assert code == 1
        assert [line for line in err.splitlines() if line.startswith("Error:")] == [
            "Error: general: the distribution is worked out for mean-maximising play with free "
            "or no holds only"
        ]


def run(data: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(data), "advise", *args])
    return result.exit_code, result.stdout, result.stderr
