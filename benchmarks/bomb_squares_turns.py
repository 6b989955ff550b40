"""How many commands a Bomb Squares player sends per turn, in random and in strong play.

    .venv/bin/python -m benchmarks.bomb_squares_turns [--games 20] [--players 2 3]
        [--play random uniform strong] [--join 0.0 0.7 1.0] [--steps 400]

Rules only, no Discord. Three ways of playing, every seat alike:

- ``random``: at each command the player picks one *single step* uniformly among its
  legal single steps (the game as it was before joined moves, whatever the list also
  offers). With probability ``--join`` the player also picks the step that follows
  (uniformly, in the position after the first; only when that next step is a real choice)
  and, when the game lists the two steps joined as one move, sends that one move instead of
  two. So the choices made have the same distribution at every ``--join``; only the number
  of commands differs.
- ``uniform``: at each command the player sends one move drawn uniformly from the whole
  list the game offers, joined moves included, as the ``easy`` computer and the SimCord
  conversation benchmark (``benchmarks/conversation.py``) play.
- ``strong``: each seat is one of the rule-based players of ``benchmarks/people``
  (``builder``, ``shopper``, ``seller`` by seat), choosing among the single steps from its
  own view; it always names the step that follows with the first when the game lists the
  two joined (a player who knows what they want says it at once: ``--join`` is 1).

A player's only legal move is made by the table (a forced step, as
``bot/service/turns.py`` does) and is not counted. A turn is counted as
``benchmarks/conversation.py`` counts it on SimCord: from a command after which some seat
is awaited that was not awaited just before (a turn change) to the next one; each newly
awaited seat's commands in it are one figure. Printed per way of playing, player count and
``--join``: the median, the 90th percentile and the mean of those figures over ``--games``
seeded games (``--steps``: commands per game at most, 0 for the whole game; the
conversation benchmark stops at 400 versions, early in the game, where every turn draws a
card).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

import rules
from benchmarks.people.bomb_squares import PEOPLE
from rules.bomb_squares import Steps

GAME = rules.GAMES["bomb-squares"]
STRONG = ("builder", "shopper", "seller")  # seat 1, 2, 3 (and 4 again a builder)

Chooser = Callable[[Any, int, list[str], random.Random], str]


def singles(moves: dict[str, Any]) -> list[str]:
    """The single steps of a legal move list (joined moves left out)."""
    return [m for m, d in moves.items() if not isinstance(d, Steps)]


def at_random(state: Any, seat: int, legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def strong(state: Any, seat: int, legal: list[str], rng: random.Random) -> str:
    """The seat's rule-based player, from its own view and the single steps."""
    person = PEOPLE[STRONG[seat % len(STRONG)]]
    return person(GAME.view(state, seat), legal, rng)


def forced(state: Any) -> Any:
    """The table makes every awaited seat's only legal move, lowest seat first."""
    while GAME.outcome(state) is None:
        only = [(s, m) for s in sorted(GAME.to_act(state))
                if len(m := GAME.legal_moves(state, s)) == 1]
        if not only:
            return state
        seat, (move,) = only[0]
        state, _ = GAME.play(state, seat, move)
    return state


def kind(moves: dict[str, Any], text: str) -> str:
    """What a command was, in a word: its first word, or its steps' ('meeple+roll')."""
    detail = moves.get(text)
    steps = detail.steps if isinstance(detail, Steps) else (text,)
    return "+".join(step.split()[0] for step in steps)


