"""The tray's calibration: where the tray and hold ledge are, how the camera is set.

A calibration is one JSON file plus the empty-tray background as a PNG beside it.
It is versioned and validated: a file that is corrupt in any way is refused with a
:class:`~dicetray.vision.errors.CalibrationError` naming the file and the reason, so
the tray asks to be calibrated rather than misreading dice.

>>> cal = Calibration(
...     image_size=(640, 480),
...     tray=((100, 80), (540, 80), (540, 400), (100, 400)),
...     ledge=((100, 410), (540, 410), (540, 470), (100, 470)),
...     die_size=48.0,
... )
>>> cal.zone_of(320, 240), cal.zone_of(320, 440), cal.zone_of(10, 10)
('tray', 'ledge', 'unknown')
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "calibration.json"
>>> cal.save(path)
>>> Calibration.load(path) == cal
True
>>> _ = path.write_text('{"version": 99}')
>>> Calibration.load(path)
Traceback (most recent call last):
...
dicetray.vision.errors.CalibrationError: .../calibration.json: unsupported version 99 (expected 1)
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from dicetray.vision.errors import CalibrationError, FrameError
from dicetray.vision.layouts import LearntLayout, fit_layout, learn_layout

CALIBRATION_VERSION = 1
"""The version written into every calibration file; other versions are refused."""

LAYOUTS_VERSION = 1
"""The version of the learnt face layouts in a calibration file (its ``layouts`` object,
written only when some were learnt; a file without one loads with none)."""

Point = tuple[float, float]
Polygon = tuple[Point, ...]
Matrix = tuple[tuple[float, ...], ...]
BGR = tuple[int, int, int]

_MIN_POLYGON_AREA = 1.0  # px²: anything smaller is a line or a point, not a zone
_MAX_CONDITION = 1e12  # a homography this ill-conditioned is as good as singular
# A calibration is about 1 KB of JSON; anything past this cap is not one (and /dev/zero
# or a FIFO never ends): refused before it is read.
MAX_CALIBRATION_BYTES = 1024 * 1024
# No number in a calibration is anywhere near this (pixels, gains, a homography's
# entries); past it a float loses whole pixels and an int may not convert to float.
_MAX_MAGNITUDE = 1e12
# Tray and ledge corners may lie a little outside the frame (a floor cut by the frame
# edge), never further out than this many frame sides.
_CORNER_REACH = 4


@dataclass(frozen=True)
class CameraSettings:
    """Fixed camera controls, so that every capture looks alike.

    ``colour_gains`` is (red, blue), as picamera2's ``ColourGains`` control takes it;
    ``lens_position`` is in dioptres (1 / metres), None for a fixed-focus camera.

    >>> CameraSettings(exposure_us=8000).to_json()["exposure_us"]
    8000
    """

    exposure_us: int = 10_000
    analogue_gain: float = 1.0
    colour_gains: tuple[float, float] = (1.6, 1.6)
    lens_position: float | None = None

    def __post_init__(self) -> None:
        _check(isinstance(self.exposure_us, int) and not isinstance(self.exposure_us, bool),
               f"camera exposure_us must be an integer, got {self.exposure_us!r}")
        _check(0 < self.exposure_us <= 10_000_000,
               f"camera exposure_us {self.exposure_us} out of range (1..10000000 µs)")
        _check(_is_number(self.analogue_gain) and 0.5 <= self.analogue_gain <= 64,
               f"camera analogue_gain {self.analogue_gain!r} out of range (0.5..64)")
        gains = self.colour_gains
        _check(isinstance(gains, tuple) and len(gains) == 2
               and all(_is_number(g) and 0 < g <= 32 for g in gains),
               f"camera colour_gains must be two numbers in (0, 32], got {gains!r}")
        _check(self.lens_position is None
               or (_is_number(self.lens_position) and 0 <= self.lens_position <= 32),
               f"camera lens_position {self.lens_position!r} out of range (0..32 dioptres)")

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict."""
        return {
            "exposure_us": self.exposure_us,
            "analogue_gain": self.analogue_gain,
            "colour_gains": list(self.colour_gains),
            "lens_position": self.lens_position,
        }

    @classmethod
    def from_json(cls, data: Any) -> CameraSettings:
        """Settings from a dict as written by :meth:`to_json` (CalibrationError when malformed)."""
        _check(isinstance(data, dict), "camera must be an object")
        _check(set(data) <= _CAMERA_FIELDS,
               f"camera has unknown fields {sorted(set(data) - _CAMERA_FIELDS)}")
        gains = data.get("colour_gains", [1.6, 1.6])
        _check(isinstance(gains, list), "camera colour_gains must be a list of two numbers")
        return cls(
            exposure_us=data.get("exposure_us", 10_000),
            analogue_gain=data.get("analogue_gain", 1.0),
            colour_gains=tuple(gains),  # type: ignore[arg-type]
            lens_position=data.get("lens_position"),
        )


_CAMERA_FIELDS = {"exposure_us", "analogue_gain", "colour_gains", "lens_position"}


