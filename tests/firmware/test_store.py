"""The event store: games as events, readings with frames, corrections, and what it refuses."""

from __future__ import annotations

import itertools
import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from store_writer import frame_bytes

from dicetray.firmware.errors import StoreError
from dicetray.firmware.schema import APPLICATION_ID, MIGRATIONS
from dicetray.firmware.store import DATABASE, Store, StoreSettings
from dicetray.rules import (
    Game,
    Kept,
    Match,
    NextGame,
    Rolled,
    Scored,
    Started,
    Undone,
    load_ruleset,
)
from dicetray.rules.events import from_dict

WRITER = Path(__file__).with_name("store_writer.py")


def ticking(start: float = 1_000.0) -> object:
    """A clock that moves one second per call."""
    ticks = itertools.count(start)
    return lambda: float(next(ticks))


def reading_json(*values: int, status: str = "ok", image: str | None = None) -> dict:
    dice = [
        {
            "value": v,
            "x": 10.0 * i,
            "y": 5.0,
            "confidence": 0.9,
            "angle": 0.0,
            "zone": "tray",
            "size": 40.0,
        }
        for i, v in enumerate(values)
    ]
    reason = "" if status == "ok" else "ambiguous: a die could be a 1 or a 4"
    return {"image": image, "status": status, "reason": reason, "dice": dice, "ms": 12.5}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "data", clock=ticking()) as opened:
        yield opened


def play(game: Game, rng: random.Random, actions: int) -> None:
    """Random legal actions: rolls, keeps, declarations, scores and undos."""
    for _ in range(actions):
        if game.finished:
            return
        turn = game.turn
        if turn.can_declare and game.ruleset.declaration == "mickey":
            game.declare(rng.choice(game.sheet.open_boxes()))
        elif not turn.rolled or (turn.rolls_left and rng.random() < 0.4):
            game.roll_random(rng)
        elif turn.rolls_left and rng.random() < 0.3:
            free = [p for p in range(len(turn.dice)) if p not in turn.held]
            if len(free) > 1:  # keep one more die (locked rule sets never free one)
                game.keep([*turn.held, rng.choice(free)])
        elif game.can_undo and rng.random() < 0.15:
            game.undo()
        else:
            entry = rng.choice(game.options())
            game.score(entry.box, entry.column)


class TestCreating:
    def test_creates_the_folder_database_and_frames(self, tmp_path: Path) -> None:
        folder = tmp_path / "new" / "data"
        with Store(folder) as store:
            assert store.path == folder / DATABASE
            assert store.path.is_file() and (folder / "frames").is_dir()
            assert store.current_game() is None
            assert store.last_version() == 0
            assert store.games() == []

    def test_the_database_is_in_wal_mode(self, store: Store) -> None:
        raw = sqlite3.connect(store.path)
        try:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            raw.close()

    def test_closed_store_refuses_with_store_error(self, tmp_path: Path) -> None:
        store = Store(tmp_path)
        store.close()
        store.close()
        with pytest.raises(StoreError, match="closed"):
            store.current_game()


class TestSchema:
    def test_a_new_database_is_marked_and_versioned(self, store: Store) -> None:
        raw = sqlite3.connect(store.path)
        try:
            assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
            versions = [v for (v,) in raw.execute("SELECT version FROM schema_version")]
        finally:
            raw.close()
        assert versions == list(range(1, len(MIGRATIONS) + 1))

    def test_a_marked_database_without_versions_is_damaged(self, tmp_path: Path) -> None:
        raw = sqlite3.connect(tmp_path / DATABASE)
        raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        raw.execute("CREATE TABLE games (id INTEGER)")
        raw.commit()
        raw.close()
        with pytest.raises(StoreError, match="damaged dicetray database"):
            Store(tmp_path)

    def test_stores_opening_a_new_folder_at_once_migrate_it_once(self, tmp_path: Path) -> None:
        errors: list[BaseException] = []

        def open_one() -> None:
            try:
                Store(tmp_path).close()
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=open_one) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        raw = sqlite3.connect(tmp_path / DATABASE)
        try:
            assert raw.execute("SELECT count(*) FROM schema_version").fetchone()[0] == len(
                MIGRATIONS
            )
        finally:
            raw.close()


