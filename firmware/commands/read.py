"""``dicetray read``: read the dice in photos.

One line per image: ``IMAGE: ok 2 3 3 5 6`` or ``IMAGE: unsure (reason)``; with
``--json`` one JSON object per image per line (image, status, reason, dice, ms). An image
that is missing, a folder, cannot be decoded or is incomplete gets an error line, and the
exit status is 1 at the end; the other images are still read. Where ``--annotate`` writes is
checked before any image is read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from dicetray.firmware.commands.errors import check_target, shown
from dicetray.firmware.commands.options import data_dir_option

MAX_DICE = 30  # as calibrate --count: more dice than any game of the family rolls


def _annotate_out(out: Path, many: bool) -> tuple[Path, bool]:
    """``--annotate``'s target, checked (and a folder created) before any image is read:
    the path and whether it is a folder."""
    from dicetray.vision.frames import IMAGE_SUFFIXES

    if out.suffix.lower() in IMAGE_SUFFIXES and not out.is_dir():
        if many:
            raise click.UsageError("--annotate must be a folder when reading several images")
        return check_target(out, "--annotate"), False
    check_target(out, "--annotate", folder=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.ClickException(f"--annotate {shown(out)}: {exc.strerror}") from None
    return out, True


def _annotate_path(out: Path, image: Path, folder: bool) -> Path:
    """Where the annotated copy of ``image`` goes: ``out`` itself, or inside it as a folder."""
    return out / f"{image.stem}.annotated.png" if folder else out


def _load_calibration(path: str | None) -> Any:
    if path is None:
        return None
    from dicetray.vision.calibration import Calibration
    from dicetray.vision.errors import CalibrationError

    try:
        return Calibration.load(path)
    except CalibrationError as exc:
        raise click.ClickException(" ".join(str(exc).split())) from None


def _load_teaching(path: str | None) -> Any:
    if path is None:
        return None
    from dicetray.vision.errors import TeachingError
    from dicetray.vision.teaching import Teaching

    try:
        return Teaching.load(path)
    except TeachingError as exc:
        raise click.ClickException(str(exc)) from None


def _error_line(image: str, why: str, as_json: bool) -> None:
    """The line for an image that could not be read (the other images go on)."""
    if as_json:
        click.echo(json.dumps({"image": image, "error": why}))
    else:
        click.echo(f"{image}: error ({' '.join(why.split())})")


@click.command("read")
@click.argument("images", nargs=-1, required=True)
@click.option("--dice", type=click.IntRange(0, MAX_DICE), default=None,
              help="Number of dice expected.")
@click.option(
    "--calibration",
    type=click.Path(dir_okay=False),
    default=None,
    help="Calibration file (JSON) for the camera that took the photos.",
)
@click.option(
    "--teaching",
    type=click.Path(dir_okay=False),
    default=None,
    help="Teaching file of this tray's dice (see dicetray teach).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per image per line.")
@click.option(
    "--annotate",
    type=click.Path(),
    default=None,
    help="Write a copy with each die's box, value and confidence (a .png file, or a folder).",
)
def read(
    images: tuple[str, ...],
    dice: int | None,
    calibration: str | None,
    teaching: str | None,
    as_json: bool,
    annotate: str | None,
) -> None:
    """Read the dice in IMAGE... (photos of the tray)."""
    import cv2

    from dicetray.vision import read as read_frame
    from dicetray.vision.annotate import annotate as draw
    from dicetray.vision.errors import VisionError
    from dicetray.vision.frames import read_image, write_image
    from dicetray.vision.imageio import ImageFileError

    out = None if annotate is None else _annotate_out(Path(annotate), len(images) > 1)
    cal = _load_calibration(calibration)
    taught = _load_teaching(teaching)
    failed = unwritten = 0
    for raw in images:
        path, name = Path(raw), shown(raw)
        try:
            frame = read_image(path)
        except ImageFileError as exc:
            failed += 1
            _error_line(name, exc.reason, as_json)
            continue
        try:
            reading = read_frame(frame, cal, dice, teaching=taught)
        except VisionError as exc:
            failed += 1
            _error_line(name, str(exc), as_json)
            continue
        except (cv2.error, MemoryError) as exc:
            failed += 1
            last = (str(exc).strip().splitlines() or [type(exc).__name__])[-1]
            _error_line(name, f"the recognizer failed: {last}", as_json)
            continue
        if as_json:
            click.echo(json.dumps(reading.to_json(name)))
        elif reading.ok:
            click.echo(f"{name}: ok {' '.join(map(str, reading.values))}".rstrip())
        else:
            click.echo(f"{name}: unsure ({reading.reason})")
        if out is not None:
            try:
                write_image(_annotate_path(out[0], path, out[1]), draw(frame, reading))
            except ImageFileError as exc:
                unwritten += 1
                _error_line(name, f"annotated copy not written: {exc}", as_json)
    problems = [f"{failed} of {len(images)} image(s) could not be read"] if failed else []
    if unwritten:
        problems.append(f"{unwritten} annotated cop{'y' if unwritten == 1 else 'ies'} "
                        "could not be written")
    if problems:
        raise click.ClickException("; ".join(problems))


read.params.append(data_dir_option("read keeps nothing there; a calibration is given with "
                                   "--calibration"))
