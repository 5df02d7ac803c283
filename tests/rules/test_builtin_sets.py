"""Every box of every built-in rule set, with cases from RULES.md and the seeds."""

from __future__ import annotations

import itertools

import pytest
from test_seed_figures import SEED_EXAMPLES

from dicetray.rules import ScoreContext, list_options, list_rulesets, load_ruleset

FIRST = ScoreContext(roll=1)
LATER = ScoreContext(roll=2)

BUILT_IN = [
    "yahtzee",
    "yahtzee-free-joker",
    "yahtzee-1956",
    "kniffel",
    "kniffel-book",
    "kniffel-extra-turn",
    "yatzy",
    "maxi-yatzy",
    "yacht",
    "yacht-1940",
    "general",
    "ohio",
    "mickey",
    "crag",
]
OPTIONS = [
    "croatian",
    "pairs",
    "sharp",
    "strict",
    "columns",
    "columns-3",
    "save-rolls",
    "full-cup",
    "swiss",
]
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")

# (rule set, box, dice, points) on an empty sheet, context unknown.
CASES = [
    # Yahtzee / Kniffel family (RULES.md table)
    ("yahtzee", "ones", (1, 1, 1, 3, 5), 3),
    ("yahtzee", "sixes", (6, 2, 6, 3, 6), 18),
    ("yahtzee", "fives", (1, 2, 3, 4, 6), 0),
    ("yahtzee", "three-of-a-kind", (2, 2, 2, 5, 6), 17),
    ("yahtzee", "three-of-a-kind", (2, 2, 3, 5, 6), 0),
    ("yahtzee", "four-of-a-kind", (4, 4, 4, 4, 6), 22),
    ("yahtzee", "four-of-a-kind", (4, 4, 4, 4, 4), 20),
    ("yahtzee", "four-of-a-kind", (4, 4, 4, 6, 6), 0),
    ("yahtzee", "full-house", (3, 3, 3, 5, 5), 25),
    ("yahtzee", "full-house", (3, 3, 5, 5, 6), 0),
    ("yahtzee", "full-house", (5, 5, 5, 5, 5), 0),
    ("yahtzee", "small-straight", (1, 2, 3, 4, 6), 30),
    ("yahtzee", "small-straight", (3, 4, 5, 6, 6), 30),
    ("yahtzee", "small-straight", (2, 3, 4, 5, 2), 30),
    ("yahtzee", "small-straight", (1, 2, 3, 5, 6), 0),
    ("yahtzee", "large-straight", (2, 3, 4, 5, 6), 40),
    ("yahtzee", "large-straight", (5, 4, 3, 2, 1), 40),
    ("yahtzee", "large-straight", (1, 2, 3, 4, 6), 0),
    ("yahtzee", "yahtzee", (2, 2, 2, 2, 2), 50),
    ("yahtzee", "yahtzee", (2, 2, 2, 2, 3), 0),
    ("yahtzee", "chance", (1, 1, 1, 1, 1), 5),
    ("yahtzee", "chance", (6, 5, 4, 3, 6), 24),
    ("kniffel", "kniffel", (6, 6, 6, 6, 6), 50),
    ("kniffel", "three-of-a-kind", (1, 3, 1, 6, 1), 12),
    ("kniffel", "four-of-a-kind", (1, 3, 1, 3, 1), 0),
    ("kniffel", "four-of-a-kind", (5, 5, 2, 5, 5), 22),
    ("kniffel", "small-straight", (4, 3, 6, 5, 1), 30),
    ("kniffel", "large-straight", (4, 3, 2, 5, 1), 40),
    ("kniffel", "large-straight", (4, 3, 6, 5, 1), 0),
    ("kniffel", "chance", (2, 3, 2, 3, 2), 12),
    ("kniffel", "full-house", (2, 2, 6, 6, 6), 25),
    ("kniffel", "full-house", (6, 6, 6, 6, 6), 0),
    ("kniffel-book", "full-house", (6, 6, 6, 6, 6), 0),
    ("kniffel-extra-turn", "large-straight", (1, 2, 3, 4, 5), 40),
    ("yahtzee-1956", "small-straight", (6, 5, 4, 3, 3), 30),
    ("yahtzee-free-joker", "four-of-a-kind", (1, 1, 1, 1, 2), 6),
    # Yatzy (Scandinavian)
    ("yatzy", "one-pair", (3, 3, 4, 4, 6), 8),
    ("yatzy", "one-pair", (1, 2, 3, 4, 5), 0),
    ("yatzy", "two-pairs", (3, 3, 5, 5, 5), 16),
    ("yatzy", "two-pairs", (4, 4, 4, 4, 1), 0),
    ("yatzy", "two-pairs", (1, 1, 2, 3, 3), 8),
    ("yatzy", "three-of-a-kind", (3, 3, 3, 4, 5), 9),
    ("yatzy", "three-of-a-kind", (3, 3, 3, 3, 3), 9),
    ("yatzy", "four-of-a-kind", (2, 2, 2, 2, 5), 8),
    ("yatzy", "four-of-a-kind", (2, 2, 2, 5, 5), 0),
    ("yatzy", "small-straight", (1, 2, 3, 4, 5), 15),
    ("yatzy", "small-straight", (2, 3, 4, 5, 6), 0),
    ("yatzy", "small-straight", (1, 2, 3, 4, 4), 0),
    ("yatzy", "large-straight", (6, 2, 3, 4, 5), 20),
    ("yatzy", "large-straight", (1, 2, 3, 4, 5), 0),
    ("yatzy", "full-house", (2, 2, 3, 3, 3), 13),
    ("yatzy", "full-house", (2, 2, 2, 2, 2), 0),
    ("yatzy", "full-house", (2, 2, 3, 3, 4), 0),
    ("yatzy", "chance", (1, 1, 3, 3, 6), 14),
    ("yatzy", "yatzy", (4, 4, 4, 4, 4), 50),
    ("yatzy", "threes", (3, 3, 3, 1, 2), 9),
    # Maxi Yatzy (six dice; RULES.md decisions)
    ("maxi-yatzy", "one-pair", (6, 6, 5, 5, 1, 2), 12),
    ("maxi-yatzy", "two-pairs", (6, 6, 5, 5, 4, 4), 22),
    ("maxi-yatzy", "three-pairs", (1, 1, 3, 3, 6, 6), 20),
    ("maxi-yatzy", "three-pairs", (2, 2, 2, 2, 3, 3), 0),
    ("maxi-yatzy", "three-pairs", (1, 1, 3, 3, 5, 6), 0),
    ("maxi-yatzy", "three-of-a-kind", (4, 4, 4, 6, 6, 6), 18),
    ("maxi-yatzy", "four-of-a-kind", (5, 5, 5, 5, 5, 1), 20),
    ("maxi-yatzy", "two-triples", (2, 2, 2, 5, 5, 5), 21),
    ("maxi-yatzy", "two-triples", (2, 2, 2, 2, 5, 5), 0),
    ("maxi-yatzy", "small-straight", (1, 2, 3, 4, 5, 5), 15),
    ("maxi-yatzy", "large-straight", (2, 3, 4, 5, 6, 6), 20),
    ("maxi-yatzy", "poker", (6, 5, 4, 3, 2, 1), 21),
    ("maxi-yatzy", "poker", (1, 2, 3, 4, 5, 5), 0),
    ("maxi-yatzy", "full-house", (3, 3, 3, 3, 6, 6), 24),
    ("maxi-yatzy", "full-house", (3, 3, 3, 6, 6, 6), 0),
    ("maxi-yatzy", "full-house", (6, 6, 6, 6, 6, 6), 0),
    ("maxi-yatzy", "chance", (1, 2, 3, 4, 5, 6), 21),
    ("maxi-yatzy", "yatzy", (2, 2, 2, 2, 2, 2), 100),
    ("maxi-yatzy", "yatzy", (2, 2, 2, 2, 2, 1), 0),
    ("maxi-yatzy", "sixes", (6, 6, 6, 6, 1, 6), 30),
    # Yacht (004): five equal may be a full house; four of a kind counts all dice
    ("yacht", "full-house", (1, 1, 1, 3, 3), 9),
    ("yacht", "full-house", (5, 5, 5, 5, 5), 25),
    ("yacht", "four-of-a-kind", (4, 4, 4, 4, 1), 17),
    ("yacht", "four-of-a-kind", (4, 4, 4, 4, 4), 20),
    ("yacht", "small-straight", (1, 2, 3, 4, 5), 30),
    ("yacht", "small-straight", (2, 3, 4, 5, 6), 0),
    ("yacht", "large-straight", (2, 3, 4, 5, 6), 30),
    ("yacht", "yacht", (3, 3, 3, 3, 3), 50),
    ("yacht", "chance", (3, 3, 5, 6, 6), 23),
    # Yacht 1940: a Yacht is neither a full house nor a four of a kind
    ("yacht-1940", "full-house", (5, 5, 5, 5, 5), 0),
    ("yacht-1940", "full-house", (6, 6, 6, 5, 5), 28),
    ("yacht-1940", "four-of-a-kind", (5, 5, 5, 5, 5), 0),
    ("yacht-1940", "four-of-a-kind", (6, 6, 6, 6, 5), 29),
    ("yacht-1940", "yacht", (5, 5, 5, 5, 5), 50),
    ("yacht-1940", "small-straight", (5, 4, 3, 2, 1), 30),
    ("yacht-1940", "large-straight", (5, 4, 3, 2, 6), 30),
    ("yacht-1940", "large-straight", (5, 4, 3, 2, 1), 0),
    ("yacht-1940", "chance", (5, 5, 5, 5, 5), 25),
    # Ohio (004)
    ("ohio", "ohio", (2, 2, 2, 6, 6, 6), 8),
    ("ohio", "ohio", (1, 2, 3, 6, 6, 6), 12),
    ("ohio", "ohio", (1, 2, 3, 4, 5, 6), 40),
    ("ohio", "ohio", (1, 2, 3, 4, 5, 5), 15),
    ("ohio", "ohio", (4, 4, 4, 4, 4, 4), 4),
    ("ohio", "fours", (4, 4, 4, 4, 4, 4), 24),
    # Mickey (004), roll unknown
    ("mickey", "straight", (1, 2, 3, 4, 6), 30),
    ("mickey", "straight", (2, 3, 4, 5, 6), 40),
    ("mickey", "straight", (1, 2, 3, 5, 6), 0),
    ("mickey", "mickey", (1, 2, 3, 4, 5), 50),
    ("mickey", "mickey", (1, 2, 3, 4, 6), 0),
    ("mickey", "twos", (2, 2, 3, 4, 6), 4),
    # Crag (004)
    ("crag", "crag", (6, 6, 1), 50),
    ("crag", "crag", (5, 3, 5), 50),
    ("crag", "crag", (4, 5, 4), 50),
    ("crag", "crag", (3, 4, 6), 0),
    ("crag", "thirteen", (3, 4, 6), 26),
    ("crag", "thirteen", (6, 6, 1), 0),
    ("crag", "thirteen", (6, 6, 2), 0),
    ("crag", "three-of-a-kind", (5, 5, 5), 25),
    ("crag", "three-of-a-kind", (5, 5, 4), 0),
    ("crag", "odd-straight", (5, 1, 3), 20),
    ("crag", "even-straight", (6, 4, 2), 20),
    ("crag", "low-straight", (3, 2, 1), 20),
    ("crag", "high-straight", (4, 5, 6), 20),
    ("crag", "low-straight", (2, 3, 4), 0),
    ("crag", "high-straight", (3, 4, 5), 0),
    ("crag", "odd-straight", (2, 3, 4), 0),
    ("crag", "even-straight", (3, 4, 5), 0),
    ("crag", "twos", (2, 2, 5), 4),
    # General (004), roll unknown: never served
    ("general", "straight", (1, 2, 3, 4, 5), 20),
    ("general", "full-house", (2, 2, 6, 6, 6), 30),
    ("general", "full-house", (6, 6, 6, 6, 6), 30),
    ("general", "four-of-a-kind", (3, 3, 3, 3, 6), 40),
    ("general", "four-of-a-kind", (3, 3, 3, 3, 3), 40),
    ("general", "general", (1, 1, 1, 1, 1), 60),
    ("general", "general", (1, 1, 1, 1, 2), 0),
]


