"""``dicetray read`` fed hostile files, names and sizes (issue 25, classes 1 to 5).

Each case runs the real command in a child process under the memory and time limits of
conftest.py. What must hold: one line per image, an ``error (...)`` line for every image
that is not a whole, readable photo, the batch going on past it, exit status 1, and
never a crash, a traceback or a usage block.
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dicetray.firmware.commands.errors import shown
from dicetray.vision.layouts import LAYOUTS

SLOW = settings(max_examples=4, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


def _photo(values: tuple[int, ...] = (2, 3, 3, 5, 6)) -> np.ndarray:
    """A plain photo of dice lying flat, one per value (drawn, not rendered: quick)."""
    img = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    for k, value in enumerate(values):
        cx, cy = 100 + 110 * k, 240
        cv2.rectangle(img, (cx - 30, cy - 30), (cx + 30, cy + 30), (235, 235, 235), -1)
        for gx, gy in LAYOUTS[value] * 16:
            cv2.circle(img, (round(cx + gx), round(cy + gy)), 5, (25, 25, 25), -1)
    return img


def _encode(suffix: str, image: np.ndarray | None = None) -> bytes:
    ok, data = cv2.imencode(suffix, _photo() if image is None else image)
    assert ok
    return data.tobytes()


PNG = _encode(".png")
JPEG = _encode(".jpg")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def bomb(side: int = 32_000, rows: int | None = None) -> bytes:
    """A PNG declaring side x side grey pixels (3 GB decoded at 32000), with ``rows`` of
    them there (all by default). A decoder allocates the whole image from the header."""
    packer = zlib.compressobj(1)
    row = b"\x00" * (side + 1)
    data = b"".join(packer.compress(row) for _ in range(side if rows is None else rows))
    rows_data = data + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", rows_data)
            + _chunk(b"IEND", b""))


# -- class 1: names that are not UTF-8 (OpenCV's path-based I/O crashed on them) -------


def test_an_image_named_in_bytes_that_are_not_utf8_is_read(dicetray, tmp_path: Path) -> None:
    name = b"roll\xff.png"
    (tmp_path / os.fsdecode(name)).write_bytes(PNG)
    done = dicetray("read", name)
    assert done.status == 0, done
    assert done.out == "roll\\xff.png: ok 2 3 3 5 6\n"


def test_annotating_into_a_folder_named_in_such_bytes(dicetray, tmp_path: Path) -> None:
    (tmp_path / "roll.png").write_bytes(PNG)
    done = dicetray("read", "--annotate", b"out\xff", "roll.png")
    assert done.status == 0, done
    assert (tmp_path / os.fsdecode(b"out\xff") / "roll.annotated.png").stat().st_size > 0


# -- class 2: decompression bombs, /dev/zero, FIFOs ------------------------------------


def test_a_decompression_bomb_is_an_error_line(dicetray, tmp_path: Path) -> None:
    (tmp_path / "bomb.png").write_bytes(bomb(rows=64))
    (tmp_path / "roll.png").write_bytes(PNG)
    done = dicetray("read", "bomb.png", "roll.png")
    assert done.out.splitlines() == [
        "bomb.png: error (image too large (32000x32000 pixels declared; at most 25,000,000 "
        "pixels, 10000 a side))",
        "roll.png: ok 2 3 3 5 6",
    ]
    done.assert_one_error_line("1 of 2 image(s) could not be read")


def test_devices_fifos_and_folders_are_error_lines(dicetray, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.png")
    (tmp_path / "folder.png").mkdir()
    (tmp_path / "roll.png").write_bytes(PNG)
    done = dicetray("read", "/dev/zero", "fifo.png", "folder.png", "roll.png")
    assert done.out.splitlines() == [
        "/dev/zero: error (not a regular file)",
        "fifo.png: error (not a regular file)",
        "folder.png: error (is a folder, not an image)",
        "roll.png: ok 2 3 3 5 6",
    ]
    done.assert_one_error_line("3 of 4")


# -- class 3: a photo cut short is never a reading -------------------------------------


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_a_photo_missing_its_second_half_is_an_error_line(dicetray, tmp_path: Path,
                                                          suffix: str) -> None:
    whole = JPEG if suffix == ".jpg" else PNG
    (tmp_path / f"half{suffix}").write_bytes(whole[: len(whole) // 2])
    done = dicetray("read", "--json", f"half{suffix}")
    assert '"error": "not a complete image' in done.out, done
    assert '"status"' not in done.out
    done.assert_one_error_line("1 of 1")


# -- class 4 and 5: where --annotate writes, usage mistakes, a full disk ---------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--annotate", "a-file/x.png", "roll.png"], "a-file is a file, not a folder"),
        (["--annotate", "a-file/sub/", "roll.png", "roll.png"], "is a file, not a folder"),
        (["--annotate", "roll.png/sub", "roll.png", "roll.png"], "is a file, not a folder"),
        (["--annotate", "x.png", "roll.png", "roll.png"], "--annotate must be a folder"),
        (["--dice", "99", "roll.png"], "'--dice': 99 is not in the range 0<=x<=30"),
        (["--dice", "roll.png"], "'--dice': 'roll.png' is not a valid integer"),
        (["roll.png", "--dice"], "Option '--dice' requires an argument"),
        (["--frobnicate", "roll.png"], "No such option '--frobnicate'"),
        ([], "Missing argument 'IMAGES...'"),
        (["--calibration", "/dev/zero", "roll.png"], "not a regular file"),
    ],
)
def test_mistakes_end_in_one_line_before_any_image_is_read(dicetray, tmp_path: Path,
                                                            args: list[str],
                                                            needle: str) -> None:
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "roll.png").write_bytes(PNG)
    done = dicetray("read", *args)
    assert done.out == ""
    done.assert_one_error_line(needle)


def test_a_full_disk_is_an_error_line_and_the_batch_goes_on(dicetray, tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    (tmp_path / "b.png").write_bytes(PNG)
    done = dicetray("read", "--annotate", "out", "a.png", "b.png",
                    limits={"RLIMIT_FSIZE": 4096})
    lines = done.out.splitlines()
    assert lines[0] == "a.png: ok 2 3 3 5 6"
    assert lines[1].startswith("a.png: error (annotated copy not written: ")
    assert lines[2] == "b.png: ok 2 3 3 5 6"
    assert lines[3].startswith("b.png: error (annotated copy not written: ")
    done.assert_one_error_line("2 annotated copies could not be written")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == []


# -- the class as a whole: random batches of hostile files -----------------------------

_NAME = st.binary(min_size=1, max_size=30).filter(
    lambda b: b"/" not in b and b"\x00" not in b and b not in (b".", b".."))


@st.composite
def hostile_file(draw: st.DrawFn) -> tuple[bytes, bytes | None]:
    """(name, content): content None for a folder."""
    name = draw(_NAME)
    kind = draw(st.sampled_from(["random", "cut", "bomb", "folder", "tiny-bomb"]))
    if kind == "folder":
        return name, None
    if kind == "random":
        return name, draw(st.binary(max_size=4096))
    if kind == "bomb":
        side = draw(st.integers(10_001, 60_000))
        header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
        return name, (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
                      + _chunk(b"IDAT", zlib.compress(b"\x00" * 4096)) + _chunk(b"IEND", b""))
    if kind == "tiny-bomb":
        return name, bomb(draw(st.integers(5_001, 6_000)))
    whole = draw(st.sampled_from([PNG, JPEG, _encode(".bmp"), _encode(".webp")]))
    return name, whole[: draw(st.integers(0, len(whole) - 1))]


@SLOW
@given(files=st.lists(hostile_file(), min_size=1, max_size=12,
                      unique_by=lambda f: f[0].lower()))
@example(files=[(b"half.jpg", JPEG[: len(JPEG) // 2]), (b"bomb\xff.png", bomb(6_000))])
def test_every_hostile_file_is_one_error_line_and_the_batch_goes_on(
    dicetray: Callable, tmp_path_factory: pytest.TempPathFactory,
    files: list[tuple[bytes, bytes | None]],
) -> None:
    folder = tmp_path_factory.mktemp("batch")
    names = []
    for name, content in files:
        path = os.path.join(os.fsencode(folder), name)
        if content is None:
            os.mkdir(path)
        else:
            with open(path, "wb") as handle:
                handle.write(content)
        names.append(path)
    good = os.path.join(os.fsencode(folder), b"\xfe-good.png")
    with open(good, "wb") as handle:
        handle.write(PNG)
    done = dicetray("read", *names[:1], good, *names[1:])
    lines = done.out.splitlines()
    assert len(lines) == len(files) + 1, done
    assert lines[1] == f"{shown(good)}: ok 2 3 3 5 6"
    for line, name in zip([lines[0], *lines[2:]], names, strict=True):
        assert line.startswith(f"{shown(name)}: error ("), line
    done.assert_one_error_line(f"{len(files)} of {len(files) + 1} image(s) could not be read")
