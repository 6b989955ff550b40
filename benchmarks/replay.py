"""A replay (``/game replay``, ``bot/service/replays.py``) of the longest game of each game:
the time to draw one step, and the whole game animated.

    .venv/bin/python benchmarks/replay.py [--seeds 3] [--steps 40] [--cores 1]

Per game: ``--seeds`` games of random legal moves from seeded generators, with the most
seats the game allows (the rules alone, at most ``--cap`` moves each); the longest (most
moves) is written to a SQLite file as the bot stores it (opened, seated, dealt, each move
committed, the last one ending it), and a spectator steps through it with
``TableService.replay`` (a finished game: the board and every seat's hidden part drawn, as
the channel's message shows them). Printed:

- ``first``: the first step asked for, the game running before its last move (the log
  read and replayed from the deal, then move 0 drawn as a spectator sees it);
- ``moved``: the first step after that last move (the replay kept played on by one move,
  not from the deal; the last move drawn with every hand, the game being over);
- ``step``: ``--steps`` more steps at distinct random moves (the replay kept, each step's
  state played from the nearest kept one and its pictures drawn afresh): median and max
  wall milliseconds, from the call to the pictures in hand;
- ``loop``: the longest the event loop was kept from running meanwhile (a 1 ms ticker):
  the work is done in threads;
- ``GIF``: CPU seconds to animate the whole game (``TableService.replay_animation``: the
  replay into public views after each turn, the frames drawn, the GIF), median of
  ``--repeats``.

By default the process is pinned to one core (``--cores``), so the figures are one core's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from benchmarks.common import pin, random_game
from bot.service import TableService
from bot.service.table import encode
from bot.store import Store
from bot.timeline import turn_ends

NAMES = ["Alice", "Bob", "Chidi", "Dana"]
AIM_STEP_MS, AIM_GIF_S = 300.0, 10.0






async def store_game(store: Store, channel: int, game: rules.Game[Any], players: int,
                     seed: int, log: list[tuple[int, str]]) -> tuple[int, Any]:
    """The game as the bot stores it: its row, seats, deal and the moves of ``log``; its
    stored id and last state."""
    row = await store.tables.create_game(channel, 1, game.id, {}, 1, NAMES[0])
    for seat in range(1, players):
        await store.seats.add(row.id, seat, seat + 1, NAMES[seat], "human")
    state = game.new(players, seed)
    await store.tables.start_game(row.id, seed, encode(game, state))
    for version, (seat, text) in enumerate(log, start=1):
        state = await commit(store, row.id, game, state, version, seat, text)
    return row.id, state


async def commit(store: Store, game_id: int, game: rules.Game[Any], state: Any,
                 version: int, seat: int, text: str) -> Any:
    """One move stored (the one that ends the game, ending it); the state after it."""
    state, _ = game.play(state, seat, text)
    assert await store.tables.commit_move(game_id, version, seat, text, encode(game, state),
                                   over=game.outcome(state) is not None)
    return state


async def ticking(worst: list[float]) -> None:
    """How late a 1 ms sleep wakes, the worst seen: how long the loop was kept busy."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(0.001)
        worst[0] = max(worst[0], time.perf_counter() - before - 0.001)


async def measure(game_id: str, args: argparse.Namespace, folder: str) -> str:
    game = rules.GAMES[game_id]
    players = game.max_players
    logs = {seed: random_game(game, players, seed, args.cap, "replay")
            for seed in range(1, args.seeds + 1)}
    seed = max(logs, key=lambda s: len(logs[s]))
    log = logs[seed]
    turns = len(turn_ends(game, players, seed, None, log, ()))
    store = await Store.open(os.path.join(folder, f"{game_id}.db"), flush_delay=0)
    service = TableService(store, images=True, level="normal")
    try:
        channel = 100
        stored, state = await store_game(store, channel, game, players, seed, log[:-1])
        spectator = 999
        worst = [0.0]
        ticker = asyncio.ensure_future(ticking(worst))
        started = time.perf_counter()
        await service.replay(channel, spectator, None, 0)  # the game runs: as a spectator
        first = time.perf_counter() - started
        state = await commit(store, stored, game, state, len(log), *log[-1])
        if game.outcome(state) is None:  # cut short at the cap: ended as /game end does
            await store.tables.end_game(stored)
        started = time.perf_counter()
        frame = await service.replay(channel, spectator, None, len(log))  # every hand
        moved = time.perf_counter() - started
        rng = random.Random(f"steps/{game_id}")
        moves = rng.sample(range(1, frame.last + 1), min(args.steps, frame.last))
        times = []
        for move in moves:
            started = time.perf_counter()
            await service.replay(channel, spectator, None, move)
            times.append(time.perf_counter() - started)
        ticker.cancel()
        gifs = []
        for _ in range(args.repeats):
            service.replays._animations.clear()
            before = time.process_time()
            _, gif = await service.replay_animation(channel)
            gifs.append(time.process_time() - before)
    finally:
        service.close()
        await store.close()
    return (f"{game_id:<15}{players:>6}{len(log):>7}{turns:>7}{first * 1000:>8.0f}"
            f"{moved * 1000:>8.0f}"
            f"{statistics.median(times) * 1000:>8.0f}{max(times) * 1000:>7.0f}"
            f"{worst[0] * 1000:>7.1f}{statistics.median(gifs):>7.2f}{len(gif) / 1e6:>7.2f}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games played per game")
    parser.add_argument("--steps", type=int, default=40, help="steps drawn per game")
    parser.add_argument("--repeats", type=int, default=3, help="animations drawn per game")
    parser.add_argument("--cap", type=int, default=5000, help="most moves in a game")
    parser.add_argument("--cores", type=int, default=1, help="pin to this many cores; 0: no pin")
    parser.add_argument("--game", choices=sorted(rules.GAMES), help="only this game")
    args = parser.parse_args()
    print(f"On {pin(args.cores)}. Milliseconds of wall time a step (aim: under "
          f"{AIM_STEP_MS:.0f}), CPU seconds for the GIF (aim: under {AIM_GIF_S:.0f}).")
    print(f"{'game':<15}{'seats':>6}{'moves':>7}{'turns':>7}{'first':>8}{'moved':>8}"
          f"{'step':>8}"
          f"{'max':>7}{'loop':>7}{'GIF s':>7}{'MB':>7}")
    with tempfile.TemporaryDirectory() as folder:
        for game_id in sorted(rules.GAMES):
            if not args.game or game_id == args.game:
                print(await measure(game_id, args, folder), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
