"""The gpiozero pin factory every device is built on, chosen from the config.

Devices never use gpiozero's global default factory: :func:`pin_factory` makes one and the
tray passes it to each device as ``pin_factory=``.

- simulated (``--simulate`` or ``factory = "mock"``): a ``MockFactory`` of PWM-capable mock
  pins, so motors and LEDs can be driven at any speed or brightness;
- ``lgpio`` (the Pi 4 and Pi 5 on Raspberry Pi OS Bookworm): gpiozero's ``LGPIOFactory``;
- ``auto``: lgpio on a Raspberry Pi; anywhere else :class:`NoHardware` saying how to
  simulate.

Two things the lgpio factory needs that gpiozero 2.0.1 does not handle, handled here:

- **the right gpiochip on a Pi 5.** The header's pins belong to the RP1 chip, which the
  kernel numbered gpiochip4 until 6.6.45 and gpiochip0 since (gpiozero 2.0.1 still
  picks 4 whenever /dev/gpiochip4 exists, which newer kernels keep only as a link, or
  not at all). The chip is found by its label (``pinctrl-rp1`` on a Pi 5,
  ``pinctrl-bcm2711`` on a Pi 4, ``pinctrl-bcm2835`` before), see :func:`header_chip`.
- **a writable working directory.** Importing lgpio makes a notification pipe
  ``.lgd-nfyN``: the C library in ``$LG_WD`` (else the working directory), the Python
  module opening it again relative to the working directory. Started by systemd from
  ``/`` as an unprivileged user, the import fails. So ``LG_WD`` is set to a writable
  directory and the import runs with that directory as the working directory (the
  previous one restored right after).

>>> factory = pin_factory(GpioConfig(), simulate=True)
>>> type(factory).__name__, factory.pin(17).frequency is None
('MockFactory', True)
>>> header_chip({0: "gpio-brcmstb@107d508500", 4: "pinctrl-rp1"})
4
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from dicetray.firmware.config import GpioConfig, GpioFactory
from dicetray.firmware.errors import DeviceError, NoHardware

__all__ = [
    "HEADER_CHIP_LABELS",
    "header_chip",
    "lgpio_workdir",
    "on_a_pi",
    "open_device",
    "pin_factory",
]

HEADER_CHIP_LABELS = ("pinctrl-rp1", "pinctrl-bcm2712", "pinctrl-bcm2711", "pinctrl-bcm2835")
"""Labels of the gpiochip wired to the 40-pin header (Pi 5, Pi 5's SoC, Pi 4, Pi 0-3)."""

MODEL_FILE = Path("/proc/device-tree/model")

SIMULATE_HINT = "run `dicetray run --simulate` to play with a simulated tray"


def pin_factory(config: GpioConfig, *, simulate: bool = False,
                model_file: Path = MODEL_FILE,
                chip_labels: Callable[[], Mapping[int, str]] | None = None) -> Any:
    """The gpiozero pin factory for ``config`` (mock pins when ``simulate``).

    ``model_file`` is where the board says what it is (the device tree's model);
    ``chip_labels`` lists the gpiochips by number (default: asked of lgpio).
    """
    if simulate or config.factory is GpioFactory.MOCK:
        return MockFactory(pin_class=MockPWMPin)
    if config.factory is GpioFactory.AUTO:
        model = on_a_pi(model_file)
        if model is None:
            raise NoHardware(f"no Raspberry Pi GPIO here ({model_file} does not name a "
                             f"Raspberry Pi): {SIMULATE_HINT}")
    return _open_lgpio(config, chip_labels)


def on_a_pi(model_file: Path = MODEL_FILE) -> str | None:
    """The board's model when it is a Raspberry Pi, else None.

    >>> on_a_pi(Path("/nonexistent/model")) is None
    True
    """
    try:
        model = model_file.read_bytes().decode("utf-8", "replace").strip("\x00\n ")
    except OSError:
        return None
    return model if "raspberry pi" in model.lower() else None


def header_chip(labels: Mapping[int, str]) -> int:
    """The number of the gpiochip wired to the header, from every chip's label.

    >>> header_chip({0: "pinctrl-rp1", 10: "gpio-brcmstb@107d508500"})  # Pi 5, kernel 6.6.45+
    0
    >>> header_chip({0: "pinctrl-bcm2711", 1: "raspberrypi-exp-gpio"})  # Pi 4
    0
    >>> header_chip({})
    0
    """
    for wanted in HEADER_CHIP_LABELS:
        for number in sorted(labels):
            if labels[number] == wanted:
                return number
    return 0


def lgpio_workdir(config: GpioConfig, environ: Mapping[str, str] | None = None) -> Path:
    """The writable directory lgpio keeps its pipes in: the config's ``workdir``, else
    ``$RUNTIME_DIRECTORY`` (set by systemd's RuntimeDirectory=), ``$XDG_RUNTIME_DIR``, or
    the temp directory. DeviceError when it is not a writable directory.

    >>> str(lgpio_workdir(GpioConfig(), {"RUNTIME_DIRECTORY": "/tmp"}))
    '/tmp'
    """
    environ = os.environ if environ is None else environ
    candidates = [config.workdir, environ.get("RUNTIME_DIRECTORY"),
                  environ.get("XDG_RUNTIME_DIR"), tempfile.gettempdir()]
    chosen = Path(next(c for c in candidates if c))
    if not chosen.is_dir() or not os.access(chosen, os.W_OK | os.X_OK):
        raise DeviceError(f"lgpio: {chosen} is not a writable directory (lgpio makes its "
                          "notification pipes there; set [gpio] workdir)")
    return chosen


@contextlib.contextmanager
def _working_directory(path: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def _open_lgpio(config: GpioConfig,
                chip_labels: Callable[[], Mapping[int, str]] | None) -> Any:
    workdir = lgpio_workdir(config)
    os.environ["LG_WD"] = str(workdir)
    try:
        with _working_directory(workdir):
            from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as exc:
        raise DeviceError(f"lgpio: cannot be imported ({exc}); on Raspberry Pi OS: "
                          f"sudo apt install python3-lgpio, or {SIMULATE_HINT}") from None
    except Exception as exc:  # lgpio's own import-time failures (the pipe, the daemon)
        raise DeviceError(f"lgpio: cannot start ({_one_line(exc)})") from None
    chip = config.chip
    if chip is None:
        chip = header_chip((chip_labels or _lgpio_chip_labels)())
    try:
        return LGPIOFactory(chip=chip)
    except Exception as exc:
        raise DeviceError(f"lgpio: cannot open /dev/gpiochip{chip} ({_one_line(exc)}); is the "
                          "user in the gpio group?") from None


def _lgpio_chip_labels() -> dict[int, str]:
    """Every real gpiochip's label, asked of lgpio (links like gpiochip4 -> gpiochip0
    on a Pi 5 are skipped so a chip is not counted twice)."""
    import lgpio

    labels: dict[int, str] = {}
    for device in sorted(Path("/dev").glob("gpiochip*")):
        suffix = device.name.removeprefix("gpiochip")
        if device.is_symlink() or not suffix.isdigit():
            continue
        number = int(suffix)
        try:
            handle = lgpio.gpiochip_open(number)
        except Exception:  # a chip we may not open is not the header's
            continue
        try:
            _, _, _, label = lgpio.gpio_get_chip_info(handle)
            labels[number] = str(label)
        except Exception:
            continue
        finally:
            lgpio.gpiochip_close(handle)
    return labels


def open_device(what: str, make: Callable[[], Any]) -> Any:
    """Build a gpiozero device; DeviceError naming it (``what``: the device and its pins)
    when its pins cannot be opened, so a wrong pin fails at start, never mid-game."""
    try:
        return make()
    except Exception as exc:
        raise DeviceError(f"{what}: cannot be opened ({_one_line(exc)})") from None


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
