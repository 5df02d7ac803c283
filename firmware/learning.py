"""What the tray has learnt of its dice from the players: its teaching, its file, its standing.

Every reading the players confirm or correct during play teaches the reader these dice
(:mod:`dicetray.vision.teaching`): the dice of the reading, matched to the players'
values (:func:`pair`), are added as confirmed dice with the classifier's answer on the
frame stored for that reading, and the teaching file in the data directory is written
again, durably (whole on disk, or the old one, after a power cut). The reader uses the
teaching from the next roll on.

:class:`Learning` keeps the teaching and how it stands, as :class:`~dicetray.firmware.
calibrating.Calibrating` keeps the calibration: ``ok``, ``missing``, or ``bad`` with the
reason a damaged or foreign file was refused. A refused file is left as it is (the tray
reads untaught and does not learn until the players forget it, which moves it aside).
The file is looked at again before each read and each lesson: dice that ``dicetray
teach --data-dir`` added while the tray ran are kept, not written over.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "teaching.json").write_text('{"kind": "dicetray-calibration"}')
>>> bad = Learning.load(folder / "teaching.json")
>>> str(bad.standing), bad.problem
('bad', "teaching.json: not a dicetray teaching file (kind 'dicetray-calibration')")
>>> bad.teaching is None, (folder / "teaching.json").read_text()[:12]
(True, '{"kind": "di')
>>> bad.forget().name, str(bad.standing)
('teaching.forgotten.json', 'missing')
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from dicetray.firmware.calibrating import Standing
from dicetray.firmware.errors import NotReady
from dicetray.rules import sync_folder
from dicetray.vision.errors import TeachingError
from dicetray.vision.teaching import Confirmed, Teaching, confirmed

__all__ = [
    "SIMULATED_TEACHING_FILE",
    "TEACHING_FILE",
    "Die",
    "Learning",
    "LearningSettings",
    "Lesson",
    "Teacher",
    "pair",
    "stored_frame",
]

#: The tray's teaching file in its data directory (``dicetray teach`` adds to it too).
TEACHING_FILE = "teaching.json"
#: The simulated tray's: rendered dice are not the real ones, so it learns apart.
SIMULATED_TEACHING_FILE = "teaching.sim.json"


class Teacher(Protocol):
    """Turns dice confirmed on a frame into confirmed examples
    (:func:`dicetray.vision.teaching.confirmed`)."""

    def __call__(self, frame: Any, dice: Sequence[Any],
                 values: Sequence[int]) -> list[Confirmed]: ...


@dataclass(frozen=True)
class LearningSettings:
    """The numbers of learning in play."""

    kept_per_value: int = 50
    """Confirmed dice kept per value, the newest: the oldest make way, so a new set of dice
    or a changed light takes over. The reader's head is fitted to them
    (:func:`dicetray.vision.teaching.fit_head`) once each time the teaching changes: 19 ms
    for 300 dice, 61 ms for 1,200 on the benchmarks' machine; a taught read then takes
    about what an untaught one does (26.1 against 24.8 ms, ``benchmarks/learning.py``,
    docs/benchmarks.md); the file, written whole at each correction, stays under 50 KB."""


@dataclass(frozen=True)
class Die:
    """A die of a stored reading: its value as read, where it lies and how big, its zone."""

    value: int
    x: float
    y: float
    size: float
    zone: str = "unknown"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Die | None:
        """The die of a reading's JSON (None when it lacks a value, a place or a size).

        >>> Die.from_json({"value": 3, "x": 10, "y": 20, "size": 40, "zone": "tray"})
        Die(value=3, x=10.0, y=20.0, size=40.0, zone='tray')
        >>> Die.from_json({"value": 3, "x": 10, "y": 20}) is None
        True
        """
        try:
            value, size = int(data["value"]), float(data["size"])
            x, y = float(data["x"]), float(data["y"])
        except (KeyError, TypeError, ValueError):
            return None
        if not 1 <= value <= 6 or size <= 0:
            return None
        return cls(value, x, y, size, str(data.get("zone", "unknown")))


@dataclass(frozen=True)
class Lesson:
    """A reading the players gave values for: its frame, its dice, and their values (all
    the dice's)."""

    frame: Any
    dice: tuple[Die, ...]
    values: tuple[int, ...]


def stored_frame(path: str | os.PathLike[str] | None) -> Any:
    """The frame a lesson is learnt on, read from its file as the reader reads photos
    (:func:`dicetray.vision.imageio.read_image`: only a regular image file of bounded size);
    None when there is none or it cannot be read.

    >>> stored_frame("/nonexistent.jpg") is None
    True
    """
    from dicetray.vision.imageio import ImageFileError, read_image

    if path is None:
        return None
    try:
        return read_image(path)
    except ImageFileError:
        return None


def pair(dice: Sequence[Die], values: Sequence[int]) -> list[tuple[Die, int]]:
    """The dice of a reading matched to the values the players gave, where the match is sure.

    The players give the values, not which die shows which. A die is confirmed as read
    when the players gave its value at least as often as the reader read it. The dice of
    a value read more often than the players gave it hold the wrong ones: when every such
    die's value was not given at all and one value is left for exactly as many dice (the
    players corrected them all to it), each is that value; otherwise they are left out
    (which of two 4s is the 6?). A die on the hold ledge is only ever confirmed as read:
    a kept die someone turned keeps its kept value in the game, not on the ledge.

    >>> dice = [Die(4, 0, 0, 9), Die(4, 9, 0, 9), Die(2, 0, 9, 9), Die(1, 9, 9, 9)]
    >>> [(d.x, d.y, v) for d, v in pair(dice, [6, 6, 2, 1])]
    [(0, 9, 2), (9, 9, 1), (0, 0, 6), (9, 0, 6)]
    >>> [v for _, v in pair(dice, [4, 6, 2, 1])]  # which 4 is the 6 cannot be told
    [2, 1]
    >>> [v for _, v in pair(dice, [4, 4, 2, 1, 5])]  # a die the reader missed
    [4, 4, 2, 1]
    """
    read, said = Counter(d.value for d in dice), Counter(int(v) for v in values)
    out = [(d, d.value) for d in dice if read[d.value] <= said[d.value]]
    rest = [d for d in dice if read[d.value] > said[d.value]]
    left = said - Counter(v for _, v in out)
    wrong = [d for d in rest if said[d.value] == 0 and d.zone != "ledge"]
    if rest and len(wrong) == len(rest) and len(left) == 1 and left.total() == len(rest):
        (value,) = left
        out += [(d, value) for d in rest]
    return out


class Learning:
    """The tray's teaching, how its file stands, and learning from the players."""

    def __init__(self, path: str | os.PathLike[str] | None, *,
                 teaching: Teaching | None = None, problem: str = "",
                 teacher: Teacher = confirmed,
                 settings: LearningSettings | None = None) -> None:
        self.path = None if path is None else Path(path)
        self.problem = problem
        """Why the teaching file was refused ("" when it was not)."""
        self.teaching = None if problem else (teaching or Teaching())
        """The teaching in use (None while a refused file stands: the tray reads untaught)."""
        self.teacher = teacher
        self.settings = settings or LearningSettings()
        self.note = ""
        """What the last lesson came to, or why it taught nothing."""
        self._lock = threading.RLock()  # one lesson, look at the file or forgetting at a time
        self._stamp = self._stat()

    @classmethod
    def load(cls, path: str | os.PathLike[str], **options: Any) -> Learning:
        """The teaching of ``path``: ``missing`` when there is no file, ``bad`` with the
        reason when it is damaged or foreign (never an exception: the tray runs on)."""
        teaching, problem = _read(Path(path))
        return cls(path, teaching=teaching, problem=problem, **options)

    def _stat(self) -> tuple[int, int, int] | None:
        """What tells the file changed: its inode, size and time of change (None: none)."""
        if self.path is None:
            return None
        try:
            found = self.path.stat()
        except OSError:
            return None
        return found.st_ino, found.st_size, found.st_mtime_ns

    def refresh(self) -> None:
        """Read the file again if it changed since the tray last read or wrote it (dice
        added by ``dicetray teach``, or a file put there by hand)."""
        with self._lock:
            stamp = self._stat()
            if stamp == self._stamp:
                return
            teaching, self.problem = _read(self.path) if self.path else (None, "")
            self.teaching = None if self.problem else (teaching or Teaching())
            self._stamp = stamp

    @property
    def standing(self) -> Standing:
        if self.problem:
            return Standing.BAD
        return Standing.OK if self.path is not None and self.path.exists() else Standing.MISSING

    @property
    def taught(self) -> Teaching | None:
        """The teaching the reader gets (the file's, as it is now): None when nothing has
        been learnt."""
        self.refresh()
        teaching = self.teaching
        return teaching if teaching is not None and teaching.examples else None

    def counts(self) -> dict[int, int]:
        """How many confirmed dice of each value the teaching holds."""
        found = Counter(e.value for e in (self.teaching.examples if self.teaching else ()))
        return {value: found.get(value, 0) for value in range(1, 7)}

    def to_json(self) -> dict[str, Any]:
        """The teaching's standing and what it holds, JSON-ready."""
        counts = self.counts()
        return {"status": str(self.standing), "why": self.problem,
                "file": None if self.path is None else self.path.name,
                "dice": sum(counts.values()),
                "values": {str(v): n for v, n in counts.items()},
                "kept_per_value": self.settings.kept_per_value,
                "note": self.note}

    # -- learning ------------------------------------------------------------------------------

    def learn(self, frame: Any, dice: Sequence[Die], values: Sequence[int]) -> int:
        """Add the dice of a reading of ``frame`` the players gave ``values`` for (matched
        by :func:`pair`) and write the file; how many dice were learnt (0 while a refused
        file stands, which is left as it is)."""
        pairs = pair(dice, values)
        with self._lock:
            self.refresh()
            if self.teaching is None:
                self.note = "nothing learnt: the teaching file was refused (forget it first)"
                return 0
            if not pairs:
                self.note = "nothing learnt: no die could be matched to the values given"
                return 0
            teaching, learnt = self._taught(self.teaching, frame, pairs)
            self._save(teaching)
            self.teaching = teaching
            self.note = f"{learnt} dice learnt"
            return learnt

    def relearn(self, lessons: Iterable[Lesson]) -> int:
        """Learn anew from ``lessons``, oldest first (the corrections the tray stored):
        their dice are learnt (the newest kept), then the file as it stands, kept or
        refused, is moved aside as :meth:`forget` does and the new one written; how many
        dice were learnt."""
        with self._lock:
            teaching, learnt, taught = Teaching(), 0, 0
            for lesson in lessons:
                pairs = pair(lesson.dice, lesson.values)
                if not pairs:
                    continue
                teaching, more = self._taught(teaching, lesson.frame, pairs)
                learnt, taught = learnt + more, taught + 1
            self.forget()
            self._save(teaching)
            self.teaching = teaching
            self.note = f"relearnt: {learnt} dice from {taught} corrections"
            return learnt

    def _taught(self, teaching: Teaching, frame: Any,
                pairs: Sequence[tuple[Die, int]]) -> tuple[Teaching, int]:
        """``teaching`` with the confirmed dice of ``pairs`` on ``frame`` (the classifier's
        answers rounded as the file will hold them, and the next start read them), the
        newest kept; and how many dice were added."""
        events = self.teacher(frame, [d for d, _ in pairs], [v for _, v in pairs])
        examples = Teaching.from_json(Teaching(tuple(events)).to_json()).examples
        for event in examples:
            teaching = teaching.apply(event)
        return self._trimmed(teaching), len(examples)

    def _trimmed(self, teaching: Teaching) -> Teaching:
        keep = self.settings.kept_per_value
        seen: Counter[int] = Counter()
        kept = []
        for example in reversed(teaching.examples):
            seen[example.value] += 1
            if seen[example.value] <= keep:
                kept.append(example)
        if len(kept) == len(teaching.examples):
            return teaching
        return Teaching(tuple(reversed(kept)), teaching.version)

    def _save(self, teaching: Teaching) -> None:
        if self.path is None:
            return
        try:
            teaching.save(self.path)
        except OSError as exc:
            raise NotReady(f"the teaching file {self.path.name} could not be written: "
                           f"{exc.strerror or exc}", code="teaching-not-saved") from None
        self._stamp = self._stat()

    def forget(self) -> Path | None:
        """Forget what was learnt: the file (kept or refused) is moved aside to
        ``<name>.forgotten.json``, replacing an older one, and the tray reads untaught;
        where it went (None: there was no file)."""
        with self._lock:
            path = self.path
            moved = None
            if path is not None and path.exists():
                moved = path.with_name(f"{path.stem}.forgotten{path.suffix}")
                try:
                    os.replace(path, moved)
                    sync_folder(path.parent)
                except OSError as exc:
                    raise NotReady(f"the teaching file {path.name} could not be moved aside: "
                                   f"{exc.strerror or exc}", code="teaching-not-saved") from None
            self.teaching, self.problem = Teaching(), ""
            self._stamp = self._stat()
            self.note = f"forgotten: the old file is {moved.name}" if moved else "forgotten"
            return moved


def _read(path: Path) -> tuple[Teaching | None, str]:
    """The teaching of ``path`` (None when there is no file), or why it was refused."""
    if not path.exists():
        return None, ""
    try:
        return Teaching.load(path), ""
    except TeachingError as exc:
        why = " ".join(str(exc).split())
        shown = str(path)  # the phones are told the file's name, not the folder's
        if why.startswith(shown):
            why = path.name + why[len(shown):]
        return None, why or "not a teaching file"
