"""A game at the table: players in turn order, their sheets, the current turn, undo.

Every action is an event (:mod:`dicetray.rules.events`) and the game's state is the fold
of its events: :meth:`Game.from_events` replays a stored list into the same state.

>>> from dicetray.rules import load_ruleset
>>> game = Game(load_ruleset("yahtzee"), ("Ann", "Bo"))
>>> _ = game.roll((6, 6, 6, 2, 3))
>>> _ = game.keep((0, 1, 2))
>>> _ = game.roll((6, 6))
>>> game.score("yahtzee").points
50
>>> game.player
'Bo'
>>> Game.from_events(game.events).sheets[0].total
50
"""

from __future__ import annotations

import itertools
import operator
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from dicetray.rules.errors import GameOver, NotYourTurn, PlayersError
from dicetray.rules.events import (
    Declared,
    Event,
    EventError,
    Kept,
    NextGame,
    Rolled,
    Scored,
    Started,
    Undone,
)
from dicetray.rules.loader import MAX_PLAYERS, load_ruleset
from dicetray.rules.ruleset import RuleSet
from dicetray.rules.sheet import Entry, Sheet, UndoError
from dicetray.rules.turn import Declaration, Turn, throw

__all__ = ["Game", "Match", "PlayersError"]


@dataclass(frozen=True)
class _Before:
    """What an action changed, so undo can put it back."""

    event: Event
    current: int
    turn: Turn
    saved: tuple[int, ...]
    turns_played: int


