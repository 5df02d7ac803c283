"""The tray's configuration: which pins drive what, the tumble pattern, camera and timing.

Values are frozen dataclasses with the reference build's defaults (hardware/README.md has
the wiring); a TOML file changes any of them. Every key is documented in the commented
default file ``firmware/deploy/config.toml``, which the install script copies to
``/etc/dicetray/config.toml``. Pins are BCM GPIO numbers (0..27).

>>> config = load_config()
>>> config.cup.kind, config.cup.forward_pin, config.button.pin
(<CupKind.MOTOR: 'motor'>, 17, 23)
>>> config == TrayConfig.defaults()
True

A bad file is a :class:`~dicetray.firmware.errors.ConfigError` with one line naming the
file and the key:

>>> import pathlib, tempfile
>>> bad = pathlib.Path(tempfile.mkdtemp()) / "tray.toml"
>>> _ = bad.write_text("[button]\\npin = 40\\n")
>>> load_config(bad)
Traceback (most recent call last):
...
dicetray.firmware.errors.ConfigError: .../tray.toml: button.pin: 40 is not a GPIO pin (BCM 0..27)
"""

from __future__ import annotations

import dataclasses
import enum
import os
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dicetray.firmware.errors import ConfigError

__all__ = [
    "ButtonConfig",
    "CameraConfig",
    "CupConfig",
    "CupKind",
    "CycleConfig",
    "GpioConfig",
    "LightsConfig",
    "TrayConfig",
    "TumbleStep",
    "load_config",
]

GPIO_PINS = range(0, 28)
"""The BCM GPIO numbers on the 40-pin header of every Pi since the B+."""


class CupKind(enum.StrEnum):
    """How the cup is driven."""

    MOTOR = "motor"
    """A DC gear motor on an H-bridge with two direction inputs (DRV8833, L298N, TB6612)."""
    PHASE_ENABLE = "phase-enable"
    """A DC gear motor on a phase/enable driver (DRV8835 in PH/EN mode, Pololu boards)."""
    SERVO = "servo"
    """A hobby servo rocking the cup (no home switch)."""


def _check_pin(key: str, pin: int | None, *, required: bool = False) -> None:
    if pin is None:
        if required:
            raise ConfigError(f"{key}: a pin is needed here")
        return
    if pin not in GPIO_PINS:
        raise ConfigError(f"{key}: {pin} is not a GPIO pin (BCM 0..27)")


def _coerce(value: object, field_name: str, kind: type[enum.StrEnum]) -> None:
    """Accept an enum's plain string in code too (``CupConfig(kind="servo")``)."""
    current = getattr(value, field_name)
    if isinstance(current, kind):
        return
    try:
        object.__setattr__(value, field_name, kind(current))
    except ValueError:
        raise ConfigError(f"{field_name}: {current!r} is not one of "
                          f"{', '.join(m.value for m in kind)}") from None


def _check_duration(key: str, seconds: float, *, positive: bool = False) -> None:
    if seconds < 0 or (positive and seconds == 0):
        need = "more than 0" if positive else "0 or more"
        raise ConfigError(f"{key}: {seconds:g} s is not a duration ({need} seconds)")


@dataclass(frozen=True)
class TumbleStep:
    """One step of a tumble: turn at ``speed`` for ``seconds``.

    For a motor ``speed`` is -1..1 (negative turns backwards); for a servo cup it is
    the servo's position, -1 (one end) .. 1 (the other), held for ``seconds``.

    >>> TumbleStep(1.5, 1.0)
    Traceback (most recent call last):
    ...
    dicetray.firmware.errors.ConfigError: speed: 1.5 is outside -1..1
    """

    speed: float
    seconds: float

    def __post_init__(self) -> None:
        if not -1.0 <= self.speed <= 1.0:
            raise ConfigError(f"speed: {self.speed:g} is outside -1..1")
        _check_duration("seconds", self.seconds)


DEFAULT_PATTERN = (
    TumbleStep(0.8, 1.2),
    TumbleStep(-0.8, 0.9),
    TumbleStep(1.0, 0.8),
)
"""Forward, back, forward: the reversal throws the dice against the cup's baffles (on the
reference cup three steps land every die on a fresh face; one direction alone lets them
ride the wall)."""


