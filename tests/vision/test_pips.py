"""Pip candidates: each polarity's and each map's blobs found alone, also when found at once;
pips run together cut apart."""

from __future__ import annotations

import cv2
import numpy as np

from dicetray.vision.pips import Pips, chroma, find_pips, find_pips_in, hat_maps, pip_maps
from dicetray.vision.pipscene import face_pips
from dicetray.vision.render import render
from dicetray.vision.scene import random_scene
from dicetray.vision.settings import DEFAULT_SETTINGS


def _same(a: Pips, b: Pips) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in Pips.__dataclass_fields__)


def test_a_dark_and_a_light_pip_at_the_maps_edges_stay_apart() -> None:
    # a dark pip on the bottom edge and a light pip on the top edge: labelled in one image,
    # the two maps must not run into each other
    face = np.full((40, 60, 3), 128, np.uint8)
    _ = cv2.circle(face, (20, 38), 4, (10, 10, 10), -1)
    _ = cv2.circle(face, (20, 1), 4, (250, 250, 250), -1)
    found = find_pips(face, kernel=13)
    assert sorted(zip(found.dark.tolist(), np.rint(found.y).tolist(), strict=True)) == [
        (False, 2.0), (True, 37.0)]  # the centres of the parts inside the face


def test_several_maps_at_once_find_what_each_finds_alone() -> None:
    frame, _ = render(random_scene(4, dice=5, image_size=(320, 240), style="red"))
    kernel = 7
    maps = [pip_maps(frame, kernel, every_channel=True, planes=True),
            *(hat_maps(ch, kernel, planes=True) for ch in chroma(frame))]
    for split in (False, True):
        alone = [find_pips(frame, kernel, m, split=split) for m in maps]
        together = find_pips_in(maps, kernel, split=split)
        assert len(together) == len(maps) and sum(len(p) for p in alone) > 10
        assert all(_same(a, b) for a, b in zip(alone, together, strict=True))
    assert find_pips_in([], kernel) == []
    blank = hat_maps(np.full((30, 30), 90, np.uint8), kernel)
    assert [len(p) for p in find_pips_in([blank, blank], kernel)] == [0, 0]


def test_two_pips_a_brighter_gap_runs_together_are_read_as_two_at_first() -> None:
    # white pips on a red face, joined by a pinkish bridge (as a JPEG's ringing brightens
    # the gap between a red die's pips): one blob too long for a pip, cut again nearer
    # its peak already at the first reading, as when looking closer (before, the first
    # reading lost both and the closer look found them: the face was refused)
    for bridge in (140, 170):
        face = np.full((80, 100, 3), (40, 40, 180), np.uint8)
        _ = cv2.rectangle(face, (44, 58), (58, 62), (bridge, bridge, 230), -1)
        for x in (44, 58):
            _ = cv2.circle(face, (x, 60), 4, (245, 245, 245), -1)
        first, _, _ = face_pips(face, 13, DEFAULT_SETTINGS)
        closer, _, _ = face_pips(face, 13, DEFAULT_SETTINGS, closer=True)
        for pips in (first, closer):
            assert sorted(np.rint(pips.x).tolist()) == [44.0, 58.0]
            assert np.rint(pips.y).tolist() == [60.0, 60.0] and not pips.dark.any()
