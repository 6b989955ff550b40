"""Battle Tiles balance: seat win rates and draws over self-play.

    .venv/bin/python benchmarks/battle_tiles_balance.py [--games 2000] [--player greedy]

Both seats are played by the same player: ``random`` (a uniformly random legal move) or
``greedy`` (the move that leaves the best point difference after the turn, ties broken at
random; follow-up choices, rotate and chaos, are made the same way). Seat 1 (red) always
places first. Prints win rates per seat and the draw rate; the tile set in
``data/battle-tiles.json`` is tuned until the two seats win about as often.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import rules
from rules.battle_tiles import BattleTiles, TilesState, _score
from rules.core import clone

GAME: BattleTiles = rules.GAMES["battle-tiles"]  # type: ignore[assignment]


def greedy(state: TilesState, seat: int, rng: random.Random) -> str:
    """The move with the best point difference once it is applied (a turn that pauses for
    a follow-up choice counts as it stands)."""
    best, chosen = -999.0, ""
    for move, detail in GAME.moves(state, seat).items():
        after = clone(state)
        GAME.apply(after, seat, move, detail)
        value = _score(after, seat) - _score(after, 1 - seat) + rng.random() * 0.5
        if value > best:
            best, chosen = value, move
    return chosen


def one_game(seed: int, player: str) -> int:
    """Play one game; returns the winning seat, or -1 for a draw."""
    rng = random.Random(f"balance/{seed}")
    state = GAME.new(players=2, seed=seed)
    while (result := GAME.outcome(state)) is None:
        seat = min(GAME.to_act(state))
        if player == "greedy":
            move = greedy(state, seat, rng)
        else:
            move = rng.choice(GAME.legal_moves(state, seat))
        state, _ = GAME.play(state, seat, move)
    return min(result.winners) if len(result.winners) == 1 else -1


def _batch(args: tuple[range, str]) -> list[int]:
    seeds, player = args
    return [one_game(seed, player) for seed in seeds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--player", choices=["random", "greedy"], default="greedy")
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    start = time.perf_counter()
    step = max(1, args.games // (args.workers * 8))
    batches: list[tuple[Any, str]] = [(range(s, min(s + step, args.games)), args.player)
                                      for s in range(0, args.games, step)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = [w for batch in pool.map(_batch, batches) for w in batch]
    n = len(results)
    red, blue, draws = (results.count(0), results.count(1), results.count(-1))
    print(f"{args.player} self-play, {n} games in {time.perf_counter() - start:.0f} s: "
          f"seat 1 (red, first) {100 * red / n:.1f}%, seat 2 (blue) {100 * blue / n:.1f}%, "
          f"draws {100 * draws / n:.1f}%")


if __name__ == "__main__":
    main()
