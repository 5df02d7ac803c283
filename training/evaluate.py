"""How well the dice detector finds the dice in the real labelled photos.

Each photo's labelled boxes are matched to the detector's candidates (a candidate
inside a box, nearest first, one each): recall = boxes found, precision = candidates
that are a labelled die. The photos are never trained on; this is how the detector,
trained on rendered frames only, carries over to real ones.

    python3 -m training.evaluate                  # both sets
    python3 -m training.evaluate --threshold 0.4 --sets nell-byler
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.datasets import datasets_root, load_set  # noqa: E402
from dicetray.vision.detector import THRESHOLD, detect  # noqa: E402

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in px


def boxes(set_name: str) -> dict[Path, list[Box]]:
    """The labelled dice boxes per photo path."""
    root = datasets_root() / set_name
    out: dict[Path, list[Box]] = defaultdict(list)
    if set_name == "nell-byler":
        with open(root / "boxes.csv", newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                w, h = float(row["width"]), float(row["height"])
                out[root / "images" / row["filename"]].append(
                    (float(row["xmin"]) * w, float(row["ymin"]) * h,
                     float(row["xmax"]) * w, float(row["ymax"]) * h))
        return out
    for photo in load_set(set_name):
        label = photo.path.with_suffix(".txt")
        image = cv2.imread(str(photo.path))
        h, w = image.shape[:2]
        for line in label.read_text().split("\n"):
            if line.strip():
                _, cx, cy, bw, bh = (float(v) for v in line.split())
                out[photo.path].append(((cx - bw / 2) * w, (cy - bh / 2) * h,
                                        (cx + bw / 2) * w, (cy + bh / 2) * h))
    return out


def evaluate(set_name: str, threshold: float) -> dict[str, float]:
    found = labelled = claimed = right = 0
    ratios = []
    for path, truth in boxes(set_name).items():
        cands = detect(cv2.imread(str(path)), threshold)
        labelled += len(truth)
        claimed += len(cands)
        free = list(range(len(cands)))
        for x0, y0, x1, y1 in truth:
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            inside = [i for i in free
                      if x0 <= cands[i].x <= x1 and y0 <= cands[i].y <= y1]
            if inside:
                best = min(inside, key=lambda i: (cands[i].x - cx) ** 2 + (cands[i].y - cy) ** 2)
                free.remove(best)
                found += 1
                right += 1
                ratios.append(cands[best].size / max(x1 - x0, y1 - y0))
    return {"recall": found / max(labelled, 1), "precision": right / max(claimed, 1),
            "dice": labelled, "size_ratio": float(np.median(ratios)) if ratios else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", default="matteop65,nell-byler")
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    args = parser.parse_args(argv)
    print(f"| set | labelled dice | found (recall) | candidates that are dice (precision) "
          f"| size ÷ box side |  (threshold {args.threshold})")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in args.sets.split(","):
        r = evaluate(name, args.threshold)
        print(f"| {name} | {r['dice']} | {r['recall']:.1%} | {r['precision']:.1%} "
              f"| {r['size_ratio']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
