"""Bomb Squares: one scenario per rule of the seed, from positions built by hand.

``table`` lays out a position; ``force`` sets the next chance outcomes (die values, then
bag draws as colour or kind indices), as OpenSpiel lists chance outcomes.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache, partial
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import IllegalMove, InvalidMove
from rules.bomb_squares import (
    COLOURS,
    INDEX,
    KINDS,
    MEEPLES,
    SIZE,
    START_CELL,
    BombState,
    card_code,
)
from tests.refusals import assert_refused

GAME = rules.GAMES["bomb-squares"]
C = {name: n for n, name in enumerate(COLOURS)}
M = {name: n for n, name in enumerate(MEEPLES)}
K = {name: n for n, name in enumerate(KINDS)}
refused = partial(assert_refused, GAME)


def table(players: int = 2, turn: int = 0, phase: str = "act", **fields: Any) -> BombState:
    """An empty table in ``phase`` of ``turn``'s turn 10, each seat with 5 crystals."""
    state = GAME.new(players, seed=11)
    n = SIZE * SIZE
    state.sections, state.colour, state.bomb = [0] * n, [-1] * n, [-1] * n
    state.meeples, state.meeple_colour, state.mine = [0] * n, [-1] * n, [0] * n
    state.tower, state.token = [False] * n, [0] * n
    state.bomb_bag, state.meeple_bag = [12] * 6, [63] * 4
    state.turn, state.phase, state.turns = turn, phase, 10
    state.then = {"place": "bomb", "bomb": "meeple"}.get(phase, "act")
    state.meepled = phase not in ("start", "place", "bomb", "meeple")
    state.crystals = [5] * players
    state.bought = [[] for _ in range(players)]
    for key, value in fields.items():
        setattr(state, key, value)
    return state


def card(state: BombState, cell: str, colour: str, sections: int, bomb: str | None = None,
         meeples: int = 0, meeple: str = "green", **extra: Any) -> None:
    i = INDEX[cell]
    state.sections[i], state.colour[i] = sections, C[colour]
    state.bomb[i] = C[bomb] if bomb else -1
    state.meeples[i], state.meeple_colour[i] = meeples, M[meeple] if meeples else -1
    for key, value in extra.items():
        getattr(state, key)[i] = value


def force(state: BombState, *outcomes: int) -> None:
    state.forced = list(outcomes)


def play(state: BombState, seat: int, *moves: str) -> tuple[BombState, list[str]]:
    texts: list[str] = []
    for move in moves:
        state, events = GAME.play(state, seat, move)
        texts += [e.text for e in events]
    return state, texts


def battle(players: int = 2, red: int = 6, crystals: list[int] | None = None) -> BombState:
    """A filled red card on e5 may attack the green bomb on f5 (1 meeple on it)."""
    state = table(players, phase="rolled", dice=[red, 1, 1, 0],
                  crystals=crystals or [5] * players)
    card(state, "e5", "red", 2, bomb="red", meeples=2, meeple="blue")
    card(state, "f5", "blue", 3, bomb="green", meeples=1, meeple="yellow")
    return state


# --------------------------------------------------------------------------- set-up


def test_setup_start_card_bomb_meeple_crystals_and_three_tin_cards() -> None:
    state = GAME.new(3, seed=4)
    assert state.sections[START_CELL] == 6 and state.bomb[START_CELL] >= 0
    assert state.meeples[START_CELL] == 1
    assert state.crystals == [5, 5, 5] and state.bank == 300 - 15
    assert [len(h) for h in state.for_sale] == [3, 3, 3] and sum(state.tin_deck) == 48 - 9
    assert len(state.deck) == 71 and sum(state.bomb_bag) == 71
    assert state.phase == "start" and GAME.to_act(state) == {state.turn}


def test_play_begins_with_a_random_player() -> None:
    assert {GAME.new(3, seed=s).turn for s in range(20)} == {0, 1, 2}


# --------------------------------------------------------------------------- mint tin cards


def test_selling_lets_each_other_player_buy_one_card_at_once() -> None:
    state = table(3, phase="start", for_sale=[[K["bomb"], K["skip"], K["stop"]], [], []])
    card(state, "e5", "red", 6)
    assert "sell" in GAME.legal_moves(state, 0)
    state, _ = play(state, 0, "sell")
    assert GAME.to_act(state) == {1, 2}  # both answer, in any order
    state, _ = play(state, 2, "buy")
    state, _ = play(state, 1, "no buy")
    assert len(state.bought[2]) == 1 and state.bought[2][0] in (K["bomb"], K["skip"], K["stop"])
    assert state.crystals == [6, 5, 4]
    assert len(state.for_sale[0]) == 3  # drawn back to 3
    assert state.turn == 1 and state.phase == "start"


def test_a_player_holds_at_most_two_bought_cards() -> None:
    state = table(2, phase="start", bought=[[], [K["bomb"], K["meeple"]]])
    card(state, "e5", "red", 6)
    assert "sell" not in GAME.legal_moves(state, 0)  # the only buyer is full


def test_played_cards_go_back_in_the_tin() -> None:
    state = table(bought=[[K["crystals"]], []])
    card(state, "e5", "red", 6)
    tin = list(state.tin_deck)
    state, texts = play(state, 0, "card crystals")
    assert state.crystals[0] == 7 and state.bought[0] == []
    assert state.tin_deck[K["crystals"]] == tin[K["crystals"]] + 1
    assert "Player 1 plays a 'crystals' card: earn 2 crystals for free; the card goes back " \
           "in the tin." in texts
    assert "Player 1 earns 2 crystals from the 'crystals' card." in texts


def test_extra_meeple_bomb_and_square_cards() -> None:
    state = table(bought=[[K["meeple"], K["bomb"]], []], deck=[card_code(C["red"], 1)])
    card(state, "e5", "red", 6)
    force(state, M["red"])
    state, _ = play(state, 0, "card meeple", "meeple e5")
    assert state.meeples[INDEX["e5"]] == 1 and state.phase == "act"
    force(state, C["blue"])
    state, _ = play(state, 0, "card bomb", "bomb e5")
    assert state.bomb[INDEX["e5"]] == C["blue"] and state.phase == "act"
    state.bought[0] = [K["square"]]
    state, _ = play(state, 0, "card square", "place e6")
    assert state.sections[INDEX["e6"]] == 1 and state.phase == "act"  # the turn goes on
    assert state.bomb[INDEX["e6"]] == -1


def test_a_lose_a_turn_card_fires_at_the_target_turn_start() -> None:
    state = table(3, bought=[[K["skip"]], [], []])
    card(state, "e5", "red", 6)
    state, texts = play(state, 0, "arm skip player 2")
    assert "Player 1 lays a mint tin card face down." in texts
    assert GAME.view(state, 1)["armed_counts"] == [1, 0, 0]
    assert "armed" not in GAME.view(state, None)
    state, texts = play(state, 0, "done")
    assert state.turn == 2  # player 2 lost the turn
    assert any("loses this turn" in t for t in texts)
    assert state.armed == [] and state.tin_deck[K["skip"]] >= 1


def test_a_stop_card_ends_the_target_turn_at_its_roll() -> None:
    state = table(2, armed=[[1, K["stop"], 0]])
    card(state, "e5", "red", 6)
    state, texts = play(state, 0, "roll yellow")
    assert state.turn == 1 and any("roll is stopped" in t for t in texts)


# --------------------------------------------------------------------------- square cards


def test_a_card_goes_free_next_to_a_card_with_as_many_sections_or_more() -> None:
    state = table(phase="place", held=[card_code(C["red"], 4), -1])
    card(state, "e5", "green", 4)
    moves = GAME.legal_moves(state, 0)
    assert "place e6" in moves and "keep" not in moves  # free: it must be placed
    state, texts = play(state, 0, "place e6")
    assert state.crystals[0] == 5 and "Player 1 places a 4-section red card on e6, free " \
        "beside a card with as many sections or more." in texts


