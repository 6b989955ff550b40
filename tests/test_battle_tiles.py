"""Battle Tiles: one scenario per rule of the brief, from positions built with ``load``.

Grid pictures in the docstrings put row 5 at the top, like the image players see. Sides are
written north-east-south-west; ``P`` is a piercer side, ``B`` a barrier side.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from random import Random
from typing import Any

import pytest

import rules
from rules import GameOver, IllegalMove, InvalidMove, NotYourTurn
from rules import battle_tiles as bt
from rules.battle_tiles import INDEX, TilesState
from tests.refusals import assert_refused

GAME = rules.GAMES["battle-tiles"]
RED, BLUE = 0, 1
ICON = {"P": bt.PIERCER, "B": bt.BARRIER}


def sides(text: str) -> list[int]:
    return [ICON[v] if v in ICON else int(v) for v in text.split()]


@pytest.fixture
def hand_tiles(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Make tile ``n`` of the set have these sides for one test: ``hand_tiles(n, '5 5 5 5',
    scoring=False)``; returns ``n`` (the tile set itself is free to change)."""

    tile_sides, tile_scoring = list(bt.TILE_SIDES), list(bt.TILE_SCORING)
    monkeypatch.setattr(bt, "TILE_SIDES", tile_sides)
    monkeypatch.setattr(bt, "TILE_SCORING", tile_scoring)

    def make(n: int, text: str, scoring: bool = False) -> int:
        tile_sides[n], tile_scoring[n] = sides(text), scoring
        return n

    return make


def position(grid: dict[str, str] | None = None, *, hands: list[list[int]] | None = None,
             turn: int = RED, markers: list[int] | None = None, held: list[int] | None = None,
             tokens: list[list[str]] | None = None, stacks: list[list[int]] | None = None,
             **extra: Any) -> TilesState:
    """A position with red or blue to place. ``grid`` maps squares to '3 2 3 2' sides with
    optional flags: '*R', '*B' (scoring, that colour's marker), '*N' (neutral scoring),
    '!death' or '!life' (a token on the tile)."""
    cells = 25
    data: dict[str, Any] = {
        "players": 2, "seed": 99, "draws": 0, "turn": turn, "phase": "place",
        "tile": [-1] * cells, "placer": [-1] * cells, "sides": [[] for _ in range(cells)],
        "scoring": [False] * cells, "marker": [-1] * cells, "token": [None] * cells,
        "stacks": stacks if stacks is not None else [[5, 6, 7], [5, 6, 7]],
        "hands": hands if hands is not None else [[0, 1], [0, 1]],
        "markers": markers or [6, 6], "held": held or [0, 0],
        "tokens": tokens if tokens is not None else [list(bt.TOKENS), list(bt.TOKENS)],
        "chain": [], "pending": None, "rotating": False, "struck": False, "placed": 0,
        "last": None, "result": None,
    }
    for square, spec in (grid or {}).items():
        i = INDEX[square]
        words = spec.split()
        data["tile"][i] = 11
        data["sides"][i] = sides(" ".join(w for w in words if w[0] not in "*!"))
        for word in words:
            if word.startswith("*"):
                data["scoring"][i] = True
                data["marker"][i] = {"R": RED, "B": BLUE, "N": -1}[word[1]]
            if word.startswith("!"):
                data["token"][i] = word[1:]
        data["placer"][i] = max(data["marker"][i], 0)
        data["placed"] += 1
    data.update(extra)
    return GAME.load(data)


refused = partial(assert_refused, GAME)


def markers_on(state: TilesState) -> dict[str, str]:
    """Each marked square and its marker: 'R', 'B' or 'N' (a neutral scoring tile)."""
    return {bt.SQUARES[i]: "RB"[state.marker[i]] if state.marker[i] >= 0 else "N"
            for i in range(25) if state.scoring[i]}


def texts(events: list[rules.Event]) -> list[str]:
    """The public sentences of a move."""
    return [e.text for e in events if e.to is None]


def scores(state: TilesState) -> list[int]:
    return [bt._score(state, s) for s in (RED, BLUE)]


# --------------------------------------------------------------------------- components


def test_the_components_match_the_data_file() -> None:
    data = bt.DATA
    assert data["grid_size"] == 5 and data["hand_size"] == 3
    assert len(bt.TILE_SIDES) == 12 and all(len(s) == 4 for s in bt.TILE_SIDES)
    assert any(bt.PIERCER in s for s in bt.TILE_SIDES)
    assert any(bt.BARRIER in s for s in bt.TILE_SIDES)
    assert 0 < sum(bt.TILE_SCORING) < 12
    assert bt.TOKENS == ["rotate", "chaos", "death", "life"]


def test_setup_deals_each_player_a_hand_of_3_from_their_own_shuffled_stack() -> None:
    state = GAME.new(players=2, seed=4)
    for seat in (RED, BLUE):
        assert len(state.hands[seat]) == 3 and len(state.stacks[seat]) == 9
        assert Counter(state.hands[seat] + state.stacks[seat]) == Counter(range(12))
    assert state.markers == [bt.MARKERS, bt.MARKERS] and state.held == [0, 0]
    assert state.tokens == [bt.TOKENS, bt.TOKENS]
    assert GAME.to_act(state) == {state.first} and state.phase == "place"
    orders = {tuple(GAME.new(players=2, seed=s).stacks[RED]) for s in range(5)}
    assert len(orders) == 5


