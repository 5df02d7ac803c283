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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["OUTCOMES", "Outcome", "Tally", "outcome", "overlap"]

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
        return result

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
