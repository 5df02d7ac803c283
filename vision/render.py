"""The rendered camera: photo-like BGR frames of a tray with dice, and their exact truth.

Dice are real 3-D rounded cubes (faces 1-2-3 counter-clockwise round their corner,
opposite faces summing to 7) seen through a perspective camera, with shaded side
faces, soft shadows, uneven light, glare, motion blur, sensor noise and JPEG loss
as the scene's :class:`~dicetray.vision.scene.Look` asks. Drawing is vectorised
(OpenCV polygon fills, NumPy per-die patches), so a 1280x960 frame takes tens of
milliseconds.

>>> from dicetray.vision.scene import random_scene
>>> frame, truth = render(random_scene(seed=1, dice=5, image_size=(320, 240)))
>>> frame.shape, frame.dtype, len(truth.dice)
((240, 320, 3), dtype('uint8'), 5)
>>> sorted(d.value for d in truth.dice) == sorted(d.value for d in random_scene(1).dice)
True
"""

from __future__ import annotations

import csv
import functools
import json
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dicetray.vision.scene import DieState, Scene, random_scene

__all__ = [
    "Camera",
    "DieTruth",
    "FrameTruth",
    "blank_tray",
    "render",
    "render_dataset",
    "save_dataset",
]

_SHIFT = 4  # sub-pixel bits for cv2 polygon fills
_ONE = 1 << _SHIFT

# Faces as (normal, u, v) in the die's own frame (tray axes: x right, y towards the
# camera, z up), u x v = normal. Seen from outside, 1-2-3 run counter-clockwise round
# their shared corner (a right-handed die); opposite faces sum to 7.
_FACES: dict[int, tuple[tuple[int, int, int], ...]] = {
    1: ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    6: ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
    2: ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    5: ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    3: ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
    4: ((0, 1, 0), (0, 0, 1), (1, 0, 0)),
}
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip positions per face in units of the pip spacing, in the face's (u, v) axes."""

_ROUNDING = 0.13  # edge radius, of the die's edge


def _rot(axis: str, degrees: float) -> np.ndarray:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


_TOP = {1: _rot("x", 0), 6: _rot("x", 180), 2: _rot("y", -90), 5: _rot("y", 90),
        3: _rot("x", -90), 4: _rot("x", 90)}


def die_rotation(die: DieState) -> np.ndarray:
    """The die's orientation in tray axes (x right, y towards the camera, z up)."""
    tilt_axis = _rot("z", die.tilt_direction) @ np.array([0.0, 1.0, 0.0])
    return _axis_angle(tilt_axis, die.tilt) @ _rot("z", -die.rotation) @ _TOP[die.value]


def _axis_angle(axis: np.ndarray, degrees: float) -> np.ndarray:
    k = axis / np.linalg.norm(axis)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    a = math.radians(degrees)
    return np.eye(3) + math.sin(a) * kx + (1 - math.cos(a)) * kx @ kx


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the tray: world (tray mm, z up) → image pixels."""

    rotation: np.ndarray  # world → camera
    position: np.ndarray
    focal: float
    centre: tuple[float, float]
    image_size: tuple[int, int]

    @classmethod
    def for_scene(cls, scene: Scene) -> Camera:
        """Aim the scene's camera at the tray and ledge and zoom so they fill the frame."""
        pose = scene.camera
        width, depth = scene.tray_mm
        far_y = scene.ledge_y[1] if scene.ledge_mm > 0 else depth
        target = np.array([width / 2, (far_y - scene.wall_mm) / 2, 0.0])
        elev, yaw = math.radians(pose.elevation), math.radians(pose.yaw)
        back = np.array([math.sin(yaw) * math.cos(elev), math.cos(yaw) * math.cos(elev),
                         math.sin(elev)])
        position = target + pose.distance_mm * back
        forward = -back
        # Tray axes are left-handed as seen from above (x right, y towards the camera,
        # z up), so the world-to-camera matrix is a reflection: right = up x forward,
        # down = right x forward. Looking straight down, +x is right by definition.
        right = np.cross(np.array([0.0, 0.0, 1.0]), forward)
        if np.linalg.norm(right) < 1e-6:
            right = np.array([1.0, 0.0, 0.0])
        right /= np.linalg.norm(right)
        down = np.cross(right, forward)
        rotation = np.stack([right, down, forward])
        rotation = _rot("z", pose.roll) @ rotation
        w, h = pose.image_size
        outline = np.array([[x, y, z] for x in (-scene.wall_mm, width + scene.wall_mm)
                            for y in (-scene.wall_mm, far_y + 2)
                            for z in (0, scene.wall_height_mm)])
        cam = (outline - position) @ rotation.T
        xn, yn = cam[:, 0] / cam[:, 2], cam[:, 1] / cam[:, 2]
        focal = pose.fill * min(w / 2 / np.abs(xn).max(), h / 2 / np.abs(yn).max())
        return cls(rotation, position, float(focal), (w / 2, h / 2), (w, h))

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixel coordinates (N, 2) of world points (N, 3)."""
        cam = (np.asarray(points, dtype=np.float64) - self.position) @ self.rotation.T
        z = np.maximum(cam[:, 2:3], 1e-6)
        return cam[:, :2] / z * self.focal + np.asarray(self.centre)

    def distance(self, point: np.ndarray) -> float:
        """Depth of a world point along the camera's axis."""
        return float((np.asarray(point) - self.position) @ self.rotation[2])


