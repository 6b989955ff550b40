"""Cube Conquest: one scenario per rule of the brief, from positions built with ``load``.

Board pictures in the docstrings put row 5 at the top, like the image players see.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest

import rules
from bot import undo
from rules import GameOver, IllegalMove, InvalidMove, NotYourTurn
from rules.cube_conquest import INDEX, SQUARES, SYMBOLS, TURN_LIMIT, CubeState
from tests.refusals import assert_refused

GAME = rules.GAMES["cube-conquest"]
S = {name: n for n, name in enumerate(SYMBOLS)}  # symbol name -> index
BLUE, RED = 0, 1


def position(*, tiles: str = "", cubes: dict[str, tuple[int, int]] | None = None,
             hands: list[list[str]] | None = None, face_down: str = "",
             decks: list[list[str]] | None = None, discards: list[list[str]] | None = None,
             turn: int = BLUE, players: int = 2, points: list[int] | None = None,
             **extra: Any) -> CubeState:
    """A position in the action phase. ``tiles`` lists 'square=symbol' pairs; unnamed
    squares hold bricks. Every tile is face up unless listed in ``face_down``."""
    layout = [S["bricks"]] * 25
    for pair in tiles.split():
        square, symbol = pair.split("=")
        layout[INDEX[square]] = S[symbol]
    owner, height = [-1] * 25, [0] * 25
    for square, (seat, count) in (cubes or {}).items():
        owner[INDEX[square]], height[INDEX[square]] = seat, count
    hidden = {INDEX[sq] for sq in face_down.split()}
    ndecks = 1 if players > 2 else players
    data: dict[str, Any] = {
        "players": players, "seed": 99, "draws": 0, "start": BLUE, "turn": turn,
        "phase": "action", "tiles": layout, "face_up": [i not in hidden for i in range(25)],
        "owner": owner, "height": height,
        "decks": [[S[c] for c in d] for d in (decks or [["drop"] * 10] * ndecks)],
        "discards": [[S[c] for c in d] for d in (discards or [[]] * players)],
        "hands": [sorted(S[c] for c in h) for h in (hands or [[]] * players)],
        "points": points or [0] * players,
        "supply": [12 - sum(h for o, h in zip(owner, height, strict=True) if o == p)
                   for p in range(players)],
        "placed": 2 * players, "attack": None, "last": [], "last_action": None,
        "result": None,
    }
    data.update(extra)
    return GAME.load(data)


def cubes_of(state: CubeState, seat: int) -> dict[str, int]:
    return {SQUARES[i]: state.height[i] for i in range(25) if state.owner[i] == seat}


refused = partial(assert_refused, GAME)


# --------------------------------------------------------------------------- setup


def test_setup_deals_25_face_down_tiles_and_18_card_decks() -> None:
    state = GAME.new(players=2, seed=5)
    assert len(state.tiles) == 25 and not any(state.face_up)
    assert max(Counter(state.tiles).values()) <= 6  # 36 tiles: 6 of each symbol
    assert [Counter(d) for d in state.decks] == [Counter({s: 3 for s in range(6)})] * 2
    assert state.phase == "setup" and GAME.to_act(state) == {state.start}


def test_the_start_player_is_random() -> None:
    starts = {GAME.new(players=2, seed=seed).start for seed in range(20)}
    assert starts == {0, 1}


def test_three_or_four_players_share_one_deck_of_54() -> None:
    state = GAME.new(players=4, seed=1)
    assert len(state.decks) == 1 and Counter(state.decks[0]) == Counter(
        {s: 9 for s in range(6)})


def test_each_player_places_two_cubes_on_their_own_edge_revealing_the_tile() -> None:
    state = GAME.new(players=2, seed=2)
    first = state.start
    assert sorted(GAME.legal_moves(state, first)) == sorted(
        f"place {sq}" for sq in (["a1", "b1", "c1", "d1", "e1"] if first == BLUE
                                 else ["a5", "b5", "c5", "d5", "e5"]))
    wrong = "c3"
    edge = "the south edge (row 1)" if first == BLUE else "the north edge (row 5)"
    refused(state, first, f"place {wrong}", IllegalMove,
            f"Your starting cubes go on your edge, {edge}.")
    square = "b1" if first == BLUE else "b5"
    state, events = GAME.play(state, first, f"place {square}")
    assert state.face_up[INDEX[square]]
    assert any(e.kind == "reveal" for e in events)
    refused(state, first, f"place {square}", IllegalMove, f"{square} already holds a cube.")
    state, _ = GAME.play(state, first, GAME.legal_moves(state, first)[0])
    other = 1 - first
    assert GAME.to_act(state) == {other}
    for _ in range(2):
        state, _ = GAME.play(state, other, GAME.legal_moves(state, other)[0])
    assert state.phase == "action" and state.turn == first
    # everyone draws an opening hand as setup ends (see the issue-16 tests below)
    assert len(state.hands[first]) == 4 and len(state.hands[other]) == 4


# --------------------------------------------------------------------------- drawing


def test_a_turn_begins_by_drawing_up_to_four_cards() -> None:
    state = position(cubes={"a1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["drop", "crown", "arrow", "bricks"], ["drop"]],
                     decks=[["drop"] * 5, ["hammers", "circles", "arrow", "crown"]])
    state, events = GAME.play(state, BLUE, "move a1 a2 with drop")
    assert sorted(state.hands[RED]) == sorted([S["drop"], S["crown"], S["arrow"], S["circles"]])
    private = [e for e in events if e.to == {RED}]
    public = [e.text for e in events if e.to is None]
    assert private and "crown" in private[0].text
    assert "Red draws 3 cards." in public and not any("crown (5)" in t for t in public[-1:])


def test_an_empty_deck_is_refilled_by_shuffling_the_discard_pile() -> None:
    state = position(cubes={"a1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["drop", "crown", "arrow", "bricks"], ["drop", "drop"]],
                     decks=[["drop"] * 5, ["arrow"]],
                     discards=[[], ["hammers", "hammers", "circles"]])
    state, events = GAME.play(state, BLUE, "move a1 a2 with drop")
    assert len(state.hands[RED]) == 4
    assert Counter(state.hands[RED] + state.decks[RED]) == Counter(
        [S["drop"], S["drop"], S["arrow"], S["hammers"], S["hammers"], S["circles"]])
    assert state.discards[RED] == []
    assert "Red shuffles their discard pile into a new deck." in [e.text for e in events]


def test_when_no_card_is_left_to_draw_the_player_goes_on_with_fewer() -> None:
    state = position(cubes={"a1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["drop", "crown", "arrow", "bricks"], ["drop"]],
                     decks=[["drop"] * 5, []], discards=[[], []])
    state, _ = GAME.play(state, BLUE, "move a1 a2 with drop")
    assert state.turn == RED and state.hands[RED] == [S["drop"]]


# --------------------------------------------------------------------------- moving


def test_a_cube_moves_up_to_the_pips_and_may_stop_early_and_turn() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["circles", "drop", "drop", "drop"], []])
    legal = GAME.legal_moves(state, BLUE)
    assert "move b1 b4 with circles" in legal  # 3 straight up
    assert "move b1 c3 with circles" in legal  # up and then right: 3 spaces
    assert "move b1 b2 with circles" in legal  # stopping early
    assert "move b1 b5 with circles" not in legal  # 4 spaces
    refused(state, BLUE, "move b1 b5 with circles", IllegalMove,
            "b5 is 4 spaces away; circles moves at most 3.")


def test_moving_diagonally_counts_two_spaces() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["drop", "drop", "drop", "drop"], []])
    refused(state, BLUE, "move b1 c2 with drop", IllegalMove,
            "c2 is 2 spaces away; drop moves at most 1.")


def test_a_cube_never_passes_enemy_cubes_but_passes_its_own() -> None:
    """
    row 3:  .  R  .
    row 2:  R  B  R      Blue b2 is walled in by Red on a2, c2 and b3, and by Blue b1.
    row 1:  .  B  .
    """
    state = position(cubes={"b2": (BLUE, 1), "b1": (BLUE, 1), "a2": (RED, 1),
                            "c2": (RED, 1), "b3": (RED, 1)},
                     hands=[["arrow", "drop", "drop", "drop"], []])
    legal = GAME.legal_moves(state, BLUE)
    assert "move b2 a1 with arrow" in legal  # through its own cube on b1
    assert "move b2 d3 with arrow" in legal  # around the wall: b1 c1 d1 d2 d3
    assert "move b2 b4 with arrow" not in legal  # 8 spaces around the wall
    refused(state, BLUE, "move b2 c2 with arrow", IllegalMove,
            "c2 is occupied; attack an enemy instead of moving onto it.")


def test_enemies_can_block_every_route() -> None:
    state = position(cubes={"a1": (BLUE, 1), "a2": (RED, 1), "b1": (RED, 1)},
                     hands=[["arrow", "drop", "drop", "drop"], []])
    refused(state, BLUE, "move a1 c3 with arrow", IllegalMove,
            "Enemy cubes block every route from a1 to c3.")


def test_face_down_tiles_are_revealed_as_the_cube_moves_onto_them() -> None:
    state = position(tiles="b2=crown b3=arrow", cubes={"b1": (BLUE, 1), "e5": (RED, 1)},
                     face_down="b2 b3 d4", hands=[["circles", "drop", "drop", "drop"], []])
    after, events = GAME.play(state, BLUE, "move b1 b3 with circles")
    assert after.face_up[INDEX["b2"]] and after.face_up[INDEX["b3"]]
    assert not after.face_up[INDEX["d4"]]
    assert ("Revealed: b2 crown and b3 arrow (a tile's own cards reinforce there and defend "
            "it at +1).") in [e.text for e in events]
    _, alone = GAME.play(position(tiles="b2=crown", cubes={"b1": (BLUE, 1)},
                                  face_down="b2", hands=[["drop"], []]),
                         BLUE, "move b1 b2 with drop")
    assert ("b2 is revealed: a crown tile (crown cards reinforce there and defend it at +1)."
            ) in [e.text for e in alone]
    assert not any("d4" in e.text for e in events)  # only the tiles entered
    assert after.discards[BLUE] == [S["circles"]]
    assert cubes_of(after, BLUE) == {"b3": 1}


def test_an_outpost_cannot_move() -> None:
    state = position(cubes={"b1": (BLUE, 2), "e5": (RED, 1)},
                     hands=[["arrow", "drop", "drop", "drop"], []])
    refused(state, BLUE, "move b1 b2 with arrow", IllegalMove, "An Outpost cannot move.")


def test_a_card_you_do_not_hold_cannot_be_played() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["drop", "drop", "hammers", "hammers"], []])
    refused(state, BLUE, "move b1 b3 with crown", IllegalMove,
            "You hold no crown card. Your hand: drop, drop, hammers and hammers.")


# --------------------------------------------------------------------------- prepare


def test_prepare_discards_two_cards_to_take_one_back_from_the_discard_pile() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["drop", "hammers", "circles", "bricks"], []],
                     discards=[["arrow"], []])
    after, _ = GAME.play(state, BLUE, "prepare drop hammers take arrow")
    assert sorted(after.hands[BLUE]) == sorted([S["circles"], S["bricks"], S["arrow"]])
    assert sorted(after.discards[BLUE]) == [S["drop"], S["hammers"]]
    refused(state, BLUE, "prepare drop hammers take crown", IllegalMove,
            "Your discard pile has no crown to take back.")


# --------------------------------------------------------------------------- reinforce


def test_reinforce_adds_a_cube_on_a_matching_empty_tile_next_to_yours() -> None:
    state = position(tiles="c2=crown c3=crown a1=drop", cubes={"b2": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], []])
    after, _ = GAME.play(state, BLUE, "reinforce c2 with crown")
    assert cubes_of(after, BLUE) == {"b2": 1, "c2": 1}
    assert after.supply[BLUE] == state.supply[BLUE] - 1
    refused(state, BLUE, "reinforce c3 with crown", IllegalMove,
            "c3 is not next to one of your cubes.")
    refused(state, BLUE, "reinforce b3 with crown", IllegalMove,
            "The tile on b3 is bricks, not crown.")


def test_reinforce_cannot_match_a_face_down_tile() -> None:
    state = position(tiles="c2=crown", cubes={"b2": (BLUE, 1), "e5": (RED, 1)},
                     face_down="c2", hands=[["crown", "drop", "drop", "drop"], []])
    refused(state, BLUE, "reinforce c2 with crown", IllegalMove,
            "c2 is face down; you can only match a revealed tile.")


def test_a_matching_card_on_your_own_cube_builds_an_outpost() -> None:
    state = position(tiles="b2=crown", cubes={"b2": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], []])
    after, events = GAME.play(state, BLUE, "outpost b2 with crown")
    assert cubes_of(after, BLUE) == {"b2": 2}
    assert "Outpost" in events[0].text
    # 'reinforce' on your own cube is understood as building the Outpost
    again, _ = GAME.play(state, BLUE, "Reinforce B2 with Crown")
    assert cubes_of(again, BLUE) == {"b2": 2}
    refused(after, BLUE, "move a1 a2 with drop", NotYourTurn,
            "It is not your turn: the game is waiting for seat 2.")


def test_no_cube_can_be_added_once_the_supply_is_empty() -> None:
    state = position(tiles="c2=crown", cubes={"b2": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], []], supply=[0, 11])
    refused(state, BLUE, "reinforce c2 with crown", IllegalMove, "You have no cubes left to add.")


# --------------------------------------------------------------------------- the attack


def duel(attacker: list[str], defender: list[str], *, tile: str = "bricks",
         outpost: bool = False, points: list[int] | None = None) -> CubeState:
    """Blue on b2 attacks Red on b3 (a ``tile`` tile)."""
    state = position(tiles=f"b3={tile}", cubes={"b2": (BLUE, 1), "b3": (RED, 2 if outpost else 1),
                                                "e5": (RED, 1), "a1": (BLUE, 1)},
                     hands=[attacker, defender], points=points)
    state, _ = GAME.play(state, BLUE, "attack b3 from b2")
    assert state.phase == "attack"
    return state


def test_both_players_choose_in_secret_at_the_same_time() -> None:
    state = duel(["crown", "drop", "drop", "drop"], ["arrow", "hammers"])
    assert GAME.to_act(state) == {BLUE, RED}
    # Red may choose first; Blue sees only that Red has chosen
    state, events = GAME.play(state, RED, "pick arrow")
    assert GAME.to_act(state) == {BLUE}
    public = " ".join(e.text for e in events if e.to is None)
    assert public == "Red has chosen." and "arrow" not in public
    assert "arrow" not in json.dumps(GAME.view(state, BLUE)["attack"])
    assert GAME.view(state, RED)["attack"]["defender_cards"] == ["arrow"]
    refused(state, RED, "pick hammers", NotYourTurn,
            "It is not your turn: the game is waiting for seat 1.")


def test_the_attacker_wins_ties_and_scores() -> None:
    state = duel(["circles", "drop", "drop", "drop"], ["circles", "hammers"])
    state, _ = GAME.play(state, BLUE, "pick circles")
    state, events = GAME.play(state, RED, "pick circles")
    assert cubes_of(state, RED) == {"e5": 1}
    assert state.points == [1, 0]
    assert cubes_of(state, BLUE) == {"b2": 1, "a1": 1}  # the winner does not move in
    texts = [e.text for e in events]
    assert ("Blue attacks with circles (3) = 3 against Red, who defends with circles (3) = 3. "
            "A tie goes to the attacker: Blue wins the fight.") in texts
    assert ("Red's cube on b3 is destroyed and goes back to Red's supply; Blue scores 1 point "
            "for the fight won (1 point now).") in texts


def test_a_greater_defence_destroys_the_attacking_cube() -> None:
    state = duel(["circles", "drop", "drop", "drop"], ["bricks", "hammers"])
    state, _ = GAME.play(state, BLUE, "pick circles")
    state, _ = GAME.play(state, RED, "pick bricks")
    assert cubes_of(state, BLUE) == {"a1": 1}
    assert state.points == [0, 1]
    assert sorted(state.discards[BLUE]) == [S["circles"]]
    assert state.discards[RED] == [S["bricks"]]


def test_a_suit_matching_the_attacked_tile_adds_one_to_the_defence() -> None:
    # crown 5 against bricks 4 on a bricks tile: 4 + 1 = 5, the attacker still wins the tie
    state = duel(["crown", "drop", "drop", "drop"], ["bricks", "hammers"], tile="bricks")
    state, _ = GAME.play(state, BLUE, "pick crown")
    state, events = GAME.play(state, RED, "pick bricks")
    assert state.points == [1, 0]
    assert ("Blue attacks with crown (5) = 5 against Red, who defends with bricks (4) +1 suit "
            "(bricks on a bricks tile) = 5. A tie goes to the attacker: Blue wins the fight."
            ) in [e.text for e in events]
    # bricks 4 against bricks 4 on a bricks tile: the defender wins 5 to 4
    state = duel(["bricks", "drop", "drop", "drop"], ["bricks", "hammers"], tile="bricks")
    state, _ = GAME.play(state, BLUE, "pick bricks")
    state, _ = GAME.play(state, RED, "pick bricks")
    assert state.points == [0, 1]


def test_an_outpost_defends_with_two_cards_chosen_after_the_reveal() -> None:
    state = duel(["crown", "drop", "drop", "drop"], ["drop", "bricks", "hammers"],
                 tile="bricks", outpost=True)
    assert "pick drop bricks" in GAME.legal_moves(state, RED)  # in pips order
    state, _ = GAME.play(state, RED, "pick drop bricks")
    state, events = GAME.play(state, BLUE, "pick crown")
    assert state.phase == "choose" and GAME.to_act(state) == {RED}
    assert events[-1].text == ("Blue reveals crown (5). Red now chooses which of their two "
                               "cards to use.")
    assert sorted(GAME.legal_moves(state, RED)) == ["use bricks", "use drop"]
    # bricks 4 + 1 suit + 1 Outpost = 6 beats crown 5 (the bonuses add up)
    state, events = GAME.play(state, RED, "use bricks")
    assert cubes_of(state, BLUE) == {"a1": 1} and state.points == [0, 1]
    texts = [e.text for e in events]
    assert ("Blue attacks with crown (5) = 5 against Red, who defends with bricks (4) +1 suit "
            "(bricks on a bricks tile) +1 Outpost = 6. 6 beats 5: Red wins the fight.") in texts
    assert ("Blue's cube on b2 is destroyed and goes back to Blue's supply; Red scores 1 point "
            "for the fight won (1 point now).") in texts
    assert state.discards[RED] == [S["bricks"]]  # only the card used is spent


def test_a_destroyed_outpost_loses_both_cubes() -> None:
    state = duel(["arrow", "drop", "drop", "drop"], ["drop", "hammers"], outpost=True)
    state, _ = GAME.play(state, RED, "pick drop hammers")
    state, _ = GAME.play(state, BLUE, "pick arrow")
    state, _ = GAME.play(state, RED, "use hammers")
    assert cubes_of(state, RED) == {"e5": 1}
    assert state.supply[RED] == 11 and state.points == [1, 0]


def test_an_outpost_cannot_attack() -> None:
    state = position(cubes={"b2": (BLUE, 2), "b3": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], ["drop"]])
    refused(state, BLUE, "attack b3 from b2", IllegalMove, "An Outpost cannot attack.")
    assert not any(m.startswith("attack") for m in GAME.legal_moves(state, BLUE))


def test_an_attack_names_a_neighbouring_enemy() -> None:
    state = position(cubes={"b2": (BLUE, 1), "d4": (RED, 1), "b3": (BLUE, 1)},
                     hands=[["crown", "drop", "drop", "drop"], ["drop"]])
    refused(state, BLUE, "attack d4 from b2", IllegalMove,
            "d4 is not next to b2 (attacks go up, down, left or right).")
    refused(state, BLUE, "attack b3 from b2", IllegalMove, "There is no enemy cube on b3: an "
            "attack is on a square with another player's cube.")


def test_a_defender_without_cards_defends_with_nothing() -> None:
    state = duel(["drop", "drop", "drop", "drop"], [])
    assert GAME.to_act(state) == {BLUE}
    state, _ = GAME.play(state, BLUE, "pick drop")
    assert state.points == [1, 0]


# --------------------------------------------------------------------------- the end


def test_the_game_ends_when_a_player_reaches_ten_points() -> None:
    state = duel(["crown", "drop", "drop", "drop"], ["drop"], points=[9, 3])
    state, _ = GAME.play(state, BLUE, "pick crown")
    state, _ = GAME.play(state, RED, "pick drop")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {BLUE} and outcome.scores == (10, 3)
    assert outcome.reason == "Blue reached 10 points. Blue wins with 10 points."
    assert GAME.to_act(state) == frozenset()
    with pytest.raises(GameOver):
        GAME.play(state, RED, "pass")


def test_the_game_ends_when_a_player_has_no_cubes_left() -> None:
    state = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], ["drop"]], points=[0, 4])
    state, _ = GAME.play(state, BLUE, "attack b3 from b2")
    state, _ = GAME.play(state, BLUE, "pick crown")
    state, _ = GAME.play(state, RED, "pick drop")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.reason.startswith("Red has no cubes left on the board.")
    assert outcome.winners == {RED}  # most points wins, even without cubes


# --------------------------------------------------------------------------- notation


def test_forgiving_notation() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], []])
    canonical = GAME.dump(GAME.play(state, BLUE, "move b1 b3 with crown")[0])
    for text in ("Move B1 to B3 with Crown", "move b1 b3 crown", "move  b1, b3 with 5",
                 "move b1 b3 with crowns."):
        assert GAME.dump(GAME.play(state, BLUE, text)[0]) == canonical


def test_attack_from_the_only_neighbour_may_be_left_out() -> None:
    state = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], ["drop"]])
    after, _ = GAME.play(state, BLUE, "attack b3")
    assert after.attack is not None and SQUARES[after.attack["from"]] == "b2"


def test_nonsense_is_refused_with_an_example_of_a_move() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], []])
    hint = GAME.notation_hint(state, BLUE)
    assert hint.startswith("Moves look like 'move b1 ") and "'prepare drop " in hint
    assert "attack" not in hint  # no enemy cube touches b1: no attack to show
    refused(state, BLUE, "jump b1", InvalidMove, f"That is not a move I understand. {hint}")
    refused(state, BLUE, "move b1 b3 with banana", InvalidMove, f"I don't know 'banana'. {hint}")
    # half a move from a square with no cube of the player's says so first
    refused(state, BLUE, "move a1 a2", IllegalMove, f"There is no cube of yours on a1. {hint}")


def test_a_seat_outside_the_game_is_refused() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)}, hands=[["drop"] * 4, []])
    refused(state, 5, "move b1 b2 with drop", NotYourTurn, "You have no seat in this game.")


# --------------------------------------------------------------------------- hidden information


def test_views_show_hands_only_to_their_owner() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)}, face_down="c3",
                     hands=[["crown", "drop", "drop", "drop"], ["arrow"]])
    spectator, blue = GAME.view(state, None), GAME.view(state, BLUE)
    assert "hand" not in spectator and blue["hand"] == ["drop", "drop", "drop", "crown"]
    assert "arrow" not in json.dumps(blue)
    assert spectator["hand_counts"] == [4, 1]
    c3 = spectator["board"][INDEX["c3"]]
    assert c3["symbol"] is None and c3["pips"] is None


def test_views_say_what_the_last_action_was_and_who_made_it() -> None:
    state = duel(["drop", "drop", "drop", "drop"], ["arrow", "hammers"])
    assert GAME.view(state, None)["last_action"] == {"seat": BLUE, "kind": "attack"}
    state, _ = GAME.play(state, BLUE, "pick drop")
    state, _ = GAME.play(state, RED, "pick arrow")
    view = GAME.view(state, None)
    assert view["last_action"] == {"seat": BLUE, "kind": "attack", "destroyed": "b2"}
    assert view["last"] == ["b2", "b3"]


def test_spectators_see_how_many_cards_the_defender_committed_but_not_which() -> None:
    state = duel(["drop", "drop", "drop", "drop"], [])
    attack = GAME.view(state, None)["attack"]
    assert attack["defender_card_count"] == 0 and attack["chosen"] == [RED]
    state = duel(["drop", "drop", "drop", "drop"], ["arrow", "hammers"], outpost=True)
    state, _ = GAME.play(state, RED, "pick hammers arrow")
    attack = GAME.view(state, None)["attack"]
    assert attack["defender_card_count"] == 2 and "defender_cards" not in attack


def test_the_game_ends_when_no_cube_can_ever_move_or_attack_again() -> None:
    """Only Outposts on the board and no cube left to add: seed 45 of the benchmark's random
    games reached this and would otherwise have run forever."""
    state = position(tiles="a1=drop", cubes={"a1": (BLUE, 1), "c3": (BLUE, 2), "e5": (RED, 2)},
                     hands=[["drop", "hammers", "hammers", "hammers"], []], points=[2, 3],
                     supply=[1, 0])
    state, _ = GAME.play(state, BLUE, "outpost a1 with drop")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {RED}
    assert outcome.reason.startswith("Every cube left is in an Outpost and none can be added")


def test_a_board_of_outposts_goes_on_while_a_cube_can_still_be_added() -> None:
    state = position(tiles="a1=drop", cubes={"a1": (BLUE, 1), "c3": (BLUE, 2), "e5": (RED, 2)},
                     hands=[["drop", "hammers", "hammers", "hammers"], []], supply=[2, 0])
    state, _ = GAME.play(state, BLUE, "outpost a1 with drop")
    assert GAME.outcome(state) is None and GAME.to_act(state) == {RED}



@pytest.mark.parametrize("players", [2, 4])
def test_players_who_never_attack_meet_the_turn_limit(players: int) -> None:
    """Issue 36: a computer and a rule-based player prepared over and over for 1,277 moves.
    Sides that never attack end once each has taken the turn limit's turns, and the
    game's tie-break decides: points, then cubes on the board."""
    state = GAME.new(players, seed=7)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        legal = GAME.moves(state, seat)
        quiet = [m for m in legal if m.split()[0] in ("place", "prepare", "pass")]
        state, events = GAME.play(state, seat, (quiet or list(legal))[0], legal=legal)
    assert state.turns == TURN_LIMIT * players == 100 * players
    assert events[-1].text == ("The game ends: Every player has taken 100 turns, the turn "
                               "limit.")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (0,) * players
    cubes = [sum(cubes_of(state, seat).values()) for seat in range(players)]
    assert outcome.winners == {s for s in range(players) if cubes[s] == max(cubes)}
    assert outcome.ending in ("shared", "tie-break")