def test_a_card_bigger_than_its_neighbours_costs_one_crystal_each() -> None:
    state = table(phase="place", held=[card_code(C["red"], 5), -1])
    card(state, "e5", "green", 3)
    card(state, "f6", "green", 2)
    moves = GAME.legal_moves(state, 0)
    assert "keep" in moves  # no free place: the player may refuse to pay
    state, _ = play(state, 0, "place f5")  # next to e5 and f6: 2 crystals
    assert state.crystals[0] == 3
    poor = table(phase="place", held=[card_code(C["red"], 5), -1], crystals=[1, 5])
    card(poor, "e5", "green", 3)
    card(poor, "f6", "green", 2)
    refused(poor, 0, "place f5", IllegalMove, "Placing there costs 2 crystals (1 for each "
            "neighbour with fewer sections); you hold 1.")


def test_a_kept_card_is_set_aside_next_turn_when_it_still_costs() -> None:
    state = table(phase="place", held=[card_code(C["red"], 6), -1],
                  deck=[card_code(C["blue"], 1)])
    card(state, "e5", "green", 3)
    state, _ = play(state, 0, "keep")
    assert state.turn == 1 and state.held[0] >= 0
    state.turn, state.phase = 0, "start"
    assert "draw" in GAME.legal_moves(state, 0)
    state, _ = play(state, 0, "draw")
    assert state.set_aside == [card_code(C["red"], 6)]
    assert state.held[0] == card_code(C["blue"], 1) and state.phase == "place"


def test_with_no_square_cards_left_the_step_is_skipped() -> None:
    state = table(phase="start", deck=[])
    card(state, "e5", "green", 3)
    assert GAME.legal_moves(state, 0) == ["continue", "sell"]
    force(state, M["blue"])
    state, _ = play(state, 0, "continue")
    assert state.phase == "meeple"


# --------------------------------------------------------------------------- bombs and meeples


def test_a_placed_card_brings_a_bomb_then_a_meeple() -> None:
    state = table(phase="place", held=[card_code(C["red"], 2), -1])
    card(state, "e5", "green", 6, bomb="red")
    force(state, C["purple"], M["yellow"])
    state, _ = play(state, 0, "place e6")
    assert state.phase == "bomb" and GAME.legal_moves(state, 0)[0] == "bomb e6"
    assert "bomb e5" not in GAME.legal_moves(state, 0)  # e5 has a bomb
    state, _ = play(state, 0, "bomb e6")
    assert state.phase == "meeple"
    state, _ = play(state, 0, "meeple e6")
    assert state.phase == "act" and state.meeple_colour[INDEX["e6"]] == M["yellow"]


def test_a_card_takes_only_the_colour_of_its_first_meeple() -> None:
    state = table(phase="meeple", pending=M["red"])
    card(state, "e5", "green", 3, meeples=1, meeple="blue")
    card(state, "e6", "green", 3)
    moves = GAME.legal_moves(state, 0)
    assert "meeple e6" in moves and "meeple e5" not in moves
    hint = " The meeple drawn: type 'meeple e6' (1 of 4) or 'redraw meeple' (costs 1 crystal)."
    refused(state, 0, "meeple e5", IllegalMove, "e5 holds blue meeples, and a card takes "
            "meeples of one colour only: your red meeple goes on a card with no meeple yet "
            "or one whose meeples are its colour." + hint)
    card(state, "e4", "green", 2, meeples=2, meeple="red")
    refused(state, 0, "meeple e4", IllegalMove, "e4 is full: a meeple in every section." + hint)
    card(state, "d5", "red", 4, token=1)
    refused(state, 0, "meeple d5", IllegalMove, "d5 carries a token: a token card takes no "
            "meeple." + hint)


def test_the_bomb_drawn_goes_on_a_card_without_one() -> None:
    state = table(phase="bomb", pending=C["red"])
    card(state, "e5", "green", 3, bomb="blue")
    card(state, "e6", "green", 3)
    card(state, "d5", "red", 4, token=1)
    assert [m for m in GAME.legal_moves(state, 0) if m.startswith("bomb ")] == ["bomb e6"]
    hint = " The bomb drawn: type 'bomb e6' or 'redraw bomb' (costs 1 crystal)."
    refused(state, 0, "bomb e5", IllegalMove, "e5 already carries a bomb: the bomb you drew "
            "goes on a card without one." + hint)
    refused(state, 0, "bomb d5", IllegalMove, "d5 carries a token, which stands for its bomb: "
            "the bomb you drew goes on a card without one." + hint)


def test_filling_a_card_earns_its_sections() -> None:
    state = table(phase="meeple", pending=M["red"])
    card(state, "e5", "green", 4, meeples=3, meeple="red")
    state, texts = play(state, 0, "meeple e5")
    assert state.crystals[0] == 9
    assert "Player 1 earns 4 crystals for filling the 4-section card on e5." in texts


def test_an_extra_meeple_is_bought_only_to_fill_a_card() -> None:
    state = table()
    card(state, "e5", "green", 4, meeples=3, meeple="red")
    card(state, "e6", "green", 4, meeples=2, meeple="red")
    moves = GAME.legal_moves(state, 0)
    assert "buy meeple e5" in moves and "buy meeple e6" not in moves
    state, texts = play(state, 0, "buy meeple e5")
    assert state.crystals[0] == 5 - 1 + 4
    assert "Player 1 buys a meeple for 1 crystal and places a red meeple on e5." in texts
    assert "Player 1 earns 4 crystals for filling the 4-section card on e5." in texts


def test_an_extra_meeple_fills_a_blank_one_section_card_drawn_blind() -> None:
    """One meeple fills a blank 1-section card, so it may be bought for; any colour fills
    it, so the meeple is drawn blind from the bag. A blank 2-section card, a card under a
    landmine or one whose colour the bag lacks may not."""
    state = table()
    card(state, "e5", "green", 1)
    card(state, "e6", "green", 2)
    card(state, "e4", "red", 2, meeples=1, meeple="blue", mine=3)
    card(state, "d5", "red", 2, meeples=1, meeple="yellow")
    state.meeple_bag = [63, 63, 63, 0]
    moves = GAME.legal_moves(state, 0)
    assert [m for m in moves if m.startswith("buy")] == ["buy meeple e5"]
    assert GAME.costs(state, 0)["buy meeple e5"] == "costs 1 crystal"
    force(state, M["blue"])
    state, texts = play(state, 0, "buy meeple e5")
    assert state.meeple_colour[INDEX["e5"]] == M["blue"] and state.meeple_bag[M["blue"]] == 62
    assert state.crystals[0] == 5 - 1 + 1
    assert "Player 1 buys a meeple for 1 crystal (drawn blind: any colour fills a blank " \
           "card) and places a blue meeple on e5." in texts
    assert "Player 1 earns 1 crystal for filling the 1-section card on e5." in texts
    assert not any(m.startswith("buy") for m in GAME.legal_moves(state, 0))  # once a turn
    refused(state, 0, "buy meeple e6", IllegalMove, "Only one extra meeple may be bought a "
            "turn.")
    fresh = table()
    card(fresh, "e6", "green", 2)
    refused(fresh, 0, "buy meeple e6", IllegalMove, "An extra meeple is bought only when it "
            "fills the card, and e6 has 2 free sections.")


# --------------------------------------------------------------------------- the dice


