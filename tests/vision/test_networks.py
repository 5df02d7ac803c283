"""The network engines: ONNX Runtime and OpenCV run the shipped models alike, the engine
and thread count can be chosen, and a bad model or engine is a clear error."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetray.vision.classifier import MODEL as CLASSIFIER
from dicetray.vision.detector import MODEL as DETECTOR
from dicetray.vision.errors import VisionError
from dicetray.vision.networks import ENGINE_VARIABLE, ENGINES, default_engine, load


@pytest.mark.parametrize(("model", "shape"), [(DETECTOR, (1, 3, 96, 128)),
                                              (CLASSIFIER, (3, 3, 40, 40))])
def test_both_engines_give_the_same_outputs(model: Path, shape: tuple[int, ...]) -> None:
    blob = np.random.default_rng(5).uniform(-1, 1, shape).astype(np.float32)
    fast, classic = (load(model, "test", engine).run(blob) for engine in ENGINES)
    assert fast.shape == classic.shape
    assert fast.shape[0] == shape[0]
    assert np.abs(fast - classic).max() < 1e-4
    assert np.abs(fast).max() > 0.1  # not a blank output


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
