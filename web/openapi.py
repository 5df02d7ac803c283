"""The OpenAPI 3 document of the JSON API (served at ``/api/openapi.json``).

The tests hold it to the routes (every route described, every description routed) and
fuzz the API from it.

>>> doc = document()
>>> doc["openapi"], sorted(doc["paths"])[:3]
('3.0.3', ['/api/advice', '/api/analysis', '/api/calibration'])
"""

from __future__ import annotations

from typing import Any

from dicetray.firmware.service import CoachReason, Trouble

__all__ = ["document"]

_ERROR = {
    "type": "object",
    "required": ["error", "code"],
    "properties": {
        "error": {"type": "string", "description": "one line in English"},
        "code": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
                 "description": "what went wrong as a stable word (stale-version, box-filled, "
                                "not-your-turn, …): the page shows it in the phone's language"},
    },
}
_VERSION = {"type": "integer", "description": "the version of the state the command was made on"}
_STATE = {
    "type": "object",
    "required": ["version", "cycle", "game", "reading"],
    "properties": {
        "version": {"type": "integer"},
        "cycle": {"type": "string", "enum": ["idle", "tumbling", "settling", "reading",
                                             "needs-help", "error"]},
        "why": {"type": "string", "description": "what is wrong, in English detail"},
        "trouble": {"type": "string", "enum": [str(t) for t in Trouble],
                    "description": "what is wrong as a word the page translates ('' if "
                                   "nothing)"},
        "manual": {"type": "boolean"},
        "simulated": {"type": "boolean"},
        "game": {"type": "object", "nullable": True,
                 "description": "the rules engine's Game.to_dict(), with `match`"},
        "reading": {"type": "object", "nullable": True},
        "flags": {"type": "array", "items": {"type": "string"}},
        "calibration": {"type": "object", "description": "the camera calibration's `status` "
                        "(ok, missing, bad) and `why`"},
        "teaching": {"type": "object", "description": "what the players taught the reader: "
                     "the teaching file's `status` (ok, missing, bad), `why`, and how many "
                     "confirmed `dice` it holds"},
        "you": {"type": "object"},
    },
}
_POINTS = {"type": "array", "items": {"type": "array", "items": {"type": "number"},
                                      "minItems": 2, "maxItems": 2},
           "description": "corners [x, y] in frame pixels"}
_CALIBRATION = {
    "type": "object",
    "required": ["version", "status", "why", "image_size", "draft", "report"],
    "properties": {
        "version": {"type": "integer"},
        "status": {"type": "string", "enum": ["ok", "missing", "bad"]},
        "why": {"type": "string", "description": "why a calibration file was refused"},
        "file": {"type": "string", "nullable": True},
        "image_size": {"type": "array", "items": {"type": "integer"}},
        "calibration": {"type": "object", "nullable": True,
                        "description": "the one in use: tray, ledge, die_size, camera"},
        "draft": {"type": "object", "description": "the one being made: tray, ledge, "
                  "camera, and whether the empty tray was captured (empty)"},
        "limits": {"type": "object"},
        "report": {"type": "array", "items": {"type": "string"},
                   "description": "the last save's report, as dicetray calibrate prints it"},
        "saved": {"type": "boolean", "nullable": True},
        "camera_problem": {"type": "string"},
        "has_camera": {"type": "boolean"},
        "can_focus": {"type": "boolean"},
        "dice": {"type": "integer"},
        "busy": {"type": "boolean"},
    },
}
_TEACHING = {
    "type": "object",
    "required": ["version", "status", "why", "dice", "values"],
    "properties": {
        "version": {"type": "integer"},
        "status": {"type": "string", "enum": ["ok", "missing", "bad"]},
        "why": {"type": "string", "description": "why the teaching file was refused (the "
                "tray reads untaught and learns nothing until it is forgotten)"},
        "file": {"type": "string", "nullable": True},
        "dice": {"type": "integer", "description": "confirmed dice learnt"},
        "values": {"type": "object", "description": "confirmed dice per value, '1' to '6'",
                   "additionalProperties": {"type": "integer"}},
        "kept_per_value": {"type": "integer",
                           "description": "the newest kept of each value"},
        "note": {"type": "string", "description": "what the last lesson came to, or why "
                 "it taught nothing"},
    },
}
_ZONES_QUERY = [{"name": "zones", "in": "query", "required": False,
                 "schema": {"type": "string", "enum": ["0", "1"]},
                 "description": "draw the zones into the frame (1, the default) or not (0)"}]


