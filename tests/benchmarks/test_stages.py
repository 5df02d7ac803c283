"""The stage timing script: one row per stage, a positive median for each frame size and
network engine, the engines taking turns on each frame."""

from __future__ import annotations

import os
import re

import pytest

from benchmarks.datasets import load_set
from benchmarks.stages import READER_STAGES, SIZES, main, median_ms, photo_stages, windows_scaled_ms
from dicetray.vision import pipscene
from dicetray.vision import reader as reader_module
from dicetray.vision.networks import ENGINE_VARIABLE, ENGINES
from dicetray.vision.render import render_dataset


def test_prints_a_row_per_stage_with_a_time_per_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--frames", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = lines[2:]
    assert [r.split(" | ")[0].strip("| ") for r in rows] == [
        "whole read", "detector (resize + network + peaks)",
        "detector, without the mirrored pass", "pip windows scaled (within the whole read)",
        "classifier, each die once", "classifier, each die in 8 views"]
    for row in rows:
        times = [float(t) for t in re.findall(r"\| (\d+\.\d) ", row + " ")]
        assert len(times) == len(SIZES) * len(ENGINES) and all(t >= 0 for t in times)
        assert "windows" in row or all(t > 0 for t in times)


def test_the_windows_are_timed_inside_a_whole_read_and_the_resize_is_put_back() -> None:
    plain = pipscene.resize
    frame = render_dataset(1, seed=3, hard=False, dice=5, image_size=(640, 480))
    medians = windows_scaled_ms([next(iter(frame))[0]])
    assert sorted(medians) == sorted(ENGINES) and all(ms > 0 for ms in medians.values())
    assert pipscene.resize is plain


def test_the_median_is_of_the_second_run_and_the_engines_take_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENGINE_VARIABLE, "opencv")
    calls: list[tuple[int, str]] = []

    def run(i: int, frame: object) -> None:
        calls.append((i, os.environ[ENGINE_VARIABLE]))

    medians = median_ms([None, None], run)  # type: ignore[list-item]
    assert sorted(medians) == sorted(ENGINES) and all(ms >= 0 for ms in medians.values())
    assert calls == [(i, e) for i in (0, 1) for e in ENGINES for _ in range(2)]
    assert os.environ[ENGINE_VARIABLE] == "opencv"  # the engine chosen before, again


def test_on_real_photos_each_stage_is_timed_within_whole_reads_and_put_back() -> None:
    plain = {name: getattr(reader_module, name) for name in ("find", "analyse", "verdict")}
    weigh = reader_module.Opinion.weigh
    row = photo_stages(load_set("nell-byler")[:2], repeat=1)
    stages = [stage for stage, _names in READER_STAGES]
    assert list(row) == ["whole read", *stages, "standard method (Golsteyn)"]
    assert all(median > 0 and mean > 0 for median, mean in row.values())
    # the stages are parts of the read: their mean times add up to no more than its own
    assert sum(row[stage][1] for stage in stages) <= row["whole read"][1]
    assert {name: getattr(reader_module, name) for name in plain} == plain
    assert reader_module.Opinion.weigh is weigh
