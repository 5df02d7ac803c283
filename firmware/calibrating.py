"""Calibrating the camera from a phone: the calibration in use, and the one being made.

:class:`Calibrating` keeps the tray's calibration and how it stands (``ok``, ``missing``,
or ``bad`` with the reason a damaged file was refused), and the draft the phones edit: the
tray's and the hold ledge's corners in frame pixels, the camera's exposure and focus, and
the empty tray once captured. Saving builds the calibration from the empty tray and frames
with the dice as ``dicetray calibrate`` does (:func:`~dicetray.vision.calibration.
build_calibration`), writes it atomically, and answers the same report the command prints.
The camera work (capturing, the live view, keeping a roll off the camera) is the table's:
this module is given the frames.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "calibration.json").write_text("{not json")
9
>>> bad = Calibrating.load(folder / "calibration.json", image_size=(640, 480))
>>> str(bad.standing), bad.problem.split(": ")[1]
('bad', 'not valid JSON (Expecting property name enclosed in double quotes')
>>> bad.set_zones([[60, 40], [580, 40], [580, 360], [60, 360]], None)
>>> bad.draft.tray[2]
(580.0, 360.0)
>>> bad.set_zones([[0, 0], [10, 0]], None)
Traceback (most recent call last):
...
dicetray.firmware.errors.BadRequest: tray is a list of 3 to 12 corners [x, y] inside the ...
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np

from dicetray.firmware.errors import BadRequest, NotReady
from dicetray.vision.calibration import (
    Calibration,
    CalibrationReport,
    CameraSettings,
    build_calibration,
)
from dicetray.vision.errors import CalibrationError

__all__ = [
    "Calibrating",
    "CalibratingSettings",
    "Draft",
    "Standing",
    "overlay",
    "summary_lines",
]

Polygon = tuple[tuple[float, float], ...]


class Standing(StrEnum):
    """How the tray's calibration stands."""

    OK = "ok"
    MISSING = "missing"
    BAD = "bad"


@dataclass(frozen=True)
class CalibratingSettings:
    """The numbers of calibrating from a phone."""

    empty_frames: int = 3
    """Frames of the empty tray whose median is its background: as ``dicetray calibrate``
    takes (the median of three takes the sensor noise out)."""
    dice_frames: int = 3
    """Frames with the dice that measure them and check the reading, as the command."""
    live_fps: float = 2.0
    """Live view frames a second: a 1280x960 frame takes 0.4 s to render here and about as
    long to read on a Pi 4, so two a second keep the camera free half the time."""
    live_width: int = 960
    """Width of the live view's JPEGs: a phone's screen shows no more, and it halves the
    bytes of a 1280-wide frame (the overlay is drawn first, at full size)."""
    live_quality: int = 70
    """JPEG quality of the live view: 80-120 KB a frame at 960x720."""
    max_corners: int = 12
    """Most corners a zone may have: a tray is four, a rounded one a few more."""
    exposure_us: tuple[int, int] = (100, 200_000)
    """Exposure times the phone may set (µs): from bright sunlight to a dim room at 5 fps."""
    lens_position: tuple[float, float] = (0.0, 15.0)
    """Lens positions the phone may set (dioptres): infinity to 6.7 cm, Camera Module 3's
    range."""


@dataclass(frozen=True)
class Draft:
    """The calibration the phones are making: zones, camera settings, and whether the empty
    tray has been captured for it (else a save takes the calibration's own)."""

    tray: Polygon
    ledge: Polygon | None
    camera: CameraSettings
    empty: bool = False


