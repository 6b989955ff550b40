"""Block Buster's pictures: a fixed set of views from seeded games (early, middle, the end,
every variant and seat count) drawn within Discord's limits, the same for everybody where
nothing is private, a seat's own blocks in its hand; the summary; the defects players met
(point blocks' winners missing from the final picture, cut-off lines, tiny labels, the
special 2-player headline naming a player twice) stay fixed.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render import block_buster as drawing
from render import kit
from tests.pictures import decoded, pixels
from tests.test_block_buster import BLUE, DIAMOND_E5, RED, RING_E5, _ended, position, rings

GAME = rules.GAMES["block-buster"]
GID = "block-buster"
GAMES: list[tuple[int, dict[str, str] | None]] = [
    (2, None), (3, None), (4, None), (2, {"variant": "special-2p"}),
    (4, {"variant": "couples"}), (2, {"variant": "official-2p"}), (3, {"connect": "any"})]


@functools.cache
def samples(players: int, option: tuple[tuple[str, str], ...]) -> tuple[Any, ...]:
    """The start, after one move, the middle and the end of one seeded random game."""
    state = GAME.new(players, seed=players + 10 * len(option), options=dict(option) or None)
    rng = random.Random(players)
    states = [state]
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        states.append(state)
    return tuple(states[i] for i in sorted({0, 1, len(states) // 2, len(states) - 1}))


def all_samples() -> list[Any]:
    return [s for players, options in GAMES
            for s in samples(players, tuple(sorted((options or {}).items())))]


def special_end() -> Any:
    """The special 2-player game over: Blue and Yellow (seat 1) hold three circles."""
    squares = dict.fromkeys(rings("circle", 3), 2) | dict.fromkeys(rings("star", 1), 1)
    return _ended(2, squares, options={"variant": "special-2p"}, passed=[True] * 4,
                  blocks=[[]] * 4)


def test_every_part_fits_discord_and_the_table_at_every_width() -> None:
    for state in all_samples():
        for seat in (None, 0):
            view = GAME.view(state, seat)
            parts = render.pngs(GID, view)
            assert len(parts) == (1 if seat is None else 2)
            for part in parts:
                image = decoded(part)
                assert image.width == 1000 and kit.fits(image)
                assert len(part) < 200_000
        for width in (600, 1000, 1400):
            table = drawing.table(GAME.view(state, None), width=width)
            assert table.width == width and kit.fits(table)
            assert table.height > width  # the board as large as fits: near the limit


def test_the_spectators_picture_is_the_same_for_a_determinized_twin() -> None:
    for state in all_samples()[1::3]:
        twin = GAME.determinize(state, None, seed=7)
        assert pixels(render.png(GID, GAME.view(twin, None))) == \
            pixels(render.png(GID, GAME.view(state, None)))


def test_a_seat_sees_the_table_and_its_own_blocks_a_spectator_no_hand() -> None:
    state = all_samples()[2]
    spectator, seat = GAME.view(state, None), GAME.view(state, 1)
    assert {**seat, "seat": None} == spectator  # nothing is hidden
    assert drawing.hand(spectator) is None
    assert pixels(kit.png(drawing.table(seat))) == pixels(kit.png(drawing.table(spectator)))
    assert pixels(render.png(GID, seat)) != pixels(render.png(GID, spectator))
    summary = render.summary(GID, seat)
    assert "Your blocks: " in summary and "Your blocks" not in render.summary(GID, spectator)
    for block in seat["blocks"][1]:
        assert block.upper() in summary


def test_the_picture_changes_with_every_placement() -> None:
    state = GAME.new(2, seed=3)
    rng = random.Random(3)
    for _ in range(4):
        (seat,) = GAME.to_act(state)
        after, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        assert pixels(render.png(GID, GAME.view(after, None))) != \
            pixels(render.png(GID, GAME.view(state, None)))
        state = after


def test_summary_says_whose_turn_the_points_and_the_last_move() -> None:
    for state in all_samples():
        view = GAME.view(state, None)
        line = render.summary(GID, view)
        assert line.startswith("Block Buster, ") and "\n" not in line and "  " not in line
        if view["result"] is None:
            assert f"{view['colours'][view['turn']].capitalize()} to place a block" in line
            assert ("Scores if it ended now (every square not yet placed counts -1"
                    in line)
        else:
            assert "game over" in line and "Scores: " in line
        assert all(str(score) in line for score in view["scores"])
    start = GAME.new(2, seed=1)
    state = GAME.play(start, start.start, "1i r0 i1")[0]
    view = {**GAME.view(state, None), "names": ["Alice", "Bob"]}
    mover = ["Alice (Blue)", "Bob (Red)"][state.start]
    assert f"Last: {mover} placed 1I r0 at i1." in render.summary(GID, view)


def test_the_final_picture_marks_each_point_blocks_winner_and_lists_them() -> None:
    for state in [s for s in all_samples() if GAME.outcome(s) is not None]:
        view = GAME.view(state, None)
        image = drawing.table(view)
        grid = drawing.board_grid(view)
        won = 0
        for point in view["point_blocks"]:
            if point["leader"] is None:
                continue
            won += 1
            cells = [kit.square_index(s) for s in point["squares"]]
            x0, y0, _, _ = grid.box(kit.square_name(min(f for f, _ in cells),
                                                   max(r for _, r in cells)))
            inside = (x0 + grid.cell // 3, y0 + grid.cell // 2)  # left of the shape
            fill = kit.seat_colour(view["colours"][point["leader"]]).fill
            assert image.getpixel(inside) == fill, point
        assert won
        lines = drawing.breakdown(view)
        for seat in range(view["players"]):
            colours = [c for c, owner in enumerate(view["owners"]) if owner == seat]
            held = sum(1 for p in view["point_blocks"] if p["leader"] in colours)
            listed = lines[seat].split(": ", 1)[1]
            counted = sum(int(part.split()[0]) for part in listed.split(", ")
                          if part.split()[0].isdigit())
            assert counted == held, lines[seat]
            assert f" {view['own_scores'][seat]}: " in lines[seat]
            named = {**view, "names": ["Alice", "Bob", "Chidi", "Dana"][: view["players"]]}
            short = drawing.breakdown(named, short=True)[seat]  # as the picture has it
            assert short.split(": ", 1)[1].startswith(
                f"{held} point block" if held else "no point blocks"), short
            at = kit.Layout(1000)  # one line a player in the result box
            assert len(kit.wrap(short, at.px(kit.SMALL), at.body - at.px(40))) == 1, short


class Drawn:
    """Every line ``kit.text`` draws, with its size."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, int]] = []


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    record = Drawn()
    original = kit.text

    def spy(image: Image.Image, xy: tuple[float, float], line: str, size: int,
            fill: kit.RGB, **kw: Any) -> kit.Box:
        record.lines.append((line, size))
        return original(image, xy, line, size, fill, **kw)

    monkeypatch.setattr(kit, "text", spy)
    drawing._ground.cache_clear()
    return record


