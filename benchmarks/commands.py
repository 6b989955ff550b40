"""How many commands a player sends per turn of theirs, in every game, in random and in
strong play.

    .venv/bin/python benchmarks/commands.py [--games 30] [--game ID ...] [--players 2 3]
        [--kind random strong] [--cap 3000]

Rules only, no Discord, through the generic ``rules.Game`` interface alone (``new``,
``to_act``, ``legal_moves``, ``play``, ``view``, ``outcome``, and what ``bot.steps`` asks
of a game), so it measures any version of a game's flow. Every seat is a human. At each
command one awaited seat, drawn at random, sends one move:

- ``random``: uniform among its legal moves;
- ``strong``: the first rule-based player of ``benchmarks/people/<game>.py`` at every seat
  (it reads only the seat's view and legal moves); ``--person all`` plays each of them in
  turn, ``--person NAME`` that one in the game that has it (the first elsewhere).

After each command the table makes, as ``bot/service/turns.py`` does, every forced step
(``bot.steps.forced``: one seat alone awaited whose only legal move everyone can tell);
those are no commands. A turn is ``bot.steps``' (as ``benchmarks/conversation.py`` and
``benchmarks/bomb_squares_turns.py`` count it): from a command after which some seat is
*newly* awaited (``bot.steps.newly``: not awaited all through the command and its forced
steps) to the next such command, or to the end; the deal starts the first, with every seat
awaited after it. Each newly awaited seat's commands in a turn are one figure (a seat
newly awaited whose turn another's command ended counts 0).

Printed per game, player count (each of ``--players`` the game allows; Battle Tiles is
for 2) and kind: the seeded games played (``--games``, seeds 0, 1, ...; a game still
running after ``--cap`` commands is stopped and counted in ``capped``), the turns counted
(figures), the median, the 90th percentile (nearest rank) and the mean commands a turn,
the forced steps the table made, and the CPU seconds the row took.
The defaults take about a minute and a half of CPU.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Import this checkout's packages, whatever the working directory or the install says.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from benchmarks.people import people
from bot import steps

KINDS = ("random", "strong")
Chooser = Callable[[Any, int, random.Random], str]  # (state, seat, rng) -> the move sent


@dataclass
class Counted:
    """Commands per newly awaited seat per turn, over the games of one row."""

    figures: list[int] = field(default_factory=list)
    games: int = 0
    capped: int = 0
    commands: int = 0
    forced: int = 0


def choosers(game: rules.Game[Any], kind: str, person: str | None
             ) -> list[tuple[str, Chooser]]:
    """How a seat picks its move, with the player's name: at random, or as the game's
    rule-based player (``person``: one by name, ``all`` for each, else the first)."""
    if kind == "random":
        return [("random", lambda state, seat, rng: rng.choice(game.legal_moves(state, seat)))]
    strategies = people().get(game.id, {})
    names = (list(strategies) if person == "all" else [person] if person in strategies
             else list(strategies)[:1])

    def chooser(play: Any) -> Chooser:
        return lambda state, seat, rng: play(game.view(state, seat),
                                             game.legal_moves(state, seat), rng)

    return [(name, chooser(strategies[name])) for name in names]


def play_on(game: rules.Game[Any], state: Any, version: int, steady: set[int]
            ) -> tuple[Any, int, int]:
    """The forced steps the table makes after a command (``Turns.play_on`` for a table of
    humans): while one seat alone is awaited and ``steps.forced`` names its move. Returns
    the state, its version and how many were made; ``steady`` keeps the seats awaited
    after each."""
    made = 0
    while game.outcome(state) is None:
        awaited = game.to_act(state)
        if len(awaited) != 1:
            break
        (seat,) = awaited
        move = steps.forced(game, state, version, seat, game.legal_moves(state, seat))
        if move is None:
            break
        state, _ = game.play(state, seat, move)
        version, made = version + 1, made + 1
        steady &= game.to_act(state)
    return state, version, made


def one_game(game: rules.Game[Any], players: int, seed: int, choose: Chooser, tag: str,
             cap: int, counted: Counted) -> None:
    """Play one seeded game, adding its figures to ``counted``."""
    rng = random.Random(f"commands/{tag}/{game.id}/{players}/{seed}")
    humans = frozenset(range(players))
    state, version, made = play_on(game, game.new(players, seed), 1, set())
    counted.forced += made
    holders = dict.fromkeys(sorted(game.to_act(state)), 0)  # the deal is news to all
    sent = 0
    while game.outcome(state) is None:
        if sent >= cap:
            counted.capped += 1
            break
        awaited = game.to_act(state)
        seat = rng.choice(sorted(awaited))
        if seat in holders:
            holders[seat] += 1
        state, _ = game.play(state, seat, choose(state, seat, rng))
        steady = set(awaited & game.to_act(state))
        state, version, made = play_on(game, state, version + 1, steady)
        sent, counted.forced = sent + 1, counted.forced + made
        new = steps.newly(game.to_act(state), steady, humans)
        if new:
            counted.figures.extend(holders.values())
            holders = dict.fromkeys(new, 0)
    else:
        counted.figures.extend(holders.values())  # the last turn, ended by the game's end
    counted.games += 1
    counted.commands += sent


def percentile(figures: list[int], share: float) -> int:
    """The nearest-rank percentile: the smallest figure at or above ``share`` of them."""
    ordered = sorted(figures)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


HEADER = (f"{'game':<14} {'players':>7} {'kind':<7} {'player':<33} {'games':>5} "
          f"{'capped':>6} {'turns':>6} {'median':>6} {'p90':>4} {'mean':>5} {'forced':>6} "
          f"{'CPU s':>6}")


def row(game_id: str, players: int, kind: str, name: str, c: Counted, seconds: float
        ) -> str:
    per = c.figures or [0]
    return (f"{game_id:<14} {players:>7} {kind:<7} {name:<33} {c.games:>5} {c.capped:>6} "
            f"{len(c.figures):>6} {statistics.median(per):>6g} {percentile(per, 0.9):>4} "
            f"{statistics.mean(per):>5.2f} {c.forced:>6} {seconds:>6.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="seeded games per row")
    parser.add_argument("--game", nargs="+", choices=list(rules.GAMES), default=None)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--kind", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--person", default=None,
                        help="strong play's rule-based player: a name, or 'all' for each "
                        "(default: each game's first)")
    parser.add_argument("--cap", type=int, default=3000, help="commands per game at most")
    args = parser.parse_args(argv)
    print(HEADER, flush=True)
    for game_id in args.game or list(rules.GAMES):
        game = rules.GAMES[game_id]
        for players in args.players:
            if not game.min_players <= players <= game.max_players:
                continue
            for kind in args.kind:
                for name, choose in choosers(game, kind, args.person):
                    counted = Counted()
                    began = time.process_time()
                    for seed in range(args.games):
                        one_game(game, players, seed, choose, name, args.cap, counted)
                    print(row(game_id, players, kind, name, counted,
                              time.process_time() - began), flush=True)


if __name__ == "__main__":
    main()
