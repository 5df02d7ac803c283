"""Rule sets from TOML files: built-in ids, ``base+option`` combinations and user files.

A file is read into a *draft* (plain data), patched by its base, options and own keys in
that order, then checked and built into a :class:`~dicetray.rules.ruleset.RuleSet`.
Every problem is a :class:`~dicetray.rules.errors.RuleSetError` naming the file, the
dotted key (``boxes[3].params.n``) and what is wrong. The format is documented in
docs/rulesets.md.

>>> load_ruleset("kniffel+sharp+full-cup").options
('sharp', 'full-cup')
>>> "yahtzee" in list_rulesets(), "columns" in list_options()
(True, True)
>>> load_ruleset("kniffel+nonsense")
Traceback (most recent call last):
...
dicetray.rules.errors.UnknownRuleSet: no option 'nonsense' (options: columns, columns-3, ...)
"""

from __future__ import annotations

import copy
import functools
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from dicetray.rules.errors import RuleSetError, UnknownRuleSet
from dicetray.rules.kinds import KINDS, Kind, get_kind
from dicetray.rules.limits import LIMITS, check_toml, check_tree, read_text
from dicetray.rules.ruleset import (
    DECLARATIONS,
    EXTRA_MODES,
    HOLDS,
    MAIN_COLUMN,
    ORDERS,
    SCRATCHES,
    SECTIONS,
    BoxSpec,
    ColumnSpec,
    ExtraPolicy,
    RuleSet,
    SharpPolicy,
    StrictPolicy,
    UpperBonus,
    pick_name,
)

__all__ = [
    "OptionInfo",
    "builtin_dir",
    "list_options",
    "list_rulesets",
    "load_ruleset",
    "option_info",
]

Draft = dict[str, Any]
Check = Callable[[Any], "str | None"]

_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_MAX_DEPTH = 8  # how deep `extends` chains may go (guards against cycles)
MAX_PLAYERS = 8  # the table seats 1 to 8 players


# --- value checks: each returns what is wrong, or None ------------------------------


def _int(minimum: int = 0, maximum: int | None = None) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"must be a whole number, not {type(value).__name__} {value!r}"
        if value < minimum or (maximum is not None and value > maximum):
            top = f" to {maximum}" if maximum is not None else " or more"
            return f"must be {minimum}{top}, not {value}"
        return None

    return check


def _choice(choices: tuple[str, ...]) -> Check:
    def check(value: Any) -> str | None:
        if value not in choices:
            return f"must be one of {', '.join(map(repr, choices))}, not {value!r}"
        return None

    return check


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else f"must be a string, not {value!r}"


def _description(value: Any) -> str | None:
    if isinstance(value, str):
        return None
    if isinstance(value, dict):
        if not isinstance(value.get("en"), str):
            return "needs an English description (en)"
        bad = [lang for lang, text in value.items() if not isinstance(text, str)]
        return f"{bad[0]}: must be a string" if bad else None
    return f'must be a string or a table by language like {{ en = "...", de = "..." }}: {value!r}'


def _by_language(description: str | Mapping[str, str]) -> dict[str, str]:
    """A description as a table by language (a plain string is English).

    >>> _by_language("Roll.") == {"en": "Roll."}
    True
    """
    return {"en": description} if isinstance(description, str) else dict(description)


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be true or false, not {value!r}"


def _box_id(value: Any) -> str | None:
    if not isinstance(value, str) or not _ID.fullmatch(value):
        return f"must be a kebab-case id like 'full-house', not {value!r}"
    return None


def _id_list(value: Any) -> str | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return "must be a list of box ids"
    return None


def _players(value: Any) -> str | None:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not 1 <= value[0] <= value[1] <= MAX_PLAYERS
    ):
        return f"must be [fewest, most] with 1 <= fewest <= most <= {MAX_PLAYERS}"
    return None


def _names(value: Any) -> str | None:
    if not isinstance(value, dict):
        return 'must be a table of names by language, like { en = "Ones", de = "Einer" }'
    if not isinstance(value.get("en"), str) or not value["en"]:
        return "needs an English name (en)"
    for lang, name in value.items():
        if not isinstance(name, str) or not name:
            return f"{lang}: must be a non-empty string"
    return None


