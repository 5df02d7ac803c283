"""The tray's memory: every event of every game, every reading with its frame, every correction.

One SQLite database, ``dicetray.sqlite3`` in the data directory, in WAL mode with
``synchronous=FULL``: a method that writes returns only once its row is on disk, so a power
cut loses at most the row being written. A game is stored as its events (the rules engine's,
:mod:`dicetray.rules.events`); its state is rebuilt from them with
``Match.from_events(store.events(game_id))``. Frames are image files under ``frames/``
beside the database, written and synced before the row naming them is committed. Readings
the players corrected are labelled photos of this tray's own dice: :meth:`Store.corrections`
yields them for training.

Every failure (a file that is not ours, a damaged or newer database, a read-only or full
disk) is a :class:`~dicetray.firmware.errors.StoreError` naming the file and the reason;
the store never overwrites a database it did not make.

>>> import tempfile
>>> from dicetray.rules import Match, Rolled, Scored, Started
>>> with tempfile.TemporaryDirectory() as folder, Store(folder) as store:
...     game = store.start_game(Started("yahtzee", ("Ann", "Bo")), version=1)
...     store.append(game, Rolled((2, 3, 4, 5, 6)), version=2)
...     store.append(game, Scored("large-straight"), version=3)
...     Match.from_events(store.events(game)).totals(), store.last_version()
1
2
((40, 0), 3)
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicetray.firmware import history, schema
from dicetray.firmware.errors import StoreError
from dicetray.firmware.history import GameSummary, HighScore
from dicetray.rules import Event, Match, RulesError, Started, sync_folder, write_durably
from dicetray.rules.events import from_dict, to_dict

__all__ = [
    "DATABASE",
    "FRAMES",
    "Correction",
    "GameSummary",
    "HighScore",
    "Store",
    "StoreSettings",
    "StoredReading",
]

#: The database's file name in the data directory.
DATABASE = "dicetray.sqlite3"
#: The folder of frame files in the data directory.
FRAMES = "frames"

_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,5}")


@dataclass(frozen=True)
class StoreSettings:
    """The store's tunable numbers."""

    #: Seconds a write waits for another connection's write lock (a second Store on the
    #: same folder, an export) before failing; a commit holds it for milliseconds
    #: (docs/benchmarks.md), so 5 s only runs out when something is stuck.
    busy_timeout: float = 5.0
    #: Corrections fetched per hold of the lock while :meth:`Store.corrections` is iterated,
    #: so a long export never blocks the table for more than one page.
    page: int = 500


@dataclass(frozen=True)
class StoredReading:
    """A reading as stored: ``reading`` is its JSON (``Reading.to_json()``).

    ``frame_path`` is the frame file's absolute path, ``None`` when the reading has no frame
    or when its frame file is gone; ``frame_missing`` tells the second case.
    """

    id: int
    game_id: int | None
    at: float
    reading: dict[str, Any]
    frame_path: Path | None
    frame_missing: bool = False


@dataclass(frozen=True)
class Correction:
    """A reading the players corrected: a labelled photo of the tray's own dice.

    ``reader`` are the values the reader gave, ``players`` the values the players say the
    dice show; ``frame_path`` and ``frame_missing`` as in :class:`StoredReading`.
    """

    reading_id: int
    at: float
    frame_path: Path | None
    reader: tuple[int, ...]
    players: tuple[int, ...]
    reading: dict[str, Any]
    frame_missing: bool = False
    id: int = 0

    def to_json(self) -> dict[str, Any]:
        """One JSON line of a training export.

        >>> Correction(4, 1.5, None, (1, 2), (1, 3), {"status": "unsure"}).to_json()["players"]
        [1, 3]
        """
        return {
            "reading_id": self.reading_id,
            "at": self.at,
            "frame": None if self.frame_path is None else str(self.frame_path),
            "reader": list(self.reader),
            "players": list(self.players),
            "reading": self.reading,
        }


