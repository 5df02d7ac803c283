"""Image files in and out, through bytes, with the checks a hostile file needs.

OpenCV's path-based ``imread``/``imwrite`` crash on file names that are not valid UTF-8,
so every image is read and written here as bytes (``imdecode``/``imencode``) and the
file system is touched by Python. Before anything is decoded:

- the file must be a regular file (never a FIFO, a device like ``/dev/zero`` or a folder)
  no larger than :attr:`ImageLimits.max_file_bytes`;
- the size the header declares is parsed (PNG, JPEG, BMP, TIFF, WebP) and refused above
  :attr:`ImageLimits.max_pixels`: a 124 KB PNG may declare 32000x32000 pixels, which
  decodes to 3 GB (a decompression bomb);
- the file must be complete (a PNG ends in ``IEND``, a JPEG's scan ends in ``EOI``, the
  pixel data of BMP, TIFF and WebP lies inside the file): a truncated photo decodes to a
  part of the picture, which would read as fewer dice.

Every refusal is an :class:`ImageFileError` (a :class:`~dicetray.vision.errors.FrameError`)
naming the file and the reason.

>>> import pathlib, tempfile, numpy as np
>>> path = pathlib.Path(tempfile.mkdtemp()) / "grey.png"
>>> write_image(path, np.full((4, 6, 3), 128, np.uint8))
>>> read_image(path).shape
(4, 6, 3)
>>> _ = path.write_bytes(path.read_bytes()[:-12])  # the IEND chunk is lost
>>> read_image(path)
Traceback (most recent call last):
...
dicetray.vision.imageio.ImageFileError: .../grey.png: not a complete image (the PNG ends before ...)
"""

from __future__ import annotations

import contextlib
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dicetray.rules import read_bytes
from dicetray.vision.errors import FrameError

__all__ = [
    "LIMITS",
    "ImageFileError",
    "ImageLimits",
    "declared_size",
    "decode_image",
    "printable",
    "read_bytes",
    "read_image",
    "write_image",
]


@dataclass(frozen=True)
class ImageLimits:
    """How large an image file may be; larger ones are refused before decoding."""

    # The largest still of the Pi cameras is 4608x2592 (Camera Module 3, 11.9 Mpx) and
    # 4056x3040 (HQ camera, 12.3 Mpx); twice that leaves room for other cameras while a
    # decoded frame (3 bytes a pixel) stays under 150 MB on a 512 MB Pi.
    max_pixels: int = 25_000_000
    # No side longer than this (also bounds a thin 1 x 25,000,000 image).
    max_side: int = 10_000
    # A 12 Mpx photo is 3-8 MB as JPEG and up to 36 MB as an uncompressed BMP/TIFF.
    max_file_bytes: int = 64 * 1024 * 1024


LIMITS = ImageLimits()


class ImageFileError(FrameError):
    """An image file that cannot be read or written; ``reason`` without the file name."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        super().__init__(f"{printable(self.path)}: {reason}")


def printable(path: str | os.PathLike[str] | bytes) -> str:
    """A path as one printable line: bytes that are not UTF-8 and control characters
    (a newline in a file name) appear as ``\\x..`` escapes.

    >>> print(printable(os.fsdecode(b"roll\\xff\\n.png")))
    roll\\xff\\x0a.png
    """
    text = os.fsencode(path).decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def read_image(path: str | os.PathLike[str], limits: ImageLimits = LIMITS) -> np.ndarray:
    """Read an image file as a BGR uint8 frame; :class:`ImageFileError` when it can't be.

    >>> read_image("/nonexistent.png")
    Traceback (most recent call last):
    ...
    dicetray.vision.imageio.ImageFileError: /nonexistent.png: no such file
    """
    try:
        data = read_bytes(path, limits.max_file_bytes)
    except FileNotFoundError:
        raise ImageFileError(path, "no such file") from None
    except IsADirectoryError:
        raise ImageFileError(path, "is a folder, not an image") from None
    except (OSError, ValueError) as exc:
        raise ImageFileError(path, _why(exc)) from None
    return decode_image(data, path, limits)


def decode_image(data: bytes, name: str | os.PathLike[str] = "image",
                 limits: ImageLimits = LIMITS) -> np.ndarray:
    """Decode image bytes after checking the declared size and that the file is whole."""
    import cv2

    if not data:
        raise ImageFileError(name, "not a readable image (0 bytes)")
    size = declared_size(data)
    if size is None:
        raise ImageFileError(name, f"not a readable image ({len(data)} bytes; "
                                   "PNG, JPEG, BMP, TIFF and WebP are read)")
    width, height = size
    if (width < 1 or height < 1 or width > limits.max_side or height > limits.max_side
            or width * height > limits.max_pixels):
        raise ImageFileError(name, f"image too large ({width}x{height} pixels declared; at "
                                   f"most {limits.max_pixels:,} pixels, "
                                   f"{limits.max_side} a side)")
    try:
        missing = _incomplete(data)
    except (struct.error, ValueError, IndexError):
        missing = "its structure is broken"
    if missing:
        raise ImageFileError(name, f"not a complete image ({missing})")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:
        raise ImageFileError(name, f"not a readable image ({_first_line(exc)})") from None
    if image is None:
        raise ImageFileError(name, f"not a readable image ({len(data)} bytes)")
    if image.shape[:2] not in ((height, width), (width, height)):  # EXIF may turn a JPEG
        raise ImageFileError(name, f"not a readable image (declares {width}x{height}, "
                                   f"decodes to {image.shape[1]}x{image.shape[0]})")
    return image


def write_image(path: str | os.PathLike[str], image: np.ndarray) -> None:
    """Write ``image`` in the format its suffix names; :class:`ImageFileError` on failure.

    The bytes go to a temporary name first and are then renamed, so a full disk leaves
    no half-written file behind.
    """
    import cv2

    suffix = Path(os.fsdecode(path)).suffix.lower() or ".png"
    try:
        ok, encoded = cv2.imencode(suffix, image)
    except cv2.error as exc:
        raise ImageFileError(path, f"cannot encode the image as {suffix} "
                                   f"({_first_line(exc)})") from None
    if not ok:
        raise ImageFileError(path, f"cannot encode the image as {suffix}")
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_bytes(encoded.tobytes())
        os.replace(tmp, target)
    except (OSError, ValueError) as exc:
        with contextlib.suppress(OSError, ValueError):
            tmp.unlink(missing_ok=True)
        raise ImageFileError(path, f"cannot write the file ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


# -- headers ------------------------------------------------------------------------------


def declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) a PNG, JPEG, BMP, TIFF or WebP header declares; None if unknown.

    >>> import struct
    >>> declared_size(b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I4sII", 13, b"IHDR", 32000, 32000))
    (32000, 32000)
    >>> declared_size(b"GIF89a") is None
    True
    """
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n"):
            return _png_size(data)
        if data.startswith(b"\xff\xd8"):
            return _jpeg_size(data)
        if data.startswith(b"BM"):
            width, height = struct.unpack_from("<ii", data, 18)
            return (abs(width), abs(height))
        if data[:4] in (b"II*\x00", b"MM\x00*"):
            tags = _tiff_tags(data)
            return (tags[256][0], tags[257][0])
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp_size(data)
    except (struct.error, KeyError, IndexError, ValueError):
        return None
    return None