def test_no_text_under_24_px_at_1000_and_none_cut_off(drawn: Drawn) -> None:
    states = [s for players, options in GAMES[:4]
              for s in samples(players, tuple(sorted((options or {}).items())))[2:]]
    for state in states:
        for width in (600, 1000):
            view = GAME.view(state, 0)
            image = drawing.draw(view, width=width)
            assert min(size for _, size in drawn.lines) >= 24 * width / 1000 - 0.5
            assert not any(line.endswith("…") for line, _ in drawn.lines), drawn.lines
            strip = image.crop((width - kit.Layout(width).margin + width // 80, 0, width,
                                image.height))
            assert strip.getextrema() == ((255, 255),) * 3  # nothing runs past the margin
            drawn.lines.clear()


def test_special_two_player_headline_names_the_winner_once(drawn: Drawn) -> None:
    view = {**GAME.view(special_end(), None), "names": ["Alice", "Bob"]}
    head, _ = drawing.status(view)
    assert head == "Game over: Alice wins"  # not 'Player 1 and Player 1 wins'
    drawing.table(view)
    text = " ".join(line for line, _ in drawn.lines)
    assert "Player 1" not in text and "Alice (Blue and Yellow) wins" in text
    assert text.count("Alice wins") == 1
    line = render.summary(GID, view)
    assert "Scores: Alice (Blue and Yellow) 12, Bob (Red and Green) 3." in line
    assert drawing.status(GAME.view(special_end(), None))[0] == "Game over: Blue and Yellow win"


