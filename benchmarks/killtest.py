"""Kill the simulated tray at random moments and check that no acknowledged score is lost.

Each run starts ``dicetray run --simulate --fast`` in a fresh data directory, joins, starts a
game and plays it through the HTTP API (roll, wait until the tray rests, score the first
box offered, or correct the dice when the tray asks), while a timer SIGKILLs the server at a
random moment. The tray is started again on the same data directory; every score that was
answered 200 before the kill must be on the sheet, and the game must go on. Runs repeat
until the games end or the kills are used up.

    python3 benchmarks/killtest.py --runs 5 --kills 10 --seed 1
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

URL = re.compile(r"open on this machine:\s+http://localhost:(\d+)/")


@dataclass
class Figures:
    runs: int = 0
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    games_finished: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"runs {self.runs}, kills {self.kills}, scores acknowledged "
                f"{self.acknowledged}, lost {self.lost}, games finished {self.games_finished}")


class Tray:
    """One ``dicetray run`` process and an HTTP client holding its session cookie."""

    def __init__(self, data_dir: Path, seed: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dicetray.firmware.cli", "--data-dir", str(data_dir), "run",
             "--simulate", "--fast", "--host", "127.0.0.1", "--port", "0", "--seed", str(seed),
             "--code", "KILLTEST"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.port = self._port()
        self.cookie = ""

    def _port(self) -> int:
        deadline = time.monotonic() + 120
        assert self.process.stdout is not None
        seen = []
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            seen.append(line)
            match = URL.search(line)
            if match:
                threading.Thread(target=self.process.stdout.read, daemon=True).start()
                return int(match.group(1))
        raise RuntimeError("the tray did not start:\n" + "".join(seen))

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = conn.getresponse()
        data = answer.read()
        cookie = answer.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        conn.close()
        return answer.status, json.loads(data) if data else None

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()


def filled(state: dict[str, Any]) -> set[tuple[int, str]]:
    """(player, box) of every entry on the sheets."""
    boxes = set()
    for player, sheet in enumerate(state["game"]["sheets"]):
        for entry in sheet["entries"]:
            if entry["box"] is not None:
                boxes.add((player, entry["box"]))
    return boxes


def play(tray: Tray, acknowledged: set[tuple[int, str]], rng: random.Random,
         ruleset: str) -> bool:
    """Play until the game ends (True) or the tray dies (an OSError escapes)."""
    status, state = tray.call("POST", "/api/join", {"code": "KILLTEST", "name": "Kim"})
    if state["game"] is None or state["game"]["finished"]:
        status, state = tray.call("POST", "/api/games", {
            "version": state["version"], "ruleset": ruleset, "players": ["Kim", "Lou"]})
        assert status == 200, state
    while True:
        status, state = tray.call("GET", "/api/state")
        game = state["game"]
        if game["finished"]:
            return True
        if state["cycle"] in ("tumbling", "settling", "reading"):
            time.sleep(0.02)
            continue
        if state["cycle"] == "needs-help":
            dice = [rng.randint(1, 6) for _ in game["turn"]["dice"] or range(5)]
            tray.call("POST", "/api/correct", {"version": state["version"], "dice": dice})
            continue
        if game["options"] and (game["turn"]["rolls_left"] == 0 or rng.random() < 0.5):
            option = game["options"][0]
            status, _after = tray.call("POST", "/api/score", {
                "version": state["version"], "box": option["box"],
                "column": option.get("column")})
            if status == 200:
                acknowledged.add((game["current"], option["box"]))
            continue
        tray.call("POST", "/api/roll", {"version": state["version"]})


def one_run(figures: Figures, kills: int, seed: int, ruleset: str) -> None:
    rng = random.Random(seed)
    acknowledged: set[tuple[int, str]] = set()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        for attempt in range(kills + 1):
            tray = Tray(data, seed + attempt)
            try:
                _status, state = tray.call("GET", "/api/state")
                if state["game"] is not None:
                    missing = acknowledged - filled(state)
                    figures.lost += len(missing)
                    if missing:
                        figures.problems.append(f"seed {seed}: lost {sorted(missing)}")
                if attempt < kills:
                    timer = threading.Timer(rng.uniform(0.2, 3.0), tray.kill)
                    timer.start()
                    try:
                        if play(tray, acknowledged, rng, ruleset):
                            timer.cancel()
                            figures.games_finished += 1
                            break
                    except (OSError, http.client.HTTPException):
                        pass  # the kill landed mid-request
                    timer.join()
                    figures.kills += 1
                else:
                    if play(tray, acknowledged, rng, ruleset):
                        figures.games_finished += 1
            finally:
                tray.kill()
    figures.acknowledged += len(acknowledged)
    figures.runs += 1


def main(argv: list[str] | None = None) -> Figures:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--kills", type=int, default=10, help="kills per run at the most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="yahtzee")
    args = parser.parse_args(argv)
    figures = Figures()
    for run in range(args.runs):
        one_run(figures, args.kills, args.seed * 1000 + run * 37, args.ruleset)
        print(f"after run {run + 1}: {figures.line()}", flush=True)
    for problem in figures.problems:
        print("PROBLEM:", problem)
    return figures


if __name__ == "__main__":
    sys.exit(1 if main().lost else 0)
