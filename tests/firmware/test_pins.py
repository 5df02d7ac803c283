"""Choosing the pin factory: mock pins, lgpio on a Pi (the right chip, a writable directory)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from dicetray.firmware.config import GpioConfig, GpioFactory
from dicetray.firmware.errors import DeviceError, NoHardware
from dicetray.firmware.pins import header_chip, lgpio_workdir, on_a_pi, pin_factory


def model(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "model"
    path.write_bytes(text.encode() + b"\x00")
    return path


class TestSimulated:
    @pytest.mark.parametrize("config", [GpioConfig(), GpioConfig(factory=GpioFactory.MOCK)])
    def test_mock_pins_that_take_pwm(self, config: GpioConfig) -> None:
        simulate = config.factory is GpioFactory.AUTO
        factory = pin_factory(config, simulate=simulate)
        assert isinstance(factory, MockFactory)
        led = LED(5, pin_factory=factory)
        assert isinstance(factory.pin(5), MockPWMPin)
        led.close()
        factory.reset()

    def test_each_call_is_a_fresh_factory(self) -> None:
        first = pin_factory(GpioConfig(), simulate=True)
        second = pin_factory(GpioConfig(), simulate=True)
        held = LED(5, pin_factory=first)
        LED(5, pin_factory=second).close()  # not busy: another factory's pins
        held.close()


class TestAuto:
    def test_not_a_pi_says_what_is_missing_and_how_to_simulate(self, tmp_path: Path) -> None:
        with pytest.raises(NoHardware) as caught:
            pin_factory(GpioConfig(), model_file=model(tmp_path, "Generic x86 board"))
        message = str(caught.value)
        assert "no Raspberry Pi GPIO" in message and "dicetray run --simulate" in message
        assert "\n" not in message

    def test_no_device_tree_at_all(self, tmp_path: Path) -> None:
        with pytest.raises(NoHardware, match="does not name a Raspberry Pi"):
            pin_factory(GpioConfig(), model_file=tmp_path / "missing")

    def test_on_a_pi_the_lgpio_factory_is_tried_and_its_failure_is_one_line(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        # lgpio is not installed on this build machine: that is the failure seen here
        monkeypatch.delenv("LG_WD", raising=False)
        workdir = tmp_path / "run"
        workdir.mkdir()
        before = os.getcwd()
        config = GpioConfig(workdir=str(workdir))
        with pytest.raises(DeviceError) as caught:
            pin_factory(config, model_file=model(tmp_path, "Raspberry Pi 5 Model B Rev 1.0"))
        assert not isinstance(caught.value, NoHardware)
        assert str(caught.value).startswith("lgpio: ")
        assert "\n" not in str(caught.value)
        assert os.getcwd() == before  # the import ran in the workdir, then came back
        assert os.environ["LG_WD"] == str(workdir)

    def test_model_names(self, tmp_path: Path) -> None:
        assert on_a_pi(model(tmp_path, "Raspberry Pi 4 Model B Rev 1.5")) == (
            "Raspberry Pi 4 Model B Rev 1.5")
        assert on_a_pi(model(tmp_path, "Radxa ROCK 5B")) is None


class TestHeaderChip:
    def test_pi5_before_kernel_6_6_45(self) -> None:
        labels = {0: "gpio-brcmstb@107d508500", 1: "gpio-brcmstb@107d508520",
                  2: "gpio-brcmstb@107d517c00", 3: "gpio-brcmstb@107d517c20",
                  4: "pinctrl-rp1"}
        assert header_chip(labels) == 4

    def test_pi5_from_kernel_6_6_45(self) -> None:
        labels = {0: "pinctrl-rp1", 10: "gpio-brcmstb@107d508500",
                  11: "gpio-brcmstb@107d508520", 12: "gpio-brcmstb@107d517c00",
                  13: "gpio-brcmstb@107d517c20"}
        assert header_chip(labels) == 0

    def test_pi4_and_older(self) -> None:
        assert header_chip({0: "pinctrl-bcm2711", 1: "raspberrypi-exp-gpio"}) == 0
        assert header_chip({0: "pinctrl-bcm2835", 1: "raspberrypi-exp-gpio"}) == 0

    def test_unknown_boards_fall_back_to_chip_0(self) -> None:
        assert header_chip({2: "something-else"}) == 0


class TestWorkdir:
    def test_the_config_wins(self, tmp_path: Path) -> None:
        env = {"RUNTIME_DIRECTORY": "/nonexistent", "XDG_RUNTIME_DIR": "/nonexistent"}
        assert lgpio_workdir(GpioConfig(workdir=str(tmp_path)), env) == tmp_path

    def test_then_systemds_runtime_directory_then_the_users(self, tmp_path: Path) -> None:
        runtime, user = tmp_path / "runtime", tmp_path / "user"
        runtime.mkdir()
        user.mkdir()
        both = {"RUNTIME_DIRECTORY": str(runtime), "XDG_RUNTIME_DIR": str(user)}
        assert lgpio_workdir(GpioConfig(), both) == runtime
        assert lgpio_workdir(GpioConfig(), {"XDG_RUNTIME_DIR": str(user)}) == user

    def test_not_a_directory_is_a_device_error_before_lgpio_is_touched(
            self, tmp_path: Path) -> None:
        a_file = tmp_path / "file"
        a_file.write_text("")
        with pytest.raises(DeviceError, match="is not a writable directory"):
            pin_factory(GpioConfig(factory=GpioFactory.LGPIO, workdir=str(a_file)))

    def test_a_missing_directory(self, tmp_path: Path) -> None:
        with pytest.raises(DeviceError, match="not a writable directory"):
            lgpio_workdir(GpioConfig(workdir=str(tmp_path / "gone")), {})