class Calibrating:
    """The tray's calibration, how it stands, and the draft the phones edit."""

    def __init__(self, path: str | os.PathLike[str] | None, *,
                 calibration: Calibration | None = None, problem: str = "",
                 image_size: tuple[int, int] = (1280, 960),
                 settings: CalibratingSettings | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = None if path is None else Path(path)
        self.calibration = calibration
        self.problem = problem
        """Why the calibration file was refused ("" when it was not)."""
        self.settings = settings or CalibratingSettings()
        self.image_size = calibration.image_size if calibration is not None else image_size
        self.report: tuple[str, ...] = ()
        """The last save's report, as ``dicetray calibrate`` prints it."""
        self.saved: bool | None = None
        """Whether the last save wrote the file (None before any save)."""
        self.clock = clock
        self._background: np.ndarray | None = None
        self._live: tuple[float, bool, bytes] | None = None
        self.draft = self._fresh_draft()

    @classmethod
    def load(cls, path: str | os.PathLike[str], **options: Any) -> Calibrating:
        """The calibration of ``path``: ``missing`` when there is no file, ``bad`` with the
        reason when it is damaged (never an exception: the tray runs on)."""
        path = Path(path)
        if not path.exists():
            return cls(path, **options)
        try:
            return cls(path, calibration=Calibration.load(path), **options)
        except CalibrationError as exc:
            why = " ".join(str(exc).split())
            # the phones are told the file's name, not where the tray keeps its files
            shown = str(path)
            if why.startswith(shown):
                why = path.name + why[len(shown):]
            return cls(path, problem=why, **options)

    @property
    def standing(self) -> Standing:
        if self.calibration is not None:
            return Standing.OK
        return Standing.BAD if self.problem else Standing.MISSING

    def _fresh_draft(self) -> Draft:
        cal = self.calibration
        if cal is not None:
            return Draft(cal.tray, cal.ledge, cal.camera)
        width, height = self.image_size
        # a first guess a builder drags into place: the tray in the middle, the ledge below
        tray = _box(width, height, 0.12, 0.08, 0.88, 0.72)
        ledge = _box(width, height, 0.12, 0.78, 0.88, 0.94)
        return Draft(tray, ledge, CameraSettings())

    # -- what the phones see -------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The calibration's standing, the one in use and the draft, JSON-ready."""
        cal = self.calibration
        draft = self.draft
        return {
            "status": str(self.standing),
            "why": self.problem,
            "file": None if self.path is None else self.path.name,
            "image_size": list(self.image_size),
            "calibration": None if cal is None else {
                "tray": _points(cal.tray), "ledge": _points(cal.ledge),
                "die_size": round(cal.die_size, 1), "camera": cal.camera.to_json(),
            },
            "draft": {"tray": _points(draft.tray), "ledge": _points(draft.ledge),
                      "camera": draft.camera.to_json(), "empty": draft.empty},
            "limits": {"exposure_us": list(self.settings.exposure_us),
                       "lens_position": list(self.settings.lens_position)},
            "report": list(self.report),
            "saved": self.saved,
        }

    def live_calibration(self) -> Calibration | None:
        """The calibration in use with the draft's zones, for the live view's reading."""
        if self.calibration is None:
            return None
        try:
            return replace(self.calibration, tray=self.draft.tray, ledge=self.draft.ledge)
        except CalibrationError:
            return self.calibration

    # -- the draft ---------------------------------------------------------------------------

    def set_zones(self, tray: Any, ledge: Any) -> None:
        """Move the zones' corners (frame pixels); BadRequest naming what is wrong."""
        polygon = self._polygon(tray, "tray")
        shelf = None if ledge is None else self._polygon(ledge, "ledge")
        width, height = self.image_size
        try:  # the calibration's own checks: a zone with no area, say
            Calibration(image_size=self.image_size, tray=polygon, ledge=shelf,
                        die_size=max(2.0, min(width, height) / 20))
        except CalibrationError as exc:
            raise BadRequest(str(exc)) from None
        self.draft = replace(self.draft, tray=polygon, ledge=shelf)
        self._live = None

    def _polygon(self, value: Any, name: str) -> Polygon:
        width, height = self.image_size
        fits = (isinstance(value, list | tuple)
                and 3 <= len(value) <= self.settings.max_corners
                and all(isinstance(p, list | tuple) and len(p) == 2
                        and all(_number(v) for v in p)
                        and 0 <= p[0] <= width and 0 <= p[1] <= height for p in value))
        if not fits:
            raise BadRequest(f"{name} is a list of 3 to {self.settings.max_corners} corners "
                             f"[x, y] inside the {width}x{height} frame")
        return tuple((float(x), float(y)) for x, y in value)

    def camera_settings(self, exposure_us: Any, lens_position: Any) -> CameraSettings:
        """The draft's camera settings with a new exposure (µs) and lens position
        (dioptres, None: fixed or automatic focus); BadRequest when out of range."""
        low, high = self.settings.exposure_us
        if isinstance(exposure_us, bool) or not isinstance(exposure_us, int) or not (
                low <= exposure_us <= high):
            raise BadRequest(f"exposure_us is a whole number of microseconds from {low} to "
                             f"{high}")
        near, far = self.settings.lens_position
        if lens_position is not None and not (_number(lens_position)
                                              and near <= lens_position <= far):
            raise BadRequest(f"lens_position is null (fixed focus) or dioptres from {near:g} "
                             f"to {far:g}")
        lens = None if lens_position is None else round(float(lens_position), 2)
        return replace(self.draft.camera, exposure_us=exposure_us, lens_position=lens)

    def set_camera(self, settings: CameraSettings) -> None:
        """Keep camera settings (already set on the camera) in the draft."""
        self.draft = replace(self.draft, camera=settings)
        self._live = None

    def capture_empty(self, frames: Sequence[np.ndarray]) -> None:
        """Keep the median of frames of the empty tray as the draft's background."""
        if not frames:
            raise NotReady("no frames of the empty tray were taken")
        stack = np.stack(list(frames))
        self._background = stack[0].copy() if len(stack) == 1 else np.median(
            stack, axis=0).astype(np.uint8)
        self.draft = replace(self.draft, empty=True)

    # -- saving -------------------------------------------------------------------------------

    def save(self, dice_frames: Sequence[np.ndarray], *, dice: int, reader: Any = None,
             force: bool = False) -> tuple[Calibration, CalibrationReport]:
        """Build the calibration from the empty tray and ``dice_frames`` (frames with
        ``dice`` dice on the tray), write it and use it; the report as the command prints
        it stays in :attr:`report`. As ``dicetray calibrate`` does, a calibration that
        reads unsure does not replace a good one unless ``force``. NotReady when the empty
        tray has not been captured or the frames allow no calibration."""
        if self.path is None:
            raise NotReady("this tray has no data directory to keep a calibration in")
        background = self._background
        if background is None and self.calibration is not None:
            background = self.calibration.background_image()
        if background is None:
            raise NotReady("capture the empty tray first", code="no-empty-tray")
        try:
            made, report = build_calibration([background], dice_frames, tray=self.draft.tray,
                                             ledge=self.draft.ledge, dice=dice, reader=reader,
                                             camera=self.draft.camera)
        except CalibrationError as exc:
            why = " ".join(str(exc).split())
            raise NotReady(f"{why}: put the {dice} dice on the tray and save again",
                           code="not-calibrated") from None
        kept = report.status != "ok" and self.standing is Standing.OK and not force
        lines = summary_lines(made, report)
        if kept:
            lines.append(f"calibration NOT written: {self.path.name} is kept, as this one "
                         "reads unsure (fix the problems above, or save anyway)")
        else:
            try:
                made.save(self.path)
                made = Calibration.load(self.path)  # as the next start will: it reads back
            except CalibrationError as exc:
                raise NotReady(" ".join(str(exc).split())) from None
            self.calibration, self.problem = made, ""
            lines.append(f"calibration written to {self.path.name}")
        self.report, self.saved = tuple(lines), not kept
        self._live = None
        return made, report

    # -- the live view -------------------------------------------------------------------------

    def cached_view(self, zones: bool, *, any_age: bool = False) -> bytes | None:
        """The last live view JPEG while it is fresh (younger than a live frame's time), or
        however old with ``any_age``."""
        live = self._live
        if live is None or live[1] != zones:
            return None
        if not any_age and self.clock() - live[0] >= 1.0 / self.settings.live_fps:
            return None
        return live[2]

    def view(self, frame: np.ndarray, reading: Any, *, zones: bool = True) -> bytes:
        """A live view JPEG: ``frame`` with the draft's zones (when ``zones``) and each die
        of ``reading`` drawn over it, kept for the other phones until the next is due."""
        import cv2

        out = overlay(frame, reading, self.draft if zones else None)
        width = self.settings.live_width
        if out.shape[1] > width:
            out = cv2.resize(out, (width, round(out.shape[0] * width / out.shape[1])),
                             interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                              self.settings.live_quality])
        if not ok:
            raise NotReady("the camera's frame could not be encoded")
        jpeg = data.tobytes()
        self._live = (self.clock(), zones, jpeg)
        return jpeg