def test_all_dice_are_rolled_when_an_attack_is_possible() -> None:
    state = table()
    card(state, "e5", "red", 2, bomb="red", meeples=2)
    card(state, "h5", "red", 2, bomb="green")
    card(state, "f5", "red", 1)
    card(state, "g5", "red", 1)
    moves = GAME.legal_moves(state, 0)
    assert "roll" in moves and "done" not in moves and "roll yellow" not in moves
    refused(state, 0, "done", IllegalMove, "An attack is possible, so the turn cannot end "
            "without one: roll the dice, or skip them for a second square card or a bomb "
            "switch where you may. The dice step: type 'roll', 'second card', 'switch' "
            "(1 of 3), 'landmine' (1 of 4; costs 2 crystals), 'tower' (1 of 3; costs 2 "
            "crystals), 'airplane' (costs 5 crystals) or 'buy meeple f5' (1 of 2; costs 1 "
            "crystal).")
    force(state, 4, 2, 5)
    state, texts = play(state, 0, "roll")
    assert state.dice[:3] == [4, 2, 5]
    assert "Player 1 rolls red 4, blue 2 and yellow 5: no target is in reach of the blue " \
           "die." in texts
    assert "done" in GAME.legal_moves(state, 0)  # h5 is 3 cards away: out of reach
    assert not any(m.startswith("attack") for m in GAME.legal_moves(state, 0))


def test_without_an_attack_only_yellow_is_rolled_if_the_player_wants() -> None:
    state = table()
    card(state, "e5", "red", 2, bomb="red", meeples=1)
    card(state, "e6", "red", 2, bomb="green")
    moves = GAME.legal_moves(state, 0)
    assert "roll yellow" in moves and "done" in moves and "roll" not in moves


def test_blue_reach_counts_cards_along_orthogonal_paths_with_bends() -> None:
    state = table(phase="rolled", dice=[6, 3, 1, 0])
    card(state, "e5", "red", 1, bomb="red", meeples=1)
    card(state, "f5", "red", 1)
    card(state, "f6", "red", 1)
    card(state, "g6", "red", 1, bomb="green")  # 3 cards away by the L-shaped path
    card(state, "f4", "red", 1, bomb="green")  # diagonal to e5, 2 away through f5
    moves = GAME.legal_moves(state, 0)
    assert "attack g6 from e5" in moves and "attack f4 from e5" in moves
    state.dice[1] = 2
    assert "attack g6 from e5" not in GAME.legal_moves(state, 0)


def test_second_card_or_bomb_switch_instead_of_the_dice_ends_the_turn() -> None:
    state = table(deck=[card_code(C["red"], 1)])
    card(state, "e5", "red", 2, bomb="red", meeples=2)
    card(state, "e6", "red", 2, bomb="green")
    state2, _ = play(state, 0, "second card", "place d5")
    assert state2.turn == 1 and state2.bomb[INDEX["d5"]] == -1 and not state2.meeples[
        INDEX["d5"]]
    state3, _ = play(state, 0, "switch", "switch e6", "with e5")
    assert state3.bomb[INDEX["e5"]] == C["green"] and state3.turn == 1
    force(state, C["blue"])
    state4, _ = play(state, 0, "switch", "switch e6", "with bag")
    assert state4.bomb[INDEX["e6"]] == C["blue"] and state4.bomb_bag[C["green"]] == 13
    assert "redraw bomb" not in GAME.legal_moves(state4, 1)


def test_yellow_moves_meeples_leaving_one_behind_and_a_fill_rerolls_red_and_blue() -> None:
    state = table(phase="rolled", dice=[0, 0, 2, 0])
    card(state, "e5", "red", 6, bomb="red", meeples=3, meeple="blue")
    card(state, "f5", "red", 1)
    card(state, "g5", "red", 2, meeples=1, meeple="blue", bomb="red")
    card(state, "h5", "red", 2, meeples=1, meeple="red")
    card(state, "g6", "red", 1, bomb="green")
    state, _ = play(state, 0, "from e5")
    moves = GAME.legal_moves(state, 0)
    assert "to f5" in moves and "to g5" in moves and "to h5" not in moves  # red, 3 away
    force(state, 5, 4)
    state, texts = play(state, 0, "to g5")
    assert state.crystals[0] == 7 and state.moving_over
    assert state.dice[:2] == [5, 4] and any("rolled again" in t for t in texts)
    assert "attack g6 from g5" in GAME.legal_moves(state, 0)
    assert not any(m.startswith("to ") for m in GAME.legal_moves(state, 0))


# --------------------------------------------------------------------------- the attack


def test_the_seeds_worked_example_green_1_guesses_5_and_6() -> None:
    """3 players: green rolls 1, one opponent guesses 5, the other 6: the 6 wins 2
    crystals and the toughness is 6 - 1 = 5; against power 6 the battle is won."""
    state = battle(3, red=6, crystals=[5, 5, 6])
    state, _ = play(state, 0, "attack f5 from e5")
    assert state.phase == "bets" and GAME.to_act(state) == {1, 2}
    refused(state, 1, "bet 6", IllegalMove, "You may bet no more than the crystals you hold "
            "(5).")
    state, _ = play(state, 1, "bet 5")
    assert GAME.view(state, 2)["attack"]["bets"] is None  # secret until the roll
    force(state, 1)
    state, texts = play(state, 2, "bet 6")
    assert "Green rolls 1. The bets: Player 2 5 and Player 3 6. The furthest guess is 5 " \
           "away, so the toughness is 5." in texts
    assert "Player 3 earns 2 crystals for the guess furthest from the green die (6)." in texts
    assert ("Toughness 5 is below power 6: the attack is won, and the turn ends once it is "
            "paid.") in texts
    # the attacker earns the 1 meeple on f5; the furthest guess 2 + 1 more
    assert state.crystals == [6, 5, 6 + 2 + 1]
    assert state.sections[INDEX["e5"]] and not state.meeples[INDEX["e5"]]  # cleared


def test_toughness_equal_to_power_loses() -> None:
    state = battle(3, red=5, crystals=[5, 5, 6])
    force(state, 1)
    state, texts = play(state, 0, "attack f5 from e5")
    state, _ = play(state, 1, "bet 5")
    state, texts = play(state, 2, "bet 6")
    assert "Toughness 5 holds against power 5: the attack is lost, nothing is cleared, and " \
           "the turn ends." in texts
    assert state.meeples[INDEX["f5"]] == 1 and state.turn == 1


def test_without_bettors_the_green_roll_is_the_toughness() -> None:
    state = battle(2, red=4, crystals=[5, 0])
    force(state, 3)
    state, texts = play(state, 0, "attack f5 from e5")
    assert "Green rolls 3: nobody bets, so the toughness is 3." in texts
    assert state.crystals[0] == 6


def test_one_bettor_s_guess_is_the_only_one_however_near() -> None:
    """2 players: one bet, on the number the green die shows: 0 away is the furthest of
    one guess (the seed's 2 crystals), which the line says rather than 'furthest'."""
    state = battle(2, red=4, crystals=[5, 5])
    state, _ = play(state, 0, "attack f5 from e5")
    force(state, 3)
    state, texts = play(state, 1, "bet 3")
    assert "Green rolls 3. The bet: Player 2 3. The only guess is 0 away, so the toughness " \
           "is 0." in texts
    assert "Player 2 earns 2 crystals for the only guess, the furthest however near (3)." \
        in texts


def test_a_won_attack_clears_both_cards_and_a_landmine_leaves_the_game() -> None:
    state = battle(2, red=6, crystals=[5, 0])
    i = INDEX["f5"]
    state.mine[i], state.tower[i], state.towers = 3, True, 3
    force(state, 1)
    state, _ = play(state, 0, "attack f5 from e5")
    assert state.mine[i] == 0 and not state.tower[i] and state.towers == 4
    assert state.landmines == 10  # the landmine is not returned
    assert state.bomb[i] == -1 and state.bomb[INDEX["e5"]] == -1
    assert state.tokens[0] == [C["blue"]]  # the attacked card's colour


# --------------------------------------------------------------------------- the challenge


def challenged(meeple: str) -> tuple[BombState, list[str]]:
    state = battle(2, red=6, crystals=[5, 10])
    state, _ = play(state, 0, "attack f5 from e5")
    force(state, 1, M[meeple])
    state, _ = play(state, 1, "bet 6")  # toughness 5 < 6: won; Player 2 may challenge
    assert state.phase == "challenge" and GAME.to_act(state) == {1}
    return play(state, 1, "challenge")