class TestEvents:
    def test_start_and_append_round_trip(self, store: Store) -> None:
        started = Started("kniffel+sharp", ("Ann", "Bo", "Cy"))
        game = store.start_game(started, version=7)
        later = [Rolled((1, 2, 3, 4, 5), 0), Kept((0, 1)), Scored("chance", "main"), Undone()]
        seqs = [store.append(game, e, version=8 + i) for i, e in enumerate(later)]
        assert seqs == [1, 2, 3, 4]
        assert store.events(game) == [started, *later]
        assert store.last_version() == 11

    def test_games_have_their_own_sequences(self, store: Store) -> None:
        first = store.start_game(Started("yahtzee", ("Ann",)), version=1)
        second = store.start_game(Started("yatzy", ("Bo",)), version=2)
        assert first != second
        assert store.append(second, Rolled((6, 6, 6, 6, 6)), version=3) == 1
        assert store.append(first, Rolled((1, 1, 1, 1, 1)), version=4) == 1
        assert store.events(first)[1] == Rolled((1, 1, 1, 1, 1))
        assert store.events(second)[1] == Rolled((6, 6, 6, 6, 6))

    def test_rows_hold_json_game_sequence_version_and_time(self, store: Store) -> None:
        game = store.start_game(Started("yahtzee", ("Ann",)), version=5)
        store.append(game, Scored(None, "free"), version=6)
        raw = sqlite3.connect(store.path)
        try:
            rows = raw.execute("SELECT game_id, seq, version, at, event FROM events").fetchall()
        finally:
            raw.close()
        assert [(g, s, v) for g, s, v, _, _ in rows] == [(game, 0, 5), (game, 1, 6)]
        assert rows[1][3] > rows[0][3]  # the injected clock ticked
        assert from_dict(json.loads(rows[1][4])) == Scored(None, "free")

    @pytest.mark.parametrize(
        "bad",
        [Started("yahtzee", ("Ann",)), {"type": "roll", "dice": [1]}, "roll", None],
        ids=["a second start", "a dict", "a string", "None"],
    )
    def test_append_refuses_what_is_no_event_after_a_start(self, store: Store, bad) -> None:
        game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
        with pytest.raises(StoreError):
            store.append(game, bad, version=2)
        assert len(store.events(game)) == 1

    def test_start_game_wants_a_started_event(self, store: Store) -> None:
        with pytest.raises(StoreError, match="Started"):
            store.start_game(Rolled((1, 2, 3, 4, 5)), version=1)  # type: ignore[arg-type]
        assert store.games() == []

    @pytest.mark.parametrize("version", [-1, 1.5, True, "3"])
    def test_a_version_is_a_whole_number(self, store: Store, version) -> None:
        with pytest.raises(StoreError, match="version"):
            store.start_game(Started("yahtzee", ("Ann",)), version=version)
        assert store.current_game() is None

    def test_unknown_game(self, store: Store) -> None:
        with pytest.raises(StoreError, match="no game 42"):
            store.append(42, Rolled((1, 2, 3, 4, 5)), version=1)
        with pytest.raises(StoreError, match="no game 42"):
            store.events(42)
        with pytest.raises(StoreError, match="no game 42"):
            store.finish_game(42, totals=[1], winners=[0])

    def test_an_unreadable_event_row_is_a_store_error(self, store: Store) -> None:
        game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
        raw = sqlite3.connect(store.path)
        with raw:
            raw.execute('UPDATE events SET event = \'{"type": "shout"}\' WHERE seq = 0')
        raw.close()
        with pytest.raises(StoreError, match="event 0 of game"):
            store.events(game)