def test_the_turn_limit_is_decided_by_points_first() -> None:
    state = position(cubes={"a1": (BLUE, 1), "e5": (RED, 2)}, hands=[["drop", "drop"], []],
                     points=[3, 2], turns=2 * TURN_LIMIT - 1)
    state, _ = GAME.play(state, BLUE, "prepare drop drop take drop")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {BLUE}
    assert outcome.ending == "turn limit"
    assert outcome.reason == ("Every player has taken 100 turns, the turn limit. Blue wins "
                              "with 3 points.")


def test_a_game_stored_before_the_turn_limit_loads_and_counts_from_zero() -> None:
    data = GAME.dump(position(cubes={"a1": (BLUE, 1), "e5": (RED, 1)}))
    del data["turns"]
    assert GAME.load(data).turns == 0


# --------------------------------------------------------------------------- issue 16: the text


def test_an_outpost_defender_may_place_one_card_or_two() -> None:
    """"When an Outpost is being attacked the Defender is allowed to place 2 cards": allowed,
    not obliged. One card is fought at once; of two, only the one used is spent and the
    other goes back to the hand unseen."""
    state = duel(["crown", "drop", "drop", "drop"], ["drop", "bricks", "hammers"],
                 tile="bricks", outpost=True)
    legal = GAME.legal_moves(state, RED)
    assert "pick bricks" in legal and "pick drop bricks" in legal
    one, _ = GAME.play(state, RED, "pick bricks")
    one, _ = GAME.play(one, BLUE, "pick crown")
    # bricks 4 + 1 suit + 1 Outpost = 6 beats crown 5, with no second card placed
    assert one.phase == "action" and one.points == [0, 1]
    assert one.discards[RED] == [S["bricks"]]
    assert len(one.decks[RED]) == 8  # drop and hammers left: Red draws 2 on their turn
    two, _ = GAME.play(state, RED, "pick drop bricks")
    two, _ = GAME.play(two, BLUE, "pick crown")
    two, events = GAME.play(two, RED, "use bricks")
    assert two.discards[RED] == [S["bricks"]]  # only the card used is spent
    assert len(two.decks[RED]) == 8  # drop came back, so Red again draws only 2
    public = " ".join(e.text for e in events if e.to is None)
    assert "Red uses bricks (4); the other card goes back to their hand." in public
    assert "drop" not in public
    refused(state, RED, "pick drop bricks hammers", IllegalMove,
            "Pick one card, or two for your Outpost's defence.")


