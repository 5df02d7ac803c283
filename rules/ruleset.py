"""A rule set as typed, frozen data: the sheet's boxes, turn settings and house rules.

Rule sets come from TOML files (see :mod:`dicetray.rules.loader`); these classes are
what a file becomes. :meth:`RuleSet.score` is the scoring contract: the points a roll
makes in a box of an *empty* sheet.

>>> from dicetray.rules import load_ruleset
>>> yahtzee = load_ruleset("yahtzee")
>>> yahtzee.score("full-house", (3, 3, 5, 5, 3))
25
>>> yahtzee.box("large-straight").name("de")
'Große Straße'
>>> general = load_ruleset("general")
>>> general.score("full-house", (2, 2, 6, 6, 6), ScoreContext(roll=1))
35
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from dicetray.rules.errors import InvalidDice, RulesError, UnknownBox

Section = Literal["upper", "lower", "computed"]
Hold = Literal["free", "locked", "none"]
Order = Literal["free", "down", "up", "announce"]
Scratch = Literal["any", "swiss"]
DeclarationMode = Literal["none", "mickey"]

SECTIONS: tuple[str, ...] = ("upper", "lower", "computed")
HOLDS: tuple[str, ...] = ("free", "locked", "none")
ORDERS: tuple[str, ...] = ("free", "down", "up", "announce")
SCRATCHES: tuple[str, ...] = ("any", "swiss")
DECLARATIONS: tuple[str, ...] = ("none", "mickey")
EXTRA_MODES: tuple[str, ...] = (
    "none",
    "forced-joker",
    "free-joker",
    "lower-joker",
    "kniffel",
    "book",
    "extra-turn",
)
LANGUAGES: tuple[str, ...] = ("en", "de")


def category_key(name: str) -> str:
    """A category name in the form box ids take: lower-case words joined by hyphens.

    Test suites spell their categories in many ways; all of these meet the box id.

    >>> [category_key(n) for n in ("full house", "FULL_HOUSE", "fourOfAKind", "Full-House")]
    ['full-house', 'full-house', 'four-of-a-kind', 'full-house']
    >>> category_key("Große Straße")
    'große-straße'
    """
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name.strip())
    return "-".join(re.findall(r"[^\W_]+", words.lower()))


def pick_name(names: Mapping[str, str], lang: str) -> str:
    """The name in ``lang``, falling back to English.

    >>> pick_name({"en": "Ones", "de": "Einer"}, "de")
    'Einer'
    >>> pick_name({"en": "Ones", "de": "Einer"}, "fr")
    'Ones'
    """
    return names.get(lang) or names["en"]


@dataclass(frozen=True)
class ScoreContext:
    """What the sheet knows about the roll being scored, beyond the dice.

    ``roll``: which roll of the turn produced the dice (1-based; None = unknown, so not
    "served"). ``thrown``: how many dice that roll threw (None = unknown, so no sharp
    doubling). ``filled``: ids of boxes already filled on the sheet (Crag's Thirteen
    takes a Crag once the Crag box is filled).

    >>> ScoreContext(roll=1).served
    True
    >>> ScoreContext(roll=0)
    Traceback (most recent call last):
    ...
    dicetray.rules.errors.RulesError: roll must be 1 or more, not 0
    """

    roll: int | None = None
    thrown: int | None = None
    filled: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.roll is not None and self.roll < 1:
            raise RulesError(f"roll must be 1 or more, not {self.roll}")
        if self.thrown is not None and self.thrown < 0:
            raise RulesError(f"thrown must be 0 or more, not {self.thrown}")
        if not isinstance(self.filled, frozenset):
            object.__setattr__(self, "filled", frozenset(self.filled))

    @property
    def served(self) -> bool:
        """True when the dice came from the first roll of the turn."""
        return self.roll == 1


@dataclass(frozen=True)
class BoxSpec:
    """One box (category) of the sheet: what it needs and what it scores.

    ``kind`` names a scoring kind of :mod:`dicetray.rules.kinds`; ``params`` are that
    kind's parameters with defaults filled in. ``served`` (General) replaces the points
    when the box is made on the first roll.

    >>> box = BoxSpec("fours", "upper", {"face": 4}, "upper", {"en": "Fours", "de": "Vierer"})
    >>> box.points((4, 4, 1, 2, 4))
    12
    >>> box.name("de")
    'Vierer'
    """

    id: str
    kind: str
    params: Mapping[str, Any]
    section: Section
    names: Mapping[str, str]
    served: int | None = None

    def name(self, lang: str = "en") -> str:
        """The box's name in ``lang`` (English when that language is missing)."""
        return pick_name(self.names, lang)

    def _judge(self, dice: tuple[int, ...], ctx: ScoreContext) -> int | None:
        # kinds imports ScoreContext from here, so it is imported where it is used
        from dicetray.rules.kinds import get_kind

        if self.section == "computed":
            return None
        return get_kind(self.kind).judge(dice, self.params, ctx)

    def fits(self, dice: Iterable[int], ctx: ScoreContext | None = None) -> bool:
        """True when the roll meets the box's requirement (entering it is no scratch).

        >>> box = BoxSpec("chance", "chance", {}, "lower", {"en": "Chance", "de": "Chance"})
        >>> box.fits((1, 1, 2, 3, 3))
        True
        """
        return self._judge(tuple(dice), ctx or ScoreContext()) is not None

    def points(self, dice: Iterable[int], ctx: ScoreContext | None = None) -> int:
        """Raw points for these dice: no joker, no extra bonus, no sharp doubling.

        The served points apply when ``ctx.roll == 1``; a roll that does not fit scores 0.
        """
        ctx = ctx or ScoreContext()
        points = self._judge(tuple(dice), ctx)
        if points is None:
            return 0
        if self.served is not None and ctx.served:
            return self.served
        return points

    def joker_points(self, dice: Iterable[int]) -> int:
        """Points as if the roll fitted the box: its fixed points, else the dice sum.

        Joker rules enter a five-of-a-kind in a pattern box it does not fit (Yahtzee's
        Full House = 25, straights 30/40).

        >>> box = BoxSpec("full-house", "full-house", {"groups": [3, 2], "all_equal": False,
        ...     "score": "fixed", "points": 25}, "lower", {"en": "Full House", "de": "Full House"})
        >>> box.points((6, 6, 6, 6, 6)), box.joker_points((6, 6, 6, 6, 6))
        (0, 25)
        """
        dice = tuple(dice)
        if self.fits(dice):
            return self.points(dice)
        if self.params.get("score", "fixed") == "fixed" and "points" in self.params:
            return int(self.params["points"])
        return sum(dice)

    def compute(self, filled: Mapping[str, int]) -> int | None:
        """A computed box's value from the other boxes' scores (None until it can be known).

        >>> box = BoxSpec("max-min", "max-min", {"maximum": "maximum", "minimum": "minimum",
        ...     "multiplier": "ones"}, "computed", {"en": "(Max − Min) × Ones", "de": "x"})
        >>> box.compute({"maximum": 27, "minimum": 9, "ones": 3})
        54
        >>> box.compute({"maximum": 27}) is None
        True
        """
        from dicetray.rules.kinds import get_kind

        kind = get_kind(self.kind)
        if kind.compute is None:
            return None
        return kind.compute(filled, self.params)

    def describe(self) -> str:
        """What the box needs and scores, in words (for ``dicetray rules show``).

        >>> BoxSpec("fours", "upper", {"face": 4}, "upper", {"en": "Fours"}).describe()
        'dice showing 4; scores their sum'
        """
        from dicetray.rules.kinds import get_kind

        text = get_kind(self.kind).describe(self.params)
        if self.served is not None:
            text += f"; {self.served} when made on the first roll"
        return text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form of the box."""
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "section": self.section,
            "names": dict(self.names),
            "params": _plain(self.params),
        }
        if self.served is not None:
            data["served"] = self.served
        data["describe"] = self.describe()
        return data


@dataclass(frozen=True)
class UpperBonus:
    """``points`` when the ``boxes`` (the upper section) total at least ``threshold``."""

    threshold: int
    points: int
    boxes: tuple[str, ...]


@dataclass(frozen=True)
class ExtraPolicy:
    """What a further five-of-a-kind does once the five-of-a-kind box is filled.

    ``mode`` is one of :data:`EXTRA_MODES` (see docs/rulesets.md); ``bonus`` its points.
    """

    mode: str
    bonus: int = 100


@dataclass(frozen=True)
class ColumnSpec:
    """One column of the sheet and its order rule (``free``, ``down``, ``up``, ``announce``)."""

    id: str
    order: Order
    names: Mapping[str, str]

    def name(self, lang: str = "en") -> str:
        """The column's name in ``lang``."""
        return pick_name(self.names, lang)


