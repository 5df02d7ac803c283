"""``dicetray run --config`` fed the TOML files that broke the rule loader (issue 25,
classes 2 and 4): each is one ``Error:`` line, status 1, under the limits of conftest.py,
before the tray starts."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

CASES = {
    "dotted.toml": ("a" + ".a" * 40_000 + " = 1\n", "a dotted key of more than 16 parts"),
    "nested.toml": ("x = " + "[" * 500 + "]" * 500 + "\n", "nested too deeply"),
    "long-int.toml": ("x = " + "9" * 5_000 + "\n", "a number of over 4,300 digits"),
    "int-65-bits.toml": ("x = 36893488147419103232\n",
                         "x: 36893488147419103232 is past the 64-bit"),
}


@pytest.mark.parametrize("name", [*CASES, "fifo", "/dev/zero"])
def test_a_hostile_config_is_one_error_line(dicetray: Callable, tmp_path: Path,
                                            name: str) -> None:
    if name in CASES:
        (tmp_path / name).write_text(CASES[name][0])
        needle = CASES[name][1]
    elif name == "fifo":
        os.mkfifo(tmp_path / name)
        needle = "not a regular file"
    else:
        needle = "not a regular file"
    done = dicetray("run", "--simulate", "--port", "0", "--config", name)
    assert done.out == ""
    done.assert_one_error_line(f"{name}: cannot be read ({needle}")
