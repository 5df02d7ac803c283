"""How much the rules engine reads: bounds that keep hostile files small and fast.

Rule-set files and event logs come from outside (a user's file, an SD card that went
bad). Before anything is parsed, :func:`read_text` refuses what is not a regular file
(``/dev/zero``, a FIFO, a folder) and what is larger than the bound; :func:`check_toml`
refuses a dotted key of thousands of parts, which costs the TOML parser time and memory
growing with the square of the parts; :func:`check_tree` then bounds how deep and how
large the parsed data is and how large its integers are (TOML's are 64-bit). Each
problem is a ``ValueError`` whose message says what is too large; the loaders turn it
into their own error naming the file.

>>> check_toml("a.b.c = 1")
>>> check_toml("a" + ".a" * 40_000 + " = 1")
Traceback (most recent call last):
...
ValueError: a dotted key of more than 16 parts
>>> check_tree({"boxes": [{"params": {"n": 2 ** 70}}]})
Traceback (most recent call last):
...
ValueError: boxes[0].params.n: 1180591620717411303424 is past the 64-bit integers TOML allows
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dicetray.rules.files import read_bytes

__all__ = ["LIMITS", "Limits", "check_toml", "check_tree", "read_text"]


@dataclass(frozen=True)
class Limits:
    """The bounds, each with the reason for its size."""

    # The largest built-in rule set (Maxi Yatzy) is under 3 KB; a thousand times that is
    # still parsed in well under a second.
    max_file_bytes: int = 256 * 1024
    # The deepest key a rule set uses is `boxes.params.faces` (3 parts).
    max_key_parts: int = 16
    # Rule sets nest 6 levels (file, boxes, box, params, face sets, a face set);
    # events 3 (list, event, dice).
    max_depth: int = 12
    # Values in one file (a rule set has a few hundred; the event log of a long match of
    # eight players some tens of thousands).
    max_values: int = 200_000
    # Boxes on one sheet (Maxi Yatzy has 20; each box is compared with the others while
    # the sheet is built, so the time grows with the square of this).
    max_boxes: int = 100
    # Options on one rule set, and columns on one sheet.
    max_options: int = 16
    max_columns: int = 16
    # TOML integers are 64-bit; JSON ones here are held to the same.
    int_bits: int = 64
    # An event log of a long match is a few MB at most.
    max_events_bytes: int = 16 * 1024 * 1024
    # A name of a built-in rule set or option, or one part of a path (most file systems
    # allow 255 bytes).
    max_name: int = 255


LIMITS = Limits()


def read_text(path: str | os.PathLike[str], limit: int = LIMITS.max_file_bytes) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes (a BOM is dropped).

    OSError for a file that is missing, not regular or too large (without reading it,
    and without waiting on a FIFO); ValueError for a name with a NUL byte or text that is
    not UTF-8.

    >>> read_text("/dev/zero")
    Traceback (most recent call last):
    ...
    OSError: [Errno 22] not a regular file: '/dev/zero'
    """
    data = read_bytes(path, limit)
    return data.decode("utf-8-sig")  # a byte-order mark (Notepad) is fine


# A key part: bare (not starting inside a longer bare word, so the scan stays linear) or
# quoted; possessive, so a long bare word that is no key is passed over once.
_PART = r"""(?:(?<![A-Za-z0-9_-])[A-Za-z0-9_-]++|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')"""


@functools.cache
def _dotted(parts: int) -> re.Pattern[str]:
    """A key of more than ``parts`` parts: one part, then ``parts`` more after dots."""
    return re.compile(_PART + r"(?:[ \t]*+\.[ \t]*+" + _PART + ")" + "{" + str(parts) + "}")


def check_toml(text: str, limits: Limits = LIMITS) -> None:
    """ValueError when TOML text has a dotted key of more than ``max_key_parts`` parts.

    The scan looks at keys and values alike: a value with that many dots is no rule set's.
    """
    if _dotted(limits.max_key_parts).search(text):
        raise ValueError(f"a dotted key of more than {limits.max_key_parts} parts")


def check_tree(data: Any, limits: Limits = LIMITS) -> None:
    """ValueError when parsed data is nested too deeply, too large, or has integers past
    ``int_bits`` (its message starts with where, as ``boxes[3].params.n``)."""
    low, high = -(2 ** (limits.int_bits - 1)), 2 ** (limits.int_bits - 1) - 1
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    seen = 0
    while stack:
        value, where, depth = stack.pop()
        seen += 1
        if seen > limits.max_values:
            raise ValueError(f"more than {limits.max_values:,} values")
        if depth > limits.max_depth:
            raise ValueError(f"{where}: nested more than {limits.max_depth} levels deep")
        if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
            shown = str(value) if len(str(value)) <= 30 else f"a number of {len(str(value))} digits"
            raise ValueError(f"{where}: {shown} is past the {limits.int_bits}-bit integers "
                             "TOML allows")
        if isinstance(value, Mapping):
            stack.extend((v, f"{where}.{k}" if where else str(k), depth + 1)
                         for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value))
