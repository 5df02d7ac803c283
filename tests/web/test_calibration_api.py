"""Calibrating through the JSON API: the standing is open to read, the live view is a JPEG
and an MJPEG stream of JPEG parts (a few at once, ended when the server stops), and the
commands need a joined phone, the current version and a tray at rest."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from waitress import create_server

from dicetray.web.app import WebSettings, create_app, stop_streams


@pytest.fixture
def tray(sim_tray, tmp_path):
    return sim_tray(seed=5, code="JOINME", calibration_file=tmp_path / "calibration.json")


@pytest.fixture
def app(tray):
    return create_app(tray.table, secret_key=b"s" * 32,
                      settings=WebSettings(camera_streams=2, camera_interval_s=0.0))


def joined(app, name="Ann"):
    client = app.test_client()
    answer = client.post("/api/join", json={"code": "JOINME", "name": name})
    assert answer.status_code == 200, answer.get_json()
    return client


def parts(response, count):
    """The first ``count`` JPEGs of an MJPEG response."""
    boundary = response.mimetype_params["boundary"].encode()
    found, buffer = [], b""
    for chunk in response.response:
        buffer += chunk
        while True:
            head, sep, rest = buffer.partition(b"\r\n\r\n")
            if not sep:
                break
            lines = head.split(b"\r\n")
            assert lines[0] == b"--" + boundary
            length = int(next(v for k, _, v in (x.partition(b": ") for x in lines[1:])
                              if k.lower() == b"content-length"))
            if len(rest) < length + 2:
                break
            found.append(rest[:length])
            buffer = rest[length + 2:]
        if len(found) >= count:
            return found
    return found


def test_the_standing_is_open_to_every_phone(app):
    answer = app.test_client().get("/api/calibration")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["status"] == "ok" and body["calibration"]["die_size"] > 0
    assert body["image_size"] == [1280, 960] and len(body["draft"]["tray"]) >= 3
    assert body["can_focus"] is True and body["dice"] == 5


def test_one_frame_of_the_live_view_is_a_jpeg(app):
    client = app.test_client()
    answer = client.get("/api/camera.jpg")
    assert answer.status_code == 200 and answer.mimetype == "image/jpeg"
    assert answer.data[:2] == b"\xff\xd8" and answer.headers["Cache-Control"] == "no-store"
    assert client.get("/api/camera.jpg?zones=0").data[:2] == b"\xff\xd8"
    bad = client.get("/api/camera.jpg?zones=maybe")
    assert bad.status_code == 400 and "zones" in bad.get_json()["error"]


def test_the_mjpeg_stream_sends_jpeg_parts_and_gives_its_slot_back(app):
    client = app.test_client()
    first = client.get("/api/camera.mjpg?zones=0", buffered=False)
    assert first.status_code == 200 and first.mimetype == "multipart/x-mixed-replace"
    jpegs = parts(first, 3)
    assert len(jpegs) == 3 and all(j[:2] == b"\xff\xd8" and j[-2:] == b"\xff\xd9"
                                   for j in jpegs)
    second = client.get("/api/camera.mjpg", buffered=False)
    assert second.status_code == 200
    full = client.get("/api/camera.mjpg", buffered=False)  # two streams at most here
    assert full.status_code == 503 and "too many" in full.get_json()["error"]
    first.close()
    third = client.get("/api/camera.mjpg", buffered=False)
    assert third.status_code == 200
    second.close()
    third.close()


def test_stopping_the_server_ends_the_streams(app):
    client = app.test_client()
    stream = client.get("/api/camera.mjpg", buffered=False)
    body = iter(stream.response)
    assert next(body)
    stop_streams(app)
    assert list(body) == []  # it ends, rather than waiting for the next frame
    assert client.get("/api/camera.mjpg").status_code == 503


def test_the_commands_need_a_joined_phone_and_json(app):
    client = app.test_client()
    version = client.get("/api/calibration").get_json()["version"]
    for method, path in [("post", "/api/calibration/empty"), ("post", "/api/calibration/save"),
                         ("put", "/api/calibration/zones"), ("put", "/api/calibration/camera")]:
        answer = getattr(client, method)(path, json={"version": version})
        assert answer.status_code == 401, path
        answer = getattr(client, method)(path, data="version=1")
        assert answer.status_code == 400, path
    phone = joined(app)
    cross = phone.put("/api/calibration/camera", json={"version": version, "exposure_us": 9000},
                      headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403


def test_calibrating_from_a_phone_end_to_end(app, tray, tmp_path):
    phone = joined(app)
    status = phone.get("/api/calibration").get_json()
    ledge = [list(p) for p in tray.rig.sim.truth().ledge]
    answer = phone.put("/api/calibration/zones", json={
        "version": status["version"], "tray": status["draft"]["tray"], "ledge": ledge})
    assert answer.status_code == 200, answer.get_json()
    answer = phone.put("/api/calibration/camera", json={
        "version": answer.get_json()["version"], "exposure_us": 11_000, "lens_position": None})
    assert answer.status_code == 200
    assert answer.get_json()["draft"]["camera"]["exposure_us"] == 11_000
    answer = phone.post("/api/calibration/empty", json={"version": answer.get_json()["version"]})
    assert answer.status_code == 200 and answer.get_json()["draft"]["empty"] is True
    answer = phone.post("/api/calibration/save", json={"version": answer.get_json()["version"]})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["status"] == "ok" and body["saved"] is True
    assert body["report"][-1] == "calibration written to calibration.json"
    assert (tmp_path / "calibration.json").exists()
    state = phone.get("/api/state").get_json()
    assert state["version"] == body["version"] and state["calibration"]["status"] == "ok"


def test_bad_commands_get_one_line_and_change_nothing(app):
    phone = joined(app)
    version = phone.get("/api/calibration").get_json()["version"]
    for path, body, status in [
        ("/api/calibration/zones", {"version": version}, 400),
        ("/api/calibration/zones", {"version": version, "tray": [[0, 0], [1, 1]]}, 400),
        ("/api/calibration/zones", {"version": version, "tray": "0,0 9,0 9,9"}, 400),
        ("/api/calibration/camera", {"version": version, "exposure_us": -5}, 400),
        ("/api/calibration/camera", {"version": version, "exposure_us": 9000,
                                     "lens_position": "far"}, 400),
        ("/api/calibration/save", {"version": version, "force": "yes"}, 400),
        ("/api/calibration/save", {"version": version - 1}, 409),
    ]:
        send = phone.put if "zones" in path or "camera" in path else phone.post
        answer = send(path, json=body)
        assert answer.status_code == status, (path, body, answer.get_json())
        error = answer.get_json()["error"]
        assert error and "\n" not in error
    assert phone.get("/api/calibration").get_json()["version"] == version


def test_a_roll_in_progress_keeps_the_camera(sim_tray, tmp_path):
    jobs = []
    tray = sim_tray(seed=5, code="JOINME", run=jobs.append)
    app = create_app(tray.table, secret_key=b"s" * 32)
    phone = joined(app)
    version = phone.get("/api/state").get_json()["version"]
    state = phone.post("/api/games", json={"version": version, "ruleset": "yahtzee",
                                           "players": ["Ann"]}).get_json()
    rolled = phone.post("/api/roll", json={"version": state["version"]}).get_json()
    assert rolled["cycle"] == "tumbling"
    busy = phone.post("/api/calibration/empty", json={"version": rolled["version"]})
    assert busy.status_code == 409 and "tumbling" in busy.get_json()["error"]
    assert phone.get("/api/camera.jpg").status_code == 409
    while jobs:
        jobs.pop(0)()
    assert phone.get("/api/camera.jpg").status_code == 200


@pytest.fixture
def served(tray):
    """The app behind waitress, as `dicetray run` serves it, with room for one live view."""
    app = create_app(tray.table, secret_key=b"s" * 32,
                     settings=WebSettings(camera_streams=1, camera_interval_s=0.2))
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield app, server, thread
    stop_streams(app)
    for _ in range(100):  # the streams end within a frame's time; then the server closes
        if not app.extensions["camera_streams"].open_count:
            break
        time.sleep(0.1)
    server.close()


def _open_stream(port):
    """A raw connection reading the live view: the socket and its status line."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"GET /api/camera.mjpg HTTP/1.1\r\nHost: tray\r\n\r\n")
    head = b""
    while b"\r\n" not in head:
        byte = sock.recv(1)
        assert byte, "the server closed the connection"
        head += byte
    return sock, head.strip()


def test_a_phone_that_goes_gives_its_live_view_back(served):
    _, server, _ = served
    port = server.effective_port
    sock, status = _open_stream(port)
    assert b"200" in status
    received = b""
    while b"Content-Type: image/jpeg" not in received:  # the first frame comes
        chunk = sock.recv(65536)
        assert chunk
        received += chunk
    _, refused = _open_stream(port)  # the one slot is taken
    assert b"503" in refused
    sock.close()  # the phone goes: the server's next write fails and the slot comes back
    for _ in range(300):
        again, status = _open_stream(port)
        again.close()
        if b"200" in status:
            break
        time.sleep(0.1)
    assert b"200" in status


def test_a_stopping_server_ends_the_live_view(served):
    app, server, _ = served
    sock, status = _open_stream(server.effective_port)
    assert b"200" in status
    stop_streams(app)  # as `dicetray run` does on Ctrl-C or SIGTERM, before closing the server
    received = b""
    while not received.endswith(b"\r\n0\r\n\r\n"):  # the stream's last, empty chunk
        chunk = sock.recv(65536)
        assert chunk, "the connection closed before the stream ended"
        received += chunk
    sock.close()
    assert app.extensions["camera_streams"].open_count == 0
