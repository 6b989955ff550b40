"""Block Buster: one scenario per rule of ``rules/block-buster.md``, from positions built with
``load``, and the seed's worked examples.

Squares are named like the picture: files a-t left to right, ranks 1-20 bottom to top. The
point block of the 4x4 cell whose lower-left square is e5 stands on f6-g7; its 12 counting
spaces are the rest of e5-h8.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import GameError, GameOver, IllegalMove, InvalidMove, NotYourTurn
from rules.block_buster import (
    BLOCK_CELLS,
    DATA,
    KINDS,
    POINT_BLOCKS,
    SHAPES,
    BlockState,
    square_xy,
)
from tests.refusals import assert_refused

GAME = rules.GAMES["block-buster"]
BLUE, RED, YELLOW, GREEN = 0, 1, 2, 3
DIAMOND_E5 = 6  # the point block of the cell e5-h8: a diamond
RING_E5 = ["e5", "f5", "g5", "h5", "e6", "h6", "e7", "h7", "e8", "f8", "g8", "h8"]


def position(players: int = 2, *, squares: dict[str, int] | None = None,
             previous: list[list[str]] | None = None, turn: int = BLUE,
             tokens: list[list[int]] | None = None, supply: int | None = None,
             blocks: list[list[str]] | None = None, options: dict[str, Any] | None = None,
             **extra: Any) -> BlockState:
    """A game in progress: ``squares`` maps a square to the colour holding it."""
    data = GAME.dump(GAME.new(players, seed=1, options=options))
    rows = [list(row) for row in data["board"]]
    for square, colour in (squares or {}).items():
        x, y = square_xy(square)
        assert rows[y][x] == ".", f"{square} is not an empty square inside the area"
        rows[y][x] = str(colour)
    data["board"] = ["".join(row) for row in rows]
    colours = len(data["owners"])
    data["previous"] = previous or [[] for _ in range(colours)]
    data["turn"] = turn
    data["order"] = [(turn + k) % colours for k in range(colours)]
    data["tokens"] = tokens if tokens is not None else [[] for _ in range(players)]
    used = sum(1 for t in data["tokens"] for v in t if v == -2)
    data["supply"] = {"-2": 8 - used if supply is None else supply,
                      "-1": 8 - sum(1 for t in data["tokens"] for v in t if v == -1)}
    if blocks is not None:
        data["blocks"] = blocks
    data.update(extra)
    return GAME.load(data)


refused = partial(assert_refused, GAME)


def holder(state: BlockState, square: str) -> str:
    x, y = square_xy(square)
    return state.board[y][x]


# --------------------------------------------------------------------------- components


def test_the_board_has_25_point_blocks_of_5_shapes_with_12_spaces_each() -> None:
    assert (DATA["board"]["files"], DATA["board"]["ranks"]) == (20, 20)
    assert len(POINT_BLOCKS) == 25
    assert Counter(p["kind"] for p in POINT_BLOCKS) == {k: 5 for k in KINDS}
    spaces = [s for p in POINT_BLOCKS for s in p["spaces"]]
    stands = [s for p in POINT_BLOCKS for s in p["squares"]]
    assert all(len(p["spaces"]) == 12 and len(p["squares"]) == 4 for p in POINT_BLOCKS)
    assert len(set(spaces)) == 300 and not set(spaces) & set(stands)  # each space counts once
    assert len(set(spaces) | set(stands)) == 400
    layout = [row.split() for row in DATA["point_layout"]][::-1]  # bottom row first
    assert all(layout[p["cell"][1]][p["cell"][0]] == p["kind"] for p in POINT_BLOCKS)


@pytest.mark.parametrize(("players", "expected"), [
    (2, {"circle": 3, "triangle": 3, "diamond": 3, "star": 2, "hexagon": 2}),
    (3, {"circle": 4, "triangle": 4, "diamond": 4, "star": 4, "hexagon": 5}),
    (4, {"circle": 5, "triangle": 5, "diamond": 5, "star": 5, "hexagon": 5}),
])
def test_the_placing_area_holds_enough_of_a_shape_for_the_immediate_win(
        players: int, expected: dict[str, int]) -> None:
    view = GAME.view(GAME.new(players, seed=1), None)
    in_play = Counter(p["kind"] for p in view["point_blocks"] if p["in_play"])
    assert in_play == expected
    board = "".join(view["board"])
    assert board.count(".") == 12 * sum(expected.values())  # all their spaces, nothing else


def test_sixteen_distinct_block_shapes_of_one_to_five_squares() -> None:
    assert len(BLOCK_CELLS) == 16
    assert Counter(len(c) for c in BLOCK_CELLS.values()) == {1: 1, 2: 1, 3: 2, 4: 5, 5: 7}
    assert sum(len(c) for c in BLOCK_CELLS.values()) == 64
    every = [set(o.cells) for shapes in SHAPES.values() for o in shapes]
    assert len({frozenset(s) for s in every}) == len(every)  # no shape is another one turned
    turns = {name: len(shapes) for name, shapes in SHAPES.items()}
    assert turns == {"5i": 2, "5l": 8, "5p": 8, "5t": 4, "5u": 4, "5v": 4, "5z": 4, "4i": 2,
                     "4l": 8, "4o": 1, "4s": 4, "4t": 4, "3i": 2, "3l": 4, "2i": 2, "1i": 1}


@pytest.mark.parametrize(("players", "count", "aside"), [
    (2, 14, {"5z", "5v"}), (3, 15, {"5z"}), (4, 16, set())])
def test_players_take_14_15_or_16_blocks(players: int, count: int, aside: set[str]) -> None:
    state = GAME.new(players, seed=3)
    for kit in state.blocks:
        assert len(kit) == count and set(BLOCK_CELLS) - set(kit) == aside


@pytest.mark.parametrize(("players", "penalties"), [
    (2, [-2, 0]), (3, [-2, -1, 0]), (4, [-3, -1, 0, 0])])
def test_starting_penalties_by_turn_order(players: int, penalties: list[int]) -> None:
    for seed in range(4):
        state = GAME.new(players, seed=seed)
        by_turn = [sum(state.tokens[(state.start + k) % players]) for k in range(players)]
        assert by_turn == penalties
        taken = Counter(v for t in state.tokens for v in t)
        assert state.supply == {"-2": 8 - taken[-2], "-1": 8 - taken[-1]}
        assert state.turn == state.start


def test_the_starting_player_is_drawn_by_lot() -> None:
    assert {GAME.new(2, seed=s).start for s in range(12)} == {0, 1}


# --------------------------------------------------------------------------- placing


def test_the_first_block_goes_anywhere_inside_the_placing_area() -> None:
    state = position()
    moves = GAME.legal_moves(state, BLUE)
    assert "1i r0 e5" in moves and "5i r0 i1" in moves and "4o r0 h9" in moves
    assert not any(m.endswith(" a1") for m in moves)  # a1 lies outside the 2-player area
    refused(state, BLUE, "1i a1", IllegalMove,
            "1i r0 a1 would cover a1, outside the placing area for 2 players.")
    refused(state, BLUE, "4o f6", IllegalMove,
            "4o r0 f6 would cover f6, part of the diamond point block on f6.")
    refused(state, BLUE, "5i r90 q9", IllegalMove, "5i r90 q9 would stick out of the board.")
    after, events = GAME.play(state, BLUE, "5L R90 E8")  # turned: a bar on top, a foot down
    assert sorted(after.previous[BLUE]) == ["e8", "e9", "f9", "g9", "h9"]
    assert all(holder(after, s) == "0" for s in after.previous[BLUE])
    assert events[0].text == "Blue places 5L r90 at e8."
    assert after.turn == RED and "5l" not in after.blocks[BLUE]


def test_a_later_block_shares_a_side_with_the_previous_one() -> None:
    state = position(squares={"e5": BLUE, "h8": BLUE}, previous=[["e5"], []])
    moves = GAME.moves(state, BLUE)
    assert moves["1i r0 e6"][-1] == 0 and moves["1i r0 f5"][-1] == 0
    assert moves["1i r0 h7"][-1] > 0  # next to an older block only: that is a skip
    after, events = GAME.play(state, BLUE, "1i e6")
    assert after.tokens[BLUE] == [] and events[0].text == "Blue places 1I r0 at e6."
    refused(after, BLUE, "1i e7", NotYourTurn,
            "It is not your turn: the game is waiting for seat 2.")
    refused(after, RED, "4o e5", IllegalMove,
            "4o r0 e5 would cover e5, which already holds a blue block.")


def test_seed_example_skipping_one_space_costs_one_minus_two_token() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []])
    after, events = GAME.play(state, BLUE, "1i e7")
    assert after.tokens[BLUE] == [-2] and after.supply["-2"] == 7
    assert events[0].text == ("Blue places 1I r0 at e7, skipping 1 space: that costs a -2 "
                              "penalty token, -2 points (penalties now -2).")
    beside, _ = GAME.play(state, BLUE, "1i f5")
    assert beside.tokens[BLUE] == []  # f5 shares a side with e5
    corner, _ = GAME.play(position(squares={"e5": BLUE, "f5": RED, "e6": RED},
                                   previous=[["e5"], []]), BLUE, "1i h5")
    assert corner.tokens[BLUE] == [-2, -2]


def test_seed_example_skipping_two_spaces_costs_two_tokens() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []], tokens=[[-2], []])
    after, events = GAME.play(state, BLUE, "1i e8")
    assert after.tokens[BLUE] == [-2, -2, -2] and after.supply["-2"] == 5
    assert ("skipping 2 spaces: that costs 2 penalty tokens of -2 each, -4 points (penalties "
            "now -6)" in events[0].text)


def test_penalties_never_go_below_minus_ten() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []], tokens=[[-2] * 4, []])
    refused(state, BLUE, "1i e8", IllegalMove,
            "1i r0 e8 does not touch your previous block: skipping 2 spaces would take your "
            "penalties from -8 to -12, below -10.")
    after, _ = GAME.play(state, BLUE, "1i e7")
    assert sum(after.tokens[BLUE]) == -10
    at_floor = position(squares={"e5": BLUE}, previous=[["e5"], []],
                        tokens=[[-2] * 4 + [-1, -1], []])
    assert all(detail[-1] == 0 for detail in GAME.moves(at_floor, BLUE).values())


def test_no_skipping_once_the_minus_two_tokens_are_gone() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []], supply=1)
    refused(state, BLUE, "1i e8", IllegalMove,
            "1i r0 e8 does not touch your previous block: skipping 2 spaces takes 2 -2 tokens, "
            "and the supply has 1 left.")
    empty = position(squares={"e5": BLUE}, previous=[["e5"], []], supply=0)
    assert {d[-1] for d in GAME.moves(empty, BLUE).values()} == {0}
    assert GAME.view(empty, None)["max_skip"] == 0


def test_rotations_and_mirror_images_are_allowed_and_named_canonically() -> None:
    state = position(squares={"e8": BLUE}, previous=[["e8"], []])
    moves = GAME.legal_moves(state, BLUE)
    assert {m.split()[1] for m in moves if m.startswith("5l ")} == {
        "r0", "r90", "r180", "r270", "f0", "f90", "f180", "f270"}
    after, _ = GAME.play(state, BLUE, "4o r270 f8")  # the same square, any turn
    assert GAME.play(state, BLUE, "4o f8")[0] == after
    turned, _ = GAME.play(state, BLUE, "4l flip 90 f8")  # mirrored, then a quarter turn
    assert turned.last is not None and turned.last["orientation"] == "f90"
    assert sorted(turned.last["squares"]) == ["f8", "f9", "g8", "h8"]
    assert GAME.play(state, BLUE, "3l f90 f8")[0].last == GAME.play(state, BLUE, "3l f8")[0].last


def test_pass_when_nothing_fits_and_the_game_ends_when_every_colour_has_passed() -> None:
    # Blue's previous block on e5 is hemmed in: the area ends west and south, Red holds
    # f5 and e6, and Blue's penalties are at the floor.
    state = position(squares={"e5": BLUE, "f5": RED, "e6": RED}, previous=[["e5"], ["f5"]],
                     tokens=[[-2] * 5, []])
    assert GAME.legal_moves(state, BLUE) == ["pass"]
    refused(state, BLUE, "1i e7", IllegalMove,
            "1i r0 e7 does not touch your previous block: skipping 1 space would take your "
            "penalties from -10 to -12, below -10.")
    after, events = GAME.play(state, BLUE, "pass")
    assert events[0].text == ("Blue cannot place a block and passes for good: its 54 squares "
                              "left over will cost 54 points at the end.")
    assert after.passed[BLUE] and after.turn == RED
    refused(after, RED, "pass", IllegalMove,
            "You may only pass when no block can touch your previous block; you can still "
            "play, e.g. '5i r90 g5'.")
    refused(position(), BLUE, "pass", IllegalMove,
            "You may only pass when no block fits; you can still play, e.g. '5i r0 i1'.")
    after, _ = GAME.play(after, RED, "1i g5")
    assert after.turn == RED  # Blue has passed for good: Red plays on alone
    done = position(squares={"e5": BLUE, "f5": RED, "e6": RED}, previous=[["e5"], ["f5"]],
                    tokens=[[-2] * 5, []], blocks=[["1i"], []], turn=RED)
    done, events = GAME.play(done, RED, "pass")
    assert events[0].text == "Red has no block left and passes."
    done, events = GAME.play(done, BLUE, "pass")
    assert [e.text for e in events if e.kind == "end"] == [
        "The game ends: Every colour has passed."]
    assert GAME.to_act(done) == frozenset()
    outcome = GAME.outcome(done)
    assert outcome is not None and outcome.ending == "points"
    assert outcome.reason == "Every colour has passed. Red wins on points."
    with pytest.raises(GameOver):
        GAME.play(done, BLUE, "pass")


def test_seed_a_blocked_player_may_use_penalty_tokens_or_pass() -> None:
    """"Yellow player cannot place his new block as his previous blocks are blocked by Blue
    player ... the player can use penalty tokens": can, so may also pass instead."""
    # Three players: Yellow's previous block on e1 has the area's edge west (d1 is in the
    # left-out corner cell) and south, and Blue on f1 and e2.
    state = position(3, squares={"e1": YELLOW, "f1": BLUE, "e2": BLUE},
                     previous=[["f1"], [], ["e1"]], turn=YELLOW)
    moves = GAME.moves(state, YELLOW)
    assert all(detail[-1] > 0 for m, detail in moves.items() if m != "pass")
    assert moves["1i r0 e3"][-1] == 1  # "skipping 1 space like picture 1": a -2 token
    assert "pass" in GAME.legal_moves(state, YELLOW)
    skipped, _ = GAME.play(state, YELLOW, "1i e3")
    assert skipped.tokens[YELLOW] == [-2]
    after, events = GAME.play(state, YELLOW, "pass")
    assert events[0].text == ("Yellow passes rather than skip and places no more blocks: its "
                              "59 squares left over will cost 59 points at the end.")
    assert after.passed[YELLOW] and after.tokens[YELLOW] == [] and after.turn == BLUE
    for _ in range(4):  # a player who passed is out: the others go round without Yellow
        (seat,) = GAME.to_act(after)
        assert seat != YELLOW
        after, _ = GAME.play(after, seat, GAME.legal_moves(after, seat)[0])
    assert GAME.view(after, None)["passed"] == [False, False, True]


