"""``dicetray teach``, ``read --teaching``, and the finds ``read`` leaves out, shown."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
from click.testing import CliRunner

from dicetray.firmware.cli import main
from dicetray.vision.sketch import SketchDie, sketch, spots
from dicetray.vision.teaching import Teaching


def _photo(tmp_path: Path, name: str, dice: list[SketchDie]) -> str:
    path = tmp_path / name
    cv2.imwrite(str(path), sketch(dice))
    return str(path)


def test_the_players_confirm_correct_and_skip_dice(tmp_path: Path) -> None:
    photo = _photo(tmp_path, "roll.png", [SketchDie(3, 500, 400, 90.0, 10),
                                          SketchDie(5, 900, 400, 90.0, 30),
                                          SketchDie(2, 1300, 400, 90.0, 60)])
    target = tmp_path / "teaching.json"
    # keep the first die's value, correct the second to 6 (as if misread), skip the third
    result = CliRunner().invoke(main, ["teach", "--teaching", str(target), photo],
                                input="\n6\ns\n")
    assert result.exit_code == 0, result.output
    assert "3 dice found" in result.output and "2 dice learnt, 2 in all" in result.output
    learnt = Teaching.load(target)
    assert sorted(e.value for e in learnt.examples) == [3, 6]
    # a second session adds to the same file
    result = CliRunner().invoke(main, ["teach", "--teaching", str(target), photo],
                                input="\n\n\n")
    assert "3 dice learnt, 5 in all" in result.output


def test_an_answer_that_is_no_value_is_asked_again(tmp_path: Path) -> None:
    photo = _photo(tmp_path, "one.png", [SketchDie(4, 500, 400, 90.0, 10)])
    result = CliRunner().invoke(main, ["teach", "--teaching", str(tmp_path / "t.json"), photo],
                                input="9\n4\n")
    assert "a die shows 1 to 6" in result.output and "1 dice learnt" in result.output


def test_a_damaged_teaching_file_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    photo = _photo(tmp_path, "one.png", [SketchDie(4, 500, 400, 90.0, 10)])
    target = tmp_path / "teaching.json"
    target.write_text('{"kind": "dicetray-teaching", "version": 1, "examples": [], '
                      '"checksum": "0"}')
    before = target.read_text()
    for args in (["teach", "--teaching", str(target), photo],
                 ["read", "--teaching", str(target), photo]):
        result = CliRunner().invoke(main, args, input="\n")
        assert result.exit_code != 0 and "checksum" in result.output
    assert target.read_text() == before


def test_read_with_a_teaching_reads_the_dice_the_players_confirmed(tmp_path: Path) -> None:
    sixes = [SketchDie(6, 500 + 300 * k, 400, 90.0, 20 * k, face=spots(6, columns=0.6))
             for k in range(3)]
    target = tmp_path / "teaching.json"
    CliRunner().invoke(main, ["teach", "--teaching", str(target),
                              _photo(tmp_path, "sixes.png", sixes)], input="6\n6\n6\n")
    lone = _photo(tmp_path, "lone.png", [SketchDie(6, 600, 500, 90.0, 30,
                                                   face=spots(6, columns=0.6)),
                                         SketchDie(3, 900, 500, 90.0, 10)])
    assert sorted(e.value for e in Teaching.load(target).examples) == [6, 6, 6]
    untaught = json.loads(CliRunner().invoke(main, ["read", "--json", lone]).output)
    taught = json.loads(CliRunner().invoke(main, ["read", "--json", "--teaching", str(target),
                                                  lone]).output)
    # untaught, a classifier that learnt other dice may call the 6 a 4 (refused, never
    # misread); what teaching then changes is tests/vision/test_teaching.py's, with such
    # a classifier passed in
    assert untaught["status"] == "unsure" or sorted(d["value"] for d in untaught["dice"]) == [3, 6]
    assert taught["status"] == "ok" and sorted(d["value"] for d in taught["dice"]) == [3, 6]


def test_read_json_and_annotate_show_the_finds_left_out_with_why(tmp_path: Path) -> None:
    from dicetray.vision.annotate import LEFT_OUT_COLOUR
    from dicetray.vision.sketch import Fixture, FixtureKind

    clips = [Fixture(FixtureKind.CLIP, 1500, 300, 70, 20, (30, 80, 160))]
    path = tmp_path / "clips.png"
    cv2.imwrite(str(path), sketch([SketchDie(3, 500, 400, 90.0, 10),
                                   SketchDie(5, 800, 500, 90.0, 35),
                                   SketchDie(4, 1100, 700, 90.0, 20)], fixtures=clips))
    out = tmp_path / "clips.annotated.png"
    result = CliRunner().invoke(main, ["read", "--json", "--annotate", str(out), str(path)])
    data = json.loads(result.output)
    assert data["status"] == "ok" and sorted(d["value"] for d in data["dice"]) == [3, 4, 5]
    assert {"x", "y", "size", "why"} == set(data["left_out"][0])
    clip = next(f for f in data["left_out"] if abs(f["x"] - 1500) < 40)
    assert clip["why"] == "unlike"
    drawn = cv2.imread(str(out))
    assert (drawn == LEFT_OUT_COLOUR).all(axis=2).any()  # its dashed outline
