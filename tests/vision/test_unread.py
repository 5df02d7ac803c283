"""Every die an unsure reading doubts is shown: the dice seen but not read (``unread``, with
where and why) and the dice read in doubt (their ``problem``), in the reading, its JSON and
its annotated copy, not only the one die the roll's reason names."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from dicetray.firmware.cli import main
from dicetray.vision import read
from dicetray.vision.annotate import UNSURE_COLOUR, annotate
from dicetray.vision.reading import kind_of
from dicetray.vision.render import render_dataset

#: Hard rendered frames (seed 2026, 640x480) with dice smeared by motion: the 11th one
#: die, the 83rd two (and a third die read in doubt).
SMEARED = (10, 82)


@pytest.fixture(scope="module")
def frames() -> dict[int, tuple[np.ndarray, object]]:
    rendered = render_dataset(max(SMEARED) + 1, seed=2026, hard=True, image_size=(640, 480))
    return {i: shot for i, shot in enumerate(rendered) if i in SMEARED}


@pytest.mark.parametrize("index", SMEARED)
def test_every_smeared_die_is_shown_where_it_is_with_why(frames, index: int) -> None:
    frame, truth = frames[index]
    smeared = [d for d in truth.dice if d.blurred]
    roll = read(frame)
    assert not roll.ok and smeared
    for die in smeared:
        near = [u for u in roll.unread
                if math.hypot(u.x - die.x, u.y - die.y) < 0.5 * truth.die_size]
        assert [kind_of(u.problem) for u in near] == ["blur"], (die, roll.unread)
    # the roll's reason is one of the problems shown, and each problem names its own die
    problems = [u.problem for u in roll.unread] + [d.problem for d in roll.dice if d.problem]
    assert roll.reason in problems
    assert len(set(problems)) == len(problems)


def test_the_annotated_copy_marks_a_die_not_read(frames) -> None:
    frame, _ = frames[SMEARED[0]]
    roll = read(frame)
    (die,) = roll.unread
    half = round(die.size / 2) + 3
    y, x = round(die.y), round(die.x)
    around = annotate(frame, roll)[y - half:y + half + 1, x - half:x + half + 1]
    plain = frame[y - half:y + half + 1, x - half:x + half + 1]
    marked = np.all(around == UNSURE_COLOUR, axis=2) & ~np.all(plain == UNSURE_COLOUR, axis=2)
    assert marked.sum() > die.size  # its dashed outline, at least half of it


def test_read_json_lists_the_dice_not_read(frames, tmp_path) -> None:
    frame, _ = frames[SMEARED[1]]
    photo = tmp_path / "smeared.png"
    cv2.imwrite(str(photo), frame)
    result = CliRunner().invoke(main, ["read", "--json", str(photo)])
    data = json.loads(result.output.splitlines()[0])
    assert data["status"] == "unsure"
    assert len(data["unread"]) == 2
    assert {kind_of(u["problem"]) for u in data["unread"]} == {"blur"}
    assert set(data["unread"][0]) == {"x", "y", "size", "problem"}
    assert all("problem" in d for d in data["dice"])