def test_challenge_green_loses_the_battle_and_the_turn_passes_to_the_challenger() -> None:
    state, _ = challenged("green")
    assert state.crystals == [6, 10 + 2 - 2] and state.turn == 1
    assert state.meeples[INDEX["f5"]] == 1  # nothing cleared


def test_challenge_blue_loses_the_battle_and_costs_the_challenger_5() -> None:
    state, _ = challenged("blue")
    assert state.crystals == [6, 10 + 2 - 2 - 5]


def test_challenge_red_lets_the_win_stand() -> None:
    state, _ = challenged("red")
    assert state.crystals == [6 + 1, 10 + 2 - 2 + 1] and not state.meeples[INDEX["f5"]]


def test_challenge_yellow_pays_3_and_an_extra_meeple_next_turn() -> None:
    state, _ = challenged("yellow")
    assert state.crystals == [6 + 1, 10 + 2 - 2 + 3 + 1] and state.bonus[1] == 1
    assert state.turn == 1
    card(state, "e7", "red", 3)
    state.phase, state.meepled = "act", True
    assert "bonus red" in GAME.legal_moves(state, 1)
    assert GAME.notes(state, 1)["bonus red"].startswith("the extra meeple a yellow challenge")
    state, _ = play(state, 1, "bonus red", "meeple e7")
    assert state.meeple_colour[INDEX["e7"]] == M["red"] and state.bonus[1] == 0


def test_a_challenge_needs_seven_crystals() -> None:
    state = battle(2, red=6, crystals=[5, 4])
    state, _ = play(state, 0, "attack f5 from e5")
    force(state, 1)
    state, _ = play(state, 1, "bet 4")  # furthest: 4 + 2 = 6 crystals, short of 7
    assert state.phase != "challenge" and state.crystals == [6, 4 + 2 + 1]


# --------------------------------------------------------------------------- do-overs


def test_one_do_over_a_turn_and_never_the_green_die() -> None:
    state = table(phase="meeple", pending=M["red"])
    card(state, "e5", "green", 3, meeples=1, meeple="blue")
    card(state, "e6", "green", 3)
    force(state, M["blue"])
    state, _ = play(state, 0, "redraw meeple")
    assert state.pending == M["blue"] and state.crystals[0] == 4 and state.redo
    state, _ = play(state, 0, "meeple e5")
    state, _ = play(state, 0, "roll yellow")
    assert not any(m.startswith("reroll") for m in GAME.legal_moves(state, 0))
    refused(state, 0, "reroll yellow", IllegalMove, "Only one do-over is allowed per turn.")
    fresh = table(phase="rolled", dice=[2, 3, 4, 0])
    assert {m for m in GAME.legal_moves(fresh, 0) if m.startswith("reroll")} == {
        "reroll red", "reroll blue", "reroll yellow", "reroll red blue", "reroll red yellow",
        "reroll blue yellow", "reroll red blue yellow"}
    force(fresh, 6, 6)
    fresh, _ = play(fresh, 0, "reroll red yellow")
    assert fresh.dice[:3] == [6, 3, 6] and fresh.crystals[0] == 3
    refused(fresh, 0, "reroll green", InvalidMove, "The green die is never rerolled. After "
            "the roll: type 'done'.")
    refused(fresh, 0, "attack z9 from e5", InvalidMove, "There is no place 'z9' on the table: "
            "places run a1 to i9. After the roll: type 'done'.")
    refused(fresh, 0, "attack e5 from", IllegalMove, "No target is in reach of the blue die, "
            "so there is no attack this turn. After the roll: type 'done'.")
    refused(fresh, 0, "bomb", IllegalMove, "You can't 'bomb' now: your turn is after the roll "
            "(attack, or move meeples with the yellow die). After the roll: type 'done'.")
    refused(fresh, 0, "frob e5", InvalidMove, "That is not a move I understand. After the "
            "roll: type 'done'.")


def test_a_bomb_redraw_costs_one_crystal() -> None:
    state = table(phase="bomb", pending=C["red"], then="meeple")
    card(state, "e5", "green", 3)
    force(state, C["green"])
    state, _ = play(state, 0, "redraw bomb")
    assert state.pending == C["green"] and state.bomb_bag[C["red"]] == 13


# --------------------------------------------------------------------------- shops


def test_landmines_one_a_turn_blocking_a_section_and_kept_off_by_towers() -> None:
    state = table(crystals=[10, 5])
    card(state, "e5", "green", 2, bomb="red")
    card(state, "e6", "green", 2, bomb="red", tower=True)
    state, _ = play(state, 0, "landmine")
    assert GAME.legal_moves(state, 0) == ["landmine e5"]  # e6 has a lookout tower
    state, _ = play(state, 0, "landmine e5")
    assert state.crystals[0] == 8 and state.landmines == 9
    assert "landmine" not in GAME.legal_moves(state, 0)
    state.meeples[INDEX["e5"]], state.meeple_colour[INDEX["e5"]] = 1, M["red"]
    view = GAME.view(state, None)["board"]
    assert [c["filled"] for c in view if c["cell"] == "e5"] == [False]  # blocked, not full


def test_a_landmine_is_removed_for_3_crystals_or_by_skipping_a_meeple() -> None:
    state = table(crystals=[10, 5])
    card(state, "e5", "green", 3, meeples=1, meeple="red", mine=4)
    state, _ = play(state, 0, "unmine e5")
    assert state.crystals[0] == 7 and state.mine[INDEX["e5"]] == 0
    skip = table(phase="meeple", pending=M["blue"], meepled=False)
    card(skip, "e5", "green", 3, meeples=2, meeple="red", mine=4)
    skip, _ = play(skip, 0, "clear e5")
    assert skip.meeples[INDEX["e5"]] == 1 and skip.mine[INDEX["e5"]] == 0
    assert skip.meeple_bag == [63, 64, 64, 63]  # the drawn blue back, and one red


def test_an_airplane_flies_from_the_next_turn_free_then_one_crystal_a_meeple() -> None:
    state = table(crystals=[10, 5])
    card(state, "e5", "green", 6, meeples=4, meeple="red")
    card(state, "i9", "green", 6)
    for cell in ("f5", "g5", "h5", "i5", "i6", "i7", "i8"):
        card(state, cell, "green", 1, meeples=1, meeple="blue")
    force(state, 1)
    state, _ = play(state, 0, "airplane", "roll yellow")
    assert state.crystals[0] == 5 and state.plane[0] == 1
    assert "from e5" not in GAME.legal_moves(state, 0)  # not on the turn it is bought
    state.plane[0] = 2
    state, _ = play(state, 0, "from e5", "fly i9", "fly i9")
    assert state.crystals[0] == 5 and state.meeples[INDEX["i9"]] == 2
    state.plane[0] = 3
    state, _ = play(state, 0, "fly i9")
    assert state.crystals[0] == 4


def test_one_lookout_tower_a_card_and_a_turn() -> None:
    state = table(crystals=[10, 5])
    card(state, "e5", "green", 2, bomb="red")
    card(state, "e6", "green", 2)
    state, _ = play(state, 0, "tower")
    assert GAME.legal_moves(state, 0) == ["tower e5"]
    state, _ = play(state, 0, "tower e5")
    assert state.tower[INDEX["e5"]] and state.towers == 3 and "tower" not in \
        GAME.legal_moves(state, 0)


# --------------------------------------------------------------------------- tokens


