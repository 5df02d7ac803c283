"""Comparing two versions' saved answers: identical answers pass, and every reading that
differs or that one version lacks is named and fails the comparison."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.same_answers import main


def _saved(path: Path, answers: dict[str, str]) -> str:
    path.write_text("".join(json.dumps({"name": k, "answer": v}) + "\n"
                            for k, v in answers.items()))
    return str(path)


def test_the_same_answers_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = {"a own size": "Reading(status='ok')", "b 1280x960": "Reading(status='unsure')"}
    old, new = _saved(tmp_path / "old.jsonl", answers), _saved(tmp_path / "new.jsonl", answers)
    assert main([old, new]) == 0
    assert "2 readings compared: 0 differ, 0 missing" in capsys.readouterr().out


def test_a_changed_or_lost_reading_is_named_and_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = _saved(tmp_path / "old.jsonl", {"a": "Reading(status='ok')", "b": "x", "c": "y"})
    new = _saved(tmp_path / "new.jsonl", {"a": "Reading(status='unsure')", "b": "x"})
    assert main([old, new]) == 1
    out = capsys.readouterr().out
    assert "a:\n  Reading(status='ok')\n  Reading(status='unsure')" in out
    assert "c: read by one version only" in out
    assert "3 readings compared: 1 differ, 1 missing" in out


def test_one_version_is_not_a_comparison(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main([_saved(tmp_path / "old.jsonl", {"a": "x"})])
