"""Distilling the mirror-averaged detector: the student starts as the exported network,
learns exactly what the reader computes with the mirror pass, from the train halves only."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from benchmarks.halves import Half, photos_in
from dicetray.vision.classifier import CROP
from dicetray.vision.detector import MODEL, heat_maps, network_input
from dicetray.vision.networks import load
from dicetray.vision.render import render
from dicetray.vision.scene import random_scene
from training.classifier import from_onnx as classifier_from_onnx
from training.detector import DiceNet, from_onnx
from training.distill import Distilling, Inputs, averaged, loss, train_photos

CLASSIFIER = MODEL.with_name("face-classifier.onnx")


def test_the_student_starts_as_the_exported_detector() -> None:
    blob = network_input(render(random_scene(3, dice=5, image_size=(640, 480)))[0])
    with torch.no_grad():
        out = from_onnx(DiceNet(), MODEL, "inner.").eval()(torch.from_numpy(blob))[0].numpy()
    shipped = load(MODEL, "dice detector").run(blob)[0]
    assert np.allclose(1 / (1 + np.exp(-out[:3])), shipped[:3], atol=1e-5)
    assert np.allclose(out[3:], shipped[3:], atol=1e-4)


def test_the_classifier_reads_its_export_through_the_same_helper() -> None:
    crops = np.random.default_rng(0).uniform(-1, 1, (2, 3, CROP, CROP)).astype(np.float32)
    with torch.no_grad():
        logits = classifier_from_onnx(CLASSIFIER).eval()(torch.from_numpy(crops)).numpy()
    shipped = load(CLASSIFIER, "face classifier", exact=True).run(crops)
    assert np.allclose(logits, shipped, atol=1e-4)


def test_a_wrong_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="convolutions"):
        from_onnx(DiceNet(), CLASSIFIER)


@pytest.mark.parametrize("side", [320, 448])
def test_the_target_is_what_the_reader_computes_with_the_mirror_pass(side: int) -> None:
    frame, _ = render(random_scene(4, dice=5, image_size=(640, 480)))
    reader, _ = heat_maps(frame, side=side, mirror=True)
    target = averaged(load(MODEL, "dice detector"), network_input(frame, side))
    assert np.allclose(target, reader, atol=1e-5)
    one_pass, _ = heat_maps(frame, side=side, mirror=False)
    assert not np.allclose(target, one_pass, atol=1e-5)


def test_the_inputs_are_windows_of_the_train_halves_photos_and_the_frames() -> None:
    photos = train_photos(["nell-byler"])
    assert len(photos) == len(photos_in("nell-byler", Half.TRAIN))
    frames = np.zeros((2, 240, 320, 3), np.uint8)
    inputs = Inputs(photos, frames, seed=0, distilling=Distilling(window=128))
    for _ in range(20):
        blob = inputs()
        assert blob.shape[:2] == (1, 3)
        assert 8 <= blob.shape[2] <= 128 and 8 <= blob.shape[3] <= 128
        assert blob.shape[2] % 8 == 0 and blob.shape[3] % 8 == 0
        assert blob.min() >= -1.0 and blob.max() <= 1.0


def test_the_loss_is_least_where_the_student_answers_as_the_teacher() -> None:
    target = torch.rand(1, 6, 8, 8) * torch.tensor([0.9, 0.9, 0.9, 1, 1, 1])[None, :, None, None]
    logits = torch.cat([torch.logit(target[:, :3]), target[:, 3:]], 1)
    assert float(loss(logits, target, 1.0)) == pytest.approx(0.0, abs=1e-4)
    assert float(loss(logits + 0.1, target, 1.0)) > 1e-3
    moved = logits.clone()
    moved[:, 3:] += 0.1  # the sizes and offsets count as well
    assert float(loss(moved, target, 1.0)) > 1e-3
