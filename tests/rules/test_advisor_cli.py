"""``dicetray advise``: the figures, the advice for a situation, one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner

from dicetray.firmware.cli import main
from dicetray.rules import load_ruleset
from dicetray.rules.advisor.extremes import theoretical_max
from dicetray.rules.loader import list_rulesets


def run(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "advise", *args])
    return result.exit_code, result.stdout, result.stderr


def last(output: str) -> str:
    return output.split()[-1]


class TestMax:
    @pytest.mark.parametrize(
        ("ruleset", "figure"),
        [
            ("yahtzee", 1575),
            ("yatzy", 374),
            ("yacht-1940", 302),
            ("kniffel-book", 790),
            ("ohio", 166),
        ],
    )
    def test_published_maxima(self, tmp_path: Path, ruleset: str, figure: int) -> None:
        code, out, _ = run(tmp_path, ruleset, "--max")
        assert code == 0 and last(out) == str(figure)

    # the others worked out by hand from the boxes (see each set's description)
    HAND: ClassVar[dict[str, int]] = {
        "crag": 63 + 4 * 20 + 25 + 26 + 50,
        "general": 105 + 25 + 35 + 45 + 60,
        "kniffel": 105 + 6 * 100 + 35 + 6 * 100 + 50,  # 12 further Kniffels, 100 each
        "mickey": 105 + 40 + 50,
        "yacht": 105 + 30 + 30 + 30 + 30 + 50 + 30,
        "yahtzee-free-joker": 1575,
        # every upper box taken by a further Yahtzee at 0 (+100 each): no upper points
        "yahtzee-1956": 50 + (30 + 30 + 25 + 30 + 40 + 30) + 12 * 100,
        "maxi-yatzy": 126 + 100 + 12 + 22 + 30 + 18 + 24 + 33 + 15 + 20 + 21 + 34 + 36 + 100,
    }

    @pytest.mark.parametrize("ruleset", sorted(set(list_rulesets()) - {"kniffel-extra-turn"}))
    def test_every_built_in_set_has_a_maximum(self, ruleset: str) -> None:
        figure = theoretical_max(load_ruleset(ruleset))
        if ruleset in self.HAND:
            assert figure == self.HAND[ruleset]
        else:
            assert ruleset in {"yahtzee", "yatzy", "yacht-1940", "kniffel-book", "ohio"}

    def test_extra_turns_have_no_maximum(self, tmp_path: Path) -> None:
        code, out, _ = run(tmp_path, "kniffel-extra-turn", "--max")
        assert code == 0 and last(out) == "inf" and "another turn" in out


def test_expected_prints_the_figure_last_and_caches_the_table(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, "general", "--expected")
    assert code == 0
    assert "Solving general" in err  # the progress bar, on stderr
    figure = float(last(out))
    assert 140 < figure < 160
    assert list((tmp_path / "advisor").glob("general-mean-*.table"))
    code, again, err = run(tmp_path, "general", "--expected")
    assert again == out and "Solving" not in err


@pytest.mark.slow
def test_a_cautious_yahtzee_player_is_sure_of_18(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "yahtzee", "--guaranteed")
    assert code == 0 and last(out) == "18"


def test_the_best_choice_for_a_situation(tmp_path: Path) -> None:
    code, out, _ = run(
        tmp_path,
        "general",
        "--sheet",
        "sixes=24,ones=3",
        "--dice",
        "6,6,6,6,6",
        "--rolls-left",
        "2",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["score", "general"]
    assert lines[-1].startswith("best: score general (60)")
    assert float(last(out)) == float(lines[0].split()[-1])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["kniffel+columns", "--expected"], "4 columns"),
        (["mickey", "--expected"], "declares"),
        (["nonsense", "--max"], "nonsense"),
        (["general"], "say what to work out"),
        (["general", "--dice", "1,2,3", "--rolls-left", "1"], "5 dice"),
        (["general", "--dice", "1,2,x,4,5", "--rolls-left", "1"], "whole numbers"),
        (["general", "--dice", "1,2,3,4,5", "--rolls-left", "1", "--sheet", "chance=3"], "chance"),
        (["general", "--dice", "1,2,3,4,5", "--rolls-left", "1", "--sheet", "ones"], "box=points"),
        (["general", "--max", "--dice", "1,2,3,4,5"], "takes no"),
        (["general", "--bogus"], "--bogus"),
    ],
)
def test_mistakes_end_in_one_error_line(tmp_path: Path, args: list[str], message: str) -> None:
    code, _, err = run(tmp_path, *args)
    assert code == 1
    lines = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1 and message in lines[0]
