"""Feeds inputs to one loader in a child process and prints one JSON line per input.

Run by the fuzz tests under a memory limit and a timeout (see conftest.py):
``python worker.py LOADER PATH...``, LOADER one of ``ruleset``, ``calibration``,
``events``, ``image``. A deliberate error of the package is ``"error"``; anything else
that escapes is ``"crash"`` with its type, and the worker goes on with the next input.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def _load(kind: str, path: str) -> Any:
    if kind == "ruleset":
        from dicetray.rules import load_ruleset

        return load_ruleset(path)
    if kind == "calibration":
        from dicetray.vision.calibration import Calibration

        return Calibration.load(path)
    if kind == "events":
        from dicetray.rules.events import loads

        with open(path, "rb") as handle:
            return loads(handle.read().decode("utf-8", "replace"))
    if kind == "image":
        from dicetray.vision.frames import read_image

        return read_image(path)
    raise SystemExit(f"unknown loader {kind!r}")


def main(kind: str, paths: list[str]) -> int:
    from dicetray.rules import RulesError
    from dicetray.vision.errors import VisionError

    family = RulesError if kind in ("ruleset", "events") else VisionError
    crashed = 0
    for path in paths:
        try:
            _load(kind, path)
            outcome = {"outcome": "ok"}
        except family as exc:
            outcome = {"outcome": "error", "type": type(exc).__name__, "message": str(exc)}
        except BaseException as exc:
            crashed += 1
            outcome = {"outcome": "crash", "type": type(exc).__name__,
                       "message": str(exc)[:300]}
        outcome["path"] = os.fsencode(path).decode("utf-8", "backslashreplace")
        print(json.dumps(outcome), flush=True)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