def test_built_in_ids_and_options_are_all_there() -> None:
    assert list_rulesets() == sorted(BUILT_IN)
    assert list_options() == sorted(OPTIONS)


@pytest.mark.parametrize(("ruleset", "box", "dice", "points"), CASES)
def test_box_scores(ruleset: str, box: str, dice: tuple[int, ...], points: int) -> None:
    rule_set = load_ruleset(ruleset)
    assert rule_set.score(box, dice) == points
    assert rule_set.box(box).fits(dice) is (points > 0 or box in UPPER)


# Sets that differ from their base only in settings (the extra rule), not in boxes.
SAME_BOXES = {
    "yahtzee-free-joker": "yahtzee",
    "yahtzee-1956": "yahtzee",
    "kniffel-book": "kniffel",
    "kniffel-extra-turn": "kniffel",
}


@pytest.mark.parametrize("ruleset", BUILT_IN)
@pytest.mark.parametrize("face", range(1, 7))
def test_upper_boxes_count_their_face(ruleset: str, face: int) -> None:
    """RULES.md: Aces..Sixes score the sum of the dice showing that face."""
    rule_set = load_ruleset(ruleset)
    other = 1 if face != 1 else 2
    dice = (face, other, face) + (other,) * (rule_set.dice - 3)
    box = UPPER[face - 1]
    assert rule_set.score(box, dice) == 2 * face
    assert rule_set.score(box, (other,) * rule_set.dice) == 0


