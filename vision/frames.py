"""Frame sources: where the tray's pictures come from.

Every source is a :class:`FrameSource`: ``capture()`` returns one BGR uint8 frame,
``frames()`` iterates over them, ``size`` is (width, height), and ``close()`` (or a
``with`` block) lets the camera go. Four backends:

- :class:`Picamera2Source` — the Raspberry Pi camera, with exposure, gain, white
  balance and focus fixed from the calibration so every capture looks alike;
- :class:`OpenCVCameraSource` — a USB webcam (or a video file) through OpenCV;
- :class:`FolderSource` — replays the images of a folder in name order;
- :class:`SimulatedSource` — the rendered camera looking at a simulated tray.

A missing or failing camera is a :class:`~dicetray.vision.errors.CameraError`
naming the backend and the reason.

>>> with open_source("sim:3") as source:
...     frame = source.capture()
>>> frame.shape, source.size
((960, 1280, 3), (1280, 960))
>>> open_source("telescope")
Traceback (most recent call last):
...
dicetray.vision.errors.CameraError: unknown frame source 'telescope' (expected ...)
"""

from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from dicetray.vision.calibration import Calibration, CameraSettings
from dicetray.vision.errors import CameraError
from dicetray.vision.imageio import printable, read_image, write_image
from dicetray.vision.scene import Scene, SimulatedTray, random_scene

__all__ = [
    "IMAGE_SUFFIXES",
    "FolderSource",
    "FrameClock",
    "FrameSource",
    "OpenCVCameraSource",
    "Picamera2Source",
    "SimulatedSource",
    "open_source",
    "picamera2_controls",
    "read_image",
    "write_image",
]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
"""File endings a folder source and the calibrate command treat as images."""

_AF_MODE_MANUAL = 0  # libcamera's AfModeEnum.Manual


class FrameSource(ABC):
    """Something that takes pictures of the tray."""

    name: str = "source"
    #: Whether :meth:`apply` can set a lens position (a camera with a focus motor).
    can_focus: bool = False

    @property
    @abstractmethod
    def size(self) -> tuple[int, int]:
        """(width, height) of the frames."""

    @abstractmethod
    def capture(self) -> np.ndarray:
        """Take one frame: a BGR uint8 array of shape (height, width, 3)."""

    def close(self) -> None:  # noqa: B027 (most sources have nothing to release)
        """Let the camera go (the default has nothing to release)."""

    def camera_settings(self) -> CameraSettings | None:  # noqa: B027 (most cannot tell)
        """The exposure, gains and focus in use, when the backend can tell."""

    def apply(self, settings: CameraSettings) -> None:
        """Fix the camera's exposure, gains and focus to ``settings`` from the next frame on
        (CameraError when the backend has no such controls)."""
        raise CameraError(f"{self.name}: this camera's exposure and focus cannot be set")
        return None

    def frames(self, limit: int | None = None) -> Iterator[np.ndarray]:
        """Frames one after another (``limit`` of them, or until the source runs out)."""
        count = 0
        while limit is None or count < limit:
            try:
                frame = self.capture()
            except _ExhaustedError:
                return
            count += 1
            yield frame

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class _ExhaustedError(CameraError):
    """A finite source (a folder, a video file) has no more frames."""


def _bgr_frame(array: Any, backend: str) -> np.ndarray:
    """Check a captured array is a BGR uint8 frame (dropping an alpha channel)."""
    if not isinstance(array, np.ndarray) or array.dtype != np.uint8 or array.ndim != 3:
        raise CameraError(f"{backend}: capture returned {getattr(array, 'shape', array)!r}, "
                          "not a colour image")
    if array.shape[2] == 4:
        array = array[:, :, :3]
    if array.shape[2] != 3:
        raise CameraError(f"{backend}: capture has {array.shape[2]} channels, expected 3")
    return np.ascontiguousarray(array)


