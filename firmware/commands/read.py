"""``dicetray read``: read the dice in photos.

One line per image: ``IMAGE: ok 2 3 3 5 6`` or ``IMAGE: unsure (reason)``; with
``--json`` one JSON object per image per line (image, status, reason, dice, ms). An image
that is missing or cannot be decoded gets an error line, and the exit status is 1 at the
end; the other images are still read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from dicetray.firmware.commands.options import data_dir_option


def _annotate_path(out: Path, image: Path, many: bool) -> Path:
    """Where the annotated copy of ``image`` goes: ``out`` itself, or inside it as a folder."""
    from dicetray.vision.frames import IMAGE_SUFFIXES

    if out.suffix.lower() in IMAGE_SUFFIXES and not out.is_dir():
        if many:
            raise click.UsageError("--annotate must be a folder when reading several images")
        return out
    out.mkdir(parents=True, exist_ok=True)
    return out / f"{image.stem}.annotated.png"


def _load_calibration(path: str | None) -> Any:
    if path is None:
        return None
    from dicetray.vision.calibration import Calibration
    from dicetray.vision.errors import CalibrationError

    try:
        return Calibration.load(path)
    except CalibrationError as exc:
        raise click.ClickException(str(exc)) from None


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
        click.echo(f"{image}: error ({why})")


@click.command("read")
@click.argument("images", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--dice", type=click.IntRange(min=0), default=None, help="Number of dice expected.")
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

    cal = _load_calibration(calibration)
    taught = _load_teaching(teaching)
    failed = 0
    for name in images:
        path = Path(name)
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
        if frame is None:
            failed += 1
            _error_line(name, "no such file" if not path.exists() else "not a readable image",
                        as_json)
            continue
        try:
            reading = read_frame(frame, cal, dice, teaching=taught)
        except VisionError as exc:
            failed += 1
            _error_line(name, str(exc), as_json)
            continue
        if as_json:
            click.echo(json.dumps(reading.to_json(name)))
        elif reading.ok:
            click.echo(f"{name}: ok {' '.join(map(str, reading.values))}".rstrip())
        else:
            click.echo(f"{name}: unsure ({reading.reason})")
        if annotate is not None:
            target = _annotate_path(Path(annotate), path, len(images) > 1)
            if not cv2.imwrite(str(target), draw(frame, reading)):
                raise click.ClickException(f"could not write the annotated image {target}")
    if failed:
        raise click.ClickException(f"{failed} of {len(images)} image(s) could not be read")


read.params.append(data_dir_option("read keeps nothing there; a calibration is given with "
                                   "--calibration"))
