"""A stand-in for the tray's JSON API, for testing the pages before and beside the real one.

It serves a real :class:`dicetray.rules.Match` through the API's JSON shape (``/api/state``,
the commands, ``/api/events``), with dice from a seeded random generator and a drawn tray
snapshot per reading. Tests only: never shipped. Two hooks steer it: ``POST /test/unsure``
makes the next roll an unsure reading (the cycle waits in ``needs-help``), ``POST
/test/manual`` loses the camera (dice are entered by hand).
"""

from __future__ import annotations

import json
import queue
import random
import threading
import time
from dataclasses import dataclass, field

import cv2
import numpy as np
from flask import Blueprint, Flask, Response, jsonify, request, session

from dicetray.rules import Match, RulesError, list_rulesets, load_ruleset
from dicetray.rules.loader import list_options, option_info
from dicetray.web.pages import pages_blueprint

FRAME = (640, 480)


@dataclass
class TableDouble:
    code: str = "4711"
    seed: int = 7
    simulated: bool = True
    version: int = 1
    cycle: str = "idle"
    why: str = ""
    manual: bool = False
    match: Match | None = None
    reading: dict | None = None
    flags: list[str] = field(default_factory=list)
    unsure_next: bool = False
    roll_pause: float = 0.05
    frames: dict[int, bytes] = field(default_factory=dict)
    listeners: list[queue.Queue] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def state(self, joined: bool = False, name: str | None = None) -> dict:
        return {
            "version": self.version,
            "cycle": self.cycle,
            "why": self.why,
            "manual": self.manual,
            "simulated": self.simulated,
            "game": None if self.match is None else self.match.to_dict(),
            "reading": self.reading,
            "flags": list(self.flags),
            "you": {"joined": joined, "name": name},
        }

    def changed(self) -> None:
        self.version += 1
        data = json.dumps(self.state())
        for listener in list(self.listeners):
            listener.put(data)

    # -- the roll cycle, made short --------------------------------------------------------

    def roll(self) -> None:
        with self.lock:
            self.cycle = "tumbling"
            self.changed()
        threading.Thread(target=self._finish_roll, daemon=True).start()

    def _finish_roll(self) -> None:
        time.sleep(self.roll_pause)
        with self.lock:
            game = self.match.game
            turn = game.turn
            count = self.match.ruleset.dice
            held = set(turn.held) if turn.rolled else set()
            old = list(turn.dice) if turn.rolled else [1] * count
            values = [old[p] if p in held else self.rng.randint(1, 6) for p in range(count)]
            unsure = self.unsure_next
            self.unsure_next = False
            self.reading = self._reading(values, held, unsure)
            if unsure:
                self.cycle = "needs-help"
                self.why = "cocked: a die leans against the wall"
            else:
                game.roll(values)
                self.cycle = "idle"
                self.why = ""
            self.changed()

    def _reading(self, values: list[int], held: set[int], unsure: bool) -> dict:
        number = len(self.frames) + 1
        dice = []
        for position, value in enumerate(values):
            if position in held:
                x, y, zone = 80 + 110 * position, 430, "ledge"
            else:
                x, y, zone = self.rng.randint(60, 580), self.rng.randint(50, 340), "tray"
            dice.append({"value": value, "x": x, "y": y, "confidence": 0.97, "zone": zone})
        if unsure:
            dice[0] = {**dice[0], "value": (values[0] % 6) + 1, "confidence": 0.3}
        self.frames[number] = _draw(dice)
        return {
            "id": number,
            "status": "unsure" if unsure else "ok",
            "reason": "cocked: a die leans against the wall" if unsure else "",
            "dice": dice,
            "frame": f"/api/frames/{number}.jpg",
        }


def _draw(dice: list[dict]) -> bytes:
    """A plain picture of the tray: felt, the ledge, a white square with pips per die."""
    width, height = FRAME
    image = np.full((height, width, 3), (60, 110, 40), np.uint8)
    cv2.rectangle(image, (0, 390), (width, height), (70, 90, 120), -1)
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
             5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
    for die in dice:
        x, y = int(die["x"]), int(die["y"])
        cv2.rectangle(image, (x - 24, y - 24), (x + 24, y + 24), (245, 245, 245), -1)
        for dx, dy in spots[die["value"]]:
            cv2.circle(image, (x + dx * 13, y + dy * 13), 5, (20, 20, 20), -1)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


