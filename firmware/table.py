"""The table service: the one object the phones' API talks to.

It holds the current match, the roll cycle's state and the last reading; it carries out
the players' commands (new game, roll, keep, declare, score, undo, correct, join) one at a
time under one lock; it keeps every event in the :class:`~dicetray.firmware.store.Store`
before answering; and it tells listeners of every change (:meth:`Table.wait`), each
change numbered by :attr:`Table.version`. A command decided on an older version is
refused with :class:`~dicetray.firmware.errors.StaleVersion`, so two phones tapping at
once never apply the same entry twice.

The roll cycle (:mod:`dicetray.firmware.cycle`) is driven here by a thin loop: tumble the
cup, watch frames until the tray is still, read the last one with the tray light on,
apply or ask. The loop runs on the ``run`` callable (a thread by default; tests pass one
that runs it at once).
"""

from __future__ import annotations

import dataclasses
import functools
import hmac
import math
import random
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from dicetray.firmware.calibrating import Calibrating
from dicetray.firmware.coach import (
    Coach,
    CoachReason,
    Readiness,
    Runner,
    TableLoader,
    start_daemon,
)
from dicetray.firmware.config import TrayConfig
from dicetray.firmware.cycle import (
    Action,
    CameraLost,
    Cycle,
    CycleEvent,
    Phase,
    ReadAgain,
    ReadDone,
    Resolved,
    RollAsked,
    Settled,
    SettleTimedOut,
    Stalled,
    Trouble,
    Tumbled,
    rested,
    step,
)
from dicetray.firmware.errors import (
    AgainstRules,
    BadRequest,
    Busy,
    CupStalled,
    NotFound,
    NotReady,
    StaleVersion,
    TrayError,
    WrongCode,
)
from dicetray.firmware.learning import Die, Learning, stored_frame
from dicetray.firmware.ledge import Seen, throw_from
from dicetray.firmware.views import Views
from dicetray.rules import (
    Declared,
    Event,
    Game,
    Kept,
    Match,
    NextGame,
    Rolled,
    RulesError,
    Scored,
    Started,
    Undone,
    load_ruleset,
)

__all__ = ["COACH_OPTIONS", "CoachReason", "Reader", "Table", "fairness", "start_thread"]

#: How many of the best options the coach shows: five fit a phone's screen and still show
#: how close the runners-up are.
COACH_OPTIONS = 5


#: A rule set a phone may ask for: a built-in id with house-rule options (never a path).
RULESET_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}(\+[a-z0-9][a-z0-9-]{0,63}){0,8}")
#: A player's name: what fits on a scorecard column.
NAME = re.compile(r"[^\x00-\x1f\x7f]{1,24}")


class Reader(Protocol):
    """Reads the dice in a frame (:func:`dicetray.vision.read`), with what the players
    taught the tray (a :class:`~dicetray.vision.teaching.Teaching`, None: untaught)."""

    def __call__(self, frame: Any, calibration: Any = None, dice: int | None = None, *,
                 teaching: Any = None) -> Any: ...


class StoreLike(Protocol):
    """What the table needs of the event store."""

    def start_game(self, started: Started, *, version: int) -> int: ...
    def append(self, game_id: int, event: Event, *, version: int) -> int: ...
    def events(self, game_id: int) -> list[Event]: ...
    def current_game(self) -> int | None: ...
    def finish_game(self, game_id: int, *, totals: Sequence[int],
                    winners: Sequence[int]) -> None: ...
    def last_version(self) -> int: ...
    def add_reading(self, reading: Any, *, frame: bytes | None, game_id: int | None,
                    suffix: str = ".jpg") -> int: ...
    def add_correction(self, reading_id: int, *, reader: Sequence[int],
                       players: Sequence[int]) -> int: ...


def start_thread(job: Callable[[], None]) -> None:
    """Run ``job`` on a daemon thread (the roll cycle's default runner)."""
    threading.Thread(target=job, name="roll-cycle", daemon=True).start()


