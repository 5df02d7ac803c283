"""Loading the small neural networks the recognizer runs (ONNX files in ``models/``)
through OpenCV's DNN module, once per process.

OpenCV 5 has two engines; the classic one (the only one OpenCV 4 has, as on a Pi) runs
these small networks faster (the face classifier 2.0 ms for five dice, not 2.8) with the
same outputs to within 1e-5, so it is asked for where the choice exists.

>>> from pathlib import Path
>>> try:
...     load(Path("/nonexistent/x.onnx"), "dice detector")
... except VisionError as exc:
...     print(exc)
dice detector model missing: /nonexistent/x.onnx (reinstall dicetray)
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2

from dicetray.vision.errors import VisionError

__all__ = ["load"]


@functools.lru_cache(maxsize=4)
def load(path: Path, what: str) -> cv2.dnn.Net:
    """The network in ONNX file ``path``; ``what`` names it in errors."""
    if not path.is_file():
        raise VisionError(f"{what} model missing: {path} (reinstall dicetray)")
    classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)  # OpenCV 5; OpenCV 4 has no choice
    try:
        if classic is None:
            return cv2.dnn.readNetFromONNX(str(path))
        return cv2.dnn.readNetFromONNX(str(path), engine=classic)
    except cv2.error as exc:
        raise VisionError(f"{what} model unreadable: {path}: {exc}") from exc
