"""Crops of the real photos: cut where the reader's detector finds the labelled dice, the
way the reader cuts them, labelled from the boxes, and from the train half only."""

from __future__ import annotations

import cv2
import numpy as np

from benchmarks.halves import Half, photos_in
from dicetray.vision.classifier import CROP, crop
from training.evaluate import boxes
from training.real import NO_DIE, UNREADABLE, Cutting, labelled_finds, photo_crops, smear


def _photo(name: str, k: int = 0) -> tuple[np.ndarray, list]:
    photo = [p for p in photos_in(name, Half.TRAIN) if p.n_dice >= 3][k]
    return cv2.imread(str(photo.path)), boxes(name)[photo.path]


def test_each_labelled_die_found_is_cropped_as_the_reader_crops_it_with_its_value() -> None:
    image, truth = _photo("matteop65")
    paired, far = labelled_finds(image, truth)
    assert 0 < len(paired) <= len(truth)
    for c, box in paired:
        assert box in truth and box[0] <= c.x <= box[2] and box[1] <= c.y <= box[3]
    crops, labels = photo_crops(image, truth, np.random.default_rng(0),
                                Cutting(copies=2, smeared=1, edges=0))
    assert len(crops) == 4 * len(paired) + len(far)
    assert labels[:3 * len(paired)] == [box[4] for _, box in paired for _ in range(3)]
    assert labels[3 * len(paired):] == [NO_DIE] * len(far) + [UNREADABLE] * len(paired)
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



def test_a_smeared_die_is_cut_where_it_is_and_blurred_along_its_motion() -> None:
    image, truth = _photo("matteop65")
    c = labelled_finds(image, truth)[0][0][0]
    sharp = crop(image, c.x, c.y, c.size)
    # moving less than a pixel it is the die as found
    assert np.array_equal(smear(image, c.x, c.y, c.size, 0.5, 1.0), sharp)
    along = smear(image, c.x, c.y, c.size, 0.8 * c.size, 0.0)  # left to right
    assert along.shape == sharp.shape

    def detail(a: np.ndarray, axis: int) -> float:
        return float(np.abs(np.diff(a.astype(np.float32), axis=axis)).mean())

    # the pips' edges smear out along the motion (x, axis 1), far less across it
    assert detail(along, 1) < 0.5 * detail(sharp, 1)
    assert detail(along, 0) > detail(along, 1)