def test_four_token_colours_pay_10_and_are_laid_on_empty_cards() -> None:
    state = battle(2, red=6, crystals=[5, 0])
    state.tokens[0] = [C["red"], C["green"], C["red"], C["yellow"]]
    for cell, colour in (("a1", "red"), ("b1", "green"), ("c1", "yellow"), ("d1", "blue")):
        card(state, cell, colour, 2)
    force(state, 1)
    state, _ = play(state, 0, "attack f5 from e5")  # f5 is blue: the fourth colour
    assert state.crystals[0] == 5 + 1 + 10 and state.phase == "tokens"
    assert state.token_supply[C["red"]] == 9  # the spare red is set aside for others
    assert set(GAME.legal_moves(state, 0)) == {"token a1", "token b1", "token c1",
                                               "token d1", "token e5", "token f5"}
    for cell in ("a1", "b1", "c1", "d1"):
        state, _ = play(state, 0, f"token {cell}")
    assert state.turn == 1 and state.token[INDEX["a1"]] == 1
    assert GAME.view(state, None)["sets"][0] == ["red", "green", "yellow", "blue"]


def test_a_token_card_attacked_by_a_player_without_a_set_pays_5_more() -> None:
    state = battle(2, red=6, crystals=[5, 0])
    i = INDEX["f5"]
    state.meeples[i], state.meeple_colour[i], state.bomb[i] = 0, -1, -1
    state.colour[i], state.token[i] = C["green"], 1  # a green token: a green bomb
    force(state, 1)
    state, _ = play(state, 0, "attack f5 from e5")
    assert state.crystals[0] == 5 + 3 + 5 and state.tokens[0] == [C["green"]]
    assert state.token[i] == 0


def test_a_player_who_laid_tokens_may_not_attack_token_cards() -> None:
    state = battle(2, red=6)
    state.sets = [[0, 1, 2, 3], []]
    i = INDEX["f5"]
    state.meeples[i], state.bomb[i], state.colour[i], state.token[i] = 0, -1, C["green"], 1
    assert "attack f5 from e5" not in GAME.legal_moves(state, 0)
    state.sets = [[], []]
    assert "attack f5 from e5" in GAME.legal_moves(state, 0)


# --------------------------------------------------------------------------- the end


def test_the_first_to_75_crystals_wins() -> None:
    state = table(phase="meeple", pending=M["red"], crystals=[73, 74])
    card(state, "e5", "green", 2, meeples=1, meeple="red")
    state, texts = play(state, 0, "meeple e5")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {0} and outcome.ending == "75 crystals"
    assert texts[-1] == "The game ends: Player 1 reached 75 crystals first."


def test_the_turn_limit_ends_the_game_most_crystals_wins() -> None:
    state = table(turns=300, crystals=[9, 12])
    card(state, "e5", "green", 2)
    state, _ = play(state, 0, "done")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {1} and outcome.ending == "turn limit"


def test_no_square_cards_and_three_quiet_rounds_end_the_game() -> None:
    state = table(deck=[], quiet=6, crystals=[9, 9])
    card(state, "e5", "green", 2)
    state, _ = play(state, 0, "done")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {0, 1}
    assert outcome.ending == "no earnings"
    # said as the guide says it (a new player read 'a whole round' against its 'three')
    assert outcome.reason.startswith("The square cards are used up and nobody earned for 3 "
                                     "full rounds; most crystals wins.")


# --------------------------------------------------------------------------- hidden facts


def test_views_hide_tin_cards_held_cards_and_bets() -> None:
    state = GAME.new(3, seed=2)
    spectator = json.dumps(GAME.view(state, None))
    assert '"for_sale"' not in spectator and '"held"' not in spectator
    mine = GAME.view(state, 0)
    assert mine["for_sale"] == [KINDS[k] for k in state.for_sale[0]]
    assert GAME.view(state, 1)["for_sale"] == [KINDS[k] for k in state.for_sale[1]]


def test_determinize_depends_only_on_what_the_seat_sees() -> None:
    state = GAME.new(3, seed=8)
    state.held[2] = state.deck.pop()
    twin = GAME.load(GAME.dump(state))
    twin.held[2], twin.deck[0] = twin.deck[0], twin.held[2]  # other hidden facts
    twin.for_sale[1], twin.for_sale[2] = twin.for_sale[2], twin.for_sale[1]
    assert GAME.view(twin, 0) == GAME.view(state, 0)
    a, b = GAME.determinize(state, 0, 5), GAME.determinize(twin, 0, 5)
    assert GAME.dump(a) == GAME.dump(b)
    assert GAME.view(a, 0) == GAME.view(state, 0)


def test_forgiving_text() -> None:
    state = table(phase="bets", attack={"attacker": 0, "from": INDEX["e5"],
                                        "to": INDEX["f5"], "power": 4, "bets": [-1, 0],
                                        "green": 0, "toughness": 0, "furthest": [],
                                        "won": False})
    assert GAME.parse(state, 1, "3") == "bet 3"
    assert GAME.parse(state, 1, "guess 3") == "bet 3"
    refused(state, 1, "frobnicate", InvalidMove, "That is not a move I understand. Guess "
            "the green die, 1 to 5 (no more than your crystals): type 'bet 1' to 'bet 5'.")


# --------------------------------------------------------------------------- costs


@cache
def random_game(players: int, seed: int) -> tuple[BombState, ...]:
    """Every state of a seeded random game (the states are never changed: play copies)."""
    rng = random.Random(seed)
    state = GAME.new(players, seed)
    states = [state]
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        states.append(state)
    return tuple(states)


def random_states(players: int, seed: int, every: int) -> tuple[BombState, ...]:
    return random_game(players, seed)[::every]


def test_each_costly_move_shows_its_cost_and_says_it_when_played() -> None:
    """A crystal cost beside every move that takes crystals, free moves absent; playing
    it takes that many (less what the move earns back) and a sentence says so."""
    seen: set[str] = set()
    for players, seed in ((2, 3), (4, 5)):
        for state in random_states(players, seed, every=4):
            for seat in sorted(GAME.to_act(state)):
                costs = GAME.costs(state, seat)
                legal = GAME.legal_moves(state, seat)
                assert set(costs) <= set(legal)
                for move, cost in costs.items():
                    seen.add(move.split()[0])
                    assert len(cost) <= 30, cost
                    found = re.fullmatch(r"costs (\d+) crystals?(, risks 5 more)?", cost)
                    if found is None:
                        assert move.startswith(("draw", "clear")), (move, cost)
                        continue
                    count = int(found.group(1))
                    after, events = GAME.play(state, seat, move)
                    texts = " ".join(e.text for e in events)
                    assert f"{count} crystal" in texts, (move, texts)
                    earned = sum(e.data["crystals"] for e in events
                                 if e.kind == "earn" and e.data["seat"] == seat)
                    if GAME.outcome(after) is None and move not in ("challenge", "buy"):
                        assert after.crystals[seat] == state.crystals[seat] - count + earned, \
                            (move, texts)
    assert {"place", "redraw", "landmine", "tower", "airplane", "buy"} <= seen, seen


def test_what_each_kind_of_move_costs() -> None:
    state = table(crystals=[10, 10], deck=[card_code(C["red"], 1)])
    card(state, "e5", "green", 3, bomb="red", meeples=2, meeple="red", mine=4)
    card(state, "f5", "green", 1)
    assert GAME.costs(state, 0) == {
        "landmine": "costs 2 crystals", "tower": "costs 2 crystals",
        "airplane": "costs 5 crystals", "unmine e5": "costs 3 crystals",
        "buy meeple f5": "costs 1 crystal",
        "landmine f5": "costs 2 crystals", "tower e5": "costs 2 crystals"}  # joined: buy, lay
    assert list(GAME.legal_moves(state, 0))[:3] == ["roll yellow", "done", "second card"]
    state, texts = play(state, 0, "tower")
    assert state.crystals[0] == 8 and GAME.costs(state, 0) == {}  # laying it is free
    assert "Player 1 buys a lookout tower for 2 crystals and chooses a card's bomb for it." \
        in texts
    state, texts = play(state, 0, "tower e5")
    assert "Player 1 puts the lookout tower on the bomb on e5: no landmine may be laid on " \
           "that card." in texts
    rolled = table(phase="rolled", dice=[2, 3, 4, 0], crystals=[2, 5])
    costs = GAME.costs(rolled, 0)
    assert costs["reroll red"] == "costs 1 crystal" and costs["reroll red blue"] == \
        "costs 2 crystals" and "reroll red blue yellow" not in costs  # 3 > 2 crystals held
    held = table(phase="start", held=[card_code(C["red"], 6), -1], deck=[1])
    card(held, "e5", "green", 3)
    assert GAME.costs(held, 0) == {"place e6": "costs 1 crystal", "place e4": "costs 1 crystal",
                                   "place d5": "costs 1 crystal", "place f5": "costs 1 crystal",
                                   "draw": "sets your held card aside"}
    meeple = table(phase="meeple", pending=M["blue"], meepled=False)
    card(meeple, "e5", "green", 3, meeples=2, meeple="red", mine=4)
    assert GAME.costs(meeple, 0) == {"redraw meeple": "costs 1 crystal",
                                     "clear e5": "costs your meeple + 1 on e5"}