TRAY_COLOUR = (80, 200, 80)
LEDGE_COLOUR = (0, 165, 255)
SURE_COLOUR = (80, 220, 80)
UNSURE_COLOUR = (40, 140, 255)


def overlay(frame: np.ndarray, reading: Any = None, draft: Draft | None = None) -> np.ndarray:
    """A copy of ``frame`` with the draft's tray (green) and ledge (orange) outlined and each
    die of ``reading`` boxed with its value, large enough to read on a phone (orange boxes:
    the reading is unsure).

    >>> frame = np.zeros((100, 100, 3), np.uint8)
    >>> draft = Draft(((10, 10), (90, 10), (90, 60)), None, CameraSettings())
    >>> drawn = overlay(frame, None, draft)
    >>> bool(drawn[10, 50].any()), bool(drawn[50, 30].any()), bool(frame.any())
    (True, False, False)
    """
    import cv2

    out = frame.copy()
    thick = max(1, round(min(out.shape[:2]) / 300))
    if draft is not None:
        for polygon, colour in ((draft.tray, TRAY_COLOUR), (draft.ledge, LEDGE_COLOUR)):
            if polygon:
                points = np.rint(np.array(polygon)).astype(np.int32)
                cv2.polylines(out, [points], True, colour, thick, cv2.LINE_AA)
    if reading is None:
        return out
    colour = SURE_COLOUR if getattr(reading, "ok", False) else UNSURE_COLOUR
    for die in reading.dice:
        box = cv2.boxPoints(((die.x, die.y), (die.size, die.size), die.angle))
        cv2.polylines(out, [np.rint(box).astype(np.int32)], True, colour, thick + 1, cv2.LINE_AA)
        label = str(die.value)
        scale = max(0.6, die.size / 40)
        weight = max(2, round(scale * 2.5))
        (w, h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_DUPLEX, scale, weight)
        x = round(min(max(2.0, die.x - w / 2), out.shape[1] - w - 2))
        y = round(die.y - die.size * 0.75)
        y = y if y - h >= 2 else round(die.y + die.size * 0.75 + h)
        cv2.putText(out, label, (x, y), cv2.FONT_HERSHEY_DUPLEX, scale, (0, 0, 0), weight + 4,
                    cv2.LINE_AA)
        cv2.putText(out, label, (x, y), cv2.FONT_HERSHEY_DUPLEX, scale, colour, weight,
                    cv2.LINE_AA)
    return out


