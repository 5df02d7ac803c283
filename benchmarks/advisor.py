#!/usr/bin/env python3
"""The advisor's speed and its figures, beside a straightforward NumPy solver.

    python3 benchmarks/advisor.py solve --repeat 3     # table solve times, both solvers
    python3 benchmarks/advisor.py hint --count 500     # hint latency
    python3 benchmarks/advisor.py api --count 300      # hint latency through GET /api/advice
    python3 benchmarks/advisor.py distribution --repeat 3   # the exact score distribution
    python3 benchmarks/advisor.py size                 # table size on disk and in memory
    python3 benchmarks/advisor.py simulate --games 10000
    python3 benchmarks/advisor.py pi                   # sysbench ratio for the Pi 4 estimate

The straightforward solver (:func:`straightforward_table`) is the textbook one: sheet by
sheet (all upper totals and flags of one sheet at once), the keep-to-roll chances as a
dense 462 x 252 matrix product, the best keep of each roll as a max over all its
sub-hands, every upper total solved. It uses the same scoring model, so both answer the
same question; it checks that they agree.

>>> straightforward_keep_matrix(2, 2).shape
(6, 3)
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from dicetray.rules import load_ruleset  # noqa: E402
from dicetray.rules.advisor.advice import Situation, advise  # noqa: E402
from dicetray.rules.advisor.cache import TableCache  # noqa: E402
from dicetray.rules.advisor.lattice import lattice  # noqa: E402
from dicetray.rules.advisor.model import Model  # noqa: E402
from dicetray.rules.advisor.selfplay import play_optimally  # noqa: E402
from dicetray.rules.advisor.table import build_table  # noqa: E402

# Optimal-play means per box for Yahtzee with a free-choice joker, as RULES.md quotes them
# (seed 000, the figures of Wikipedia's optimal-strategy table).
PUBLISHED = {
    "ones": 1.88, "twos": 5.28, "threes": 8.57, "fours": 12.16, "fives": 15.69,
    "sixes": 19.19, "upper bonus": 23.84, "three-of-a-kind": 21.66,
    "four-of-a-kind": 13.10, "full-house": 22.59, "small-straight": 29.46,
    "large-straight": 32.71, "yahtzee": 16.87, "chance": 22.01, "yahtzee bonus": 9.58,
}  # fmt: skip


# sysbench 1.0 `cpu --threads=1` on a Raspberry Pi 4 (Cortex-A72, 1.5 GHz), as published at
# https://leoncode.co.uk/articles/raspberry-pi-benchmarks (docs/benchmarks.md, Vision).
PI4_SYSBENCH = 1478


def straightforward_keep_matrix(n: int, faces: int) -> np.ndarray:
    """P[keep, roll]: the chance that holding ``keep`` and throwing the rest gives ``roll``."""
    lat = lattice(n, faces)
    out = np.zeros((lat.size, lat.rolls.stop - lat.rolls.start))
    for keep in range(lat.size):
        for r in range(lat.rolls.start, lat.rolls.stop):
            if lat.contains(r, keep):
                rest = tuple(int(x) for x in lat.counts[r] - lat.counts[keep])
                out[keep, r - lat.rolls.start] = lat.prob[lat.index[rest]]
    return out


def straightforward_table(model: Model) -> np.ndarray:
    """Every state's value, sheet by sheet with dense matrices (free holds only)."""
    lat = model.lat
    assert model.ruleset.hold == "free" and len(set(model.context)) == 1
    keep_matrix = straightforward_keep_matrix(lat.n, lat.faces)
    rolls = range(lat.rolls.start, lat.rolls.stop)
    subs = [[k for k in lat.sub_hands(r) if k != r] for r in rolls]
    width = max(len(s) for s in subs)
    sub_index = np.array([s + [s[0]] * (width - len(s)) for s in subs])
    nb, ups, flags = len(model.boxes), model.uppers, 2
    values = np.zeros((1 << nb, ups, flags))
    values[model.full] = model.end_value(np.arange(ups))[:, None]
    u = np.arange(ups)
    fives = set(model.five_rows.tolist())
    for mask in range(model.full - 1, -1, -1):
        scores = np.full((len(subs), ups, flags), -np.inf)
        for b in range(nb):
            if mask >> b & 1:
                continue
            after = values[mask | 1 << b]
            pts = model.points[0, b]
            nu = np.minimum(model.threshold, u[None, :] + model.up[0, b][:, None])
            for y in range(flags):
                ny = (pts > 0).astype(int) if (model.flagged and b == model.five) else y
                ny = np.broadcast_to(np.asarray(ny)[..., None] if np.ndim(ny) else ny, nu.shape)
                cand = pts[:, None] + after[nu, ny]
                if model.flagged and mask >> model.five & 1:
                    for r in fives:
                        found = model.entry(mask, y, b, r, 0)
                        cand[r] = -np.inf
                        if found is not None:
                            total, gain, _ = found
                            cand[r] = total + after[np.minimum(model.threshold, u + gain), y]
                np.maximum(scores[:, :, y], cand, out=scores[:, :, y])
        flat = scores.reshape(len(subs), -1)
        for _ in range(model.ruleset.rolls - 1):
            keep = keep_matrix @ flat
            flat = np.maximum(flat, keep[sub_index].max(axis=1))
        values[mask] = (lat.prob[lat.rolls] @ flat).reshape(ups, flags)
    return values


