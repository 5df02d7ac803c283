"""The tray's SQLite schema: what a file must be to be ours, and the migrations that build it.

A dicetray database carries :data:`APPLICATION_ID` in its header and a ``schema_version``
table with one row per migration applied. :func:`prepare` opens a database for the store:
it builds a new one from nothing, brings an older one up to date, and refuses (without
writing a byte) a file that is not SQLite, is another program's database, is damaged, or
was written by a newer dicetray.

>>> import sqlite3
>>> conn = sqlite3.connect(":memory:", isolation_level=None)
>>> prepare(conn, "memory")
1
>>> conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] == len(MIGRATIONS)
True
"""

from __future__ import annotations

import sqlite3

from dicetray.firmware.errors import StoreError

__all__ = ["APPLICATION_ID", "MIGRATIONS", "check", "migrate", "prepare", "schema_version"]

#: ``PRAGMA application_id`` of a dicetray database: "DTRY" in ASCII.
APPLICATION_ID = 0x44545259

#: Migration ``n`` (1-based) turns a version ``n - 1`` database into version ``n``. Append
#: new migrations; never edit one that has shipped.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        f"PRAGMA application_id = {APPLICATION_ID}",
        """CREATE TABLE schema_version (
            version INTEGER PRIMARY KEY,
            applied_at REAL NOT NULL
        )""",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            ruleset TEXT NOT NULL,
            players TEXT NOT NULL,
            games INTEGER NOT NULL,
            started_at REAL NOT NULL,
            finished_at REAL,
            totals TEXT,
            winners TEXT
        )""",
        """CREATE TABLE events (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            version INTEGER NOT NULL,
            at REAL NOT NULL,
            event TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""",
        "CREATE INDEX events_by_version ON events(version)",
        """CREATE TABLE readings (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER REFERENCES games(id),
            at REAL NOT NULL,
            reading TEXT NOT NULL,
            frame TEXT
        )""",
        """CREATE TABLE corrections (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            reading_id INTEGER NOT NULL REFERENCES readings(id),
            at REAL NOT NULL,
            reader TEXT NOT NULL,
            players TEXT NOT NULL
        )""",
        "CREATE INDEX corrections_by_reading ON corrections(reading_id)",
    ),
)


def schema_version(conn: sqlite3.Connection) -> int:
    """The schema version of an open dicetray database (0 when it has no tables yet)."""
    has_table = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if not has_table:
        return 0
    return conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]


def prepare(conn: sqlite3.Connection, name: str, *, now: float = 0.0) -> int:
    """:func:`check` then :func:`migrate`; the schema version now.

    >>> import sqlite3
    >>> other = sqlite3.connect(":memory:", isolation_level=None)
    >>> _ = other.execute("CREATE TABLE notes (text TEXT)")
    >>> prepare(other, "notes.db")
    Traceback (most recent call last):
    ...
    dicetray.firmware.errors.StoreError: notes.db is not a dicetray database ... untouched
    """
    check(conn, name)
    return migrate(conn, name, now=now)


def check(conn: sqlite3.Connection, name: str) -> None:
    """Refuse, with :class:`StoreError` and without writing, a file we must not touch.

    That is a file that is not SQLite, another program's database, a damaged one, or one
    written by a newer dicetray. ``name`` is how errors name the file.
    """
    conn.execute("BEGIN")  # one snapshot: another process may be migrating the file
    try:
        _check_identity(conn, name)
        _check_integrity(conn, name)
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def migrate(conn: sqlite3.Connection, name: str, *, now: float = 0.0) -> int:
    """Apply the migrations a checked database lacks, in one transaction; its version now.

    ``conn`` must be in autocommit mode (``isolation_level=None``).
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _check_version(conn, name)  # again, under the write lock
        for number in range(version + 1, len(MIGRATIONS) + 1):
            for statement in MIGRATIONS[number - 1]:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (?, ?)", (number, now))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return len(MIGRATIONS)


def _check_identity(conn: sqlite3.Connection, name: str) -> None:
    """Refuse a file that is not SQLite or is another program's database."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
    except sqlite3.DatabaseError as exc:
        code = getattr(exc, "sqlite_errorname", "")
        if code.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
            raise StoreError(
                f"{name} is not a readable SQLite database ({exc}); it was left untouched"
            ) from None
        raise  # it cannot be read at all (permissions, a read-only folder): the caller says
    if app_id == APPLICATION_ID or (app_id == 0 and not tables):
        _check_version(conn, name)
        return
    listed = ", ".join(tables) if tables else "none"
    raise StoreError(
        f"{name} is not a dicetray database (application id {app_id}, tables: {listed}); "
        "it was left untouched"
    )


def _check_version(conn: sqlite3.Connection, name: str) -> int:
    version = schema_version(conn)
    if version > len(MIGRATIONS):
        raise StoreError(
            f"{name} was written by a newer dicetray (schema version {version}; this one "
            f"knows up to {len(MIGRATIONS)}); it was left untouched"
        )
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if app_id == APPLICATION_ID and version == 0:
        raise StoreError(f"{name} is a damaged dicetray database (no schema version)")
    return version


def _check_integrity(conn: sqlite3.Connection, name: str) -> None:
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{name} is damaged ({exc}); it was left untouched") from None
    if problems != ["ok"]:
        raise StoreError(f"{name} is damaged ({'; '.join(problems)}); it was left untouched")
