"""How well the dice detector finds the dice in the real labelled photos (and the face
classifier reads them).

Each photo's labelled boxes are matched to the detector's candidates (a candidate
inside a box, nearest first, one each): recall = boxes found, precision = candidates
that are a labelled die. The photos are never trained on; this is how the detector,
trained on rendered frames only, carries over to real ones.

    python3 -m training.evaluate                  # both sets
    python3 -m training.evaluate --threshold 0.4 --sets nell-byler
    python3 -m training.evaluate --faces 0.8      # the face classifier on the dice found
    python3 -m training.evaluate --detector /tmp/new/dice-detector.onnx   # a new model
    python3 -m training.evaluate --faces 0.8 --classifier /tmp/new/face-classifier.onnx
    python3 -m training.evaluate --side 240       # the frames scaled to 240 px, not 320
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.datasets import datasets_root, load_set  # noqa: E402
from dicetray.vision.classifier import MODEL as CLASSIFIER  # noqa: E402
from dicetray.vision.classifier import classify  # noqa: E402
from dicetray.vision.detector import (  # noqa: E402
    INPUT_SIDE,
    MODEL,
    THRESHOLD,
    Candidate,
    detect,
)

Box = tuple[float, float, float, float, int]  # x0, y0, x1, y1 in px, value


def boxes(set_name: str) -> dict[Path, list[Box]]:
    """The labelled dice boxes (and the value each shows) per photo path."""
    root = datasets_root() / set_name
    out: dict[Path, list[Box]] = defaultdict(list)
    if set_name == "nell-byler":
        with open(root / "boxes.csv", newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                w, h = float(row["width"]), float(row["height"])
                out[root / "images" / row["filename"]].append(
                    (float(row["xmin"]) * w, float(row["ymin"]) * h,
                     float(row["xmax"]) * w, float(row["ymax"]) * h, int(row["value"])))
        return out
    for photo in load_set(set_name):
        label = photo.path.with_suffix(".txt")
        image = cv2.imread(str(photo.path))
        h, w = image.shape[:2]
        for line in label.read_text().split("\n"):
            if line.strip():
                k, cx, cy, bw, bh = (float(v) for v in line.split())
                out[photo.path].append(((cx - bw / 2) * w, (cy - bh / 2) * h,
                                        (cx + bw / 2) * w, (cy + bh / 2) * h, int(k) + 1))
    return out


def matches(truth: list[Box], cands: list[Candidate]) -> list[tuple[Box, Candidate]]:
    """Each labelled box with the candidate inside it nearest its centre (one each)."""
    free = list(range(len(cands)))
    out = []
    for box in truth:
        x0, y0, x1, y1, _ = box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        inside = [i for i in free if x0 <= cands[i].x <= x1 and y0 <= cands[i].y <= y1]
        if inside:
            best = min(inside, key=lambda i: (cands[i].x - cx) ** 2 + (cands[i].y - cy) ** 2)
            free.remove(best)
            out.append((box, cands[best]))
    return out


def evaluate(set_name: str, threshold: float, model: Path = MODEL,
             side: int = INPUT_SIDE) -> dict[str, float]:
    """Recall, precision and size ratio of the detector on one set, each photo scaled to
    a long side of ``side`` px for the network."""
    found = labelled = claimed = 0
    ratios = []
    for path, truth in boxes(set_name).items():
        cands = detect(cv2.imread(str(path)), threshold, model, side)
        labelled += len(truth)
        claimed += len(cands)
        pairs = matches(truth, cands)
        found += len(pairs)
        ratios += [c.size / max(b[2] - b[0], b[3] - b[1]) for b, c in pairs]
    return {"recall": found / max(labelled, 1), "precision": found / max(claimed, 1),
            "dice": labelled, "size_ratio": float(np.median(ratios)) if ratios else 0.0}


def faces(set_name: str, sure: float, model: Path = MODEL,
          classifier: Path = CLASSIFIER) -> dict[str, float]:
    """The face ``classifier`` on each labelled die detector ``model`` found, at the
    detector's centre and size: right overall, and how many it is ``sure`` of and how
    many of those are right."""
    total = right = confident = confident_right = 0
    for path, truth in boxes(set_name).items():
        image = cv2.imread(str(path))
        found = detect(image, model=model)
        picked = [((c.x, c.y, c.size), box[4]) for box, c in matches(truth, found)]
        if not picked:
            continue
        probs = classify(image, [p[0] for p in picked], classifier)
        for (_, value), p in zip(picked, probs, strict=True):
            total += 1
            right += int(np.argmax(p)) == value
            if float(p.max()) >= sure:
                confident += 1
                confident_right += int(np.argmax(p)) == value
    return {"dice": total, "right": right / max(total, 1), "sure": confident / max(total, 1),
            "sure_right": confident_right / max(confident, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", default="matteop65,nell-byler")
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--detector", type=Path, default=MODEL, help="the detector's ONNX file")
    parser.add_argument("--classifier", type=Path, default=CLASSIFIER,
                        help="the face classifier's ONNX file (with --faces)")
    parser.add_argument("--side", type=int, default=INPUT_SIDE,
                        help="long side (px) each photo is scaled to for the detector")
    parser.add_argument("--faces", type=float, metavar="SURE",
                        help="measure the face classifier instead (SURE: its least probability)")
    args = parser.parse_args(argv)
    if args.faces is not None:
        _table(args.sets, lambda name: faces(name, args.faces, args.detector, args.classifier),
               f"| set | dice found | read right | sure (p >= {args.faces}) | sure and right |",
               "| {set} | {dice} | {right:.1%} | {sure:.1%} | {sure_right:.1%} |")
        return 0
    _table(args.sets, lambda name: evaluate(name, args.threshold, args.detector, args.side),
           "| set | labelled dice | found (recall) | candidates that are dice (precision) "
           f"| size ÷ box side |  (threshold {args.threshold}, side {args.side} px)",
           "| {set} | {dice} | {recall:.1%} | {precision:.1%} | {size_ratio:.2f} |")
    return 0


def _table(sets: str, measure: Callable[[str], dict[str, float]], head: str, row: str) -> None:
    print(head)
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in sets.split(","):
        print(row.format(set=name, **measure(name)))


if __name__ == "__main__":
    sys.exit(main())