@dataclass(frozen=True)
class CupConfig:
    """The cup: how it is driven, its pins, its tumble pattern and homing."""

    kind: CupKind = CupKind.MOTOR
    forward_pin: int | None = 17
    """kind motor: the H-bridge's forward input (IN1)."""
    backward_pin: int | None = 27
    """kind motor: the H-bridge's backward input (IN2)."""
    enable_pin: int | None = None
    """kind motor: an enable input held high while the tray runs (L298N ENA), if wired;
    kind phase-enable: the driver's ENABLE input, driven with PWM for the speed."""
    phase_pin: int | None = None
    """kind phase-enable: the driver's PHASE (direction) input."""
    servo_pin: int | None = None
    """kind servo: the servo's signal wire."""
    home_pin: int | None = 22
    """The home switch (to ground; the Pi's pull-up holds it high while open)."""
    pattern: tuple[TumbleStep, ...] = DEFAULT_PATTERN
    home_speed: float = 0.45
    """Speed while looking for home: slow enough to stop on the switch's cam (at full speed
    the reference cup overran it by ~20 degrees), fast enough to find it within a turn."""
    home_timeout_s: float = 4.0
    """One full turn at home_speed takes ~2.2 s on the reference 60 rpm motor; twice
    that and the cup is jammed (or the switch is broken)."""
    tick_s: float = 0.02
    """How often a tumble looks at the home switch and at a stop request."""
    servo_home: float = 0.0
    """kind servo: the position (-1..1) the cup rests at, facing the tray."""
    servo_travel_s: float = 0.5
    """kind servo: time to reach home before the pulses stop (an SG90 is rated 0.1 s per
    60 degrees: 0.3 s across its range, plus margin for the cup's weight)."""
    servo_min_pulse_s: float = 0.001
    servo_max_pulse_s: float = 0.002

    def __post_init__(self) -> None:
        _coerce(self, "kind", CupKind)
        object.__setattr__(self, "pattern", tuple(self.pattern))
        for name in ("forward_pin", "backward_pin", "enable_pin", "phase_pin", "servo_pin",
                     "home_pin"):
            _check_pin(name, getattr(self, name))
        for name, needed in self._needs().items():
            _check_pin(name, needed, required=True)
        if not self.pattern:
            raise ConfigError("pattern: a tumble needs at least one step")
        if not 0.0 < self.home_speed <= 1.0:
            raise ConfigError(f"home_speed: {self.home_speed:g} is outside 0 (excluded)..1")
        _check_duration("home_timeout_s", self.home_timeout_s, positive=True)
        _check_duration("tick_s", self.tick_s, positive=True)
        if not -1.0 <= self.servo_home <= 1.0:
            raise ConfigError(f"servo_home: {self.servo_home:g} is outside -1..1")
        _check_duration("servo_travel_s", self.servo_travel_s)
        _check_duration("servo_min_pulse_s", self.servo_min_pulse_s, positive=True)
        if self.servo_max_pulse_s <= self.servo_min_pulse_s:
            raise ConfigError("servo_max_pulse_s: must be longer than servo_min_pulse_s")

    def _needs(self) -> dict[str, int | None]:
        if self.kind is CupKind.MOTOR:
            return {"forward_pin": self.forward_pin, "backward_pin": self.backward_pin,
                    "home_pin": self.home_pin}
        if self.kind is CupKind.PHASE_ENABLE:
            return {"phase_pin": self.phase_pin, "enable_pin": self.enable_pin,
                    "home_pin": self.home_pin}
        return {"servo_pin": self.servo_pin}

    def pins(self) -> dict[str, int]:
        """The pins this kind of cup uses, by key.

        >>> CupConfig().pins()
        {'forward_pin': 17, 'backward_pin': 27, 'home_pin': 22}
        """
        used = dict(self._needs())
        if self.kind is CupKind.MOTOR and self.enable_pin is not None:
            used["enable_pin"] = self.enable_pin
        return {key: pin for key, pin in used.items() if pin is not None}


@dataclass(frozen=True)
class ButtonConfig:
    """The big roll button (to ground; the Pi's pull-up holds it high)."""

    pin: int = 23
    hold_s: float = 1.5
    """Held this long or longer, the button does its long-hold action instead of a roll."""
    bounce_s: float = 0.05
    """Edges this soon after the last one are contact bounce (arcade buttons bounce for
    5-20 ms; a deliberate double press is >100 ms apart)."""

    def __post_init__(self) -> None:
        _check_pin("pin", self.pin, required=True)
        _check_duration("hold_s", self.hold_s, positive=True)
        _check_duration("bounce_s", self.bounce_s)
        if self.bounce_s >= self.hold_s:
            raise ConfigError("bounce_s: must be shorter than hold_s")

    def pins(self) -> dict[str, int]:
        """The pins the button uses, by key."""
        return {"pin": self.pin}