class TestCurrentAndFinished:
    def test_current_game_is_the_newest_unfinished(self, store: Store) -> None:
        first = store.start_game(Started("yahtzee", ("Ann",)), version=1)
        second = store.start_game(Started("yahtzee", ("Ann",)), version=2)
        assert store.current_game() == second
        store.finish_game(second, totals=[80], winners=[0])
        assert store.current_game() == first
        store.finish_game(first, totals=[70], winners=[0])
        assert store.current_game() is None

    def test_finish_keeps_totals_and_winners(self, store: Store) -> None:
        game = store.start_game(Started("yatzy", ("Ann", "Bo")), version=1)
        store.finish_game(game, totals=(120, 150), winners=(1,))
        [summary] = store.games()
        assert (summary.totals, summary.winners) == ((120, 150), (1,))
        assert summary.finished_at is not None

    def test_finish_refuses_figures_that_do_not_fit_the_players(self, store: Store) -> None:
        game = store.start_game(Started("yatzy", ("Ann", "Bo")), version=1)
        with pytest.raises(StoreError, match="2 players"):
            store.finish_game(game, totals=[10], winners=[0])
        with pytest.raises(StoreError, match="2 players"):
            store.finish_game(game, totals=[10, 20], winners=[2])
        with pytest.raises(StoreError, match="whole numbers"):
            store.finish_game(game, totals=[10, "x"], winners=[0])  # type: ignore[list-item]
        assert store.current_game() == game

    def test_an_event_after_finishing_reopens_the_game(self, store: Store) -> None:
        game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
        store.finish_game(game, totals=[200], winners=[0])
        store.append(game, Undone(), version=2)
        assert store.current_game() == game
        assert store.games()[0].finished_at is None


class TestReplay:
    """The state rebuilt from the stored events is the state that was played."""

    @pytest.mark.parametrize("ruleset", ["yahtzee", "kniffel", "yatzy", "yacht", "mickey"])
    def test_a_game_replays_into_the_same_state(self, store: Store, ruleset: str) -> None:
        rng = random.Random(ruleset)
        match = Match(load_ruleset(ruleset), ("Ann", "Bo"), games=1)
        game_id = store.start_game(match.events[0], version=1)
        version = 1
        for _ in range(60):
            before = len(match.game.events)
            play(match.game, rng, 1)
            for event in match.game.events[before:]:
                version += 1
                store.append(game_id, event, version=version)
        rebuilt = Match.from_events(store.events(game_id))
        assert rebuilt.to_dict() == match.to_dict()
        assert store.last_version() == version

    def test_a_whole_match_replays_with_its_next_game(self, store: Store) -> None:
        rng = random.Random(3)
        match = Match(load_ruleset("crag"), ("Ann",), games=2)
        game_id = store.start_game(match.events[0], version=1)
        while not match.game.finished:
            play(match.game, rng, 1)
        match.next_game()
        play(match.game, rng, 5)
        for event in match.events[1:]:
            store.append(game_id, event, version=2)
        assert NextGame() in store.events(game_id)
        assert Match.from_events(store.events(game_id)).to_dict() == match.to_dict()


