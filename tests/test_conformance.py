"""The contract every game in ``rules.GAMES`` keeps, checked over seeded random games.

One test file for all games (as OpenSpiel does): random games to the end, and at every step
the round trips, purity, refusals and hidden-information checks of ARCHITECTURE.md.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import Event, Game, GameError, IllegalMove, InvalidMove, NotYourTurn
from rules.core import quote

GAME_IDS = sorted(rules.GAMES)
MAX_MOVES = 20_000  # a random game that runs longer than this is a bug (no progress)
# Every position is checked in full for the first EVERY_STEP moves, then every CHECK_EVERY-th
# (a 4-player Bomb Squares game runs 1,300 random moves; checking each took 20 s of CPU).
EVERY_STEP = 100
CHECK_EVERY = 5
JUNK = ["", "   ", "xyzzy", "move", "place z9", "42", "pick nothing", "attack", "🙂", "move a1"]


def seat_counts(game: Game) -> list[int]:  # type: ignore[type-arg]
    return list(range(game.min_players, game.max_players + 1))


def cases(games_per_count: int) -> list[tuple[str, int, int]]:
    return [(gid, n, seed) for gid in GAME_IDS for n in seat_counts(rules.GAMES[gid])
            for seed in range(games_per_count)]


def dumped(game: Game, state: Any) -> str:  # type: ignore[type-arg]
    return json.dumps(game.dump(state), sort_keys=True)


def check_step(game: Game, state: Any, rng: random.Random) -> None:  # type: ignore[type-arg]
    """Everything that must hold in one position, before a move is chosen."""
    before = dumped(game, state)
    # dump/load round-trips exactly, through real JSON text
    again = game.load(json.loads(before))
    assert dumped(game, again) == before
    assert again == state
    # views are JSON, and determinize changes nothing a seat can see
    for seat in [None, *range(state.players)]:
        view = game.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        twin = game.determinize(state, seat, rng.randrange(10**9))
        assert game.view(twin, seat) == view, f"determinize leaks for seat {seat}"
    awaited = game.to_act(state)
    assert awaited, "a running game awaits somebody"
    # a seat that is not awaited is refused, and nothing changes
    for seat in set(range(state.players)) - awaited:
        assert game.legal_moves(state, seat) == []
        with pytest.raises(NotYourTurn) as refused:
            game.play(state, seat, game.legal_moves(state, min(awaited))[0])
        assert str(refused.value).endswith(".")
    # junk is refused with a sentence
    seat = min(awaited)
    for text in rng.sample(JUNK, 3):
        with pytest.raises(GameError) as refused:
            game.play(state, seat, text)
        message = str(refused.value)
        assert message[:1].isupper() and message.rstrip("'").endswith("."), message
    assert dumped(game, state) == before, "a refused move changed the state"


@pytest.mark.parametrize(("game_id", "players", "seed"), cases(2))
def test_random_games_keep_the_contract(game_id: str, players: int, seed: int) -> None:
    game = rules.GAMES[game_id]
    state = game.new(players=players, seed=seed)
    rng = random.Random(f"conformance/{seed}")
    history: list[tuple[int, str]] = []
    for step in range(MAX_MOVES):
        if game.outcome(state) is not None:
            break
        checked = step < EVERY_STEP or step % CHECK_EVERY == 0
        if checked:
            check_step(game, state, rng)
        seat = rng.choice(sorted(game.to_act(state)))
        legal = game.legal_moves(state, seat)
        assert legal and len(legal) == len(set(legal))
        before = dumped(game, state) if checked else ""
        if step % 25 == 0:  # every listed move plays
            for text in legal:
                game.play(state, seat, text)
        move = rng.choice(legal)
        after, events = game.play(state, seat, move)
        assert not checked or dumped(game, state) == before, "play mutated its input"
        assert all(isinstance(e, Event) and e.text for e in events)
        assert all(e.to is None or e.to <= set(range(players)) for e in events)
        history.append((seat, move))
        state = after
    else:
        pytest.fail(f"no end after {MAX_MOVES} moves")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.reason
    assert len(outcome.scores) == players and outcome.winners <= set(range(players))
    assert game.to_act(state) == frozenset()
    with pytest.raises(rules.GameOver):
        game.play(state, 0, "pass")
    # the same seed and the same moves give the same game
    replay = game.new(players=players, seed=seed)
    for seat, move in history:
        replay, _ = game.play(replay, seat, move)
    assert dumped(game, replay) == dumped(game, state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seeds_give_different_games(game_id: str) -> None:
    game = rules.GAMES[game_id]
    deals = {dumped(game, game.new(players=game.min_players, seed=s)) for s in range(5)}
    assert len(deals) == 5


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_hide_the_random_generator(game_id: str) -> None:
    game = rules.GAMES[game_id]
    state = game.new(players=game.min_players, seed=7)
    for seat in [None, *range(game.min_players)]:
        text = json.dumps(game.view(state, seat))
        assert '"seed"' not in text and '"draws"' not in text


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("players", [2])
def test_seat_counts_outside_the_range_are_refused(game_id: str, players: int) -> None:
    game = rules.GAMES[game_id]
    for wrong in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(GameError, match="players"):
            game.new(players=wrong, seed=1)


@functools.cache
def positions(game_id: str) -> list[Any]:
    """A handful of positions from a seeded random game, for the text fuzzing below (played
    when a test first asks, so that collecting the tests plays nothing)."""
    game = rules.GAMES[game_id]
    state = game.new(players=game.min_players, seed=3)
    rng = random.Random(3)
    found = []
    for step in range(400):
        if game.outcome(state) is not None:
            break
        if step % 40 == 0:
            found.append(state)
        seat = rng.choice(sorted(game.to_act(state)))
        state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
    return found


WORDS = ["move", "place", "pick", "use", "attack", "from", "to", "with", "take", "prepare",
         "reinforce", "outpost", "pass", "a1", "b2", "c3", "e5", "f6", "crown", "drop", "1",
         "6", "arrow", "Bricks", "HAMMERS", "  ", ",", "zz"]


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.sampled_from(WORDS), max_size=6), pick=st.integers(0, 10**6))
def test_nothing_outside_the_listed_moves_plays(game_id: str, words: list[str], pick: int
                                                ) -> None:
    """Any text either is refused with a GameError or does exactly what a listed move does."""
    game = rules.GAMES[game_id]
    state = positions(game_id)[pick % len(positions(game_id))]
    seat = sorted(game.to_act(state))[0]
    text = " ".join(words)
    try:
        after, _ = game.play(state, seat, text)
    except GameError as refused:
        assert str(refused)
        if not text.strip():
            assert isinstance(refused, InvalidMove)
        return
    results = {dumped(game, game.play(state, seat, m)[0]) for m in game.legal_moves(state, seat)}
    assert dumped(game, after) in results, f"{text!r} played but matches no listed move"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_unknown_options_are_refused_with_a_sentence(game_id: str) -> None:
    game = rules.GAMES[game_id]
    with pytest.raises(IllegalMove) as refusal:
        game.new(players=game.min_players, seed=1, options={"no-such-option": 1})
    assert str(refusal.value).startswith(f"{game.name} has no option 'no-such-option'; it ")
    for name in game.options_help:  # every documented option has a description
        assert game.options_help[name]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_trailing_junk_is_blamed_not_the_move(game_id: str) -> None:
    """'place b1 zq9' is refused for 'zq9', never as if 'place' were the unknown word; and a
    long word typed is quoted short."""
    game = rules.GAMES[game_id]
    for state in positions(game_id):
        seat = min(game.to_act(state))
        for move in game.legal_moves(state, seat)[:40]:
            first = move.split()[0]
            for junk in ("zq9", "b1", "x" * 200, "b1?", "#", "…", "(x)", "7", "with"):
                try:
                    game.play(state, seat, f"{move} {junk}")
                except GameError as refused:
                    message = str(refused)
                    blame = message.replace(game.notation_hint(state, seat), "")
                    assert quote(first) not in blame or quote(junk) in blame, message
                    assert len(message) < 400 and "x" * 30 not in message, message
