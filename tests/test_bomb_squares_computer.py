"""Bomb Squares' knowledge for the computer: what ``evaluate`` counts, the playouts' policy
where a rule makes the choice plain, the one-line remarks, and the rule-based newcomers
of ``benchmarks/people/bomb_squares.py``."""

from __future__ import annotations

import random

import pytest

from benchmarks.people import bomb_squares as people
from rules.bomb_squares import INDEX, BombState
from tests.test_bomb_squares import GAME, K, card, table


def choice(state: BombState, seat: int = 0) -> str | None:
    return GAME.policy(state, seat, GAME.moves(state, seat), random.Random(1))


def attack_possible(spoils: int, crystals: list[int] | None = None, new: bool = False
                    ) -> BombState:
    """A filled red card on e5 may attack the green bomb on f5, holding ``spoils`` meeples,
    a green card (seat 0 holds a green token, unless the colour is ``new`` to it)."""
    state = table(crystals=crystals or [5, 5], tokens=[[] if new else [1], []])
    card(state, "e5", "red", 2, bomb="red", meeples=2, meeple="blue")
    card(state, "f5", "green", 6, bomb="green", meeples=spoils, meeple="red")
    state.deck = [0, 1, 2]
    return state


def test_the_policy_rolls_only_for_spoils_worth_the_bettors_crystals() -> None:
    # every attack pays the bettor 2 crystals (3 if won): 1 meeple is not worth it
    assert "roll" in GAME.moves(attack_possible(1), 0)
    assert choice(attack_possible(1)) == "second card"
    assert choice(attack_possible(6)) == "second card"
    assert choice(attack_possible(6, new=True)) == "roll"  # 6 meeples and a token colour
    # an opponent without crystals cannot bet, so any attack is worth it
    assert choice(attack_possible(1, crystals=[5, 0])) == "roll"


def test_the_policy_bets_far_from_the_middle_and_fills_cards() -> None:
    state = table(phase="bets", crystals=[5, 5], turn=1,
                  attack={"attacker": 1, "from": INDEX["e5"], "to": INDEX["f5"], "power": 4,
                          "bets": [0, -1], "green": 0, "toughness": 0, "furthest": [],
                          "won": False})
    assert choice(state) == "bet 1"
    state = table(phase="meeple", pending=1)  # a blue meeple
    card(state, "e5", "red", 4, meeples=3, meeple="blue")
    card(state, "e6", "red", 6, meeples=5, meeple="blue")
    card(state, "e4", "red", 6)
    assert choice(state) == "meeple e6"  # fills the 6-section card
    state = table(phase="start", deck=[0, 1])
    card(state, "e5", "red", 4)
    state.for_sale = [[0, 1, 2], [0, 1, 2]]
    assert set(GAME.moves(state, 0)) == {"draw", "sell"}
    assert choice(state) == "draw"  # a card pays later; a sale only a crystal a buyer


def test_evaluate_counts_what_will_pay_later_by_its_weights() -> None:
    assert GAME.weights and set(GAME.weights) == {"held_card", "mint_tin_card", "token",
                                                   "airplane", "step_in_hand"}
    state = table()
    even = GAME.evaluate(state, 0)
    assert even == 0
    state.held[0] = 3
    state.bought[0] = [K["meeple"]]
    state.tokens[0] = [0, 1]
    w = GAME.weights
    assert GAME.evaluate(state, 0) == w["held_card"] + w["mint_tin_card"] + 2 * w["token"]
    assert GAME.evaluate(state, 1) == -GAME.evaluate(state, 0)


def test_remarks_name_only_what_the_table_sees() -> None:
    state = attack_possible(6)
    public = GAME.view(state, None)
    line = GAME.remark(public, 0, "second card", None)
    assert line is not None and "second square card" in line
    sold = GAME.remark(public, 0, "sell", None)
    assert sold is not None and "rather sell than draw" in sold
    assert "sells mint tin cards" not in sold  # the sale's own line says that, just before
    state.phase, state.dice = "rolled", [4, 2, 1, 0]
    line = GAME.remark(GAME.view(state, None), 0, "attack f5 from e5", 0.7)
    assert line == ("Player 1 attacks the 6-meeple card on f5 with power 4: at least 4 "
                    "chances in 6 to win it (it rates its chances 70%).")
    assert GAME.remark(public, 0, "draw", None) is None
    no_attack = table()
    card(no_attack, "e5", "red", 4)
    no_attack.deck = [0]
    assert GAME.remark(GAME.view(no_attack, None), 0, "second card", None) is None


def test_each_newcomer_plays_a_legal_move_from_its_view_to_the_end() -> None:
    for name, person in people.PEOPLE.items():
        state, rng, moves = GAME.new(2, seed=3), random.Random(name), 0
        while GAME.outcome(state) is None and moves < 600:
            seat = min(GAME.to_act(state))
            legal = GAME.legal_moves(state, seat)
            move = person(GAME.view(state, seat), legal, rng)
            assert move in legal, (name, move)
            state, _ = GAME.play(state, seat, move)
            moves += 1
        assert GAME.outcome(state) is not None, name


def test_evaluate_counts_the_attack_the_dice_force_and_the_meeple_that_fills() -> None:
    state = attack_possible(6, new=True)
    state.phase, state.dice = "rolled", [4, 2, 1, 0]  # power 4: 4 chances in 6
    due = GAME.weights["step_in_hand"]
    assert GAME.evaluate(state, 0) == pytest.approx(due * (4 / 6 * 8 - (2 + 4 / 6)))
    state = table(phase="meeple", pending=1)  # a blue meeple, and e5 takes one more
    card(state, "e5", "red", 4, meeples=3, meeple="blue")
    assert GAME.evaluate(state, 0) == due * 4
