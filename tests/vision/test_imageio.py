"""Image files through bytes: odd names, bombs, truncated files, non-regular files."""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dicetray.vision.errors import FrameError
from dicetray.vision.imageio import (
    LIMITS,
    ImageFileError,
    declared_size,
    decode_image,
    read_image,
    write_image,
)

FORMATS = (".png", ".jpg", ".bmp", ".tiff", ".webp")


def _picture(width: int = 48, height: int = 32) -> np.ndarray:
    rng = np.random.default_rng(width * 1000 + height)
    return rng.integers(0, 255, (height, width, 3), dtype=np.uint8)


def _encoded(suffix: str, image: np.ndarray | None = None) -> bytes:
    ok, data = cv2.imencode(suffix, _picture() if image is None else image)
    assert ok
    return data.tobytes()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_declaring(width: int, height: int) -> bytes:
    """A small, well-formed PNG whose header declares ``width`` x ``height`` grey pixels."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (width + 1) * min(height, 4))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", rows)
            + _chunk(b"IEND", b""))


@pytest.mark.parametrize("suffix", FORMATS)
def test_every_format_round_trips_under_a_name_that_is_not_utf8(tmp_path: Path,
                                                                 suffix: str) -> None:
    folder = tmp_path / os.fsdecode(b"caf\xe9")  # Latin-1 bytes: invalid UTF-8
    folder.mkdir()
    path = folder / os.fsdecode(b"roll\xff" + suffix.encode())
    image = _picture()
    write_image(path, image)
    back = read_image(path)
    assert back.shape == image.shape
    if suffix in (".png", ".bmp", ".tiff"):
        assert np.array_equal(back, image)


@pytest.mark.parametrize("suffix", FORMATS)
def test_the_declared_size_is_read_from_the_header(suffix: str) -> None:
    assert declared_size(_encoded(suffix, _picture(40, 24))) == (40, 24)


@settings(max_examples=60, deadline=None)
@given(width=st.integers(1, 200_000), height=st.integers(1, 200_000))
@example(width=32_000, height=32_000)  # the bomb: 3 GB once decoded
def test_a_declared_size_over_the_limit_is_refused_before_decoding(width: int,
                                                                   height: int) -> None:
    data = png_declaring(width, height)
    too_large = (width * height > LIMITS.max_pixels or max(width, height) > LIMITS.max_side)
    if too_large:
        with pytest.raises(ImageFileError, match="too large"):
            decode_image(data, "bomb.png")
    else:
        try:
            image = decode_image(data, "small.png")
        except ImageFileError as exc:  # rows left out of a large image: refused, not read
            assert "not a readable image" in str(exc)
        else:
            assert image.shape[:2] == (height, width)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(suffix=st.sampled_from(FORMATS), cut=st.floats(0.0, 0.999))
@example(suffix=".jpg", cut=0.5)  # the JPEG missing its second half
def test_a_file_cut_anywhere_is_an_error_never_a_picture(suffix: str, cut: float) -> None:
    data = _encoded(suffix)
    with pytest.raises(ImageFileError) as caught:
        decode_image(data[: int(len(data) * cut)], f"cut{suffix}")
    assert isinstance(caught.value, FrameError)


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=2048))
@example(data=b"\x89PNG\r\n\x1a\n")
@example(data=b"\xff\xd8\xff\xda\x00\x02")
@example(data=b"BM" + b"\xff" * 60)
@example(data=b"II*\x00\xff\xff\xff\xff")
@example(data=b"RIFF\x00\x00\x00\x00WEBPVP8X")
def test_random_bytes_are_an_error_or_a_picture_never_a_crash(data: bytes) -> None:
    try:
        image = decode_image(data, "random.bin")
    except ImageFileError:
        return
    assert image.dtype == np.uint8 and image.ndim == 3


@pytest.mark.parametrize("kind", ["fifo", "device", "folder", "huge"])
def test_what_is_not_a_regular_image_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.png"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:
        with open(path, "wb") as handle:  # sparse: takes no room on the disk
            handle.truncate(LIMITS.max_file_bytes + 1)
    with pytest.raises(ImageFileError) as caught:
        read_image(path)
    assert caught.value.reason in ("not a regular file", "is a folder, not an image") or (
        "larger than" in caught.value.reason)


def test_writing_where_no_file_can_be_is_an_image_file_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(ImageFileError, match="cannot write the file"):
        write_image(blocker / "out.png", _picture())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_jpeg_turned_by_its_exif_orientation_is_read_turned() -> None:
    entry = struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0)  # orientation 6: turn 90° clockwise
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + entry + b"\x00" * 4
    app1 = b"Exif\x00\x00" + tiff
    plain = _encoded(".jpg", _picture(40, 24))
    turned = plain[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + plain[2:]
    assert declared_size(turned) == (40, 24)
    # turned where OpenCV applies the orientation when decoding from memory (5.0 here
    # does), as stored otherwise; read either way, never refused
    assert decode_image(turned, "turned.jpg").shape in ((40, 24, 3), (24, 40, 3))
