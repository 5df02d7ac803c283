"""An 8-bit dice detector taught to answer as the float one does (quantisation-aware).

ONNX Runtime runs the detector with 8-bit weights and activations about twice as fast
(7.2 against 15.5 ms for a 552×416 input on one core). Here the float network is
fine-tuned with its 8-bit rounding simulated in every pass (weights per output channel,
symmetric; the frame and each activation after its ReLU on a fixed range, the largest
value or a ``--percentile`` of the values the float network gives on the inputs shown),
so that its rounded answer comes to the float network's own answer, one pass for one
pass (the reader's mirror pass runs the same file on the mirrored frame). The teacher is
the float detector run by ONNX Runtime; the inputs are :mod:`training.distill`'s
(train-half photos of both shared sets at the reader's scales, some letterboxed to
1280×960, and rendered frames, flipped at random; never the held-out halves). With
``--steps 0`` it only measures the ranges (plain post-training quantisation).

The result is an ONNX file with its rounding spelt out (QuantizeLinear and
DequantizeLinear at the simulated points, 8-bit weights, 32-bit biases; the last layer
in floating point), which ONNX Runtime runs on its 8-bit kernels; saved as
``vision/models/dice-detector.int8.onnx`` the reader would run it
(:func:`dicetray.vision.networks.quantized`).

Tried on 2026-11-27 and NOT shipped: every copy read about as many photos right as the
float detector but answered a few more silently wrong, over every photo read clean and
under four draws of invisible noise (``benchmarks/steady.py``; docs/benchmarks.md, "The
detector in 8 bits, judged under noise"). The tries:

    python3 -m training.qat --teacher vision/models/dice-detector.onnx --steps 0 \
        --out /tmp/ptq/dice-detector.int8.onnx
    python3 -m training.qat --teacher vision/models/dice-detector.onnx \
        --data /tmp/distill-frames.npz --steps 2000 --out /tmp/qat1/dice-detector.int8.onnx
    python3 -m training.qat --teacher vision/models/dice-detector.onnx \
        --data /tmp/distill-frames.npz --steps 1500 --lr 5e-4 --percentile 99.99 \
        --out /tmp/qat2/dice-detector.int8.onnx

(``/tmp/distill-frames.npz``: ``python3 -m training.data --out /tmp/distill-frames.npz
--frames 3000 --seed 4242 --workers 1``.)
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dicetray.vision.networks import load  # noqa: E402
from training.detector import DiceNet, from_onnx  # noqa: E402
from training.distill import Distilling, Inputs, fine_tune, inputs_from  # noqa: E402

#: The frame's quantisation: the input's -1..1 in 8 bits, as ONNX Runtime's own
#: calibration sets it (scale 2/255, zero at 128).
FRAME_SCALE, FRAME_ZERO = 2.0 / 255.0, 128
#: The largest weight, in steps: 7 bits, not 8. An x86 processor without VNNI adds two
#: products of an 8-bit activation and weight in 16 bits, clipping beyond 32,767
#: (2 × 255 × 127 would pass it, 2 × 255 × 64 does not), so with 8-bit weights the file
#: answered otherwise than its simulation there (as ``training/quantize.py`` found for
#: the classifier).
WEIGHT_STEPS = 64


@dataclass(frozen=True)
class Teaching:
    """How the 8-bit network is taught."""

    #: Inputs whose activations set each 8-bit range.
    calibration: int = 300
    #: Each activation's range tops at this percentile of its values over those inputs.
    percentile: float = 100.0
    #: Peak learning rate (AdamW, cosine to none): a fine-tune of the float weights.
    lr: float = 1e-4


def _fq(x: torch.Tensor, scale: float, zero: int = 0) -> torch.Tensor:
    return torch.fake_quantize_per_tensor_affine(x, scale, zero, 0, 255)


class QuantNet(nn.Module):
    """:class:`training.detector.DiceNet`'s layers (its norms folded into biases) with
    the 8-bit rounding ONNX Runtime applies simulated (``quant``; without it, the float
    network). ``scales``: each activation's, after the seven ReLUs in order (the stem's
    three, the deep branch's three, the fusion layer's), then the joined maps the fusion
    layer reads."""

    def __init__(self, net: DiceNet, scales: list[float]) -> None:
        super().__init__()
        layers = list(net.modules())
        convs = [m for m in layers if isinstance(m, nn.Conv2d)]
        shifts = {id(a): b.bias for a, b in itertools.pairwise(layers)
                  if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d)}
        self.convs = nn.ModuleList()
        for conv in convs:
            own = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size,
                            conv.stride, conv.padding, conv.dilation, bias=True)
            with torch.no_grad():
                own.weight.copy_(conv.weight)
                own.bias.copy_(conv.bias if conv.bias is not None else shifts[id(conv)])
            self.convs.append(own)
        self.scales = list(scales)

    def weight_scales(self, i: int) -> torch.Tensor:
        """Layer ``i``'s weight scales, one per output channel (symmetric, ±
        :data:`WEIGHT_STEPS`)."""
        w = self.convs[i].weight.detach()
        return (w.abs().amax(dim=(1, 2, 3)) / WEIGHT_STEPS).clamp(min=1e-12)

    def _conv(self, i: int, x: torch.Tensor, x_scale: float, quant: bool) -> torch.Tensor:
        conv = self.convs[i]
        if not quant:
            return conv(x)
        ws = self.weight_scales(i)
        w = torch.fake_quantize_per_channel_affine(
            conv.weight, ws, torch.zeros_like(ws, dtype=torch.int32), 0,
            -WEIGHT_STEPS, WEIGHT_STEPS)
        step = (ws * x_scale).detach()
        b = conv.bias + (torch.round(conv.bias / step) * step - conv.bias).detach()
        return F.conv2d(x, w, b, conv.stride, conv.padding, conv.dilation)

    def forward(self, x: torch.Tensor, quant: bool = True,
                taps: list[torch.Tensor] | None = None) -> torch.Tensor:
        s = self.scales
        q = (lambda t, k: _fq(t, s[k])) if quant else (lambda t, k: t)
        scale = FRAME_SCALE
        if quant:
            x = _fq(x, FRAME_SCALE, FRAME_ZERO)
        acts = []
        for i in range(6):  # the stem's three layers, then the deep branch's three
            a = F.relu(self._conv(i, x, scale, quant))
            acts.append(a)
            x, scale = q(a, i), s[i]
            if i == 2:
                fine = x
        coarse = F.interpolate(x, scale_factor=2.0, mode="nearest")
        joined = torch.cat([fine, coarse], 1)
        acts.append(joined)
        joined = q(joined, 7)
        fused = F.relu(self._conv(6, joined, s[7], quant))
        acts.insert(6, fused)
        fused = q(fused, 6)
        if taps is not None:
            taps.extend(acts)
        return self.convs[7](fused)


def calibrate(net: QuantNet, inputs: Inputs, count: int, percentile: float = 100.0,
              seed: int = 0) -> list[float]:
    """Each activation's 8-bit scale: the ``percentile`` of its values (100: the largest)
    over ``count`` inputs, / 255 (values above it are clipped)."""
    rng = np.random.default_rng(seed)
    seen: list[list[np.ndarray]] = [[] for _ in range(8)]
    with torch.no_grad():
        for _ in range(count):
            taps: list[torch.Tensor] = []
            net(torch.from_numpy(inputs()), quant=False, taps=taps)
            for kept, a in zip(seen, taps, strict=True):
                v = a.flatten().numpy()
                kept.append(v[rng.integers(0, v.size, 20000)])
                kept.append(v.max(keepdims=True))
    tops = [float(np.percentile(np.concatenate(v), percentile)) for v in seen]
    return [max(t, 1e-6) / 255.0 for t in tops]


def export(net: QuantNet, teacher: Path, out: Path) -> None:
    """Write ``net`` as the teacher's ONNX graph with its quantisation spelt out."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(teacher))
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    relus = [n for n in graph.node if n.op_type == "Relu"]
    join = next(n for n in graph.node if n.op_type == "Concat"
                and n.output[0].startswith("/inner/"))
    new_inits, added = [], []

    def const(name: str, array: np.ndarray) -> str:
        new_inits.append(numpy_helper.from_array(array, name))
        return name

    def qdq(tensor: str, scale: float, zero: int) -> str:
        """Round ``tensor`` to 8 bits; returns the name of its rounded float copy."""
        s = const(f"{tensor}/scale", np.array(scale, np.float32))
        z = const(f"{tensor}/zero", np.array(zero, np.uint8))
        added.append(helper.make_node("QuantizeLinear", [tensor, s, z], [f"{tensor}/q"]))
        added.append(helper.make_node("DequantizeLinear", [f"{tensor}/q", s, z],
                                      [f"{tensor}/dq"]))
        return f"{tensor}/dq"

    def rewire(old: str, new: str, skip: set[str]) -> None:
        for node in graph.node:
            if node.name in skip:
                continue
            for k, name in enumerate(node.input):
                if name == old:
                    node.input[k] = new

    points = [(graph.input[0].name, FRAME_SCALE, FRAME_ZERO)]
    points += [(r.output[0], net.scales[i], 0) for i, r in enumerate(relus)]
    points.append((join.output[0], net.scales[7], 0))
    for tensor, scale, zero in points:
        rewire(tensor, qdq(tensor, scale, zero), set())
    in_scales = [FRAME_SCALE, *net.scales[:5], net.scales[7]]
    for i, node in enumerate(convs):
        conv = net.convs[i]
        w = conv.weight.detach().numpy().astype(np.float32)
        b = conv.bias.detach().numpy().astype(np.float32)
        if i == len(convs) - 1:  # the last layer stays in floating point
            inits[node.input[1]].CopyFrom(numpy_helper.from_array(w, node.input[1]))
            inits[node.input[2]].CopyFrom(numpy_helper.from_array(b, node.input[2]))
            continue
        ws = net.weight_scales(i).numpy().astype(np.float32)
        steps = np.round(w / ws[:, None, None, None])
        wq = np.clip(steps, -WEIGHT_STEPS, WEIGHT_STEPS).astype(np.int8)
        bs = (ws * np.float32(in_scales[i])).astype(np.float32)
        bq = np.round(b / bs).astype(np.int32)
        name = node.name
        wn = const(f"{name}/w", wq)
        added.append(helper.make_node(
            "DequantizeLinear", [wn, const(f"{name}/ws", ws),
                                 const(f"{name}/wz", np.zeros(len(ws), np.int8))],
            [f"{name}/w_dq"], axis=0))
        bn = const(f"{name}/b", bq)
        added.append(helper.make_node(
            "DequantizeLinear", [bn, const(f"{name}/bs", bs),
                                 const(f"{name}/bz", np.zeros(len(bs), np.int32))],
            [f"{name}/b_dq"], axis=0))
        node.input[1], node.input[2] = f"{name}/w_dq", f"{name}/b_dq"
    used = {n for node in graph.node for n in node.input} | {n for node in added
                                                              for n in node.input}
    keep = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(keep + new_inits)
    nodes = list(graph.node) + added
    del graph.node[:]
    graph.node.extend(_topological(nodes, {graph.input[0].name} | {i.name for i in keep}
                                   | {i.name for i in new_inits}))
    if model.opset_import[0].version < 13:
        model.opset_import[0].version = 13
    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))