def test_the_mover_may_change_directions_to_choose_which_tiles_are_revealed() -> None:
    """"may change directions during movement": b1 to c3 straight up then right reveals b2
    and b3; by c1 it reveals c1 and c2 instead. The shortest route stays the default."""
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)}, face_down="b2 b3 c1 c2 a3",
                     hands=[["circles", "drop", "drop", "drop"], []])
    legal = GAME.legal_moves(state, BLUE)
    assert "move b1 c3 with circles" in legal and "move b1 c3 via c1 with circles" in legal
    default, _ = GAME.play(state, BLUE, "move b1 c3 with circles")
    assert [SQUARES[i] for i in default.last] == ["b1", "b2", "b3", "c3"]
    around, events = GAME.play(state, BLUE, "move b1 c3 via c1 with circles")
    assert [SQUARES[i] for i in around.last] == ["b1", "c1", "c2", "c3"]
    assert around.face_up[INDEX["c1"]] and around.face_up[INDEX["c2"]]
    assert not around.face_up[INDEX["b2"]] and not around.face_up[INDEX["b3"]]
    assert events[0].text == ("Blue plays circles (3) and moves b1 to c3 (by b1-c1-c2-c3: "
                              "3 spaces of up to 3).")
    # a via square that turns over the same tiles as the default is the default move
    same, _ = GAME.play(state, BLUE, "move b1 via b3 to c3 with circles")
    assert GAME.dump(same) == GAME.dump(default)
    refused(state, BLUE, "move b1 c3 via a3 with circles", IllegalMove,
            "That route (b1-b2-b3-a3-b3-c3) is 5 spaces; circles moves at most 3.")


