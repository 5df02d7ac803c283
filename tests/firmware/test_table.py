"""The table service over a simulated tray: the real recognizer reads rendered frames, the
cycle's loop runs inline (no threads), every event goes to a real SQLite store."""

from __future__ import annotations

from collections import Counter

import pytest

from dicetray.firmware.errors import (
    AgainstRules,
    BadRequest,
    Busy,
    NotFound,
    StaleVersion,
    WrongCode,
)
from dicetray.firmware.store import Store
from dicetray.firmware.table import Table
from dicetray.rules import Match, Rolled, Scored


@pytest.fixture
def tray(sim_tray):
    return sim_tray(seed=11, code="TESTCODE")


def truth(tray):
    """The values the simulated dice show now (what a perfect reader would say)."""
    return sorted(tray.rig.camera.truth().values)


def started(table, ruleset="yahtzee", players=("Ann",)):
    return table.new_game(table.version, ruleset, list(players))


def test_a_roll_reads_the_rendered_dice_into_the_game(tray):
    table = tray.table
    started(table)
    state = table.roll(table.version)
    assert state["cycle"] == "idle", state["why"]
    assert state["reading"]["status"] == "ok"
    dice = state["game"]["turn"]["dice"]
    assert sorted(dice) == truth(tray)
    assert state["reading"]["frame"].endswith(".jpg")
    assert table.frame(state["reading"]["id"]).exists()


def test_a_command_on_an_old_version_is_refused_and_not_applied(tray):
    table = tray.table
    state = started(table)
    old = state["version"]
    table.roll(old)
    with pytest.raises(StaleVersion):
        table.roll(old)
    box = table.state()["game"]["options"][0]["box"]
    now = table.version
    table.score(now, box)
    with pytest.raises(StaleVersion):
        table.score(now, box)
    assert sum(isinstance(e, Scored) for e in tray.store.events(table.game_id)) == 1


def test_the_rules_refuse_with_their_reason(tray):
    table = tray.table
    with pytest.raises(AgainstRules, match="no game"):
        table.roll(table.version)
    started(table)
    with pytest.raises(AgainstRules, match="no roll"):
        table.score(table.version, "chance")
    with pytest.raises(BadRequest):
        table.new_game(table.version, "../../etc/passwd", ["Ann"])
    with pytest.raises(BadRequest):
        table.new_game(table.version, "yahtzee", ["Ann"] * 9)
    with pytest.raises(WrongCode):
        table.join("WRONG", "Bo")
    assert table.join("TESTCODE", "  Bo ") == "Bo"


def test_scores_survive_a_restart_exactly(tray, tmp_path):
    table = tray.table
    started(table, players=("Ann", "Bo"))
    for _ in range(3):
        table.roll(table.version)
        table.score(table.version, table.state()["game"]["options"][0]["box"])
    before = table.state()["game"]
    tray.store.close()
    with Store(tmp_path) as store:
        again = Table(store=store, code="X")
        assert again.state()["game"] == before
        assert again.version > table.version - 1


def test_keeping_a_die_puts_it_on_the_ledge_and_the_next_roll_keeps_it(tray):
    table = tray.table
    started(table)
    first = table.roll(table.version)["game"]["turn"]["dice"]
    table.keep(table.version, [0, 1])
    state = table.roll(table.version)
    assert state["cycle"] == "idle", state["why"]
    turn = state["game"]["turn"]
    assert turn["held"] == [0, 1]
    assert turn["dice"][:2] == first[:2]
    ledge = [d["value"] for d in state["reading"]["dice"] if d["zone"] == "ledge"]
    assert Counter(ledge) == Counter(first[:2])
    assert sorted(turn["dice"]) == truth(tray)


def test_the_button_rolls_when_idle_and_is_ignored_otherwise(tray):
    table = tray.table
    started(table)
    table.press()
    assert table.state()["game"]["turn"]["rolls_used"] == 1
    for _ in range(2):
        table.press()
    assert table.state()["game"]["turn"]["rolls_left"] == 0
    version = table.version
    table.press()  # no rolls left: nothing happens
    assert table.version == version


