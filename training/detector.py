"""Train the dice detector and export it for OpenCV (needs PyTorch; a developer tool).

The detector is a small fully convolutional network: it takes a frame scaled to a long
side of 320 px and answers, on a grid four times coarser, three heat maps (a flat die's
top-face centre, a cocked die, a moving die), the face's edge length and the centre's
offset inside its cell. :mod:`dicetray.vision.detector` runs the exported ONNX file with
OpenCV's DNN module, so neither the Pi nor the tests need PyTorch.

    python3 -m training.data --out /tmp/dice-train.npz --frames 12000
    python3 -m training.data --out /tmp/dice-train2.npz --frames 12000 --seed 100000
    python3 -m training.detector --data /tmp/dice-train.npz /tmp/dice-train2.npz \
        --epochs 4 --out vision/models/dice-detector.onnx
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812

STRIDE = 4
KINDS = 3  # flat, cocked, moving
SIZE_REF = 16.0  # px; the size channel is log(size / SIZE_REF)
Net = TypeVar("Net", bound=nn.Module)


def _conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DiceNet(nn.Module):
    """Stride-4 outputs: KINDS heat logits, log size, x and y offsets."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = nn.Sequential(_conv(3, 12, 2), _conv(12, 24, 2), _conv(24, 24))
        self.deep = nn.Sequential(_conv(24, 48, 2), _conv(48, 48, dilation=2),
                                  _conv(48, 48, dilation=4))
        self.fuse = _conv(72, 32)
        self.head = nn.Conv2d(32, KINDS + 3, 1)
        nn.init.constant_(self.head.bias[:KINDS], -4.0)  # rare positives at the start

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = self.stem(x)
        coarse = F.interpolate(self.deep(fine), scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(torch.cat([fine, coarse], 1)))


def targets(dice: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """Heat maps, regression targets and their mask on the output grid for one frame."""
    gh, gw = shape
    heat = np.zeros((KINDS, gh, gw), np.float32)
    reg = np.zeros((3, gh, gw), np.float32)
    mask = np.zeros((gh, gw), np.float32)
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for x, y, size, kind in dice:
        cx, cy = x / STRIDE, y / STRIDE
        if not (-1 <= cx <= gw and -1 <= cy <= gh):
            continue
        sigma = max(0.6, size / STRIDE / 5)
        g = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2))
        heat[int(kind)] = np.maximum(heat[int(kind)], g)
        ix, iy = int(np.clip(math.floor(cx), 0, gw - 1)), int(np.clip(math.floor(cy), 0, gh - 1))
        for jy in range(max(0, iy - 1), min(gh, iy + 2)):
            for jx in range(max(0, ix - 1), min(gw, ix + 2)):
                weight = 1.0 if (jx, jy) == (ix, iy) else 0.5
                if weight > mask[jy, jx]:
                    reg[:, jy, jx] = (math.log(size / SIZE_REF), cx - jx - 0.5, cy - jy - 0.5)
                    mask[jy, jx] = weight
        heat[int(kind), iy, ix] = 1.0
    return heat, reg, mask