def test_a_detour_reveals_tiles_off_the_straight_way() -> None:
    """"You may stop at any time, and may change directions": an arrow (6) may go up to
    a3 and come back down to b2, turning over a2, a3 and b3 on the way."""
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)}, face_down="a2 a3 b3",
                     hands=[["arrow", "drop", "drop", "drop"], []])
    assert "move b1 b2 via a3 with arrow" in GAME.legal_moves(state, BLUE)
    after, _ = GAME.play(state, BLUE, "move b1 b2 via a3 with arrow")
    assert [SQUARES[i] for i in after.last] == ["b1", "b2", "b3", "a3", "a2", "b2"]
    assert all(after.face_up[INDEX[sq]] for sq in ("a2", "a3", "b3"))
    assert cubes_of(after, BLUE) == {"b2": 1}
    refused(state, BLUE, "move b1 b2 via e5 with arrow", IllegalMove,
            "You can't move through e5: it holds an enemy cube.")


@pytest.mark.parametrize("players", [3, 4])
def test_with_more_players_nobody_defends_empty_handed_because_of_the_deal(players: int
                                                                            ) -> None:
    """Seat 1 (south) and seat 3 (west) may start side by side at a corner; the first
    player must not find the other holding no card at all."""
    for seed in range(6):
        state = GAME.new(players=players, seed=seed)
        while state.phase == "setup":
            seat = next(iter(GAME.to_act(state)))
            state, _ = GAME.play(state, seat, GAME.legal_moves(state, seat)[0])
        assert [len(h) for h in state.hands] == [4] * players