# --------------------------------------------------------------------------- scoring


def _ended(players: int, squares: dict[str, int], **kw: Any) -> BlockState:
    kw.setdefault("passed", [True] * players)
    return position(players, squares=squares, result="Every colour has passed.", **kw)


def test_seed_example_seven_spaces_against_five_win_the_point_block() -> None:
    squares = dict.fromkeys(RING_E5[:7], BLUE) | dict.fromkeys(RING_E5[7:], RED)
    state = _ended(2, squares, blocks=[[], []])
    view = GAME.view(state, None)
    point = view["point_blocks"][DIAMOND_E5]
    assert point["kind"] == "diamond" and point["counts"] == [7, 5] and point["leader"] == BLUE
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (3, 0) and outcome.winners == {BLUE}


def test_a_tie_gives_nobody_the_point_block() -> None:
    squares = dict.fromkeys(RING_E5[:5], BLUE) | dict.fromkeys(RING_E5[5:10], RED)
    state = _ended(2, squares, blocks=[[], []])
    assert GAME.view(state, None)["point_blocks"][DIAMOND_E5]["leader"] is None
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (0, 0) and outcome.winners == {BLUE, RED}


RINGS_3P = {  # three star point blocks of the 3-player area, and their spaces
    "star1": ["i9", "j9", "k9", "l9", "i10", "l10", "i11", "l11", "i12", "j12", "k12", "l12"],
    "star2": ["q9", "r9", "s9", "t9", "q10", "t10", "q11", "t11", "q12", "r12", "s12", "t12"],
    "star3": ["a13", "b13", "c13", "d13", "a14", "d14", "a15", "d15", "a16", "b16", "c16",
              "d16"],
}


