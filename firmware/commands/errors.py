"""How the ``dicetray`` command line fails: one ``Error: ...`` line and exit status 1.

Click reports a usage mistake (an unknown option, a missing or malformed value) with a
usage block and status 2; :class:`OneLineGroup`, the class of the root ``dicetray``
group, turns every such mistake of every command into one line instead, naming the
help to read. It also turns what the operating system refuses while a command runs (a
full disk, a folder that cannot be written) into one line, so no command ends in a
traceback for it. :func:`check_target` lets a command check where it will write before
it does any work.

>>> import click
>>> from click.testing import CliRunner
>>> @click.group(cls=OneLineGroup)
... def tool() -> None:
...     pass
>>> @tool.command()
... @click.option("--count", type=int)
... def go(count: int) -> None:
...     raise OSError(28, "No space left on device", "out.json")
>>> result = CliRunner().invoke(tool, ["go", "--count", "many"])
>>> result.exit_code, result.output
(1, "Error: Invalid value for '--count': 'many' is not a valid integer. (see tool go --help)\\n")
>>> result = CliRunner().invoke(tool, ["go"])
>>> result.exit_code, result.output
(1, 'Error: out.json: No space left on device\\n')
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any

import click

__all__ = ["OneLineGroup", "check_target", "one_line", "os_message", "shown"]


def shown(path: str | os.PathLike[str] | bytes) -> str:
    """A path as one printable line: bytes that are not UTF-8 and control characters
    (a newline in a file name) appear as ``\\x..`` escapes.

    >>> print(shown(os.fsdecode(b"roll\\xff\\n.png")))
    roll\\xff\\x0a.png
    """
    text = os.fsencode(path).decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def one_line(exc: click.UsageError) -> click.ClickException:
    """A usage mistake as a one-line error that names the command's help."""
    message = " ".join(exc.format_message().split())
    if exc.ctx is not None:
        message += f" (see {exc.ctx.command_path} --help)"
    return click.ClickException(message)


def os_message(exc: OSError) -> str:
    """What the operating system refused, with the file it concerned, as one line."""
    why = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is not None:
        return f"{shown(exc.filename)}: {why}"
    return why


class OneLineGroup(click.Group):
    """A group whose commands never end in a usage block or an OS traceback."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:
            raise one_line(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as exc:
            raise one_line(exc) from None
        except BrokenPipeError:  # `dicetray ... | head`: the reader has all it wanted
            with contextlib.suppress(OSError, ValueError):  # nothing left to flush at exit
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None
        except OSError as exc:
            raise click.ClickException(os_message(exc)) from None
        except MemoryError:
            raise click.ClickException("out of memory") from None


def check_target(path: str | os.PathLike[str], what: str, folder: bool = False) -> Path:
    """``path`` when a file (or with ``folder``, a folder) can be written there.

    Checked before a command does its work, so a wrong ``--out`` does not waste it: the
    target must not be a folder (a file, with ``folder``), and the nearest folder that
    exists on the way to it must be a writable folder (the missing ones are created when
    the file is written). Raises a one-line :class:`click.ClickException` otherwise.

    >>> check_target("/etc/passwd/calibration.json", "--out")
    Traceback (most recent call last):
    ...
    click.exceptions.ClickException: --out /etc/passwd/calibration.json: /etc/passwd is a file, ...
    """
    target = Path(path)

    def refuse(why: str) -> click.ClickException:
        return click.ClickException(f"{what} {shown(target)}: {why}")

    try:
        if target.exists():
            if target.is_dir() != folder:
                raise refuse("is a folder" if not folder else "is a file, not a folder")
            if not os.access(target, os.W_OK):
                raise refuse("cannot be written (permission denied)")
            return target
        parent = target.absolute().parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            raise refuse(f"{shown(parent)} is a file, not a folder")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise refuse(f"cannot create it in {shown(parent)} (permission denied)")
    except (OSError, ValueError) as exc:  # a name too long, a NUL byte
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise refuse(why) from None
    return target
