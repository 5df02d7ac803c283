"""The tray's devices, together: on the Pi's pins, or simulated down to the dice.

:func:`build_rig` opens everything the config describes and hands back a :class:`Rig`:
the pin factory, the clock, the cup, the roll button, the status and tray lights and the
camera. A device that cannot be opened is a DeviceError at once (everything opened so
far is closed again); a camera that cannot be opened is not fatal: ``rig.camera`` is None
and ``rig.camera_problem`` says why, so the tray can fall back to dice entered by hand.

Simulated (``simulate=True``), the pins are gpiozero mock pins and the camera renders a
:class:`~dicetray.vision.scene.SimulatedTray`. Both run on the rig's
:class:`~dicetray.firmware.clock.ManualClock` (``realtime`` unless ``fast``), and
:class:`SimulatedTable` plays the mechanics on every step of it: it reads the motor's pins,
turns the simulated cup, throws the dice while the cup turns (frames taken then are
motion-blurred by the renderer), and closes the home switch when the cup's cam comes round,
so a tumble completes exactly as on the real tray. Time moves only when someone sleeps on
``rig.clock``; a capture does, for one frame interval (``cycle.frames_per_second``), as a
real camera waits for its next frame, so a loop taking frames until the tray is still
sees the dice come to rest, on the same time as the cup and the dice.

>>> from dicetray.firmware.config import CameraConfig, TrayConfig
>>> rig = build_rig(TrayConfig(camera=CameraConfig(size=(320, 240))), simulate=True,
...                 fast=True, seed=4)
>>> before = rig.sim.values()
>>> rig.cup.tumble()                 # the dice fly while the cup turns ...
>>> rig.sim.settled
False
>>> rig.clock.sleep(2.0)             # ... and come to rest soon after it stops
>>> rig.sim.settled, rig.sim.values() != before
(True, True)
>>> rig.close()
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dicetray.firmware.button import RollButton
from dicetray.firmware.clock import Clock, ManualClock, SystemClock
from dicetray.firmware.config import CupKind, TrayConfig
from dicetray.firmware.cup import Cup, make_cup
from dicetray.firmware.lights import StatusLight, TrayLight
from dicetray.firmware.pins import pin_factory
from dicetray.vision.calibration import CameraSettings
from dicetray.vision.errors import CameraError
from dicetray.vision.frames import FrameSource, SimulatedSource, open_source
from dicetray.vision.scene import SimulatedTray, random_scene

__all__ = [
    "MechanicsSettings",
    "OpticsSettings",
    "Rig",
    "SimulatedCamera",
    "SimulatedTable",
    "build_rig",
    "expose",
]


def _nothing() -> None:
    """No action (the button's default until the tray wires its own)."""


class Rig:
    """Every device of one tray; :meth:`close` stops the motor first, then lets all go."""

    def __init__(self, *, factory: Any, clock: Clock, cup: Cup, button: RollButton,
                 status: StatusLight, tray_light: TrayLight, camera: FrameSource | None,
                 simulated: bool, sim: SimulatedTable | None = None,
                 camera_problem: str | None = None) -> None:
        self.factory = factory
        self.clock = clock
        self.cup = cup
        self.button = button
        self.status = status
        self.tray_light = tray_light
        self.camera = camera
        self.simulated = simulated
        self.sim = sim
        self.camera_problem = camera_problem
        """Why there is no camera (None when there is one)."""
        self.closed = False

    def capture(self) -> np.ndarray:
        """One frame with the tray light on; CameraError when there is no camera or it fails."""
        if self.camera is None:
            raise CameraError(self.camera_problem or "no camera")
        with self.tray_light.lit():
            return self.camera.capture()

    def close(self) -> None:
        """Stop the motor, then close every device, the camera and the pins (idempotent)."""
        if self.closed:
            return
        self.closed = True
        self.cup.stop()
        if self.sim is not None:
            self.sim.detach()
        for part in (self.cup, self.button, self.status, self.tray_light, self.camera):
            if part is not None:
                part.close()
        self.factory.close()

    def __enter__(self) -> Rig:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- simulation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class OpticsSettings:
    """How the simulated camera's exposure and focus change its frames."""

    reference_exposure_us: int = 10_000
    """The exposure (at analogue gain 1) the renderer's frames stand for: the calibration's
    default, so a tray calibrated with the defaults sees the frames as rendered."""
    blur_px_per_dioptre: float = 3.0
    """Gaussian blur (sigma, pixels of a 1280-wide frame) per dioptre the lens is off: one
    dioptre off blurs the pips (about 12 px across) into their faces, as a real Camera
    Module 3 does at half a metre."""


def expose(frame: np.ndarray, settings: CameraSettings, *, sharp_at: float,
           optics: OpticsSettings | None = None) -> np.ndarray:
    """A rendered frame as a camera set to ``settings`` would take it: brighter or darker by
    the exposure and gain, blurred by how far the lens position is from ``sharp_at``
    (dioptres; a fixed-focus lens, ``lens_position`` None, is sharp).

    >>> frame = np.full((4, 4, 3), 100, np.uint8)
    >>> int(expose(frame, CameraSettings(exposure_us=20_000), sharp_at=2.4)[0, 0, 0])
    200
    >>> expose(frame, CameraSettings(), sharp_at=2.4) is frame  # the defaults: as rendered
    True
    """
    import cv2

    optics = optics or OpticsSettings()
    gain = settings.exposure_us * settings.analogue_gain / optics.reference_exposure_us
    out = frame if abs(gain - 1.0) < 1e-6 else cv2.convertScaleAbs(frame, alpha=gain)
    if settings.lens_position is not None:
        sigma = (optics.blur_px_per_dioptre * abs(settings.lens_position - sharp_at)
                 * frame.shape[1] / 1280)
        if sigma >= 0.3:  # below a third of a pixel a blur changes nothing visible
            out = cv2.GaussianBlur(out, (0, 0), sigma)
    return out


class SimulatedCamera(SimulatedSource):
    """The rendered camera over the simulated tray, on the rig's clock; it can be unplugged
    (then every capture raises CameraError, as a real camera that went away does). Its
    exposure and focus can be set (:meth:`apply`): the frames grow brighter or darker,
    sharper or blurred, as a real camera's do."""

    name = "sim"
    can_focus = True

    def __init__(self, tray: SimulatedTray, *, clock: ManualClock, fps: float,
                 optics: OpticsSettings | None = None) -> None:
        super().__init__(tray)
        self.plugged = True
        self.settings = CameraSettings()
        self.optics = optics or OpticsSettings()
        self._pace = (clock, 1.0 / fps)

    @property
    def sharp_at(self) -> float:
        """The lens position (dioptres) at which the tray is in focus: one over the
        camera's distance in metres."""
        return 1000.0 / self.scene().camera.distance_mm

    def capture(self) -> np.ndarray:
        """Wait one frame interval on the rig's clock, as a real camera waits for its next
        frame, then render the tray as it is; CameraError once unplugged."""
        if not self.plugged:
            raise CameraError("sim: the camera is unplugged (no frames)")
        clock, interval = self._pace
        clock.sleep(interval)
        return expose(super().capture(), self.settings, sharp_at=self.sharp_at,
                      optics=self.optics)

    def camera_settings(self) -> CameraSettings:
        """The exposure, gains and focus the camera is set to."""
        return self.settings

    def apply(self, settings: CameraSettings) -> None:
        """Set exposure, gains and focus (from the next frame on)."""
        self.settings = settings


@dataclass(frozen=True)
class MechanicsSettings:
    """How the simulated cup moves (the reference build's, measured or rated)."""

    turns_per_s: float = 1.0
    """Cup turns a second at full speed: the reference 60 rpm gear motor."""
    home_window: float = 0.06
    """Share of a turn during which the home cam holds the switch closed (~22 degrees)."""
    jam_at: float = 0.5
    """Where a jammed cup sticks: half a turn from home, with the switch open."""
    relaunch_s: float = 0.5
    """While the cup turns the dice are thrown again this often, so they keep flying until
    about a tumble's length (1.4 s) after the cup stops, as they do when they fall out."""
    press_s: float = 0.15
    """How long a simulated press holds the button down (a quick human press)."""
    hold_margin_s: float = 0.3
    """How much longer than the button's hold_s a simulated hold lasts."""
    reach_s: float = 0.2
    """How long a hand takes to come to the button (so presses in a row are not taken for
    contact bounce)."""


class SimulatedTable:
    """The physics of a simulated tray, driven by the rig's clock.

    On every clock step it reads the cup's pins: a motor's speed from its H-bridge or
    phase/enable inputs (a servo cup moves while its pin carries pulses); while the cup
    moves the dice are thrown (reproducibly from the rig's seed); the cup's angle follows
    the speed and the home switch's mock pin is pulled low while the cam is on it.
    :meth:`jam` sticks the cup (the tumble then stalls). The players' hands are here too:
    :meth:`press`, :meth:`hold`, :meth:`keep` / :meth:`release` (a die by where it is seen,
    :meth:`spot` says where it went), :meth:`release_all`, :meth:`use` (how many dice),
    :meth:`unplug_camera`.
    """

    def __init__(self, config: TrayConfig, *, factory: Any, clock: ManualClock,
                 camera: SimulatedCamera,
                 settings: MechanicsSettings | None = None) -> None:
        assert camera.tray is not None
        self.config = config
        self.settings = settings or MechanicsSettings()
        self.camera = camera
        self.tray: SimulatedTray = camera.tray
        self.clock = clock
        self._factory = factory
        self.angle = self.settings.home_window / 2  # at rest on the home switch
        self.jammed = False
        self.rolls = 0
        """How many times the dice have been thrown."""
        self._last = clock.now()
        self._thrown_at: float | None = None
        self._lock = threading.Lock()  # the clock may be slept on by several threads
        self._drive_home_switch()
        clock.watch(self._step)

    # the cup

    def speed(self) -> float:
        """The speed the cup's driver is asked for now (-1..1; a servo: 1 while pulsing)."""
        cup = self.config.cup
        state = self._state
        if cup.kind is CupKind.MOTOR:
            enabled = 1.0 if cup.enable_pin is None else state(cup.enable_pin)
            return (state(cup.forward_pin) - state(cup.backward_pin)) * enabled
        if cup.kind is CupKind.PHASE_ENABLE:
            return state(cup.enable_pin) * (-1.0 if state(cup.phase_pin) else 1.0)
        return 1.0 if state(cup.servo_pin) else 0.0

    def _state(self, pin: int | None) -> float:
        return float(self._factory.pin(pin).state) if pin is not None else 0.0

    @property
    def at_home(self) -> bool:
        """True while the cam holds the home switch closed."""
        return self.angle % 1.0 < self.settings.home_window

    def jam(self) -> None:
        """Stick the cup half a turn from home: it no longer turns, the dice stay put."""
        self.jammed = True
        self.angle = self.settings.jam_at
        self._drive_home_switch()

    def unjam(self) -> None:
        """Free the cup again."""
        self.jammed = False

    def _step(self, now: float) -> None:
        with self._lock:
            self._move(now)

    def _move(self, now: float) -> None:
        elapsed, self._last = max(now - self._last, 0.0), max(now, self._last)
        speed = 0.0 if self.jammed else self.speed()
        if speed:
            self.angle += speed * self.settings.turns_per_s * elapsed
            due = self._thrown_at is None or (
                now - self._thrown_at >= self.settings.relaunch_s - 1e-9)
            if due:
                self.tray.roll()
                self.rolls += 1
                self._thrown_at = now
        else:
            self._thrown_at = None
        self._drive_home_switch()

    def _drive_home_switch(self) -> None:
        cup = self.config.cup
        if cup.kind is CupKind.SERVO or cup.home_pin is None:
            return
        switch = self._factory.pin(cup.home_pin)
        if self.at_home:
            switch.drive_low()
        else:
            switch.drive_high()

    def detach(self) -> None:
        """Stop following the clock (the rig is closing)."""
        self.clock.unwatch(self._step)

    # the dice

    @property
    def settled(self) -> bool:
        """True once the dice have come to rest."""
        return self.tray.settled

    def values(self) -> tuple[int, ...]:
        """The values the dice show (or will show at rest), in die order."""
        return self.tray.values()

    def truth(self) -> Any:
        """What the camera would see now, exactly (a FrameTruth)."""
        return self.camera.truth()

    def keep(self, x: float, y: float) -> int:
        """Slide the die nearest image point (x, y) onto the hold ledge; its index."""
        index = self.camera.nearest_die(x, y)
        self.tray.keep(index)
        return index

    def release(self, x: float, y: float) -> int:
        """Put the die nearest image point (x, y) back into the tray; its index."""
        index = self.camera.nearest_die(x, y)
        self.tray.release(index)
        return index

    def use(self, dice: int) -> None:
        """Play with ``dice`` dice from now on (a rule set's count), all in the tray."""
        if len(self.tray.values()) != dice:
            self.tray.use(dice)

    def spot(self, index: int) -> tuple[float, float]:
        """Where die ``index``'s top face is in the frame now."""
        die = self.camera.truth().dice[index]
        return (float(die.x), float(die.y))

    def release_all(self) -> None:
        """Put every kept die back into the tray."""
        for index in range(len(self.tray.values())):
            self.tray.release(index)

    # the players' hands

    def press(self) -> None:
        """Press the roll button briefly (the clock moves on by the reach and the press)."""
        self._push(self.settings.press_s)

    def hold(self) -> None:
        """Hold the roll button down past its hold time."""
        self._push(self.config.button.hold_s + self.settings.hold_margin_s)

    def _push(self, seconds: float) -> None:
        pin = self._factory.pin(self.config.button.pin)
        self.clock.sleep(self.settings.reach_s)
        pin.drive_low()
        try:
            self.clock.sleep(seconds)
        finally:
            pin.drive_high()

    def unplug_camera(self) -> None:
        """Pull the camera's cable: later captures raise CameraError."""
        self.camera.plugged = False

    def plug_camera_in(self) -> None:
        """Plug the camera back in."""
        self.camera.plugged = True


# -- building ------------------------------------------------------------------------------


def build_rig(config: TrayConfig, *, simulate: bool, fast: bool = False, seed: int = 0,
              on_press: Callable[[], None] = _nothing, on_hold: Callable[[], None] = _nothing,
              clock: Clock | None = None) -> Rig:
    """Open the tray's devices (simulated ones when ``simulate``); see the module.

    ``fast`` runs simulated time as fast as the machine allows; ``seed`` makes the
    simulated dice reproducible; ``on_press``/``on_hold`` are the button's actions (they
    can be set later on ``rig.button``). Without ``simulate``, NoHardware when there are no
    GPIO pins here and DeviceError when a device cannot be opened.
    """
    if simulate:
        rig_clock: Clock = clock if clock is not None else ManualClock(realtime=not fast)
        if not isinstance(rig_clock, ManualClock):
            raise TypeError("a simulated rig runs on a ManualClock (its mechanics watch it)")
    else:
        rig_clock = clock if clock is not None else SystemClock()
    factory = pin_factory(config.gpio, simulate=simulate)
    opened: list[Any] = []
    try:
        cup = make_cup(config.cup, pin_factory=factory, clock=rig_clock)
        opened.append(cup)
        button = RollButton(config.button, pin_factory=factory, on_press=on_press,
                            on_hold=on_hold, clock=rig_clock)
        opened.append(button)
        status = StatusLight(config.lights, pin_factory=factory)
        opened.append(status)
        tray_light = TrayLight(config.lights, pin_factory=factory)
        opened.append(tray_light)
    except BaseException:
        for part in reversed(opened):
            part.close()
        factory.close()
        raise
    camera: FrameSource | None
    sim = None
    problem = None
    if simulate:
        assert isinstance(rig_clock, ManualClock)
        tray = SimulatedTray(seed=seed, clock=rig_clock.now,
                             base=random_scene(seed, image_size=config.camera.size))
        camera = SimulatedCamera(tray, clock=rig_clock, fps=config.cycle.frames_per_second)
        sim = SimulatedTable(config, factory=factory, clock=rig_clock, camera=camera)
    else:
        try:
            camera = open_source(config.camera.source, size=config.camera.size)
        except CameraError as exc:
            camera, problem = None, str(exc)
    return Rig(factory=factory, clock=rig_clock, cup=cup, button=button, status=status,
               tray_light=tray_light, camera=camera, simulated=simulate, sim=sim,
               camera_problem=problem)