def test_a_challenge_and_fuel_say_what_they_cost() -> None:
    state = battle(2, red=6, crystals=[5, 10])
    state, _ = play(state, 0, "attack f5 from e5")
    force(state, 1)
    state, texts = play(state, 1, "bet 6")
    assert ("Player 2 may challenge the win (it costs 2 crystals): 'challenge' or 'no "
            "challenge'.") in texts
    assert GAME.costs(state, 1) == {"challenge": "costs 2 crystals, risks 5 more"}
    flying = table(phase="rolled", dice=[0, 0, 1, 0], plane=[3, 0], source=INDEX["e5"])
    card(flying, "e5", "green", 6, meeples=3, meeple="red")
    card(flying, "f5", "green", 1, meeples=1, meeple="blue")
    card(flying, "g5", "green", 6)
    assert GAME.costs(flying, 0)["fly g5"] == "costs 1 crystal"
    flying, texts = play(flying, 0, "fly g5")
    assert "Player 1 flies a red meeple from e5 to g5, paying 1 crystal of fuel (1 of 6 " \
           "sections taken: a full card pays 6)." in texts
    flying.plane[0] = 2
    assert "fly g5" not in GAME.costs(flying, 0)  # the first turn of flying is free
    flying, texts = play(flying, 0, "fly g5")
    assert any("(the airplane's first use is free this turn)" in t for t in texts)


# --------------------------------------------------------------------------- hints


def test_the_hint_offers_exactly_the_first_words_of_the_legal_moves() -> None:
    for players, seed in ((2, 3), (4, 5)):
        for state in random_states(players, seed, every=3):
            for seat in sorted(GAME.to_act(state)):
                hint = GAME.notation_hint(state, seat)
                offered = {q.split()[0] for q in re.findall(r"'([^']+)'", hint)}
                legal = {m.split()[0] for m in GAME.legal_moves(state, seat)}
                assert offered == legal, (state.phase, hint)
                assert len(hint) < 330, hint


def test_a_drawn_card_that_fits_for_free_is_not_offered_to_be_kept() -> None:
    state = table(phase="place", held=[card_code(C["red"], 2), -1])
    card(state, "e5", "green", 4)
    hint = GAME.notation_hint(state, 0)
    assert hint == "Your drawn square card: type 'place e4' (1 of 4)."
    refused(state, 0, "keep", IllegalMove, f"Your square card fits somewhere for free, so it "
            f"must be placed. {hint}")
    assert GAME.view(state, None)["maybe"] == ["place", "keep"]  # the card is secret
    rolled = table(phase="rolled", dice=[3, 1, 1, 0])
    card(rolled, "e5", "green", 2, bomb="red", meeples=2, meeple="red")
    card(rolled, "g5", "green", 2, bomb="green")
    card(rolled, "f5", "green", 1, meeples=1, meeple="blue")
    assert GAME.legal_moves(rolled, 0)[:1] == ["done"]
    assert GAME.view(rolled, None)["offers"] == ["done", "reroll"]


# --------------------------------------------------------------------------- effects


def test_a_placement_says_what_it_cost_and_why() -> None:
    state = table(phase="place", held=[card_code(C["red"], 5), -1])
    card(state, "e5", "green", 3)
    card(state, "f6", "green", 2)
    state, texts = play(state, 0, "place f5")
    assert "Player 1 places a 5-section red card on f5, paying 2 crystals: 1 for each " \
           "neighbour, all with fewer sections." in texts


def test_a_meeple_says_how_full_its_card_is_and_a_skipped_step_says_why() -> None:
    state = table(phase="meeple", pending=M["red"])
    card(state, "e5", "green", 4, meeples=1, meeple="red")
    state, texts = play(state, 0, "meeple e5")
    assert "Player 1 places a red meeple on e5 (2 of 4 sections taken: a full card pays 4)." \
        in texts
    mined = table(phase="meeple", pending=M["red"])
    card(mined, "e5", "green", 4, meeples=1, meeple="red", mine=3)
    mined, texts = play(mined, 0, "meeple e5")
    assert any("a landmine blocks one, so it cannot fill until the landmine is removed" in t
               for t in texts)
    full = table(phase="place", held=[card_code(C["red"], 2), -1])
    card(full, "e5", "green", 4, bomb="red")
    full.meeple_bag = [0, 0, 0, 0]
    full, texts = play(full, 0, "place e6")
    assert "No bomb is drawn: every card already holds a bomb." not in texts
    full, texts = play(full, 0, "bomb e6")
    assert "No meeple is drawn: every meeple is on the table." in texts
    busy = table(phase="place", held=[card_code(C["red"], 2), -1])
    card(busy, "e5", "green", 4, bomb="red")
    busy.bomb_bag = [0] * 6
    force(busy, M["red"])
    busy, texts = play(busy, 0, "place e6")
    assert "No bomb is drawn: the bomb bag is empty." in texts


def test_a_won_attack_says_each_payout_what_was_cleared_and_the_token() -> None:
    state = battle(3, red=6, crystals=[5, 5, 6])
    state.tower[INDEX["f5"]], state.mine[INDEX["f5"]] = True, 2
    state, _ = play(state, 0, "attack f5 from e5")
    state, _ = play(state, 1, "bet 5")
    force(state, 1)
    state, texts = play(state, 2, "bet 6")
    said = [
        "Player 3 earns 2 crystals for the guess furthest from the green die (6).",
        "Player 1 wins a blue token for the attack on the blue card on f5.",
        "e5 and f5 are cleared: 3 meeples and 2 bombs go back to their bags, 1 lookout tower "
        "to the shop and 1 landmine out of the game.",
        "Player 1 earns 1 crystal for the 1 meeple on f5.",
        "Player 3 earns 1 crystal more for the furthest guess, as the attack was won."]
    assert [t for t in texts if t in said] == said


def test_a_token_card_and_an_empty_token_supply_say_so() -> None:
    state = battle(2, red=6, crystals=[5, 0])
    i = INDEX["f5"]
    state.meeples[i], state.meeple_colour[i], state.bomb[i] = 0, -1, -1
    state.colour[i], state.token[i] = C["green"], 1
    force(state, 1)
    state, texts = play(state, 0, "attack f5 from e5")
    assert "Player 1 wins a green token for the attack on the green card on f5, the token " \
           "that lay on it." in texts
    assert "Player 1 earns 8 crystals for the token card on f5 (3 sections + 5)." in texts
    none_left = battle(2, red=6, crystals=[5, 0])
    none_left.token_supply[C["blue"]] = 0
    force(none_left, 1)
    none_left, texts = play(none_left, 0, "attack f5 from e5")
    assert "No blue token is left to win." in texts and none_left.tokens[0] == []


