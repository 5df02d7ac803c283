"""The table service's interface: all the web layer may know of the tray.

:class:`~dicetray.firmware.table.Table` is the one implementation; the web app is given
one and calls only what :class:`TableService` lists. The errors a command can raise come
with it, each carrying the HTTP status it maps to.

>>> from dicetray.firmware.table import Table
>>> sorted(name for name in TableService.__dict__ if not name.startswith("_"))[:4]
['advice', 'analysis', 'calibration_status', 'camera_view']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from dicetray.firmware.coach import CoachReason
from dicetray.firmware.cycle import Trouble
from dicetray.firmware.errors import (
    AgainstRules,
    BadRequest,
    Busy,
    NotFound,
    NotJoined,
    NotReady,
    StaleVersion,
    StoreError,
    TableError,
    TrayError,
    WrongCode,
    error_code,
)

__all__ = [
    "AgainstRules",
    "BadRequest",
    "Busy",
    "CoachReason",
    "NotFound",
    "NotJoined",
    "NotReady",
    "StaleVersion",
    "StoreError",
    "TableError",
    "TableService",
    "TrayError",
    "Trouble",
    "WrongCode",
    "error_code",
]


class TableService(Protocol):
    """What the phones can ask of the table. Every command takes the ``version`` of the
    state it was decided on and answers the new state (JSON-ready)."""

    version: int
    #: The join code (the tray's own page shows it as a QR code to joined phones).
    code: str

    def state(self) -> dict[str, Any]: ...
    def wait(self, after: int, timeout: float) -> dict[str, Any] | None: ...
    def join(self, code: str, name: str) -> str: ...
    def new_game(self, version: int, ruleset: str, players: Sequence[str],
                 games: int | None = None) -> dict[str, Any]: ...
    def roll(self, version: int) -> dict[str, Any]: ...
    def keep(self, version: int, positions: Sequence[int]) -> dict[str, Any]: ...
    def declare(self, version: int, box: str, column: str | None = None) -> dict[str, Any]: ...
    def score(self, version: int, box: str | None,
              column: str | None = None) -> dict[str, Any]: ...
    def next_game(self, version: int) -> dict[str, Any]: ...
    def undo(self, version: int) -> dict[str, Any]: ...
    def correct(self, version: int, dice: Sequence[int]) -> dict[str, Any]: ...
    def rulesets(self) -> dict[str, Any]: ...
    def history(self) -> dict[str, Any]: ...
    def stats(self) -> dict[str, Any]: ...
    def frame(self, reading_id: int) -> Path | None: ...
    def view(self, reading_id: int) -> bytes | None: ...
    def advice(self, player: int | None = None) -> dict[str, Any]: ...
    def analysis(self, game_id: int | None = None) -> dict[str, Any]: ...
    # calibrating from a phone (the camera is refused with Busy while a roll uses it)
    def calibration_status(self) -> dict[str, Any]: ...
    def camera_view(self, zones: bool = True) -> bytes: ...
    def set_zones(self, version: int, tray: Any, ledge: Any) -> dict[str, Any]: ...
    def set_camera(self, version: int, exposure_us: Any,
                   lens_position: Any = None) -> dict[str, Any]: ...
    def capture_empty(self, version: int) -> dict[str, Any]: ...
    def save_calibration(self, version: int, force: bool = False) -> dict[str, Any]: ...
    # what the players taught the reader of their dice
    def teaching_status(self) -> dict[str, Any]: ...
    def forget_teaching(self, version: int) -> dict[str, Any]: ...
