"""Balance of any game: win rates by seat and by turn order, draws, and how games end.

    .venv/bin/python benchmarks/balance.py crystallia --players 2 [--games 400] [--player greedy]

Every seat is played by the same player: ``random`` (a uniformly random legal move) or
``greedy`` (the legal move after which ``game.evaluate`` rates the mover best, ties broken at
random; a turn that pauses for a follow-up choice counts as it stands). Greedy looks at the
true state after its move, hidden facts included: it measures the design, not fair play.
Prints, per seat count: the share of games each seat won (a shared win counts for each
winner), how often the first player won, draws (no single winner), how games ended
(``Outcome.ending``) and their mean length in moves.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import rules
from bot.service.table import parse_options
from rules.core import clone


@dataclass(frozen=True)
class Result:
    """One finished game, as the tally needs it."""

    winners: frozenset[int]
    first: int | None  # the seat that moved first, when one seat did
    ending: str
    moves: int


def greedy(game: Any, state: Any, seat: int, rng: random.Random) -> str:
    """The legal move after which ``game.evaluate`` rates ``seat`` best."""
    best, chosen = float("-inf"), ""
    for move, detail in game.moves(state, seat).items():
        after = clone(state)
        game.apply(after, seat, move, detail)
        value = game.evaluate(after, seat) + rng.random() * 0.5
        if value > best:
            best, chosen = value, move
    return chosen


def one_game(game_id: str, players: int, seed: int, player: str,
             options: dict[str, Any] | None = None) -> Result:
    """Play one game to its end with ``player`` in every seat."""
    game = rules.GAMES[game_id]
    rng = random.Random(f"balance/{seed}")
    state = game.new(players=players, seed=seed, options=options)
    opening = game.to_act(state)
    first = min(opening) if len(opening) == 1 else None
    moves = 0
    while (result := game.outcome(state)) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        if player == "greedy":
            move = greedy(game, state, seat, rng)
        else:
            move = rng.choice(game.legal_moves(state, seat))
        state, _ = game.play(state, seat, move)
        moves += 1
    return Result(result.winners, first, result.ending, moves)


def _batch(args: tuple[str, int, range, str, dict[str, Any] | None]) -> list[Result]:
    game_id, players, seeds, player, options = args
    return [one_game(game_id, players, seed, player, options) for seed in seeds]


def tally(results: list[Result], players: int) -> str:
    """The printed lines for one seat count."""
    n = len(results)
    seats = ", ".join(
        f"seat {s + 1} {100 * sum(s in r.winners for r in results) / n:.1f}%"
        for s in range(players))
    draws = sum(len(r.winners) != 1 for r in results)
    firsts = [r for r in results if r.first is not None]
    first_won = sum(r.winners == {r.first} for r in firsts) / max(1, len(firsts))
    first = (f"first player won {100 * first_won:.1f}%" if firsts
             else "no single first player")
    endings = ", ".join(f"{e} {100 * c / n:.1f}%"
                        for e, c in Counter(r.ending for r in results).most_common())
    length = sum(r.moves for r in results) / n
    return (f"  wins: {seats}; {first}; draws {100 * draws / n:.1f}%\n"
            f"  endings: {endings}; {length:.0f} moves a game")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(rules.GAMES))
    parser.add_argument("--players", type=int, nargs="*", default=None,
                        help="seat counts (default: every count the game takes)")
    parser.add_argument("--games", type=int, default=400, help="games per seat count")
    parser.add_argument("--player", choices=["random", "greedy"], default="greedy")
    parser.add_argument("--options", default="", help="game variants, as 'variant=couples'")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    game = rules.GAMES[args.game]
    options = parse_options(args.options) or None
    counts = args.players or list(range(game.min_players, game.max_players + 1))
    for players in counts:
        start = time.perf_counter()
        step = max(1, args.games // (args.workers * 8))
        batches = [(args.game, players, range(s, min(s + step, args.games)), args.player,
                    options) for s in range(0, args.games, step)]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = [r for batch in pool.map(_batch, batches) for r in batch]
        print(f"{game.name}, {players} players, {args.player} self-play, {len(results)} "
              f"games in {time.perf_counter() - start:.0f} s:")
        print(tally(results, players))


if __name__ == "__main__":
    main()