def test_who_places_first_is_drawn_at_set_up_and_shown_in_every_view() -> None:
    states = [GAME.new(players=2, seed=s) for s in range(40)]
    firsts = Counter(s.first for s in states)
    assert firsts[RED] >= 10 and firsts[BLUE] >= 10
    for state in states[:5]:
        assert GAME.to_act(state) == {state.first} and state.turn == state.first
        assert GAME.new(players=2, seed=state.seed).first == state.first  # from the seed
        for seat in (None, RED, BLUE):
            assert GAME.view(state, seat)["first"] == state.first


def test_placing_lists_every_hand_tile_on_every_empty_square() -> None:
    state = position({"c3": "1 1 1 1"}, hands=[[0, 5], [1]])  # 0 scores, 5 does not
    moves = GAME.legal_moves(state, RED)
    assert "place 1 at a1" in moves and "place 2 at e5" in moves
    assert not any(" at c3" in m for m in moves)
    assert "place 2 at a1 with death" in moves and "place 1 at a1 with death" not in moves
    assert len(moves) == 24 + 24 * 5
    assert GAME.legal_moves(state, BLUE) == []


def test_a_placed_tile_draws_a_new_one_in_private_and_the_turn_passes() -> None:
    state = position(hands=[[0, 1, 2], [3, 4, 5]], stacks=[[7, 8], [9]])
    after, events = GAME.play(state, RED, "place 2 at c3")
    assert after.hands[RED] == [0, 2, 8] and after.stacks[RED] == [7]
    assert GAME.to_act(after) == {BLUE}
    public = [e.text for e in events if e.to is None]
    private = [e for e in events if e.to is not None]
    assert "Red draws a tile." in public
    assert private and private[0].to == {RED} and "tile 3 in your hand" in private[0].text


# --------------------------------------------------------------------------- attack and chain


def test_a_placed_tile_attacks_every_side_neighbour_greater_wins_ties_fail(hand_tiles: Any
                                                                         ) -> None:
    """      c4 (S 3)
    b3 (E 4)  [c3: 4 4 4 4]  d3 (W 5)
             c2 (N 4)
    c3 beats c4 (4 > 3) and b3? its west 4 against b3's east 4: a tie fails; d3 5 holds."""
    tile = hand_tiles(0, "4 4 4 4")
    state = position({"c4": "9 9 3 9 *B", "b3": "9 4 9 9 *B", "d3": "9 9 9 5 *B",
                      "c2": "4 9 9 9 *B", "a1": "1 1 1 1 *B"}, hands=[[tile], [1]])
    after, events = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "R", "b3": "B", "d3": "B", "c2": "B", "a1": "B"}
    assert after.last is not None and after.last["defeated"] == ["c4"]
    assert any("c3 (4) defeats c4 (3)" in e.text for e in events)


def test_the_seeds_chain_a_defeats_b_defeats_c_defeats_d_straight_not_around_corners(
        hand_tiles: Any) -> None:
    """ row 4:        E (S 1)
        row 3:  A  ->  B  ->  C  ->  D
    A (placed on a3) defeats B on its left; B carries the attack on to the right against C,
    C against D. B's strong north side does not attack E: chains go straight only."""
    a = hand_tiles(0, "1 5 1 1")
    state = position({"b3": "9 5 1 4 *B", "c3": "1 5 1 4 *B", "d3": "1 1 1 4 *B",
                      "b4": "1 1 1 1 *B"}, hands=[[a], [1]])
    after, _ = GAME.play(state, RED, "place 1 at a3")
    assert after.last is not None and after.last["defeated"] == ["b3", "c3", "d3"]
    assert markers_on(after) == {"b3": "R", "c3": "R", "d3": "R", "b4": "B"}


def test_a_chain_stops_where_the_next_attack_fails(hand_tiles: Any) -> None:
    a = hand_tiles(0, "1 5 1 1")
    state = position({"b3": "1 2 1 4", "c3": "1 5 1 2", "d3": "1 1 1 1"}, hands=[[a], [1]])
    after, _ = GAME.play(state, RED, "place 1 at a3")
    assert after.last is not None and after.last["defeated"] == ["b3"]  # 2 against 2 ties


def test_red_capturing_a_blue_scoring_tile_scores_two_points(hand_tiles: Any) -> None:
    """The seed's example: red takes the blue marker and puts a red one on the tile."""
    red = hand_tiles(0, "5 5 5 5")
    state = position({"c4": "1 1 1 1 *B"}, hands=[[red], [1]], markers=[6, 5])
    after, events = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "R"}
    assert after.held == [1, 0] and after.markers == [5, 5]
    assert scores(after) == [2, 0]
    assert any("captures it: Red takes Blue's marker" in e.text for e in events)


def test_capturing_a_neutral_tile_scores_one_point(hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 5 5 5")
    state = position({"c4": "1 1 1 1 *N"}, hands=[[red], [1]])
    after, events = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "R"} and after.held == [0, 0]
    assert scores(after) == [1, 0]
    assert any("captures the neutral tile" in e.text for e in events)


