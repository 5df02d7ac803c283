"""Reading and DieReading: validation, views and JSON form."""

from __future__ import annotations

import json

import pytest

from dicetray.vision import DieReading, Reading
from dicetray.vision.reading import REASONS, LeftOut, UnreadDie, Why


def _die(value: int, zone: str = "tray") -> DieReading:
    return DieReading(value, 10.0, 20.0, 5.0, zone, 0.8, 30.0)


def test_values_sorted_and_zones() -> None:
    roll = Reading("ok", "", (_die(6), _die(2, "ledge"), _die(4)))
    assert roll.values == (2, 4, 6)
    assert [d.value for d in roll.in_zone("tray")] == [6, 4]
    with pytest.raises(ValueError):
        roll.in_zone("floor")


@pytest.mark.parametrize("word", REASONS)
def test_every_reason_word_is_accepted(word: str) -> None:
    roll = Reading("unsure", f"{word}: detail", ())
    assert roll.kind == word and not roll.ok


@pytest.mark.parametrize(
    ("status", "reason"), [("maybe", ""), ("ok", "blur: x"), ("unsure", ""), ("unsure", "odd")]
)
def test_inconsistent_readings_are_refused(status: str, reason: str) -> None:
    with pytest.raises(ValueError):
        Reading(status, reason, ())


@pytest.mark.parametrize("bad", [dict(value=0), dict(zone="cup"), dict(confidence=1.5)])
def test_bad_dice_are_refused(bad: dict) -> None:
    args = dict(value=3, x=1.0, y=1.0, angle=0.0, zone="tray", confidence=0.5, size=10.0)
    with pytest.raises(ValueError):
        DieReading(**(args | bad))


def test_json_round_trips_through_text() -> None:
    doubted = DieReading(3, 10.0, 20.0, 5.0, "tray", 0.8, 30.0, "ambiguous: in doubt")
    smeared = UnreadDie(40.04, 50.0, 31.26, "blur: die at (40, 50) is moving")
    roll = Reading("unsure", "edge: die cut at (3, 4)", (doubted,), 2.5,
                   unread=[smeared]).with_ms(3.25)
    data = json.loads(json.dumps(roll.to_json("a.png")))
    assert data == {
        "image": "a.png",
        "status": "unsure",
        "reason": "edge: die cut at (3, 4)",
        "dice": [
            {
                "value": 3,
                "x": 10.0,
                "y": 20.0,
                "confidence": 0.8,
                "angle": 5.0,
                "zone": "tray",
                "size": 30.0,
                "problem": "ambiguous: in doubt",
            }
        ],
        "ms": 3.25,
        "left_out": [],
        "unread": [{"x": 40.0, "y": 50.0, "size": 31.3,
                    "problem": "blur: die at (40, 50) is moving"}],
    }


@pytest.mark.parametrize("problem", ["", "odd", "in doubt: ambiguous"])
def test_a_die_not_read_needs_a_problem_a_die_read_may_have_none(problem: str) -> None:
    with pytest.raises(ValueError, match="must start with one of"):
        UnreadDie(1.0, 1.0, 1.0, problem)
    if problem:
        with pytest.raises(ValueError, match="must start with one of"):
            DieReading(3, 1.0, 1.0, 0.0, "tray", 0.5, 10.0, problem)
    else:
        assert DieReading(3, 1.0, 1.0, 0.0, "tray", 0.5, 10.0, problem).to_json()["problem"] == ""


def test_the_finds_left_out_are_in_the_json_with_why_and_survive_the_timing() -> None:
    clip = LeftOut(612.34, 8.0, 41.26, Why.UNLIKE)
    roll = Reading("ok", "", (_die(3),), left_out=[clip]).with_ms(2.0)
    data = json.loads(json.dumps(roll.to_json("a.png")))
    assert data["left_out"] == [{"x": 612.3, "y": 8.0, "size": 41.3, "why": "unlike"}]
    assert list(data)[:6] == ["image", "status", "reason", "dice", "ms", "left_out"]
    with pytest.raises(ValueError):
        LeftOut(1.0, 1.0, 1.0, "because")
