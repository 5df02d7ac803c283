#!/usr/bin/env python3
"""Every reading's outcome over many kinds of frame, saved by one version of the reader and
compared with another's: what a change to the reader gains and costs, frame by frame.

A group of frames is named on the command line:

- ``real:SET``: every photo of a shared set, whole, at its own size;
- ``cut:SET:V``: every photo of a shared set cut through one die, the share ``V`` of it
  left inside the frame (as ``benchmarks/cut_photos.py``; a refusal is right);
- ``tray:SEED:ROLLS[:V]``: ``ROLLS`` tray views of every dice style from ``SEED`` on (as
  ``benchmarks/tray_view.py``), with ``V`` cut through one die (a refusal is right);
- ``crowd:SEED:ROLLS``: the same with large pips crowded to the middle (``--pip-diameter
  0.17 --pip-spacing 0.19``);
- ``hard:SEED:N``: ``render_dataset(N, seed=SEED, hard=True)`` at 640x480 (a frame with a
  die cocked, blurred or cut is right refused).

Each frame is read without and with the count of its dice. Save one version's outcomes
with the interpreter whose ``dicetray`` is that checkout, then compare two files::

    /work/old/.venv/bin/python benchmarks/outcomes.py save /tmp/old.jsonl real:nell-byler hard:7:400
    python3 benchmarks/outcomes.py save /tmp/new.jsonl real:nell-byler hard:7:400
    python3 benchmarks/outcomes.py compare /tmp/old.jsonl /tmp/new.jsonl

``compare`` prints right / refused / silently wrong per group, untold and told, before and
after, and every reading whose outcome changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

WAYS = ("untold", "told")
#: The kinds of group, each the first part of a group's name.
KINDS = ("real", "cut", "tray", "crowd", "hard")
#: How far every die but the cut one stays from the edge of a cut real photo, a share of
#: its box's side (as ``benchmarks/cut_photos.py``: matteop65's boxes frame the top face).
CUT_MARGIN = 0.25
#: The crowded pips of ``crowd:`` groups: diameter and corner spacing, shares of the edge.
CROWDED = (0.17, 0.19)


def frames(group: str) -> Iterator[tuple[str, Any, tuple[int, ...], bool]]:
    """(label, frame, true values, whether a refusal is right) for each frame of ``group``."""
    import cv2

    kind, *args = group.split(":")
    if kind in ("real", "cut"):
        from benchmarks.datasets import load_set
        from benchmarks.tray_view import cut_through
        from training.evaluate import boxes

        outlined = boxes(args[0]) if kind == "cut" else {}
        for photo in load_set(args[0]):
            frame = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if frame is None:
                raise OSError(f"cannot decode {photo.path}")
            if kind == "cut":
                frame = cut_through(frame, [b[:4] for b in outlined[photo.path]],
                                    float(args[1]), CUT_MARGIN)
                if frame is None:
                    continue
            yield photo.name, frame, tuple(photo.values), kind == "cut"
    elif kind in ("tray", "crowd"):
        from benchmarks.tray_view import PipLook, cut_through, shot
        from dicetray.vision.scene import STYLES, tray_view

        seed, rolls = int(args[0]), int(args[1])
        share = float(args[2]) if len(args) > 2 else 0.0
        look = PipLook(None, *CROWDED) if kind == "crowd" else PipLook()
        for style in STYLES:
            for s in range(seed, seed + rolls):
                frame, truth = shot(look.on(tray_view(s, style)))
                if share:
                    frame = cut_through(frame, [d.bbox for d in truth.dice], share)
                    if frame is None:
                        continue
                yield f"{style} {s}", frame, tuple(truth.values), bool(share)
    elif kind == "hard":
        from dicetray.vision.render import render_dataset

        for i, (frame, truth) in enumerate(render_dataset(
                int(args[1]), seed=int(args[0]), hard=True, image_size=(640, 480))):
            yield f"frame {i}", frame, tuple(truth.values), not truth.readable
    else:
        raise ValueError(f"no group kind {kind!r} ({', '.join(KINDS)})")


def save(path: Path, groups: list[str]) -> None:
    """Read every frame of ``groups`` both ways and write one line per reading."""
    import cv2

    from benchmarks.metrics import outcome
    from dicetray.vision import read

    cv2.setNumThreads(1)
    with path.open("w") as out:
        for group in groups:
            for label, frame, truth, refuse in frames(group):
                for way in WAYS:
                    r = read(frame, dice=len(truth)) if way == "told" else read(frame)
                    out.write(json.dumps({
                        "group": group, "frame": label, "way": way,
                        "outcome": outcome(r.status, r.values, truth, refuse),
                        "values": list(r.values), "truth": list(truth),
                        "reason": r.reason}) + "\n")
                out.flush()


def _load(path: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    rows = (json.loads(line) for line in path.read_text().splitlines() if line)
    return {(r["group"], r["frame"], r["way"]): r for r in rows}


def compare(before: Path, after: Path) -> int:
    """Print the two files' outcomes side by side; the number of readings that changed."""
    old, new = _load(before), _load(after)
    shared = [k for k in old if k in new]  # the readings both files hold
    counts = [Counter((k[0], k[2], rows[k]["outcome"]) for k in shared) for rows in (old, new)]
    print("| group | way | before | after |\n| --- | --- | --- | --- |")
    for group in dict.fromkeys(k[0] for k in shared):
        for way in WAYS:
            cells = [" / ".join(str(c[group, way, o]) for o in ("right", "refused", "wrong"))
                     for c in counts]
            mark = "" if cells[0] == cells[1] else " **changed**"
            print(f"| {group} | {way} | {cells[0]} | {cells[1]}{mark} |")
    changed = 0
    for key in shared:
        a, b = old[key], new[key]
        if (a["outcome"], a["values"]) != (b["outcome"], b["values"]):
            changed += 1
            print(f"  {' '.join(key)}: {a['outcome']} {a['values']} {a['reason']!r} -> "
                  f"{b['outcome']} {b['values']} {b['reason']!r} (true {b['truth']})")
    print(f"{len(shared)} readings compared, {changed} changed")
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save", help="read the groups and save every outcome")
    s.add_argument("out", type=Path)
    s.add_argument("groups", nargs="+")
    c = sub.add_parser("compare", help="compare two saved files")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    if args.command == "save":
        for group in args.groups:  # a wrong name fails before an hour of reading
            if group.split(":")[0] not in KINDS:
                ap.error(f"no group kind in {group!r} ({', '.join(KINDS)})")
        save(args.out, args.groups)
        return 0
    compare(args.before, args.after)
    return 0


if __name__ == "__main__":
    sys.exit(main())