class TestTwoStores:
    def test_a_second_store_sees_committed_events(self, tmp_path: Path) -> None:
        with Store(tmp_path) as writer, Store(tmp_path) as reader:
            game = writer.start_game(Started("yahtzee", ("Ann",)), version=1)
            writer.append(game, Rolled((2, 2, 2, 5, 5)), version=2)
            assert reader.current_game() == game
            assert reader.events(game) == writer.events(game)
            assert reader.last_version() == 2
            reader.append(game, Scored("full-house"), version=3)
            assert writer.events(game)[-1] == Scored("full-house")

    def test_reopening_finds_everything(self, tmp_path: Path) -> None:
        with Store(tmp_path) as store:
            game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
            store.append(game, Rolled((2, 2, 2, 5, 5)), version=2)
            rid = store.add_reading(reading_json(2, 2, 2, 5, 5), frame=b"jpeg", game_id=game)
            store.add_correction(rid, reader=[2, 2, 2, 5, 5], players=[2, 2, 2, 5, 6])
        with Store(tmp_path) as store:
            assert store.current_game() == game
            assert store.events(game)[1] == Rolled((2, 2, 2, 5, 5))
            assert store.reading(rid).frame_path.read_bytes() == b"jpeg"
            assert [c.players for c in store.corrections()] == [(2, 2, 2, 5, 6)]

    def test_threads_share_one_store(self, store: Store) -> None:
        game = store.start_game(Started("yahtzee", ("Ann",)), version=0)
        seqs: list[int] = []

        def worker(value: int) -> None:
            for _ in range(20):
                seqs.append(store.append(game, Rolled((value,) * 5), version=1))

        threads = [threading.Thread(target=worker, args=(v,)) for v in (1, 2, 3, 4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(seqs) == list(range(1, 81))
        rolls = store.events(game)[1:]
        assert sorted(r.dice[0] for r in rolls) == sorted([1, 2, 3, 4] * 20)


class TestRefusals:
    """A file the store did not make is refused, named, and left exactly as it was."""

    def refused(self, folder: Path, match: str) -> str:
        path = folder / DATABASE
        before = path.read_bytes()
        with pytest.raises(StoreError, match=match) as info:
            Store(folder)
        assert str(path) in str(info.value)
        assert path.read_bytes() == before
        return str(info.value)

    def test_garbage_bytes(self, tmp_path: Path) -> None:
        (tmp_path / DATABASE).write_bytes(random.Random(1).randbytes(8192))
        self.refused(tmp_path, "not a readable SQLite database")

    def test_another_programs_database(self, tmp_path: Path) -> None:
        raw = sqlite3.connect(tmp_path / DATABASE)
        with raw:
            raw.execute("CREATE TABLE recipes (name TEXT)")
            raw.execute("INSERT INTO recipes VALUES ('soup')")
        raw.close()
        message = self.refused(tmp_path, "not a dicetray database")
        assert "recipes" in message

    def test_a_newer_schema_version(self, tmp_path: Path) -> None:
        Store(tmp_path).close()
        raw = sqlite3.connect(tmp_path / DATABASE)
        with raw:
            raw.execute("INSERT INTO schema_version VALUES (99, 0)")
        raw.close()
        self.refused(tmp_path, "newer dicetray .schema version 99")

    def test_a_damaged_database(self, tmp_path: Path) -> None:
        with Store(tmp_path) as store:
            game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
            for i in range(300):
                store.append(game, Rolled((1, 2, 3, 4, 5)), version=i + 2)
        path = tmp_path / DATABASE
        data = bytearray(path.read_bytes())
        page = 4096
        assert len(data) > 6 * page
        data[3 * page : 5 * page] = random.Random(2).randbytes(2 * page)
        path.write_bytes(bytes(data))
        self.refused(tmp_path, "damaged")

    def test_an_empty_file_becomes_a_new_database(self, tmp_path: Path) -> None:
        (tmp_path / DATABASE).write_bytes(b"")
        with Store(tmp_path) as store:
            assert store.games() == []


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """Make ``folder`` and its files unwritable, even for root (which ignores chmod)."""
    paths = [folder, *folder.rglob("*")]
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
        if done.returncode:
            pytest.fail(f"cannot make {folder} read-only as root with chattr: {done.stderr}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", *map(str, paths)], check=True)
    else:
        modes = {p: p.stat().st_mode for p in paths}
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in modes.items():
                p.chmod(mode)


class TestDisk:
    def test_a_read_only_folder_is_a_store_error(self, tmp_path: Path) -> None:
        with Store(tmp_path) as store:
            game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
        with read_only(tmp_path), pytest.raises(StoreError) as info:
            Store(tmp_path)
        assert str(tmp_path) in str(info.value) and "read-only" in str(info.value)
        with Store(tmp_path) as store:
            assert store.events(game) == [Started("yahtzee", ("Ann",))]

    def test_an_unwritable_frames_folder_keeps_the_row_out(self, tmp_path: Path) -> None:
        with Store(tmp_path) as store:
            (tmp_path / "frames").rmdir()
            (tmp_path / "frames").write_bytes(b"not a folder")
            with pytest.raises(StoreError, match="cannot write the frame"):
                store.add_reading(reading_json(1, 2, 3, 4, 5), frame=b"png", game_id=None)
            raw = sqlite3.connect(store.path)
            try:
                assert raw.execute("SELECT count(*) FROM readings").fetchone()[0] == 0
            finally:
                raw.close()

    def test_a_full_disk_is_a_store_error_and_loses_nothing(self, tmp_path: Path) -> None:
        script = """
import resource, signal, sys
from dicetray.firmware.errors import StoreError
from dicetray.firmware.store import Store
from dicetray.rules import Rolled, Started
store = Store(sys.argv[1])
game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (150_000, 150_000))
try:
    store.add_reading({"status": "ok", "dice": []}, frame=b"x" * 200_000, game_id=game)
except StoreError as exc:
    print("frame:", exc)
stored = 0
try:
    for i in range(10_000):
        store.append(game, Rolled((1, 2, 3, 4, 5)), version=i + 2)
        stored += 1
except StoreError as exc:
    print("event:", exc)
print("stored", stored)
"""
        done = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0].startswith("frame: cannot write the frame")
        assert lines[1].startswith("event: cannot save an event")
        stored = int(lines[2].split()[1])
        assert 0 < stored < 10_000
        with Store(tmp_path) as store:
            [game] = [g.id for g in store.games()]
            assert len(store.events(game)) == 1 + stored
            assert store.missing_frames() == []
            assert not [p for p in (tmp_path / "frames").iterdir()]


