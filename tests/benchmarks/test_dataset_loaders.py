"""The loaders of the shared real dice photos find every photo with its labels."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.datasets import (
    REPO_ROOT,
    DatasetError,
    datasets_root,
    load_matteop65,
    load_nell_byler,
    load_set,
)


def test_root_is_beside_the_repo() -> None:
    assert datasets_root(REPO_ROOT) == REPO_ROOT.parent / "shared" / "datasets"
    assert datasets_root().is_dir()


class TestMatteop65:
    def test_all_396_photos_with_labels(self) -> None:
        photos = load_matteop65()
        assert len(photos) == 396
        assert len({p.path for p in photos}) == 396
        assert all(p.path.is_file() and p.path.suffix == ".jpg" for p in photos)
        assert all(1 <= p.n_dice <= 5 and len(p.values) == p.n_dice for p in photos)
        assert sum(p.n_dice == 5 for p in photos) == 98

    def test_splits(self) -> None:
        train, valid = load_matteop65(split="Train"), load_matteop65(split="Valid")
        assert (len(train), len(valid)) == (310, 86)
        assert {p.split for p in train} == {"Train"} and {p.split for p in valid} == {"Valid"}
        assert {p.path for p in train}.isdisjoint(p.path for p in valid)

    def test_known_label(self) -> None:
        (photo,) = [p for p in load_matteop65() if p.name.endswith("Train/dice_20.jpg")]
        assert photo.values == (1, 1, 1, 1, 1)

    def test_unknown_split(self) -> None:
        with pytest.raises(DatasetError, match="split"):
            load_matteop65(split="Test")


class TestNellByler:
    def test_all_200_photos_with_labels(self) -> None:
        photos = load_nell_byler()
        assert len(photos) == 200
        assert all(p.path.is_file() and p.split is None for p in photos)
        assert all(1 <= p.n_dice <= 25 and len(p.values) == p.n_dice for p in photos)
        assert sum(p.n_dice for p in photos) == 1487  # one row per die in boxes.csv

    def test_values_are_sorted(self) -> None:
        assert all(list(p.values) == sorted(p.values) for p in load_nell_byler())


def _fake_set(tmp_path: Path, labels: str, boxes: str) -> Path:
    folder = tmp_path / "nell-byler"
    (folder / "images").mkdir(parents=True)
    (folder / "images" / "a.jpg").write_bytes(b"not really a jpeg")
    (folder / "labels.csv").write_text(labels)
    (folder / "boxes.csv").write_text(boxes)
    return tmp_path


BOXES = "filename,width,height,value,xmin,ymin,xmax,ymax\na.jpg,640,640,3,0,0,1,1\n"


class TestBadLabels:
    def test_good_fake_set_loads(self, tmp_path: Path) -> None:
        root = _fake_set(tmp_path, "image,n_dice,values_sorted\nimages/a.jpg,1,3\n", BOXES)
        assert load_set("nell-byler", root)[0].values == (3,)

    def test_count_disagrees_with_values(self, tmp_path: Path) -> None:
        root = _fake_set(tmp_path, "image,n_dice,values_sorted\nimages/a.jpg,2,3\n", BOXES)
        with pytest.raises(DatasetError, match=r"labels.csv:2: values \(3,\) do not fit n_dice 2"):
            load_nell_byler(root)

    def test_labels_disagree_with_boxes(self, tmp_path: Path) -> None:
        root = _fake_set(tmp_path, "image,n_dice,values_sorted\nimages/a.jpg,1,4\n", BOXES)
        with pytest.raises(DatasetError, match=r"disagree with boxes\.csv"):
            load_nell_byler(root)

    def test_missing_image(self, tmp_path: Path) -> None:
        root = _fake_set(tmp_path, "image,n_dice,values_sorted\nimages/b.jpg,1,3\n", BOXES)
        with pytest.raises(DatasetError, match="not found"):
            load_nell_byler(root)

    def test_not_a_number(self, tmp_path: Path) -> None:
        root = _fake_set(tmp_path, "image,n_dice,values_sorted\nimages/a.jpg,one,3\n", BOXES)
        with pytest.raises(DatasetError, match="bad row"):
            load_nell_byler(root)

    def test_missing_labels_file(self, tmp_path: Path) -> None:
        with pytest.raises(DatasetError, match="labels file not found"):
            load_matteop65(tmp_path)

    def test_unknown_set(self) -> None:
        with pytest.raises(DatasetError, match="unknown set"):
            load_set("kaggle")
