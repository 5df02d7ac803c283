"""What the tray remembers, read back: past games, high scores, how often each face came up.

These are the read-side queries of :class:`dicetray.firmware.store.Store`; each takes an
open connection to a dicetray database (see :mod:`dicetray.firmware.schema`) and only reads.
The store calls them under its lock; use them through the store.

>>> summary = GameSummary(3, "yahtzee", ("Ann", "Bo"), 1700000000.0, None, (12, 30), ())
>>> summary.finished
False
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["GameSummary", "HighScore", "face_counts", "games", "high_scores"]


@dataclass(frozen=True)
class GameSummary:
    """One game (or match) as a list of past games shows it.

    ``totals`` are each player's totals, in turn order: final once the game is finished,
    so far while it is being played. ``winners`` are player indices, empty until finished.
    ``games`` is the number of games in the match (1 for a single game).
    """

    id: int
    ruleset: str
    players: tuple[str, ...]
    started_at: float
    finished_at: float | None
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    games: int = 1

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class HighScore:
    """One player's final total in one finished game (a match's total for a match)."""

    player: str
    ruleset: str
    total: int
    game_id: int
    at: float


def games(
    conn: sqlite3.Connection,
    limit: int,
    *,
    totals_so_far: Callable[[int], tuple[int, ...]],
) -> list[GameSummary]:
    """The ``limit`` newest games, newest first.

    The totals of a game not yet finished come from ``totals_so_far(game_id)`` (the store
    replays its events).
    """
    rows = conn.execute(
        "SELECT id, ruleset, players, games, started_at, finished_at, totals, winners "
        "FROM games ORDER BY id DESC LIMIT ?",
        (limit,),
    ).fetchall()
    out = []
    for game_id, ruleset, players, length, started, finished, totals, winners in rows:
        if finished is None:
            final, won = totals_so_far(game_id), ()
        else:
            final, won = tuple(json.loads(totals)), tuple(json.loads(winners))
        out.append(
            GameSummary(
                game_id, ruleset, tuple(json.loads(players)), started, finished, final, won, length
            )
        )
    return out


def high_scores(conn: sqlite3.Connection, ruleset: str | None, limit: int) -> list[HighScore]:
    """The best final totals of finished games, best first (ties: the earlier game first).

    ``ruleset`` keeps only games of that rule set (as its start event names it, options
    included: ``"kniffel+sharp"`` is not ``"kniffel"``).
    """
    where = "g.finished_at IS NOT NULL" + (" AND g.ruleset = ?" if ruleset is not None else "")
    params: tuple[object, ...] = (ruleset, limit) if ruleset is not None else (limit,)
    rows = conn.execute(
        "SELECT p.value, g.ruleset, t.value, g.id, g.finished_at "
        "FROM games AS g, json_each(g.players) AS p, json_each(g.totals) AS t "
        f"WHERE p.key = t.key AND {where} "
        "ORDER BY t.value DESC, g.finished_at, g.id, p.key LIMIT ?",
        params,
    ).fetchall()
    return [HighScore(*row) for row in rows]


def face_counts(conn: sqlite3.Connection) -> dict[int, int]:
    """How often each face 1..6 came up, over the stored readings.

    A reading the players corrected counts with their values (the latest correction); an
    ``ok`` reading without correction counts with the reader's values, less the dice on
    the hold ledge (kept dice were counted when they were thrown; without a calibration no
    die is known to be on the ledge); an ``unsure`` reading nobody corrected does not count
    (its values are guesses).
    """
    counts = dict.fromkeys(range(1, 7), 0)
    corrected = conn.execute(
        "SELECT v.value, count(*) FROM corrections AS c, json_each(c.players) AS v "
        "WHERE c.id IN (SELECT max(id) FROM corrections GROUP BY reading_id) "
        "GROUP BY v.value"
    ).fetchall()
    read_ok = conn.execute(
        "SELECT json_extract(d.value, '$.value') AS face, count(*) "
        "FROM readings AS r, json_each(r.reading, '$.dice') AS d "
        "WHERE json_extract(r.reading, '$.status') = 'ok' "
        "AND coalesce(json_extract(d.value, '$.zone'), '') != 'ledge' "
        "AND r.id NOT IN (SELECT reading_id FROM corrections) "
        "GROUP BY face"
    ).fetchall()
    for face, count in corrected + read_ok:
        counts[face] += count
    return counts
