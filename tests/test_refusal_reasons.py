"""Every refusal says why (issue 38, item 3): over random play of every game, well-formed
moves that are not legal now (moves legal elsewhere in the same game, other seats' moves,
moves of another step) are tried at random states, and every sentence that refuses one must
name the rule or the step the game is at, not only say what to type instead.

The sentences found are listed by their shape (squares, numbers and quoted moves made
alike), so a failure shows every refusal without a reason at once.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import rules
from rules.core import GameError, IllegalMove

GAMES = 2  # random games a game id; with the states sampled, about 2 s each
EVERY = 4  # every 4th state of a game is tried
TRIES = 12  # moves tried at each state, not legal there

# Shapes of a refusal that gives no reason:
REASONLESS = (
    re.compile(r"^You can(?:no|')t [^.:;]*? now\.(?: |$)"),  # 'You can't 'bomb e5' now.'
    # 'That move is not legal.', and nothing else
    re.compile(r"^[^,:;()]{0,40} (?:is|are) not (?:allowed|legal|possible)(?: now| here)?\.$"),
    re.compile(r"\b(\w+), not \1\b"),  # 'The tile on e5 is drop, not drop.'
)


def shape(sentence: str) -> str:
    """A sentence with what varies made alike: quoted moves, squares and numbers."""
    sentence = re.sub(r"(?<!\w)'[^']*'", "'…'", sentence)
    sentence = re.sub(r"\b[a-t]\d{1,2}\b", "SQ", sentence)
    return re.sub(r"\d+", "N", sentence)


def has_reason(game: rules.Game[Any], state: Any, seat: int, sentence: str) -> bool:
    """Whether a refusal names a rule or the step: not one of the reasonless shapes, and
    more than the hint of what to type now."""
    if any(pattern.search(sentence) for pattern in REASONLESS):
        return False
    return sentence.strip() != game.notation_hint(state, seat).strip()


def refusals(game_id: str, seed: int) -> dict[str, tuple[str, str, bool]]:
    """Every refusal met in ``GAMES`` random games of ``game_id``: its shape -> (the move
    tried, the sentence, whether it gives a reason)."""
    game = rules.GAMES[game_id]
    rng = random.Random(seed)
    found: dict[str, tuple[str, str, bool]] = {}
    for _ in range(GAMES):
        players = rng.randint(game.min_players, game.max_players)
        try:
            state = game.new(players, rng.randrange(10**6))
        except GameError:
            continue
        seen: list[Any] = []
        pool: set[str] = set()
        for _ in range(400):  # the game, played at random, and every move legal in it
            if game.outcome(state) is not None:
                break
            seen.append(state)
            for seat in game.to_act(state):
                moves = game.legal_moves(state, seat)
                pool.update(rng.sample(moves, min(40, len(moves))))
            seat = rng.choice(sorted(game.to_act(state)))
            state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
        every = sorted(pool)
        for state in seen[::EVERY]:
            for seat in sorted(game.to_act(state)):
                legal = set(game.legal_moves(state, seat))
                others = [m for s in game.to_act(state) if s != seat
                          for m in game.legal_moves(state, s)]
                tries = [m for m in rng.sample(every, min(TRIES, len(every))) + others[:3]
                         if m not in legal]
                for move in tries:
                    try:
                        game.play(state, seat, move)
                    except IllegalMove as refusal:
                        sentence = str(refusal)
                        found.setdefault(shape(sentence), (move, sentence, has_reason(
                            game, state, seat, sentence)))
                    except GameError:
                        continue  # not a move here at all: its own sentence, tested apart
    return found


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
def test_every_refusal_met_in_random_play_names_its_reason(game_id: str) -> None:
    found = refusals(game_id, seed=38)
    assert len(found) >= 5, f"too few refusals met in {game_id}: {found}"
    without = sorted(f"{move!r}: {sentence}" for move, sentence, ok in found.values() if not ok)
    assert not without, (f"{len(without)} of {len(found)} refusals in {game_id} give no "
                         "reason:\n" + "\n".join(without))


def test_the_reason_check_catches_the_old_fallbacks() -> None:
    """The check itself: the sentences issue 38 quotes fail it, the new ones pass."""
    game = rules.GAMES["bomb-squares"]
    state = game.new(2, 1)
    seat = min(game.to_act(state))
    hint = game.notation_hint(state, seat)
    assert not has_reason(game, state, seat, f"You can't 'bomb e5' now. {hint}")
    assert not has_reason(game, state, seat, "The tile on e5 is drop, not drop.")
    assert not has_reason(game, state, seat, hint)
    assert not has_reason(game, state, seat, "That move is not legal now.")
    with pytest.raises(IllegalMove) as refused:
        game.play(state, seat, "bomb e5")
    assert has_reason(game, state, seat, str(refused.value))
    assert "your turn is at its start" in str(refused.value)


@pytest.mark.parametrize(("game_id", "typed", "said"), [
    ("cube-conquest", "place f1", "There is no square 'f1' on the board: it runs a1 to e5."),
    ("crystallia", "place a9 a10", "There is no square 'a10' on the board: it runs a1 to f9."),
    ("battle-tiles", "place 1 at f1", "There is no square 'f1' on the board: it runs a1 to e5."),
    ("block-buster", "5l r0 u1", "There is no square 'u1' on the board: it runs a1 to t20."),
    ("bomb-squares", "bomb z9", "There is no place 'z9' on the table: places run a1 to i9."),
])
def test_a_square_off_the_board_is_named_as_such(game_id: str, typed: str, said: str) -> None:
    """A new player's slip of a square beyond the board says where the board runs, in
    every game, rather than that the word is unknown."""
    game = rules.GAMES[game_id]
    state = game.new(2, 1)
    with pytest.raises(GameError) as refused:
        game.play(state, min(game.to_act(state)), typed)
    assert str(refused.value).startswith(said)


@pytest.mark.parametrize("game_id", ["battle-tiles", "block-buster", "crystallia"])
def test_a_hints_examples_are_the_seats_own_moves(game_id: str) -> None:
    """The hint every refusal ends with gives as its example ('e.g. ...', '...with a power
    token: ...') a move the seat may make now, at every state of random play, not a fixed
    one that may be taken or not the seat's to make."""
    game = rules.GAMES[game_id]
    for seed in range(GAMES):
        state, rng, checked = game.new(2, seed), random.Random(seed), 0
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            legal = game.legal_moves(state, seat)
            hint = game.notation_hint(state, seat)
            assert game_id != "block-buster" or len(hint) < 340, hint  # a refusal under 400
            for example in re.findall(r"(?:e\.g\.|power token:|square:) '([^']+)'", hint):
                assert example in legal, (hint, legal[:5])
                checked += 1
            state, _ = game.play(state, seat, rng.choice(legal))
        assert checked > 10
