"""Crops of the real photos: cut where the reader's detector finds the labelled dice, the
way the reader cuts them, labelled from the boxes, and from the train half only."""

from __future__ import annotations

import cv2
import numpy as np

from benchmarks.halves import Half, photos_in
from dicetray.vision.classifier import CROP, crop
from training.evaluate import boxes
from training.real import NO_DIE, Cutting, labelled_finds, photo_crops


def _photo(name: str, k: int = 0) -> tuple[np.ndarray, list]:
    photo = [p for p in photos_in(name, Half.TRAIN) if p.n_dice >= 3][k]
    return cv2.imread(str(photo.path)), boxes(name)[photo.path]


def test_each_labelled_die_found_is_cropped_as_the_reader_crops_it_with_its_value() -> None:
    image, truth = _photo("matteop65")
    paired, far = labelled_finds(image, truth)
    assert 0 < len(paired) <= len(truth)
    for c, value in paired:
        box = next(b for b in truth if b[0] <= c.x <= b[2] and b[1] <= c.y <= b[3])
        assert value == box[4]
    crops, labels = photo_crops(image, truth, np.random.default_rng(0), Cutting(copies=2))
    assert len(crops) == 3 * len(paired) + len(far)
    assert labels[:3 * len(paired)] == [v for _, v in paired for _ in range(3)]
    assert labels[3 * len(paired):] == [NO_DIE] * len(far)
    c = paired[0][0]
    assert np.array_equal(crops[0], crop(image, c.x, c.y, c.size))
    assert crops[0].shape == (CROP, CROP, 3)


def test_finds_far_from_every_labelled_die_are_no_dice() -> None:
    image, truth = _photo("nell-byler", 1)
    _, far = labelled_finds(image, truth)
    for c in far:
        assert all(np.hypot(c.x - (b[0] + b[2]) / 2, c.y - (b[1] + b[3]) / 2)
                   >= Cutting.clear * max(b[2] - b[0], b[3] - b[1]) for b in truth)
    # with no labels at all every find is far from them
    paired, everything = labelled_finds(image, [])
    assert not paired and len(everything) >= len(truth)


def test_the_jittered_copies_are_reproducible_from_their_seed() -> None:
    image, truth = _photo("matteop65", 1)
    first = photo_crops(image, truth, np.random.default_rng(5))
    again = photo_crops(image, truth, np.random.default_rng(5))
    assert all(np.array_equal(a, b) for a, b in zip(first[0], again[0], strict=True))

