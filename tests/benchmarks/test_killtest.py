"""The kill test, small: the simulated tray SIGKILLed at random moments of a game keeps every
score it acknowledged, and the game goes on (benchmarks/killtest.py runs the long one)."""

from __future__ import annotations

import pytest

from benchmarks.killtest import main

pytestmark = pytest.mark.slow


def test_no_acknowledged_score_is_lost_across_kills():
    figures = main(["--runs", "1", "--kills", "4", "--seed", "3"])
    assert figures.kills >= 1 and figures.acknowledged > 0
    assert figures.lost == 0, figures.problems
