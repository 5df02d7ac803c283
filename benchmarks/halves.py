"""The face classifier's split of the shared photos: the half it may learn from, and the
half its figures (and the reader's with it) are reported on.

- ``matteop65``: its own split, ``Train`` to learn from, ``Valid`` held out;
- ``nell-byler`` (no split of its own): by a stable hash of the photo's file name, so a
  photo never changes half when photos are added or renamed elsewhere.

Both halves of a set show the same physical dice (each set was shot in one sitting), in
other rolls: the held-out half says how the classifier reads new rolls of dice it has
seen, not dice it has never seen (the rendered and sketched dice stand for those).

>>> from benchmarks.datasets import load_set
>>> [len(photos_in("matteop65", h)) for h in Half]
[310, 86]
>>> [len(photos_in("nell-byler", h)) for h in Half]
[97, 103]
>>> half_of(load_set("nell-byler")[0]) == half_of(load_set("nell-byler")[0])
True
"""

from __future__ import annotations

import hashlib
from enum import StrEnum
from pathlib import Path

from benchmarks.datasets import DatasetError, Photo, load_set

__all__ = ["Half", "half_of", "photos_in"]


class Half(StrEnum):
    """Which half of a shared set a photo is in."""

    TRAIN = "train"
    HELD_OUT = "held-out"


def half_of(photo: Photo) -> Half:
    """The half ``photo`` is in (see the module's docstring)."""
    if photo.set == "matteop65":
        if photo.split not in ("Train", "Valid"):
            raise DatasetError(f"matteop65 photo {photo.name} has no split ({photo.split!r})")
        return Half.TRAIN if photo.split == "Train" else Half.HELD_OUT
    digest = hashlib.sha256(Path(photo.name).name.encode("utf-8")).digest()
    return Half.TRAIN if digest[0] % 2 == 0 else Half.HELD_OUT


def photos_in(set_name: str, half: Half | str, root: Path | None = None) -> list[Photo]:
    """The photos of the set ``set_name`` in ``half`` (``"train"`` or ``"held-out"``).

    >>> photos_in("matteop65", "test")
    Traceback (most recent call last):
    ...
    benchmarks.datasets.DatasetError: unknown half 'test'; known: train, held-out
    """
    if half not in {h.value for h in Half}:
        raise DatasetError(f"unknown half {half!r}; known: {', '.join(Half)}")
    return [p for p in load_set(set_name, root) if half_of(p) == half]