class Table:
    """The table: a match, the roll cycle and the readings, behind one lock."""

    def __init__(
        self,
        *,
        store: StoreLike,
        code: str,
        rig: Any = None,
        reader: Reader | None = None,
        calibration: Any = None,
        config: TrayConfig | None = None,
        run: Callable[[Callable[[], None]], None] = start_thread,
        rng: random.Random | None = None,
        advisor_dir: Path | None = None,
        advisor_loader: TableLoader | None = None,
        advisor_run: Runner = start_daemon,
        calibrating: Calibrating | None = None,
        learning: Learning | None = None,
    ) -> None:
        self.store = store
        self.advisor_dir = advisor_dir
        self.coach = Coach(advisor_dir, run=advisor_run,
                           **({"loader": advisor_loader} if advisor_loader else {}))
        self.code = code
        self.rig = rig
        self.reader = reader
        self.config = config or TrayConfig()
        shown = self.config.camera
        self.views = Views(width=shown.view_width, quality=shown.view_quality)
        camera = getattr(rig, "camera", None)
        self.calibrating = calibrating or Calibrating(
            None, calibration=calibration,
            image_size=camera.size if camera is not None else self.config.camera.size)
        self.learning = learning or Learning(None)
        self._camera = threading.Lock()  # one user of the camera at a time: a roll, the view
        self._camera_work = ""  # what calibrating is doing with the camera ("" = nothing)
        self._camera_note = ""  # why the camera's settings could not be set
        if self.calibrating.calibration is not None:
            self._set_camera(self.calibrating.calibration.camera, at_start=True)
        self.rng = rng or random.Random()
        self._run = run
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self.version = store.last_version() + 1
        self.cycle = Cycle()
        self.match: Match | None = None
        self.game_id: int | None = None
        self.reading: dict[str, Any] | None = None
        self.reading_id: int | None = None
        self.flags: tuple[str, ...] = ()
        self._frame: Any = None
        self._restore()
        problem = getattr(rig, "camera_problem", None) if rig is not None else None
        if rig is None or getattr(rig, "camera", None) is None:
            self.cycle = Cycle(why=problem or "no camera: enter the dice by hand", manual=True,
                               trouble=Trouble.CAMERA_LOST)
        self._show()
        if self.match is not None:  # the coach gets ready for the game under way
            self.coach.prepare(self.match.game.ruleset)

    # -- what the phones see -----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (``GET /api/state``), made once per version
        however many phones ask (treat it as read-only)."""
        with self._lock:
            if self._told[0] == self.version:
                return self._told[1]
            match = self.match
            state = {
                "version": self.version,
                "cycle": str(self.cycle.phase),
                "why": self.cycle.why,
                "trouble": str(self.cycle.trouble),
                "manual": self.cycle.manual,
                "simulated": bool(getattr(self.rig, "simulated", False)),
                "game": _game_state(match),
                "reading": self.reading,
                "flags": list(self.flags),
                "calibration": {"status": str(self.calibrating.standing),
                                "why": self.calibrating.problem},
                "teaching": {"status": str(self.learning.standing),
                             "why": self.learning.problem,
                             "dice": sum(self.learning.counts().values())},
            }
            self._told = (self.version, state)
            return state

    def wait(self, after: int, timeout: float) -> dict[str, Any] | None:
        """The state once its version is past ``after``, or None after ``timeout`` seconds."""
        with self._changed:
            if self._changed.wait_for(lambda: self.version > after, timeout):
                return self.state()
        return None

    def rulesets(self) -> dict[str, Any]:
        """The built-in rule sets and house-rule options a new game can choose from (read
        once: the built-in files do not change while the tray runs)."""
        if self._catalogue is None:
            self._catalogue = self._read_catalogue()
        return self._catalogue

    def _read_catalogue(self) -> dict[str, Any]:
        from dicetray.rules import list_options, list_rulesets
        from dicetray.rules.loader import option_info

        options = []
        for option in list_options():
            info = option_info(option)
            options.append({"id": option, "names": dict(info.names),
                            "description": info.description,
                            "descriptions": dict(info.descriptions)})
        sets = []
        for ruleset_id in list_rulesets():
            rules = load_ruleset(ruleset_id)
            sets.append({
                "id": ruleset_id, "names": dict(rules.names), "description": rules.description,
                "descriptions": dict(rules.descriptions),
                "players": list(rules.players), "dice": rules.dice,
                "games_per_match": rules.games_per_match,
            })
        return {"rulesets": sets, "options": options}

    def history(self) -> dict[str, Any]:
        """Past games and the high scores per rule set."""
        games = [_plain(g) for g in self.store.games()]
        best = [_plain(h) for h in self.store.high_scores()]
        return {"games": games, "high_scores": best}

    def stats(self) -> dict[str, Any]:
        """How often each face came up over every reading, and whether the dice look fair."""
        counts = self.store.face_counts()
        return {"faces": {str(face): counts.get(face, 0) for face in range(1, 7)},
                **fairness([counts.get(face, 0) for face in range(1, 7)])}

    def frame(self, reading_id: int) -> Any:
        """The stored frame file of a reading (a path), or None."""
        getter = getattr(self.store, "reading", None)
        if getter is None:
            return None
        try:
            return getter(reading_id).frame_path
        except (TrayError, KeyError, LookupError):
            return None

    def view(self, reading_id: int) -> bytes | None:
        """The phone-sized JPEG of a reading's frame, or None."""
        return self.views.get(reading_id, self.frame(reading_id))

    # -- the coach ---------------------------------------------------------------------------

    def advice(self, player: int | None = None) -> dict[str, Any]:
        """The current player's best options on the dice now on the table (the top
        :data:`COACH_OPTIONS`), or ``{"available": False, "reason": ..., "why": ...}``
        (:class:`CoachReason`); while the rule set's table is being prepared, the reason
        is ``computing`` with its ``progress``. ``player``, when given, must be the player
        whose turn it is. Never waits for a table."""
        from dicetray.rules.advisor.advice import advise_game

        with self._lock:
            ruleset = self.match.game.ruleset if self.match is not None else None
        # not under the table's lock: a runner may prepare the table at once
        status = self.coach.status(ruleset) if ruleset is not None else None
        with self._lock:
            if self.match is None:
                return _unavailable(CoachReason.NO_GAME, "no game yet: start one")
            game = self.match.game
            if player is not None:
                if isinstance(player, bool) or not isinstance(player, int) or not (
                        0 <= player < len(game.players)):
                    raise BadRequest(f"player is a number from 0 to {len(game.players) - 1}")
                if player != game.current:
                    return _unavailable(CoachReason.NOT_THIS_PLAYER, "not this player's turn")
            if game.finished:
                return _unavailable(CoachReason.GAME_OVER, "the game is over")
            if not game.turn.rolled:
                return _unavailable(CoachReason.NOT_ROLLED, "no roll yet this turn: roll first")
            if status is None or game.ruleset is not ruleset:  # a new game meanwhile
                return _unavailable(CoachReason.COMPUTING, "the game changed: ask again",
                                    progress=0.0)
            if status.readiness is not Readiness.READY:
                return _not_ready(status)
            try:
                found = advise_game(status.table, game)
            except RulesError as error:
                return _unavailable(CoachReason.ERROR, " ".join(str(error).split()))
            dice = tuple(game.turn.dice)
            options = [_option(o, dice) for o in found.options[:COACH_OPTIONS]]
            return {"available": True, "player": game.current, "rolls_left": found.rolls_left,
                    "dice": list(dice), "options": options}

    def analysis(self, game_id: int | None = None) -> dict[str, Any]:
        """Every player's finished game against optimal play: the current game, or the stored
        game ``game_id`` (of a match, its last game)."""
        from dicetray.rules.advisor.analysis import analyse

        if game_id is not None and (isinstance(game_id, bool) or not isinstance(game_id, int)):
            raise BadRequest("game is a stored game's number")
        with self._lock:
            if game_id is None or game_id == self.game_id:
                if self.match is None:
                    raise AgainstRules("no game yet: start one", code="no-game")
                events = tuple(self.match.game.events)
                game_id = self.game_id
            else:
                try:
                    events = _last_game(self.store.events(game_id))
                except (TrayError, KeyError, LookupError) as error:
                    raise NotFound(f"no stored game {game_id}") from error
        if not events:
            raise NotFound(f"no stored game {game_id}")
        with _rules():
            game = Game.from_events(events)
        if not game.finished:
            raise AgainstRules("the game is not over yet: the analysis comes at its end",
                               code="game-not-over")
        status = self.coach.status(game.ruleset)
        if status.readiness is not Readiness.READY:
            return {**_not_ready(status), "game": game_id}
        players = []
        with _rules():
            for number, name in enumerate(game.players):
                found = analyse(status.table, events, number)
                players.append({
                    "player": number, "name": name, "final": found.final,
                    "total_loss": round(found.total_loss, 2),
                    "costliest": [_decision(d) for d in found.costliest if d.loss > 0],
                    "expected_by_turn": [round(x, 2) for x in found.expected_by_turn],
                })
        return {"available": True, "game": game_id, "ruleset": game.ruleset.id,
                "players": players}

    # -- commands ----------------------------------------------------------------------------

    def join(self, code: str, name: str) -> str:
        """Check the table's join code; the name the phone will go by."""
        if not isinstance(code, str) or not hmac.compare_digest(code.encode(), self.code.encode()):
            raise WrongCode("that is not this table's join code")
        return _name(name)

    def new_game(self, version: int, ruleset: str, players: Sequence[str],
                 games: int | None = None) -> dict[str, Any]:
        """Start a game (a match of ``games`` games) of ``ruleset`` for ``players``."""
        if not isinstance(ruleset, str) or not RULESET_NAME.fullmatch(ruleset):
            raise BadRequest("ruleset is a built-in rule set id, optionally with +options")
        if not isinstance(players, list | tuple) or not players:
            raise BadRequest("players is a list of 1 to 8 names", code="bad-players")
        names = tuple(_name(p) for p in players)
        if len(names) > 8:
            raise BadRequest("at most 8 players sit at one table", code="bad-players")
        if games is not None and (isinstance(games, bool) or not isinstance(games, int)
                                  or not 1 <= games <= 20):
            raise BadRequest("games is a whole number from 1 to 20")
        with self._lock:
            self._check(version, idle=True)
            with _rules():
                rules = load_ruleset(ruleset)
                match = Match(rules, names, games)
            started = match.events[0]
            self.game_id = self.store.start_game(started, version=self.version + 1)
            self.match = match
            self.reading, self.reading_id, self.flags = None, None, ()
            sim = getattr(self.rig, "sim", None)
            if sim is not None:
                sim.use(rules.dice)
            self.cycle = rested(self.cycle)
            told = self._bump()
        # the coach's table is loaded or computed now, not when the first hint is asked
        self.coach.prepare(rules)
        return told

    def roll(self, version: int) -> dict[str, Any]:
        """Start the roll cycle (the same as the button). Returns at once; the cycle runs."""
        with self._lock:
            self._check(version, idle=False)
            self._check_camera_free()
            self._check_can_roll()
            self._first_of_turn()
            self._feed(RollAsked())
            return self.state()

    def press(self) -> None:
        """The roll button: roll when a roll is possible, else nothing (a press is cheap)."""
        with self._lock:
            try:
                self._check_can_roll()
            except TrayError:
                return
            if self.cycle.busy or self._camera_work:
                return
            self._first_of_turn()
            self._feed(RollAsked())

    def hold(self) -> None:
        """The roll button held long: read the tray again without tumbling (after a player
        straightened a cocked die by hand)."""
        with self._lock:
            if (self.cycle.phase is Phase.NEEDS_HELP and not self.cycle.manual
                    and not self._camera_work):
                self._feed(ReadAgain())

    def keep(self, version: int, positions: Sequence[int]) -> dict[str, Any]:
        """Put the dice at ``positions`` on the ledge (the rest back in the cup)."""
        held = _positions(positions)
        with self._lock:
            self._check(version, idle=True)
            game = self._game()
            before = set(game.turn.held) if game.turn.rolled else set()
            self._act(Kept(held))
            sim = getattr(self.rig, "sim", None)
            if sim is not None and self._spots:
                spots = list(self._spots)
                for position in sorted(set(held) ^ before):
                    x, y = self._spots[position]
                    move = sim.keep if position in held else sim.release
                    spots[position] = sim.spot(move(x, y))
                self._spots = tuple(spots)
            return self._bump()

    def declare(self, version: int, box: str, column: str | None = None) -> dict[str, Any]:
        """Declare the box aimed at (Mickey, an announce column)."""
        _text(box, "box")
        if column is not None:
            _text(column, "column")
        with self._lock:
            self._check(version, idle=True)
            self._game()
            self._act(Declared(box, column))
            return self._bump()

    def score(self, version: int, box: str | None, column: str | None = None) -> dict[str, Any]:
        """Write the turn's dice into ``box``; answered once the entry is on disk."""
        if box is not None:
            _text(box, "box")
        if column is not None:
            _text(column, "column")
        with self._lock:
            self._check(version, idle=True)
            game = self._game()
            self._act(Scored(box, column))
            self.reading, self.reading_id, self.flags = None, None, ()
            self._spots = ()
            if game.finished and self.game_id is not None:
                self.store.finish_game(self.game_id, totals=game.totals(), winners=game.winners())
            return self._bump()

    def next_game(self, version: int) -> dict[str, Any]:
        """Start the match's next game once the current one is over."""
        with self._lock:
            self._check(version, idle=True)
            self._game(open_only=False)
            self._act(NextGame())
            return self._bump()

    def undo(self, version: int) -> dict[str, Any]:
        """Take back the last entry or action of the game."""
        with self._lock:
            self._check(version, idle=True)
            self._game(open_only=False)
            self._act(Undone())
            self.reading, self.reading_id, self.flags = None, None, ()
            return self._bump()

    def correct(self, version: int, dice: Sequence[int]) -> dict[str, Any]:
        """The players' values for an unsure reading, or the dice typed by hand.

        ``dice`` are the thrown dice in position order, or all the dice. The reading's dice
        the values can be matched to teach the reader (:meth:`learn`), whether the players
        corrected them or confirmed them as read.
        """
        if not isinstance(dice, list | tuple) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in dice):
            raise BadRequest("dice is a list of whole numbers")
        with self._lock:
            self._check(version, idle=False)
            if self.cycle.phase is not Phase.NEEDS_HELP:
                raise Busy(f"nothing to correct: the tray is {self.cycle.phase}",
                           code="nothing-to-correct")
            game = self._game()
            turn = game.turn
            kept = [turn.dice[p] for p in turn.held] if turn.rolled else []
            every = list(dice) if len(dice) == game.ruleset.dice else kept + list(dice)
            self._act(Rolled(tuple(dice)))
            if self.reading_id is not None and self.reading is not None:
                self.store.add_correction(
                    self.reading_id, reader=[d["value"] for d in self.reading["dice"]],
                    players=list(dice))
                self.learn(self.reading_id, self.reading["dice"], every)
            self._feed(Resolved())
            return self.state()

    # -- teaching the reader -----------------------------------------------------------------

    def learn(self, reading_id: int, dice: Sequence[Any], values: Sequence[int]) -> int:
        """Teach the reader the dice of stored reading ``reading_id`` (its JSON ``dice``)
        the players gave ``values`` for (all the dice's), on the frame stored for it; how
        many dice were learnt. What stops it (no frame kept, a refused teaching file, a
        file that cannot be written) is noted in :meth:`teaching_status`, never raised:
        the players' values are in the game and the store either way."""
        from dicetray.vision.errors import VisionError

        frame = stored_frame(self.frame(reading_id))
        if frame is None:
            self.learning.note = f"nothing learnt: no frame is kept for reading {reading_id}"
            return 0
        found = [Die.from_json(d) for d in dice]
        try:
            return self.learning.learn(frame, [d for d in found if d is not None], values)
        except (TrayError, VisionError) as exc:
            why = str(exc)
        except Exception as exc:  # the roll is entered already: a lesson never undoes it
            why = f"{type(exc).__name__}: {exc}"
        self.learning.note = f"nothing learnt: {' '.join(why.split())}"
        return 0

    def teaching_status(self) -> dict[str, Any]:
        """What the tray has learnt of its dice: the file's standing (ok, missing, bad and
        why), how many confirmed dice of each value it holds, what the last lesson came
        to; with the state's version."""
        with self._lock:
            return {"version": self.version, **self.learning.to_json()}

    def forget_teaching(self, version: int) -> dict[str, Any]:
        """Forget what the players taught: the teaching file (a refused one too) is moved
        aside and the reader reads untaught from the next roll on."""
        with self._lock:
            self._check(version, idle=False)
            self.learning.forget()
            self._bump()
        return self.teaching_status()

    # -- calibrating from a phone -----------------------------------------------------------

    @property
    def calibration(self) -> Any:
        """The calibration the reader uses (None: uncalibrated)."""
        return self.calibrating.calibration

    def calibration_status(self) -> dict[str, Any]:
        """The calibration's standing (ok, missing, bad and why), the one in use, the draft
        the phones edit and the last save's report; with the state's version."""
        with self._lock:
            camera = getattr(self.rig, "camera", None)
            return {"version": self.version, **self.calibrating.to_json(),
                    "camera_problem": (getattr(self.rig, "camera_problem", None)
                                       or ("" if camera is not None else "no camera")
                                       or self._camera_note),
                    "has_camera": camera is not None,
                    "can_focus": bool(getattr(camera, "can_focus", False)),
                    "dice": self._dice_count(),
                    "busy": self.cycle.busy or bool(self._camera_work)}

    def camera_view(self, zones: bool = True) -> bytes:
        """A live view JPEG: the camera's frame now with the draft's zones and each die the
        reader finds drawn over it (made at most ``live_fps`` times a second, however many
        phones watch). Busy while a roll uses the camera."""
        calibrating = self.calibrating
        with self._lock:
            self._check_camera(live=True)
            dice = self._dice_count()
            working = bool(self._camera_work)
        cached = calibrating.cached_view(zones, any_age=working)
        if cached is not None:
            return cached
        if working:  # capturing or saving: the view comes back once it is done
            raise Busy(f"the camera is busy {self._camera_work or 'calibrating'}")
        with self._camera:
            cached = calibrating.cached_view(zones)  # another phone's, made while we waited
            if cached is not None:
                return cached
            frame = self._capture()
            try:
                reading = self._reader()(frame, calibrating.live_calibration(), dice=dice,
                                         teaching=self.learning.taught)
            except Exception:  # a frame the reader chokes on (too dark, say) is still shown
                reading = None
            return calibrating.view(frame, reading, zones=zones)

    def set_zones(self, version: int, tray: Any, ledge: Any) -> dict[str, Any]:
        """Move the draft's tray and ledge corners (frame pixels)."""
        with self._lock:
            self._check(version, idle=False)
            self._check_camera()
            self.calibrating.set_zones(tray, ledge)
            self._bump()
        return self.calibration_status()

    def set_camera(self, version: int, exposure_us: Any,
                   lens_position: Any = None) -> dict[str, Any]:
        """Set the camera's exposure (µs) and focus (dioptres, None: fixed); the live view
        shows it at once, and a save keeps it in the calibration."""
        with self._lock:
            self._check(version, idle=False)
            self._check_camera()
            settings = self.calibrating.camera_settings(exposure_us, lens_position)
        with self._camera:
            self._set_camera(settings)
        with self._lock:
            self.calibrating.set_camera(settings)
            self._bump()
        return self.calibration_status()

    def capture_empty(self, version: int) -> dict[str, Any]:
        """Take frames of the empty tray (the simulated player clears it first) as the
        background of the calibration being made."""

        def work() -> None:
            sim = getattr(self.rig, "sim", None)
            if sim is not None:
                sim.tray.clear()
            frames = [self._capture() for _ in range(self.calibrating.settings.empty_frames)]
            self.calibrating.capture_empty(frames)

        return self._calibrate(version, "capturing the empty tray", work)

    def save_calibration(self, version: int, force: bool = False) -> dict[str, Any]:
        """Take frames with the dice (the simulated player rolls them onto the tray), build
        the calibration, write it and read with it from the next roll on; the report as
        ``dicetray calibrate`` prints it is in the answer."""
        if not isinstance(force, bool):
            raise BadRequest("force is true or false")

        def work() -> None:
            sim = getattr(self.rig, "sim", None)
            dice = self._dice_count()
            frames = []
            for _ in range(self.calibrating.settings.dice_frames):
                if sim is not None:  # the simulated player rolls the dice onto the tray
                    sim.tray.roll()
                    self.rig.clock.sleep(sim.tray.tumble_s)
                frames.append(self._capture())
            reader = functools.partial(self._reader(), teaching=self.learning.taught)
            self.calibrating.save(frames, dice=dice, reader=reader, force=force)

        return self._calibrate(version, "saving the calibration", work)

    def _calibrate(self, version: int, what: str, work: Callable[[], None]) -> dict[str, Any]:
        """Do calibrating ``work`` with the camera, no roll meanwhile."""
        from dicetray.vision.errors import VisionError

        with self._lock:
            self._check(version, idle=True)
            self._check_camera()
            self._camera_work = what
        try:
            with self._camera:
                work()
        except VisionError as exc:
            raise NotReady(" ".join(str(exc).split())) from None
        finally:
            with self._lock:
                self._camera_work = ""
        with self._lock:
            self._bump()
        return self.calibration_status()

    def _check_camera(self, *, live: bool = False) -> None:
        """Busy while a roll or other calibrating work uses the camera; NotReady without
        one."""
        if getattr(self.rig, "camera", None) is None:
            why = getattr(self.rig, "camera_problem", None) or "this tray has no camera"
            raise NotReady(f"no camera: {why}", code="no-camera")
        if self.cycle.busy:
            raise Busy(f"the tray is {self.cycle.phase}: the camera is free once it rests")
        if self._camera_work and not live:
            raise Busy(f"the camera is busy {self._camera_work}: wait until it is done")

    def _check_camera_free(self) -> None:
        if self._camera_work:
            raise Busy(f"the camera is busy {self._camera_work}: roll once it is done")

    def _capture(self) -> Any:
        from dicetray.vision.errors import CameraError

        if getattr(self.rig, "closed", False):
            raise NotReady("the tray is stopping")
        try:
            return self.rig.capture()
        except CameraError as exc:
            raise NotReady(f"the camera failed: {' '.join(str(exc).split())}") from None
        except Exception:
            if getattr(self.rig, "closed", False):  # closed while the frame was taken
                raise NotReady("the tray is stopping") from None
            raise

    def _set_camera(self, settings: Any, *, at_start: bool = False) -> None:
        """Set the camera's exposure and focus; at start a camera that cannot is noted (it
        runs automatic), later it is refused."""
        from dicetray.vision.errors import CameraError

        camera = getattr(self.rig, "camera", None)
        if camera is None:
            return
        try:
            camera.apply(settings)
            self._camera_note = ""
        except CameraError as exc:
            if not at_start:
                raise NotReady(" ".join(str(exc).split())) from None
            self._camera_note = " ".join(str(exc).split())
        except AttributeError:  # a frame source from before cameras could be set
            self._camera_note = "this camera's exposure and focus cannot be set"

    def _dice_count(self) -> int:
        if self.match is not None:
            return self.match.ruleset.dice
        sim = getattr(self.rig, "sim", None)
        return len(sim.values()) if sim is not None else 5

    # -- the roll cycle's loop -------------------------------------------------------------

    def _feed(self, event: CycleEvent) -> None:
        """Step the cycle (under the lock); hand slow actions to the runner."""
        self.cycle, actions = step(self.cycle, event, self.config.cycle)
        if Action.APPLY in actions:
            self._apply_reading()  # before the change is told: the dice come with it
        self._bump()  # needs-help (ASK) is in the state: the phones ask
        for action in actions:
            if action not in (Action.APPLY, Action.ASK):
                self._run(lambda action=action: self._carry_out(action))

    def _carry_out(self, action: Action) -> None:
        """Do one slow action outside the lock, then feed back what happened."""
        try:
            event = self._slow(action)
        except Exception as exc:  # the cycle must never die silently: say what broke
            why = " ".join(f"{type(exc).__name__}: {exc}".split())
            event = {Action.TUMBLE: Stalled(why), Action.WATCH: CameraLost(why)}.get(
                action, ReadDone("unsure", f"ambiguous: the reading failed ({why})"))
        with self._lock:
            if self._pending is not None:  # a reading: told together with its verdict
                self.reading, self.reading_id = self._pending
                self._pending = None
            self._feed(event)

    def _slow(self, action: Action) -> CycleEvent:
        rig = self.rig
        if action is Action.TUMBLE:
            if getattr(rig, "cup", None) is None:  # no cup: the players throw by hand
                return Tumbled()
            try:
                rig.cup.tumble()
            except CupStalled as exc:
                return Stalled(str(exc))
            return Tumbled()
        if action is Action.WATCH:
            return self._watch()
        return self._read()

    def _watch(self) -> CycleEvent:
        from dicetray.vision.errors import CameraError
        from dicetray.vision.settle import SettleDetector

        rig, timing = self.rig, self.config.cycle
        clock = rig.clock
        detector = SettleDetector(self.calibration, still_s=timing.still_s, clock=clock.now)
        start = clock.now()
        try:
            # the camera paces the loop: a capture waits for the next frame
            while clock.now() - start < timing.settle_timeout_s:
                with self._camera:
                    frame = rig.capture()
                if detector.update(frame):
                    self._frame = frame
                    return Settled()
        except CameraError as exc:
            return CameraLost(str(exc))
        return SettleTimedOut(f"the tray did not come to rest within "
                              f"{timing.settle_timeout_s:g} s")

    def _read(self) -> CycleEvent:
        frame = self._frame
        with self._lock:
            dice = self.match.ruleset.dice if self.match is not None else None
        reading = self._reader()(frame, self.calibration, dice=dice,
                                 teaching=self.learning.taught)
        data = reading.to_json()
        data.pop("image", None)
        reading_id = self.store.add_reading(data, frame=self._encode(frame),
                                            game_id=self.game_id)
        data["id"] = reading_id
        data["frame"] = f"/api/frames/{reading_id}.jpg"
        if self.views.add(reading_id, frame) is not None:
            data["view"] = f"/api/views/{reading_id}.jpg"  # what the phones show
        data["width"], data["height"] = int(frame.shape[1]), int(frame.shape[0])
        self._pending = (data, reading_id)
        return ReadDone(reading.status, reading.reason)

    def _reader(self) -> Reader:
        if self.reader is None:
            from dicetray.vision import read

            self.reader = read
        return self.reader

    def _encode(self, frame: Any) -> bytes | None:
        import cv2

        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY,
                                                self.config.camera.jpeg_quality])
        return data.tobytes() if ok else None

    def _apply_reading(self) -> None:
        """A sure reading: its dice become the game's roll (holds from the ledge)."""
        game = self._game()
        seen = [Seen(d["value"], d.get("zone", "unknown"), d["x"], d["y"])
                for d in (self.reading or {}).get("dice", [])]
        throw = throw_from(game.turn, seen)
        self.flags = throw.flags
        try:
            if game.turn.rolled and throw.held != game.turn.held:
                self._act(Kept(throw.held))
            self._act(Rolled(throw.thrown))
            self._spots = throw.spots
        except TrayError as exc:  # the dice do not fit the turn, or cannot be saved
            self.cycle = dataclasses.replace(self.cycle, phase=Phase.NEEDS_HELP, why=str(exc),
                                             trouble=Trouble.NOT_ENTERED)

    # -- internals -------------------------------------------------------------------------------

    _spots: tuple[tuple[float, float], ...] = ()
    _pending: tuple[dict[str, Any], int] | None = None
    _catalogue: dict[str, Any] | None = None
    _told: tuple[int, dict[str, Any]] = (-1, {})

    def _restore(self) -> None:
        """Rebuild the current match from its stored events (after a restart)."""
        game_id = self.store.current_game()
        if game_id is None:
            return
        with _rules():
            self.match = Match.from_events(self.store.events(game_id))
        self.game_id = game_id

    def _act(self, event: Event) -> None:
        """Apply one game event, then commit it; a failed commit puts the match back."""
        match = self.match
        assert match is not None and self.game_id is not None
        with _rules():
            match.apply(event)
        try:
            self.store.append(self.game_id, event, version=self.version + 1)
        except BaseException:
            self.match = Match.from_events(self.store.events(self.game_id))
            raise

    def _bump(self) -> dict[str, Any]:
        self.version += 1
        self._show()
        self._changed.notify_all()
        return self.state()

    def _show(self) -> None:
        """The status light and the button follow the cycle."""
        rig = self.rig
        if rig is None:
            return
        light = getattr(rig, "status", None)
        if light is not None:
            light.show(_STATUS.get(self.cycle.phase, "idle"))
        button = getattr(rig, "button", None)
        if button is not None:
            button.busy = self.cycle.busy

    def _check(self, version: Any, *, idle: bool) -> None:
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("version is the whole number of the state the command was made on")
        if version != self.version:
            raise StaleVersion(f"the table has changed (version {self.version}, not {version}): "
                               "look again and retry")
        if self.cycle.busy:
            raise Busy(f"the tray is {self.cycle.phase}: wait until it rests")
        if idle and self.cycle.phase is Phase.NEEDS_HELP:
            raise Busy("the last roll needs checking first: confirm or correct the dice",
                       code="needs-checking")

    def _check_can_roll(self) -> None:
        game = self._game()
        turn = game.turn
        throw = turn.to_throw
        with _rules():
            turn.roll((1,) * max(1, len(throw)))  # the rules say whether a roll may be made

    def _first_of_turn(self) -> None:
        game = self._game()
        sim = getattr(self.rig, "sim", None)
        if sim is not None and not game.turn.rolled:
            sim.release_all()  # a new turn starts with every die in the cup

    def _game(self, *, open_only: bool = True) -> Any:
        if self.match is None:
            raise AgainstRules("no game yet: start one", code="no-game")
        game = self.match.game
        if open_only and game.finished:
            raise AgainstRules("the game is over: start a new one", code="game-over")
        return game