def _errors(*codes: int) -> dict[str, Any]:
    text = {400: "malformed", 401: "not joined", 403: "wrong code or cross-site",
            404: "not found", 409: "stale version or the cycle is busy",
            413: "body too large", 422: "against the rules",
            503: "the tray could not save, or too many live camera views are open"}
    return {str(code): {"description": text[code], "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        for code in codes}


def _command(summary: str, fields: dict[str, Any], required: list[str], *,
             status: str = "200", method: str = "post", answer: str = "State",
             said: str = "the new state",
             errors: tuple[int, ...] = (400, 401, 403, 409, 413, 422, 503)) -> dict[str, Any]:
    return {method: {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object",
            "required": ["version", *required],
            "properties": {"version": _VERSION, **fields},
        }}}},
        "responses": {
            status: {"description": said, "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{answer}"}}}},
            **_errors(*errors),
        },
    }}


def _calibrate(method: str, summary: str, fields: dict[str, Any],
               required: list[str]) -> dict[str, Any]:
    return _command(summary, fields, required, method=method, answer="Calibration",
                    said="the calibration's standing and draft",
                    errors=(400, 401, 403, 409, 413))


def _read(summary: str, media: str = "application/json",
          schema: dict[str, Any] | None = None, errors: tuple[int, ...] = ()) -> dict[str, Any]:
    content = {media: {"schema": schema or {"type": "object"}}}
    return {"get": {"summary": summary,
                    "responses": {"200": {"description": "OK", "content": content},
                                  **_errors(*errors)}}}