@pytest.mark.parametrize(("held", "points"), [(1, 3), (2, 7), (3, 12)])
def test_sets_of_one_shape_score_3_7_12_less_tokens_and_unplaced_squares(
        held: int, points: int) -> None:
    squares = {s: BLUE for ring in list(RINGS_3P.values())[:held] for s in ring[:7]}
    state = _ended(3, squares, blocks=[["5l", "1i"], [], []], tokens=[[-2], [-1], []])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (points - 2 - 6, -1, 0)


def test_three_of_a_shape_win_at_once_with_two_players() -> None:
    # Blue has won two circles for good and holds 6 spaces of the third (j18).
    squares = dict.fromkeys(["i5", "j5", "k5", "l5", "i6", "i7", "i8"], BLUE)
    squares |= dict.fromkeys(["e13", "f13", "g13", "h13", "e14", "e15", "e16"], BLUE)
    squares |= dict.fromkeys(["i17", "j17", "k17", "l17", "i18", "i19"], BLUE)
    state = position(squares=squares, previous=[["i19"], []])
    state = GAME.load({**GAME.dump(state), "secured": [
        BLUE if p["squares"][0] in ("j6", "f14") else -1 for p in POINT_BLOCKS]})
    after, events = GAME.play(state, BLUE, "1i i20")
    assert [e.text for e in events if e.kind == "end"] == [
        "The game ends at once: Blue won 3 circle point blocks."]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == {BLUE}
    assert GAME.to_act(after) == frozenset()


