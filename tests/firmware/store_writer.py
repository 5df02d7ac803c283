"""The kill test's writer: plays random games into a Store until it is killed.

    python store_writer.py DATA_DIR SEED

It prints ``ready``, resumes the store's current game (rebuilt from its events) or starts
one, then loops: one action of the game (roll, keep, score or undo), stored with
``append``; every few actions a reading with a frame. After each write returns it prints
what was acknowledged, one line each:

    event GAME SEQ JSON      an event committed as number SEQ of game GAME (0: its start)
    reading ID NAME          a reading committed with the frame frame_bytes(NAME)
    finished GAME            a game marked finished
"""

from __future__ import annotations

import json
import random
import sys

from dicetray.firmware.store import Store
from dicetray.rules import Match, Started
from dicetray.rules.events import to_dict

RULESET = "yahtzee"
PLAYERS = ("Ann", "Bo")


def frame_bytes(name: str) -> bytes:
    """The frame stored with the reading called ``name`` (about 40 kB, like a small JPEG)."""
    return f"frame {name}\n".encode() * 3000


def start(store: Store, version: int) -> int:
    started = Started(RULESET, PLAYERS)
    game_id = store.start_game(started, version=version)
    print(f"event {game_id} 0 {json.dumps(to_dict(started))}", flush=True)
    return game_id


def main(folder: str, seed: int) -> None:
    rng = random.Random(seed)
    store = Store(folder)
    version = store.last_version()
    game_id = store.current_game()
    print("ready", flush=True)
    if game_id is None:
        version += 1
        game_id = start(store, version)
    match = Match.from_events(store.events(game_id))
    actions = 0
    while True:
        game = match.game
        if match.finished:
            store.finish_game(game_id, totals=match.totals(), winners=match.winners())
            print(f"finished {game_id}", flush=True)
            version += 1
            game_id = start(store, version)
            match = Match.from_events(store.events(game_id))
            continue
        turn = game.turn
        if not turn.rolled or (turn.rolls_left and rng.random() < 0.5):
            game.roll_random(rng)
        elif turn.rolls_left and rng.random() < 0.3:
            dice = len(turn.dice)
            game.keep(rng.sample(range(dice), rng.randint(0, dice - 1)))
        elif game.can_undo and rng.random() < 0.1:
            game.undo()
        else:
            entry = rng.choice(game.options())
            game.score(entry.box, entry.column)
        event = game.events[-1]
        version += 1
        seq = store.append(game_id, event, version=version)
        print(f"event {game_id} {seq} {json.dumps(to_dict(event))}", flush=True)
        actions += 1
        if actions % 4 == 0:
            name = f"{seed}-{actions}"
            dice = [{"value": v} for v in game.turn.dice] if game.turn.rolled else []
            reading = {"image": name, "status": "ok", "reason": "", "dice": dice}
            rid = store.add_reading(reading, frame=frame_bytes(name), game_id=game_id)
            print(f"reading {rid} {name}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