# -- truth ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DieTruth:
    """What is really on the frame for one die.

    ``x``, ``y`` is the projection of the centre of the face pointing most upwards
    (what a recognizer sees as the die's centre); ``size`` the die's edge length in
    px there; ``bbox`` (x0, y0, x1, y1) its whole silhouette.
    """

    value: int
    x: float
    y: float
    zone: str
    size: float
    angle: float
    bbox: tuple[float, float, float, float]
    cocked: bool
    blurred: bool
    cut: bool


@dataclass(frozen=True)
class FrameTruth:
    """A rendered frame's truth: the dice, the zones (image px, at the height of the
    dice's top faces) and the die size at the tray's centre."""

    dice: tuple[DieTruth, ...]
    tray: tuple[tuple[float, float], ...]
    ledge: tuple[tuple[float, float], ...] | None
    die_size: float
    image_size: tuple[int, int]
    seed: int

    @property
    def values(self) -> tuple[int, ...]:
        """All dice values, sorted ascending (as a Reading reports them)."""
        return tuple(sorted(d.value for d in self.dice))

    @property
    def readable(self) -> bool:
        """True when a careful reader could read every die (none cocked, blurred or cut)."""
        return not any(d.cocked or d.blurred or d.cut for d in self.dice)

    def to_json(self) -> dict:
        """The truth as a JSON-ready dict."""
        return {
            "values": list(self.values),
            "readable": self.readable,
            "seed": self.seed,
            "image_size": list(self.image_size),
            "die_size": self.die_size,
            "tray": [list(p) for p in self.tray],
            "ledge": None if self.ledge is None else [list(p) for p in self.ledge],
            "dice": [
                {"value": d.value, "x": d.x, "y": d.y, "zone": d.zone, "size": d.size,
                 "angle": d.angle, "bbox": list(d.bbox), "cocked": d.cocked,
                 "blurred": d.blurred, "cut": d.cut}
                for d in self.dice
            ],
        }


# -- drawing ----------------------------------------------------------------------------


def _fill(image: np.ndarray, polygons: Sequence[np.ndarray], color: Sequence[float]) -> None:
    pts = [np.round(np.asarray(p) * _ONE).astype(np.int32) for p in polygons]
    cv2.fillPoly(image, pts, tuple(float(c) for c in color), cv2.LINE_AA, _SHIFT)


def _rounded_square(half: float, radius: float, steps: int = 5) -> np.ndarray:
    """Outline (N, 2) of a square of half-size ``half`` with rounded corners."""
    radius = min(radius, half)
    inner = half - radius
    pts = []
    for cx, cy, start in ((inner, inner, 0), (-inner, inner, 90), (-inner, -inner, 180),
                          (inner, -inner, 270)):
        for a in np.radians(np.linspace(start, start + 90, steps)):
            pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return np.array(pts)


