"""The dice as multisets: every hand of 0..n dice, and how hands grow and shrink by one die.

Order of dice never matters to the score, so a roll of n dice is a multiset (252 for five
six-sided dice) and a keep is a smaller multiset (462 hands of 0..5 dice in all). Hands are
numbered by size, then by their counts, so each size is one contiguous slice.

>>> lat = lattice(5, 6)
>>> lat.size, lat.rolls.stop - lat.rolls.start
(462, 252)
>>> lat.dice(lat.index[(0, 0, 0, 0, 0, 5)])
(6, 6, 6, 6, 6)
>>> round(float(lat.prob[lat.hand((6, 6, 6, 6, 6))]) * 6**5)
1
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = ["Lattice", "lattice"]


@dataclass(frozen=True, eq=False)
class Lattice:
    """Every multiset of 0..``n`` dice with ``faces`` faces.

    ``counts[i]`` the face counts of hand i; ``level[k]`` the slice of hands of k dice;
    ``child[i, f]`` the hand i plus one die showing f+1 (-1 at the top level);
    ``parents[i, :p]`` hand i minus one die of each face it shows, padded by repeats;
    ``prob[i]`` the chance that throwing size(i) dice gives exactly hand i;
    ``spread[k][p]`` how many hands of k dice (a prefix of the level) show more than p faces.
    """

    n: int
    faces: int
    counts: np.ndarray
    index: dict[tuple[int, ...], int]
    level: tuple[slice, ...]
    child: np.ndarray
    parents: np.ndarray
    prob: np.ndarray
    spread: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return len(self.counts)

    @property
    def rolls(self) -> slice:
        """The hands of all n dice (the rolls)."""
        return self.level[self.n]

    def dice(self, i: int) -> tuple[int, ...]:
        """Hand i as sorted dice values."""
        return tuple(f + 1 for f, c in enumerate(self.counts[i]) for _ in range(int(c)))

    def hand(self, dice: Iterable[int]) -> int:
        """The index of the hand showing ``dice`` (any order)."""
        seen = Counter(dice)
        return self.index[tuple(seen.get(f, 0) for f in range(1, self.faces + 1))]

    def sub_hands(self, i: int) -> list[int]:
        """Every hand contained in hand i (itself and the empty hand included)."""
        ranges = [range(int(c) + 1) for c in self.counts[i]]
        return sorted(self.index[c] for c in itertools.product(*ranges))

    def sub_hands_above(self, i: int) -> list[int]:
        """Every hand of fewer than n dice that contains hand i (itself included)."""
        room = self.n - int(self.counts[i].sum())
        return [
            j
            for k in range(room)
            for j in range(
                self.level[int(self.counts[i].sum()) + k].start,
                self.level[int(self.counts[i].sum()) + k].stop,
            )
            if self.contains(j, i)
        ]

    def contains(self, big: int, small: int) -> bool:
        return bool(np.all(self.counts[small] <= self.counts[big]))


@lru_cache(maxsize=8)
def lattice(n: int, faces: int = 6) -> Lattice:
    """The lattice of hands of up to ``n`` dice (built once per size)."""
    hands: list[tuple[int, ...]] = []
    level: list[slice] = []
    for k in range(n + 1):
        start = len(hands)
        found = [
            tuple(reversed(c)) for c in itertools.product(range(k + 1), repeat=faces) if sum(c) == k
        ]
        # most distinct faces first: the rows that lose a die in p ways form a prefix
        hands.extend(sorted(found, key=lambda h: (-sum(1 for c in h if c), h)))
        level.append(slice(start, len(hands)))
    index = {h: i for i, h in enumerate(hands)}
    counts = np.array(hands, dtype=np.int64).reshape(len(hands), faces)
    child = np.full((len(hands), faces), -1, dtype=np.intp)
    parents = np.zeros((len(hands), max(1, min(n, faces))), dtype=np.intp)
    prob = np.zeros(len(hands))
    for i, h in enumerate(hands):
        k = sum(h)
        if k < n:
            for f in range(faces):
                child[i, f] = index[(*h[:f], h[f] + 1, *h[f + 1 :])]
        below = [index[(*h[:f], h[f] - 1, *h[f + 1 :])] for f in range(faces) if h[f]]
        if below:
            parents[i] = (below * parents.shape[1])[: parents.shape[1]]
        ways = math.factorial(k) // math.prod(math.factorial(c) for c in h)
        prob[i] = ways / faces**k
    distinct = (counts > 0).sum(axis=1)
    spread = tuple(
        tuple(int((distinct[rows] > p).sum()) for p in range(parents.shape[1])) for rows in level
    )
    return Lattice(n, faces, counts, index, tuple(level), child, parents, prob, spread)
