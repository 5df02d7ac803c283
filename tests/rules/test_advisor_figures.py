"""The solver against the published optimal-play figures (to 1e-4)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from dicetray.rules import load_ruleset

pytestmark = pytest.mark.slow


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def no_bonus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("rulesets")
    return _file(folder, "no-bonus.toml", 'extends = "yahtzee-free-joker"\nupper_bonus = false\n')


class TestExpected:
    @pytest.mark.parametrize(
        ("ruleset", "figure"),
        [("yahtzee-free-joker", 254.5896), ("yahtzee", 254.5877), ("yatzy", 248.4400)],
    )
    def test_optimal_mean_from_an_empty_sheet(self, advisor_table, ruleset, figure) -> None:
        assert advisor_table(ruleset).expected == pytest.approx(figure, abs=1e-4)

    def test_without_the_upper_bonus(self, advisor_table, no_bonus) -> None:
        assert advisor_table(no_bonus).expected == pytest.approx(237.8425, abs=1e-4)

    def test_the_forced_joker_is_worth_less_than_a_free_one(self, advisor_table) -> None:
        forced = advisor_table("yahtzee").expected
        free = advisor_table("yahtzee-free-joker").expected
        assert 0 < free - forced < 0.01


class TestOneBoxLeft:
    """A sheet with every box but one filled and nothing in the upper section."""

    @pytest.mark.parametrize(
        ("box", "exact"),
        [
            ("chance", Fraction(70, 3)),
            ("yahtzee", 50 * Fraction(347897, 7558272)),
            ("ones", 5 * Fraction(91, 216)),
        ],
    )
    def test_expected_points_of_the_last_box(self, advisor_table, box, exact) -> None:
        table = advisor_table("yahtzee")
        model = table.model
        mask = model.full & ~(1 << model.boxes.index(box))
        assert table.value(mask, 0, 0) == pytest.approx(float(exact), abs=1e-9)

    def test_a_reached_bonus_is_still_to_come_on_a_full_sheet(self, advisor_table) -> None:
        table = advisor_table("yahtzee")
        assert table.value(table.model.full, 63, 0) == 35
        assert table.value(table.model.full, 62, 1) == 0


def test_yacht_and_general_solve_with_locked_holds(advisor_table) -> None:
    for ruleset in ("yacht", "yacht-1940", "general"):
        table = advisor_table(ruleset)
        assert load_ruleset(ruleset).hold == "locked"
        assert 100 < table.expected < 300
