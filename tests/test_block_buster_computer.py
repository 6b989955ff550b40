"""Block Buster's computer knowledge: the playouts' default policy, the rating of a position,
the one-line remark on a skip or a pass, and the rule-based players of the tournament.

Positions are built as in ``tests/test_block_buster.py``: the point block of the cell e5-h8
stands on f6-g7, its 12 counting spaces are the rest of e5-h8.
"""

from __future__ import annotations

import copy
import random

from benchmarks.people.block_buster import PEOPLE
from rules.block_buster import SIZE_OF, BlockState
from tests.test_block_buster import BLUE, GAME, YELLOW, position


def blocked_yellow() -> BlockState:
    """Three players: Yellow's previous block on e1 has the area's edge west and south, and
    Blue on f1 and e2 (the seed's example 1): every placement skips, 'pass' is listed."""
    return position(3, squares={"e1": YELLOW, "f1": BLUE, "e2": BLUE},
                    previous=[["f1"], [], ["e1"]], turn=YELLOW)


def test_the_policy_never_skips_while_a_block_touches_and_plays_the_biggest() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []])
    moves = GAME.moves(state, BLUE)
    assert any(d[-1] for d in moves.values())  # skips are listed beside the free moves
    for seed in range(5):
        move = GAME.policy(state, BLUE, moves, random.Random(seed))
        assert move is not None and moves[move][-1] == 0
        assert SIZE_OF[move.split()[0]] == 5


def test_the_policy_skips_the_fewest_spaces_rather_than_pass_for_good() -> None:
    state = blocked_yellow()
    moves = GAME.moves(state, YELLOW)
    move = GAME.policy(state, YELLOW, moves, random.Random(1))
    assert move != "pass" and moves[move][-1] == 1


def test_the_policy_passes_when_skipping_costs_more_than_the_squares_left() -> None:
    state = blocked_yellow()
    state.blocks[YELLOW] = ["1i"]  # a -2 token to place 1 square
    moves = GAME.moves(state, YELLOW)
    assert "pass" in moves and "1i r0 e3" in moves
    assert GAME.policy(state, YELLOW, moves, random.Random(1)) == "pass"


def test_a_skip_taken_while_a_block_touches_rates_below_the_free_placement() -> None:
    """Paying -2 a space for nothing: the rating charges a skip taken while a block could
    touch the previous one beyond its tokens, and a skip forced by a blocked chain not."""
    placed = [{"colour": BLUE, "block": "1i", "squares": ["h8"]},
              {"colour": BLUE, "block": "1i", "squares": ["e5"]}]
    state = position(squares={"h8": BLUE, "e5": BLUE}, previous=[["e5"], []], placed=placed)
    moves = GAME.moves(state, BLUE)
    free, _ = GAME.play(state, BLUE, "1i r0 e6", legal=moves)
    skipped, _ = GAME.play(state, BLUE, "1i r0 e7", legal=moves)  # one space, -2
    lenient = copy.copy(GAME)
    lenient.weights = {**GAME.weights, "free_skip": 0.0}
    gap = GAME.evaluate(free, BLUE) - GAME.evaluate(skipped, BLUE)
    assert gap == lenient.evaluate(free, BLUE) - lenient.evaluate(skipped, BLUE) + \
        GAME.weights["free_skip"] > 2
    blocked = blocked_yellow()
    blocked.placed = [{"colour": YELLOW, "block": "1i", "squares": ["h8"]},
                      {"colour": YELLOW, "block": "1i", "squares": ["e1"]}]
    forced, _ = GAME.play(blocked, YELLOW, "1i r0 e3")
    assert GAME.evaluate(forced, YELLOW) == lenient.evaluate(forced, YELLOW)


def test_the_remark_says_why_a_blocked_colour_skips() -> None:
    state = blocked_yellow()
    public = GAME.view(state, None)
    assert GAME.remark(public, YELLOW, "1i r0 e3", None) == (
        "Yellow is blocked: no block can touch its previous one, so it skips 1 space for -2 "
        "rather than pass with 59 squares left (-59).")
    assert GAME.remark(public, YELLOW, "pass", None) == (
        "Yellow passes for good rather than skip: no block can touch its previous one, and "
        "skipping at least 1 space (-2) would not pay with 59 squares left (-59).")


def test_the_remark_names_what_a_skip_by_choice_goes_for() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []])
    public = GAME.view(state, None)
    assert GAME.remark(public, BLUE, "1i r0 e7", None) == (
        "Blue skips 1 space for -2 to take spaces around the diamond point block on f6 "
        "first.")
    assert GAME.remark(public, BLUE, "1i r0 e6", None) is None  # touching: nothing to say


def test_the_remark_on_a_pass_with_nothing_in_reach_says_so() -> None:
    state = blocked_yellow()
    state.tokens[YELLOW] = [-2] * 5  # at -10: no token more
    public = GAME.view(state, None)
    assert GAME.legal_moves(state, YELLOW) == ["pass"]
    # (the pass's own line says what it costs: the remark says why, not that again)
    assert GAME.remark(public, YELLOW, "pass", None) == (
        "Yellow is blocked: no block can touch its previous one and it may take no more -2 "
        "tokens to skip.")
    state.blocks[YELLOW] = []
    assert GAME.remark(GAME.view(state, None), YELLOW, "pass", None) is None


def test_the_rule_based_players_never_skip_while_a_block_touches() -> None:
    opening = GAME.new(2, seed=3)
    for turn in range(2):  # the first blocks, which go anywhere, by the policy (cheaper)
        (seat,) = GAME.to_act(opening)
        moves = GAME.moves(opening, seat)
        opening, _ = GAME.play(opening, seat, str(GAME.policy(opening, seat, moves,
                                                              random.Random(turn))))
    for name, play in PEOPLE.items():
        state = opening
        for turn in range(4):
            (seat,) = GAME.to_act(state)
            moves = GAME.moves(state, seat)
            move = play(GAME.view(state, seat), list(moves), random.Random(turn))
            assert move in moves, name
            if any(d[-1] == 0 for d in moves.values() if d[0] == "place"):
                assert move != "pass" and moves[move][-1] == 0, (name, move)
            state, _ = GAME.play(state, seat, move, legal=moves)