def _cpu(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def solve(args: argparse.Namespace) -> None:
    rs = load_ruleset(args.ruleset)
    model = Model.build(rs)
    fast, slow = [], []
    for run in range(args.repeat):
        table, wall, cpu = _cpu(lambda: build_table(Model.build(rs)))
        fast.append((wall, cpu))
        print(f"run {run + 1}: advisor {wall:.2f} s wall, {cpu:.2f} s CPU", flush=True)
        if args.skip_baseline:
            continue
        values, wall, cpu = _cpu(lambda: straightforward_table(model))
        slow.append((wall, cpu))
        diff = abs(float(values[0, 0, 0]) - table.expected)
        print(
            f"run {run + 1}: straightforward {wall:.2f} s wall, {cpu:.2f} s CPU "
            f"(expected {values[0, 0, 0]:.6f}, differs by {diff:.1e})",
            flush=True,
        )
        assert diff < 1e-6
    med = lambda runs, i: statistics.median(r[i] for r in runs)  # noqa: E731
    print(f"{rs.id}: expected {table.expected:.4f}")
    print(f"advisor: median {med(fast, 0):.2f} s wall, {med(fast, 1):.2f} s CPU")
    if slow:
        print(f"straightforward: median {med(slow, 0):.2f} s wall, {med(slow, 1):.2f} s CPU")
        print(
            f"speed-up: {med(slow, 0) / med(fast, 0):.1f}x wall, "
            f"{med(slow, 1) / med(fast, 1):.1f}x CPU"
        )


def hint(args: argparse.Namespace) -> None:
    rs = load_ruleset(args.ruleset)
    cache = TableCache(args.cache or tempfile.mkdtemp())
    table = cache.load_or_build(rs)
    rng = random.Random(args.seed)
    situations = []
    for _ in range(args.count):  # situations from games played optimally
        game = play_optimally(table, random.Random(rng.random()))
        entries = game.sheet.entries[: rng.randint(0, 12)]
        scores = {e.box: e.value for e in entries}
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        situations.append((Situation.from_scores(rs, scores), dice, rng.randint(0, 2)))
    by_left: dict[int, list[tuple[float, float]]] = {}
    for situation, dice, left in situations:
        wall, cpu = time.perf_counter(), time.process_time()
        advise(table, situation, dice, left)
        spent = ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)
        by_left.setdefault(left, []).append(spent)
    for left, spent in sorted(by_left.items()):
        walls = sorted(w for w, _ in spent)
        cpus = sorted(c for _, c in spent)
        print(
            f"hint with {left} rolls left ({len(spent)} situations): median "
            f"{statistics.median(cpus):.2f} ms CPU "
            f"(90th percentile {cpus[int(0.9 * len(cpus))]:.2f}), "
            f"{statistics.median(walls):.2f} ms wall (90th percentile "
            f"{walls[int(0.9 * len(walls))]:.2f})"
        )


