"""``dicetray calibrate``: make the camera calibration from a few frames.

Frames come from image files (``--empty`` and ``--dice``, each a file or a folder
of images, repeatable; ``--empty`` may be left out when nobody photographed the empty
tray: the tray is then the whole frame) or are taken from a frame source (``--source``):
``picamera2``, ``opencv[:N]``, ``folder:PATH`` or ``sim[:SEED]``. With a real
camera the command asks you to clear the tray and to roll the dice between
shots (``--yes`` skips the questions); the simulated tray does it by itself.

The calibration goes to ``calibration.json`` in the data directory (or ``--out``)
with the empty-tray background beside it, and the report says how many dice
were found and what the recognizer read with the new calibration. Any problem
ends with a one-line message and exit status 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import click

from dicetray.firmware.commands.errors import check_target
from dicetray.firmware.paths import data_dir

CALIBRATION_FILE = "calibration.json"
# --size: the Pi cameras capture at most 4608 pixels a side (Camera Module 3); below 64
# pixels no die is large enough to read.
FRAME_SIDES = (64, 4608)


@contextmanager
def _vision_errors() -> Iterator[None]:
    """Turn a vision error (or OpenCV's own) into a one-line click error (no traceback)."""
    import cv2

    from dicetray.vision.errors import VisionError

    try:
        yield
    except VisionError as exc:
        raise click.ClickException(" ".join(str(exc).split())) from None
    except cv2.error as exc:
        last = (str(exc).strip().splitlines() or ["unknown"])[-1]
        raise click.ClickException(f"OpenCV failed: {' '.join(last.split())}") from None


def _points(text: str | None, name: str) -> tuple[tuple[float, float], ...] | None:
    """Polygon corners from "x,y x,y x,y ..." (spaces or semicolons between points)."""
    if text is None:
        return None
    try:
        points = tuple(
            (float(x), float(y))
            for x, y in (part.split(",") for part in text.replace(";", " ").split())
        )
    except ValueError:
        raise click.BadParameter(f"expected corners as 'x,y x,y x,y ...', got {text!r}",
                                 param_hint=name) from None
    if len(points) < 3:
        raise click.BadParameter("needs at least 3 corners", param_hint=name)
    return points


def _size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        shown = text if len(text) <= 40 else f"{text[:40]}..."
        raise click.BadParameter(f"expected WIDTHxHEIGHT, got {shown!r}",
                                 param_hint="--size") from None
    low, high = FRAME_SIDES
    if not (low <= width <= high and low <= height <= high):
        raise click.BadParameter(f"each side must be {low} to {high} pixels, got {text!r}",
                                 param_hint="--size")
    return (width, height)


def _image_files(paths: Sequence[str]) -> list[Path]:
    from dicetray.vision.frames import IMAGE_SUFFIXES

    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not found:
                raise click.ClickException(f"{path}: no images in this folder")
            files.extend(found)
        else:
            files.append(path)
    return files


def _wait_for_enter(message: str) -> None:
    click.prompt(f"{message}, then press Enter", default="", show_default=False,
                 prompt_suffix=" ", err=True)


@click.command()
@click.option("--empty", "empty_paths", multiple=True, metavar="IMG",
              help="Image (or folder of images) of the empty tray; repeatable. Without "
                   "it the tray is the whole frame and nothing is left out as the empty "
                   "tray's.")
@click.option("--dice", "dice_paths", multiple=True, metavar="IMG",
              help="Image (or folder of images) with the dice on the tray; repeatable.")
@click.option("--source", metavar="SPEC",
              help="Take the frames from picamera2, opencv[:N], folder:PATH or sim[:SEED].")
@click.option("--count", default=5, show_default=True, type=click.IntRange(1, 30),
              help="How many dice are in the dice frames.")
@click.option("--frames", "shots", default=3, show_default=True, type=click.IntRange(1, 20),
              help="With --source: how many empty and how many dice frames to take.")
@click.option("--tray", metavar="'x,y x,y ...'",
              help="The tray's corners in image pixels (found automatically when not given).")
@click.option("--ledge", metavar="'x,y x,y ...'", help="The hold ledge's corners in image pixels.")
@click.option("--size", metavar="WxH",
              help=f"With --source: the frame size to capture ({FRAME_SIDES[0]} to "
                   f"{FRAME_SIDES[1]} pixels a side).")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the calibration here.")
@click.option("--data-dir", "data_dir_option", type=click.Path(file_okay=False),
              help="Data directory (overrides the group option).")
@click.option("--yes", "-y", is_flag=True, help="Don't ask before taking frames.")
@click.option("--force", is_flag=True,
              help="Replace an existing calibration even when this one reads unsure.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.pass_context
def calibrate(ctx: click.Context, empty_paths: tuple[str, ...], dice_paths: tuple[str, ...],
              source: str | None, count: int, shots: int, tray: str | None, ledge: str | None,
              size: str | None, out: str | None, data_dir_option: str | None, yes: bool,
              force: bool, as_json: bool) -> None:
    """Calibrate the camera: find the tray, learn the dice, check they read right."""
    from dicetray.vision.calibration import build_calibration, calibrate_source
    from dicetray.vision.frames import open_source, read_image

    tray_points, ledge_points = _points(tray, "--tray"), _points(ledge, "--ledge")
    frame_size = _size(size)
    if source and (empty_paths or dice_paths):
        raise click.UsageError("give either --source or --empty/--dice images, not both")
    if not source and not dice_paths:
        raise click.UsageError("give --dice images (and --empty ones of the empty tray if you "
                               "have them), or a --source to take them from")
    obj = ctx.find_object(dict) or {}
    target = check_target(
        Path(out) if out else data_dir(data_dir_option or obj.get("data_dir")) / CALIBRATION_FILE,
        "--out" if out else "calibration")
    with _vision_errors():
        if source:
            with open_source(source, size=frame_size) as frames:
                calibration, report = calibrate_source(
                    frames, frames=shots, dice=count, ask=None if yes else _wait_for_enter,
                    tray=tray_points, ledge=ledge_points)
            names = [f"{source} frame {i}" for i in range(1, len(report.readings) + 1)]
        else:
            empty = [read_image(p) for p in _image_files(empty_paths)]
            dice_files = _image_files(dice_paths)
            dice_frames = [read_image(p) for p in dice_files]
            names = [str(p) for p in dice_files]
            calibration, report = build_calibration(empty, dice_frames, tray=tray_points,
                                                    ledge=ledge_points, dice=count)
        kept = report.status != "ok" and target.exists() and not force
        if not kept:
            calibration.save(target)
    if as_json:
        click.echo(json.dumps({
            "calibration": str(target),
            "written": not kept,
            "status": report.status,
            "dice_found": list(report.dice_found),
            "readings": [r.to_json(name) for r, name in zip(report.readings, names,
                                                              strict=False)],
            "problems": list(report.problems),
            "die_size": round(calibration.die_size, 1),
            "tray": [list(p) for p in calibration.tray],
            "ledge": None if calibration.ledge is None else [list(p) for p in calibration.ledge],
        }))
        return
    from dicetray.firmware.calibrating import summary_lines

    for line in summary_lines(calibration, report):  # the phone's calibration page shows these
        click.echo(line)
    if kept:
        click.echo(f"calibration NOT written: {target} is kept, as this one reads unsure "
                   "(fix the problems above, or --force to replace it)")
    else:
        click.echo(f"calibration written to {target}")