def test_width_option_scales_and_small_widths_are_refused() -> None:
    view = GAME.view(all_samples()[2], None)
    assert decoded(render.png(GID, view, width=1400)).width == 1400
    with pytest.raises(ValueError, match="at least"):
        render.png(GID, view, width=200)


def test_seat_rows_fit_one_line_and_name_each_colour_of_a_two_colour_seat() -> None:
    view = {**GAME.view(samples(4, ())[2], None), "names": ["Alice", "Bob", "Chidi", "Dana"]}
    lines = [drawing._seat_line(view, s) for s in range(4)]
    at = kit.Layout(1000)
    for line in lines:  # the chip and the name say the colour; the rest fits beside them
        assert re.fullmatch(r"-?\d+ points, penalty -?\d+, (\d+ blocks? left|passed)", line)
        assert kit.text_width(line, at.px(kit.TEXT)) <= at.width - at.margin - at.px(400)
    special = {**GAME.view(samples(2, (("variant", "special-2p"),))[2], None),
               "names": ["Alice", "Bob"]}
    line = drawing._seat_line(special, 0)
    assert re.fullmatch(r"-?\d+ points, penalty -?\d+, Blue (\d+ left|passed), Yellow "
                        r"(\d+ left|passed)", line), line


def test_the_picture_as_text_names_the_seats_the_point_blocks_and_your_blocks() -> None:
    state = position(squares=dict.fromkeys(RING_E5[:7], BLUE) | {"h8": RED},
                     previous=[["e7"], ["h8"]], turn=RED,
                     secured=[BLUE if n == DIAMOND_E5 else -1 for n in range(25)])
    view = {**GAME.view(state, RED), "names": ["Alice", "Bob"]}
    text = render.describe(GID, view)
    lines = text.splitlines()
    assert lines[0] == "Block Buster, 2 players, 13 point blocks in the placing area."
    assert lines[1] == ("Bob (Red) to place a block. Red: touch your previous block, or skip "
                        "up to 5 spaces (-2 each).")
    assert lines[2].startswith("Alice (Blue): ") and lines[3].startswith("Bob (Red): ")
    assert "diamond f6: Blue 7 won, Red 1" in text
    assert text.endswith("Your blocks: " + ", ".join(b.upper() for b in view["blocks"][RED])
                         + ".")
    over = {**GAME.view(special_end(), None), "names": ["Alice", "Bob"]}
    assert "Game over: Every colour has passed. Alice (Blue and Yellow) wins" in \
        render.describe(GID, over)


def test_a_result_names_the_players_after_their_colours() -> None:
    state = _ended(2, dict.fromkeys(RING_E5[:7], BLUE), blocks=[[], []])
    view = {**GAME.view(state, None), "names": ["Alice", "Bob"]}
    assert "game over: Every colour has passed. Blue (Alice) wins on points" in \
        render.summary(GID, view)


def test_the_hand_dots_the_square_a_move_names_and_circles_are_rings() -> None:
    view = GAME.view(GAME.new(2, seed=1), 0)
    block = drawing._shapes(view, 0, kit.Layout(1000))
    ink = kit.seat_colour("blue").ink
    dots = sum(1 for x in range(block.width) for y in range(0, block.height, 2)
               if block.getpixel((x, y)) == ink)
    assert dots > 14 * 50  # a dot on each of the 14 blocks
    tile = drawing._plate(100, drawing.PLATE, kit.INK, "circle", 4)
    assert tile.getpixel((50, 28)) == drawing.PLATE  # the hole in the ring
    assert drawing._plate(100, drawing.PLATE, kit.INK, "hexagon", 4).getpixel((50, 28)) == \
        kit.INK


# --------------------------------------------------------------------------- issue 38


