"""The coach's tables on the tray: prepared in the background when a game starts, never
built twice at once, and a hint during the build says how far it has got.

The background runner is a list of jobs the test runs when it chooses (no threads, no
sleeps); the loader wraps the session's table loader to watch what happens during a build.
"""

from __future__ import annotations

import threading

import pytest

from dicetray.firmware.coach import Coach, CoachReason, Readiness, start_daemon
from dicetray.firmware.store import Store
from dicetray.firmware.table import Table
from dicetray.rules import load_ruleset
from dicetray.rules.advisor.errors import Refusal


class Jobs(list):
    """A runner that keeps the jobs until the test runs them."""

    def run_all(self) -> None:
        while self:
            self.pop(0)()


@pytest.fixture
def jobs() -> Jobs:
    return Jobs()


@pytest.fixture
def watched(coach_tables):
    """A loader that says which rule sets it was asked for, and tells progress halfway."""
    calls: list[str] = []
    during: list = []

    def load(ruleset, directory, *, progress):
        calls.append(ruleset.id)
        progress(3, 10)
        for look in during:
            look()
        return coach_tables(ruleset, directory, progress=progress)

    load.calls = calls
    load.during = during
    return load


def roll(table) -> None:
    table.roll(table.version)


def test_a_new_game_prepares_the_table_and_hints_say_computing_until_it_is_ready(
        sim_tray, jobs, watched):
    tray = sim_tray(seed=11, advisor_run=jobs.append, advisor_loader=watched)
    table = tray.table
    table.new_game(table.version, "general", ["Ann"])
    assert len(jobs) == 1 and watched.calls == []  # started, not waited for
    roll(table)
    first = table.advice()
    assert first["available"] is False and first["reason"] == CoachReason.COMPUTING
    assert first["progress"] == 0 and "working out" in first["why"]
    assert len(jobs) == 1  # asking again starts no second build
    seen = []
    watched.during.append(lambda: seen.append(table.advice()))
    jobs.run_all()
    assert seen[0]["reason"] == "computing" and seen[0]["progress"] == pytest.approx(0.3)
    assert "30 %" in seen[0]["why"]
    advice = table.advice()
    assert advice["available"] is True and advice["options"]
    assert watched.calls == ["general"]


def test_the_same_rules_are_never_prepared_twice(sim_tray, jobs, watched):
    tray = sim_tray(seed=11, advisor_run=jobs.append, advisor_loader=watched)
    table = tray.table
    table.new_game(table.version, "general", ["Ann"])
    table.new_game(table.version, "general", ["Ann", "Bo"])  # again, while it computes
    roll(table)
    table.advice()
    assert len(jobs) == 1
    jobs.run_all()
    table.new_game(table.version, "general", ["Bo"])  # ready: nothing more to do
    assert jobs == [] and watched.calls == ["general"]


def test_a_tray_starting_with_a_game_under_way_prepares_its_table(sim_tray, tmp_path, jobs,
                                                                   watched):
    tray = sim_tray(seed=11, advisor_run=jobs.append, advisor_loader=watched)
    tray.table.new_game(tray.table.version, "general", ["Ann"])
    jobs.run_all()
    tray.store.close()
    later = Jobs()
    with Store(tmp_path) as store:
        again = Table(store=store, code="X", advisor_dir=tmp_path / "advisor",
                      advisor_run=later.append, advisor_loader=watched)
        assert len(later) == 1  # at the start, before any phone asks
        later.run_all()
        assert watched.calls == ["general", "general"]
        assert again.coach.status(load_ruleset("general")).readiness is Readiness.READY


def test_rules_the_solver_refuses_say_which_rule(sim_tray, jobs, watched):
    tray = sim_tray(seed=11, advisor_run=jobs.append, advisor_loader=watched)
    table = tray.table
    table.new_game(table.version, "mickey", ["Ann"])
    jobs.run_all()
    roll(table)
    advice = table.advice()
    assert advice["reason"] == CoachReason.REFUSED
    assert advice["refusal"] == Refusal.DECLARATION and "declares" in advice["why"]
    assert jobs == []  # a refusal stays: nothing is tried again


def test_a_table_that_cannot_be_kept_is_tried_again_at_the_next_game(sim_tray, jobs):
    failures = []

    def full_disk(ruleset, directory, *, progress):
        failures.append(ruleset.id)
        raise OSError(28, "No space left on device")

    tray = sim_tray(seed=11, advisor_run=jobs.append, advisor_loader=full_disk)
    table = tray.table
    table.new_game(table.version, "general", ["Ann"])
    jobs.run_all()
    roll(table)
    advice = table.advice()
    assert advice["reason"] == CoachReason.FAILED and "No space left" in advice["why"]
    assert jobs == []  # not again at every hint
    table.new_game(table.version, "general", ["Ann"])
    jobs.run_all()
    assert failures == ["general", "general"]


def test_the_analysis_waits_for_the_table_too(sim_tray, jobs, watched):
    tray = sim_tray(seed=11, advisor_run=jobs.append, advisor_loader=watched)
    table = tray.table
    table.new_game(table.version, "general", ["Ann"])
    while not table.match.game.finished:
        roll(table)
        table.score(table.version, table.state()["game"]["options"][0]["box"])
    assert table.analysis()["reason"] == CoachReason.COMPUTING
    jobs.run_all()
    assert table.analysis()["available"] is True


def test_reasons_before_a_table_is_needed(sim_tray, jobs, watched):
    tray = sim_tray(seed=11, advisor_run=jobs.append, advisor_loader=watched)
    table = tray.table
    assert table.advice()["reason"] == CoachReason.NO_GAME
    table.new_game(table.version, "general", ["Ann", "Bo"])
    assert table.advice()["reason"] == CoachReason.NOT_ROLLED
    roll(table)
    assert table.advice(1)["reason"] == CoachReason.NOT_THIS_PLAYER


def test_tables_are_made_on_daemon_threads(tmp_path):
    """A build in progress never keeps the tray's process from stopping."""
    done = threading.Event()
    seen = []

    def job():
        seen.append(threading.current_thread().daemon)
        done.set()

    start_daemon(job)
    assert done.wait(10)
    assert seen == [True]


def test_without_a_folder_the_coach_is_off_and_starts_nothing(jobs):
    coach = Coach(None, run=jobs.append)
    assert coach.prepare(load_ruleset("general")).readiness is Readiness.OFF
    assert jobs == []
