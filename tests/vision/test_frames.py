"""Frame sources: each backend captures BGR frames and fails with a CameraError."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from dicetray.vision.calibration import Calibration, CameraSettings
from dicetray.vision.errors import CameraError, FrameError
from dicetray.vision.frames import (
    FolderSource,
    OpenCVCameraSource,
    Picamera2Source,
    SimulatedSource,
    open_source,
    read_image,
)
from dicetray.vision.scene import SimulatedTray, random_scene

SETTINGS = CameraSettings(exposure_us=8000, analogue_gain=2.5, colour_gains=(1.9, 1.3),
                          lens_position=4.0)


# -- picamera2, through a fake module ---------------------------------------------------------


class FakePicamera2:
    """Stands in for picamera2.Picamera2, recording what the source asks of it."""

    cameras: ClassVar[list[dict[str, Any]]] = [{"Model": "imx708", "Num": 0}]
    last: FakePicamera2 | None = None
    fail_capture = False
    has_focus = True

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.controls: dict[str, Any] = {}
        self.config: dict[str, Any] | None = None
        self.started = self.closed = False
        self.camera_controls = {"ExposureTime": (1, 1_000_000, 10_000)}
        if self.has_focus:
            self.camera_controls["AfMode"] = (0, 2, 0)
        FakePicamera2.last = self

    @staticmethod
    def global_camera_info() -> list[dict[str, Any]]:
        return FakePicamera2.cameras

    def create_preview_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": dict(main)}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.update(controls)

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True

    def capture_array(self, name: str = "main") -> np.ndarray:
        if self.fail_capture:
            raise RuntimeError("timeout waiting for frame")
        assert self.config is not None and self.started
        width, height = self.config["main"]["size"]
        frame = np.zeros((height, width, 3), np.uint8)
        frame[..., 0] = 200  # blue plane, as RGB888 lays it out
        return frame

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 12000, "AnalogueGain": 1.5, "ColourGains": (2.0, 1.5),
                "LensPosition": 3.2}


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setitem(sys.modules, "libcamera", None)  # enum falls back to its value
    monkeypatch.setattr(FakePicamera2, "cameras", [{"Model": "imx708", "Num": 0}])
    monkeypatch.setattr(FakePicamera2, "fail_capture", False)
    monkeypatch.setattr(FakePicamera2, "has_focus", True)
    return FakePicamera2


class TestPicamera2:
    def test_fixed_settings_are_set_and_frames_are_bgr(self, fake_picamera2) -> None:
        with Picamera2Source((640, 480), SETTINGS) as source:
            camera = fake_picamera2.last
            assert camera.config == {"main": {"size": (640, 480), "format": "RGB888"}}
            assert camera.controls == {
                "AeEnable": False, "AwbEnable": False, "ExposureTime": 8000,
                "AnalogueGain": 2.5, "ColourGains": (1.9, 1.3),
                "AfMode": 0, "LensPosition": 4.0,
            }
            frame = source.capture()
            assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
            assert frame[0, 0].tolist() == [200, 0, 0]  # B first, as OpenCV expects
            assert source.size == (640, 480)
        assert camera.closed and not camera.started

    def test_without_settings_the_camera_runs_automatic(self, fake_picamera2) -> None:
        with Picamera2Source((320, 240)) as source:
            assert fake_picamera2.last.controls == {}
            assert source.camera_settings() == CameraSettings(12000, 1.5, (2.0, 1.5), 3.2)

    def test_fixed_focus_camera_without_lens_position(self, fake_picamera2,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(FakePicamera2, "has_focus", False)
        settings = CameraSettings(exposure_us=5000)
        with Picamera2Source((320, 240), settings):
            assert "AfMode" not in fake_picamera2.last.controls
        with pytest.raises(CameraError, match="no focus control"):
            Picamera2Source((320, 240), SETTINGS)
        assert fake_picamera2.last.closed

    def test_open_source_uses_the_calibration(self, fake_picamera2) -> None:
        calibration = Calibration(image_size=(800, 600), camera=SETTINGS, die_size=40,
                                  tray=((0, 0), (799, 0), (799, 599)))
        with open_source("picamera2", calibration) as source:
            assert source.capture().shape == (600, 800, 3)
            assert fake_picamera2.last.controls["ExposureTime"] == 8000

    def test_no_camera(self, fake_picamera2, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(FakePicamera2, "cameras", [])
        with pytest.raises(CameraError, match="picamera2: no camera found"):
            Picamera2Source()

    def test_capture_failure(self, fake_picamera2, monkeypatch: pytest.MonkeyPatch) -> None:
        source = Picamera2Source((320, 240))
        monkeypatch.setattr(FakePicamera2, "fail_capture", True)
        with pytest.raises(CameraError, match=r"capture failed .*timeout"):
            source.capture()

    def test_not_installed(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setitem(sys.modules, "picamera2", None)
        with pytest.raises(CameraError, match="picamera2: not installed"):
            open_source("picamera2")


# -- OpenCV camera -------------------------------------------------------------------------


class FakeCapture:
    """Stands in for cv2.VideoCapture on a webcam."""

    def __init__(self, device: Any, opened: bool = True, frames: int = 2) -> None:
        self.device, self.opened, self.left = device, opened, frames
        self.props: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left == 0:
            return False, None
        self.left -= 1
        return True, np.full((240, 320, 3), 90, np.uint8)

    def release(self) -> None:
        self.released = True


class TestOpenCV:
    def test_webcam_frames_and_settings(self) -> None:
        made: list[FakeCapture] = []

        def factory(device: Any) -> FakeCapture:
            made.append(FakeCapture(device))
            return made[-1]

        source = OpenCVCameraSource(0, (320, 240), SETTINGS, capture_factory=factory)
        capture = made[0]
        assert capture.props[cv2.CAP_PROP_FRAME_WIDTH] == 320
        assert capture.props[cv2.CAP_PROP_AUTO_WB] == 0
        assert capture.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1
        assert source.size == (320, 240)
        assert [f.shape for f in source.frames(limit=2)] == [(240, 320, 3)] * 2
        with pytest.raises(CameraError, match="opencv: read failed"):
            source.capture()
        source.close()
        assert capture.released

    def test_camera_that_does_not_open(self) -> None:
        with pytest.raises(CameraError, match="could not be opened"):
            OpenCVCameraSource(3, capture_factory=lambda d: FakeCapture(d, opened=False))

    def test_real_videocapture_on_a_missing_device(self) -> None:
        with pytest.raises(CameraError, match="opencv"):
            open_source("opencv:/nonexistent/video.avi")

    def test_video_file(self, tmp_path: Path) -> None:
        path = tmp_path / "roll.avi"
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
        for shade in (20, 120, 220):
            writer.write(np.full((120, 160, 3), shade, np.uint8))
        writer.release()
        with open_source(f"opencv:{path}") as source:
            assert source.size == (160, 120)
            means = [round(float(f.mean()), -1) for f in source.frames()]
        assert means == [20, 120, 220]


# -- folder --------------------------------------------------------------------------------


class TestFolder:
    @pytest.fixture
    def folder(self, tmp_path: Path) -> Path:
        for name, shade in (("b.png", 100), ("a.png", 50), ("c.jpg", 150)):
            cv2.imwrite(str(tmp_path / name), np.full((30, 40, 3), shade, np.uint8))
        (tmp_path / "notes.txt").write_text("not an image")
        return tmp_path

    def test_images_in_name_order(self, folder: Path) -> None:
        source = open_source(f"folder:{folder}")
        assert source.size == (40, 30)
        assert [int(f[0, 0, 0]) for f in source.frames()] == [50, 100, 150]
        with pytest.raises(CameraError, match="no more images"):
            source.capture()

    def test_loop(self, folder: Path) -> None:
        source = open_source(f"folder:{folder}", loop=True)
        assert [int(f[0, 0, 0]) for f in source.frames(limit=5)] == [50, 100, 150, 50, 100]

    def test_missing_and_empty_folders(self, tmp_path: Path) -> None:
        with pytest.raises(CameraError, match="is not a folder"):
            FolderSource(tmp_path / "none")
        with pytest.raises(CameraError, match="no images"):
            FolderSource(tmp_path)

    def test_unreadable_image(self, tmp_path: Path) -> None:
        (tmp_path / "broken.png").write_bytes(b"\x89PNG garbage")
        with pytest.raises(FrameError, match=r"broken\.png: not a readable image"):
            FolderSource(tmp_path).capture()
        with pytest.raises(FrameError, match="no such file"):
            read_image(tmp_path / "gone.png")


# -- simulated -----------------------------------------------------------------------------


class TestSimulated:
    def test_renders_the_tray_as_it_is(self) -> None:
        now = [0.0]
        tray = SimulatedTray(seed=6, clock=lambda: now[0],
                             base=random_scene(6, image_size=(320, 240)))
        source = SimulatedSource(tray)
        assert source.size == (320, 240)
        tray.roll([6, 6, 6, 6, 6])
        now[0] = 0.2
        assert any(d.blurred for d in source.truth().dice)
        now[0] = 5.0
        first, second = source.capture(), source.capture()
        assert first.shape == (240, 320, 3)
        assert source.truth().values == (6, 6, 6, 6, 6)
        assert not np.array_equal(first, second)  # fresh sensor noise per capture
        assert np.abs(first.astype(int) - second.astype(int)).mean() < 5

    def test_a_tap_on_a_die_finds_it_to_keep(self) -> None:
        source = SimulatedSource(seed=3, size=(320, 240))
        truth = source.truth()
        for index, die in enumerate(truth.dice):
            assert source.nearest_die(die.x + 2, die.y - 2) == index
        source.tray.keep(source.nearest_die(truth.dice[2].x, truth.dice[2].y))
        assert source.truth().dice[2].zone == "ledge"

    def test_frame_clock_moves_with_captures(self) -> None:
        source = SimulatedSource(seed=1, size=(160, 120), fps=10)
        source.tray.roll()
        list(source.frames(limit=10))
        assert source.clock() == pytest.approx(1.0) and not source.tray.settled
        list(source.frames(limit=5))
        assert source.clock() == pytest.approx(1.5) and source.tray.settled

    def test_fixed_scene_and_spec(self) -> None:
        scene = random_scene(2, dice=3, image_size=(160, 120))
        assert SimulatedSource(scene).capture().shape == (120, 160, 3)
        calibration = Calibration(image_size=(320, 240), die_size=20,
                                  tray=((0, 0), (319, 0), (319, 239)))
        assert open_source("sim:4", calibration).capture().shape == (240, 320, 3)

    def test_bad_specs(self) -> None:
        with pytest.raises(CameraError, match="unknown frame source"):
            open_source("kinect")
        with pytest.raises(CameraError, match="not a number"):
            open_source("sim:abc")
        with pytest.raises(CameraError, match="folder:PATH"):
            open_source("folder:")
