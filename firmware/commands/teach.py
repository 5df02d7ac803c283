"""``dicetray teach``: the players confirm the dice in photos of the tray, and it learns them.

Each photo is read; for each die found the players confirm its value (Enter keeps the
value read, a digit 1-6 corrects it, ``s`` skips the die); the confirmed dice are added
to the teaching file (made if missing), which ``dicetray read --teaching FILE`` uses.
Without ``--teaching`` the file is the tray's own, ``teaching.json`` in the data directory
(``--data-dir``), which ``dicetray run`` reads with and adds the players' corrections to.
A teaching file that is damaged or foreign is refused with the reason, and left as it is.

``--from-corrections`` learns anew from every correction the tray stored (each with its
frame) in the data directory: for corrections made before the tray learnt in play, or
after its teaching was forgotten or refused. The file as it stands is moved aside to
``teaching.forgotten.json`` first.
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
@click.argument("images", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--teaching", "target", type=click.Path(dir_okay=False), default=None,
              help="Teaching file to add the confirmed dice to (made if missing; default: "
                   "the tray's own, teaching.json in the data directory).")
@click.option("--dice", type=click.IntRange(min=1), default=None, help="Number of dice.")
@click.option("--from-corrections", "from_corrections", is_flag=True,
              help="Learn anew from every correction the tray stored in the data directory "
                   "(the teaching file as it stands is moved aside); no IMAGE needed.")
@click.pass_context
def teach(ctx: click.Context, images: tuple[str, ...], target: str | None,
          dice: int | None, from_corrections: bool) -> None:
    """Confirm the dice in IMAGE... so the reader learns this tray's dice."""
    from dicetray.firmware.learning import TEACHING_FILE
    from dicetray.firmware.paths import ensure_data_dir

    folder = (ctx.obj or {}).get("data_dir")
    if not images and not from_corrections:
        raise click.UsageError("give the photos to confirm (IMAGE...), or --from-corrections")
    if images and from_corrections:
        raise click.UsageError("give photos or --from-corrections, not both")
    if target is None:
        try:
            path = ensure_data_dir(folder) / TEACHING_FILE
        except OSError as exc:
            raise click.ClickException(f"cannot use the data directory: {exc}") from None
    else:
        path = Path(target)
    if from_corrections:
        _relearn(folder, path)
    else:
        _confirm_photos(images, path, dice)


def _confirm_photos(images: tuple[str, ...], path: Path, dice: int | None) -> None:
    from dicetray.vision import read as read_frame
    from dicetray.vision.errors import TeachingError
    from dicetray.vision.imageio import ImageFileError, read_image
    from dicetray.vision.teaching import Teaching, confirmed

    try:
        teaching = Teaching.load(path) if path.exists() else Teaching()
    except TeachingError as exc:
        raise click.ClickException(str(exc)) from None
    before = len(teaching.examples)
    for name in images:
        try:
            frame = read_image(name)
        except ImageFileError as exc:
            click.echo(f"{name}: error ({exc.reason}), skipped")
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
        teaching.save(path)
    except OSError as exc:
        raise click.ClickException(f"{path}: cannot be written ({exc.strerror or exc})") from None
    click.echo(f"{path}: {len(teaching.examples) - before} dice learnt, "
               f"{len(teaching.examples)} in all")


def _relearn(folder: str | None, path: Path) -> None:
    """Learn anew from the corrections of the tray's store in ``folder``."""
    from dicetray.firmware.errors import TrayError
    from dicetray.firmware.learning import Die, Learning, Lesson, stored_frame
    from dicetray.firmware.paths import data_dir
    from dicetray.firmware.store import DATABASE, Store

    where = data_dir(folder)
    if not (where / DATABASE).is_file():
        raise click.ClickException(f"{where}: no tray's store here ({DATABASE}): "
                                   "give the tray's --data-dir")
    missing = 0

    def lessons(store: Store):
        nonlocal missing
        for correction in store.corrections():
            frame = stored_frame(correction.frame_path)
            if frame is None:
                missing += 1
                continue
            found = [Die.from_json(d) for d in correction.reading.get("dice", [])]
            yield Lesson(frame, tuple(d for d in found if d is not None),
                         tuple(correction.players))

    learning = Learning.load(path)
    try:
        with Store(where) as store:
            learning.relearn(lessons(store))
    except TrayError as exc:
        raise click.ClickException(str(exc)) from None
    if missing:
        click.echo(f"{missing} corrections skipped: their frame is gone")
    counts = " ".join(f"{v}:{n}" for v, n in learning.counts().items())
    click.echo(f"{path}: {learning.note}; kept per value {counts}")


teach.params.append(data_dir_option("the tray's teaching.json there, unless --teaching"))
