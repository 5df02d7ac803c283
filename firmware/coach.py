"""The coach's strategy tables on the tray: loaded or computed in the background.

A table takes seconds to compute (and a second or two to load from the data directory),
so it is prepared as soon as a game of its rule set starts (and at the tray's start for
the current game), never while a phone waits for a hint. Until it is ready, a hint says
the coach is computing, and how far it has got. One table is prepared at most once at a
time per rule set content, however many phones ask.

>>> import tempfile
>>> from dicetray.rules import load_ruleset
>>> jobs = []
>>> coach = Coach(tempfile.mkdtemp(), run=jobs.append)
>>> coach.status(load_ruleset("general")).readiness
<Readiness.COMPUTING: 'computing'>
>>> coach.status(load_ruleset("general")).progress, len(jobs)  # asked again: no second job
(0.0, 1)
>>> jobs[0]()
>>> coach.status(load_ruleset("general")).readiness
<Readiness.READY: 'ready'>
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from dicetray.rules import RulesError, RuleSet

__all__ = ["Coach", "CoachReason", "Readiness", "Runner", "Status", "TableLoader",
           "load_strategy_table"]

Runner = Callable[[Callable[[], None]], None]


class TableLoader(Protocol):
    """Loads a rule set's strategy table from ``directory`` or computes (and keeps) it,
    telling ``progress(done, total)`` while it computes
    (:func:`dicetray.rules.advisor.cache.load_table`)."""

    def __call__(
        self, ruleset: RuleSet, directory: Path, *, progress: Callable[[int, int], None]
    ) -> Any: ...


def load_strategy_table(
    ruleset: RuleSet, directory: Path, *, progress: Callable[[int, int], None]
) -> Any:
    """The default :class:`TableLoader`: the advisor's cache in ``directory``."""
    from dicetray.rules.advisor.cache import load_table

    return load_table(ruleset, directory, progress=progress)


def start_daemon(job: Callable[[], None]) -> None:
    """Run ``job`` on a daemon thread: a table being computed never keeps the tray from
    stopping."""
    threading.Thread(target=job, name="coach-table", daemon=True).start()


class Readiness(StrEnum):
    READY = "ready"
    COMPUTING = "computing"
    REFUSED = "refused"  # the solver does not model these rules
    FAILED = "failed"  # the table could not be kept: tried again at the next game
    OFF = "off"  # no data directory for tables


@dataclass(frozen=True)
class Status:
    """Where one rule set's table stands. ``why`` in English; ``refusal`` names the rule
    the solver refuses (:attr:`dicetray.rules.advisor.Unsolvable.code`)."""

    readiness: Readiness
    table: Any = None
    progress: float = 0.0
    why: str = ""
    refusal: str = ""


class Coach:
    """The strategy tables of the rule sets played at this tray, kept once made."""

    def __init__(
        self,
        directory: str | os.PathLike[str] | None,
        *,
        loader: TableLoader = load_strategy_table,
        run: Runner = start_daemon,
    ) -> None:
        self.directory = Path(directory) if directory is not None else None
        self._loader = loader
        self._run = run
        self._lock = threading.Lock()
        self._status: dict[str, Status] = {}

    def status(self, ruleset: RuleSet) -> Status:
        """Where ``ruleset``'s table stands; starts preparing it if nothing has yet."""
        return self.prepare(ruleset, retry=False)

    def prepare(self, ruleset: RuleSet, *, retry: bool = True) -> Status:
        """Start loading or computing ``ruleset``'s table in the background unless it is
        ready, refused or on its way (``retry``: also after a failure). Never waits."""
        if self.directory is None:
            return Status(Readiness.OFF, why="the coach has no place to keep its tables here")
        from dicetray.rules.advisor.cache import content_key

        key = content_key(ruleset)
        with self._lock:
            found = self._status.get(key)
            if found is not None and not (retry and found.readiness is Readiness.FAILED):
                return found
            found = self._status[key] = Status(Readiness.COMPUTING)
        self._run(lambda: self._make(key, ruleset))
        return found

    def _make(self, key: str, ruleset: RuleSet) -> None:
        from dicetray.rules.advisor.errors import Unsolvable

        def progress(done: int, total: int) -> None:
            with self._lock:
                self._status[key] = Status(Readiness.COMPUTING, progress=done / max(1, total))

        assert self.directory is not None
        try:
            made = Status(Readiness.READY, self._loader(ruleset, self.directory,
                                                        progress=progress), progress=1.0)
        except Unsolvable as error:  # the solver refuses these rules: that stays so
            made = Status(Readiness.REFUSED, why=" ".join(str(error).split()),
                          refusal=error.code)
        except RulesError as error:
            made = Status(Readiness.REFUSED, why=" ".join(str(error).split()))
        except (OSError, MemoryError) as error:
            why = getattr(error, "strerror", None) or str(error) or type(error).__name__
            made = Status(Readiness.FAILED, why=f"the coach could not keep its table: {why}")
        except BaseException as error:  # never leave a rule set computing for ever
            made = Status(Readiness.FAILED, why=f"the coach's table failed: {error!r}")
            with self._lock:
                self._status[key] = made
            raise
        with self._lock:
            self._status[key] = made


class CoachReason(StrEnum):
    """Why the coach gives no hint now (``reason`` in ``GET /api/advice`` and
    ``/api/analysis``; the pages translate it, ``why`` says it in English)."""

    NO_GAME = "no-game"
    NOT_THIS_PLAYER = "not-this-player"
    GAME_OVER = "game-over"
    NOT_ROLLED = "not-rolled"
    COMPUTING = "computing"  # with ``progress`` from 0 to 1
    REFUSED = "refused"  # with ``refusal``: the rule the solver does not model
    FAILED = "failed"
    OFF = "off"
    ERROR = "error"
