"""Loading the small neural networks the recognizer runs (ONNX files in ``models/``)
through OpenCV's DNN module, once per process.

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
    try:
        return cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise VisionError(f"{what} model unreadable: {path}: {exc}") from exc