def test_every_box_of_every_set_has_a_case() -> None:
    """Lower boxes from CASES and the seeds' examples; upper ones by the test above."""
    covered = {(ruleset, box) for ruleset, box, *_ in [*CASES, *SEED_EXAMPLES]}
    for ruleset in set(BUILT_IN) - set(SAME_BOXES):
        boxes = set(load_ruleset(ruleset).box_ids) - set(UPPER)
        assert {box for rs, box in covered if rs == ruleset} >= boxes, ruleset


@pytest.mark.parametrize(("ruleset", "base"), SAME_BOXES.items())
def test_variants_keep_their_base_sheet(ruleset: str, base: str) -> None:
    assert load_ruleset(ruleset).boxes == load_ruleset(base).boxes


@pytest.mark.parametrize("ruleset", BUILT_IN)
def test_every_box_has_english_and_german_names(ruleset: str) -> None:
    rule_set = load_ruleset(ruleset)
    assert rule_set.name("en") and rule_set.name("de")
    for box in rule_set.boxes:
        assert set(box.names) >= {"en", "de"}, box.id
        assert box.names["en"] and box.names["de"]


@pytest.mark.parametrize("ruleset", BUILT_IN)
def test_upper_section_is_ones_to_sixes(ruleset: str) -> None:
    rule_set = load_ruleset(ruleset)
    assert rule_set.upper_ids == UPPER
    assert rule_set.box_ids[:6] == UPPER
    assert rule_set.box("fours").name("de") == "Vierer"


