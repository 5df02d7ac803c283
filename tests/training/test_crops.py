"""The face classifier's training crops: reproducible, and labelled with what they show."""

from __future__ import annotations

import numpy as np

from dicetray.vision.classifier import CLASSES, CROP
from training.crops import CLUTTER, PER_DIE, edge_crops, sample_crops
from training.data import compose


def test_crops_are_reproducible_from_their_seed() -> None:
    first, second = sample_crops(3), sample_crops(3)
    assert np.array_equal(first[0], second[0]) and np.array_equal(first[1], second[1])
    assert first[0].shape[1:] == (CROP, CROP, 3) and first[0].dtype == np.uint8


def test_labels_follow_the_rendered_truth() -> None:
    for seed in range(10):
        _, _, truth, things = compose(seed, CLUTTER)
        _, labels = sample_crops(seed, edges=False)
        expected = []
        for die in truth.dice:
            if not die.cut:
                label = CLASSES.index("unreadable") if die.cocked or die.blurred else die.value
                expected += [label] * PER_DIE
        # the dice first, in order, then at most one crop of bare floor and one of each
        # thing on it that is not a die
        assert labels[: len(expected)].tolist() == expected
        rest = labels[len(expected):].tolist()
        assert rest == [CLASSES.index("none")] * len(rest)
        assert len(things) <= len(rest) <= len(things) + 1


def test_every_class_is_made() -> None:
    seen = set()
    for seed in range(40):
        seen |= set(sample_crops(seed)[1].tolist())
    assert seen == set(range(len(CLASSES)))


def _replicated_border(crop: np.ndarray) -> int:
    """How many rows or columns, on the side of the crop where most are, repeat the one
    inside them (what :func:`dicetray.vision.classifier.crop` puts beyond a frame's edge;
    within 2 levels, the crop's scaling rounding each to the nearest)."""
    runs = []
    a = crop.astype(np.int16)
    for view in (a, a[:, ::-1], a.transpose(1, 0, 2), a.transpose(1, 0, 2)[:, ::-1]):
        n = 0
        while n + 1 < view.shape[1] and np.abs(view[:, n] - view[:, n + 1]).max() <= 2:
            n += 1
        runs.append(n)
    return max(runs)


def _die_frame() -> np.ndarray:
    frame = np.random.default_rng(1).integers(60, 120, (200, 300, 3)).astype(np.uint8)
    frame[80:120, 130:170] = 235  # a white die's top face, 40 px, with a 1's pip
    frame[95:105, 145:155] = 20
    return frame


def test_a_die_the_frame_cuts_is_no_readable_face_and_one_beside_it_keeps_its_value() -> None:
    frame = _die_frame()
    for seed in range(8):
        crops, labels = edge_crops(np.random.default_rng(seed), frame, 150.0, 100.0, 40.0,
                                   (130.0, 80.0, 170.0, 120.0), 1)
        assert labels == [CLASSES.index("unreadable"), 1]
        cut, whole = crops
        assert cut.shape == whole.shape == (CROP, CROP, 3)
        # the cut crop runs past the frame's edge, which crosses the die: beyond it the
        # edge's pixels repeat, over at least a fifth of the crop (the die is 40 px of
        # the crop's 60, at most 70 % of it inside)
        assert _replicated_border(cut) >= CROP // 5
        # the whole die, its pip too, lies inside the frame of the other, the frame's edge
        # beyond it (repeated, its last row or column of white runs on to the crop's side)
        white = int((whole > 200).all(axis=2).sum())
        pip = int((whole < 60).all(axis=2).sum())
        assert pip >= 6 and white >= 0.5 * (CROP / 1.5 / 1.2) ** 2


def test_a_thing_that_is_no_die_is_cut_as_no_die_only() -> None:
    crops, labels = edge_crops(np.random.default_rng(0), _die_frame(), 150.0, 100.0, 40.0,
                               (130.0, 80.0, 170.0, 120.0), None)
    assert labels == [CLASSES.index("none")] and len(crops) == 1


def test_frames_give_dice_cut_by_an_edge_only_when_asked() -> None:
    unreadable = CLASSES.index("unreadable")
    plain = edged = 0
    for seed in range(12):
        _, _, truth, _ = compose(seed, CLUTTER)
        leaning = sum(PER_DIE for d in truth.dice if not d.cut and (d.cocked or d.blurred))
        plain += int((sample_crops(seed, edges=False)[1] == unreadable).sum()) - leaning
        edged += int((sample_crops(seed, edges=True)[1] == unreadable).sum()) - leaning
    assert plain == 0 and edged >= 12
