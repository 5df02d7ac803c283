"""Teaching the tray its dice: values the players confirmed, and the second opinion they make.

The face classifier learnt rendered dice; on a tray's own dice it can read a 6 as a 4
every time. A :class:`Teaching` keeps, for each die the players confirmed, the value and
what the classifier answered for it (its probabilities over
:data:`~dicetray.vision.classifier.CLASSES`). From them it fits a small head
(:func:`fit_head`): how the classifier's answers on these dice map to the values the
players confirmed, and how sure that mapping may be. :meth:`Teaching.second_opinion` then
reads each answer by the head, so a 6 it calls a 4 the way it called the confirmed 6s is
read as a 6, and a marbled die it was unsure of is read as surely as the confirmed dice
like it bear out. Fitted in milliseconds, once a teaching, the first time it is asked, it
runs on the Pi as is.

A teaching file is JSON with a kind, a version and a SHA-256 checksum of its examples:
a file that is not one, from another version, or whose checksum does not match is
refused with a :class:`~dicetray.vision.errors.TeachingError` saying why.

>>> t = Teaching().apply(Confirmed(6, (0.0, 0.0, 0.0, 0.0, 0.9, 0.0, 0.1, 0.0)))
>>> p = t.second_opinion(np.array([0.02, 0, 0, 0, 0.85, 0, 0.13, 0]))
>>> int(np.argmax(p)), bool(p[6] > 0.5)
(6, True)
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
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from dicetray.vision.classifier import CLASSES
from dicetray.vision.errors import TeachingError

__all__ = ["KIND", "MOST_PER_VALUE", "TEACHING_VERSION", "Confirmed", "Teaching", "confirmed",
           "fit_head", "head"]

#: What a teaching file says it is (a calibration or a rule set is refused as foreign).
KIND = "dicetray-teaching"
#: The version written into every teaching file; other versions are refused.
TEACHING_VERSION = 1
#: Largest teaching file read: an example is under 200 bytes of JSON, so 16 MB holds some
#: 80,000 confirmed dice, years of corrections; /dev/zero or a stray video ends at once.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: How hard the head is held to the classifier's own reading (:func:`fit_head`). Chosen
#: on nell-byler's dice, taught on the dice of 10 photos of the classifier's half and read
#: on every die of the held-out half (782 finds matched to labelled boxes;
#: ``benchmarks/teaching_head.py``): 1, 3 and 10 each left 2 dice read wrong at 0.8 or
#: more (of 682, 666 and 645 that sure; 0.3: 4 of 693), and 3 read the most right (760).
#: Reported on the other way round (docs/benchmarks.md, "A taught head").
PULL = 3.0
#: Least probability whose logarithm the head reads: a network's 0 means very unlikely,
#: not impossible (its answers' smallest shares are about 1e-4).
FLOOR = 1e-4
#: Most steps of Newton's method a fit takes (it settles in 5-8).
NEWTON_STEPS = 30
#: The latest confirmed dice of each value the head is fitted to. A fit's time grows with
#: the dice (on the benchmarks' machine 19 ms for 300, 61 ms for 1,200, 164 ms for 3,000:
#: a full file holds some 80,000); 500 of each bound it to about a sixth of a second, and
#: nell-byler's heads were fitted to 15-40 of each.
MOST_PER_VALUE = 500
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

    @cached_property
    def _weights(self) -> np.ndarray | None:
        """The head fitted to the confirmed dice (:func:`fit_head`), None when none is."""
        if not self.examples:
            return None
        recent: list[Confirmed] = []
        for value in _VALUES:
            recent += [e for e in self.examples if e.value == value][-MOST_PER_VALUE:]
        return fit_head(np.array([e.probs for e in recent], np.float64),
                        np.array([e.value for e in recent]))

    def second_opinion(self, probs: np.ndarray) -> np.ndarray:
        """The classifier's answer ``probs`` (over CLASSES) read by the head the confirmed
        dice taught (:func:`fit_head`): the share it gives the values is shared out among
        them as the head reads the whole answer; unreadable and no die keep theirs. Where
        the head's likeliest value is the classifier's and it is less sure of it, the
        classifier's answer stands: one line fitted to every answer is coarser than the
        network about a die it reads clearly (taught on nell-byler, the head left dice the
        classifier alone read right and sure in doubt, and three held-out photos read
        right were refused; ``benchmarks/taught.py``)."""
        probs = np.asarray(probs, np.float64)
        if self._weights is None:
            return probs.astype(np.float32)
        out = probs.copy()
        values = (1.0 - probs[_UNREADABLE] - probs[_NONE]) * head(self._weights, probs)
        own = probs[1:7]
        if np.argmax(values) != np.argmax(own) or values.max() > own.max():
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


def _inputs(probs: np.ndarray) -> np.ndarray:
    """What the head reads of answers (n x 8): each class's log-probability (at least
    :data:`FLOOR`'s) and a constant 1."""
    probs = np.asarray(probs, np.float64).reshape(-1, len(CLASSES))
    return np.hstack([np.log(np.maximum(probs, FLOOR)), np.ones((len(probs), 1))])


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


