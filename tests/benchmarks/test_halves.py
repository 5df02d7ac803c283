"""The classifier's split of the shared photos: two halves, disjoint, fixed by name."""

from __future__ import annotations

import pytest

from benchmarks.datasets import SETS, DatasetError, Photo, load_set
from benchmarks.halves import Half, half_of, photos_in


@pytest.mark.parametrize("name", SETS)
def test_the_halves_share_no_photo_and_miss_none(name: str) -> None:
    train = {p.path for p in photos_in(name, Half.TRAIN)}
    held = {p.path for p in photos_in(name, Half.HELD_OUT)}
    assert train and held and not train & held
    assert train | held == {p.path for p in load_set(name)}


def test_matteop65_keeps_its_own_split() -> None:
    assert {p.split for p in photos_in("matteop65", "train")} == {"Train"}
    assert {p.split for p in photos_in("matteop65", "held-out")} == {"Valid"}


def test_a_nell_byler_photo_s_half_follows_its_file_name_alone() -> None:
    photo = load_set("nell-byler")[0]
    moved = photo._replace(name="elsewhere/" + photo.name.split("/")[-1],
                           path=photo.path.parent.parent / "copy" / photo.path.name, values=(1,))
    assert half_of(moved) == half_of(photo)
    halves = {half_of(p) for p in load_set("nell-byler")[:20]}
    assert halves == set(Half)


def test_an_unknown_half_or_a_matteop65_photo_without_split_is_refused() -> None:
    with pytest.raises(DatasetError, match="unknown half 'test'"):
        photos_in("matteop65", "test")
    stray = Photo("matteop65", "x.jpg", load_set("matteop65")[0].path, (1,), 1, None)
    with pytest.raises(DatasetError, match="has no split"):
        half_of(stray)
