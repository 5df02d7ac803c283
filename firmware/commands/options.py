"""Options every ``dicetray`` command shares.

>>> import click
>>> @click.command()
... @click.pass_context
... def hello(ctx: click.Context) -> None:
...     click.echo(ctx.obj["data_dir"])
>>> hello.params.append(data_dir_option("unused by hello"))
>>> from click.testing import CliRunner
>>> CliRunner().invoke(hello, ["--data-dir", "/srv/tray"], obj={}).output
'/srv/tray\\n'
"""

from __future__ import annotations

import click

__all__ = ["data_dir_option"]


def _remember_data_dir(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.ensure_object(dict)["data_dir"] = value


def data_dir_option(note: str = "") -> click.Option:
    """``--data-dir`` after the command name, overriding the group's (``note`` for help)."""
    extra = f"; {note}" if note else ""
    return click.Option(["--data-dir"], type=click.Path(file_okay=False), expose_value=False,
                        callback=_remember_data_dir,
                        help=f"Data directory (overrides the group option{extra}).")