SETTINGS: dict[str, Check] = {
    "id": _box_id,
    "names": _names,
    "description": _description,
    "source": _text,
    "dice": _int(1, 12),
    "faces": _int(2, 20),
    "rolls": _int(1, 12),
    "hold": _choice(HOLDS),
    "scratch": _choice(SCRATCHES),
    "declaration": _choice(DECLARATIONS),
    "save_rolls": _flag,
    "games_per_match": _int(1),
    "players": _players,
    "five_of_a_kind": lambda v: None if v == "" else _box_id(v),
}
REQUIRED_SETTINGS = ("names", "dice", "faces", "rolls")
TABLES: dict[str, dict[str, Check]] = {
    "upper_bonus": {"threshold": _int(), "points": _int(), "boxes": _id_list},
    "extra": {"mode": _choice(EXTRA_MODES), "bonus": _int()},
    "sharp": {
        "boxes": lambda v: None if v == "patterns" else _id_list(v),
        "factor": _int(1),
    },
    "strict": {
        "chance_five_of_a_kind": lambda v: None if v is False else _int()(v),
        "full_house": _flag,
    },
}
TABLE_NEEDS = {"upper_bonus": ("threshold", "points"), "sharp": ("boxes",)}
BOX_KEYS: dict[str, Check] = {
    "id": _box_id,
    "kind": lambda v: (
        None
        if isinstance(v, str) and v in KINDS
        else f"unknown kind {v!r} (kinds: {', '.join(KINDS)})"
    ),
    "names": _names,
    "params": lambda v: None if isinstance(v, dict) else "must be a table",
    "section": _choice(SECTIONS),
    "served": _int(),
    "before": _box_id,
    "after": _box_id,
}
COLUMN_KEYS: dict[str, Check] = {"id": _box_id, "order": _choice(ORDERS), "names": _names}
FILE_KEYS = ("extends", "options")
PATCH_KEYS = ("boxes", "remove_boxes", "columns")
META_KEYS = ("id", "names", "description", "source")


# --- finding files --------------------------------------------------------------------


def builtin_dir() -> Path:
    """The folder of the built-in rule-set files (options are in its ``options`` folder)."""
    return Path(str(resources.files("dicetray.rules.builtin")))


def list_rulesets() -> list[str]:
    """Ids of the built-in rule sets.

    >>> list_rulesets()[:3]
    ['crag', 'general', 'kniffel']
    """
    return sorted(path.stem for path in builtin_dir().glob("*.toml"))


def list_options() -> list[str]:
    """Ids of the built-in house-rule options (combine as ``kniffel+sharp``).

    >>> list_options()[:3]
    ['columns', 'columns-3', 'croatian']
    """
    return sorted(path.stem for path in (builtin_dir() / "options").glob("*.toml"))


@dataclass(frozen=True)
class OptionInfo:
    """What a house-rule option is called and does (from its file's own keys)."""

    id: str
    names: Mapping[str, str]
    description: str
    source: str
    descriptions: Mapping[str, str] = field(default_factory=dict)

    def name(self, lang: str = "en") -> str:
        """The option's name in ``lang``."""
        return pick_name(self.names, lang)

    def describe(self, lang: str = "en") -> str:
        """The option's one-line description in ``lang`` (English where it has none)."""
        return self.descriptions.get(lang) or self.description


def option_info(option: str) -> OptionInfo:
    """Name and description of a built-in option.

    >>> option_info("full-cup").name("de")
    'Voller Becher'
    """
    raw = _read(_builtin_file(option, option=True))
    names = raw.get("names", {"en": option})
    texts = _by_language(raw.get("description", ""))
    return OptionInfo(option, names, texts["en"], raw.get("source", ""), texts)


def _is_path(text: str) -> bool:
    return text.endswith(".toml") or "/" in text or "\\" in text


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for a name the system refuses (too long, a NUL)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _brief(text: str, width: int = 60) -> str:
    """``text`` cut for a message (a name of 100,000 characters is shown by its start)."""
    return text if len(text) <= width else f"{text[:width]}... ({len(text):,} characters)"


