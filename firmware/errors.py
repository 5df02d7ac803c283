"""What can go wrong in the tray, as one family of errors under :class:`TrayError`.

Every error the tray raises on purpose is a :class:`TrayError`; its message is one line a
player or builder can act on. The command line turns them into ``Error: ...`` lines and the
web layer into JSON ``{"error": ...}`` answers, each in one place.

>>> issubclass(CupStalled, DeviceError) and issubclass(DeviceError, TrayError)
True
>>> StaleVersion("the state has moved on to version 7").status
409
"""

# ruff: noqa: N818  (names a player reads: CupStalled, StaleVersion, like rules.errors)

from __future__ import annotations

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
]


class TrayError(Exception):
    """Root of every error the tray raises on purpose."""


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