_STATUS = {
    Phase.IDLE: "idle",
    Phase.TUMBLING: "rolling",
    Phase.SETTLING: "rolling",
    Phase.READING: "reading",
    Phase.NEEDS_HELP: "needs-help",
    Phase.ERROR: "error",
}


class _rules:  # noqa: N801 (used as a context manager, like contextlib's)
    """Turn a rules error into the table's 422."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: BaseException | None, trace: Any) -> bool:
        if isinstance(error, RulesError):
            raise AgainstRules(" ".join(str(error).split())) from error
        return False


def fairness(counts: Sequence[int]) -> dict[str, Any]:
    """Pearson's chi-square test that six faces are equally likely.

    The p-value of the statistic under 5 degrees of freedom has a closed form (odd degrees:
    the complementary error function plus a finite series).

    >>> result = fairness([10, 10, 10, 10, 10, 10])
    >>> result["chi_square"], result["p_value"]
    (0.0, 1.0)
    >>> fairness([30, 10, 10, 10, 10, 10])["p_value"]  # scipy's chi2.sf(25, 5): 0.000139
    0.000139
    """
    total = sum(counts)
    if total == 0:
        return {"rolls": 0, "chi_square": None, "p_value": None}
    expected = total / len(counts)
    chi = sum((c - expected) ** 2 / expected for c in counts)
    half = chi / 2
    p = math.erfc(math.sqrt(half)) + math.sqrt(2 * chi / math.pi) * math.exp(-half) * (
        1 + chi / 3)
    return {"rolls": total, "chi_square": round(chi, 4), "p_value": round(min(1.0, p), 6)}


def _plain(value: Any) -> Any:
    """A stored record (a dataclass) as JSON-ready data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


