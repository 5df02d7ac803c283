"""Where the tray keeps its files (games, calibration, captured frames).

The data directory is, in order: the ``--data-dir`` option, the
``DICETRAY_DATA_DIR`` environment variable, ``$XDG_DATA_HOME/dicetray``,
``~/.local/share/dicetray``.

>>> import os
>>> os.environ["DICETRAY_DATA_DIR"] = "/tmp/dt-example"
>>> str(data_dir())
'/tmp/dt-example'
>>> str(data_dir("/srv/tray"))
'/srv/tray'
>>> del os.environ["DICETRAY_DATA_DIR"]
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "DICETRAY_DATA_DIR"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """Return the data directory (not created; see :func:`ensure_data_dir`)."""
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "dicetray"


def ensure_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """Return the data directory, creating it when missing."""
    path = data_dir(explicit)
    path.mkdir(parents=True, exist_ok=True)
    return path
