"""Saving every reading's outcome and comparing two versions': real readings of rendered
frames are saved both ways, a changed outcome is counted and named, and a group that
names no kind of frame is refused before any reading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.outcomes import main


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_saved_outcomes_are_each_frame_read_untold_and_told(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a.jsonl"
    assert main(["save", str(out), "hard:7:3"]) == 0
    rows = _rows(out)
    assert [(r["frame"], r["way"]) for r in rows] == [
        (f"frame {i}", way) for i in range(3) for way in ("untold", "told")]
    assert {r["outcome"] for r in rows} <= {"right", "refused", "wrong"}
    for r in rows:  # an answer is right exactly when its values are the truth's
        if r["outcome"] == "wrong":
            assert sorted(r["values"]) != sorted(r["truth"])
    main(["compare", str(out), str(out)])
    assert "6 readings compared, 0 changed" in capsys.readouterr().out


def test_a_changed_outcome_is_counted_and_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def row(frame: str, outcome: str, values: list[int]) -> str:
        return json.dumps({"group": "g", "frame": frame, "way": "untold", "outcome": outcome,
                           "values": values, "truth": [6], "reason": ""}) + "\n"

    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    old.write_text(row("a", "refused", []) + row("b", "right", [6]))
    new.write_text(row("a", "wrong", [3]) + row("b", "right", [6]))
    main(["compare", str(old), str(new)])
    lines = capsys.readouterr().out.splitlines()
    assert {"| g | untold | 1 / 1 / 0 | 1 / 0 / 1 **changed** |",
            "  g a untold: refused [] '' -> wrong [3] '' (true [6])",
            "2 readings compared, 1 changed"} <= set(lines)


def test_a_group_of_no_known_kind_is_refused_before_reading(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["save", str(tmp_path / "x.jsonl"), "hard:7:1", "photos:nell-byler"])
    assert not (tmp_path / "x.jsonl").exists()