def _game_state(match: Match | None) -> dict[str, Any] | None:
    if match is None:
        return None
    state = match.game.to_dict()
    state["match"] = {key: value for key, value in match.to_dict().items() if key != "game"}
    state["can_undo"] = match.game.can_undo or match.number > 1
    return state


def _unavailable(reason: CoachReason, why: str, **more: Any) -> dict[str, Any]:
    return {"available": False, "reason": str(reason), "why": why, **more}


def _not_ready(status: Any) -> dict[str, Any]:
    """The coach's answer while its table is not ready (or never will be)."""
    readiness = status.readiness
    if readiness is Readiness.COMPUTING:
        percent = math.floor(100 * status.progress)
        return _unavailable(CoachReason.COMPUTING,
                            f"the coach is working out its strategy ({percent} %)",
                            progress=round(status.progress, 3))
    if readiness is Readiness.REFUSED:
        return _unavailable(CoachReason.REFUSED, status.why,
                            refusal=str(status.refusal or "unsolvable"))
    reason = CoachReason.OFF if readiness is Readiness.OFF else CoachReason.FAILED
    return _unavailable(reason, status.why)


def _option(option: Any, dice: Sequence[int]) -> dict[str, Any]:
    """An advisor option as JSON, its kept dice also as positions among ``dice``."""
    free = list(range(len(dice)))
    positions = []
    for value in option.dice:
        at = next(p for p in free if dice[p] == value)
        free.remove(at)
        positions.append(at)
    return {"kind": str(option.kind), "expected": round(option.expected, 2),
            "dice": list(option.dice), "positions": sorted(positions), "box": option.box,
            "points": option.points}


def _decision(decision: Any) -> dict[str, Any]:
    chosen, best = decision.chosen, decision.best
    return {"turn": decision.turn, "roll": decision.roll, "dice": list(decision.dice),
            "loss": round(decision.loss, 2),
            "chosen": _choice(chosen), "best": _choice(best)}


def _choice(option: Any) -> dict[str, Any]:
    return {"kind": str(option.kind), "dice": list(option.dice), "box": option.box,
            "points": option.points, "expected": round(option.expected, 2)}


def _last_game(events: Sequence[Event]) -> tuple[Event, ...]:
    """A stored match's last game as a game's events: its start, then that game's actions."""
    if not events:
        return ()
    last = max((i for i, e in enumerate(events) if isinstance(e, NextGame)), default=0)
    return (events[0], *events[last + 1:]) if last else tuple(events)


def _name(name: Any) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name.strip()):
        raise BadRequest("a name is 1 to 24 printable characters", code="bad-name")
    return name.strip()


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise BadRequest(f"{what} is a short text")
    return value


def _positions(positions: Any) -> tuple[int, ...]:
    if not isinstance(positions, list | tuple) or len(positions) > 16 or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in positions):
        raise BadRequest("dice is a list of die positions (whole numbers)")
    return tuple(positions)
