"""What can go wrong in the tray, as one family of errors under :class:`TrayError`.

Every error the tray raises on purpose is a :class:`TrayError`; its message is one line a
player or builder can act on. The command line turns them into ``Error: ...`` lines and the
web layer into JSON ``{"error": ...}`` answers, each in one place.

>>> issubclass(CupStalled, DeviceError) and issubclass(DeviceError, TrayError)
True
>>> StaleVersion("the state has moved on to version 7").status
409

Each error also has a :attr:`~TrayError.code`: a stable word for what went wrong, which the
phones' pages turn into the phone's language (the message itself is English):

>>> StaleVersion("the state has moved on").code
'stale-version'
>>> Busy("nothing to correct: the tray is idle", code="nothing-to-correct").code
'nothing-to-correct'
"""

# ruff: noqa: N818  (names a player reads: CupStalled, StaleVersion, like rules.errors)

from __future__ import annotations

import re

__all__ = [
    "AgainstRules",
    "BadRequest",
    "Busy",
    "ConfigError",
    "CupStalled",
    "DeviceError",
    "NoHardware",
    "NotFound",
    "NotJoined",
    "NotReady",
    "StaleVersion",
    "StoreError",
    "TableError",
    "TrayError",
    "WrongCode",
    "error_code",
]


class TrayError(Exception):
    """Root of every error the tray raises on purpose.

    ``code`` names the case when the class alone does not (``Busy`` while rolling and
    ``Busy`` with a roll to check are different things to tell a player)."""

    def __init__(self, message: str = "", *, code: str | None = None) -> None:
        super().__init__(message)
        self._code = code

    @property
    def code(self) -> str:
        """What went wrong as one lower-case word with hyphens: the ``code`` given, else the
        class of the rules error behind it (a refused move says which rule), else this
        error's own class (``StaleVersion`` → ``stale-version``)."""
        if self._code:
            return self._code
        cause = self.__cause__
        if isinstance(self, AgainstRules) and cause is not None:
            return error_code(cause)
        return error_code(self)


class ConfigError(TrayError):
    """The tray's TOML config is missing a value, has a wrong one, or cannot be read."""


class DeviceError(TrayError):
    """A device (pin, motor, button, light) cannot be opened or does not answer."""


class NoHardware(DeviceError):
    """No GPIO hardware was found (run simulated instead)."""


class CupStalled(DeviceError):
    """The cup did not reach its home position in time (the motor has been stopped)."""


class StoreError(TrayError):
    """The event store (SQLite and its frame files) cannot be read or written."""


class TableError(TrayError):
    """A command the table cannot carry out; ``status`` is the HTTP status it maps to."""

    status = 400


class BadRequest(TableError):
    """A command with missing or malformed fields."""

    status = 400


class NotJoined(TableError):
    """Acting needs a joined session."""

    status = 401


class WrongCode(TableError):
    """The join code given is not the table's."""

    status = 403


class StaleVersion(TableError):
    """The command was decided on a state that has since changed."""

    status = 409


class Busy(TableError):
    """The roll cycle is running; the command must wait until it rests."""

    status = 409


class NotReady(TableError):
    """The tray cannot do it as things stand (calibrating: no camera, the empty tray not
    captured yet, no dice found in the frames); the message says what to do first."""

    status = 409


class AgainstRules(TableError):
    """The rules forbid the command (unknown box, box filled, not your turn)."""

    status = 422


class NotFound(TableError):
    """What was asked for is not there (a stored game that does not exist)."""

    status = 404


def error_code(error: BaseException | type[BaseException]) -> str:
    """An exception's class name (or an exception class's) as the hyphenated word the API
    answers with.

    >>> error_code(KeyError()), error_code(NoHardware)
    ('key-error', 'no-hardware')
    """
    kind = error if isinstance(error, type) else type(error)
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", kind.__name__).lower()
