"""The recognizer on a few real labelled photos from ../shared/datasets."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import pytest

from dicetray.vision import read

REPO = Path(__file__).resolve().parents[2]
DATASETS = REPO.parent / "shared" / "datasets"


def _labels(name: str) -> dict[str, tuple[int, ...]]:
    path = DATASETS / name / "labels.csv"
    if not path.is_file():
        pytest.fail(
            f"labelled photos missing: expected {path} (the shared datasets beside the repo)"
        )
    with path.open(newline="") as fh:
        return {
            r["image"]: tuple(int(v) for v in r["values_sorted"].split())
            for r in csv.DictReader(fh)
        }


# clean five-dice rolls from the matteop65 validation split (white dice, black pips)
CLEAN = [f"Data/Training_Images/Valid/valid_{k}.jpg" for k in (80, 82, 83, 85)]


def test_clean_rolls_are_read_right() -> None:
    labels = _labels("matteop65")
    for image in CLEAN:
        truth = labels[image]
        roll = read(cv2.imread(str(DATASETS / "matteop65" / image)), dice=len(truth))
        assert roll.ok and roll.values == truth, (image, roll.reason, roll.values, truth)


def test_never_silently_wrong_on_a_sample() -> None:
    labels = _labels("matteop65")
    sample = sorted(k for k in labels if "/Valid/" in k)[:24]
    wrong = []
    for image in sample:
        truth = labels[image]
        roll = read(cv2.imread(str(DATASETS / "matteop65" / image)), dice=len(truth))
        if roll.ok and roll.values != truth:
            wrong.append((image, roll.values, truth))
    assert wrong == []
