"""`dicetray run` as a process: it says where to go, stops cleanly on SIGTERM, and says what
is missing when there is no hardware."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def dicetray(*args: str, data_dir) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "dicetray.firmware.cli", "--data-dir", str(data_dir), *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_sigterm_stops_the_simulated_tray_cleanly(tmp_path):
    process = dicetray("run", "--simulate", "--fast", "--host", "127.0.0.1", "--port", "0",
                       "--code", "TERM", "--seed", "2", data_dir=tmp_path)
    lines = []
    for line in process.stdout:
        lines.append(line)
        if "Ctrl-C" in line:
            break
    text = "".join(lines)
    assert "open on this machine:  http://localhost:" in text and "join code:             TERM" \
        in text
    os.kill(process.pid, signal.SIGTERM)
    rest, _ = process.communicate(timeout=30)
    assert process.returncode == 0, rest
    assert "the motor is off" in rest and "Traceback" not in rest
    assert (tmp_path / "secret.key").stat().st_mode & 0o077 == 0


def test_without_hardware_it_says_how_to_simulate(tmp_path):
    process = dicetray("run", "--port", "0", data_dir=tmp_path)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 1
    assert out.count("\n") == 1 and out.startswith("Error: ") and "--simulate" in out


def test_fast_without_simulate_is_a_usage_error_in_one_line(tmp_path):
    process = dicetray("run", "--fast", data_dir=tmp_path)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 1 and out.count("\n") == 1 and "--simulate" in out
