"""The docstring examples of the benchmark modules run (they are not under dicetray.*)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    [
        "benchmarks.metrics",
        "benchmarks.datasets",
        "benchmarks.halves",
        "benchmarks.baseline_golsteyn",
        "benchmarks.vision",
        "benchmarks.distort",
        "benchmarks.hostile",
        "benchmarks.pages",
        "benchmarks.steady",
        "benchmarks.advisor",
        "benchmarks.calibration",
        "benchmarks.tray_view",
        "benchmarks.thresholds",
        "benchmarks.teaching_head",
    ],
)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
