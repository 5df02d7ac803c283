"""Building a calibration from rendered frames of an empty tray and of dice on it."""

from __future__ import annotations

import warnings
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetray.vision.calibration import Calibration, CameraSettings, build_calibration
from dicetray.vision.detector import find_dice
from dicetray.vision.errors import CalibrationError
from dicetray.vision.reading import DieReading, Reading
from dicetray.vision.render import FrameTruth, render
from dicetray.vision.scene import CLEAN_LOOK, Look, random_scene, tray_view

SIZE = (640, 480)


def _frames(seed: int, ledge_dice: int = 0, look=None) -> tuple[list, list, list[FrameTruth]]:
    scene = random_scene(seed, dice=5, image_size=SIZE, ledge_dice=0)
    if look is not None:
        scene = replace(scene, look=look)
    empty = [render(scene.with_dice(()), i)[0] for i in range(3)]
    shots, truths = [], []
    for k in range(2):
        dice = random_scene(seed * 10 + k + 1, dice=5, ledge_dice=ledge_dice).dice
        frame, truth = render(scene.with_dice(dice), k)
        shots.append(frame)
        truths.append(truth)
    return empty, shots, truths


def _fake_reader(truths: list[FrameTruth], wrong: int | None = None):
    """A stand-in recognizer answering from the truth (wrong on frame ``wrong``); the
    calls with a calibration (the read-back) are kept in ``calls``, the first reads
    without one (which measure the dice) in ``alone``."""
    calls, alone = [], []

    def read(frame: np.ndarray, calibration: Calibration | None, dice: int | None) -> Reading:
        if calibration is None:
            truth = truths[len(alone)]
            alone.append((frame.shape, dice))
            return Reading("ok", "", tuple(DieReading(d.value, d.x, d.y, 0.0, "unknown", 0.9,
                                                      d.size) for d in truth.dice))
        truth = truths[len(calls)]
        calls.append((frame.shape, calibration, dice))
        found = tuple(DieReading(d.value, d.x, d.y, 0.0, calibration.zone_of(d.x, d.y), 0.9,
                                 d.size) for d in truth.dice)
        if len(calls) - 1 == wrong:
            return Reading("unsure", "cocked: die at (1, 1) is not flat", found)
        return Reading("ok", "", found)

    read.calls = calls  # type: ignore[attr-defined]
    read.alone = alone  # type: ignore[attr-defined]
    return read


def _refusing_reader(frame: np.ndarray, calibration: Calibration | None,
                     dice: int | None) -> Reading:
    """A stand-in recognizer that reads no frame cleanly."""
    return Reading("unsure", "blur: frame too blurred", ())


