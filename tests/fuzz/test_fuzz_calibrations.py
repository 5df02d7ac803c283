"""Calibration files fed hostile input (issue 25, classes 1, 2, 4 and 5): loaded in a
child process under the limits of conftest.py, each loads or is refused with a
CalibrationError; through ``dicetray read --calibration`` each refusal is one line."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

SLOW = settings(max_examples=5, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

GOOD: dict[str, Any] = {
    "version": 1,
    "image_size": [320, 240],
    "tray": [[10, 10], [300, 10], [300, 220], [10, 220]],
    "die_size": 20.0,
}


def _background(width: int = 320, height: int = 240) -> bytes:
    ok, data = cv2.imencode(".png", np.full((height, width, 3), 90, np.uint8))
    assert ok
    return data.tobytes()


def _calibration(folder: Path, name: str, background: bytes | None = None,
                 **fields: Any) -> Path:
    data = {**GOOD, **fields}
    if background is not None:
        data["background"] = "bg.png"
        (folder / "bg.png").write_bytes(background)
    path = folder / name
    path.write_text(json.dumps(data))
    return path


def _cases(root: Path, bomb_png: bytes) -> dict[str, Path]:
    """The issue's cases, each in its own folder (a background file sits beside)."""
    def folder(name: str | bytes) -> Path:
        path = root / os.fsdecode(name)
        path.mkdir()
        return path

    cases = {
        "version-true": _calibration(folder("a"), "c.json", version=True),
        "corners-1e300": _calibration(folder("b"), "c.json",
                                      tray=[[-1e300, -1e300], [1e300, -1e300], [1e300, 1e300]]),
        "bomb-background": _calibration(folder("c"), "c.json", bomb_png),
        "cut-background": _calibration(folder("d"), "c.json", _background()[:-40]),
    }
    path = folder("e") / "long-int.json"
    path.write_text(json.dumps(GOOD)[:-1] + ', "quality": {"q": ' + "9" * 5_000 + "}}")
    cases["long-int"] = path
    path = folder("f") / "past-float.json"
    path.write_text(json.dumps(GOOD).replace('"die_size": 20.0', '"die_size": 1' + "0" * 400))
    cases["past-float"] = path
    path = folder("g") / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    cases["deep"] = path
    os.mkfifo(folder("h") / "fifo.json")
    cases["fifo"] = root / "h" / "fifo.json"
    cases["device"] = Path("/dev/zero")
    with open(folder("i") / "huge.json", "wb") as handle:
        handle.truncate(20 * 1024 * 1024)
    cases["huge"] = root / "i" / "huge.json"
    return cases


def test_every_seed_of_the_issue_is_refused_cleanly(load_each: Callable, bomb_png: bytes,
                                                    tmp_path: Path) -> None:
    cases = _cases(tmp_path, bomb_png)
    outcomes = load_each("calibration", [str(p) for p in cases.values()])
    assert [o["outcome"] for o in outcomes] == ["error"] * len(cases), outcomes
    why = {name: o["message"] for name, o in zip(cases, outcomes, strict=True)}
    assert "unsupported version True" in why["version-true"]
    assert "lies too far outside the image" in why["corners-1e300"]
    assert "a number of over 4,300 digits" in why["long-int"]
    assert "die_size 10000000000000000000... (401 characters)" in why["past-float"]
    assert "nested too deeply" in why["deep"]
    assert "too large (32000x32000 pixels declared" in why["bomb-background"]
    assert "not a complete image" in why["cut-background"]
    assert "not a regular file" in why["fifo"] and "not a regular file" in why["device"]


def test_a_background_beside_a_name_that_is_not_utf8_loads(load_each: Callable,
                                                           tmp_path: Path) -> None:
    folder = tmp_path / os.fsdecode(b"tray\xff")
    folder.mkdir()
    path = _calibration(folder, "c.json", _background())
    assert [o["outcome"] for o in load_each("calibration", [path])] == ["ok"]


@pytest.mark.parametrize("case", ["version-true", "corners-1e300", "bomb-background",
                                  "long-int", "past-float", "deep", "fifo"])
def test_read_with_a_bad_calibration_is_one_error_line(dicetray: Callable, bomb_png: bytes,
                                                       tmp_path: Path, case: str) -> None:
    path = _cases(tmp_path, bomb_png)[case]
    (tmp_path / "roll.png").write_bytes(_background())
    done = dicetray("read", "--calibration", str(path), "roll.png")
    assert done.out == ""
    done.assert_one_error_line(str(path))


_ANY = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2 ** 1100), 2 ** 1100),
              st.floats(), st.text(max_size=6)),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=20,
)
_FIELDS = ["version", "image_size", "tray", "ledge", "homography", "topdown_size",
           "die_size", "die_color", "pip_color", "background", "camera", "quality"]


@SLOW
@given(changes=st.lists(st.dictionaries(st.sampled_from(_FIELDS), _ANY, max_size=3),
                        min_size=1, max_size=30))
@example(changes=[{"version": True}, {"die_size": 10 ** 400},
                  {"tray": [[-1e300, 0], [1e300, 0], [0, 1e300]]}])
def test_random_calibrations_load_or_are_refused_cleanly(
    load_each: Callable, tmp_path_factory: pytest.TempPathFactory,
    changes: list[dict[str, Any]],
) -> None:
    folder = tmp_path_factory.mktemp("calibrations")
    paths = []
    for index, change in enumerate(changes):
        path = folder / f"c{index}.json"
        path.write_text(json.dumps({**GOOD, **change}))
        paths.append(str(path))
    outcomes = load_each("calibration", paths)
    assert {o["outcome"] for o in outcomes} <= {"ok", "error"}
