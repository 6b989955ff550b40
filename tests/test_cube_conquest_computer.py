"""Cube Conquest's knowledge for the computer players: the cards everyone knows a player
holds, ``evaluate``, the playouts' default policy, the remark, and the rule-based players.

Board pictures put row 5 at the top, like the image players see.
"""

from __future__ import annotations

import random

import rules
from benchmarks.people import cube_conquest as people
from rules import computer
from tests.test_cube_conquest import BLUE, RED, S, position

GAME = rules.GAMES["cube-conquest"]


def arrow_taken_back() -> rules.cube_conquest.CubeState:
    """Red took an arrow back last turn; Blue to play.

        5 . . . . .
        4 . . . . .
        3 . R . . .      Red on b3, Blue on a1 and b1; a2 and b2 are crown tiles
        2 . . . . .
        1 B B . . .
    """
    state = position(tiles="b2=crown a2=crown",
                     cubes={"b3": (RED, 1), "a1": (BLUE, 1), "b1": (BLUE, 1)},
                     hands=[["crown", "drop", "drop", "hammers"],
                            ["drop", "hammers", "circles", "bricks"]],
                     discards=[[], ["arrow"]], turn=RED,
                     decks=[["drop"] * 10, ["drop", "drop", "arrow", "arrow"] * 3])
    state, _ = GAME.play(state, RED, "prepare drop hammers take arrow")
    return state


def test_everyone_knows_a_card_taken_back_until_it_is_played() -> None:
    state = arrow_taken_back()
    assert GAME.view(state, None)["shown"] == [[], ["arrow"]]
    assert GAME.view(state, BLUE)["shown"] == [[], ["arrow"]]
    # whatever Blue imagines of Red's hand, the arrow is in it
    for seed in range(20):
        assert S["arrow"] in GAME.determinize(state, BLUE, seed).hands[RED]
    state, _ = GAME.play(state, BLUE, "move a1 a2 with drop")
    state, _ = GAME.play(state, RED, "move b3 b5 with arrow")
    assert GAME.view(state, None)["shown"] == [[], []]


def test_a_card_taken_back_and_picked_in_secret_stays_known_until_the_fight_shows_it() -> None:
    state = arrow_taken_back()
    state, _ = GAME.play(state, BLUE, "move a1 a3 with hammers")
    state, _ = GAME.play(state, RED, "attack a3 from b3")
    state, _ = GAME.play(state, RED, "pick arrow")
    assert GAME.view(state, BLUE)["shown"] == [[], ["arrow"]]  # the pick tells nothing
    for seed in range(10):
        world = GAME.determinize(state, BLUE, seed)
        assert S["arrow"] in world.hands[RED] + [world.attack["attacker_card"]]
    state, _ = GAME.play(state, BLUE, "pick crown")
    assert GAME.view(state, None)["shown"] == [[], []]


def test_nobody_reinforces_a_lone_cube_beside_a_cube_whose_owner_holds_an_arrow() -> None:
    """Blue may add a cube on b2 (next to Red's cube on b3, whose arrow is known) or on
    a2 (out of its reach): every level that thinks, and the playouts, choose a2 (or no
    reinforcement at all)."""
    state = arrow_taken_back()
    legal = GAME.legal_moves(state, BLUE)
    assert {"reinforce a2 with crown", "reinforce b2 with crown"} <= set(legal)
    for level in ("normal", "hard"):
        for seed in range(3):
            chosen = computer.choose(GAME, state, BLUE, level=level, seed=seed, budget=60)
            assert chosen != "reinforce b2 with crown", (level, seed)
    world = GAME.determinize(state, BLUE, 1)
    moves = GAME.moves(world, BLUE)
    for seed in range(10):
        assert GAME.policy(world, BLUE, moves, random.Random(seed)) != "reinforce b2 with crown"


def test_a_fight_surely_won_is_taken() -> None:
    """Blue's arrow beats anything Red's lone cube on b3 (a bricks tile) can put up."""
    state = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1), "e5": (RED, 1)},
                     hands=[["arrow", "drop", "drop", "hammers"], ["crown", "drop"]])
    moves = GAME.moves(state, BLUE)
    assert GAME.policy(state, BLUE, moves, random.Random(1)) == "attack b3 from b2"
    assert computer.choose(GAME, state, BLUE, level="normal", seed=1) == "attack b3 from b2"
    assert computer.choose(GAME, state, BLUE, level="hard", seed=1, budget=60) \
        == "attack b3 from b2"