def test_defeating_your_own_scoring_tile_is_no_capture_but_the_chain_goes_on(
        hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 5 5 5")
    state = position({"c4": "5 1 1 1 *R", "c5": "1 1 1 1 *B"}, hands=[[red], [1]],
                     markers=[5, 5])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert after.last is not None and after.last["defeated"] == ["c4", "c5"]
    assert after.last["captured"] == ["c5"]
    assert markers_on(after) == {"c4": "R", "c5": "R"} and after.held == [1, 0]


def test_captured_tiles_continue_chains(hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 1 1 1")
    state = position({"c4": "3 1 1 1 *B", "c5": "1 1 2 1 *B"}, hands=[[red], [1]])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "R", "c5": "R"} and after.held == [2, 0]


def test_without_markers_scoring_tiles_are_placed_neutral(hand_tiles: Any) -> None:
    scoring = hand_tiles(0, "1 1 1 1", scoring=True)
    state = position(hands=[[scoring], [1]], markers=[0, 6])
    after, events = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c3": "N"} and scores(after) == [0, 0]
    assert any("no colour marker left: c3 stays neutral" in e.text for e in events)
    placed = position(hands=[[scoring], [1]], markers=[2, 6])
    after, _ = GAME.play(placed, RED, "place 1 at c3")
    assert markers_on(after) == {"c3": "R"} and after.markers == [1, 6]


def test_capturing_without_a_marker_takes_theirs_and_leaves_the_tile_neutral(
        hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 5 5 5")
    state = position({"c4": "1 1 1 1 *B"}, hands=[[red], [1]], markers=[0, 6])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "N"} and after.held == [1, 0]
    assert scores(after) == [1, 0]


# --------------------------------------------------------------------------- piercer, barrier


def test_piercer_attacks_beat_everything_but_a_barrier(hand_tiles: Any) -> None:
    piercer = hand_tiles(0, "P P P P")
    state = position({"c4": "9 9 9 9 *B", "d3": "9 9 9 P *B", "c2": "B 9 9 9 *B",
                      "b3": "9 9 9 9 *B"}, hands=[[piercer], [1]])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    # north: 9 falls; east: a piercer defending loses to a piercer; south: the barrier holds
    assert markers_on(after) == {"c4": "R", "d3": "R", "c2": "B", "b3": "R"}


def test_a_piercer_cannot_defend_against_any_attack(hand_tiles: Any) -> None:
    one = hand_tiles(0, "1 1 1 1")
    state = position({"c4": "9 9 P 9 *B"}, hands=[[one], [1]])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "R"}


def test_piercer_against_piercer_in_the_beats_rule() -> None:
    assert bt.beats(bt.PIERCER, bt.PIERCER)
    assert bt.beats(bt.PIERCER, 9) and bt.beats(1, bt.PIERCER)
    assert not bt.beats(bt.PIERCER, bt.BARRIER)
    assert not bt.beats(bt.BARRIER, 1) and not bt.beats(9, bt.BARRIER)
    assert not bt.beats(bt.BARRIER, bt.PIERCER)  # a barrier never attacks
    assert bt.beats(3, 2) and not bt.beats(2, 2) and not bt.beats(1, 2)


def test_a_barrier_defends_against_anything_and_cannot_attack(hand_tiles: Any) -> None:
    barrier = hand_tiles(0, "B B B B")
    state = position({"c4": "1 1 1 1 *B"}, hands=[[barrier], [1]])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "B"}
    assert after.last is not None and after.last["defeated"] == []


def test_a_chain_stops_at_a_tile_whose_far_side_is_a_barrier(hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 1 1 1")
    state = position({"c4": "B 1 1 1 *B", "c5": "1 1 1 1 *B"}, hands=[[red], [1]])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "R", "c5": "B"}


def test_a_defeated_piercer_carries_the_chain_on_as_a_piercer(hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 1 1 1")
    state = position({"c4": "P 1 1 1 *B", "c5": "9 9 9 9 *B"}, hands=[[red], [1]])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"c4": "R", "c5": "R"}


# --------------------------------------------------------------------------- power tokens


def test_power_tokens_go_only_with_a_non_scoring_tile_once_per_turn(hand_tiles: Any) -> None:
    scoring = hand_tiles(0, "1 1 1 1", scoring=True)
    plain = hand_tiles(1, "1 1 1 1")
    state = position(hands=[[scoring, plain], [2]], tokens=[["chaos", "life"], list(bt.TOKENS)])
    refused(state, RED, "place 1 at c3 with life", IllegalMove,
            "Power tokens go only with a non-scoring tile, and tile 1 is a scoring tile.")
    refused(state, RED, "place 2 at c3 with death", IllegalMove,
            "You have already used your death token.")
    refused(state, RED, "place 2 at c3 with life and chaos", InvalidMove,
            "Only one power token can be used in a turn. Place a tile from your hand by its "
            "number, e.g. 'place 1 at a1', or with a power token: 'place 2 at a1 with chaos'.")
    after, _ = GAME.play(state, RED, "place 2 at c3 with life")
    assert after.tokens[RED] == ["chaos"]


