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
from benchmarks.halves import Half, photos_in  # noqa: E402
from benchmarks.metrics import Answer, Tally, choose_floor, tally_of  # noqa: E402
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
    answers: list[Answer] = field(default_factory=list)

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
                result.answers.append(Answer("unsure", (), sample.values, sample.refuse_expected))
                continue
            outcome = result.tally.add(
                reading.status, reading.values, sample.values, sample.refuse_expected
            )
            result.ms.append(ms)
            result.answers.append(Answer(
                reading.status, reading.values, sample.values, sample.refuse_expected,
                min((d.confidence for d in reading.dice), default=1.0)))
            if reading.status == "unsure":
                result.reasons[reading.reason.split(":")[0]] += 1
            if outcome == "wrong":
                result.wrong.append((sample.name, reading.values, sample.values))
    return results


def floor_lines(all_results: dict[str, dict[str, Result]], method: str = "dicetray") -> list[str]:
    """Tuned on one set, read on another: the least die confidence of an answer (the
    operating threshold) chosen on each set (:func:`benchmarks.metrics.choose_floor`) and
    the outcomes it gives on every set, the sets it was not chosen on first."""
    sets = [name for name, results in all_results.items() if method in results]
    if not sets:
        return []
    lines = [
        f"The least die confidence an answer of *{method}* must have, chosen on one set to "
        "read the most photos right at ten refusals per silent error, then applied to "
        "every set. The rows *chosen on* the set itself are tuned on what they report and "
        "flatter; the others are held out.",
        "",
        "| read on | chosen on | floor | right | refused | silently wrong "
        "| dice right, answered photos only |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    floors = {name: choose_floor(all_results[name][method].answers) for name in sets}
    for target in sets:
        answers = all_results[target][method].answers
        for source in sorted(sets, key=lambda n: n == target):
            t = tally_of(answers, floors[source])
            held = source if source != target else f"{source} (tuned on itself)"
            lines.append(
                f"| {target} | {held} | {floors[source]:.2f} | {_pct(t.right, t.photos)} | "
                f"{_pct(t.refused, t.photos)} | {_pct(t.wrong, t.photos)} | {_answered(t)} |"
            )
    return lines


def letterbox(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``frame`` scaled to fit ``size`` (w, h) whole, its shape kept, the rest filled with
    the median colour of its border (a camera at that size sees the same scene larger).

    >>> letterbox(np.zeros((640, 640, 3), np.uint8), (1280, 960)).shape
    (960, 1280, 3)
    """
    h, w = frame.shape[:2]
    scale = min(size[0] / w, size[1] / h)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    inner = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_CUBIC if scale > 1
                       else cv2.INTER_AREA)
    border = np.concatenate([frame[0], frame[-1], frame[:, 0], frame[:, -1]])
    out = np.empty((size[1], size[0], 3), np.uint8)
    out[:] = np.median(border, axis=0).astype(np.uint8)
    x0, y0 = (size[0] - nw) // 2, (size[1] - nh) // 2
    out[y0:y0 + nh, x0:x0 + nw] = inner
    return out


REAL_SIZE = (1280, 960)


def real_speed(samples: Iterable[Sample], chosen: list[Method],
               repeat: int) -> dict[str, dict[str, float]]:
    """Median ms per photo for each method on real photos, at the photos' own size and
    letterboxed to the camera's 1280×960 (:func:`letterbox`), methods interleaved photo
    by photo so a busy machine slows every method alike."""
    times: dict[str, dict[str, list[float]]] = {"own size": {}, "1280×960": {}}
    for sample in samples:
        frame = sample.load()
        for label, f in (("own size", frame), ("1280×960", letterbox(frame, REAL_SIZE))):
            for m in chosen:
                times[label].setdefault(m.name, []).append(
                    timed(m.read, f, len(sample.values) if m.told else None, repeat)[1])
    return {label: {name: statistics.median(ms) for name, ms in row.items()}
            for label, row in times.items() if row}


def speed_photos(photos: list[Photo], n: int, pick: str = "first") -> list[Photo]:
    """The ``n`` photos timed: the first ``n``, or (``pick="spread"``) ``n`` spread evenly
    through the set, so that photos of few dice and of many are timed as often as the set
    holds them, or (``pick="all"``) every photo, whatever ``n``.

    >>> speed_photos(list(range(10)), 3), speed_photos(list(range(10)), 3, "spread")
    ([0, 1, 2], [0, 3, 6])
    >>> len(speed_photos(list(range(10)), 3, "all"))
    10
    """
    if pick == "all":
        return list(photos)
    if pick == "first" or n >= len(photos):
        return photos[:n]
    return [photos[i * len(photos) // n] for i in range(n)]


def dice_range(text: str) -> tuple[int, int]:
    """``"4-5"`` (four or five dice) or ``"6"`` (six) as (low, high), for
    ``--real-speed-dice``.

    >>> dice_range("4-5"), dice_range("6")
    ((4, 5), (6, 6))
    >>> dice_range("5-4")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: want LOW-HIGH or N dice (LOW <= HIGH), got '5-4'
    """
    low, _, high = text.partition("-")
    try:
        lo, hi = int(low), int(high or low)
    except ValueError:
        lo, hi = 1, 0
    if not 0 <= lo <= hi:
        raise argparse.ArgumentTypeError(f"want LOW-HIGH or N dice (LOW <= HIGH), got {text!r}")
    return lo, hi


def holding(photos: list[Photo], dice: tuple[int, int] | None) -> list[Photo]:
    """The photos holding ``dice`` (low, high) dice, every photo for None: a speed told by
    how many dice a photo holds.

    >>> ps = [Photo("s", str(n), Path(), (1,) * n, n) for n in (1, 4, 5, 9)]
    >>> [p.n_dice for p in holding(ps, (4, 5))], len(holding(ps, None))
    ([4, 5], 4)
    """
    if dice is None:
        return photos
    return [p for p in photos if dice[0] <= p.n_dice <= dice[1]]


def real_speed_lines(table: dict[str, dict[str, dict[str, float]]], photos: int,
                     repeat: int, here: float | None = None, pick: str = "first",
                     dice: tuple[int, int] | None = None, threads: int = 1) -> list[str]:
    """The real-photo speed table: per set and size, each method's median and the ratio,
    and, given this machine's ``sysbench cpu --threads=1`` events/s ``here``, what a Pi 4
    would take (see :func:`speed_lines`); ``threads``: the OpenCV threads the methods ran
    with."""
    names = list(dict.fromkeys(n for sizes in table.values() for row in sizes.values()
                               for n in row))
    base = "Golsteyn 2020"
    ratio = "dicetray" in names and base in names
    which = {"first": f"the first {photos} photos of each set",
             "spread": f"{photos} photos spread evenly through each set "
                       "(`--real-speed-pick spread`)",
             "all": "every photo of each set (`--real-speed-pick all`)"}[pick]
    if dice is not None:
        held = f"{dice[0]}-{dice[1]}" if dice[0] < dice[1] else str(dice[0])
        which += f" holding {held} dice (`--real-speed-dice {held}`)"
    lines = [
        f"Median ms per photo over {which}, each read {repeat} "
        "times (median kept), methods interleaved photo by photo, at the photo's own size "
        f"and letterboxed to 1280×960, with {threads} OpenCV "
        f"thread{'s' if threads != 1 else ''}.",
        "",
        "| set | size | " + " | ".join(names) + (" | dicetray ÷ Golsteyn |" if ratio else " |"),
        "| --- | --- | " + " | ".join("---:" for _ in names) + (" | ---: |" if ratio else " |"),
    ]
    for name, sizes in table.items():
        for label, row in sizes.items():
            cells = " | ".join(f"{row[n]:.1f}" if n in row else "" for n in names)
            tail = f" {row['dicetray'] / row[base]:.2f} |" if ratio else ""
            lines.append(f"| {name} | {label} | {cells} |{tail}")
    if here is not None:
        factor = here / PI4_SYSBENCH_EVENTS_PER_S
        who = "dicetray" if "dicetray" in names else base
        guesses = "; ".join(f"{name} {label} {row[who] * factor:.0f} ms"
                            for name, sizes in table.items() for label, row in sizes.items()
                            if who in row)
        where = "on one Pi 4 core" if threads == 1 else f"on {threads} of a Pi 4's four cores"
        lines += ["", f"**Pi 4 estimate (an estimate, not a measurement):** this machine runs "
                  f"`sysbench cpu --threads=1` (sysbench 1.0.20, run just before and after the "
                  f"timing) at {here:.0f} events/s, a Raspberry Pi 4 at "
                  f"{PI4_SYSBENCH_EVENTS_PER_S:.0f} (<{PI4_SOURCE}>): {factor:.1f}× slower, so "
                  f"{who} would take {where} about: {guesses}. A rough guide only "
                  f"(prime sieving is not image filtering: the networks run on {vector_unit()} "
                  "here and NEON on a Pi, which sieving does not weigh)."]
    return lines


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
    model = _cpuinfo(r"model name") or "unknown CPU"
    return (
        f"{os.cpu_count()} cores (`nproc`), {model} ({vector_unit()}), Python "
        f"{platform.python_version()}, OpenCV {cv2.__version__} ({cv2.getNumThreads()} "
        f"threads), NumPy {np.__version__}"
    )


def _cpuinfo(field: str) -> str:
    """The first value of the ``/proc/cpuinfo`` field whose name matches ``field`` (a
    regular expression), stripped; "" where there is none or no such file."""
    cpuinfo = Path("/proc/cpuinfo")
    text = cpuinfo.read_text() if cpuinfo.is_file() else ""
    found = re.search(rf"^(?:{field})\s*:\s*(.+)$", text, re.MULTILINE)
    return found.group(1).strip() if found else ""


def vector_unit(flags: str | None = None) -> str:
    """The widest vector instructions the processor has (its ``/proc/cpuinfo`` flags, or
    ``flags``): the networks' speed depends on it as sysbench's prime sieve does not, so an
    AVX-512 machine runs the reader faster than its sysbench figure says.

    >>> vector_unit("fpu sse2 avx avx2 fma"), vector_unit("fp asimd evtstrm"), vector_unit("x")
    ('AVX2', 'NEON', 'no AVX or NEON')
    """
    if flags is None:
        flags = _cpuinfo(r"flags|Features")  # x86's name for them, then Arm's
    have = set(flags.split())
    for flag, name in (("avx512f", "AVX-512"), ("avx2", "AVX2"), ("avx", "AVX"),
                       ("asimd", "NEON"), ("neon", "NEON")):
        if flag in have:
            return name
    return "no AVX or NEON"


def _pct(part: int, whole: int) -> str:
    return f"{part} ({100.0 * part / whole:.1f} %)" if whole else "0"


def _answered(t: Tally) -> str:
    """Dice right among the photos answered, with how many photos that is."""
    if not t.answered:
        return "none answered"
    return (f"{100.0 * t.answered_accuracy:.1f} % of {t.answered_dice_total} dice "
            f"in {t.answered} photos")


def set_table(results: dict[str, Result]) -> list[str]:
    """The Markdown table for one set."""
    lines = [
        "| method | photos | fully right | refused | silently wrong "
        "| per-die accuracy (counts refused answers: flatters) | median ms/frame "
        "| dice right, answered photos only | clean photos refused |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, r in results.items():
        t = r.tally
        right = _pct(t.right, t.photos)
        if t.correct_refusals:
            right += f", {t.correct_refusals} of them rightly refused"
        lines.append(
            f"| {name} | {t.photos} | {right} | {_pct(t.refused, t.photos)} | "
            f"{_pct(t.wrong, t.photos)} | {100.0 * t.die_accuracy:.1f} % | {r.median_ms:.1f} | "
            f"{_answered(t)} | {_pct(t.clean_refused, t.photos - r.should_refuse)} |"
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
        f"{vector_unit()}, memory bandwidth), so this is a rough guide only."
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
    "all dice, where a die read that is not there counts as a miss (it counts the values "
    "shown in refused answers too, so it flatters a reader that refuses much); *dice right, "
    "answered photos only* = the same over the photos answered ok alone; *clean photos "
    "refused* = refusals of photos that should have been answered. Timing excludes decoding "
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
    parser.add_argument("--real-speed-photos", type=int, default=30,
                        help="photos per real set timed at own size and 1280x960; 0: none")
    parser.add_argument("--real-speed-pick", choices=("first", "spread", "all"),
                        default="first", help="time the first photos of each set, photos "
                        "spread through it, or every photo (--real-speed-photos then only "
                        "says whether to time)")
    parser.add_argument("--real-speed-dice", metavar="LOW-HIGH", type=dice_range, default=None,
                        help="time only the photos holding this many dice (e.g. 4-5)")
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
    parser.add_argument(
        "--half", choices=[h.value for h in Half],
        help="read only this half of each real set (benchmarks/halves.py: the face "
        "classifier learns from the train half; report on held-out)"
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
        photos = photos_in(name, args.half) if args.half else load_set(name)
        used = [m for m in chosen if m.only_on in (None, name)]
        results = measure(photo_samples(photos, args.distort), used, args.repeat,
                          args.tell_count)
        blurb = f"{SET_BLURBS[name]}. Each photo read {args.repeat}×."
        if args.half:
            blurb += f" Only the {args.half} half (`benchmarks/halves.py`)."
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
    cross = floor_lines(all_results)
    if cross:
        section = ["", "### Thresholds chosen on one set, read on another", "", *cross]
        out += section
        print("\n".join(section), flush=True)
    real = [name for name in args.sets if name != RENDERED]
    if args.real_speed_photos > 0 and real:
        used = [m for m in chosen if m.only_on is None and not m.told]
        before = sysbench_events_per_s()
        table = {name: real_speed(photo_samples(speed_photos(
            holding(load_set(name), args.real_speed_dice), args.real_speed_photos,
            args.real_speed_pick)), used, args.speed_repeat) for name in real}
        after = sysbench_events_per_s()
        here = (before + after) / 2 if before and after else None
        section = ["", "### Speed on real photos", "",
                   *real_speed_lines(table, args.real_speed_photos, args.speed_repeat, here,
                                     pick=args.real_speed_pick, dice=args.real_speed_dice,
                                     threads=args.threads)]
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
