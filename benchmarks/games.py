"""Random-playout speed and image figures for every game in ``rules.GAMES``.

    .venv/bin/python benchmarks/games.py [--seconds 5] [--images 60]

Prints, per game: moves/s and games/s of uniformly random playouts on one core
(``legal_moves`` + ``play`` per move, nothing else), and the median/p95 time and the
median/max size of a picture (each attachment of ``render.pngs``: the channel's, and a
seat's table and hand) over views sampled from those games. Times are CPU time, so a busy
machine slows the figures less.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import render
import rules


def playouts(game: Any, seconds: float) -> tuple[float, float, list[Any]]:
    """Random games for about ``seconds``; returns moves/s, games/s and sampled states."""
    moves = games = 0
    samples: list[Any] = []
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new(players=players, seed=seed)
        rng = random.Random(seed)
        step = 0
        while game.outcome(state) is None:
            seat = rng.choice(sorted(game.to_act(state)))
            state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
            moves += 1
            step += 1
            if step % 37 == 0 and len(samples) < 400:
                samples.append(state)
        samples.append(state)
        games += 1
        seed += 1
    elapsed = time.process_time() - start
    return moves / elapsed, games / elapsed, samples


def images(game: Any, states: list[Any], count: int) -> tuple[list[float], list[int]]:
    """Render ``count`` views (spectator and seats alternately); times in ms, sizes in bytes."""
    rng = random.Random(1)
    picked = rng.sample(states, min(count, len(states)))
    times, sizes = [], []
    for n, state in enumerate(picked):
        seat = None if n % 2 == 0 else rng.randrange(state.players)
        view = game.view(state, seat)
        start = time.process_time()
        pngs = render.pngs(game.id, view)
        times.append((time.process_time() - start) * 1000 / len(pngs))
        sizes.extend(len(png) for png in pngs)
    return times, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="playout time per game")
    parser.add_argument("--images", type=int, default=60, help="images rendered per game")
    parser.add_argument("--game", choices=sorted(rules.GAMES), help="only this game")
    args = parser.parse_args()
    header = (f"{'game':<15}{'moves/s':>10}{'games/s':>10}{'img p50 ms':>12}"
              f"{'img p95 ms':>12}{'KB p50':>9}{'KB max':>9}")
    print(header)
    for game_id in sorted(rules.GAMES):
        if args.game and game_id != args.game:
            continue
        game = rules.GAMES[game_id]
        mps, gps, states = playouts(game, args.seconds)
        times, sizes = images(game, states, args.images)
        p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
        print(f"{game_id:<15}{mps:>10.0f}{gps:>10.2f}{statistics.median(times):>12.1f}"
              f"{p95:>12.1f}{statistics.median(sizes) / 1024:>9.0f}{max(sizes) / 1024:>9.0f}")


if __name__ == "__main__":
    main()
