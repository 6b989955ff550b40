"""Battle Tiles pictures: a fixed set of views from seeded games, drawn and checked.

The moments: the opening (each seat drawn to start), early, mid and late in a game, the
rotate decision, the chaos choice of neutral tiles, and the end. Each is drawn for the
channel and for both seats: sizes within Discord's limit, nothing hidden drawn, the seat's
hand added, summaries, and the defects players reported kept fixed.
"""

from __future__ import annotations

import copy
import functools
import random
import re
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render import battle_tiles as bt
from render import kit
from tests import pictures
from tests.pictures import decoded, pixels

GAME = rules.GAMES["battle-tiles"]
ID = "battle-tiles"
WIDTHS = (600, 1000, 1400)
NAMES = ["opening-red", "opening-blue", "early", "mid", "late", "rotate", "chaos", "over",
         "over-2"]


def powered_half(rng: random.Random, moves: list[str]) -> str:
    """A move with a power token half of the time there is one."""
    powered = [m for m in moves if " with " in m]
    return rng.choice(powered if powered and rng.random() < 0.5 else moves)


def play_out(seed: int) -> list[Any]:
    """Every state of one seeded random game, using power tokens half of the time."""
    return pictures.play_out(GAME, 2, seed, pick=powered_half)


def chaos_pause() -> Any:
    """The first state, over seeded random games, where chaos leaves a colour short of
    markers and the player must choose the neutral tiles."""
    for seed in range(100):
        rng = random.Random(seed)
        state = GAME.new(2, seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            moves = GAME.legal_moves(state, seat)
            for move in moves:
                if move.endswith("with chaos"):
                    paused, _ = GAME.play(state, seat, move)
                    if paused.phase == "chaos":
                        return paused
            state, _ = GAME.play(state, seat, rng.choice(moves))
    raise AssertionError("no chaos choice in 100 games")


def opening(first: int) -> Any:
    return next(s for s in (GAME.new(2, seed) for seed in range(20)) if s.first == first)


@functools.cache
def moments() -> dict[str, Any]:
    game = play_out(3)
    other = play_out(5)
    return {
        "opening-red": opening(0), "opening-blue": opening(1), "early": game[4],
        "mid": game[12], "late": other[-5],
        "rotate": next(s for s in game + other if s.phase == "rotate"),
        "chaos": chaos_pause(), "over": game[-1], "over-2": other[-1],
    }


def spent_pixels(image: Image.Image) -> int:
    """How many pixels have the grey of a spent power token (a few hundred may be the
    anti-aliased edges of other shapes; one spent token fills a few thousand)."""
    histogram = image.convert("RGB").getcolors(maxcolors=1 << 24) or []
    return sum(count for count, colour in histogram if colour == bt.SPENT)


def test_pictures_are_small() -> None:
    """The median channel picture under 120 KB (a full board in a final picture is more)."""
    sizes = sorted(len(render.png(ID, GAME.view(s, None))) for s in moments().values())
    assert sizes[len(sizes) // 2] < 120_000


def test_the_moments_reach_every_phase() -> None:
    assert list(moments()) == NAMES
    assert {s.phase for s in moments().values()} == {"place", "rotate", "chaos", "over"}
    assert {moments()["opening-red"].first, moments()["opening-blue"].first} == {0, 1}


@pytest.mark.parametrize("name", NAMES)
def test_every_picture_fits_discord(name: str) -> None:
    state = moments()[name]
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        parts = [decoded(p) for p in render.pngs(ID, view)]
        assert all(p.width == 1000 and kit.fits(p) for p in parts)
        assert all(len(p) < 160_000 for p in render.pngs(ID, view))
        for width in WIDTHS:
            table = bt.table(view, width=width)
            assert table.width == width and kit.fits(table), (seat, width, table.size)
            hand = bt.hand(view, width=width)
            assert hand is None or kit.fits(hand)
        hand = bt.hand(view)
        if seat is None or GAME.outcome(state) is not None:
            assert hand is None and len(parts) == 1
        else:
            assert hand is not None and pixels(kit.png(bt.draw(view))) == pixels(
                kit.png(kit.stack([bt.table(view), hand])))


@pytest.mark.parametrize("name", NAMES)
def test_the_spectators_picture_shows_nothing_hidden(name: str) -> None:
    state = moments()[name]
    spectator = pixels(render.png(ID, GAME.view(state, None)))
    compared = 0
    for seed in (1, 2, 3):
        twin = GAME.determinize(state, None, seed)
        if (twin.hands, twin.stacks) == (state.hands, state.stacks):
            continue
        assert pixels(render.png(ID, GAME.view(twin, None))) == spectator
        compared += 1
    assert compared or GAME.outcome(state) is not None


def test_a_seats_picture_adds_its_hand() -> None:
    state = moments()["mid"]
    mine = GAME.view(state, 0)
    assert pixels(render.png(ID, mine)) != pixels(render.png(ID, GAME.view(state, None)))
    assert pixels(render.png(ID, mine)) != pixels(render.png(ID, GAME.view(state, 1)))
    other = copy.deepcopy(mine)
    other["hand"][0]["sides"] = ["P", "B", 9, 9]
    assert pixels(render.png(ID, other)) != pixels(render.png(ID, mine))
    assert len(render.pngs(ID, mine)) == 2  # the table and the hand do not fit one picture


def test_markers_tokens_and_icons_are_drawn() -> None:
    view = GAME.view(moments()["mid"], None)
    base = pixels(render.png(ID, view))
    placed = next(i for i, sq in enumerate(view["grid"]) if sq["sides"] is not None)
    tile = view["grid"][placed]
    for change in ({"marker": 1 - (tile["marker"] or 0), "scoring": True},
                   {"token": "life" if tile["token"] == "death" else "death"},
                   {"sides": ["P", "B", 1, 1] if tile["sides"][0] != "P" else [1, 1, 1, 1]}):
        other = copy.deepcopy(view)
        other["grid"][placed].update(change)
        assert pixels(render.png(ID, other)) != base, change


def test_display_names_are_drawn_and_said() -> None:
    view = GAME.view(moments()["mid"], None)
    named = {**view, "names": ["Alice", "Bob"]}
    assert pixels(render.png(ID, named)) != pixels(render.png(ID, view))
    line = render.summary(ID, named)
    assert "Alice (Red)" in line and "Bob (Blue)" in line


@pytest.mark.parametrize("name", NAMES)
def test_the_summary_says_whose_turn_and_the_points(name: str) -> None:
    state = moments()[name]
    line = render.summary(ID, GAME.view(state, None))
    assert line.startswith("Battle Tiles, ") and "\n" not in line and "  " not in line
    assert f"Score: Red {bt_score(state, 0)}, Blue {bt_score(state, 1)}." in line
    assert "Your hand" not in line
    if GAME.outcome(state) is None:
        assert ("Red" if state.turn == 0 else "Blue") in line.split(".")[0]
    else:
        assert "game over" in line
    if state.last is not None:
        assert f"Last: {'Red' if state.last['seat'] == 0 else 'Blue'} placed " \
               f"{state.last['square']}" in line
    mine = render.summary(ID, GAME.view(state, 0))
    assert ("Your hand: 1: " in mine) == bool(state.hands[0])


def bt_score(state: Any, seat: int) -> int:
    return int(GAME.view(state, None)["scores"][seat])


def test_the_final_picture_shows_the_result_in_full() -> None:
    for name in ("over", "over-2"):
        view = GAME.view(moments()[name], None)
        winners = " and ".join("Red" if s == 0 else "Blue" for s in view["result"]["winners"])
        assert bt.status(view)[0].startswith(winners)
        lines = bt._seat_lines(view)
        for seat, line in enumerate(lines):
            owned = sum(1 for sq in view["grid"] if sq["sides"] and sq["marker"] == seat)
            assert line.startswith(f"{view['scores'][seat]} point")
            assert f"= {owned} tile" in line and f"+ {view['held'][seat]} marker" in line
        breakdown = " ".join(bt._breakdown(view, kit.Layout(1000)))
        for sq in view["grid"]:  # every scoring tile is named under whoever holds it
            if sq["sides"] and sq["scoring"]:
                assert sq["square"] in breakdown
        assert f"Tiles defeated: Red {view['defeats'][0]}, Blue {view['defeats'][1]}." \
            in breakdown
        assert spent_pixels(bt.table(view)) < 500  # no token row once the game is over


def test_only_the_tokens_a_seat_holds_are_offered_and_spent_ones_are_marked() -> None:
    """Players were offered 'with death' after spending their death token."""
    state = next(s for s in play_out(3) if s.phase == "place" and GAME.outcome(s) is None
                 and "death" not in s.tokens[s.turn] and s.tokens[s.turn])
    seat = state.turn
    view = GAME.view(state, seat)
    hint = bt.token_hint(view)
    assert "death" not in hint and f"with {view['tokens'][seat][0]}'" in hint
    assert "death" not in " ".join(bt.status(view))
    assert f"Your tokens: {kit.listing(view['tokens'][seat])}." in bt.summary(view)
    # spent tokens are drawn grey; with every token held none is
    spent = 8 - len(view["tokens"][0]) - len(view["tokens"][1])
    assert spent_pixels(bt.table(view)) > 2000 * spent
    fresh = {**view, "tokens": [list(bt.POWERS), list(bt.POWERS)]}
    assert spent_pixels(bt.table(fresh)) < 500
    assert "Yours: rotate, chaos, death and life." in bt.token_hint(fresh)
    spent_all = {**view, "tokens": [[], []]}
    assert "with" not in bt.token_hint(spent_all)


def test_the_opening_picture_says_who_was_drawn_to_start() -> None:
    pictures = {}
    for first, name in ((0, "Red"), (1, "Blue")):
        state = moments()[f"opening-{name.lower()}"]
        view = GAME.view(state, None)
        assert bt.status(view) == (f"{name} starts: place a tile",
                                   "Drawn at random. Type 'place 2 at c3' for tile 2 of your "
                                   "hand.")
        assert render.summary(ID, view).startswith(
            f"Battle Tiles, {name} to place a tile, drawn at random to start.")
        pictures[first] = pixels(render.png(ID, view))
    assert pictures[0] != pictures[1]
    after, _ = GAME.play(state, state.first, GAME.legal_moves(state, state.first)[0])
    assert "starts" not in bt.status(GAME.view(after, None))[0]


def drawn(monkeypatch: pytest.MonkeyPatch, draw: Any) -> list[tuple[str, int]]:
    """Every line of text ``draw()`` puts on a picture, with its type size."""
    lines: list[tuple[str, int]] = []
    real = kit.text

    def recording(image: Image.Image, xy: tuple[float, float], line: str, size: int,
                  fill: kit.RGB, **options: Any) -> kit.Box:
        lines.append((line, size))
        return real(image, xy, line, size, fill, **options)

    monkeypatch.setattr(kit, "text", recording)
    draw()
    return lines


def test_piercer_and_barrier_are_shapes_not_the_letters_of_seats(monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    """'B' meant both the Blue player and a barrier: sides are now a spike and a wall, and
    the only letters on a tile are its numbers and its marker's or token's letter."""
    bt._tile.cache_clear()
    lines = drawn(monkeypatch, lambda: bt._tile(("P", "B", 1, 2), True, "blue", "death", 140,
                                                34, 30, bt.FACE, bt.MAT))
    assert sorted(line for line, _ in lines) == ["1", "2", "B", "D"]  # B: the blue marker
    plain = bt._tile((1, 1, 1, 1), False, None, None, 140, 34, 30, bt.FACE, bt.MAT)
    spiked = bt._tile(("P", 1, 1, 1), False, None, None, 140, 34, 30, bt.FACE, bt.MAT)
    walled = bt._tile(("B", 1, 1, 1), False, None, None, 140, 34, 30, bt.FACE, bt.MAT)
    assert len({plain.tobytes(), spiked.tobytes(), walled.tobytes()}) == 3
    legend = drawn(monkeypatch, lambda: bt._legend(kit.Layout(1000)))
    assert [line for line, _ in legend] == ["piercer", "barrier", "N", "neutral tile", "D",
                                            "death", "L", "life"]


def test_used_tokens_read_whole_after_the_word_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spent tokens were 7 px words struck through: now whole words in the smallest type,
    grey, after 'used'; held ones framed and bold, after 'tokens'."""
    bt._token.cache_clear()
    view = GAME.view(moments()["mid"], None)
    view["tokens"] = [["rotate", "life"], []]
    lines = [line for line, size in drawn(monkeypatch, lambda: bt._tokens(view,
                                                                          kit.Layout(1000)))
             if size >= kit.SMALL]
    # (a pill is drawn once and kept: the second seat's 'chaos' and 'death' are pasted)
    assert lines == ["R", "tokens", "rotate", "life", "used", "chaos", "death",
                     "B", "no tokens left", "used", "rotate", "life"]


def test_the_text_alternative_reads_the_whole_picture() -> None:
    state = moments()["mid"]
    view = {**GAME.view(state, 0), "names": ["Alice", "Bob"]}
    text = bt.describe(view)
    lines = text.splitlines()
    assert lines[0].startswith("Battle Tiles: ")
    for s, name in enumerate(("Alice (Red)", "Bob (Blue)")):
        line = next(x for x in lines if x.startswith(name + ":"))
        assert f"{view['scores'][s]} point" in line and "tokens:" in line
    for sq in view["grid"]:
        if sq["sides"] is not None:
            assert f"{sq['square']} " in text
    for tile in view["hand"]:
        assert f"tile {tile['number']} " in lines[-1]
    assert "barrier" in text or "piercer" in text
    assert "Your hand" not in bt.describe({**GAME.view(state, None), "names": ["A", "B"]})
    over = {**GAME.view(moments()["over"], None), "names": ["Alice", "Bob"]}
    assert bt.describe(over).startswith("Battle Tiles: game over, ")
    assert "Red wins" not in bt.describe(over) or "(Red) wins" in bt.describe(over)


def test_the_hand_s_example_is_a_move_the_seat_may_play() -> None:
    """The hand said "Type 'place 2 at c3'" with one tile left and c3 taken."""
    seen = 0
    for seed in (3, 5):
        for state in play_out(seed):
            if state.phase != "place" or GAME.outcome(state) is not None:
                continue
            seat = state.turn
            legal = GAME.legal_moves(state, seat)
            examples = re.findall(r"'(place [^']+)'", bt.token_hint(GAME.view(state, seat)))
            assert examples and all(e in legal for e in examples), (examples, legal[:5])
            seen += 1
    assert seen >= 20