def test_four_of_a_shape_win_at_once_with_three_players_three_do_not() -> None:
    rings = list(RINGS_3P.values())
    squares = {s: BLUE for ring in rings for s in ring[:7]}
    del squares["a15"]
    state = position(3, squares=squares, previous=[["a14"], [], []])
    state = GAME.load({**GAME.dump(state), "secured": [
        BLUE if p["squares"][0] in ("j10", "r10") else -1 for p in POINT_BLOCKS]})
    after, events = GAME.play(state, BLUE, "1i a15")
    assert after.result is None and after.turn == RED
    assert ("Blue holds 7 of the 12 spaces of the star point block on b14 and has won it for "
            "good (7 to 0): no other colour can catch up.") in [e.text for e in events]
    assert [POINT_BLOCKS[n]["kind"] for n, s in enumerate(after.secured) if s == BLUE] == [
        "star"] * 3
    ring_n18 = ["m17", "n17", "o17", "p17", "m18", "p18", "m19", "p19"]
    fourth = position(3, squares=squares | dict.fromkeys(ring_n18[:7], BLUE),
                      previous=[["a14"], [], []])
    fourth = GAME.load({**GAME.dump(fourth), "secured": [
        BLUE if p["squares"][0] in ("j10", "r10", "n18") else -1 for p in POINT_BLOCKS]})
    after, events = GAME.play(fourth, BLUE, "1i a15")
    assert [e.text for e in events if e.kind == "end"] == [
        "The game ends at once: Blue won 4 star point blocks."]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == {BLUE}


def test_a_point_block_is_won_for_good_once_no_colour_can_catch_up() -> None:
    six = dict.fromkeys(RING_E5[:6], BLUE)
    state = position(squares=six, previous=[["e6"], []])
    after, events = GAME.play(state, BLUE, "1i e7")  # 7 of 12: nobody else can reach 7
    assert after.secured[DIAMOND_E5] == BLUE
    assert events[1].kind == "secure" and events[1].text == (
        "Blue holds 7 of the 12 spaces of the diamond point block on f6 and has won it for "
        "good (7 to 0): no other colour can catch up.")
    close = position(squares=dict.fromkeys(RING_E5[:5], BLUE) | {"h8": RED},
                     previous=[["h5"], []])
    after, _ = GAME.play(close, BLUE, "1i h6")  # 6 against 1 with 5 empty: not yet
    assert after.secured[DIAMOND_E5] == -1


# --------------------------------------------------------------------------- variants


def test_special_two_player_game_two_colours_each_on_the_whole_board() -> None:
    state = GAME.new(2, seed=5, options={"variant": "special-2p"})
    assert state.owners == [0, 1, 0, 1] and len(state.blocks) == 4
    assert all(len(kit) == 16 for kit in state.blocks)
    assert "".join(state.board).count(".") == 300
    assert sum(state.tokens[state.start]) == -3 and state.tokens[1 - state.start] == []
    seats = []
    for _ in range(4):
        (seat,) = GAME.to_act(state)
        seats.append(seat)
        state, _ = GAME.play(state, seat, GAME.legal_moves(state, seat)[0])
    assert seats == [state.start, 1 - state.start] * 2
    # A point block is decided by single colours: Blue 4 and Yellow 4 (one player's) against
    # Red 3 is a tie between Blue and Yellow, so nobody gets it (added up it would be 8).
    squares = dict.fromkeys(RING_E5[:4], BLUE) | dict.fromkeys(RING_E5[4:8], YELLOW)
    squares |= dict.fromkeys(RING_E5[8:11], RED)
    ended = _ended(2, squares, options={"variant": "special-2p"}, blocks=[[]] * 4)
    assert GAME.view(ended, None)["point_blocks"][DIAMOND_E5]["leader"] is None


def test_special_two_player_game_three_of_a_shape_over_both_colours_win_at_once() -> None:
    squares = dict.fromkeys(["i5", "j5", "k5", "l5", "i6", "i7"], BLUE)
    state = position(squares=squares, previous=[["i7"], [], [], []],
                     options={"variant": "special-2p"})
    state = GAME.load({**GAME.dump(state), "secured": [
        {"f14": BLUE, "b18": YELLOW}.get(p["squares"][0], -1) for p in POINT_BLOCKS]})
    after, events = GAME.play(state, 0, "1i i8")
    assert [e.text for e in events if e.kind == "end"] == [
        "The game ends at once: Player 1 (Blue and Yellow) won 3 circle point blocks."]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == {0} and outcome.ending == "shape"


def test_couples_sum_team_scores() -> None:
    state = GAME.new(4, seed=2, options={"variant": "couples"})
    assert [sum(t) for t in state.tokens].count(-2) == 1 and sum(state.tokens[state.start]) == -2
    squares = dict.fromkeys(RING_E5[:7], YELLOW)
    ended = _ended(4, squares, options={"variant": "couples"},
                   blocks=[[], ["1i"], [], []], tokens=[[], [], [], []])
    outcome = GAME.outcome(ended)
    assert outcome is not None and outcome.scores == (3, -1, 3, -1)
    assert outcome.winners == {BLUE, YELLOW}
    assert GAME.view(ended, None)["teams"] == [[0, 2], [1, 3]]


def rings(kind: str, count: int, held: int = 7) -> list[str]:
    """``held`` counting spaces of each of the first ``count`` point blocks of ``kind``."""
    return [sq for p in POINT_BLOCKS if p["kind"] == kind for sq in p["spaces"][:held]][
        : count * held]


def test_couples_a_set_at_the_final_count_wins_for_both_partners() -> None:
    """"If a player acquires 4 same shaped point blocks during a game, the game is
    immediately over with his victory"; with couples "you sum up with your partner's
    points all together": at the final count Blue's four circles win for Blue and Yellow,
    although Red and Green have more points."""
    squares = dict.fromkeys(rings("circle", 4), BLUE)
    squares |= dict.fromkeys(rings("star", 2) + rings("diamond", 2) + rings("hexagon", 2), RED)
    ended = _ended(4, squares, options={"variant": "couples"}, blocks=[[], [], [], []],
                   tokens=[[], [], [], []])
    outcome = GAME.outcome(ended)
    assert outcome is not None and outcome.scores == (18, 21, 18, 21)
    assert outcome.winners == {BLUE, YELLOW} and outcome.ending == "shape at count"
    assert outcome.reason == ("Every colour has passed. Blue and Yellow win with 4 point "
                              "blocks of one shape.")


