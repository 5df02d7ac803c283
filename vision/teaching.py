"""Teaching the tray its dice: values the players confirmed, and the second opinion they make.

The face classifier learnt rendered dice; on a tray's own dice it can read a 6 as a 4
every time. A :class:`Teaching` keeps, for each die the players confirmed, the value and
what the classifier answered for it (its probabilities over
:data:`~dicetray.vision.classifier.CLASSES`). Their mean per value is a prototype: how the
classifier sees that value on these dice. :meth:`Teaching.second_opinion` then reads an
answer by its nearest prototype, so a 6 it calls a 4 the way it called the confirmed 6s
is read as a 6. Taught in milliseconds, it runs on the Pi as is.

A teaching file is JSON with a kind, a version and a SHA-256 checksum of its examples:
a file that is not one, from another version, or whose checksum does not match is
refused with a :class:`~dicetray.vision.errors.TeachingError` saying why.

>>> t = Teaching().apply(Confirmed(6, (0.0, 0.0, 0.0, 0.0, 0.9, 0.0, 0.1, 0.0)))
>>> p = t.second_opinion(np.array([0.02, 0, 0, 0, 0.85, 0, 0.13, 0]))
>>> int(np.argmax(p)), round(float(p[6]), 2)
(6, 0.71)
>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "teaching.json"
>>> t.save(path); Teaching.load(path) == t
True
>>> _ = path.write_text(path.read_text().replace('"value": 6', '"value": 5'))
>>> Teaching.load(path)
Traceback (most recent call last):
...
dicetray.vision.errors.TeachingError: .../teaching.json: checksum does not match its examples ...
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dicetray.vision.classifier import CLASSES
from dicetray.vision.errors import TeachingError

__all__ = ["KIND", "TEACHING_VERSION", "Confirmed", "Teaching", "confirmed"]

#: What a teaching file says it is (a calibration or a rule set is refused as foreign).
KIND = "dicetray-teaching"
#: The version written into every teaching file; other versions are refused.
TEACHING_VERSION = 1
#: Largest teaching file read: an example is under 200 bytes of JSON, so 16 MB holds some
#: 80,000 confirmed dice, years of corrections; /dev/zero or a stray video ends at once.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: How sharply the nearest prototype wins: the L1 distance between two answers that
#: makes one e times likelier (answers of one value on one tray lie 0.05-0.3 apart).
SHARPNESS = 0.15
_VALUES = range(1, 7)
_UNREADABLE, _NONE = CLASSES.index("unreadable"), CLASSES.index("none")


@dataclass(frozen=True)
class Confirmed:
    """One die whose value the players confirmed, with the classifier's answer for it."""

    value: int
    probs: tuple[float, ...]

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or self.value not in _VALUES:
            raise TeachingError(f"a confirmed die's value must be 1..6, got {self.value!r}")
        probs = tuple(float(v) for v in self.probs)
        if len(probs) != len(CLASSES) or not all(math.isfinite(v) and 0 <= v <= 1
                                                 for v in probs):
            raise TeachingError(f"a confirmed die's answer must be {len(CLASSES)} "
                                f"probabilities in 0..1, got {self.probs!r}")
        object.__setattr__(self, "probs", probs)