class Store:
    """The event store of one data directory (created, with its database, when missing).

    One connection, shared by every thread through a lock. Use it as a context manager or
    call :meth:`close`.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        settings: StoreSettings = StoreSettings(),
    ) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / DATABASE
        self.frames = self.data_dir / FRAMES
        self._clock = clock
        self._settings = settings
        self._lock = threading.RLock()
        try:
            self.frames.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create {self.frames}: {exc.strerror or exc}") from None
        self._conn: sqlite3.Connection | None = self._open()
        try:
            sync_folder(self.data_dir)  # the new database and frames/ are named on disk
        except OSError as exc:
            self.close()
            raise StoreError(f"cannot sync {self.data_dir}: {exc.strerror or exc}") from None

    def _to_wal(self, conn: sqlite3.Connection) -> str:
        """Put the database in WAL mode. SQLite answers "locked" at once, without waiting
        for the busy timeout, when another connection opening a new file at the same moment
        holds it (1 open in about 150 of four at once), so the switch is tried again until
        the busy timeout has passed."""
        deadline = time.monotonic() + self._settings.busy_timeout
        while True:
            try:
                return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _open(self) -> sqlite3.Connection:
        name = str(self.path)
        try:
            conn = sqlite3.connect(
                self.path,
                isolation_level=None,
                check_same_thread=False,
                timeout=self._settings.busy_timeout,
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {name}: {_explain(exc)}") from None
        try:
            schema.check(conn, name)  # before anything that writes
            mode = self._to_wal(conn)
            if mode != "wal":
                raise StoreError(f"cannot put {name} in WAL mode (it stays in {mode})")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            schema.migrate(conn, name, now=self._clock())
        except StoreError:
            conn.close()
            raise
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot open {name}: {_explain(exc)}") from None
        return conn

    def close(self) -> None:
        """Close the database (again: nothing)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games and their events ----------------------------------------------------------

    def start_game(self, started: Started, *, version: int) -> int:
        """Store a new game and its start event (``seq`` 0) in one commit; the game's id."""
        if not isinstance(started, Started):
            raise StoreError(f"a game begins with a Started event, not {started!r}")
        _check_version(version)
        now = self._clock()
        with self._transaction("start a game") as conn:
            cursor = conn.execute(
                "INSERT INTO games (ruleset, players, games, started_at) VALUES (?, ?, ?, ?)",
                (started.ruleset, json.dumps(list(started.players)), started.games, now),
            )
            game_id = int(cursor.lastrowid or 0)
            conn.execute(
                "INSERT INTO events VALUES (?, 0, ?, ?, ?)",
                (game_id, version, now, json.dumps(to_dict(started))),
            )
        return game_id

    def append(self, game_id: int, event: Event, *, version: int) -> int:
        """Store one event of a game, committed before it returns; its sequence number.

        Appending to a finished game (an undo of its last score) marks it unfinished again.
        The store keeps what the table applied; it does not check the rules.
        """
        if isinstance(event, Started) or not isinstance(event, Event):
            raise StoreError(f"append takes an event after a game's start, not {event!r}")
        _check_version(version)
        text = json.dumps(to_dict(event))
        now = self._clock()
        with self._transaction("save an event") as conn:
            last = conn.execute(
                "SELECT max(seq) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            if last is None:
                raise StoreError(f"there is no game {game_id} in {self.path}")
            conn.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?)", (game_id, last + 1, version, now, text)
            )
            conn.execute(
                "UPDATE games SET finished_at = NULL, totals = NULL, winners = NULL "
                "WHERE id = ? AND finished_at IS NOT NULL",
                (game_id,),
            )
        return last + 1

    def events(self, game_id: int) -> list[Event]:
        """Every event of a game in order, its Started first."""
        with self._session("read a game's events") as conn:
            rows = conn.execute(
                "SELECT seq, event FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        if not rows:
            raise StoreError(f"there is no game {game_id} in {self.path}")
        return [self._event(game_id, seq, text) for seq, text in rows]

    def _event(self, game_id: int, seq: int, text: str) -> Event:
        try:
            return from_dict(json.loads(text))
        except (ValueError, RulesError) as exc:
            raise StoreError(
                f"{self.path}: event {seq} of game {game_id} cannot be read ({exc})"
            ) from None

    def current_game(self) -> int | None:
        """The newest game not marked finished, or None."""
        with self._session("find the current game") as conn:
            row = conn.execute(
                "SELECT id FROM games WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else int(row[0])

    def finish_game(self, game_id: int, *, totals: Sequence[int], winners: Sequence[int]) -> None:
        """Mark a game finished with each player's final total and the winners' indices.

        Finishing it again updates the figures and keeps the first finishing time.
        """
        totals, winners = _ints("totals", totals), _ints("winners", winners)
        now = self._clock()
        with self._transaction("finish a game") as conn:
            row = conn.execute("SELECT players FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no game {game_id} in {self.path}")
            count = len(json.loads(row[0]))
            if len(totals) != count or not all(0 <= w < count for w in winners):
                raise StoreError(
                    f"game {game_id} has {count} players: totals {list(totals)} and winners "
                    f"{list(winners)} do not fit"
                )
            conn.execute(
                "UPDATE games SET finished_at = coalesce(finished_at, ?), totals = ?, "
                "winners = ? WHERE id = ?",
                (now, json.dumps(totals), json.dumps(winners), game_id),
            )

    def last_version(self) -> int:
        """The highest state version stored with any event (0 when there is none)."""
        with self._session("read the last version") as conn:
            return int(conn.execute("SELECT coalesce(max(version), 0) FROM events").fetchone()[0])

    # -- readings and corrections --------------------------------------------------------

    def add_reading(
        self,
        reading: Mapping[str, Any],
        *,
        frame: bytes | None,
        game_id: int | None,
        suffix: str = ".jpg",
    ) -> int:
        """Store a reading (``Reading.to_json()``) and its frame (encoded image bytes); its id.

        The frame file is on disk, synced, before the reading's row is committed.
        """
        text = _reading_text(reading)
        if frame is not None:
            if not isinstance(frame, bytes | bytearray | memoryview) or not len(frame):
                raise StoreError("a frame is the encoded image's bytes (JPEG or PNG), not empty")
            if not _SUFFIX.fullmatch(suffix):
                raise StoreError(f"a frame's suffix is like '.jpg' or '.png', not {suffix!r}")
        now = self._clock()
        with self._transaction("save a reading") as conn:
            if game_id is not None:
                self._require_game(conn, game_id)
            cursor = conn.execute(
                "INSERT INTO readings (game_id, at, reading) VALUES (?, ?, ?)",
                (game_id, now, text),
            )
            reading_id = int(cursor.lastrowid or 0)
            if frame is not None:
                relative = f"{FRAMES}/{reading_id:07d}{suffix.lower()}"
                _write_durably(self.data_dir / relative, bytes(frame))
                conn.execute("UPDATE readings SET frame = ? WHERE id = ?", (relative, reading_id))
        return reading_id

    def reading(self, reading_id: int) -> StoredReading:
        """One stored reading (a frame file that has gone missing is reported, not raised)."""
        if isinstance(reading_id, bool) or not isinstance(reading_id, int) \
                or not 0 <= reading_id < 2**63:  # SQLite's integers are 64-bit
            raise StoreError(f"there is no reading {reading_id} in {self.path}")
        with self._session("read a reading") as conn:
            row = conn.execute(
                "SELECT id, game_id, at, reading, frame FROM readings WHERE id = ?",
                (reading_id,),
            ).fetchone()
        if row is None:
            raise StoreError(f"there is no reading {reading_id} in {self.path}")
        path, missing = self._frame(row[4])
        return StoredReading(row[0], row[1], row[2], json.loads(row[3]), path, missing)

    def missing_frames(self) -> list[tuple[int, Path]]:
        """Readings whose frame file is gone: (reading id, the path it should have)."""
        with self._session("list frames") as conn:
            rows = conn.execute(
                "SELECT id, frame FROM readings WHERE frame IS NOT NULL ORDER BY id"
            ).fetchall()
        paths = [(rid, self.data_dir / relative) for rid, relative in rows]
        return [(rid, path) for rid, path in paths if not path.is_file()]

    def tidy_frames(self) -> list[Path]:
        """Delete the files under ``frames/`` that no reading names; the paths deleted.

        They are what a crash leaves: a frame whose reading was never committed, or the
        temporary file of a frame write cut short. The write lock is held meanwhile, so no
        reading (of this or another Store) is between writing its frame and committing.
        """
        removed = []
        with self._transaction("tidy the frames") as conn:
            named = {
                self.data_dir / relative
                for (relative,) in conn.execute(
                    "SELECT frame FROM readings WHERE frame IS NOT NULL"
                )
            }
            for path in sorted(self.frames.iterdir()):
                if path.is_file() and path not in named:
                    path.unlink()
                    removed.append(path)
        return removed

    def add_correction(
        self, reading_id: int, *, reader: Sequence[int], players: Sequence[int]
    ) -> int:
        """Store the players' values for a reading beside the reader's; the correction's id."""
        reader_values, player_values = _faces("reader", reader), _faces("players", players)
        if not player_values:
            raise StoreError("a correction needs the players' values of the dice")
        now = self._clock()
        with self._transaction("save a correction") as conn:
            if not conn.execute("SELECT 1 FROM readings WHERE id = ?", (reading_id,)).fetchone():
                raise StoreError(f"there is no reading {reading_id} in {self.path}")
            cursor = conn.execute(
                "INSERT INTO corrections (reading_id, at, reader, players) VALUES (?, ?, ?, ?)",
                (reading_id, now, json.dumps(reader_values), json.dumps(player_values)),
            )
        return int(cursor.lastrowid or 0)

    def corrections(self) -> Iterator[Correction]:
        """Every correction, oldest first, with its reading and frame (a training set).

        The lock is held one page at a time, so the table goes on while an export runs.
        """
        after = 0
        while True:
            with self._session("read corrections") as conn:
                rows = conn.execute(
                    "SELECT c.id, c.reading_id, c.at, c.reader, c.players, r.reading, r.frame "
                    "FROM corrections AS c JOIN readings AS r ON r.id = c.reading_id "
                    "WHERE c.id > ? ORDER BY c.id LIMIT ?",
                    (after, self._settings.page),
                ).fetchall()
            if not rows:
                return
            for cid, rid, at, reader, players, reading, frame in rows:
                path, missing = self._frame(frame)
                yield Correction(
                    rid,
                    at,
                    path,
                    tuple(json.loads(reader)),
                    tuple(json.loads(players)),
                    json.loads(reading),
                    missing,
                    cid,
                )
            after = rows[-1][0]

    # -- history -------------------------------------------------------------------------

    def games(self, limit: int = 50) -> list[GameSummary]:
        """The ``limit`` newest games, newest first, finished or not (see :class:`GameSummary`)."""
        with self._session("list games") as conn:
            return history.games(conn, limit, totals_so_far=self._totals_so_far)

    def high_scores(self, ruleset: str | None = None, limit: int = 10) -> list[HighScore]:
        """The best final totals of finished games (see :func:`history.high_scores`)."""
        with self._session("list high scores") as conn:
            return history.high_scores(conn, ruleset, limit)

    def face_counts(self) -> dict[int, int]:
        """How often each face 1..6 came up over every stored reading's dice.

        Counted: the players' values of a corrected reading (its latest correction) and the
        reader's values of an ``ok`` reading nobody corrected. An ``unsure`` reading nobody
        corrected is not counted.
        """
        with self._session("count faces") as conn:
            return history.face_counts(conn)

    def _totals_so_far(self, game_id: int) -> tuple[int, ...]:
        """Totals of an unfinished game by replaying it; () when its rule set cannot load."""
        try:
            return Match.from_events(self.events(game_id)).totals()
        except RulesError:
            return ()

    # -- internals -----------------------------------------------------------------------

    @contextmanager
    def _session(self, doing: str) -> Iterator[sqlite3.Connection]:
        """The connection under the lock; SQLite and OS errors become StoreError."""
        with self._lock:
            if self._conn is None:
                raise StoreError(f"cannot {doing}: the store of {self.path} is closed")
            try:
                yield self._conn
            except sqlite3.Error as exc:
                raise StoreError(f"cannot {doing} in {self.path}: {_explain(exc)}") from None
            except OSError as exc:
                where = exc.filename or self.path
                raise StoreError(f"cannot {doing}: {exc.strerror or exc} ({where})") from None

    @contextmanager
    def _transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed at the end or rolled back on any error."""
        with self._session(doing) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    with suppress(sqlite3.Error):  # SQLite rolls back by itself if it cannot
                        conn.execute("ROLLBACK")
                raise

    def _require_game(self, conn: sqlite3.Connection, game_id: int) -> None:
        if not conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
            raise StoreError(f"there is no game {game_id} in {self.path}")

    def _frame(self, relative: str | None) -> tuple[Path | None, bool]:
        if relative is None:
            return None, False
        path = self.data_dir / relative
        return (path, False) if path.is_file() else (None, True)


#: What SQLite's error codes mean for someone looking at the tray.
_HINTS = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "the disk or the file is read-only",
    "SQLITE_IOERR": "the disk refused it: full, read-only or failing",
    "SQLITE_CANTOPEN": "the folder may be read-only or gone",
    "SQLITE_CORRUPT": "the database is damaged",
    "SQLITE_NOTADB": "the file is not a SQLite database",
    "SQLITE_BUSY": "another program holds the database",
}


def _explain(exc: sqlite3.Error) -> str:
    """SQLite's message and, when known, what it means."""
    code = getattr(exc, "sqlite_errorname", "") or ""
    hint = next((text for name, text in _HINTS.items() if code.startswith(name)), None)
    return f"{exc} ({hint})" if hint else str(exc)


def _check_version(version: int) -> None:
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise StoreError(f"a state version is a whole number from 0, not {version!r}")


def _ints(what: str, values: Sequence[int]) -> list[int]:
    items = list(values)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in items):
        raise StoreError(f"{what} are whole numbers, not {items!r}")
    return items


def _faces(what: str, values: Sequence[int]) -> list[int]:
    items = _ints(what, values)
    if not all(1 <= v <= 6 for v in items):
        raise StoreError(f"{what}: dice show 1 to 6, not {items!r}")
    return items


def _reading_text(reading: Mapping[str, Any]) -> str:
    """The JSON of a reading, checked for what the store reads back from it."""
    if not isinstance(reading, Mapping):
        raise StoreError(f"a reading is the JSON object of Reading.to_json(), not {reading!r}")
    if reading.get("status") not in ("ok", "unsure"):
        raise StoreError(f"a reading's status is 'ok' or 'unsure', not {reading.get('status')!r}")
    dice = reading.get("dice")
    if not isinstance(dice, list | tuple) or not all(
        isinstance(d, Mapping)
        and isinstance(d.get("value"), int)
        and not isinstance(d.get("value"), bool)
        and 1 <= d["value"] <= 6
        for d in dice
    ):
        raise StoreError("a reading's dice are objects with a value from 1 to 6")
    try:
        return json.dumps(dict(reading), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise StoreError(f"a reading must be plain JSON ({exc})") from None


def _write_durably(path: Path, data: bytes) -> None:
    """Write a frame so that it is whole on disk, or absent, after a power cut."""
    try:
        write_durably(path, data)
    except OSError as exc:
        raise StoreError(f"cannot write the frame {path}: {exc.strerror or exc}") from None
