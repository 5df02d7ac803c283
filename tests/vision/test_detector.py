"""The dice detector on rendered frames, where every die's place and size are known."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from dicetray.vision.detector import Candidate, detect
from dicetray.vision.errors import VisionError
from dicetray.vision.render import render
from dicetray.vision.scene import DieState, random_scene


def _matched(cands: list[Candidate], truth) -> list[tuple[Candidate, object]]:
    pairs = []
    for die in truth.dice:
        near = [c for c in cands if math.hypot(c.x - die.x, c.y - die.y) < 0.35 * die.size]
        if near:
            pairs.append((near[0], die))
    return pairs


@pytest.mark.parametrize("seed", range(6))
def test_finds_every_die_with_its_place_and_size(seed: int) -> None:
    frame, truth = render(random_scene(seed, dice=5, image_size=(640, 480)))
    cands = detect(frame)
    pairs = _matched(cands, truth)
    assert len(cands) == 5 and len(pairs) == 5
    for cand, die in pairs:
        assert cand.kind == "flat"
        assert cand.size == pytest.approx(die.size, rel=0.25)


@pytest.mark.parametrize("style", ["black", "red", "translucent-blue", "ivory"])
def test_dice_of_every_colour(style: str) -> None:
    frame, truth = render(random_scene(11, dice=5, image_size=(640, 480), style=style))
    assert len(_matched(detect(frame), truth)) == 5


def test_empty_tray_and_blank_frames_hold_no_dice() -> None:
    scene = random_scene(3, image_size=(640, 480))
    assert detect(render(scene.with_dice(()))[0]) == []
    assert detect(np.zeros((300, 400, 3), np.uint8)) == []


def test_any_frame_size() -> None:
    frame, truth = render(random_scene(4, dice=4, image_size=(333, 251)))
    assert len(_matched(detect(frame), truth)) == 4


def test_many_small_dice() -> None:
    scene = replace(random_scene(2, image_size=(640, 480)), tray_mm=(300.0, 220.0))
    dice = [DieState(1 + k % 6, 30.0 + 48 * (k % 6), 35.0 + 50 * (k // 6), 15.0 * k)
            for k in range(18)]
    frame, truth = render(scene.with_dice(dice))
    assert len(_matched(detect(frame), truth)) >= 17


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="model missing"):
        detect(np.zeros((64, 64, 3), np.uint8), model=tmp_path / "gone.onnx")