def document() -> dict[str, Any]:
    """The whole OpenAPI 3 document."""
    dice = {"type": "array", "items": {"type": "integer"}}
    box = {"type": "string"}
    column = {"type": "string", "nullable": True}
    paths: dict[str, Any] = {
        "/api/state": _read("the table's state",
                            schema={"$ref": "#/components/schemas/State"}),
        "/api/openapi.json": _read("this document"),
        "/api/rulesets": _read("the rule sets and house-rule options"),
        "/api/history": _read("past games and high scores"),
        "/api/stats": _read("how often each face came up, and a chi-square test of fairness"),
        "/api/advice": {"get": {
            "summary": "the coach: the current player's best options on the dice now",
            "parameters": [{"name": "player", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 0},
                            "description": "only if it is this player's turn"}],
            "responses": {"200": {"description": "the options best first, or available "
                                  "false with a reason (computing: with its progress) and "
                                  "why", "content": {"application/json": {
                                      "schema": {"type": "object", "required": ["available"],
                                                 "properties": {
                                                     "available": {"type": "boolean"},
                                                     "reason": {"type": "string", "enum": [
                                                         str(r) for r in CoachReason]},
                                                     "progress": {"type": "number",
                                                                  "minimum": 0,
                                                                  "maximum": 1},
                                                     "refusal": {"type": "string"},
                                                     "why": {"type": "string"}}}}}},
                          **_errors(400)},
        }},
        "/api/analysis": {"get": {
            "summary": "a finished game against optimal play, per player",
            "parameters": [{"name": "game", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 0},
                            "description": "a stored game (else the current one)"}],
            "responses": {"200": {"description": "each player's loss, costliest decisions "
                                  "and expected final score turn by turn", "content": {
                                      "application/json": {"schema": {"type": "object"}}}},
                          **_errors(400, 404, 422)},
        }},
        "/api/events": {"get": {
            "summary": "the state on every change, as Server-Sent Events",
            "parameters": [{"name": "version", "in": "query", "required": False,
                            "schema": {"type": "integer"},
                            "description": "the version the phone has already"}],
            "responses": {"200": {"description": "an event stream",
                                  "content": {"text/event-stream": {"schema": {
                                      "type": "string"}}}}},
        }},
        "/api/frames/{reading}.jpg": {"get": {
            "summary": "the frame a reading was made from",
            "parameters": [{"name": "reading", "in": "path", "required": True,
                            "schema": {"type": "integer", "minimum": 0}}],
            "responses": {"200": {"description": "a JPEG",
                                  "content": {"image/jpeg": {"schema": {
                                      "type": "string", "format": "binary"}}}},
                          **_errors(404)},
        }},
        "/api/views/{reading}.jpg": {"get": {
            "summary": "the frame a reading was made from, scaled to a phone's size "
                       "(the reading's `view`; its dice's x and y are in the frame's `width` "
                       "and `height`)",
            "parameters": [{"name": "reading", "in": "path", "required": True,
                            "schema": {"type": "integer", "minimum": 0}}],
            "responses": {"200": {"description": "a JPEG",
                                  "content": {"image/jpeg": {"schema": {
                                      "type": "string", "format": "binary"}}}},
                          **_errors(404)},
        }},
        "/api/calibration": _read(
            "the camera calibration: ok, missing or bad (and why), the one in use, the draft "
            "the phones edit and the last save's report",
            schema={"$ref": "#/components/schemas/Calibration"}),
        "/api/camera.jpg": {"get": {
            "summary": "one live frame, the zones and each die the reader finds drawn over it",
            "parameters": _ZONES_QUERY,
            "responses": {"200": {"description": "a JPEG", "content": {"image/jpeg": {
                "schema": {"type": "string", "format": "binary"}}}},
                **_errors(400, 409)},
        }},
        "/api/camera.mjpg": {"get": {
            "summary": "the live view as MJPEG, a few frames a second, until the phone goes",
            "parameters": _ZONES_QUERY,
            "responses": {"200": {"description": "a multipart stream of JPEGs", "content": {
                "multipart/x-mixed-replace": {"schema": {"type": "string",
                                                         "format": "binary"}}}},
                **_errors(400, 409, 503)},
        }},
        "/api/calibration/empty": _calibrate(
            "post", "capture the empty tray (the calibration's background)", {}, []),
        "/api/calibration/zones": _calibrate(
            "put", "move the tray's and the hold ledge's corners",
            {"tray": _POINTS, "ledge": {**_POINTS, "nullable": True}}, ["tray"]),
        "/api/calibration/camera": _calibrate(
            "put", "set the camera's exposure and focus (the live view shows it)",
            {"exposure_us": {"type": "integer", "description": "exposure time, µs"},
             "lens_position": {"type": "number", "nullable": True,
                               "description": "dioptres; null: fixed focus"}},
            ["exposure_us"]),
        "/api/calibration/save": _calibrate(
            "post", "take frames with the dice, build, write and use the calibration; the "
            "answer's report is the one dicetray calibrate prints",
            {"force": {"type": "boolean", "description": "replace a good calibration even "
                       "when this one reads unsure"}}, []),
        "/api/teaching": _read(
            "what the players taught the reader of their dice: the teaching file's standing "
            "(ok, missing, bad and why) and the confirmed dice per value",
            schema={"$ref": "#/components/schemas/Teaching"}),
        "/api/teaching/forget": _command(
            "forget what the players taught: the teaching file is moved aside "
            "(teaching.forgotten.json) and the reader reads untaught", {}, [],
            answer="Teaching", said="the teaching's standing",
            errors=(400, 401, 403, 409, 413)),
        "/api/join": {"post": {
            "summary": "join the table with its code (sets the session cookie)",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["code", "name"],
                "properties": {"code": {"type": "string"}, "name": {"type": "string"}},
            }}}},
            "responses": {"200": {"description": "joined; the state", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/State"}}}},
                **_errors(400, 403, 413)},
        }},
        "/api/games": _command("start a game or match", {
            "ruleset": {"type": "string", "description": "a built-in id, with +options"},
            "players": {"type": "array", "items": {"type": "string"}},
            "games": {"type": "integer", "nullable": True},
        }, ["ruleset", "players"]),
        "/api/roll": _command("roll (the same as the button); the cycle runs", {}, [],
                              status="202"),
        "/api/keep": _command("put the dice at these positions on the ledge",
                              {"dice": dice}, ["dice"]),
        "/api/declare": _command("declare the box aimed at", {"box": box, "column": column},
                                 ["box"]),
        "/api/score": _command("score a box; answered once committed",
                               {"box": box, "column": column}, ["box"]),
        "/api/next-game": _command("start the match's next game", {}, []),
        "/api/undo": _command("take back the last entry", {}, []),
        "/api/correct": _command("the players' values for an unsure reading, or dice typed "
                                 "by hand", {"dice": dice}, ["dice"]),
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "dicetray", "version": "1",
                 "description": "The dice tray's table: state, live updates and commands."},
        "paths": paths,
        "components": {"schemas": {"Error": _ERROR, "State": _STATE,
                                   "Calibration": _CALIBRATION, "Teaching": _TEACHING}},
    }