def _png_size(data: bytes) -> tuple[int, int]:
    _, kind, width, height = struct.unpack_from(">I4sII", data, 8)
    if kind != b"IHDR":
        raise ValueError("no IHDR")
    return (width, height)


def _jpeg_segments(data: bytes) -> Any:
    """(marker, start of its payload, payload length) up to and including the first SOS."""
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise ValueError("not a marker")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            pos += 2
            continue
        (length,) = struct.unpack_from(">H", data, pos + 2)
        if length < 2:
            raise ValueError("bad segment length")
        yield marker, pos + 4, length - 2
        if marker == 0xDA:  # start of scan: entropy-coded data follows
            return
        pos += 2 + length


# The start-of-frame markers that carry the image size (not DHT 0xC4, JPG 0xC8, DAC 0xCC).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int]:
    for marker, start, _ in _jpeg_segments(data):
        if marker in _SOF:
            height, width = struct.unpack_from(">HH", data, start + 1)
            return (width, height)
    raise ValueError("no frame header")


def _tiff_tags(data: bytes) -> dict[int, list[int]]:
    """The first IFD's tags that hold numbers (SHORT or LONG), as lists of values."""
    order = "<" if data[:2] == b"II" else ">"
    (offset,) = struct.unpack_from(order + "I", data, 4)
    (count,) = struct.unpack_from(order + "H", data, offset)
    tags: dict[int, list[int]] = {}
    for index in range(count):
        tag, kind, n, value = struct.unpack_from(order + "HHI4s", data, offset + 2 + 12 * index)
        if kind not in (3, 4) or n > 1_000_000:
            continue
        item = "H" if kind == 3 else "I"
        size = struct.calcsize(item) * n
        where = value if size <= 4 else data[struct.unpack(order + "I", value)[0]:][:size]
        if len(where) < size:
            raise ValueError("tag outside the file")
        tags[tag] = list(struct.unpack_from(order + item * n, where))
    return tags


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8 ":
        width, height = struct.unpack_from("<HH", data, 26)
        return (width & 0x3FFF, height & 0x3FFF)
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    if chunk == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return (width, height)
    raise ValueError("unknown WebP chunk")


def _incomplete(data: bytes) -> str | None:
    """What is missing from a file whose header was read, or None when it is whole."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png_missing(data)
    if data.startswith(b"\xff\xd8"):
        scan = None
        for marker, start, length in _jpeg_segments(data):
            if marker == 0xDA:
                scan = start + length
        if scan is None:
            return "the JPEG has no image data"
        if data.find(b"\xff\xd9", scan) < 0:
            return "the JPEG ends before its end-of-image marker"
        return None
    if data.startswith(b"BM"):
        (offset,) = struct.unpack_from("<I", data, 10)
        (header,) = struct.unpack_from("<I", data, 14)
        width, height = declared_size(data) or (0, 0)
        bits = struct.unpack_from("<H", data, 28)[0] if header >= 40 else 24
        compression = struct.unpack_from("<I", data, 30)[0] if header >= 40 else 0
        row = (width * bits + 31) // 32 * 4
        if compression == 0 and offset + row * height > len(data):
            return "the BMP ends before its last row of pixels"
        return None
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        tags = _tiff_tags(data)
        offsets = tags.get(273) or tags.get(324) or []
        counts = tags.get(279) or tags.get(325) or []
        if not offsets or len(offsets) != len(counts):
            return "the TIFF has no pixel data"
        if max(o + c for o, c in zip(offsets, counts, strict=True)) > len(data):
            return "the TIFF ends before its pixel data"
        return None
    if data.startswith(b"RIFF"):
        (size,) = struct.unpack_from("<I", data, 4)
        if size + 8 > len(data):
            return "the WebP ends before its last chunk"
    return None


def _png_missing(data: bytes) -> str | None:
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        pos += 12 + length
        if kind == b"IEND":
            return None if pos <= len(data) else "the PNG's IEND chunk is cut short"
    return "the PNG ends before its IEND chunk"
