"""User files from docs/rulesets.md: Exercism Yacht, the Yatzy kata and a house rule.

The fixtures are shown verbatim in the doc (checked here), so what the doc teaches loads
and scores as it says.
"""

from __future__ import annotations

import doctest
import itertools
import re
import tomllib
from pathlib import Path

import pytest

from dicetray.rules import ScoreContext, load_ruleset
from dicetray.rules.kinds import KINDS
from dicetray.rules.loader import builtin_dir, list_options

FIXTURES = Path(__file__).parent / "fixtures"
DOC = Path(__file__).parents[2] / "docs" / "rulesets.md"

YACHT_CASES = [
    ("yacht", (5, 5, 5, 5, 5), 50),
    ("yacht", (1, 3, 3, 2, 5), 0),
    ("ones", (1, 1, 1, 3, 5), 3),
    ("ones", (3, 1, 1, 5, 1), 3),
    ("ones", (4, 3, 6, 5, 5), 0),
    ("twos", (2, 3, 4, 5, 6), 2),
    ("fours", (1, 4, 1, 4, 1), 8),
    ("threes", (3, 3, 3, 3, 3), 15),
    ("fives", (3, 3, 3, 3, 3), 0),
    ("fives", (1, 5, 3, 5, 3), 10),
    ("sixes", (2, 3, 4, 5, 6), 6),
    ("full-house", (2, 2, 4, 4, 4), 16),
    ("full-house", (5, 3, 3, 5, 3), 19),
    ("full-house", (2, 2, 4, 4, 5), 0),
    ("full-house", (1, 4, 4, 4, 4), 0),
    ("full-house", (2, 2, 2, 2, 2), 0),
    ("four-of-a-kind", (6, 6, 4, 6, 6), 24),
    ("four-of-a-kind", (3, 3, 3, 3, 3), 12),
    ("four-of-a-kind", (3, 3, 3, 5, 5), 0),
    ("little-straight", (3, 5, 4, 1, 2), 30),
    ("big-straight", (1, 2, 3, 4, 5), 0),
    ("little-straight", (1, 1, 2, 3, 4), 0),
    ("little-straight", (1, 2, 3, 4, 6), 0),
    ("little-straight", (1, 1, 3, 4, 5), 0),
    ("big-straight", (4, 6, 2, 5, 3), 30),
    ("little-straight", (6, 5, 4, 3, 2), 0),
    ("big-straight", (6, 5, 4, 3, 1), 0),
    ("choice", (3, 3, 5, 6, 6), 23),
    ("choice", (2, 2, 2, 2, 2), 10),
]

KATA_CASES = [
    ("chance", (2, 3, 4, 5, 1), 15),
    ("chance", (3, 3, 4, 5, 1), 16),
    ("yatzy", (4, 4, 4, 4, 4), 50),
    ("yatzy", (6, 6, 6, 6, 3), 0),
    ("ones", (1, 2, 1, 4, 5), 2),
    ("ones", (6, 2, 2, 4, 5), 0),
    ("twos", (2, 3, 2, 5, 1), 4),
    ("threes", (1, 2, 3, 2, 3), 6),
    ("fours", (4, 4, 4, 5, 5), 12),
    ("fives", (4, 4, 5, 5, 5), 15),
    ("sixes", (6, 5, 6, 6, 5), 18),
    ("pair", (3, 4, 3, 5, 6), 6),
    ("pair", (5, 3, 3, 3, 5), 10),
    ("pair", (5, 3, 6, 6, 5), 12),
    ("pair", (1, 2, 3, 4, 6), 0),
    ("two-pairs", (3, 3, 5, 4, 5), 16),
    ("two-pairs", (3, 3, 5, 5, 5), 16),
    ("two-pairs", (1, 1, 2, 3, 4), 0),
    ("three-of-a-kind", (3, 3, 3, 4, 5), 9),
    ("three-of-a-kind", (5, 3, 5, 4, 5), 15),
    ("three-of-a-kind", (3, 3, 3, 3, 5), 9),
    ("four-of-a-kind", (3, 3, 3, 3, 5), 12),
    ("four-of-a-kind", (5, 5, 5, 4, 5), 20),
    ("four-of-a-kind", (3, 3, 3, 3, 3), 12),
    ("four-of-a-kind", (3, 3, 3, 2, 1), 0),
    ("small-straight", (1, 2, 3, 4, 5), 15),
    ("small-straight", (2, 3, 4, 5, 1), 15),
    ("small-straight", (1, 2, 2, 4, 5), 0),
    ("large-straight", (6, 2, 3, 4, 5), 20),
    ("large-straight", (2, 3, 4, 5, 6), 20),
    ("large-straight", (1, 2, 2, 4, 5), 0),
    ("full-house", (6, 2, 2, 2, 6), 18),
    ("full-house", (2, 3, 4, 5, 6), 0),
    ("full-house", (4, 4, 4, 4, 4), 0),
]


