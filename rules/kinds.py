"""The scoring kinds: what a box needs and what it scores, found by name.

Every box of a rule-set file names a kind and gives its parameters. A kind is a pure
function of (dice, params, context) that returns the points, or None when the roll does
not fit (entering it there is a scratch). Parameters are declared with types and
defaults, so a file is checked before any die is rolled.

>>> kind = get_kind("n-of-a-kind")
>>> params = kind.resolve({"n": 3, "score": "used"}, dice=5, faces=6)
>>> kind.judge((2, 5, 5, 1, 5), params, CONTEXT)
15
>>> kind.judge((2, 5, 4, 1, 5), params, CONTEXT) is None
True
>>> kind.describe(params)
'3 equal dice; scores the dice used'
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicetray.rules.errors import RuleSetError
from dicetray.rules.ruleset import ScoreContext

__all__ = ["CONTEXT", "KINDS", "SCORE_MODES", "Kind", "Param", "get_kind"]

CONTEXT = ScoreContext()
SCORE_MODES: tuple[str, ...] = ("fixed", "all", "used")
REQUIRED: Any = object()  # marks a parameter without a default

Dice = tuple[int, ...]
Params = Mapping[str, Any]
Judge = Callable[[Dice, Params, ScoreContext], "int | None"]


@dataclass(frozen=True)
class Param:
    """One parameter of a kind.

    ``type`` is ``int``, ``bool``, ``str`` (one of ``choices`` when given), ``box`` (the
    id of a box on the same sheet, or ``""`` for none), ``sizes`` (a list of group sizes)
    or ``face-sets`` (a list of lists of faces).
    """

    name: str
    type: str
    default: Any = REQUIRED
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None

    @property
    def required(self) -> bool:
        """True when a box must give this parameter."""
        return self.default is REQUIRED

    def check(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this parameter, or None when it is fine.

        >>> Param("n", "int", minimum=2).check(1)
        'must be at least 2, not 1'
        >>> Param("faces", "face-sets").check([[1, 2], "x"])
        'must be a list of lists of whole numbers'
        """
        if self.type == "int":
            if not _is_int(value):
                return f"must be a whole number, not {_show(value)}"
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum}, not {value}"
        elif self.type == "bool":
            if not isinstance(value, bool):
                return f"must be true or false, not {_show(value)}"
        elif self.type in ("str", "box"):
            if not isinstance(value, str):
                return f"must be a string, not {_show(value)}"
            if self.choices and value not in self.choices:
                return f"must be one of {', '.join(map(repr, self.choices))}, not {value!r}"
        elif self.type == "sizes":
            if not (isinstance(value, list) and value and all(_is_int(v) for v in value)):
                return "must be a non-empty list of whole numbers"
            if min(value) < 1:
                return "group sizes must be at least 1"
        elif self.type == "face-sets" and not (
            isinstance(value, list)
            and value
            and all(isinstance(s, list) and s and all(_is_int(v) for v in s) for s in value)
        ):
            return "must be a list of lists of whole numbers"
        return None


@dataclass(frozen=True)
class Kind:
    """A scoring kind: its parameters, its judge and how it reads in words.

    ``judge(dice, params, ctx)`` gives the points or None (the roll does not fit).
    ``compute(filled, params)`` is set instead for computed boxes.
    """

    name: str
    summary: str
    params: tuple[Param, ...]
    judge: Judge
    needs: Callable[[Params], str]
    check: Callable[[Params, int, int], tuple[str, str] | None] | None = None
    compute: Callable[[Mapping[str, int], Params], int | None] | None = None
    section: str = "lower"
    box_params: tuple[str, ...] = field(default=())

    def resolve(self, raw: Mapping[str, Any], dice: int, faces: int) -> dict[str, Any]:
        """The parameters with defaults filled in, checked for ``dice`` dice of ``faces``.

        Raises :class:`RuleSetError` (without a path) naming the parameter and the problem.

        >>> get_kind("upper").resolve({"face": 7}, dice=5, faces=6)
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.RuleSetError: face: must be a face from 1 to 6, not 7
        >>> get_kind("upper").resolve({"fase": 1}, dice=5, faces=6)
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.RuleSetError: fase: unknown parameter of kind 'upper' (known: face)
        """
        known = {p.name: p for p in self.params}
        for key in raw:
            if key not in known:
                names = ", ".join(known) or "none"
                raise RuleSetError(
                    "", key, f"unknown parameter of kind {self.name!r} (known: {names})"
                )
        params: dict[str, Any] = {}
        for param in self.params:
            if param.name not in raw:
                if param.required:
                    raise RuleSetError("", param.name, f"kind {self.name!r} needs this parameter")
                params[param.name] = copy.deepcopy(param.default)  # lists stay per box
                continue
            problem = param.check(raw[param.name])
            if problem:
                raise RuleSetError("", param.name, problem)
            params[param.name] = raw[param.name]
        if self.check:
            found = self.check(params, dice, faces)
            if found:
                raise RuleSetError("", *found)
        return params

    def describe(self, params: Params) -> str:
        """What a box of this kind needs and scores, in words."""
        needs = self.needs(params)
        if "score" not in params:
            return needs
        return f"{needs}; scores {_score_words(params)}"