@dataclass(frozen=True)
class Calibration:
    """Everything the recognizer and the camera need to know about one tray set-up.

    Coordinates are image pixels of frames of ``image_size`` (width, height).
    ``homography`` maps image pixels to a top-down view of ``topdown_size``; None
    means the camera already looks straight down. ``background`` names the PNG
    beside the JSON holding the empty tray; the pixels themselves travel with the
    object (see :meth:`background_image`). ``layouts``: where these dice draw each face's
    pips, learnt from the dice frames (:class:`~dicetray.vision.layouts.LearntLayout`,
    one per face value learnt; :func:`~dicetray.vision.layouts.face_layouts` makes the
    layouts the reader fits and checks faces by from them).
    """

    image_size: tuple[int, int]
    tray: Polygon
    die_size: float
    ledge: Polygon | None = None
    homography: Matrix | None = None
    topdown_size: tuple[int, int] | None = None
    die_color: BGR = (235, 235, 235)
    pip_color: BGR = (30, 30, 30)
    background: str | None = None
    camera: CameraSettings = field(default_factory=CameraSettings)
    quality: Mapping[str, float] = field(default_factory=dict)
    layouts: tuple[LearntLayout, ...] = ()
    version: int = CALIBRATION_VERSION
    background_pixels: np.ndarray | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check(_is_version(self.version),
               f"unsupported version {self.version!r} (expected {CALIBRATION_VERSION})")
        object.__setattr__(self, "image_size", _size(self.image_size, "image_size"))
        width, height = self.image_size
        reach = _CORNER_REACH * max(width, height)
        object.__setattr__(self, "tray", _polygon(self.tray, "tray", reach))
        if self.ledge is not None:
            object.__setattr__(self, "ledge", _polygon(self.ledge, "ledge", reach))
        if self.homography is not None:
            object.__setattr__(self, "homography", _homography(self.homography))
            _check(self.topdown_size is not None, "homography given without topdown_size")
        if self.topdown_size is not None:
            object.__setattr__(self, "topdown_size", _size(self.topdown_size, "topdown_size"))
        _check(_is_number(self.die_size) and 2 <= self.die_size <= max(width, height) / 2,
               f"die_size {_brief(self.die_size)} px is not plausible for a {width}x{height} image")
        object.__setattr__(self, "die_color", _bgr(self.die_color, "die_color"))
        object.__setattr__(self, "pip_color", _bgr(self.pip_color, "pip_color"))
        _check(self.background is None
               or (isinstance(self.background, str) and self.background
                   and os.path.basename(self.background) == self.background),
               f"background must be a plain file name, got {self.background!r}")
        _check(isinstance(self.camera, CameraSettings), "camera must be CameraSettings")
        _check(isinstance(self.quality, Mapping)
               and all(isinstance(k, str) and _is_number(v) for k, v in self.quality.items()),
               "quality must map names to numbers")
        object.__setattr__(self, "quality", dict(self.quality))
        _check(isinstance(self.layouts, tuple)
               and all(isinstance(face, LearntLayout) for face in self.layouts),
               "layouts must be learnt layouts")
        values = [face.value for face in self.layouts]
        _check(len(set(values)) == len(values), f"layouts: a face learnt twice ({values})")
        object.__setattr__(self, "layouts", tuple(sorted(self.layouts, key=lambda f: f.value)))
        if self.background_pixels is not None:
            pixels = self.background_pixels
            _check(isinstance(pixels, np.ndarray) and pixels.dtype == np.uint8
                   and pixels.shape == (height, width, 3),
                   f"background image must be {width}x{height} BGR uint8, got "
                   f"{getattr(pixels, 'shape', type(pixels).__name__)}")

    # -- zones -----------------------------------------------------------------

    def zone_of(self, x: float, y: float) -> str:
        """The zone holding image point (x, y): "ledge", "tray" or "unknown" (neither)."""
        if self.ledge is not None and _inside(self.ledge, x, y):
            return "ledge"
        if _inside(self.tray, x, y):
            return "tray"
        return "unknown"

    def zone_mask(self, zones: Sequence[str] = ("tray", "ledge")) -> np.ndarray:
        """A uint8 mask (255 inside) of the given zones, image-sized."""
        import cv2

        width, height = self.image_size
        mask = np.zeros((height, width), np.uint8)
        for name in zones:
            polygon = self.tray if name == "tray" else self.ledge if name == "ledge" else None
            if polygon is not None:
                cv2.fillPoly(mask, [np.round(np.array(polygon)).astype(np.int32)], 255)
        return mask

    # -- perspective -------------------------------------------------------------

    def to_topdown(self, points: Sequence[Point]) -> np.ndarray:
        """Map image points to top-down coordinates (identity without a homography).

        >>> cal = Calibration(image_size=(100, 100), tray=((0, 0), (99, 0), (99, 99)),
        ...                   die_size=10, homography=((2, 0, 0), (0, 2, 0), (0, 0, 1)),
        ...                   topdown_size=(200, 200))
        >>> cal.to_topdown([(10, 20)]).tolist()
        [[20.0, 40.0]]
        """
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if self.homography is None:
            return pts
        h = np.asarray(self.homography, dtype=np.float64)
        ones = np.ones((len(pts), 1))
        mapped = np.hstack([pts, ones]) @ h.T
        return mapped[:, :2] / mapped[:, 2:3]

    def topdown(self, frame: np.ndarray) -> np.ndarray:
        """Warp a frame to the top-down view (a copy of it without a homography)."""
        import cv2

        if self.homography is None or self.topdown_size is None:
            return frame.copy()
        return cv2.warpPerspective(frame, np.asarray(self.homography), self.topdown_size)

    # -- background --------------------------------------------------------------

    def background_image(self) -> np.ndarray | None:
        """The empty-tray image (BGR uint8, image-sized), or None when there is none."""
        return None if self.background_pixels is None else self.background_pixels.copy()

    def with_background(self, image: np.ndarray | None) -> Calibration:
        """A copy of this calibration holding ``image`` as its empty-tray background."""
        return replace(self, background_pixels=image)

    # -- files -----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The calibration as a JSON-ready dict (the background as a file name only)."""
        return {
            "version": self.version,
            "image_size": list(self.image_size),
            "tray": [list(p) for p in self.tray],
            "ledge": None if self.ledge is None else [list(p) for p in self.ledge],
            "homography": None if self.homography is None else [list(r) for r in self.homography],
            "topdown_size": None if self.topdown_size is None else list(self.topdown_size),
            "die_size": self.die_size,
            "die_color": list(self.die_color),
            "pip_color": list(self.pip_color),
            "background": self.background,
            "camera": self.camera.to_json(),
            "quality": dict(self.quality),
            **({"layouts": _layouts_json(self.layouts)} if self.layouts else {}),
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the JSON to ``path`` and the background (if any) as a PNG beside it.

        The background file is named ``<stem>.background.png``; both files are
        written to temporary names first and then renamed, so a crash never leaves
        a half-written calibration behind.
        """
        path = Path(path)
        cal = self
        path.parent.mkdir(parents=True, exist_ok=True)
        if self.background_pixels is not None:
            import cv2

            name = f"{path.stem}.background.png"
            ok, png = cv2.imencode(".png", self.background_pixels)
            if not ok:
                raise CalibrationError(f"{path}: could not encode the background image")
            _write_atomic(path.parent / name, png.tobytes())
            cal = replace(self, background=name)
        elif self.background is not None:
            cal = replace(self, background=None)
        text = json.dumps(cal.to_json(), indent=2) + "\n"
        _write_atomic(path, text.encode("utf-8"))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Calibration:
        """Read and validate a calibration; CalibrationError (file + reason) when corrupt."""
        from dicetray.vision.imageio import read_bytes

        path = Path(path)
        try:
            text = read_bytes(path, MAX_CALIBRATION_BYTES).decode("utf-8")
        except FileNotFoundError:
            raise CalibrationError(
                f"{_shown(path)}: no calibration file (run `dicetray calibrate`)"
            ) from None
        except (OSError, ValueError) as exc:  # UnicodeDecodeError, an embedded NUL
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise CalibrationError(f"{_shown(path)}: cannot read the file ({why})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{_shown(path)}: not valid JSON ({exc})") from None
        except (ValueError, RecursionError) as exc:  # an int of 5,000 digits; [[[[...
            why = ("nested too deeply" if isinstance(exc, RecursionError)
                   else "a number of over 4,300 digits")
            raise CalibrationError(f"{_shown(path)}: not a calibration ({why})") from None
        try:
            cal = cls.from_json(data)
        except (CalibrationError, ValueError, TypeError, OverflowError) as exc:
            raise CalibrationError(f"{_shown(path)}: {exc}") from None
        if cal.background is None:
            return cal
        return cal.with_background(_read_background(path.parent / cal.background, cal, path))

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        """A calibration from its JSON dict, validated (CalibrationError naming the problem)."""
        _check(isinstance(data, dict), "the file must hold a JSON object")
        _check("version" in data, "missing field 'version'")
        _check(_is_version(data["version"]),
               f"unsupported version {data['version']!r} (expected {CALIBRATION_VERSION})")
        unknown = set(data) - _FIELDS
        _check(not unknown, f"unknown fields {sorted(unknown)}")
        for name in _REQUIRED:
            _check(name in data, f"missing field {name!r}")
        camera = CameraSettings.from_json(data.get("camera", {}))
        quality = data.get("quality", {})
        _check(isinstance(quality, dict), "quality must be an object")
        return cls(
            version=data["version"],
            image_size=_as_tuple(data["image_size"], "image_size"),
            tray=_as_points(data["tray"], "tray"),
            ledge=None if data.get("ledge") is None else _as_points(data["ledge"], "ledge"),
            homography=None if data.get("homography") is None
            else _as_points(data["homography"], "homography"),
            topdown_size=None if data.get("topdown_size") is None
            else _as_tuple(data["topdown_size"], "topdown_size"),
            die_size=data["die_size"],
            die_color=_as_tuple(data.get("die_color", [235, 235, 235]), "die_color"),
            pip_color=_as_tuple(data.get("pip_color", [30, 30, 30]), "pip_color"),
            background=data.get("background"),
            camera=camera,
            quality=quality,
            layouts=_layouts_of(data.get("layouts")),
        )


_FIELDS = {
    "version", "image_size", "tray", "ledge", "homography", "topdown_size", "die_size",
    "die_color", "pip_color", "background", "camera", "quality", "layouts",
}
_REQUIRED = ("image_size", "tray", "die_size")


def _layouts_json(layouts: Sequence[LearntLayout]) -> dict[str, Any]:
    return {"version": LAYOUTS_VERSION,
            "faces": {str(f.value): {"spots": [list(p) for p in f.spots], "dice": f.dice}
                      for f in layouts}}


def _layouts_of(data: Any) -> tuple[LearntLayout, ...]:
    """The learnt layouts from a file's ``layouts`` object (None: none learnt), validated:
    CalibrationError naming the face and what is wrong with it."""
    if data is None:
        return ()
    _check(isinstance(data, dict), "layouts must be an object")
    _check(set(data) <= {"version", "faces"},
           f"layouts has unknown fields {sorted(set(data) - {'version', 'faces'})}")
    version = data.get("version")
    _check(type(version) is int and version == LAYOUTS_VERSION,
           f"layouts: unsupported version {_brief(version)} (expected {LAYOUTS_VERSION})")
    faces = data.get("faces")
    _check(isinstance(faces, dict), "layouts: faces must be an object of face values")
    out = []
    for key, face in faces.items():
        _check(key in {"1", "2", "3", "4", "5", "6"},
               f"layouts: unknown face {_brief(key)} (a die shows 1..6)")
        _check(isinstance(face, dict) and set(face) == {"spots", "dice"},
               f"layouts: face {key} must be an object with spots and dice")
        spots = face["spots"]
        _check(isinstance(spots, list) and all(isinstance(p, list) for p in spots),
               f"layouts: face {key}'s spots must be a list of [x, y] pairs")
        try:
            out.append(LearntLayout(int(key), tuple(tuple(p) for p in spots), face["dice"]))
        except ValueError as exc:
            raise CalibrationError(f"layouts: {exc}") from None
    return tuple(out)


def homography_from_corners(
    corners: Sequence[Point], size: tuple[int, int]
) -> tuple[Matrix, tuple[int, int]]:
    """The image → top-down homography taking four tray corners to a ``size`` rectangle.

    Corners run top-left, top-right, bottom-right, bottom-left (as seen in the image).

    >>> h, size = homography_from_corners([(10, 10), (110, 10), (110, 60), (10, 60)], (200, 100))
    >>> [round(v, 3) for v in h[0]], size
    ([2.0, 0.0, -20.0], (200, 100))
    """
    import cv2

    src = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    width, height = size
    dst = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    h = cv2.getPerspectiveTransform(src, dst)
    return tuple(tuple(float(v) for v in row) for row in h), (int(width), int(height))


# -- validation helpers ------------------------------------------------------------


def _check(condition: object, reason: str) -> None:
    if not condition:
        raise CalibrationError(reason)


def _is_number(value: object) -> bool:
    """A finite int or float of plausible size (never a bool, never 10**400)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and -_MAX_MAGNITUDE <= value <= _MAX_MAGNITUDE and math.isfinite(value))


