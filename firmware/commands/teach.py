"""``dicetray teach``: the players confirm the dice in photos of the tray, and it learns them.

Each photo is read; for each die found the players confirm its value (Enter keeps the
value read, a digit 1-6 corrects it, ``s`` skips the die); the confirmed dice are added
to the teaching file (made if missing), which ``dicetray read --teaching FILE`` uses.
Without ``--teaching`` the file is the tray's own, ``teaching.json`` in the data directory
(``--data-dir``), which ``dicetray run`` reads with and adds the players' corrections to.
A teaching file that is damaged or foreign is refused with the reason, and left as it is.
"""

from __future__ import annotations

from pathlib import Path

import click

from dicetray.firmware.commands.options import data_dir_option


def _confirm(value: int, where: str) -> int | None:
    """The value the players confirm for a die read as ``value`` (None: skipped)."""
    while True:
        answer = click.prompt(f"  die at {where} reads {value}: value (Enter keeps it, "
                              "s skips)", default=str(value), show_default=False).strip()
        if answer.lower() == "s":
            return None
        if answer in {"1", "2", "3", "4", "5", "6"}:
            return int(answer)
        click.echo("  a die shows 1 to 6 (or s to skip)")


@click.command("teach")
@click.argument("images", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--teaching", "target", type=click.Path(dir_okay=False), default=None,
              help="Teaching file to add the confirmed dice to (made if missing; default: "
                   "the tray's own, teaching.json in the data directory).")
@click.option("--dice", type=click.IntRange(min=1), default=None, help="Number of dice.")
@click.pass_context
def teach(ctx: click.Context, images: tuple[str, ...], target: str | None,
          dice: int | None) -> None:
    """Confirm the dice in IMAGE... so the reader learns this tray's dice."""
    import cv2

    from dicetray.firmware.learning import TEACHING_FILE, write_teaching
    from dicetray.firmware.paths import ensure_data_dir
    from dicetray.vision import read as read_frame
    from dicetray.vision.errors import TeachingError
    from dicetray.vision.teaching import Teaching, confirmed

    if target is None:
        folder = (ctx.obj or {}).get("data_dir")
        try:
            path = ensure_data_dir(folder) / TEACHING_FILE
        except OSError as exc:
            raise click.ClickException(f"cannot use the data directory: {exc}") from None
    else:
        path = Path(target)
    try:
        teaching = Teaching.load(path) if path.exists() else Teaching()
    except TeachingError as exc:
        raise click.ClickException(str(exc)) from None
    before = len(teaching.examples)
    for name in images:
        frame = cv2.imread(name, cv2.IMREAD_COLOR) if Path(name).is_file() else None
        if frame is None:
            click.echo(f"{name}: error (not a readable image), skipped")
            continue
        reading = read_frame(frame, None, dice, teaching=teaching)
        click.echo(f"{name}: {len(reading.dice)} dice found")
        kept, values = [], []
        for die in reading.dice:
            value = _confirm(die.value, f"({die.x:.0f}, {die.y:.0f})")
            if value is not None:
                kept.append(die)
                values.append(value)
        for event in confirmed(frame, kept, values):
            teaching = teaching.apply(event)
    try:
        write_teaching(teaching, path)
    except OSError as exc:
        raise click.ClickException(f"{path}: cannot be written ({exc.strerror or exc})") from None
    click.echo(f"{path}: {len(teaching.examples) - before} dice learnt, "
               f"{len(teaching.examples)} in all")


teach.params.append(data_dir_option("the tray's teaching.json there, unless --teaching"))
