"""The table's secrets: the key that signs the phones' session cookies, and the join code.

The key is made once, kept in the data directory as ``secret.key``, readable only by its
owner (mode 0600), and reused at every start so joined phones stay joined. The join code
is new at every start unless one is given.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> key = secret_key(folder)
>>> len(key), secret_key(folder) == key
(32, True)
>>> oct(os.stat(os.path.join(folder, "secret.key")).st_mode & 0o777)
'0o600'
>>> len(join_code()), join_code().isalnum()
(6, True)
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from dicetray.firmware.errors import StoreError

__all__ = ["KEY_FILE", "join_code", "secret_key"]

KEY_FILE = "secret.key"
#: Letters and digits a person reads and types without mistakes (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def secret_key(data_dir: str | os.PathLike[str]) -> bytes:
    """The table's signing key: made on first use, then read back (owner-only file)."""
    path = Path(data_dir) / KEY_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return _read_key(path)
        key = secrets.token_bytes(32)
        with os.fdopen(fd, "wb") as out:
            out.write(key)
            out.flush()
            os.fsync(out.fileno())
        return key
    except OSError as exc:
        raise StoreError(f"{path}: cannot keep the secret key ({exc.strerror or exc})") from None


def _read_key(path: Path) -> bytes:
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"{path}: the secret key is not a regular file")
    if info.st_mode & 0o077:
        os.chmod(path, 0o600)  # others must not read it; tighten rather than refuse
    key = path.read_bytes()
    if len(key) < 32:
        raise StoreError(f"{path}: the secret key is damaged ({len(key)} bytes); delete it "
                         "and start again (phones will join again)")
    return key


def join_code(length: int = 6) -> str:
    """A random join code, easy to read aloud and type."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