class TestBuild:
    def test_finds_tray_die_size_and_colours(self) -> None:
        empty, shots, truths = _frames(3)
        reader = _fake_reader(truths)
        calibration, report = build_calibration(empty, shots, reader=reader)
        truth = truths[0]
        assert calibration.image_size == SIZE
        assert calibration.die_size == pytest.approx(truth.die_size, rel=0.12)
        for t in truths:
            assert all(calibration.zone_of(d.x, d.y) == "tray" for d in t.dice)
        # the found tray is close to the true one (corner by corner, within a die)
        for found, true in zip(calibration.tray, truth.tray, strict=True):
            assert np.hypot(found[0] - true[0], found[1] - true[1]) < truth.die_size * 1.2
        assert min(calibration.die_color) > 200  # white dice
        assert max(calibration.pip_color) < 90  # black pips
        assert report.status == "ok" and report.dice_found == (5, 5)
        assert [c[2] for c in reader.calls] == [5, 5]
        assert calibration.quality == {"frames": 2.0, "dice_found": 5.0, "read_ok": 1.0,
                                       "confidence": pytest.approx(0.9)}

    @pytest.mark.parametrize(("felt", "style"), [((200, 200, 196), "white"),
                                                 ((200, 200, 196), "black"),
                                                 ((40, 40, 40), "black")])
    def test_die_size_from_the_dice_read_on_pale_and_dark_floors(self, felt, style) -> None:
        # a pale die on a pale floor, or a dark one on a dark floor, barely differs from
        # the empty tray: the size and count come from the dice the recognizer read
        scene = replace(random_scene(7, image_size=SIZE, style=style),
                        look=replace(Look(), felt=felt))
        empty = [render(scene.with_dice(()), i)[0] for i in range(2)]
        shots, truths = zip(*(render(scene.with_dice(random_scene(60 + k).dice), k)
                              for k in range(2)), strict=True)
        calibration, report = build_calibration(empty, shots, reader=_fake_reader(truths))
        assert report.dice_found == (5, 5) and report.status == "ok"
        # measured as the dice detector measures the dice read (a little inside their
        # outline), not by the difference from the empty tray (a die's pips alone, there)
        found = []
        for shot, truth in zip(shots, truths, strict=True):
            finds = find_dice(shot)
            for die in truth.dice:
                near = min(finds, key=lambda c: np.hypot(c.x - die.x, c.y - die.y))
                assert np.hypot(near.x - die.x, near.y - die.y) <= 0.5 * near.size
                found.append(near.size)
        assert calibration.die_size == pytest.approx(np.median(found), rel=0.01)
        true_size = np.median([d.size for t in truths for d in t.dice])
        assert 0.8 * true_size <= calibration.die_size <= 1.02 * true_size

    def test_dice_whose_pips_crowd_to_the_middle_measure_as_large_as_common_ones(self) -> None:
        # a face's pips' spread measures its die only where they sit as common dice's do:
        # at 0.19 of the edge, not 0.27, it took 0.7 of the die, and the tray read its
        # dice at one and a half times their working scale
        sizes = []
        for spacing in (0.27, 0.19):
            tray = tray_view(70000, "white")
            tray = replace(tray, style=replace(tray.style, pip_diameter=0.17,
                                               pip_spacing=spacing))
            empty = [render(tray.with_dice(()), i)[0] for i in range(2)]
            shots = [render(tray.with_dice(tray_view(70000 + k, "white").dice), k)[0]
                     for k in range(1, 5)]
            calibration, report = build_calibration(empty, shots, dice=5)
            assert sum(r.ok for r in report.readings) >= 2  # (a crowded 6 may be refused)
            sizes.append(calibration.die_size)
        assert sizes[1] == pytest.approx(sizes[0], rel=0.05)

    def test_die_size_by_difference_when_nothing_was_read(self) -> None:
        empty, shots, truths = _frames(5)
        calibration, report = build_calibration(empty, shots, reader=_refusing_reader)
        assert report.status == "unsure" and report.dice_found == (5, 5)
        assert calibration.die_size == pytest.approx(truths[0].die_size, rel=0.12)

    def test_touching_dice_count_as_two(self) -> None:
        scene = random_scene(3, image_size=SIZE)
        a, b, *rest = random_scene(31).dice
        b = replace(b, x=a.x + scene.die_mm * 1.02, y=a.y, rotation=a.rotation)
        empty = [render(scene.with_dice(()), i)[0] for i in range(2)]
        frame, truth = render(scene.with_dice([a, b, *rest]))
        calibration, report = build_calibration(empty, [frame], reader=_refusing_reader)
        assert report.dice_found == (5,)
        assert calibration.die_size == pytest.approx(truth.die_size, rel=0.15)

    def test_background_is_the_median_of_the_empty_frames(self) -> None:
        empty, shots, truths = _frames(4)
        stack = np.stack(empty)
        calibration, _ = build_calibration(empty, shots, reader=_fake_reader(truths))
        assert np.array_equal(calibration.background_image(),
                              np.median(stack, axis=0).astype(np.uint8))

    def test_homography_maps_the_tray_to_a_rectangle(self) -> None:
        empty, shots, truths = _frames(5)
        calibration, _ = build_calibration(empty, shots, reader=_fake_reader(truths))
        assert calibration.homography is not None and calibration.topdown_size is not None
        w, h = calibration.topdown_size
        corners = calibration.to_topdown(calibration.tray)
        assert corners == pytest.approx(np.array([[0, 0], [w, 0], [w, h], [0, h]]), abs=0.5)

    def test_given_zones_are_kept(self) -> None:
        empty, shots, truths = _frames(6, ledge_dice=2)
        calibration, report = build_calibration(
            empty, shots, tray=truths[0].tray, ledge=truths[0].ledge,
            reader=_fake_reader(truths), camera=CameraSettings(exposure_us=7000))
        assert calibration.tray == truths[0].tray and calibration.ledge == truths[0].ledge
        assert calibration.camera.exposure_us == 7000
        zones = [calibration.zone_of(d.x, d.y) for d in truths[0].dice]
        assert zones == [d.zone for d in truths[0].dice] and zones.count("ledge") == 2
        assert report.dice_found == (5, 5)

    def test_an_unsure_reading_makes_the_report_unsure(self) -> None:
        empty, shots, truths = _frames(3)
        _, report = build_calibration(empty, shots, reader=_fake_reader(truths, wrong=1))
        assert report.status == "unsure"
        assert report.problems == ("frame 2: cocked: die at (1, 1) is not flat",)
        text = "\n".join(report.lines())
        assert "frame 2: read" in text and text.endswith("status: unsure")

    def test_wrong_dice_count_is_a_problem(self) -> None:
        empty, shots, truths = _frames(3)
        _, report = build_calibration(empty, shots, dice=4, reader=_fake_reader(truths))
        assert report.status == "unsure"
        assert "frame 1: 5 dice found, expected 4" in report.problems

    def test_a_frame_of_another_count_is_said_once(self) -> None:
        empty, shots, truths = _frames(3)
        fake = _fake_reader(truths)

        def told(frame: np.ndarray, calibration: Calibration | None,
                 dice: int | None) -> Reading:
            # as the recognizer answers, told another count than it finds
            got = fake(frame, calibration, dice)
            if calibration is None or dice is None or len(got.dice) == dice:
                return got
            return Reading("unsure", f"wrong-count: expected {dice} dice, found "
                           f"{len(got.dice)}", got.dice)

        _, report = build_calibration(empty, shots, dice=4, reader=told)
        assert report.status == "unsure"
        assert report.problems == tuple(f"frame {i}: 5 dice found, expected 4"
                                        for i in range(1, len(shots) + 1))

    def test_saved_and_loaded(self, tmp_path: Path) -> None:
        empty, shots, truths = _frames(3)
        calibration, _ = build_calibration(empty, shots, reader=_fake_reader(truths))
        calibration.save(tmp_path / "calibration.json")
        loaded = Calibration.load(tmp_path / "calibration.json")
        assert loaded == replace(calibration, background="calibration.background.png")
        assert np.array_equal(loaded.background_image(), calibration.background_image())