def test_rotate_turns_a_defeated_tile_before_its_chain_goes_on_straight(hand_tiles: Any
                                                                       ) -> None:
    """Red places on c3 attacking north. c4 is defeated; red turns it clockwise, so its
    west side (6) faces north and the chain goes on north against c5's 5."""
    red = hand_tiles(0, "5 1 1 1")
    state = position({"c4": "1 1 1 6 *B", "c5": "1 1 5 1 *B"}, hands=[[red], [1]])
    paused, _ = GAME.play(state, RED, "place 1 at c3 with rotate")
    assert paused.phase == "rotate" and GAME.to_act(paused) == {RED}
    refused(state, RED, "done", InvalidMove, "A turn ends with its tile placed; nobody "
            "passes. Place a tile from your hand by its number, e.g. 'place 1 at a1', or with "
            "a power token: 'place 1 at a1 with rotate'.")
    refused(paused, RED, "yes", InvalidMove, "Say which way to turn the defeated tile, left or "
            "right. Turn the defeated tile or not: 'rotate c4 left', 'rotate c4 right' or 'no "
            "rotate'.")
    for typed in ("no", "rotate left"):  # before any rotate token asks: in their own words
        refused(state, RED, typed, IllegalMove,
                f"You can't '{typed}' now: your turn is at placing a tile (the rotate and "
                "chaos tokens ask their questions only after a placement that uses them). "
                "Place a tile from your hand by its number, e.g. 'place 1 at a1', or with a "
                "power token: 'place 1 at a1 with rotate'.")
    assert GAME.legal_moves(paused, RED) == ["rotate c4 left", "rotate c4 right", "no rotate"]
    assert markers_on(paused) == {"c4": "R", "c5": "B"}  # c4 is already captured
    refused(paused, RED, "rotate c5 left", IllegalMove,
            "The rotate token can only turn the tile just defeated, c4.")
    refused(paused, RED, "place 1 at a1", IllegalMove,
            "You can't 'place 1 at a1' now: your rotate token waits for your answer on the "
            "tile just defeated, before anything else. Turn the defeated tile or not: "
            "'rotate c4 left', "
            "'rotate c4 right' or 'no rotate'.")
    refused(paused, BLUE, "no rotate", NotYourTurn,
            "It is not your turn: the game is waiting for seat 1.")
    turned, _ = GAME.play(paused, RED, "rotate right")  # the square may be left out
    assert turned.sides[INDEX["c4"]] == [6, 1, 1, 1]
    assert markers_on(turned) == {"c4": "R", "c5": "R"}
    assert turned.tokens[RED] == ["chaos", "death", "life"] and GAME.to_act(turned) == {BLUE}
    # Without turning, the 1 on c4's north side does not beat c5.
    kept, _ = GAME.play(paused, RED, "no rotate")
    assert markers_on(kept) == {"c4": "R", "c5": "B"}


