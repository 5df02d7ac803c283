"""The tray's TOML config: defaults, the documented default file, and every class of bad input."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from dicetray.firmware.config import (
    CupConfig,
    CupKind,
    TrayConfig,
    TumbleStep,
    load_config,
)
from dicetray.firmware.errors import ConfigError

DEFAULT_FILE = resources.files("dicetray.firmware.deploy") / "config.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tray.toml"
    path.write_text(text)
    return path


class TestDefaults:
    def test_no_file_means_the_reference_build(self) -> None:
        config = load_config(None)
        assert config == TrayConfig.defaults()
        assert config.cup.kind is CupKind.MOTOR
        assert config.cup.pins() == {"forward_pin": 17, "backward_pin": 27, "home_pin": 22}

    def test_the_documented_default_file_loads_to_exactly_the_defaults(self) -> None:
        assert load_config(Path(str(DEFAULT_FILE))) == TrayConfig.defaults()

    def test_every_commented_out_key_in_the_default_file_is_a_real_key(
            self, tmp_path: Path) -> None:
        text = DEFAULT_FILE.read_text()
        commented = re.findall(r"^# (\w+) = ", text, flags=re.MULTILINE)
        assert {"enable_pin", "phase_pin", "servo_pin", "chip", "workdir"} <= set(commented)
        uncommented = re.sub(r"^# (\w+ = )", r"\1", text, flags=re.MULTILINE)
        config = load_config(write(tmp_path, uncommented))
        assert config.cup.enable_pin == 18 and config.gpio.chip == 0
        assert config.gpio.workdir == "/run/dicetray"

    def test_an_empty_file_is_the_defaults(self, tmp_path: Path) -> None:
        assert load_config(write(tmp_path, "")) == TrayConfig.defaults()


class TestChanges:
    def test_a_servo_build(self, tmp_path: Path) -> None:
        config = load_config(write(tmp_path, """
            [cup]
            kind = "servo"
            servo_pin = 18
            pattern = [{ speed = -1, seconds = 0.3 }, { speed = 1, seconds = 0.3 }]
        """))
        assert config.cup.kind is CupKind.SERVO
        assert config.cup.pins() == {"servo_pin": 18}
        assert config.cup.pattern == (TumbleStep(-1.0, 0.3), TumbleStep(1.0, 0.3))

    def test_a_servo_build_frees_the_motor_pins_for_other_uses(self, tmp_path: Path) -> None:
        config = load_config(write(tmp_path, """
            [cup]
            kind = "servo"
            servo_pin = 18
            [button]
            pin = 17
        """))
        assert config.button.pin == 17

    def test_a_phase_enable_build_and_integer_durations(self, tmp_path: Path) -> None:
        config = load_config(write(tmp_path, """
            [cup]
            kind = "phase-enable"
            phase_pin = 5
            enable_pin = 6
            home_timeout_s = 3
            [camera]
            source = "sim"
            size = [640, 480]
        """))
        assert config.cup.pins() == {"phase_pin": 5, "enable_pin": 6, "home_pin": 22}
        assert config.cup.home_timeout_s == 3.0 and isinstance(config.cup.home_timeout_s, float)
        assert config.camera.size == (640, 480)


BAD = [
    ("[cup]\nforward_pin = 28\n", "cup.forward_pin: 28 is not a GPIO pin"),
    ("[button]\npin = -1\n", "button.pin: -1 is not a GPIO pin"),
    ("[lights]\nblue_pin = 23\n", "lights.blue_pin: GPIO23 is already used by button.pin"),
    ("[cup]\nenable_pin = 22\n", "cup.enable_pin: GPIO22 is already used by cup.home_pin"),
    ("[cup]\nhome_timeout_s = -2\n", "cup.home_timeout_s: -2 s is not a duration"),
    ("[button]\nbounce_s = -0.01\n", "button.bounce_s: -0.01 s is not a duration"),
    ("[cup]\npattern = [{ speed = 0.5, seconds = -1 }]\n",
     "cup.pattern[0].seconds: -1 s is not a duration"),
    ("[cup]\npattern = [{ speed = 2, seconds = 1 }]\n", "cup.pattern[0].speed: 2 is outside"),
    ("[cup]\npattern = [{ speed = 1 }]\n", "cup.pattern[0]: missing"),
    ("[cup]\npattern = []\n", "cup.pattern: a tumble needs at least one step"),
    ("[cup]\nkind = \"stepper\"\n", "cup.kind: 'stepper' is not one of motor, phase-enable, servo"),
    ("[cup]\nkind = \"phase-enable\"\n", "cup.phase_pin: a pin is needed here"),
    ("[cup]\nkind = \"servo\"\n", "cup.servo_pin: a pin is needed here"),
    ("[cup]\nforward_pin = \"17\"\n", "cup.forward_pin: expected a whole number, got a string"),
    ("[cup]\nforward_pin = 17.0\n", "cup.forward_pin: expected a whole number, got a number"),
    ("[cup]\nhome_speed = true\n", "cup.home_speed: expected a number, got a boolean"),
    ("[cup]\nhome_speed = 0\n", "cup.home_speed: 0 is outside"),
    ("[lights]\nactive_high = 1\n", "lights.active_high: expected true or false"),
    ("[camera]\nsize = [1280]\n", "camera.size: expected 2 values, got 1"),
    ("[camera]\nsize = 1280\n", "camera.size: expected an array, got a whole number"),
    ("[camera]\nsize = [0, 960]\n", "camera.size: [0, 960] is not [width, height]"),
    ("[cup]\nspeed = 1\n", "cup.speed: unknown key"),
    ("[motor]\nforward_pin = 17\n", "motor: unknown key"),
    ("cup = 3\n", "cup: expected a table, got a whole number"),
    ("[cycle]\nretumbles = -1\n", "cycle.retumbles: -1 is negative"),
    ("[gpio]\nfactory = \"pigpio\"\n", "gpio.factory: 'pigpio' is not one of auto, lgpio, mock"),
    ("[button]\nhold_s = 0.05\nbounce_s = 0.05\n", "button.bounce_s: must be shorter than hold_s"),
    ("[cup\nkind = 1\n", "not valid TOML"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m.split(":")[0] for _, m in BAD])
def test_bad_input_is_one_line_naming_the_file_and_key(
        tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    error = str(caught.value)
    assert error.startswith(f"{path}: ")
    assert message in error
    assert "\n" not in error


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.toml: no such config file"):
        load_config(tmp_path / "nowhere.toml")


def test_a_directory_is_not_a_config(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(tmp_path)


def test_building_in_code_is_checked_too() -> None:
    with pytest.raises(ConfigError, match="home_pin: 99 is not a GPIO pin"):
        CupConfig(home_pin=99)
    with pytest.raises(ConfigError, match="already used"):
        TrayConfig(cup=CupConfig(home_pin=23))


def test_the_wiring_guide_pin_map_matches_the_defaults() -> None:
    readme = Path(__file__).resolve().parents[2] / "hardware" / "README.md"
    rows = re.findall(r"^\| (\d+) \(\d+\) \| `(\w+)\.(\w+)` \|", readme.read_text(),
                      flags=re.MULTILINE)
    defaults = TrayConfig.defaults()
    main_table = {f"{section}.{key}": int(pin) for pin, section, key in rows
                  if getattr(getattr(defaults, section), key) is not None}
    expected = {f"{section}.{key}": pin for section in ("cup", "button", "lights")
                for key, pin in getattr(defaults, section).pins().items()}
    assert main_table == expected
    alternatives = {f"{section}.{key}": int(pin) for pin, section, key in rows
                    if getattr(getattr(defaults, section), key) is None}
    commented = dict(re.findall(r"^# (\w+_pin) = (\d+)$", DEFAULT_FILE.read_text(),
                                flags=re.MULTILINE))
    assert {k.split(".")[1]: v for k, v in alternatives.items()} == {
        k: int(v) for k, v in commented.items()}


def test_code_may_give_plain_strings_and_lists() -> None:
    from dicetray.firmware.config import CameraConfig, GpioConfig, GpioFactory

    cup = CupConfig(kind="servo", servo_pin=18, pattern=[TumbleStep(1, 1)])  # type: ignore[arg-type]
    assert cup.kind is CupKind.SERVO and cup.pattern == (TumbleStep(1, 1),)
    assert GpioConfig(factory="mock").factory is GpioFactory.MOCK  # type: ignore[arg-type]
    assert CameraConfig(size=[640, 480]).size == (640, 480)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="factory: 'pigpio' is not one of auto, lgpio, mock"):
        GpioConfig(factory="pigpio")  # type: ignore[arg-type]
