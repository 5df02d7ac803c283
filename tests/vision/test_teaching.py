"""Teaching the tray its dice: the confirmed dice, their prototypes, the file and its checks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dicetray.vision import read
from dicetray.vision.errors import TeachingError, VisionError
from dicetray.vision.parts import FaceClassifier
from dicetray.vision.reading import DieReading
from dicetray.vision.sketch import SketchDie, sketch, spots
from dicetray.vision.teaching import KIND, MOST_PER_VALUE, Confirmed, Teaching, confirmed

#: what the classifier answers for these dice: their 6s as 4s, their 2s as 1s
SIX_AS_FOUR = (0.02, 0.0, 0.0, 0.0, 0.8, 0.0, 0.16, 0.02)
TWO_AS_ONE = (0.02, 0.7, 0.25, 0.0, 0.0, 0.0, 0.0, 0.03)


def taught() -> Teaching:
    t = Teaching()
    for event in (Confirmed(6, SIX_AS_FOUR), Confirmed(2, TWO_AS_ONE), Confirmed(6, SIX_AS_FOUR)):
        t = t.apply(event)
    return t


class TestSecondOpinion:
    def test_an_answer_like_the_confirmed_sixes_reads_as_a_six(self) -> None:
        p = taught().second_opinion(np.array([0.03, 0, 0, 0, 0.75, 0, 0.2, 0.02]))
        assert int(np.argmax(p)) == 6 and p.sum() == pytest.approx(1.0, abs=1e-5)

    def test_a_value_not_taught_is_still_read_where_the_classifier_is_clear(self) -> None:
        p = taught().second_opinion(np.array([0.0, 0, 0, 0.97, 0.01, 0.01, 0, 0.01]))
        assert int(np.argmax(p)) == 3

    def test_unreadable_and_no_die_keep_their_share(self) -> None:
        answer = np.array([0.5, 0, 0, 0, 0.2, 0, 0.1, 0.2])
        p = taught().second_opinion(answer)
        assert (p[0], p[7]) == pytest.approx((0.5, 0.2))

    def test_untaught_changes_nothing(self) -> None:
        answer = np.array([0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.1, 0.1])
        assert Teaching().second_opinion(answer) == pytest.approx(answer)

    def test_many_confirmed_ones_do_not_make_other_dice_ones(self) -> None:
        # ten 1s confirmed: the head learns how these dice's 1s look, not that any die
        # is likelier a 1 (each value weighs alike; a value not taught stands in as one
        # die read as surely as the confirmed ones)
        one = (0.05, 0.85, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01)
        t = Teaching(tuple(Confirmed(1, one) for _ in range(10)))
        two = np.array([0.12, 0.03, 0.8, 0.01, 0.01, 0.01, 0.0, 0.02])
        p = t.second_opinion(two)
        assert int(np.argmax(p)) == 2 and p[2] >= two[2] - 1e-6 and p[1] <= 0.05

    def test_many_confirmed_dice_make_it_sure_of_what_the_classifier_hesitates_on(
            self) -> None:
        # these dice's 5s the classifier reads torn between 5 and 6, their 6s clearly
        five = (0.02, 0.0, 0.0, 0.0, 0.03, 0.5, 0.43, 0.02)
        six = (0.02, 0.0, 0.0, 0.0, 0.02, 0.03, 0.91, 0.02)
        answer = np.array(five)
        few = Teaching((Confirmed(5, five), Confirmed(6, six)))
        many = Teaching(tuple(Confirmed(5, five) for _ in range(20))
                        + tuple(Confirmed(6, six) for _ in range(20)))
        p_few, p_many = few.second_opinion(answer), many.second_opinion(answer)
        assert int(np.argmax(p_many)) == 5 and p_many[5] >= 0.8
        assert p_few[5] < p_many[5]  # two dice move it less than forty
        assert int(np.argmax(many.second_opinion(np.array(six)))) == 6

    def test_a_clear_answer_the_teaching_agrees_with_stays_as_sure(self) -> None:
        clear_six = np.array([0.0, 0.0, 0.0, 0.0, 0.01, 0.01, 0.97, 0.01])
        p = taught().second_opinion(clear_six)
        assert int(np.argmax(p)) == 6 and p[6] >= 0.97 - 1e-6

    def test_the_latest_confirmations_of_a_value_make_the_head(self) -> None:
        # the tray's dice were changed: its old 6s looked like 4s to the classifier, the
        # new dice's 4s look the same and are 4s; the latest MOST_PER_VALUE of each value
        # are what the head is fitted to
        looks_four = (0.02, 0.0, 0.0, 0.0, 0.8, 0.0, 0.16, 0.02)
        six = (0.02, 0.0, 0.0, 0.0, 0.01, 0.01, 0.94, 0.02)
        old = tuple(Confirmed(6, looks_four) for _ in range(MOST_PER_VALUE))
        four = (0.02, 0.0, 0.0, 0.0, 0.94, 0.01, 0.01, 0.02)
        new = (tuple(Confirmed(6, six) for _ in range(MOST_PER_VALUE))
               + tuple(Confirmed(4, four) for _ in range(450))
               + tuple(Confirmed(4, looks_four) for _ in range(50)))
        assert int(np.argmax(Teaching(old).second_opinion(np.array(looks_four)))) == 6
        assert int(np.argmax(Teaching(old + new).second_opinion(np.array(looks_four)))) == 4

    def test_a_malformed_confirmation_is_refused(self) -> None:
        with pytest.raises(TeachingError, match=r"1\.\.6"):
            Confirmed(7, SIX_AS_FOUR)
        with pytest.raises(TeachingError, match="probabilities"):
            Confirmed(6, (0.5, 0.5))
        with pytest.raises(TeachingError, match="Confirmed"):
            Teaching().apply(6)  # type: ignore[arg-type]


class TestFile:
    def test_round_trip(self, tmp_path: Path) -> None:
        path = tmp_path / "teaching.json"
        taught().save(path)
        assert Teaching.load(path) == taught()
        assert json.loads(path.read_text())["kind"] == KIND

    @pytest.mark.parametrize(("change", "why"), [
        (lambda d: d["examples"][0].update(value=5), "checksum"),
        (lambda d: d.update(version=2), "version 2"),
        (lambda d: d.update(kind="dicetray-calibration"), "not a dicetray teaching file"),
        (lambda d: d.update(examples="all"), "must be a list"),
    ])
    def test_a_corrupt_or_foreign_file_is_refused_with_the_reason(
            self, tmp_path: Path, change, why: str) -> None:
        path = tmp_path / "teaching.json"
        taught().save(path)
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
        with pytest.raises(TeachingError, match=why) as caught:
            Teaching.load(path)
        assert str(path) in str(caught.value) and isinstance(caught.value, VisionError)

    @pytest.mark.parametrize("text", ["", "{not json", "[1, 2]", '{"version": 1}'])
    def test_not_a_teaching_file(self, tmp_path: Path, text: str) -> None:
        path = tmp_path / "teaching.json"
        path.write_text(text)
        with pytest.raises(TeachingError):
            Teaching.load(path)

    def test_missing(self, tmp_path: Path) -> None:
        with pytest.raises(TeachingError, match="no such"):
            Teaching.load(tmp_path / "none.json")


def test_confirmed_asks_the_classifier_about_each_die_in_order() -> None:
    asked = []

    def classify(frame: np.ndarray, dice: list) -> np.ndarray:
        asked.append(dice)
        return np.array([SIX_AS_FOUR, TWO_AS_ONE])

    dice = [DieReading(4, 10.0, 20.0, 0.0, "unknown", 0.9, 30.0),
            DieReading(1, 50.0, 20.0, 0.0, "unknown", 0.9, 31.0)]
    events = confirmed(np.zeros((60, 80, 3), np.uint8), dice, [6, 2], classify=classify)
    assert [e.value for e in events] == [6, 2] and events[1].probs == TWO_AS_ONE
    assert asked == [[(10.0, 20.0, 30.0), (50.0, 20.0, 31.0)]]
    with pytest.raises(TeachingError, match="2 values confirmed for 1 dice"):
        confirmed(np.zeros((60, 80, 3), np.uint8), dice[:1], [6, 2], classify=classify)


def test_a_lone_six_the_classifier_misreads_is_read_once_the_tray_is_taught(
        unlike_the_dice: FaceClassifier) -> None:
    six = SketchDie(6, 600, 500, 90.0, 30, face=spots(6, columns=0.6))
    frame = sketch([six, SketchDie(3, 900, 500, 90.0, 10)])
    untaught = read(frame, classifier=unlike_the_dice)
    assert not untaught.ok  # the classifier calls it a 4: refused
    # the players confirm a roll of these dice: the 6s the classifier calls 4s
    roll = sketch([SketchDie(6, 500 + 300 * k, 400, 90.0, 20 * k, face=spots(6, columns=0.6))
                   for k in range(3)])
    shown = read(roll, classifier=unlike_the_dice)
    teaching = Teaching()
    for event in confirmed(roll, shown.dice, [6] * len(shown.dice),
                           classify=unlike_the_dice.classify):
        teaching = teaching.apply(event)
    roll_read = read(frame, teaching=teaching, classifier=unlike_the_dice)
    assert roll_read.ok and roll_read.values == (3, 6), roll_read.reason
