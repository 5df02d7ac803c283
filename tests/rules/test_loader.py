"""Loading rule sets: ids, combinations, user files with extends/options, and validation."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dicetray.rules import RuleSetError, UnknownRuleSet, list_rulesets, load_ruleset
from dicetray.rules.loader import builtin_dir, list_options, option_info

MINIMAL = """\
names = { en = "Tiny", de = "Winzig" }
dice = 5
faces = 6
rolls = 3

[[boxes]]
id = "sixes"
kind = "upper"
names = { en = "Sixes", de = "Sechser" }
params = { face = 6 }
"""


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def refused(path: Path) -> RuleSetError:
    with pytest.raises(RuleSetError) as caught:
        load_ruleset(path)
    return caught.value


class TestIds:
    def test_unknown_id_lists_the_known_ones(self) -> None:
        with pytest.raises(UnknownRuleSet, match=r"no rule set 'farkle'.*kniffel"):
            load_ruleset("farkle")

    def test_unknown_option(self) -> None:
        with pytest.raises(UnknownRuleSet, match=r"no option 'turbo'.*sharp"):
            load_ruleset("kniffel+turbo")

    def test_missing_file(self, tmp_path: Path) -> None:
        with pytest.raises(UnknownRuleSet, match="no rule-set file"):
            load_ruleset(tmp_path / "nowhere.toml")

    def test_empty_combination_part(self) -> None:
        with pytest.raises(UnknownRuleSet):
            load_ruleset("+sharp")

    def test_built_ins_are_shared_but_equal_to_a_fresh_load(self) -> None:
        assert load_ruleset("yatzy") is load_ruleset("yatzy")
        assert load_ruleset(builtin_dir() / "yatzy.toml").boxes == load_ruleset("yatzy").boxes


class TestCombinations:
    def test_options_apply_left_to_right(self) -> None:
        rule_set = load_ruleset("kniffel+sharp+full-cup")
        assert rule_set.id == "kniffel+sharp+full-cup"
        assert rule_set.options == ("sharp", "full-cup")
        assert rule_set.hold == "none"
        assert rule_set.sharp is not None and rule_set.sharp.factor == 2
        assert rule_set.name() == "Kniffel + Sharp throws + Full cup"
        assert rule_set.name("de") == "Kniffel + Scharfe Würfe + Voller Becher"

    def test_sharp_doubles_the_patterns_only(self) -> None:
        sharp = load_ruleset("kniffel+sharp").sharp
        assert sharp is not None
        assert sharp.boxes == (
            "three-of-a-kind",
            "four-of-a-kind",
            "full-house",
            "small-straight",
            "large-straight",
            "kniffel",
        )

    def test_sharp_covers_boxes_added_by_later_options(self) -> None:
        sharp = load_ruleset("kniffel+sharp+pairs").sharp
        assert sharp is not None and "two-pairs" in sharp.boxes

    def test_croatian_sheet(self) -> None:
        croatian = load_ruleset("kniffel+croatian")
        assert croatian.box_ids[6:9] == ("maximum", "minimum", "max-min")
        assert "chance" not in croatian.box_ids
        assert croatian.computed_ids == ("max-min",)
        assert croatian.score("maximum", [6, 6, 5, 5, 4]) == 26
        assert croatian.box("max-min").compute({"maximum": 26, "minimum": 8, "ones": 3}) == 54
        assert croatian.upper_bonus is not None
        assert croatian.upper_bonus.boxes == ("ones", "twos", "threes", "fours", "fives", "sixes")

    def test_pairs_go_before_three_of_a_kind(self) -> None:
        pairs = load_ruleset("kniffel+pairs")
        assert pairs.box_ids[6:9] == ("one-pair", "two-pairs", "three-of-a-kind")
        assert pairs.score("one-pair", [2, 2, 3, 4, 6]) == 17
        assert pairs.score("two-pairs", [2, 2, 4, 4, 6]) == 18
        assert pairs.score("two-pairs", [2, 2, 2, 2, 6]) == 0
        assert pairs.box("one-pair").name("de") == "Zweierpasch"

    def test_strict(self) -> None:
        strict = load_ruleset("kniffel+strict")
        assert strict.strict is not None and strict.strict.chance_five_of_a_kind == 100
        assert strict.extra.mode == "none"

    @pytest.mark.parametrize(
        ("option", "orders"),
        [
            ("columns", ("down", "up", "announce", "free")),
            ("columns-3", ("down", "up", "free")),
        ],
    )
    def test_columns(self, option: str, orders: tuple[str, ...]) -> None:
        columns = load_ruleset(f"kniffel+{option}").columns
        assert tuple(c.order for c in columns) == orders
        assert tuple(c.id for c in columns) == orders
        assert columns[0].name("de") == "Runter"

    def test_single_setting_options(self) -> None:
        assert load_ruleset("kniffel+save-rolls").save_rolls is True
        assert load_ruleset("kniffel+swiss").scratch == "swiss"
        assert load_ruleset("yatzy+full-cup").hold == "none"

    def test_default_column(self) -> None:
        columns = load_ruleset("kniffel").columns
        assert [(c.id, c.order) for c in columns] == [("main", "free")]

    @pytest.mark.parametrize("option", list_options())
    def test_every_option_has_names_and_a_description(self, option: str) -> None:
        info = option_info(option)
        assert set(info.names) >= {"en", "de"}
        assert info.description == info.describe("en")
        assert info.describe("de") not in ("", info.description)

    @pytest.mark.parametrize("ruleset", list_rulesets())
    def test_every_built_in_set_is_described_in_english_and_german(self, ruleset: str) -> None:
        rules = load_ruleset(ruleset)
        assert rules.description == rules.describe("en") == rules.descriptions["en"]
        assert rules.describe("de") not in ("", rules.description)
        assert rules.describe("fr") == rules.description  # no French: English

    def test_option_referring_to_a_missing_box_is_refused(self) -> None:
        with pytest.raises(RuleSetError, match=r"pairs\.toml: boxes\[0\]\.before: no box"):
            load_ruleset("mickey+pairs")


class TestUserFiles:
    def test_complete_file(self, tmp_path: Path) -> None:
        rule_set = load_ruleset(write(tmp_path, MINIMAL, "tiny.toml"))
        assert rule_set.id == "tiny"
        assert rule_set.box_ids == ("sixes",)
        assert (rule_set.hold, rule_set.extra.mode, rule_set.upper_bonus) == ("free", "none", None)
        assert rule_set.source.endswith("tiny.toml")

    def test_string_path_works_too(self, tmp_path: Path) -> None:
        path = write(tmp_path, MINIMAL)
        assert load_ruleset(str(path)).names["de"] == "Winzig"

    def test_a_description_is_a_string_or_a_table_by_language(self, tmp_path: Path) -> None:
        plain = load_ruleset(write(tmp_path, 'extends = "yacht"\ndescription = "Ours."\n'))
        assert (plain.describe("en"), plain.describe("de")) == ("Ours.", "Ours.")
        both = load_ruleset(write(
            tmp_path, 'extends = "yacht"\ndescription = { en = "Ours.", de = "Unsere." }\n'))
        assert (both.describe("en"), both.describe("de")) == ("Ours.", "Unsere.")
        assert both.to_dict()["descriptions"] == {"en": "Ours.", "de": "Unsere."}

    def test_english_names_only_fall_back(self, tmp_path: Path) -> None:
        text = MINIMAL.replace(', de = "Sechser"', "").replace(', de = "Winzig"', "")
        rule_set = load_ruleset(write(tmp_path, text))
        assert rule_set.box("sixes").name("de") == "Sixes"
        assert rule_set.name("de") == "Tiny"

    def test_extends_changes_adds_moves_and_removes(self, tmp_path: Path) -> None:
        path = write(
            tmp_path,
            """
            extends = "kniffel"
            options = ["sharp"]
            id = "ours"
            upper_bonus = { threshold = 60 }
            remove_boxes = ["chance"]

            [[boxes]]
            id = "full-house"
            params = { points = 30 }

            [[boxes]]
            id = "kniffel"
            before = "three-of-a-kind"

            [[boxes]]
            id = "one-pair"
            kind = "n-of-a-kind"
            names = { en = "One pair", de = "Zweierpasch" }
            params = { n = 2 }
            """,
        )
        rule_set = load_ruleset(path)
        assert rule_set.id == "ours"
        assert rule_set.options == ("sharp",)
        assert rule_set.upper_bonus is not None
        assert (rule_set.upper_bonus.threshold, rule_set.upper_bonus.points) == (60, 35)
        assert rule_set.box_ids[6:] == (
            "kniffel",
            "three-of-a-kind",
            "four-of-a-kind",
            "full-house",
            "small-straight",
            "large-straight",
            "one-pair",
        )
        assert rule_set.score("full-house", [1, 1, 2, 2, 2]) == 30
        assert rule_set.box("full-house").params["groups"] == [3, 2]
        assert rule_set.name() == "Kniffel + Sharp throws"
        assert rule_set.extra.mode == "kniffel"
        assert rule_set.sharp is not None and "one-pair" in rule_set.sharp.boxes

    def test_changing_the_kind_drops_the_old_params(self, tmp_path: Path) -> None:
        path = write(
            tmp_path,
            """
            extends = "yatzy"
            [[boxes]]
            id = "one-pair"
            kind = "chance"
            """,
        )
        assert load_ruleset(path).score("one-pair", [1, 2, 3, 4, 6]) == 16

    def test_extends_a_file_relative_to_this_one(self, tmp_path: Path) -> None:
        write(tmp_path, MINIMAL, "tiny.toml")
        (tmp_path / "sub").mkdir()
        path = write(tmp_path, 'extends = "../tiny.toml+full-cup"\nrolls = 2\n', "sub/two.toml")
        rule_set = load_ruleset(path)
        assert (rule_set.id, rule_set.rolls, rule_set.hold) == ("two", 2, "none")
        assert rule_set.box_ids == ("sixes",)

    def test_policies_can_be_switched_off(self, tmp_path: Path) -> None:
        path = write(tmp_path, 'extends = "kniffel+sharp"\nsharp = false\nupper_bonus = false\n')
        rule_set = load_ruleset(path)
        assert (rule_set.sharp, rule_set.upper_bonus) == (None, None)

    def test_file_plus_option(self, tmp_path: Path) -> None:
        path = write(tmp_path, MINIMAL)
        assert load_ruleset(f"{path}+swiss").scratch == "swiss"


ERRORS = [
    # (file text, key, words in the problem)
    ('extends = "kniffel"\ncolour = 1\n', "colour", "unknown key"),
    ('extends = "kniffel"\ndice = "five"\n', "dice", "whole number"),
    ('extends = "kniffel"\ndice = 0\n', "dice", "must be 1 to 12"),
    ('extends = "kniffel"\nhold = "sticky"\n', "hold", "one of 'free', 'locked', 'none'"),
    ('extends = "kniffel"\nsave_rolls = "yes"\n', "save_rolls", "true or false"),
    ('extends = "kniffel"\nplayers = [3, 2]\n', "players", "fewest"),
    ('extends = "kniffel"\nplayers = [1, 12]\n', "players", "most <= 8"),
    ('extends = "kniffel"\nfive_of_a_kind = "chance"\n', "five_of_a_kind", "kind 'all-equal'"),
    ('extends = "kniffel"\n[[boxes]]\nid = "ones"\nkind = ["upper"]\n', "boxes[0].kind", "unknown"),
    (
        'extends = "ohio"\n[[boxes]]\nid = "ohio"\nparams = { all_faces = -40 }\n',
        "boxes[0].params.all_faces",
        "at least 0",
    ),
    (
        'extends = "crag"\n[[boxes]]\nid = "s"\nkind = "mickey-straight"\nnames = { en = "S" }\n',
        "boxes[0].kind",
        "needs 4 dice but the game has 3",
    ),
    ('extends = "kniffel"\ndice = 3\n', "dice", "does not suit box 'four-of-a-kind'"),
    ('extends = "kniffel"\nfaces = 4\n', "faces", "does not suit box 'fives'"),
    ('extends = "kniffel+columns"\nstrict = {}\n', "strict", "columns ordered otherwise"),
    ('extends = "kniffel"\nnames = { de = "X" }\n', "names", "English name"),
    ('extends = "kniffel"\nnames = "X"\n', "names", "table of names"),
    ('extends = "kniffel"\nfive_of_a_kind = "poker"\n', "five_of_a_kind", "no box 'poker'"),
    ('extends = "kniffel"\nextra = { mode = "double" }\n', "extra.mode", "one of"),
    ('extends = "kniffel"\nextra = { bonsu = 5 }\n', "extra.bonsu", "unknown key"),
    (
        'extends = "kniffel"\nupper_bonus = { threshold = 63, points = 35, boxes = ["eights"] }\n',
        "upper_bonus.boxes",
        "no box 'eights'",
    ),
    (
        'extends = "yatzy"\nupper_bonus = { threshold = 63, points = "many" }\n',
        "upper_bonus.points",
        "whole number",
    ),
    ('extends = "yacht"\nupper_bonus = { points = 35 }\n', "upper_bonus.threshold", "missing"),
    (
        'extends = "kniffel"\nsharp = { boxes = ["chance", "nope"] }\n',
        "sharp.boxes",
        "no box 'nope'",
    ),
    ('extends = "kniffel"\nsharp = { factor = 3 }\n', "sharp.boxes", "missing"),
    ('extends = "ohio"\nextra = { mode = "forced-joker" }\n', "extra.mode", "five_of_a_kind"),
    ('extends = "kniffel"\nremove_boxes = ["bonus"]\n', "remove_boxes[0]", "no box 'bonus'"),
    ('extends = "kniffel"\nremove_boxes = ["kniffel"]\n', "remove_boxes[0]", "five_of_a_kind"),
    ('extends = "kniffel"\noptions = ["turbo"]\n', "options", "no option 'turbo'"),
    ('extends = "kniffel"\noptions = "sharp"\n', "options", "list of option ids"),
    ('extends = "nonesuch"\n', "extends", "no rule set 'nonesuch'"),
    ("extends = 5\n", "extends", "rule-set id"),
    ('names = { en = "X" }\ndice = 5\nrolls = 3\n', "faces", "missing"),
    ('names = { en = "X" }\ndice = 5\nfaces = 6\nrolls = 3\n', "boxes", "no box"),
    (
        'extends = "kniffel"\n[[columns]]\nid = "a"\norder = "sideways"\nnames = { en = "A" }\n',
        "columns[0].order",
        "one of",
    ),
    ('extends = "kniffel"\n[[columns]]\nid = "a"\norder = "up"\n', "columns[0].names", "missing"),
    (
        'extends = "kniffel"\n[[columns]]\nid = "a"\norder = "up"\nnames = { en = "A" }\n'
        '[[columns]]\nid = "a"\norder = "down"\nnames = { en = "B" }\n',
        "columns[1].id",
        "duplicate column id 'a'",
    ),
    ('extends = "kniffel"\n[[boxes]]\nkind = "chance"\n', "boxes[0].id", "missing"),
    ('extends = "kniffel"\n[[boxes]]\nid = "Big One"\n', "boxes[0].id", "kebab-case"),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "x"\nkind = "chance"\n',
        "boxes[0].names",
        "missing for new box 'x'",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "x"\nnames = { en = "X" }\n',
        "boxes[0].kind",
        "missing",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "x"\nkind = "poker"\nnames = { en = "X" }\n',
        "boxes[0].kind",
        "unknown kind 'poker'",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "ones"\ncolour = "red"\n',
        "boxes[0].colour",
        "unknown key",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "ones"\nsection = "middle"\n',
        "boxes[0].section",
        "one of",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "ones"\nsection = "computed"\n',
        "boxes[0].section",
        "needs section upper or lower",
    ),
    ('extends = "kniffel"\n[[boxes]]\nid = "ones"\nserved = -5\n', "boxes[0].served", "0 or more"),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "ones"\nparams = { face = 9 }\n',
        "boxes[0].params.face",
        "from 1 to 6",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "ones"\nparams = 1\n',
        "boxes[0].params",
        "must be a table",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "w"\nkind = "n-of-a-kind"\nnames = { en = "W" }\n',
        "boxes[0].params.n",
        "needs this parameter",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "a"\nkind = "chance"\nnames = { en = "A" }\n'
        '[[boxes]]\nid = "b"\nkind = "chance"\nnames = { en = "B" }\n'
        '[[boxes]]\nid = "c"\nkind = "chance"\nnames = { en = "C" }\n'
        '[[boxes]]\nid = "d"\nkind = "n-of-a-kind"\nnames = { en = "D" }\nparams = { n = 9 }\n',
        "boxes[3].params.n",
        "needs 9 dice but the game has 5",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "x"\nkind = "chance"\nnames = { en = "X" }\n'
        'after = "nope"\n',
        "boxes[0].after",
        "no box 'nope'",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "ones"\nafter = "twos"\nbefore = "twos"\n',
        "boxes[0].after",
        "not both",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "ones"\nnames = { en = "1" }\n'
        '[[boxes]]\nid = "ones"\nnames = { en = "One" }\n',
        "boxes[1].id",
        "duplicate box id 'ones'",
    ),
    ('extends = "kniffel"\nboxes = 3\n', "boxes", "array of tables"),
    ('extends = "kniffel"\ndescription = 3\n', "description", "a string or a table"),
    ('extends = "kniffel"\ndescription = { de = "Nur Deutsch" }\n', "description",
     "needs an English description (en)"),
    (
        'extends = "crag"\n[[boxes]]\nid = "thirteen"\nparams = { crag_box = "krag" }\n',
        "boxes[0].params.crag_box",
        "no box 'krag'",
    ),
    (
        'extends = "kniffel+croatian"\n[[boxes]]\nid = "max-min"\n'
        'params = { multiplier = "max-min" }\n',
        "boxes[0].params.multiplier",
        "itself",
    ),
    (
        'extends = "kniffel"\n[[boxes]]\nid = "m"\nkind = "max-min"\nnames = { en = "M" }\n',
        "boxes[0].params.maximum",
        "no box 'maximum'",
    ),
]


@pytest.mark.parametrize(("text", "key", "words"), ERRORS)
def test_malformed_files_name_file_key_and_problem(
    tmp_path: Path, text: str, key: str, words: str
) -> None:
    error = refused(write(tmp_path, text))
    assert error.path.endswith("house.toml")
    assert error.key == key
    assert words in error.problem
    assert str(error) == f"{error.path}: {key}: {error.problem}"


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    error = refused(write(tmp_path, 'extends = "kniffel"\n\ndice 5\n'))
    assert error.key.startswith("line 3")
    assert "TOML syntax error" in error.problem


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes('names = { en = "Gr\xf6\xdfe" }\n'.encode("latin-1"))
    assert "cannot read" in refused(path).problem


def test_a_byte_order_mark_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "notepad.toml"
    path.write_bytes('\ufeffextends = "kniffel"\r\nrolls = 2\r\n'.encode())
    assert load_ruleset(path).rolls == 2


def test_extends_cycle_is_refused(tmp_path: Path) -> None:
    write(tmp_path, 'extends = "b.toml"\n', "a.toml")
    write(tmp_path, 'extends = "a.toml"\n', "b.toml")
    error = refused(tmp_path / "a.toml")
    assert error.key == "extends" and "cycle" in error.problem


def test_error_in_the_base_names_the_base(tmp_path: Path) -> None:
    write(tmp_path, MINIMAL.replace("face = 6", "face = 60"), "base.toml")
    path = write(tmp_path, 'extends = "base.toml"\n')
    error = refused(path)
    assert error.path.endswith("base.toml")
    assert error.key == "boxes[0].params.face"


def test_a_setting_that_breaks_a_base_box_blames_the_setting(tmp_path: Path) -> None:
    """The base's box was right for its own game: the file that changed the dice is wrong."""
    error = refused(write(tmp_path, 'extends = "mickey"\ndice = 3\n'))
    assert (Path(error.path).name, error.key) == ("house.toml", "dice")
    assert "mickey.toml (boxes[6].kind: needs 4 dice but the game has 3)" in error.problem
    # a box the same file writes for its own dice is blamed itself
    text = 'extends = "kniffel"\ndice = 3\n[[boxes]]\nid = "four-of-a-kind"\nparams = { n = 4 }\n'
    error = refused(write(tmp_path, text))
    assert error.key == "boxes[0].params.n"


def test_strict_orders_the_one_column_down() -> None:
    assert [(c.id, c.order) for c in load_ruleset("kniffel+strict").columns] == [("main", "down")]
    with pytest.raises(RuleSetError, match=r"strict: fills the boxes top to bottom.*up, announce"):
        load_ruleset("kniffel+strict+columns")


def test_option_files_cannot_extend(tmp_path: Path) -> None:
    option = write(tmp_path, 'extends = "yatzy"\n', "opt.toml")
    with pytest.raises(RuleSetError, match=r"opt\.toml: extends: an option file cannot"):
        load_ruleset(f"kniffel+{option}")


def test_option_file_by_path(tmp_path: Path) -> None:
    option = write(tmp_path, 'names = { en = "Two rolls" }\nrolls = 2\n', "two-rolls.toml")
    rule_set = load_ruleset(f"kniffel+{option}")
    assert rule_set.rolls == 2
    assert rule_set.options == ("two-rolls",)
    assert rule_set.name() == "Kniffel + Two rolls"
