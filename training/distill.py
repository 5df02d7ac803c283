"""Distil the mirror-averaged dice detector into a network that answers it in one pass.

The reader ran the detector twice at its second look: on the frame and on its mirror
image, the two outputs averaged (the mirror's mapped back, its x offsets negated), as the
network alone is not mirror-symmetric. The student here has the detector's layout
(:class:`training.detector.DiceNet`), starts from the teacher's weights
(:func:`training.detector.from_onnx`) and learns, on one thread, the teacher's averaged
output (computed with the teacher's ONNX file, as the reader runs it) for:

- the photos of the ``train`` halves of the shared sets (:mod:`benchmarks.halves`; never
  the held-out halves), scaled to long sides the reader uses (240-640 px), some of them
  letterboxed to the camera's 1280x960 first, flipped at random;
- rendered frames (:mod:`training.data`) scaled to long sides of 240-480 px.

Each input is a window of at most :attr:`Distilling.window` px a side of the network's
input (the teacher sees the same window, so the target is the teacher's answer for it).
The loss: the binary cross-entropy of the student's heat logits against the teacher's
heat (soft targets) less its floor, over the teacher's heat plus one, and the L1 gap of
the size and offset channels weighted by the teacher's heat.

Tried on 2026-11-27 and NOT kept: no student read as the two passes do (the one pass
cost right answers or added silent errors on every set; docs/benchmarks.md, "The
detector distilled to one pass"), so the shipped detector is still the two-pass one.
The two tries (the teacher is the shipped detector):

    cp vision/models/dice-detector.onnx /tmp/two-pass.onnx
    python3 -m training.data --out /tmp/distill-frames.npz --frames 3000 --seed 4242 \
        --workers 1
    python3 -m training.distill --teacher /tmp/two-pass.onnx --data /tmp/distill-frames.npz \
        --steps 3000 --threads 1 --out /tmp/d1/dice-detector.onnx
    python3 -m training.distill --teacher /tmp/two-pass.onnx --data /tmp/distill-frames.npz \
        --steps 5000 --lr 5e-4 --real 0.9 --regression 0.25 --seed 2 --threads 1 \
        --out /tmp/d3/dice-detector.onnx

and their fit (on the held-out halves, at the reader's scales) measured with

    python3 -m training.distill --teacher /tmp/two-pass.onnx \
        --fit /tmp/two-pass.onnx /tmp/d1/dice-detector.onnx /tmp/d3/dice-detector.onnx
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np
import torch
from torch.nn import functional as F  # noqa: N812

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.datasets import SETS  # noqa: E402
from benchmarks.halves import Half, photos_in  # noqa: E402
from benchmarks.vision import REAL_SIZE, letterbox  # noqa: E402
from dicetray.vision.detector import (  # noqa: E402
    INPUT_SIDE,
    KINDS,
    THRESHOLD,
    detect,
    from_mirror,
    median_size,
    network_input,
    side_for,
)
from dicetray.vision.networks import load  # noqa: E402
from training.detector import DiceNet, export, from_onnx, save  # noqa: E402

Net = TypeVar("Net", bound=torch.nn.Module)


@dataclass(frozen=True)
class Distilling:
    """How the student is taught."""

    #: Largest window (px a side, a multiple of 8) of the network's input taught at once:
    #: one step on a whole 640 x 480 input takes about 0.25 s on one thread here.
    window: int = 256
    #: Long sides (px) the photos are scaled to: the reader's first look (320) and the
    #: second look's scales (side_for: up to the photo's own long side, 640).
    photo_sides: tuple[int, int] = (240, 640)
    #: Long sides for the rendered frames (rendered at 320 x 240).
    frame_sides: tuple[int, int] = (240, 480)
    #: Share of the inputs that are real photos (the rest rendered frames).
    real: float = 0.7
    #: Share of the photos letterboxed to the camera's 1280x960 first, as the speed
    #: figures are (:func:`benchmarks.vision.letterbox`).
    letterboxed: float = 0.25
    #: Inputs per optimiser step (their gradients summed).
    batch: int = 8
    #: Peak learning rate (AdamW, cosine down to none): a fine-tune from the teacher.
    lr: float = 2e-4
    #: Weight of the size and offset channels' loss beside the heat maps'.
    regression: float = 1.0


def averaged(net, blob: np.ndarray) -> np.ndarray:
    """The output of ``net`` (a loaded network, :func:`dicetray.vision.networks.load`) for
    ``blob`` averaged with its output for the mirror image, mapped back: what the reader's
    detector computes with ``mirror`` (:func:`dicetray.vision.detector.heat_maps`)."""
    direct = net.run(blob)[0]
    return (direct + from_mirror(net.run(np.ascontiguousarray(blob[..., ::-1]))[0])) / 2


def train_photos(sets: list[str]) -> list[np.ndarray]:
    """The photos of the ``train`` halves of ``sets``."""
    out = []
    for name in sets:
        for photo in photos_in(name, Half.TRAIN):
            image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if image is None:
                raise OSError(f"cannot decode {photo.path}")
            out.append(image)
    return out


class Inputs:
    """Random network inputs (windows of them) from the photos and rendered frames."""

    def __init__(self, photos: list[np.ndarray], frames: np.ndarray, seed: int,
                 distilling: Distilling = Distilling()) -> None:
        self.photos, self.frames, self.d = photos, frames, distilling
        self.rng = np.random.default_rng(seed)

    def __call__(self) -> np.ndarray:
        rng, d = self.rng, self.d
        if not len(self.frames) or rng.random() < d.real:
            frame = self.photos[rng.integers(len(self.photos))]
            if rng.random() < d.letterboxed:
                frame = letterbox(frame, REAL_SIZE)
            lo, hi = d.photo_sides
        else:
            frame = self.frames[rng.integers(len(self.frames))]
            lo, hi = d.frame_sides
        if rng.random() < 0.5:
            frame = frame[:, ::-1]
        if rng.random() < 0.5:
            frame = frame[::-1]
        blob = network_input(np.ascontiguousarray(frame), int(rng.integers(lo, hi + 1)))
        h, w = blob.shape[2:]
        wh, ww = min(h, d.window), min(w, d.window)
        y = int(rng.integers((h - wh) // 8 + 1)) * 8
        x = int(rng.integers((w - ww) // 8 + 1)) * 8
        return np.ascontiguousarray(blob[..., y:y + wh, x:x + ww])


def loss(out: torch.Tensor, target: torch.Tensor, regression: float) -> torch.Tensor:
    """The student's loss for one input (see the module's docstring)."""
    k = len(KINDS)
    heat = target[:, :k].clamp(1e-6, 1 - 1e-6)
    bce = F.binary_cross_entropy_with_logits(out[:, :k], heat, reduction="sum")
    floor = -(heat * heat.log() + (1 - heat) * (1 - heat).log()).sum()
    mass = heat.sum() + 1
    weight = target[:, :k].max(1, keepdim=True).values
    reg = ((out[:, k:] - target[:, k:]).abs() * weight).sum() / (weight.sum() + 1)
    return (bce - floor) / mass + regression * reg


def inputs_from(data: list[Path], seed: int, sets: list[str] | None = None,
                distilling: Distilling = Distilling()) -> Inputs:
    """The inputs from the train halves of ``sets`` (None: every shared set) and the
    rendered frames in the ``data`` files (:mod:`training.data`)."""
    frames = [np.load(p)["images"] for p in data]
    return Inputs(train_photos(sets or list(SETS)),
                  np.concatenate(frames) if frames else np.zeros((0, 1, 1, 3), np.uint8),
                  seed, distilling)


def fine_tune(student: Net, target_of: Callable[[np.ndarray], np.ndarray], inputs: Inputs,
              steps: int, distilling: Distilling = Distilling()) -> Net:
    """``student`` taught ``steps`` optimiser steps (AdamW from ``distilling.lr``, cosine
    down to none, ``distilling.batch`` inputs a step) towards ``target_of(blob)``, the
    teacher's output (1 x C x H x W) for each input, by :func:`loss`."""
    opt = torch.optim.AdamW(student.parameters(), lr=distilling.lr, weight_decay=0.0)
    start, total = time.time(), 0.0
    for step in range(steps):
        lr = distilling.lr * 0.5 * (1 + math.cos(math.pi * step / steps))
        for group in opt.param_groups:
            group["lr"] = lr
        opt.zero_grad()
        for _ in range(distilling.batch):
            blob = inputs()
            target = torch.from_numpy(target_of(blob))
            value = loss(student(torch.from_numpy(blob)), target, distilling.regression)
            (value / distilling.batch).backward()
            total += float(value.detach())
        opt.step()
        if (step + 1) % 50 == 0:
            print(f"step {step + 1}/{steps} loss {total / 50 / distilling.batch:.5f}"
                  f" lr {lr:.1e} ({time.time() - start:.0f} s)", flush=True)
            total = 0.0
    return student