class TestReadings:
    def test_round_trip_with_a_frame(self, store: Store) -> None:
        game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
        data = reading_json(3, 3, 4, 5, 6, image="roll.png")
        rid = store.add_reading(data, frame=b"\x89PNG fake", game_id=game, suffix=".png")
        stored = store.reading(rid)
        assert (stored.id, stored.game_id, stored.reading) == (rid, game, data)
        assert stored.frame_path == store.data_dir / "frames" / stored.frame_path.name
        assert stored.frame_path.suffix == ".png"
        assert stored.frame_path.read_bytes() == b"\x89PNG fake"
        assert not stored.frame_missing
        assert [p.name for p in (store.data_dir / "frames").iterdir()] == [stored.frame_path.name]

    def test_the_frame_is_referenced_by_a_relative_path(self, store: Store) -> None:
        rid = store.add_reading(reading_json(1), frame=b"jpeg", game_id=None)
        raw = sqlite3.connect(store.path)
        try:
            [relative] = raw.execute("SELECT frame FROM readings WHERE id = ?", (rid,)).fetchone()
        finally:
            raw.close()
        assert not Path(relative).is_absolute()
        assert store.data_dir / relative == store.reading(rid).frame_path

    def test_a_reading_without_frame_or_game(self, store: Store) -> None:
        rid = store.add_reading(reading_json(status="unsure"), frame=None, game_id=None)
        stored = store.reading(rid)
        assert (stored.game_id, stored.frame_path, stored.frame_missing) == (None, None, False)

    def test_a_missing_frame_file_is_reported(self, store: Store) -> None:
        rid = store.add_reading(reading_json(2, 4), frame=b"jpeg", game_id=None)
        path = store.reading(rid).frame_path
        path.unlink()
        stored = store.reading(rid)
        assert stored.frame_missing and stored.frame_path is None
        assert store.missing_frames() == [(rid, path)]
        store.add_correction(rid, reader=[2, 4], players=[2, 5])
        [correction] = store.corrections()
        assert correction.frame_missing and correction.frame_path is None

    @pytest.mark.parametrize(
        ("reading", "frame", "suffix"),
        [
            ({"status": "maybe", "dice": []}, None, ".jpg"),
            ({"status": "ok"}, None, ".jpg"),
            ({"status": "ok", "dice": [{"value": 7}]}, None, ".jpg"),
            ({"status": "ok", "dice": [], "extra": object()}, None, ".jpg"),
            ({"status": "ok", "dice": [], "ms": float("nan")}, None, ".jpg"),
            (["ok"], None, ".jpg"),
            ({"status": "ok", "dice": []}, b"", ".jpg"),
            ({"status": "ok", "dice": []}, "jpeg", ".jpg"),
            ({"status": "ok", "dice": []}, b"jpeg", "/../../escape"),
            ({"status": "ok", "dice": []}, b"jpeg", "jpg"),
        ],
        ids=[
            "status",
            "no dice",
            "face 7",
            "not json",
            "nan",
            "a list",
            "empty frame",
            "frame text",
            "suffix path",
            "suffix without dot",
        ],
    )
    def test_bad_readings_are_refused_and_nothing_is_stored(
        self, store: Store, reading, frame, suffix
    ) -> None:
        with pytest.raises(StoreError):
            store.add_reading(reading, frame=frame, game_id=None, suffix=suffix)
        assert list((store.data_dir / "frames").iterdir()) == []
        assert store.face_counts() == dict.fromkeys(range(1, 7), 0)

    def test_tidy_frames_deletes_only_what_no_reading_names(self, store: Store) -> None:
        kept = store.add_reading(reading_json(3), frame=b"jpeg", game_id=None)
        frames = store.data_dir / "frames"
        strays = [frames / "0000099.jpg", frames / ".0000100.jpg.tmp"]
        for path in strays:
            path.write_bytes(b"half a frame")
        assert store.tidy_frames() == sorted(strays)
        assert list(frames.iterdir()) == [store.reading(kept).frame_path]
        assert store.tidy_frames() == []

    def test_unknown_reading_or_game(self, store: Store) -> None:
        with pytest.raises(StoreError, match="no reading 9"):
            store.reading(9)
        with pytest.raises(StoreError, match="no game 5"):
            store.add_reading(reading_json(1), frame=b"jpeg", game_id=5)
        assert list((store.data_dir / "frames").iterdir()) == []


