"""Computer players for every game, through the rules contract alone.

A computer player sees what its seat sees and nothing more. ``choose`` reads the true state
only through ``game.view(state, seat)``, ``game.legal_moves(state, seat)`` and
``game.determinize(state, seat, seed)``; everything else it does happens on determinized
states (worlds the seat cannot tell from the real one), which it may play forward and
evaluate freely. Since ``determinize`` depends only on what the seat sees, two states the
seat cannot tell apart give the same choice for the same seed.

Levels, named for players by strength (``LEVELS``), each one of three ways of playing
(``PLAYS``; those older names are still accepted everywhere a level is):

- ``easy`` plays ``random``: a uniformly random legal move.
- ``normal`` plays ``greedy``: one step of look-ahead. Each legal move is applied in a few
  sampled worlds (the others' simultaneous secret picks sampled too) and rated with
  ``game.evaluate``; the best average wins.
- ``hard`` (``DEFAULT``, the strongest that answers within a second) plays ``strong``:
  information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
  2012; OpenSpiel's ``ismcts.py``). Every playout draws a fresh world, walks one tree over
  what the seat has seen (a node is the JSON of the seat's view, the seat to move and the
  depth from the root, so hidden facts never split a node and no path can loop), chooses
  by UCT among the moves available in that world (counting how often each was available),
  adds one move, plays ``Game.thinking.rollout`` moves with a cheap policy (the game's
  own, ``Game.policy``, else the best of a few random moves by ``evaluate``) and rates
  where it got to: a finished game by its winners, else ``evaluate`` squashed into [0, 1].
  The root's moves are tried in the greedy order and every node widens with its visits;
  where a game trusts its policy (``Thinking.trust``), the policy's move at the root (a
  vote over sampled worlds) is tried first and kept unless the search rates another better
  by more than that margin;
  other seats picking at the same time as the mover make a sampled pick, chosen before
  the mover's move is applied.
- ``expert`` (``PATIENT``, for tables whose turns may take hours, and for stand-ins) plays
  the same search with ``EXPERT_FACTOR`` times the game's playouts (rolling on as far as
  ``Thinking.expert_rollout`` where a game measured that a longer rollout pays), stopped after
  ``EXPERT_SECONDS`` of CPU time (``time.process_time``) so it never runs away. An
  explicit ``budget`` is exact instead (no clock is read): deterministic for a seed, as
  tests and benchmarks need. The bot runs it in a worker process (bot/service/computers.py).

``decide`` says what the search thought of its move (``Choice.chance``: the estimated reward
of the chosen move at the root, for the levels that search); ``choose`` is its move alone.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.core import Game, State, clone

LEVELS = ("easy", "normal", "hard", "expert")  # as players choose them, weakest first
# how each level plays (expert: the same search as hard, longer)
PLAYS = {"easy": "random", "normal": "greedy", "hard": "strong", "expert": "strong"}
DEFAULT = "hard"  # the strongest level that answers within a second (benchmarks/computers.py)
PATIENT = "expert"  # the level for tables whose turns may take hours, and for stand-ins
LEVEL_WORDS = {"easy": "plays at random, at once",
               "normal": "looks one move ahead, at once",
               "hard": "plays out many games first, about a second a move",
               "expert": "plays out ten times as many, up to 10 s a move"
               }  # what each does and how long it thinks, for players
EXPERT_FACTOR = 10  # expert's playouts: this many times the game's (``Game.thinking``)
EXPERT_SECONDS = 10.0  # expert's CPU time a move at most (``time.process_time``)


@dataclass(frozen=True)
class Choice:
    """A computer player's move and what it thought of it: ``chance``, the search's
    estimated reward of the move at the root (0 to 1: a win is 1, an unfinished game is
    rated by ``evaluate``'s change, 0.5 meaning no change), for the levels that search
    (hard, expert); None for the others, or when there was nothing to choose.
    ``playouts``: how many the search played (0 without one)."""

    move: str
    chance: float | None = None
    playouts: int = 0


def level_of(name: str) -> str:
    """The level a player means: 'hard', or an older name for it ('strong'); ValueError
    for anything else."""
    wanted = name.strip().lower()
    for level, plays in PLAYS.items():
        if wanted in (level, plays):
            return level
    raise ValueError(f"unknown level {name!r}; the levels are {', '.join(LEVELS)}")


def level_name(stored: str | None) -> str:
    """A level as players read it, from a stored one that may be older ('greedy' ->
    'normal'); 'computer' when none is stored."""
    try:
        return level_of(stored or "")
    except ValueError:
        return stored or "computer"


Rules = Game[Any]

# greedy: worlds per move, and a cap on move applications per decision (a game with
# thousands of moves samples fewer worlds, at least one)
GREEDY_WORLDS = 4
GREEDY_APPLICATIONS = 3000

# strong: playouts per decision, how widely a node widens and how far a playout rolls on
# are each game's own (``Game.thinking``, measured with benchmarks/computers.py)
UCT_C = 0.7  # exploration, rewards being in [0, 1]
EXPAND_SAMPLE = 16  # candidate moves a new node's first move is picked from (by evaluate)
ROLLOUT_SAMPLE = 2  # candidates the default policy rates per move (best of them is played)
PRIOR_APPLICATIONS = 2000  # the root's moves are ordered by a greedy pass of this cost
SCALE = 5.0  # evaluate difference that counts as clearly ahead (tanh(1) of the way to 1)
TRUST_WORLDS = 5  # sampled worlds whose policy moves vote for the root's usual move


def choose(game: Rules, state: State, seat: int, *, level: str, seed: int,
           budget: int | None = None) -> str:
    """A legal move of ``seat`` chosen by the computer player ``level`` (one of ``LEVELS``,
    or the way it plays: ``random``, ``greedy``, ``strong``): ``decide``'s move."""
    return decide(game, state, seat, level=level, seed=seed, budget=budget).move


def decide(game: Rules, state: State, seat: int, *, level: str, seed: int,
           budget: int | None = None,
           clock: Callable[[], float] = time.process_time) -> Choice:
    """The computer player ``level``'s move for ``seat``, and what it thought of it.

    ``seed`` drives every random choice: the same view, legal moves and seed give the same
    move. ``budget`` is the search's number of playouts (hard and expert; default:
    ``default_budget``), exact when given. Without one, expert stops after
    ``EXPERT_SECONDS`` of ``clock`` (CPU time; a test gives a clock of its own).
    Raises ``ValueError`` for an unknown level or a seat that has no move.
    """
    named = level_of(level)
    plays = PLAYS[named]
    legal = game.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make")
    rng = random.Random(f"computer/{plays}/{seed}")
    if plays == "random" or len(legal) == 1:
        return Choice(rng.choice(legal))

    def sample() -> State:
        world: State = game.determinize(state, seat, rng.randrange(2**31))
        return world

    if plays == "greedy":
        return Choice(greedy(game, sample, seat, legal, rng))
    capped = named == "expert" and budget is None
    return strong(game, sample, seat, legal, rng,
                  default_budget(game, named) if budget is None else budget,
                  clock=clock if capped else None,
                  rollout=game.thinking.expert_rollout if named == "expert" else None)


def default_budget(game: Rules, level: str = DEFAULT) -> int:
    """The search's playouts per move in ``game`` at ``level`` (hard or expert) unless told
    otherwise: the game's own (``Game.thinking``), ``EXPERT_FACTOR`` times that for
    expert."""
    factor = EXPERT_FACTOR if level_of(level) == "expert" else 1
    return factor * game.thinking.budget


# --------------------------------------------------------------------------- greedy


def one_step_values(game: Rules, sample: Callable[[], State], seat: int, legal: list[str],
                    rng: random.Random, *, worlds: int, cap: int) -> dict[str, float]:
    """Each legal move's ``evaluate`` for ``seat`` right after it, averaged over sampled
    worlds (fewer when the moves are many: about ``cap`` applications in all). Seats
    awaited at the same time as ``seat`` (secret picks) make a sampled pick of their own,
    the same one for every move of a world, chosen without seeing ``seat``'s move."""
    count = max(1, min(worlds, cap // len(legal)))
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(count):
        world = sample()
        others = [o for o in sorted(game.to_act(world)) if o != seat]
        picks = {o: rng.choice(list(game.moves(world, o))) for o in others}
        available = game.moves(world, seat)
        for move in legal:
            after = clone(world)
            game.apply(after, seat, move, available[move])
            _play_picks(game, after, picks, rng)
            totals[move] += game.evaluate(after, seat)
    return {move: total / count for move, total in totals.items()}


def greedy(game: Rules, sample: Callable[[], State], seat: int, legal: list[str],
           rng: random.Random) -> str:
    """The move with the best averaged one-step evaluation; ties drawn by ``rng``."""
    values = one_step_values(game, sample, seat, legal, rng, worlds=GREEDY_WORLDS,
                             cap=GREEDY_APPLICATIONS)
    best = max(values.values())
    return rng.choice([m for m in legal if values[m] >= best - 1e-9])


def _play_picks(game: Rules, world: State, picks: dict[int, str], rng: random.Random) -> None:
    """Play the others' sampled secret picks in ``world`` while they are still awaited
    (a pick that is no longer legal there is replaced by a random legal one)."""
    for other, pick in picks.items():
        if other not in game.to_act(world) or game.outcome(world) is not None:
            continue
        moves = game.moves(world, other)
        if not moves:
            continue
        if pick not in moves:
            pick = rng.choice(list(moves))
        game.apply(world, other, pick, moves[pick])


# --------------------------------------------------------------------------- strong


class _Node:
    """One information set of the searching seat: per move, visits, reward sum and how
    often the move was available when this node was reached."""

    __slots__ = ("order", "stats", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.stats: dict[str, list[float]] = {}  # move -> [visits, reward sum, available]
        self.order: list[str] | None = None  # the root's moves, best first by the prior


def strong(game: Rules, sample: Callable[[], State], seat: int, legal: list[str],
           rng: random.Random, budget: int, *, clock: Callable[[], float] | None = None,
           seconds: float = EXPERT_SECONDS, rollout: int | None = None) -> Choice:
    """Information-set MCTS with ``budget`` playouts (fewer if ``clock`` is given and
    ``seconds`` of it pass first, counted from before the greedy prior; at least one),
    each rolling ``rollout`` moves on (default: the game's ``Thinking.rollout``); the most
    visited root move, with its mean reward."""
    depth = game.thinking.rollout if rollout is None else rollout
    start = 0.0 if clock is None else clock()
    prior = one_step_values(game, sample, seat, legal, rng, worlds=2,
                            cap=PRIOR_APPLICATIONS)
    tree: dict[str, _Node] = {}
    root = _Node()
    root.order = sorted(legal, key=lambda m: -prior[m])
    usual = _usual(game, sample, seat, legal, rng) if game.thinking.trust > 0 else None
    if usual is not None:  # tried first, so the search always weighs it
        root.order.remove(usual)
        root.order.insert(0, usual)
    base: dict[int, float] = {}
    played = 0
    while played < max(1, budget):
        world = sample()
        if not base:
            base = {s: game.evaluate(world, s) for s in range(world.players)}
        _playout(game, world, seat, root, tree, rng, base, depth)
        played += 1
        if clock is not None and clock() - start >= seconds:
            break
    if not root.stats:
        return Choice(root.order[0], None, played)
    move = max(legal, key=lambda m: (root.stats[m][0], root.stats[m][1], prior[m])
               if m in root.stats else (-1.0, 0.0, prior[m]))
    visits, total, _ = root.stats[move]
    if usual is not None and usual != move and root.stats.get(usual, [0.0])[0]:
        seen, sum_ = root.stats[usual][:2]
        if total / visits - sum_ / seen < game.thinking.trust:
            move, visits, total = usual, seen, sum_
    return Choice(move, total / visits if visits else None, played)


def _usual(game: Rules, sample: Callable[[], State], seat: int, legal: list[str],
           rng: random.Random) -> str | None:
    """The move the game's own policy plays here, by a vote over a few sampled worlds
    (so it reads nothing the seat does not know); None when it names no legal move."""
    votes = Counter(_policy(game, sample(), seat, rng) for _ in range(TRUST_WORLDS))
    move = max(votes, key=lambda m: (votes[m], -legal.index(m) if m in legal else 0))
    return move if move in legal else None


def _playout(game: Rules, world: State, seat: int, root: _Node, tree: dict[str, _Node],
             rng: random.Random, base: dict[int, float], rollout: int) -> None:
    """One playout: down the tree, one new node's move, a short rollout, back up."""
    path: list[tuple[_Node, str, int]] = []
    node: _Node | None = root
    depth = 0
    while game.outcome(world) is None:
        awaited = sorted(game.to_act(world))
        actor = seat if seat in awaited else awaited[0]
        moves = game.moves(world, actor)
        if node is None:
            key = f"{depth}/{actor}/{json.dumps(game.view(world, seat))}"
            node = tree.get(key)
            if node is None:
                node = tree[key] = _Node()
        # simultaneous secret picks: the others choose before seeing the actor's move
        picks = {o: _policy(game, world, o, rng) for o in awaited if o != actor}
        move, new = _select(game, world, actor, node, moves, rng)
        path.append((node, move, actor))
        game.apply(world, actor, move, moves[move])
        _play_picks(game, world, picks, rng)
        depth += 1
        node = None
        if new:
            break
    for _ in range(rollout):
        if game.outcome(world) is not None:
            break
        actor = rng.choice(sorted(game.to_act(world)))
        moves = game.moves(world, actor)
        move = _policy(game, world, actor, rng, moves)
        game.apply(world, actor, move, moves[move])
    rewards = _rewards(game, world, base)
    for visited, move, actor in path:
        visited.visits += 1
        entry = visited.stats[move]
        entry[0] += 1
        entry[1] += rewards[actor]


def _select(game: Rules, world: State, actor: int, node: _Node, moves: dict[str, Any],
            rng: random.Random) -> tuple[str, bool]:
    """The move to follow at ``node`` and whether it is tried here for the first time:
    a new move while the node may widen, else UCT among the tried moves available now."""
    tried = [m for m in moves if m in node.stats]
    for m in tried:
        node.stats[m][2] += 1
    widening = game.thinking.widening
    if len(node.stats) < 1 + widening * math.sqrt(node.visits) or not tried:
        fresh = _fresh(game, world, actor, node, moves, rng)
        if fresh is not None:
            node.stats[fresh] = [0.0, 0.0, 1.0]
            return fresh, True
    best, chosen = -math.inf, tried[0]
    for m in tried:
        visits, total, available = node.stats[m]
        value = total / visits + UCT_C * math.sqrt(math.log(available) / visits)
        if value > best:
            best, chosen = value, m
    return chosen, False


def _fresh(game: Rules, world: State, actor: int, node: _Node, moves: dict[str, Any],
           rng: random.Random) -> str | None:
    """An untried move: at the root the next by the prior, elsewhere the best-rated of a
    few sampled untried moves. None when every available move was tried."""
    if node.order is not None:
        return next((m for m in node.order if m not in node.stats and m in moves), None)
    untried = [m for m in moves if m not in node.stats]
    if not untried:
        return None
    if len(untried) > EXPAND_SAMPLE:
        untried = rng.sample(untried, EXPAND_SAMPLE)
    return _best_of(game, world, actor, untried, moves, rng)


def _policy(game: Rules, world: State, actor: int, rng: random.Random,
            moves: dict[str, Any] | None = None) -> str:
    """The default policy: the game's own (``Game.policy``), else the best-rated of a few
    random legal moves."""
    if moves is None:
        moves = game.moves(world, actor)
    own = game.policy(world, actor, moves, rng)
    if own is not None:
        return own
    names = list(moves)
    if len(names) > ROLLOUT_SAMPLE:
        names = rng.sample(names, ROLLOUT_SAMPLE)
    return _best_of(game, world, actor, names, moves, rng)


def _best_of(game: Rules, world: State, actor: int, names: list[str], moves: dict[str, Any],
             rng: random.Random) -> str:
    """Of ``names``, the move after which ``evaluate`` rates ``actor`` best (ties random)."""
    if len(names) == 1:
        return names[0]
    best, chosen = -math.inf, names[0]
    for m in names:
        after = clone(world)
        game.apply(after, actor, m, moves[m])
        value = game.evaluate(after, actor) + rng.random() * 1e-6
        if value > best:
            best, chosen = value, m
    return chosen


def _rewards(game: Rules, world: State, base: dict[int, float]) -> list[float]:
    """Each seat's reward in [0, 1]: its share of the win once the game is over, else how
    far ``evaluate`` moved from where it stood at the root, squashed."""
    result = game.outcome(world)
    if result is not None:
        share = 1.0 / max(1, len(result.winners))
        return [share if s in result.winners else 0.0 for s in range(world.players)]
    return [0.5 + 0.5 * math.tanh((game.evaluate(world, s) - base[s]) / SCALE)
            for s in range(world.players)]
