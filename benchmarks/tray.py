"""Measure the simulated tray: a roll's time split into its parts, the API under 20 clients,
and the memory and CPU of an idle and a rolling tray.

    python3 benchmarks/tray.py roll --rolls 30          # roll -> scored-ready, by part
    python3 benchmarks/tray.py load --clients 20 --seconds 10
    python3 benchmarks/tray.py memory --seconds 10

Every figure is a median (with the 95th percentile where it says) of repeated runs on this
machine; the commands print one Markdown table each.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from dicetray.firmware.tray import open_tray


class Timed:
    """Adds up the seconds spent in one callable (the benchmark's own stopwatch)."""

    def __init__(self, call: Any) -> None:
        self.call, self.seconds = call, 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.call(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start


def inline(job: Any) -> None:
    job()


def roll_parts(rolls: int, seed: int) -> list[dict[str, float]]:
    """Per roll: render (frames drawn), settle (the detector), read, commit, and the whole."""
    from dicetray.vision import read

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        tray = open_tray(folder, simulate=True, fast=True, seed=seed, code="BENCH", run=inline)
        table, camera, store = tray.table, tray.rig.camera, tray.store
        render = Timed(camera.capture)
        camera.capture = render
        reader = Timed(read)
        table.reader = reader
        add, append = Timed(store.add_reading), Timed(store.append)
        store.add_reading, store.append = add, append
        table.new_game(table.version, "yahtzee", ["Bench"])
        for _ in range(rolls):
            if table.state()["game"]["turn"]["rolls_left"] == 0:
                table.score(table.version, table.state()["game"]["options"][0]["box"])
            for timer in (render, reader, add, append):
                timer.seconds = 0.0
            start = time.perf_counter()
            state = table.roll(table.version)
            whole = time.perf_counter() - start
            if state["cycle"] != "idle":
                table.correct(table.version, state["game"]["turn"]["dice"] or [1] * 5)
            commit = add.seconds + append.seconds
            rows.append({"whole": whole, "render": render.seconds, "read": reader.seconds,
                         "commit": commit,
                         "settle": whole - render.seconds - reader.seconds - commit})
        tray.close()
    return rows


def serve(seed: int) -> tuple[Any, Any, int]:
    """A simulated tray served on a free port: the tray, a function that stops the server,
    the port."""
    from dicetray.web.app import Serving, create_app

    folder = tempfile.mkdtemp()
    tray = open_tray(folder, simulate=True, fast=True, seed=seed, code="BENCH")
    app = create_app(tray.table, secret_key=os.urandom(32))
    serving = Serving(app, host="127.0.0.1", port=0, threads=32)
    return tray, serving.stop, serving.port


def load(clients: int, seconds: float, seed: int) -> dict[str, float]:
    """GET /api/state from ``clients`` keep-alive clients at once for ``seconds``."""
    tray, stop_server, port = serve(seed)
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine = []
        while time.perf_counter() < stop:
            start = time.perf_counter()
            conn.request("GET", "/api/state")
            conn.getresponse().read()
            mine.append(time.perf_counter() - start)
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    stop_server()
    tray.close()
    latencies.sort()
    return {"requests": len(latencies), "per_second": len(latencies) / elapsed,
            "p50_ms": 1000 * latencies[len(latencies) // 2],
            "p95_ms": 1000 * latencies[int(len(latencies) * 0.95)]}


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(seconds: float, seed: int) -> dict[str, float]:
    """RSS and CPU share of `dicetray run --simulate` (real-time) idle, then rolling."""
    folder = tempfile.mkdtemp()
    process = subprocess.Popen(
        [sys.executable, "-m", "dicetray.firmware.cli", "--data-dir", folder, "run",
         "--simulate", "--host", "127.0.0.1", "--port", "0", "--seed", str(seed),
         "--code", "BENCH"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    port = 0
    for line in process.stdout:
        if "open on this machine" in line:
            port = int(line.rsplit(":", 1)[1].strip("/\n "))
            break
    threading.Thread(target=process.stdout.read, daemon=True).start()
    pid = process.pid

    def call(method: str, path: str, body: Any = None, cookie: str = "") -> tuple[Any, str]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(method, path, json.dumps(body) if body is not None else None,
                     {"Content-Type": "application/json", "Cookie": cookie})
        answer = conn.getresponse()
        data = json.loads(answer.read() or b"null")
        cookie = (answer.getheader("Set-Cookie") or cookie).split(";", 1)[0]
        conn.close()
        return data, cookie

    time.sleep(2)
    figures: dict[str, float] = {}
    before, start = _cpu_s(pid), time.monotonic()
    time.sleep(seconds)
    figures["idle_cpu_pct"] = 100 * (_cpu_s(pid) - before) / (time.monotonic() - start)
    figures["idle_rss_mb"] = _rss_mb(pid)
    state, cookie = call("POST", "/api/join", {"code": "BENCH", "name": "Bench"})
    state, _ = call("POST", "/api/games", {"version": state["version"], "ruleset": "yahtzee",
                                           "players": ["Bench"]}, cookie)
    peak = 0.0
    before, start = _cpu_s(pid), time.monotonic()
    while time.monotonic() - start < seconds:
        state, _ = call("GET", "/api/state", None, cookie)
        peak = max(peak, _rss_mb(pid))
        game = state["game"]
        if state["cycle"] in ("tumbling", "settling", "reading"):
            time.sleep(0.05)
        elif state["cycle"] == "needs-help":
            call("POST", "/api/correct", {"version": state["version"], "dice": [1, 2, 3, 4, 6]},
                 cookie)
        elif game["turn"]["rolls_left"] == 0 and game["options"]:
            call("POST", "/api/score", {"version": state["version"],
                                        "box": game["options"][0]["box"]}, cookie)
        else:
            call("POST", "/api/roll", {"version": state["version"]}, cookie)
    figures["rolling_cpu_pct"] = 100 * (_cpu_s(pid) - before) / (time.monotonic() - start)
    figures["rolling_rss_mb"] = max(peak, _rss_mb(pid))
    process.terminate()
    process.wait(10)
    return figures


def footprint(photos: str, reads: int) -> dict[str, float]:
    """Peak RSS of the tray as it runs on a Pi, less the camera library: mock pins, frames
    from a folder of real photos, the web app built, ``reads`` frames read."""
    import dataclasses

    from dicetray.firmware.config import CameraConfig, GpioConfig, TrayConfig
    from dicetray.vision import read
    from dicetray.web.app import create_app

    config = dataclasses.replace(TrayConfig(), gpio=GpioConfig(factory="mock"),
                                 camera=CameraConfig(source=f"folder:{photos}", size=(640, 480)))
    with tempfile.TemporaryDirectory() as folder:
        tray = open_tray(folder, config=config, code="BENCH")
        create_app(tray.table, secret_key=os.urandom(32))
        before = _rss_mb(os.getpid())
        for _ in range(reads):
            read(tray.rig.camera.capture(), None, dice=None)
        tray.close()
    peak = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1]) / 1024
    return {"started_rss_mb": before, "peak_rss_mb": peak}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["roll", "load", "memory", "footprint"])
    parser.add_argument("--photos",
                        default="../shared/datasets/matteop65/Data/Training_Images/Valid")
    parser.add_argument("--rolls", type=int, default=30)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.what == "roll":
        rows = roll_parts(args.rolls, args.seed)
        print("| part | median ms | p95 ms |\n| --- | ---: | ---: |")
        for part in ("render", "settle", "read", "commit", "whole"):
            values = sorted(row[part] * 1000 for row in rows)
            print(f"| {part} | {statistics.median(values):.1f} | "
                  f"{values[int(len(values) * 0.95)]:.1f} |")
    elif args.what == "load":
        result = load(args.clients, args.seconds, args.seed)
        print(f"| clients | requests | per second | p50 ms | p95 ms |\n| ---: | ---: | ---: | "
              f"---: | ---: |\n| {args.clients} | {result['requests']} | "
              f"{result['per_second']:.0f} | {result['p50_ms']:.1f} | {result['p95_ms']:.1f} |")
    elif args.what == "footprint":
        result = footprint(args.photos, args.rolls)
        print(f"| tray (mock pins, real photos) | RSS MB |\n| --- | ---: |\n"
              f"| started, web app built | {result['started_rss_mb']:.0f} |\n"
              f"| peak after {args.rolls} reads | {result['peak_rss_mb']:.0f} |")
    else:
        result = memory(args.seconds, args.seed)
        print("| tray | RSS MB | CPU % of one core |\n| --- | ---: | ---: |")
        print(f"| idle | {result['idle_rss_mb']:.0f} | {result['idle_cpu_pct']:.1f} |")
        print(f"| rolling | {result['rolling_rss_mb']:.0f} | {result['rolling_cpu_pct']:.1f} |")


if __name__ == "__main__":
    main()
