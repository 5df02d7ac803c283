"""``dicetray rules list | show | score`` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dicetray.firmware.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["rules", *args])


def failed(*args: str) -> str:
    """Run a call that must fail; return its one-line message."""
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


class TestList:
    def test_lists_ids_with_names_then_options(self) -> None:
        result = run("list")
        assert result.exit_code == 0
        out = result.stdout
        assert out.index("Rule sets:") < out.index("Options")
        assert "kniffel-book" in out and "Kniffel (book)" in out
        assert "maxi-yatzy" in out and "yacht-1940" in out
        assert "full-cup" in out.split("Options")[1]
        assert "Full cup" in out

    def test_german(self) -> None:
        out = run("list", "--lang", "de").stdout
        assert "Kniffel (Spielart 1)" in out and "Voller Becher" in out


class TestShow:
    def test_text_lists_settings_and_boxes_in_sheet_order(self) -> None:
        result = run("show", "yahtzee")
        assert result.exit_code == 0
        out = result.stdout
        assert "Yahtzee (yahtzee)" in out
        assert "upper bonus: 35 at 63" in out
        assert "forced-joker, bonus 100" in out
        assert out.index("  ones ") < out.index("  sixes ") < out.index("  chance ")
        assert "4 faces in a row; scores 30 points" in out

    def test_served_points_are_shown(self) -> None:
        assert "35 when made on the first roll" in run("show", "general").stdout

    def test_german_names(self) -> None:
        out = run("show", "kniffel+croatian", "--lang", "de").stdout
        assert "Große Straße" in out and "(Max − Min) × Einer" in out
        assert "options: croatian" in out

    def test_json(self) -> None:
        result = run("show", "crag", "--json")
        data = json.loads(result.stdout)
        assert data["id"] == "crag" and data["dice"] == 3 and data["rolls"] == 2
        assert [box["id"] for box in data["boxes"]][-2:] == ["thirteen", "crag"]
        assert data["boxes"][-1]["params"] == {"total": 13, "points": 50}

    def test_user_file(self) -> None:
        out = run("show", str(FIXTURES / "exercism-yacht.toml")).stdout
        assert "Yacht (Exercism)" in out and "little-straight" in out


class TestScore:
    @pytest.mark.parametrize(
        ("args", "printed"),
        [
            (("yahtzee", "full-house", "3", "3", "3", "5", "5"), "25"),
            (("yatzy", "two-pairs", "3", "3", "5", "5", "5"), "16"),
            (("ohio", "ohio", "2", "2", "2", "6", "6", "6"), "8"),
            (("crag", "crag", "6", "6", "1"), "50"),
            (("crag", "thirteen", "6", "6", "1"), "0"),
            (("crag", "thirteen", "6", "6", "1", "--filled", "crag"), "26"),
            (("general", "full-house", "2", "2", "6", "6", "6"), "30"),
            (("general", "full-house", "2", "2", "6", "6", "6", "--roll", "1"), "35"),
            (("kniffel+sharp", "full-house", "2", "2", "6", "6", "6", "--thrown", "5"), "50"),
            (("kniffel+sharp", "full-house", "2", "2", "6", "6", "6", "--thrown", "2"), "25"),
            (("mickey", "mickey", "1", "2", "3", "4", "5", "--roll", "1"), "0"),
            (("mickey", "mickey", "1", "2", "3", "4", "5", "--roll", "2"), "50"),
        ],
    )
    def test_prints_the_integer(self, args: tuple[str, ...], printed: str) -> None:
        result = run("score", *args)
        assert result.exit_code == 0, result.output
        assert result.stdout == printed + "\n"

    def test_user_file(self) -> None:
        path = str(FIXTURES / "exercism-yacht.toml")
        assert run("score", path, "four-of-a-kind", "3", "3", "3", "3", "3").stdout == "12\n"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("show", "farkle"), "no rule set 'farkle'"),
        (("show", "kniffel+turbo"), "no option 'turbo'"),
        (("score", "farkle", "chance", "1", "2", "3", "4", "5"), "no rule set 'farkle'"),
        (("score", "yahtzee", "yacht", "1", "2", "3", "4", "5"), "no box 'yacht' in yahtzee"),
        (("score", "yahtzee", "chance", "1", "2", "3", "4"), "plays 5 dice, got 4"),
        (("score", "yahtzee", "chance", "1", "2", "3", "4", "7"), "die 5 shows 7"),
        (("score", "yahtzee", "chance", "1", "2", "3", "4", "-1"), "die 5 shows -1"),
        (("score", "yahtzee", "chance", "1", "2", "x", "4", "5"), "not 'x'"),
        (("score", "crag", "crag", "6", "6", "1", "--filled", "nope"), "no box 'nope'"),
        (("score", "general", "straight", "1", "2", "3", "4", "5", "--roll", "0"), "roll must"),
        (("score", "kniffel+croatian", "max-min", "1", "2", "3", "4", "5"), "computed"),
    ],
)
def test_bad_calls_exit_non_zero_with_one_line(args: tuple[str, ...], words: str) -> None:
    message = failed(*args)
    assert message.startswith("Error: ")
    assert words in message


def test_malformed_file_names_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "kniffel"\n[[boxes]]\nid = "ones"\nparams = { face = 9 }\n')
    message = failed("show", str(path))
    assert "house.toml: boxes[0].params.face: must be a face from 1 to 6" in message


def test_toml_syntax_error_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('extends = "kniffel"\ndice 5\n')
    assert "broken.toml: line 2" in failed("score", str(path), "chance", "1", "2", "3", "4", "5")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("score", "yahtzee"), "Missing argument 'CATEGORY'"),
        (("score", "yahtzee", "chance"), "Missing argument 'DICE...'"),
        (("show", "kniffel", "--lang", "fr"), "'fr' is not one of"),
        (("show", "yatzy", "--roll", "3"), "No such option '--roll'"),
        (("score", "general", "straight", "1", "2", "3", "4", "5", "--roll", "one"), "'one'"),
        (("frob",), "No such command 'frob'"),
        ((), "missing command: one of list, score, show"),
    ],
)
def test_usage_mistakes_are_one_line_too(args: tuple[str, ...], words: str) -> None:
    message = failed(*args)
    assert words in message and "--help" in message


@pytest.mark.parametrize(
    "args",
    [
        ("list", "--data-dir", "{}"),
        ("show", "yatzy", "--json", "--data-dir", "{}"),
        ("score", "yahtzee", "chance", "--data-dir", "{}", "1", "2", "3", "4", "5"),
    ],
)
def test_every_rules_command_takes_data_dir(tmp_path: Path, args: tuple[str, ...]) -> None:
    """DESIGN.md: every command takes --data-dir (the rules keep nothing there)."""
    result = run(*(arg.format(tmp_path / "data") for arg in args))
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "data").exists()


def test_show_tells_the_strict_rules() -> None:
    text = run("show", "kniffel+strict").stdout
    assert "strict: top to bottom, no jokers; Chance with a five-of-a-kind = 100; " in text
    assert "a five-of-a-kind counts as a full house" in text
    assert "columns: Score (down)" in text
