"""Exporting the corrected readings as a labelled dataset folder."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from dicetray.firmware.errors import StoreError
from dicetray.firmware.labelled import LABELS, export
from dicetray.firmware.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "data") as opened:
        yield opened


def unsure(*values: int) -> dict:
    return {
        "status": "unsure",
        "reason": "ambiguous: a 2 or a 3",
        "dice": [{"value": v} for v in values],
    }


def labels(folder: Path) -> list[dict[str, str]]:
    with (folder / LABELS).open(newline="") as file:
        return list(csv.DictReader(file))


class TestExport:
    def test_photos_and_labels_like_the_shared_datasets(self, store: Store, tmp_path: Path) -> None:
        first = store.add_reading(unsure(2, 6, 1), frame=b"first jpeg", game_id=None)
        second = store.add_reading(unsure(5), frame=b"second png", game_id=None, suffix=".png")
        store.add_correction(first, reader=[2, 6, 1], players=[3, 6, 1])
        store.add_correction(second, reader=[5], players=[5, 5])
        done = export(store.corrections(), tmp_path / "mine")
        assert (done.folder, done.photos, done.without_frame) == (tmp_path / "mine", 2, ())
        rows = labels(tmp_path / "mine")
        assert [(r["n_dice"], r["values_sorted"]) for r in rows] == [("3", "1 3 6"), ("2", "5 5")]
        images = [(tmp_path / "mine" / r["image"]).read_bytes() for r in rows]
        assert images == [b"first jpeg", b"second png"]
        assert rows[1]["image"].endswith(".png")

    def test_the_details_go_beside_the_labels(self, store: Store, tmp_path: Path) -> None:
        rid = store.add_reading(unsure(4, 4), frame=b"jpeg", game_id=None)
        store.add_correction(rid, reader=[4, 4], players=[4, 1])
        export(store.corrections(), tmp_path / "mine")
        [line] = (tmp_path / "mine" / "corrections.jsonl").read_text().splitlines()
        detail = json.loads(line)
        assert (detail["reading_id"], detail["reader"], detail["players"]) == (rid, [4, 4], [4, 1])
        assert detail["reading"] == unsure(4, 4)
        assert detail["frame"] == labels(tmp_path / "mine")[0]["image"]

    def test_the_latest_correction_of_a_reading_wins(self, store: Store, tmp_path: Path) -> None:
        rid = store.add_reading(unsure(1, 2), frame=b"jpeg", game_id=None)
        store.add_correction(rid, reader=[1, 2], players=[1, 3])
        store.add_correction(rid, reader=[1, 2], players=[4, 3])
        assert export(store.corrections(), tmp_path / "mine").photos == 1
        assert [r["values_sorted"] for r in labels(tmp_path / "mine")] == ["3 4"]

    def test_readings_without_a_frame_are_left_out_and_named(
        self, store: Store, tmp_path: Path
    ) -> None:
        kept = store.add_reading(unsure(6), frame=b"jpeg", game_id=None)
        gone = store.add_reading(unsure(6), frame=b"jpeg", game_id=None)
        never = store.add_reading(unsure(6), frame=None, game_id=None)
        for rid in (kept, gone, never):
            store.add_correction(rid, reader=[6], players=[5])
        store.reading(gone).frame_path.unlink()
        done = export(store.corrections(), tmp_path / "mine")
        assert (done.photos, done.without_frame) == (1, (gone, never))

    def test_an_earlier_export_is_never_overwritten(self, store: Store, tmp_path: Path) -> None:
        folder = tmp_path / "mine"
        folder.mkdir()
        (folder / LABELS).write_text("image,n_dice,values_sorted\nmine.jpg,1,6\n")
        with pytest.raises(StoreError, match="already exists"):
            export(store.corrections(), folder)
        assert (folder / LABELS).read_text() == "image,n_dice,values_sorted\nmine.jpg,1,6\n"

    def test_an_unwritable_target_is_a_store_error(self, store: Store, tmp_path: Path) -> None:
        (tmp_path / "file").write_bytes(b"")
        with pytest.raises(StoreError, match="cannot export"):
            export(store.corrections(), tmp_path / "file" / "mine")

    def test_nothing_corrected_exports_an_empty_set(self, store: Store, tmp_path: Path) -> None:
        store.add_reading(unsure(3), frame=b"jpeg", game_id=None)
        assert export(store.corrections(), tmp_path / "mine").photos == 0
        assert labels(tmp_path / "mine") == []
