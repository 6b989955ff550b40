"""Tournament of the computer players: every level against every other, in every game and
seat count, with win rates and CPU time per move.

    .venv/bin/python benchmarks/computers.py [--games 100] [--game ID] [--players N ...]
                                             [--budget N] [--levels strong,greedy] [--workers 2]

With 2 players each pairing plays ``--games`` games, the levels swapping seats every game.
With more seats one level plays one seat against the other level in all the others, its
seat moving round the table game by game (each level in turn against the others). A game's
points go to its winners, shared (a tie counts half for each of two winners); a level's win
rate is its points per game, beside the fair share (1/seats). CPU time is measured per
``rules.computer.choose`` call with more than one legal move, on one core
(``time.process_time``); ``--budget`` sets ``strong``'s playouts (default: each game's,
``rules.computer.default_budget``; an explicit budget is exact for ``expert`` too, so it
then plays as ``hard``). ``--levels`` restricts the pairings (for tuning); ``expert``, which
thinks up to 10 s a move, plays only when named there.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import rules
from rules import computer


@dataclass(frozen=True)
class Match:
    """One game to play: which level sits where."""

    game_id: str
    seats: tuple[str, ...]  # level per seat
    seed: int
    budget: int | None


@dataclass
class Played:
    """One finished game: points per seat and the CPU seconds each level spent per move."""

    match: Match
    points: tuple[float, ...]
    cpu: dict[str, list[float]] = field(default_factory=dict)
    moves: int = 0
    capped: bool = False  # stopped at MOVE_CAP: a draw


# Two computer players can go round in circles for ever where the rules set no limit (in
# Cube Conquest, moving cubes about with no attack); such a game stops here as a draw.
MOVE_CAP = 2000


def play(match: Match) -> Played:
    """Play ``match`` to its end (or ``MOVE_CAP`` moves, a draw); every seat is a computer
    player of its level."""
    game = rules.GAMES[match.game_id]
    state = game.new(players=len(match.seats), seed=match.seed)
    cpu: dict[str, list[float]] = defaultdict(list)
    moves = 0
    while (result := game.outcome(state)) is None:
        if moves >= MOVE_CAP:
            share = 1.0 / len(match.seats)
            return Played(match, (share,) * len(match.seats), dict(cpu), moves, capped=True)
        seat = min(game.to_act(state))
        level = match.seats[seat]
        start = time.process_time()
        move = computer.choose(game, state, seat, level=level, seed=match.seed * 7919 + moves,
                               budget=match.budget)
        if len(game.legal_moves(state, seat)) > 1:  # a forced move is no decision
            cpu[level].append(time.process_time() - start)
        state, _ = game.play(state, seat, move)
        moves += 1
    share = 1.0 / max(1, len(result.winners))
    points = tuple(share if s in result.winners else 0.0 for s in range(len(match.seats)))
    return Played(match, points, dict(cpu), moves)


QUICK = tuple(lvl for lvl in computer.LEVELS if lvl != "expert")  # the default pairings


def matches(game_id: str, players: int, games: int, budget: int | None,
            levels: tuple[str, ...] = QUICK) -> list[Match]:
    """Every pairing of ``levels`` at this seat count, ``games`` games each, seats rotated."""
    out = []
    for n, (a, b) in enumerate(itertools.combinations(levels, 2)):
        for g in range(games):
            seats: tuple[str, ...]
            if players == 2:
                seats = (a, b) if g % 2 == 0 else (b, a)
            else:  # one seat of ``a`` (moving round) against ``b``, then the reverse
                lone, field_ = (a, b) if g % 2 == 0 else (b, a)
                where = (g // 2) % players
                seats = tuple(lone if s == where else field_ for s in range(players))
            out.append(Match(game_id, seats, 1000 * n + g, budget))
    return out


def report(game_name: str, players: int, results: list[Played], seconds: float) -> str:
    """The printed lines for one game and seat count."""
    lines = [f"{game_name}, {players} players, {len(results)} games in {seconds:.0f} s:"]
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in results:
        seats = r.match.seats
        levels = sorted(set(seats), key=computer.LEVELS.index, reverse=True)
        a, b = levels  # the higher level first
        if players == 2:
            pairs[(a, b)].append(sum(p for s, p in enumerate(r.points) if seats[s] == a))
        else:  # the lone seat's points, as the level's win rate against the field
            lone = next(lvl for lvl in levels if seats.count(lvl) == 1)
            field_ = b if lone == a else a
            pairs[(lone, field_)].append(
                sum(p for s, p in enumerate(r.points) if seats[s] == lone))
    fair = 1 / players
    for (a, b), points in sorted(pairs.items(), key=lambda kv: (
            -computer.LEVELS.index(kv[0][0]), -computer.LEVELS.index(kv[0][1]))):
        against = "against" if players == 2 else f"alone against {players - 1}x"
        lines.append(f"  {a} {against} {b}: {100 * statistics.mean(points):.1f}% "
                     f"(fair share {100 * fair:.0f}%, {len(points)} games)")
    cpu: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for level, times in r.cpu.items():
            cpu[level] += times
    for level in computer.LEVELS:
        if cpu[level]:
            times = cpu[level]
            lines.append(f"  {level}: CPU per move median {1000 * statistics.median(times):.1f}"
                         f" ms, max {1000 * max(times):.0f} ms ({len(times)} moves)")
    length = statistics.mean(r.moves for r in results)
    lines.append(f"  {length:.0f} moves a game")
    capped = sum(r.capped for r in results)
    if capped:
        lines.append(f"  {capped} games stopped at {MOVE_CAP} moves (counted as draws)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100,
                        help="games per pairing of levels and seat count")
    parser.add_argument("--game", choices=sorted(rules.GAMES), action="append",
                        help="only this game (repeatable; default: every game)")
    parser.add_argument("--players", type=int, nargs="*", default=None,
                        help="seat counts (default: every count the game takes)")
    parser.add_argument("--budget", type=int, default=None,
                        help="strong's playouts (default: each game's, Game.thinking.budget)")
    parser.add_argument("--levels", default=",".join(QUICK),
                        help="the levels taking part, comma-separated (default: all but "
                        "expert)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    budget = args.budget
    levels = tuple(lvl for lvl in computer.LEVELS if lvl in args.levels.split(","))
    print("strong's budget:", f"{budget} playouts" if budget else "each game's default")
    for game_id in args.game or sorted(rules.GAMES):
        game = rules.GAMES[game_id]
        counts = args.players or list(range(game.min_players, game.max_players + 1))
        for players in counts:
            if not game.min_players <= players <= game.max_players:
                continue
            start = time.perf_counter()
            todo = matches(game_id, players, args.games, budget, levels)
            results = []
            with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
                for played in pool.map(play, todo, chunksize=1):
                    results.append(played)
                    if len(results) % 10 == 0:  # a long run shows it is getting on
                        print(f"  ({len(results)} of {len(todo)} games played, "
                              f"{time.perf_counter() - start:.0f} s)", file=sys.stderr,
                              flush=True)
            print(report(game.name, players, results, time.perf_counter() - start), flush=True)


if __name__ == "__main__":
    main()