KINDS: dict[str, Kind] = {}


def get_kind(name: str) -> Kind:
    """The kind registered under ``name``.

    >>> get_kind("chance").summary
    'any roll; scores the sum of all dice'
    >>> get_kind("poker")
    Traceback (most recent call last):
    ...
    KeyError: "no scoring kind 'poker'"
    """
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"no scoring kind {name!r}") from None


def _register(kind: Kind) -> Kind:
    KINDS[kind.name] = kind
    return kind


# --- small helpers -------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def _score_words(params: Params) -> str:
    mode = params["score"]
    if mode == "fixed":
        return f"{params['points']} points"
    return "the sum of all dice" if mode == "all" else "the dice used"


def _award(params: Params, dice: Dice, used: Sequence[int]) -> int:
    """Points for a pattern that fits, by the box's score mode."""
    mode = params["score"]
    if mode == "fixed":
        return int(params["points"])
    return sum(dice) if mode == "all" else sum(used)


def _score_params(score: str, points: int | None) -> tuple[Param, ...]:
    return (
        Param(
            "score",
            "str",
            score,
            "fixed = `points`; all = sum of all dice; used = sum of the dice making the pattern",
            choices=SCORE_MODES,
        ),
        Param("points", "int", points, "points when score is fixed", minimum=0),
    )


def _check_score(params: Params) -> tuple[str, str] | None:
    if params["score"] == "fixed" and params["points"] is None:
        return ("points", "needed when score is 'fixed'")
    return None


def _check_size(key: str, total: int, dice: int) -> tuple[str, str] | None:
    if total > dice:
        return (key, f"needs {total} dice but the game has {dice}")
    return None


def _check_run(length: int, faces: int) -> tuple[str, str] | None:
    if length > faces:
        return ("", f"needs {length} faces in a row but a die has {faces}")
    return None


def _check_faces(key: str, faces_seen: Sequence[int], faces: int) -> tuple[str, str] | None:
    for face in faces_seen:
        if not 1 <= face <= faces:
            return (key, f"must be a face from 1 to {faces}, not {face}")
    return None