class TestRecognizerReadsCleanRenders:
    def test_clean_frames_are_read_right(self) -> None:
        from dicetray.vision.recognizer import read

        empty, shots, truths = _frames(8, look=CLEAN_LOOK)
        _, report = build_calibration(empty, shots, reader=read)
        assert [r.values for r in report.readings] == [t.values for t in truths]
        assert report.status == "ok"

    @pytest.mark.parametrize("seed", range(6))
    def test_clean_frames_are_never_read_silently_wrong(self, seed: int) -> None:
        from dicetray.vision.recognizer import read

        frame, truth = render(replace(random_scene(seed, image_size=SIZE), look=CLEAN_LOOK))
        reading = read(frame, None, 5)
        assert not reading.ok or reading.values == truth.values


class TestRefusal:
    def test_no_empty_frames_and_a_dice_frame_too_small(self) -> None:
        with pytest.raises(CalibrationError, match="dice frame 1: frame too small"):
            build_calibration([], [np.zeros((10, 10, 3), np.uint8)])

    def test_no_frames_at_all(self) -> None:
        with pytest.raises(CalibrationError, match="no dice frames"):
            build_calibration([], [])

    def test_frames_of_different_sizes(self) -> None:
        empty, shots, _ = _frames(3)
        with pytest.raises(CalibrationError, match="dice frame 1 is 320x240"):
            build_calibration(empty, [cv2.resize(shots[0], (320, 240))])

    def test_not_an_image(self) -> None:
        with pytest.raises(CalibrationError, match="not a BGR uint8 image"):
            build_calibration([np.zeros((10, 10), np.float32)], [])

    def test_no_dice_in_the_dice_frames(self) -> None:
        empty, _, _ = _frames(3)
        with pytest.raises(CalibrationError, match="no dice found"):
            build_calibration(empty, empty, reader=lambda *a: None)

    def test_no_tray_to_be_found(self) -> None:
        rng = np.random.default_rng(0)
        noise = [rng.integers(0, 255, (240, 320, 3), dtype=np.uint8) for _ in range(2)]
        with pytest.raises(CalibrationError, match="could not find the tray"):
            build_calibration(noise, noise)

    def test_a_plain_frame_has_no_tray(self) -> None:
        plain = [np.full((240, 320, 3), 120, np.uint8)]
        with pytest.raises(CalibrationError, match="could not find the tray"):
            build_calibration(plain, plain)