def _builtin_file(name: str, option: bool) -> Path:
    folder = builtin_dir() / "options" if option else builtin_dir()
    path = folder / f"{name}.toml"
    if not (_ID.fullmatch(name) and len(name) <= LIMITS.max_name and _is_file(path)):
        if not option and name in list_options():
            raise UnknownRuleSet(
                f"{name!r} is a house-rule option, not a rule set: add it to one, "
                f"like kniffel+{name}"
            )
        known = ", ".join(list_options() if option else list_rulesets())
        what = "option" if option else "rule set"
        raise UnknownRuleSet(
            f"no {what} {_brief(name)!r} ({'options' if option else 'known'}: {known})")
    return path


def _read(path: Path) -> dict[str, Any]:
    """A TOML file's data, read within :data:`~dicetray.rules.limits.LIMITS`."""
    where = _brief(_printable(path), 200)
    try:
        text = read_text(path)
    except FileNotFoundError:
        raise UnknownRuleSet(f"no rule-set file {where!r}") from None
    except OSError as exc:
        raise RuleSetError(where, "", f"cannot read the file: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RuleSetError(where, "", f"cannot read the file: not UTF-8 text ({exc.reason} "
                                      f"at byte {exc.start})") from None
    except ValueError as exc:  # a NUL byte in the name
        raise RuleSetError(where, "", f"cannot read the file: {exc}") from None
    try:
        check_toml(text)
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"\(at (line \d+, column \d+|end of document)\)", message)
        key = found.group(1) if found else ""
        problem = message[: found.start()].strip() if found else message
        raise RuleSetError(where, key, f"TOML syntax error: {problem}") from None
    except RecursionError:
        raise RuleSetError(where, "", "nested too deeply") from None
    except ValueError as exc:  # a dotted key of many parts, an int of over 4,300 digits
        problem = str(exc) if "dotted" in str(exc) else "a number of over 4,300 digits"
        raise RuleSetError(where, "", f"too large: {problem}") from None
    try:
        check_tree(data)
    except ValueError as exc:
        key, _, problem = str(exc).rpartition(": ")
        raise RuleSetError(where, key, f"too large: {problem}") from None
    return data


def _printable(path: Path) -> str:
    """A path as one printable line (bytes that are not UTF-8, control characters escaped)."""
    text = os.fsencode(path).decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


# --- public entry point -------------------------------------------------------------


def load_ruleset(id_or_path: str | Path) -> RuleSet:
    """A rule set from a built-in id, a ``base+option+option`` combination or a file path.

    >>> load_ruleset("yatzy").score("two-pairs", [3, 3, 5, 5, 5])
    16
    >>> load_ruleset("kniffel+pairs").box("two-pairs").name("de")
    'Doppelpasch'
    >>> load_ruleset("zilch")
    Traceback (most recent call last):
    ...
    dicetray.rules.errors.UnknownRuleSet: no rule set 'zilch' (known: crag, general, ...)
    """
    text = str(id_or_path)
    named_file = _is_file(Path(text)) and text not in list_rulesets()
    if isinstance(id_or_path, Path) or named_file or ("+" not in text and _is_path(text)):
        return _build(_draft_from_file(Path(text), depth=0), _absolute(text))
    if any(_is_path(part) for part in text.split("+")):
        spec = "+".join(_absolute(part) if _is_path(part) else part for part in text.split("+"))
        return _build(_draft_from_spec(text, depth=0), spec)  # files may change: not cached
    return _load_builtin(text)


def _absolute(path: str) -> str:
    return str(Path(path.strip()).absolute())


@functools.lru_cache(maxsize=64)
def _load_builtin(text: str) -> RuleSet:
    return _build(_draft_from_spec(text, depth=0), text)


def _draft_from_spec(text: str, depth: int, base_dir: Path | None = None) -> Draft:
    """A draft for ``base+option+...``; parts may be built-in ids or paths."""
    base, *options = [part.strip() for part in text.split("+")]
    if not base:
        raise UnknownRuleSet(f"no rule set named in {_brief(text)!r}")
    if len(options) > LIMITS.max_options:
        raise UnknownRuleSet(f"more than {LIMITS.max_options} options in {_brief(text)!r}")
    if _is_path(base):
        path = Path(base) if base_dir is None else base_dir / base
        draft = _draft_from_file(path, depth + 1)
    else:
        path = _builtin_file(base, option=False)
        draft = _draft_from_file(path, depth + 1, builtin=True)
    for option in options:
        _apply_option(draft, option, base_dir)
    return draft


