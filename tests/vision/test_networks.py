"""The network engines: ONNX Runtime and OpenCV run the shipped models alike, ONNX Runtime
runs their 8-bit copies where there are some and they read a real photo as the float
files do, the engine and thread count can be chosen, and a bad model or engine is a clear
error."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetray.vision.classifier import MODEL as CLASSIFIER
from dicetray.vision.classifier import crops
from dicetray.vision.detector import MODEL as DETECTOR
from dicetray.vision.errors import VisionError
from dicetray.vision.networks import ENGINE_VARIABLE, ENGINES, default_engine, load, quantized


@pytest.mark.parametrize(("model", "shape"), [(DETECTOR, (1, 3, 96, 128)),
                                              (CLASSIFIER, (3, 3, 40, 40))])
def test_both_engines_give_the_same_outputs(model: Path, shape: tuple[int, ...]) -> None:
    blob = np.random.default_rng(5).uniform(-1, 1, shape).astype(np.float32)
    fast, classic = (load(model, "test", engine, exact=True).run(blob) for engine in ENGINES)
    assert fast.shape == classic.shape
    assert fast.shape[0] == shape[0]
    assert np.abs(fast - classic).max() < 1e-4
    assert np.abs(fast).max() > 0.1  # not a blank output


@pytest.fixture(scope="module")
def webcam_photo() -> np.ndarray:
    from benchmarks.datasets import load_set

    photo = next(p for p in load_set("matteop65", split="Valid") if p.n_dice == 5)
    return cv2.imread(str(photo.path))


def test_onnx_runtime_runs_the_classifiers_8_bit_copy_and_opencv_the_float_file() -> None:
    blob = np.random.default_rng(3).uniform(-1, 1, (3, 3, 40, 40)).astype(np.float32)
    eight = load(CLASSIFIER, "test", "onnxruntime").run(blob)
    exact = load(CLASSIFIER, "test", "onnxruntime", exact=True).run(blob)
    classic = load(CLASSIFIER, "test", "opencv").run(blob)
    assert quantized(CLASSIFIER).stat().st_size < CLASSIFIER.stat().st_size / 3
    assert not quantized(DETECTOR).exists()  # the detector runs in floating point
    assert np.abs(exact - classic).max() < 1e-4
    assert 1e-4 < np.abs(eight - exact).max() < 1.0  # another network, near the float one


def test_the_8_bit_classifier_reads_the_dice_of_a_real_photo_as_the_float_one(
        webcam_photo: np.ndarray) -> None:
    from dicetray.vision.detector import find_dice

    dice = find_dice(webcam_photo)
    blob = crops(webcam_photo, [(c.x, c.y, c.size) for c in dice])
    eight, exact = (load(CLASSIFIER, "test", "onnxruntime", exact=e).run(blob)
                    for e in (False, True))
    assert len(dice) == 5
    assert (eight.argmax(axis=1) == exact.argmax(axis=1)).all()


def test_a_corrupt_8_bit_copy_is_a_clear_error_naming_it(tmp_path: Path) -> None:
    model = tmp_path / "net.onnx"
    model.write_bytes(DETECTOR.read_bytes())
    quantized(model).write_bytes(b"\x08\x07half a network")
    with pytest.raises(VisionError, match=r"dice detector model unreadable: .*net\.int8\.onnx"):
        load(model, "dice detector", "onnxruntime")
    assert load(model, "dice detector", "onnxruntime", exact=True) is not None
    assert load(model, "dice detector", "opencv") is not None


def test_the_fastest_installed_engine_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    assert default_engine() == "onnxruntime"
    assert default_engine(installed=lambda name: None) == "opencv"


def test_the_environment_picks_an_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENGINE_VARIABLE, "opencv")
    assert default_engine() == "opencv"
    monkeypatch.setenv(ENGINE_VARIABLE, "tensorflow")
    with pytest.raises(VisionError, match=r"no network engine.*onnxruntime, opencv"):
        default_engine()


def test_a_network_runs_on_as_many_threads_as_opencv() -> None:
    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(1)
        one = load(CLASSIFIER, "face classifier", "onnxruntime")
        cv2.setNumThreads(2)
        two = load(CLASSIFIER, "face classifier", "onnxruntime")
        assert one is not two
        assert load(CLASSIFIER, "face classifier", "onnxruntime") is two
    finally:
        cv2.setNumThreads(before)


def test_a_network_can_be_asked_for_its_own_thread_count() -> None:
    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(2)
        one = load(CLASSIFIER, "face classifier", "onnxruntime", threads=1)
        assert one is not load(CLASSIFIER, "face classifier", "onnxruntime")
        cv2.setNumThreads(1)
        assert load(CLASSIFIER, "face classifier", "onnxruntime") is one
    finally:
        cv2.setNumThreads(before)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_corrupt_model_is_a_clear_error(tmp_path: Path, engine: str) -> None:
    bad = tmp_path / f"corrupt-{engine}.onnx"
    bad.write_bytes(b"\x08\x07this is no network")
    with pytest.raises(VisionError, match=rf"dice detector model unreadable: .*{bad.name}"):
        load(bad, "dice detector", engine)


def test_an_unknown_engine_is_a_clear_error() -> None:
    with pytest.raises(VisionError, match="no network engine 'tpu'"):
        load(CLASSIFIER, "face classifier", "tpu")
