"""A league's pairing time (issue 40): a 256-player Swiss round, paired from the standings
after random results (a draw one game in five), round after round. Prints each round's
time, the median over every round of every league, and what the pairings kept (rematches,
pairs of unequal scores); the standings' time beside it. With ``--compare`` each round is
also matched over every pair at once (what fields up to ``leagues.WIDE`` always get), to
see what the windows cost in score differences and save in time.

    .venv/bin/python benchmarks/league.py [--players 256] [--rounds 5] [--leagues 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Sequence
from fractions import Fraction

from bot import leagues


def squares(pairs: Sequence[Sequence[int]], got: dict[int, Fraction]) -> int:
    """The sum of squared score differences over the pairs, in half points."""
    return sum(int(2 * (got[a] - got[b])) ** 2 for a, b in pairs)


def run(players: int, rounds: int, seed: int, compare: bool) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    lg = leagues.start(leagues.Settings("battle-tiles", "swiss", rounds, 7 * 86400.0),
                       list(range(players)))
    times, standing = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        table = leagues.standings(lg)
        standing.append(time.perf_counter() - start)
        start = time.perf_counter()
        round_ = leagues.pair(lg, seed)
        times.append(time.perf_counter() - start)
        got = {r.entry: r.points for r in table.rows}
        unequal = sum(1 for a, b in round_.tables if got[a] != got[b])
        line = (f"  round {round_.number}: {times[-1] * 1000:7.0f} ms, {len(round_.tables)} "
                f"tables, {round_.rematches} rematches, {unequal} pairs of unequal scores, "
                f"squared differences {squares(round_.tables, got)}")
        if compare:
            ranked = [r.entry for r in table.rows]
            had = {p for r in lg.rounds for p in r.byes}
            start = time.perf_counter()
            whole, _, rematches = leagues.swiss_pairs(
                ranked, had, leagues.meetings(lg.rounds), leagues.points(lg), windows=())
            line += (f"; every pair at once: {(time.perf_counter() - start) * 1000:.0f} ms, "
                     f"{rematches} rematches, squared differences "
                     f"{squares(whole, got)}")
        print(line)
        lg = dataclasses.replace(lg, rounds=(*lg.rounds, round_))
        for table_ in round_.tables:
            places = (0, 0) if rng.random() < 0.2 else rng.choice([(0, 1), (1, 0)])
            lg = leagues.record(lg, leagues.Result(round_.number, table_, places))
    return times, standing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--leagues", type=int, default=3)
    parser.add_argument("--compare", action="store_true")
    args = parser.parse_args()
    times: list[float] = []
    standing: list[float] = []
    for seed in range(args.leagues):
        print(f"league {seed + 1}: {args.players} players, Swiss, {args.rounds} rounds")
        paired, stood = run(args.players, args.rounds, seed, args.compare)
        times += paired
        standing += stood
    print(f"Pairing a {args.players}-player Swiss round: median "
          f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
          f"over {len(times)} rounds")
    print(f"Standings of {args.players} players: median "
          f"{statistics.median(standing) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
