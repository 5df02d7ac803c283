"""The Golsteyn-2020 baseline reads clean synthetic dice and refuses what it says it refuses."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.baseline_golsteyn import PUBLISHED, TUNED, group_pips, read

SPOTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def table_with(dice: list[tuple[int, int, int]], size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """A grey table with flat white dice (value, centre x, centre y) seen from above."""
    scale = size[0] / 640
    frame = np.full((size[1], size[0], 3), 120, np.uint8)
    half, step, radius = round(22 * scale), round(11 * scale), round(4 * scale)
    for value, x, y in dice:
        x, y = round(x * scale), round(y * scale)
        cv2.rectangle(frame, (x - half, y - half), (x + half, y + half), (245, 245, 245), -1)
        for u, v in SPOTS[value]:
            cv2.circle(frame, (x + u * step, y + v * step), radius, (15, 15, 15), -1)
    return frame


@pytest.mark.parametrize("value", range(1, 7))
def test_reads_each_face(value: int) -> None:
    reading = read(table_with([(value, 320, 240)]))
    assert reading.status == "ok"
    assert reading.values == (value,)


def test_reads_five_dice_apart() -> None:
    roll = [(3, 100, 100), (6, 300, 100), (1, 500, 100), (5, 200, 350), (2, 450, 350)]
    reading = read(table_with(roll))
    assert reading.ok and reading.values == (1, 2, 3, 5, 6)
    die = min(reading.dice, key=lambda d: d.x)
    assert die.x == pytest.approx(100, abs=2) and die.y == pytest.approx(100, abs=2)


def test_eps_scales_with_the_frame() -> None:
    roll = [(4, 150, 150), (5, 450, 300)]
    assert read(table_with(roll, (1280, 960))).values == (4, 5)


def test_touching_dice_merge_into_a_crowded_cluster_and_are_refused() -> None:
    reading = read(table_with([(6, 300, 240), (5, 345, 240)]))
    assert reading.status == "unsure"
    assert reading.reason.startswith("overlap: 11 pips in one cluster")


def test_no_pips_is_refused() -> None:
    reading = read(np.full((480, 640, 3), 200, np.uint8))
    assert (reading.status, reading.reason, reading.dice) == (
        "unsure",
        "no-dice: no pips found",
        (),
    )


def test_tuned_filters_also_read_clean_dice() -> None:
    assert TUNED.read(table_with([(2, 200, 200), (6, 420, 300)])).values == (2, 6)
    assert "0.8" in repr(TUNED) and PUBLISHED.min_inertia == 0.6


def test_group_pips_separates_far_pips() -> None:
    pips = np.array([[10.0, 10.0], [40.0, 10.0], [400.0, 10.0]])
    assert sorted(len(g) for g in group_pips(pips, 640)) == [1, 2]
    assert [len(g) for g in group_pips(pips, 64)] == [1, 1, 1]  # eps 4 px at 64 px wide
    assert group_pips(np.empty((0, 2)), 640) == []


def test_rejects_a_grey_frame() -> None:
    with pytest.raises(ValueError, match="BGR uint8"):
        read(np.zeros((48, 64), np.uint8))