class TestGeneral:
    @pytest.mark.parametrize(
        ("box", "dice", "served", "later"),
        [
            ("straight", (2, 3, 4, 5, 6), 25, 20),
            ("full-house", (2, 2, 6, 6, 6), 35, 30),
            ("full-house", (4, 4, 4, 4, 4), 35, 30),
            ("four-of-a-kind", (5, 5, 5, 5, 1), 45, 40),
            ("general", (6, 6, 6, 6, 6), 60, 60),
        ],
    )
    def test_served_boxes_score_more(
        self, box: str, dice: tuple[int, ...], served: int, later: int
    ) -> None:
        general = load_ruleset("general")
        assert general.score(box, dice, FIRST) == served
        assert general.score(box, dice, LATER) == later
        assert general.score(box, dice, ScoreContext(roll=3)) == later

    def test_a_miss_on_the_first_roll_is_still_zero(self) -> None:
        assert load_ruleset("general").score("full-house", (1, 2, 3, 4, 6), FIRST) == 0

    def test_settings(self) -> None:
        general = load_ruleset("general")
        assert (general.hold, general.games_per_match, general.upper_bonus) == ("locked", 6, None)


class TestMickey:
    def test_mickey_must_take_exactly_two_rolls(self) -> None:
        mickey = load_ruleset("mickey")
        dice = (2, 3, 4, 5, 6)
        assert mickey.score("mickey", dice, ScoreContext(roll=2)) == 50
        assert mickey.score("mickey", dice, FIRST) == 0
        assert mickey.score("mickey", dice, ScoreContext(roll=3)) == 0

    def test_settings(self) -> None:
        mickey = load_ruleset("mickey")
        assert (mickey.declaration, mickey.games_per_match, mickey.rolls) == ("mickey", 4, 3)


class TestCrag:
    def test_thirteen_takes_a_crag_once_the_crag_box_is_filled(self) -> None:
        crag = load_ruleset("crag")
        assert crag.score("thirteen", (6, 6, 1)) == 0
        assert crag.box("thirteen").fits((6, 6, 1)) is False
        assert crag.score("thirteen", (6, 6, 1), ScoreContext(filled={"crag"})) == 26
        assert crag.score("thirteen", (5, 5, 3), ScoreContext(filled={"ones"})) == 0

    def test_settings(self) -> None:
        crag = load_ruleset("crag")
        assert (crag.dice, crag.rolls, crag.hold, len(crag.boxes)) == (3, 2, "free", 13)