class _Phone:
    """One keep-alive HTTP client of the tray's API, with the session cookie once joined."""

    def __init__(self, port: int) -> None:
        import http.client

        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.cookie = ""

    def call(self, method: str, path: str, body: object = None) -> object:
        import json

        self.conn.request(method, path, json.dumps(body) if body is not None else None,
                          {"Content-Type": "application/json", "Cookie": self.cookie})
        answer = self.conn.getresponse()
        data = json.loads(answer.read() or b"null")
        self.cookie = (answer.getheader("Set-Cookie") or self.cookie).split(";", 1)[0]
        return data


def api(args: argparse.Namespace) -> None:
    """GET /api/advice through a simulated tray's web server (waitress), over the situations
    of whole games played by the advice itself; timed once the table is loaded."""
    import os

    from dicetray.firmware.tray import open_tray
    from dicetray.rules.advisor.cache import load_table
    from dicetray.web.app import Serving, create_app

    cache = Path(args.cache or tempfile.mkdtemp())

    def loader(ruleset, directory, *, progress):
        return load_table(ruleset, cache, progress=progress)

    folder = tempfile.mkdtemp()
    tray = open_tray(folder, simulate=True, fast=True, seed=args.seed, code="BENCH",
                     advisor_loader=loader)
    serving = Serving(create_app(tray.table, secret_key=os.urandom(32)),
                      host="127.0.0.1", port=0, threads=8)
    phone = _Phone(serving.port)
    state = phone.call("POST", "/api/join", {"code": "BENCH", "name": "Bench"})
    ready_at = None
    timings: dict[int, list[float]] = {}
    began = time.perf_counter()
    while sum(len(t) for t in timings.values()) < args.count:
        state = phone.call("POST", "/api/games", {"version": state["version"],
                                                  "ruleset": args.ruleset,
                                                  "players": ["Bench"]})
        while not state["game"]["finished"]:
            state = phone.call("POST", "/api/roll", {"version": state["version"]})
            while state["cycle"] in ("tumbling", "settling", "reading"):
                time.sleep(0.01)
                state = phone.call("GET", "/api/state")
            if state["cycle"] == "needs-help":  # the reader was unsure: type what it saw
                dice = [d["value"] for d in state["reading"]["dice"]]
                state = phone.call("POST", "/api/correct", {"version": state["version"],
                                                            "dice": dice})
            advice = phone.call("GET", "/api/advice")
            while advice.get("reason") == "computing":  # the first game: wait for the table
                time.sleep(0.2)
                advice = phone.call("GET", "/api/advice")
            if ready_at is None:
                ready_at = time.perf_counter() - began
            start = time.perf_counter()
            advice = phone.call("GET", "/api/advice")
            spent = (time.perf_counter() - start) * 1000
            timings.setdefault(advice["rolls_left"], []).append(spent)
            best = advice["options"][0]
            if best["kind"] == "keep":
                state = phone.call("POST", "/api/keep", {"version": state["version"],
                                                         "dice": best["positions"]})
            else:
                state = phone.call("POST", "/api/score", {"version": state["version"],
                                                          "box": best["box"]})
    serving.stop()
    tray.close()
    print(f"table ready {ready_at:.1f} s after the first game started (loaded or computed)")
    def summary(spent: list[float]) -> str:  # nearest-rank 95th, as the recorded figures
        spent = sorted(spent)
        return (f"({len(spent)} situations): median {statistics.median(spent):.2f} ms, "
                f"95th percentile {spent[int(0.95 * len(spent))]:.2f} ms")

    for left, spent in sorted(timings.items()):
        print(f"GET /api/advice with {left} rolls left {summary(spent)}")
    print(f"GET /api/advice, all rolls left {summary([t for s in timings.values() for t in s])}")


