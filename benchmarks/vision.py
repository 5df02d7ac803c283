#!/usr/bin/env python3
"""Measure the dicetray recognizer against the Golsteyn-2020 baseline, side by side.

Both read the same frames: the real photos in ../shared/datasets and frames from the
rendered camera (hard cases included). Per set it prints a Markdown table (photos fully
right, refused, silently wrong, per-die accuracy, median ms per frame; decoding and
rendering excluded from the timing, each frame read ``--repeat`` times and the median
kept), then a speed section at 640x480 and 1280x960 and a Raspberry Pi 4 estimate.

    python3 benchmarks/vision.py                       # everything, as in docs/benchmarks.md
    python3 benchmarks/vision.py --sets matteop65 --repeat 1 --progress /tmp/vision_progress.md
    python3 benchmarks/vision.py --out docs/benchmarks.md   # rewrite the doc's Vision section
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.baseline_golsteyn import PUBLISHED, TUNED  # noqa: E402
from benchmarks.datasets import SETS, Photo, load_set  # noqa: E402
from benchmarks.distort import distort  # noqa: E402
from benchmarks.metrics import Tally  # noqa: E402
from dicetray.vision import Reading  # noqa: E402

RENDERED = "rendered"
TOLD = "dicetray, told the count"
SPEED = "speed"  # a method's only_on for the speed table alone
OPENCV_ENGINE = "dicetray, OpenCV's engine"
SPEED_SIZES: tuple[tuple[int, int], ...] = ((640, 480), (1280, 960))
START, END = "<!-- vision-benchmark:start -->", "<!-- vision-benchmark:end -->"

# Published single-thread figure for a Raspberry Pi 4 (Cortex-A72), `sysbench cpu
# --threads=1 --time=60 run`, sysbench 1.0.20: https://leoncode.co.uk/articles/raspberry-pi-benchmarks
PI4_SYSBENCH_EVENTS_PER_S = 1477.83
PI4_SOURCE = "https://leoncode.co.uk/articles/raspberry-pi-benchmarks"

ReadFn = Callable[[np.ndarray, int | None], Reading]


@dataclass(frozen=True)
class Method:
    """A reader under test: a name for the tables and ``read(frame, dice)``."""

    name: str
    read: ReadFn
    only_on: str | None = None  # the one set it runs on, or SPEED (None: every set)
    told: bool = False  # always told how many dice to expect (as the tray always is)


@dataclass(frozen=True)
class Sample:
    """One frame to read: a name to find it again, its truth and how to get the pixels."""

    name: str
    values: tuple[int, ...]
    load: Callable[[], np.ndarray]
    refuse_expected: bool = False


@dataclass
class Result:
    """One method on one set: the tally, per-frame median times and what went wrong."""

    tally: Tally = field(default_factory=Tally)
    ms: list[float] = field(default_factory=list)
    wrong: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    crashes: int = 0
    should_refuse: int = 0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.ms) if self.ms else float("nan")


def methods(include_recognizer: bool = True, told_row: bool = True) -> list[Method]:
    """The dicetray recognizer (when it imports), also told the count when ``told_row``
    (the tray always knows how many dice it holds), and the baseline, published and tuned."""
    found = []
    if include_recognizer:
        try:
            from dicetray.vision import read as dicetray_read
        except ImportError as exc:
            print(
                f"note: dicetray recognizer not available ({exc}); baseline only", file=sys.stderr
            )
        else:
            def ours(frame: np.ndarray, dice: int | None) -> Reading:
                return dicetray_read(frame, dice=dice)

            found.append(Method("dicetray", ours))
            if told_row:
                found.append(Method(TOLD, ours, told=True))
            found.append(Method(OPENCV_ENGINE, on_engine(ours, "opencv"), only_on=SPEED))
    found.append(Method("Golsteyn 2020", lambda frame, dice: PUBLISHED.read(frame)))
    found.append(
        Method(
            "Golsteyn 2020, filters tuned on matteop65",
            lambda frame, dice: TUNED.read(frame),
            only_on="matteop65",
        )
    )
    return found


@contextlib.contextmanager
def engine_chosen(engine: str) -> Iterator[None]:
    """The recognizer's networks on ``engine`` inside the block (see
    dicetray.vision.networks), the choice made before restored after it."""
    from dicetray.vision.networks import ENGINE_VARIABLE

    before = os.environ.get(ENGINE_VARIABLE)
    os.environ[ENGINE_VARIABLE] = engine
    try:
        yield
    finally:
        if before is None:
            del os.environ[ENGINE_VARIABLE]
        else:
            os.environ[ENGINE_VARIABLE] = before


def on_engine(read: ReadFn, engine: str) -> ReadFn:
    """``read`` with the networks on ``engine``."""

    def run(frame: np.ndarray, dice: int | None) -> Reading:
        with engine_chosen(engine):
            return read(frame, dice)

    return run


def timed(read: ReadFn, frame: np.ndarray, dice: int | None, repeat: int) -> tuple[Reading, float]:
    """Read ``frame`` ``repeat`` times; the last reading and the median milliseconds."""
    times = []
    reading = None
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        reading = read(frame, dice)
        times.append((time.perf_counter() - start) * 1000.0)
    assert reading is not None
    return reading, statistics.median(times)


def photo_samples(photos: Iterable[Photo], distortion: str | None = None) -> Iterator[Sample]:
    """The photos as samples, decoded only when read (decoding is not timed), each made
    harder by ``distortion`` when given (see :mod:`benchmarks.distort`)."""

    def loader(photo: Photo) -> Callable[[], np.ndarray]:
        def load() -> np.ndarray:
            frame = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if frame is None:
                raise OSError(f"cannot decode {photo.path}")
            return distort(frame, distortion) if distortion else frame

        return load

    for photo in photos:
        yield Sample(f"{photo.set}/{photo.name}", photo.values, loader(photo))


def rendered_samples(n: int, seed: int, size: tuple[int, int]) -> Iterator[Sample]:
    """``n`` hard rendered frames; frames with a cocked, blurred or cut die should be refused."""
    from dicetray.vision.render import render_dataset

    for i, (frame, truth) in enumerate(render_dataset(n, seed=seed, hard=True, image_size=size)):
        name = f"render_dataset({n}, seed={seed}) frame {i} (scene seed {truth.seed})"
        yield Sample(name, truth.values, lambda f=frame: f, refuse_expected=not truth.readable)


def measure(
    samples: Iterable[Sample], chosen: list[Method], repeat: int, tell_count: bool
) -> dict[str, Result]:
    """Run every method on every sample; the frame is decoded once, outside the timing."""
    results = {m.name: Result() for m in chosen}
    for sample in samples:
        frame = sample.load()
        for method in chosen:
            dice = len(sample.values) if tell_count or method.told else None
            result = results[method.name]
            result.should_refuse += sample.refuse_expected
            try:
                reading, ms = timed(method.read, frame, dice, repeat)
            except Exception as exc:  # a crash is a finding, counted as a refusal and listed
                result.crashes += 1
                result.reasons[f"crash: {type(exc).__name__}: {exc}"[:120]] += 1
                result.tally.add("unsure", (), sample.values, sample.refuse_expected)
                continue
            outcome = result.tally.add(
                reading.status, reading.values, sample.values, sample.refuse_expected
            )
            result.ms.append(ms)
            if reading.status == "unsure":
                result.reasons[reading.reason.split(":")[0]] += 1
            if outcome == "wrong":
                result.wrong.append((sample.name, reading.values, sample.values))
    return results


def speed(
    chosen: list[Method], frames: int, repeat: int, seed: int, threads: int | None = None
) -> dict[tuple[int, int], dict[str, float]]:
    """Median ms per frame for each method on easy rendered frames of five dice, per size,
    with ``threads`` OpenCV threads (None: as set now)."""
    from dicetray.vision.render import render_dataset

    before = cv2.getNumThreads()
    if threads is not None:
        cv2.setNumThreads(threads)
    table: dict[tuple[int, int], dict[str, float]] = {}
    try:
        for size in SPEED_SIZES:
            times: dict[str, list[float]] = {m.name: [] for m in chosen}
            for frame, _ in render_dataset(frames, seed=seed, hard=False, dice=5,
                                           image_size=size):
                for m in chosen:  # interleaved, so a busy machine slows every method alike
                    times[m.name].append(timed(m.read, frame, 5, repeat)[1])
            table[size] = {name: statistics.median(ms) for name, ms in times.items()}
    finally:
        cv2.setNumThreads(before)
    return table


def sysbench_events_per_s(seconds: int = 5) -> float | None:
    """This machine's ``sysbench cpu --threads=1`` events/s, or None without sysbench."""
    if shutil.which("sysbench") is None:
        return None
    out = subprocess.run(
        ["sysbench", "cpu", "--threads=1", f"--time={seconds}", "run"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = re.search(r"events per second:\s*([\d.]+)", out)
    return float(found.group(1)) if found else None


def machine() -> str:
    """One line saying where the figures were measured."""
    model = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read_text(), re.MULTILINE)
        model = found.group(1).strip() if found else model
    return (
        f"{os.cpu_count()} cores (`nproc`), {model}, Python {platform.python_version()}, "
        f"OpenCV {cv2.__version__} ({cv2.getNumThreads()} threads), NumPy {np.__version__}"
    )


def _pct(part: int, whole: int) -> str:
    return f"{part} ({100.0 * part / whole:.1f} %)" if whole else "0"


def set_table(results: dict[str, Result]) -> list[str]:
    """The Markdown table for one set."""
    lines = [
        "| method | photos | fully right | refused | silently wrong | per-die accuracy "
        "| median ms/frame |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, r in results.items():
        t = r.tally
        right = _pct(t.right, t.photos)
        if t.correct_refusals:
            right += f", {t.correct_refusals} of them rightly refused"
        lines.append(
            f"| {name} | {t.photos} | {right} | {_pct(t.refused, t.photos)} | "
            f"{_pct(t.wrong, t.photos)} | {100.0 * t.die_accuracy:.1f} % | {r.median_ms:.1f} |"
        )
    crashed = [f"{name}: {r.crashes}" for name, r in results.items() if r.crashes]
    if crashed:
        lines += [
            "",
            f"Frames where a reader raised an error (counted refused): {', '.join(crashed)}.",
        ]
    return lines


def speed_lines(
    table: dict[tuple[int, int], dict[str, float]],
    frames: int,
    repeat: int,
    here: float | None,
    threads: int = 1,
) -> list[str]:
    """The speed section: ms per frame per size and method, the ratio, and the Pi 4 estimate.

    ``here`` is this machine's ``sysbench cpu --threads=1`` events/s (None: no estimate);
    ``threads`` the OpenCV threads the methods ran with (a column may name others).
    """
    names = list(next(iter(table.values())))
    base = "Golsteyn 2020"
    ratio = "dicetray" in names and base in names
    lines = [
        f"Median ms per frame over {frames} easy rendered frames of five dice per size, "
        f"each read {repeat} times (median kept), methods interleaved frame by frame, "
        f"with {threads} OpenCV thread{'s' if threads != 1 else ''} unless the column "
        "says otherwise.",
        "",
        "| frame size | " + " | ".join(names) + (" | dicetray ÷ Golsteyn |" if ratio else " |"),
        "| --- | " + " | ".join("---:" for _ in names) + (" | ---: |" if ratio else " |"),
    ]
    for (w, h), row in table.items():
        cells = " | ".join(f"{row[n]:.1f}" for n in names)
        lines.append(
            f"| {w}×{h} | {cells} |" + (f" {row['dicetray'] / row[base]:.2f} |" if ratio else "")
        )
    lines.append("")
    if here is None:
        lines.append("Pi 4 estimate: skipped (`sysbench` is not installed to compare against: "
                     "`apt-get install sysbench`).")
        return lines
    factor = here / PI4_SYSBENCH_EVENTS_PER_S
    who = "dicetray" if "dicetray" in names else base
    guesses = ", ".join(f"{row[who] * factor:.0f} ms at {w}×{h}" for (w, h), row in table.items())
    where = "on one core" if threads == 1 else f"on {threads} of its four cores at best"
    lines.append(
        f"**Pi 4 estimate (an estimate, not a measurement):** this machine runs "
        f"`sysbench cpu --threads=1` (sysbench 1.0.20) at {here:.0f} events/s; a Raspberry Pi 4 "
        f"(Cortex-A72) runs it at {PI4_SYSBENCH_EVENTS_PER_S:.0f} events/s as published at "
        f"<{PI4_SOURCE}>. So a Pi 4 core is assumed {factor:.1f}× slower, and {who} would take "
        f"about {guesses} there, {where}. (sysbench runs just before and after the timing, "
        f"so a busy machine slows both alike.) Prime sieving is not image filtering (NEON vs "
        f"AVX2, memory bandwidth), so this is a rough guide only."
    )
    return lines


def progress_report(all_results: dict[str, dict[str, Result]], command: str) -> str:
    """For the recognizer's author: tables, refusal reasons and up to 30 silently wrong per set."""
    lines = [
        f"# Vision progress ({dt.datetime.now(dt.UTC):%H:%M} UTC)",
        "",
        f"Command: `{command}`",
        f"Photos under {ROOT.parent / 'shared' / 'datasets'}.",
    ]
    for name, results in all_results.items():
        lines += ["", f"## {name}", "", *set_table(results)]
        for method, r in results.items():
            if method not in ("dicetray", TOLD) and "dicetray" in results:
                continue
            reasons = ", ".join(f"{k} {v}" for k, v in r.reasons.most_common(12)) or "none"
            lines += ["", f"{method} refusals by reason: {reasons}", ""]
            lines += [f"{method} silently wrong ({len(r.wrong)}, up to 30 shown):", ""]
            lines += [f"- {n}: read {list(got)} true {list(true)}" for n, got, true in r.wrong[:30]]
    return "\n".join(lines) + "\n"


def write_section(path: Path, section: str) -> None:
    """Put ``section`` between the Vision markers of ``path`` (appending them if missing)."""
    block = f"{START}\n{section.rstrip()}\n{END}\n"
    text = path.read_text() if path.exists() else ""
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + block + rest.split(END, 1)[1].lstrip("\n")
    else:
        text = (text.rstrip() + "\n\n" if text.strip() else "") + block
    path.write_text(text)


SET_BLURBS = {
    "matteop65": "webcam photos (640×480) of 1–5 white dice with black pips on a wooden table, "
    "camera angled so side faces show",
    "nell-byler": "phone photos (640×640) of 1–25 dice of many colours, some touching or tilted, "
    "some with light pips",
}
HOW_TO_READ = (
    "How to read the tables: *fully right* = every die's value right (for rendered frames "
    "that no reader should answer — a die cocked, blurred or cut by the frame — refusing counts "
    "as right); *refused* = answered unsure (costs a re-roll); *silently wrong* = answered, but "
    "wrong (costs the game); *per-die accuracy* = multiset overlap of read and true values over "
    "all dice, where a die read that is not there counts as a miss. Timing excludes decoding "
    "and rendering; each frame is read several times and the median kept."
)


NOT_TOLD = (
    f" The row *{TOLD}* is the recognizer told how many dice to expect, as the tray always"
    " is (a die it misses then refuses the roll instead of leaving the die out); no other"
    " row is told."
)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    known = (*SETS, RENDERED)
    parser.add_argument(
        "--sets", default=",".join(known), help="comma-separated: " + ", ".join(known)
    )
    parser.add_argument("--rendered", type=int, default=1000, help="rendered frames (hard cases)")
    parser.add_argument("--rendered-size", default="640x480", help="rendered frame size WxH")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the rendered frames")
    parser.add_argument("--repeat", type=int, default=3, help="reads per photo (median kept)")
    parser.add_argument("--rendered-repeat", type=int, default=1, help="reads per rendered frame")
    parser.add_argument("--speed-frames", type=int, default=50, help="frames per size; 0: no speed")
    parser.add_argument("--speed-repeat", type=int, default=5, help="reads per speed frame")
    parser.add_argument(
        "--tell-count", action="store_true", help="tell the dicetray recognizer how many dice"
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="OpenCV threads (1: per-core figures, as on the Pi)"
    )
    parser.add_argument(
        "--distort", metavar="KIND:AMOUNT",
        help="make each photo harder: zoom-out:F (dice F times smaller in the frame), "
        "motion:PX (smeared PX px), defocus:PX (out of focus, PX px blur radius), "
        "turn:DEG (turned clockwise by 90, 180 or 270 degrees)"
    )
    parser.add_argument("--no-recognizer", action="store_true", help="run the baseline only")
    parser.add_argument("--out", type=Path, help="write the Vision section into this Markdown file")
    parser.add_argument("--progress", type=Path, help="also write a report for the recognizer")
    args = parser.parse_args(argv)
    args.sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in args.sets if s not in known]
    if unknown:
        parser.error(f"unknown set(s) {unknown}; known: {', '.join(known)}")
    if args.distort:
        try:
            distort(np.zeros((8, 8, 3), np.uint8), args.distort)
        except ValueError as exc:
            parser.error(str(exc))
    try:
        width, height = (int(v) for v in args.rendered_size.lower().split("x"))
    except ValueError:
        parser.error(f"--rendered-size must look like 640x480, got {args.rendered_size!r}")
    args.rendered_size = (width, height)
    return args


def run_set(name: str, chosen: list[Method], args: argparse.Namespace) -> tuple[list[str], dict]:
    """Measure one set; its heading lines and its results per method."""
    if name != RENDERED:
        photos = load_set(name)
        used = [m for m in chosen if m.only_on in (None, name)]
        results = measure(photo_samples(photos, args.distort), used, args.repeat,
                          args.tell_count)
        blurb = f"{SET_BLURBS[name]}. Each photo read {args.repeat}×."
        if args.distort:
            blurb += f" Each photo distorted first (`--distort {args.distort}`)."
        return [f"### {name}: {len(photos)} photos", "", blurb[0].upper() + blurb[1:]], results
    (w, h), n, seed = args.rendered_size, args.rendered, args.seed
    used = [m for m in chosen if m.only_on in (None, name)]
    results = measure(
        rendered_samples(n, seed, (w, h)), used, args.rendered_repeat, args.tell_count
    )
    should = next(iter(results.values())).should_refuse
    return [
        f"### Rendered: {n} hard frames at {w}×{h} (`render_dataset({n}, seed={seed}, hard=True)`)",
        "",
        f"{should} of them show a die that is cocked, blurred or cut by the frame and should be "
        f"refused. Each frame read {args.rendered_repeat}×.",
    ], results


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    cv2.setNumThreads(args.threads)
    chosen = methods(include_recognizer=not args.no_recognizer, told_row=not args.tell_count)
    started = time.perf_counter()
    command = " ".join(["python3 benchmarks/vision.py", *(sys.argv[1:] if argv is None else argv)])
    told = " The dicetray recognizer is told how many dice to expect (`--tell-count`)."
    out = [
        "## Vision",
        "",
        f"Measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC on {machine()}.",
        "Reproduce every figure below with (the Pi 4 estimate needs Debian's `sysbench`):",
        "",
        f"    {command}",
        "",
        HOW_TO_READ + (told if args.tell_count else NOT_TOLD),
    ]
    all_results: dict[str, dict[str, Result]] = {}
    for name in args.sets:
        heading, all_results[name] = run_set(name, chosen, args)
        section = ["", *heading, "", *set_table(all_results[name])]
        out += section
        print("\n".join(section), flush=True)
    if args.speed_frames > 0:
        used = [m for m in chosen if m.only_on in (None, SPEED) and not m.told]
        before = sysbench_events_per_s()
        table = speed(used, args.speed_frames, args.speed_repeat, args.seed)
        cores = os.cpu_count() or 1
        ours = [m for m in used if m.name in ("dicetray", OPENCV_ENGINE)]
        if ours and cores > args.threads:  # as the product runs: OpenCV on every core
            many = speed(ours, args.speed_frames, args.speed_repeat, args.seed, cores)
            for size, row in many.items():
                for name, ms in row.items():
                    table[size][f"{name}, {cores} threads"] = ms
        after = sysbench_events_per_s()
        here = (before + after) / 2 if before and after else None
        section = ["", "### Speed", ""]
        section += speed_lines(table, args.speed_frames, args.speed_repeat, here, args.threads)
        out += section
        print("\n".join(section), flush=True)
    elapsed = time.perf_counter() - started
    out += ["", f"The whole run took {elapsed / 60:.1f} minutes."]
    print(f"\n(whole run: {elapsed:.0f} s)")
    if args.out:
        write_section(args.out, "\n".join(out))
    if args.progress:
        args.progress.write_text(progress_report(all_results, command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