def test_a_set_of_four_says_the_bonus_the_spares_and_the_tokens_that_go_back() -> None:
    state = battle(2, red=6, crystals=[5, 0])
    state.tokens[0] = [C["red"], C["green"], C["red"], C["yellow"]]
    card(state, "a1", "red", 2)
    force(state, 1)
    state, texts = play(state, 0, "attack f5 from e5")
    assert "Player 1 holds a set of four token colours (red, green, yellow and blue); the " \
           "spare red token goes back for others to win." in texts
    assert "Player 1 earns 10 crystals for the set of four tokens." in texts
    assert "Player 1 now lays each set token on an empty card of its colour." in texts
    state, texts = play(state, 0, "token a1", "token f5")
    assert "No empty green and yellow card is on the table, so those tokens go back to the " \
           "supply." in texts
    assert state.tokens[0] == [] and state.sets[0] == [C["red"], C["green"], C["yellow"],
                                                       C["blue"]]
    assert state.token_supply[C["green"]] == 9 and state.turn == 1


def test_a_challenge_says_what_it_cost_and_what_the_meeple_did() -> None:
    _, texts = challenged("blue")
    assert "Player 2 challenges, paying 2 crystals: 1 to the bank and 1 to Player 1, and " \
           "draws a blue meeple (it goes back in the bag)." in texts
    assert "A blue meeple: the battle is lost and nothing is cleared; Player 2 sacrifices 5 " \
           "crystals to the bank." in texts
    _, texts = challenged("yellow")
    assert "Player 2 earns 3 crystals for drawing a yellow meeple in the challenge." in texts
    _, texts = challenged("green")
    assert "A green meeple: the battle is lost and nothing is cleared, and the turn goes to " \
           "Player 2." in texts


def test_a_sale_says_who_paid_whom_and_names_the_card_to_the_buyer_alone() -> None:
    state = table(3, phase="start", for_sale=[[K["bomb"], K["bomb"], K["bomb"]], [], []])
    card(state, "e5", "red", 6)
    state, _ = play(state, 0, "sell")
    state, _ = play(state, 2, "no buy")
    state, events = GAME.play(state, 1, "buy")
    public = [e.text for e in events if e.to is None]
    assert "Player 2 pays Player 1 1 crystal for a mint tin card, face down." in public
    assert not any("'bomb'" in t for t in public)
    assert any(e.to == {1} and "You buy a 'bomb' card" in e.text for e in events)


def test_shop_do_overs_and_landmine_removal_say_what_they_cost() -> None:
    state = table(crystals=[10, 5])
    card(state, "e5", "green", 3, meeples=1, meeple="red", mine=4)
    card(state, "e6", "green", 3)
    state, texts = play(state, 0, "landmine")
    assert "Player 1 buys a landmine for 2 crystals and chooses a card's free section for it." \
        in texts
    state, texts = play(state, 0, "landmine e6")
    assert "Player 1 lays the landmine on e6: it blocks a section, so the card cannot be " \
           "filled until someone removes it." in texts
    state, texts = play(state, 0, "unmine e5", "airplane")
    assert "Player 1 pays 3 crystals to remove the landmine on e5; it leaves the game." in texts
    assert "Player 1 buys an airplane for 5 crystals (it flies from the next turn, the first " \
           "turn free)." in texts and state.crystals[0] == 0
    skip = table(phase="meeple", pending=M["blue"], meepled=False)
    card(skip, "e5", "green", 3, meeples=2, meeple="red", mine=4)
    skip, texts = play(skip, 0, "clear e5")
    assert "Player 1 gives up this turn's meeple to remove the landmine on e5: the drawn " \
           "meeple and one of its meeples go back in the bag, and the landmine leaves the " \
           "game." in texts
    redo = table(phase="bomb", pending=C["red"], then="meeple")
    card(redo, "e5", "green", 3)
    force(redo, C["orange"])
    redo, texts = play(redo, 0, "redraw bomb")
    assert "Player 1 pays 1 crystal (the turn's one do-over) to draw the bomb again: orange." \
        in texts


def test_a_switch_keep_and_continue_say_what_happened() -> None:
    state = table()
    card(state, "e5", "red", 2, bomb="red", meeples=2)
    card(state, "e6", "red", 2, bomb="green")
    state, texts = play(state, 0, "switch", "switch e6", "with e5")
    assert ("Player 1 picks the green bomb on e6 to switch: 'with' and the place of another "
            "bomb, or 'with bag' for one drawn blind.") in texts
    assert "Player 1 switches the green bomb on e6 with the red bomb on e5; the turn ends." \
        in texts
    kept = table(phase="place", held=[card_code(C["red"], 6), -1])
    card(kept, "e5", "green", 3)
    kept, texts = play(kept, 0, "keep")
    assert "Player 1 keeps their square card back, face down, since no place takes it for " \
           "free; the turn ends." in texts
    empty = table(phase="start", deck=[])
    card(empty, "e5", "green", 3)
    force(empty, M["blue"])
    empty, texts = play(empty, 0, "continue")
    assert "Player 1 places no square card: the square cards are used up." in texts


def test_an_end_by_time_names_who_wins_or_the_draw() -> None:
    """The turn limit and a round without earnings end the game on most crystals: the
    outcome's sentence says who that is, as an end by 75 crystals does."""
    state = GAME.new(players=3, seed=5)
    state.result = "The square cards are used up and nobody earned for a whole round; " \
                   "most crystals wins."
    state.crystals = [12, 30, 7]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {1}
    assert outcome.reason.endswith("most crystals wins. Player 2 wins with 30 crystals.")
    state.crystals = [30, 30, 7]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {0, 1}
    assert outcome.reason.endswith("A draw between Player 1 and Player 2, with 30 crystals "
                                   "each.")


# --------------------------------------------------------------------------- issue 38


def test_an_attack_in_reach_is_made_before_any_meeple_moves() -> None:
    """'If an attack can be made ... an attack must happen': after a roll with a target in
    reach, the list offers the attacks and the do-over, not a move of meeples whose filling
    reroll could take the attack away; the roll's sentence says so."""
    state = table(phase="act")
    card(state, "e5", "red", 2, bomb="red", meeples=2, meeple="blue")
    card(state, "f5", "blue", 3, bomb="green", meeples=2, meeple="blue")
    card(state, "g5", "blue", 3, meeples=1, meeple="blue")
    force(state, 4, 2, 3)
    state, texts = play(state, 0, "roll")
    assert "Player 1 rolls red 4, blue 2 and yellow 3: a target is in reach, so an attack " \
           "must be made (no meeple moves first)." in texts
    legal = GAME.legal_moves(state, 0)
    assert "attack f5 from e5" in legal and "done" not in legal
    assert not any(m.startswith(("from ", "to ")) for m in legal)
    assert any(m.startswith("reroll") for m in legal)
    refused(state, 0, "from f5", IllegalMove, "A target is in reach, and an attack in reach "
            "must be made: attack first (meeples do not move before it), or reroll as your "
            "do-over. After the roll: type 'attack f5 from e5' or 'reroll red' (1 of 7; costs "
            "1 crystal).")
    # a move of another step names this one as it is: the attack first, no meeple move
    refused(state, 0, "roll yellow", IllegalMove, "You can't 'roll yellow' now: your turn is "
            "after the roll, with a target in reach: an attack in reach must be made (a "
            "do-over may come first). After the roll: type 'attack f5 from e5' or 'reroll "
            "red' (1 of 7; costs 1 crystal).")
    out_of_reach = table(phase="act")
    card(out_of_reach, "e5", "red", 2, bomb="red", meeples=2, meeple="blue")
    card(out_of_reach, "f5", "blue", 3, meeples=2, meeple="blue")
    card(out_of_reach, "g5", "blue", 3, bomb="green")
    force(out_of_reach, 4, 1, 3)
    out_of_reach, texts = play(out_of_reach, 0, "roll")
    assert "Player 1 rolls red 4, blue 1 and yellow 3: no target is in reach of the blue " \
           "die." in texts
    assert {"done", "from f5"} <= set(GAME.legal_moves(out_of_reach, 0))
    guide = " ".join((Path(rules.__file__).parent / "guides" / "bomb-squares.md").read_text(
        encoding="utf-8").split())
    assert "After a roll you must attack if a target is in reach, and meeples do not move " \
           "before the attack (a do-over reroll may come first)" in guide  # as in play


