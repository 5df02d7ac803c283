"""Reading the past back: the list of games, high scores and how often each face came up."""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from dicetray.firmware.errors import StoreError
from dicetray.firmware.store import Store
from dicetray.rules import Match, Started, load_ruleset


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    ticks = itertools.count(1_000)
    with Store(tmp_path, clock=lambda: float(next(ticks))) as opened:
        yield opened


def finished_game(store: Store, ruleset: str, players: dict[str, int]) -> int:
    """A stored game marked finished with the given totals (the best win)."""
    game = store.start_game(Started(ruleset, tuple(players)), version=1)
    totals = list(players.values())
    best = max(totals)
    store.finish_game(game, totals=totals, winners=[i for i, t in enumerate(totals) if t == best])
    return game


def reading(*values: int, status: str = "ok") -> dict:
    reason = "" if status == "ok" else "cocked: a die leans on the wall"
    return {"status": status, "reason": reason, "dice": [{"value": v} for v in values]}


class TestGames:
    def test_newest_first_with_a_limit(self, store: Store) -> None:
        ids = [finished_game(store, "yatzy", {"Ann": n, "Bo": 2 * n}) for n in range(1, 6)]
        assert [g.id for g in store.games()] == ids[::-1]
        assert [g.id for g in store.games(limit=2)] == ids[:2:-1]

    def test_a_finished_game_as_stored(self, store: Store) -> None:
        game = finished_game(store, "yacht", {"Ann": 180, "Bo": 210})
        [summary] = store.games()
        assert summary.id == game
        assert (summary.ruleset, summary.players) == ("yacht", ("Ann", "Bo"))
        assert (summary.totals, summary.winners) == ((180, 210), (1,))
        assert summary.started_at < summary.finished_at
        assert summary.finished

    def test_an_unfinished_game_shows_its_totals_so_far(self, store: Store) -> None:
        rng = random.Random(5)
        match = Match(load_ruleset("yahtzee"), ("Ann", "Bo", "Cy"), games=2)
        game = store.start_game(match.events[0], version=1)
        for _ in range(7):
            match.game.roll_random(rng)
            store.append(game, match.game.events[-1], version=2)
            match.game.score(match.game.options()[0].box)
            store.append(game, match.game.events[-1], version=3)
        [summary] = store.games()
        assert summary.totals == match.totals() and sum(summary.totals) > 0
        assert (summary.winners, summary.finished_at, summary.finished) == ((), None, False)
        assert (summary.players, summary.games) == (("Ann", "Bo", "Cy"), 2)

    def test_a_game_whose_rule_set_is_gone_still_lists(self, store: Store, tmp_path: Path) -> None:
        gone = str(tmp_path / "house-rules.toml")
        store.start_game(Started(gone, ("Ann",)), version=1)
        [summary] = store.games()
        assert (summary.ruleset, summary.totals) == (gone, ())

    def test_a_damaged_unfinished_game_is_a_store_error(self, store: Store) -> None:
        game = store.start_game(Started("yahtzee", ("Ann",)), version=1)
        raw = sqlite3.connect(store.path)
        with raw:
            raw.execute("UPDATE events SET event = 'not json' WHERE game_id = ?", (game,))
        raw.close()
        with pytest.raises(StoreError, match="cannot be read"):
            store.games()


class TestHighScores:
    def test_best_first_each_player_with_the_game(self, store: Store) -> None:
        first = finished_game(store, "yatzy", {"Ann": 250, "Bo": 190})
        second = finished_game(store, "yatzy", {"Cy": 280, "Ann": 120})
        scores = store.high_scores()
        assert [(s.player, s.total, s.game_id) for s in scores] == [
            ("Cy", 280, second),
            ("Ann", 250, first),
            ("Bo", 190, first),
            ("Ann", 120, second),
        ]
        assert all(s.ruleset == "yatzy" for s in scores)
        assert scores[1].at == store.games()[1].finished_at

    def test_a_tie_lists_the_earlier_game_first(self, store: Store) -> None:
        early = finished_game(store, "yahtzee", {"Ann": 200})
        late = finished_game(store, "yahtzee", {"Bo": 200})
        assert [s.game_id for s in store.high_scores()] == [early, late]

    def test_filtered_by_rule_set_and_limited(self, store: Store) -> None:
        finished_game(store, "yahtzee", {"Ann": 300, "Bo": 100})
        finished_game(store, "kniffel+sharp", {"Cy": 400})
        finished_game(store, "kniffel", {"Di": 150, "Ed": 160})
        assert [s.player for s in store.high_scores("kniffel")] == ["Ed", "Di"]
        assert [s.player for s in store.high_scores("kniffel+sharp")] == ["Cy"]
        assert [s.player for s in store.high_scores(limit=2)] == ["Cy", "Ann"]
        assert store.high_scores("crag") == []

    def test_unfinished_games_do_not_count(self, store: Store) -> None:
        store.start_game(Started("yahtzee", ("Ann",)), version=1)
        finished_game(store, "yahtzee", {"Bo": 10})
        assert [s.player for s in store.high_scores()] == ["Bo"]


class TestFaceCounts:
    def test_empty(self, store: Store) -> None:
        assert store.face_counts() == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0}

    def test_ok_readings_count_their_values(self, store: Store) -> None:
        store.add_reading(reading(1, 1, 6, 6, 6), frame=None, game_id=None)
        store.add_reading(reading(2, 6), frame=None, game_id=None)
        assert store.face_counts() == {1: 2, 2: 1, 3: 0, 4: 0, 5: 0, 6: 4}

    def test_unsure_readings_count_only_once_corrected(self, store: Store) -> None:
        unsure = store.add_reading(reading(1, 3, 3, status="unsure"), frame=None, game_id=None)
        assert sum(store.face_counts().values()) == 0
        store.add_correction(unsure, reader=[1, 3, 3], players=[4, 3, 3])
        assert store.face_counts() == {1: 0, 2: 0, 3: 2, 4: 1, 5: 0, 6: 0}

    def test_a_corrected_reading_counts_its_latest_correction(self, store: Store) -> None:
        ok = store.add_reading(reading(5, 5), frame=None, game_id=None)
        store.add_correction(ok, reader=[5, 5], players=[5, 2])
        store.add_correction(ok, reader=[5, 5], players=[5, 3])
        assert store.face_counts() == {1: 0, 2: 0, 3: 1, 4: 0, 5: 1, 6: 0}


def test_dice_kept_on_the_ledge_are_not_counted_again(tmp_path) -> None:
    from dicetray.firmware.store import Store

    def die(value, zone):
        return {"value": value, "x": 1.0, "y": 1.0, "confidence": 0.9, "zone": zone}

    with Store(tmp_path) as store:
        first = [die(v, "tray") for v in (6, 6, 1, 2, 3)]
        second = [die(6, "ledge"), die(6, "ledge")] + [die(v, "tray") for v in (4, 4, 5)]
        for dice in (first, second):
            store.add_reading({"status": "ok", "reason": "", "dice": dice}, frame=None,
                              game_id=None)
        assert store.face_counts() == {1: 1, 2: 1, 3: 1, 4: 2, 5: 1, 6: 2}
