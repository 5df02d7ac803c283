"""What the tray learnt of the players' dice, through the JSON API: open to read, grown by
a correction made on the phone, forgotten by a joined phone on the current version; a
refused teaching file said with its reason in the state and the answer."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dicetray.firmware.learning import TEACHING_FILE
from dicetray.vision import read
from dicetray.vision.teaching import Teaching
from dicetray.web.app import create_app


@pytest.fixture
def tray(sim_tray, tmp_path):
    return sim_tray(seed=5, code="TEACHME", teaching_file=tmp_path / TEACHING_FILE)


@pytest.fixture
def app(tray):
    return create_app(tray.table, secret_key=b"t" * 32)


def joined(app):
    client = app.test_client()
    assert client.post("/api/join", json={"code": "TEACHME", "name": "Ann"}).status_code == 200
    return client


def version(client):
    return client.get("/api/state").get_json()["version"]


def doubting(frame, calibration=None, dice=None, *, teaching=None):
    """The real recognizer, whose readings all need checking."""
    reading = read(frame, calibration, dice, teaching=teaching)
    return dataclasses.replace(reading, status="unsure", reason="ambiguous: a test's doubt")


def test_the_teaching_is_open_to_every_phone_and_starts_empty(app):
    answer = app.test_client().get("/api/teaching")
    assert answer.status_code == 200
    taught = answer.get_json()
    assert taught["status"] == "missing" and taught["dice"] == 0 and taught["why"] == ""
    assert taught["values"] == {str(v): 0 for v in range(1, 7)}
    assert taught["file"] == TEACHING_FILE and isinstance(taught["version"], int)
    assert app.test_client().get("/api/state").get_json()["teaching"] == {
        "status": "missing", "why": "", "dice": 0}


def test_a_correction_on_the_phone_teaches_and_forgetting_moves_the_file_aside(app, tray,
                                                                                 tmp_path):
    tray.table.reader = doubting
    phone = joined(app)
    phone.post("/api/games", json={"version": version(phone), "ruleset": "yahtzee",
                                   "players": ["Ann"]})
    phone.post("/api/roll", json={"version": version(phone)})
    state = phone.get("/api/state").get_json()
    assert state["cycle"] == "needs-help"
    shown = sorted(tray.rig.camera.truth().values)
    state = phone.post("/api/correct", json={"version": state["version"], "dice": shown})
    assert state.status_code == 200 and state.get_json()["teaching"]["dice"] == 5
    taught = phone.get("/api/teaching").get_json()
    assert taught["status"] == "ok" and sum(taught["values"].values()) == 5
    learnt = (tmp_path / TEACHING_FILE).read_bytes()
    assert len(Teaching.load(tmp_path / TEACHING_FILE).examples) == 5

    # reading never changes it; a stranger may not forget it, nor a stale phone
    stranger = app.test_client()
    answer = stranger.post("/api/teaching/forget", json={"version": version(stranger)})
    assert answer.status_code == 401 and answer.get_json()["code"] == "not-joined"
    answer = phone.post("/api/teaching/forget", json={"version": version(phone) - 1})
    assert answer.status_code == 409 and answer.get_json()["code"] == "stale-version"
    assert (tmp_path / TEACHING_FILE).read_bytes() == learnt

    answer = phone.post("/api/teaching/forget", json={"version": version(phone)})
    assert answer.status_code == 200
    assert answer.get_json()["dice"] == 0 and answer.get_json()["status"] == "missing"
    assert (tmp_path / "teaching.forgotten.json").read_bytes() == learnt
    assert phone.get("/api/state").get_json()["teaching"]["dice"] == 0


def test_a_refused_file_is_said_with_its_reason(sim_tray, tmp_path):
    path = tmp_path / TEACHING_FILE
    path.write_text(json.dumps({"kind": "dicetray-teaching", "version": 7}))
    app = create_app(sim_tray(seed=5, code="TEACHME", teaching_file=path).table,
                     secret_key=b"t" * 32)
    client = app.test_client()
    expected = "teaching.json: unsupported version 7 (expected 1)"
    assert client.get("/api/state").get_json()["teaching"]["why"] == expected
    taught = client.get("/api/teaching").get_json()
    assert taught["status"] == "bad" and taught["why"] == expected


def test_forgetting_is_json_and_needs_a_version(app):
    phone = joined(app)
    answer = phone.post("/api/teaching/forget", json={})
    assert answer.status_code == 400 and set(answer.get_json()) == {"error", "code"}
    answer = phone.post("/api/teaching/forget", data="{}")
    assert answer.status_code == 400 and set(answer.get_json()) == {"error", "code"}
