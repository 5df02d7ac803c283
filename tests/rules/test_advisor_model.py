"""The advisor's scoring model against the real sheet, and the rule sets it refuses."""

from __future__ import annotations

import random

import pytest

from dicetray.rules import Game, RulesError, ScoreContext, load_ruleset
from dicetray.rules.advisor import Unsolvable
from dicetray.rules.advisor.model import Model

SOLVED = [
    "yahtzee",
    "yahtzee-free-joker",
    "yahtzee-1956",
    "kniffel",
    "kniffel-book",
    "yatzy",
    "yacht",
    "yacht-1940",
    "general",
]


def _random_sheet(ruleset: str, rng: random.Random, turns: int) -> Game:
    """A game with ``turns`` random entries, five-of-a-kinds made often."""
    game = Game(load_ruleset(ruleset))
    for _ in range(turns):
        if rng.random() < 0.4:
            face = rng.randint(1, 6)
            game.roll((face,) * 5)
        else:
            game.roll_random(rng)
        game.score(rng.choice(game.options()).box)
    return game


@pytest.mark.parametrize("ruleset", SOLVED)
def test_every_entry_the_model_allows_is_what_the_sheet_offers(ruleset: str) -> None:
    model = Model.build(load_ruleset(ruleset))
    rng = random.Random(ruleset)
    lat = model.lat
    checked = 0
    bonus = model.ruleset.upper_bonus.boxes if model.ruleset.upper_bonus else ()
    for _ in range(60):
        game = _random_sheet(ruleset, rng, rng.randint(0, len(model.boxes) - 1))
        sheet = game.sheet
        mask = sum(1 << b for b, box in enumerate(model.boxes) if sheet.entry(box))
        five = sheet.entry(model.boxes[model.five]) if model.five >= 0 else None
        flag = int(model.flagged and five is not None and five.points > 0)
        fives = [lat.rolls.start + r for r in model.five_rows]
        for hand in fives + rng.sample(range(lat.rolls.start, lat.rolls.stop), 5):
            dice = lat.dice(hand)
            for j in range(model.ruleset.rolls):
                offered = {e.box: e for e in sheet.options(dice, ScoreContext(roll=j + 1))}
                for b, box in enumerate(model.boxes):
                    found = model.entry(mask, flag, b, hand - lat.rolls.start, j)
                    if box not in offered:
                        assert found is None, (box, dice, sheet.entries)
                        continue
                    entry = offered[box]
                    assert found is not None, (box, dice, sheet.entries)
                    upper = entry.points if box in bonus else 0
                    assert found[:2] == (entry.value, upper), (box, dice, sheet.entries)
                    checked += 1
    assert checked > 1000


@pytest.mark.parametrize(
    ("ruleset", "why"),
    [
        ("kniffel+columns", "columns"),
        ("kniffel+columns-3", "columns"),
        ("mickey", "declares"),
        ("kniffel+save-rolls", "carries unused rolls"),
        ("kniffel+strict", "top to bottom|order"),
        ("kniffel+sharp", "sharp"),
        ("yahtzee+swiss", "Swiss"),
        ("maxi-yatzy", "6 dice"),
        ("ohio", "6 dice"),
        ("crag", "other boxes are filled"),
        ("kniffel-extra-turn", "extra turns"),
        ("kniffel+croatian", "computed"),
    ],
)
def test_a_game_it_cannot_model_is_refused_with_the_reason(ruleset: str, why: str) -> None:
    with pytest.raises(Unsolvable, match=why) as caught:
        Model.build(load_ruleset(ruleset))
    assert isinstance(caught.value, RulesError)
    assert ruleset in str(caught.value)


def test_hold_none_is_solved() -> None:
    assert Model.build(load_ruleset("kniffel+full-cup")).ruleset.hold == "none"