def test_rotate_declined_waits_for_the_next_defeated_tile(hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 5 1 1")
    state = position({"c4": "1 1 1 1", "d3": "1 1 1 1 *B"}, hands=[[red], [1]])
    paused, _ = GAME.play(state, RED, "place 1 at c3 with rotate")
    assert paused.pending == {"square": INDEX["c4"], "direction": 0}
    assert "rotate" in paused.tokens[RED]  # not spent until a tile is turned
    for half in ("place 1", "place c2"):  # half a placement names the step, as a whole does
        with pytest.raises(rules.IllegalMove, match=(
                f"^You can't '{half}' now: your rotate token waits for your answer")):
            GAME.play(paused, RED, half)
    again, _ = GAME.play(paused, RED, "no rotate")
    assert again.phase == "rotate" and again.pending is not None
    assert again.pending["square"] == INDEX["d3"]
    done, _ = GAME.play(again, RED, "rotate d3 left")
    assert done.sides[INDEX["d3"]] == [1, 1, 1, 1] and done.phase == "place"
    assert done.tokens[RED] == ["chaos", "death", "life"]


def test_the_rotate_token_is_spent_only_when_it_turns_a_tile(hand_tiles: Any) -> None:
    """"The token is discarded from the game after use": played with a tile that defeats
    nothing, or with every rotation declined, it was not used, and the player keeps it."""
    red = hand_tiles(0, "5 5 1 1")
    quiet = position(hands=[[red], [1]])
    after, events = GAME.play(quiet, RED, "place 1 at c3 with rotate")  # nothing to defeat
    assert after.tokens[RED] == bt.TOKENS and GAME.to_act(after) == {BLUE}
    assert ("No tile was turned (nothing was defeated): Red keeps the rotate token."
            in texts(events))
    state = position({"c4": "1 1 1 1", "d3": "1 1 1 1 *B"}, hands=[[red], [1]])
    paused, _ = GAME.play(state, RED, "place 1 at c3 with rotate")
    again, _ = GAME.play(paused, RED, "no rotate")
    declined, events = GAME.play(again, RED, "no rotate")
    assert declined.tokens[RED] == bt.TOKENS and GAME.to_act(declined) == {BLUE}
    assert ("No tile was turned (Red left every defeated tile as it was): Red keeps the "
            "rotate token." in texts(events))
    view = GAME.view(declined, None)
    assert "rotate" in view["tokens"][RED]


def test_chaos_replaces_the_attack_and_swaps_the_markers_at_the_corners(hand_tiles: Any
                                                                       ) -> None:
    """b4 (red) and d2 (blue) touch c3's corners: they change colour; c4 (blue) touches its
    side: no attack, no swap, though c3's 9 would beat it."""
    red = hand_tiles(0, "9 9 9 9")
    state = position({"b4": "1 1 1 1 *R", "d2": "1 1 1 1 *B", "d4": "1 1 1 1",
                      "c4": "1 1 1 1 *B"}, hands=[[red], [1]], markers=[4, 3])
    after, events = GAME.play(state, RED, "place 1 at c3 with chaos")
    assert markers_on(after) == {"b4": "B", "d2": "R", "c4": "B"}
    assert after.markers == [4, 3] and after.held == [0, 0]
    assert after.last is not None and after.last["defeated"] == []
    assert "Chaos turns b4 from red to blue and d2 from blue to red." in texts(events)


def test_chaos_short_of_markers_lets_the_current_player_choose_the_neutral_tiles(
        hand_tiles: Any) -> None:
    red = hand_tiles(0, "1 1 1 1")
    state = position({"b4": "1 1 1 1 *R", "d4": "1 1 1 1 *R", "b2": "1 1 1 1 *R",
                      "d2": "1 1 1 1 *B"}, hands=[[red], [1]], markers=[0, 1])
    # Blue gets 1 marker back from d2 and has 2: three red tiles want blue, one stays neutral.
    paused, _ = GAME.play(state, RED, "place 1 at c3 with chaos")
    assert paused.phase == "chaos" and GAME.to_act(paused) == {RED}
    assert GAME.legal_moves(paused, RED) == ["neutral b2", "neutral b4", "neutral d4"]
    refused(paused, RED, "neutral d2", IllegalMove,
            "d2 is not a tile that can be left neutral; choose b2, b4 or d4.")
    after, _ = GAME.play(paused, RED, "leave b4 neutral")
    assert markers_on(after) == {"b4": "N", "d4": "B", "b2": "B", "d2": "R"}
    assert after.markers == [2, 0] and GAME.to_act(after) == {BLUE}


def test_death_strikes_whoever_later_defeats_the_tile_after_all_chains(hand_tiles: Any
                                                                      ) -> None:
    """Blue defeats red's death tile on c4 and captures c2 in the same turn: after every
    chain, blue loses all its markers on the grid (c2 included) but keeps the red marker
    it won. The token stays on c4."""
    blue = hand_tiles(1, "5 1 5 1")
    state = position({"c4": "1 1 1 1 !death", "c2": "1 1 1 1 *R", "a1": "1 1 1 1 *B",
                      "e5": "1 1 1 1 *R"}, hands=[[0], [blue]], turn=BLUE, markers=[4, 5])
    after, events = GAME.play(state, BLUE, "place 1 at c3")
    assert markers_on(after) == {"c2": "N", "a1": "N", "e5": "R"}
    assert after.held == [0, 1] and after.markers == [4, 4]  # discarded, not returned
    assert after.token[INDEX["c4"]] == "death"
    assert any(e.text.startswith("Death strikes Blue: their markers on a1 and c2 are") for e
               in events)


def test_death_strikes_its_own_placer_too(hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 1 1 1")
    state = position({"c4": "1 1 1 1 !death", "a1": "1 1 1 1 *R"}, hands=[[red], [1]])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert markers_on(after) == {"a1": "N"}


def test_a_death_token_is_left_on_the_placed_tile(hand_tiles: Any) -> None:
    red = hand_tiles(0, "1 1 1 1")
    after, _ = GAME.play(position(hands=[[red], [1]]), RED, "place 1 at c3 with death")
    assert after.token[INDEX["c3"]] == "death" and "death" not in after.tokens[RED]


def test_life_makes_the_placed_tile_a_scoring_tile_that_can_be_captured(hand_tiles: Any
                                                                       ) -> None:
    red = hand_tiles(0, "1 1 1 1")
    blue = hand_tiles(1, "1 1 9 1")
    state = position(hands=[[red], [blue]])
    after, _ = GAME.play(state, RED, "place 1 at c3 with life")
    assert markers_on(after) == {"c3": "R"} and after.token[INDEX["c3"]] == "life"
    assert scores(after) == [1, 0] and after.markers == [5, 6]
    captured, _ = GAME.play(after, BLUE, "place 1 at c4")
    assert markers_on(captured) == {"c3": "B"} and scores(captured) == [0, 2]


# --------------------------------------------------------------------------- the end


def test_the_game_ends_when_every_tile_is_placed_and_points_decide() -> None:
    state = position({"a1": "1 1 1 1 *R", "b1": "1 1 1 1 *B", "c1": "1 1 1 1 *R"},
                     hands=[[], [5]], stacks=[[], []], turn=BLUE, held=[0, 1])
    after, events = GAME.play(state, BLUE, "place 1 at e5")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (2, 2)
    assert outcome.winners == {BLUE}  # equal points: more opponent markers held
    assert outcome.reason == ("Every tile has been placed (21 squares left empty). Blue wins "
                              "with 2 points against 2, on more opponent markers held.")
    assert events[-1].kind == "end" and GAME.to_act(after) == frozenset()
    refused(after, RED, "place 1 at a2", GameOver,
            "The game is over; start a new one to play again.")


def test_equal_points_and_markers_held_go_to_more_tiles_defeated() -> None:
    state = position({"a1": "1 1 1 1 *R", "b1": "1 1 1 1 *B"}, hands=[[], [5]],
                     stacks=[[], []], turn=BLUE, held=[1, 1], defeats=[6, 5])
    after, _ = GAME.play(state, BLUE, "place 1 at e5")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (2, 2) and outcome.winners == {RED}
    assert outcome.reason.endswith("Red wins with 2 points against 2, on more tiles "
                                   "defeated (6/5).")
    assert outcome.ending == "tie-break"


def test_a_defeat_counts_for_the_player_whose_turn_it_is(hand_tiles: Any) -> None:
    red = hand_tiles(0, "5 5 1 1")
    state = position({"c4": "2 1 1 1 *R", "d3": "1 1 1 1", "c5": "1 1 1 1 *B"},
                     hands=[[red], [1]], defeats=[2, 3])
    after, _ = GAME.play(state, RED, "place 1 at c3")
    assert after.defeats == [5, 3]  # c4 (its own), c5 in the chain, d3
    assert GAME.view(after, None)["defeats"] == [5, 3]


def test_equal_points_markers_held_and_defeats_are_a_draw() -> None:
    state = position({"a1": "1 1 1 1 *R", "b1": "1 1 1 1 *B"}, hands=[[], [5]],
                     stacks=[[], []], turn=BLUE)
    after, _ = GAME.play(state, BLUE, "place 1 at e5")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == {RED, BLUE}
    assert outcome.reason.endswith("A draw at 1 point each, with as many opponent markers "
                                   "held and tiles defeated (0/0).")


def test_a_player_without_tiles_is_skipped_until_the_other_has_none() -> None:
    state = position(hands=[[5, 6], [7]], stacks=[[], []], turn=BLUE)
    after, _ = GAME.play(state, BLUE, "place 1 at a1")
    assert GAME.to_act(after) == {RED}
    after, _ = GAME.play(after, RED, "place 1 at a2")
    assert GAME.to_act(after) == {RED}
    after, _ = GAME.play(after, RED, "place 1 at a3")
    assert GAME.outcome(after) is not None


def test_a_whole_seeded_game_ends_after_24_tiles() -> None:
    state = GAME.new(players=2, seed=11)
    steps = 0
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.play(state, seat, GAME.legal_moves(state, seat)[-1])
        steps += 1
    assert state.placed == 24 and steps >= 24
    assert sum(t >= 0 for t in state.tile) == 24


# --------------------------------------------------------------------------- notation


def test_forgiving_notation() -> None:
    state = position(hands=[[5, 6], [7]])
    canonical = GAME.play(state, RED, "place 2 at c3 with death")[0]
    for text in ("Place #2 on C3 with Death", "2 c3 death", "play 2 c3 using the death token",
                 "put tile 2 at c3, death."):
        assert GAME.dump(GAME.play(state, RED, text)[0]) == GAME.dump(canonical), text
    refused(state, RED, "neutral b2", IllegalMove,
            "You can't 'neutral b2' now: your turn is at placing a tile (the rotate and chaos "
            "tokens ask their questions only after a placement that uses them). Place a tile "
            "from your hand by its number, "
            "e.g. 'place 1 at a1', or with a power token: 'place 1 at a1 with rotate'.")
    refused(state, RED, "place 3 at c3", IllegalMove,
            "You hold 2 tiles: choose a number from 1 to 2.")
    refused(position({"c3": "1 1 1 1"}, hands=[[5], [7]]), RED, "place 1 at c3", IllegalMove,
            "c3 already holds a tile.")
    refused(state, RED, "place 2 at c3 with fireball", InvalidMove,
            "I don't know 'fireball'. Place a tile from your hand by its number, e.g. "
            "'place 1 at a1', or with a power token: 'place 1 at a1 with rotate'.")
    refused(state, RED, "rotate c3 left", IllegalMove,
            "You can't 'rotate c3 left' now: your turn is at placing a tile (the rotate and "
            "chaos tokens ask their questions only after a placement that uses them). Place "
            "a tile from your hand by its number, e.g. "
            "'place 1 at a1', or with a power token: 'place 1 at a1 with rotate'.")
    refused(state, RED, "place c3", InvalidMove,
            "Say which tile of your hand and where. Place a tile from your hand by its "
            "number, e.g. 'place 1 at a1', or with a power token: 'place 1 at a1 with rotate'.")


# --------------------------------------------------------------------------- hidden information


def test_only_a_seats_own_view_holds_its_hand_and_determinize_keeps_it() -> None:
    state = GAME.new(players=2, seed=3)
    spectator = GAME.view(state, None)
    assert "hand" not in spectator and spectator["hand_counts"] == [3, 3]
    mine = GAME.view(state, RED)
    assert [t["number"] for t in mine["hand"]] == [1, 2, 3]
    assert mine["hand"][0]["sides"] == [bt._shown(v) for v in bt.TILE_SIDES[state.hands[RED][0]]]
    changed = 0
    for seed in range(10):
        twin = GAME.determinize(state, RED, seed)
        assert twin.hands[RED] == state.hands[RED]
        assert GAME.view(twin, RED) == mine
        assert Counter(twin.hands[BLUE] + twin.stacks[BLUE]) == Counter(range(12))
        changed += twin.hands[BLUE] != state.hands[BLUE]
    assert changed >= 5


# --------------------------------------------------------------------------- every effect said


def test_a_placed_scoring_tile_says_whose_marker_it_takes(hand_tiles: Any) -> None:
    scoring = hand_tiles(0, "1 1 1 1", scoring=True)
    _, events = GAME.play(position(hands=[[scoring], [1]]), RED, "place 1 at c3")
    assert texts(events)[:3] == [
        "Red places a scoring tile 1-1-1-1 on c3.",
        "c3 is a scoring tile: Red puts a red marker on it (1 point while it stays red).",
        "c3 touches no tile by a side, so it attacks nothing."]


def test_attacks_that_fail_say_why(hand_tiles: Any) -> None:
    """c3 (2 2 2 B) against c4's 3, d3's tie at 2, c2's barrier; its barrier side (west)
    never attacks b3."""
    tile = hand_tiles(0, "2 2 2 B")
    state = position({"c4": "9 9 3 9", "d3": "9 9 9 2", "c2": "B 9 9 9", "b3": "1 1 1 1"},
                     hands=[[tile], [1]])
    _, events = GAME.play(state, RED, "place 1 at c3")
    assert ("Attacks that fail: c3 (2) against c4 (3); c3 (2) against d3 (2), a tie; "
            "c3 (2) against c2's barrier, which holds against all; c3's barrier side never "
            "attacks b3.") in texts(events)


def test_each_defeat_says_what_it_captured_or_why_nothing(hand_tiles: Any) -> None:
    """North: blue's scoring c4 is captured; east: d3 is no scoring tile; south: red's own
    c2; west: the neutral b3."""
    red = hand_tiles(0, "5 5 5 5")
    state = position({"c4": "1 1 1 1 *B", "d3": "1 1 1 1", "c2": "1 1 1 1 *R",
                      "b3": "1 1 1 1 *N"}, hands=[[red], [1]])
    after, events = GAME.play(state, RED, "place 1 at c3")
    said = texts(events)
    assert ("c3 (5) defeats c4 (1) and captures it: Red takes Blue's marker (1 point) and "
            "puts a red marker on it (1 point while it stays red).") in said
    assert "c3 (5) defeats d3 (1), not a scoring tile: nothing to capture." in said
    assert "c3 (5) defeats c2 (1), Red's own tile: no capture." in said
    assert ("c3 (5) defeats b3 (1) and captures the neutral tile (no opponent marker on it to "
            "take) and puts a red marker on it (1 point while it stays red).") in said
    assert scores(after) == [1 + 3, 0]


def test_death_says_when_it_is_laid_set_off_and_what_it_took(hand_tiles: Any) -> None:
    red = hand_tiles(0, "1 1 1 1")
    _, events = GAME.play(position(hands=[[red], [1]]), RED, "place 1 at c3 with death")
    assert ("Red spends the death token: it stays on c3, and whoever defeats c3 later "
            "(either player) loses every marker they have on the grid, once that turn's "
            "attacks are over.") in texts(events)
    blue = hand_tiles(1, "5 1 5 1")
    state = position({"c4": "1 1 1 1 !death", "c2": "1 1 1 1 *R", "a1": "1 1 1 1 *B"},
                     hands=[[0], [blue]], turn=BLUE)
    _, events = GAME.play(state, BLUE, "place 1 at c3")
    said = texts(events)
    assert ("c4 carries the death token: death strikes Blue once this turn's attacks are "
            "over.") in said
    assert ("Death strikes Blue: their markers on a1 and c2 are discarded from the game and "
            "those tiles are neutral (Blue loses 2 points; opponent markers already won are "
            "kept).") in said
    assert said.index("Death strikes Blue: their markers on a1 and c2 are discarded from the "
                      "game and those tiles are neutral (Blue loses 2 points; opponent markers "
                      "already won are kept).") > said.index(
        "c4 carries the death token: death strikes Blue once this turn's attacks are over.")
    empty = position({"c4": "1 1 1 1 !death"}, hands=[[0], [blue]], turn=BLUE)
    _, events = GAME.play(empty, BLUE, "place 1 at c3")
    assert ("Death strikes Blue: they have no marker on the grid, so nothing is lost."
            in texts(events))


def test_life_says_the_tile_now_scores_and_takes_a_marker(hand_tiles: Any) -> None:
    red = hand_tiles(0, "1 1 1 1")
    _, events = GAME.play(position(hands=[[red], [1]]), RED, "place 1 at c3 with life")
    assert texts(events)[1:3] == [
        "Red spends the life token: it stays on c3, which is a scoring tile for the rest of "
        "the game.",
        "c3 is a scoring tile: Red puts a red marker on it (1 point while it stays red)."]
    _, events = GAME.play(position(hands=[[red], [1]], markers=[0, 6]), RED,
                          "place 1 at c3 with life")
    assert "Red has no colour marker left: c3 stays neutral." in texts(events)


def test_chaos_says_what_it_does_and_why_it_changed_nothing(hand_tiles: Any) -> None:
    red = hand_tiles(0, "9 9 9 9")
    state = position({"b4": "1 1 1 1", "d2": "1 1 1 1 *N", "c4": "1 1 1 1 *B"},
                     hands=[[red], [1]])
    after, events = GAME.play(state, RED, "place 1 at c3 with chaos")
    assert texts(events)[1:3] == [
        "Red spends the chaos token: c3 attacks nothing; instead the tiles touching its "
        "corners change marker colour.",
        "No tile touching c3's corners carries a colour marker, so chaos changes nothing "
        "(the token is spent all the same)."]
    assert "chaos" not in after.tokens[RED] and markers_on(after)["c4"] == "B"


def test_chaos_short_of_markers_says_who_chooses_and_what_was_left(hand_tiles: Any) -> None:
    red = hand_tiles(0, "1 1 1 1")
    state = position({"b4": "1 1 1 1 *R", "d4": "1 1 1 1 *R", "b2": "1 1 1 1 *R",
                      "d2": "1 1 1 1 *B"}, hands=[[red], [1]], markers=[0, 1])
    paused, events = GAME.play(state, RED, "place 1 at c3 with chaos")
    assert ("Chaos: Blue has only 2 markers for 3 tiles (b2, b4 and d4): Red chooses which "
            "tile stays neutral.") in texts(events)
    _, events = GAME.play(paused, RED, "neutral b4")
    assert texts(events)[:2] == [
        "Red leaves b4 neutral: its red marker went back and Blue has no marker for it.",
        "Chaos turns b2 from red to blue, d2 from blue to red and d4 from red to blue."]


def test_rotate_says_how_it_turned_the_tile_and_where_the_chain_goes(hand_tiles: Any
                                                                    ) -> None:
    red = hand_tiles(0, "5 1 1 1")
    state = position({"c4": "1 1 1 6 *B", "c5": "1 1 5 1 *B"}, hands=[[red], [1]])
    paused, events = GAME.play(state, RED, "place 1 at c3 with rotate")
    said = texts(events)
    assert ("Red plays the rotate token: each time a tile is defeated this turn, Red may turn "
            "it a quarter before its chain goes on. It is spent only when it turns a tile."
            ) in said
    assert ("Red may turn c4 with the rotate token before its chain goes on north: 'rotate "
            "c4 left', 'rotate c4 right' or 'no rotate'.") in said
    _, events = GAME.play(paused, RED, "rotate c4 right")
    assert texts(events)[0] == ("Red turns c4 clockwise and spends the rotate token: its "
                                "sides now read 6-1-1-1, and its 6 faces north, where its "
                                "chain goes on.")
    _, events = GAME.play(paused, RED, "no rotate")
    assert texts(events)[0] == ("Red leaves c4 as it is; the rotate token waits for the next "
                                "tile defeated this turn.")


def test_an_empty_stack_and_a_skipped_turn_are_said() -> None:
    state = position(hands=[[5, 6], [7]], stacks=[[], []], turn=BLUE)
    after, events = GAME.play(state, BLUE, "place 1 at a1")
    assert "Blue's stack is empty, so no tile is drawn: no tile left." in texts(events)
    _, events = GAME.play(after, RED, "place 1 at a2")
    said = texts(events)
    assert "Red's stack is empty, so no tile is drawn: 1 tile left in hand." in said
    assert "Blue has no tile left: Red places again." in said


# --------------------------------------------------------------------------- costs


def test_moves_that_use_a_power_token_say_what_they_cost(hand_tiles: Any) -> None:
    state = position(hands=[[0, 5], [1]])  # tile 1 scores (no token), tile 2 does not
    moves = GAME.legal_moves(state, RED)
    costs = GAME.costs(state, RED)
    assert GAME.legal_moves(state, RED) == moves  # asking costs changes nothing
    assert costs["place 2 at a1 with death"] == "spends the death token"
    assert costs["place 2 at a1 with life"] == "spends the life token"
    assert costs["place 2 at a1 with chaos"] == "spends the chaos token"
    assert costs["place 2 at a1 with rotate"] == "spent only if it turns a tile"
    assert set(costs) == {m for m in moves if " with " in m}  # plain placements are free
    assert all(len(c) <= 30 for c in costs.values())
    red = hand_tiles(0, "5 1 1 1")
    paused, _ = GAME.play(position({"c4": "1 1 1 1"}, hands=[[red], [1]]), RED,
                          "place 1 at c3 with rotate")
    assert GAME.costs(paused, RED) == {"rotate c4 left": "spends the rotate token",
                                       "rotate c4 right": "spends the rotate token"}
    assert GAME.costs(paused, BLUE) == {}


# --------------------------------------------------------------------------- the computer's sense


def test_the_playout_policy_takes_the_capture_that_pays(hand_tiles: Any) -> None:
    red = hand_tiles(6, "5 5 5 5")
    state = position({"c4": "1 1 1 1 *B", "a1": "1 1 1 1 *R"}, hands=[[0, red], [1]])
    move = GAME.policy(state, RED, GAME.moves(state, RED), Random(1))
    assert move is not None and move.startswith("place 2 at ")
    assert move.split()[3] in {"b4", "d4", "c3", "c5"}  # beside c4, which it captures


def test_the_playout_policy_keeps_a_new_scoring_tile_out_of_reach(hand_tiles: Any) -> None:
    """A weak scoring tile goes where no tile of the other's hand can attack it: a1, closed
    in by b1 and a2 (which it cannot defeat), not in the open."""
    red = hand_tiles(0, "1 1 1 1", scoring=True)
    blue = hand_tiles(6, "5 5 5 5")
    state = position({"a2": "6 6 6 6", "b1": "6 6 6 6"}, hands=[[red], [blue]])
    for seed in range(5):
        assert GAME.policy(state, RED, GAME.moves(state, RED), Random(seed)) == "place 1 at a1"


def test_evaluate_rates_an_own_scoring_tile_open_to_attack_below_a_safe_one(
        hand_tiles: Any) -> None:
    blue = hand_tiles(6, "5 5 5 5")
    safe = position({"a1": "6 6 6 6 *R", "a2": "6 6 6 6", "b1": "6 6 6 6"}, hands=[[1], [blue]])
    open_ = position({"c3": "1 1 1 1 *R", "a2": "6 6 6 6", "b1": "6 6 6 6"},
                     hands=[[1], [blue]])
    assert GAME.evaluate(safe, RED) > GAME.evaluate(open_, RED)
    assert GAME.evaluate(safe, BLUE) < GAME.evaluate(open_, BLUE)


def test_the_computer_remarks_on_attacks_and_tokens_from_the_public_view() -> None:
    state = position({"c4": "1 1 1 1 *B", "d4": "1 1 1 1 *R", "b2": "2 2 2 2 *B"},
                     hands=[[6, 7], [1]])
    public = GAME.view(state, None)
    assert "hand" not in public  # the remark cannot know the tile placed
    assert GAME.remark(public, RED, "place 1 at c3", 0.71) == (
        "Red places on c3 to attack Blue's scoring tile c4 (its search rates the move 71%).")
    assert GAME.remark(public, RED, "place 1 at a5", None) is None  # nothing to attack
    assert GAME.remark(public, RED, "place 2 at c3 with death", None) == (
        "Red leaves the death token on c3: whoever defeats it loses every marker they have "
        "on the grid.")
    assert GAME.remark(public, RED, "place 2 at c3 with chaos", None) == (
        "Red plays chaos on c3, turning b2 to red and d4 to blue.")
    assert GAME.remark(public, RED, "place 2 at e1 with life", 0.5) == (
        "Red makes e1 a scoring tile with the life token (its search rates the move 50%).")


def test_the_computer_remarks_on_a_tile_it_turns_with_rotate(hand_tiles: Any) -> None:
    red = hand_tiles(6, "5 1 1 1")
    state = position({"c4": "1 1 1 6", "c5": "1 1 3 1 *B"}, hands=[[red], [1]])
    paused, _ = GAME.play(state, RED, "place 1 at c3 with rotate")
    public = GAME.view(paused, None)
    assert GAME.remark(public, RED, "rotate c4 right", 0.6) == (
        "Red turns c4 clockwise with the rotate token, so that its 6 faces north and attacks "
        "c5 (its search rates the move 60%).")
    assert GAME.remark(public, RED, "no rotate", 0.6) is None