class TestFromASource:
    def test_simulated_tray_calibrates_itself(self) -> None:
        from dicetray.vision.calibration import calibrate_source
        from dicetray.vision.frames import SimulatedSource

        source = SimulatedSource(seed=9, size=SIZE)
        asked: list[str] = []
        calibration, report = calibrate_source(source, frames=2, ask=asked.append)
        assert asked == []  # nobody needs to clear or roll a simulated tray
        assert report.dice_found == (5, 5) and calibration.ledge is not None
        truth = source.truth()
        assert calibration.ledge == truth.ledge
        assert all(calibration.zone_of(d.x, d.y) == d.zone for d in truth.dice)

    def test_a_person_is_asked_before_each_step(self, tmp_path: Path) -> None:
        from dicetray.vision.calibration import calibrate_source
        from dicetray.vision.frames import FolderSource

        empty, shots, truths = _frames(3)
        for i, frame in enumerate([*empty[:2], *shots]):
            cv2.imwrite(str(tmp_path / f"{i}.png"), frame)
        asked: list[str] = []
        _, report = calibrate_source(FolderSource(tmp_path), frames=2, ask=asked.append,
                                     reader=_fake_reader(truths))
        assert asked == ["Take every die off the tray", "Roll the 5 dice onto the tray (1/2)",
                         "Roll the 5 dice onto the tray (2/2)"]
        assert report.status == "ok"



class TestWhiteDiceOnAPaleTray:
    """White dice with red pips on a pale tray differ from the empty tray by their pips
    only: the difference alone measured the pips (16 px for dice 90 px wide)."""

    TRAY = ((60, 60), (1860, 60), (1860, 1020), (60, 1020))

    def _frames(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        from dicetray.vision.sketch import Fixture, FixtureKind, SketchDie, sketch

        clips = [Fixture(FixtureKind.CLIP, x, 30, 80) for x in (300, 960, 1600)]
        floor = (225, 228, 232)
        empty = [sketch([], fixtures=clips, floor=floor, seed=k) for k in range(3)]
        rng = np.random.default_rng(1)
        shots = [sketch([SketchDie(int(rng.integers(1, 7)), 300 + 300 * i, 300 + 120 * (i % 3),
                                   90.0, float(rng.uniform(0, 90))) for i in range(5)],
                        fixtures=clips, floor=floor, seed=10 + k) for k in range(2)]
        return empty, shots

    def test_die_size_and_colours_come_from_the_dice_read(self) -> None:
        empty, shots = self._frames()
        calibration, _ = build_calibration(empty, shots, dice=5, tray=self.TRAY)
        # the recognizer's edge is its pips' grid's (0.89 of these sketched dice's body)
        assert calibration.die_size == pytest.approx(80.0, rel=0.1)
        assert calibration.die_color[0] > 200 and calibration.pip_color[2] > 150


def test_dice_blobs_of_two_sizes_give_no_warning_and_no_nan() -> None:
    # a hard rendered tray (as `benchmarks/layouts.py --rendered` draws its 11th) whose
    # frames hold blobs of two sizes, the median between them: before, the die's area was
    # the median of nothing (numpy warned, "Mean of empty slice") on a frame with no blob
    # of the dice's width
    scene = random_scene(510, dice=5, hard=True, image_size=SIZE)
    empty = [render(scene.with_dice(()), i)[0] for i in range(3)]
    shots = [render(scene.with_dice(random_scene(51000 + i + 1, dice=5, hard=True).dice),
                    i)[0] for i in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        calibration, _ = build_calibration(empty, shots, dice=5)
    assert np.isfinite(calibration.die_size) and calibration.die_size > 0