def test_three_players_each_have_their_own_deck_of_18() -> None:
    """"Give each player one deck of all cards of a single background color (18 cards)":
    the box's 54 cards make three such decks. Only four players share one deck."""
    state = GAME.new(players=3, seed=1)
    assert [Counter(d) for d in state.decks] == [Counter({s: 3 for s in range(6)})] * 3
    assert GAME.view(state, None)["shared_deck"] is False
    assert GAME.view(GAME.new(players=4, seed=1), None)["shared_deck"] is True


def test_a_points_tie_says_how_it_was_broken() -> None:
    state = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1), "a1": (BLUE, 1)},
                     hands=[["crown", "drop", "drop", "drop"], ["drop"]], points=[3, 4])
    state, _ = GAME.play(state, BLUE, "attack b3 from b2")
    state, _ = GAME.play(state, BLUE, "pick crown")
    state, _ = GAME.play(state, RED, "pick drop")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {BLUE} and outcome.ending == "tie-break"
    assert outcome.reason == ("Red has no cubes left on the board. Blue and Red are level on "
                              "4 points; the tie goes to the most cubes on the board (Blue 2, "
                              "Red 0): Blue wins.")


def test_a_tie_on_points_and_cubes_is_a_shared_win() -> None:
    state = position(tiles="a1=drop", cubes={"a1": (BLUE, 1), "e5": (RED, 2)},
                     hands=[["drop", "hammers", "hammers", "hammers"], []], points=[3, 3],
                     supply=[1, 0])
    state, _ = GAME.play(state, BLUE, "outpost a1 with drop")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {BLUE, RED} and outcome.ending == "shared"
    assert outcome.reason.endswith("Blue and Red are level on 3 points and on cubes on the "
                                   "board (2 each): Blue and Red share the win.")