class TestSettings:
    @pytest.mark.parametrize(
        ("ruleset", "bonus", "five", "extra"),
        [
            ("yahtzee", (63, 35), "yahtzee", "forced-joker"),
            ("yahtzee-free-joker", (63, 35), "yahtzee", "free-joker"),
            ("yahtzee-1956", (63, 35), "yahtzee", "lower-joker"),
            ("kniffel", (63, 35), "kniffel", "kniffel"),
            ("kniffel-book", (63, 35), "kniffel", "book"),
            ("kniffel-extra-turn", (63, 35), "kniffel", "extra-turn"),
            ("yatzy", (63, 50), "yatzy", "none"),
            ("maxi-yatzy", (84, 100), "yatzy", "none"),
            ("yacht", None, "yacht", "none"),
            ("yacht-1940", None, "yacht", "none"),
            ("general", None, "general", "none"),
            ("ohio", None, None, "none"),
            ("mickey", None, None, "none"),
            ("crag", None, None, "none"),
        ],
    )
    def test_bonus_and_extra_rules(
        self, ruleset: str, bonus: tuple[int, int] | None, five: str | None, extra: str
    ) -> None:
        rule_set = load_ruleset(ruleset)
        found = rule_set.upper_bonus
        assert (found.threshold, found.points) == bonus if found else bonus is None
        if found:
            assert found.boxes == UPPER
        assert rule_set.five_of_a_kind == five
        assert rule_set.extra.mode == extra
        assert rule_set.extra.bonus == 100

    @pytest.mark.parametrize(
        ("ruleset", "dice", "boxes"),
        [("yahtzee", 5, 13), ("kniffel", 5, 13), ("yatzy", 5, 15), ("maxi-yatzy", 6, 18)],
    )
    def test_sheet_sizes(self, ruleset: str, dice: int, boxes: int) -> None:
        rule_set = load_ruleset(ruleset)
        assert (rule_set.dice, len(rule_set.boxes)) == (dice, boxes)

    def test_yacht_sheets(self) -> None:
        yacht, old = load_ruleset("yacht"), load_ruleset("yacht-1940")
        assert yacht.hold == old.hold == "locked"
        assert yacht.box_ids == old.box_ids and len(yacht.boxes) == 12
        assert old.box("chance").name() == "Choice"
        assert yacht.games_per_match == 6


def _best(rule_set_id: str) -> int:
    """Highest sheet total: each box's best roll (served or later), plus the upper bonus."""
    rule_set = load_ruleset(rule_set_id)
    rolls = list(itertools.combinations_with_replacement(range(1, 7), rule_set.dice))
    best = {
        box: max(rule_set.score(box, dice, ctx) for dice in rolls for ctx in (FIRST, LATER))
        for box in rule_set.scored_ids
    }
    total = sum(best.values())
    bonus = rule_set.upper_bonus
    if bonus and sum(best[b] for b in bonus.boxes) >= bonus.threshold:
        total += bonus.points
    return total


@pytest.mark.parametrize(
    ("ruleset", "maximum"),
    [
        ("yahtzee", 375),  # seeds 000/002: max without extra bonuses
        ("kniffel", 375),
        ("yatzy", 374),  # seed 002
        ("yacht-1940", 302),  # seed 002: the decision that a Yacht is no full house
        ("ohio", 166),  # seed 004: 126 upper + 40
        ("general", 105 + 25 + 35 + 45 + 60),
        ("crag", 63 + 4 * 20 + 25 + 26 + 50),
        ("mickey", 105 + 40 + 50),
    ],
)
def test_best_possible_sheet(ruleset: str, maximum: int) -> None:
    assert _best(ruleset) == maximum


def test_lowest_possible_yahtzee_is_five() -> None:
    """Seed 000: the lowest possible score is 5 (only Chance can never be zero)."""
    yahtzee = load_ruleset("yahtzee")
    rolls = list(itertools.combinations_with_replacement(range(1, 7), 5))
    lowest = {box: min(yahtzee.score(box, dice) for dice in rolls) for box in yahtzee.box_ids}
    assert sum(lowest.values()) == 5
    assert lowest["chance"] == 5


@pytest.mark.parametrize("ruleset", BUILT_IN)
def test_scores_ignore_dice_order_and_are_never_negative(ruleset: str) -> None:
    rule_set = load_ruleset(ruleset)
    for dice in itertools.combinations_with_replacement(range(1, 7), rule_set.dice):
        shuffled = dice[1:] + dice[:1]
        for box in rule_set.scored_ids:
            points = rule_set.score(box, dice)
            assert points >= 0
            assert rule_set.score(box, shuffled) == points
            assert rule_set.box(box).fits(dice) == rule_set.box(box).fits(shuffled)