def _brief(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def _is_finite(value: object) -> bool:
    """An int (of any size: the caller bounds it) or a finite float, never a bool."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _is_version(value: object) -> bool:
    return type(value) is int and value == CALIBRATION_VERSION  # `true == 1` is no version


def _shown(path: Path) -> str:
    from dicetray.vision.imageio import printable

    return printable(path)


def _as_tuple(value: Any, name: str) -> tuple[Any, ...]:
    _check(isinstance(value, list), f"{name} must be a list, got {type(value).__name__}")
    return tuple(value)


def _as_points(value: Any, name: str) -> tuple[tuple[Any, ...], ...]:
    _check(isinstance(value, list) and all(isinstance(p, list) for p in value),
           f"{name} must be a list of lists")
    return tuple(tuple(p) for p in value)


def _size(value: Any, name: str) -> tuple[int, int]:
    _check(isinstance(value, (tuple, list)) and len(value) == 2
           and all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 20_000
                   for v in value),
           f"{name} must be two positive integers (width, height), got {value!r}")
    return (int(value[0]), int(value[1]))


def _polygon(value: Any, name: str, reach: float = _MAX_MAGNITUDE) -> Polygon:
    _check(isinstance(value, (tuple, list)) and len(value) >= 3,
           f"{name} polygon needs at least 3 points")
    points = []
    for p in value:
        _check(isinstance(p, (tuple, list)) and len(p) == 2 and all(_is_finite(v) for v in p),
               f"{name} polygon point {_brief(p)} is not an (x, y) pair of numbers")
        _check(all(abs(v) <= reach for v in p),
               f"{name} polygon point {_brief(p)} lies too far outside the image")
        points.append((float(p[0]), float(p[1])))
    _check(abs(_area(points)) >= _MIN_POLYGON_AREA,
           f"{name} polygon is degenerate (area {abs(_area(points)):.1f} px²)")
    return tuple(points)


def _homography(value: Any) -> Matrix:
    _check(isinstance(value, (tuple, list)) and len(value) == 3
           and all(isinstance(r, (tuple, list)) and len(r) == 3 for r in value)
           and all(_is_number(v) for r in value for v in r),
           "homography must be a 3x3 matrix of numbers")
    matrix = np.asarray(value, dtype=np.float64)
    _check(abs(np.linalg.det(matrix)) > 1e-12 and np.linalg.cond(matrix) < _MAX_CONDITION,
           "homography is singular")
    return tuple(tuple(float(v) for v in row) for row in value)


def _bgr(value: Any, name: str) -> BGR:
    _check(isinstance(value, (tuple, list)) and len(value) == 3
           and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v <= 255
                   for v in value),
           f"{name} must be three integers 0..255 (B, G, R), got {value!r}")
    return (int(value[0]), int(value[1]), int(value[2]))


def _area(points: Sequence[Point]) -> float:
    return 0.5 * sum(x0 * y1 - x1 * y0
                     for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))


def _inside(polygon: Polygon, x: float, y: float) -> bool:
    inside = False
    n = len(polygon)
    for i in range(n):
        (x0, y0), (x1, y1) = polygon[i], polygon[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _read_background(png: Path, cal: Calibration, path: Path) -> np.ndarray:
    from dicetray.vision.imageio import ImageFileError, read_image

    try:
        image = read_image(png)
    except ImageFileError as exc:
        reason = "is missing" if exc.reason == "no such file" else f"is unreadable ({exc.reason})"
        raise CalibrationError(f"{_shown(path)}: background image {png.name} {reason}") from None
    width, height = cal.image_size
    if image.shape[:2] != (height, width):
        raise CalibrationError(
            f"{path}: background image {png.name} is {image.shape[1]}x{image.shape[0]}, "
            f"expected {width}x{height}"
        )
    return image


def _write_atomic(path: Path, data: bytes) -> None:
    from dicetray.rules import write_durably

    try:
        write_durably(path, data)  # the new file or the old one, whole, after a power cut
    except OSError as exc:  # a full disk, a read-only folder: nothing half-written is left
        raise CalibrationError(f"{_shown(path)}: cannot write the file "
                               f"({exc.strerror or exc})") from None


# -- building a calibration from frames ----------------------------------------------------


@dataclass(frozen=True)
class CalibrationReport:
    """How building a calibration went: the dice found per frame and how they were read.

    ``status`` is "ok" (every dice frame read right), "unsure" (some frame read
    unsure or with the wrong count) or "unread" (no recognizer was available).
    """

    status: str
    dice_found: tuple[int, ...]
    readings: tuple[Any, ...]
    problems: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The report as lines of text for a person."""
        out = [f"dice found per frame: {', '.join(map(str, self.dice_found)) or '-'}"]
        for i, reading in enumerate(self.readings, 1):
            values = " ".join(map(str, reading.values)) or "-"
            note = f" ({reading.reason})" if reading.reason else ""
            out.append(f"frame {i}: read {values} — {reading.status}{note}")
        out.extend(f"problem: {p}" for p in self.problems)
        out.append(f"status: {self.status}")
        return out


Reader = Any  # Callable[[np.ndarray, Calibration | None, int | None], Reading]


def build_calibration(
    empty_frames: Sequence[np.ndarray],
    dice_frames: Sequence[np.ndarray],
    *,
    tray: Sequence[Point] | None = None,
    ledge: Sequence[Point] | None = None,
    dice: int | None = 5,
    reader: Reader | None = None,
    camera: CameraSettings | None = None,
) -> tuple[Calibration, CalibrationReport]:
    """Make a calibration from frames of the empty tray and frames with dice on it.

    The background is the per-pixel median of ``empty_frames``; the tray is found
    in it as the large even region round the image centre (or given as ``tray``,
    four or more corners in image px; ``ledge`` likewise, or None). Die size and
    colours come from the dice frames (what differs from the background), and
    the recognizer (``reader``, default :func:`dicetray.vision.read`) reads each
    dice frame with the new calibration to measure how well it works.
    With no ``empty_frames`` (photos of a tray whose empty view nobody took) the tray
    is ``tray`` or the whole frame, nothing is left out as the empty tray's, and the
    dice's size, colours and face layouts come from the dice the recognizer reads in
    the dice frames alone (at least :data:`MIN_DICE_SEEN`).
    CalibrationError when the frames don't allow a calibration.
    """
    import cv2

    empty_frames = list(empty_frames)
    background = _median_frame(empty_frames, "empty-tray") if empty_frames else None
    if background is None:
        shots = _check_frames(dice_frames, None, "dice")
        height, width = shots[0].shape[:2]
    else:
        height, width = background.shape[:2]
    shots = _check_frames(dice_frames, (height, width), "dice")
    ledge_polygon = _polygon(ledge, "ledge") if ledge is not None else None
    if tray is not None:
        tray_polygon = _polygon(tray, "tray")
    elif background is None:  # no empty tray to find it in: the whole frame
        tray_polygon = ((0.0, 0.0), (width - 1.0, 0.0), (width - 1.0, height - 1.0),
                        (0.0, height - 1.0))
    else:
        tray_polygon = _find_tray(background)
    blobs: list[list[tuple[float, np.ndarray, int]]] = []
    if background is not None:
        zones = Calibration(image_size=(width, height), tray=tray_polygon,
                            ledge=ledge_polygon,
                            die_size=max(2.0, min(width, height) / 20)).zone_mask()
        blobs = [_dice_blobs(shot, background, zones, dice) for shot in shots]
        found = [b for frame_blobs in blobs for b in frame_blobs]
        if not found:
            raise CalibrationError("no dice found in the dice frames (nothing differs from "
                                   "the empty tray inside the tray zone)")
        singles = [b[0] for b in found if b[2] == 1] or [b[0] for b in found]
        die_size = float(np.median(singles))
    # the dice the recognizer reads alone, before any calibration, measure their own
    # size and colours: white dice on a pale tray differ from it by their pips only, and
    # the difference measured the pips (16 px for dice 90 px wide, their colours swapped)
    alone = _read_alone(shots, dice, reader)
    seen = [list(r.dice) if r is not None else [] for r in alone]
    read_alone = sum(len(r) for r in seen)
    if read_alone >= MIN_DICE_SEEN:
        die_size = float(np.median([d.size for r in seen for d in r]))
        blobs = [[(d.size, _disc((height, width), d), 1) for d in r] for r in seen]
    elif background is None:
        raise CalibrationError(
            f"without frames of the empty tray the dice are measured on the dice the "
            f"recognizer reads in the dice frames: {read_alone} read, "
            f"{MIN_DICE_SEEN} needed (give --empty frames, or frames with the dice apart)")
    die_color, pip_color = _dice_colours(shots, blobs, die_size, cv2)
    from dicetray.vision.detector import find_dice

    finds = [find_dice(shot) for shot in shots]  # (for the layouts and the dice's size)
    layouts = _learn_layouts(shots, finds, seen, die_color, pip_color)
    if tray is None and background is not None:
        # the floor seen in the empty tray lies below the dice's top faces, which a
        # tilted camera sees a little further out: widen the zone by half a die
        tray_polygon = _grow(tray_polygon, die_size * 0.5)
    calibration = _assembled(
        Calibration(image_size=(width, height), tray=tray_polygon, ledge=ledge_polygon,
                    die_size=die_size, die_color=die_color, pip_color=pip_color,
                    camera=camera or CameraSettings(), background_pixels=background,
                    layouts=layouts))
    counts = [sum(b[2] for b in frame_blobs) for frame_blobs in blobs]
    report = _read_back(calibration, shots, counts, dice, reader)
    read_sizes = _found_sizes(finds, report.readings) if background is not None else []
    if read_sizes:
        # the dice read cleanly measure themselves more exactly than a difference from the
        # empty tray, which pale dice on a pale floor or dark on dark blur
        calibration = replace(calibration, die_size=float(np.median(read_sizes)))
    return replace(calibration, quality=_quality(len(shots), report)), report


def _assembled(calibration: Calibration) -> Calibration:
    """The calibration with the top-down view of its tray, where the tray has four corners."""
    corners = _four_corners(calibration.tray)
    if corners is None:
        return calibration
    homography, topdown = homography_from_corners(corners, _topdown_size(corners))
    return replace(calibration, homography=homography, topdown_size=topdown)


def _quality(frames: int, report: CalibrationReport) -> dict[str, float]:
    """How well a calibration read its own dice frames (kept in the file)."""
    quality = {"frames": float(frames), "dice_found": float(np.mean(report.dice_found))}
    if report.readings:
        quality["read_ok"] = float(np.mean([r.ok for r in report.readings]))
        confidences = [d.confidence for r in report.readings for d in r.dice]
        quality["confidence"] = float(np.mean(confidences)) if confidences else 0.0
    return quality


#: Fewest dice read alone in the dice frames for their size and colours to be taken from
#: them rather than from the difference with the empty tray.
MIN_DICE_SEEN = 3


def _read_alone(shots: Sequence[np.ndarray], dice: int | None,
                reader: Reader | None) -> list[Any | None]:
    """Per dice frame, the recognizer's reading of it with no calibration, None when no
    recognizer is available (its dice each with a value, size and centre; their size and
    colours are taken whatever the answer's status: a refusal is often about something
    else in the frame)."""
    reader = reader or _default_reader()
    if reader is None:
        return [None for _ in shots]
    readings = []
    for i, shot in enumerate(shots, 1):
        try:
            readings.append(reader(shot, None, dice))
        except FrameError as exc:
            raise CalibrationError(f"dice frame {i}: {exc}") from None
    return readings


#: Half the side of the square, turned with the die, its pips are looked for in (a share
#: of the detector's edge, which is about 0.8 of the true one: 0.44 of the true edge,
#: inside the face, round a corner pip at 0.27 of it and its radius, 0.085).
PIP_WINDOW = 0.55
#: Least area of a pip (a share of the edge, squared): less is a speck.
MIN_PIP = 0.05


def _learn_layouts(shots: Sequence[np.ndarray], finds: Sequence[Sequence[Any]],
                   seen: Sequence[Sequence[Any]], die_color: BGR,
                   pip_color: BGR) -> tuple[LearntLayout, ...]:
    """Where these dice draw each face's pips: on every die ``seen`` (read alone, each with
    a centre and an angle) that the dice detector found (``finds``, one list a shot:
    :func:`_find_of`), the blobs nearer the pips' colour than the body's inside its
    face, their offsets from its centre in shares of its edge as the dice detector measures
    it (the reader's own yardstick for a die), counted as the face of that many pips when
    they make one (:func:`~dicetray.vision.layouts.fit_layout`), averaged per face value
    over the dice seen (:func:`~dicetray.vision.layouts.learn_layout`). A face whose mean
    makes no such face (a pip of another die or a mark counted in) is not learnt."""
    from collections import defaultdict

    faces: defaultdict[int, list[np.ndarray]] = defaultdict(list)
    for shot, found, dice in zip(shots, finds, seen, strict=True):
        # counted, not taken from the reading: a die unlike those the reader knows (a 6
        # with close columns) is refused or shown with the classifier's value exactly where
        # its layout is to learn, and a refused frame's other dice are as clean
        for die in dice:
            near = _find_of(found, die)
            if near is None:
                continue
            pips = _pips_on(shot, die, float(near.size), die_color, pip_color)
            if pips is not None:
                faces[len(pips)].append(pips)
    learnt = []
    for value in sorted(faces):
        try:
            layout = learn_layout(value, faces[value])
        except ValueError:
            continue
        if layout is not None:
            learnt.append(layout)
    return tuple(learnt)


def _find_of(finds: Sequence[Any], die: Any) -> Any | None:
    """The dice detector's find of a die read (its centre within half the find's edge of
    the die's), or None."""
    near = min(finds, key=lambda c: math.hypot(c.x - die.x, c.y - die.y), default=None)
    if near is None or math.hypot(near.x - die.x, near.y - die.y) > 0.5 * near.size:
        return None
    return near


def _found_sizes(finds: Sequence[Sequence[Any]], readings: Sequence[Any]) -> list[float]:
    """The edges, as the dice detector measures them, of the dice read in the ``readings``
    (one a shot) answered ok: the yardstick the reader sizes dice by when no calibration
    gives their size (the median find), and that the layouts learnt are shares of. (The
    edge a face is shown with is its pips' spread, which measures a die only where its
    pips sit as common dice's do: on dice whose pips crowd towards the middle, at 0.19
    of the edge, it measured 0.7 of the die, and the tray then read them at one and a
    half times their working scale.)"""
    return [float(near.size) for found, reading in zip(finds, readings, strict=True)
            if reading.ok for die in reading.dice if (near := _find_of(found, die))]


def _pips_on(shot: np.ndarray, die: Any, edge: float, die_color: BGR,
             pip_color: BGR) -> np.ndarray | None:
    """The pips of a die read (its centre and angle), as offsets from its centre in shares
    of ``edge``, turned into the face's own frame: the blobs nearer the pips' colour than
    the body's inside its face; None unless there are two to six and they make a face of
    as many pips (a 1 tells no layout)."""
    import cv2

    reach = math.ceil(PIP_WINDOW * edge * math.sqrt(2)) + 1
    x0, y0 = max(0, round(die.x) - reach), max(0, round(die.y) - reach)
    patch = shot[y0:round(die.y) + reach + 1, x0:round(die.x) + reach + 1].astype(np.float32)
    if patch.size == 0:
        return None
    theta = math.radians(die.angle)
    turn = np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])
    ys, xs = np.mgrid[0:patch.shape[0], 0:patch.shape[1]]
    offsets = np.stack([xs + x0 - die.x, ys + y0 - die.y], axis=-1) @ turn.T / edge
    inside = np.abs(offsets).max(axis=-1) <= PIP_WINDOW
    to_pip = np.linalg.norm(patch - np.array(pip_color, np.float32), axis=-1)
    to_body = np.linalg.norm(patch - np.array(die_color, np.float32), axis=-1)
    mask = (inside & (to_pip < to_body)).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    least = max(3.0, (MIN_PIP * edge) ** 2)
    # a blob running out of the square looked in is the floor past a corner of the die
    # (a 1 tells no turn, so its square may be turned off the die's), not a pip
    rim = inside & ~cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    cut = set(np.unique(labels[rim]).tolist())
    pips = [centres[i] for i in range(1, count)
            if stats[i, cv2.CC_STAT_AREA] >= least and i not in cut]
    if not 2 <= len(pips) <= 6:
        return None
    at = np.array(pips, float) + np.array([x0 - die.x, y0 - die.y])
    fit = fit_layout(at)
    if fit is None or fit.value != len(pips):
        return None
    # turned by the face's own turn as its pips show it (the die's reading may have another
    # value, a 1's turn is none)
    theta = math.atan2(fit.affine[1, 0], fit.affine[0, 0])
    turn = np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])
    return at @ turn.T / edge