@pytest.mark.parametrize(("box", "dice", "points"), YACHT_CASES)
def test_exercism_yacht(box: str, dice: tuple[int, ...], points: int) -> None:
    assert load_ruleset(FIXTURES / "exercism-yacht.toml").score(box, dice) == points


@pytest.mark.parametrize(("box", "dice", "points"), KATA_CASES)
def test_yatzy_kata(box: str, dice: tuple[int, ...], points: int) -> None:
    assert load_ruleset(FIXTURES / "yatzy-kata.toml").score(box, dice) == points


def test_kata_scores_like_the_built_in_yatzy() -> None:
    """The kata file and the built-in Yatzy agree on every box for every roll."""
    kata, yatzy = load_ruleset(FIXTURES / "yatzy-kata.toml"), load_ruleset("yatzy")
    assert len(kata.boxes) == len(yatzy.boxes)
    for dice in itertools.combinations_with_replacement(range(1, 7), 5):
        for box in kata.box_ids:
            built_in = "one-pair" if box == "pair" else box
            assert kata.score(box, dice) == yatzy.score(built_in, dice), (box, dice)


def test_house_rule_example() -> None:
    ours = load_ruleset(FIXTURES / "our-kniffel.toml")
    assert ours.id == "our-kniffel" and ours.options == ("sharp",)
    assert ours.score("full-house", (2, 2, 3, 3, 3), ScoreContext(thrown=5)) == 60
    assert ours.score("full-house", (2, 2, 3, 3, 3), ScoreContext(thrown=3)) == 30
    assert ours.score("one-pair", (2, 2, 3, 4, 6), ScoreContext(thrown=5)) == 34
    assert "chance" not in ours.box_ids
    assert ours.box_ids.index("one-pair") == ours.box_ids.index("three-of-a-kind") - 1
    assert ours.upper_bonus is not None and ours.upper_bonus.threshold == 60


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


class TestDoc:
    @pytest.mark.parametrize("name", ["exercism-yacht", "yatzy-kata", "our-kniffel"])
    def test_fixtures_are_shown_verbatim(self, doc: str, name: str) -> None:
        text = (FIXTURES / f"{name}.toml").read_text(encoding="utf-8")
        assert f"```toml\n{text}```" in doc

    def test_every_toml_block_is_valid_toml(self, doc: str) -> None:
        for block in re.findall(r"```toml\n(.*?)```", doc, re.S):
            tomllib.loads(block)

    def test_complete_file_example_loads(self, doc: str, tmp_path: Path) -> None:
        block = doc.split("## A complete file")[1].split("```toml\n")[1].split("```")[0]
        path = tmp_path / "tiny.toml"
        path.write_text(block, encoding="utf-8")
        assert load_ruleset(path).box_ids == ("sixes", "chance")

    def test_option_example_is_the_real_file(self, doc: str) -> None:
        real = (builtin_dir() / "options" / "sharp.toml").read_text(encoding="utf-8")
        shown = real.split("\n", 1)[1]  # the file's first line is a comment
        assert f"```toml\n{shown}```" in doc

    def test_every_kind_option_and_setting_is_documented(self, doc: str) -> None:
        for kind in KINDS.values():
            assert f"| `{kind.name}` |" in doc, kind.name
            for param in kind.params:
                assert f"`{param.name}`" in doc, (kind.name, param.name)
        for option in list_options():
            assert f"| `{option}` |" in doc, option
        from dicetray.rules.loader import BOX_KEYS, SETTINGS, TABLES

        for key in [*SETTINGS, *TABLES, *BOX_KEYS, "remove_boxes", "extends", "options"]:
            assert f"`{key}`" in doc, key
        for table, keys in TABLES.items():
            for key in keys:
                assert f"`{key}`" in doc, (table, key)

    def test_tables_are_whole(self, doc: str) -> None:
        """A table row follows a row or a blank line (else it renders as text)."""
        lines = doc.splitlines()
        for before, line in itertools.pairwise(lines):
            if line.startswith("|"):
                assert before.startswith("|") or not before.strip(), line

    def test_python_examples_run(self, doc: str) -> None:
        blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for number, block in enumerate(blocks):
            test = doctest.DocTestParser().get_doctest(block, {}, f"block {number}", str(DOC), 0)
            runner.run(test)
        assert blocks and runner.summarize(verbose=False).failed == 0