def distil(teacher: Path, data: list[Path], steps: int, threads: int, seed: int = 0,
           sets: list[str] | None = None, distilling: Distilling = Distilling()) -> DiceNet:
    """The student, taught ``steps`` steps (see the module's docstring)."""
    torch.set_num_threads(threads)
    cv2.setNumThreads(threads)
    torch.manual_seed(seed)
    inputs = inputs_from(data, seed, sets, distilling)
    net = load(teacher, "dice detector", threads=threads, exact=True)
    student = from_onnx(DiceNet(), teacher, "inner.").eval()  # norms frozen: folded away
    return fine_tune(student, lambda blob: averaged(net, blob)[None], inputs, steps,
                     distilling).eval()


def _unmatched(a: list, b: list) -> int:
    """Finds in ``a`` with no find of the same kind in ``b`` within a third of its size."""
    return sum(all(c.kind != o.kind or math.hypot(c.x - o.x, c.y - o.y) > c.size / 3
                   for o in b) for c in a)


def fit(student: Path, teacher: Path, sets: list[str], half: str = Half.HELD_OUT.value,
        threshold: float = THRESHOLD) -> dict[str, dict[str, float]]:
    """How near the student's one pass comes to the teacher's two, per set, on the photos
    of ``half`` at the reader's two scales (:data:`INPUT_SIDE` and the second look's):
    the largest and mean gap of the heat maps, the mean gap of the size channel where the
    teacher's heat is ``threshold`` or more, and the finds (at ``threshold``) of either
    that the other lacks."""
    t_net = load(teacher, "dice detector", threads=1, exact=True)
    s_net = load(student, "dice detector", threads=1, exact=True)
    k = len(KINDS)
    report = {}
    for name in sets:
        worst, gaps, sizes, odd, finds, looks = 0.0, [], [], 0, 0, 0
        for photo in photos_in(name, half):
            frame = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            die = median_size(detect(frame, model=teacher, mirror=False))
            long_side = max(frame.shape[:2])
            second = INPUT_SIDE if die is None else side_for(die, long_side)
            for side in sorted({INPUT_SIDE, second}):
                blob = network_input(frame, side)
                a, b = averaged(t_net, blob), s_net.run(blob)[0]
                gap = np.abs(a[:k] - b[:k])
                worst, looks = max(worst, float(gap.max())), looks + 1
                gaps.append(float(gap.mean()))
                hot = a[:k].max(0) >= threshold
                if hot.any():
                    sizes.append(float(np.abs(a[k] - b[k])[hot].mean()))
                old = detect(frame, threshold, teacher, side, mirror=True)
                new = detect(frame, threshold, student, side, mirror=False)
                odd += _unmatched(old, new) + _unmatched(new, old)
                finds += len(old)
        report[name] = {"looks": looks, "heat max gap": worst,
                        "heat mean gap": float(np.mean(gaps)),
                        "log-size gap at finds": float(np.mean(sizes)) if sizes else 0.0,
                        "finds differing": odd, "teacher finds": finds}
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--teacher", type=Path, required=True,
                        help="the two-pass detector (ONNX) whose averaged answer is learnt")
    parser.add_argument("--data", type=Path, nargs="*", default=[],
                        help="rendered frames (python3 -m training.data)")
    parser.add_argument("--out", type=Path, help="where to export the student (ONNX)")
    parser.add_argument("--fit", type=Path, nargs="+",
                        help="instead of training: the fit of these one-pass models")
    parser.add_argument("--half", default=Half.HELD_OUT.value,
                        choices=[h.value for h in Half], help="the photos --fit is measured on")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--batch", type=int, default=Distilling.batch)
    parser.add_argument("--lr", type=float, default=Distilling.lr)
    parser.add_argument("--real", type=float, default=Distilling.real,
                        help="share of the inputs that are real photos")
    parser.add_argument("--regression", type=float, default=Distilling.regression,
                        help="weight of the size and offset channels' loss")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if args.fit:
        for model in args.fit:
            for name, figures in fit(model, args.teacher, sets, args.half).items():
                shown = ", ".join(f"{k} {v:.4g}" for k, v in figures.items())
                print(f"{model} on {name} ({args.half}): {shown}", flush=True)
        return 0
    if args.out is None:
        parser.error("--out is needed to train (or --fit to measure)")
    args.out.parent.mkdir(parents=True, exist_ok=True)  # before the training, not after
    student = distil(args.teacher, args.data, args.steps, args.threads, args.seed, sets,
                     Distilling(batch=args.batch, lr=args.lr, real=args.real,
                                regression=args.regression))
    save(student, args.out, export)
    return 0


if __name__ == "__main__":
    sys.exit(main())
