"""Tournament of the computer players against each other and against rule-based players
(``benchmarks/people``: simple strategies written the way people play, sharing nothing with
the search), with win rates, 95% intervals, ratings, CPU per move and moves by kind.

    .venv/bin/python -m benchmarks.computers [--game ID ...] [--entrants hard,normal,keeper]
        [--focus hard] [--mirror] [--games 40] [--players 2] [--budget N] [--workers 2]
        [--first-seed 0] [--each]

An entrant is a level (``rules.computer.LEVELS``) or a rule-based player of the game (by its
name in ``benchmarks/people/<game>.py``); by default every level but ``expert`` (10 s a move)
and every rule-based player of the game. Every pairing of two entrants (only those with
``--focus`` in them, if given; an entrant against itself too with ``--mirror``) plays
``--games`` games with fixed seeds. With 2 players the two swap seats every game; with more,
one entrant plays a seat alone against the other in all the others, its seat moving round
the table game by game, then the reverse. A game's points go to its winners, shared (a tie
counts half for each of two winners); a game still running after ``MOVE_CAP`` moves is a
draw. Printed per pairing: the win rate of the first entrant with its 95% Wilson interval;
per entrant: an openskill rating (Plackett-Luce, as ``/rank`` uses, over every game in seed
order), CPU per decision for computer levels (a decision is a ``choose`` call with more than
one legal move, timed with ``time.process_time`` on one core), and its moves by kind (the
first word of each move it chose).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

import rules
from benchmarks.people import people
from rules import computer

# Two players can go round in circles for ever where the rules set no limit; such a game
# stops here as a draw.
MOVE_CAP = 3000
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class Match:
    """One game to play: which entrant sits where; ``weights`` replaces ``evaluate``'s
    weights for the seats whose entrant is named in it (the tuner's candidates)."""

    game_id: str
    seats: tuple[str, ...]
    seed: int
    budget: int | None = None
    weights: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()


@dataclass
class Played:
    """One finished game: points per seat, the CPU seconds of each entrant's decisions, the
    kinds of move each chose, and the game's own scores and way of ending."""

    match: Match
    points: tuple[float, ...]
    cpu: dict[str, list[float]] = field(default_factory=dict)
    kinds: dict[str, Counter[str]] = field(default_factory=dict)
    moves: int = 0
    capped: bool = False
    scores: tuple[int, ...] = ()  # the game's own points per seat (``Outcome.scores``)
    ending: str = ""  # how it ended (``Outcome.ending``: 'points', 'turn limit', ...)


def level(name: str) -> str | None:
    """The computer level an entrant's name means, or None for a rule-based player. A
    tuner's candidate is named ``<level>~<tag>`` (the level with other weights)."""
    try:
        return computer.level_of(name.split("~")[0])
    except ValueError:
        return None


def play(match: Match) -> Played:
    """Play ``match`` to its end (or ``MOVE_CAP`` moves, a draw)."""
    game = rules.GAMES[match.game_id]
    seat_games: list[Any] = []
    own = dict(match.weights)
    for name in match.seats:
        if name in own:
            variant = type(game)()
            variant.weights = dict(own[name])
            seat_games.append(variant)
        else:
            seat_games.append(game)
    strategies = people().get(match.game_id, {})
    state = game.new(players=len(match.seats), seed=match.seed)
    rng = random.Random(f"people/{match.seed}")
    cpu: dict[str, list[float]] = defaultdict(list)
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    moves = 0
    while (result := game.outcome(state)) is None:
        if moves >= MOVE_CAP:
            share = 1.0 / len(match.seats)
            return Played(match, (share,) * len(match.seats), dict(cpu), dict(kinds), moves,
                          capped=True)
        seat = min(game.to_act(state))
        name = match.seats[seat]
        legal = game.legal_moves(state, seat)
        start = time.process_time()
        plays = level(name)
        if plays is None:
            move = strategies[name](game.view(state, seat), legal, rng)
        else:
            move = computer.choose(seat_games[seat], state, seat, level=plays,
                                   seed=match.seed * 7919 + moves, budget=match.budget)
        if len(legal) > 1 and plays is not None:  # a forced move is no decision
            cpu[name].append(time.process_time() - start)
        kinds[name][move.split()[0]] += 1
        state, _ = game.play(state, seat, move)
        moves += 1
    share = 1.0 / max(1, len(result.winners))
    points = tuple(share if s in result.winners else 0.0 for s in range(len(match.seats)))
    return Played(match, points, dict(cpu), dict(kinds), moves, scores=result.scores,
                  ending=result.ending)


def pairing_seats(a: str, b: str, players: int, g: int) -> tuple[str, ...]:
    """Where ``a`` and ``b`` sit in the ``g``-th game of their pairing."""
    if players == 2:
        return (a, b) if g % 2 == 0 else (b, a)
    lone, field_ = (a, b) if g % 2 == 0 else (b, a)
    where = (g // 2) % players
    return tuple(lone if s == where else field_ for s in range(players))


def pairings(entrants: list[str], focus: str | None, mirror: bool) -> list[tuple[str, str]]:
    """The pairings to play, each once: every two entrants (those with ``focus`` only)."""
    pairs = list(itertools.combinations(entrants, 2))
    if mirror:
        pairs += [(e, e) for e in entrants]
    return [(a, b) for a, b in pairs if focus is None or focus in (a, b)]


def matches(game_id: str, players: int, games: int, pairs: list[tuple[str, str]],
            budget: int | None = None, first: int = 0) -> list[Match]:
    """``games`` games of every pairing, seats rotated, seeds fixed per pairing (the n-th
    pairing's from ``first + 1000 * n``: another ``first`` deals other games)."""
    return [Match(game_id, pairing_seats(a, b, players, g), first + 1000 * n + g, budget)
            for n, (a, b) in enumerate(pairs) for g in range(games)]


def interval(points: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate of ``points`` in ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = points / games
    centre = (p + Z95 ** 2 / (2 * games)) / (1 + Z95 ** 2 / games)
    half = (Z95 / (1 + Z95 ** 2 / games)) * math.sqrt(
        p * (1 - p) / games + Z95 ** 2 / (4 * games ** 2))
    return max(0.0, centre - half), min(1.0, centre + half)


def score(results: list[Played], a: str, b: str) -> tuple[float, int]:
    """``a``'s points and games in the games of pairing (a, b); in a mirror pairing, the
    first seat's (seat balance)."""
    points, games = 0.0, 0
    for r in results:
        seats = r.match.seats
        if set(seats) != {a, b}:
            continue
        games += 1
        if a == b:
            points += r.points[0]
        elif len(seats) == 2 or seats.count(a) == 1:
            points += sum(p for s, p in enumerate(r.points) if seats[s] == a)
        else:  # ``a`` is the field: the lone seat's loss is the field's win
            points += 1 - sum(p for s, p in enumerate(r.points) if seats[s] == b)
    return points, games


def ratings(results: list[Played]) -> dict[str, float]:
    """Each entrant's openskill ordinal over every game, in seed order (a seat each)."""
    model = PlackettLuce()
    rated: dict[str, Any] = {}
    for r in sorted(results, key=lambda r: r.match.seed):
        names = r.match.seats
        if len(set(names)) == 1:
            continue  # a mirror game rates nobody
        teams = [[rated.setdefault(n, model.rating(name=n))] for n in names]
        ranks = [-p for p in r.points]
        new = model.rate(teams, ranks=ranks)
        for n, team in zip(names, new, strict=True):
            rated[n] = team[0]
    return {n: rating.ordinal() for n, rating in rated.items()}


def report(game_name: str, players: int, pairs: list[tuple[str, str]], results: list[Played],
           seconds: float) -> str:
    """The printed lines for one game and seat count."""
    lines = [f"{game_name}, {players} players, {len(results)} games in {seconds:.0f} s:"]
    fair = 1 / players
    for a, b in pairs:
        points, games = score(results, a, b)
        low, high = interval(points, games)
        against = ("against" if players == 2 else f"alone against {players - 1}x")
        what = f"{a} against itself (first seat)" if a == b else f"{a} {against} {b}"
        lines.append(f"  {what}: {100 * points / max(1, games):.1f}% "
                     f"[{100 * low:.0f}-{100 * high:.0f}%] (fair share {100 * fair:.0f}%, "
                     f"{games} games)")
    lines.append("  ratings (openskill ordinal): " + ", ".join(
        f"{n} {v:.1f}" for n, v in sorted(ratings(results).items(), key=lambda kv: -kv[1])))
    cpu: dict[str, list[float]] = defaultdict(list)
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        for name, times in r.cpu.items():
            cpu[name] += times
        for name, counted in r.kinds.items():
            kinds[name].update(counted)
    for name, times in sorted(cpu.items()):
        lines.append(f"  {name}: CPU per decision median {1000 * statistics.median(times):.1f}"
                     f" ms, max {1000 * max(times):.0f} ms ({len(times)} decisions)")
    for name, counted in sorted(kinds.items()):
        total = sum(counted.values())
        lines.append(f"  {name} moves by kind: " + ", ".join(
            f"{kind} {100 * n / total:.0f}%" for kind, n in counted.most_common()))
    lines.append(f"  {statistics.mean(r.moves for r in results):.0f} moves a game")
    capped = sum(r.capped for r in results)
    if capped:
        lines.append(f"  {capped} games stopped at {MOVE_CAP} moves (counted as draws)")
    return "\n".join(lines)


def told(played: Played) -> str:
    """One finished game in a line: its seed, who sat where, who won."""
    seats = played.match.seats
    won = [f"{seats[s]} (seat {s + 1})" for s, p in enumerate(played.points) if p > 0]
    if played.capped:
        verdict = f"a draw, stopped at {MOVE_CAP} moves"
    elif len(won) == len(seats):
        verdict = "a tie"
    else:
        verdict = f"{' and '.join(won)} win{'s' if len(won) == 1 else ''}"
    how = (f" ({played.ending}, {' to '.join(str(p) for p in played.scores)})"
           if played.scores else "")
    return (f"  seed {played.match.seed}: {' | '.join(seats)}: {verdict}, {played.moves} moves"
            f"{how}")


def run(todo: list[Match], workers: int, *, each: bool = False) -> list[Played]:
    """Play every match, in ``workers`` processes, reporting progress on stderr (and each
    game as it ends, with ``each``)."""
    start = time.perf_counter()
    results: list[Played] = []
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for played in pool.map(play, todo, chunksize=1):
            results.append(played)
            if each:
                print(told(played), file=sys.stderr, flush=True)
            if len(results) % 10 == 0:  # a long run shows it is getting on
                print(f"  ({len(results)} of {len(todo)} games played, "
                      f"{time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    return results


def default_entrants(game_id: str) -> list[str]:
    """Every level but ``expert``, and every rule-based player of the game."""
    levels = [lvl for lvl in computer.LEVELS if lvl != "expert"]
    return levels + sorted(people().get(game_id, {}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(rules.GAMES), action="append",
                        help="only this game (repeatable; default: every game)")
    parser.add_argument("--entrants", default=None,
                        help="levels and rule-based players, comma-separated (default: every "
                             "level but expert and every rule-based player of the game)")
    parser.add_argument("--focus", default=None,
                        help="only the pairings with this entrant in them")
    parser.add_argument("--mirror", action="store_true",
                        help="each entrant against itself too (seat balance)")
    parser.add_argument("--games", type=int, default=40, help="games per pairing")
    parser.add_argument("--players", type=int, nargs="*", default=[2],
                        help="seat counts (default: 2)")
    parser.add_argument("--budget", type=int, default=None,
                        help="hard's and expert's playouts (default: each game's thinking)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0,
                        help="the first pairing's first seed (another deals other games)")
    parser.add_argument("--each", action="store_true",
                        help="print each game as it ends: its seed, seats and winners")
    args = parser.parse_args()
    for game_id in args.game or sorted(rules.GAMES):
        game = rules.GAMES[game_id]
        known = [*default_entrants(game_id), "expert"]
        entrants = args.entrants.split(",") if args.entrants else default_entrants(game_id)
        unknown = [e for e in entrants if e not in known]
        if unknown:
            parser.error(f"{game.name} has no entrant {', '.join(unknown)}; "
                         f"it has {', '.join(known)}")
        pairs = pairings(entrants, args.focus, args.mirror)
        for players in args.players:
            if not game.min_players <= players <= game.max_players:
                continue
            start = time.perf_counter()
            results = run(matches(game_id, players, args.games, pairs, args.budget,
                                  args.first_seed),
                          args.workers, each=args.each)
            print(report(game.name, players, pairs, results, time.perf_counter() - start),
                  flush=True)


if __name__ == "__main__":
    main()
