"""The seeds' figures and worked examples, played as whole games through :class:`Game`.

Each game is constructed turn by turn (one roll, then the box), so the figure is what the
engine adds up under its own rules (forced placement, jokers, extra bonuses, served
points, declarations), and replaying the game's events gives the same sheet. Figures
that need an optimal advisor (means, the guaranteed 18) are not checked here.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from dicetray.rules import ScoreContext, load_ruleset
from dicetray.rules.events import dumps, loads
from dicetray.rules.game import Game

Dice = tuple[int, ...]
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")


def five(face: int, dice: int = 5) -> Dice:
    return (face,) * dice


def play(ruleset_id: str, turns: Sequence[tuple[Dice, str | None]]) -> Game:
    """A one-player game of ``turns`` (dice of a single roll, box; None = beside the sheet)."""
    game = Game(load_ruleset(ruleset_id), ("Solo",))
    for dice, box in turns:
        game.roll(dice)
        game.score(box)
    again = Game.from_events(loads(dumps(game.events)))
    assert again.to_dict() == game.to_dict()
    return game


def upper(count: int, dice: int = 5) -> list[tuple[Dice, str]]:
    """The six number boxes, each with ``count`` dice of its face (the rest ones, or twos)."""
    return [
        ((face,) * count + (2 if face == 1 else 1,) * (dice - count), box)
        for face, box in enumerate(UPPER, 1)
    ]


# 000: the best lower section without a five-of-a-kind: 29 in 3K, 4K and Chance, 25, 30, 40
BEST_LOWER_WITHOUT_A_FIVE_OF_A_KIND: list[tuple[Dice, str | None]] = [
    ((6, 6, 6, 6, 5), "three-of-a-kind"),
    ((6, 6, 6, 6, 5), "four-of-a-kind"),
    ((6, 6, 6, 5, 5), "full-house"),
    ((1, 2, 3, 4, 6), "small-straight"),
    ((2, 3, 4, 5, 6), "large-straight"),
    ((6, 6, 6, 6, 5), "chance"),
]


def total(game: Game) -> int:
    assert game.finished
    return game.sheets[0].total


class TestYahtzee:
    """Seeds 000 and 002: 375, 1,575, 351, 301 and 5."""

    def test_375_without_bonuses(self) -> None:
        # 000: five of each face above, five sixes as 3K, 4K and Chance, the Yahtzee last
        turns = [(five(f), box) for f, box in enumerate(UPPER, 1)] + [
            (five(6), "three-of-a-kind"),
            (five(6), "four-of-a-kind"),
            ((6, 6, 6, 5, 5), "full-house"),
            ((3, 4, 5, 6, 6), "small-straight"),
            ((2, 3, 4, 5, 6), "large-straight"),
            (five(6), "chance"),
            (five(6), "yahtzee"),
        ]
        game = play("yahtzee", turns)
        assert total(game) == 375
        assert game.sheets[0].totals().extras == 0

    def test_1575_with_twelve_bonuses(self) -> None:
        # 002: the Yahtzee box first, then each upper box, then jokers below
        turns = [(five(6), "yahtzee")]
        turns += [(five(f), box) for f, box in enumerate(UPPER, 1)]
        lower = ("three-of-a-kind", "four-of-a-kind", "full-house", "small-straight")
        turns += [(five(6), box) for box in (*lower, "large-straight", "chance")]
        game = play("yahtzee", turns)
        assert total(game) == 1575
        assert game.sheets[0].totals().extras == 1200
        assert game.turns_played == 13

    def test_351_with_a_single_yahtzee(self) -> None:
        # 000: five fives as the Yahtzee, four of each face above, 29 in 3K, 4K and Chance
        turns: list[tuple[Dice, str | None]] = [(five(5), "yahtzee"), *upper(4)]
        turns += BEST_LOWER_WITHOUT_A_FIVE_OF_A_KIND
        assert total(play("yahtzee", turns)) == 351

    def test_301_without_a_five_of_a_kind(self) -> None:
        turns: list[tuple[Dice, str | None]] = [((1, 2, 3, 4, 6), "yahtzee"), *upper(4)]
        turns += BEST_LOWER_WITHOUT_A_FIVE_OF_A_KIND
        assert total(play("yahtzee", turns)) == 301

    def test_lowest_possible_is_5(self) -> None:
        # 000/002: only Chance can never be zero; five ones while the Yahtzee box is open
        zero_above = [
            ((3, 3, 4, 4, 5) if f in (1, 2, 6) else (1, 1, 2, 2, 6), box)
            for f, box in enumerate(UPPER, 1)
        ]
        lower = ("three-of-a-kind", "four-of-a-kind", "full-house", "small-straight")
        turns = [(five(1), "chance"), *zero_above]
        turns += [((1, 1, 2, 2, 6), box) for box in (*lower, "large-straight", "yahtzee")]
        game = play("yahtzee", turns)
        assert total(game) == 5
        assert [e.value for e in game.sheets[0].entries].count(0) == 12


class TestForcedJokerSequence:
    """000: matching upper box, then a lower box as a joker, then an upper box for 0."""

    def test_the_three_steps(self) -> None:
        game = Game(load_ruleset("yahtzee"), ("Solo",))
        game.roll(five(6))
        game.score("yahtzee")
        game.roll(five(4))
        assert [e.box for e in game.options()] == ["fours"]
        assert game.score("fours").value == 120
        game.roll(five(4))
        assert {e.box for e in game.options()} == set(game.ruleset.lower_ids) - {"yahtzee"}
        assert game.score("large-straight").value == 140
        for box in ("three-of-a-kind", "four-of-a-kind", "full-house", "small-straight"):
            game.roll((1, 2, 3, 5, 6))
            game.score(box)
        game.roll((1, 2, 3, 5, 6))
        game.score("chance")
        game.roll(five(4))
        assert {e.box for e in game.options()} == {"ones", "twos", "threes", "fives", "sixes"}
        assert game.score("twos").value == 100

    def test_a_scratched_yahtzee_box_keeps_the_placement_but_not_the_bonus(self) -> None:
        game = Game(load_ruleset("yahtzee"), ("Solo",))
        game.roll((1, 2, 3, 5, 6))
        game.score("yahtzee")
        game.roll(five(3))
        assert [e.box for e in game.options()] == ["threes"]
        assert game.score("threes").value == 15


class TestKniffel:
    def test_a_further_kniffel_above_is_100_plus_the_dice(self) -> None:
        # 001: the 100 does not count towards the 63
        turns = [(five(6), "kniffel"), (five(2), "twos")]
        turns += [t for t in upper(2) if t[1] != "twos"]
        turns += [((1, 2, 3, 5, 6), box) for box in load_ruleset("kniffel").lower_ids[:-2]]
        turns += [((1, 1, 2, 3, 5), "chance")]
        game = play("kniffel", turns)
        sheet = game.sheets[0]
        assert sheet.entry("twos").value == 110
        totals = sheet.totals()
        assert (totals.upper, totals.upper_bonus, totals.extras) == (48, 0, 100)

    def test_book_best_is_790(self) -> None:
        # 004, Spielart 1: the Kniffel, five of each face above, 100 in every other lower box
        turns = [(five(6), "kniffel")] + [(five(f), box) for f, box in enumerate(UPPER, 1)]
        lower = ("three-of-a-kind", "four-of-a-kind", "full-house", "small-straight")
        turns += [(five(6), box) for box in (*lower, "large-straight", "chance")]
        assert total(play("kniffel-book", turns)) == 790

    @pytest.mark.parametrize("further", [0, 1, 3])
    def test_extra_turn_best_is_351_plus_100_per_further_kniffel(self, further: int) -> None:
        # 004, Spielart 2: each further Kniffel is noted beside the sheet and gives a turn
        turns: list[tuple[Dice, str | None]] = [(five(5), "kniffel")]
        turns += [(five(6), None)] * further
        turns += upper(4)
        turns += BEST_LOWER_WITHOUT_A_FIVE_OF_A_KIND
        game = play("kniffel-extra-turn", turns)
        assert total(game) == 351 + 100 * further
        assert game.turns_played == 13 + further


def test_yatzy_best_is_374() -> None:
    """002: 105 above, bonus 50, 12 + 22 + 18 + 24 + 15 + 20 + 28 + 30 + 50 below."""
    turns = [(five(f), box) for f, box in enumerate(UPPER, 1)]
    turns += [
        (five(6), "one-pair"),
        ((6, 6, 5, 5, 1), "two-pairs"),
        (five(6), "three-of-a-kind"),
        (five(6), "four-of-a-kind"),
        ((1, 2, 3, 4, 5), "small-straight"),
        ((2, 3, 4, 5, 6), "large-straight"),
        ((6, 6, 6, 5, 5), "full-house"),
        (five(6), "chance"),
        (five(6), "yatzy"),
    ]
    assert total(play("yatzy", turns)) == 374


def test_yacht_1940_best_is_302() -> None:
    """002: 105 + full house 28 + four of a kind 29 + 30 + 30 + Yacht 50 + Choice 30."""
    turns = [(five(f), box) for f, box in enumerate(UPPER, 1)]
    turns += [
        ((6, 6, 6, 5, 5), "full-house"),
        ((6, 6, 6, 6, 5), "four-of-a-kind"),
        ((1, 2, 3, 4, 5), "small-straight"),
        ((2, 3, 4, 5, 6), "large-straight"),
        (five(6), "yacht"),
        (five(6), "chance"),  # the box named Choice
    ]
    assert total(play("yacht-1940", turns)) == 302


def test_ohio_best_is_166() -> None:
    """004: 126 above + 40 for 1-2-3-4-5-6."""
    turns = [(five(f, 6), box) for f, box in enumerate(UPPER, 1)]
    turns += [((1, 2, 3, 4, 5, 6), "ohio")]
    assert total(play("ohio", turns)) == 166


def test_general_best_is_270_served() -> None:
    """004: every pattern made on the first roll: 105 + 25 + 35 + 45 + 60."""
    turns = [(five(f), box) for f, box in enumerate(UPPER, 1)]
    turns += [
        ((2, 3, 4, 5, 6), "straight"),
        (five(6), "full-house"),  # five equal may be a full house
        (five(6), "four-of-a-kind"),
        (five(6), "general"),
    ]
    assert total(play("general", turns)) == 270


def test_crag_best_is_244() -> None:
    """004: 63 above, four straights at 20, three of a kind 25, Thirteen 26, Crag 50."""
    turns = [(five(f, 3), box) for f, box in enumerate(UPPER, 1)]
    turns += [
        ((1, 3, 5), "odd-straight"),
        ((2, 4, 6), "even-straight"),
        ((1, 2, 3), "low-straight"),
        ((4, 5, 6), "high-straight"),
        ((6, 6, 6), "three-of-a-kind"),
        ((6, 6, 1), "crag"),
        ((6, 6, 1), "thirteen"),  # a Crag counts as Thirteen once Crag is filled
    ]
    game = play("crag", turns)
    assert total(game) == 244
    assert game.sheets[0].entry("thirteen").value == 26


def test_mickey_best_is_195() -> None:
    """004: 105 above, a large straight 40, and a Mickey made in exactly two rolls (50)."""
    game = play("mickey", [(five(f), box) for f, box in enumerate(UPPER, 1)])
    game.roll((2, 3, 4, 5, 6))
    game.score("straight")
    game.roll((1, 2, 3, 4, 4))
    game.declare("mickey")
    game.keep((0, 1, 2, 3))
    game.roll((5,))
    assert game.options()[0].points == 50
    game.score("mickey")
    assert total(game) == 195


# Worked examples of the seeds, box by box: (rule set, box, dice, points, where from).
SEED_EXAMPLES = [
    # 000's scoring table
    ("yahtzee", "ones", (1, 1, 1, 3, 4), 3, "000"),
    ("yahtzee", "twos", (2, 2, 2, 5, 6), 6, "000"),
    ("yahtzee", "threes", (3, 3, 3, 3, 4), 12, "000"),
    ("yahtzee", "fours", (4, 4, 5, 5, 5), 8, "000"),
    ("yahtzee", "fives", (1, 1, 2, 2, 5), 5, "000"),
    ("yahtzee", "sixes", (3, 3, 6, 6, 6), 18, "000"),
    ("yahtzee", "three-of-a-kind", (2, 3, 4, 4, 4), 17, "000"),
    ("yahtzee", "four-of-a-kind", (4, 5, 5, 5, 5), 24, "000"),
    ("yahtzee", "full-house", (2, 2, 5, 5, 5), 25, "000"),
    ("yahtzee", "small-straight", (1, 3, 4, 5, 6), 30, "000"),
    ("yahtzee", "large-straight", (1, 2, 3, 4, 5), 40, "000"),
    ("yahtzee", "yahtzee", (3, 3, 3, 3, 3), 50, "000"),
    ("yahtzee", "chance", (1, 1, 3, 4, 5), 14, "000"),
    # 004's Yahtzee: five threes fit Threes, 3K, 4K and Chance, never Full House
    ("yahtzee", "threes", five(3), 15, "004"),
    ("yahtzee", "three-of-a-kind", five(3), 15, "004"),
    ("yahtzee", "four-of-a-kind", five(3), 15, "004"),
    ("yahtzee", "chance", five(3), 15, "004"),
    ("yahtzee", "full-house", five(3), 0, "004"),
    ("yahtzee", "four-of-a-kind", (4, 4, 4, 4, 1), 17, "004"),
    # 001: Kniffel's sheet; a large straight may be a small one (for 30)
    ("kniffel", "small-straight", (1, 2, 3, 4, 5), 30, "001"),
    ("kniffel", "full-house", (3, 3, 3, 6, 6), 25, "001"),
    # 000 and 002 on Yatzy: 5-5-4-4-1, 5-5-5-5-6, and a Yatzy of sixes in other boxes
    ("yatzy", "one-pair", (5, 5, 4, 4, 1), 10, "000"),
    ("yatzy", "two-pairs", (5, 5, 4, 4, 1), 18, "000"),
    ("yatzy", "four-of-a-kind", (5, 5, 5, 5, 6), 20, "000, 002"),
    ("yatzy", "three-of-a-kind", (5, 5, 5, 5, 6), 15, "000, 002"),
    ("yatzy", "one-pair", five(6), 12, "000"),
    ("yatzy", "three-of-a-kind", five(6), 18, "000"),
    ("yatzy", "four-of-a-kind", five(6), 24, "000"),
    ("yatzy", "sixes", five(6), 30, "000"),
    ("yatzy", "chance", five(6), 30, "000"),
    ("yatzy", "two-pairs", five(6), 0, "000"),
    ("yatzy", "full-house", five(6), 0, "000"),
    ("yatzy", "small-straight", five(6), 0, "000"),
    ("yatzy", "large-straight", five(6), 0, "000"),
    ("yatzy", "small-straight", (1, 2, 3, 4, 5), 15, "002"),
    ("yatzy", "large-straight", (2, 3, 4, 5, 6), 20, "002"),
    # 003: six dice
    ("maxi-yatzy", "threes", (3, 4, 4, 4, 5, 5), 3, "003"),
    ("maxi-yatzy", "fours", (3, 4, 4, 4, 5, 5), 12, "003"),
    ("maxi-yatzy", "fives", (3, 4, 4, 4, 5, 5), 10, "003"),
    ("maxi-yatzy", "three-pairs", (2, 2, 3, 3, 4, 4), 18, "003"),
    ("maxi-yatzy", "two-triples", (1, 1, 1, 4, 4, 4), 15, "003"),
    ("maxi-yatzy", "full-house", (2, 2, 6, 6, 6, 6), 28, "003"),
    ("maxi-yatzy", "poker", (1, 2, 3, 4, 5, 6), 21, "003, RULES.md decision"),
    ("maxi-yatzy", "yatzy", five(1, 6), 100, "003, RULES.md decision"),
    # 004: Yacht
    ("yacht", "twos", (2, 2, 2, 4, 5), 6, "004"),
    ("yacht", "full-house", (1, 1, 1, 2, 2), 7, "004"),
    ("yacht", "full-house", five(4), 20, "004"),
    ("yacht", "four-of-a-kind", (4, 4, 4, 4, 1), 17, "004"),
    # 004: General
    ("general", "twos", (2, 2, 2, 4, 5), 6, "004"),
    # 004: Ohio, 2-2-2-6-6-6 and a roll with 1, 2, 3 and 6
    ("ohio", "twos", (2, 2, 2, 6, 6, 6), 6, "004"),
    ("ohio", "sixes", (2, 2, 2, 6, 6, 6), 18, "004"),
    ("ohio", "ohio", (2, 2, 2, 6, 6, 6), 8, "004"),
    ("ohio", "ohio", (1, 2, 3, 3, 6, 6), 12, "004"),
    ("ohio", "ohio", (1, 2, 3, 4, 5, 6), 40, "004, RULES.md decision"),
    # 004: Crag
    ("crag", "twos", (2, 2, 1), 4, "004"),
    ("crag", "ones", (2, 2, 1), 1, "004"),
    ("crag", "three-of-a-kind", (5, 5, 5), 25, "004"),
    ("crag", "thirteen", (3, 4, 6), 26, "004"),
    ("crag", "crag", (6, 6, 1), 50, "004"),
    ("crag", "crag", (5, 5, 3), 50, "004"),
    ("crag", "crag", (4, 4, 5), 50, "004"),
    ("crag", "low-straight", (2, 3, 4), 0, "004"),
    ("crag", "high-straight", (3, 4, 5), 0, "004"),
    # 004: Mickey's straight, small or large
    ("mickey", "straight", (1, 2, 3, 4, 1), 30, "004"),
    ("mickey", "straight", (2, 3, 4, 5, 6), 40, "004"),
]


@pytest.mark.parametrize(("ruleset", "box", "dice", "points", "seed"), SEED_EXAMPLES)
def test_seed_examples(ruleset: str, box: str, dice: Dice, points: int, seed: str) -> None:
    assert load_ruleset(ruleset).score(box, dice) == points, f"seed {seed}"


@pytest.mark.parametrize(
    ("ruleset", "box", "dice", "context", "points"),
    [
        ("general", "straight", (1, 2, 3, 4, 5), ScoreContext(roll=1), 25),
        ("general", "straight", (1, 2, 3, 4, 5), ScoreContext(roll=3), 20),
        ("general", "full-house", (2, 2, 6, 6, 6), ScoreContext(roll=1), 35),
        ("general", "four-of-a-kind", (3, 3, 3, 3, 1), ScoreContext(roll=1), 45),
        ("general", "general", five(1), ScoreContext(roll=3), 60),
        ("mickey", "mickey", (1, 2, 3, 4, 5), ScoreContext(roll=2), 50),
        ("mickey", "mickey", (1, 2, 3, 4, 5), ScoreContext(roll=1), 0),
        ("crag", "thirteen", (6, 6, 1), ScoreContext(filled=frozenset({"crag"})), 26),
        ("kniffel+sharp", "kniffel", five(6), ScoreContext(roll=1, thrown=5), 100),
        ("kniffel+sharp", "kniffel", five(6), ScoreContext(roll=3, thrown=2), 50),
    ],
)
def test_seed_examples_in_context(
    ruleset: str, box: str, dice: Dice, context: ScoreContext, points: int
) -> None:
    """004's served points and Mickey's two rolls; 004's Crag rule; 001's sharp Kniffel."""
    assert load_ruleset(ruleset).score(box, dice, context) == points
