"""The dice detector on rendered frames, where every die's place and size are known."""

from __future__ import annotations

import math
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetray.vision import detector
from dicetray.vision.classifier import MODEL as CLASSIFIER
from dicetray.vision.detector import INPUT_SIDE, MIN_SIDE, Candidate, detect, find_dice, side_for
from dicetray.vision.errors import VisionError
from dicetray.vision.networks import ENGINES
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


def _mirror_gap(mirror: bool) -> tuple[int, float, float]:
    """How far the finds of a frame's mirror image lie from its own finds mirrored: the
    count difference, and the largest place (px) and score differences."""
    frame, _ = render(random_scene(7, dice=5, image_size=(640, 480)))
    straight = detect(frame, threshold=0.1, mirror=mirror)
    flipped = detect(np.ascontiguousarray(frame[:, ::-1]), threshold=0.1, mirror=mirror)
    place = score = 0.0
    for c in straight:
        m = min(flipped, key=lambda f: math.hypot(640 - f.x - c.x, f.y - c.y))
        place = max(place, math.hypot(640 - m.x - c.x, m.y - c.y))
        score = max(score, abs(m.score - c.score))
    return abs(len(straight) - len(flipped)), place, score


def test_a_mirror_image_gives_the_same_dice_mirrored() -> None:
    # the network alone is not quite mirror-symmetric (the same die scores and sits a
    # little differently), so its output is averaged with its mirror image's
    assert _mirror_gap(mirror=True) == (0, pytest.approx(0, abs=1e-3),
                                        pytest.approx(0, abs=1e-5))
    count, place, score = _mirror_gap(mirror=False)
    assert place > 0.05 or score > 0.01 or count


def test_one_core_two_and_four_find_the_same_dice() -> None:
    frame, _ = render(random_scene(8, dice=3, image_size=(320, 240)))
    before = cv2.getNumThreads()
    try:
        answers = []
        for threads in (1, 2, 4):  # both passes here, beside each other, on two cores each
            cv2.setNumThreads(threads)
            answers.append(detect(frame))
    finally:
        cv2.setNumThreads(before)
    assert [len(a) for a in answers] == [3, 3, 3]
    for one, *more in zip(*answers, strict=True):
        for other in more:
            assert (one.x, one.y, one.score) == pytest.approx((other.x, other.y, other.score),
                                                              abs=1e-4)


class TestThePhasedCopy:
    """The reader runs the detector's phased copy (``training/phased.py``: the same
    network, a sixth less arithmetic) only while it answers as the trained file does."""

    def test_the_copy_finds_what_the_trained_network_finds(self, tmp_path: Path) -> None:
        alone = tmp_path / "dice-detector.onnx"  # the trained file, without its copy
        shutil.copy(detector.MODEL, alone)
        assert detector.network_file(alone, "onnxruntime") == alone
        assert (detector.network_file(detector.MODEL, "onnxruntime")
                == detector.phased(detector.MODEL))
        frame, _ = render(random_scene(8, dice=3, image_size=(320, 240)))
        trained, copy = detect(frame, model=alone), detect(frame)
        assert len(copy) == len(trained) == 3
        for a, b in zip(trained, copy, strict=True):
            assert (a.x, a.y, a.size, a.score, a.kind) == (
                pytest.approx(b.x, abs=1e-4), pytest.approx(b.y, abs=1e-4),
                pytest.approx(b.size, abs=1e-4), pytest.approx(b.score, abs=1e-5), b.kind)

    def test_another_network_in_the_copys_place_is_not_run(self, tmp_path: Path) -> None:
        trained = tmp_path / "dice-detector.onnx"
        shutil.copy(detector.MODEL, trained)
        shutil.copy(CLASSIFIER, detector.phased(trained))  # not even the detector's shape
        for engine in ENGINES:
            assert detector.network_file(trained, engine) == trained
        frame, _ = render(random_scene(8, dice=3, image_size=(320, 240)))
        assert len(detect(frame, model=trained)) == 3


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="model missing"):
        detect(np.zeros((64, 64, 3), np.uint8), model=tmp_path / "gone.onnx")


