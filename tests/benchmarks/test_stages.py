"""The stage timing script: one row per stage, a positive median for each frame size."""

from __future__ import annotations

import re

import pytest

from benchmarks.stages import SIZES, main, median_ms


def test_prints_a_row_per_stage_with_a_time_per_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--frames", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = lines[2:]
    assert [r.split(" | ")[0].strip("| ") for r in rows] == [
        "whole read", "detector (resize + network + peaks)", "classifier, each die once",
        "classifier, each die at 4 turns"]
    for row in rows:
        times = [float(t) for t in re.findall(r"\| (\d+\.\d) ", row + " ")]
        assert len(times) == len(SIZES) and all(t > 0 for t in times)


def test_the_median_is_of_the_second_run() -> None:
    calls: list[int] = []
    assert median_ms([None, None], lambda i, f: calls.append(i)) >= 0  # type: ignore[list-item]
    assert calls == [0, 0, 1, 1]