def _disc(shape: tuple[int, int], die: Any) -> np.ndarray:
    """A mask (``shape``) of the disc inside a die read: its top face's middle."""
    import cv2

    mask = np.zeros(shape, np.uint8)
    cv2.circle(mask, (round(die.x), round(die.y)), max(1, round(0.45 * die.size)), 1, -1)
    return mask.astype(bool)


def _check_frames(frames: Sequence[np.ndarray], shape: tuple[int, int] | None,
                  what: str) -> list[np.ndarray]:
    frames = list(frames)
    if not frames:
        raise CalibrationError(f"no {what} frames given")
    for i, frame in enumerate(frames, 1):
        if not (isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3
                and frame.shape[2] == 3):
            raise CalibrationError(f"{what} frame {i} is not a BGR uint8 image")
        shape = shape or frame.shape[:2]
        if frame.shape[:2] != shape:
            raise CalibrationError(f"{what} frame {i} is {frame.shape[1]}x{frame.shape[0]}, "
                                   f"the others {shape[1]}x{shape[0]}")
    return frames


def _median_frame(frames: Sequence[np.ndarray], what: str) -> np.ndarray:
    stack = np.stack(_check_frames(frames, None, what))
    if len(stack) == 1:
        return stack[0].copy()
    return np.median(stack, axis=0).astype(np.uint8)


