#!/usr/bin/env python3
"""Two (or more) versions of the reader timed on the same real photos, taking turns, so a
machine whose speed drifts over minutes slows each alike: the measure of a change.

Each version is a Python interpreter whose ``dicetray`` is the checkout to time (a venv
made in that checkout: ``python3 -m venv --system-site-packages .venv && .venv/bin/pip
install --no-deps -e .``). Per round each reads, in a process of its own, the same photos
letterboxed to the camera's 1280×960 (:func:`benchmarks.vision.letterbox`), each photo
``--repeat`` times (median kept), and prints the median over the photos per set.

    python3 benchmarks/alternate.py /work/old/.venv/bin/python .venv/bin/python \
        --rounds 3 --pick spread --threads 1
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = ("matteop65", "nell-byler")


def child(photos: int, pick: str, repeat: int, threads: int) -> dict[str, float]:
    """Median ms per photo per set, read by the ``dicetray`` this interpreter imports."""
    sys.path.insert(0, str(ROOT))
    import cv2

    from benchmarks.datasets import load_set
    from benchmarks.vision import REAL_SIZE, letterbox, speed_photos
    from dicetray.vision import read

    cv2.setNumThreads(threads)
    out = {}
    for name in SETS:
        frames = [letterbox(cv2.imread(str(p.path)), REAL_SIZE)
                  for p in speed_photos(load_set(name), photos, pick)]
        read(frames[0])  # the networks loaded
        per_photo = []
        for frame in frames:
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                read(frame)
                times.append((time.perf_counter() - start) * 1000.0)
            per_photo.append(statistics.median(times))
        out[name] = statistics.median(per_photo)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("pythons", nargs="+", help="an interpreter per version to time")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--photos", type=int, default=20, help="photos per set")
    parser.add_argument("--pick", choices=("first", "spread", "all"), default="spread")
    parser.add_argument("--repeat", type=int, default=3, help="reads per photo (median kept)")
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.photos, args.pick, args.repeat, args.threads)))
        return 0
    rows: dict[str, list[dict[str, float]]] = {p: [] for p in args.pythons}
    for _ in range(args.rounds):
        for python in args.pythons:
            done = subprocess.run(
                [python, __file__, "x", "--child", "--photos", str(args.photos), "--pick",
                 args.pick, "--repeat", str(args.repeat), "--threads", str(args.threads)],
                check=True, capture_output=True, text=True)
            rows[python].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"median ms per photo at 1280×960 ({args.photos} photos, {args.pick}, "
          f"{args.threads} thread(s)), round by round:")
    for python, runs in rows.items():
        cells = "; ".join(f"{name} " + ", ".join(f"{r[name]:.1f}" for r in runs)
                          for name in SETS)
        print(f"  {python}: {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