def test_the_board_carries_file_letters_and_rank_numbers_on_all_four_sides(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every letter a-t over and under the board, every number 1-20 left and right of it,
    each beside its own column or row."""
    placed: list[tuple[str, float, float]] = []
    original = kit.text

    def spy(image: Image.Image, xy: tuple[float, float], line: str, size: int,
            fill: kit.RGB, **kw: Any) -> kit.Box:
        placed.append((line, xy[0], xy[1]))
        return original(image, xy, line, size, fill, **kw)

    monkeypatch.setattr(kit, "text", spy)
    drawing._ground.cache_clear()
    for players, options in GAMES[:3]:
        view = GAME.view(samples(players, tuple(sorted((options or {}).items())))[1], None)
        placed.clear()
        drawing.table(view)
        grid = drawing.board_grid(view)
        top, _ = drawing._around(view, kit.Layout(1000))
        files = "abcdefghijklmnopqrst"
        for f, letter in enumerate(files):
            x = grid.left + (f + 0.5) * grid.cell
            ys = sorted(y + top.height for line, lx, y in placed if line == letter
                        and abs(lx - x) < 1)
            assert len(ys) == 2 and ys[0] < grid.top and ys[1] > grid.bottom, (letter, ys)
        for r in range(20):
            y = grid.top + (19 - r + 0.5) * grid.cell - top.height
            xs = sorted(lx for line, lx, ly in placed if line == str(r + 1)
                        and abs(ly - y) < 1)
            assert len(xs) == 2 and xs[0] < grid.left and xs[1] > grid.right, (r + 1, xs)
    drawing._ground.cache_clear()


def test_the_points_that_start_far_below_zero_say_what_they_count(drawn: Drawn) -> None:
    """-59 at the start reads as a mistake unless said: every square not yet placed counts
    against its player. The picture says it under the seat rows, and so do the summary and
    the text version; the board's squares stay at least 34 px with four players."""
    start = GAME.new(2, seed=1)
    view = GAME.view(start, None)
    assert min(view["scores"]) <= -56
    counted = "Points if it ended now: each square not yet placed counts -1."
    drawing.table(view)
    assert counted in [line for line, _ in drawn.lines]
    assert "(every square not yet placed counts -1)" in render.summary(GID, view)
    assert counted in render.describe(GID, view).splitlines()
    drawn.lines.clear()
    drawing.table(GAME.view(samples(2, ())[-1], None))  # over: the result box says it all
    assert not [line for line, _ in drawn.lines if line.startswith("Points if it ended")]
    couples = GAME.view(GAME.new(4, seed=1, options={"variant": "couples"}), None)
    assert min(couples["scores"]) <= -120  # a team's 128 squares less its tokens
    assert "Team points if it ended now: each square not yet placed counts -1." in \
        render.describe(GID, couples).splitlines()
    assert "Scores if it ended now (every square not yet placed counts -1, a team's " \
        "partners added together): " in render.summary(GID, couples)
    for players, options in GAMES:
        for state in samples(players, tuple(sorted((options or {}).items()))):
            assert drawing.board_grid(GAME.view(state, None)).cell >= 34


def test_only_block_buster_shows_its_hand_at_every_turn() -> None:
    """Its hand holds no secret but is what a player places from: the bot sends it at each
    of their turns (``render.hand_every_turn``); the other games' hands go when they
    change."""
    assert render.hand_every_turn(GID)
    assert [g for g in render.RENDERERS if render.hand_every_turn(g)] == [GID]
    assert not render.hand_every_turn("no-such-game")


def test_a_pair_of_blocks_is_said_as_the_picture_shows_it() -> None:
    """Official-2p: every shape twice. The text said '5I, 5I, 5L, 5L, ...' where the pieces
    picture shows '2x5I'; both say '2x5I' now, and a seat of two colours (special-2p)
    still lists each colour's blocks."""
    official = GAME.view(GAME.new(2, 3, {"variant": "official-2p"}), 0)
    assert "Your blocks: 2x5I, 2x5L, " in render.summary(GID, official)
    special = GAME.view(GAME.new(2, 3, {"variant": "special-2p"}), 0)
    assert "2x" not in render.summary(GID, special)
