"""Optimal play of whole games with the real rules engine (simulation, checks, benchmarks).

Each turn is solved once; every choice is the advisor's best option, played through
:class:`~dicetray.rules.game.Game` so the rules themselves accept (or refuse) it.

>>> import random, tempfile
>>> from dicetray.rules import load_ruleset
>>> from dicetray.rules.advisor.cache import load_table
>>> table = load_table(load_ruleset("general"), tempfile.mkdtemp())
>>> game = play_optimally(table, random.Random(3))
>>> game.finished
True
"""

from __future__ import annotations

import random

from dicetray.rules.advisor.advice import OptionKind, Situation, advise, plan_for
from dicetray.rules.advisor.table import StrategyTable
from dicetray.rules.game import Game

__all__ = ["play_optimally"]


def play_optimally(table: StrategyTable, rng: random.Random) -> Game:
    """A one-player game played to the end by the advisor's best choices, dice from ``rng``."""
    game = Game(table.model.ruleset)
    locked_hold = game.ruleset.hold == "locked"
    while not game.finished:
        situation = Situation.from_sheet(game.sheet)
        plan = plan_for(table, situation)
        game.roll_random(rng)
        while True:
            turn = game.turn
            locked = tuple(turn.dice[p] for p in turn.locked) if locked_hold else ()
            best = advise(table, situation, turn.dice, turn.rolls_left, locked, plan).best
            if best.kind is OptionKind.SCORE:
                game.score(best.box)
                break
            game.keep(turn.keep_values(best.dice).held)
            game.roll_random(rng)
    return game
