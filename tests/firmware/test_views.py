"""The phone-sized photos of the readings' frames."""

from __future__ import annotations

import cv2
import numpy as np

from dicetray.firmware.views import Views


def frame(width=1280, height=960):
    image = np.zeros((height, width, 3), np.uint8)
    cv2.circle(image, (width // 4, height // 2), height // 8, (255, 255, 255), -1)
    return image


def decoded(jpeg):
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def test_a_view_is_the_frame_scaled_to_the_width_keeping_its_shape():
    views = Views(width=400, quality=80)
    shown = decoded(views.add(1, frame()))
    assert shown.shape == (300, 400, 3)
    assert shown[150, 100].mean() > 200 and shown[150, 300].mean() < 50  # the same picture


def test_a_frame_narrower_than_the_view_is_not_enlarged():
    assert decoded(Views(width=800, quality=80).add(1, frame(320, 240))).shape == (240, 320, 3)


def test_only_the_newest_are_kept_and_an_older_one_is_made_again_from_its_file(tmp_path):
    views = Views(width=400, quality=80, keep=2)
    path = tmp_path / "0000001.jpg"
    path.write_bytes(cv2.imencode(".jpg", frame())[1].tobytes())
    views.add(1, frame())
    views.add(2, frame())
    views.add(3, frame())
    assert views.get(1) is None  # pushed out, and no file given
    again = views.get(1, path)
    assert decoded(again).shape == (300, 400, 3)
    assert views.get(1) is again


def test_a_missing_or_broken_frame_file_gives_no_view(tmp_path):
    views = Views(width=400, quality=80)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    assert views.get(5, tmp_path / "gone.jpg") is None
    assert views.get(5, broken) is None
    assert views.get(5, empty) is None