class TestCorrections:
    def test_round_trip(self, store: Store) -> None:
        data = reading_json(1, 4, 4, status="unsure")
        rid = store.add_reading(data, frame=b"jpeg", game_id=None)
        cid = store.add_correction(rid, reader=(1, 4, 4), players=(4, 4, 4))
        [correction] = store.corrections()
        assert (correction.id, correction.reading_id) == (cid, rid)
        assert (correction.reader, correction.players) == ((1, 4, 4), (4, 4, 4))
        assert correction.reading == data
        assert correction.frame_path == store.reading(rid).frame_path
        assert correction.at > store.reading(rid).at
        line = correction.to_json()
        assert json.loads(json.dumps(line))["frame"] == str(correction.frame_path)

    def test_reader_and_players_may_count_differently(self, store: Store) -> None:
        rid = store.add_reading(reading_json(2, 3, 5, 6), frame=b"jpeg", game_id=None)
        store.add_correction(rid, reader=[2, 3, 5, 6], players=[2, 3, 5, 6, 6])
        assert next(store.corrections()).players == (2, 3, 5, 6, 6)

    @pytest.mark.parametrize(
        ("reader", "players"),
        [([1, 2], [0, 2]), ([1, 7], [1, 2]), ([1, 2], []), ([1, 2], [True, 2])],
        ids=["face 0", "reader 7", "no values", "a bool"],
    )
    def test_bad_values_are_refused(self, store: Store, reader, players) -> None:
        rid = store.add_reading(reading_json(1, 2), frame=None, game_id=None)
        with pytest.raises(StoreError):
            store.add_correction(rid, reader=reader, players=players)
        assert list(store.corrections()) == []

    def test_an_unknown_reading(self, store: Store) -> None:
        with pytest.raises(StoreError, match="no reading 3"):
            store.add_correction(3, reader=[1], players=[2])

    def test_corrections_come_in_order_across_pages(self, tmp_path: Path) -> None:
        with Store(tmp_path, settings=StoreSettings(page=2)) as store:
            ids = []
            for face in range(1, 6):
                rid = store.add_reading(reading_json(face), frame=None, game_id=None)
                ids.append(rid)
                store.add_correction(rid, reader=[face], players=[face + 1])
            corrections = list(store.corrections())
        assert [c.reading_id for c in corrections] == ids
        assert [c.players for c in corrections] == [(f + 1,) for f in range(1, 6)]

    def test_the_table_goes_on_while_corrections_are_read(self, tmp_path: Path) -> None:
        with Store(tmp_path, settings=StoreSettings(page=1)) as store:
            rid = store.add_reading(reading_json(1), frame=None, game_id=None)
            store.add_correction(rid, reader=[1], players=[2])
            store.add_correction(rid, reader=[1], players=[3])
            seen = []
            for correction in store.corrections():
                seen.append(correction.players)
                other = threading.Thread(
                    target=store.add_correction, args=(rid,), kwargs={"reader": [1], "players": [4]}
                )
                other.start()
                other.join(timeout=30)
                assert not other.is_alive(), "corrections() held the lock while yielding"
                if len(seen) == 3:
                    break
        assert seen == [(2,), (3,), (4,)]


