"""Whole games through the HTTP API of a simulated tray: a real waitress server, the roll
cycle on its own thread, rendered frames read by the real recognizer, every event in
SQLite. The phone's side is plain HTTP, as a phone's page or an outside check would do."""

from __future__ import annotations

import http.client
import json
import time
from collections import Counter
from typing import Any

import pytest

from dicetray.firmware.store import Store
from dicetray.firmware.table import start_thread
from dicetray.rules import Match, load_ruleset
from dicetray.web.app import Serving, create_app

pytestmark = pytest.mark.slow


class Phone:
    """A phone at the table: HTTP with a session cookie."""

    def __init__(self, port: int) -> None:
        self.port, self.cookie = port, ""

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Content-Type": "application/json", "Cookie": self.cookie}
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        answer = conn.getresponse()
        data = json.loads(answer.read() or b"null")
        if answer.getheader("Set-Cookie"):
            self.cookie = answer.getheader("Set-Cookie").split(";", 1)[0]
        conn.close()
        return answer.status, data

    def state(self) -> dict[str, Any]:
        return self.call("GET", "/api/state")[1]

    def act(self, path: str, **body: Any) -> dict[str, Any]:
        status, data = self.call("POST", path, dict(body, version=self.state()["version"]))
        assert status in (200, 202), (path, status, data)
        return data

    def rest(self) -> dict[str, Any]:
        """Poll until the roll cycle rests (as a phone without the live stream would)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            state = self.state()
            if state["cycle"] not in ("tumbling", "settling", "reading"):
                return state
            time.sleep(0.02)
        raise AssertionError("the roll cycle never came to rest")


@pytest.fixture
def served(sim_tray):
    tray = sim_tray(seed=21, code="PLAY", run=start_thread)
    app = create_app(tray.table, secret_key=b"e" * 32)
    serving = Serving(app, host="127.0.0.1", port=0, threads=8)
    yield tray, Phone(serving.port)
    serving.stop()


def truth(tray) -> Counter:
    return Counter(tray.rig.sim.truth().values)


def roll(phone: Phone, tray, tally: Counter) -> dict[str, Any]:
    """Roll; when the tray asks, answer with what lies on the tray (as players would)."""
    phone.act("/api/roll")
    state = phone.rest()
    tally["rolls"] += 1
    if state["cycle"] == "needs-help":
        tally["asked"] += 1
        turn = state["game"]["turn"]
        held = turn["held"] if turn["dice"] else []
        seen = truth(tray) - Counter(turn["dice"][p] for p in held)
        phone.act("/api/correct", dice=sorted(seen.elements()))
        state = phone.rest()
    dice = Counter(state["game"]["turn"]["dice"])
    tally["wrong"] += dice != truth(tray)
    return state


def play(phone: Phone, tray, ruleset: str, players: list[str]) -> tuple[dict, Counter]:
    tally: Counter = Counter()
    phone.call("POST", "/api/join", {"code": "PLAY", "name": players[0]})
    phone.act("/api/games", ruleset=ruleset, players=players, games=1)
    while not (state := phone.state())["game"]["finished"]:
        state = roll(phone, tray, tally)
        game = state["game"]
        if game["turn"]["can_declare"]:  # Mickey: name the box after roll 1, then roll on
            best = max(game["options"], key=lambda o: o["points"])
            phone.act("/api/declare", box=best["box"])
            state = roll(phone, tray, tally)
        elif ruleset == "yahtzee" and game["turn"]["rolls_left"]:
            dice = game["turn"]["dice"]
            most = Counter(dice).most_common(1)[0][0]
            phone.act("/api/keep", dice=[p for p, v in enumerate(dice) if v == most])
            state = roll(phone, tray, tally)
            ledge = [d["value"] for d in state["reading"]["dice"] if d["zone"] == "ledge"]
            if state["reading"]["status"] == "ok":
                assert ledge and set(ledge) == {most}, state["reading"]
        options = state["game"]["options"]
        best = max(options, key=lambda o: (o["points"], -options.index(o)))
        phone.act("/api/score", box=best["box"], column=best.get("column"))
    return phone.state(), tally


@pytest.mark.parametrize(("ruleset", "players"), [
    ("yahtzee", ["Ann", "Bo"]),
    ("kniffel", ["Cem"]),
    ("yatzy", ["Dee"]),
    ("yacht", ["Eli"]),
    ("mickey", ["Fay"]),
])
def test_a_whole_game_through_the_api(served, ruleset, players):
    tray, phone = served
    state, tally = play(phone, tray, ruleset, players)
    game = state["game"]
    assert game["finished"] and game["winners"]
    rules = load_ruleset(ruleset)
    scorable = sum(b.section != "computed" for b in rules.boxes) * len(rules.columns)
    for sheet in game["sheets"]:
        assert sum(1 for entry in sheet["entries"] if entry["box"]) == scorable
    # the reader was right on nearly every roll, and the players put right the rest
    assert tally["wrong"] == 0, tally
    assert tally["asked"] <= tally["rolls"] // 4, tally
    # the game as stored replays into the same sheets
    with Store(tray.data_dir) as store:
        replayed = Match.from_events(store.events(tray.table.game_id))
    assert [s.total for s in replayed.game.sheets] == [s["total"] for s in game["sheets"]]
