"""The score sheet: legal entries, extra five-of-a-kind rules, order rules, totals, undo."""

from __future__ import annotations

import pytest

from dicetray.rules import (
    BoxFilled,
    DeclarationError,
    InvalidDice,
    OrderViolation,
    ScoreContext,
    UnknownBox,
    load_ruleset,
)
from dicetray.rules.sheet import (
    ColumnError,
    Entry,
    ExtraRuleError,
    ScratchError,
    Sheet,
    UndoError,
)
from dicetray.rules.turn import Declaration

FIVE_SIXES = (6, 6, 6, 6, 6)
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
NOTHING = (1, 2, 4, 5, 6)  # no pair, no small straight: scratches most lower boxes


def sheet_for(ruleset_id: str) -> Sheet:
    return Sheet(load_ruleset(ruleset_id))


def offered(sheet: Sheet, dice, ctx=None, declared=None) -> dict[str, tuple[int, int]]:
    """Box -> (points, extra) of every option (one-column sheets)."""
    return {e.box: (e.points, e.extra) for e in sheet.options(dice, ctx, declared)}


def scratch_all_but(sheet: Sheet, keep: set[str], dice=(1, 1, 2, 2, 3)) -> None:
    """Fill every box except ``keep`` with ``dice`` (whatever they score)."""
    for box in sheet.open_boxes():
        if box not in keep:
            sheet.record(box, dice)


