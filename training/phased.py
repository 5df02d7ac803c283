"""The dice detector rewritten to do its head's work at the deep map's size: the same
outputs (to within float rounding, under 1e-5) in fewer operations, for the reader to run.

The detector (``training/detector.py``) ends in a head that doubles its deep map (48
channels at an eighth of the input's size) by repeating each value twice each way
(ONNX ``Resize``, nearest), puts it beside the stem's map (24 channels at a quarter), and
convolves the two (3×3, 72 channels in, 32 out), then a ReLU and a 1×1 convolution to the
six output maps. That one convolution did half the network's arithmetic (298 of 617
million multiply-adds for the 552×416 input of a phone photo's second look), and three
quarters of its share of the deep map's was on repeated values.

So the head is split by where its output lands among each 2×2 block of the stem's grid
(its phase, ``(py, px)``):

- the deep map's part: a repeated map seen through a 3×3 kernel is the small map seen
  through a 2×2 kernel whose taps are sums of the 3×3 one's (for an even row, the
  kernel's top row falls on the row above and its two lower rows on the same small row;
  for an odd row, its two upper rows on the same small row and its bottom row below; and
  so for columns);
- the stem's part: the same 3×3 kernel, but evaluated only at that phase's points (a
  stride of 2, padded so its first window is centred on that phase's first point).

The ReLU, the 1×1 convolution and the network's last steps (a sigmoid on the scores) work
point by point, so they run on each phase at the small size too. The copy's output holds
the four phases' maps side by side (24 channels at the deep map's size, phase by phase
in :data:`PHASES` order), and the reader puts them back in their places
(:func:`dicetray.vision.detector.from_phases`), in NumPy: each engine has a way to do it
in the network, and each is slow or missing somewhere (OpenCV 4.6, a Pi's, cannot read
``DepthToSpace``; OpenCV 5's engine took 25 ms for the one-hot ``ConvTranspose`` that
does it). The head then costs 187 instead of 298 million multiply-adds for that input.

The trained file stays as it is (``training/detector.py``, ``distill.py`` and ``qat.py``
read its layout); the reader runs this copy
(:func:`dicetray.vision.detector.network_file`) only while it answers as the trained file
does, so a copy left from before a retraining is never run.

    python3 -m training.phased      # writes vision/models/dice-detector.phased.onnx
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dicetray.vision.detector import MODEL, phased  # noqa: E402

#: The phases of a 2×2 block, in the order of the output maps' channels that are put back
#: together: (row, column) parity.
PHASES = ((0, 0), (0, 1), (1, 0), (1, 1))
#: For an output row of parity p, which rows of the 3×3 kernel fall on each of the 2 small
#: rows the 2×2 kernel reads (the row above and this one for even rows; this one and the
#: row below for odd ones). The same for columns.
TAPS = {0: ((0,), (1, 2)), 1: ((0, 1), (2,))}


def small_kernel(weights: np.ndarray, py: int, px: int) -> np.ndarray:
    """The 2×2 kernel (out, in, 2, 2) that reads the small map as the 3×3 ``weights``
    (out, in, 3, 3) read it repeated, at output points of phase (``py``, ``px``).

    >>> w = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)
    >>> small_kernel(w, 0, 0)[0, 0].tolist(), small_kernel(w, 1, 1)[0, 0].tolist()
    ([[0.0, 3.0], [9.0, 24.0]], [[8.0, 7.0], [13.0, 8.0]])
    """
    out = np.zeros((*weights.shape[:2], 2, 2), np.float32)
    for a, rows in enumerate(TAPS[py]):
        for b, cols in enumerate(TAPS[px]):
            out[:, :, a, b] = weights[:, :, list(rows)][:, :, :, list(cols)].sum(axis=(2, 3))
    return out


def rewrite(model):
    """``model`` (an ``onnx.ModelProto`` of the detector as trained) with its head done
    phase by phase at the deep map's size; a new model, the same input, its output the
    four phases' maps side by side (:func:`dicetray.vision.detector.from_phases` puts
    them back)."""
    import onnx
    from onnx import helper, numpy_helper

    g = model.graph
    nodes = list(g.node)

    def one(op: str, takes: str | None = None):
        hits = [n for n in nodes if n.op_type == op and (takes is None or takes in n.input)]
        if len(hits) != 1:
            raise ValueError(f"not the detector's layout: {len(hits)} {op} nodes"
                             + (f" reading {takes}" if takes else ""))
        return hits[0]

    resize = one("Resize")
    join = one("Concat", resize.output[0])
    head = one("Conv", join.output[0])
    relu = one("Relu", head.output[0])
    last = one("Conv", relu.output[0])
    if len(join.input) != 2 or join.input[1] != resize.output[0]:
        raise ValueError("not the detector's layout: the head's input is not (stem, deep)")
    stem, deep = join.input[0], resize.input[0]
    weights = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    w, bias = weights[head.input[1]], weights[head.input[2]]
    deep_channels = _channels(g, resize)
    w_stem, w_deep = w[:, : w.shape[1] - deep_channels], w[:, w.shape[1] - deep_channels:]
    tail = _after(nodes, last.output[0])

    made = [numpy_helper.from_array(w_stem, "phased/stem_w"),
            numpy_helper.from_array(bias, "phased/b")]
    new, parts = [], []
    for py, px in PHASES:
        k = f"{py}{px}"
        made.append(numpy_helper.from_array(small_kernel(w_deep, py, px), f"phased/deep_w{k}"))
        pads = [1 - py, 1 - px, py, px]  # top, left, bottom, right
        new += [
            helper.make_node("Conv", [stem, "phased/stem_w", "phased/b"], [f"phased/stem{k}"],
                             kernel_shape=[3, 3], strides=[2, 2], pads=pads),
            helper.make_node("Conv", [deep, f"phased/deep_w{k}"], [f"phased/deep{k}"],
                             kernel_shape=[2, 2], pads=pads),
            helper.make_node("Add", [f"phased/stem{k}", f"phased/deep{k}"], [f"phased/sum{k}"]),
            helper.make_node("Relu", [f"phased/sum{k}"], [f"phased/relu{k}"]),
            helper.make_node("Conv", [f"phased/relu{k}", *last.input[1:]],
                             [f"{last.output[0]}/{k}"], kernel_shape=[1, 1]),
        ]
        # the network's last steps, on this phase's maps: every tensor they make renamed
        renamed = {last.output[0]: f"{last.output[0]}/{k}"}
        for node in tail:
            copy = onnx.NodeProto()
            copy.CopyFrom(node)
            copy.name = f"{node.name}/{k}" if node.name else ""
            for i, name in enumerate(copy.input):
                copy.input[i] = renamed.get(name, name)
            for i, name in enumerate(copy.output):
                renamed[name] = copy.output[i] = f"{name}/{k}"
            new.append(copy)
        parts.append(renamed[g.output[0].name])
    new.append(helper.make_node("Concat", parts, [g.output[0].name], axis=1))
    gone = {id(n) for n in (resize, join, head, relu, last, *tail)}
    kept = [n for n in nodes if id(n) not in gone]
    order = kept + new
    used = {name for n in order for name in n.input}
    order = [n for n in order if n.op_type != "Constant" or n.output[0] in used]
    out = onnx.ModelProto()
    out.CopyFrom(model)
    del out.graph.node[:]
    out.graph.node.extend(order)
    del out.graph.initializer[:]
    out.graph.initializer.extend([i for i in g.initializer if i.name in used] + made)
    channels = out.graph.output[0].type.tensor_type.shape.dim
    if len(channels) > 1 and channels[1].HasField("dim_value"):
        channels[1].dim_value *= len(PHASES)
    onnx.checker.check_model(out)
    return out


def _after(nodes: list, tensor: str) -> list:
    """The nodes that ``tensor`` feeds, directly or not, in the graph's order; their
    constants (which read nothing) with them."""
    reached, out = {tensor}, []
    for node in nodes:
        if any(name in reached for name in node.input):
            out.append(node)
            reached.update(node.output)
    feeding = {name for n in out for name in n.input}
    consts = [n for n in nodes if n.op_type == "Constant" and n.output[0] in feeding]
    return [n for n in nodes if n in out or n in consts]


def _channels(graph, resize) -> int:
    """The deep map's channels: the output count of the convolution that makes it (through
    its ReLU)."""
    from onnx import numpy_helper

    made_by = {o: n for n in graph.node for o in n.output}
    node = made_by[resize.input[0]]
    while node.op_type != "Conv":
        node = made_by[node.input[0]]
    weights = {i.name: i for i in graph.initializer}
    return int(numpy_helper.to_array(weights[node.input[1]]).shape[0])


def main(argv: list[str] | None = None) -> int:
    import onnx

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", type=Path, default=MODEL, help="the detector as trained")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write the copy (default: beside the model, as the "
                             "reader looks for it)")
    args = parser.parse_args(argv)
    out = args.out or phased(args.model)
    onnx.save(rewrite(onnx.load(str(args.model))), str(out))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
