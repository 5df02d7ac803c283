"""Run the command line and the loaders in a child process under hard limits.

Every fuzz case runs in a subprocess whose address space is capped at
:data:`MEMORY_LIMIT` (1 GiB: a normal ``dicetray read`` or ``calibrate --source sim``
peaks near 110 MB and 280 MB resident, and runs under this limit) and which must end
within :data:`TIME_LIMIT` seconds (a batch of inputs is fed to one child, so the bound
covers the whole batch). A hostile input that asks for gigabytes makes the child fail
to allocate, and one that hangs makes it time out: both fail the test.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

MEMORY_LIMIT = 1 << 30  # bytes of address space for the child
TIME_LIMIT = 60  # seconds for one child (one command, or one batch of inputs)
WORKER = Path(__file__).with_name("worker.py")
CLI = "from dicetray.firmware.cli import main; main(prog_name='dicetray')"

Arg = str | bytes | os.PathLike[str]


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # with RLIMIT_FSIZE (a full disk, in small), a write fails with EFBIG instead of a kill
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


@dataclass(frozen=True)
class Finished:
    """How a child ended: exit status and what it printed."""

    status: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return (self.out + self.err).splitlines()

    def assert_one_error_line(self, *needles: str) -> None:
        """Status 1 and, on stderr, exactly one ``Error: ...`` line (and no traceback)."""
        assert self.status == 1, (self.status, self.out, self.err)
        assert self.err.startswith("Error: ") and self.err.count("\n") == 1, self.err
        for needle in needles:
            assert needle in self.err, (needle, self.err)


def _run(argv: Sequence[Arg], cwd: Path, extra: dict[str, int] | None = None) -> Finished:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONFAULTHANDLER": ""}
    limits: Callable[[], None] = _limit
    if extra:
        def limits() -> None:
            _limit()
            for name, value in extra.items():
                limit = getattr(resource, name)
                resource.setrlimit(limit, (value, value))

    proc = subprocess.run(list(argv), cwd=cwd, env=env, preexec_fn=limits,
                          capture_output=True, timeout=TIME_LIMIT, check=False)
    out = proc.stdout.decode("utf-8", "backslashreplace")
    err = proc.stderr.decode("utf-8", "backslashreplace")
    assert proc.returncode >= 0, f"killed by signal {-proc.returncode}: {err[-2000:]}"
    assert "Traceback" not in out + err, err[-3000:]
    return Finished(proc.returncode, out, err)


@pytest.fixture
def dicetray(tmp_path: Path) -> Callable[..., Finished]:
    """``dicetray(*args, limits={...})`` runs the command line in a limited child."""

    def run(*args: Arg, limits: dict[str, int] | None = None) -> Finished:
        return _run([sys.executable, "-c", CLI, *args], tmp_path, limits)

    return run


@pytest.fixture
def load_each() -> Callable[[str, Sequence[Arg]], list[dict[str, Any]]]:
    """``load_each(loader, paths)``: each input's outcome, loaded in one limited child."""

    def run(kind: str, paths: Sequence[Arg]) -> list[dict[str, Any]]:
        finished = _run([sys.executable, str(WORKER), kind, *paths], WORKER.parent)
        outcomes = [json.loads(line) for line in finished.out.splitlines()]
        crashes = [o for o in outcomes if o["outcome"] == "crash"]
        assert not crashes, crashes
        assert finished.status == 0 and len(outcomes) == len(paths), finished
        return outcomes

    return run


@pytest.fixture(scope="session")
def bomb_png() -> bytes:
    """A 4 KB PNG declaring 32000 x 32000 grey pixels (3 GB once decoded; the issue's
    bomb was 124 KB with every row there, and decoders allocate from the header alike)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    side = 32_000
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00" * (side + 1) * 8)) + chunk(b"IEND", b""))