def test_special_two_player_result_names_the_winning_player_once() -> None:
    """Each player holds 3 of a shape at the final count (Blue 2 circles and Yellow 1 for
    player 1, Red 3 stars for player 2); player 1 has more points and wins, named once with
    their own colours only."""
    squares = dict.fromkeys(rings("circle", 2), BLUE)
    squares |= dict.fromkeys(rings("circle", 3)[14:], YELLOW)
    squares |= dict.fromkeys(rings("star", 3), RED)
    ended = _ended(2, squares, options={"variant": "special-2p"}, blocks=[[], ["1i"], [], []],
                   passed=[True] * 4)
    outcome = GAME.outcome(ended)
    assert outcome is not None and outcome.scores == (12, 11) and outcome.winners == {0}
    assert outcome.reason == (
        "Every colour has passed. Player 1 (Blue and Yellow) wins with 3 point blocks of one "
        "shape and the most points of those holding such a set.")
    on_points = _ended(2, dict.fromkeys(rings("star", 1), RED),
                       options={"variant": "special-2p"}, passed=[True] * 4)
    outcome = GAME.outcome(on_points)
    assert outcome is not None and outcome.reason == (
        "Every colour has passed. Player 2 (Red and Green) wins on points.")


def test_the_pages_special_two_player_example_fits_one_ring_and_holds() -> None:
    """The page's example of a point block decided by single colours: its counts fit the
    12 spaces and the game gives the point block to the colour it names."""
    page = (Path(__file__).parent.parent / "rules" / "block-buster.md").read_text()
    found = re.search(r"blue (\d+) and yellow (\d+) against red (\d+) gives it to (\w+)", page)
    assert found is not None
    blue, yellow, red = map(int, found.groups()[:3])
    assert blue + yellow + red <= 12
    squares = dict.fromkeys(RING_E5[:blue], BLUE)
    squares |= dict.fromkeys(RING_E5[blue:blue + yellow], YELLOW)
    squares |= dict.fromkeys(RING_E5[blue + yellow:blue + yellow + red], RED)
    ended = _ended(2, squares, options={"variant": "special-2p"}, passed=[True] * 4)
    leader = GAME.view(ended, None)["point_blocks"][DIAMOND_E5]["leader"]
    assert leader == ["blue", "red", "yellow", "green"].index(found.group(4))


def test_official_two_player_game_one_colour_of_32_blocks() -> None:
    state = GAME.new(2, seed=4, options={"variant": "official-2p"})
    assert [len(kit) for kit in state.blocks] == [32, 32]
    assert Counter(state.blocks[0]) == dict.fromkeys(BLOCK_CELLS, 2)
    assert sum(state.tokens[state.start]) == -3
    assert "".join(state.board).count(".") == 300
    seat = state.start
    after, _ = GAME.play(state, seat, "5l r0 a1")
    assert after.blocks[seat].count("5l") == 1
    after, _ = GAME.play(after, 1 - seat, "1i t20")
    assert any(m.startswith("5l ") for m in GAME.legal_moves(after, seat))


def test_connect_any_option_lets_a_block_touch_any_of_its_colour() -> None:
    squares = {"e5": BLUE, "h8": BLUE}
    state = position(squares=squares, previous=[["e5"], []], options={"connect": "any"})
    assert GAME.moves(state, BLUE)["1i r0 h7"][-1] == 0


def test_options_are_checked() -> None:
    with pytest.raises(IllegalMove, match="with variant=couples takes 4 players, not 2"):
        GAME.new(2, seed=1, options={"variant": "couples"})
    with pytest.raises(IllegalMove, match="The option 'variant' takes standard, special-2p, "
                                          "couples or official-2p, not 'x'"):
        GAME.new(2, seed=1, options={"variant": "x"})
    with pytest.raises(IllegalMove, match=r"no option '?colour"):
        GAME.new(2, seed=1, options={"colour": "x"})


# --------------------------------------------------------------------------- notation


def test_notation_is_forgiving_and_refuses_nonsense_with_a_sentence() -> None:
    state = position()
    for text in ("L5 e5", "5l r0 e5", "l5 at e5", "place 5L 0 e5", "5l rot0 E5"):
        assert GAME.play(state, BLUE, text)[0].last == GAME.play(state, BLUE, "5l r0 e5")[0].last
    hint = GAME.notation_hint(state, BLUE)
    # The blocks named are those of this player count: 5v and 5z stay in the box with 2.
    refused(state, BLUE, "9x e5", InvalidMove,
            "There is no block called '9x'. Blocks are 5i, 5l, 5p, 5t, 5u, 4i, 4l, "
            f"4o, 4s, 4t, 3i, 3l, 2i or 1i. {hint}")
    refused(state, BLUE, "skip", InvalidMove,
            "A skip is not a move of its own: a block placed apart from your colour's previous "
            "block skips the spaces between, one -2 token each, and the move list says what "
            f"each placement skips. {hint}")
    refused(state, BLUE, "5l r45 e5", InvalidMove, "A block turns r0, r90, r180 or r270 (f0 "
            f"to f270: mirrored first), not 'r45'. {hint}")
    refused(state, BLUE, "5l r0 u1", InvalidMove,
            f"There is no square 'u1' on the board: it runs a1 to t20. {hint}")
    refused(state, BLUE, "e8", InvalidMove,
            f"Name the block and how it lies before the square: '5l r0 e8'. {hint}")
    refused(state, BLUE, "done", InvalidMove, "Block Buster has no move 'done': a move is a "
            f"block, how it lies and a square, or 'pass' when no block fits. {hint}")
    refused(state, BLUE, "5l r90", InvalidMove, f"Name one square for the block. {hint}")
    refused(state, BLUE, "5z e5", InvalidMove,
            "The 5z is not used with 2 players; the blocks are 5i, 5l, 5p, 5t, 5u, 4i, 4l, "
            "4o, 4s, 4t, 3i, 3l, 2i or 1i.")
    three = position(3)
    refused(three, BLUE, "9x e5", InvalidMove,
            "There is no block called '9x'. Blocks are 5i, 5l, 5p, 5t, 5u, 5v, 4i, 4l, "
            f"4o, 4s, 4t, 3i, 3l, 2i or 1i. {GAME.notation_hint(three, BLUE)}")
    four = position(4)
    with pytest.raises(InvalidMove, match="5u, 5v, 5z, 4i"):
        GAME.play(four, BLUE, "9x e5")
    short = position(blocks=[["5i", "2i"], ["1i"]])
    refused(short, BLUE, "1i e5", IllegalMove, "Blue has no 1i left (blocks left: 5i and 2i).")