def summary_lines(calibration: Calibration, report: CalibrationReport) -> list[str]:
    """The report ``dicetray calibrate`` prints: each frame read, the problems, the status,
    the die's size and the zones' corners.

    >>> cal = Calibration(image_size=(640, 480), tray=((10, 10), (600, 10), (600, 400)),
    ...                   die_size=40.0)
    >>> summary_lines(cal, CalibrationReport("ok", (5,), ()))[-3:]
    ['die size: 40.0 px', 'tray corners: 10,10 600,10 600,400', 'ledge corners: none']
    """
    lines = report.lines()
    lines.append(f"die size: {calibration.die_size:.1f} px")
    for name, corners in (("tray", calibration.tray), ("ledge", calibration.ledge)):
        where = " ".join(f"{x:.0f},{y:.0f}" for x, y in corners) if corners else "none"
        lines.append(f"{name} corners: {where}")
    return lines


def _box(width: int, height: int, x0: float, y0: float, x1: float, y1: float) -> Polygon:
    left, right = float(round(width * x0)), float(round(width * x1))
    top, bottom = float(round(height * y0)), float(round(height * y1))
    return ((left, top), (right, top), (right, bottom), (left, bottom))


def _points(polygon: Polygon | None) -> list[list[float]] | None:
    return None if polygon is None else [[round(x, 1), round(y, 1)] for x, y in polygon]


def _number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))