def _apply_option(draft: Draft, option: str, base_dir: Path | None) -> None:
    if _is_path(option):
        path = Path(option) if base_dir is None else base_dir / option
    else:
        path = _builtin_file(option, option=True)
    raw = _read(path)
    for key in FILE_KEYS:
        if key in raw:
            raise RuleSetError(_printable(path), key,
                               "an option file cannot extend or add options")
    name = raw.get("id", path.stem)
    _patch(draft, raw, _printable(path), option=True)
    draft["options"].append(name)
    draft["id"] = f"{draft['id']}+{name}"
    option_names = raw.get("names", {})
    draft["names"] = {
        lang: f"{base} + {option_names.get(lang, option_names.get('en', name))}"
        for lang, base in draft["names"].items()
    }


def _draft_from_file(path: Path, depth: int, builtin: bool = False) -> Draft:
    if depth > _MAX_DEPTH:
        raise RuleSetError(_printable(path), "extends",
                           f"more than {_MAX_DEPTH} levels (a cycle?)")
    raw = _read(path)
    where = _printable(path)
    extends = raw.get("extends")
    options = raw.get("options", [])
    if extends is not None and (not isinstance(extends, str) or not extends):
        raise RuleSetError(where, "extends", "must be a rule-set id or the path of a file")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise RuleSetError(where, "options", 'must be a list of option ids, like ["sharp"]')
    if len(options) > LIMITS.max_options:
        raise RuleSetError(where, "options", f"more than {LIMITS.max_options} options")
    if extends is None:
        draft = _empty_draft(where)
        for key in REQUIRED_SETTINGS:
            if key not in raw:
                raise RuleSetError(where, key, 'missing (or say `extends = "<base>"`)')
    else:
        try:
            draft = _draft_from_spec(extends, depth, base_dir=path.parent)
        except UnknownRuleSet as exc:
            raise RuleSetError(where, "extends", str(exc)) from None
    for option in options:
        try:
            _apply_option(draft, option, path.parent)
        except UnknownRuleSet as exc:
            raise RuleSetError(where, "options", str(exc)) from None
    if extends is not None and "description" not in raw:
        # the base's own description would tell of boxes and settings this file changes
        draft["description"] = f"Based on {draft['names']['en']} ({draft['id']})."
    _patch(draft, raw, where, option=False)
    draft["id"] = raw.get("id", path.stem)
    draft["source"] = raw.get("source", "" if builtin else where)
    draft["file"] = where
    return draft


def _empty_draft(where: str) -> Draft:
    return {
        "id": "",
        "names": {},
        "description": "",
        "source": "",
        "hold": "free",
        "scratch": "any",
        "declaration": "none",
        "save_rolls": False,
        "games_per_match": 1,
        "players": [1, 8],
        "five_of_a_kind": "",
        "upper_bonus": None,
        "extra": {"mode": "none", "bonus": 100},
        "sharp": None,
        "strict": None,
        "columns": None,
        "boxes": [],
        "options": [],
        "origin": {},
    }


# --- patching ---------------------------------------------------------------------------


def _patch(draft: Draft, raw: Mapping[str, Any], where: str, option: bool) -> None:
    """Apply one file's keys to the draft, checking each as it goes."""
    known = [*SETTINGS, *TABLES, *PATCH_KEYS] + ([] if option else list(FILE_KEYS))
    for key, value in raw.items():
        if key not in known:
            raise RuleSetError(where, key, f"unknown key (known: {', '.join(known)})")
        if key in FILE_KEYS:
            continue
        if key in SETTINGS:
            _check(where, key, value, SETTINGS[key])
            if option and key in META_KEYS:
                continue  # an option's own names describe the option, not the set
            draft[key] = copy.deepcopy(value)
            draft["origin"][key] = where
        elif key in TABLES:
            _patch_table(draft, key, value, where)
    if "remove_boxes" in raw:
        _remove_boxes(draft, raw["remove_boxes"], where)
        five = draft["five_of_a_kind"]
        if five and five in raw["remove_boxes"]:
            raise RuleSetError(
                where,
                f"remove_boxes[{raw['remove_boxes'].index(five)}]",
                f'{five!r} is the five_of_a_kind box: also set five_of_a_kind = "" '
                '(and extra = { mode = "none" })',
            )
    if "columns" in raw:
        draft["columns"] = _columns(raw["columns"], where)
    if "boxes" in raw:
        if not isinstance(raw["boxes"], list):
            raise RuleSetError(where, "boxes", "must be an array of tables ([[boxes]])")
        if len(raw["boxes"]) > LIMITS.max_boxes:
            raise RuleSetError(where, "boxes", f"more than {LIMITS.max_boxes} boxes")
        seen: set[str] = set()
        for index, entry in enumerate(raw["boxes"]):
            _patch_box(draft, entry, where, f"boxes[{index}]")
            if entry["id"] in seen:
                raise RuleSetError(where, f"boxes[{index}].id", f"duplicate box id {entry['id']!r}")
            seen.add(entry["id"])


