"""The tray learns its dice from the players: every reading they correct or confirm during
play teaches the reader, on the frame stored for it, through a real simulated tray, the
real recognizer and classifier, and the teaching file in the data directory."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
from click.testing import CliRunner

from dicetray.firmware.cli import main
from dicetray.firmware.errors import StaleVersion
from dicetray.firmware.learning import (
    SIMULATED_TEACHING_FILE,
    TEACHING_FILE,
    Die,
    Learning,
    LearningSettings,
    pair,
)
from dicetray.vision import Reading, read
from dicetray.vision.sketch import SketchDie, sketch
from dicetray.vision.teaching import Confirmed, Teaching


class Asking:
    """The real recognizer, whose every reading needs checking (the first die misread as
    a value none of the dice shows, as a classifier fooled by these dice would, when
    ``misread``); it keeps the teaching each read was given."""

    def __init__(self, misread: bool = True) -> None:
        self.misread = misread
        self.given: list[Teaching | None] = []

    def __call__(self, frame, calibration=None, dice=None, *, teaching=None):
        self.given.append(teaching)
        reading = read(frame, calibration, dice, teaching=teaching)
        found = list(reading.dice)
        if self.misread and found:
            unseen = min(set(range(1, 7)) - {d.value for d in found})
            found[0] = dataclasses.replace(found[0], value=unseen)
        return Reading("unsure", "ambiguous: a test's doubt", tuple(found))


def truth(tray):
    return sorted(tray.rig.camera.truth().values)


def asked(tray, reader):
    """A game, a roll that needs checking; the state."""
    table = tray.table
    table.reader = reader
    table.new_game(table.version, "yahtzee", ["Ann"])
    state = table.roll(table.version)
    assert state["cycle"] == "needs-help", state["why"]
    return state


def values(teaching):
    return Counter(e.value for e in teaching.examples)


class TestLearningInPlay:
    def test_a_correction_teaches_the_file_and_the_next_roll(self, sim_tray):
        tray = sim_tray(seed=11)
        table, reader = tray.table, Asking()
        state = asked(tray, reader)
        assert reader.given[-1] is None  # untaught so far
        assert state["teaching"] == {"status": "missing", "why": "", "dice": 0}
        shown = truth(tray)
        state = table.correct(table.version, shown)
        path = tray.data_dir / SIMULATED_TEACHING_FILE
        learnt = Teaching.load(path)
        # every die learnt, the misread one as the value the players gave it
        assert values(learnt) == Counter(shown) and state["teaching"]["dice"] == 5
        assert table.teaching_status()["values"] == {str(v): Counter(shown)[v]
                                                     for v in range(1, 7)}
        table.roll(table.version)
        assert reader.given[-1] == learnt

        # the second correction adds to the file; the reader is given both lessons
        again = truth(tray)
        table.correct(table.version, again)
        assert values(Teaching.load(path)) == Counter(shown) + Counter(again)
        table.roll(table.version)
        assert len(reader.given[-1].examples) == 10

    def test_dice_confirmed_as_read_teach_too(self, sim_tray):
        tray = sim_tray(seed=11)
        table = tray.table
        state = asked(tray, Asking(misread=False))
        read_values = [d["value"] for d in state["reading"]["dice"]]
        table.correct(table.version, read_values)
        assert values(table.learning.teaching) == Counter(read_values)

    def test_what_was_learnt_is_read_with_after_a_restart(self, sim_tray, tmp_path):
        tray = sim_tray(seed=11)
        asked(tray, Asking())
        tray.table.correct(tray.table.version, truth(tray))
        learnt = tray.table.learning.teaching
        tray.close()
        again = sim_tray(seed=11, folder=tmp_path)
        assert again.table.state()["teaching"]["dice"] == 5
        reader = Asking()
        asked(again, reader)
        assert reader.given[-1] == learnt

    def test_dice_typed_by_hand_without_a_reading_teach_nothing(self, sim_tray):
        tray = sim_tray(seed=11)
        table = tray.table
        table.new_game(table.version, "yahtzee", ["Ann"])
        tray.rig.sim.unplug_camera()
        state = table.roll(table.version)
        assert state["cycle"] == "needs-help" and state["manual"]
        table.correct(table.version, [1, 2, 3, 4, 6])
        assert table.teaching_status()["dice"] == 0
        assert not (tray.data_dir / SIMULATED_TEACHING_FILE).exists()

    def test_a_file_that_cannot_be_written_loses_nothing(self, sim_tray):
        tray = sim_tray(seed=11)
        table = tray.table
        asked(tray, Asking())
        table.correct(table.version, truth(tray))
        path = tray.data_dir / SIMULATED_TEACHING_FILE
        before = path.read_bytes()
        (tray.data_dir / f".{SIMULATED_TEACHING_FILE}.tmp").mkdir()  # the write fails
        table.roll(table.version)
        state = table.correct(table.version, truth(tray))
        assert state["cycle"] == "idle"  # the players' values are in the game regardless
        status = table.teaching_status()
        assert "could not be written" in status["note"] and status["dice"] == 5
        assert path.read_bytes() == before


    def test_a_lesson_that_fails_never_undoes_the_roll(self, sim_tray):
        def broken(frame, dice, values):
            raise RuntimeError("the classifier broke")

        tray = sim_tray(seed=11)
        table = tray.table
        table.learning = Learning(tray.data_dir / SIMULATED_TEACHING_FILE, teacher=broken)
        asked(tray, Asking())
        state = table.correct(table.version, truth(tray))
        assert state["cycle"] == "idle" and state["game"]["turn"]["dice"]
        status = table.teaching_status()
        assert status["note"] == "nothing learnt: RuntimeError: the classifier broke"
        assert status["dice"] == 0 and list(tray.store.corrections())


BAD_FILES = {
    "not-json": ("{oops", "not a teaching file"),
    "foreign": (json.dumps({"kind": "dicetray-calibration", "version": 1}),
                "not a dicetray teaching file (kind 'dicetray-calibration')"),
    "other-version": (json.dumps({**Teaching().to_json(), "version": 2}),
                      "unsupported version 2 (expected 1)"),
    "damaged": (json.dumps({**Teaching((Confirmed(3, (0, 0, 0, 1, 0, 0, 0, 0)),)).to_json(),
                            "checksum": "0" * 64}), "checksum does not match"),
}


class TestARefusedFile:
    @pytest.mark.parametrize("kind", sorted(BAD_FILES))
    def test_is_said_with_the_reason_left_as_it_is_and_the_tray_plays(self, sim_tray,
                                                                       tmp_path, kind):
        text, why = BAD_FILES[kind]
        path = tmp_path / TEACHING_FILE
        path.write_text(text)
        tray = sim_tray(seed=11, teaching_file=path)
        table = tray.table
        teaching = table.state()["teaching"]
        assert teaching["status"] == "bad" and why in teaching["why"]
        assert teaching["why"].startswith("teaching.json: ")  # its name, not where it is
        reader = Asking()
        asked(tray, reader)
        assert reader.given == [None] * len(reader.given)  # read untaught
        state = table.correct(table.version, truth(tray))
        assert state["cycle"] == "idle" and state["game"]["turn"]["rolls_used"] == 1
        assert "refused" in table.teaching_status()["note"]
        assert path.read_text() == text

    def test_forgetting_it_moves_it_aside_and_the_tray_learns_again(self, sim_tray, tmp_path):
        path = tmp_path / TEACHING_FILE
        path.write_text("{oops")
        tray = sim_tray(seed=11, teaching_file=path)
        table = tray.table
        status = table.forget_teaching(table.version)
        assert status["status"] == "missing" and status["why"] == ""
        assert (tmp_path / "teaching.forgotten.json").read_text() == "{oops"
        asked(tray, Asking())
        table.correct(table.version, truth(tray))
        assert table.teaching_status()["status"] == "ok"
        assert len(Teaching.load(path).examples) == 5


class TestForgetting:
    def test_forgets_what_was_learnt_and_keeps_the_old_file_aside(self, sim_tray):
        tray = sim_tray(seed=11)
        table, reader = tray.table, Asking()
        asked(tray, reader)
        table.correct(table.version, truth(tray))
        path = tray.data_dir / SIMULATED_TEACHING_FILE
        learnt = path.read_bytes()
        status = table.forget_teaching(table.version)
        assert status["status"] == "missing" and status["dice"] == 0
        assert not path.exists()
        assert (tray.data_dir / "teaching.sim.forgotten.json").read_bytes() == learnt
        table.roll(table.version)
        assert reader.given[-1] is None

    def test_an_old_version_is_refused(self, sim_tray):
        tray = sim_tray(seed=11)
        table = tray.table
        old = table.version
        table.new_game(old, "yahtzee", ["Ann"])
        with pytest.raises(StaleVersion):
            table.forget_teaching(old)


class TestSharedWithTheCommandLine:
    def test_teach_with_a_data_dir_adds_to_the_trays_own_file(self, tmp_path, sim_tray):
        photo = tmp_path / "roll.png"
        import cv2

        cv2.imwrite(str(photo), sketch([SketchDie(4, 500, 400, 90.0, 10)]))
        folder = tmp_path / "tray"
        result = CliRunner().invoke(main, ["teach", "--data-dir", str(folder), str(photo)],
                                    input="\n")
        assert result.exit_code == 0, result.output
        path = folder / TEACHING_FILE
        assert values(Teaching.load(path)) == Counter([4])

        # a tray reading with that file sees dice the command adds while it runs
        tray = sim_tray(seed=11, folder=folder, teaching_file=path)
        assert tray.table.state()["teaching"]["dice"] == 1
        result = CliRunner().invoke(main, ["--data-dir", str(folder), "teach", str(photo)],
                                    input="\n")
        assert "1 dice learnt, 2 in all" in result.output
        reader = Asking()
        asked(tray, reader)
        assert len(reader.given[-1].examples) == 2
        tray.table.correct(tray.table.version, truth(tray))
        assert len(Teaching.load(path).examples) == 7  # the command's dice kept


    def test_teach_from_corrections_learns_anew_what_play_taught(self, sim_tray, tmp_path):
        folder = tmp_path / "tray"
        path = folder / TEACHING_FILE
        tray = sim_tray(seed=11, folder=folder, teaching_file=path)
        table, reader = tray.table, Asking()
        asked(tray, reader)
        table.correct(table.version, truth(tray))
        table.roll(table.version)
        table.correct(table.version, truth(tray))
        played = Teaching.load(path)
        assert len(played.examples) == 10
        before = path.read_bytes()

        result = CliRunner().invoke(main, ["--data-dir", str(folder), "teach",
                                           "--from-corrections"])
        assert result.exit_code == 0, result.output
        assert "relearnt: 10 dice from 2 corrections" in result.output
        # anew, not added to: the same dice, on the same stored frames; the old file aside
        assert Teaching.load(path) == played
        assert path.with_name("teaching.forgotten.json").read_bytes() == before
        table.roll(table.version)
        assert reader.given[-1] == played  # the running tray reads with it

    def test_teach_needs_photos_or_corrections_and_a_trays_store(self, tmp_path):
        result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "teach"])
        assert result.exit_code != 0 and "--from-corrections" in result.output
        result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "teach",
                                           "--from-corrections"])
        assert result.exit_code != 0 and "no tray's store here" in result.output
        assert not (tmp_path / TEACHING_FILE).exists()


class TestPairing:
    def test_a_die_on_the_ledge_is_never_given_a_value_it_was_not_read_as(self):
        dice = [Die(5, 0, 0, 9, "ledge"), Die(2, 9, 0, 9, "tray")]
        # the game kept a 6 there; someone turned it to 5 on the ledge
        assert pair(dice, [6, 2]) == [(dice[1], 2)]

    def test_wrong_dice_corrected_to_different_values_cannot_be_told_apart(self):
        dice = [Die(4, 0, 0, 9), Die(4, 9, 0, 9), Die(1, 0, 9, 9)]
        assert pair(dice, [6, 5, 1]) == [(dice[2], 1)]

    def test_a_find_that_is_no_die_is_left_out(self):
        dice = [Die(2, 0, 0, 9), Die(3, 9, 0, 9), Die(1, 0, 9, 9)]  # the 1 was a clip
        assert pair(dice, [2, 3]) == [(dice[0], 2), (dice[1], 3)]


def test_only_the_newest_dice_of_each_value_are_kept(tmp_path):
    frame = sketch([SketchDie(2, 500, 400, 90.0, 10), SketchDie(4, 900, 400, 90.0, 30)])
    dice = [Die(2, 500, 400, 90.0), Die(4, 900, 400, 90.0)]
    learning = Learning(tmp_path / TEACHING_FILE, settings=LearningSettings(kept_per_value=2))
    for _ in range(3):
        assert learning.learn(frame, dice, [2, 4]) == 2
    learning.learn(frame, dice[:1], [2])
    assert values(Teaching.load(tmp_path / TEACHING_FILE)) == Counter({2: 2, 4: 2})