def _rulesets() -> list[dict]:
    found = []
    for ruleset_id in list_rulesets():
        ruleset = load_ruleset(ruleset_id)
        options = []
        for option in list_options():
            try:
                load_ruleset(f"{ruleset_id}+{option}")
            except RulesError:
                continue
            info = option_info(option)
            options.append(
                {"id": option, "name": info.names["en"], "description": info.description}
            )
        found.append({
            "id": ruleset.id,
            "name": ruleset.name("en"),
            "description": ruleset.description,
            "players": list(ruleset.players),
            "games_per_match": ruleset.games_per_match,
            "options": options,
        })
    return found


def _api(table: TableDouble) -> Blueprint:
    api = Blueprint("api_double", __name__)
    rulesets = _rulesets()

    def answer(status: int = 200):
        return jsonify(table.state(bool(session.get("joined")), session.get("name"))), status

    def error(status: int, message: str):
        return jsonify(error=message), status

    def command(needs_game: bool = True):
        if request.mimetype != "application/json":
            return None, error(400, "send JSON")
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return None, error(400, "the body is a JSON object")
        if not session.get("joined"):
            return None, error(401, "join the table first")
        if body.get("version") != table.version:
            return None, error(409, f"the state has moved on to version {table.version}")
        if needs_game and table.match is None:
            return None, error(409, "no game is being played")
        return body, None

    @api.get("/state")
    def state():
        return answer()

    @api.get("/rulesets")
    def list_sets():
        return jsonify(rulesets)

    @api.post("/join")
    def join():
        body = request.get_json(silent=True) or {}
        if body.get("code") != table.code:
            return error(403, "wrong code")
        session["joined"] = True
        session["name"] = body.get("name") or None
        return answer()

    def act(action, needs_game=True, status=200):
        with table.lock:
            body, failed = command(needs_game)
            if failed:
                return failed
            if needs_game and table.cycle not in ("idle", "needs-help"):
                return error(409, f"the tray is {table.cycle}")
            try:
                action(body)
            except RulesError as exc:
                return error(422, str(exc))
            except (KeyError, TypeError, ValueError) as exc:
                return error(400, f"bad request: {exc}")
            if status == 200:
                table.changed()
            return answer(status)

    @api.post("/games")
    def games():
        def start(body):
            table.match = Match(load_ruleset(body["ruleset"]), body["players"], body.get("games"))
            table.reading = None
            table.cycle = "idle"
        return act(start, needs_game=False)

    @api.post("/roll")
    def roll():
        def go(_body):
            if table.cycle != "idle" or table.manual:
                raise RulesError("the tray cannot roll now")
            if table.match.game.turn.rolls_left <= 0:
                raise RulesError("no rolls left")
            table.roll()
        return act(go, status=202)

    @api.post("/keep")
    def keep():
        return act(lambda body: table.match.game.keep(body["dice"]))

    @api.post("/declare")
    def declare():
        return act(lambda body: table.match.game.declare(body["box"], body.get("column")))

    @api.post("/score")
    def score():
        def go(body):
            table.match.game.score(body["box"], body.get("column"))
            table.reading = None
        return act(go)

    @api.post("/undo")
    def undo():
        return act(lambda body: table.match.game.undo())

    @api.post("/correct")
    def correct():
        def go(body):
            if table.cycle != "needs-help" and not table.manual:
                raise RulesError("no reading waits for a correction")
            table.match.game.roll(body["dice"])
            table.cycle = "idle"
            table.why = "" if not table.manual else table.why
        return act(go)

    @api.get("/frames/<int:number>.jpg")
    def frame(number: int):
        if number not in table.frames:
            return error(404, "no such frame")
        return Response(table.frames[number], mimetype="image/jpeg")

    @api.get("/events")
    def events():
        listener: queue.Queue = queue.Queue()
        table.listeners.append(listener)

        def stream():
            try:
                yield f"event: state\ndata: {json.dumps(table.state())}\n\n"
                while True:
                    try:
                        data = listener.get(timeout=15)
                    except queue.Empty:
                        yield ": heartbeat\n\n"
                        continue
                    yield f"event: state\ndata: {data}\n\n"
            finally:
                table.listeners.remove(listener)

        return Response(stream(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    return api


def _hooks(table: TableDouble) -> Blueprint:
    hooks = Blueprint("test_hooks", __name__)

    @hooks.post("/test/unsure")
    def unsure():
        table.unsure_next = True
        return jsonify(ok=True)

    @hooks.post("/test/manual")
    def manual():
        with table.lock:
            table.manual = True
            table.why = "camera lost: no frames for 5 s"
            table.changed()
        return jsonify(ok=True)

    return hooks


def create_double_app(table: TableDouble) -> Flask:
    app = Flask(__name__, static_folder=None)
    app.secret_key = "test only"
    app.register_blueprint(_api(table), url_prefix="/api")
    app.register_blueprint(_hooks(table))
    app.register_blueprint(pages_blueprint())
    return app
