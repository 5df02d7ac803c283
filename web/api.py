"""The JSON API under ``/api/``: what the phones (and outside checks) drive.

Reading is open; acting needs a joined session (``POST /api/join`` with the table's code
sets a signed cookie). Every acting request is JSON from the tray's own pages (a request
from another site is refused) and carries the ``version`` of the state it was decided on.
Every error is JSON ``{"error": "one line", "code": "a-word"}`` with a 4xx status (5xx when
the tray cannot save), turned so in one place, :func:`register_errors`; the page shows the
message, or in another language the words it has for the code. The routes are described by
:mod:`dicetray.web.openapi`.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    request,
    send_file,
    session,
)
from werkzeug.exceptions import Forbidden, HTTPException

from dicetray.firmware.service import (
    BadRequest,
    Busy,
    NotJoined,
    StoreError,
    TableError,
    TableService,
    TrayError,
    error_code,
)
from dicetray.web.camera import BOUNDARY
from dicetray.web.openapi import document

__all__ = ["api", "register_errors"]

api = Blueprint("api", __name__, url_prefix="/api")

_ACTING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _table() -> TableService:
    return current_app.extensions["table"]


def _ticket(code: str) -> str:
    """What the cookie keeps of the join code: an HMAC, so a new code ends old sessions."""
    key = current_app.config["SECRET_KEY"]
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, code.encode(), hashlib.sha256).hexdigest()[:32]


def _joined() -> bool:
    code = getattr(_table(), "code", None)
    ticket = session.get("ticket")
    return bool(code) and isinstance(ticket, str) and hmac.compare_digest(ticket, _ticket(code))


@api.before_request
def _guard() -> None:
    """Refuse cross-site acting requests, and acting requests that are not JSON."""
    if request.method not in _ACTING:
        return
    origin = request.headers.get("Origin")
    if origin is not None and origin != "null" and urlsplit(origin).netloc != request.host:
        raise Forbidden("cross-site requests are refused")
    if origin == "null" or request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise Forbidden("cross-site requests are refused")
    if not request.is_json:
        raise BadRequest("send the command as JSON (Content-Type: application/json)")


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("the body is a JSON object")
    return data


def _acting() -> dict[str, Any]:
    """The body of an acting request, once the session has joined."""
    body = _body()
    if not _joined():
        raise NotJoined("join the table first (POST /api/join with its code)")
    if "version" not in body:
        raise BadRequest("version is missing: send the version of the state you acted on")
    return body


def _state(state: dict[str, Any], status: int = 200) -> tuple[Response, int]:
    state = dict(state)
    state["you"] = {"joined": _joined(), "name": session.get("name") if _joined() else None}
    return jsonify(state), status


# -- reading ------------------------------------------------------------------------------------


@api.get("/state")
def get_state() -> tuple[Response, int]:
    return _state(_table().state())


@api.get("/openapi.json")
def get_openapi() -> Response:
    return jsonify(document())


@api.get("/rulesets")
def get_rulesets() -> Response:
    return jsonify(_table().rulesets())


@api.get("/history")
def get_history() -> Response:
    return jsonify(_table().history())


@api.get("/stats")
def get_stats() -> Response:
    return jsonify(_table().stats())


@api.get("/advice")
def get_advice() -> Response:
    return jsonify(_table().advice(_number("player")))


@api.get("/analysis")
def get_analysis() -> Response:
    return jsonify(_table().analysis(_number("game")))


def _number(name: str) -> int | None:
    """A query parameter that is a small whole number, or None when absent."""
    text = request.args.get(name)
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise BadRequest(f"{name} is a whole number")
    return int(text)


@api.get("/frames/<int:reading_id>.jpg")
def get_frame(reading_id: int) -> Response:
    path = _table().frame(reading_id)
    if path is None:
        return _error(404, f"no frame is kept for reading {reading_id}", "no-frame")
    return send_file(path, mimetype="image/jpeg", max_age=3600)


@api.get("/views/<int:reading_id>.jpg")
def get_view(reading_id: int) -> Response:
    jpeg = _table().view(reading_id)
    if jpeg is None:
        return _error(404, f"no frame is kept for reading {reading_id}", "no-frame")
    response = Response(jpeg, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "public, max-age=3600"  # a reading's frame never changes
    return response


@api.get("/calibration")
def get_calibration() -> Response:
    return jsonify(_table().calibration_status())


def _zones() -> bool:
    """The ``zones`` query parameter: draw the zones into the live view (default yes)."""
    text = request.args.get("zones", "1")
    if text not in ("0", "1"):
        raise BadRequest("zones is 0 or 1")
    return text == "1"


@api.get("/camera.jpg")
def get_camera_jpg() -> Response:
    response = Response(_table().camera_view(_zones()), mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@api.get("/camera.mjpg")
def get_camera_mjpg() -> Response:
    """The live view as MJPEG: a few frames a second until the phone goes or the server
    stops; only a few at once (each holds a server thread)."""
    table, zones = _table(), _zones()
    streams = current_app.extensions["camera_streams"]
    if streams.full:
        return _error(503, "too many live camera views are open: close one and try again",
                      "too-many-views")
    first = None
    # a tray without a camera is refused before the stream starts; while a roll has the
    # camera, the frames come once it rests
    with contextlib.suppress(Busy):
        first = table.camera_view(zones)
    parts = streams.open(lambda: table.camera_view(zones), first=first)
    if parts is None:
        return _error(503, "too many live camera views are open: close one and try again",
                      "too-many-views")
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return Response(parts, mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                    headers=headers, direct_passthrough=True)


@api.get("/events")
def get_events() -> Response:
    """Server-Sent Events: the state on every change, a heartbeat comment in between."""
    table = _table()
    settings = current_app.extensions["web_settings"]
    stopping = current_app.extensions["stopping"]
    after = _after(request.headers.get("Last-Event-ID") or request.args.get("version"))
    joined, name = _joined(), session.get("name")
    you = json.dumps({"joined": joined, "name": name if joined else None})
    told = current_app.extensions["told"]

    def stream() -> Iterator[str]:
        # quiet from the start: a phone that has the newest state gets a heartbeat at once
        # (the headers go with the first bytes, and its EventSource opens only then)
        last, quiet = after, settings.heartbeat_s
        state = table.state()
        while not stopping.is_set():
            if state is not None and state["version"] > last:
                last, quiet = state["version"], 0.0
                yield f'id: {last}\nevent: state\ndata: {{"you": {you}, {_text(told, state)}\n\n'
            elif quiet >= settings.heartbeat_s:
                quiet = 0.0
                yield ": heartbeat\n\n"
            state = table.wait(last, settings.stop_check_s)
            quiet += settings.stop_check_s if state is None else 0.0

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream(), mimetype="text/event-stream", headers=headers)


def _text(told: dict[str, Any], state: dict[str, Any]) -> str:
    """The state as JSON without its opening brace, made once per version for every stream
    (20 phones would otherwise each serialise the same state)."""
    version, text = told.get("last", (None, ""))
    if version != state["version"]:
        text = json.dumps(state)[1:]
        told["last"] = (state["version"], text)  # one assignment: threads see a whole pair
    return text


def _after(text: str | None) -> int:
    """The version a reconnecting phone already has (-1: send the state at once)."""
    try:
        return int(text) if text is not None and len(text) < 20 else -1
    except ValueError:
        return -1


# -- acting -------------------------------------------------------------------------------------


@api.post("/join")
def post_join() -> tuple[Response, int]:
    body = _body()
    name = _table().join(body.get("code"), body.get("name"))
    session.clear()
    session.permanent = True
    session["ticket"] = _ticket(_table().code)
    session["name"] = name
    return _state(_table().state())


@api.post("/games")
def post_games() -> tuple[Response, int]:
    body = _acting()
    return _state(_table().new_game(body["version"], body.get("ruleset"), body.get("players"),
                                    body.get("games")))


@api.post("/roll")
def post_roll() -> tuple[Response, int]:
    version = _acting()["version"]
    return _state(_table().roll(version), 202)


@api.post("/keep")
def post_keep() -> tuple[Response, int]:
    body = _acting()
    return _state(_table().keep(body["version"], body.get("dice")))


@api.post("/declare")
def post_declare() -> tuple[Response, int]:
    body = _acting()
    return _state(_table().declare(body["version"], body.get("box"), body.get("column")))


@api.post("/score")
def post_score() -> tuple[Response, int]:
    body = _acting()
    return _state(_table().score(body["version"], body.get("box"), body.get("column")))


@api.post("/next-game")
def post_next_game() -> tuple[Response, int]:
    version = _acting()["version"]
    return _state(_table().next_game(version))


@api.post("/undo")
def post_undo() -> tuple[Response, int]:
    version = _acting()["version"]
    return _state(_table().undo(version))


@api.post("/correct")
def post_correct() -> tuple[Response, int]:
    body = _acting()
    return _state(_table().correct(body["version"], body.get("dice")))


@api.post("/calibration/empty")
def post_calibration_empty() -> Response:
    return jsonify(_table().capture_empty(_acting()["version"]))


@api.put("/calibration/zones")
def put_calibration_zones() -> Response:
    body = _acting()
    if "tray" not in body:
        raise BadRequest("tray is missing: the tray's corners [[x, y], ...]")
    return jsonify(_table().set_zones(body["version"], body["tray"], body.get("ledge")))


@api.put("/calibration/camera")
def put_calibration_camera() -> Response:
    body = _acting()
    return jsonify(_table().set_camera(body["version"], body.get("exposure_us"),
                                       body.get("lens_position")))


@api.post("/calibration/save")
def post_calibration_save() -> Response:
    body = _acting()
    return jsonify(_table().save_calibration(body["version"], body.get("force", False)))


@api.get("/teaching")
def get_teaching() -> Response:
    return jsonify(_table().teaching_status())


@api.post("/teaching/forget")
def post_teaching_forget() -> Response:
    return jsonify(_table().forget_teaching(_acting()["version"]))


# -- errors, in one place -------------------------------------------------------------------------


def _error(status: int, message: str, code: str) -> Response:
    response = jsonify({"error": " ".join(str(message).split()) or "error", "code": code})
    response.status_code = status
    return response


def register_errors(app: Flask) -> None:
    """Every failure as ``{"error": "one line", "code": "a-word"}``: HTTP errors with their
    own status, the table's refusals with theirs, a store that cannot write as 503."""

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException) -> Response:
        return _error(error.code or 400, error.description or error.name, error_code(error))

    @app.errorhandler(TableError)
    def _refused(error: TableError) -> Response:
        return _error(error.status, str(error), error.code)

    @app.errorhandler(StoreError)
    def _store(error: StoreError) -> Response:
        return _error(503, f"the tray could not save: {error}", "cannot-save")

    @app.errorhandler(TrayError)
    def _tray(error: TrayError) -> Response:
        return _error(400, str(error), error.code)

