"""How fast the bot answers other channels while a strong computer player thinks.

    .venv/bin/python benchmarks/thinking.py [--game crystallia] [--moves 12] [--probes 20]

One table seats a player against ``strong``; another channel holds a running table of two
humans. After each of the player's moves (which sets ``strong`` thinking in a worker
process) the other channel's awaited player makes a move every 25 ms (``legal_moves`` and
``play``, with its pictures drawn), until the strong move is in. Printed: how long each of
those answers took (median, p99, max; target under 100 ms) beside the strong player's own
thinking time per move.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import TableService
from bot.store import Store

ANN, BOB = 11, 12
TARGET_MS = 100.0


async def run(game: str, moves: int, probes_per_move: int) -> tuple[list[float], list[float]]:
    """Answer times of the other channel's /board, and the strong moves' wall times (ms)."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "thinking.db"))
        service = TableService(store, images=True)
        try:
            await service.open(1, 1, ANN, "Ann", game)
            await service.add_computer(1, ANN, "strong")
            await service.start(1, ANN, seed=5)
            await service.open(2, 1, ANN, "Ann", game)
            await service.join(2, BOB, "Bob")
            await service.start(2, ANN, seed=6)
            await service.board(2)  # the first picture of a kind loads fonts: not measured
            await other_move(service, random.Random(6), game)
            rng = random.Random(5)
            answers: list[float] = []
            thinking: list[float] = []
            for _ in range(moves):
                legal = await service.legal_moves(1, ANN)
                if not legal:
                    break
                start = time.perf_counter()
                playing = asyncio.ensure_future(service.play(1, ANN, rng.choice(legal)))
                asked = 0
                while not playing.done() and asked < probes_per_move:
                    await asyncio.sleep(0.025)
                    if playing.done():
                        break
                    begin = time.perf_counter()
                    await other_move(service, rng, game)
                    answers.append(1000 * (time.perf_counter() - begin))
                    asked += 1
                await playing
                thinking.append(1000 * (time.perf_counter() - start))
            return answers, thinking
        finally:
            service.close()
            await store.close()


async def other_move(service: TableService, rng: random.Random, game: str) -> None:
    """A move by whoever the other channel's table awaits (a new game once it is over)."""
    waiting = await service.waiting(2)
    if not waiting:
        await service.open(2, 1, ANN, "Ann", game)
        await service.join(2, BOB, "Bob")
        await service.start(2, ANN, seed=rng.randrange(1000))
        waiting = await service.waiting(2)
    user = waiting[0][0]
    reply = await service.play(2, user, rng.choice(await service.legal_moves(2, user)))
    await reply.with_pictures()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="crystallia")
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--probes", type=int, default=20, help="answers measured per move")
    args = parser.parse_args()
    answers, thinking = asyncio.run(run(args.game, args.moves, args.probes))
    if not answers:
        print("strong answered before any other command could be asked; nothing measured")
        return
    answers.sort()
    p99 = answers[min(len(answers) - 1, int(0.99 * len(answers)))]
    print(f"{args.game}: {len(answers)} answers in another channel while strong thought "
          f"({len(thinking)} moves, median {statistics.median(thinking):.0f} ms each, "
          "wall clock, with the reply's pictures)")
    print(f"  answer time: median {statistics.median(answers):.1f} ms, p99 {p99:.1f} ms, "
          f"max {answers[-1]:.1f} ms (target under {TARGET_MS:.0f} ms)")


if __name__ == "__main__":
    main()