def test_moves_filter_by_the_block_typed_first() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []])
    moves = GAME.legal_moves(state, BLUE)
    for block in BLOCK_CELLS:
        typed = [m for m in moves if block in m]
        assert typed == [m for m in moves if m.startswith(block + " ")]
    assert all(m == m.lower() for m in moves)


def test_the_listed_moves_are_every_fitting_placement() -> None:
    """The bitboards agree with a plain search over every block, turn and square."""
    state = GAME.new(3, seed=9)
    rng = random.Random(9)
    for _ in range(12):
        (seat,) = GAME.to_act(state)
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    colour = state.turn
    skip = GAME.view(state, None)["max_skip"]
    ref = [square_xy(s) for s in state.previous[colour]]
    expected = set()
    for block in set(state.blocks[colour]):
        for o in SHAPES[block]:
            for y in range(20):
                for x in range(20):
                    cells = [(x + dx, y + dy) for dx, dy in o.cells]
                    if not all(0 <= a < 20 and 0 <= b < 20 and state.board[b][a] == "."
                               for a, b in cells):
                        continue
                    gap = min(abs(a - c) + abs(b - d) for a, b in cells for c, d in ref) - 1
                    if gap <= skip:
                        expected.add(f"{o.prefix}{'abcdefghijklmnopqrst'[x]}{y + 1}")
    assert set(GAME.legal_moves(state, state.owners[colour])) == expected


@pytest.mark.parametrize("options", [None, {"variant": "special-2p"}, {"variant": "couples"},
                                     {"variant": "official-2p"}, {"connect": "any"}])
def test_random_games_end_in_every_variant(options: dict[str, Any] | None) -> None:
    players = 4 if options == {"variant": "couples"} else 2
    state = GAME.new(players, seed=11, options=options)
    rng = random.Random(11)
    for _ in range(200):
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners
    assert all(sum(t) >= -10 for t in state.tokens)
    assert GAME.determinize(state, 0, 5) == GAME.load({**GAME.dump(state),
                                                       "seed": GAME.determinize(state, 0, 5).seed})
    with pytest.raises(GameError):
        GAME.play(state, 0, "pass")


# --------------------------------------------------------------------------- costs


def test_costs_name_every_skip_and_leave_free_moves_out() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []])
    moves = GAME.moves(state, BLUE)
    listed = GAME.legal_moves(state, BLUE)
    costs = GAME.costs(state, BLUE)
    assert costs["1i r0 e7"] == "skips 1 space: -2 (1 token)"
    assert costs["1i r0 e8"] == "skips 2 spaces: -4 (2 tokens)"
    assert "1i r0 e6" not in costs and "pass" not in moves  # free: it touches e5
    assert set(costs) == {m for m, detail in moves.items() if detail[-1]}
    assert all(len(phrase) <= 30 for phrase in costs.values())
    assert GAME.legal_moves(state, BLUE) == listed  # the order is untouched
    assert GAME.costs(state, RED) == {}  # not Red's turn
    after, events = GAME.play(state, BLUE, "1i e8")  # playing it says what it cost
    assert "2 penalty tokens of -2 each, -4 points (penalties now -4)" in events[0].text
    assert sum(after.tokens[BLUE]) == -4


def test_costs_name_what_passing_costs_a_colour_with_blocks_left() -> None:
    # Yellow's previous block on e1 is hemmed in (the seed's example 1): it may skip or pass.
    state = position(3, squares={"e1": YELLOW, "f1": BLUE, "e2": BLUE},
                     previous=[["f1"], [], ["e1"]], turn=YELLOW)
    costs = GAME.costs(state, YELLOW)
    assert costs["pass"] == "no more blocks: -59 points"
    assert costs["1i r0 e3"] == "skips 1 space: -2 (1 token)"
    assert set(costs) == set(GAME.legal_moves(state, YELLOW))  # nothing here is free
    done = position(squares={"e5": BLUE}, previous=[["e5"], []], blocks=[[], []])
    assert GAME.legal_moves(done, BLUE) == ["pass"] and GAME.costs(done, BLUE) == {}


def test_costs_are_cheap_for_a_first_block_on_the_whole_board() -> None:
    state = GAME.new(4, seed=1)
    (seat,) = GAME.to_act(state)
    GAME.moves(state, seat)  # worked out once, as the bot does for the list
    began = time.perf_counter()
    costs = GAME.costs(state, seat)
    assert costs == {} and len(GAME.legal_moves(state, seat)) > 2000
    assert time.perf_counter() - began < 0.05


# --------------------------------------------------------------------------- in words


def standing(squares: dict[str, int], move: str, **kw: Any) -> list[str]:
    """What Blue's ``move`` said about the point blocks it lies on."""
    kw.setdefault("previous", [["e5"], []])
    state = position(squares={"e5": BLUE} | squares, **kw)
    _, events = GAME.play(state, BLUE, move)
    return [e.text for e in events if e.kind in ("lead", "secure")]


def test_each_point_block_a_block_lies_on_is_said_with_who_leads() -> None:
    ring = "of the 12 spaces of the diamond point block on f6"
    assert standing({}, "1i e6") == [f"Blue holds 2 {ring} and leads (2 to 0)."]
    assert standing({"h8": RED, "h7": RED}, "2i r0 e6") == [
        f"Blue holds 3 {ring} and takes the lead from Red (3 to 2)."]
    assert standing({"h8": RED}, "1i e6") == [f"Blue holds 2 {ring} and leads (2 to 1)."]
    assert standing({"h8": RED, "h7": RED}, "1i e6") == [
        f"Blue holds 2 {ring}, as many as Red: tied, so as it stands nobody wins it."]
    assert standing({"h8": RED, "h7": RED, "h6": RED}, "1i e6") == [
        f"Blue holds 2 {ring}; Red leads with 3."]
    won = dict.fromkeys(["h8", "h7", "h6", "h5", "g8", "f8", "e8"], RED)
    assert standing(won, "1i e6", secured=[1 if n == DIAMOND_E5 else -1
                                           for n in range(len(POINT_BLOCKS))]) == [
        f"Blue holds 2 {ring}, which Red has already won for good: nothing changes there."]
    # A block across two cells says what it did on both point blocks.
    assert standing({"e6": BLUE}, "2i r90 h5", previous=[["e6"], []]) == [
        f"Blue holds 3 {ring} and leads (3 to 0).",
        "Blue holds 1 of the 12 spaces of the circle point block on j6 and leads (1 to 0)."]