def test_a_lost_camera_falls_back_to_dice_typed_by_hand(tray):
    table = tray.table
    started(table)
    tray.rig.sim.unplug_camera()
    state = table.roll(table.version)
    assert state["cycle"] == "needs-help" and state["manual"]
    assert "camera" in state["why"].lower() or "read" in state["why"].lower()
    state = table.correct(table.version, [1, 2, 3, 4, 6])
    assert state["cycle"] == "idle" and state["game"]["turn"]["dice"] == [1, 2, 3, 4, 6]
    state = table.score(table.version, "small-straight")
    assert state["game"]["sheets"][0]["total"] == 30


class Doubtful:
    """A reader that doubts the first ``times`` frames it is shown (as a cocked die would
    make it), and reads the rest with the real recognizer."""

    def __init__(self, times: int, reason: str = "cocked: die at (10, 10) leans") -> None:
        from dicetray.vision import read

        self.read, self.left, self.reason, self.calls = read, times, reason, 0

    def __call__(self, frame, calibration=None, dice=None, *, teaching=None):
        from dicetray.vision import Reading

        self.calls += 1
        self.taught = teaching
        reading = self.read(frame, calibration, dice=dice, teaching=teaching)
        if self.left > 0:
            self.left -= 1
            return Reading("unsure", self.reason, reading.dice)
        return reading


def test_a_cocked_die_is_tumbled_again_then_read(tray):
    table = tray.table
    table.reader = Doubtful(1)
    started(table)
    state = table.roll(table.version)
    assert state["cycle"] == "idle" and table.reader.calls == 2
    assert sorted(state["game"]["turn"]["dice"]) == truth(tray)


def test_doubt_that_persists_asks_the_players_and_keeps_their_correction(tray):
    table = tray.table
    table.reader = Doubtful(10)
    started(table)
    state = table.roll(table.version)
    assert state["cycle"] == "needs-help" and table.reader.calls == 3  # 1 + 2 re-tumbles
    with pytest.raises(Busy):
        table.score(table.version, "chance")
    values = truth(tray)
    state = table.correct(table.version, values)
    assert state["cycle"] == "idle"
    assert [e for e in tray.store.events(table.game_id) if isinstance(e, Rolled)][-1].dice \
        == tuple(values)
    corrections = list(tray.store.corrections())
    assert len(corrections) == 1 and list(corrections[0].players) == values


def test_undo_takes_back_the_last_entry_and_is_stored(tray):
    table = tray.table
    started(table)
    table.roll(table.version)
    table.score(table.version, "chance")
    state = table.undo(table.version)
    assert state["game"]["sheets"][0]["total"] == 0
    replayed = Match.from_events(tray.store.events(table.game_id))
    assert replayed.game.sheets[0].total == 0 and replayed.game.turn.rolled


def test_a_jammed_cup_is_an_error_with_the_motor_off_and_a_new_roll_tries_again(tray):
    table = tray.table
    started(table)
    tray.rig.sim.jam()
    state = table.roll(table.version)
    assert state["cycle"] == "error" and "home" in state["why"]
    assert not tray.rig.cup.turning
    assert tray.rig.status.status == "error"
    assert state["game"]["turn"]["rolls_used"] == 0  # nothing was read, nothing counted
    tray.rig.sim.unjam()
    state = table.roll(table.version)
    assert state["cycle"] == "idle" and state["game"]["turn"]["rolls_used"] == 1
    assert tray.rig.status.status == "idle"


def test_a_table_without_a_place_for_strategy_tables_says_the_coach_is_off(tray, tmp_path):
    table = tray.table
    started(table)
    table.roll(table.version)
    assert table.advice()["available"] is True
    tray.store.close()
    with Store(tmp_path) as store:
        bare = Table(store=store, code="X")
        advice = bare.advice()
        assert advice["available"] is False and "coach" in advice["why"]


def test_a_stored_match_is_analysed_on_its_last_game_and_unknown_games_are_refused(tray):
    table = tray.table
    table.new_game(table.version, "general", ["Ann"], games=2)
    first = table.game_id
    for _ in range(2):
        while not table.match.game.finished:
            table.roll(table.version)
            table.score(table.version, table.state()["game"]["options"][0]["box"])
        stored = table.analysis(first)
        assert stored == table.analysis()
        assert stored["players"][0]["final"] == table.match.game.sheets[0].total
        if not table.match.finished:
            table.next_game(table.version)
    with pytest.raises(BadRequest):
        table.analysis("1")
    with pytest.raises(NotFound):
        table.analysis(first + 99)
    table.new_game(table.version, "general", ["Ann"])
    with pytest.raises(AgainstRules, match="not over"):
        table.analysis()
