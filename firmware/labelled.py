"""The labelled photos the tray collects: corrected readings, exported as a dataset folder.

Every time the players correct a reading, the store keeps the frame beside the players'
values (:meth:`dicetray.firmware.store.Store.corrections`). :func:`export` writes them as a
folder laid out like the shared datasets (``../shared/datasets/README.md``): the photos
under ``images/`` and a ``labels.csv`` with ``image``, ``n_dice`` and ``values_sorted``,
plus ``corrections.jsonl`` with the reader's answer and the whole reading for each photo.

>>> import tempfile
>>> from pathlib import Path
>>> from dicetray.firmware.store import Store
>>> with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "data") as store:
...     rid = store.add_reading({"status": "unsure", "dice": [{"value": 1}]},
...                             frame=b"jpeg", game_id=None)
...     _ = store.add_correction(rid, reader=[1], players=[4])
...     done = export(store.corrections(), Path(tmp) / "mine")
...     done.photos, (Path(tmp) / "mine" / "labels.csv").read_text().splitlines()
(1, ['image,n_dice,values_sorted', 'images/0000001.jpg,1,4'])
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dicetray.firmware.errors import StoreError
from dicetray.firmware.store import Correction

__all__ = ["LABELS", "Export", "export"]

#: The labels file of an exported folder (the shared datasets' name and columns).
LABELS = "labels.csv"


@dataclass(frozen=True)
class Export:
    """What :func:`export` wrote: ``photos`` labelled, and the readings it had to leave out
    because their frame file is gone (or they never had one)."""

    folder: Path
    photos: int
    without_frame: tuple[int, ...] = ()


def export(corrections: Iterable[Correction], folder: str | os.PathLike[str]) -> Export:
    """Write the corrected readings as a dataset folder; a reading's latest correction wins.

    The folder is created; one that already holds a ``labels.csv`` is refused
    (:class:`StoreError`), never overwritten.
    """
    target = Path(folder)
    if (target / LABELS).exists():
        raise StoreError(f"{target / LABELS} already exists; export into a new folder")
    latest: dict[int, Correction] = {}
    for correction in corrections:
        latest[correction.reading_id] = correction
    images = target / "images"
    rows, lines, without = [], [], []
    try:
        images.mkdir(parents=True, exist_ok=True)
        for reading_id, correction in sorted(latest.items()):
            if correction.frame_path is None:
                without.append(reading_id)
                continue
            name = f"images/{correction.frame_path.name}"
            shutil.copyfile(correction.frame_path, target / name)
            values = sorted(correction.players)
            rows.append((name, len(values), " ".join(map(str, values))))
            lines.append(json.dumps({**correction.to_json(), "frame": name}))
        with open(target / "corrections.jsonl", "w", encoding="utf-8") as file:
            file.writelines(line + "\n" for line in lines)
        with open(target / LABELS, "w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file, lineterminator="\n")
            writer.writerow(("image", "n_dice", "values_sorted"))
            writer.writerows(rows)
    except OSError as exc:
        raise StoreError(
            f"cannot export to {target}: {exc.strerror or exc} ({exc.filename or target})"
        ) from None
    return Export(target, len(rows), tuple(without))
