"""A die seen at a slant shows a side face below its top face; the side face is
foreshortened, so its pips are flatter ovals than the top face's. A 1's pip and the side
face's nearest pip lie as a 2's two pips do: such a 2 must not be answered (matteop65's
``dice_19`` and ``dice_31``, where the classifier was unsure of the die)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dicetray.vision import read
from dicetray.vision.parts import FaceClassifier

#: Half the top face's width and height, and the side face's height, px (a webcam's view
#: of a die about 60 px wide, as in matteop65's photos).
HALF_W, HALF_H, SIDE = 30, 24, 18


def slanted(top: tuple[tuple[int, int], ...], side: tuple[tuple[float, float], ...],
            x: int = 320, y: int = 240) -> np.ndarray:
    """A 640x480 frame with one white die at (x, y) seen from the front at a slant: its
    top face's pips ``top`` (px from its centre) are near round, its side face's ``side``
    (px from that face's centre) flattened to half their height."""
    rng = np.random.default_rng(0)
    img = np.full((480, 640, 3), (150, 170, 185), np.float32) + rng.normal(0, 3, (480, 640, 1))
    img = np.clip(img, 0, 255).astype(np.uint8)
    cv2.rectangle(img, (x - HALF_W, y + HALF_H), (x + HALF_W, y + HALF_H + SIDE),
                  (222, 226, 226), -1, cv2.LINE_AA)
    cv2.rectangle(img, (x - HALF_W, y - HALF_H), (x + HALF_W, y + HALF_H), (235, 240, 240), -1,
                  cv2.LINE_AA)
    for u, v in top:
        cv2.ellipse(img, (x + u, y + v), (5, 4), 0, 0, 360, (25, 25, 25), -1, cv2.LINE_AA)
    middle = y + HALF_H + SIDE / 2
    for u, v in side:
        cv2.ellipse(img, (round(x + u), round(middle + v)), (5, 2), 0, 0, 360, (30, 30, 30), -1,
                    cv2.LINE_AA)
    return img


def side_three(dx: float, dy: float) -> tuple[tuple[float, float], ...]:
    """A 3 on the side face, its pips ``dx``, ``dy`` px apart."""
    return ((-dx, -dy), (0.0, 0.0), (dx, dy))


@pytest.mark.parametrize(("dx", "dy"), [(14, 5.4), (20, 5.4), (20, 0), (26, 9)])
def test_a_one_with_a_side_face_pip_beside_it_is_not_answered_as_a_two(
        dx: float, dy: float, unsure_of_the_one: FaceClassifier) -> None:
    roll = read(slanted(((0, 0),), side_three(dx, dy)), classifier=unsure_of_the_one)
    assert not roll.ok or roll.values == (1,), (roll.values, roll.reason)


def test_a_two_above_a_side_face_is_read() -> None:
    # both pips on the top face, equally foreshortened: a 2, whatever the side face shows
    roll = read(slanted(((-10, -8), (10, 8)), side_three(20, 5.4)))
    assert roll.ok and roll.values == (2,), roll.reason
