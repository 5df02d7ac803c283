"""The detector's phased copy (training/phased.py): the trained network's outputs, in
fewer multiply-adds, on both engines; the shipped copy is the shipped network's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper, shape_inference

from dicetray.vision.classifier import MODEL as CLASSIFIER
from dicetray.vision.detector import MODEL, from_phases, network_file, phased
from dicetray.vision.networks import ENGINES, load
from training.phased import main, rewrite

SIZES = [(8, 8), (16, 24), (240, 320), (416, 552), (480, 640)]


def _outputs(path: Path, engine: str, blob: np.ndarray) -> np.ndarray:
    return load(path, "dice detector", engine=engine, threads=1).run(blob)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("phased") / "dice-detector.phased.onnx"
    assert main(["--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_the_copy_gives_the_trained_networks_outputs(written: Path, engine: str) -> None:
    rng = np.random.default_rng(5)
    for h, w in SIZES:
        blob = rng.uniform(-1, 1, (1, 3, h, w)).astype(np.float32)
        trained, phases = _outputs(MODEL, engine, blob), _outputs(written, engine, blob)
        assert phases.shape == (1, 24, h // 8, w // 8)  # the four phases' maps, side by side
        copy = from_phases(phases)
        assert copy.shape == trained.shape == (1, 6, h // 4, w // 4)
        assert np.abs(copy - trained).max() < 1e-5, (engine, h, w)


def test_the_shipped_copy_is_the_shipped_networks(written: Path) -> None:
    blob = np.random.default_rng(6).uniform(-1, 1, (1, 3, 120, 160)).astype(np.float32)
    for engine in ENGINES:  # the same graph and weights: the same sums to the last bit
        assert np.array_equal(_outputs(phased(MODEL), engine, blob),
                              _outputs(written, engine, blob))
    assert network_file(MODEL, "onnxruntime") == phased(MODEL)


def _multiply_adds(model: onnx.ModelProto, h: int, w: int) -> int:
    """Every convolution's multiply-adds for an input of h × w px."""
    fixed = onnx.ModelProto()
    fixed.CopyFrom(model)
    dims = fixed.graph.input[0].type.tensor_type.shape.dim
    for d, v in zip(dims, (1, 3, h, w), strict=True):
        d.Clear()
        d.dim_value = v
    inferred = shape_inference.infer_shapes(fixed)
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in (*inferred.graph.value_info, *inferred.graph.output)}
    weights = {i.name: numpy_helper.to_array(i).shape for i in model.graph.initializer}
    total = 0
    for node in inferred.graph.node:
        if node.op_type == "Conv":
            _, c_in, kh, kw = weights[node.input[1]]
            total += int(np.prod(shapes[node.output[0]])) * c_in * kh * kw
    return total


def test_the_copy_does_a_sixth_less_arithmetic() -> None:
    trained = onnx.load(str(MODEL))
    before, after = _multiply_adds(trained, 416, 552), _multiply_adds(rewrite(trained), 416, 552)
    assert 600e6 < before < 640e6  # the second look at a phone photo of small dice
    assert after < 0.85 * before


def test_a_network_of_another_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="not the detector's layout"):
        rewrite(onnx.load(str(CLASSIFIER)))


def test_a_copy_of_other_weights_is_not_run(tmp_path: Path) -> None:
    # a copy left from before a retraining: the network as trained now differs from it
    trained = tmp_path / "dice-detector.onnx"
    model = onnx.load(str(MODEL))
    onnx.save(rewrite(model), str(phased(trained)))
    first = model.graph.initializer[0]
    first.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(first) * 1.01, first.name))
    onnx.save(model, str(trained))
    assert network_file(trained, "onnxruntime") == trained