class Game:
    """One game: ``players`` (names, or a count) take turns until every sheet is full."""

    def __init__(self, ruleset: RuleSet, players: Sequence[str] | int = 1) -> None:
        names = _player_names(players)
        low, high = ruleset.players
        if not low <= len(names) <= high:
            raise PlayersError(
                f"{ruleset.id} is played by {low} to {high} players, not {len(names)}"
            )
        self.ruleset = ruleset
        self.players = names
        self.sheets = tuple(Sheet(ruleset) for _ in names)
        self.current = 0
        self.turns_played = 0
        self._saved = tuple(0 for _ in names)
        self.turn = Turn.start(ruleset)
        self._log: list[Event] = [Started(ruleset.reference, names)]
        self._done: list[_Before] = []

    @classmethod
    def from_events(cls, events: Iterable[Event], ruleset: RuleSet | None = None) -> Game:
        """Rebuild a game from its events (the first is :class:`Started`).

        The rule set is loaded again from ``Started`` (its id, combination or file path, see
        :attr:`RuleSet.reference`) unless given (say, a rule-set file that has moved).
        """
        start, ruleset, rest = _opening(events, ruleset)
        game = cls(ruleset, start.players)
        for event in rest:
            game.apply(event)
        return game

    # -- state ---------------------------------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, undos included (replay them to rebuild this game)."""
        return tuple(self._log)

    @property
    def player(self) -> str:
        """The name of the player whose turn it is."""
        return self.players[self.current]

    @property
    def sheet(self) -> Sheet:
        """The current player's sheet."""
        return self.sheets[self.current]

    @property
    def finished(self) -> bool:
        return all(sheet.full for sheet in self.sheets)

    @property
    def can_undo(self) -> bool:
        """Whether an action of this game can be taken back."""
        return bool(self._done)

    @property
    def saved_rolls(self) -> tuple[int, ...]:
        """Rolls each player has saved for later turns (``save_rolls`` rule sets)."""
        return self._saved

    def totals(self) -> tuple[int, ...]:
        """Each player's grand total, in turn order."""
        return tuple(sheet.total for sheet in self.sheets)

    def winners(self) -> tuple[int, ...]:
        """Indices of the players with the highest total once the game is over (ties: all).

        >>> from dicetray.rules import load_ruleset
        >>> game = Game(load_ruleset("crag"), ("Ann", "Bo"))
        >>> while not game.finished:
        ...     _ = game.roll((1, 2, 4))
        ...     _ = game.score(game.sheet.open_boxes()[0])
        >>> game.totals(), game.winners()
        ((7, 7), (0, 1))
        """
        if not self.finished:
            return ()
        return _leaders(self.totals())

    def options(self) -> tuple[Entry, ...]:
        """The current player's legal entries for the dice on the table.

        >>> from dicetray.rules import load_ruleset
        >>> game = Game(load_ruleset("yahtzee"))
        >>> _ = game.roll((6, 6, 6, 6, 6))
        >>> _ = game.score("yahtzee")
        >>> _ = game.roll((4, 4, 4, 4, 4))
        >>> [(e.box, e.points, e.extra) for e in game.options()]  # forced joker
        [('fours', 20, 100)]
        """
        self._check_open()
        return self.sheet.options(self.turn.dice, self.turn.context(), self.turn.declaration)

    def to_dict(self) -> dict[str, object]:
        """JSON-able state for the table and the phones."""
        turn = self.turn
        return {
            "ruleset": self.ruleset.id,
            "players": list(self.players),
            "current": self.current,
            "finished": self.finished,
            "winners": list(self.winners()),
            "turn": turn.to_dict(),
            "options": [e.to_dict() for e in self.options()]
            if turn.rolled and not self.finished
            else [],
            "saved_rolls": list(self._saved),
            "sheets": [sheet.to_dict() for sheet in self.sheets],
        }

    # -- actions -------------------------------------------------------------------------

    def roll(self, dice: Sequence[int], player: int | None = None) -> Turn:
        """Roll the dice not held; ``dice`` are the values the cup (or camera) produced."""
        self.apply(Rolled(dice, player))  # type: ignore[arg-type]  # checked there
        return self.turn

    def roll_random(self, rng: random.Random, player: int | None = None) -> Turn:
        """Roll with dice from ``rng`` (simulation); recorded like any roll."""
        self._check_open(player)
        thrown = throw(self.turn, rng).dice
        return self.roll(tuple(thrown[p] for p in self.turn.to_throw), player)

    def keep(self, positions: Iterable[int], player: int | None = None) -> Turn:
        """Put the dice at ``positions`` on the ledge."""
        self.apply(Kept(positions, player))  # type: ignore[arg-type]  # checked there
        return self.turn

    def declare(self, box: str, column: str | None = None, player: int | None = None) -> Turn:
        """Declare the box to aim at, right after the first roll."""
        self.apply(Declared(box, column, player))
        return self.turn

    def score(self, box: str | None, column: str | None = None, player: int | None = None) -> Entry:
        """Write the turn's dice into ``box`` and pass the dice on."""
        sheet = self.sheet
        self.apply(Scored(box, column, player))
        return sheet.entries[-1]

    def undo(self) -> Event:
        """Take back the last action; returns the event taken back.

        >>> from dicetray.rules import load_ruleset
        >>> game = Game(load_ruleset("yahtzee"))
        >>> _ = game.roll((1, 2, 3, 4, 5))
        >>> _ = game.score("chance")
        >>> game.undo()
        Scored(box='chance', column=None, player=None)
        >>> game.sheet.open_boxes()[-1], game.turn.dice
        ('chance', (1, 2, 3, 4, 5))
        """
        if not self._done:
            raise UndoError("nothing to undo in this game")
        undone = self._done[-1].event
        self.apply(Undone())
        return undone

    def apply(self, event: Event) -> None:
        """Apply one event (the single way the state changes); it joins :attr:`events`."""
        if isinstance(event, Undone):
            self._undo()
            self._log.append(event)
            return
        if isinstance(event, Started | NextGame):
            raise EventError(f"a {event.type} event does not belong inside a game")
        player = getattr(event, "player", None)
        self._check_open(player)
        before = _Before(event, self.current, self.turn, self._saved, self.turns_played)
        if isinstance(event, Rolled):
            self.turn = self.turn.roll(event.dice)
        elif isinstance(event, Kept):
            self.turn = self.turn.keep(event.held)
        elif isinstance(event, Declared):
            timed = self.turn.declare(event.box, event.column)  # checks the timing
            checked = self.sheet.check_declaration(Declaration(event.box, event.column))
            self.turn = replace(timed, declaration=checked)
        elif isinstance(event, Scored):
            self._score(event)
        else:
            raise EventError(f"unknown event {event!r}")
        self._done.append(before)
        self._log.append(event)

    # -- internals -----------------------------------------------------------------------

    def _score(self, event: Scored) -> None:
        turn = self.turn
        entry = self.sheet.record(
            event.box, turn.dice, turn.context(), event.column, turn.declaration
        )
        self.turns_played += 1
        if self.ruleset.save_rolls:
            saved = list(self._saved)
            saved[self.current] = turn.rolls_left
            self._saved = tuple(saved)
        if entry.box is not None and not self.finished:
            self.current = self._next_player()
        self.turn = Turn.start(self.ruleset, self._saved[self.current])

    def _next_player(self) -> int:
        count = len(self.players)
        for step in range(1, count + 1):
            candidate = (self.current + step) % count
            if not self.sheets[candidate].full:
                return candidate
        return self.current

    def _undo(self) -> Event:
        if not self._done:
            raise UndoError("nothing to undo in this game")
        before = self._done.pop()
        if isinstance(before.event, Scored):
            self.sheets[before.current].pop()
        self.current = before.current
        self.turn = before.turn
        self._saved = before.saved
        self.turns_played = before.turns_played
        return before.event

    def _check_open(self, player: int | None = None) -> None:
        if self.finished:
            raise GameOver("the game is over: every box is filled")
        if player is not None and player != self.current:
            name = self.players[player] if 0 <= player < len(self.players) else f"#{player}"
            raise NotYourTurn(f"it is {self.player}'s turn, not {name}'s")