def _check(where: str, key: str, value: Any, check: Check) -> None:
    problem = check(value)
    if problem:
        raise RuleSetError(where, key, problem)


def _check_keys(where: str, key: str, table: Any, known: Mapping[str, Check]) -> None:
    if not isinstance(table, dict):
        raise RuleSetError(where, key, "must be a table")
    for name, value in table.items():
        if name not in known:
            raise RuleSetError(where, f"{key}.{name}", f"unknown key (known: {', '.join(known)})")
        _check(where, f"{key}.{name}", value, known[name])


def _patch_table(draft: Draft, key: str, value: Any, where: str) -> None:
    if value is False and key != "extra":
        draft[key] = None  # `sharp = false` switches a policy off
        draft["origin"][key] = where
        return
    _check_keys(where, key, value, TABLES[key])
    merged = dict(draft[key] or {})
    merged.update(copy.deepcopy(value))
    for needed in TABLE_NEEDS.get(key, ()):
        if needed not in merged:
            raise RuleSetError(where, f"{key}.{needed}", "missing")
    draft[key] = merged
    draft["origin"][key] = where


def _columns(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not value:
        raise RuleSetError(where, "columns", "must be a non-empty array of tables ([[columns]])")
    if len(value) > LIMITS.max_columns:
        raise RuleSetError(where, "columns", f"more than {LIMITS.max_columns} columns")
    seen: set[str] = set()
    for index, column in enumerate(value):
        key = f"columns[{index}]"
        _check_keys(where, key, column, COLUMN_KEYS)
        for needed in COLUMN_KEYS:
            if needed not in column:
                raise RuleSetError(where, f"{key}.{needed}", "missing")
        if column["id"] in seen:
            raise RuleSetError(where, f"{key}.id", f"duplicate column id {column['id']!r}")
        seen.add(column["id"])
    return copy.deepcopy(value)


def _box_index(draft: Draft, box_id: str) -> int | None:
    for index, box in enumerate(draft["boxes"]):
        if box["id"] == box_id:
            return index
    return None


def _remove_boxes(draft: Draft, value: Any, where: str) -> None:
    _check(where, "remove_boxes", value, _id_list)
    for index, box_id in enumerate(value):
        found = _box_index(draft, box_id)
        if found is None:
            raise RuleSetError(where, f"remove_boxes[{index}]", f"no box {box_id!r} to remove")
        del draft["boxes"][found]
        for table in ("upper_bonus", "sharp"):
            policy = draft[table]
            if policy and isinstance(policy.get("boxes"), list) and box_id in policy["boxes"]:
                policy["boxes"] = [b for b in policy["boxes"] if b != box_id]


def _patch_box(draft: Draft, entry: Any, where: str, key: str) -> None:
    """Add a box, or change the box with the same id (given keys win; params merge)."""
    _check_keys(where, key, entry, BOX_KEYS)
    if "id" not in entry:
        raise RuleSetError(where, f"{key}.id", "missing")
    if "before" in entry and "after" in entry:
        raise RuleSetError(where, f"{key}.after", "give `before` or `after`, not both")
    index = _box_index(draft, entry["id"])
    if index is None:
        for needed in ("kind", "names"):
            if needed not in entry:
                raise RuleSetError(where, f"{key}.{needed}", f"missing for new box {entry['id']!r}")
        box: dict[str, Any] = {"params": {}}
    else:
        box = draft["boxes"].pop(index)
        if "kind" in entry and entry["kind"] != box["kind"]:
            # a new kind starts from its own defaults (and its own section)
            box = {"names": box["names"], "params": {}}
    for name, value in entry.items():
        if name == "params":
            box["params"] = {**box.get("params", {}), **copy.deepcopy(value)}
        elif name not in ("before", "after"):
            box[name] = copy.deepcopy(value)
    box["origin"] = (where, key)
    box["shape"] = (draft.get("dice"), draft.get("faces"))  # the game the box was written for
    draft["boxes"].insert(_place(draft, entry, box, index, where, key), box)
    if len(draft["boxes"]) > LIMITS.max_boxes:
        raise RuleSetError(where, key, f"more than {LIMITS.max_boxes} boxes on the sheet")


def _place(
    draft: Draft,
    entry: Mapping[str, Any],
    box: Mapping[str, Any],
    index: int | None,
    where: str,
    key: str,
) -> int:
    """Where the box goes: `before`/`after` another, its old place, or its section's end."""
    for side in ("before", "after"):
        if side in entry:
            anchor = _box_index(draft, entry[side])
            if anchor is None:
                raise RuleSetError(where, f"{key}.{side}", f"no box {entry[side]!r} on the sheet")
            return anchor + (side == "after")
    if index is not None:
        return index
    section = _section(box)
    last = [i for i, other in enumerate(draft["boxes"]) if _section(other) == section]
    return last[-1] + 1 if last else len(draft["boxes"])


def _section(box: Mapping[str, Any]) -> str:
    return box.get("section") or get_kind(box["kind"]).section


# --- building the rule set ---------------------------------------------------------------


def _build(draft: Draft, spec: str) -> RuleSet:
    origin = {key: draft["file"] for key in (*SETTINGS, *TABLES)} | draft["origin"]
    dice, faces = draft["dice"], draft["faces"]
    boxes = tuple(_build_box(box, dice, faces, origin) for box in draft["boxes"])
    ids = [box.id for box in boxes]
    if not boxes:
        raise RuleSetError(draft["file"], "boxes", "the sheet has no box")
    for box, raw in zip(boxes, draft["boxes"], strict=True):
        _check_box_refs(box, raw, get_kind(box.kind), ids)

    def ref(key: str, box_id: str) -> str:
        if box_id not in ids:
            raise RuleSetError(origin[key.split(".")[0]], key, f"no box {box_id!r} on the sheet")
        return box_id

    five = draft["five_of_a_kind"] or None
    if five is not None:
        kind = boxes[ids.index(ref("five_of_a_kind", five))].kind
        if kind != "all-equal":
            raise RuleSetError(
                origin["five_of_a_kind"],
                "five_of_a_kind",
                f"box {five!r} is of kind {kind!r}; name the box of kind 'all-equal'",
            )
    extra = draft["extra"]
    if extra["mode"] != "none" and five is None:
        raise RuleSetError(origin["extra"], "extra.mode", "needs `five_of_a_kind` to name a box")
    upper = draft["upper_bonus"]
    upper_bonus = None
    if upper is not None:
        chosen = upper.get("boxes") or [b.id for b in boxes if b.section == "upper"]
        upper_bonus = UpperBonus(
            upper["threshold"],
            upper["points"],
            tuple(ref("upper_bonus.boxes", b) for b in chosen),
        )
    sharp = None
    if draft["sharp"] is not None:
        chosen = draft["sharp"]["boxes"]
        if chosen == "patterns":
            chosen = [b.id for b in boxes if b.section == "lower" and b.kind != "chance"]
        sharp = SharpPolicy(
            tuple(ref("sharp.boxes", b) for b in chosen), draft["sharp"].get("factor", 2)
        )
    strict = None
    if draft["strict"] is not None:
        chance = draft["strict"].get("chance_five_of_a_kind", 100)
        full_house = draft["strict"].get("full_house", True)
        strict = StrictPolicy(None if chance is False else chance, full_house)
    columns = tuple(
        ColumnSpec(c["id"], c["order"], _localized(c["names"])) for c in draft["columns"] or ()
    ) or (MAIN_COLUMN,)
    if strict is not None:
        columns = _strict_columns(columns, origin["strict"])
    return RuleSet(
        id=draft["id"],
        names=_localized(draft["names"]),
        description=_by_language(draft["description"])["en"],
        descriptions=_by_language(draft["description"]),
        source=draft["source"],
        dice=dice,
        faces=faces,
        rolls=draft["rolls"],
        hold=draft["hold"],
        boxes=boxes,
        upper_bonus=upper_bonus,
        five_of_a_kind=five,
        extra=ExtraPolicy(extra["mode"], extra.get("bonus", 100)),
        columns=columns,
        scratch=draft["scratch"],
        sharp=sharp,
        strict=strict,
        declaration=draft["declaration"],
        save_rolls=draft["save_rolls"],
        games_per_match=draft["games_per_match"],
        players=(draft["players"][0], draft["players"][1]),
        options=tuple(draft["options"]),
        spec=spec,
    )


def _strict_columns(columns: tuple[ColumnSpec, ...], where: str) -> tuple[ColumnSpec, ...]:
    """Strict fills the sheet top to bottom: the one free column becomes ``down``.

    Columns with other order rules (Ansage-Kniffel) contradict it and are refused.
    """
    if columns == (MAIN_COLUMN,):
        return (replace(MAIN_COLUMN, order="down"),)
    others = [
        c.id if c.id == c.order else f"{c.id} ({c.order})" for c in columns if c.order != "down"
    ]
    if others:
        raise RuleSetError(
            where,
            "strict",
            "fills the boxes top to bottom, so it cannot be combined with columns ordered "
            f"otherwise: {', '.join(others)}",
        )
    return columns


def _localized(names: Mapping[str, str]) -> dict[str, str]:
    """Names with a German entry: files may give English only (German falls back to it)."""
    return {"de": names["en"], **names}


def _build_box(raw: Mapping[str, Any], dice: int, faces: int, origin: Mapping[str, str]) -> BoxSpec:
    where, key = raw["origin"]
    kind = get_kind(raw["kind"])
    try:
        params = kind.resolve(raw.get("params", {}), dice=dice, faces=faces)
    except RuleSetError as exc:
        sub = f"{key}.params.{exc.key}" if exc.key else f"{key}.kind"
        changed = _changed_shape(raw, dice, faces, exc.problem)
        if changed:
            # the box was fine where it was written: a later file changed the game under it
            value = dice if changed == "dice" else faces
            raise RuleSetError(
                origin[changed],
                changed,
                f"{value} does not suit box {raw['id']!r} of {where} ({sub}: {exc.problem})",
            ) from None
        raise RuleSetError(where, sub, f"{exc.problem} (box {raw['id']!r})") from None
    section = _section(raw)
    if (section == "computed") != (kind.compute is not None):
        want = "computed" if kind.compute else "upper or lower"
        raise RuleSetError(where, f"{key}.section", f"kind {kind.name!r} needs section {want}")
    return BoxSpec(
        id=raw["id"],
        kind=kind.name,
        params=MappingProxyType(params),  # built-ins are shared: keep them read-only
        section=section,
        names=MappingProxyType(_localized(raw["names"])),
        served=raw.get("served"),
    )


def _changed_shape(raw: Mapping[str, Any], dice: int, faces: int, problem: str) -> str | None:
    """``dice`` or ``faces`` when that setting changed after the box was written, else None."""
    was_dice, was_faces = raw.get("shape", (dice, faces))
    pairs = (("dice", was_dice, dice), ("faces", was_faces, faces))
    changed = [name for name, was, now in pairs if was is not None and was != now]
    if len(changed) == 2:
        return "dice" if "dice" in problem else "faces"
    return changed[0] if changed else None


def _check_box_refs(box: BoxSpec, raw: Mapping[str, Any], kind: Kind, ids: list[str]) -> None:
    where, key = raw["origin"]
    for name in kind.box_params:
        target = box.params[name]
        if target and target not in ids:
            raise RuleSetError(where, f"{key}.params.{name}", f"no box {target!r} on the sheet")
        if target == box.id:
            raise RuleSetError(where, f"{key}.params.{name}", "a box cannot refer to itself")