def test_the_final_count_says_who_wins_each_point_block_and_each_score() -> None:
    """The game ends by passing: every point block's winner, the ties and the empty ones,
    and each seat's score with where its penalty tokens came from."""
    squares = dict.fromkeys(RING_E5[:7], BLUE) | dict.fromkeys(RING_E5[7:9], RED)
    squares |= {"i5": BLUE, "j5": RED}  # one each on the circle point block on j6
    state = position(squares=squares, previous=[["e7"], ["e8"]], blocks=[[], ["1i"]],
                     passed=[False, True], tokens=[[-2, -2, -2], []])
    after, events = GAME.play(state, BLUE, "pass")
    said = [e.text for e in events]
    assert said == [
        "Blue has no block left and passes.",
        "The game ends: Every colour has passed.",
        "At the count, Blue wins 1 point block by holding most of the 12 spaces: the diamond "
        "point block on f6 (7 of 12).",
        "Nobody wins the circle point block on j6 (1 each): a tie for the most spaces wins "
        "nobody the point block.",
        "Nobody wins 11 point blocks whose 12 spaces are all empty.",
        "Blue scores -3: 1 diamond 3; penalty tokens -6 (-2 at the start, 2 skips -4); every "
        "block placed.",
        "Red scores -1: no point blocks; penalty tokens 0; 1 square unplaced -1."]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (-3, -1)


def test_sets_of_one_shape_are_scored_in_words() -> None:
    squares = {s: BLUE for ring in RINGS_3P.values() for s in ring[:7]}
    state = position(3, squares=squares, previous=[["a13"], [], []], blocks=[[], [], []],
                     passed=[False, True, True], tokens=[[-2], [-1], []])
    _, events = GAME.play(state, BLUE, "pass")
    assert "Blue scores 10: 3 stars 12; penalty tokens -2 (-2 at the start); every block " \
           "placed." in [e.text for e in events]


def test_a_set_won_at_once_is_counted_too() -> None:
    squares = dict.fromkeys(["i5", "j5", "k5", "l5", "i6", "i7", "i8"], BLUE)
    squares |= dict.fromkeys(["e13", "f13", "g13", "h13", "e14", "e15", "e16"], BLUE)
    squares |= dict.fromkeys(["i17", "j17", "k17", "l17", "i18", "i19"], BLUE)
    state = position(squares=squares, previous=[["i19"], []])
    state = GAME.load({**GAME.dump(state), "secured": [
        BLUE if p["squares"][0] in ("j6", "f14") else -1 for p in POINT_BLOCKS]})
    _, events = GAME.play(state, BLUE, "1i i20")
    kinds = [e.kind for e in events]
    assert kinds.index("end") < kinds.index("count") < kinds.index("score")
    assert any(e.text.startswith("Blue scores ") and "3 circles 12" in e.text for e in events)


def test_couples_hear_their_team_score() -> None:
    squares = dict.fromkeys(RING_E5[:7], YELLOW)
    state = position(4, squares=squares, options={"variant": "couples"}, turn=GREEN,
                     previous=[[], [], ["e5"], []], blocks=[[], ["1i"], [], []],
                     passed=[True, True, True, False], tokens=[[], [], [], []])
    _, events = GAME.play(state, GREEN, "pass")
    assert events[-1].text == "Blue and Yellow score 3 together and Red and Green score -1 " \
                              "together."


def test_the_notation_hint_says_what_a_move_looks_like_now() -> None:
    first = position()
    hint = GAME.notation_hint(first, BLUE)
    example = re.search(r"'(\S+ \S+ \S+)' is the (\S+) turned a quarter", hint)
    assert example is not None and "first block goes anywhere" in hint, hint
    assert example[1] in GAME.legal_moves(first, BLUE)  # the seat's own move, an L turned
    assert example[1].startswith(f"{example[2]} r90 ") and example[2][1] == "l"
    assert GAME.parse(first, BLUE, "5l r90 c4") == "5l r90 c4"
    later = position(squares={"e5": BLUE}, previous=[["e5"], []])
    assert "apart from your previous block skips spaces, -2 points each" in \
        GAME.notation_hint(later, BLUE)
    any_ = position(squares={"e5": BLUE}, previous=[["e5"], []], options={"connect": "any"})
    assert "any of your blocks" in GAME.notation_hint(any_, BLUE)
    assert len(GAME.notation_hint(any_, BLUE)) < 340  # with a refusal, under 400


# --------------------------------------------------------------------------- issue 38


def test_the_last_minus_two_token_tells_everyone_that_skipping_is_over() -> None:
    state = position(squares={"e5": BLUE}, previous=[["e5"], []], supply=1)
    after, events = GAME.play(state, BLUE, "1i e7")  # skips 1: the supply's last -2
    assert after.supply["-2"] == 0
    assert [e.text for e in events if e.kind == "supply"] == [
        "That was the last -2 penalty token: skipping is over for everyone, and every block "
        "from now on must touch its colour's previous block."]
    assert all(e.to is None for e in events)  # the channel hears it
    _, events = GAME.play(position(squares={"e5": BLUE}, previous=[["e5"], []], supply=2),
                          BLUE, "1i e7")
    assert not [e for e in events if e.kind == "supply"]  # one token still left
    _, events = GAME.play(state, BLUE, "1i e6")  # touching: no token taken
    assert not [e for e in events if e.kind == "supply"]
    # and from then on the hint of every refusal says so, not that a skip costs -2
    assert "-2 points each" in GAME.notation_hint(state, BLUE)
    after.turn = BLUE
    hint = GAME.notation_hint(after, BLUE)
    assert "-2 points each" not in hint and "skipping is over" in hint, hint