def best_groups(dice: Dice, sizes: Sequence[int], distinct: bool = True) -> list[int] | None:
    """The dice used by the best set of groups of equal dice, or None when none fits.

    ``sizes`` lists the groups wanted (a full house is ``[3, 2]``); with ``distinct`` each
    group needs its own face. "Best" is the highest sum of the dice used.

    >>> best_groups((3, 3, 5, 5, 5), [2, 2])
    [5, 5, 3, 3]
    >>> best_groups((4, 4, 4, 4, 1), [2, 2]) is None
    True
    >>> best_groups((4, 4, 4, 4, 1), [2, 2], distinct=False)
    [4, 4, 4, 4]

    The search runs over the faces, high to low, with the groups still wanted as its
    state: there are few such states (a multiset of sizes summing to at most the dice),
    so the time grows with faces x states x states, never with the factorial of the
    number of groups (a full house of twelve groups of one is quick).

    >>> best_groups(tuple(range(1, 13)), [1] * 12) == sorted(range(1, 13), reverse=True)
    True
    """
    order = sorted(set(sizes), reverse=True)
    wanted = tuple(list(sizes).count(size) for size in order)
    counts = Counter(dice)
    faces = sorted(counts, reverse=True)

    def choices(left: tuple[int, ...], room: int) -> list[tuple[int, ...]]:
        """Sub-multisets of ``left`` fitting ``room`` dice (one group only if distinct)."""
        if distinct:
            return [tuple(int(j == i) for j in range(len(left)))
                    for i, size in enumerate(order) if left[i] and size <= room]
        found: list[tuple[int, ...]] = []

        def grow(index: int, room: int, taken: tuple[int, ...]) -> None:
            if index == len(order):
                if any(taken):
                    found.append(taken)
                return
            for n in range(min(left[index], room // order[index]) + 1):
                grow(index + 1, room - n * order[index], (*taken, n))

        grow(0, room, ())
        return found

    @functools.cache
    def best(index: int, left: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...]] | None:
        """(sum of the dice used, (face, size) groups) placing ``left`` on faces[index:]."""
        if not any(left):
            return (0, ())
        if index == len(faces):
            return None
        face = faces[index]
        options = [best(index + 1, left)]
        for taken in choices(left, counts[face]):
            rest = best(index + 1, tuple(a - b for a, b in zip(left, taken, strict=True)))
            if rest is not None:
                groups = tuple((face, size) for size, n in zip(order, taken, strict=True)
                               for _ in range(n))
                used = face * sum(size * n for size, n in zip(order, taken, strict=True))
                options.append((rest[0] + used, groups + rest[1]))
        fits = [option for option in options if option is not None]
        return max(fits, key=lambda option: option[0]) if fits else None

    found = best(0, wanted)
    if found is None:
        return None
    groups = sorted(found[1], key=lambda group: (-group[1], -group[0]))
    return [face for face, size in groups for _ in range(size)]


def runs(length: int, faces: int) -> list[list[int]]:
    """Every run of ``length`` consecutive faces on a die of ``faces``.

    >>> runs(4, 6)
    [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]
    """
    return [list(range(low, low + length)) for low in range(1, faces - length + 2)]


def best_straight(dice: Dice, face_sets: Sequence[Sequence[int]]) -> list[int] | None:
    """The highest of ``face_sets`` whose faces all show in the roll, or None.

    >>> best_straight((1, 2, 3, 4, 6), [[1, 2, 3, 4], [3, 4, 5, 6]])
    [1, 2, 3, 4]
    """
    shown = set(dice)
    fitting = [list(s) for s in face_sets if set(s) <= shown]
    return max(fitting, key=sum) if fitting else None


def _straight_sets(params: Params, top: int) -> list[list[int]]:
    """The face sets a straight box accepts; runs need go no higher than the top die."""
    if params["faces"] is not None:
        return params["faces"]
    return runs(params["length"], top)


def _straight(dice: Dice, p: Params, ctx: ScoreContext) -> int | None:
    used = best_straight(dice, _straight_sets(p, max(dice)))
    return None if used is None else _award(p, dice, used)


def _has_run(dice: Dice, length: int) -> bool:
    return best_straight(dice, runs(length, max(dice))) is not None


def _is_crag(dice: Dice, total: int) -> bool:
    return sum(dice) == total and max(Counter(dice).values()) == 2


# --- the kinds -----------------------------------------------------------------------

_register(
    Kind(
        "upper",
        "dice showing `face`; scores their sum",
        (Param("face", "int", help="the face counted"),),
        lambda dice, p, ctx: p["face"] * dice.count(p["face"]),
        needs=lambda p: f"dice showing {p['face']}; scores their sum",
        check=lambda p, dice, faces: _check_faces("face", [p["face"]], faces),
        section="upper",
    )
)

_register(
    Kind(
        "chance",
        "any roll; scores the sum of all dice",
        (),
        lambda dice, p, ctx: sum(dice),
        needs=lambda p: "any roll; scores the sum of all dice",
    )
)


def _n_of_a_kind(dice: Dice, p: Params, ctx: ScoreContext) -> int | None:
    used = best_groups(dice, [p["n"]])
    if used is None or (p["exact"] and max(Counter(dice).values()) != p["n"]):
        return None
    return _award(p, dice, used)


_register(
    Kind(
        "n-of-a-kind",
        "`n` dice showing the same face (one pair, three of a kind, four of a kind)",
        (
            Param("n", "int", help="how many equal dice", minimum=2),
            Param(
                "exact",
                "bool",
                False,
                "the largest group of equal dice must be exactly `n` (five equal are no four)",
            ),
            *_score_params("all", None),
        ),
        _n_of_a_kind,
        needs=lambda p: f"{'exactly ' if p['exact'] else ''}{p['n']} equal dice",
        check=lambda p, dice, faces: _check_size("n", p["n"], dice) or _check_score(p),
    )
)


def _grouped(name: str, sizes: list[int], summary: str, needs: str) -> Kind:
    """Kinds made of several groups of equal dice on different faces (pairs, triples)."""

    def judge(dice: Dice, p: Params, ctx: ScoreContext) -> int | None:
        used = best_groups(dice, sizes, p["distinct"])
        return None if used is None else _award(p, dice, used)

    return _register(
        Kind(
            name,
            summary,
            (
                Param("distinct", "bool", True, "the groups must show different faces"),
                *_score_params("all", None),
            ),
            judge,
            needs=lambda p: (
                needs + (" on different faces" if p["distinct"] else ", faces may repeat")
            ),
            check=lambda p, dice, faces: _check_size("", sum(sizes), dice) or _check_score(p),
        )
    )


_grouped("two-pairs", [2, 2], "two pairs of equal dice", "two pairs")
_grouped("three-pairs", [2, 2, 2], "three pairs of equal dice", "three pairs")
_grouped("two-triples", [3, 3], "two triples of equal dice", "two triples")


def _full_house(dice: Dice, p: Params, ctx: ScoreContext) -> int | None:
    used = best_groups(dice, p["groups"])
    if used is None and p["all_equal"] and len(set(dice)) == 1:
        used = list(dice)
    return None if used is None else _award(p, dice, used)


def _full_house_needs(p: Params) -> str:
    text = " + ".join(str(size) for size in p["groups"]) + " equal dice on different faces"
    return text + (" (all equal also count)" if p["all_equal"] else "")


_register(
    Kind(
        "full-house",
        "groups of equal dice on different faces, by default three + two",
        (
            Param("groups", "sizes", [3, 2], "group sizes; six-dice Yatzy uses [4, 2]"),
            Param("all_equal", "bool", False, "all dice showing one face count as well"),
            *_score_params("fixed", 25),
        ),
        _full_house,
        needs=_full_house_needs,
        check=lambda p, dice, faces: (
            _check_size("groups", sum(p["groups"]), dice) or _check_score(p)
        ),
    )
)


def _straight_check(p: Params, dice: int, faces: int) -> tuple[str, str] | None:
    if (p["length"] is None) == (p["faces"] is None):
        return ("length", "give exactly one of `length` and `faces`")
    if p["length"] is not None:
        if p["length"] > faces:
            return ("length", f"a die has only {faces} faces")
        return _check_size("length", p["length"], dice) or _check_score(p)
    for index, face_set in enumerate(p["faces"]):
        found = _check_faces(f"faces[{index}]", face_set, faces) or _check_size(
            f"faces[{index}]", len(face_set), dice
        )
        if found:
            return found
        if len(set(face_set)) != len(face_set):
            return (f"faces[{index}]", "a face shows twice")
    return _check_score(p)


def _straight_needs(p: Params) -> str:
    if p["length"] is not None:
        return f"{p['length']} faces in a row"
    return " or ".join("-".join(map(str, s)) for s in p["faces"])


_register(
    Kind(
        "straight",
        "faces in a row: any `length` in a row, or one of the exact `faces` sets",
        (
            Param("length", "int", None, "any run of this many consecutive faces", minimum=2),
            Param("faces", "face-sets", None, "exact face sets, e.g. [[1, 2, 3, 4, 5]]"),
            *_score_params("fixed", None),
        ),
        _straight,
        needs=_straight_needs,
        check=_straight_check,
    )
)


_register(
    Kind(
        "all-equal",
        "every die showing the same face (Yahtzee, Kniffel, Yatzy, General, Yacht)",
        _score_params("fixed", 50),
        lambda dice, p, ctx: _award(p, dice, dice) if len(set(dice)) == 1 else None,
        needs=lambda p: "all dice equal",
        check=lambda p, dice, faces: _check_score(p),
    )
)


def _ohio(dice: Dice, p: Params, ctx: ScoreContext) -> int:
    shown = set(dice)
    if len(shown) == len(dice) and shown == set(range(1, len(dice) + 1)):
        return p["all_faces"]
    return sum(shown)


_register(
    Kind(
        "ohio",
        "each face shown counts once; 1 to 6 all showing scores `all_faces`",
        (
            Param(
                "all_faces",
                "int",
                40,
                "points when the dice show 1, 2, ... up to the dice count",
                minimum=0,
            ),
        ),
        _ohio,
        needs=lambda p: f"each face shown counts once; every face 1-6 = {p['all_faces']}",
    )
)


_register(
    Kind(
        "mickey-straight",
        "four in a row scores `small`, five in a row `large`",
        (
            Param("small", "int", 30, "points for four faces in a row", minimum=0),
            Param("large", "int", 40, "points for five faces in a row", minimum=0),
        ),
        lambda dice, p, ctx: (
            p["large"] if _has_run(dice, 5) else p["small"] if _has_run(dice, 4) else None
        ),
        needs=lambda p: f"4 in a row = {p['small']}, 5 in a row = {p['large']}",
        check=lambda p, dice, faces: _check_size("", 4, dice) or _check_run(4, faces),
    )
)


_register(
    Kind(
        "mickey",
        "five in a row made on exactly the second roll",
        (Param("points", "int", 50, minimum=0),),
        lambda dice, p, ctx: (
            p["points"]
            if ctx.roll in (None, 2) and best_straight(dice, runs(5, max(dice)))
            else None
        ),
        needs=lambda p: f"5 in a row on exactly the second roll; scores {p['points']} points",
        check=lambda p, dice, faces: _check_size("", 5, dice) or _check_run(5, faces),
    )
)


_register(
    Kind(
        "crag",
        "a pair and one die summing to `total` (6-6-1, 5-5-3, 4-4-5)",
        (Param("total", "int", 13, minimum=1), Param("points", "int", 50, minimum=0)),
        lambda dice, p, ctx: p["points"] if _is_crag(dice, p["total"]) else None,
        needs=lambda p: f"a pair and one die summing to {p['total']}; scores {p['points']} points",
    )
)


def _thirteen(dice: Dice, p: Params, ctx: ScoreContext) -> int | None:
    if sum(dice) != p["total"]:
        return None
    if _is_crag(dice, p["total"]) and p["crag_box"] and p["crag_box"] not in ctx.filled:
        return None
    return p["points"]


_register(
    Kind(
        "thirteen",
        "dice summing to `total` that are not a Crag (a Crag too once `crag_box` is filled)",
        (
            Param("total", "int", 13, minimum=1),
            Param("points", "int", 26, minimum=0),
            Param("crag_box", "box", "crag", "a Crag counts here only once this box is filled"),
        ),
        _thirteen,
        needs=lambda p: f"dice summing to {p['total']}, not a Crag; scores {p['points']} points",
        box_params=("crag_box",),
    )
)


def _max_min(filled: Mapping[str, int], p: Params) -> int | None:
    keys = (p["maximum"], p["minimum"], p["multiplier"])
    if any(key not in filled for key in keys):
        return None
    return (filled[p["maximum"]] - filled[p["minimum"]]) * filled[p["multiplier"]]


_register(
    Kind(
        "max-min",
        "computed: (`maximum` − `minimum`) × `multiplier`, once all three are filled",
        (
            Param("maximum", "box", "maximum"),
            Param("minimum", "box", "minimum"),
            Param("multiplier", "box", "ones"),
        ),
        lambda dice, p, ctx: None,
        needs=lambda p: f"computed: ({p['maximum']} − {p['minimum']}) × {p['multiplier']}",
        compute=_max_min,
        section="computed",
        box_params=("maximum", "minimum", "multiplier"),
    )
)