@dataclass(frozen=True)
class Teaching:
    """The dice the players confirmed on one tray; :meth:`apply` adds one."""

    examples: tuple[Confirmed, ...] = ()
    version: int = TEACHING_VERSION

    def apply(self, event: Confirmed) -> Teaching:
        """This teaching with one more confirmed die."""
        if not isinstance(event, Confirmed):
            raise TeachingError(f"a teaching learns Confirmed dice, got {type(event).__name__}")
        return Teaching((*self.examples, event), self.version)

    def prototypes(self) -> dict[int, np.ndarray]:
        """The mean classifier answer per confirmed value.

        >>> Teaching((Confirmed(2, (0, 0, .5, .5, 0, 0, 0, 0)),)).prototypes()[2].tolist()
        [0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0]
        """
        out: dict[int, np.ndarray] = {}
        for value in _VALUES:
            rows = [e.probs for e in self.examples if e.value == value]
            if rows:
                out[value] = np.mean(np.array(rows, np.float64), axis=0)
        return out

    def _untaught(self, value: int) -> np.ndarray:
        """The prototype of a value not taught: the classifier's answer at the confidence
        it shows on the confirmed dice (its mean share on the value it found likeliest
        there, right or wrong), the rest spread evenly (a one-hot prototype would pull
        every answer to the taught values). Taken on the confirmed value instead, a
        classifier that misread these dice (a 6 read as a 4) made up prototypes less sure
        of their own value than of any other, and a clear 3 read as anything but 3.

        >>> t = Teaching((Confirmed(6, (0, 0, 0, 0, .95, 0, .05, 0)),))
        >>> int(np.argmax(t._untaught(3)))
        3
        """
        sure = float(np.mean([max(e.probs[1:7]) for e in self.examples]))
        out = np.full(len(CLASSES), (1.0 - sure) / (len(CLASSES) - 1))
        out[value] = sure
        return out

    def second_opinion(self, probs: np.ndarray) -> np.ndarray:
        """The classifier's answer ``probs`` (over CLASSES) read by the nearest prototype:
        the share it gives the values is shared out among them by how near ``probs`` lies
        to each value's prototype (a value not taught has one made up, see
        :meth:`_untaught`); unreadable and no die keep theirs."""
        probs = np.asarray(probs, np.float64)
        taught = self.prototypes()
        if not taught:
            return probs.astype(np.float32)
        dist = np.array([np.abs(probs - taught.get(v, self._untaught(v))).sum()
                         for v in _VALUES])
        weight = np.exp(-(dist - dist.min()) / SHARPNESS)
        out = probs.copy()
        share = 1.0 - probs[_UNREADABLE] - probs[_NONE]
        values = share * weight / weight.sum()
        # never surer than the classifier was of its own best value: teaching says what
        # its answers mean on these dice, not how sure they are
        top, cap = float(values.max()), float(probs[1:7].max())
        if top > cap and share > top:
            best = int(np.argmax(values))
            rest = values.sum() - top
            values = values * ((share - cap) / rest) if rest > 0 else values
            values[best] = cap
        out[1:7] = values
        return out.astype(np.float32)

    # -- files -----------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The file's content: kind, version, examples and their checksum."""
        examples = [{"value": e.value, "probs": [round(v, 6) for v in e.probs]}
                    for e in self.examples]
        return {"kind": KIND, "version": self.version, "examples": examples,
                "checksum": _checksum(examples)}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the teaching file, synced to disk before it takes the old one's place:
        after a power cut the file is the new one or the old one, whole (OSError when it
        cannot be written; the old file is then untouched)."""
        from dicetray.rules import write_durably

        write_durably(path, (json.dumps(self.to_json(), indent=1) + "\n").encode())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Teaching:
        """Read a teaching file; TeachingError naming the file and the reason when it is
        missing, not JSON, foreign, of another version, or damaged."""
        from dicetray.vision.imageio import read_bytes

        path = Path(path)
        try:
            data = json.loads(read_bytes(path, MAX_FILE_BYTES).decode())
        except FileNotFoundError:
            raise TeachingError(f"{path}: no such teaching file") from None
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
            why = " ".join(str(exc).split())[:200] or type(exc).__name__
            raise TeachingError(f"{path}: not a teaching file ({why})") from None
        try:
            return cls.from_json(data)
        except TeachingError as exc:
            raise TeachingError(f"{path}: {exc}") from None

    @classmethod
    def from_json(cls, data: Any) -> Teaching:
        """The teaching a file's content holds (see :meth:`to_json`)."""
        if not isinstance(data, dict) or data.get("kind") != KIND:
            kind = data.get("kind") if isinstance(data, dict) else type(data).__name__
            raise TeachingError(f"not a dicetray teaching file (kind {kind!r})")
        if data.get("version") != TEACHING_VERSION:
            raise TeachingError(f"unsupported version {data.get('version')!r} "
                                f"(expected {TEACHING_VERSION})")
        examples = data.get("examples")
        if not isinstance(examples, list):
            raise TeachingError("examples must be a list")
        if data.get("checksum") != _checksum(examples):
            raise TeachingError("checksum does not match its examples (the file was changed "
                                "or damaged)")
        try:
            found = tuple(Confirmed(e["value"], tuple(e["probs"])) for e in examples)
        except (TypeError, KeyError) as exc:
            raise TeachingError(f"a confirmed die is malformed ({exc!r})") from None
        return cls(found)


def _checksum(examples: Any) -> str:
    """SHA-256 of the examples written canonically (sorted keys, no spaces)."""
    text = json.dumps(examples, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def confirmed(frame: np.ndarray, dice: Any, values: Any, *,
              classify: Any = None) -> list[Confirmed]:
    """The dice of a reading (each with x, y and size) confirmed as ``values`` (one per
    die, in order), each with the classifier's answer for it in eight views (``classify``
    as :func:`dicetray.vision.classifier.classify`, the default)."""
    dice, values = list(dice), [int(v) for v in values]
    if len(dice) != len(values):
        raise TeachingError(f"{len(values)} values confirmed for {len(dice)} dice")
    if not dice:
        return []
    if classify is None:
        from dicetray.vision.classifier import classify
    probs = classify(frame, [(d.x, d.y, d.size) for d in dice])
    return [Confirmed(v, tuple(float(x) for x in p)) for v, p in zip(values, probs, strict=True)]
