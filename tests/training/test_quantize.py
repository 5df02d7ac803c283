"""The face classifier's shipped 8-bit copy answers alike on every processor: no pair of
its products can overflow the 16 bits an x86 processor without VNNI adds them in."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import numpy_helper

from dicetray.vision.classifier import MODEL
from dicetray.vision.networks import quantized

#: vpmaddubsw adds two products of an 8-bit activation (0-255) and an 8-bit weight into
#: a signed 16-bit sum, clipped at this.
INT16_MAX = 32767


def _weights(path) -> dict[str, np.ndarray]:
    model = onnx.load(str(path))
    quantized_ops = {"QLinearConv": 3, "QGemm": 3}  # the weight is their fourth input
    names = {node.input[quantized_ops[node.op_type]] for node in model.graph.node
             if node.op_type in quantized_ops}
    return {i.name: numpy_helper.to_array(i) for i in model.graph.initializer
            if i.name in names}


def test_the_shipped_copy_has_every_layer_in_8_bits() -> None:
    weights = _weights(quantized(MODEL))
    assert len(weights) == 8  # six convolutions and two dense layers
    assert all(w.dtype == np.int8 for w in weights.values())


def test_no_pair_of_products_passes_16_bits() -> None:
    for name, w in _weights(quantized(MODEL)).items():
        largest = int(np.abs(w.astype(np.int32)).max())
        assert 2 * 255 * largest <= INT16_MAX, f"{name}: a weight of {largest}"
        assert largest >= 32, f"{name}: weights of at most {largest} waste precision"
