"""The real labelled dice photos in ``../shared/datasets`` (never copied into the repo).

Two sets, each loaded as a list of :class:`Photo` (see the datasets README):

- ``matteop65``: 396 webcam photos of 1–5 white dice, split Train/Valid in ``labels.csv``;
- ``nell-byler``: 200 phone photos of 1–25 dice of many colours, ``labels.csv`` checked
  against the per-die boxes in ``boxes.csv``.

>>> photos = load_set("matteop65", split="Valid")
>>> len(photos), photos[0].set, photos[0].split, photos[0].n_dice == len(photos[0].values)
(86, 'matteop65', 'Valid', True)
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "REPO_ROOT",
    "SETS",
    "DatasetError",
    "Photo",
    "datasets_root",
    "load_matteop65",
    "load_nell_byler",
    "load_set",
]

REPO_ROOT = Path(__file__).resolve().parents[1]


class DatasetError(Exception):
    """A dataset is missing or its labels do not add up (the message names file and row)."""


class Photo(NamedTuple):
    """One labelled photo: its set, name inside the set, path, true values and dice count."""

    set: str
    name: str
    path: Path
    values: tuple[int, ...]
    n_dice: int
    split: str | None = None


def datasets_root(repo_root: Path | str = REPO_ROOT) -> Path:
    """Where the shared datasets live: ``<repo root>/../shared/datasets``.

    >>> datasets_root("/work/main")
    PosixPath('/work/shared/datasets')
    """
    return Path(repo_root).parent / "shared" / "datasets"


def _read_labels(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        raise DatasetError(f"{path}: labels file not found (are the shared datasets there?)")
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def _photo(set_name: str, folder: Path, row: dict[str, str], line: int, split: str | None) -> Photo:
    """Check one labels row and turn it into a :class:`Photo`."""
    where = f"{folder / 'labels.csv'}:{line}"
    try:
        values = tuple(int(v) for v in row["values_sorted"].split())
        n_dice = int(row["n_dice"])
        name = row["image"]
    except (KeyError, ValueError, AttributeError) as exc:
        raise DatasetError(f"{where}: bad row {row!r} ({exc})") from exc
    if len(values) != n_dice or any(not 1 <= v <= 6 for v in values):
        raise DatasetError(f"{where}: values {values} do not fit n_dice {n_dice}")
    if list(values) != sorted(values):
        raise DatasetError(f"{where}: values_sorted is not sorted: {values}")
    path = folder / name
    if not path.is_file():
        raise DatasetError(f"{where}: image {path} not found")
    return Photo(set_name, name, path, values, n_dice, split)


def load_matteop65(root: Path | None = None, split: str | None = None) -> list[Photo]:
    """The ``matteop65`` photos, all of them or one ``split`` (``"Train"`` or ``"Valid"``)."""
    folder = (root or datasets_root()) / "matteop65"
    if split not in (None, "Train", "Valid"):
        raise DatasetError(f"matteop65 split must be 'Train' or 'Valid', got {split!r}")
    photos = []
    for line, row in enumerate(_read_labels(folder / "labels.csv"), start=2):
        if row.get("split") not in ("Train", "Valid"):
            raise DatasetError(f"{folder / 'labels.csv'}:{line}: bad split {row.get('split')!r}")
        if split is None or row["split"] == split:
            photos.append(_photo("matteop65", folder, row, line, row["split"]))
    return photos


def load_nell_byler(root: Path | None = None, split: str | None = None) -> list[Photo]:
    """The ``nell-byler`` photos; each label is checked against the dice in ``boxes.csv``."""
    folder = (root or datasets_root()) / "nell-byler"
    if split is not None:
        raise DatasetError(f"nell-byler has no splits, got {split!r}")
    boxed: defaultdict[str, list[int]] = defaultdict(list)
    for line, row in enumerate(_read_labels(folder / "boxes.csv"), start=2):
        try:
            boxed[row["filename"]].append(int(row["value"]))
        except (KeyError, ValueError) as exc:
            raise DatasetError(f"{folder / 'boxes.csv'}:{line}: bad row ({exc})") from exc
    photos = []
    for line, row in enumerate(_read_labels(folder / "labels.csv"), start=2):
        photo = _photo("nell-byler", folder, row, line, None)
        if tuple(sorted(boxed.get(photo.path.name, ()))) != photo.values:
            raise DatasetError(
                f"{folder / 'labels.csv'}:{line}: labels {photo.values} disagree with "
                f"boxes.csv {sorted(boxed.get(photo.path.name, ()))}"
            )
        photos.append(photo)
    return photos


_LOADERS: dict[str, Callable[..., list[Photo]]] = {
    "matteop65": load_matteop65,
    "nell-byler": load_nell_byler,
}
SETS: tuple[str, ...] = tuple(_LOADERS)


def load_set(name: str, root: Path | None = None, split: str | None = None) -> list[Photo]:
    """The photos of the set called ``name`` (one of :data:`SETS`).

    >>> load_set("holiday-snaps")
    Traceback (most recent call last):
    ...
    benchmarks.datasets.DatasetError: unknown set 'holiday-snaps'; known: matteop65, nell-byler
    """
    if name not in _LOADERS:
        raise DatasetError(f"unknown set {name!r}; known: {', '.join(SETS)}")
    return _LOADERS[name](root, split)
