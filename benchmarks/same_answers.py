#!/usr/bin/env python3
"""Whether two versions of the reader give exactly the same answers: every photo of both
shared sets at its own size and letterboxed to the camera's 1280×960
(:func:`benchmarks.vision.letterbox`), and hard rendered frames, each read by each version
(the letterboxed photos and the rendered frames also told their number of dice), their
whole :class:`~dicetray.vision.reading.Reading` compared (every die's and every left-out
find's numbers at full precision, status and reason; not the time taken).

Each version is a Python interpreter whose ``dicetray`` is the checkout to compare (as in
:mod:`benchmarks.alternate`), or a file of answers one saved earlier (``--save``):

    python3 benchmarks/same_answers.py /work/old/.venv/bin/python .venv/bin/python
    /work/old/.venv/bin/python benchmarks/same_answers.py --save /tmp/old.jsonl
    python3 benchmarks/same_answers.py /tmp/old.jsonl .venv/bin/python

``--threads N`` reads with OpenCV (and so the reader's networks) on N threads (1 unless
told): the reader answers the same on any number of cores, and this checks it.

Prints how many readings were compared and each one that differs; exits 1 if any does.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = ("matteop65", "nell-byler")


def _frames(renders: int, seed: int) -> Iterator[tuple[str, object, int | None]]:
    """(name, frame, dice told or None) for every reading compared."""
    import cv2

    from benchmarks.datasets import load_set
    from benchmarks.vision import REAL_SIZE, letterbox
    from dicetray.vision.render import render_dataset

    for name in SETS:
        for photo in load_set(name):
            frame = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if frame is None:
                raise OSError(f"cannot decode {photo.path}")
            where = f"{photo.set}/{photo.name}"
            yield f"{where} own size", frame, None
            boxed = letterbox(frame, REAL_SIZE)
            yield f"{where} 1280x960", boxed, None
            yield f"{where} 1280x960 dice={photo.n_dice}", boxed, photo.n_dice
    for i, (frame, truth) in enumerate(render_dataset(renders, seed=seed, hard=True)):
        where = f"render_dataset({renders}, seed={seed}) frame {i}"
        yield where, frame, None
        yield f"{where} dice={len(truth.values)}", frame, len(truth.values)


def save(out: Path, renders: int, seed: int, threads: int = 1) -> None:
    """Write each reading's full answer (its repr without the time taken) as a JSON line."""
    sys.path.insert(0, str(ROOT))
    import cv2

    from dicetray.vision import read

    cv2.setNumThreads(threads)
    with out.open("w") as f:
        for name, frame, dice in _frames(renders, seed):
            reading = dataclasses.replace(read(frame, dice=dice), ms=0.0)
            f.write(json.dumps({"name": name, "answer": repr(reading)}) + "\n")


def _load(path: Path) -> dict[str, str]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {row["name"]: row["answer"] for row in rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("versions", nargs="*",
                        help="two interpreters (or saved answers, .jsonl) to compare")
    parser.add_argument("--save", type=Path, help="save this interpreter's answers here")
    parser.add_argument("--renders", type=int, default=200, help="rendered frames")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=1, help="OpenCV's threads")
    args = parser.parse_args(argv)
    if args.save:
        save(args.save, args.renders, args.seed, args.threads)
        return 0
    if len(args.versions) != 2:
        parser.error("give two versions to compare (or --save FILE)")
    answers = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, version in enumerate(args.versions):
            if version.endswith(".jsonl"):
                answers.append(_load(Path(version)))
                continue
            out = Path(tmp) / f"{i}.jsonl"
            subprocess.run([version, __file__, "--save", str(out), "--renders",
                            str(args.renders), "--seed", str(args.seed), "--threads",
                            str(args.threads)], check=True)
            answers.append(_load(out))
    a, b = answers
    differ = [name for name in a if name in b and a[name] != b[name]]
    missing = sorted(set(a) ^ set(b))
    for name in differ:
        print(f"{name}:\n  {a[name]}\n  {b[name]}")
    for name in missing:
        print(f"{name}: read by one version only")
    print(f"{len(a)} readings compared: {len(differ)} differ, {len(missing)} missing")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
