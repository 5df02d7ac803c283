"""Things on a real table that are not dice, drawn into training frames so the face
classifier learns to call them "no die": discs (coins, tokens, holes), keyboard keys with
their letters, cables and their plugs, labels and score pads with text, pencils.

The detector, trained on rendered dice only, now and then finds such a thing where a
photo shows one; the classifier's second opinion is what turns it away.

>>> rng = np.random.default_rng(1)
>>> image = np.full((120, 160, 3), 128, np.float32)
>>> spots = scatter(rng, image, avoid=[(40.0, 60.0, 30.0)], size=30.0, count=2)
>>> len(spots), all(math.hypot(x - 40, y - 60) > 30 for x, y, _ in spots)
(2, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np

__all__ = ["KINDS", "scatter"]

#: A spot to crop: centre x, y and the size a detector would give it (px).
Spot = tuple[float, float, float]
_Draw = Callable[[np.random.Generator, np.ndarray, float, float, float], Spot]
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=?&%$#@/<>"
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_PLAIN,
          cv2.FONT_HERSHEY_COMPLEX)


def _colour(rng: np.random.Generator, dark: bool | None = None) -> np.ndarray:
    """A plain colour: greyish most of the time (keys, cables, paper), now and then any."""
    if dark is None and rng.random() < 0.3:
        return rng.uniform(0, 255, 3).astype(np.float32)
    level = rng.uniform(5, 70) if (dark if dark is not None else rng.random() < 0.5) \
        else rng.uniform(150, 250)
    return np.clip(level + rng.normal(0, 8, 3), 0, 255).astype(np.float32)


def _paint(image: np.ndarray, mask: np.ndarray, colour: np.ndarray, soft: float = 0.7) -> None:
    """Lay ``colour`` over ``image`` where ``mask`` (uint8, 0/255) is set, edges softened."""
    alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), soft)[..., None]
    image *= 1 - alpha
    image += alpha * colour[None, None, :]


def _shadow(rng: np.random.Generator, image: np.ndarray, mask: np.ndarray, r: float) -> None:
    """Darken the floor under and beside a thing (half of them cast one)."""
    if rng.random() < 0.5:
        return
    dx, dy = rng.normal(0, 0.12 * r, 2)
    moved = cv2.warpAffine(mask, np.float32([[1, 0, dx], [0, 1, dy]]), mask.shape[::-1])
    alpha = cv2.GaussianBlur(moved.astype(np.float32) / 255.0, (0, 0), max(1.0, 0.15 * r))
    image *= (1 - rng.uniform(0.2, 0.5) * alpha)[..., None]


def _text(rng: np.random.Generator, image: np.ndarray, x: float, y: float, height: float,
          colour: np.ndarray, chars: int) -> None:
    """A few random characters about ``height`` px tall centred on (x, y)."""
    word = "".join(rng.choice(list(_LETTERS), chars))
    font = int(rng.choice(_FONTS))
    (tw, th), _ = cv2.getTextSize(word, font, 1.0, 1)
    scale = height / max(th, 1)
    thick = max(1, round(scale * rng.uniform(0.8, 2.2)))
    (tw, th), _ = cv2.getTextSize(word, font, scale, thick)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.putText(mask, word, (round(x - tw / 2), round(y + th / 2)), font, scale, 255, thick,
                cv2.LINE_AA)
    _paint(image, mask, colour, 0.5)


def _disc(rng: np.random.Generator, image: np.ndarray, x: float, y: float, r: float) -> Spot:
    """A coin, a token, a button or a hole in the tray: round, no corners, no pip layout."""
    mask = np.zeros(image.shape[:2], np.uint8)
    rx, ry = r * rng.uniform(0.35, 0.55), r * rng.uniform(0.35, 0.55)
    cv2.ellipse(mask, (round(x), round(y)), (round(rx), round(ry)), float(rng.uniform(0, 180)),
                0, 360, 255, -1, cv2.LINE_AA)
    _shadow(rng, image, mask, r)
    colour = _colour(rng)
    _paint(image, mask, colour)
    if rng.random() < 0.5:  # a rim
        ring = np.zeros_like(mask)
        cv2.ellipse(ring, (round(x), round(y)), (round(rx), round(ry)), 0, 0, 360, 255,
                    max(1, round(0.12 * rx)), cv2.LINE_AA)
        _paint(image, ring, np.clip(colour * rng.uniform(0.5, 1.5), 0, 255))
    for _ in range(int(rng.integers(0, 3))):  # a mark or two, off the middle
        a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.5, 0.9)
        spot = np.zeros_like(mask)
        cv2.circle(spot, (round(x + d * rx * math.cos(a)), round(y + d * ry * math.sin(a))),
                   max(1, round(0.12 * rx)), 255, -1, cv2.LINE_AA)
        _paint(image, spot, _colour(rng, dark=bool(colour.mean() > 110)))
    if rng.random() < 0.3:  # embossed figures
        _text(rng, image, x, y, 0.5 * ry, np.clip(colour * rng.uniform(0.6, 1.4), 0, 255), 2)
    return x, y, 2 * max(rx, ry)


def _rounded_rect(mask: np.ndarray, x: float, y: float, w: float, h: float, corner: float,
                  angle: float) -> None:
    """A filled rectangle with rounded corners, turned by ``angle`` degrees."""
    local = np.zeros((round(h + 4 * corner + 4), round(w + 4 * corner + 4)), np.uint8)
    cy, cx = local.shape[0] / 2, local.shape[1] / 2
    c = max(1, round(corner))
    x0, y0, x1, y1 = round(cx - w / 2), round(cy - h / 2), round(cx + w / 2), round(cy + h / 2)
    cv2.rectangle(local, (x0 + c, y0), (x1 - c, y1), 255, -1)
    cv2.rectangle(local, (x0, y0 + c), (x1, y1 - c), 255, -1)
    for px, py in ((x0 + c, y0 + c), (x1 - c, y0 + c), (x0 + c, y1 - c), (x1 - c, y1 - c)):
        cv2.circle(local, (px, py), c, 255, -1, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    turn[:, 2] += (x - cx, y - cy)
    placed = cv2.warpAffine(local, turn, mask.shape[::-1])
    np.maximum(mask, placed, out=mask)


def _keys(rng: np.random.Generator, image: np.ndarray, x: float, y: float, r: float) -> Spot:
    """A patch of keyboard: rounded keys in rows, each with a letter or two."""
    angle = float(rng.uniform(-30, 30))
    key, gap = r * rng.uniform(0.8, 1.3), r * rng.uniform(0.1, 0.35)
    wide = key * rng.choice([1.0, 1.0, 1.5, 2.2])
    body = _colour(rng)
    letters = _colour(rng, dark=bool(body.mean() > 110))
    c, s = math.cos(math.radians(-angle)), math.sin(math.radians(-angle))
    mask = np.zeros(image.shape[:2], np.uint8)
    centres = []
    for row in (-1, 0, 1):
        for col in (-2, -1, 0, 1, 2):
            w = wide if (row, col) == (0, 0) else key
            dx, dy = col * (key + gap) + (0.3 * key * row), row * (key + gap)
            kx, ky = x + dx * c - dy * s, y + dx * s + dy * c
            _rounded_rect(mask, kx, ky, w, key, key * rng.uniform(0.08, 0.25), -angle)
            centres.append((kx, ky))
    _shadow(rng, image, mask, r)
    _paint(image, mask, body)
    for kx, ky in centres:
        if rng.random() < 0.85:
            _text(rng, image, kx + rng.normal(0, 0.1 * key), ky + rng.normal(0, 0.1 * key),
                  key * rng.uniform(0.15, 0.4), letters, int(rng.integers(1, 3)))
    return x, y, float(np.clip(key * rng.uniform(0.8, 1.2), 0.6 * r, 1.6 * r))


def _cable(rng: np.random.Generator, image: np.ndarray, x: float, y: float, r: float) -> Spot:
    """A cable snaking across, ending in a plug at (x, y)."""
    colour = _colour(rng, dark=rng.random() < 0.8)
    width = max(2, round(r * rng.uniform(0.15, 0.5)))
    heading = rng.uniform(0, 2 * math.pi)
    pts, px, py = [], x, y
    for _ in range(12):
        pts.append((round(px), round(py)))
        heading += rng.normal(0, 0.3)
        px, py = px + r * math.cos(heading), py + r * math.sin(heading)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.polylines(mask, [np.array(pts, np.int32)], False, 255, width, cv2.LINE_AA)
    plug = rng.random() < 0.7
    if plug:  # along the cable's first stretch
        along = math.degrees(math.atan2(pts[1][1] - y, pts[1][0] - x))
        _rounded_rect(mask, x, y, r * rng.uniform(0.8, 1.6), r * rng.uniform(0.6, 1.1),
                      r * 0.1, -along)
    _shadow(rng, image, mask, r)
    _paint(image, mask, colour)
    if rng.random() < 0.4:  # moving, or out of focus
        blurred = cv2.GaussianBlur(image, (0, 0), rng.uniform(1.0, 3.0))
        near = cv2.GaussianBlur(cv2.dilate(mask, np.ones((9, 9), np.uint8)).astype(np.float32)
                                / 255.0, (0, 0), 2.0)[..., None]
        image[:] = image * (1 - near) + blurred * near
    if plug:
        return x, y, r * rng.uniform(0.8, 1.3)
    k = int(rng.integers(1, len(pts)))
    return float(pts[k][0]), float(pts[k][1]), r * rng.uniform(0.6, 1.2)


def _label(rng: np.random.Generator, image: np.ndarray, x: float, y: float, r: float) -> Spot:
    """A label, a card or a score pad: a light sheet with lines of text."""
    w, h = r * rng.uniform(1.2, 4.0), r * rng.uniform(0.8, 2.5)
    angle = float(rng.uniform(-90, 90))
    mask = np.zeros(image.shape[:2], np.uint8)
    _rounded_rect(mask, x, y, w, h, r * 0.05, angle)
    _shadow(rng, image, mask, r)
    paper = _colour(rng, dark=rng.random() < 0.15)
    _paint(image, mask, paper)
    ink = _colour(rng, dark=bool(paper.mean() > 110))
    lines = int(rng.integers(1, 4))
    c, s = math.cos(math.radians(-angle)), math.sin(math.radians(-angle))
    for k in range(lines):
        dy = (k - (lines - 1) / 2) * h / (lines + 0.5)
        _text(rng, image, x - dy * s, y + dy * c, h / (lines + 1) * rng.uniform(0.5, 0.9), ink,
              int(rng.integers(2, 6)))
    return x + rng.normal(0, 0.3 * r), y + rng.normal(0, 0.3 * r), r * rng.uniform(0.8, 1.4)


def _pencil(rng: np.random.Generator, image: np.ndarray, x: float, y: float, r: float) -> Spot:
    """A pencil, a pen or a stick: long and thin."""
    mask = np.zeros(image.shape[:2], np.uint8)
    _rounded_rect(mask, x, y, r * rng.uniform(4, 9), r * rng.uniform(0.25, 0.6), r * 0.1,
                  float(rng.uniform(0, 180)))
    _shadow(rng, image, mask, r)
    _paint(image, mask, _colour(rng))
    return x, y, r * rng.uniform(0.7, 1.2)


#: Each kind of thing and how to draw it: ``draw(rng, image, x, y, die_size) -> spot``.
KINDS: dict[str, _Draw] = {"disc": _disc, "keys": _keys, "cable": _cable, "label": _label,
                           "pencil": _pencil}


def scatter(rng: np.random.Generator, image: np.ndarray, avoid: Sequence[Spot], size: float,
            count: int) -> list[Spot]:
    """Draw up to ``count`` things into ``image`` (float32 BGR, in place), each centred
    clear of the dice in ``avoid`` (x, y, size) and about a die's ``size``; returns where
    each is, to crop as "no die"."""
    h, w = image.shape[:2]
    spots: list[Spot] = []
    for _ in range(count):
        for _attempt in range(20):
            x, y = float(rng.uniform(0.05 * w, 0.95 * w)), float(rng.uniform(0.05 * h, 0.95 * h))
            if all(math.hypot(x - ax, y - ay) > 0.9 * (size + s) for ax, ay, s in avoid):
                break
        else:
            continue
        draw = KINDS[str(rng.choice(list(KINDS)))]
        spots.append(draw(rng, image, x, y, size * float(np.exp(rng.normal(0, 0.2)))))
    return spots
