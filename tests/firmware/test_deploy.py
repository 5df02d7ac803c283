"""The Pi install script's dry run (every step printed, none run) and the systemd unit."""

from __future__ import annotations

import configparser
import os
import shlex
import subprocess
from importlib import resources
from pathlib import Path

import pytest

DEPLOY = resources.files("dicetray.firmware.deploy")
SCRIPT = Path(str(DEPLOY / "install.sh"))
UNIT = Path(str(DEPLOY / "dicetray.service"))
REPO = Path(__file__).resolve().parents[2]
STUBBED = ("apt-get", "systemctl", "useradd", "usermod", "install", "pip", "pip3", "chmod")


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[list[str]], str, Path]:
    """The dry run's commands (each ``+`` line split as a shell would), its whole output,
    and the log every stubbed system command would have written had it run."""
    stubs = tmp_path_factory.mktemp("stubs")
    log = stubs / "ran.log"
    for name in STUBBED:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> {log}\n')
        stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--source", str(REPO)],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    commands = [shlex.split(line[2:], comments=True) for line in done.stdout.splitlines()
                if line.startswith("+ ") and not line.startswith("+ write ")]
    return commands, done.stdout, log


def find(commands: list[list[str]], *words: str) -> list[list[str]]:
    return [c for c in commands if all(w in c for w in words)]


class TestDryRun:
    def test_runs_nothing(self, dry_run) -> None:
        _, _, log = dry_run
        assert not log.exists()

    def test_apt_installs_the_pi_packages(self, dry_run) -> None:
        commands, _, _ = dry_run
        assert find(commands, "apt-get", "update")
        (apt,) = find(commands, "apt-get", "install")
        assert {"python3-picamera2", "python3-opencv", "python3-numpy", "python3-lgpio",
                "python3-venv"} <= set(apt)

    def test_the_venv_sees_the_system_packages(self, dry_run) -> None:
        commands, _, _ = dry_run
        (venv,) = find(commands, "venv")
        assert venv[1:] == ["-m", "venv", "--system-site-packages", "/opt/dicetray/venv"]

    def test_pip_never_installs_numpy_or_opencv(self, dry_run) -> None:
        commands, output, _ = dry_run
        pips = [c for c in commands if c[0].endswith("/pip")]
        assert len(pips) == 2
        for pip in pips:
            assert not any("numpy" in arg.lower() or "opencv" in arg.lower() for arg in pip)
        (package,) = [p for p in pips if str(REPO) in p]
        assert "--no-deps" in package
        (deps,) = [p for p in pips if "--constraint" in p]
        constraints = deps[deps.index("--constraint") + 1]
        assert constraints == "/opt/dicetray/constraints.txt"
        assert {"click>=8.1", "gpiozero>=2.0", "flask>=3.0", "waitress>=3.0"} <= set(deps)
        written = output.split(f"+ write {constraints}")[1]
        assert "numpy==" in written and "opencv-python<0" in written
        assert "opencv-python-headless<0" in written

    def test_the_pure_python_dependencies_match_pyproject(self, dry_run) -> None:
        import tomllib

        commands, _, _ = dry_run
        (deps,) = [c for c in commands if "--constraint" in c]
        declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
        pure = {d.replace(" ", "") for d in declared["dependencies"] if ";" not in d}
        assert pure <= set(deps)

    def test_numpy_and_opencv_are_checked_to_come_from_apt(self, dry_run) -> None:
        commands, _, _ = dry_run
        for module in ("numpy", "cv2"):
            (check,) = [c for c in commands if c[0] == "/opt/dicetray/venv/bin/python"
                        and f"import {module};" in c[2]]
            assert check[1] == "-c"
        _, output, _ = dry_run
        assert output.count("# must be under /usr/lib/") == 2

    def test_an_unprivileged_user_in_gpio_and_video(self, dry_run) -> None:
        commands, _, _ = dry_run
        (user,) = find(commands, "useradd")
        assert "--system" in user and user[-1] == "dicetray"
        assert user[user.index("--shell") + 1] == "/usr/sbin/nologin"
        (groups,) = find(commands, "usermod")
        assert groups[groups.index("--groups") + 1] == "gpio,video" and groups[-1] == "dicetray"

    def test_data_dir_and_config_kept_if_present(self, dry_run) -> None:
        commands, output, _ = dry_run
        assert find(commands, "install", "-d", "/var/lib/dicetray")
        (config,) = find(commands, "/etc/dicetray/config.toml")
        assert config[-2] == str(REPO / "firmware" / "deploy" / "config.toml")
        assert "only when /etc/dicetray/config.toml does not exist yet" in output

    def test_the_unit_is_installed_enabled_and_started(self, dry_run) -> None:
        commands, _, _ = dry_run
        (unit,) = find(commands, "/etc/systemd/system/dicetray.service")
        assert unit[0] == "install" and unit[-2].endswith("firmware/deploy/dicetray.service")
        order = [" ".join(c) for c in commands if c[0] == "systemctl"]
        assert order == ["systemctl daemon-reload", "systemctl enable dicetray.service",
                         "systemctl restart dicetray.service"]
        assert commands.index(unit) < commands.index(["systemctl", "daemon-reload"])

    def test_apt_comes_before_the_venv_and_pip(self, dry_run) -> None:
        commands, _, _ = dry_run
        firsts = [c[0].rsplit("/", 1)[-1] for c in commands]
        assert firsts.index("apt-get") < firsts.index("python3") < firsts.index("pip")