def test_a_tie_on_one_point_says_point() -> None:
    state = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1), "a1": (BLUE, 1)},
                     hands=[["crown", "drop", "drop", "drop"], ["drop"]], points=[0, 1])
    state, _ = GAME.play(state, BLUE, "attack b3 from b2")
    state, _ = GAME.play(state, BLUE, "pick crown")
    state, _ = GAME.play(state, RED, "pick drop")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert "Blue and Red are level on 1 point;" in outcome.reason


# --------------------------------------------------------------------------- issue 28: effects
# Every effect says what happened and why: one scenario per kind of effect.


def test_a_reinforcement_says_where_the_cube_came_from_and_what_is_left() -> None:
    state = position(tiles="c2=crown", cubes={"b2": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], []])
    _, events = GAME.play(state, BLUE, "reinforce c2 with crown")
    assert events[0].text == ("Blue plays crown (5) on the crown tile and adds a cube from "
                              "their supply on c2, next to b2. 10 cubes left in their supply.")


def test_an_outpost_says_what_it_can_no_longer_do_and_what_it_gains() -> None:
    state = position(tiles="b2=crown", cubes={"b2": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["crown", "drop", "drop", "drop"], []], supply=[1, 11])
    _, events = GAME.play(state, BLUE, "outpost b2 with crown")
    assert events[0].text == ("Blue plays crown (5) on the crown tile and stacks a second cube "
                              "on their cube on b2: an Outpost, which can no longer move or "
                              "attack and defends at +1. 0 cubes left in their supply.")


def test_preparing_names_the_cards_discarded_and_taken_back() -> None:
    state = position(cubes={"b1": (BLUE, 1), "e5": (RED, 1)},
                     hands=[["drop", "hammers", "circles", "bricks"], []],
                     discards=[["arrow"], []])
    _, events = GAME.play(state, BLUE, "prepare drop hammers take arrow")
    assert events[0].text == ("Blue prepares: discards drop (1) and hammers (2), takes arrow "
                              "(6) back from their discard pile.")


def test_an_attack_says_who_attacks_what_and_that_an_outpost_may_use_two_cards() -> None:
    state = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1), "c2": (RED, 2)},
                     hands=[["crown", "drop", "drop", "drop"], ["drop"]])
    _, events = GAME.play(state, BLUE, "attack b3 from b2")
    assert events[0].text == ("Blue attacks from b2: Red's cube on b3. Both choose a card in "
                              "secret.")
    _, events = GAME.play(state, BLUE, "attack c2 from b2")
    assert events[0].text == ("Blue attacks from b2: Red's Outpost on c2, which may defend "
                              "with one card or two. Both choose a card in secret.")


def test_a_greater_attack_says_what_beat_what() -> None:
    state = duel(["crown", "drop", "drop", "drop"], ["bricks"], tile="circles")
    state, _ = GAME.play(state, BLUE, "pick crown")
    _, events = GAME.play(state, RED, "pick bricks")
    assert ("Blue attacks with crown (5) = 5 against Red, who defends with bricks (4) = 4. "
            "5 beats 4: Blue wins the fight.") in [e.text for e in events]