#: The head before it is taught (6 x 9): each value's score is the log of the classifier's
#: probability of it, so the head reads the values as the classifier does.
_AS_CLASSIFIER = np.eye(len(_VALUES), len(CLASSES) + 1, k=1)


def head(weights: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """The values 1-6 as a head of ``weights`` (6 x 9, :func:`fit_head`) reads the
    classifier's answer ``probs``: six probabilities summing to 1.

    >>> p = head(_AS_CLASSIFIER, np.array([0.1, 0.1, 0.3, 0.2, 0.1, 0.1, 0.0, 0.1]))
    >>> [round(float(v), 3) for v in p]  # the classifier's own reading of the values
    [0.125, 0.375, 0.25, 0.125, 0.125, 0.0]
    """
    return _softmax(_inputs(probs) @ weights.T)[0]


def fit_head(probs: np.ndarray, values: np.ndarray, pull: float | None = None) -> np.ndarray:
    """A head (6 x 9 weights) fitted to confirmed dice: ``probs`` (n x 8) the classifier's
    answers for them, ``values`` (n) what the players confirmed.

    It is multinomial logistic regression on the answers' log-probabilities, held to the
    classifier's own reading (:data:`_AS_CLASSIFIER`) by ``pull`` (default :data:`PULL`)
    times the squared distance from it, so a few dice move it a little and many move it
    far. Each value weighs alike, however many dice of it were confirmed, and a value no
    die taught stands in as one die the classifier read as surely as it read the confirmed
    dice (their mean share on the value it found likeliest): ten confirmed 1s teach how
    these dice's 1s look, not that every die is likelier a 1. Fitted by Newton's method
    (54 numbers, a few steps: milliseconds for a thousand dice).

    >>> six_as_four = (0.02, 0, 0, 0, 0.8, 0, 0.16, 0.02)
    >>> w = fit_head(np.array([six_as_four] * 2), np.array([6, 6]))
    >>> int(np.argmax(head(w, np.array(six_as_four)))) + 1
    6
    >>> clear_three = (0, 0, 0, 0.97, 0.01, 0.01, 0, 0.01)
    >>> int(np.argmax(head(w, np.array(clear_three)))) + 1
    3
    """
    pull = PULL if pull is None else pull
    probs = np.asarray(probs, np.float64).reshape(-1, len(CLASSES))
    values = np.asarray(values, int)
    sure = float(probs[:, 1:7].max(axis=1).mean())
    missing = [v for v in _VALUES if v not in values]
    made_up = np.full((len(missing), len(CLASSES)), (1.0 - sure) / (len(CLASSES) - 1))
    made_up[np.arange(len(missing)), missing] = sure
    probs = np.vstack([probs, made_up])
    values = np.concatenate([values, missing]).astype(int)
    counts = np.bincount(values, minlength=max(_VALUES) + 1)
    weight = len(values) / (len(_VALUES) * counts[values])  # each value weighs alike
    x = _inputs(probs)
    n, d = x.shape
    k = len(_VALUES)
    y = np.zeros((n, k))
    y[np.arange(n), values - 1] = 1.0

    def loss(w: np.ndarray) -> float:
        z = x @ w.T
        top = z.max(axis=1, keepdims=True)
        lse = np.log(np.exp(z - top).sum(axis=1)) + top[:, 0]
        return float((weight * (lse - (z * y).sum(axis=1))).sum()
                     + pull / 2 * ((w - _AS_CLASSIFIER) ** 2).sum())

    w = _AS_CLASSIFIER.copy()
    for _ in range(NEWTON_STEPS):
        s = _softmax(x @ w.T)
        grad = ((s - y) * weight[:, None]).T @ x + pull * (w - _AS_CLASSIFIER)
        curve = (np.einsum("ik,kl->ikl", s, np.eye(k))
                 - np.einsum("ik,il->ikl", s, s)) * weight[:, None, None]
        hess = np.einsum("ikl,ia,ib->kalb", curve, x, x, optimize=True).reshape(k * d, k * d)
        step = np.linalg.solve(hess + pull * np.eye(k * d), grad.ravel()).reshape(k, d)
        t, before = 1.0, loss(w)
        while loss(w - t * step) > before and t > 1e-6:  # halved until it helps
            t /= 2
        w = w - t * step
        if np.abs(t * step).max() < 1e-9:
            break
    return w


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