MAIN_COLUMN = ColumnSpec("main", "free", {"en": "Score", "de": "Punkte"})


@dataclass(frozen=True)
class SharpPolicy:
    """Sharp throws: these boxes score ×``factor`` when the roll threw all the dice."""

    boxes: tuple[str, ...]
    factor: int = 2


@dataclass(frozen=True)
class StrictPolicy:
    """Strict Kniffel: boxes top to bottom, no jokers or extra bonuses.

    A five-of-a-kind counts only as what the box it is entered in needs: a full house too
    when ``full_house`` (seed 001: "Ein Kniffel in Full-House zählt als Full-House");
    Chance takes it for ``chance_five_of_a_kind`` points once the five-of-a-kind box
    holds a non-zero score (None: plain Chance).
    """

    chance_five_of_a_kind: int | None = 100
    full_house: bool = True


@dataclass(frozen=True)
class RuleSet:
    """A whole game's rules: dice, rolls, holds, the sheet and the house rules.

    ``spec`` is what :func:`~dicetray.rules.loader.load_ruleset` loads it again from (the
    id, or the combination with files as absolute paths); a game's start event keeps it.

    >>> from dicetray.rules import load_ruleset
    >>> kniffel = load_ruleset("kniffel")
    >>> kniffel.dice, kniffel.rolls, kniffel.upper_bonus.threshold
    (5, 3, 63)
    >>> kniffel.box_ids[:3], kniffel.five_of_a_kind
    (('ones', 'twos', 'threes'), 'kniffel')
    >>> kniffel.score("kniffel", [6, 6, 6, 6, 6])
    50
    """

    id: str
    names: Mapping[str, str]
    description: str
    source: str
    dice: int
    faces: int
    rolls: int
    hold: Hold
    boxes: tuple[BoxSpec, ...]
    upper_bonus: UpperBonus | None
    five_of_a_kind: str | None
    extra: ExtraPolicy
    columns: tuple[ColumnSpec, ...] = (MAIN_COLUMN,)
    scratch: Scratch = "any"
    sharp: SharpPolicy | None = None
    strict: StrictPolicy | None = None
    declaration: DeclarationMode = "none"
    save_rolls: bool = False
    games_per_match: int = 1
    players: tuple[int, int] = (1, 8)
    options: tuple[str, ...] = ()
    spec: str = ""
    descriptions: Mapping[str, str] = field(default_factory=dict)

    def name(self, lang: str = "en") -> str:
        """The rule set's name in ``lang``."""
        return pick_name(self.names, lang)

    def describe(self, lang: str = "en") -> str:
        """The rule set's one-line description in ``lang`` (English where it has none)."""
        return self.descriptions.get(lang) or self.description

    def box(self, box_id: str) -> BoxSpec:
        """The box with this id; :class:`UnknownBox` when the sheet has none.

        >>> from dicetray.rules import load_ruleset
        >>> load_ruleset("yatzy").box("yahtzee")
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.UnknownBox: no box 'yahtzee' in yatzy (boxes: ones, twos, ...)
        """
        for box in self.boxes:
            if box.id == box_id:
                return box
        raise UnknownBox(f"no box {box_id!r} in {self.id} (boxes: {', '.join(self.box_ids)})")

    def find_box(self, category: str) -> BoxSpec:
        """The box a player or a test suite means by ``category``.

        The id as it is, else the id or a name (English or German) spelt another way:
        any case, with spaces, underscores or camelCase (see :func:`category_key`).
        :class:`UnknownBox` when nothing, or more than one box, answers to it.

        >>> from dicetray.rules import load_ruleset
        >>> yacht = load_ruleset("yacht")
        >>> yacht.find_box("FULL_HOUSE").id, yacht.find_box("little straight").id
        ('full-house', 'small-straight')
        >>> load_ruleset("kniffel").find_box("Dreierpasch").id
        'three-of-a-kind'
        """
        if not isinstance(category, str):
            raise UnknownBox(f"a box is named by a string, not {category!r}")
        for box in self.boxes:
            if box.id == category:
                return box
        key = category_key(category)
        by_id = [box for box in self.boxes if box.id == key]
        if by_id:
            return by_id[0]
        by_name = [
            box for box in self.boxes if key in {category_key(name) for name in box.names.values()}
        ]
        if len(by_name) == 1:
            return by_name[0]
        if by_name:
            ids = ", ".join(box.id for box in by_name)
            raise UnknownBox(f"{category!r} could be any of {ids} in {self.id}; give the id")
        return self.box(category)

    @property
    def reference(self) -> str:
        """What a game's start event names: :attr:`spec`, else the id.

        >>> from dicetray.rules import load_ruleset
        >>> load_ruleset("kniffel+sharp").reference
        'kniffel+sharp'
        """
        return self.spec or self.id

    @property
    def box_ids(self) -> tuple[str, ...]:
        """Every box id in sheet order."""
        return tuple(box.id for box in self.boxes)

    @property
    def upper_ids(self) -> tuple[str, ...]:
        """Ids of the upper-section boxes."""
        return tuple(box.id for box in self.boxes if box.section == "upper")

    @property
    def lower_ids(self) -> tuple[str, ...]:
        """Ids of the lower-section boxes."""
        return tuple(box.id for box in self.boxes if box.section == "lower")

    @property
    def scored_ids(self) -> tuple[str, ...]:
        """Ids of the boxes a roll is entered in (every box but the computed ones)."""
        return tuple(box.id for box in self.boxes if box.section != "computed")

    @property
    def computed_ids(self) -> tuple[str, ...]:
        """Ids of the computed boxes (Croatian's (Max − Min) × Ones)."""
        return tuple(box.id for box in self.boxes if box.section == "computed")

    def validate_dice(self, dice: Iterable[int]) -> tuple[int, ...]:
        """The dice as a tuple, or :class:`InvalidDice` saying what is wrong.

        >>> from dicetray.rules import load_ruleset
        >>> load_ruleset("crag").validate_dice([6, 6, 1])
        (6, 6, 1)
        >>> load_ruleset("yahtzee").validate_dice([1, 2, 3, 4, 7])
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.InvalidDice: die 5 shows 7; a die shows 1 to 6
        """
        try:
            values = tuple(dice)
        except TypeError:
            raise InvalidDice(f"dice must be a sequence of numbers, not {dice!r}") from None
        if len(values) != self.dice:
            raise InvalidDice(f"{self.id} plays {self.dice} dice, got {len(values)}")
        faces = []
        for index, value in enumerate(values, start=1):
            faces.append(_whole(value, index))
            if not 1 <= faces[-1] <= self.faces:
                raise InvalidDice(f"die {index} shows {value}; a die shows 1 to {self.faces}")
        return tuple(faces)

    def sharp_factor(self, box_id: str, ctx: ScoreContext) -> int:
        """The sharp-throw multiplier for this box and roll (1 when no doubling applies).

        >>> from dicetray.rules import load_ruleset
        >>> sharp = load_ruleset("kniffel+sharp")
        >>> sharp.sharp_factor("full-house", ScoreContext(thrown=5))
        2
        >>> sharp.sharp_factor("chance", ScoreContext(thrown=5))
        1
        """
        if self.sharp and box_id in self.sharp.boxes and ctx.thrown == self.dice:
            return self.sharp.factor
        return 1

    def score(self, box_id: str, dice: Iterable[int], ctx: ScoreContext | None = None) -> int:
        """Points the roll makes in the box of an empty sheet.

        ``box_id`` may be spelt as :meth:`find_box` allows (``"full house"``). Validated
        dice; the box's raw points; served points when ``ctx.roll == 1``;
        sharp doubling when ``ctx.thrown`` equals the number of dice. No joker and no
        extra bonus (an empty sheet has no five-of-a-kind yet).

        >>> from dicetray.rules import load_ruleset
        >>> load_ruleset("ohio").score("ohio", [2, 2, 2, 6, 6, 6])
        8
        """
        ctx = ctx or ScoreContext()
        box = self.find_box(box_id)
        values = self.validate_dice(dice)
        if ctx.thrown is not None and ctx.thrown > self.dice:
            raise InvalidDice(f"a roll throws at most the {self.dice} dice, not {ctx.thrown}")
        if box.section == "computed":
            raise UnknownBox(f"{box.id!r} is computed from other boxes; no roll is entered there")
        return box.points(values, ctx) * self.sharp_factor(box.id, ctx)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form of the whole rule set (``dicetray rules show --json``)."""
        return {
            "id": self.id,
            "names": dict(self.names),
            "description": self.description,
            "descriptions": dict(self.descriptions) or {"en": self.description},
            "source": self.source,
            "options": list(self.options),
            "dice": self.dice,
            "faces": self.faces,
            "rolls": self.rolls,
            "hold": self.hold,
            "scratch": self.scratch,
            "declaration": self.declaration,
            "save_rolls": self.save_rolls,
            "games_per_match": self.games_per_match,
            "players": list(self.players),
            "five_of_a_kind": self.five_of_a_kind,
            "upper_bonus": _plain(self.upper_bonus),
            "extra": _plain(self.extra),
            "sharp": _plain(self.sharp),
            "strict": _plain(self.strict),
            "columns": [
                {"id": c.id, "order": c.order, "names": dict(c.names)} for c in self.columns
            ],
            "boxes": [box.to_dict() for box in self.boxes],
        }


def _whole(value: Any, index: int) -> int:
    """A die's value as an int: any integer type (NumPy's too), never a bool or a float."""
    if isinstance(value, bool):
        raise InvalidDice(f"die {index} is {value!r}, not a whole number")
    try:
        return operator.index(value)
    except TypeError:
        raise InvalidDice(f"die {index} is {value!r}, not a whole number") from None


def _plain(value: Any) -> Any:
    """Dataclasses, mappings and tuples as plain JSON-able dicts and lists."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    return str(value)
