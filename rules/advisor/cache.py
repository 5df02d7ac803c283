"""The strategy table kept on disk, once per rule set, and never trusted unchecked.

A table file is named after the rule set and a hash of everything that decides scores
(dice, rolls, holds, boxes and their parameters, bonus, joker rule; not names or
descriptions) plus the solver's format number. Inside: a magic line, a JSON header (that
hash, the shape, a SHA-256 of the values) and the values. A file whose header, size or
checksum does not match is computed again and replaced.

>>> import tempfile
>>> from dicetray.rules import load_ruleset
>>> cache = TableCache(tempfile.mkdtemp())
>>> table = cache.load_or_build(load_ruleset("general"))
>>> cache.load(load_ruleset("general")) is not None
True
>>> content_key(load_ruleset("yahtzee")) == content_key(load_ruleset("yahtzee-free-joker"))
False
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from dicetray.rules.advisor.model import Model
from dicetray.rules.advisor.table import Progress, StrategyTable, build_table
from dicetray.rules.ruleset import RuleSet

__all__ = ["FORMAT", "TableCache", "content_key", "load_table"]

# Bump when the meaning or layout of a stored table changes: older files are then stale.
FORMAT = 1
MAGIC = b"dicetray-advisor-table\n"
_COSMETIC = ("names", "description", "descriptions", "source", "options", "id", "players",
             "games_per_match")


def content_key(ruleset: RuleSet, op: str = "mean") -> str:
    """A hash of what decides the scores of ``ruleset`` (not its names or texts)."""
    data = {k: v for k, v in ruleset.to_dict().items() if k not in _COSMETIC}
    data["boxes"] = [
        {k: v for k, v in box.items() if k not in ("names", "describe")} for box in data["boxes"]
    ]
    data["columns"] = [{"order": c["order"]} for c in data["columns"]]
    text = json.dumps([FORMAT, op, data], sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


class TableCache:
    """Strategy tables in ``directory`` (the CLI and the web give the data directory's
    ``advisor`` folder)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def path(self, ruleset: RuleSet, op: str = "mean") -> Path:
        key = content_key(ruleset, op)
        name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in ruleset.id)
        return self.directory / f"{name}-{op}-{key[:16]}.table"

    def load(
        self, ruleset: RuleSet, op: str = "mean", model: Model | None = None
    ) -> StrategyTable | None:
        """The stored table, or None when there is none or it fails any check."""
        path = self.path(ruleset, op)
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        model = model or Model.build(ruleset)
        shape = (1 << len(model.boxes), model.uppers, 2)
        try:
            if not raw.startswith(MAGIC):
                return None
            end = raw.index(b"\n", len(MAGIC))
            header = json.loads(raw[len(MAGIC) : end])
            body = raw[end + 1 :]
            if (
                header.get("key") != content_key(ruleset, op)
                or tuple(header.get("shape", ())) != shape
                or header.get("sha256") != hashlib.sha256(body).hexdigest()
                or len(body) != 8 * int(np.prod(shape))
            ):
                return None
        except (ValueError, TypeError, AttributeError):
            return None
        values = np.frombuffer(body, dtype="<f8").reshape(shape).copy()
        return StrategyTable(model, values, op)

    def store(self, table: StrategyTable) -> Path:
        """Write ``table`` atomically (a reader never sees half a file)."""
        ruleset = table.model.ruleset
        path = self.path(ruleset, table.op)
        body = np.ascontiguousarray(table.values, dtype="<f8").tobytes()
        header = {
            "format": FORMAT,
            "ruleset": ruleset.reference,
            "key": content_key(ruleset, table.op),
            "op": table.op,
            "shape": list(table.values.shape),
            "sha256": hashlib.sha256(body).hexdigest(),
        }
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".part")
        try:
            os.chmod(tmp, 0o644)  # the web service may run as another user
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC + json.dumps(header).encode() + b"\n" + body)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    def load_or_build(
        self, ruleset: RuleSet, op: str = "mean", progress: Progress | None = None
    ) -> StrategyTable:
        """The stored table when it checks out, else computed (``progress`` told) and stored."""
        model = Model.build(ruleset)
        found = self.load(ruleset, op, model)
        if found is not None:
            return found
        table = build_table(model, op, progress)
        self.store(table)
        return table


def load_table(
    ruleset: RuleSet,
    directory: str | os.PathLike[str],
    op: str = "mean",
    progress: Progress | None = None,
) -> StrategyTable:
    """The strategy table of ``ruleset`` from the cache in ``directory`` (built if need be)."""
    return TableCache(directory).load_or_build(ruleset, op, progress)