def focal_loss(logits: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on Gaussian heat maps."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


class Frames(torch.utils.data.Dataset):
    """The generated frames with flips and light jitter."""

    def __init__(self, paths: list[Path]) -> None:
        images, self.dice = [], []
        for path in paths:
            data = np.load(path)
            images.append(data["images"])
            ends = np.cumsum(data["counts"])
            self.dice += np.split(data["dice"], ends[:-1])
        self.images = np.concatenate(images)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, ...]:
        rng = np.random.default_rng()
        img = self.images[i].astype(np.float32)
        dice = self.dice[i].copy()
        h, w = img.shape[:2]
        if rng.random() < 0.5:
            img = img[:, ::-1]
            dice[:, 0] = w - 1 - dice[:, 0]
        if rng.random() < 0.5:
            img = img[::-1]
            dice[:, 1] = h - 1 - dice[:, 1]
        if rng.random() < 0.3:  # grey or channel-swapped frames: colour is no cue
            img = img[..., rng.permutation(3)]
        img = img * rng.uniform(0.8, 1.2) + rng.uniform(-15, 15)
        x = torch.from_numpy(np.ascontiguousarray(prepare(img)))
        heat, reg, mask = targets(dice, (h // STRIDE, w // STRIDE))
        return x, torch.from_numpy(heat), torch.from_numpy(reg), torch.from_numpy(mask)


def prepare(img: np.ndarray) -> np.ndarray:
    """HWC BGR 0..255 → CHW float in about -1..1 (what the ONNX model takes)."""
    return (np.clip(img, 0, 255).transpose(2, 0, 1) / 127.5 - 1.0).astype(np.float32)


def train(data: list[Path], epochs: int, batch: int, threads: int) -> DiceNet:
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    frames = Frames(data)
    loader = torch.utils.data.DataLoader(frames, batch_size=batch, shuffle=True, drop_last=True)
    net = DiceNet()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * len(loader)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    start, step = time.time(), 0
    for epoch in range(epochs):
        net.train()
        total = 0.0
        for x, heat, reg, mask in loader:
            out = net(x)
            loss_heat = focal_loss(out[:, :KINDS], heat)
            m = mask[:, None]
            loss_reg = (F.smooth_l1_loss(out[:, KINDS:], reg, reduction="none") * m).sum() / (
                m.sum().clamp(min=1))
            loss = loss_heat + 2.0 * loss_reg
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
            step += 1
            if step % 50 == 0:
                mean = total / (step - epoch * len(loader))
                print(f"epoch {epoch} step {step}/{steps} loss {mean:.3f}"
                      f" heat {float(loss_heat):.3f} reg {float(loss_reg):.3f}"
                      f" ({time.time() - start:.0f} s)", flush=True)
    return net.eval()


def export(net: DiceNet, out: Path) -> None:
    """Write the network as ONNX, with sigmoid heat maps, for OpenCV's DNN module."""

    class Exported(nn.Module):
        def __init__(self, inner: DiceNet) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.inner(x)
            return torch.cat([torch.sigmoid(y[:, :KINDS]), y[:, KINDS:]], 1)

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(Exported(net), torch.zeros(1, 3, 240, 320), str(out), opset_version=11,
                      input_names=["frame"], output_names=["maps"], dynamo=False,
                      dynamic_axes={"frame": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}})


def from_onnx(net: Net, path: Path, prefix: str = "") -> Net:
    """``net`` holding the weights of the model exported from a network of its layout.

    The export folds each batch norm into the convolution before it, so each such
    convolution gets the folded weights and its batch norm becomes the identity with the
    folded bias as its shift (train such a network with its norms frozen: ``eval()``
    mode); a convolution with a bias of its own takes the folded weights as they are.
    The export's convolutions are taken in order; any other weight (a dense layer) by its
    name, less ``prefix`` (a wrapper's, say ``"inner."``).
    """
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name.removeprefix(prefix): torch.from_numpy(numpy_helper.to_array(i).copy())
               for i in model.graph.initializer}
    nodes = [n for n in model.graph.node if n.op_type == "Conv"]
    layers = list(net.modules())
    convs = [m for m in layers if isinstance(m, nn.Conv2d)]
    if len(nodes) != len(convs):
        raise ValueError(f"{path}: {len(nodes)} convolutions, {type(net).__name__} has "
                         f"{len(convs)}")
    norms = {id(a): b for a, b in itertools.pairwise(layers)
             if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d)}
    with torch.no_grad():
        for node, conv in zip(nodes, convs, strict=True):
            conv.weight.copy_(weights.pop(node.input[1].removeprefix(prefix)))
            bias = weights.pop(node.input[2].removeprefix(prefix))
            if conv.bias is not None:
                conv.bias.copy_(bias)
                continue
            norm = norms[id(conv)]
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        for name, tensor in weights.items():
            net.get_parameter(name).copy_(tensor)
    return net


def trainer_parser(doc: str | None, epochs: int, batch: int) -> argparse.ArgumentParser:
    """The command line every trainer here takes (``--data``, ``--out``, ``--epochs``, …)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--threads", type=int, default=2)
    return parser


def save(net: nn.Module, out: Path, to_onnx: Callable[[nn.Module, Path], None]) -> None:
    """Keep the PyTorch weights beside ``out`` (``.pt``) and export the network there."""
    torch.save(net.state_dict(), out.with_suffix(".pt"))
    to_onnx(net, out)
    print(f"exported {out}")


def main(argv: list[str] | None = None) -> int:
    args = trainer_parser(__doc__, epochs=8, batch=32).parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)  # before hours of training, not after
    save(train(args.data, args.epochs, args.batch, args.threads), args.out, export)
    return 0


if __name__ == "__main__":
    sys.exit(main())
