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

from dicetray.vision.errors import CalibrationError

CALIBRATION_VERSION = 1
"""The version written into every calibration file; other versions are refused."""

Point = tuple[float, float]
Polygon = tuple[Point, ...]
Matrix = tuple[tuple[float, ...], ...]
BGR = tuple[int, int, int]

_MIN_POLYGON_AREA = 1.0  # px²: anything smaller is a line or a point, not a zone
_MAX_CONDITION = 1e12  # a homography this ill-conditioned is as good as singular


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
    object (see :meth:`background_image`).
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
    version: int = CALIBRATION_VERSION
    background_pixels: np.ndarray | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check(self.version == CALIBRATION_VERSION,
               f"unsupported version {self.version!r} (expected {CALIBRATION_VERSION})")
        object.__setattr__(self, "image_size", _size(self.image_size, "image_size"))
        width, height = self.image_size
        object.__setattr__(self, "tray", _polygon(self.tray, "tray"))
        if self.ledge is not None:
            object.__setattr__(self, "ledge", _polygon(self.ledge, "ledge"))
        if self.homography is not None:
            object.__setattr__(self, "homography", _homography(self.homography))
            _check(self.topdown_size is not None, "homography given without topdown_size")
        if self.topdown_size is not None:
            object.__setattr__(self, "topdown_size", _size(self.topdown_size, "topdown_size"))
        _check(_is_number(self.die_size) and 2 <= self.die_size <= max(width, height) / 2,
               f"die_size {self.die_size!r} px is not plausible for a {width}x{height} image")
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
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CalibrationError(
                f"{path}: no calibration file (run `dicetray calibrate`)"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CalibrationError(f"{path}: cannot read the file ({exc})") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{path}: not valid JSON ({exc})") from exc
        try:
            cal = cls.from_json(data)
        except (CalibrationError, ValueError, TypeError) as exc:
            raise CalibrationError(f"{path}: {exc}") from exc
        if cal.background is None:
            return cal
        return cal.with_background(_read_background(path.parent / cal.background, cal, path))

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        """A calibration from its JSON dict, validated (CalibrationError naming the problem)."""
        _check(isinstance(data, dict), "the file must hold a JSON object")
        _check("version" in data, "missing field 'version'")
        _check(data["version"] == CALIBRATION_VERSION,
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
        )


_FIELDS = {
    "version", "image_size", "tray", "ledge", "homography", "topdown_size", "die_size",
    "die_color", "pip_color", "background", "camera", "quality",
}
_REQUIRED = ("image_size", "tray", "die_size")


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
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


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


def _polygon(value: Any, name: str) -> Polygon:
    _check(isinstance(value, (tuple, list)) and len(value) >= 3,
           f"{name} polygon needs at least 3 points")
    points = []
    for p in value:
        _check(isinstance(p, (tuple, list)) and len(p) == 2 and all(_is_number(v) for v in p),
               f"{name} polygon point {p!r} is not an (x, y) pair of numbers")
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
    import cv2

    if not png.is_file():
        raise CalibrationError(f"{path}: background image {png.name} is missing")
    image = cv2.imread(str(png), cv2.IMREAD_COLOR)
    if image is None:
        raise CalibrationError(f"{path}: background image {png.name} is unreadable")
    width, height = cal.image_size
    if image.shape[:2] != (height, width):
        raise CalibrationError(
            f"{path}: background image {png.name} is {image.shape[1]}x{image.shape[0]}, "
            f"expected {width}x{height}"
        )
    return image


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