class TestScript:
    def test_unknown_options_and_a_wrong_source_are_refused(self, tmp_path: Path) -> None:
        done = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--frobnicate"],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 2 and "unknown option --frobnicate" in done.stderr
        done = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--source", str(tmp_path)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 2 and "not a dicetray checkout" in done.stderr

    def test_installs_the_checkout_it_lives_in_by_default(self) -> None:
        done = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, done.stderr
        checkout = SCRIPT.resolve().parents[2]
        assert f"pip install --no-deps {checkout}\n" in done.stdout

    def test_is_valid_bash(self) -> None:
        assert subprocess.run(["bash", "-n", str(SCRIPT)], check=False).returncode == 0


@pytest.fixture(scope="module")
def unit() -> configparser.ConfigParser:
    """The installed systemd unit, parsed once."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  (keys keep case)
    parser.read_string(UNIT.read_text())
    return parser


class TestUnit:

    def test_runs_the_tray_with_the_installed_config(self, unit) -> None:
        assert unit["Service"]["ExecStart"] == (
            "/opt/dicetray/venv/bin/dicetray run --config /etc/dicetray/config.toml")

    def test_as_the_unprivileged_user_with_pins_and_camera(self, unit) -> None:
        service = unit["Service"]
        assert service["User"] == "dicetray"
        assert set(service["SupplementaryGroups"].split()) == {"gpio", "video"}

    def test_restarts_on_failure_and_stops_with_sigterm(self, unit) -> None:
        service = unit["Service"]
        assert service["Restart"] == "on-failure"
        assert service["KillSignal"] == "SIGTERM"
        assert "143" in service["SuccessExitStatus"].split()

    def test_a_writable_working_directory_and_runtime_directory_for_lgpio(self, unit) -> None:
        service = unit["Service"]
        assert service["WorkingDirectory"] == "/var/lib/dicetray"
        assert service["StateDirectory"] == "dicetray"  # systemd makes it, owned by User
        assert service["RuntimeDirectory"] == "dicetray"  # $RUNTIME_DIRECTORY for LG_WD
        assert "Environment=DICETRAY_DATA_DIR=/var/lib/dicetray" in UNIT.read_text()

    def test_starts_at_boot_after_the_network(self, unit) -> None:
        assert unit["Install"]["WantedBy"] == "multi-user.target"
        assert "network-online.target" in unit["Unit"]["After"]


def test_every_package_of_the_tree_is_installed() -> None:
    """A package left out of pyproject's list works in the editable install the tests use
    but is missing from the Pi's (the coach's solver was, once)."""
    import tomllib

    setup = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    roots = {folder: package for package, folder in setup["package-dir"].items()}
    found = set()
    for folder, package in roots.items():
        for init in (REPO / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(REPO / folder).parts
            found.add(".".join((package, *parts)))
    assert found == set(setup["packages"])
