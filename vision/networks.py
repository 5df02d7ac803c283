"""Running the small neural networks the recognizer uses (ONNX files in ``models/``).

Two engines run the same files to within 1e-5: ONNX Runtime where it is installed (the
faster: the dice detector 4.6 against 6.0 ms a 320×240 frame on one thread, the face
classifier 1.4 against 2.7 ms for five dice), else OpenCV's DNN module (always there,
as on a 32-bit Raspberry Pi OS, for which ONNX Runtime has no wheel). ONNX Runtime runs
each network's 8-bit copy (:func:`quantized`, made by ``training/quantize.py``) where
there is one, about twice as fast again and reading the real photos as well (see
docs/benchmarks.md); OpenCV 4.6's engine gains little from 8 bits and reads them less
exactly, so it runs the float files. Either runs on as
many threads as OpenCV is set to (``cv2.setNumThreads``), so one setting holds for the
whole recognizer. Each network is loaded once per engine, thread count and copy (a
thread that runs a network while another runs it too needs a copy of its own: OpenCV's
are not thread-safe). :func:`soon` runs a network on a worker thread, one core, while
the caller goes on with the other.

>>> from pathlib import Path
>>> try:
...     load(Path("/nonexistent/x.onnx"), "dice detector")
... except VisionError as exc:
...     print(exc)
dice detector model missing: /nonexistent/x.onnx (reinstall dicetray)
>>> default_engine() in ENGINES
True
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

import cv2
import numpy as np

from dicetray.vision.errors import VisionError

__all__ = ["ENGINES", "ENGINE_VARIABLE", "Network", "default_engine", "load", "quantized", "soon"]

T = TypeVar("T")

#: The engines, fastest first.
ENGINES: tuple[str, ...] = ("onnxruntime", "opencv")
#: Environment variable that picks an engine by name (for comparing them).
ENGINE_VARIABLE = "DICETRAY_NET_ENGINE"


class Network(Protocol):
    """A loaded network: ``run(blob)`` gives its first output for an NCHW float32 blob."""

    def run(self, blob: np.ndarray) -> np.ndarray:
        """The network's first output for ``blob``."""
        ...


def quantized(path: Path) -> Path:
    """Where the 8-bit copy of the network in ``path`` is kept (``training/quantize.py``).

    >>> quantized(Path("models/dice-detector.onnx")).name
    'dice-detector.int8.onnx'
    """
    return path.with_name(f"{path.stem}.int8{path.suffix}")


class _OnnxRuntime:
    def __init__(self, path: Path, threads: int) -> None:
        import onnxruntime as ort


        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # threads that spin while waiting for work take the core from the OpenCV code
        # between the networks (measured: 25 instead of 13 ms a frame on two threads)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session = ort.InferenceSession(str(path), options,
                                             providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name

    def run(self, blob: np.ndarray) -> np.ndarray:
        return self._session.run(None, {self._input: np.ascontiguousarray(blob)})[0]


class _OpenCV:
    def __init__(self, path: Path) -> None:
        # OpenCV 5 has two engines; the classic one (the only one OpenCV 4 has, as on a
        # Pi) runs these small networks faster (the face classifier 2.0 ms for five dice,
        # not 2.8) with the same outputs to within 1e-5
        classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        if classic is None:
            self._net = cv2.dnn.readNetFromONNX(str(path))
        else:
            self._net = cv2.dnn.readNetFromONNX(str(path), engine=classic)

    def run(self, blob: np.ndarray) -> np.ndarray:
        self._net.setInput(np.ascontiguousarray(blob))
        return self._net.forward()


def default_engine(*, installed: Callable[[str], Any] = importlib.util.find_spec) -> str:
    """The engine :func:`load` uses: the one named by :data:`ENGINE_VARIABLE`, else the
    fastest ``installed`` (by module name: a spec, or None when it is not)."""
    named = os.environ.get(ENGINE_VARIABLE, "").strip()
    if named:
        if named not in ENGINES:
            raise VisionError(f"{ENGINE_VARIABLE}={named!r} is no network engine "
                              f"(choose one of: {', '.join(ENGINES)})")
        return named
    return ENGINES[0] if installed("onnxruntime") else ENGINES[1]


def load(path: Path, what: str, engine: str | None = None, threads: int | None = None,
         copy: int = 0, *, exact: bool = False) -> Network:
    """The network in ONNX file ``path`` on ``engine`` (None: :func:`default_engine`),
    on ``threads`` threads (None: OpenCV's thread count, which OpenCV's engine always
    uses); ``copy``: which of several loaded copies (one for each thread that runs it at
    the same time); ``what`` names it in errors. ONNX Runtime runs the file's 8-bit copy
    where there is one, unless ``exact``."""
    engine = engine or default_engine()
    if engine == "onnxruntime" and not exact and quantized(path).is_file():
        path = quantized(path)
    return _load(path, what, engine, max(1, threads or cv2.getNumThreads()), copy)


@functools.lru_cache(maxsize=16)
def _load(path: Path, what: str, engine: str, threads: int, copy: int) -> Network:
    if not path.is_file():
        raise VisionError(f"{what} model missing: {path} (reinstall dicetray)")
    if engine not in ENGINES:
        raise VisionError(f"no network engine {engine!r} (choose one of: {', '.join(ENGINES)})")
    try:
        return _OnnxRuntime(path, threads) if engine == "onnxruntime" else _OpenCV(path)
    except ImportError as exc:
        raise VisionError(f"network engine {engine} is not installed: {exc}") from exc
    except Exception as exc:  # ONNX Runtime's errors share no base class but Exception
        raise VisionError(f"{what} model unreadable: {path}: {_reason(exc)}") from exc


def _reason(exc: Any) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def soon(work: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
    """``work(*args, **kwargs)`` on the networks' worker thread, so that the caller's own
    work goes on meanwhile on another core (a network leaves Python's lock while it
    runs); with OpenCV set to one thread (one core) it runs at once, here.

    >>> soon(sum, [1, 2, 3]).result()
    6
    """
    if cv2.getNumThreads() <= 1:
        done: Future[T] = Future()
        done.set_result(work(*args, **kwargs))
        return done
    return _worker().submit(work, *args, **kwargs)


@functools.cache
def _worker() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="dicetray-networks")


# a forked child has none of its parent's threads: it starts a worker of its own
os.register_at_fork(after_in_child=_worker.cache_clear)
