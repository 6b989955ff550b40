"""Crystallia's knowledge for the computer players (the playout policy, the evaluation and
the remark on a notable choice) and the rule-based players of benchmarks/people."""

from __future__ import annotations

import random

import pytest

from benchmarks.people import crystallia as people
from rules import computer, crystallia
from rules.crystallia import INDEX, CrystalliaState, placement_worth, score
from tests.test_crystallia import GAME, position, turn


def _settle(state: CrystalliaState, level: str) -> CrystalliaState:
    """The rest of the mover's turn (abilities, a lone stone's colour) played by ``level``."""
    seat = state.turn
    while state.turn == seat and state.phase in ("place", "ability", "gain"):
        move = computer.choose(GAME, state, seat, level=level, seed=1, budget=12)
        state, _ = GAME.play(state, seat, move)
    return state


def test_placement_worth_counts_squares_lines_and_the_thirteenth() -> None:
    state = position(board="d4=red", stones=[("b4 c4", "red red")], holding="red blue",
                     crystals=[{"red": 5}])
    # red on d4: the red square (1) and the row b4-d4 of 3 red (2)
    assert placement_worth(state, 0, [INDEX["d4"], INDEX["d5"]]) == 3.0
    after = turn(state, "place d4 d5")
    assert score(after, 0) - score(state, 0) == 3
    # with 11 red the same crystals would be the 13th and 14th: a lost game
    near = position(board="d4=red", stones=[("b4 c4", "red red")], holding="red blue",
                    crystals=[{"red": 11}])
    assert placement_worth(near, 0, [INDEX["d4"], INDEX["d5"]]) <= -30


def test_the_playout_policy_lays_the_stone_where_it_pays_and_shuns_the_thirteenth(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(crystallia, "PLACEMENTS_TRIED", 1000)  # weigh every place
    state = position(board="d4=red", stones=[("b4 c4", "red red")], holding="red blue")
    moves = GAME.moves(state, 0)
    for k in range(5):
        move = GAME.policy(state, 0, moves, random.Random(k))
        assert move is not None and move.startswith("place d4 "), move  # 3 red: the most
    near = position(board="d4=red", stones=[("b4 c4", "red red")], holding="red blue",
                    crystals=[{"red": 12}])
    for k in range(6):
        state, rng = near, random.Random(k)
        while state.turn == 0 and state.phase != "take" and state.loser < 0:
            move = GAME.policy(state, 0, GAME.moves(state, 0), rng)
            assert move is not None
            state, _ = GAME.play(state, 0, move)
        assert state.loser == -1


def test_evaluate_fears_twelve_of_a_colour_more_than_its_point() -> None:
    safe = position(crystals=[{"red": 6}, {"red": 9}])
    risky = position(crystals=[{"red": 12}, {"red": 9}])  # 9 - 3 points: the same 6
    assert score(safe, 0) == score(risky, 0)
    assert GAME.evaluate(risky, 0) < GAME.evaluate(safe, 0) - 2


def test_hard_keeps_clear_of_a_thirteenth_crystal() -> None:
    state = position(board="d4=red a1=blue", stones=[("b4 c4", "red red")],
                     holding="red blue", crystals=[{"red": 12, "blue": 3}])
    assert _settle(state, "hard").loser == -1


def test_a_remark_names_a_talisman_a_skip_a_move_and_another_turn() -> None:
    state = position(crystals=[{"green": 8}])
    public = GAME.view(state, None)
    line = GAME.remark(public, 0, "talisman green", 0.7)
    assert line == ("Takes 1 green crystal with a talisman instead of a stone: one short "
                    "of the green supercrystal (its search rates the move 70%).")
    assert GAME.remark(public, 0, "take 1", None) is None
    moving = position(board="c5=move e2=red e3=blue", stones=[("a1 a2", "red blue")],
                      holding="green green")
    after, = [turn_state for turn_state in [GAME.play(moving, 0, "place c5 d5")[0]]]
    assert after.phase == "ability"
    public = GAME.view(after, None)
    assert GAME.remark(public, 0, "move a1 to e2", None) == \
        "Moves the red/blue stone on a1 a2 to take red and blue for the squares it newly covers."
    assert GAME.remark(public, 0, "skip", None) == \
        "Leaves the move ability on c5 unused: no move pays it more than the board as it is."
    again = position(board="f9=again", stones=[("a1 a2", "red blue")], holding="green green")
    assert GAME.remark(GAME.view(again, None), 0, "place f8 f9", None) == \
        "Lays its stone on f9, the square of another turn."


def test_a_remark_reads_the_public_view_alone() -> None:
    state = GAME.new(2, seed=3)
    public = GAME.view(state, None)
    hidden = [p for p in public["pyramid"] if p["stone"] is None]
    assert hidden  # the back row is face down, and a remark needs none of it
    for move in GAME.legal_moves(state, state.turn):
        line = GAME.remark(public, state.turn, move, None)
        assert line is None or "Takes 1" in line


def test_each_rule_based_player_plays_legal_moves_from_its_view() -> None:
    for name, person in people.PEOPLE.items():
        state = GAME.new(2, seed=7)
        rng = random.Random(name)
        for _ in range(4):  # take, place, take, place
            seat = state.turn
            legal = GAME.legal_moves(state, seat)
            move = person(GAME.view(state, seat), legal, rng)
            assert move in legal, (name, move)
            state, _ = GAME.play(state, seat, move)


def test_the_rule_based_players_count_a_placement_as_the_rules_pay_it() -> None:
    state = position(board="d4=red", stones=[("b4 c4", "red red")], holding="red blue",
                     crystals=[{"red": 5}])
    view = GAME.view(state, 0)
    paid = people.payout(view, ["red", "blue"], [INDEX["d4"], INDEX["d5"]])
    assert paid["got"] == {"red": 3} and not paid["alone"]
    move = people.PEOPLE["nine"](view, GAME.legal_moves(state, 0), random.Random(1))
    assert move.startswith("place d4 "), move  # 3 red: the most
    full = position(board="d4=red", stones=[("b4 c4", "red red")], holding="red blue",
                    crystals=[{"red": 9}])
    while full.turn == 0 and full.phase != "take":
        move = people.PEOPLE["nine"](GAME.view(full, 0), GAME.legal_moves(full, 0),
                                     random.Random(1))
        full, _ = GAME.play(full, 0, move)
    assert full.crystals[0][0] == 9  # never over 9 when it can help it