class TestKill:
    """SIGKILL a writer at random moments: every acknowledged row survives and replays."""

    RUNS = 30

    def test_acknowledged_events_survive_sigkill(self, tmp_path: Path) -> None:
        rng = random.Random(2026)
        folder = tmp_path / "data"
        acknowledged: dict[tuple[int, int], dict] = {}
        readings: dict[int, str] = {}
        finished: set[int] = set()
        kills = 0
        for run in range(self.RUNS):
            errors = tmp_path / f"writer-{run}.err"
            with errors.open("w") as err:
                proc = subprocess.Popen(
                    [sys.executable, str(WRITER), str(folder), str(run)],
                    stdout=subprocess.PIPE,
                    stderr=err,
                    text=True,
                )
            try:
                ready, _, _ = select.select([proc.stdout], [], [], 60)
                first = proc.stdout.readline() if ready else ""
                assert first == "ready\n", errors.read_text()
                time.sleep(rng.uniform(0.0, 0.2))
                proc.send_signal(signal.SIGKILL)
                out = proc.stdout.read()  # also what readline had buffered
            finally:
                proc.kill()
                proc.wait()
            assert proc.returncode == -signal.SIGKILL, errors.read_text()
            kills += 1
            for line in out.split("\n")[:-1]:  # a last line the kill cut short is not counted
                kind, *rest = line.split(" ", 3)
                if kind == "event":
                    acknowledged[int(rest[0]), int(rest[1])] = json.loads(rest[2])
                elif kind == "reading" and len(rest) == 2:
                    readings[int(rest[0])] = rest[1]
                elif kind == "finished":
                    finished.add(int(rest[0]))

        lost = 0
        with Store(folder) as store:
            raw = sqlite3.connect(store.path)
            try:
                stored = {
                    (g, s): json.loads(e)
                    for g, s, e in raw.execute("SELECT game_id, seq, event FROM events")
                }
                rows = raw.execute("SELECT id, reading, frame FROM readings").fetchall()
            finally:
                raw.close()
            lost = sum(1 for key, event in acknowledged.items() if stored.get(key) != event)
            for summary in store.games(limit=1000):
                match = Match.from_events(store.events(summary.id))
                if summary.finished:
                    assert match.finished and summary.totals == match.totals()
            assert finished <= {g.id for g in store.games(limit=1000) if g.finished}
            for rid, name in readings.items():
                assert store.reading(rid).reading["image"] == name
            for _, data, frame in rows:  # every committed row's frame is whole
                name = json.loads(data)["image"]
                assert frame is not None
                assert (folder / frame).read_bytes() == frame_bytes(name)
            strays = store.tidy_frames()  # frames of rows the kill kept from committing
            assert len(strays) <= kills
            assert len(list((folder / "frames").iterdir())) == len(rows)
        print(
            f"\nkill test: runs {self.RUNS}, kills {kills}, events acknowledged "
            f"{len(acknowledged)}, stored {len(stored)}, lost {lost}; readings acknowledged "
            f"{len(readings)}, stored {len(rows)}, stray frame files {len(strays)}; games "
            f"finished {len(finished)}"
        )
        assert lost == 0
        # each kill leaves at most one write committed but not yet acknowledged
        assert len(stored) - len(acknowledged) + len(rows) - len(readings) <= kills
        assert len(acknowledged) > self.RUNS  # the kills landed while it was writing


def test_a_reading_id_past_sqlites_integers_is_no_reading(tmp_path: Path) -> None:
    with Store(tmp_path) as store:
        for reading_id in (2**63, -1, 10**30):
            with pytest.raises(StoreError, match="no reading"):
                store.reading(reading_id)
