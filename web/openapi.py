"""The OpenAPI 3 document of the JSON API (served at ``/api/openapi.json``).

The tests hold it to the routes (every route described, every description routed) and
fuzz the API from it.

>>> doc = document()
>>> doc["openapi"], sorted(doc["paths"])[:3]
('3.0.3', ['/api/advice', '/api/analysis', '/api/correct'])
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
        "you": {"type": "object"},
    },
}


def _errors(*codes: int) -> dict[str, Any]:
    text = {400: "malformed", 401: "not joined", 403: "wrong code or cross-site",
            404: "not found", 409: "stale version or the cycle is busy",
            413: "body too large", 422: "against the rules", 503: "the tray could not save"}
    return {str(code): {"description": text[code], "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        for code in codes}


def _command(summary: str, fields: dict[str, Any], required: list[str], *,
             status: str = "200") -> dict[str, Any]:
    return {"post": {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object",
            "required": ["version", *required],
            "properties": {"version": _VERSION, **fields},
        }}}},
        "responses": {
            status: {"description": "the new state", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/State"}}}},
            **_errors(400, 401, 403, 409, 413, 422, 503),
        },
    }}


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
        "components": {"schemas": {"Error": _ERROR, "State": _STATE}},
    }