_CIRCLE = np.array([(math.cos(a), math.sin(a)) for a in np.linspace(0, 2 * math.pi, 14,
                                                                       endpoint=False)])
_SPHERE_DIRS = np.array([d for d in np.array(np.meshgrid([-1, 0, 1], [-1, 0, 1], [-1, 0, 1]))
                         .reshape(3, -1).T if d.any()], dtype=float)
_SPHERE_DIRS /= np.linalg.norm(_SPHERE_DIRS, axis=1, keepdims=True)
_CORNERS = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)


def _light_vector(scene: Scene) -> np.ndarray:
    az, el = (math.radians(v) for v in scene.look.light)
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


@dataclass
class _Pose:
    die: DieState
    rotation: np.ndarray
    centre: np.ndarray


def _pose(scene: Scene, die: DieState) -> _Pose:
    rotation = die_rotation(die)
    half = scene.die_mm / 2
    lowest = (_CORNERS * (half * (1 - _ROUNDING * 2))) @ rotation.T
    z = -lowest[:, 2].min() + half * _ROUNDING * 2
    return _Pose(die, rotation, np.array([die.x, die.y, z]))


def _silhouette(scene: Scene, pose: _Pose, camera: Camera) -> np.ndarray:
    half = scene.die_mm / 2
    r = scene.die_mm * _ROUNDING
    corners = (_CORNERS * (half - r)) @ pose.rotation.T + pose.centre
    points = (corners[:, None, :] + r * _SPHERE_DIRS[None, :, :]).reshape(-1, 3)
    return cv2.convexHull(camera.project(points).astype(np.float32)).reshape(-1, 2)


def _draw_background(scene: Scene, camera: Camera) -> np.ndarray:
    """The empty tray in flat colours (textures and light come on top)."""
    w, h = camera.image_size
    look = scene.look
    width, depth = scene.tray_mm
    wall, height = scene.wall_mm, scene.wall_height_mm
    image = np.empty((h, w, 3), np.uint8)  # flat colours: 8 bits are plenty and fast
    image[:] = look.table

    def quad(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> np.ndarray:
        if x0 == x1:  # wall along y
            pts = [(x0, y0, z0), (x0, y1, z0), (x0, y1, z1), (x0, y0, z1)]
        elif y0 == y1:  # wall along x
            pts = [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)]
        else:  # horizontal
            pts = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0)]
        return camera.project(np.array(pts, float))

    wall_col = np.array(look.wall, float)
    _fill(image, [quad(0, 0, 0, width, depth, 0)], look.felt)
    light = _light_vector(scene)
    # inner walls, lit by how much they face the lamp
    inner = [((0, 0, 0, width, 0, height), (0, 1, 0)),
             ((0, 0, 0, 0, depth, height), (1, 0, 0)),
             ((width, 0, 0, width, depth, height), (-1, 0, 0))]
    for args, normal in inner:
        shade = 0.55 + 0.45 * max(0.0, float(np.dot(normal, light)))
        _fill(image, [quad(*args)], wall_col * shade)
    if scene.ledge_mm > 0:
        low, high = scene.ledge_y
        ledge = np.array(look.ledge, float)
        _fill(image, [quad(0, low, 0, width, high, 0)], ledge)
        lip = height * 0.3
        _fill(image, [quad(-wall, high, lip, width + wall, high + wall * 0.6, lip)], ledge * 0.8)
    # the near wall seen from outside, then the rim all round
    _fill(image, [quad(-wall, depth + wall, 0, width + wall, depth + wall, height)], wall_col * 0.7)
    rim = np.minimum(wall_col * 1.25 + 20, 255)
    for args in ((-wall, -wall, height, width + wall, 0, height),
                 (-wall, depth, height, width + wall, depth + wall, height),
                 (-wall, -wall, height, 0, depth + wall, height),
                 (width, -wall, height, width + wall, depth + wall, height)):
        _fill(image, [quad(*args)], rim)
    return image.astype(np.float32)