def test_attacking_from_a_token_card_says_the_token_is_destroyed() -> None:
    """A won attack clears both cards, so attacking from a token card destroys its token:
    the list says so beside the attack, and the attack and the clearing say it again."""
    state = table(phase="rolled", dice=[6, 1, 1, 0], crystals=[5, 0])
    card(state, "e5", "red", 2, token=1)  # counts as filled with a red bomb
    card(state, "f5", "blue", 3, bomb="green", meeples=1, meeple="yellow")
    supply = state.token_supply[C["red"]]
    assert GAME.notes(state, 0)["attack f5 from e5"] == \
        "a win clears the token card e5, token and all"
    force(state, 1)
    state, texts = play(state, 0, "attack f5 from e5")
    assert "Player 1 attacks the green bomb on f5 from e5 with power 6 (attacking from a " \
           "token card: a win clears e5 and destroys its token, which goes back to the " \
           "supply)." in texts
    assert "e5 and f5 are cleared: 1 meeple and 1 bomb go back to their bags and the red " \
           "token on e5 back to the supply (it attacked, so its token is destroyed)." in texts
    assert not state.token[INDEX["e5"]] and state.token_supply[C["red"]] == supply + 1


def test_a_second_square_card_says_it_gets_no_bomb_or_meeple() -> None:
    state = table(deck=[card_code(C["red"], 1)] * 3)
    card(state, "e5", "green", 6, bomb="red", meeples=1, meeple="blue")
    assert GAME.notes(state, 0)["second card"] == "no bomb or meeple for it; ends your turn"
    state, _ = play(state, 0, "second card")
    state, texts = play(state, 0, "place e4")
    assert "Player 1 places a 1-section red card on e4, free beside a card with as many " \
           "sections or more; a second square card gets no bomb or meeple, and the turn " \
           "ends." in texts
    assert state.turn == 1 and state.bomb[INDEX["e4"]] < 0


def test_the_meeple_list_groups_by_card_and_says_how_full_it_leaves_it() -> None:
    state = table(phase="meeple", pending=M["red"], meepled=False, then="act",
                  deck=[card_code(C["red"], 1)])
    card(state, "e5", "green", 3, bomb="red", meeples=1, meeple="red")
    card(state, "f5", "blue", 2)
    notes = GAME.notes(state, 0)
    assert list(notes)[:4] == ["meeple e5", "meeple e5 roll yellow", "meeple e5 done",
                               "meeple e5 second card"]
    heads = [" ".join(m.split()[:2]) for m in notes if m.startswith("meeple")]
    assert heads == sorted(heads, key=heads.index) and len(set(heads)) == 2
    grouped = [h for n, h in enumerate(heads) if n == 0 or heads[n - 1] != h]
    assert grouped == ["meeple e5", "meeple f5"]  # each card's moves together
    assert notes["meeple e5"] == "2 of 3 sections taken"
    assert notes["meeple e5 buy meeple e5 roll yellow"] == "fills e5: +3 crystals"
    assert notes["meeple f5 done"] == "1 of 2 sections taken; ends your turn"
    assert GAME.costs(state, 0)["meeple e5 buy meeple e5 done"] == "costs 1 crystal"


def test_the_hints_example_of_a_word_is_a_free_move_where_one_is_free() -> None:
    """What to type names, for each first word, a move of it that costs nothing where one
    does (its cost beside it only where every such move costs)."""
    met = 0
    for state in random_states(2, 3, every=2):  # (the costs tests' game, played once)
        for seat in sorted(GAME.to_act(state)):
            moves, costs = GAME.legal_moves(state, seat), GAME.costs(state, seat)
            hint = GAME.notation_hint(state, seat)
            for verb in {m.split()[0] for m in moves} - {"bet"}:
                found = [m for m in moves if m.split()[0] == verb]
                free = [m for m in found if m not in costs]
                if free and found[0] in costs:
                    met += 1
                    assert f"'{free[0]}'" in hint and f"'{found[0]}'" not in hint, hint
    assert met, "random play met a word whose first move costs and another is free"


def test_what_is_laid_bought_or_switched_says_why_a_card_will_not_take_it() -> None:
    """At the step that lays a landmine or a tower, or picks the bomb to switch with, a
    card that will not take it is refused for the card, not for the step; a bet is refused
    for the step where no bet is on; a sale nobody can buy from says so."""
    mine = table(phase="landmine")
    card(mine, "e5", "green", 3, bomb="red", tower=True)
    card(mine, "e6", "green", 3)
    refused(mine, 0, "landmine e5", IllegalMove, "A landmine goes on a card with a free "
            "section, no landmine and no lookout tower, and e5 has a lookout tower. Your "
            "landmine: type 'landmine e6'.")
    tower = table(phase="tower")
    card(tower, "e5", "green", 3, bomb="red")
    card(tower, "e6", "green", 3)
    refused(tower, 0, "tower e6", IllegalMove, "A lookout tower stands on a card's bomb, one a "
            "card and none on a token card, and e6 has no bomb. Your lookout tower: type "
            "'tower e5'.")
    bomb = table(phase="bomb", pending=C["red"])
    card(bomb, "e6", "green", 3)
    refused(bomb, 0, "bet 2", IllegalMove, "You can't 'bet 2' now: your turn is at putting "
            "the bomb you drew on a card. The bomb drawn: type 'bomb e6' or 'redraw bomb' "
            "(costs 1 crystal).")
    start = table(phase="start")
    start.crystals = [5, 0]
    refused(start, 0, "sell", IllegalMove, "Nobody can buy from you now (a buyer needs a "
            "crystal and fewer than 2 bought cards, and you need cards for sale), so there is "
            "no sale this turn. Start your turn: type 'continue'.")
    switch = table(phase="switch", source=INDEX["e5"])
    card(switch, "e5", "green", 3, bomb="red")
    card(switch, "e6", "green", 3, bomb="red")
    card(switch, "d5", "green", 3, bomb="blue")
    refused(switch, 0, "with e6", IllegalMove, "The bomb on e6 is red like yours: a switch "
            "takes a bomb of another colour from another card, or one from the bag ('with "
            "bag'). The bomb switch: type 'with d5' (1 of 2).")
    refused(switch, 0, "switch d5", IllegalMove, "You are switching the bomb on e5: say what "
            "with ('with f6' or 'with bag'). The bomb switch: type 'with d5' (1 of 2).")


def test_a_refusal_quotes_the_word_typed_beside_the_move_it_means() -> None:
    """'pass' at the start of a turn was refused as "You can't 'done' now", as if the
    player had been misheard."""
    state = GAME.new(2, 5)
    seat = min(GAME.to_act(state))
    with pytest.raises(IllegalMove, match=r"^You can't 'pass' \('done'\) now: your turn is "
                                          r"at its start"):
        GAME.play(state, seat, "pass")
    with pytest.raises(IllegalMove, match=r"^You can't 'done' now: "):  # no alias, as before
        GAME.play(state, seat, "done")


def test_roll_yellow_says_it_ends_the_turn_where_no_meeple_could_move() -> None:
    """A first-time player read 'roll yellow' as a move with no card of two meeples to
    move from: its note says the roll changes nothing then."""
    state = table()
    card(state, "e5", "red", 2, bomb="red", meeples=1)
    card(state, "e6", "red", 3)
    assert GAME.notes(state, 0)["roll yellow"] == \
        "no meeple can move, whatever it shows; ends your turn"
    state.meeples[INDEX["e5"]] = 2  # one of them may now go to e6, 1 away
    assert GAME.notes(state, 0)["roll yellow"] == ""
    card(state, "e6", "red", 3, meeples=1, meeple="red")  # another colour's: nowhere
    assert "ends your turn" in GAME.notes(state, 0)["roll yellow"]
