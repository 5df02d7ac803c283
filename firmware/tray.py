"""The tray put together: config, devices, camera, calibration, store and table.

:func:`open_tray` is the one place the parts meet (``dicetray run`` and the end-to-end
tests call it); everything it builds is closed again by :meth:`Tray.close`, the motor
first.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicetray.firmware.calibrating import Calibrating
from dicetray.firmware.coach import Runner, TableLoader, start_daemon
from dicetray.firmware.config import TrayConfig, load_config
from dicetray.firmware.learning import SIMULATED_TEACHING_FILE, TEACHING_FILE, Learning
from dicetray.firmware.rig import Rig, build_rig
from dicetray.firmware.secret import join_code
from dicetray.firmware.store import Store
from dicetray.firmware.table import Reader, Table, start_thread

__all__ = ["CALIBRATION_FILE", "Tray", "open_tray"]

CALIBRATION_FILE = "calibration.json"


@dataclass
class Tray:
    """A running tray: its devices, its table and its store."""

    rig: Rig
    store: Store
    table: Table
    config: TrayConfig
    data_dir: Path

    def close(self) -> None:
        """Stop the motor, then let every device, the camera and the database go."""
        try:
            self.rig.close()
        finally:
            self.store.close()


def open_tray(
    data_dir: str | os.PathLike[str],
    *,
    config: TrayConfig | None = None,
    config_file: str | os.PathLike[str] | None = None,
    simulate: bool = False,
    fast: bool = False,
    seed: int | None = None,
    code: str | None = None,
    reader: Reader | None = None,
    calibration: Any = None,
    calibration_file: str | os.PathLike[str] | None = None,
    teaching_file: str | os.PathLike[str] | None = None,
    run: Any = start_thread,
    advisor_loader: TableLoader | None = None,
    advisor_run: Runner = start_daemon,
) -> Tray:
    """Build the tray: a :class:`~dicetray.firmware.errors.TrayError` (or a vision error) if
    a part cannot be had, with everything opened so far closed again. A ``calibration``
    given is used as it is (else the data directory's, or the simulated tray's own).
    ``calibration_file`` is where the calibration is kept and a phone's calibration saved
    (the data directory's ``calibration.json``, or the simulated tray's own file); given,
    it is read as a real tray's is: missing or damaged, the tray runs uncalibrated and the
    phones are told why. ``teaching_file`` is what the players taught the reader (the data
    directory's ``teaching.json``, the simulated tray's ``teaching.sim.json``): damaged
    or foreign, it is left as it is and the tray reads untaught, saying why."""
    folder = Path(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    config = config or load_config(config_file)
    seed = random.randrange(2**31) if seed is None else seed
    holder: dict[str, Table] = {}
    rig = build_rig(config, simulate=simulate, fast=fast, seed=seed,
                    on_press=lambda: _tell(holder, "press"),
                    on_hold=lambda: _tell(holder, "hold"))
    store = None
    try:
        calibrating = _calibrating(rig, folder, seed, config, calibration, calibration_file)
        if teaching_file is None:
            teaching_file = folder / (SIMULATED_TEACHING_FILE if rig.simulated else TEACHING_FILE)
        learning = Learning.load(teaching_file)
        store = Store(folder)
        store.tidy_frames()  # frames a crash left without their reading
        table = Table(store=store, code=code or join_code(), rig=rig, reader=reader,
                      config=config, run=run, rng=random.Random(seed),
                      advisor_dir=folder / "advisor", calibrating=calibrating,
                      learning=learning,
                      advisor_loader=advisor_loader, advisor_run=advisor_run)
    except BaseException:
        rig.close()
        if store is not None:
            store.close()
        raise
    holder["table"] = table
    return Tray(rig, store, table, config, folder)


def _tell(holder: dict[str, Table], what: str) -> None:
    table = holder.get("table")
    if table is not None:
        getattr(table, what)()


def _calibrating(rig: Rig, folder: Path, seed: int, config: TrayConfig, calibration: Any,
                 path: str | os.PathLike[str] | None) -> Calibrating:
    """The camera's calibration and where it is kept: a real tray's is the data directory's
    (missing or damaged: the tray runs uncalibrated and says why); the simulated tray
    calibrates itself from its own frames the first time a seed is used (its scene comes
    from the seed) and keeps that calibration beside the real one's."""
    from dicetray.vision.calibration import Calibration, calibrate_source
    from dicetray.vision.errors import CalibrationError

    size = rig.camera.size if rig.camera is not None else config.camera.size
    if path is None and rig.simulated:
        width, height = config.camera.size
        path = folder / f"calibration.sim-{seed}-{width}x{height}.json"
        if calibration is None and rig.camera is not None:
            try:
                calibration = Calibration.load(path) if Path(path).exists() else None
            except CalibrationError:
                calibration = None  # damaged: make it again
            if calibration is None:
                calibration, _ = calibrate_source(rig.camera, dice=5)
                calibration.save(path)
    path = Path(path) if path is not None else folder / CALIBRATION_FILE
    if calibration is not None:
        return Calibrating(path, calibration=calibration, image_size=size)
    return Calibrating.load(path, image_size=size)