def test_a_fight_without_a_defending_card_says_it_counts_0() -> None:
    state = duel(["drop", "drop", "drop", "drop"], [], outpost=True)
    _, events = GAME.play(state, BLUE, "pick drop")
    texts = [e.text for e in events]
    assert ("Blue attacks with drop (1) = 1 against Red, who defends with no card +1 Outpost "
            "= 1. A tie goes to the attacker: Blue wins the fight.") in texts
    assert ("Red's Outpost on b3 is destroyed: both cubes go back to Red's supply; Blue scores "
            "1 point for the fight won (1 point now).") in texts


def test_passing_says_why_nothing_else_was_possible() -> None:
    state = position(cubes={"b2": (BLUE, 2), "e5": (RED, 1)}, hands=[[], ["drop"]],
                     decks=[[], ["drop"] * 5])
    assert GAME.legal_moves(state, BLUE) == ["pass"]
    assert GAME.notation_hint(state, BLUE) == ("No card of yours can be used this turn: type "
                                               "'pass'.")
    _, events = GAME.play(state, BLUE, "pass")
    assert events[0].text == "Blue has no card in hand and passes."
    # one card, but an Outpost cannot move or attack and no tile matches
    state = position(cubes={"b2": (BLUE, 2), "e5": (RED, 1)}, hands=[["drop"], ["drop"]],
                     decks=[[], ["drop"] * 5], supply=[0, 11])
    assert GAME.legal_moves(state, BLUE) == ["pass"]
    _, events = GAME.play(state, BLUE, "pass")
    assert events[0].text == ("Blue can use no card they hold (no cube can move, reinforce or "
                              "attack with it) and passes.")


def test_no_move_costs_more_than_the_cards_it_names() -> None:
    """Every action spends only the cards its own words name (``with crown``, ``prepare
    drop hammers``), and its sentence says so: there is nothing for ``costs`` to add."""
    state = GAME.new(players=2, seed=3)
    for _ in range(60):
        seat = min(GAME.to_act(state))
        assert GAME.costs(state, seat) == {}
        move = GAME.legal_moves(state, seat)[-1]
        state, events = GAME.play(state, seat, move)
        if " with " in move:
            assert f"plays {move.split()[-1]} (" in events[0].text, (move, events[0].text)
        if GAME.outcome(state) is not None:
            break


def test_both_sides_of_a_fight_are_asked_in_private_to_pick_a_card() -> None:
    """Issue 38: the attacker is prompted to pick, as the defender is: each in a line only
    they read, naming their own hand, the tile's bonus and who wins ties."""
    state = position(tiles="b3=circles c2=drop", cubes={"b2": (BLUE, 1), "b3": (RED, 1),
                                                        "c2": (RED, 2)},
                     hands=[["crown", "drop", "drop", "arrow"], ["drop", "hammers"]])
    _, events = GAME.play(state, BLUE, "attack b3 from b2")
    private = {next(iter(e.to)): e.text for e in events if e.to is not None}
    assert private[BLUE] == ("You now pick your card for the attack on b3 in secret: drop "
                             "(1), crown (5) or arrow (6) ('pick arrow'). Ties go to you; Red "
                             "adds +1 with a circles card.")
    assert private[RED] == ("You now pick your card to defend b3 in secret: drop (1) or "
                            "hammers (2) ('pick hammers'). Ties go to Blue; you add +1 with a "
                            "circles card.")
    assert not any("crown" in e.text or "hammers" in e.text for e in events if e.to is None)
    _, events = GAME.play(state, BLUE, "attack c2 from b2")
    private = {next(iter(e.to)): e.text for e in events if e.to is not None}
    assert "Ties go to you; Red adds +1 with a drop card and +1 for the Outpost." in private[BLUE]
    assert private[RED] == ("You now pick your card to defend c2 in secret: drop (1) or "
                            "hammers (2) ('pick hammers'); or two for your Outpost ('pick drop "
                            "hammers'), then choose which to use once the attack is shown. "
                            "Ties go to Blue; you add +1 with a drop card and +1 for the "
                            "Outpost.")
    # The lines name only each one's own cards: the attack may still be taken back.
    assert {e.kind for e in events if e.to is not None} == {"prompt"}
    assert undo.why_not(GAME, state, BLUE, "attack c2 from b2") is None
    bare = position(cubes={"b2": (BLUE, 1), "b3": (RED, 1)}, hands=[["crown"], []])
    _, events = GAME.play(bare, BLUE, "attack b3 from b2")
    assert [next(iter(e.to)) for e in events if e.to is not None] == [BLUE]  # Red has none


def test_attacking_a_square_none_of_your_cubes_touches_says_so() -> None:
    state = position(cubes={"b2": (BLUE, 1), "a1": (BLUE, 2), "d4": (RED, 1), "b1": (RED, 1),
                            "c2": (RED, 1), "c3": (BLUE, 1)},
                     hands=[["crown", "drop"], ["drop"]])
    for typed, said in (
            ("attack e5", "None of your cubes touches 'e5': a cube attacks a square up, down, "
                          "left or right of it."),
            ("attack c2", "Say which cube attacks 'c2': b2 or c3, e.g. 'attack c2 from b2'."),
            ("move c3", "Write 'move' with the cube's square, where it goes and a card: "
                        "'move b1 b3 with crown'. "),
            # an empty square two of Blue's cubes touch (b2, c3): what it lacks, not which cube
            ("attack b3", "There is no enemy cube on 'b3': an attack is on a square with "
                          "another player's cube.")):
        with pytest.raises(InvalidMove) as refused:
            GAME.play(state, BLUE, typed)
        assert str(refused.value).startswith(said) and (typed == "move c3" or str(
            refused.value) == said)
    outpost = position(cubes={"a1": (BLUE, 2), "a2": (RED, 1)}, hands=[["crown"], []])
    with pytest.raises(InvalidMove, match=r"^Only your Outpost on a1 touches 'a2', and an "
                                          r"Outpost cannot attack\.$"):
        GAME.play(outpost, BLUE, "attack a2")
    fighting, events = GAME.play(state, BLUE, "attack b1")  # b2 can; the Outpost a1 cannot
    assert events[0].text.startswith("Blue attacks from b2: Red's cube on b1.")
    with pytest.raises(IllegalMove, match=r"^You can't 'attack e5' now: a fight is on"):
        GAME.play(fighting, BLUE, "attack e5")  # during the picks the step is the reason


