"""``dicetray run``: start the tray and the web server the phones open.

Prints the address to open on this machine and the one phones on the network should open,
and the table's join code. ``--simulate`` builds the same tray from mock pins and the
rendered camera; ``--fast`` lets simulated time run as fast as the machine allows.
"""

from __future__ import annotations

import socket
from typing import Any

import click

from dicetray.firmware.commands.options import data_dir_option
from dicetray.firmware.paths import ensure_data_dir

__all__ = ["run"]

#: Threads of the WSGI server: each phone's live stream holds one while it is open, so a
#: table of 8 players with a second device each, plus the page's own requests, fits.
THREADS = 32
#: Open connections the server accepts: a phone's browser keeps up to six to the tray (it
#: loads the page's files in parallel, then keeps them alive), so waitress's default of
#: 100 let the 16th phone of a table hang on connecting (benchmarks/pages.py, 20 phones).
CONNECTIONS = 500


@click.command("run")
@click.option("--simulate", is_flag=True, help="Mock pins and the rendered camera: no hardware.")
@click.option("--fast", is_flag=True, help="With --simulate: no waiting for tumbles to end.")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", type=click.IntRange(0, 65535), default=8080, show_default=True)
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=None,
              help="Seed of the simulated dice (a reproducible session).")
@click.option("--code", default=None, help="The table's join code (random when not given).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="The tray's TOML config (pins, tumble pattern, camera).")
@click.pass_context
def run(ctx: click.Context, simulate: bool, fast: bool, host: str, port: int,
        seed: int | None, code: str | None, config_file: str | None) -> None:
    """Start the tray and its web page for the phones at the table."""
    from waitress import create_server

    from dicetray.firmware.errors import TrayError
    from dicetray.firmware.secret import secret_key
    from dicetray.firmware.shutdown import stop_on_signals
    from dicetray.firmware.tray import open_tray
    from dicetray.vision.errors import VisionError
    from dicetray.web.app import create_app, stop

    if fast and not simulate:
        raise click.UsageError("--fast only makes sense with --simulate")
    if code is not None and not (4 <= len(code) <= 32 and code.isalnum()):
        raise click.BadParameter("4 to 32 letters or digits", param_hint="--code")
    folder = ensure_data_dir((ctx.obj or {}).get("data_dir"))
    try:
        tray = open_tray(folder, config_file=config_file, simulate=simulate, fast=fast,
                         seed=seed, code=code)
    except (TrayError, VisionError) as exc:
        raise click.ClickException(" ".join(str(exc).split())) from None
    servers: list[Any] = []
    app: Any = None  # set before the first server is
    try:
        # the stops first: a SIGTERM while starting up also stops the motor and ends cleanly;
        # the live streams and camera views end before the server is closed
        with stop_on_signals(tray.rig.cup.stop, lambda: [stop(app, s) for s in servers]):
            app = create_app(tray.table, secret_key=secret_key(folder))
            try:
                servers.append(create_server(app, host=host, port=port, threads=THREADS,
                                             connection_limit=CONNECTIONS, channel_timeout=60,
                                             ident="dicetray"))
            except OSError as exc:
                raise click.ClickException(
                    f"cannot listen on {host}:{port} ({exc.strerror})") from None
            _announce(servers[0], host, tray, simulate)
            servers[0].run()
    except (KeyboardInterrupt, SystemExit):  # Ctrl-C or SIGTERM: a clean stop
        pass  # (a signal may also end server.run() by closing the server: the same stop)
    except TrayError as exc:  # the secret key cannot be kept, say
        raise click.ClickException(" ".join(str(exc).split())) from None
    finally:
        tray.close()
    click.echo("dicetray: stopped; the motor is off.")


run.params.append(data_dir_option())


def _announce(server: Any, host: str, tray: Any, simulate: bool) -> None:
    port = server.effective_port
    what = "simulated tray" if simulate else "tray"
    click.echo(f"dicetray: {what} running; data in {tray.data_dir}")
    click.echo(f"  open on this machine:  http://localhost:{port}/")
    for address in _lan_addresses() if host in ("0.0.0.0", "::", "") else [host]:
        click.echo(f"  open on a phone:       http://{address}:{port}/")
    click.echo(f"  join code:             {tray.table.code}")
    if tray.table.cycle.manual:
        click.echo(f"  camera: {tray.table.cycle.why} (dice are entered on the phone)")
    click.echo("Ctrl-C stops the tray.")


def _lan_addresses() -> list[str]:
    """This machine's addresses other phones can reach (never loopback)."""
    name = socket.gethostname()
    try:
        found = socket.getaddrinfo(name, None, socket.AF_INET)
    except OSError:
        found = []
    addresses = sorted({info[4][0] for info in found if not info[4][0].startswith("127.")})
    return addresses or [f"{name}.local"]