def test_the_playouts_take_the_arrow_back_and_fight_with_their_best_card() -> None:
    state = position(cubes={"b2": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["drop", "hammers", "circles", "bricks"], ["crown"]],
                     discards=[["arrow"], []])
    moves = GAME.moves(state, BLUE)
    assert GAME.policy(state, BLUE, moves, random.Random(1)) == \
        "prepare drop hammers take arrow"
    # Red's bricks on the bricks tile b3 defends at 5, as much as its crown, and is cheaper
    duel = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1), "e5": (RED, 1)},
                    hands=[["arrow", "drop"], ["drop", "bricks", "crown"]])
    duel, _ = GAME.play(duel, BLUE, "attack b3 from b2")
    assert GAME.policy(duel, RED, GAME.moves(duel, RED), random.Random(1)) == "pick bricks"
    assert GAME.policy(duel, BLUE, GAME.moves(duel, BLUE), random.Random(1)) == "pick arrow"
    # an Outpost puts up its two best and uses the cheapest that wins
    post = position(cubes={"b2": (BLUE, 1), "b3": (RED, 2), "e5": (RED, 1)},
                    hands=[["crown", "drop"], ["drop", "bricks", "arrow"]])
    post, _ = GAME.play(post, BLUE, "attack b3 from b2")
    assert GAME.policy(post, RED, GAME.moves(post, RED), random.Random(1)) == \
        "pick bricks arrow"
    post, _ = GAME.play(post, RED, "pick bricks arrow")
    post, _ = GAME.play(post, BLUE, "pick crown")
    assert GAME.policy(post, RED, GAME.moves(post, RED), random.Random(1)) == "use bricks"


def test_evaluate_counts_the_strike_of_the_player_to_move() -> None:
    """The same board, Blue's cube beside Red's: worse for Blue when Red is to move with an
    arrow than when Blue is."""
    hands = [["drop", "drop", "drop", "drop"], ["arrow", "drop", "drop", "drop"]]
    cubes = {"b2": (BLUE, 1), "b3": (RED, 1), "a1": (BLUE, 1), "e5": (RED, 1)}
    reds_turn = position(cubes=cubes, hands=hands, turn=RED)
    blues_turn = position(cubes=cubes, hands=hands, turn=BLUE)
    assert GAME.evaluate(reds_turn, BLUE) < GAME.evaluate(blues_turn, BLUE)


def test_the_remark_names_the_attack_and_the_chance_and_nothing_hidden() -> None:
    state = position(cubes={"b2": (BLUE, 1), "b3": (RED, 2), "e5": (RED, 1)},
                     hands=[["arrow", "drop", "drop", "hammers"], ["crown", "drop"]],
                     discards=[[], ["arrow", "drop"]])
    public = GAME.view(state, None)
    line = GAME.remark(public, BLUE, "attack b3 from b2", 0.8)
    assert line == ("Blue attacks Red's Outpost on b3 from b2, expecting to win (80%); 1 of "
                    "Red's 3 arrows are in their discard pile.")
    assert "hammers" not in line and "crown" not in line  # no card of a hand
    assert GAME.remark(public, BLUE, "attack b3 from b2", 0.3).startswith(
        "Blue attacks Red's Outpost on b3 from b2, taking a chance (30%)")
    assert GAME.remark(public, BLUE, "prepare drop drop take arrow", None) == (
        "Blue takes an arrow back from their discard pile: an arrow (6) wins most fights.")
    assert GAME.remark(public, BLUE, "move b2 a2 with drop", 0.6) is None
    assert GAME.remark(public, BLUE, "pick arrow", 0.9) is None  # a secret pick stays secret


def test_the_remark_on_an_outpost_next_to_the_enemy() -> None:
    state = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1), "a1": (BLUE, 1)},
                     hands=[["bricks"], ["drop"]])
    public = GAME.view(state, None)
    assert GAME.remark(public, BLUE, "outpost b2 with bricks", None) == (
        "Blue makes an Outpost on b2, next to enemy cubes: it defends at +1, with two cards "
        "to choose from.")
    assert GAME.remark(public, BLUE, "outpost a1 with bricks", None) is None


def test_the_rule_based_players_play_legal_moves() -> None:
    for n, (name, person) in enumerate(sorted(people.PEOPLE.items())):
        state = GAME.new(2, 40 + n)
        rng = random.Random(n)
        for _ in range(60):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.to_act(state))
            legal = GAME.moves(state, seat)
            move = person(GAME.view(state, seat), list(legal), rng)
            assert move in legal, (name, move)
            state, _ = GAME.play(state, seat, move, legal=legal)
