"""The JSON API over a simulated tray: who may act, every error as one JSON line, the
contract's shapes, and two phones acting on the same state."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetray.firmware.service import TableError, Trouble, error_code
from dicetray.rules import RulesError
from dicetray.web.app import create_app


@pytest.fixture
def tray(sim_tray):
    return sim_tray(seed=5, code="JOINME")


@pytest.fixture
def app(tray):
    return create_app(tray.table, secret_key=b"s" * 32)


def joined(app, name="Ann"):
    client = app.test_client()
    answer = client.post("/api/join", json={"code": "JOINME", "name": name})
    assert answer.status_code == 200, answer.get_json()
    return client


def version(client):
    return client.get("/api/state").get_json()["version"]


def test_the_state_is_open_to_everyone_in_the_contracts_shape(app):
    state = app.test_client().get("/api/state").get_json()
    assert {"version", "cycle", "game", "reading"} <= set(state)
    assert state["cycle"] == "idle" and state["game"] is None and state["reading"] is None
    assert state["you"] == {"joined": False, "name": None}


def test_acting_needs_the_join_code(app):
    client = app.test_client()
    assert client.post("/api/roll", json={"version": version(client)}).status_code == 401
    wrong = client.post("/api/join", json={"code": "NOPE", "name": "Eve"})
    assert wrong.status_code == 403 and "code" in wrong.get_json()["error"]
    assert client.post("/api/roll", json={"version": version(client)}).status_code == 401


def test_a_whole_turn_through_the_api(app, tray):
    phone = joined(app)
    answer = phone.post("/api/games", json={"version": version(phone), "ruleset": "yahtzee",
                                            "players": ["Ann", "Bo"]})
    assert answer.status_code == 200
    game = answer.get_json()["game"]
    assert game["players"] == ["Ann", "Bo"] and game["current"] == 0
    rolled = phone.post("/api/roll", json={"version": version(phone)})
    assert rolled.status_code == 202
    state = phone.get("/api/state").get_json()
    assert state["cycle"] == "idle" and state["reading"]["status"] == "ok"
    for die in state["reading"]["dice"]:
        assert {"value", "x", "y", "confidence", "zone"} <= set(die)
    frame = phone.get(state["reading"]["frame"])
    assert frame.status_code == 200 and frame.data[:2] == b"\xff\xd8"
    # the phones are sent the frame at their size; the dice stay in the frame's pixels
    reading = state["reading"]
    view = phone.get(reading["view"])
    assert view.status_code == 200 and len(view.data) < len(frame.data) / 2
    shown = cv2.imdecode(np.frombuffer(view.data, np.uint8), cv2.IMREAD_COLOR)
    kept = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert (reading["width"], reading["height"]) == (kept.shape[1], kept.shape[0])
    assert shown.shape[1] == tray.table.config.camera.view_width
    assert abs(shown.shape[0] / shown.shape[1] - kept.shape[0] / kept.shape[1]) < 0.01
    assert phone.get("/api/views/99999.jpg").get_json()["code"] == "no-frame"
    scored = phone.post("/api/score", json={"version": state["version"], "box": "chance"})
    assert scored.status_code == 200
    after = scored.get_json()["game"]
    assert after["current"] == 1 and after["sheets"][0]["total"] == sum(
        state["game"]["turn"]["dice"])


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/api/roll", {}, 400),  # no version
        ("/api/roll", {"version": "7"}, 400),
        ("/api/roll", {"version": True}, 400),
        ("/api/keep", {"version": 0, "dice": "01"}, 400),
        ("/api/games", {"version": 0, "ruleset": "yahtzee", "players": "Ann"}, 400),
        ("/api/games", {"version": 0, "ruleset": "/etc/passwd", "players": ["A"]}, 400),
        ("/api/games", {"version": 0, "ruleset": "no-such-game", "players": ["A"]}, 422),
        ("/api/score", {"version": 0, "box": "chance"}, 422),  # no game yet
        ("/api/correct", {"version": 0, "dice": [1, "x"]}, 400),
        ("/api/roll", [1, 2], 400),
    ],
)
def test_bad_commands_get_a_4xx_with_one_json_line(app, path, body, status):
    phone = joined(app)
    if isinstance(body, dict) and body.get("version") == 0:
        body = dict(body, version=version(phone))
    answer = phone.post(path, json=body)
    assert answer.status_code == status, answer.get_json()
    error = answer.get_json()["error"]
    assert error and "\n" not in error


def test_a_stale_version_is_409_and_the_phone_can_catch_up(app):
    phone = joined(app)
    old = version(phone)
    phone.post("/api/games", json={"version": old, "ruleset": "yatzy", "players": ["Ann"]})
    again = phone.post("/api/games", json={"version": old, "ruleset": "yatzy",
                                           "players": ["Ann"]})
    assert again.status_code == 409 and "version" in again.get_json()["error"]


def test_cross_site_and_non_json_requests_are_refused(app):
    phone = joined(app)
    body = json.dumps({"version": version(phone)})
    cross = phone.post("/api/roll", data=body, content_type="application/json",
                       headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403
    fetched = phone.post("/api/roll", data=body, content_type="application/json",
                         headers={"Sec-Fetch-Site": "cross-site"})
    assert fetched.status_code == 403
    form = phone.post("/api/roll", data={"version": "1"})
    assert form.status_code == 400


def test_unknown_paths_and_large_bodies_answer_json(app):
    phone = joined(app)
    missing = phone.get("/api/nothing-here")
    assert missing.status_code == 404 and missing.get_json()["error"]
    huge = phone.post("/api/games", data=json.dumps({"version": 1, "x": "a" * 40_000}),
                      content_type="application/json")
    assert huge.status_code == 413 and huge.get_json()["error"]
    assert phone.get("/api/frames/99999.jpg").status_code == 404
    assert phone.get("/api/frames/9223372036854775808.jpg").status_code == 404  # past 64 bits


def test_the_session_cookie_is_http_only_and_same_site(app):
    answer = app.test_client().post("/api/join", json={"code": "JOINME", "name": "Ann"})
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_rulesets_history_and_stats(app):
    phone = joined(app)
    sets = phone.get("/api/rulesets").get_json()
    assert {"yahtzee", "kniffel", "yatzy", "yacht", "mickey"} <= {s["id"] for s in
                                                                 sets["rulesets"]}
    assert all(s["description"] for s in sets["rulesets"])
    phone.post("/api/games", json={"version": version(phone), "ruleset": "yahtzee",
                                   "players": ["Ann"]})
    phone.post("/api/roll", json={"version": version(phone)})
    stats = phone.get("/api/stats").get_json()
    assert sum(stats["faces"].values()) == 5 and stats["rolls"] == 5
    history = phone.get("/api/history").get_json()
    assert history["games"][0]["ruleset"] == "yahtzee"


def test_the_live_stream_sends_the_state_then_each_change(app, tray):
    phone = joined(app)
    stream = phone.get("/api/events?version=-1", buffered=False)
    assert stream.mimetype == "text/event-stream"
    chunks = iter(stream.response)
    first = next(chunks).decode()
    assert first.startswith("id: ") and "event: state" in first
    seen = int(first.split("\n", 1)[0][4:])
    phone.post("/api/games", json={"version": seen, "ruleset": "yahtzee", "players": ["Ann"]})
    second = next(chunks).decode()
    assert int(second.split("\n", 1)[0][4:]) > seen
    data = json.loads(second.split("data: ", 1)[1])
    assert data["game"]["ruleset"] == "yahtzee"
    stream.close()


def test_the_coach_ranks_the_options_after_a_roll_of_a_yahtzee_game(app):
    phone = joined(app)
    phone.post("/api/games", json={"version": version(phone), "ruleset": "yahtzee",
                                   "players": ["Ann", "Bo"]})
    before = phone.get("/api/advice").get_json()
    assert before["available"] is False and "roll" in before["why"]
    phone.post("/api/roll", json={"version": version(phone)})
    state = phone.get("/api/state").get_json()
    advice = phone.get("/api/advice").get_json()
    assert advice["available"] is True and advice["player"] == 0
    assert advice["dice"] == state["game"]["turn"]["dice"] and advice["rolls_left"] == 2
    options = advice["options"]
    assert 1 < len(options) <= 5
    assert all(options[0]["expected"] >= o["expected"] for o in options)
    for option in options:
        assert option["kind"] in ("keep", "score")
        if option["kind"] == "keep":
            assert sorted(advice["dice"][p] for p in option["positions"]) == option["dice"]
        else:
            assert option["box"] and option["points"] is not None
    assert phone.get("/api/advice?player=1").get_json() == {
        "available": False, "reason": "not-this-player", "why": "not this player's turn"}
    assert phone.get("/api/advice?player=x").status_code == 400


def test_the_coach_says_why_it_cannot_help_with_mickey(app):
    phone = joined(app)
    phone.post("/api/games", json={"version": version(phone), "ruleset": "mickey",
                                   "players": ["Ann", "Bo"]})
    phone.post("/api/roll", json={"version": version(phone)})
    advice = phone.get("/api/advice").get_json()
    assert advice["available"] is False and advice["why"]
    assert (advice["reason"], advice["refusal"]) == ("refused", "declaration")


def test_the_analysis_of_a_finished_game_lists_each_player(app, tray):
    phone = joined(app)
    phone.post("/api/games", json={"version": version(phone), "ruleset": "general",
                                   "players": ["Ann", "Bo"]})
    assert phone.get("/api/analysis").status_code == 422  # not over yet
    while True:
        state = phone.get("/api/state").get_json()
        if state["game"]["finished"]:
            break
        phone.post("/api/roll", json={"version": state["version"]})
        state = phone.get("/api/state").get_json()
        sheet = state["game"]["sheets"][state["game"]["current"]]
        box = next(b for b, entry in sheet["columns"]["main"]["boxes"].items() if entry is None)
        answer = phone.post("/api/score", json={"version": state["version"], "box": box})
        assert answer.status_code == 200, answer.get_json()
    game_id = phone.get("/api/history").get_json()["games"][0]["id"]
    for path in ("/api/analysis", f"/api/analysis?game={game_id}"):
        analysis = phone.get(path).get_json()
        assert analysis["available"] is True and analysis["game"] == game_id
        assert [p["name"] for p in analysis["players"]] == ["Ann", "Bo"]
        for player, sheet in zip(analysis["players"], state["game"]["sheets"], strict=True):
            assert player["final"] == sheet["total"]
            assert player["expected_by_turn"][-1] == sheet["total"]
            assert player["total_loss"] >= 0 and len(player["costliest"]) <= 3
            for move in player["costliest"]:
                assert move["best"]["expected"] - move["chosen"]["expected"] == pytest.approx(
                    move["loss"], abs=0.02)
                assert move["chosen"]["kind"] != "score" or move["chosen"]["points"] is not None
    assert phone.get("/api/analysis?game=999").status_code == 404


WORDS = Path(__file__).resolve().parents[2] / "web" / "static" / "i18n"


def _codes(root: type[BaseException]) -> set[str]:
    found, todo = set(), [root]
    while todo:
        kind = todo.pop()
        todo.extend(kind.__subclasses__())
        found.add(error_code(kind))
    return found


def test_every_error_names_its_case_with_a_code(app):
    phone = joined(app)
    stranger = app.test_client()
    start = version(phone)

    def code(answer, status):
        assert answer.status_code == status, answer.get_json()
        return answer.get_json()["code"]

    assert code(stranger.post("/api/roll", json={"version": start}), 401) == "not-joined"
    assert code(stranger.post("/api/join", json={"code": "NOPE", "name": "Eve"}), 403) == (
        "wrong-code")
    assert code(phone.post("/api/score", json={"version": start, "box": "chance"}),
                422) == "no-game"
    assert code(phone.post("/api/games", json={"version": start, "ruleset": "yahtzee",
                                               "players": [""]}), 400) == "bad-name"
    phone.post("/api/games", json={"version": start, "ruleset": "yahtzee", "players": ["Ann"]})
    assert code(phone.post("/api/roll", json={"version": start}), 409) == "stale-version"
    assert code(phone.post("/api/score", json={"version": version(phone), "box": "chance"}),
                422) == "not-rolled"  # the rules engine's own refusal, by its class
    assert code(phone.get("/api/nothing-here"), 404) == "not-found"
    assert code(phone.get("/api/frames/99999.jpg"), 404) == "no-frame"


def test_every_code_a_phone_can_be_told_has_german_words():
    """A German phone shows its own words for what went wrong; the English page shows the
    tray's message, so only German needs them."""
    german = json.loads((WORDS / "de.json").read_text(encoding="utf-8"))
    english = json.loads((WORDS / "en.json").read_text(encoding="utf-8"))
    given = {"no-game", "game-over", "game-not-over", "nothing-to-correct", "needs-checking",
             "bad-players", "bad-name", "no-frame", "cannot-save", "not-found", "forbidden",
             "bad-request", "request-entity-too-large", "unsupported-media-type",
             "method-not-allowed", "no-empty-tray", "not-calibrated", "no-camera",
             "too-many-views", "teaching-not-saved"}
    codes = _codes(RulesError) | _codes(TableError) | given
    assert not {c for c in codes if f"said.{c}" not in german}
    for trouble in Trouble:
        if trouble:
            assert german[f"trouble.{trouble}"] != english[f"trouble.{trouble}"]