# -- Raspberry Pi camera -----------------------------------------------------------------


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera through picamera2.

    With ``settings`` the automatic exposure and white balance are switched off and
    exposure time, analogue gain and colour gains are fixed; a camera with a
    focus motor (Camera Module 3) is set to manual focus at ``lens_position``.
    Without settings the camera runs automatic (as when calibrating; read what it
    chose with :meth:`camera_settings`). Frames are requested as picamera2's
    ``RGB888`` format, which is laid out B, G, R in memory: OpenCV's order.
    """

    name = "picamera2"

    def __init__(self, size: tuple[int, int] = (1280, 960), settings: CameraSettings | None = None,
                 index: int = 0) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(
                "picamera2: not installed (on Raspberry Pi OS: sudo apt install python3-picamera2)"
            ) from exc
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:
            raise CameraError(f"picamera2: cannot list cameras ({exc})") from exc
        if len(cameras) <= index:
            raise CameraError(f"picamera2: no camera found (looked for camera {index}, "
                              f"{len(cameras)} connected)")
        try:
            self._camera = Picamera2(index)
        except Exception as exc:
            raise CameraError(f"picamera2: cannot open camera {index} ({exc})") from exc
        try:
            config = self._camera.create_preview_configuration(
                main={"size": tuple(size), "format": "RGB888"})
            self._camera.configure(config)
            controls = self._controls(settings)
            if controls:
                self._camera.set_controls(controls)
            self._camera.start()
        except CameraError:
            self._camera.close()
            raise
        except Exception as exc:
            self._camera.close()
            raise CameraError(f"picamera2: cannot start camera {index} ({exc})") from exc
        self._size = (int(size[0]), int(size[1]))

    def _controls(self, settings: CameraSettings | None) -> dict[str, Any]:
        if settings is None:
            return {}
        return picamera2_controls(settings, focus=self.can_focus, manual_focus=_af_manual())

    @property
    def can_focus(self) -> bool:  # type: ignore[override]
        """Whether the camera has a focus motor (Camera Module 3)."""
        return "AfMode" in getattr(self._camera, "camera_controls", {})

    def apply(self, settings: CameraSettings) -> None:
        """Set exposure, gains and focus on the running camera (from the next frames on)."""
        controls = self._controls(settings)
        try:
            self._camera.set_controls(controls)
        except Exception as exc:
            raise CameraError(f"picamera2: cannot set the camera's controls ({exc})") from exc

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the frames."""
        return self._size

    def capture(self) -> np.ndarray:
        """One frame from the camera's main stream."""
        try:
            array = self._camera.capture_array("main")
        except Exception as exc:
            raise CameraError(f"picamera2: capture failed ({exc})") from exc
        frame = _bgr_frame(array, self.name)
        return frame[:, : self._size[0]] if frame.shape[1] > self._size[0] else frame

    def camera_settings(self) -> CameraSettings:
        """What the camera is using now (from the last frame's metadata)."""
        try:
            meta = self._camera.capture_metadata()
        except Exception as exc:
            raise CameraError(f"picamera2: cannot read metadata ({exc})") from exc
        gains = meta.get("ColourGains") or (1.6, 1.6)
        lens = meta.get("LensPosition")
        return CameraSettings(
            exposure_us=max(1, int(meta.get("ExposureTime", 10_000))),
            analogue_gain=float(min(max(meta.get("AnalogueGain", 1.0), 1.0), 64.0)),
            colour_gains=(float(gains[0]), float(gains[1])),
            lens_position=None if lens is None else float(lens),
        )

    def close(self) -> None:
        """Stop and release the camera."""
        camera, self._camera = getattr(self, "_camera", None), None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()


def picamera2_controls(settings: CameraSettings, *, focus: bool,
                       manual_focus: Any = _AF_MODE_MANUAL) -> dict[str, Any]:
    """picamera2's controls fixing ``settings``: automatic exposure and white balance off,
    exposure time (µs), analogue gain and colour gains set; on a camera with a focus motor
    (``focus``), manual focus at the lens position (dioptres). CameraError when the
    settings give a lens position and the camera cannot focus.

    >>> controls = picamera2_controls(CameraSettings(exposure_us=8000, lens_position=2.5),
    ...                               focus=True)
    >>> controls["ExposureTime"], controls["AeEnable"], controls["LensPosition"]
    (8000, False, 2.5)
    >>> "LensPosition" in picamera2_controls(CameraSettings(), focus=False)
    False
    """
    controls: dict[str, Any] = {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": int(settings.exposure_us),
        "AnalogueGain": float(settings.analogue_gain),
        "ColourGains": (float(settings.colour_gains[0]), float(settings.colour_gains[1])),
    }
    if settings.lens_position is not None:
        if not focus:
            raise CameraError("picamera2: this camera has no focus control, but the "
                              "calibration sets a lens position")
        controls["AfMode"] = manual_focus
        controls["LensPosition"] = float(settings.lens_position)
    return controls


def _af_manual() -> Any:
    try:
        from libcamera import controls

        return controls.AfModeEnum.Manual
    except (ImportError, AttributeError):
        return _AF_MODE_MANUAL


# -- OpenCV camera -------------------------------------------------------------------------


