"""Rule-set files, names and options fed hostile input (issue 25, classes 2, 4 and 5).

Each batch is loaded in a child process under the memory and time limits of
conftest.py: a file must load or be refused with a RulesError, never crash, and never
take gigabytes or minutes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

SLOW = settings(max_examples=5, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

BOX = '{{ id = "b{0}", kind = "chance", names = {{ en = "B{0}" }} }}'

# A full house of twelve groups: the search for the best groups took factorial time.
TWELVE_GROUPS = ('extends = "yahtzee"\ndice = 12\nfaces = 20\n[[boxes]]\nid = "full-house"\n'
                 'params = { groups = [1,1,1,1,1,1,1,1,1,1,1,1], score = "used" }\n')

# The issue's cases that must be refused, each a class of its own: (file name, content).
SEEDS: dict[str, str | bytes] = {
    "dotted-key.toml": "a" + ".a" * 40_000 + " = 1\n",
    "dotted-table.toml": "[" + ".".join(["t"] * 5_000) + "]\n",
    "nested-arrays.toml": "x = " + "[" * 500 + "]" * 500 + "\n",
    "nested-tables.toml": "x = " + "{a = " * 400 + "1" + "}" * 400 + "\n",
    "long-int.toml": 'extends = "yahtzee"\ngames_per_match = ' + "9" * 5_000 + "\n",
    "int-65-bits.toml": 'extends = "yahtzee"\ngames_per_match = 36893488147419103232\n',
    "many-boxes.toml": 'extends = "yahtzee"\nboxes = ['
                       + ", ".join(BOX.format(i) for i in range(4_000)) + "]\n",
    "long-extends.toml": 'extends = "' + "a" * 300 + '"\n',
    "long-option.toml": 'extends = "yahtzee"\noptions = ["' + "o" * 300 + '"]\n',
    "long-path-extends.toml": 'extends = "' + "d/" * 3_000 + 'x.toml"\n',
    "nul-extends.toml": 'extends = "a\\u0000b.toml"\n',
    "many-options.toml": 'extends = "yahtzee"\noptions = [' + ", ".join(['"sharp"'] * 100) + "]\n",
    "self-extends.toml": 'extends = "self-extends.toml"\n',
    "not-utf8.toml": b'extends = "yahtzee"\ndescription = "caf\xe9"\n',
    "deep-params.toml": 'extends = "yahtzee"\n[[boxes]]\nid = "chance"\nparams = { x = '
                        + "[" * 100 + "]" * 100 + " }\n",
}


def _write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def test_every_seed_of_the_issue_is_refused_cleanly(load_each: Callable,
                                                    tmp_path: Path) -> None:
    paths = [_write(tmp_path, name, content) for name, content in SEEDS.items()]
    os.mkfifo(tmp_path / "fifo.toml")
    with open(tmp_path / "huge.toml", "wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: no room taken on the disk
    paths += [tmp_path / "fifo.toml", tmp_path / "huge.toml", Path("/dev/zero"),
              tmp_path / "folder.toml"]
    (tmp_path / "folder.toml").mkdir()
    outcomes = load_each("ruleset", [str(p) for p in paths])
    by_name = {Path(o["path"]).name: o for o in outcomes}
    assert all(o["outcome"] == "error" for o in outcomes), [
        o for o in outcomes if o["outcome"] != "error"]
    assert "more than 16 parts" in by_name["dotted-key.toml"]["message"]
    assert "nested too deeply" in by_name["nested-arrays.toml"]["message"]
    assert "4,300 digits" in by_name["long-int.toml"]["message"]
    assert "64-bit" in by_name["int-65-bits.toml"]["message"]
    assert "more than 100 boxes" in by_name["many-boxes.toml"]["message"]
    assert "not a regular file" in by_name["fifo.toml"]["message"]
    assert "not a regular file" in by_name["zero"]["message"]
    assert "larger than" in by_name["huge.toml"]["message"]
    assert "(300 characters)" in by_name["long-extends.toml"]["message"]


def test_twelve_groups_of_one_score_at_once(tmp_path: Path, dicetray: Callable) -> None:
    path = _write(tmp_path, "twelve.toml", TWELVE_GROUPS)
    done = dicetray("rules", "score", str(path), "full-house", *map(str, range(20, 8, -1)))
    assert (done.status, done.out) == (0, f"{sum(range(9, 21))}\n"), done


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["show", "a" * 300], "no rule set 'aaaa"),
        (["show", "yahtzee+" + "o" * 300], "no option 'oooo"),
        (["show", "yahtzee+" + "+".join(["sharp"] * 40)], "more than 16 options"),
        (["show", "/dev/zero"], "not a regular file"),
        (["show", "yahtzee+/dev/zero"], "not a regular file"),
        (["show", "./" + "x" * 300 + ".toml"], "File name too long"),
        (["score", "yahtzee", "chance", "1", "2", "3", "4", "5", "--thrown", "99"],
         "at most the 5 dice, not 99"),
        (["score", "yahtzee", "chance", "1", "2", "3", "4", "5", "--roll", "x"],
         "'--roll': 'x' is not a valid integer"),
        (["show", "--frobnicate", "yahtzee"], "No such option"),
    ],
)
def test_command_line_mistakes_are_one_line(dicetray: Callable, args: list[str],
                                            needle: str) -> None:
    done = dicetray("rules", *args)
    assert done.out == ""
    done.assert_one_error_line(needle)


# -- random rule-set text ----------------------------------------------------------------

_KEY = st.one_of(st.sampled_from(["dice", "faces", "rolls", "boxes", "extends", "options",
                                  "names", "params", "id", "kind", "groups", "upper_bonus"]),
                 st.from_regex(r"[a-z_]{1,6}", fullmatch=True))
_SCALAR = st.one_of(st.integers(-(2 ** 70), 2 ** 70).map(str), st.just("9" * 4_400),
                    st.sampled_from(['"yahtzee"', '"kniffel+sharp"', "true", '"/dev/zero"',
                                     '"../x.toml"', '"' + "n" * 300 + '"', "1.5"]))


@st.composite
def _value(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 3 or draw(st.booleans()):
        return draw(_SCALAR)
    items = draw(st.lists(_value(depth + 1), max_size=4))
    if draw(st.booleans()):
        return "[" + ", ".join(items) + "]"
    keys = draw(st.lists(_KEY, min_size=len(items), max_size=len(items), unique=True))
    return "{" + ", ".join(f"{k} = {v}" for k, v in zip(keys, items, strict=True)) + "}"


@st.composite
def rule_text(draw: st.DrawFn) -> bytes:
    """TOML-like text: random keys (some dotted, some many parts), values, tables and
    repeats, sometimes spoilt by random bytes."""
    lines = ['extends = "yahtzee"'] if draw(st.booleans()) else []
    for _ in range(draw(st.integers(0, 8))):
        parts = draw(st.lists(_KEY, min_size=1, max_size=draw(st.sampled_from([3, 30]))))
        line = ".".join(parts) + " = " + draw(_value())
        if draw(st.integers(0, 9)) == 0:
            line = "[[" + ".".join(parts) + "]]"
        lines.append(line * draw(st.sampled_from([1, 1, 1, 50])))
    text = ("\n".join(lines) + "\n").encode()
    if draw(st.integers(0, 4)) == 0:
        spoil = draw(st.binary(max_size=40))
        where = draw(st.integers(0, len(text)))
        text = text[:where] + spoil + text[where:]
    return text


@SLOW
@given(texts=st.lists(rule_text(), min_size=1, max_size=30))
@example(texts=[SEEDS["dotted-key.toml"].encode(), TWELVE_GROUPS.encode()])
def test_random_rule_set_files_load_or_are_refused_cleanly(
    load_each: Callable, tmp_path_factory: pytest.TempPathFactory, texts: list[bytes],
) -> None:
    folder = tmp_path_factory.mktemp("rules")
    paths = [str(_write(folder, f"r{i}.toml", text)) for i, text in enumerate(texts)]
    outcomes = load_each("ruleset", paths)
    assert {o["outcome"] for o in outcomes} <= {"ok", "error"}
