"""The 8-bit dice detector's training: its simulation is the float network until it
rounds, and the file it is written to answers as the simulation does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
import torch
from onnx import numpy_helper

from dicetray.vision.detector import MODEL, network_input
from dicetray.vision.networks import load
from dicetray.vision.render import render
from dicetray.vision.scene import random_scene
from training.detector import DiceNet, from_onnx
from training.distill import Distilling, Inputs
from training.qat import QuantNet, calibrate, export


def _heat(out: torch.Tensor) -> np.ndarray:
    return torch.sigmoid(out[0, :3]).numpy()


@pytest.fixture(scope="module")
def frames() -> np.ndarray:
    return np.stack([render(random_scene(seed, dice=5, image_size=(320, 240)))[0]
                     for seed in range(3)])


@pytest.fixture(scope="module")
def net(frames: np.ndarray) -> QuantNet:
    net = QuantNet(from_onnx(DiceNet(), MODEL, "inner.").eval(), [1.0] * 8)
    net.scales = calibrate(net, Inputs([], frames, seed=0, distilling=Distilling(real=0.0)), 6)
    return net


def test_without_rounding_it_is_the_float_detector(net: QuantNet) -> None:
    blob = network_input(render(random_scene(7, dice=5, image_size=(640, 480)))[0])
    with torch.no_grad():
        out = net(torch.from_numpy(blob), quant=False)
    shipped = load(MODEL, "dice detector", exact=True).run(blob)[0]
    assert np.allclose(_heat(out), shipped[:3], atol=1e-5)
    assert np.allclose(out[0, 3:].numpy(), shipped[3:], atol=1e-4)


def test_the_written_file_answers_as_the_simulation_in_8_bits(
        net: QuantNet, tmp_path: Path) -> None:
    out = tmp_path / "detector.int8.onnx"
    export(net, MODEL, out)
    blob = network_input(render(random_scene(8, dice=5, image_size=(640, 480)))[0])
    with torch.no_grad():
        simulated, float_out = net(torch.from_numpy(blob)), net(torch.from_numpy(blob), quant=False)
    written = load(out, "dice detector", exact=True).run(blob)[0]
    to_simulated = np.abs(_heat(simulated) - written[:3])
    to_float = np.abs(_heat(float_out) - written[:3])
    # ten times nearer the simulation than the float network (measured: a mean gap of
    # 9e-6 against 3e-4; a rounding halfway between two steps may differ, one cell in 5,000)
    assert to_simulated.mean() < to_float.mean() / 10 and to_simulated.max() < 0.005
    model = onnx.load(str(out))
    ops = [n.op_type for n in model.graph.node]
    assert ops.count("QuantizeLinear") == 9  # the frame, seven activations, the joined maps
    eight_bit = [i for i in model.graph.initializer if numpy_helper.to_array(i).dtype == np.int8
                 and numpy_helper.to_array(i).ndim == 4]
    assert len(eight_bit) == 7  # every layer's weights but the last's
    # no two products of an activation (0-255) and a weight pass 16 bits (processors
    # without VNNI add them so, and clip: then the file would not answer as simulated)
    assert max(int(np.abs(numpy_helper.to_array(i).astype(np.int32)).max())
               for i in eight_bit) * 255 * 2 <= 32767


def test_a_lower_percentile_gives_finer_steps(net: QuantNet, frames: np.ndarray) -> None:
    inputs = Inputs([], frames, seed=1, distilling=Distilling(real=0.0))
    top = calibrate(net, inputs, 4, percentile=100.0, seed=1)
    inputs = Inputs([], frames, seed=1, distilling=Distilling(real=0.0))
    finer = calibrate(net, inputs, 4, percentile=99.0, seed=1)
    assert all(f < t for f, t in zip(finer, top, strict=True))