@dataclass(frozen=True)
class LightsConfig:
    """The status light (an RGB LED) and the tray light (LED strip through a MOSFET)."""

    red_pin: int = 12
    green_pin: int = 13
    blue_pin: int = 19
    tray_light_pin: int = 24
    active_high: bool = True
    """True for a common-cathode RGB LED (the Pi drives each colour high); False for a
    common-anode one."""
    tray_light_active_high: bool = True
    """True for an N-channel MOSFET on the strip's ground side (gate high = on)."""
    blink_s: float = 0.4
    """On and off time of a blinking status (needs help, error): about once a second,
    noticeable across a table without being frantic."""

    def __post_init__(self) -> None:
        for name in ("red_pin", "green_pin", "blue_pin", "tray_light_pin"):
            _check_pin(name, getattr(self, name), required=True)
        _check_duration("blink_s", self.blink_s, positive=True)

    def pins(self) -> dict[str, int]:
        """The pins the lights use, by key."""
        return {"red_pin": self.red_pin, "green_pin": self.green_pin,
                "blue_pin": self.blue_pin, "tray_light_pin": self.tray_light_pin}


@dataclass(frozen=True)
class CameraConfig:
    """Where frames come from (a ``dicetray.vision.frames.open_source`` name) and their size."""

    source: str = "picamera2"
    size: tuple[int, int] = (1280, 960)
    jpeg_quality: int = 90
    """JPEG quality of the frame kept with every reading (the labelled photos that retrain
    the reader): 90 keeps the pips' edges crisp at about a tenth of the PNG size."""
    view_width: int = 800
    """Width in pixels of the photo of a roll sent to the phones (a 360-px-wide phone at 2×
    shows 720): a simulated 1280×960 frame is 146 KB as kept, 42 KB as this view."""
    view_quality: int = 80
    """JPEG quality of that view: the pips stay sharp at a phone's size."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", tuple(self.size))
        for key in ("jpeg_quality", "view_quality"):
            if not 50 <= getattr(self, key) <= 100:
                raise ConfigError(f"{key}: {getattr(self, key)} is not within 50..100")
        if not 160 <= self.view_width <= 4096:
            raise ConfigError(f"view_width: {self.view_width} is not within 160..4096 pixels")
        if not self.source.strip():
            raise ConfigError("source: empty (give picamera2, opencv:0, folder:PATH, sim)")
        if len(self.size) != 2 or min(self.size) <= 0:
            raise ConfigError(f"size: {list(self.size)} is not [width, height] in pixels")


@dataclass(frozen=True)
class CycleConfig:
    """Timing of the roll cycle (read by the roll cycle; held here)."""

    retumbles: int = 2
    """Re-tumbles allowed for a reading a re-tumble can fix, before asking the players."""
    settle_timeout_s: float = 6.0
    """Dice still moving after this long: ask the players (a die rocking in a corner)."""
    still_s: float = 0.5
    """The tray must look still this long before it is read."""
    frames_per_second: float = 8.0
    """Frames taken while waiting for the dice to settle."""

    def __post_init__(self) -> None:
        if self.retumbles < 0:
            raise ConfigError(f"retumbles: {self.retumbles} is negative")
        _check_duration("settle_timeout_s", self.settle_timeout_s, positive=True)
        _check_duration("still_s", self.still_s)
        if self.frames_per_second <= 0:
            raise ConfigError(f"frames_per_second: {self.frames_per_second:g} is not positive")


class GpioFactory(enum.StrEnum):
    """Which gpiozero pin factory drives the pins."""

    AUTO = "auto"
    LGPIO = "lgpio"
    MOCK = "mock"


@dataclass(frozen=True)
class GpioConfig:
    """The pin factory: ``auto`` (lgpio on a Pi, else say how to simulate), ``lgpio`` or
    ``mock``; lgpio's gpiochip (None = the one wired to the header) and the writable
    directory lgpio keeps its notification pipes in (None = $RUNTIME_DIRECTORY, then
    $XDG_RUNTIME_DIR, then the temp directory)."""

    factory: GpioFactory = GpioFactory.AUTO
    chip: int | None = None
    workdir: str | None = None

    def __post_init__(self) -> None:
        _coerce(self, "factory", GpioFactory)
        if self.chip is not None and self.chip < 0:
            raise ConfigError(f"chip: {self.chip} is negative")


@dataclass(frozen=True)
class TrayConfig:
    """Everything the tray's devices need to know."""

    cup: CupConfig = field(default_factory=CupConfig)
    button: ButtonConfig = field(default_factory=ButtonConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    cycle: CycleConfig = field(default_factory=CycleConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)

    def __post_init__(self) -> None:
        seen: dict[int, str] = {}
        for section in ("cup", "button", "lights"):
            for key, pin in getattr(self, section).pins().items():
                where = f"{section}.{key}"
                if pin in seen:
                    raise ConfigError(f"{where}: GPIO{pin} is already used by {seen[pin]}")
                seen[pin] = where

    @classmethod
    def defaults(cls) -> TrayConfig:
        """The reference build's configuration."""
        return cls()


# -- loading -------------------------------------------------------------------------------


def load_config(path: str | os.PathLike[str] | None = None) -> TrayConfig:
    """Read a TOML config (None: the defaults); ConfigError naming the file and key."""
    if path is None:
        return TrayConfig.defaults()
    from dicetray.rules.limits import check_toml, check_tree, read_text

    path = Path(path)
    try:  # within the rules' bounds: a regular file, small, not nested or dotted too deep
        text = read_text(path)
        check_toml(text)
        data = tomllib.loads(text)
        check_tree(data)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except RecursionError:
        raise ConfigError(f"{path}: cannot be read (nested too deeply)") from None
    except ValueError as exc:  # not UTF-8, an int of over 4,300 digits, a key of many parts
        why = str(exc) if "Exceeds the limit" not in str(exc) else "a number of over 4,300 digits"
        raise ConfigError(f"{path}: cannot be read ({why})") from None
    try:
        return _build(TrayConfig, data, "")
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def _build(cls: type, table: Any, where: str) -> Any:
    """A dataclass from a TOML table, checking keys and types; errors say ``where.key``."""
    if not isinstance(table, dict):
        raise ConfigError(f"{where.rstrip('.') or 'file'}: expected a table, got "
                          f"{_toml_type(table)}")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls) if f.init}
    for key in table:
        if key not in known:
            raise ConfigError(f"{where}{key}: unknown key (known: {', '.join(sorted(known))})")
    missing = [f.name for f in dataclasses.fields(cls) if f.init and f.name not in table
               and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    if missing:
        raise ConfigError(f"{where.rstrip('.')}: missing {', '.join(missing)}")
    values = {key: _convert(hints[key], value, f"{where}{key}") for key, value in table.items()}
    try:
        return cls(**values)
    except ConfigError as exc:
        prefix = where if where else ""
        raise ConfigError(f"{prefix}{exc}") from None


def _convert(kind: Any, value: Any, key: str) -> Any:
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        return _convert(options[0], value, key)  # TOML has no null: only X | None occurs
    if dataclasses.is_dataclass(kind):
        return _build(kind, value, f"{key}.")
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(value, list):
            raise ConfigError(f"{key}: expected an array, got {_toml_type(value)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], item, f"{key}[{i}]") for i, item in enumerate(value))
        if len(value) != len(args):
            raise ConfigError(f"{key}: expected {len(args)} values, got {len(value)}")
        return tuple(_convert(a, item, f"{key}[{i}]") for i, (a, item) in
                     enumerate(zip(args, value, strict=True)))
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        try:
            return kind(value)
        except ValueError:
            raise ConfigError(f"{key}: {value!r} is not one of "
                              f"{', '.join(str(m.value) for m in kind)}") from None
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key}: expected true or false, got {_toml_type(value)}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key}: expected a whole number, got {_toml_type(value)}")
        return value
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{key}: expected a number, got {_toml_type(value)}")
        return float(value)
    if kind is str:
        if not isinstance(value, str):
            raise ConfigError(f"{key}: expected a string, got {_toml_type(value)}")
        return value
    raise TypeError(f"config field {key} has a type the loader does not know: {kind!r}")


def _toml_type(value: Any) -> str:
    names = {bool: "a boolean", int: "a whole number", float: "a number", str: "a string",
             list: "an array", dict: "a table"}
    return next((name for cls, name in names.items() if isinstance(value, cls)),
                type(value).__name__)