def _find_tray(background: np.ndarray) -> Polygon:
    """The tray floor: the even region round the image centre, as a polygon."""
    import cv2

    height, width = background.shape[:2]
    scale = 320 / max(width, height)
    small = cv2.resize(background, (round(width * scale), round(height * scale)),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    centre = lab[h * 2 // 5: h * 3 // 5, w * 2 // 5: w * 3 // 5].reshape(-1, 3)
    colour = np.median(centre, axis=0)
    # lightness drifts with uneven light, so it counts for less than the colour
    weights = np.array([0.35, 1.0, 1.0], np.float32)
    distance = np.sqrt((((lab - colour) * weights) ** 2).sum(axis=2))
    spread = float(np.percentile(np.sqrt((((centre - colour) * weights) ** 2).sum(axis=1)), 90))
    mask = (distance < max(12.0, 3.0 * spread)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(mask)
    middle = labels[h // 2, w // 2]
    if count < 2 or middle == 0:
        raise CalibrationError("could not find the tray: the image centre is not an even "
                               "surface; give the tray's corners")
    region = (labels == middle).astype(np.uint8) * 255
    region = cv2.morphologyEx(region, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = cv2.convexHull(max(contours, key=cv2.contourArea))
    if cv2.contourArea(contour) < 0.08 * h * w:
        raise CalibrationError("could not find the tray: the even region round the centre "
                               "is too small; give the tray's corners")
    touches = (contour[:, 0, 0].min() <= 0 or contour[:, 0, 1].min() <= 0
               or contour[:, 0, 0].max() >= w - 1 or contour[:, 0, 1].max() >= h - 1)
    if touches and cv2.contourArea(contour) > 0.9 * h * w:
        raise CalibrationError("could not find the tray: the whole frame looks alike; "
                               "give the tray's corners")
    quad = [(float(x) / scale, float(y) / scale) for x, y in _quad(contour)]
    return tuple(_four_corners(tuple(quad)) or quad)


def _quad(contour: np.ndarray) -> np.ndarray:
    """Simplify a convex contour to four corners when it is roughly a quadrilateral."""
    import cv2

    perimeter = cv2.arcLength(contour, True)
    for tolerance in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(contour, tolerance * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(-1, 2).astype(np.float64)
    return contour.reshape(-1, 2).astype(np.float64)


def _four_corners(polygon: Polygon) -> list[Point] | None:
    """The polygon's corners as top-left, top-right, bottom-right, bottom-left (or None)."""
    if len(polygon) != 4:
        return None
    pts = np.array(polygon)
    by_sum = pts[:, 0] + pts[:, 1]
    by_diff = pts[:, 0] - pts[:, 1]
    order = [by_sum.argmin(), by_diff.argmax(), by_sum.argmax(), by_diff.argmin()]
    if len(set(order)) != 4:
        return None
    return [(float(pts[i, 0]), float(pts[i, 1])) for i in order]


def _grow(polygon: Polygon, distance: float) -> Polygon:
    """A convex polygon with every edge pushed ``distance`` outwards.

    >>> _grow(((0, 0), (10, 0), (10, 10), (0, 10)), 1)
    ((-1.0, -1.0), (11.0, -1.0), (11.0, 11.0), (-1.0, 11.0))
    """
    pts = np.array(polygon, float)
    sign = 1.0 if _area(polygon) > 0 else -1.0  # y points down the image
    n = len(pts)
    lines = []
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        edge = (b - a) / np.linalg.norm(b - a)
        normal = sign * np.array([edge[1], -edge[0]])
        lines.append((a + normal * distance, edge))
    out = []
    for i in range(n):
        (p, d), (q, e) = lines[i - 1], lines[i]
        cross = d[0] * e[1] - d[1] * e[0]
        if abs(cross) < 1e-9:
            out.append(tuple(float(v) for v in q))
            continue
        t = ((q - p)[0] * e[1] - (q - p)[1] * e[0]) / cross
        corner = p + t * d
        out.append((float(corner[0]), float(corner[1])))
    return tuple(out)


def _topdown_size(corners: Sequence[Point]) -> tuple[int, int]:
    tl, tr, br, bl = (np.array(p) for p in corners)
    width = max(np.linalg.norm(tr - tl), np.linalg.norm(br - bl))
    height = max(np.linalg.norm(bl - tl), np.linalg.norm(br - tr))
    return (max(2, round(width)), max(2, round(height)))


def _dice_blobs(frame: np.ndarray, background: np.ndarray, zones: np.ndarray,
                expected: int | None = None) -> list[tuple[float, np.ndarray, int]]:
    """(edge length, pixel mask, how many dice) of each die-like blob where the frame
    differs.

    Soft shadows are left out first; when that breaks the dice up (a pale die on a
    pale floor has side faces that look just like shadow) they are kept instead.
    """
    import cv2

    diff = cv2.absdiff(frame, background).max(axis=2)
    diff = cv2.GaussianBlur(diff, (5, 5), 0)
    diff[zones == 0] = 0
    level, _ = cv2.threshold(diff, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # hysteresis: a die is a weakly different region holding some clearly different
    # pixels (its edges and pips)
    strong = diff > max(level, 30)
    weak = (diff > max(min(level * 0.5, 30), 14)).astype(np.uint8)
    # a soft shadow darkens the floor evenly, and by half at most (a black die
    # darkens it much more)
    ratio = (frame.astype(np.float32) + 4) / (background.astype(np.float32) + 4)
    darkest, lightest = ratio.min(axis=2), ratio.max(axis=2)
    shadow = (lightest < 0.95) & (darkest > 0.5) & (lightest - darkest < 0.08)
    loose = _blobs(weak, strong)
    strict = _blobs(np.where(shadow, 0, weak).astype(np.uint8), strong)
    chosen, mask = strict, np.where(shadow, 0, weak).astype(np.uint8)
    if not strict or (loose and np.median([b[0] for b in strict])
                      < 0.6 * np.median([b[0] for b in loose])):
        chosen, mask = loose, weak
    # a dark die on a dark floor shows little but its pips: join them up into dice
    close = 5
    while (expected and chosen and sum(b[2] for b in chosen) > 1.5 * expected
           and close < min(frame.shape[:2]) // 8):
        close = close * 2 - 1
        chosen = _blobs(mask, strong, close)
    return chosen


def _blobs(weak: np.ndarray, strong: np.ndarray,
           close: int = 5) -> list[tuple[float, np.ndarray, int]]:
    """(edge length, mask, how many dice) per blob: dice that touch make one blob as
    wide as one die but two or three times its area."""
    import cv2

    weak = cv2.morphologyEx(weak, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    weak = cv2.morphologyEx(weak, cv2.MORPH_CLOSE, np.ones((close, close), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(weak)
    seeded = np.zeros(count, bool)
    seeded[np.unique(labels[strong & (weak > 0)])] = True
    seeded[0] = False
    areas = stats[:, cv2.CC_STAT_AREA]
    found = []
    for i in range(1, count):
        if not seeded[i] or areas[i] < 20:
            continue
        x, y, w, h = stats[i, :4]
        patch = np.pad((labels[y : y + h, x : x + w] == i).astype(np.uint8), 1)
        # the widest inscribed circle spans the top face; a shadow or side faces
        # trailing off one side make the blob longer, not wider
        radius = float(cv2.distanceTransform(patch, cv2.DIST_L2, 5).max())
        found.append((i, radius))
    if not found:
        return []
    widest = float(np.median([r for _, r in found]))
    kept = [(i, r) for i, r in found if 0.7 * widest <= r <= 1.4 * widest]  # no specks
    if not kept:  # the median fell between blobs of two sizes, neither of them the dice's
        return []
    singles = [areas[i] for i, r in kept if 0.85 * widest <= r <= 1.15 * widest]
    single = float(np.median(singles or [areas[i] for i, _ in kept]))
    blobs = []
    for i, radius in kept:
        mask = labels == i
        dice = 1
        if areas[i] >= 1.5 * single:
            ys, xs = np.nonzero(mask)
            _, sides, _ = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
            if max(sides) >= 3.0 * widest:  # long enough to hold two dice side by side
                dice = max(1, round(areas[i] / single))
        blobs.append((2 * radius * _SILHOUETTE_TO_EDGE, mask, dice))
    return blobs


# The widest inscribed circle of a die's silhouette is a little wider than its top face
# (the camera sees a sliver of side faces): this much of it is the edge (measured on renders).
_SILHOUETTE_TO_EDGE = 0.89


def _dice_colours(shots: Sequence[np.ndarray], blobs: Sequence[Sequence[tuple[Any, ...]]],
                  die_size: float, cv2: Any) -> tuple[BGR, BGR]:
    """Body and pip colours: the two colour clusters of the dice's middles (top faces)."""
    core = np.ones((max(3, round(die_size * 0.3)),) * 2, np.uint8)
    middles = [cv2.erode(blob.astype(np.uint8), core).astype(bool)
               for frame_blobs in blobs for _, blob, _ in frame_blobs]
    images = [shot for shot, frame_blobs in zip(shots, blobs, strict=True) for _ in frame_blobs]
    pixels = np.concatenate([image[m] for image, m in zip(images, middles, strict=True)])
    if len(pixels) < 20:
        pixels = np.concatenate([shot[blob] for shot, frame_blobs
                                 in zip(shots, blobs, strict=True) for _, blob, _ in frame_blobs])
    if len(pixels) > 40_000:
        pixels = pixels[np.random.default_rng(0).choice(len(pixels), 40_000, replace=False)]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(1)
    _, labels, _ = cv2.kmeans(pixels.astype(np.float32), 2, None, criteria, 3,
                                    cv2.KMEANS_PP_CENTERS)
    counts = np.bincount(labels.ravel(), minlength=2)
    body, pips = (0, 1) if counts[0] >= counts[1] else (1, 0)
    die = np.median(pixels[labels.ravel() == body], axis=0).round().astype(int)
    pip = np.median(pixels[labels.ravel() == pips], axis=0).round().astype(int)
    return _bgr(die.tolist(), "die_color"), _bgr(pip.tolist(), "pip_color")


def _default_reader() -> Reader | None:
    """The recognizer, imported only when needed (vision.read, else its own module)."""
    try:
        from dicetray.vision import read  # type: ignore[attr-defined]
    except ImportError:
        try:
            from dicetray.vision.recognizer import read
        except ImportError:
            return None
    return read


def _read_back(calibration: Calibration, shots: Sequence[np.ndarray], found: Sequence[int],
               dice: int | None, reader: Reader | None) -> CalibrationReport:
    reader = reader or _default_reader()
    if reader is None:
        return CalibrationReport("unread", tuple(found), (),
                                 (*_count_problems(found, dice),
                                  "no recognizer available to check the reading"))
    readings = tuple(reader(shot, calibration, dice) for shot in shots)
    # a frame the recognizer read cleanly counts its dice; the difference counts the rest
    found = [len(r.dice) if r.ok else n for r, n in zip(readings, found, strict=True)]
    problems = _count_problems(found, dice)
    # a frame whose count is a problem already is not said twice (its reading's words)
    counted = {i for i, n in enumerate(found, 1) if dice is not None and n != dice}
    problems += [f"frame {i}: {r.reason}" for i, r in enumerate(readings, 1)
                 if not r.ok and not (r.kind == "wrong-count" and i in counted)]
    status = "ok" if all(r.ok for r in readings) and not problems else "unsure"
    return CalibrationReport(status, tuple(found), readings, tuple(problems))


def _count_problems(found: Sequence[int], dice: int | None) -> list[str]:
    if dice is None:
        return []
    return [f"frame {i}: {n} dice found, expected {dice}"
            for i, n in enumerate(found, 1) if n != dice]


def calibrate_source(
    source: Any,
    *,
    frames: int = 3,
    dice: int = 5,
    ask: Any = None,
    tray: Sequence[Point] | None = None,
    ledge: Sequence[Point] | None = None,
    reader: Reader | None = None,
    timeout_s: float = 30.0,
) -> tuple[Calibration, CalibrationReport]:
    """Calibrate from a live :class:`~dicetray.vision.frames.FrameSource`.

    Takes ``frames`` frames of the empty tray and ``frames`` frames with the dice,
    each once the tray has settled, then :func:`build_calibration`. Before each
    step ``ask(message)`` is called, if given, so a person can clear the tray or
    roll the dice (the command line waits for Enter; a phone page would wait
    for a tap). A simulated source needs no one: it clears and rolls its own tray
    and tells where its ledge is, as a builder would mark it. The camera's
    settings, as the source reports them, go into the calibration.
    """
    from dicetray.vision.settle import SettleDetector, wait_until_settled

    sim_tray = getattr(source, "tray", None)
    settle = SettleDetector(clock=getattr(source, "clock", None) or _monotonic())

    def take(message: str | None) -> np.ndarray:
        if message and ask is not None and sim_tray is None:
            ask(message)
        if source.name == "folder":  # stills already: taken as they come
            return source.capture()
        settle.reset()
        return wait_until_settled(source, settle, timeout_s=timeout_s)

    if sim_tray is not None:
        if ledge is None:
            ledge = source.truth().ledge
        if len(sim_tray.values()) != dice:
            sim_tray.use(dice)  # the simulated player brings as many dice as asked for
        sim_tray.clear()
    empty = [take("Take every die off the tray" if k == 0 else None) for k in range(frames)]
    shots = []
    for k in range(frames):
        if sim_tray is not None:
            sim_tray.roll()
        shots.append(take(f"Roll the {dice} dice onto the tray ({k + 1}/{frames})"))
    return build_calibration(empty, shots, tray=tray, ledge=ledge, dice=dice, reader=reader,
                             camera=source.camera_settings())


def _monotonic() -> Any:
    import time

    return time.monotonic
