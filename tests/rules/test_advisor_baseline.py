"""The benchmark's straightforward solver answers what the advisor answers."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from dicetray.rules import load_ruleset
from dicetray.rules.advisor.model import Model
from dicetray.rules.advisor.table import build_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module("benchmarks.advisor")


@pytest.mark.parametrize("mode", ["forced-joker", "kniffel", "none"])
def test_both_solvers_agree_on_every_state(bench, tmp_path: Path, mode: str) -> None:
    path = tmp_path / "small.toml"
    path.write_text(
        f"""names = {{ en = "Small" }}
dice = 3
faces = 4
rolls = 3
hold = "free"
five_of_a_kind = "same"
upper_bonus = {{ threshold = 10, points = 20 }}
extra = {{ mode = "{mode}" }}
[[boxes]]
id = "ones"
names = {{ en = "Ones" }}
kind = "upper"
params = {{ face = 1 }}
[[boxes]]
id = "fours"
names = {{ en = "Fours" }}
kind = "upper"
params = {{ face = 4 }}
[[boxes]]
id = "same"
names = {{ en = "Same" }}
kind = "all-equal"
[[boxes]]
id = "chance"
names = {{ en = "Chance" }}
kind = "chance"
"""
    )
    model = Model.build(load_ruleset(path))
    fast = build_table(model).values
    slow = bench.straightforward_table(model)
    reached = ~np.isnan(fast)
    assert reached.sum() > 50
    assert np.allclose(fast[reached], slow[reached], atol=1e-9)


def test_the_benchmark_module_examples(bench) -> None:
    result = doctest.testmod(bench, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
