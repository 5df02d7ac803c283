"""The Flask app factory: the JSON API (and the pages) over one table service.

The app keeps no state of its own: the table service is handed in and lives in
``app.extensions["table"]``; the session cookie says which phone has joined.

>>> from dicetray.web.app import create_app
>>> class Quiet:
...     version = 1
...     def state(self):
...         return {"version": 1, "cycle": "idle", "game": None, "reading": None}
>>> app = create_app(Quiet(), secret_key=b"k" * 32)
>>> app.test_client().get("/api/state").get_json()["cycle"]
'idle'
>>> app.test_client().post("/api/roll", json={"version": 1}).status_code  # not joined
401
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from flask import Flask

from dicetray.firmware.service import TableService
from dicetray.web.api import api, register_errors
from dicetray.web.camera import CameraStreams
from dicetray.web.pages import pages_blueprint

__all__ = ["Server", "Serving", "WebSettings", "create_app", "stop", "stop_streams"]


@dataclass(frozen=True)
class WebSettings:
    """The web layer's tunable numbers."""

    #: Largest request body: the biggest command (a new game of 8 players with 24-character
    #: names) is under 1 KB; 16 KB leaves room and refuses floods early (413).
    max_body: int = 16 * 1024
    #: Seconds between heartbeats on the live stream: short enough that a phone notices a
    #: dead connection within a minute, long enough to cost nothing on the Pi.
    heartbeat_s: float = 15.0
    #: Seconds a live stream waits for a change before it looks whether the server is
    #: stopping: how long a stop waits for the phones' streams to end (see :func:`stop`).
    stop_check_s: float = 0.5
    #: Live camera views open at once: each holds one of the server's 32 threads, and the
    #: phones' live streams need most of them (a builder calibrates with one or two phones).
    camera_streams: int = 4
    #: Seconds between the live view's frames: the tray makes two a second at most.
    camera_interval_s: float = 0.5


def create_app(table: TableService, *, secret_key: bytes,
               settings: WebSettings | None = None, **config: Any) -> Flask:
    """The web app for ``table``; ``secret_key`` signs the session cookies."""
    if len(secret_key) < 16:
        raise ValueError("the secret key must have at least 16 bytes")
    settings = settings or WebSettings()
    here = Path(__file__).resolve().parent
    # paths given: Flask cannot find a package mapped by package-dir by itself
    app = Flask("dicetray.web", root_path=str(here), instance_path=str(here / "instance"))
    app.config.update(
        SECRET_KEY=secret_key,
        MAX_CONTENT_LENGTH=settings.max_body,
        SESSION_COOKIE_NAME="dicetray",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 30,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    app.json.sort_keys = False
    app.extensions["table"] = table
    app.extensions["web_settings"] = settings
    app.extensions["told"] = {}  # the live stream's text of the newest state
    app.extensions["stopping"] = threading.Event()
    app.extensions["camera_streams"] = CameraStreams(limit=settings.camera_streams,
                                                     interval_s=settings.camera_interval_s)
    app.register_blueprint(api)
    app.register_blueprint(pages_blueprint())
    register_errors(app)
    return app


class _Dispatcher(Protocol):
    def shutdown(self, cancel_pending: bool = True, timeout: float = 5) -> bool: ...


class Server(Protocol):
    """What :func:`stop` needs of a server: waitress's, as ``create_server`` makes it."""

    task_dispatcher: _Dispatcher

    def close(self) -> None: ...


def stop_streams(app: Flask) -> None:
    """End the app's endless answers: the phones' live streams of the state and the live
    camera views (the server is stopping: none may hold it up)."""
    app.extensions["stopping"].set()
    app.extensions["camera_streams"].stop()


def stop(app: Flask, server: Server) -> None:
    """Stop serving ``app``: end its streams, let the server's threads finish what they are
    writing, then close it. (Closed at once, a stream thread that wakes later writes to a
    closed server: waitress prints a traceback for each phone.)"""
    stop_streams(app)
    settings = app.extensions["web_settings"]
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=4 * settings.stop_check_s)
    server.close()


class Serving:
    """``app`` served by waitress from a thread of its own (the tests, the benchmarks, a
    program that embeds the tray; ``dicetray run`` serves from its main thread instead).
    ``options`` go to waitress's ``create_server``; :meth:`stop` stops it as :func:`stop`
    does and waits for its thread."""

    def __init__(self, app: Flask, **options: Any) -> None:
        from waitress import create_server

        self.app = app
        self.server = create_server(app, **options)
        self.port: int = self.server.effective_port
        self._thread = threading.Thread(target=self._run, name="waitress", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.server.run()
        except OSError:
            # closed from another thread, the loop finds its sockets gone: that is its end
            if not self.app.extensions["stopping"].is_set():
                raise

    def stop(self) -> None:
        stop(self.app, self.server)
        self._thread.join(timeout=5)