def command(state: Any, seat: int, rng: random.Random, join: float,
            choose: Chooser = at_random) -> tuple[Any, str]:
    """One command of ``seat``: a single step, joined with the steps that follow (each
    chosen the same way, with probability ``join``) as far as a listed move joins them."""
    moves = GAME.moves(state, seat)
    joined = {d.steps: m for m, d in moves.items() if isinstance(d, Steps)}
    prefixes = {steps[:n] for steps in joined for n in range(1, len(steps) + 1)}
    chosen = [choose(state, seat, singles(moves), rng)]
    after, _ = GAME.play(state, seat, chosen[0])
    text = chosen[0]
    while rng.random() < join and GAME.outcome(after) is None and \
            seat in GAME.to_act(after):
        following = singles(GAME.moves(after, seat))
        if len(following) < 2:
            break  # the next step is the table's to make: nothing to join
        chosen.append(choose(after, seat, following, rng))
        if tuple(chosen) not in prefixes:
            break  # not offered together: the next command chooses afresh
        after, _ = GAME.play(after, seat, chosen[-1])
        if tuple(chosen) in joined:
            text = joined[tuple(chosen)]
    # the move sent, played as sent
    return GAME.play(state, seat, text)[0], kind(moves, text)


def offered(state: Any, seat: int, rng: random.Random) -> tuple[Any, str]:
    """One command of ``seat``: any move of the list, joined or not, drawn uniformly."""
    moves = GAME.moves(state, seat)  # listed once: legal_moves is this list's keys
    text = rng.choice(list(moves))
    return GAME.play(state, seat, text)[0], kind(moves, text)


def game_turns(players: int, seed: int, join: float, steps: int,
               choose: Chooser = at_random, *, uniform: bool = False
               ) -> list[tuple[str, ...]]:
    """The commands (``kind``) of each newly awaited seat in each turn, over one seeded
    game: a turn's figure is how many there are."""
    rng = random.Random(f"turns/{players}/{seed}/{'uniform' if uniform else join}")
    state = forced(GAME.new(players, seed))
    before = set(GAME.to_act(state))
    holders: dict[int, list[str]] = {s: [] for s in before}
    turns: list[tuple[str, ...]] = []
    sent = 0
    while GAME.outcome(state) is None and (not steps or sent < steps):
        seat = rng.choice(sorted(before))
        state, said = (offered(state, seat, rng) if uniform
                       else command(state, seat, rng, join, choose))
        if seat in holders:
            holders[seat].append(said)
        state = forced(state)
        sent += 1
        after = set(GAME.to_act(state))
        if after - before:
            turns.extend(tuple(c) for c in holders.values())
            holders = {s: [] for s in after - before}
        before = after
    if GAME.outcome(state) is not None:
        turns.extend(tuple(c) for c in holders.values())
    return turns


def percentile(figures: list[int], share: float) -> int:
    """The smallest figure that at least ``share`` of the figures do not exceed."""
    ordered = sorted(figures)
    return ordered[max(0, math.ceil(len(ordered) * share) - 1)] if ordered else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--play", nargs="+", default=["random", "uniform", "strong"],
                        choices=["random", "uniform", "strong"])
    parser.add_argument("--join", type=float, nargs="+", default=[0.0, 0.7, 1.0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--shapes", type=int, default=0,
                        help="also print this many of the commonest turns, by command kind")
    args = parser.parse_args()
    print(f"{'play':>7} {'players':>7} {'join':>5} {'turns':>6} {'median':>6} {'p90':>4} "
          f"{'mean':>5}")
    for play in args.play:
        choose = at_random if play == "random" else strong
        for players in args.players:
            for join in args.join if play == "random" else [1.0]:
                turns = [t for seed in range(args.games)
                         for t in game_turns(players, seed, join, args.steps, choose,
                                             uniform=play == "uniform")]
                figures = [len(t) for t in turns]
                joined = "all" if play == "uniform" else f"{join:.1f}"
                print(f"{play:>7} {players:>7} {joined:>5} {len(figures):>6} "
                      f"{statistics.median(figures):>6} {percentile(figures, 0.9):>4} "
                      f"{statistics.mean(figures):>5.2f}")
                for shape, count in Counter(turns).most_common(args.shapes):
                    print(f"{count:>12} x {' | '.join(shape) or '(none)'}")


if __name__ == "__main__":
    main()
