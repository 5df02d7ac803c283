"""An 8-bit copy of the face classifier, for ONNX Runtime (:mod:`dicetray.vision.networks`).

ONNX Runtime runs a network whose weights and activations are 8-bit integers about twice
as fast as the float original; OpenCV 4.6's engine, as on a Pi, gains little from them
and reads them less exactly, so it keeps the float files. Each activation's range is
measured on the crops the reader gives the classifier: of the dice the detector finds in
train-half photos of both shared sets (:mod:`benchmarks.halves`), at their own size and
letterboxed to 1280×960, and in rendered frames of another seed than the benchmark's.
The held-out halves never take part.

The weights are rounded to 7 bits (``reduce_range``), not 8, so that the copy gives the
same answers on every processor. An x86 processor without VNNI (AVX2 only, as many
laptops, and the AMD EPYC this was found on) multiplies 8-bit activations by 8-bit
weights with an instruction (``vpmaddubsw``) that adds each pair of products in 16 bits,
clipping a sum beyond 32,767: two white pixels (255) times a weight of 127 make 64,770.
There the 8-bit copy read 2.1 % of the dice crops otherwise than its own arithmetic done
exactly (as a processor with VNNI does it), and the reader answered nell-byler 71 / 127
/ 2 instead of 76 / 123 / 1. With weights of at most 64 no pair passes 32,767
(2 × 255 × 64 = 32,640): the copy answers alike everywhere (docs/benchmarks.md, "The
8-bit classifier on a processor without VNNI").

The dice detector is left in floating point. Its 8-bit copy (``--detector``, its last
layer kept in floating point) ran 2.2× faster, but every way it was used it cost answers
(docs/benchmarks.md): for both passes of every look nell-byler went from 74 to 71 photos
right with one more silently wrong; for the mirror pass alone (the other in floating
point) from 76 to 72, and the rendered frames from 349 to 345. A sketched tray's learnt
face layouts, heard against a misreading classifier
(tests/vision/test_calibrate_dice_only.py), also read fewer rolls with it.

    python3 -m training.quantize            # writes vision/models/face-classifier.int8.onnx
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.datasets import SETS  # noqa: E402
from benchmarks.halves import Half, photos_in  # noqa: E402
from benchmarks.vision import REAL_SIZE, letterbox  # noqa: E402
from dicetray.vision import classifier, detector  # noqa: E402
from dicetray.vision.networks import quantized  # noqa: E402
from dicetray.vision.render import render_dataset  # noqa: E402

#: Layers left in floating point, by model file.
EXCLUDE = {"dice-detector.onnx": ("/inner/head/Conv",)}
#: Seed of the rendered frames measured (the benchmark reads seed 2026's).
SEED = 11


def frames(rendered: int, every: int) -> Iterator[np.ndarray]:
    """Every ``every``-th train-half photo of each shared set, at its own size and
    letterboxed to the camera's size, then ``rendered`` rendered frames."""
    for name in SETS:
        for photo in photos_in(name, Half.TRAIN)[::every]:
            image = cv2.imread(str(photo.path))
            if image is None:
                raise SystemExit(f"unreadable photo {photo.path}")
            yield image
            yield letterbox(image, REAL_SIZE)
    for frame, _ in render_dataset(rendered, seed=SEED, hard=True, image_size=(640, 480)):
        yield frame


def detector_inputs(frame: np.ndarray) -> Iterator[np.ndarray]:
    """The detector's inputs for ``frame``: its first look and, where the reader takes
    one, its second."""
    first = detector.detect(frame)
    yield detector.network_input(frame, detector.INPUT_SIDE)
    size = detector.median_size(first)
    if size is not None:
        side = detector.side_for(size, max(frame.shape[:2]))
        if side != detector.INPUT_SIDE:
            yield detector.network_input(frame, side)


def classifier_inputs(frame: np.ndarray) -> Iterator[np.ndarray]:
    """The classifier's input for the dice the detector finds in ``frame``, in the four
    turns the reader reads first."""
    finds = detector.find_dice(frame, threshold=0.12)
    blob = classifier.crops(frame, [(c.x, c.y, c.size) for c in finds])
    if len(blob):
        yield np.concatenate([np.rot90(blob, k, axes=(2, 3)) for k in range(4)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rendered", type=int, default=60, help="rendered frames measured")
    parser.add_argument("--every", type=int, default=4, help="one train-half photo in this many")
    parser.add_argument("--detector", action="store_true",
                        help="quantize the dice detector too (not shipped: see above)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    for model in (detector.MODEL, classifier.MODEL):  # measured with the float networks
        quantized(model).unlink(missing_ok=True)
    shown = list(frames(args.rendered, args.every))
    print(f"{len(shown)} frames measured")
    with tempfile.TemporaryDirectory() as tmp:
        # the classifier first: its crops are cut where the float detector finds the dice
        chosen = [(classifier.MODEL, classifier_inputs, "crops")]
        if args.detector:
            chosen.append((detector.MODEL, detector_inputs, "frame"))
        for model, inputs, name in chosen:
            blobs = [b for f in shown for b in inputs(f)]
            out = quantized(model)
            _quantize(model, out, name, blobs, Path(tmp))
            print(f"{out}: {out.stat().st_size:,} bytes from {len(blobs)} inputs")
    return 0


def _quantize(model: Path, out: Path, name: str, blobs: list[np.ndarray], tmp: Path) -> None:
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Inputs(CalibrationDataReader):
        def __init__(self) -> None:
            self._left = iter(blobs)

        def get_next(self) -> dict[str, np.ndarray] | None:
            blob = next(self._left, None)
            return None if blob is None else {name: blob}

    prepared = tmp / model.name
    quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
    quantize_static(str(prepared), str(out), Inputs(), quant_format=QuantFormat.QOperator,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                    per_channel=True, reduce_range=True,
                    nodes_to_exclude=list(EXCLUDE.get(model.name, ())))


if __name__ == "__main__":
    raise SystemExit(main())
