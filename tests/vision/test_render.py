"""The rendered camera: truth matches pixels, pips follow real dice, runs reproduce."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from dicetray.vision.render import (
    _FACES,
    PIPS,
    DieTruth,
    blank_tray,
    die_rotation,
    render,
    render_dataset,
    save_dataset,
)
from dicetray.vision.scene import (
    CLEAN_LOOK,
    STYLES,
    CameraPose,
    DiceStyle,
    DieState,
    Scene,
    SimulatedTray,
    random_scene,
)

SMALL = (640, 480)
TOP_DOWN = CameraPose(image_size=SMALL, elevation=90.0, distance_mm=600.0)


def _clean(dice: list[DieState], style: str = "white", camera: CameraPose = TOP_DOWN) -> Scene:
    return Scene(dice=tuple(dice), style=STYLES[style], look=CLEAN_LOOK, camera=camera)


def _count_pips(frame: np.ndarray, x: float, y: float, size: float, light_pips: bool) -> int:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    pips = (grey > 150) if light_pips else (grey < 110)
    disc = np.zeros_like(grey)
    cv2.circle(disc, (round(x), round(y)), round(size * 0.5), 255, -1)
    mask = (pips & (disc > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    min_area = (size * 0.06) ** 2
    return int(sum(stats[i, cv2.CC_STAT_AREA] >= min_area for i in range(1, n)))


class TestDieModel:
    def test_opposite_faces_sum_to_seven(self) -> None:
        for value, (normal, _, _) in _FACES.items():
            opposite = [k for k, f in _FACES.items() if np.dot(f[0], normal) == -1]
            assert opposite == [7 - value]

    def test_each_face_has_its_number_of_distinct_pips(self) -> None:
        for value, pips in PIPS.items():
            assert len(set(pips)) == value

    def test_one_two_three_run_counter_clockwise_seen_from_outside(self) -> None:
        # tray axes have y towards the camera; flip y to get right-handed space
        flip = np.diag([1.0, -1.0, 1.0])
        n1, n2, n3 = (flip @ np.array(_FACES[k][0], float) for k in (1, 2, 3))
        assert np.dot(n1, np.cross(n2, n3)) > 0

    @pytest.mark.parametrize("value", range(1, 7))
    def test_the_value_face_points_up(self, value: int) -> None:
        rotation = die_rotation(DieState(value, 0, 0, rotation=37.0))
        up = rotation @ np.array(_FACES[value][0], float)
        assert up == pytest.approx([0, 0, 1], abs=1e-9)


class TestTruth:
    @pytest.mark.parametrize("style", ["white", "black"])
    def test_pips_on_each_rendered_face_match_the_value(self, style: str) -> None:
        dice = [DieState(v, 30 + 32 * (v - 1), 40 + 20 * (v % 2), rotation=17.0 * v)
                for v in range(1, 7)]
        frame, truth = render(_clean(dice, style))
        counted = [_count_pips(frame, d.x, d.y, d.size, style == "black") for d in truth.dice]
        assert counted == [1, 2, 3, 4, 5, 6]

    @staticmethod
    def dark_near_die(value: int, reach: float, **style: float) -> tuple[np.ndarray, float]:
        """One large white die showing ``value`` seen from above, in a style with these
        pip settings: the dark pixels within ``reach`` edges of its centre, and its edge."""
        close = replace(TOP_DOWN, image_size=(1920, 1440))  # a large die: few edge pixels
        scene = Scene(dice=(DieState(value, 100, 80),), style=replace(STYLES["white"], **style),
                      look=CLEAN_LOOK, camera=close)
        frame, truth = render(scene)
        die = truth.dice[0]
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        disc = np.zeros_like(grey)
        cv2.circle(disc, (round(die.x), round(die.y)), round(die.size * reach), 255, -1)
        return ((grey < 110) & (disc > 0)).astype(np.uint8), die.size

    @pytest.mark.parametrize("diameter", [0.13, 0.24])
    def test_pips_have_the_style_s_diameter(self, diameter: float) -> None:
        pip, size = self.dark_near_die(1, 0.3, pip_diameter=diameter)  # the 1's lone pip
        measured = 2 * np.sqrt(int(pip.sum()) / np.pi) / size
        assert measured == pytest.approx(diameter, rel=0.1)

    @pytest.mark.parametrize("spacing", [0.19, 0.27])
    def test_pips_sit_at_the_style_s_spacing(self, spacing: float) -> None:
        pips, size = self.dark_near_die(2, 0.45, pip_spacing=spacing, pip_diameter=0.15)
        n, _, _, centres = cv2.connectedComponentsWithStats(pips)
        assert n == 3  # the 2's two pips, on a diagonal: each `spacing` off along both axes
        gap = float(np.hypot(*(centres[1] - centres[2])))
        assert gap / (2 * np.sqrt(2) * size) == pytest.approx(spacing, rel=0.08)

    def test_centres_match_the_dice_in_the_pixels(self) -> None:
        scene = replace(random_scene(seed=11, dice=5, image_size=SMALL), look=CLEAN_LOOK)
        frame, truth = render(scene)
        diff = cv2.absdiff(frame, blank_tray(scene)).max(axis=2)
        n, _, stats, centroids = cv2.connectedComponentsWithStats((diff > 40).astype(np.uint8))
        blobs = [centroids[i] for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 50]
        assert len(blobs) == 5
        for die in truth.dice:
            nearest = min(np.hypot(*(b - (die.x, die.y))) for b in blobs)
            assert nearest < die.size * 0.4  # the top face sits a little off the blob centre

    def test_values_and_zones_follow_the_scene(self) -> None:
        scene = random_scene(seed=5, dice=5, hard=True, ledge_dice=2, image_size=SMALL)
        _, truth = render(scene)
        assert [d.value for d in truth.dice] == [d.value for d in scene.dice]
        assert [d.zone for d in truth.dice].count("ledge") == 2
        assert truth.values == tuple(sorted(d.value for d in truth.dice))

    def test_ledge_dice_lie_inside_the_ledge_polygon(self) -> None:
        scene = random_scene(seed=2, dice=5, ledge_dice=2, image_size=SMALL)
        _, truth = render(scene)
        assert truth.ledge is not None
        ledge = np.array(truth.ledge, np.float32)
        tray = np.array(truth.tray, np.float32)
        for die in truth.dice:
            inside = ledge if die.zone == "ledge" else tray
            assert cv2.pointPolygonTest(inside, (die.x, die.y), False) > 0

    def test_a_cocked_die_is_flagged_and_reads_its_uppermost_face(self) -> None:
        _, truth = render(_clean([DieState(4, 100, 70, tilt=25, tilt_direction=90)],
                                     camera=CameraPose(image_size=SMALL)))
        assert truth.dice[0].cocked and truth.dice[0].value == 4
        assert not truth.readable
        # a heavy tilt turns another face up
        _, tipped = render(_clean([DieState(4, 100, 70, tilt=55, tilt_direction=0)]))
        assert tipped.dice[0].value != 4

    def test_a_moving_die_is_blurred(self) -> None:
        still = _clean([DieState(5, 100, 70)])
        moving = _clean([DieState(5, 100, 70, motion=(12.0, 0.0), spin=20.0)])
        sharp, t0 = render(still)
        smeared, t1 = render(moving)
        assert not t0.dice[0].blurred and t1.dice[0].blurred

        def sharpness(frame: np.ndarray, die) -> float:
            x0, y0, x1, y1 = (round(v) for v in die.bbox)
            patch = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
            return float(cv2.Laplacian(patch, cv2.CV_64F).var())

        assert sharpness(smeared, t1.dice[0]) < 0.5 * sharpness(sharp, t0.dice[0])

    def test_dice_beyond_the_frame_are_cut(self) -> None:
        camera = CameraPose(image_size=SMALL, fill=1.4)
        _, truth = render(_clean([DieState(2, 8, 8), DieState(3, 105, 75)], camera=camera))
        assert [d.cut for d in truth.dice] == [True, False]


class TestTranslucent:
    SMOKY = DiceStyle("smoky", (60, 58, 56), (40, 36, 214), opacity=0.7, ghosts=1.0)

    def one(self, **style: float) -> tuple[np.ndarray, DieTruth]:
        """A large smoky die showing 1 seen from above, in a style with these settings."""
        scene = Scene(dice=(DieState(1, 100, 80),), style=replace(self.SMOKY, **style),
                      look=CLEAN_LOOK, camera=replace(TOP_DOWN, image_size=(1920, 1440)))
        frame, truth = render(scene)
        return frame, truth.dice[0]

    @staticmethod
    def red(frame: np.ndarray, x: float, y: float) -> int:
        b, g, r = (int(v) for v in frame[round(y), round(x)])
        return r - max(b, g)

    def test_the_far_face_s_pips_show_through_the_top(self) -> None:
        seen, die = self.one()
        plain, _ = self.one(ghosts=0.0)
        step = die.size * self.SMOKY.pip_spacing
        # the 6 underneath: two columns of three pips, where the 1 on top has none
        for dx in (-step, step):
            for dy in (-step, 0.0, step):
                assert self.red(seen, die.x + dx, die.y + dy) > self.red(
                    plain, die.x + dx, die.y + dy) + 20
        # the 1's own pip is drawn over them, as it was
        assert abs(self.red(seen, die.x, die.y) - self.red(plain, die.x, die.y)) <= 2

    def test_an_opaque_die_shows_nothing_through_it(self) -> None:
        assert np.array_equal(self.one(opacity=1.0)[0], self.one(opacity=1.0, ghosts=0.0)[0])


class TestReproducible:
    def test_same_scene_same_pixels(self) -> None:
        scene = random_scene(seed=9, dice=5, hard=True, image_size=SMALL)
        a, ta = render(scene)
        b, tb = render(scene)
        assert np.array_equal(a, b) and ta == tb

    def test_frame_index_changes_only_the_noise(self) -> None:
        scene = replace(random_scene(seed=9, dice=5, image_size=SMALL),
                        look=replace(CLEAN_LOOK, noise=3.0))
        a, ta = render(scene, 0)
        b, tb = render(scene, 1)
        assert ta == tb and not np.array_equal(a, b)
        assert np.abs(a.astype(int) - b.astype(int)).mean() < 6

    def test_dataset_is_reproducible_by_seed(self) -> None:
        first = [t for _, t in render_dataset(3, seed=21, image_size=SMALL)]
        again = [t for _, t in render_dataset(3, seed=21, image_size=SMALL)]
        other = [t for _, t in render_dataset(3, seed=22, image_size=SMALL)]
        assert first == again and first != other
        assert all(1 <= len(t.dice) <= 6 for t in first)

    def test_saved_dataset_matches_the_generator(self, tmp_path) -> None:
        import csv
        import json

        save_dataset(tmp_path, 3, seed=21, image_size=SMALL)
        text = (tmp_path / "labels.csv").read_text(encoding="utf-8")
        rows = list(csv.DictReader(text.splitlines()))
        truths = [t for _, t in render_dataset(3, seed=21, image_size=SMALL)]
        assert [r["values_sorted"] for r in rows] == [
            " ".join(map(str, t.values)) for t in truths]
        lines = (tmp_path / "truth.jsonl").read_text().splitlines()
        assert [json.loads(line)["values"] for line in lines] == [list(t.values) for t in truths]
        frame = cv2.imread(str(tmp_path / rows[0]["image"]))
        assert frame.shape == (480, 640, 3)

    def test_truth_serialises(self) -> None:
        _, truth = render(random_scene(seed=1, dice=2, image_size=SMALL))
        data = truth.to_json()
        assert data["values"] == list(truth.values) and len(data["dice"]) == 2


class TestSimulatedTray:
    def test_roll_tumbles_then_rests_on_the_values(self) -> None:
        now = [0.0]
        tray = SimulatedTray(seed=4, clock=lambda: now[0])
        values = tray.roll([6, 5, 4, 3, 2])
        assert values == (6, 5, 4, 3, 2) and not tray.settled
        now[0] = 0.3
        assert any(d.moving for d in tray.scene().dice)
        now[0] = 10.0
        scene = tray.scene()
        assert tray.settled and not any(d.moving for d in scene.dice)
        assert [d.value for d in scene.dice] == [6, 5, 4, 3, 2]

    def test_kept_dice_stay_on_the_ledge_through_a_roll(self) -> None:
        now = [0.0]
        tray = SimulatedTray(seed=4, clock=lambda: now[0])
        tray.roll([1, 1, 1, 1, 1])
        tray.keep(1)
        tray.keep(3)
        values = tray.roll([2, 2, 2])
        assert values == (2, 1, 2, 1, 2)
        now[0] = 10.0
        _, truth = render(tray.scene())
        assert sorted(d.value for d in truth.dice if d.zone == "ledge") == [1, 1]
        tray.release(1)
        assert [d.zone for d in tray.scene().dice].count("ledge") == 1

    def test_wrong_number_of_values_is_refused(self) -> None:
        tray = SimulatedTray(seed=1, clock=lambda: 0.0)
        with pytest.raises(ValueError, match="5 dice on the tray"):
            tray.roll([1, 2])


class TestScenes:
    def test_easy_scenes_keep_dice_apart_and_on_the_tray(self) -> None:
        for seed in range(20):
            scene = random_scene(seed, dice=6)
            size = scene.die_mm
            for i, a in enumerate(scene.dice):
                assert scene.zone_at(a.x, a.y) == "tray" and a.tilt == 0 and not a.moving
                for b in scene.dice[i + 1:]:
                    assert np.hypot(a.x - b.x, a.y - b.y) >= size * 1.5

    def test_hard_scenes_hold_every_difficulty(self) -> None:
        dice = [d for seed in range(120) for d in random_scene(seed, hard=True).dice]
        assert any(d.cocked for d in dice) and any(d.moving for d in dice)
        assert any(d.zone == "ledge" for d in dice)
        for seed in range(120):
            scene = random_scene(seed, hard=True)
            for d in scene.dice:
                assert scene.zone_at(d.x, d.y) == d.zone

    def test_a_cocked_die_leans_against_its_support(self) -> None:
        for seed in range(300):
            scene = random_scene(seed, hard=True)
            for die in (d for d in scene.dice if d.cocked):
                width, depth = scene.tray_mm
                walls = min(die.x, width - die.x, die.y, depth - die.y)
                others = [np.hypot(die.x - o.x, die.y - o.y) for o in scene.dice if o != die]
                # touching a wall or a die: well under one and a half die sizes away
                assert min([walls * 2, *others]) < scene.die_mm * 1.5

    def test_bad_dice_are_refused(self) -> None:
        with pytest.raises(ValueError, match=r"1\.\.6"):
            DieState(7, 0, 0)
        with pytest.raises(ValueError, match="zone"):
            DieState(3, 0, 0, zone="floor")
        with pytest.raises(ValueError, match=r"die 0 is said to be on the ledge but lies at "
                                             r"\(30\.0, 40\.0\) mm, on the tray"):
            Scene(dice=(DieState(3, 30, 40, zone="ledge"),))
