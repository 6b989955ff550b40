"""How Bomb Squares games run: rounds, and how players earn their crystals.

    .venv/bin/python benchmarks/bomb_squares_earnings.py [--games 100] [--player random]

Plays games as ``benchmarks/balance.py`` does (every seat ``random`` or ``greedy``) and
prints per seat count: how games end, their length in moves and rounds (mean and the
longest), and the share of all crystals earned each way (filling cards, attacks, bets,
card sales, mint tin cards, challenges, token sets and token cards).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from balance import greedy

import rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per seat count")
    parser.add_argument("--player", choices=["random", "greedy"], default="random")
    args = parser.parse_args()
    game = rules.GAMES["bomb-squares"]
    for players in range(game.min_players, game.max_players + 1):
        start = time.perf_counter()
        endings: Counter[str] = Counter()
        earned: Counter[str] = Counter()
        moves, rounds = [], []
        for seed in range(args.games):
            rng = random.Random(f"earnings/{seed}")
            state = game.new(players, seed)
            count = 0
            while (result := game.outcome(state)) is None:
                seat = rng.choice(sorted(game.to_act(state)))
                move = greedy(game, state, seat, rng) if args.player == "greedy" else \
                    rng.choice(game.legal_moves(state, seat))
                state, _ = game.play(state, seat, move)
                count += 1
            endings[result.ending] += 1
            moves.append(count)
            rounds.append((state.turns - 1) // players + 1)
            for way, amounts in state.earned.items():
                earned[way] += sum(amounts)
        total = sum(earned.values()) or 1
        n = len(moves)
        print(f"Bomb Squares, {players} players, {args.player}, {n} games in "
              f"{time.perf_counter() - start:.0f} s:")
        print("  endings: " + ", ".join(f"{e} {100 * c / n:.0f}%"
                                        for e, c in endings.most_common()))
        print(f"  length: {sum(moves) / n:.0f} moves (longest {max(moves)}), "
              f"{sum(rounds) / n:.0f} rounds (longest {max(rounds)})")
        print("  earned: " + ", ".join(f"{w} {100 * c / total:.0f}%"
                                       for w, c in earned.most_common()))


if __name__ == "__main__":
    main()
