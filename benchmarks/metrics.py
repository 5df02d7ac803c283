"""How a dice reader is scored on labelled photos (the rules of ../shared/datasets/README.md).

Every photo ends in one of three outcomes: ``right`` (answered, every value right),
``refused`` (answered ``unsure``) or ``wrong`` (answered ``ok``, but the values are wrong:
silently wrong, the figure that matters most). Per-die accuracy is the multiset overlap
between the values read and the true values, over all dice.

>>> tally = Tally()
>>> tally.add("ok", (2, 3, 3), (3, 3, 4))
'wrong'
>>> tally.add("unsure", (), (1, 5))
'refused'
>>> tally.add("ok", (6, 1), (1, 6))
'right'
>>> tally.right, tally.refused, tally.wrong, f"{tally.die_accuracy:.3f}"
(1, 1, 1, '0.571')

Per-die accuracy counts the values shown in refused answers too, which flatters a reader
that refuses much; :attr:`Tally.answered_accuracy` counts the dice of answered photos
only, and :attr:`Tally.clean_refused` the photos that should have been answered but were
refused (a re-tumble or a question to the players):

>>> f"{tally.answered_accuracy:.3f}", tally.clean_refused
('0.800', 1)

An operating threshold (the least die confidence of an answer) is chosen on one set and
reported on another (:func:`choose_floor`, :func:`tally_of`):

>>> answers = [Answer("ok", (2,), (2,), confidence=0.9), Answer("ok", (3,), (4,), confidence=0.3)]
>>> choose_floor(answers)
0.35
>>> t = tally_of(answers, 0.35); t.right, t.refused, t.wrong
(1, 1, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "FLOORS",
    "OUTCOMES",
    "WRONG_COST",
    "Answer",
    "Outcome",
    "Tally",
    "choose_floor",
    "outcome",
    "overlap",
    "tally_of",
]

Outcome = Literal["right", "refused", "wrong"]
OUTCOMES: tuple[Outcome, ...] = ("right", "refused", "wrong")


def overlap(read: Iterable[int], true: Iterable[int]) -> int:
    """How many dice of ``true`` were read, as a multiset overlap (order does not matter).

    >>> overlap([2, 3, 3], [3, 3, 4])
    2
    >>> overlap([1, 1, 1], [1, 2])
    1
    """
    return sum((Counter(read) & Counter(true)).values())


def outcome(
    status: str, read: Iterable[int], true: Iterable[int], refuse_expected: bool = False
) -> Outcome:
    """The outcome of one photo.

    ``status`` is the reader's ``"ok"`` or ``"unsure"``. When ``refuse_expected`` (a frame
    no reader should answer: blurred, die cut by the frame, die cocked), refusing it is
    ``right``; answering it is ``wrong`` unless every value is still right.

    >>> outcome("ok", [4, 2], [2, 4]), outcome("ok", [2], [2, 4]), outcome("unsure", [], [2])
    ('right', 'wrong', 'refused')
    >>> outcome("unsure", [], [2, 4], refuse_expected=True)
    'right'
    >>> outcome("maybe", [], [])
    Traceback (most recent call last):
    ...
    ValueError: status must be 'ok' or 'unsure', got 'maybe'
    """
    if status not in ("ok", "unsure"):
        raise ValueError(f"status must be 'ok' or 'unsure', got {status!r}")
    if status == "unsure":
        return "right" if refuse_expected else "refused"
    return "right" if sorted(read) == sorted(true) else "wrong"


@dataclass
class Tally:
    """Running totals for one reader on one set of photos.

    ``dice_read`` / ``dice_total`` give per-die accuracy: ``dice_total`` counts, per photo,
    the larger of the true and the read number of dice, so a die read that is not there
    counts as a miss just like a die missed. Dice reported with an ``unsure`` answer count
    too (the phone shows them for the players to confirm).
    """

    photos: int = 0
    right: int = 0
    refused: int = 0
    wrong: int = 0
    correct_refusals: int = 0
    dice_read: int = 0
    dice_total: int = 0
    answered_dice_read: int = 0
    answered_dice_total: int = 0

    def add(
        self,
        status: str,
        read: Iterable[int],
        true: Iterable[int],
        refuse_expected: bool = False,
    ) -> Outcome:
        """Count one photo and return its outcome."""
        read, true = tuple(read), tuple(true)
        result = outcome(status, read, true, refuse_expected)
        self.photos += 1
        setattr(self, result, getattr(self, result) + 1)
        if refuse_expected and status == "unsure":
            self.correct_refusals += 1
        self.dice_read += overlap(read, true)
        self.dice_total += max(len(read), len(true))
        if status == "ok":
            self.answered_dice_read += overlap(read, true)
            self.answered_dice_total += max(len(read), len(true))
        return result

    @property
    def answered(self) -> int:
        """Photos answered ``ok`` (right or silently wrong)."""
        return self.photos - self.refused - self.correct_refusals

    @property
    def clean_refused(self) -> int:
        """Photos refused that no rule says should be (every refusal of a real photo is
        one: the labelled sets hold readable dice only)."""
        return self.refused

    @property
    def answered_accuracy(self) -> float:
        """Share of dice read right among the photos answered ``ok`` only, 0..1 (1.0 when
        none was answered): the dice shown in refused answers are not counted.

        >>> t = Tally(); _ = t.add("unsure", [1], [1]); _ = t.add("ok", [2, 2], [2, 3])
        >>> t.die_accuracy, t.answered_accuracy
        (0.6666666666666666, 0.5)
        """
        if not self.answered_dice_total:
            return 1.0
        return self.answered_dice_read / self.answered_dice_total

    @property
    def die_accuracy(self) -> float:
        """Share of dice read right, 0..1 (1.0 for a tally with no dice).

        >>> t = Tally(); _ = t.add("ok", [1, 2, 3], [1, 2]); t.die_accuracy
        0.6666666666666666
        """
        return self.dice_read / self.dice_total if self.dice_total else 1.0

    def share(self, outcome_name: Outcome) -> float:
        """The share of photos (0..1) that ended in ``outcome_name``.

        >>> t = Tally(); _ = t.add("unsure", [], [3]); t.share("refused")
        1.0
        """
        if outcome_name not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, got {outcome_name!r}")
        return getattr(self, outcome_name) / self.photos if self.photos else 0.0


@dataclass(frozen=True)
class Answer:
    """One photo's answer as the benchmark keeps it: enough to score it again at another
    operating threshold. ``confidence`` is the least die confidence of the answer (1.0
    for an answer with no dice)."""

    status: str
    read: tuple[int, ...]
    true: tuple[int, ...]
    refuse_expected: bool = False
    confidence: float = 1.0

    def at_floor(self, floor: float) -> Answer:
        """This answer with an ``ok`` whose least confidence is under ``floor`` refused.

        >>> Answer("ok", (1,), (1,), confidence=0.4).at_floor(0.5).status
        'unsure'
        """
        if self.status == "ok" and self.confidence < floor:
            return Answer("unsure", self.read, self.true, self.refuse_expected, self.confidence)
        return self


#: The floors tried when choosing one: the least die confidence an answer must have.
FLOORS: tuple[float, ...] = tuple(round(0.05 * k, 2) for k in range(0, 19))
#: How many refusals one silent error is worth when a floor is chosen: a refusal costs a
#: re-tumble, a silent error the game (and the players' trust in every answer after it).
WRONG_COST = 10.0


def tally_of(answers: Iterable[Answer], floor: float = 0.0) -> Tally:
    """The tally of ``answers`` with answers under ``floor`` refused."""
    tally = Tally()
    for a in answers:
        a = a.at_floor(floor)
        tally.add(a.status, a.read, a.true, a.refuse_expected)
    return tally


def choose_floor(answers: Iterable[Answer], floors: Iterable[float] = FLOORS,
                 wrong_cost: float = WRONG_COST) -> float:
    """The floor that reads most photos right at the least cost of silent errors
    (``right - wrong_cost * wrong``; the lowest floor on a tie)."""
    answers = list(answers)

    def gain(floor: float) -> float:
        t = tally_of(answers, floor)
        return t.right - wrong_cost * t.wrong

    return max(sorted(floors), key=lambda f: (gain(f), -f))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between closest ranks.

    >>> percentile([1, 2, 3, 4], 50)
    2.5
    >>> percentile([5.0], 95)
    5.0
    """
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)
