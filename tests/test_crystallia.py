"""Crystallia: one scenario per rule of rules/crystallia.md, from positions built with ``load``.

Positions name board squares like the picture (files a-f, ranks 1-9); unnamed squares
show nothing, so only the squares a test names pay or act.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import partial
from typing import Any

import pytest

import rules
from rules import IllegalMove, InvalidMove
from rules.crystallia import (
    COLOURS,
    INDEX,
    PYRAMIDS,
    SQUARES,
    STONES,
    SUPPLY,
    CrystalliaState,
    _fours,
    build_board,
    score,
    shape,
)
from tests.refusals import assert_refused

GAME = rules.GAMES["crystallia"]
C = {name: n for n, name in enumerate(COLOURS)}


def _grab(pool: list[int], first: str, second: str) -> tuple[int, bool]:
    """A stone from ``pool`` with these crystals; True when its order is the reverse."""
    for stone in pool:
        if STONES[stone] == [first, second]:
            pool.remove(stone)
            return stone, False
    for stone in pool:
        if STONES[stone] == [second, first]:
            pool.remove(stone)
            return stone, True
    raise AssertionError(f"no stone {first}/{second} left")


def position(*, board: str = "", stones: list[tuple[str, str]] | None = None,
             holding: str | None = None, players: int = 2, turn: int = 0,
             crystals: list[dict[str, int]] | None = None, pyramid: int = 10,
             **extra: Any) -> CrystalliaState:
    """A position at the start of ``turn``'s turn (or holding a stone, ready to place).

    ``board`` lists 'square=what' pairs; ``stones`` lists ('b4 c4', 'red blue'): red on b4;
    ``holding`` is 'red blue'; ``pyramid`` stones are left in the front of the pyramid."""
    data = GAME.dump(GAME.new(players, seed=1))
    shows = [""] * len(SQUARES)
    for pair in board.split():
        square, what = pair.split("=")
        shows[INDEX[square]] = what
    pool = list(range(len(STONES)))
    crystal, stone_at = [""] * len(SQUARES), [-1] * len(SQUARES)
    placed: list[list[int]] = [[] for _ in STONES]
    for squares, colours in stones or []:
        a, b = (INDEX[s] for s in squares.split())
        first, second = colours.split()
        stone, reverse = _grab(pool, first, second)
        placed[stone] = [b, a] if reverse else [a, b]
        crystal[a], crystal[b] = first, second
        stone_at[a] = stone_at[b] = stone
    held = -1
    if holding:
        held, _ = _grab(pool, *holding.split())
    pyramid_list = [-1] * len(STONES)
    for p in range(min(pyramid, 9)):
        pyramid_list[p] = pool.pop()
    platform = [[0] * 4 for _ in range(players)]
    for seat, have in enumerate(crystals or []):
        for colour, n in have.items():
            platform[seat][C[colour]] = n
    data.update({
        "phase": "place" if holding else "take", "turn": turn, "start": 0, "board": shows,
        "pyramid": pyramid_list, "face_up": [True] * len(STONES), "crystal": crystal,
        "stone_at": stone_at, "placed": placed, "holding": held, "turns": 5,
        "fours": _fours(crystal), "crystals": platform,
        "supply": [SUPPLY - sum(p[c] for p in platform) for c in range(4)],
    })
    data.update(extra)
    return GAME.load(data)


refused = partial(assert_refused, GAME)


def play(state: CrystalliaState, *moves: str, seat: int | None = None
         ) -> tuple[CrystalliaState, list[str]]:
    said: list[str] = []
    for move in moves:
        who = seat if seat is not None else min(GAME.to_act(state))
        state, events = GAME.play(state, who, move)
        said += [e.text for e in events]
    return state, said


def turn(state: CrystalliaState, *moves: str) -> CrystalliaState:
    """Play ``moves``, then settle the turn: skip abilities, gain the first colour offered."""
    state, _ = play(state, *moves)
    while state.phase in ("ability", "gain"):
        state, _ = play(state, "skip" if state.phase == "ability" else
                        GAME.legal_moves(state, state.turn)[0])
    return state


def have(state: CrystalliaState, seat: int) -> dict[str, int]:
    return {c: n for c, n in zip(COLOURS, state.crystals[seat], strict=True) if n}


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "chaos", "regular"), [(2, 3, 3), (3, 3, 3), (4, 6, 0)])
def test_the_board_is_six_random_tiles_turned_at_random(players: int, chaos: int,
                                                        regular: int) -> None:
    kinds: Counter[str] = Counter()
    turns = set()
    for seed in range(12):
        state = GAME.new(players, seed)
        tiles = state.tiles
        assert Counter(t[0] for t in tiles) == Counter({"chaos": chaos, "regular": regular} if
                                                        regular else {"chaos": chaos})
        assert len({(t[0], t[1]) for t in tiles}) == 6
        assert state.board == build_board(tiles)
        kinds.update(f"{t[0]}{t[1]}" for t in tiles)
        turns.update(t[2] for t in tiles)
    assert turns == {0, 1, 2, 3}
    assert len(kinds) > 6  # more tiles in the box than one game uses


def test_a_tile_turned_a_quarter_moves_its_corner() -> None:
    straight = build_board([["regular", 0, 0]] + [["regular", 1, 0]] * 5)
    turned = build_board([["regular", 0, 1]] + [["regular", 1, 0]] * 5)
    # regular tile 0 reads "RB." / ".MG" / "P.R" top to bottom: a9 red, a7 purple
    assert straight[INDEX["a9"]] == "red" and straight[INDEX["a7"]] == "purple"
    assert turned[INDEX["a9"]] == "purple" and turned[INDEX["c9"]] == "red"
    assert straight[INDEX["b8"]] == turned[INDEX["b8"]] == "move"


@pytest.mark.parametrize("players", [3, 4])
def test_the_pyramid_holds_every_stone_and_hides_its_back_row(players: int) -> None:
    state = GAME.new(players, seed=3)
    assert sorted(state.pyramid) == list(range(24)) and state.left_out == []
    assert sum(shape(state).face_down) == 7 and not any(state.face_up[17:])
    assert all(state.face_up[:17])
    assert GAME.legal_moves(state, state.turn)[:9] == [f"take {n}" for n in range(1, 10)]
    view = GAME.view(state, None)
    assert [p["stone"] for p in view["pyramid"][17:]] == [None] * 7
    # every stone is covered only by the row in front of it: all become reachable
    assert all(q < p for p in range(24) for q in shape(state).covered_by[p])


def test_two_players_deal_a_pyramid_of_twenty_and_leave_four_stones_unseen() -> None:
    """The 2-player set-up (rules/crystallia.md, balance): rows of 8, 7 and 5."""
    state = GAME.new(2, seed=3)
    layout = shape(state)
    assert layout.size == 20 and layout.row.count(0) == 8 and layout.row.count(2) == 5
    assert sorted(state.pyramid + state.left_out) == list(range(24))
    assert len(state.left_out) == 4
    assert state.face_up == [True] * 15 + [False] * 5
    assert GAME.legal_moves(state, state.turn)[:8] == [f"take {n}" for n in range(1, 9)]
    view = GAME.view(state, None)
    assert "left_out" not in json.dumps(view) and view["stones_left"] == 20
    assert all(q < p for p in range(20) for q in layout.covered_by[p])
    assert all(len(layout.covered_by[p]) == 2 for p in range(8, 20))
    refused(state, state.turn, "take 21", IllegalMove,
            "The pyramid's stones are numbered 1 to 20.")


def test_taking_uncovers_and_turns_a_face_down_stone() -> None:
    state = position(pyramid=0)
    data = GAME.dump(state)
    order = list(range(24))
    data["pyramid"], data["face_up"] = order, [not d for d in PYRAMIDS[24].face_down]
    state = GAME.load(data)
    refused(state, 0, "take 10", IllegalMove,
            "Stone 10 is covered by other stones; available: 1, 2, 3, 4, 5, 6, 7, 8 and 9.")
    state = turn(state, "take 1", "place a1 a2")
    state = turn(state, "take 2", "place f1 f2")
    assert "take 10" in GAME.legal_moves(state, 0)  # 10 lay under 1 and 2
    refused(state, 0, "take 1", IllegalMove, "Stone 1 has already been taken.")
    # stone 18 lies under 10 and 11, which lie under 1, 2 and 3
    state = turn(state, "take 3", "place f8 f9")
    state = turn(state, "take 10", "place a8 a9")
    state, said = play(state, "take 11")
    assert not state.face_up[18]
    assert state.face_up[17] and any(s.startswith("Stone 18 is turned face up") for s in said)


def test_the_first_player_is_random_and_the_deal_repeats() -> None:
    starts = {GAME.new(3, seed).start for seed in range(20)}
    assert starts == {0, 1, 2}
    assert GAME.dump(GAME.new(2, 5)) == GAME.dump(GAME.new(2, 5))


# --------------------------------------------------------------------------- placing


def test_a_stone_goes_on_two_adjacent_empty_squares_either_way_round() -> None:
    state = position(stones=[("d4 d5", "green green")], holding="red blue")
    moves = GAME.legal_moves(state, 0)
    assert "place a1 a2" in moves and "place a2 a1" in moves
    assert not any("d4" in m for m in moves)
    refused(state, 0, "place a1 c1", IllegalMove,
            "A stone covers two squares side by side: a1 and c1 are not.")
    refused(state, 0, "place d4 e4", IllegalMove, "d4 already holds a stone.")
    refused(state, 0, "take 3", IllegalMove, "You can't 'take 3' now: your turn is at placing the "
            "stone you took. Place your stone on two "
            "adjacent empty squares, e.g. 'place a1 b1' (the first crystal goes on a1).")
    refused(state, 0, "place a1", InvalidMove, "Write 'place' with two adjacent empty "
            "squares: 'place c4 c5'. Place your stone on two adjacent empty squares, e.g. "
            "'place a1 b1' (the first crystal goes on a1).")
    hint = "Place your stone on two adjacent empty squares, e.g. 'place a1 b1' (the first " \
           "crystal goes on a1)."  # the seat's own first placement
    refused(state, 0, "talisman yellow", InvalidMove, "A talisman names a platform's colour, "
            "red, blue, green or purple: yellow is wild, on stones only, and black crystals "
            "are penalties. " + hint)
    refused(state, 0, "take", IllegalMove, "You can't 'take' now: your turn is at placing the "
            "stone you took. " + hint)
    refused(state, 0, "take -1", InvalidMove, "Numbers here are 1 or more: a stone is taken "
            "by its number, 'take 3'. " + hint)
    refused(state, 0, "talisman orange", InvalidMove, "There is no colour 'orange' in the "
            "game: 'talisman' names red, blue, green or purple. " + hint)
    # another word for a move of another step is quoted as typed, not as the move it means
    for typed in ("pass", "decline", "pick red", "red", "move d5 to f7"):
        refused(state, 0, typed, IllegalMove, f"You can't '{typed}' now: your turn is at "
                "placing the stone you took. " + hint)
    after, _said = play(state, "place a2 a1")
    assert after.crystal[INDEX["a2"]] == "red" and after.crystal[INDEX["a1"]] == "blue"


def test_a_double_stone_is_one_move_whichever_order_is_typed() -> None:
    state = position(holding="red red")
    moves = GAME.legal_moves(state, 0)
    assert "place a1 a2" in moves and "place a2 a1" not in moves
    a, _ = play(state, "place a2 a1")
    b, _ = play(state, "Place A1, A2")
    assert GAME.dump(a) == GAME.dump(b)


def test_covered_colour_squares_must_pay() -> None:
    state = position(board="a1=blue a2=purple", holding="green green")
    after, said = play(state, "place a1 a2")
    # blue and purple from the squares, then 1 green for the lone stone
    assert have(after, 0) == {"blue": 1, "purple": 1, "green": 1}
    assert "Player 1 gains 1 blue crystal for covering the blue square a1: 1 blue now." in said


# --------------------------------------------------------------------------- activation


def test_the_seeds_worked_example_gives_two_red() -> None:
    """Red/red lies on b4-c4; red/blue placed with red on d4 makes 3 reds: 3 - 1 = 2."""
    state = position(stones=[("b4 c4", "red red")], holding="red blue")
    after, said = play(state, "place d4 e4")
    assert have(after, 0) == {"red": 2}
    assert "Player 1 gains 2 red crystals for a row of 3 red, b4 to d4 (3 - 1): 2 red now." in said


def test_a_line_counts_once_and_runs_both_ways_through_the_stone() -> None:
    """Red on b4 and e4, the red/red stone fills c4-d4: one line of 4... minus one = 3,
    not two lines of 3; and a 4 makes a second turn."""
    state = position(stones=[("b4 b5", "red green"), ("e4 e5", "red blue")],
                     holding="red red")
    after, _said = play(state, "place c4 d4")
    assert have(after, 0) == {"red": 3}


def test_separate_lines_each_pay_and_yellow_matches_every_colour() -> None:
    """Yellow on c3 between blue b3 and blue d3 ... a column of green above: the yellow
    crystal makes a row of 3 blues (2) and, with green c4 above, a column of 2 greens (1)."""
    state = position(stones=[("b3 b2", "blue blue"), ("d3 d2", "blue green"),
                             ("c4 c5", "green purple")], holding="purple yellow")
    after, _said = play(state, "place c2 c3")
    # purple on c2 sits between blue b2 and green d2: nothing; yellow c3: blue 2, green 1
    assert have(after, 0) == {"blue": 2, "green": 1}


def test_a_line_of_only_the_stones_own_crystals_pays_nothing() -> None:
    """Red/red touching a blue stone: the red pair alone is no line (2 or more stones)."""
    state = position(stones=[("a2 a3", "blue blue")], holding="red red")
    after, _ = play(state, "place b2 c2")
    assert have(after, 0) == {}
    assert GAME.to_act(after) == {1}


def test_touching_only_diagonally_is_neither_isolated_nor_matching() -> None:
    state = position(stones=[("a1 a2", "red red")], holding="red red")
    after, _said = play(state, "place b3 c3")
    assert have(after, 0) == {}


def test_an_isolated_stone_gives_one_crystal_of_a_colour_it_shows() -> None:
    state = position(holding="red blue")
    after, _ = play(state, "place c4 c5")
    assert after.phase == "gain" and GAME.legal_moves(after, 0) == ["gain red", "gain blue"]
    refused(after, 0, "gain green", IllegalMove, "Your stone gives red or blue, not green.")
    done, _said = play(after, "blue")
    assert have(done, 0) == {"blue": 1} and GAME.to_act(done) == {1}


def test_an_isolated_yellow_crystal_offers_every_colour_and_a_double_needs_no_choice() -> None:
    state = position(holding="purple yellow")
    after, _said = play(state, "place c4 c5")
    assert GAME.legal_moves(after, 0) == [f"gain {c}" for c in COLOURS]
    single, _ = play(position(holding="green green"), "place c4 c5")
    assert have(single, 0) == {"green": 1} and single.phase == "take"


# --------------------------------------------------------------------------- lines of 4 and 5


def test_four_in_a_line_gives_a_second_turn_and_never_a_third() -> None:
    state = position(stones=[("a1 b1", "red red"), ("a5 b5", "blue blue")], holding="red red")
    after, said = play(state, "place c1 d1")
    assert have(after, 0) == {"red": 3}
    assert "Player 1 made a line of 4 (red, a1 to d1) and must take a second turn." in said
    assert GAME.to_act(after) == {0} and after.streak == 2
    # the second turn makes another 4 (B B B Y on row 5): no third turn
    after, said = play(after, "take 1")
    second = GAME.load({**GAME.dump(after), "holding": STONES.index(["blue", "yellow"])})
    after, said = play(second, "place c5 d5")
    assert "Player 1 made a line of 4 (blue, a5 to d5), but nobody takes more than two turns " \
           "in a row." in said
    assert GAME.to_act(after) == {1} and after.streak == 1
    # the same line paying a 13th blue: the game is over, and the line says so rather
    # than refusing a third turn (an audit's reading: the loser went on as if playing)
    data = GAME.dump(second)
    data["crystals"][0][C["blue"]] = 10
    after, said = play(GAME.load(data), "place c5 d5")
    assert "Player 1 made a line of 4 (blue, a5 to d5), but the game ends with this turn, " \
           "so there is no second turn." in said
    assert GAME.to_act(after) == frozenset() and "which loses whatever the points" in said[-1]


def test_wilds_count_toward_four() -> None:
    state = position(stones=[("a1 b1", "red yellow")], holding="red red")
    after, _ = play(state, "place c1 d1")
    assert GAME.to_act(after) == {0} and after.streak == 2


def test_five_in_a_line_is_banned_wilds_included() -> None:
    state = position(stones=[("a1 b1", "red red"), ("e1 e2", "red green")],
                     holding="red yellow")
    moves = GAME.legal_moves(state, 0)
    assert "place c1 d1" not in moves and "place d1 c1" not in moves
    refused(state, 0, "place c1 d1", IllegalMove, "That would make a line of 5 crystals of "
            "one colour (yellow counts as every colour), which is not allowed.")
    yellows = position(stones=[("a1 b1", "yellow yellow"), ("c2 c3", "purple purple")],
                       holding="yellow yellow")
    assert "place c1 d1" in GAME.legal_moves(yellows, 0)  # 4 yellows are allowed
    yellows = position(stones=[("a1 b1", "yellow yellow"), ("e2 e3", "purple purple"),
                               ("e1 f1", "blue green")], holding="yellow yellow")
    assert "place c1 d1" not in GAME.legal_moves(yellows, 0)  # 4 yellows + blue = 5 blues


def test_a_stone_that_fits_nowhere_is_set_aside() -> None:
    squares = [s for s in SQUARES if s not in ("a1", "c1")]
    stones = [(f"{squares[2 * k]} {squares[2 * k + 1]}", "green purple") for k in range(1)]
    state = position(stones=stones, holding="red red")
    data = GAME.dump(state)
    data["stone_at"] = [0 if s not in ("a1", "c1") else -1 for s in SQUARES]
    data["crystal"] = ["green" if s not in ("a1", "c1") else "" for s in SQUARES]
    data["fours"] = _fours(data["crystal"])
    state = GAME.load(data)
    assert GAME.legal_moves(state, 0) == ["set aside"]
    refused(position(holding="red red"), 0, "set aside", IllegalMove,
            "You can only set a stone aside when it fits nowhere.")
    after, said = play(state, "discard")
    assert after.holding == -1 and GAME.to_act(after) == {1}
    assert "Player 1 cannot place red/red anywhere (no two empty squares side by side take it " \
           "without a line of 5) and sets it aside: no crystals." in said


# --------------------------------------------------------------------------- abilities


def test_move_ability_moves_another_stone_in_its_orientation_first() -> None:
    state = position(board="c4=move f9=purple", stones=[("a1 a2", "blue green")],
                     holding="red red")
    after, _said = play(state, "place c4 c5")
    assert after.phase == "ability"
    moves = GAME.legal_moves(after, 0)
    assert "skip" in moves and all(m.startswith(("move a1", "skip")) for m in moves)
    assert "move a1 to f8" in moves and "move a1 to f9" not in moves  # vertical stays so
    refused(after, 0, "move c4 to a4", IllegalMove, "You can't move the stone you just placed.")
    refused(after, 0, "move e1 to a4", IllegalMove, "There is no stone on e1.")
    refused(after, 0, "rotate a1 to b2", IllegalMove,
            "You can't 'rotate a1 to b2' now: your turn is at the move ability you covered "
            "(use it or skip it first). Move a stone, e.g. 'move a1 to b1' (named by its "
            "lower or left square), or 'skip'.")
    # named by its upper square: the same move
    via_upper, _ = play(after, "move stone at a2 to f9")
    done, _ = play(after, "move a1 to f8")
    assert GAME.dump(via_upper) == GAME.dump(done)
    assert done.crystal[INDEX["f8"]] == "blue" and done.crystal[INDEX["f9"]] == "green"
    # the moved stone covered purple on f9 (taken), then the red stone, alone now, paid 1
    assert have(done, 0) == {"purple": 1, "red": 1}


def test_abilities_resolve_before_activation() -> None:
    """Placed next to a blue/blue stone: moving that stone away leaves the new one alone."""
    state = position(board="b2=move", stones=[("a3 b3", "red red")], holding="red red")
    after, _said = play(state, "place a2 b2")
    moved, _ = play(after, "move a3 to e8")
    assert have(moved, 0) == {"red": 1}  # isolated
    kept, _ = play(after, "skip")
    assert have(kept, 0) == {"red": 2}  # columns a and b: 2 reds each, 1 crystal each


def test_rotate_ability_turns_a_stone_about_one_square() -> None:
    state = position(board="c4=rotate", stones=[("a1 a2", "blue green")], holding="red red")
    after, _ = play(state, "place c4 c5")
    moves = GAME.legal_moves(after, 0)
    assert sorted(moves) == ["rotate a1 to a3", "rotate a1 to b2", "rotate a2 to b1", "skip"]
    refused(after, 0, "rotate a1 to c2", IllegalMove,
            "Rotating keeps a2: the crystal on a1 can only swing to another square next to it.")
    done, _said = play(after, "rotate a2 to b1")
    assert done.crystal[INDEX["a1"]] == "blue" and done.crystal[INDEX["b1"]] == "green"
    assert done.crystal[INDEX["a2"]] == ""


def test_another_turn_is_mandatory_but_not_on_the_first_turn() -> None:
    state = position(board="c4=again", holding="red red")
    after, said = play(state, "place c4 c5")
    assert GAME.to_act(after) == {0} and after.streak == 2
    assert "Player 1 covered the again square on c4 and must take a second turn." in said
    first = position(board="c4=again", holding="red red", turns=0)
    after, said = play(first, "place c4 c5")
    assert GAME.to_act(after) == {1}
    assert "c4 shows another turn, but the first player may not use it to start the game." \
        in said


def test_an_ability_square_works_once_a_turn_and_chains() -> None:
    """A stone moved onto another move square gives another move."""
    state = position(board="c4=move e8=move", stones=[("a1 a2", "blue green"),
                                                      ("f1 f2", "purple purple")],
                     holding="red red")
    after, _said = play(state, "place c4 c5", "move a1 to e8")
    assert after.phase == "ability" and after.used == [INDEX["c4"]]
    again, _ = play(after, "move e8 to e4")  # vacates e8; never used again this turn
    assert again.phase == "take" and GAME.to_act(again) == {1}


def test_a_rotation_pays_and_acts_only_on_the_square_it_newly_covers() -> None:
    """Page 8: rotate a stone "such that it uses one square from its original placement".
    The kept square was covered before: its ability (another turn) does not act again."""
    state = position(board="c4=rotate a1=again b1=blue", stones=[("a1 a2", "green purple")],
                     holding="red red")
    after, _ = play(state, "place c4 c5", "rotate a2 to b1")
    assert after.crystal[INDEX["a1"]] == "green" and after.crystal[INDEX["b1"]] == "purple"
    assert have(after, 0) == {"blue": 1, "red": 1}  # b1 newly covered; the lone red/red
    assert GAME.to_act(after) == {1} and after.streak == 1  # a1's another turn: no


def test_a_moved_stone_pays_only_for_squares_newly_covered_and_once_a_turn() -> None:
    """Moved onto red e5 (and rotate e6), then rotated about e5: e5 pays once, not twice;
    moved one square along itself, the square it kept (purple a2) pays nothing."""
    state = position(board="c4=move e5=red e6=rotate", stones=[("a1 a2", "blue green")],
                     holding="red red")
    after, _ = play(state, "place c4 c5", "move a1 to e5")
    assert have(after, 0) == {"red": 1} and after.phase == "ability"
    done, said = play(after, "rotate e6 to f5")
    assert done.crystal[INDEX["e5"]] == "blue" and done.crystal[INDEX["f5"]] == "green"
    assert have(done, 0) == {"red": 2}  # e5 once, then 1 for the lone red/red stone
    assert not any("covering the red square e5" in s for s in said)
    assert "e5 was under this stone already: no crystal or ability again." in said
    along = position(board="c4=move a2=purple a3=green", stones=[("a1 a2", "blue blue")],
                     holding="red red")
    along, _ = play(along, "place c4 c5", "move a1 to a2")
    assert along.crystal[INDEX["a3"]] == "blue"
    assert have(along, 0) == {"green": 1, "red": 1}  # a3 newly covered; a2 kept


# --------------------------------------------------------------------------- crystals


def test_an_empty_supply_gives_black_on_the_fullest_platform() -> None:
    state = position(board="a1=red", holding="green green",
                     crystals=[{"blue": 3, "purple": 5}], supply=[0, 10, 10, 10])
    after, said = play(state, "place a1 a2")
    assert after.black[0] == [0, 0, 0, 1]
    assert "Player 1 gains a black crystal, -1 point, because the red supply is empty (for " \
           "covering the red square a1): it goes on their purple platform, their fullest." in said
    assert score(after, 0) == 3 + 5 + 1 - 1


def test_six_crystals_in_one_turn_bring_a_black_one() -> None:
    """Three lines of 3 reds (yellow wild): 2 + 2 + 2 = 6 crystals, then one black."""
    state = position(stones=[("a1 a2", "red red"), ("b1 b2", "red yellow"),
                             ("c3 c4", "red blue")], holding="red yellow")
    after, said = play(state, "place c1 c2")
    assert have(after, 0) == {"red": 6} and after.black[0] == [1, 0, 0, 0]
    assert "Player 1 gains a black crystal, -1 point, because they took 6 crystals this turn " \
           "(6 or more bring one): it goes on their red platform, their fullest." in said


def test_supercrystal_to_the_first_with_exactly_nine() -> None:
    state = position(board="a1=red", holding="blue blue", crystals=[{"red": 8}, {}])
    after, _ = play(state, "place a1 a2")
    assert after.supercrystals == {"red": 0}
    assert score(after, 0) == 9 + 1 + 2
    # beyond 9 each crystal costs a point
    more = GAME.load({**GAME.dump(after), "crystals": [[11, 1, 0, 0], [0, 0, 0, 0]]})
    assert score(more, 0) == (9 - 2) + 1 + 2


def test_thirteen_of_a_colour_loses_at_once() -> None:
    state = position(board="a1=green", holding="blue blue", players=3,
                     crystals=[{"green": 12, "red": 9}, {"red": 1}, {"blue": 2}])
    after, said = play(state, "place a1 a2")
    outcome = GAME.outcome(after)
    assert outcome is not None and 0 not in outcome.winners and outcome.winners == {2}
    assert "Player 1 has 13 green crystals and loses at once: 13 of one colour is too many." \
        in said
    assert GAME.to_act(after) == frozenset()


# --------------------------------------------------------------------------- talismans


def test_a_talisman_takes_one_crystal_of_a_colour_nobody_named() -> None:
    state = position()
    moves = GAME.legal_moves(state, 0)
    assert [m for m in moves if m.startswith("talisman")] == [f"talisman {c}" for c in COLOURS]
    after, _ = play(state, "talisman blue")
    assert have(after, 0) == {"blue": 1} and after.talismans == {"blue": 0}
    # the next player may not (the player before them used one)
    assert not any(m.startswith("talisman") for m in GAME.legal_moves(after, 1))
    refused(after, 1, "talisman red", IllegalMove,
            "The player before you used a talisman on their last turn.")
    after = turn(after, "take 1", "place a1 a2")
    refused(after, 0, "talisman red", IllegalMove, "You used a talisman on your last turn.")
    refused(after, 0, "talisman blue", IllegalMove, "Blue has already been named with a "
            "talisman.")
    after = turn(after, "take 2", "place f8 f9")
    after = turn(after, "take 3", "place f1 f2")
    assert "talisman red" in GAME.legal_moves(after, 0)


def test_only_three_talismans() -> None:
    state = position(talismans={"red": 1, "blue": 1, "green": 1})
    assert not any(m.startswith("talisman") for m in GAME.legal_moves(state, 0))
    refused(state, 0, "talisman purple", IllegalMove, "All three talismans have been used.")


def test_a_second_turn_must_take_a_stone_not_a_talisman() -> None:
    """Page 8: "On both turns you must select a stone from the pyramid"."""
    state = position(board="c4=again", holding="red red")
    after, _ = play(state, "place c4 c5")
    assert GAME.to_act(after) == {0} and after.streak == 2
    moves = GAME.legal_moves(after, 0)
    assert moves and all(m.startswith("take ") for m in moves)
    assert not GAME.view(after, None)["talisman_allowed"]
    refused(after, 0, "talisman blue", IllegalMove, "On a second turn you must take a stone "
            "from the pyramid: a talisman can't replace it.")
    # a line of 4 owes a second turn just the same
    four = position(stones=[("a1 b1", "red red")], holding="red red")
    four, _ = play(four, "place c1 d1")
    assert four.streak == 2 and "talisman red" not in GAME.legal_moves(four, 0)
    # the turn after the pair, the next player may use one
    nxt = turn(four, "take 1", "place f8 f9")
    assert GAME.to_act(nxt) == {1} and "talisman red" in GAME.legal_moves(nxt, 1)


# --------------------------------------------------------------------------- advanced mode


def test_advanced_setup_flips_platforms_before_play() -> None:
    state = GAME.new(2, seed=4, options={"advanced": True})
    first = state.start
    assert state.phase == "flip" and GAME.to_act(state) == {first}
    assert GAME.legal_moves(state, first) == [*(f"flip {c}" for c in COLOURS), "ready"]
    state, _ = play(state, "flip red", "flip green")
    refused(state, first, "flip red", IllegalMove, "Your red platform is already flipped.")
    state, _ = play(state, "done")
    assert GAME.to_act(state) == {1 - first}
    state, _ = play(state, "ready")
    assert state.phase == "take" and GAME.to_act(state) == {first}
    assert state.flipped[first] == [True, False, True, False]
    assert GAME.new(2, seed=4).phase == "take"  # default: no advanced setup


def test_a_flipped_platform_scores_double_and_bursts_at_six() -> None:
    state = position(board="a1=red", holding="blue blue", crystals=[{"red": 4}],
                     flipped=[[True, False, False, False], [False] * 4])
    after, said = play(state, "place a1 a2")
    assert have(after, 0) == {"red": 5, "blue": 1} and after.supercrystals == {"red": 0}
    assert score(after, 0) == 10 + 1 + 2
    burst = GAME.load({**GAME.dump(after), "holding": STONES.index(["green", "green"]),
                       "phase": "place", "board": ["red"] * len(SQUARES)})
    burst = GAME.load({**GAME.dump(burst), "turn": 0})
    done, said = play(burst, "place e8 e9")
    assert done.crystals[0][0] == 1 and done.black[0][0] == 1  # 6th burst, 7th kept
    assert any("overflows" in s for s in said)


# --------------------------------------------------------------------------- the end


def test_the_game_ends_when_the_pyramid_is_empty_and_scores() -> None:
    state = position(board="a1=red", holding="blue blue", pyramid=0,
                     crystals=[{}, {"green": 3}])
    after, _ = play(state, "place a1 a2")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (2, 3) and outcome.winners == {1}
    assert outcome.reason == "Every stone has left the pyramid. Player 2 wins with 3 points."


def test_a_second_turn_the_end_cuts_off_is_never_promised_and_the_end_names_the_winner(
        ) -> None:
    """Issue 38: 'must take a second turn' was followed by 'The game ends' and no word of
    who wins. A line of 4 or an again square on the last stone says there is no second
    turn, and the end says why it came and who wins, in the same line."""
    four = position(stones=[("a1 b1", "red red"), ("a5 b5", "blue blue")], holding="red red",
                    pyramid=0, crystals=[{}, {"green": 5}])
    after, said = play(four, "place c1 d1")
    assert GAME.outcome(after) is not None
    assert "Player 1 made a line of 4 (red, a1 to d1), but the game ends with this turn, so " \
           "there is no second turn." in said
    assert not any("must take a second turn" in line for line in said)
    assert said[-1] == "The game ends: Every stone has left the pyramid. Player 2 wins with 5 " \
                       "points."
    again = position(board="c4=again", holding="red red", pyramid=0, crystals=[{"blue": 4}, {}])
    after, said = play(again, "place c4 c5")
    assert "Player 1 covered the again square on c4, but no stone is left in the pyramid for a " \
           "second turn." in said
    assert said[-1] == "The game ends: Every stone has left the pyramid. Player 1 wins with 5 " \
                       "points."
    # an again square owes a second turn, and then the stone pays a 13th red: no second turn
    lost = position(board="c4=again", stones=[("a4 b4", "red red")], holding="red red",
                    crystals=[{"red": 11}, {"blue": 3}], supercrystals={"red": 1})
    after, said = play(lost, "place c4 d4")
    assert "Player 1 covered the again square on c4 and must take a second turn." in said
    assert said[-1] == "The game ends, with no second turn for Player 1: Player 1 reached 13 " \
                       "crystals of one colour, which loses whatever the points. Player 2 " \
                       "wins with 5 points."
    assert GAME.to_act(after) == frozenset()


def test_a_long_turn_told_in_short_keeps_what_was_placed_what_it_paid_and_how_it_ended(
        ) -> None:
    """Issue 38: a computer's ability chain filled the channel. Told in short (the channel
    does so past 25 lines; the log keeps every line), a turn keeps what was taken and
    placed, sums the abilities up in one line and the crystals in another (each colour's
    count now), and keeps every line of 4, second turn and the end as they were."""
    state = position(board="c4=move f8=rotate f9=purple", stones=[("a1 a2", "blue green")],
                     holding="red red")
    steps = []
    for move in ("place c4 c5", "move a1 to f8", "skip"):
        state, events = GAME.play(state, 0, move)
        steps.append(events)
    told = [e.text for step in steps for e in step]
    assert any("covered the move ability" in line for line in told)
    short = [e.text for e in GAME.fold(0, steps)]
    assert short == [
        "Player 1 places red/red on c4 c5: red on both.",
        "Player 1 uses the abilities they covered: moves 1 stone and skips 1.",
        "Player 1 gains 2 crystals in all: 1 purple (1 now) and 1 red (1 now)."]
    # two turns in a row, the second ending the game: each turn in short, the end whole
    first = position(stones=[("a1 b1", "red red"), ("a5 b5", "blue blue")],
                     holding="red red", pyramid=1, crystals=[{"red": 9}, {}])
    after, one = GAME.play(first, 0, "place c1 d1")
    after, two = GAME.play(after, 0, "take 1")
    after = GAME.load({**GAME.dump(after), "holding": STONES.index(["green", "green"])})
    after, three = GAME.play(after, 0, "place f8 f9")
    short = [e.text for e in GAME.fold(0, [one, two, three])]
    assert short[0] == "Player 1 places red/red on c1 d1: red on both."
    assert short[1].startswith("Player 1 gains 3 red crystals for a row of 4 red, a1 to d1 "
                               "(4 - 1): 12 red now, 3 over 9")  # one gain: told whole
    assert short[2:4] == ["Player 1 made a line of 4 (red, a1 to d1) and must take a second "
                          "turn.", "Player 1 takes a second turn."]
    assert short[-1].startswith("The game ends: Every stone has left the pyramid. Player 1 "
                                "wins with")
    assert GAME.outcome(after) is not None


def test_determinize_redeals_only_face_down_stones() -> None:
    state = GAME.new(3, seed=8)
    seen = set()
    for k in range(10):
        twin = GAME.determinize(state, None, k)
        assert twin.pyramid[:17] == state.pyramid[:17]
        assert sorted(twin.pyramid[17:]) == sorted(state.pyramid[17:])
        assert GAME.view(twin, 0) == GAME.view(state, 0)
        seen.add(tuple(twin.pyramid[17:]))
    assert len(seen) > 1


def test_determinize_deals_the_unseen_stones_from_the_back_row_and_the_box() -> None:
    """With 2 players the 4 stones left in the box are as unseen as the back row: they mix,
    and equal views give equal results for a seed."""
    state = GAME.new(2, seed=8)
    unseen = sorted(state.pyramid[15:] + state.left_out)
    mixed = False
    for k in range(10):
        twin = GAME.determinize(state, 0, k)
        assert twin.pyramid[:15] == state.pyramid[:15]
        assert sorted(twin.pyramid[15:] + twin.left_out) == unseen
        assert GAME.view(twin, 0) == GAME.view(state, 0)
        mixed |= set(twin.left_out) != set(state.left_out)
        swapped = GAME.load({**GAME.dump(state), "pyramid": state.pyramid[:15] + twin.left_out
                             + twin.pyramid[15:16], "left_out": twin.pyramid[16:]})
        assert GAME.dump(GAME.determinize(swapped, 0, k)) == GAME.dump(twin)
    assert mixed


def test_views_show_the_picture_facts() -> None:
    state = position(stones=[("b4 c4", "red yellow")], holding="red blue")
    view = GAME.view(state, None)
    assert view["holding"] == ["red", "blue"]
    b4 = next(s for s in view["board"] if s["square"] == "b4")
    assert b4 == {"square": "b4", "shows": "", "crystal": "red", "partner": "c4"}
    assert view == GAME.view(state, 0) | {"seat": None}


def test_advanced_random_games_keep_the_contract() -> None:
    """The shared conformance test plays default games; these play advanced ones."""
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = GAME.new(players, seed, {"advanced": True})
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            text = json.dumps(GAME.dump(state))
            assert GAME.dump(GAME.load(json.loads(text))) == GAME.dump(state)
            for viewer in (None, *range(players)):
                twin = GAME.determinize(state, viewer, rng.randrange(999))
                assert GAME.view(twin, viewer) == GAME.view(state, viewer)
            seat = min(GAME.to_act(state))
            state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        assert any(any(f) for f in state.flipped)


def test_forgiving_words_play_the_canonical_move() -> None:
    state = position()
    assert GAME.parse(state, 0, "take stone #3") == "take 3"
    assert GAME.parse(state, 0, "draft 3") == "take 3"
    assert GAME.parse(state, 0, "talisman blue") == "talisman blue"
    refused(state, 0, "take 30", IllegalMove, "The pyramid's stones are numbered 1 to 24.")
    refused(state, 0, "juggle 3", InvalidMove, "I don't know 'juggle'. Take an available "
            "stone by its number, e.g. 'take 1', or use a talisman, e.g. 'talisman red'.")
    # the hint's examples are moves the seat may make: no talisman once none is left
    spent = position()
    spent.talismans = {c: 1 for c in ("red", "blue", "green")}
    assert "talisman" not in GAME.notation_hint(spent, 0)
    spent.pyramid[0] = -1  # stone 1 taken
    assert "e.g. 'take 2'" in GAME.notation_hint(spent, 0)
    held = position(holding="red blue")
    assert GAME.parse(held, 0, "place c4-c5") == "place c4 c5"
    assert GAME.parse(held, 0, "put stone on c4 c5") == "place c4 c5"


# --------------------------------------------------------------------------- effects said


def test_a_placement_says_where_its_crystals_lie_what_pays_and_what_does_not() -> None:
    state = position(board="a1=blue", holding="red yellow")
    _, said = play(state, "place a1 a2")
    assert said[:3] == ["Player 1 places red/yellow on a1 a2: red on a1, yellow on a2.",
                        "Player 1 gains 1 blue crystal for covering the blue square a1: 1 blue "
                        "now.",
                        "a2 shows nothing: no crystal for covering it."]
    _, said = play(position(holding="green green"), "place c4 d4")
    assert "Player 1 places green/green on c4 d4: green on both." in said
    assert "c4 and d4 show nothing: no crystal for covering them." in said


def test_a_square_pays_and_acts_once_a_turn_and_says_so() -> None:
    """Three moves: the blue/green stone onto red e5 (paid) and move e6, away again, then the
    purple stone onto e5 and e6: neither pays nor acts twice; the red/red stone, touching
    the purple one only at a corner, pays nothing and says why."""
    state = position(board="c4=move d4=move e6=move e5=red",
                     stones=[("a1 a2", "blue green"), ("f1 f2", "purple purple")],
                     holding="red red")
    state, said = play(state, "place c4 d4")
    assert "Player 1 covered the move ability on c4: they may move another stone already on " \
           "the board to two empty squares, or skip." in said
    state, said = play(state, "move a1 to e5", "move e5 to a8", "move f1 to e5")
    assert "Player 1 moves the blue/green stone from a1 a2 to e5 e6 (the move ability on c4); " \
           "a stone moved or rotated pays only for the squares it newly covers." in said
    assert "Player 1 gains 1 red crystal for covering the red square e5: 1 red now." in said
    assert "e5 already paid this turn: no crystal again." in said
    assert "e6 already acted this turn: the ability works once a turn." in said
    assert "The red/red stone pays nothing: it touches other stones only at a corner, so it " \
           "is not alone, and corners make no line." in said
    assert have(state, 0) == {"red": 1}


def test_a_rotation_says_the_square_it_kept_pays_nothing_again() -> None:
    state = position(board="c4=rotate a1=again b1=blue", stones=[("a1 a2", "green purple")],
                     holding="red red")
    _, said = play(state, "place c4 c5", "rotate a2 to b1")
    assert "Player 1 covered the rotate ability on c4: they may rotate another stone about " \
           "one of its squares, or skip." in said
    assert "a1 was under this stone already: no crystal or ability again." in said
    _, said = play(state, "place c4 c5", "pass")
    assert "Player 1 does not use the rotate ability on c4." in said


def test_each_line_says_its_squares_its_colour_and_the_yellow_in_it() -> None:
    state = position(stones=[("b3 b2", "blue blue"), ("d3 d2", "blue green"),
                             ("c4 c5", "green purple")], holding="purple yellow")
    _, said = play(state, "place c2 c3")
    assert "Player 1 gains 2 blue crystals for a row of 3 blue, b3 to d3, yellow counting as " \
           "blue (3 - 1): 2 blue now." in said
    assert "Player 1 gains 1 green crystal for a column of 2 green, c3 to c4, yellow counting " \
           "as green (2 - 1): 1 green now." in said


def test_a_lone_stone_says_it_touches_nothing_and_what_it_gave() -> None:
    after, said = play(position(holding="red blue"), "place c4 c5")
    assert "The red/blue stone touches no other stone: Player 1 chooses 1 crystal of red or " \
           "blue." in said
    _, said = play(after, "gain blue")
    assert said == ["Player 1 gains 1 blue crystal for the red/blue stone, touching no other: "
                    "1 blue now."]
    _, said = play(position(holding="purple yellow"), "place c4 c5")
    assert "The purple/yellow stone touches no other stone: Player 1 chooses 1 crystal of red, " \
           "blue, green or purple (its yellow crystal is wild)." in said
    _, said = play(position(holding="green green"), "place c4 c5")
    assert "Player 1 gains 1 green crystal for the green/green stone, touching no other: " \
           "1 green now." in said


def test_a_stone_beside_others_without_a_line_says_why_it_pays_nothing() -> None:
    state = position(stones=[("a2 a3", "blue blue")], holding="red red")
    _, said = play(state, "place b2 c2")
    assert "The red/red stone pays nothing: it touches other stones, but no crystal of it has " \
           "a crystal of its colour beside it in a row or column; its own two crystals make a " \
           "line only with another stone." in said
    yellows = position(stones=[("a2 a3", "yellow purple")], holding="yellow blue")
    _, said = play(yellows, "place b1 b2")  # blue on b1, yellow on b2 beside a2
    assert any("(yellow beside yellow alone is no colour)" in s for s in said)


def test_the_supercrystal_crystals_over_nine_and_the_loss_say_what_they_mean() -> None:
    state = position(board="a1=red", holding="blue blue", crystals=[{"red": 8}, {}])
    _, said = play(state, "place a1 a2")
    assert "Player 1 takes the red supercrystal, +2 points: the first to reach exactly 9 red." \
        in said
    over = position(board="a1=red", holding="blue blue", crystals=[{"red": 9}, {}])
    _, said = play(over, "place a1 a2")
    assert "Player 1 gains 1 red crystal for covering the red square a1: 10 red now, 1 over 9 " \
           "at -1 point each, so their red platform scores 8 points, 1 fewer than before." \
        in said


def test_a_gain_over_nine_says_the_total_what_lies_over_nine_and_the_platform_points() -> None:
    """Issue 38: '13 now, 2 over 9: -2 points' read as a sum gone wrong; the line says the
    colour's total, how many of it lie over 9 (not how many of this gain do) and what the
    platform scores now against before, which is the change the gain made."""
    # 8 red and a row of 4 red (3 crystals): the 9th scores +1, the 10th and 11th -1 each
    # (the red supercrystal is gone, so the three are told in one line)
    state = position(stones=[("a1 b1", "red red"), ("a5 b5", "blue blue")], holding="red red",
                     crystals=[{"red": 8}, {}], supercrystals={"red": 1})
    after, said = play(state, "place c1 d1")
    assert have(after, 0)["red"] == 11
    assert "Player 1 gains 3 red crystals for a row of 4 red, a1 to d1 (4 - 1): 11 red now, " \
           "2 over 9 at -1 point each, so their red platform scores 7 points, 1 fewer than " \
           "before." in said
    # 11 red and 2 more: 13 red, 4 over 9 (not 2): 5 points, 2 fewer; and the loss
    state = position(stones=[("a1 b1", "red red")], holding="red blue",
                     crystals=[{"red": 11}, {}])
    _, said = play(state, "place c1 c2")
    assert "Player 1 gains 2 red crystals for a row of 3 red, a1 to c1 (3 - 1): 13 red now, " \
           "4 over 9 at -1 point each, so their red platform scores 5 points, 2 fewer than " \
           "before." in said
    # 7 blue and 3 more: 10 blue, 8 points where 7 were: more than before
    state = position(stones=[("a1 b1", "blue blue"), ("a5 b5", "red red")],
                     holding="blue blue", crystals=[{"blue": 7}, {}], supercrystals={"blue": 1})
    _, said = play(state, "place c1 d1")
    assert "Player 1 gains 3 blue crystals for a row of 4 blue, a1 to d1 (4 - 1): 10 blue " \
           "now, 1 over 9 at -1 point each, so their blue platform scores 8 points, 1 more " \
           "than before." in said


def test_a_payment_split_by_a_supercrystal_a_loss_or_no_supply_says_each_share() -> None:
    """A row of 4 pays 3 crystals; where something comes between them (the supercrystal at
    9, the 13th, the supply running dry) the payment is told in parts, and each part says
    its share: the first '1 of the 3 ... (4 - 1)', the rest 'the other 2', so no line
    reads '(4 - 1)' against a gain of 1 or 2."""
    line = [("a1 b1", "red red"), ("a5 b5", "blue blue")]
    state = position(stones=line, holding="red red", crystals=[{"red": 8}, {}])
    after, said = play(state, "place c1 d1")
    assert have(after, 0)["red"] == 11
    assert said[2:5] == [
        "Player 1 gains 1 of the 3 red crystals for a row of 4 red, a1 to d1 (4 - 1): 9 red "
        "now.",
        "Player 1 takes the red supercrystal, +2 points: the first to reach exactly 9 red.",
        "Player 1 gains the other 2: 11 red now, 2 over 9 at -1 point each, so their red "
        "platform scores 7 points, 2 fewer than before."]
    # 12 red and 3 more: the 13th is the first, the loss, then the other 2
    state = position(stones=line, holding="red red", crystals=[{"red": 12}, {}],
                     supercrystals={"red": 1})
    _, said = play(state, "place c1 d1")
    assert said[2:5] == [
        "Player 1 gains 1 of the 3 red crystals for a row of 4 red, a1 to d1 (4 - 1): 13 red "
        "now, 4 over 9 at -1 point each, so their red platform scores 5 points, 1 fewer than "
        "before.",
        "Player 1 has 13 red crystals and loses at once: 13 of one colour is too many.",
        "Player 1 gains the other 2: 15 red now, 6 over 9 at -1 point each, so their red "
        "platform scores 3 points, 2 fewer than before."]
    # 1 red left in the supply: the 1st crystal, then a black one for each of the others
    state = position(stones=line, holding="red red", crystals=[{"red": 4, "blue": 3}, {}],
                     supercrystals={"red": 1}, supply=[1, 10, 10, 10])
    after, said = play(state, "place c1 d1")
    assert have(after, 0)["red"] == 5 and after.black[0] == [2, 0, 0, 0]
    assert said[2:5] == [
        "Player 1 gains 1 of the 3 red crystals for a row of 4 red, a1 to d1 (4 - 1): 5 red "
        "now.",
        "Player 1 gains a black crystal, -1 point, because the red supply is empty (for the "
        "2nd of those 3): it goes on their red platform, their fullest.",
        "Player 1 gains a black crystal, -1 point, because the red supply is empty (for the "
        "3rd of those 3): it goes on their red platform, their fullest."]
    # none left: each black crystal stands for one of the 3, the first saying which line
    state = position(stones=line, holding="red red", crystals=[{"blue": 3}, {}],
                     supply=[0, 10, 10, 10])
    _, said = play(state, "place c1 d1")
    assert said[2:4] == [
        "Player 1 gains a black crystal, -1 point, because the red supply is empty (for the "
        "1st of the 3 red crystals for a row of 4 red, a1 to d1 (4 - 1)): it goes on their "
        "blue platform, their fullest.",
        "Player 1 gains a black crystal, -1 point, because the red supply is empty (for the "
        "2nd of those 3): it goes on their blue platform, their fullest."]


def test_an_overflowing_flipped_platform_says_what_it_lost() -> None:
    state = position(board="a1=red", holding="blue blue", crystals=[{"red": 5}],
                     flipped=[[True, False, False, False], [False] * 4])
    _, said = play(state, "place a1 a2")
    assert "Player 1's flipped red platform overflows with a 6th crystal: its 5 crystals go " \
           "back to the supply, -10 points." in said
    assert "Player 1 gains a black crystal, -1 point, because a 6th red crystal overflowed " \
           "their flipped platform: it goes on their red platform." in said


def test_talismans_setting_aside_and_flipping_say_what_they_do() -> None:
    _, said = play(position(), "talisman blue")
    assert said[:2] == ["Player 1 uses a talisman instead of taking a stone and names blue: "
                        "2 talismans left for anyone.",
                        "Player 1 gains 1 blue crystal for the blue talisman: 1 blue now."]
    _, said = play(position(talismans={"red": 1, "green": 1}), "talisman blue")
    assert said[0].endswith("names blue: no talisman left for anyone.")
    state = GAME.new(2, seed=4, options={"advanced": True})
    _, said = play(state, "flip red")
    assert said == [f"Player {state.start + 1} flips their red platform to the advanced side: "
                    "5 spaces, 2 points a crystal, emptied by a 6th."]


# --------------------------------------------------------------------------- costs


def costs_of(state: CrystalliaState) -> dict[str, str]:
    """``GAME.costs`` for the seat to act, checked to leave the state and the order of the
    legal moves alone and to price only legal moves, each in a few words."""
    seat = min(GAME.to_act(state))
    before, moves = GAME.dump(state), GAME.legal_moves(state, seat)
    costs = GAME.costs(state, seat)
    assert GAME.dump(state) == before and GAME.legal_moves(state, seat) == moves
    assert set(costs) <= set(moves) and all(len(c) <= 30 for c in costs.values()), costs
    return costs


def test_a_talisman_costs_one_of_the_three() -> None:
    assert costs_of(position()) == {f"talisman {c}": "uses 1 of 3 talismans left"
                                    for c in COLOURS}
    last = costs_of(position(talismans={"red": 1, "green": 1}))
    assert last == {"talisman blue": "uses the last talisman",
                    "talisman purple": "uses the last talisman"}
    empty = costs_of(position(supply=[SUPPLY, 0, SUPPLY, SUPPLY]))
    assert empty["talisman blue"] == "talisman; -1 point: 1 black"


def test_placements_that_bring_black_crystals_or_crystals_over_nine_say_so() -> None:
    over = position(board="a1=red", holding="blue blue", crystals=[{"red": 9}, {}])
    costs = costs_of(over)
    assert costs["place a1 a2"] == "-1 point: 1 over 9" and "place e8 e9" not in costs
    empty = position(board="a1=red", holding="green green", supply=[0, 10, 10, 10])
    assert costs_of(empty)["place a1 a2"] == "-1 point: 1 black"
    six = position(stones=[("a1 a2", "red red"), ("b1 b2", "red yellow"),
                           ("c3 c4", "red blue")], holding="red yellow")
    assert costs_of(six)["place c1 c2"] == "-1 point: 1 black"  # 6 reds, then a black
    loss = position(board="a1=green", holding="blue blue", crystals=[{"green": 12}, {}])
    assert costs_of(loss)["place a1 a2"] == "13th green: you lose"
    burst = position(board="a1=red", holding="blue blue", crystals=[{"red": 5}],
                     flipped=[[True, False, False, False], [False] * 4])
    assert costs_of(burst)["place a1 a2"] == "6th red: platform empties"


def test_a_choice_of_colour_or_an_ability_prices_what_follows_it() -> None:
    alone, _ = play(position(holding="red blue", crystals=[{"blue": 10}, {}]), "place c4 c5")
    assert costs_of(alone) == {"gain blue": "-1 point: 1 over 9"}
    moving, _ = play(position(board="c4=move f9=purple", stones=[("a1 a2", "blue green")],
                              holding="red red", crystals=[{"purple": 9}, {}]), "place c4 c5")
    costs = costs_of(moving)
    assert costs["move a1 to f8"] == "-1 point: 1 over 9" and "skip" not in costs
    assert not costs_of(GAME.new(2, seed=3, options={"advanced": True}))  # flips are free
    state = position()
    assert not [m for m in costs_of(state) if m.startswith("take")]


def test_the_list_says_each_free_stones_colours_beside_take() -> None:
    """An audit's new player: 'take 1' ... 'take 8' named no colours; the picture did. The
    list says them (the free stones are face up), and nothing beside other moves."""
    state = GAME.new(2, seed=3)
    notes = GAME.notes(state, state.turn)
    shown = GAME.view(state, None)["pyramid"]
    assert notes and set(notes) == {m for m in GAME.legal_moves(state, state.turn)
                                    if m.startswith("take ")}
    for move, colours in notes.items():
        position = int(move.split()[1]) - 1
        assert colours == "/".join(STONES[state.pyramid[position]])
        assert shown[position] is not None  # face up: everyone sees it already
    assert GAME.notes(state, 1 - state.turn) == {}
    placing, _ = GAME.play(state, state.turn, "take 1")
    assert not any(GAME.notes(placing, placing.turn).values())  # nothing beside a placement


def test_placements_are_listed_in_board_order() -> None:
    """A new player read 'place a …, place b …, place e …, place f …, place c …' (the
    order the squares pair up in). The list reads a, b, c, ... and within a square its
    partners in order; the legal moves themselves keep their order."""
    from bot.moves import Choices
    state, _ = GAME.play(GAME.new(2, seed=3), 0, "take 1")
    legal = GAME.legal_moves(state, 0)
    listed = Choices.of(legal, GAME.costs(state, 0), GAME.notes(state, 0)).moves
    assert sorted(listed) == sorted(legal) and listed != legal
    firsts = [m.split()[1] for m in listed if m.startswith("place ")]
    assert firsts == sorted(firsts, key=lambda sq: (sq[0], int(sq[1:])))
    assert [e.text for e in Choices.of(legal, {}, GAME.notes(state, 0)).narrow("", 6)] == [
        "place a", "place b", "place c", "place d", "place e", "place f"]
