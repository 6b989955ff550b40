"""The commands-a-turn benchmark of Bomb Squares (``benchmarks/bomb_squares_turns.py``)."""

from __future__ import annotations

from benchmarks.bomb_squares_turns import GAME, game_turns, kind, strong
from rules.bomb_squares import Steps


def test_a_command_is_named_by_its_first_word_or_its_steps() -> None:
    state = GAME.new(2, 0)
    moves = GAME.moves(state, min(GAME.to_act(state)))
    single = next(iter(moves))
    assert kind(moves, single) == single.split()[0]
    joined = {"meeple e5 roll": Steps(("meeple e5", "roll"))}
    assert kind(joined, "meeple e5 roll") == "meeple+roll"


def test_each_turn_counts_the_commands_of_the_seat_it_awaits() -> None:
    sent = 80
    strong_turns = game_turns(2, 0, 1.0, sent, strong)
    uniform_turns = game_turns(2, 0, 1.0, sent, uniform=True)
    for turns in (strong_turns, uniform_turns):
        assert 0 < sum(map(len, turns)) <= sent
    # the strong players name the meeple and the roll in one command where the list joins them
    assert any(k.startswith("meeple+") for t in strong_turns for k in t)
    assert strong_turns != uniform_turns
