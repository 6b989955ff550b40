"""Computer players (``rules.computer``) over every game in ``rules.GAMES``: legal and
deterministic choices, blind to what their seat cannot see, and ``strong`` better than
chance; with the fairness of ``determinize`` they rely on."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

import pytest

import rules
from rules import Game, computer

GAME_IDS = sorted(rules.GAMES)
SMALL = 24  # strong's playouts where only legality and determinism are checked

# games whose determinize depends on more than the seat sees (each is a bug to fix there)
UNFAIR: dict[str, str] = {}


def configs() -> list[tuple[str, int]]:
    return [(gid, n) for gid in GAME_IDS
            for n in range(rules.GAMES[gid].min_players, rules.GAMES[gid].max_players + 1)]


def unfair(gid: str) -> Any:
    """``gid`` as a parameter, expected to fail when its determinize is not fair."""
    if gid in UNFAIR:
        return pytest.param(gid, marks=pytest.mark.xfail(strict=True, reason=UNFAIR[gid]))
    return gid


def positions(game: Game, players: int, count: int, seed: int,  # type: ignore[type-arg]
              *, start: bool = True, every: bool = False) -> list[Any]:
    """``count`` running states reached by seeded random play (the first one the start of
    a game, unless ``start`` is false); a game that ends sooner gives none, or with
    ``every`` its last running state."""
    rng = random.Random(f"computer-positions/{game.id}/{players}/{seed}")
    out: list[Any] = []
    for g in range(count):
        state = game.new(players=players, seed=1000 * seed + g)
        steps = 0 if g == 0 and start else rng.randrange(1, 60)
        ended = False
        for _ in range(steps):
            seat = rng.choice(sorted(game.to_act(state)))
            after, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
            ended = game.outcome(after) is not None
            if ended:
                break
            state = after
        if every or not ended:
            out.append(state)
    return out


def dumped(game: Game, state: Any) -> str:  # type: ignore[type-arg]
    return json.dumps(game.dump(state), sort_keys=True)


@pytest.mark.parametrize(("game_id", "players"), configs())
def test_every_level_plays_a_legal_move_the_same_each_time(game_id: str, players: int) -> None:
    game = rules.GAMES[game_id]
    for n, state in enumerate(positions(game, players, 2, seed=1,
                                        start=players == game.min_players)):
        for seat in sorted(game.to_act(state)):
            legal = game.legal_moves(state, seat)
            before = dumped(game, state)
            for level in computer.LEVELS:
                move = computer.choose(game, state, seat, level=level, seed=n, budget=SMALL)
                assert move in legal, (level, move)
                if n == 0:
                    again = computer.choose(game, state, seat, level=level, seed=n,
                                            budget=SMALL)
                    assert again == move, f"{level} is not deterministic"
            assert dumped(game, state) == before, "choosing changed the state"


def test_strong_at_its_default_budget_plays_legal_moves() -> None:
    for game_id in GAME_IDS:
        game = rules.GAMES[game_id]
        state = positions(game, game.min_players, 2, seed=2)[-1]
        seat = min(game.to_act(state))
        move = computer.choose(game, state, seat, level="strong", seed=3)
        assert move in game.legal_moves(state, seat)


def test_an_unknown_level_or_a_seat_with_no_move_is_refused() -> None:
    game = rules.GAMES[GAME_IDS[0]]
    state = game.new(players=game.min_players, seed=1)
    seat = min(game.to_act(state))
    with pytest.raises(ValueError, match="unknown level"):
        computer.choose(game, state, seat, level="clever", seed=1)
    idle = next((s for s in range(state.players) if s not in game.to_act(state)), None)
    if idle is not None:
        with pytest.raises(ValueError, match="no move"):
            computer.choose(game, state, idle, level="random", seed=1)


def ticks(step: float = 1.0) -> Any:
    """A fake CPU clock that moves ``step`` seconds each time it is read, so a capped
    search stops after a fixed number of playouts (EXPERT_SECONDS / step)."""
    read = iter(range(10**9))
    return lambda: step * next(read)


def test_expert_is_deterministic_for_a_seed_with_an_explicit_budget() -> None:
    """(Every level's determinism in every game: the test above, expert included.)"""
    def never() -> float:
        raise AssertionError("an explicit budget is exact: no clock is read")

    game = rules.GAMES["crystallia"]
    state = positions(game, 2, 2, seed=5)[-1]
    seat = min(game.to_act(state))
    assert len(game.legal_moves(state, seat)) > 1
    first = computer.decide(game, state, seat, level="expert", seed=4, budget=SMALL,
                            clock=never)
    assert first == computer.decide(game, state, seat, level="expert", seed=4,
                                    budget=SMALL, clock=never)
    assert first.move in game.legal_moves(state, seat) and first.playouts == SMALL
    assert first.chance is not None and 0.0 <= first.chance <= 1.0
    assert computer.choose(game, state, seat, level="expert", seed=4,
                           budget=SMALL) == first.move


def test_expert_stops_when_its_cpu_time_is_spent() -> None:
    game = copy.copy(rules.GAMES["crystallia"])
    assert computer.default_budget(game, "expert") == \
        computer.EXPERT_FACTOR * computer.default_budget(game, "hard")
    game.thinking = replace(game.thinking, budget=3)  # expert: 30 playouts at most
    state, twin, seat = next((s, t, seat) for s, t, seat in twins(game, 2)
                             if seat in game.to_act(s) and len(game.legal_moves(s, seat)) > 1)
    # one second a playout by the fake clock: the cap of 10 s stops it after 10
    choice = computer.decide(game, state, seat, level="expert", seed=1, clock=ticks(1.0))
    assert choice.playouts == int(computer.EXPERT_SECONDS)
    assert computer.decide(game, state, seat, level="expert", seed=1,
                           clock=ticks(2.5)).playouts == 4
    # stopped by its clock, it still cannot tell apart states its seat cannot
    assert computer.decide(game, twin, seat, level="expert", seed=1, clock=ticks(1.0)) \
        == choice
    # the clock only stops it: with less CPU a playout, as many playouts as the budget
    assert computer.decide(game, state, seat, level="expert", seed=1,
                           clock=ticks(1e-6)).playouts == 30
    # hard reads no clock
    assert computer.decide(game, state, seat, level="hard", seed=1,
                           clock=ticks(100.0)).playouts == 3


def test_expert_rolls_on_as_far_as_its_game_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Thinking.expert_rollout``: expert's playouts roll that many moves on, hard's
    ``Thinking.rollout`` (one playout, its rollout counted by the policy's calls)."""
    game = rules.GAMES["block-buster"]
    assert game.thinking.expert_rollout is not None  # Block Buster's expert rolls further
    played: list[int] = []
    policy = type(game).policy

    def counted(self: Any, state: Any, seat: int, moves: Any, rng: Any) -> Any:
        played.append(seat)
        return policy(self, state, seat, moves, rng)

    monkeypatch.setattr(type(game), "policy", counted)
    monkeypatch.setattr(type(game), "thinking",
                        replace(game.thinking, rollout=3, expert_rollout=7))
    # a choice from a short list (the root's order rates every move), many moves to come
    state, rng = game.new(players=2, seed=1), random.Random(1)
    while not 1 < len(game.legal_moves(state, seat := min(game.to_act(state)))) < 150:
        state, _ = game.play(state, seat, game.policy(state, seat, game.moves(state, seat), rng))
    for level, depth in (("hard", 3), ("expert", 7)):
        played.clear()
        computer.decide(game, state, seat, level=level, seed=1, budget=1)
        assert len(played) == depth, level
    monkeypatch.setattr(type(game), "thinking", replace(game.thinking, expert_rollout=None))
    played.clear()
    computer.decide(game, state, seat, level="expert", seed=1, budget=1)
    assert len(played) == 3  # none of its own: hard's


def test_only_the_searching_levels_estimate_their_chance() -> None:
    game = rules.GAMES["battle-tiles"]
    state = positions(game, 2, 1, seed=6)[0]
    seat = min(game.to_act(state))
    for level in computer.LEVELS:
        choice = computer.decide(game, state, seat, level=level, seed=2, budget=SMALL)
        assert (choice.chance is None) == (level in ("easy", "normal")), level
        assert computer.level_of(level) in computer.LEVEL_WORDS


# --------------------------------------------------------------------------- hidden facts


def twins(game: Game, players: int) -> list[tuple[Any, Any, int]]:  # type: ignore[type-arg]
    """(state, twin, seat): the twin differs from the state only in what the seat cannot
    see (drawn with ``determinize`` itself, so ``view(., seat)`` is equal)."""
    out = []
    for n, state in enumerate(positions(game, players, 3, seed=3, start=False, every=True)):
        for seat in range(players):
            twin = game.determinize(state, seat, 7919 + n)
            assert game.view(twin, seat) == game.view(state, seat)
            out.append((state, twin, seat))
    return out


@pytest.mark.parametrize("game_id", [unfair(g) for g in GAME_IDS])
def test_determinize_depends_only_on_what_the_seat_sees(game_id: str) -> None:
    """The fairness property of the contract: equal views, same seed, equal results."""
    game = rules.GAMES[game_id]
    for players in range(game.min_players, game.max_players + 1):
        for state, twin, seat in twins(game, players):
            for seed in (1, 2):
                assert dumped(game, game.determinize(state, seat, seed)) == \
                    dumped(game, game.determinize(twin, seat, seed)), (players, seat, seed)


@pytest.mark.parametrize("game_id", [unfair(g) for g in GAME_IDS])
def test_no_level_tells_apart_states_its_seat_cannot(game_id: str) -> None:
    """In a game that hides nothing (Block Buster) a twin differs from its state only in
    an unused seed: it asks nothing of the levels that
    ``test_every_level_plays_a_legal_move_the_same_each_time`` does not."""
    game = rules.GAMES[game_id]
    asked = 0
    for players in range(game.min_players, game.max_players + 1):
        for n, (state, twin, seat) in enumerate(twins(game, players)):
            if seat not in game.to_act(state) or not game.hidden:
                continue
            asked += 1
            assert game.legal_moves(twin, seat) == game.legal_moves(state, seat)
            for level in computer.LEVELS:
                assert computer.choose(game, state, seat, level=level, seed=n, budget=SMALL) \
                    == computer.choose(game, twin, seat, level=level, seed=n, budget=SMALL), \
                    (players, seat, level)
    assert asked or not game.hidden, f"no position of {game_id} awaited a seat"


# --------------------------------------------------------------------------- strength


def test_strong_beats_random_at_battle_tiles() -> None:
    game = rules.GAMES["battle-tiles"]
    points = 0.0
    games = 6
    for g in range(games):
        levels = ("strong", "random") if g % 2 == 0 else ("random", "strong")
        state = game.new(players=2, seed=500 + g)
        moves = 0
        while (result := game.outcome(state)) is None:
            seat = min(game.to_act(state))
            move = computer.choose(game, state, seat, level=levels[seat], seed=moves,
                                   budget=60)
            state, _ = game.play(state, seat, move)
            moves += 1
        strong = levels.index("strong")
        if strong in result.winners:
            points += 1 / len(result.winners)
    assert points >= games - 1, f"strong won {points} of {games} against random"



def test_a_game_that_trusts_its_policy_keeps_the_policys_move_unless_clearly_beaten(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``Thinking.trust``: the policy's move at the root stands unless the search rates its
    own pick better by more than the margin (here a policy that always plays the last
    move in the list, whatever it is)."""
    game = rules.GAMES["battle-tiles"]
    monkeypatch.setattr(type(game), "policy",
                        lambda self, state, seat, moves, rng: sorted(moves)[-1])
    searched = replace(game.thinking, trust=0.0)
    departs = 0
    for state in positions(game, 2, 6, seed=11, start=False):
        seat = min(game.to_act(state))
        last = sorted(game.legal_moves(state, seat))[-1]
        monkeypatch.setattr(type(game), "thinking", searched)
        own = computer.decide(game, state, seat, level="hard", seed=3, budget=SMALL).move
        departs += own != last
        monkeypatch.setattr(type(game), "thinking", replace(searched, trust=1.0))
        assert computer.decide(game, state, seat, level="hard", seed=3,
                               budget=SMALL).move == last  # no pick beats it by 1.0
    assert departs, "the search alone never left the policy's move: nothing was tested"