class TestOptionsAndRecord:
    def test_every_open_box_is_offered_on_a_fresh_sheet(self) -> None:
        sheet = sheet_for("yahtzee")
        assert [e.box for e in sheet.options((1, 2, 3, 4, 5))] == list(sheet.scorable)

    def test_options_score_like_the_rule_set(self) -> None:
        sheet = sheet_for("yahtzee")
        got = offered(sheet, (3, 3, 3, 5, 5))
        assert got["full-house"] == (25, 0)
        assert got["threes"] == (9, 0)
        assert got["three-of-a-kind"] == (19, 0)
        assert got["yahtzee"] == (0, 0)

    def test_record_returns_the_entry_and_closes_the_box(self) -> None:
        sheet = sheet_for("yahtzee")
        entry = sheet.record("chance", (1, 2, 3, 4, 6))
        assert entry == Entry("main", "chance", 16, 0, (1, 2, 3, 4, 6))
        assert sheet.entry("chance") == entry
        assert "chance" not in sheet.open_boxes()
        assert "chance" not in offered(sheet, (1, 2, 3, 4, 6))

    def test_filled_box_is_refused(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("sixes", FIVE_SIXES)
        with pytest.raises(BoxFilled, match="sixes already holds 30"):
            sheet.record("sixes", FIVE_SIXES)

    def test_unknown_box_is_refused(self) -> None:
        with pytest.raises(UnknownBox, match="no box 'kniffel'"):
            sheet_for("yahtzee").record("kniffel", FIVE_SIXES)

    @pytest.mark.parametrize("dice", [(1, 2, 3, 4, 7), (0, 1, 2, 3, 4), (1, 2, 3, 4)])
    def test_bad_dice_are_refused(self, dice) -> None:
        with pytest.raises(InvalidDice):
            sheet_for("yahtzee").record("chance", dice)

    def test_a_scratch_scores_zero(self) -> None:
        sheet = sheet_for("yahtzee")
        assert sheet.record("large-straight", (1, 1, 2, 2, 3)).points == 0

    def test_no_box_is_refused_except_with_extra_turn(self) -> None:
        with pytest.raises(UnknownBox, match="name a box"):
            sheet_for("yahtzee").record(None, FIVE_SIXES)


class TestUndo:
    def test_pop_reopens_the_box(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("chance", (6, 6, 5, 5, 4))
        sheet.record("fives", (6, 6, 5, 5, 4))
        assert sheet.pop().box == "fives"
        assert sheet.open_boxes()[4] == "fives"
        assert sheet.total == 26

    def test_pop_on_an_empty_sheet(self) -> None:
        with pytest.raises(UndoError):
            sheet_for("yahtzee").pop()


class TestUpperBonus:
    @pytest.mark.parametrize(
        ("ruleset_id", "per_box", "bonus"),
        [("yahtzee", 3, 35), ("kniffel", 3, 35), ("yatzy", 3, 50), ("maxi-yatzy", 4, 100)],
    )
    def test_threshold_reached_exactly(self, ruleset_id: str, per_box: int, bonus: int) -> None:
        sheet = sheet_for(ruleset_id)
        dice_count = sheet.ruleset.dice
        for face, box in enumerate(UPPER, 1):
            other = 6 if face == 1 else 1
            sheet.record(box, (face,) * per_box + (other,) * (dice_count - per_box))
        assert sheet.totals().upper == 21 * per_box
        assert sheet.totals().upper_bonus == bonus

    def test_one_short_of_84_earns_nothing_in_maxi_yatzy(self) -> None:
        sheet = sheet_for("maxi-yatzy")
        for face, box in enumerate(UPPER, 1):
            count = 3 if face == 1 else 4
            other = 6 if face == 1 else 1
            sheet.record(box, (face,) * count + (other,) * (6 - count))
        assert sheet.totals().upper == 83
        assert sheet.totals().upper_bonus == 0

    def test_zeros_are_allowed(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("ones", (2, 2, 2, 2, 2))
        for face, box in enumerate(UPPER[1:], 2):
            sheet.record(box, (face,) * 4 + (1,))
        assert sheet.totals().upper == 80
        assert sheet.totals().upper_bonus == 35


class TestSeedFacts:
    def test_yahtzee_max_without_bonuses_is_375(self) -> None:
        sheet = sheet_for("yahtzee")
        for face, box in enumerate(UPPER, 1):
            sheet.record(box, (face,) * 5)
        sheet.record("three-of-a-kind", FIVE_SIXES)
        sheet.record("four-of-a-kind", FIVE_SIXES)
        sheet.record("full-house", (6, 6, 6, 5, 5))
        sheet.record("small-straight", (1, 2, 3, 4, 6))
        sheet.record("large-straight", (2, 3, 4, 5, 6))
        sheet.record("chance", FIVE_SIXES)
        sheet.record("yahtzee", FIVE_SIXES)
        assert sheet.full
        assert sheet.total == 375

    def test_yahtzee_max_with_twelve_bonuses_is_1575(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("yahtzee", FIVE_SIXES)
        for face, box in enumerate(UPPER, 1):
            assert [e.box for e in sheet.options((face,) * 5)] == [box]  # forced
            sheet.record(box, (face,) * 5)
        for box in sheet.open_boxes():
            sheet.record(box, FIVE_SIXES)
        assert sheet.totals().extras == 1200
        assert sheet.total == 1575

    def test_lowest_possible_is_5(self) -> None:
        sheet = sheet_for("yahtzee")
        for box in sheet.scorable:
            dice = (1, 1, 1, 1, 1) if box == "chance" else (2, 2, 3, 3, 4)
            if box in ("twos", "threes", "fours"):
                dice = (1, 1, 5, 5, 6)
            sheet.record(box, dice)
        assert sheet.total == 5
        assert min(e.value for e in sheet.entries) == 0


class TestForcedJoker:
    """Official Yahtzee: matching upper box first, then lower jokers, then upper for 0."""

    def test_matching_upper_box_first(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("yahtzee", FIVE_SIXES)
        assert offered(sheet, (4,) * 5) == {"fours": (20, 100)}
        with pytest.raises(ExtraRuleError, match="fours"):
            sheet.record("full-house", (4,) * 5)

    def test_then_lower_jokers_at_full_points(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("yahtzee", FIVE_SIXES)
        sheet.record("fours", (4, 4, 4, 1, 2))
        got = offered(sheet, (4,) * 5)
        assert got == {
            "three-of-a-kind": (20, 100),
            "four-of-a-kind": (20, 100),
            "full-house": (25, 100),
            "small-straight": (30, 100),
            "large-straight": (40, 100),
            "chance": (20, 100),
        }
        with pytest.raises(ExtraRuleError, match="lower section"):
            sheet.record("sixes", (4,) * 5)

    def test_then_upper_boxes_for_zero(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("yahtzee", FIVE_SIXES)
        scratch_all_but(sheet, {"ones", "twos"})
        assert offered(sheet, (4,) * 5) == {"ones": (0, 100), "twos": (0, 100)}

    def test_no_bonus_when_the_yahtzee_box_holds_zero(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("yahtzee", NOTHING)
        assert offered(sheet, (3,) * 5) == {"threes": (15, 0)}
        sheet.record("threes", (3,) * 5)
        got = offered(sheet, (3,) * 5)
        assert got["large-straight"] == (40, 0)
        assert sheet.totals().extras == 0

    def test_first_yahtzee_is_no_joker(self) -> None:
        got = offered(sheet_for("yahtzee"), FIVE_SIXES)
        assert got["yahtzee"] == (50, 0)
        assert got["full-house"] == (0, 0)


class TestFreeJoker:
    def test_free_choice_but_joker_only_once_the_upper_box_is_filled(self) -> None:
        sheet = sheet_for("yahtzee-free-joker")
        sheet.record("yahtzee", FIVE_SIXES)
        got = offered(sheet, (5,) * 5)
        assert got["fives"] == (25, 100)
        assert got["full-house"] == (0, 100)
        assert got["ones"] == (0, 100)
        sheet.record("fives", (5, 5, 1, 1, 2))
        assert offered(sheet, (5,) * 5)["full-house"] == (25, 100)


class TestLowerJoker:
    """yahtzee-1956: further Yahtzees are jokers in the lower section, never upper."""

    def test_upper_refused_while_a_lower_box_is_open(self) -> None:
        sheet = sheet_for("yahtzee-1956")
        sheet.record("yahtzee", FIVE_SIXES)
        got = offered(sheet, (2,) * 5)
        assert set(got) == set(sheet.ruleset.lower_ids) - {"yahtzee"}
        assert got["small-straight"] == (30, 100)
        with pytest.raises(ExtraRuleError):
            sheet.record("twos", (2,) * 5)

    def test_upper_for_zero_once_the_lower_section_is_full(self) -> None:
        sheet = sheet_for("yahtzee-1956")
        sheet.record("yahtzee", FIVE_SIXES)
        for box in sheet.ruleset.lower_ids[:-1]:
            if box != "yahtzee":
                sheet.record(box, NOTHING)
        sheet.record("chance", NOTHING)
        got = offered(sheet, (2,) * 5)
        assert got["twos"] == (0, 100)


class TestKniffelExtra:
    """Kniffel (001): a further Kniffel scores 100 below, 100 + dice above (not towards 63)."""

    def test_upper_box_gets_100_plus_dice_outside_the_bonus_sum(self) -> None:
        sheet = sheet_for("kniffel")
        sheet.record("kniffel", FIVE_SIXES)
        entry = sheet.record("ones", (1,) * 5)
        assert (entry.points, entry.extra, entry.value) == (5, 100, 105)
        for face, box in enumerate(UPPER[1:], 2):
            count = 2 if face == 6 else 3
            sheet.record(box, (face,) * count + (1,) * (5 - count))
        totals = sheet.totals()
        assert totals.upper == 5 + 6 + 9 + 12 + 15 + 12  # 59: below 63 without the 100
        assert totals.upper_bonus == 0
        assert totals.extras == 100

    def test_lower_box_gets_100(self) -> None:
        sheet = sheet_for("kniffel")
        sheet.record("kniffel", FIVE_SIXES)
        got = offered(sheet, (2,) * 5)
        assert got["large-straight"] == (100, 0)
        assert got["chance"] == (100, 0)
        assert got["twos"] == (10, 100)
        assert got["sixes"] == (0, 100)

    def test_scratched_kniffel_may_be_a_full_house(self) -> None:
        sheet = sheet_for("kniffel")
        sheet.record("kniffel", NOTHING)
        got = offered(sheet, (2,) * 5)
        assert got["full-house"] == (25, 0)
        assert got["large-straight"] == (0, 0)
        assert got["twos"] == (10, 0)

    def test_five_equal_are_no_full_house_while_kniffel_is_open(self) -> None:
        assert offered(sheet_for("kniffel"), (2,) * 5)["full-house"] == (0, 0)


class TestKniffelBook:
    """kniffel-book (004 Spielart 1): a further Kniffel takes any open lower box for 100."""

    def test_lower_boxes_take_100(self) -> None:
        sheet = sheet_for("kniffel-book")
        sheet.record("kniffel", FIVE_SIXES)
        got = offered(sheet, (3,) * 5)
        assert got["full-house"] == (100, 0)
        assert got["threes"] == (15, 0)

    def test_no_full_house_from_five_equal(self) -> None:
        assert offered(sheet_for("kniffel-book"), (3,) * 5)["full-house"] == (0, 0)

    def test_scratched_kniffel_gives_no_100(self) -> None:
        sheet = sheet_for("kniffel-book")
        sheet.record("kniffel", NOTHING)
        assert offered(sheet, (3,) * 5)["chance"] == (15, 0)

    def test_best_possible_is_790(self) -> None:
        sheet = sheet_for("kniffel-book")
        sheet.record("kniffel", FIVE_SIXES)
        for face, box in enumerate(UPPER, 1):
            sheet.record(box, (face,) * 5)
        for box in sheet.open_boxes():
            sheet.record(box, FIVE_SIXES)
        assert sheet.total == 790


class TestKniffelExtraTurn:
    def test_a_further_kniffel_is_noted_beside_the_sheet(self) -> None:
        sheet = sheet_for("kniffel-extra-turn")
        sheet.record("kniffel", FIVE_SIXES)
        options = sheet.options((3,) * 5)
        assert options == (Entry("main", None, 0, 100, (3,) * 5),)
        with pytest.raises(ExtraRuleError, match="beside the sheet"):
            sheet.record("threes", (3,) * 5)
        sheet.record(None, (3,) * 5)
        assert sheet.totals().extras == 100
        assert "threes" in sheet.open_boxes()

    def test_not_with_the_kniffel_box_scratched(self) -> None:
        sheet = sheet_for("kniffel-extra-turn")
        sheet.record("kniffel", NOTHING)
        assert offered(sheet, (3,) * 5)["threes"] == (15, 0)


class TestNoExtraRule:
    def test_yatzy_scores_a_further_yatzy_normally(self) -> None:
        sheet = sheet_for("yatzy")
        sheet.record("yatzy", FIVE_SIXES)
        got = offered(sheet, FIVE_SIXES)
        assert got["one-pair"] == (12, 0)
        assert got["full-house"] == (0, 0)
        assert got["sixes"] == (30, 0)


class TestCrag:
    def test_thirteen_takes_a_crag_once_the_crag_box_is_filled(self) -> None:
        sheet = sheet_for("crag")
        assert offered(sheet, (6, 6, 1))["thirteen"] == (0, 0)
        assert offered(sheet, (6, 5, 2))["thirteen"] == (26, 0)
        sheet.record("crag", (5, 5, 3))
        assert offered(sheet, (6, 6, 1))["thirteen"] == (26, 0)


class TestStrict:
    """Strict Kniffel: top to bottom, no jokers, Chance 100 after a Kniffel."""

    def test_boxes_in_sheet_order(self) -> None:
        sheet = sheet_for("kniffel+strict")
        assert [e.box for e in sheet.options(FIVE_SIXES)] == ["ones"]
        with pytest.raises(OrderViolation, match="next is ones"):
            sheet.record("sixes", FIVE_SIXES)

    def test_five_equal_before_the_kniffel_box_count_as_that_box(self) -> None:
        sheet = sheet_for("kniffel+strict")
        scratch_all_but(sheet, set(sheet.scorable[6:]))
        assert offered(sheet, FIVE_SIXES) == {"three-of-a-kind": (30, 0)}

    def test_chance_scores_100_after_a_kniffel(self) -> None:
        sheet = sheet_for("kniffel+strict")
        scratch_all_but(sheet, {"kniffel", "chance"})
        sheet.record("kniffel", (2,) * 5)
        assert offered(sheet, (3,) * 5) == {"chance": (100, 0)}
        assert offered(sheet, (3, 3, 3, 3, 4)) == {"chance": (16, 0)}

    def test_chance_normal_when_the_kniffel_box_holds_zero(self) -> None:
        sheet = sheet_for("kniffel+strict")
        scratch_all_but(sheet, {"chance"})
        assert offered(sheet, (3,) * 5) == {"chance": (15, 0)}

    def test_a_kniffel_in_full_house_counts_as_a_full_house(self) -> None:
        """Seed 001: "Ein Kniffel in Full-House zählt als Full-House." """
        sheet = sheet_for("kniffel+strict")
        scratch_all_but(sheet, set(sheet.scorable[8:]))
        assert offered(sheet, (2,) * 5) == {"full-house": (25, 0)}
        assert offered(sheet, (2, 2, 2, 2, 3)) == {"full-house": (0, 0)}

    def test_the_full_house_rule_can_be_switched_off(self, tmp_path) -> None:
        path = tmp_path / "strictest.toml"
        path.write_text('extends = "kniffel+strict"\nstrict = { full_house = false }\n')
        sheet = Sheet(load_ruleset(path))
        scratch_all_but(sheet, set(sheet.scorable[8:]))
        assert offered(sheet, (2,) * 5) == {"full-house": (0, 0)}

    def test_a_mickey_declaration_must_be_the_next_box(self) -> None:
        sheet = sheet_for("mickey+strict")
        with pytest.raises(OrderViolation, match="next is ones"):
            sheet.check_declaration(Declaration("mickey"))
        declared = sheet.check_declaration(Declaration("ones"))
        assert offered(sheet, (1, 1, 2, 3, 4), None, declared) == {"ones": (2, 0)}


class TestSwiss:
    def test_no_lower_scratch_while_a_die_scores_above(self) -> None:
        sheet = sheet_for("yahtzee+swiss")
        scratch_all_but(sheet, {"fives", "yahtzee"})
        dice = (5, 6, 6, 6, 6)
        assert offered(sheet, dice) == {"fives": (5, 0)}
        with pytest.raises(ScratchError, match="fives"):
            sheet.record("yahtzee", dice)

    def test_lower_scratch_allowed_when_no_die_scores_above(self) -> None:
        sheet = sheet_for("yahtzee+swiss")
        scratch_all_but(sheet, {"fives", "yahtzee"})
        assert offered(sheet, (6, 6, 6, 6, 4)) == {"fives": (0, 0), "yahtzee": (0, 0)}

    def test_a_fitting_lower_box_is_no_scratch(self) -> None:
        sheet = sheet_for("yahtzee+swiss")
        assert offered(sheet, (1, 2, 3, 4, 5))["large-straight"] == (40, 0)
        assert "yahtzee" not in offered(sheet, (1, 2, 3, 4, 5))


class TestColumns:
    def test_each_column_follows_its_order_rule(self) -> None:
        sheet = sheet_for("kniffel+columns")
        options = {(e.column, e.box) for e in sheet.options((1, 2, 3, 4, 5))}
        assert ("down", "ones") in options
        assert ("up", "chance") in options
        assert not any(col == "announce" for col, _ in options)
        assert {box for col, box in options if col == "free"} == set(sheet.scorable)
        assert len(options) == 2 + len(sheet.scorable)

    def test_down_and_up_refuse_out_of_order(self) -> None:
        sheet = sheet_for("kniffel+columns")
        with pytest.raises(OrderViolation, match="top to bottom in column down: next is ones"):
            sheet.record("twos", (2, 2, 2, 1, 1), column="down")
        with pytest.raises(OrderViolation, match="bottom to top in column up: next is chance"):
            sheet.record("kniffel", FIVE_SIXES, column="up")
        sheet.record("chance", FIVE_SIXES, column="up")
        assert sheet.record("kniffel", FIVE_SIXES, column="up").points == 50

    def test_announce_column_needs_an_announcement(self) -> None:
        sheet = sheet_for("kniffel+columns")
        with pytest.raises(DeclarationError, match="announced"):
            sheet.record("sixes", FIVE_SIXES, column="announce")

    def test_announced_box_or_scratch_anything(self) -> None:
        sheet = sheet_for("kniffel+columns")
        declared = Declaration("full-house", "announce")
        options = {(e.column, e.box): e.points for e in sheet.options(FIVE_SIXES, None, declared)}
        assert options[("announce", "full-house")] == 0
        assert options[("free", "sixes")] == 0  # a scratch, though the dice would score 30
        assert options[("down", "chance")] == 0  # scratch ignores the order rules
        assert len(options) == 4 * len(sheet.scorable)
        entry = sheet.record("full-house", (2, 2, 3, 3, 3), None, "announce", declared)
        assert entry.points == 25

    def test_announcing_in_a_column_without_announce_is_refused(self) -> None:
        sheet = sheet_for("kniffel+columns")
        with pytest.raises(DeclarationError):
            sheet.check_declaration(Declaration("sixes", "free"))

    def test_totals_per_column_and_grand(self) -> None:
        sheet = sheet_for("kniffel+columns-3")
        sheet.record("ones", (1, 1, 1, 2, 2), column="down")
        sheet.record("chance", FIVE_SIXES, column="up")
        sheet.record("sixes", FIVE_SIXES, column="free")
        assert sheet.totals("down").total == 3
        assert sheet.totals("up").total == 30
        assert sheet.totals().total == sheet.total == 63

    def test_column_must_be_named(self) -> None:
        sheet = sheet_for("kniffel+columns-3")
        with pytest.raises(ColumnError, match="say which"):
            sheet.record("ones", (1, 1, 1, 2, 2))
        with pytest.raises(ColumnError, match="no column 'left'"):
            sheet.record("ones", (1, 1, 1, 2, 2), column="left")

    def test_extra_rule_applies_per_column(self) -> None:
        sheet = sheet_for("yahtzee+columns-3")
        sheet.record("yahtzee", FIVE_SIXES, column="free")
        got = {(e.column, e.box): (e.points, e.extra) for e in sheet.options((2,) * 5)}
        assert got[("free", "twos")] == (10, 100)
        assert ("free", "chance") not in got  # forced into twos in that column
        assert got[("up", "chance")] == (10, 0)  # the up column has no Yahtzee yet


class TestSharp:
    def test_pattern_boxes_double_when_all_dice_were_thrown(self) -> None:
        sheet = sheet_for("kniffel+sharp")
        all_five, some = ScoreContext(roll=2, thrown=5), ScoreContext(roll=2, thrown=3)
        assert offered(sheet, (3, 3, 3, 5, 5), all_five)["full-house"] == (50, 0)
        assert offered(sheet, (3, 3, 3, 5, 5), some)["full-house"] == (25, 0)
        assert offered(sheet, FIVE_SIXES, all_five)["kniffel"] == (100, 0)

    def test_upper_boxes_and_chance_never_double(self) -> None:
        got = offered(sheet_for("kniffel+sharp"), FIVE_SIXES, ScoreContext(thrown=5))
        assert got["sixes"] == (30, 0)
        assert got["chance"] == (30, 0)

    @pytest.mark.parametrize("ruleset_id", ["kniffel+sharp", "kniffel-book+sharp"])
    def test_a_further_kniffel_doubles_the_100_in_a_sharp_box(self, ruleset_id: str) -> None:
        sheet = sheet_for(ruleset_id)
        sheet.record("kniffel", FIVE_SIXES)
        got = offered(sheet, (3,) * 5, ScoreContext(roll=1, thrown=5))
        assert got["full-house"] == (200, 0)
        assert got["chance"] == (100, 0)
        assert offered(sheet, (3,) * 5, ScoreContext(roll=2, thrown=2))["full-house"] == (100, 0)

    def test_a_joker_doubles_but_not_its_bonus(self) -> None:
        sheet = sheet_for("yahtzee+sharp")
        sheet.record("yahtzee", FIVE_SIXES)
        sheet.record("threes", (3, 3, 1, 2, 4))
        got = offered(sheet, (3,) * 5, ScoreContext(thrown=5))
        assert got["large-straight"] == (80, 100)


class TestServed:
    """General: straight, full house and four of a kind score more on the first roll."""

    @pytest.mark.parametrize(
        ("box", "dice", "first", "later"),
        [
            ("straight", (2, 3, 4, 5, 6), 25, 20),
            ("full-house", (2, 2, 6, 6, 6), 35, 30),
            ("four-of-a-kind", (4, 4, 4, 4, 1), 45, 40),
            ("general", (4, 4, 4, 4, 4), 60, 60),
        ],
    )
    def test_first_roll_bonus(self, box: str, dice, first: int, later: int) -> None:
        sheet = sheet_for("general")
        assert offered(sheet, dice, ScoreContext(roll=1))[box] == (first, 0)
        assert offered(sheet, dice, ScoreContext(roll=3))[box] == (later, 0)

    def test_five_equal_are_a_full_house(self) -> None:
        assert offered(sheet_for("general"), (4,) * 5, ScoreContext(roll=2))["full-house"] == (
            30,
            0,
        )


class TestCroatian:
    def test_max_minus_min_times_ones(self) -> None:
        sheet = sheet_for("kniffel+croatian")
        assert "chance" not in sheet.scorable
        assert "max-min" not in sheet.scorable
        sheet.record("maximum", (6, 6, 6, 5, 5))
        sheet.record("minimum", (1, 1, 2, 2, 3))
        assert sheet.computed("max-min") is None
        assert sheet.totals().computed == 0
        sheet.record("ones", (1, 1, 1, 4, 5))
        assert sheet.computed("max-min") == (28 - 9) * 3
        assert sheet.totals().computed == 57
        assert sheet.total == 28 + 9 + 3 + 57
        assert sheet.to_dict()["columns"]["main"]["boxes"]["max-min"] == 57

    def test_computed_line_takes_no_roll(self) -> None:
        with pytest.raises(UnknownBox, match="computed"):
            sheet_for("kniffel+croatian").record("max-min", FIVE_SIXES)


class TestMickey:
    def test_declared_box_only(self) -> None:
        sheet = sheet_for("mickey")
        declared = Declaration("straight")
        assert offered(sheet, (1, 2, 3, 4, 6), None, declared) == {"straight": (30, 0)}
        with pytest.raises(DeclarationError, match="declared straight"):
            sheet.record("sixes", (6, 6, 6, 1, 2), declared=declared)

    def test_mickey_counts_only_on_the_second_roll(self) -> None:
        sheet = sheet_for("mickey")
        declared = Declaration("mickey")
        dice = (1, 2, 3, 4, 5)
        assert offered(sheet, dice, ScoreContext(roll=1), declared) == {"mickey": (0, 0)}
        assert offered(sheet, dice, ScoreContext(roll=2), declared) == {"mickey": (50, 0)}

    def test_declaring_a_filled_box(self) -> None:
        sheet = sheet_for("mickey")
        sheet.record("sixes", FIVE_SIXES)
        with pytest.raises(BoxFilled):
            sheet.check_declaration(Declaration("sixes"))

    def test_declarations_in_ordered_columns(self) -> None:
        """With columns a declaration names its column; down and up allow one box each."""
        sheet = sheet_for("mickey+columns-3")
        with pytest.raises(OrderViolation, match="bottom to top in column up: next is mickey"):
            sheet.check_declaration(Declaration("straight", "up"))
        declared = sheet.check_declaration(Declaration("mickey", "up"))
        got = sheet.options((1, 2, 3, 4, 5), ScoreContext(roll=2), declared)
        assert [(e.column, e.box, e.points) for e in got] == [("up", "mickey", 50)]


class TestState:
    def test_to_dict_lists_boxes_and_totals(self) -> None:
        sheet = sheet_for("yahtzee")
        sheet.record("chance", FIVE_SIXES)
        data = sheet.to_dict()
        column = data["columns"]["main"]
        assert column["boxes"]["chance"] == 30
        assert column["boxes"]["ones"] is None
        assert column["totals"]["total"] == 30
        assert data["entries"][0]["box"] == "chance"