def distribution(args: argparse.Namespace) -> None:
    """Time the exact distribution of optimal play's final score; print its figures."""
    import resource

    from dicetray.rules.advisor.distribution import score_distribution

    rs = load_ruleset(args.ruleset)
    table = TableCache(args.cache or tempfile.mkdtemp()).load_or_build(rs)
    runs = []
    for run in range(args.repeat):
        found, wall, cpu = _cpu(lambda: score_distribution(table))
        runs.append((wall, cpu))
        print(f"run {run + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cdf = np.cumsum(found.probabilities)
    print(f"{rs.id}: mean {found.mean:.4f} (table {table.expected:.4f}), sd {found.sd:.4f}, "
          f"median {found.median}, mode {found.mode}, 1st percentile {found.percentile(1)}, "
          f"99th {found.percentile(99)} (P(score <= 473) = {cdf[473]:.10f})")
    print(f"median of {len(runs)} runs: {statistics.median(r[0] for r in runs):.1f} s wall, "
          f"{statistics.median(r[1] for r in runs):.1f} s CPU; peak RSS {peak:.0f} MB")


def size(args: argparse.Namespace) -> None:
    rs = load_ruleset(args.ruleset)
    with tempfile.TemporaryDirectory() as folder:
        cache = TableCache(folder)
        table = cache.load_or_build(rs)
        disk = cache.path(rs).stat().st_size
    print(
        f"{rs.id}: {disk / 1e6:.1f} MB on disk, {table.values.nbytes / 1e6:.1f} MB in memory "
        f"(values {table.values.shape}, float64)"
    )
    start = time.perf_counter()
    TableCache(args.cache).load(rs) if args.cache else None
    print(f"loading from the cache took {(time.perf_counter() - start) * 1000:.0f} ms")


def simulate(args: argparse.Namespace) -> None:
    rs = load_ruleset(args.ruleset)
    table = TableCache(args.cache or tempfile.mkdtemp()).load_or_build(rs)
    rng = random.Random(args.seed)
    totals, boxes = [], {k: [] for k in PUBLISHED}
    for _ in range(args.games):
        game = play_optimally(table, random.Random(rng.random()))
        sheet = game.sheet
        totals.append(sheet.total)
        for box in rs.scored_ids:
            boxes[box].append(sheet.entry(box).points)
        boxes["upper bonus"].append(sheet.totals().upper_bonus)
        boxes["yahtzee bonus"].append(sheet.totals().extras)
    mean = statistics.fmean(totals)
    se = statistics.stdev(totals) / len(totals) ** 0.5
    print(
        f"{args.games} games of {rs.id}: mean {mean:.3f}, standard error {se:.3f}, "
        f"solver {table.expected:.4f}, off by {(mean - table.expected) / se:+.2f} SE; "
        f"sd {statistics.stdev(totals):.2f}, median {statistics.median(totals)}, "
        f"mode {statistics.mode(totals)}"
    )
    print("| box | published | simulated | standard error |")
    print("| --- | ---: | ---: | ---: |")
    for box, figure in PUBLISHED.items():
        got = boxes[box]
        print(
            f"| {box} | {figure:.2f} | {statistics.fmean(got):.2f} | "
            f"{statistics.stdev(got) / len(got) ** 0.5:.2f} |"
        )


def pi(args: argparse.Namespace) -> None:
    """sysbench's prime events per CPU second here, beside a Pi 4's published figure.

    Counted per CPU second of the sysbench process (not per wall second), so a busy
    machine, which delays the process but hardly slows its CPU, gives nearly the same
    figure; the Pi's 1478 events/s were measured on an idle Pi, where the two are equal.
    """
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        ["sysbench", "cpu", "--threads=1", "--time=20", "run"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    events = int(next(x for x in out.splitlines() if "total number of events" in x).split()[-1])
    here = events / cpu
    print(
        f"sysbench cpu: {here:.0f} events per CPU second here ({events} events in {cpu:.1f} s "
        f"CPU); a Raspberry Pi 4 core: {PI4_SYSBENCH} events/s; ratio {here / PI4_SYSBENCH:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, fn in (
        ("solve", solve),
        ("hint", hint),
        ("api", api),
        ("distribution", distribution),
        ("size", size),
        ("simulate", simulate),
        ("pi", pi),
    ):
        p = sub.add_parser(name)
        p.set_defaults(fn=fn)
        p.add_argument(
            "--ruleset",
            default="yahtzee-free-joker" if name in ("simulate", "distribution") else "yahtzee",
        )
        p.add_argument("--cache", default=None, help="a cache directory to reuse")
        p.add_argument("--seed", type=int, default=2026)
    sub.choices["solve"].add_argument("--repeat", type=int, default=3)
    sub.choices["solve"].add_argument("--skip-baseline", action="store_true")
    sub.choices["distribution"].add_argument("--repeat", type=int, default=3)
    sub.choices["hint"].add_argument("--count", type=int, default=300)
    sub.choices["api"].add_argument("--count", type=int, default=300)
    sub.choices["simulate"].add_argument("--games", type=int, default=10000)
    args = parser.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