def first_action() -> CubeState:
    """A 2-player game played at random through its setup, at its first action."""
    state, rng = GAME.new(2, 1), random.Random(2)
    while state.phase != "action":
        seat = min(GAME.to_act(state))
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    return state


@pytest.mark.parametrize(("action", "typed", "error", "said"), [
    # a move's word of another step names that step, not the squares it lacks
    (False, "attack", IllegalMove, "You can't 'attack' now: the game is at the setup"),
    (False, "place", InvalidMove, "Write 'place' with a square of your edge"),
    (True, "prepare drop hammers", InvalidMove, "Write 'prepare' with the two cards you "
     "discard, then the one you take back: 'prepare drop hammers take arrow'."),
    # 'end' or 'done' is no move: during the setup it names the setup, at the action it
    # says a turn ends with its one action
    (False, "end", IllegalMove, "You can't 'end' now: the game is at the setup"),
    (True, "end turn", InvalidMove, "A turn ends with its one action (a move, prepare, "
     "reinforce, outpost or attack); 'pass' only when none is possible."),
    # another game's words get what this game does instead, not "not a move I understand"
    (True, "roll", InvalidMove, "There are no dice here: a fight is won by the cards both "
     "sides pick in secret. Moves look like"),
    (True, "draw", InvalidMove, "Cards are drawn for you at the start of your turn, up to 4; "
     "'prepare' takes one back from your discard pile."),
    (False, "yes", InvalidMove, "Nothing in this game is answered yes or no. "),
    (True, "No", InvalidMove, "Nothing in this game is answered yes or no. "),
])
def test_a_word_of_another_step_or_a_move_half_typed_says_which(
        action: bool, typed: str, error: type[Exception], said: str) -> None:
    state = first_action() if action else GAME.new(2, 1)
    with pytest.raises(error) as refused:
        GAME.play(state, min(GAME.to_act(state)), typed)
    assert str(refused.value).startswith(said)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_opening_says_whose_edge_is_which_and_its_example_is_the_starter_s(
        players: int) -> None:
    for seed in range(4):
        state = GAME.new(players, seed)
        text = " ".join(e.text for e in GAME.opening(state))
        example = re.search(r"begins, e\.g\. '(place [a-e]\d)'", text)
        assert example is not None, text
        assert example[1] in GAME.legal_moves(state, state.start)
        for seat, (edge, line) in enumerate((("south", "row 1"), ("north", "row 5"),
                                             ("west", "column a"),
                                             ("east", "column e"))[:players]):
            assert f"the {edge} edge ({line})" in text
            hint = GAME.notation_hint(state, seat)
            assert f"your edge, the {edge} edge ({line})" in hint
        hinted = re.search(r"'(place [a-e]\d)'", GAME.notation_hint(state, state.start))
        assert hinted is not None and hinted[1] in GAME.legal_moves(state, state.start)


def test_an_action_hint_s_examples_are_the_seat_s_own_legal_moves() -> None:
    """'Moves look like ...' named fixed moves ('move b1 b3 with crown') that were often
    not the player's: no cube on b1, no crown in hand."""
    seen = 0
    for state in random_states(8, 120):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_moves(state, seat)
        if state.phase == "action" and legal != ["pass"]:
            hint = GAME.notation_hint(state, seat)
            examples = re.findall(r"'([a-z][a-z0-9 ]+)'", hint)
            assert examples and all(e in legal for e in examples), (hint, legal)
            verbs = {m.split()[0] for m in legal} - {"pass"}
            assert {e.split()[0] for e in examples} == verbs, (hint, verbs)
            seen += 1
    assert seen >= 100


def random_states(games: int, steps: int) -> Iterator[Any]:
    """Every state of ``games`` seeded random 2-player games, up to ``steps`` moves each."""
    for seed in range(games):
        state, rng = GAME.new(2, seed), random.Random(seed)
        for _ in range(steps):
            if GAME.outcome(state) is not None:
                break
            yield state
            seat = min(GAME.to_act(state))
            state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))


def test_a_pick_or_use_hint_s_examples_are_the_seat_s_own_legal_moves() -> None:
    """'Pick a card to defend in secret, e.g. ...' names a card the seat holds (it said
    'pick crown' to a defender holding bricks and arrows)."""
    seen = 0
    for state in random_states(12, 150):
        for seat in sorted(GAME.to_act(state)):
            if state.phase in ("attack", "choose"):
                hint = GAME.notation_hint(state, seat)
                examples = re.findall(r"'((?:pick|use) [a-z ]+)'", hint)
                assert examples, hint
                legal = GAME.legal_moves(state, seat)
                assert all(e in legal for e in examples), (hint, legal)
                seen += 1
    assert seen >= 20


def test_an_action_word_none_of_your_cubes_can_take_says_why() -> None:
    """A new player typed 'attack' with no enemy cube next to theirs and read that the
    turn 'is at its action (a fight's picks come only after an attack)': the step it was
    at. The refusal names why no attack is open."""
    state = position(cubes={"a1": (0, 1), "e5": (1, 1)}, hands=[["drop", "crown"], ["drop"]])
    assert not [m for m in GAME.legal_moves(state, 0) if m.startswith("attack")]
    with pytest.raises(IllegalMove, match=r"^You can't 'attack' now: no enemy cube is next "
                       r"to a cube of yours that may attack \(an Outpost cannot\)\. "):
        GAME.play(state, 0, "attack")
    empty = position(cubes={"a1": (0, 1), "a2": (1, 1)}, hands=[[], ["drop"]])
    with pytest.raises(IllegalMove, match=r"^You can't 'attack' now: an attack needs a card "):
        GAME.play(empty, 0, "attack")
    # the other actions say why none of them is open, each its own reason
    one = position(cubes={"a1": (0, 1), "e5": (1, 1)}, hands=[["drop"], ["drop"]],
                   supply=[0, 11])
    for word, why in (("prepare", "preparing takes two cards from your hand"),
                      ("reinforce", "you have no cubes left to add"),
                      ("outpost", "you have no cubes left to add")):
        assert not any(m.startswith(word) for m in GAME.legal_moves(one, 0))
        with pytest.raises(IllegalMove, match=rf"^You can't '{word}' now: {why}\. "):
            GAME.play(one, 0, word)
