"""How fast calibrating from a phone is, measured on a running tray over HTTP.

Start a tray, then point this at it::

    dicetray run --simulate --fast --code 4711 --port 8767 --data-dir /tmp/bench-cal &
    python3 benchmarks/calibration.py --url http://127.0.0.1:8767 --code 4711

It prints Markdown for docs/benchmarks.md, each figure a median (and p95) of repeated runs:

- one live view frame made afresh (``GET /api/camera.jpg``, requests spaced past the
  tray's live view cache): capture, reading, overlay and JPEG, and its size;
- the MJPEG stream's pace (``GET /api/camera.mjpg``): time between its frames;
- ``GET /api/state`` with no live view open and with every allowed one open (the
  streams must not starve the other requests);
- capturing the empty tray and saving (``POST /api/calibration/empty`` and ``/save``;
  a simulated tray rolls its own dice for the save).

Saving writes the tray's calibration: run it on a tray whose calibration may change.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import itertools
import json
import statistics
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.metrics import percentile  # noqa: E402


def row(what: str, times_s: Sequence[float], note: str = "") -> str:
    """A Markdown table row: runs, median and p95 in milliseconds.

    >>> row("x", [0.010, 0.020, 0.030])
    '| x | 3 | 20.0 | 29.0 |  |'
    """
    ms = [t * 1000 for t in times_s]
    return (f"| {what} | {len(ms)} | {statistics.median(ms):.1f} | {percentile(ms, 95):.1f} "
            f"| {note} |")


class Phone:
    """A joined HTTP client (the session cookie kept)."""

    def __init__(self, url: str, code: str) -> None:
        self.url = url.rstrip("/")
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.send("POST", "/api/join", {"code": code, "name": "Bench"})

    def send(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with self.opener.open(request, timeout=120) as answer:
            return json.loads(answer.read())

    def fetch(self, path: str) -> bytes:
        with self.opener.open(self.url + path, timeout=120) as answer:
            return answer.read()


def timed(job: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = job()
    return time.perf_counter() - start, result


def stream_gaps(url: str, frames: int) -> list[float]:
    """Seconds between the frames of one MJPEG stream (``frames`` of them)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    connection.request("GET", "/api/camera.mjpg")
    answer = connection.getresponse()
    if answer.status != 200:
        raise SystemExit(f"the live view was refused: {answer.status} {answer.read()[:200]!r}")
    arrivals = []
    while len(arrivals) < frames:
        line = answer.fp.readline()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            answer.fp.readline()
            answer.fp.read(int(line.split(b":")[1]))
            arrivals.append(time.perf_counter())
    connection.close()
    return [b - a for a, b in itertools.pairwise(arrivals)]


def hold_streams(url: str, count: int, stop: threading.Event) -> list[threading.Thread]:
    """``count`` MJPEG streams read (and thrown away) until ``stop``."""
    parts = urlsplit(url)

    def watch() -> None:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        connection.request("GET", "/api/camera.mjpg")
        answer = connection.getresponse()
        while not stop.is_set() and answer.fp.read(4096):
            pass
        connection.close()

    threads = [threading.Thread(target=watch, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--code", required=True)
    parser.add_argument("--views", type=int, default=15, help="single frames to time")
    parser.add_argument("--frames", type=int, default=21, help="MJPEG frames to time")
    parser.add_argument("--states", type=int, default=40, help="GET /api/state to time")
    parser.add_argument("--streams", type=int, default=4, help="live views the tray allows")
    parser.add_argument("--saves", type=int, default=3, help="captures and saves to time")
    args = parser.parse_args(argv)
    phone = Phone(args.url, args.code)

    views, sizes = [], []
    for _ in range(args.views):
        time.sleep(0.6)  # past the live view's cache: every frame is made afresh
        spent, jpeg = timed(lambda: phone.fetch("/api/camera.jpg"))
        views.append(spent)
        sizes.append(len(jpeg))
    gaps = stream_gaps(args.url, args.frames)

    alone = [timed(lambda: phone.fetch("/api/state"))[0] for _ in range(args.states)]
    stop = threading.Event()
    threads = hold_streams(args.url, args.streams, stop)
    time.sleep(2.0)
    crowded = [timed(lambda: phone.fetch("/api/state"))[0] for _ in range(args.states)]
    stop.set()
    for thread in threads:
        thread.join(10)
    time.sleep(1.0)

    empties, saves = [], []
    status = phone.send("GET", "/api/calibration")
    for _ in range(args.saves):
        spent, status = timed(lambda s=status: phone.send(
            "POST", "/api/calibration/empty", {"version": s["version"]}))
        empties.append(spent)
        spent, status = timed(lambda s=status: phone.send(
            "POST", "/api/calibration/save", {"version": s["version"], "force": True}))
        saves.append(spent)

    print("| what | runs | median ms | p95 ms | note |")
    print("| --- | ---: | ---: | ---: | --- |")
    print(row("one live frame (`/api/camera.jpg`), made afresh", views,
              f"{statistics.median(sizes) / 1000:.0f} KB"))
    print(row("between two MJPEG frames", gaps,
              f"{1 / statistics.median(gaps):.1f} frames/s"))
    print(row("`GET /api/state`, no live view open", alone))
    print(row(f"`GET /api/state`, {args.streams} live views open", crowded))
    print(row("capture the empty tray", empties))
    verdict = next((line for line in status["report"] if line.startswith("status:")), "")
    print(row("save (frames with the dice, build, write)", saves, f"last one's {verdict}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
