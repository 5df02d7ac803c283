"""Shared fixtures of the rules tests: the advisor's strategy tables, computed once a session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from dicetray.rules import load_ruleset


@pytest.fixture(scope="session")
def advisor_table(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., object]:
    """``advisor_table(ruleset_or_path, op="mean")``: the table, built at most once per session
    into a session cache directory (``.cache_dir`` tells where)."""
    from dicetray.rules.advisor.cache import TableCache

    cache = TableCache(tmp_path_factory.mktemp("advisor"))
    made: dict[tuple[str, str], object] = {}

    def get(spec: str | Path, op: str = "mean") -> object:
        key = (str(spec), op)
        if key not in made:
            made[key] = cache.load_or_build(load_ruleset(spec), op)
        return made[key]

    get.cache_dir = cache.directory  # type: ignore[attr-defined]
    return get


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for a module's cut-down rule-set files."""
    return tmp_path_factory.mktemp("small-games")


@pytest.fixture(scope="module")
def cache_(tmp_path_factory: pytest.TempPathFactory) -> object:
    """A table cache of a module's own (its cut-down games' tables)."""
    from dicetray.rules.advisor.cache import TableCache

    return TableCache(tmp_path_factory.mktemp("small-tables"))
