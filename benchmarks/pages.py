"""How fast the phones' pages are, measured on a running tray with headless Chromium.

Start a tray, then point this at it::

    dicetray run --simulate --fast --code 4711 &
    python3 benchmarks/pages.py --url http://127.0.0.1:8080 --code 4711

It prints Markdown for docs/benchmarks.md:

- live updates: ``--phones`` pages (20) show the scorecard; one more client reads the raw
  event stream. For each roll and each keep, the delay from the event's arrival at the raw
  client (the moment the tray published it, give or take a loopback hop) to each page having
  drawn that state (``data-version`` on ``<body>``), over ``--rounds`` turns: p50 and p95;
- the page weight of the scorecard (every byte the first visit loads: HTML, CSS, scripts,
  words, the sheet, the state; the tray snapshot apart) and the time to first render
  (first contentful paint, and the scorecard drawn with the state; the live stream is
  left out, the first draw does not wait for it) at 360×740, cold cache,
  as a median of ``--loads`` visits, at full speed and with the CPU slowed ``--slowdown``
  times (Chromium's emulation, as a stand-in for a modest phone).

Chromium is Debian's (``/usr/bin/chromium``, or ``--chromium``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.metrics import percentile  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 360, "height": 740}
PER_BROWSER = 5


class RawStream:
    """The event stream read by a plain HTTP client: when each state version arrived."""

    def __init__(self, url: str) -> None:
        self.arrived: dict[int, float] = {}
        self.states: dict[int, dict] = {}
        self._response = urllib.request.urlopen(f"{url}/api/events", timeout=60)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event = None
        for raw in self._response:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "state":
                now = time.time()
                state = json.loads(line.split(":", 1)[1])
                self.arrived.setdefault(state["version"], now)
                self.states[state["version"]] = state
            elif not line:
                event = None

    def wait(self, test, timeout: float = 60) -> dict:
        end = time.time() + timeout
        while time.time() < end:
            for version in sorted(self.states, reverse=True)[:1]:
                if test(self.states[version]):
                    return self.states[version]
            time.sleep(0.005)
        raise TimeoutError("the tray did not reach the state waited for")


# Before any page script runs: note when each state event reaches the page's own JavaScript
# (so a delay splits into the trip from the tray and the page's own drawing).
ARRIVALS = """(() => {
  window.__arrived = {};
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, options) {
    if (type !== "state") return add.call(this, type, listener, options);
    return add.call(this, type, (event) => {
      const v = JSON.parse(event.data).version;
      const now = performance.timeOrigin + performance.now();
      if (!(v in window.__arrived)) window.__arrived[v] = now;
      listener(event);
    }, options);
  };
})();"""

WATCH = """() => {
  window.__seen = {};
  new MutationObserver(() => {
    const v = document.body.dataset.version;
    if (v && !(v in window.__seen)) window.__seen[v] = performance.timeOrigin + performance.now();
  }).observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
}"""


def _post(page: Page, path: str, body: dict) -> dict:
    return page.evaluate(
        """async ([path, body]) => {
            const r = await fetch(path, {method: "POST", body: JSON.stringify(body),
                                         headers: {"Content-Type": "application/json"}});
            return {status: r.status, body: await r.json().catch(() => null)};
        }""",
        [path, body],
    )


def live_updates(browsers: list[Browser], url: str, code: str, phones: int,
                 rounds: int, frames: bool = True) -> dict:
    control = browsers[0].new_context(viewport=PHONE).new_page()
    control.goto(f"{url}/join")
    assert _post(control, "/api/join", {"code": code, "name": "bench"})["status"] == 200
    stream = RawStream(url)
    state = stream.wait(lambda s: True)
    _post(control, "/api/games", {"version": state["version"], "ruleset": "yacht",
                                  "players": ["Bench"], "games": 1})
    pages = []
    for number in range(phones):
        page = browsers[number % len(browsers)].new_context(viewport=PHONE).new_page()
        page.add_init_script(ARRIVALS)
        if not frames:  # to see what the phones fetching the tray's photo costs the rest
            page.route("**/api/frames/**", lambda route: route.abort())
        page.goto(f"{url}/")
        page.wait_for_selector("body[data-ready=true]")
        page.evaluate(WATCH)
        pages.append(page)
    print(f"{len(pages)} phones open", file=sys.stderr)
    delays: dict[str, list[float]] = {"roll": [], "keep": [], "roll: reached the page": [],
                                      "keep: reached the page": []}
    known = 0  # the newest version a command of ours was answered with
    for _ in range(rounds):
        state = stream.wait(lambda s, v=known: s["version"] >= v and s["cycle"] == "idle"
                            and s["game"])
        if state["game"]["finished"]:
            started = _post(control, "/api/games", {"version": state["version"],
                                                    "ruleset": "yacht", "players": ["Bench"],
                                                    "games": 1})
            state = stream.wait(lambda s, v=started["body"]["version"]: s["version"] >= v)
        sent = _post(control, "/api/roll", {"version": state["version"]})
        if sent["status"] != 202:
            raise RuntimeError(f"the roll was refused: {sent}")
        rolled = stream.wait(lambda s, v=state["version"]: s["version"] > v
                             and s["cycle"] in ("idle", "needs-help")
                             and s["game"]["turn"]["rolls_used"] > 0)
        drawn, reached = _delays(pages, stream, rolled["version"])
        delays["roll"] += drawn
        delays["roll: reached the page"] += reached
        if rolled["cycle"] != "idle":  # the tray asks: take its dice as read
            dice = [d["value"] for d in rolled["reading"]["dice"]] if rolled["reading"] else []
            turn = rolled["game"]["turn"]
            thrown = len(turn["dice"] or []) - len(turn["held"]) if turn["dice"] else 5
            dice = (dice + [1] * 5)[:thrown]
            answer = _post(control, "/api/correct", {"version": rolled["version"], "dice": dice})
            known = answer["body"]["version"] if answer["status"] == 200 else known
            continue
        kept = _post(control, "/api/keep", {"version": rolled["version"], "dice": [0]})
        version = kept["body"]["version"]
        stream.wait(lambda s, v=version: s["version"] >= v)
        drawn, reached = _delays(pages, stream, version)
        delays["keep"] += drawn
        delays["keep: reached the page"] += reached
        game = kept["body"]["game"]
        option = game["options"][0]
        scored = _post(control, "/api/score", {"version": version, "box": option["box"],
                                               "column": option["column"]})
        known = scored["body"]["version"]
        print(f"turn done: {len(delays['roll'])} roll updates", file=sys.stderr)
    for page in pages:
        page.context.close()
    control.context.close()
    return delays


def _delays(pages: list[Page], stream: RawStream,
            version: int) -> tuple[list[float], list[float]]:
    """Per page, from the raw client's receipt of ``version``: to the page having drawn it,
    and to its state event reaching the page's script (absent if the page caught up on it
    through GET /api/state instead)."""
    drawn, reached = [], []
    start = stream.arrived[version] * 1000
    for page in pages:
        page.wait_for_function("v => String(v) in window.__seen", arg=version, timeout=30_000)
        seen, came = page.evaluate("v => [window.__seen[String(v)], window.__arrived[String(v)]]",
                                   version)
        drawn.append(seen - start)
        if came is not None:
            reached.append(came - start)
    return drawn, reached


def first_visit(browser: Browser, url: str, loads: int, slowdown: float) -> dict:
    weights, paints, drawn = [], [], []
    for _ in range(loads):
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        # the first draw needs no live stream, and a closed page's stream would hold one of
        # the tray's server threads until its next heartbeat (15 s)
        page.route("**/api/events", lambda route: route.abort())
        if slowdown > 1:
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        page.goto(f"{url}/")
        page.wait_for_function("performance.getEntriesByName('dicetray:first-render').length")
        page.wait_for_load_state("load")
        timing = page.evaluate(
            """() => {
                const nav = performance.getEntriesByType("navigation")[0];
                const res = performance.getEntriesByType("resource")
                    .filter(r => !r.name.includes("/api/events")
                                 && !r.name.includes("/api/frames/"));
                const paint = performance.getEntriesByName("first-contentful-paint")[0];
                return {bytes: nav.encodedBodySize + res.reduce((n, r) => n + r.encodedBodySize, 0),
                        fcp: paint ? paint.startTime : null,
                        drawn: performance.getEntriesByName("dicetray:first-render")[0].startTime};
            }"""
        )
        weights.append(timing["bytes"])
        paints.append(timing["fcp"])
        drawn.append(timing["drawn"])
        context.close()
    return {"bytes": statistics.median(weights), "fcp": statistics.median(paints),
            "drawn": statistics.median(drawn)}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--code", required=True)
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--slowdown", type=float, default=4)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--no-frames", action="store_true",
                        help="the phones do not fetch the tray's photo of each roll")
    args = parser.parse_args(argv)
    with sync_playwright() as playwright:
        # one Chromium holds no more than about 15 pages with a live stream each to one host
        # (the 16th never loads), so the phones are spread over several, 5 to each
        browsers = [playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
                    for _ in range(-(-args.phones // PER_BROWSER))]
        delays = live_updates(browsers, args.url, args.code, args.phones, args.rounds,
                              frames=not args.no_frames)
        fast = first_visit(browsers[0], args.url, args.loads, 1)
        slow = first_visit(browsers[0], args.url, args.loads, args.slowdown)
        for browser in browsers:
            browser.close()
    photos = ", no photos" if args.no_frames else ""
    print(f"Live updates, {args.phones} phones, {args.rounds} turns{photos} "
          "(published → drawn on each phone, ms):\n")
    print("| change | updates | p50 | p95 | max |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, values in delays.items():
        if values:
            print(f"| {name} | {len(values)} | {percentile(values, 50):.1f} | "
                  f"{percentile(values, 95):.1f} | {max(values):.1f} |")
    print(f"\nFirst visit of the scorecard at 360×740, cold cache, median of {args.loads}:\n")
    print("| CPU | bytes loaded | first contentful paint (ms) | scorecard drawn (ms) |")
    print("| --- | ---: | ---: | ---: |")
    for label, found in (("full speed", fast), (f"{args.slowdown:g}× slower", slow)):
        print(f"| {label} | {found['bytes']:,.0f} | {found['fcp']:.0f} | {found['drawn']:.0f} |")


if __name__ == "__main__":
    main()
