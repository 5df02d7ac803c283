"""The rule-set value objects: ScoreContext, BoxSpec, RuleSet.score and its JSON form."""

from __future__ import annotations

import json

import pytest

from dicetray.rules import (
    BoxSpec,
    InvalidDice,
    RulesError,
    RuleSetError,
    ScoreContext,
    UnknownBox,
    load_ruleset,
)


class TestScoreContext:
    def test_defaults_mean_unknown(self) -> None:
        ctx = ScoreContext()
        assert (ctx.roll, ctx.thrown, ctx.filled, ctx.served) == (None, None, frozenset(), False)

    def test_filled_becomes_a_frozenset(self) -> None:
        assert ScoreContext(filled={"crag"}).filled == frozenset({"crag"})

    @pytest.mark.parametrize(("roll", "thrown"), [(0, None), (-1, None), (None, -1)])
    def test_impossible_values_are_refused(self, roll: int | None, thrown: int | None) -> None:
        with pytest.raises(RulesError):
            ScoreContext(roll=roll, thrown=thrown)


class TestBoxSpec:
    def test_joker_points(self) -> None:
        yahtzee = load_ruleset("yahtzee")
        five = (3, 3, 3, 3, 3)
        assert yahtzee.box("full-house").joker_points(five) == 25
        assert yahtzee.box("small-straight").joker_points(five) == 30
        assert yahtzee.box("large-straight").joker_points(five) == 40
        assert yahtzee.box("three-of-a-kind").joker_points(five) == 15
        assert yahtzee.box("chance").joker_points(five) == 15
        assert load_ruleset("yatzy").box("full-house").joker_points(five) == 15

    def test_served_needs_a_fitting_roll(self) -> None:
        box = load_ruleset("general").box("straight")
        assert box.points((1, 2, 3, 4, 5), ScoreContext(roll=1)) == 25
        assert box.points((1, 2, 3, 4, 4), ScoreContext(roll=1)) == 0

    def test_computed_box_never_fits_a_roll(self) -> None:
        box = load_ruleset("kniffel+croatian").box("max-min")
        assert box.section == "computed"
        assert not box.fits((1, 1, 1, 1, 1))
        assert box.points((1, 1, 1, 1, 1)) == 0

    def test_compute_of_a_rolled_box_is_none(self) -> None:
        assert load_ruleset("kniffel").box("chance").compute({"chance": 20}) is None

    def test_name_falls_back_to_english(self) -> None:
        box = BoxSpec("x", "chance", {}, "lower", {"en": "Extra"})
        assert box.name("de") == "Extra"


class TestRuleSet:
    def test_unknown_box_lists_the_sheet(self) -> None:
        with pytest.raises(UnknownBox, match="no box 'yacht' in kniffel"):
            load_ruleset("kniffel").score("yacht", [1, 1, 1, 1, 1])

    @pytest.mark.parametrize(
        ("dice", "words"),
        [
            ([1, 2, 3, 4], "plays 5 dice, got 4"),
            ([1, 2, 3, 4, 5, 6], "plays 5 dice, got 6"),
            ([1, 2, 3, 4, 0], "die 5 shows 0"),
            ([1, 2, 3, 4, 7], "die 5 shows 7"),
            ([1, 2, 3.0, 4, 5], "die 3 is 3.0"),
            ([1, True, 3, 4, 5], "die 2 is True"),
            (5, "sequence of numbers"),
        ],
    )
    def test_invalid_dice(self, dice: object, words: str) -> None:
        with pytest.raises(InvalidDice, match=words):
            load_ruleset("yahtzee").score("chance", dice)  # type: ignore[arg-type]

    def test_computed_box_takes_no_roll(self) -> None:
        with pytest.raises(UnknownBox, match="computed"):
            load_ruleset("kniffel+croatian").score("max-min", [1, 1, 1, 1, 1])

    def test_sharp_doubles_only_when_all_dice_were_thrown(self) -> None:
        sharp = load_ruleset("kniffel+sharp")
        full_house = (2, 2, 5, 5, 5)
        assert sharp.score("full-house", full_house, ScoreContext(thrown=5)) == 50
        assert sharp.score("full-house", full_house, ScoreContext(thrown=2)) == 25
        assert sharp.score("full-house", full_house) == 25
        assert sharp.score("kniffel", (4, 4, 4, 4, 4), ScoreContext(thrown=5)) == 100
        assert sharp.score("three-of-a-kind", (4, 4, 4, 1, 2), ScoreContext(thrown=5)) == 30
        assert sharp.score("chance", full_house, ScoreContext(thrown=5)) == 19
        assert sharp.score("fives", full_house, ScoreContext(thrown=5)) == 15
        assert load_ruleset("kniffel").score("full-house", full_house, ScoreContext(thrown=5)) == 25

    def test_sections(self) -> None:
        croatian = load_ruleset("kniffel+croatian")
        assert croatian.upper_ids == ("ones", "twos", "threes", "fours", "fives", "sixes")
        assert croatian.lower_ids[:2] == ("maximum", "minimum")
        assert "max-min" not in croatian.scored_ids
        assert len(croatian.scored_ids) + len(croatian.computed_ids) == len(croatian.boxes)

    def test_to_dict_is_json(self) -> None:
        data = json.loads(json.dumps(load_ruleset("general").to_dict()))
        assert data["id"] == "general" and data["dice"] == 5 and data["hold"] == "locked"
        straight = data["boxes"][6]
        assert straight["id"] == "straight" and straight["served"] == 25
        assert straight["params"] == {"length": 5, "faces": None, "score": "fixed", "points": 20}
        assert straight["names"] == {"en": "Straight", "de": "Straße"}
        assert data["upper_bonus"] is None
        assert data["columns"] == [
            {"id": "main", "order": "free", "names": {"en": "Score", "de": "Punkte"}}
        ]

    def test_to_dict_policies(self) -> None:
        data = load_ruleset("kniffel+sharp+strict").to_dict()
        assert data["sharp"]["factor"] == 2 and "kniffel" in data["sharp"]["boxes"]
        assert data["strict"] == {"chance_five_of_a_kind": 100, "full_house": True}
        assert data["upper_bonus"]["threshold"] == 63
        assert data["options"] == ["sharp", "strict"]


def test_rule_set_error_without_a_path() -> None:
    assert str(RuleSetError("", "face", "bad")) == "face: bad"
