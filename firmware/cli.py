"""The ``dicetray`` command line: one group, subcommands by topic.

Each topic lives in :mod:`dicetray.firmware.commands`; heavy imports (OpenCV,
NumPy) happen inside the commands that need them, so ``dicetray rules`` works
on a bare install.
"""

from __future__ import annotations

import click

from dicetray.firmware.commands.calibrate import calibrate
from dicetray.firmware.commands.errors import OneLineGroup
from dicetray.firmware.commands.read import read
from dicetray.firmware.commands.rules import rules
from dicetray.firmware.commands.run import run
from dicetray.firmware.commands.teach import teach
from dicetray.firmware.paths import ENV_VAR


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--data-dir",
    envvar=ENV_VAR,
    type=click.Path(file_okay=False),
    default=None,
    help=f"Where games, calibration and frames are kept (env {ENV_VAR}).",
)
@click.version_option(package_name="dicetray")
@click.pass_context
def main(ctx: click.Context, data_dir: str | None) -> None:
    """dicetray: a dice tray for the Yahtzee family, real or simulated."""
    ctx.ensure_object(dict)
    ctx.obj["data_dir"] = data_dir


main.add_command(rules)
main.add_command(read)
main.add_command(calibrate)
main.add_command(run)
main.add_command(teach)


if __name__ == "__main__":  # python -m dicetray.firmware.cli
    main()