def test_a_point_block_is_won_for_good_once_every_colour_that_could_catch_up_has_passed(
) -> None:
    """The seed: a point block acquired during the game ends it at once with a set; PASS is
    said by a player who "cannot place his block anymore", so a colour that passed can catch
    up with nobody (rules/block-buster.md, rule 8)."""
    six = dict.fromkeys(RING_E5[:6], BLUE) | dict.fromkeys(RING_E5[6:9], RED)
    state = position(squares=six, previous=[["e6"], ["e7"]], turn=RED,
                     blocks=[["5i", "1i"], []])
    assert GAME.view(state, None)["point_blocks"][DIAMOND_E5]["secured"] is None  # 6 to 3+3
    after, events = GAME.play(state, RED, "pass")  # Red has no block left
    assert after.secured[DIAMOND_E5] == BLUE
    assert [e.text for e in events if e.kind == "secure"] == [
        "Red has passed, so Blue has won the diamond point block on f6 for good (6 to 3): no "
        "colour still placing can catch up."]
    assert after.result is None and after.turn == BLUE
    # A tie the colour that passed holds is no win: nobody can break it but the leader.
    tied = position(squares=dict.fromkeys(RING_E5[:3], BLUE) | dict.fromkeys(RING_E5[3:6], RED),
                    previous=[["e6"], ["e7"]], turn=RED, blocks=[["1i"], []])
    after, _ = GAME.play(tied, RED, "pass")
    assert after.secured[DIAMOND_E5] == -1
    # With three colours, a lead is won only once every colour that could catch up passed.
    three = position(3, squares=dict.fromkeys(RING_E5[:5], BLUE) | {"h8": YELLOW},
                     previous=[["e6"], [], ["h8"]], turn=RED, blocks=[["1i"], [], ["1i"]])
    after, _ = GAME.play(three, RED, "pass")
    assert after.secured[DIAMOND_E5] == -1  # Yellow, still placing, could reach 7


def test_a_pass_can_settle_a_set_of_one_shape_and_end_the_game_at_once() -> None:
    squares = dict.fromkeys(["i5", "j5", "k5", "l5", "i6", "i7", "i8"], BLUE)
    squares |= dict.fromkeys(["e13", "f13", "g13", "h13", "e14", "e15", "e16"], BLUE)
    squares |= dict.fromkeys(["i17", "j17", "k17", "l17", "i18", "i19"], BLUE)  # 6 of j18
    state = position(squares=squares, previous=[["i19"], []], turn=RED,
                     blocks=[["1i"], []])
    state = GAME.load({**GAME.dump(state), "secured": [
        BLUE if p["squares"][0] in ("j6", "f14") else -1 for p in POINT_BLOCKS]})
    after, events = GAME.play(state, RED, "pass")
    assert [e.text for e in events if e.kind == "end"] == [
        "The game ends at once: Blue won 3 circle point blocks."]
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == {BLUE} and outcome.ending == "shape"


def test_lists_go_by_block_then_turn_then_square_in_board_order_naming_the_squares_covered(
) -> None:
    """The move list and /play's suggestions: by block (largest first), then turn, then
    anchor square by file and rank ('e ... h ... i', not rank by rank: 'e ... h ... i ... a
    ... d'), each placement with the squares it covers; skips after the free moves, with
    their cost."""
    from bot.moves import Choices

    state = GAME.new(2, seed=5)
    (seat,) = GAME.to_act(state)
    notes = GAME.notes(state, seat)
    assert set(notes) == set(GAME.legal_moves(state, seat))
    choices = Choices.of(GAME.legal_moves(state, seat), GAME.costs(state, seat), notes)
    blocks = [m.split()[0] for m in choices.moves]
    assert list(dict.fromkeys(blocks)) == list(dict.fromkeys(state.blocks[state.turn]))
    fives = [m for m in choices.moves if m.startswith("5l r0 ")]
    squares = [square_xy(m.split()[2]) for m in fives]
    assert squares == sorted(squares)  # by file, then rank
    groups = [e.text.split()[2] for e in choices.narrow("5l r0", 25) if not e.whole]
    assert groups == sorted(groups)
    assert notes["5l r90 e8"] == "covers e8 e9 f9 g9 h9"
    assert choices.entry("5l r90 e8").label() == "5l r90 e8 · covers e8 e9 f9 g9 h9"
    for move in random.Random(5).sample(list(notes), 40):  # the squares the move fills
        played, _ = GAME.play(state, seat, move)
        assert played.last is not None
        assert notes[move] == "covers " + " ".join(
            sorted(played.last["squares"], key=square_xy))
    # A skip keeps its cost beside it, after the free moves; 'pass' has nothing to cover.
    blocked = position(squares={"e5": BLUE, "f5": RED, "e6": RED}, previous=[["e5"], ["f5"]])
    notes = GAME.notes(blocked, BLUE)
    listed = Choices.of(GAME.legal_moves(blocked, BLUE), GAME.costs(blocked, BLUE), notes)
    assert listed.entry("1i r0 e7").label() == (
        "1i r0 e7 · covers e7 · skips 1 space: -2 (1 token)")
    assert notes["pass"] == "" and list(notes)[-1] == "pass"
    assert GAME.notes(blocked, RED) == {}  # not Red's turn


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_openings_example_move_is_one_the_first_colour_may_play(players: int) -> None:
    """The start message's example of a move is legal for the colour that starts, whatever
    the player count shrinks the placing area to."""
    for seed in range(3):
        state = GAME.new(players, seed)
        (line,) = [e.text for e in GAME.opening(state) if "A move names a block" in e.text]
        example = re.search(r"'(5p r0 [a-t]\d+)', a first move", line)
        assert example, line
        assert example.group(1) in GAME.legal_moves(state, state.owners[state.turn])


@pytest.mark.parametrize(("connect", "touch"), [
    ("previous", "the block you placed just before it"), ("any", "any block of yours")])
def test_the_opening_says_the_chain_rule_the_second_turn_meets(connect: str,
                                                                touch: str) -> None:
    state = GAME.new(2, 1, {"connect": connect})
    told = " ".join(e.text for e in GAME.opening(state))
    assert (f"After your first block, each one must share a side with {touch}; placed apart "
            "it skips spaces, and each space skipped costs a -2 penalty token") in told
