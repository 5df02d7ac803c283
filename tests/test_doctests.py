"""Run the examples in every module's docstrings, so the docs cannot rot."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import dicetray.firmware
import dicetray.rules
import dicetray.vision
import dicetray.web


def _modules() -> list[str]:
    names = []
    for pkg in (dicetray.rules, dicetray.vision, dicetray.firmware, dicetray.web):
        names.append(pkg.__name__)
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
