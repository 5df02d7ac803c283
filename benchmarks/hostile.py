"""Time and peak memory of ``dicetray`` fed the hostile input of issue 25.

Builds each case in a temporary folder, runs the command ``--repeat`` times in a child
process under an address-space limit (``--limit-mb``, 2048 by default) and a timeout, and
prints a Markdown table: the exit status, whether the answer was one ``Error:`` line (or
the lines a batch gives), the median wall time and the largest peak resident memory.
``--python`` picks the interpreter (and so the dicetray installed for it), to measure
another checkout the same way::

    python3 benchmarks/hostile.py --repeat 5
    python3 benchmarks/hostile.py --repeat 5 --python /path/to/other/venv/bin/python

>>> folder = Path(tempfile.mkdtemp())
>>> CASES["a dotted key of 40,000 parts"](folder), (folder / "dotted.toml").stat().st_size
(['rules', 'show', 'dotted.toml'], 80006)
"""

from __future__ import annotations

import argparse
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

CLI = "from dicetray.firmware.cli import main; main(prog_name='dicetray')"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def _bomb(folder: Path) -> list[str]:
    side = 32_000
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (side + 1) * 64)
    (folder / "bomb.png").write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
                                      + _chunk(b"IDAT", rows) + _chunk(b"IEND", b""))
    return ["read", "bomb.png"]


PHOTO = """
import sys, cv2
from dicetray.vision.frames import SimulatedSource
with SimulatedSource(seed=7) as source:
    source.tray.roll([2, 3, 3, 5, 6])
    for _ in source.frames(limit=30):
        pass
    cv2.imwrite(sys.argv[1], source.capture())
"""


def _photo(folder: Path) -> bytes:
    """A rendered photo of five dice as JPEG, made in a child process (this one stays
    small: a child's peak memory counts its parent's at the time it was started)."""
    subprocess.run([sys.executable, "-c", PHOTO, str(folder / "photo.jpg")], check=True)
    return (folder / "photo.jpg").read_bytes()


def _normal(folder: Path) -> list[str]:
    (folder / "roll.jpg").write_bytes(_photo(folder))
    return ["read", "roll.jpg"]


def _half(folder: Path) -> list[str]:
    data = _photo(folder)
    (folder / "half.jpg").write_bytes(data[: len(data) // 2])
    return ["read", "half.jpg"]


def _text(name: str, text: str, args: list[str]) -> Callable[[Path], list[str]]:
    def build(folder: Path) -> list[str]:
        (folder / name).write_text(text)
        return args

    return build


BOX = '{{ id = "b{0}", kind = "chance", names = {{ en = "B{0}" }} }}'
CASES: dict[str, Callable[[Path], list[str]]] = {
    "a normal photo (5 dice)": _normal,
    "a PNG declaring 32000x32000": _bomb,
    "a photo cut in half": _half,
    "a dotted key of 40,000 parts": _text("dotted.toml", "a" + ".a" * 40_000 + " = 1\n",
                                          ["rules", "show", "dotted.toml"]),
    "4,000 boxes in 240 KB": _text(
        "boxes.toml",
        'extends = "yahtzee"\nboxes = [' + ", ".join(BOX.format(i) for i in range(4_000)) + "]\n",
        ["rules", "show", "boxes.toml"]),
    "a full house of 12 groups": _text(
        "twelve.toml",
        'extends = "yahtzee"\ndice = 12\nfaces = 20\n[[boxes]]\nid = "full-house"\n'
        'params = { groups = [1,1,1,1,1,1,1,1,1,1,1,1] }\n',
        ["rules", "score", "twelve.toml", "full-house", *map(str, range(1, 13))]),
    "/dev/zero as a rule set": lambda folder: ["rules", "show", "/dev/zero"],
    "--size 20000x20000": lambda folder: ["calibrate", "--source", "sim", "--yes", "--size",
                                          "20000x20000", "--out", "c.json"],
}


def run(python: str, args: list[str], folder: Path, limit_mb: int,
        timeout: float) -> tuple[int | str, float, float, str]:
    """(exit status or "timeout"/"signal N", seconds, peak RSS MB, the last line).

    The limit is set by a shell that then becomes the command (no Python ``preexec_fn``,
    so the child is spawned small and its peak memory is its own).
    """
    limited = ["/bin/sh", "-c", 'ulimit -v "$0" && exec "$@"', str(limit_mb * 1024),
               python, "-c", CLI, *args]
    with tempfile.TemporaryFile() as output:
        start = time.perf_counter()
        child = subprocess.Popen(limited, cwd=folder, stdout=output, stderr=output)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
                os.wait4(child.pid, 0)
                return "timeout", time.perf_counter() - start, float("nan"), ""
            time.sleep(0.005)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        lines = output.read().decode("utf-8", "replace").splitlines()
    code = child.returncode
    exit_status: int | str = code if code >= 0 else f"signal {-code}"
    last = "traceback" if any(line.startswith("Traceback") for line in lines) else (
        lines[-1] if lines else "")
    return exit_status, seconds, usage.ru_maxrss / 1024, last


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--limit-mb", type=int, default=2048)
    parser.add_argument("--timeout", type=float, default=60)
    options = parser.parse_args(argv)
    print("| case | exit | median s | peak RSS MB | last line |")
    print("| --- | --- | --- | --- | --- |")
    for name, build in CASES.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            args = build(folder)
            results = [run(options.python, args, folder, options.limit_mb, options.timeout)
                       for _ in range(options.repeat)]
        statuses = {r[0] for r in results}
        median = statistics.median(r[1] for r in results)
        peak = max(r[2] for r in results)
        last = results[-1][3][:90].replace("|", "\\|")
        print(f"| {name} | {', '.join(map(str, statuses))} | {median:.2f} | {peak:.0f} | "
              f"{last} |", flush=True)


if __name__ == "__main__":
    main()
