"""Fixtures shared by the tray's tests: simulated trays that run their roll cycle inline.

A simulated tray calibrates itself from rendered frames when it opens (several seconds);
the calibration of each seed is made once per test session and handed to later trays of
the same seed, as a builder's calibration file is reused at every start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest


def inline(job: Callable[[], None]) -> None:
    """Run the roll cycle's slow actions at once, on the test's thread."""
    job()


@pytest.fixture(scope="session")
def sim_calibration(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], Any]:
    """The calibration a simulated tray of ``seed`` makes of itself (made once per seed)."""
    from dicetray.firmware.tray import open_tray

    made: dict[int, Any] = {}

    def get(seed: int) -> Any:
        if seed not in made:
            tray = open_tray(tmp_path_factory.mktemp(f"calibrate{seed}"), simulate=True,
                             fast=True, seed=seed, code="CALIBRATE", run=inline)
            made[seed] = tray.table.calibration
            tray.close()
        return made[seed]

    return get


@pytest.fixture(scope="session")
def coach_tables(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Any]:
    """A table loader (firmware.coach.TableLoader) that computes each rule set's strategy
    table once a test session, whatever tray asks."""
    from dicetray.rules.advisor.cache import content_key, load_table

    folder = tmp_path_factory.mktemp("coach-tables")
    made: dict[str, Any] = {}

    def load(ruleset: Any, directory: Any, *, progress: Callable[[int, int], None]) -> Any:
        key = content_key(ruleset)
        if key not in made:
            made[key] = load_table(ruleset, folder, progress=progress)
        return made[key]

    return load


@pytest.fixture
def sim_tray(tmp_path, sim_calibration, coach_tables) -> Iterator[Callable[..., Any]]:
    """Open simulated trays (fast, inline cycle) in this test's folder; closed afterwards.
    The coach's tables are prepared inline too, each computed once a session."""
    from dicetray.firmware.tray import open_tray

    opened: list[Any] = []

    def open_one(seed: int = 11, code: str = "TESTCODE", folder: Any = None, **options: Any):
        options.setdefault("advisor_run", inline)
        options.setdefault("advisor_loader", coach_tables)
        tray = open_tray(folder or tmp_path, simulate=True, fast=True, seed=seed, code=code,
                         run=options.pop("run", inline), calibration=sim_calibration(seed),
                         **options)
        opened.append(tray)
        return tray

    yield open_one
    for tray in opened:
        tray.close()