class Match:
    """A match of several games (the rule set's ``games_per_match``) with the same players.

    >>> from dicetray.rules import load_ruleset
    >>> match = Match(load_ruleset("yahtzee"), ("Ann", "Bo"), games=2)
    >>> match.number, match.finished
    (1, False)
    """

    def __init__(
        self, ruleset: RuleSet, players: Sequence[str] | int = 1, games: int | None = None
    ) -> None:
        self.ruleset = ruleset
        try:
            if isinstance(games, bool):
                raise TypeError
            self.length = ruleset.games_per_match if games is None else operator.index(games)
        except TypeError:
            raise PlayersError(f"games is a whole number, not {games!r}") from None
        if self.length < 1:
            raise PlayersError(f"a match has at least one game, not {self.length}")
        first = Game(ruleset, players)
        self.players = first.players
        self.games: list[Game] = [first]

    @classmethod
    def from_events(cls, events: Iterable[Event], ruleset: RuleSet | None = None) -> Match:
        """Rebuild a match from its events (the first is :class:`Started`)."""
        start, ruleset, rest = _opening(events, ruleset)
        match = cls(ruleset, start.players, start.games)
        for event in rest:
            match.apply(event)
        return match

    @property
    def game(self) -> Game:
        """The game being played (or the last one, once the match is over)."""
        return self.games[-1]

    @property
    def number(self) -> int:
        """Which game of the match this is, from 1."""
        return len(self.games)

    @property
    def events(self) -> tuple[Event, ...]:
        """The match's events: its start, then each game's actions, games split by NextGame.

        Actions made on :attr:`game` directly are included; a next game that was undone
        leaves no trace (replaying gives the same state).
        """
        events: list[Event] = [Started(self.ruleset.reference, self.players, self.length)]
        for number, game in enumerate(self.games):
            if number:
                events.append(NextGame())
            events.extend(game.events[1:])
        return tuple(events)

    @property
    def finished(self) -> bool:
        return len(self.games) == self.length and self.game.finished

    def totals(self) -> tuple[int, ...]:
        """Each player's total over the games played so far."""
        return tuple(sum(game.totals()[i] for game in self.games) for i in range(len(self.players)))

    def winners(self) -> tuple[int, ...]:
        """Players with the best match total once every game is over (ties: all)."""
        if not self.finished:
            return ()
        return _leaders(self.totals())

    def next_game(self) -> Game:
        """Start the next game once the current one is over.

        >>> from dicetray.rules import load_ruleset
        >>> match = Match(load_ruleset("crag"), 1, games=2)
        >>> match.next_game()
        Traceback (most recent call last):
        ...
        dicetray.rules.errors.GameOver: game 1 is still being played
        """
        self.apply(NextGame())
        return self.game

    def apply(self, event: Event) -> None:
        """Apply one event to the match (game actions go to the current game)."""
        if isinstance(event, NextGame):
            if not self.game.finished:
                raise GameOver(f"game {self.number} is still being played")
            if len(self.games) >= self.length:
                raise GameOver(f"the match of {self.length} games is over")
            self.games.append(Game(self.ruleset, self.players))
        elif isinstance(event, Undone) and len(self.games) > 1 and not self.game.can_undo:
            self.games.pop()  # undo the start of the next game
        else:
            self.game.apply(event)

    def to_dict(self) -> dict[str, object]:
        return {
            "ruleset": self.ruleset.id,
            "players": list(self.players),
            "games": self.length,
            "number": self.number,
            "finished": self.finished,
            "totals": list(self.totals()),
            "winners": list(self.winners()),
            "game": self.game.to_dict(),
        }


def _player_names(players: Sequence[str] | int) -> tuple[str, ...]:
    """Names from a list of names or a count (NumPy's integers too), never more than the
    table seats: ``Game(rules, 10**100)`` is refused, not counted out."""
    if isinstance(players, str | bytes | bool):
        raise PlayersError(f"players are a list of names or a count, not {players!r}")
    if not isinstance(players, Iterable):
        try:
            count = operator.index(players)
        except TypeError:
            raise PlayersError(f"players are a list of names or a count, "
                               f"not {players!r}") from None
        if not 0 <= count <= MAX_PLAYERS:
            raise PlayersError(f"a table seats 1 to {MAX_PLAYERS} players, not {count}")
        return tuple(f"Player {i + 1}" for i in range(count))
    names = tuple(itertools.islice(players, MAX_PLAYERS + 1))
    if len(names) > MAX_PLAYERS:
        raise PlayersError(f"a table seats 1 to {MAX_PLAYERS} players, not more")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise PlayersError(f"a player's name is a non-empty string, not {name!r}")
    if len(set(names)) != len(names):
        raise PlayersError("two players share a name")
    return names


def _leaders(totals: tuple[int, ...]) -> tuple[int, ...]:
    best = max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)


def _opening(
    events: Iterable[Event], ruleset: RuleSet | None
) -> tuple[Started, RuleSet, list[Event]]:
    """The start event, the rule set it names (unless given) and the events after it."""
    events = list(events)
    if not events or not isinstance(events[0], Started):
        raise EventError("the events of a game begin with a start event")
    start = events[0]
    if ruleset is None:
        ruleset = load_ruleset(start.ruleset)
    return start, ruleset, events[1:]