def _topological(nodes: list, known: set[str]) -> list:
    done, left, have = [], list(nodes), set(known)
    while left:
        ready = [n for n in left if all(i == "" or i in have for i in n.input)]
        if not ready:
            raise ValueError("the graph has a cycle or a missing input")
        for n in ready:
            done.append(n)
            have.update(n.output)
            left.remove(n)
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--teacher", type=Path, required=True, help="the float detector")
    parser.add_argument("--data", type=Path, nargs="*", default=[],
                        help="rendered frames (python3 -m training.data)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--lr", type=float, default=Teaching.lr)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--percentile", type=float, default=Teaching.percentile,
                        help="of each activation's values, its 8-bit range's top")
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(args.threads)
    torch.manual_seed(args.seed)
    inputs = inputs_from(args.data, args.seed)
    t = Teaching(lr=args.lr, percentile=args.percentile)
    net = QuantNet(from_onnx(DiceNet(), args.teacher, "inner.").eval(), [1.0] * 8)
    net.scales = calibrate(net, inputs, t.calibration, args.percentile, args.seed)
    print("scales", [f"{s:.4g}" for s in net.scales], flush=True)
    if args.steps:
        teacher = load(args.teacher, "dice detector", threads=args.threads, exact=True)
        fine_tune(net, teacher.run, inputs, args.steps, Distilling(lr=t.lr))
    export(net, args.teacher, args.out)
    print(f"exported {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