class TestScale:
    """The frame is scaled for the network so the dice come out near the size it reads
    best, from a known die size or from a first look that only measures them (without
    the mirror pass: the finds are the look's at the scale chosen, mirror and all)."""

    @staticmethod
    def spy() -> tuple[list[tuple[int, bool]], object]:
        """The long sides the network is run at and whether with the mirror pass, and a
        look (:func:`detect`) recording them."""
        seen: list[tuple[int, bool]] = []

        def look(frame: np.ndarray, threshold: float = detector.THRESHOLD,
                 side: int = INPUT_SIDE, mirror: bool = True) -> list[Candidate]:
            seen.append((side, mirror))
            return detector.detect(frame, threshold, side=side, mirror=mirror)

        return seen, look

    def test_dice_of_a_usual_size_are_measured_then_looked_at_with_the_mirror(self) -> None:
        frame, truth = render(random_scene(5, dice=5, image_size=(640, 480)))
        sides, look = self.spy()
        found = find_dice(frame, look=look)
        assert len(_matched(found, truth)) == 5
        assert sides == [(INPUT_SIDE, False), (INPUT_SIDE, True)]
        assert found == detector.detect(frame)  # the mirrored look's finds

    def test_the_first_looks_pass_is_kept_for_a_second_look_at_its_scale(self) -> None:
        frame, _ = render(random_scene(5, dice=5, image_size=(640, 480)))
        passes: dict = {}
        first = detector.detect(frame, mirror=False, passes=passes)
        assert list(passes) == [(detector.MODEL, INPUT_SIDE)]
        kept = passes[detector.MODEL, INPUT_SIDE]
        # a pass from elsewhere is taken for the frame's: it is not run again
        passes[detector.MODEL, INPUT_SIDE] = kept * 0.0
        assert detector.detect(frame, mirror=False, passes=passes) == []
        passes[detector.MODEL, INPUT_SIDE] = kept
        assert detector.detect(frame, mirror=False, passes=passes) == first
        assert detector.detect(frame, passes=passes) == detector.detect(frame)
        assert find_dice(frame) == detector.detect(frame)

    def test_a_frame_with_no_dice_is_looked_at_at_the_usual_size(self) -> None:
        sides, look = self.spy()
        assert find_dice(np.full((480, 640, 3), 90, np.uint8), look=look) == []
        assert sides == [(INPUT_SIDE, False), (INPUT_SIDE, True)]

    def test_large_dice_are_looked_at_again_on_a_smaller_frame(self) -> None:
        frame, truth = render(random_scene(5, dice=5, image_size=(640, 480)))
        xs, ys = [d.x for d in truth.dice], [d.y for d in truth.dice]
        x0, y0 = int(min(xs)) - 40, int(min(ys)) - 40
        w = int(max(xs)) + 40 - x0
        zoom = 640 / w  # the dice's box fills the frame: the dice come out about twice as big
        crop = frame[y0:y0 + round(480 / zoom), x0:x0 + w]
        big = cv2.resize(crop, (640, 480), interpolation=cv2.INTER_LINEAR)
        sides, look = self.spy()
        found = find_dice(big, look=look)
        assert sides[0] == (INPUT_SIDE, False) and len(sides) == 2
        assert sides[1][0] < INPUT_SIDE and sides[1][1]
        for die in truth.dice:
            x, y = (die.x - x0) * zoom, (die.y - y0) * zoom
            assert any(math.hypot(c.x - x, c.y - y) < 0.3 * die.size * zoom for c in found)

    def test_a_known_die_size_needs_one_look(self) -> None:
        frame, truth = render(random_scene(5, dice=5, image_size=(640, 480)))
        sides, look = self.spy()
        find_dice(frame, die_size=4.0, look=look)
        assert sides == [(640, True)]  # tiny dice: the frame at its own size, not upscaled
        sides.clear()
        assert len(_matched(find_dice(frame, die_size=truth.die_size, look=look), truth)) == 5
        assert sides == [(INPUT_SIDE, True)]

    @pytest.mark.parametrize(("size", "long_side", "side"), [
        (28.0, 640, INPUT_SIDE),  # 14 px at the network's input: as it reads best
        (20.0, 640, 448),  # small: the frame less scaled down
        (4.0, 640, 640),  # tiny: never enlarged past the frame's own size ...
        (4.0, 200, INPUT_SIDE),  # ... nor a small frame shrunk below the usual input
        (300.0, 640, MIN_SIDE),  # huge: scaled down no further than the network can look
    ])
    def test_side_for(self, size: float, long_side: int, side: int) -> None:
        assert side_for(size, long_side) == side


@pytest.mark.parametrize("size", [(640, 480), (1277, 955), (480, 640)])
def test_the_network_input_is_the_frame_scaled_to_minus_one_to_one_and_padded(
        size: tuple[int, int]) -> None:
    # the network learnt frames as planes of float32 values x / 127.5 - 1, scaled to a long
    # side of INPUT_SIDE and padded by repeating the last row and column to a multiple of 8
    # (it halves three times): the input must be that to the bit, as the reader's answers
    # hang on the detector's exact numbers
    w, h = size
    rng = np.random.default_rng(w)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), (0, 0), 2)
    blob = detector.network_input(frame)
    s = INPUT_SIDE / max(w, h)
    sw, sh = round(w * s), round(h * s)
    assert blob.shape == (1, 3, -(-sh // 8) * 8, -(-sw // 8) * 8) and blob.dtype == np.float32
    small = cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_AREA)
    inner = blob[0, :, :sh, :sw]
    want = small.transpose(2, 0, 1).astype(np.float32) / np.float32(127.5) - np.float32(1.0)
    assert np.array_equal(inner, want)
    assert np.array_equal(blob[0, :, sh:, :sw], np.repeat(inner[:, -1:], blob.shape[2] - sh, 1))
    assert np.array_equal(blob[0, :, :, sw:],
                          np.repeat(blob[0, :, :, sw - 1:sw], blob.shape[3] - sw, 2))
