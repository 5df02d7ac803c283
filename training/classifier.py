"""Train the face classifier and export it for OpenCV (needs PyTorch; a developer tool).

A small convolutional network reads one die's crop (:data:`dicetray.vision.classifier.CROP`
px square) and answers a logit per :data:`~dicetray.vision.classifier.CLASSES`: a die with
no readable face, values 1-6, no die. It learns from
rendered crops (:mod:`training.crops`), and can learn crops of the train half of the real
photos too (:mod:`training.real`; the held-out half is what its figures are reported
on), with flips, quarter turns, channel swaps and light changes, none of which change a
face's value. Training is seeded (``--seed``: the shuffling, the augmentation, dropout
and a fresh network's weights draw from it).

    python3 -m training.crops --out /tmp/crops.npz        # 16,000 frames from seed 800000
    python3 -m training.classifier --data /tmp/crops.npz --out vision/models/face-classifier.onnx

The shipped model's last step went on from the one before over rendered and real crops,
the rendered "unreadable" ones (moving and leaning dice) given twice
(docs/benchmarks.md, "The classifier on real crops"; rendered-unreadable.npz holds the
crops of rendered.npz labelled 0):

    python3 -m training.crops --out /tmp/rendered.npz --frames 4000 --seed 1300000 --workers 2
    python3 -m training.real --out /tmp/real-train.npz
    python3 -m training.classifier --data /tmp/rendered.npz /tmp/real-train.npz \
        /tmp/rendered-unreadable.npz --epochs 1 --init step7.onnx --lr 2e-4 \
        --out /tmp/new/face-classifier.onnx
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dicetray.vision.classifier import CLASSES, CROP  # noqa: E402
from training.detector import _conv, prepare, save, trainer_parser  # noqa: E402
from training.detector import from_onnx as folded  # noqa: E402


class FaceNet(nn.Module):
    """Three stages of two 3x3 convolutions, each halving the crop, then two dense layers."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _conv(3, 16), _conv(16, 16), nn.MaxPool2d(2),
            _conv(16, 32), _conv(32, 32), nn.MaxPool2d(2),
            _conv(32, 64), _conv(64, 64), nn.MaxPool2d(2),
        )
        side = CROP // 8
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * side * side, 96),
                                  nn.ReLU(inplace=True), nn.Dropout(0.2),
                                  nn.Linear(96, len(CLASSES)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class Crops(torch.utils.data.Dataset):
    """The generated crops with value-keeping augmentation."""

    def __init__(self, images: np.ndarray, labels: np.ndarray, seed: int = 0) -> None:
        self.images, self.labels = images, labels
        # read in order on one process (the loader's default), so seeded once is enough
        self.rng = np.random.default_rng(seed)

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int]:
        rng = self.rng
        img = self.images[i].astype(np.float32)
        img = np.rot90(img, int(rng.integers(4)))
        if rng.random() < 0.5:
            img = img[:, ::-1]
        if rng.random() < 0.5:
            img = img[..., rng.permutation(3)]
        if rng.random() < 0.1:
            img = 255 - img
        img = img * rng.uniform(0.75, 1.25) + rng.uniform(-20, 20)
        return torch.from_numpy(np.ascontiguousarray(prepare(img))), int(self.labels[i])


def from_onnx(path: Path) -> FaceNet:
    """A :class:`FaceNet` holding the weights of an exported model (its batch norms
    folded away: train it with its norms frozen, ``frozen_norms``; see
    :func:`training.detector.from_onnx`)."""
    return folded(FaceNet(), path)


def frozen_norms(net: nn.Module) -> None:
    """Put every batch norm in eval mode, so training leaves its statistics alone."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def train(data: list[Path], epochs: int, batch: int, threads: int,
          init: Path | None = None, lr: float = 3e-3, seed: int = 0) -> FaceNet:
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    loaded = [np.load(p) for p in data]
    images = np.concatenate([d["images"] for d in loaded])
    labels = np.concatenate([d["labels"] for d in loaded])
    order = np.random.default_rng(seed).permutation(len(images))
    held = order[: len(order) // 20]
    kept = order[len(order) // 20:]
    loader = torch.utils.data.DataLoader(Crops(images[kept], labels[kept], seed),
                                         batch_size=batch, shuffle=True, drop_last=True)
    folded = init is not None and init.suffix == ".onnx"
    # from an exported model (its norms folded away), or afresh
    net = from_onnx(init) if init is not None and folded else FaceNet()
    if init is not None and not folded:  # go on from earlier weights (say, on new crops)
        net.load_state_dict(torch.load(init))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * len(loader)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    start, step = time.time(), 0
    if init is not None:
        print(f"start: held-out accuracy {accuracy(net, images[held], labels[held]):.2%}",
              flush=True)
    for epoch in range(epochs):
        net.train()
        if folded:
            frozen_norms(net)
        for x, y in loader:
            loss = loss_fn(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 200 == 0:
                print(f"epoch {epoch} step {step}/{steps} loss {float(loss.detach()):.3f}"
                      f" ({time.time() - start:.0f} s)", flush=True)
        print(f"epoch {epoch}: held-out accuracy {accuracy(net, images[held], labels[held]):.2%}",
              flush=True)
    return net.eval()


def accuracy(net: FaceNet, images: np.ndarray, labels: np.ndarray) -> float:
    net.eval()
    with torch.no_grad():
        x = torch.from_numpy(np.stack([prepare(i.astype(np.float32)) for i in images]))
        pred = torch.cat([net(x[k:k + 512]) for k in range(0, len(x), 512)]).argmax(1)
    net.train()
    return float((pred.numpy() == labels).mean())


def export(net: FaceNet, out: Path) -> None:
    """Write the network (logits out) as ONNX for OpenCV's DNN module."""
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, CROP, CROP), str(out), opset_version=11,
                      input_names=["crops"], output_names=["logits"], dynamo=False,
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})


def main(argv: list[str] | None = None) -> int:
    parser = trainer_parser(__doc__, epochs=4, batch=64)
    parser.add_argument("--init", type=Path,
                        help="start from these weights: PyTorch (.pt) or an exported model (.onnx)")
    parser.add_argument("--lr", type=float, default=3e-3,
                        help="peak learning rate (lower, say 3e-4, to go on from a model)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seeds the shuffling, the augmentation and a fresh network")
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)  # before the training, not after
    net = train(args.data, args.epochs, args.batch, args.threads, args.init, args.lr,
                args.seed)
    save(net, args.out, export)
    return 0


if __name__ == "__main__":
    sys.exit(main())