def _texture(camera: Camera, rng: np.random.Generator) -> np.ndarray:
    """A gain map near 1: wood-like streaks and felt grain."""
    w, h = camera.image_size
    streaks = rng.normal(1.0, 0.03, (h // 16 + 2, 1)).astype(np.float32)
    grain = rng.normal(1.0, 0.025, (h // 6 + 2, w // 6 + 2)).astype(np.float32)
    small = grain * cv2.resize(streaks, (grain.shape[1], grain.shape[0]))
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


@dataclass(frozen=True)
class _Stage:
    """Everything about a frame that does not depend on the dice (cached)."""

    camera: Camera
    background: np.ndarray  # float32 BGR, textured and lit, no dice
    light: np.ndarray  # float32 gain map (uneven light)


@functools.lru_cache(maxsize=2)  # each stage holds a float frame or two (~20 MB at 1280x960)
def _stage(scene: Scene) -> _Stage:
    camera = Camera.for_scene(scene)
    rng = np.random.default_rng([scene.seed, 7])
    light = _light_field(scene, camera, rng)
    gain = cv2.multiply(light, _texture(camera, rng))
    background = cv2.multiply(_draw_background(scene, camera), cv2.merge([gain, gain, gain]))
    return _Stage(camera, background, light)


@functools.lru_cache(maxsize=4)
def _noise_tile(width: int, height: int) -> np.ndarray:
    """Unit Gaussian noise a little larger than a frame; frames take shifted crops of it."""
    rng = np.random.default_rng(20240601)
    return rng.standard_normal((height + _NOISE_SLACK, width + _NOISE_SLACK, 3), np.float32)


_NOISE_SLACK = 97


def _draw_shadows(image: np.ndarray, scene: Scene, camera: Camera,
                  poses: Sequence[_Pose], die_px: float) -> None:
    if scene.look.shadow <= 0 or not poses:
        return
    w, h = camera.image_size
    light = _light_vector(scene)
    half = scene.die_mm / 2
    shapes: list[tuple[np.ndarray, float]] = []
    for pose in poses:
        corners = (_CORNERS * half) @ pose.rotation.T + pose.centre
        # the cast shadow: corners projected to the floor along the light
        t = corners[:, 2] / max(light[2], 0.2)
        floor = corners - t[:, None] * light
        floor[:, 2] = 0
        shapes.append((camera.project(floor), 0.8))
        base = corners.copy()
        base[:, 2] = 0
        shapes.append((camera.project(base), 1.0))  # contact shadow under the die
    # only the region the shadows can reach is touched, at a quarter resolution
    scale = 4
    sigma = max(die_px * 0.18, 2.0)
    every = np.vstack([pts for pts, _ in shapes])
    x0, y0 = np.maximum(np.floor(every.min(axis=0) - 3 * sigma), 0).astype(int) // scale * scale
    x1, y1 = np.minimum(np.ceil(every.max(axis=0) + 3 * sigma), (w, h)).astype(int)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros(((y1 - y0) // scale + 2, (x1 - x0) // scale + 2), np.float32)
    for pts, strength in shapes:
        hull = cv2.convexHull(((pts - (x0, y0)) / scale).astype(np.float32)).reshape(-1, 2)
        _fill(mask, [hull], [strength])
    mask = cv2.GaussianBlur(mask, (0, 0), sigma / scale)
    full = cv2.resize(mask, (mask.shape[1] * scale, mask.shape[0] * scale),
                      interpolation=cv2.INTER_LINEAR)[: y1 - y0, : x1 - x0]
    gain = 1.0 - scene.look.shadow * np.minimum(full, 1.0)
    region = image[y0:y1, x0:x1]
    cv2.multiply(region, cv2.merge([gain, gain, gain]), dst=region)


def _draw_die(image: np.ndarray, scene: Scene, camera: Camera, pose: _Pose,
              light_field: np.ndarray) -> tuple[np.ndarray, int, float]:
    """Draw one die onto ``image``; return its silhouette, the top face value and angle."""
    style, look = scene.style, scene.look
    size = scene.die_mm
    half = size / 2
    r = size * _ROUNDING
    hull = _silhouette(scene, pose, camera)
    h, w = image.shape[:2]
    blur_px = 0.0
    motion = np.zeros(2)
    if pose.die.moving:
        shift = np.array([pose.die.motion[0], pose.die.motion[1], 0.0])
        ahead = camera.project(np.array([pose.centre + shift, pose.centre]))
        motion = ahead[0] - ahead[1]
        blur_px = float(np.linalg.norm(motion)) + abs(pose.die.spin) / 90 * size
    pad = int(blur_px) + 4
    x0 = max(int(hull[:, 0].min()) - pad, 0)
    y0 = max(int(hull[:, 1].min()) - pad, 0)
    x1 = min(int(hull[:, 0].max()) + pad + 1, w)
    y1 = min(int(hull[:, 1].max()) + pad + 1, h)
    if x1 <= x0 or y1 <= y0:
        return hull, _top_value(pose), 0.0
    offset = np.array([x0, y0], float)
    patch_h, patch_w = y1 - y0, x1 - x0
    light = _light_vector(scene)
    to_camera = camera.position - pose.centre
    to_camera /= np.linalg.norm(to_camera)
    body = np.array(style.die_color, float)
    faces, far = [], []
    for value, (n, u, v) in _FACES.items():
        normal = pose.rotation @ np.array(n, float)
        centre = pose.centre + normal * half
        axes = pose.rotation @ np.array(u, float), pose.rotation @ np.array(v, float)
        facing = float(np.dot(normal, camera.position - centre))
        if facing <= 0:
            far.append((value, normal, centre, *axes))
            continue
        lambert = max(0.0, float(np.dot(normal, light)))
        # normalised so that a flat top face shows the die's own colour
        shade = (0.5 + 0.5 * lambert) / (0.5 + 0.5 * light[2]) * look.brightness
        faces.append((float(np.dot(normal, to_camera)), value, normal, centre, *axes, shade))
    faces.sort(key=lambda f: f[0])
    colour = np.empty((patch_h, patch_w, 3), np.float32)
    colour[:] = body * (np.mean([f[6] for f in faces]) * 0.92 if faces else 0.5)
    alpha = np.zeros((patch_h, patch_w), np.float32)
    pip_alpha = np.zeros((patch_h, patch_w), np.float32)
    _fill(alpha, [hull - offset], [1.0])
    outline = _rounded_square(half - r * 0.55, r * 1.1)
    pip_ring = _CIRCLE * (size * style.pip_diameter / 2)
    spacing = size * style.pip_spacing
    for _, value, normal, centre, u, v, shade in faces:
        flat = centre + outline[:, :1] * u + outline[:, 1:] * v
        _fill(colour, [camera.project(flat) - offset], body * shade)
        polys = _pip_polygons(camera, value, centre + normal * 0.05, u, v, spacing, pip_ring,
                              offset)
        pip = np.array(style.pip_color, float)
        # pips are shallow dents: a little darker than their colour, shaded with the face
        _fill(colour, polys, pip * (0.55 + 0.45 * shade) * 0.92)
        _fill(pip_alpha, polys, [1.0])
    if style.ghosts > 0 and style.opacity < 1 and faces:
        _draw_ghosts(colour, alpha * (1 - pip_alpha), scene, camera, pose, far, offset, light,
                     outline, pip_ring)
    top_value, top_normal, top_centre, top_u = _top_face(pose, half)
    if style.gloss > 0 and look.glare > 0 and faces:
        # a soft highlight where the lamp's reflection lands on the top face
        reflect = 2 * np.dot(top_normal, light) * top_normal - light
        strength = max(0.0, float(np.dot(reflect, to_camera))) ** 6 * style.gloss * look.glare
        if strength > 0.02:
            spot = top_centre + np.array([light[0], light[1], 0.0]) * half * 0.35
            centre_px = camera.project(spot[None])[0] - offset
            glare = np.zeros((patch_h, patch_w), np.float32)
            radius = max(float(np.linalg.norm(
                camera.project(np.array([top_centre, top_centre + top_u * half]))[1]
                - camera.project(top_centre[None])[0])) * 0.45, 1.0)
            cv2.circle(glare, (int(centre_px[0]), int(centre_px[1])), int(radius), 1.0, -1)
            glare = cv2.GaussianBlur(glare, (0, 0), radius * 0.5)
            colour += (glare * strength * 255 * alpha)[:, :, None]
    colour *= light_field[y0:y1, x0:x1, None]
    opacity = style.opacity
    a = alpha * (opacity + (1 - opacity) * pip_alpha) if opacity < 1 else alpha
    premult = colour * a[:, :, None]
    if blur_px >= 1.0:
        kernel = _motion_kernel(motion, blur_px)
        premult = cv2.filter2D(premult, -1, kernel)
        a = cv2.filter2D(a, -1, kernel)
    region = image[y0:y1, x0:x1]
    region *= (1.0 - a)[:, :, None]
    region += premult
    # the truth angle: the top face's u axis as seen in the image, folded into [0, 90)
    ends = camera.project(np.array([top_centre, top_centre + top_u * half]))
    angle = math.degrees(math.atan2(ends[1, 1] - ends[0, 1], ends[1, 0] - ends[0, 0])) % 90
    return hull, top_value, angle


#: How far in (a share of their true distance from the die's centre) a translucent die's
#: far edges look, seen through its near faces.
_DRAWN_IN = 0.7


def _pip_polygons(camera: Camera, value: int, plane: np.ndarray, u: np.ndarray, v: np.ndarray,
                  spacing: float, ring: np.ndarray, offset: np.ndarray) -> list[np.ndarray]:
    """The image outlines (less ``offset``) of face ``value``'s pips, each ``ring`` (mm,
    in the face's axes ``u`` and ``v``) round its place on the plane through ``plane``."""
    return [camera.project(plane + (pu * spacing + ring[:, :1]) * u
                           + (pv * spacing + ring[:, 1:]) * v) - offset
            for pu, pv in PIPS[value]]


def _draw_ghosts(colour: np.ndarray, clear: np.ndarray, scene: Scene, camera: Camera,
                 pose: _Pose, far: list[tuple[int, np.ndarray, np.ndarray, np.ndarray,
                                              np.ndarray]],
                 offset: np.ndarray, light: np.ndarray, outline: np.ndarray,
                 pip_ring: np.ndarray) -> None:
    """The ``far`` faces (value, normal, centre, u, v) seen through a translucent die (its
    style's ``ghosts``): their pips, dimmed by the body, and the stretch of their rounded
    edges (``outline``) turned from the lamp, which catches its light
    (:data:`_DRAWN_IN`); drawn on ``colour`` where ``clear`` (the body, not its near pips)
    lets them through."""
    style = scene.style
    half = scene.die_mm / 2
    through = style.ghosts * min(1.0, 2 * (1 - style.opacity))
    spacing = scene.die_mm * style.pip_spacing
    pips = np.zeros(clear.shape, np.float32)
    shine = np.zeros(clear.shape, np.float32)
    away = -light[:2] / (np.linalg.norm(light[:2]) or 1.0)
    half_px = _edge_px(camera, pose.centre, scene.die_mm) / 2
    width = max(1, round(0.12 * half_px))
    for value, normal, centre, u, v in far:
        _fill(pips, _pip_polygons(camera, value, centre, u, v, spacing, pip_ring, offset), [1.0])
        # seen through the near faces' glass the far edges look drawn in towards the middle
        edge = pose.centre + _DRAWN_IN * (normal * half + outline[:, :1] * u
                                          + outline[:, 1:] * v)
        lit = ((edge - pose.centre)[:, :2] / half) @ away > 0.3
        if lit.any():
            start = -int(np.argmin(lit))  # from an edge point in the dark, the lit run whole
            run = np.roll(edge, start, axis=0)[np.roll(lit, start)]
            line = np.round((camera.project(run) - offset) * _ONE).astype(np.int32)
            cv2.polylines(shine, [line], False, 1.0, width, cv2.LINE_AA, _SHIFT)
    sigma = max(0.4, 0.05 * half_px)  # the body scatters what it lets through
    pips = cv2.GaussianBlur(pips, (0, 0), sigma) * clear * through
    shine = cv2.GaussianBlur(shine, (0, 0), sigma) * clear * style.ghosts * style.gloss
    ink = 0.6 * np.array(style.pip_color, np.float32) + 0.4 * np.array(style.die_color, np.float32)
    colour *= (1 - pips)[:, :, None]
    colour += pips[:, :, None] * ink + (shine * 255)[:, :, None]


def _motion_kernel(motion: np.ndarray, length: float) -> np.ndarray:
    size = int(length) | 1
    kernel = np.zeros((size, size), np.float32)
    direction = motion / (np.linalg.norm(motion) or 1.0)
    if not np.linalg.norm(motion):
        direction = np.array([1.0, 0.0])
    c = size // 2
    p0 = (c - direction * (size / 2 - 0.5))
    p1 = (c + direction * (size / 2 - 0.5))
    cv2.line(kernel, (round(p0[0]), round(p0[1])), (round(p1[0]), round(p1[1])), 1.0, 1,
             cv2.LINE_AA)
    return kernel / kernel.sum()


def _top_face(pose: _Pose, half: float) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    best = max(_FACES, key=lambda k: (pose.rotation @ np.array(_FACES[k][0], float))[2])
    n, u, _ = _FACES[best]
    normal = pose.rotation @ np.array(n, float)
    return best, normal, pose.centre + normal * half, pose.rotation @ np.array(u, float)


def _top_value(pose: _Pose) -> int:
    return _top_face(pose, 1.0)[0]


def _light_field(scene: Scene, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    w, h = camera.image_size
    gw, gh = 32, 24
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    xs, ys = xs / (gw - 1) - 0.5, ys / (gh - 1) - 0.5
    az = math.radians(scene.look.light[0])
    uneven = scene.look.unevenness
    gradient = (xs * math.cos(az) - ys * math.sin(az)) * uneven
    hot = rng.uniform(-0.3, 0.3, 2)
    spot = np.exp(-((xs - hot[0]) ** 2 + (ys - hot[1]) ** 2) / 0.18) * uneven * 0.6
    vignette = -(xs**2 + ys**2) * uneven * 0.8
    field = (1.0 + gradient + spot + vignette) * scene.look.brightness
    return cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def render(scene: Scene, frame_index: int = 0) -> tuple[np.ndarray, FrameTruth]:
    """Render one BGR uint8 frame of ``scene`` and return it with its exact truth.

    The same scene and ``frame_index`` give the same pixels; another ``frame_index``
    changes only the sensor noise (as successive captures of a still tray would).
    """
    stage = _stage(scene.with_dice(()))
    camera = stage.camera
    w, h = camera.image_size
    image = stage.background.copy()
    poses = [_pose(scene, die) for die in scene.dice]
    centre_mm = np.array([scene.tray_mm[0] / 2, scene.tray_mm[1] / 2, scene.die_mm])
    die_px = _edge_px(camera, centre_mm, scene.die_mm)
    _draw_shadows(image, scene, camera, poses, die_px)
    order = sorted(range(len(poses)), key=lambda i: -camera.distance(poses[i].centre))
    truths: dict[int, DieTruth] = {}
    for i in order:
        pose = poses[i]
        hull, value, angle = _draw_die(image, scene, camera, pose, stage.light)
        _, _, top_centre, _ = _top_face(pose, scene.die_mm / 2)
        cx, cy = camera.project(top_centre[None])[0]
        x0, y0 = hull.min(axis=0)
        x1, y1 = hull.max(axis=0)
        truths[i] = DieTruth(
            value=value, x=float(cx), y=float(cy), zone=pose.die.zone,
            size=_edge_px(camera, top_centre, scene.die_mm), angle=float(angle),
            bbox=(float(x0), float(y0), float(x1), float(y1)),
            cocked=pose.die.cocked, blurred=pose.die.moving,
            cut=bool(x0 < 0 or y0 < 0 or x1 > w - 1 or y1 > h - 1),
        )
    if scene.look.defocus > 0.2:
        image = cv2.GaussianBlur(image, (0, 0), scene.look.defocus)
    if scene.look.noise > 0:
        dx, dy = np.random.default_rng([scene.seed, 11, frame_index]).integers(0, _NOISE_SLACK, 2)
        noise = _noise_tile(w, h)[dy : dy + h, dx : dx + w]
        image = cv2.scaleAdd(noise, float(scene.look.noise), image)
    frame = np.clip(image, 0, 255).astype(np.uint8)
    if scene.look.jpeg is not None:
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(scene.look.jpeg)])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    truth = FrameTruth(
        dice=tuple(truths[i] for i in range(len(poses))),
        tray=_zone_polygon(camera, 0, 0, *scene.tray_mm, scene.die_mm),
        ledge=_zone_polygon(camera, 0, scene.ledge_y[0], scene.tray_mm[0], scene.ledge_y[1],
                            scene.die_mm) if scene.ledge_mm > 0 else None,
        die_size=die_px, image_size=(w, h), seed=scene.seed,
    )
    return frame, truth


def _edge_px(camera: Camera, point: np.ndarray, die_mm: float) -> float:
    half = np.array([die_mm / 2, 0.0, 0.0])
    ends = camera.project(np.array([point - half, point + half]))
    return float(np.linalg.norm(ends[1] - ends[0]))


def _zone_polygon(camera: Camera, x0: float, y0: float, x1: float, y1: float,
                  z: float) -> tuple[tuple[float, float], ...]:
    corners = np.array([(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z)], float)
    return tuple((float(x), float(y)) for x, y in camera.project(corners))


def render_dataset(
    n: int, seed: int = 0, hard: bool = True, *, dice: int | None = None,
    image_size: tuple[int, int] = (1280, 960),
) -> Iterator[tuple[np.ndarray, FrameTruth]]:
    """Yield ``n`` rendered (frame, truth) pairs, reproducible from ``seed``.

    Each frame has ``dice`` dice (1 to 6 when None, mostly 5); ``hard`` frames vary
    camera, light, colours and include touching, cocked, blurred and cut-off dice.

    >>> pairs = list(render_dataset(2, seed=4, dice=3, image_size=(160, 120)))
    >>> [len(truth.dice) for _, truth in pairs], pairs[0][0].shape
    ([3, 3], (120, 160, 3))
    """
    rng = np.random.default_rng(seed)
    for _ in range(n):
        count = dice if dice is not None else int(rng.choice([5, 5, 5, 1, 2, 3, 4, 6]))
        scene = random_scene(int(rng.integers(2**31)), count, hard=hard, image_size=image_size)
        yield render(scene)


def save_dataset(folder: str | os.PathLike[str], n: int, seed: int = 0, hard: bool = True, *,
                 image_size: tuple[int, int] = (1280, 960)) -> Path:
    """Write ``n`` rendered frames to ``folder`` like the real photo sets are laid out.

    ``images/NNNNN.png``, ``labels.csv`` (``image``, ``n_dice``, ``values_sorted``
    space-separated ascending, ``readable``) and ``truth.jsonl`` (one
    :meth:`FrameTruth.to_json` per line, with its ``image``). Returns the folder.
    """
    from dicetray.vision.imageio import write_image

    folder = Path(folder)
    (folder / "images").mkdir(parents=True, exist_ok=True)
    with open(folder / "labels.csv", "w", newline="", encoding="utf-8") as labels, \
            open(folder / "truth.jsonl", "w", encoding="utf-8") as truths:
        table = csv.writer(labels)
        table.writerow(["image", "n_dice", "values_sorted", "readable"])
        for i, (frame, truth) in enumerate(render_dataset(n, seed, hard,
                                                          image_size=image_size)):
            name = f"images/{i:05d}.png"
            write_image(folder / name, frame)  # through bytes: any folder name
            table.writerow([name, len(truth.dice), " ".join(map(str, truth.values)),
                            int(truth.readable)])
            truths.write(json.dumps({"image": name, **truth.to_json()}) + "\n")
    return folder


def blank_tray(scene: Scene) -> np.ndarray:
    """The empty tray of ``scene`` (no dice), as a BGR frame."""
    return render(scene.with_dice(()))[0]
