#!/usr/bin/env python3
"""How many numbers the reader decides by, counted alike at any revision: issue 23 asks
for fewer than when it was filed.

Counted in the reader's own modules (``vision/recognizer.py`` before the stages were
split out of it, the stage modules and their settings after): every number in a
:class:`~dicetray.vision.settings.ReaderSettings` field's default (a band of two counts
two), every number in a module's constants, and every number written in a function
other than 0-7, 0.0, 1.0, 2.0 and epsilons (under 0.001). Strings (docstrings, their
examples) hold none. The count is blunt, and the same at every revision: a number that
is a pixel's centre (0.5) counts as one that is a threshold, then as now.

    python3 benchmarks/thresholds.py 86f40eb HEAD     # when the issue was filed; now
    python3 benchmarks/thresholds.py --modules        # each module of the work tree

``WT`` names the work tree.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The reader's own modules once its stages were split out of ``recognizer.py``.
STAGES = ("reader", "finding", "pipscene", "pipfaces", "pipcheck", "opinion", "kinship",
          "verdict", "measure", "focus", "settings")
#: Numbers written in a function that are no threshold by this count.
PLAIN = frozenset({0, 1, 2, 3, 4, 5, 6, 7})
EPSILON = 1e-3


@dataclass(frozen=True)
class Count:
    """The numbers of one module or revision, by where they are written."""

    settings: int = 0
    named: int = 0
    unnamed: int = 0

    @property
    def total(self) -> int:
        return self.settings + self.named + self.unnamed

    def __add__(self, other: Count) -> Count:
        return Count(self.settings + other.settings, self.named + other.named,
                     self.unnamed + other.unnamed)


def numbers(node: ast.AST, plain: bool = False) -> Iterator[int | float]:
    """The numbers written in ``node``, without the plain ones (``plain``).

    >>> list(numbers(ast.parse("f(3, 0.5, 1e-6, 12, True)"), plain=True))
    [0.5, 12]
    """
    for n in ast.walk(node):
        if not isinstance(n, ast.Constant) or type(n.value) not in (int, float):
            continue
        if plain and (n.value in PLAIN or abs(n.value) < EPSILON):
            continue
        yield n.value


def count_source(source: str) -> Count:
    """The numbers a module's ``source`` decides by (see the module's docstring).

    >>> count_source('''
    ... LIMIT = 16
    ... class ReaderSettings:
    ...     reach: float = 1.3
    ...     band: tuple = (0.35, 1.6)
    ... def f(x):
    ...     return x[0] * 0.7 + x[1] / 2.0
    ... ''')
    Count(settings=3, named=1, unnamed=1)
    """
    settings = named = unnamed = 0
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == "ReaderSettings":
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and item.value is not None:
                    settings += len(list(numbers(item.value)))
                else:
                    unnamed += len(list(numbers(item, plain=True)))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            named += len(list(numbers(node.value)))
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            unnamed += len(list(numbers(node, plain=True)))
    return Count(settings, named, unnamed)


def source(rev: str, path: str) -> str | None:
    """The text of ``path`` (from the repository's root) at ``rev`` (``WT``: the work
    tree); None where it is not there."""
    if rev == "WT":
        file = ROOT / path
        return file.read_text() if file.is_file() else None
    shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"],
                           capture_output=True, text=True)
    return shown.stdout if shown.returncode == 0 else None


def reader_modules(rev: str) -> dict[str, str]:
    """The reader's own modules at ``rev``, by path: ``vision/recognizer.py`` where it
    still held the reader (its read function), else the stage modules there."""
    whole = source(rev, "vision/recognizer.py")
    if whole is not None and "\ndef read(" in whole:
        return {"vision/recognizer.py": whole}
    found = {f"vision/{m}.py": source(rev, f"vision/{m}.py") for m in STAGES}
    return {path: text for path, text in found.items() if text is not None}


def count(rev: str) -> dict[str, Count]:
    """Each of the reader's own modules' count at ``rev``."""
    return {path: count_source(text) for path, text in reader_modules(rev).items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("revs", nargs="*", default=["WT"], help="git revisions (WT: the work tree)")
    ap.add_argument("--modules", action="store_true", help="each module's count too")
    args = ap.parse_args(argv)
    print("| revision | modules | settings | named | unnamed | total |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for rev in args.revs:
        per = count(rev)
        if not per:
            print(f"no reader at {rev}", file=sys.stderr)
            return 1
        whole = sum(per.values(), Count())
        print(f"| {rev} | {len(per)} | {whole.settings} | {whole.named} | {whole.unnamed} | "
              f"{whole.total} |")
        if args.modules:
            for path, c in per.items():
                print(f"| {rev} {path} | | {c.settings} | {c.named} | {c.unnamed} | {c.total} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