def _log_level_functions(cv2: Any) -> tuple[Callable[[], int], Callable[[int], None]]:
    """OpenCV's get/set log level: in ``cv2.utils.logging`` from 4.8, top-level before
    (Raspberry Pi OS Bookworm ships 4.6)."""
    logging = getattr(cv2.utils, "logging", None)
    if logging is not None:
        return logging.getLogLevel, logging.setLogLevel
    return cv2.getLogLevel, cv2.setLogLevel


class OpenCVCameraSource(FrameSource):
    """A USB webcam (device index or path) or a video file, through ``cv2.VideoCapture``.

    With ``settings``, automatic exposure and white balance are switched off and the
    exposure set, as far as the camera's driver lets OpenCV do it.
    """

    name = "opencv"

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = None,
                 settings: CameraSettings | None = None,
                 capture_factory: Callable[..., Any] | None = None) -> None:
        import cv2

        factory = capture_factory or cv2.VideoCapture
        self._device = device
        if isinstance(device, str):
            try:
                device.encode("utf-8")
            except UnicodeEncodeError:  # OpenCV takes paths as UTF-8 only: it would crash
                raise CameraError(f"opencv: {printable(device)}: the name is not valid UTF-8; "
                                  "rename the file") from None
        try:
            self._file = isinstance(device, str) and Path(device).is_file()
        except (OSError, ValueError) as exc:  # a name too long, a NUL byte
            raise CameraError(f"opencv: cannot open {printable(str(device))} ({exc})") from None
        # OpenCV logs its own warnings when a camera is missing; the CameraError says it
        get_level, set_level = _log_level_functions(cv2)
        quiet = get_level()
        set_level(0)  # silent
        try:
            self._capture = factory(device)
        except Exception as exc:
            raise CameraError(f"opencv: cannot open {device!r} ({exc})") from exc
        finally:
            set_level(quiet)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"opencv: VideoCapture({device!r}) could not be opened "
                              "(no such camera, or it is busy)")
        if size is not None and not self._file:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if settings is not None and not self._file:
            self._capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)  # V4L2: 1 = manual
            self._capture.set(cv2.CAP_PROP_EXPOSURE, settings.exposure_us / 100)  # 100 µs units
            self._capture.set(cv2.CAP_PROP_GAIN, settings.analogue_gain)
            self._capture.set(cv2.CAP_PROP_AUTO_WB, 0)
        self._size: tuple[int, int] | None = None
        width = int(self._capture.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
        height = int(self._capture.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        if width and height:
            self._size = (width, height)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the frames (from the driver, or the first frame)."""
        if self._size is None:
            self._size = self._peek_size()
        return self._size

    def _peek_size(self) -> tuple[int, int]:
        frame = self.capture()
        self._pending = frame
        return (frame.shape[1], frame.shape[0])

    def capture(self) -> np.ndarray:
        """The next frame; CameraError when the camera fails (or a video file ends)."""
        pending = getattr(self, "_pending", None)
        if pending is not None:
            self._pending = None
            return pending
        ok, frame = self._capture.read()
        if not ok or frame is None:
            if self._file:
                raise _ExhaustedError(f"opencv: no more frames in {self._device}")
            raise CameraError(f"opencv: read failed on {self._device!r} (camera unplugged?)")
        frame = _bgr_frame(frame, self.name)
        if self._size is None:
            self._size = (frame.shape[1], frame.shape[0])
        return frame

    def close(self) -> None:
        """Release the capture device."""
        self._capture.release()


# -- folder of images -------------------------------------------------------------------------


class FolderSource(FrameSource):
    """Replays the images of a folder in name order (over and over with ``loop``)."""

    name = "folder"

    def __init__(self, folder: str | os.PathLike[str], loop: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"folder: {printable(self.folder)} is not a folder")
        self.paths = sorted(p for p in self.folder.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.paths:
            raise CameraError(f"folder: no images in {printable(self.folder)}")
        self.loop = loop
        self._next = 0
        self._size: tuple[int, int] | None = None

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the first image."""
        if self._size is None:
            first = read_image(self.paths[0])
            self._size = (first.shape[1], first.shape[0])
        return self._size

    def capture(self) -> np.ndarray:
        """The next image; CameraError at the end of a folder that does not loop."""
        if self._next >= len(self.paths):
            if not self.loop:
                raise _ExhaustedError(f"folder: no more images in {printable(self.folder)}")
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        image = read_image(path)
        if self._size is None:
            self._size = (image.shape[1], image.shape[0])
        return image


# -- simulated ------------------------------------------------------------------------------


class FrameClock:
    """Simulated time that moves on by one frame interval at every capture.

    >>> clock = FrameClock(fps=10)
    >>> clock.tick(); clock.tick(); round(clock(), 3)
    0.2
    """

    def __init__(self, fps: float = 15.0) -> None:
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        self.now = 0.0
        self.step = 1.0 / fps

    def __call__(self) -> float:
        return self.now

    def tick(self) -> None:
        """One frame later."""
        self.now += self.step


class SimulatedSource(FrameSource):
    """The rendered camera over a simulated tray (or a fixed scene).

    Drive the dice through :attr:`tray` (``roll``, ``keep``, ``release``,
    ``clear``); each capture renders the tray as it is at that moment, with fresh
    sensor noise. A tray made here runs on a :class:`FrameClock` (``fps`` frames a
    second, time moving only as frames are taken), so a simulated roll settles
    after the same number of frames on any machine; ``fps=None`` uses real time.
    Give the same :attr:`clock` to a settle detector.

    >>> source = SimulatedSource(seed=2, size=(320, 240))
    >>> values = source.tray.roll([1, 2, 3, 4, 5])
    >>> frames = list(source.frames(limit=30))  # two simulated seconds
    >>> source.tray.settled, source.truth().values
    (True, (1, 2, 3, 4, 5))
    """

    name = "sim"

    def __init__(self, world: SimulatedTray | Scene | None = None, seed: int = 0, *,
                 size: tuple[int, int] | None = None, fps: float | None = 15.0) -> None:
        self.tray: SimulatedTray | None
        self.clock: Callable[[], float]
        if isinstance(world, Scene):
            self.tray, self._scene = None, world
            self.clock = FrameClock(fps) if fps else time.monotonic
        elif world is not None:
            self.tray, self._scene = world, None
            self.clock = world.clock
        else:
            self.clock = FrameClock(fps) if fps else time.monotonic
            base = random_scene(seed, image_size=size) if size else None
            self.tray = SimulatedTray(seed=seed, clock=self.clock, base=base)
            self._scene = None
        self._index = 0

    def scene(self) -> Scene:
        """The world as it is now."""
        return self._scene if self.tray is None else self.tray.scene()

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the rendered frames."""
        return self.scene().camera.image_size

    def capture(self) -> np.ndarray:
        """Render the tray as it is now."""
        from dicetray.vision.render import render

        frame, _ = render(self.scene(), self._index)
        self._index += 1
        if isinstance(self.clock, FrameClock):
            self.clock.tick()
        return frame

    def nearest_die(self, x: float, y: float) -> int:
        """Index (in :attr:`tray` order) of the die whose top face is nearest image point
        (x, y): how a tap on a die in a frame becomes ``tray.keep(index)``."""
        dice = self.truth().dice
        if not dice:
            raise ValueError("there are no dice on the simulated tray")
        return min(range(len(dice)), key=lambda i: (dice[i].x - x) ** 2 + (dice[i].y - y) ** 2)

    def truth(self) -> Any:
        """The exact truth (a :class:`~dicetray.vision.render.FrameTruth`) of the tray now."""
        from dicetray.vision.render import render

        return render(self.scene())[1]


# -- by name --------------------------------------------------------------------------------


def open_source(spec: str, calibration: Calibration | None = None, *, loop: bool = False,
                size: tuple[int, int] | None = None) -> FrameSource:
    """Open a frame source by name: ``picamera2[:INDEX]``, ``opencv[:INDEX|PATH]``,
    ``folder:PATH`` or ``sim[:SEED]``.

    A calibration fixes the camera's settings and frame size; ``size`` overrides
    the size; ``loop`` replays a folder forever.
    """
    kind, _, arg = spec.partition(":")
    kind = kind.strip().lower()
    settings = calibration.camera if calibration is not None else None
    frame_size = size or (calibration.image_size if calibration is not None else None)
    if kind == "picamera2":
        return Picamera2Source(frame_size or (1280, 960), settings, index=_int(arg, spec, 0))
    if kind == "opencv":
        device: int | str = arg if arg and not arg.isdigit() else _int(arg, spec, 0)
        return OpenCVCameraSource(device, frame_size, settings)
    if kind == "folder":
        if not arg:
            raise CameraError("folder: give the folder as folder:PATH")
        return FolderSource(arg, loop=loop)
    if kind == "sim":
        return SimulatedSource(seed=_int(arg, spec, 0), size=frame_size)
    raise CameraError(f"unknown frame source {spec!r} (expected picamera2[:INDEX], "
                      "opencv[:INDEX|PATH], folder:PATH or sim[:SEED])")


def _int(text: str, spec: str, default: int) -> int:
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise CameraError(f"{spec!r}: {text!r} is not a number") from None
