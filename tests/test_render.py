"""The pictures: valid, small PNGs of real games; nothing hidden drawn; one-line summaries.

Views come from real Cube Conquest games for 2, 3 and 4 players, played with seeded random
legal moves (attacking whenever the dice say so, so that games end), sampled in every
phase: setup, action, an attack being fought, an Outpost's defender choosing, and over.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import math
import platform
import random
import resource
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

import render
import rules
from render import cube_conquest, kit
from tests.pictures import pixels

GAME = rules.GAMES["cube-conquest"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PHASES = {"setup", "action", "attack", "choose", "over"}
SEEDS = {2: (6, 7), 3: (2, 7), 4: (2, 7)}  # seeds whose random games reach every phase


# --------------------------------------------------------------------------- games


def play_out(players: int, seed: int, limit: int = 3000) -> list[Any]:
    """Every state of one random game, from the deal to the end (or ``limit`` moves)."""
    rng = random.Random(seed)
    state = GAME.new(players, seed)
    states = [state]
    while GAME.outcome(state) is None and len(states) < limit:
        seat = rng.choice(sorted(GAME.to_act(state)))
        moves = GAME.legal_moves(state, seat)
        fights = [m for m in moves if m.startswith(("attack", "outpost"))]
        move = rng.choice(fights if fights and rng.random() < 0.8 else moves)
        state, _ = GAME.play(state, seat, move)
        states.append(state)
    return states


@functools.cache
def samples(players: int) -> tuple[Any, ...]:
    """First, middle and last state of each phase of the games for ``players``."""
    picked: list[Any] = []
    for seed in SEEDS[players]:
        by_phase: dict[str, list[Any]] = {}
        for state in play_out(players, seed):
            by_phase.setdefault(state.phase, []).append(state)
        for states in by_phase.values():
            for i in sorted({0, len(states) // 2, len(states) - 1}):
                picked.append(states[i])
    return tuple(picked)


def all_samples() -> list[Any]:
    return [state for players in SEEDS for state in samples(players)]


def viewers(state: Any) -> list[int | None]:
    return [None, *range(state.players)]


@functools.cache
def _png(view_json: str) -> bytes:
    return render.png("cube-conquest", json.loads(view_json))


def png(view: dict[str, Any]) -> bytes:
    """The picture of ``view`` (memoised: several tests draw the same views)."""
    return _png(json.dumps(view, sort_keys=True))


# --------------------------------------------------------------------------- the samples


@pytest.mark.parametrize("players", [2, 3, 4])
def test_samples_cover_every_phase(players: int) -> None:
    phases = {state.phase for state in samples(players)}
    assert phases == PHASES
    attacks = [s for s in samples(players) if s.phase == "attack"]
    assert any(GAME.view(s, None)["attack"]["chosen"] for s in attacks) or players == 2


def test_samples_include_a_half_chosen_attack() -> None:
    """An attack where one side has chosen and the other has not: 'chosen' vs 'choosing'."""
    half = [s for s in all_samples() if s.phase == "attack"
            and len(GAME.view(s, None)["attack"]["chosen"]) == 1]
    assert half


# --------------------------------------------------------------------------- the PNG


@pytest.mark.parametrize("players", [2, 3, 4])
def test_png_is_valid_wide_and_small(players: int) -> None:
    drawn = 0
    for state in samples(players):
        for seat in viewers(state):
            data = png(GAME.view(state, seat))
            assert data.startswith(PNG_SIGNATURE)
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                assert image.format == "PNG"
                assert image.width >= 1000
                assert image.height >= image.width  # portrait: made for phones
            assert len(data) < 300_000
            drawn += 1
    assert drawn >= 10 * (players + 1)


def test_same_view_gives_the_same_picture() -> None:
    """Cached sprites and text are never drawn on: A, B, A gives A twice, pixel for pixel."""
    first, other = all_samples()[5], all_samples()[-1]
    a = render.png("cube-conquest", GAME.view(first, 0))
    render.png("cube-conquest", GAME.view(other, 1))
    assert pixels(render.png("cube-conquest", GAME.view(first, 0))) == pixels(a)


def test_width_option_scales_the_picture() -> None:
    view = GAME.view(samples(3)[-1], 1)
    with Image.open(io.BytesIO(render.png("cube-conquest", view, width=1400))) as image:
        assert image.width == 1400
    with pytest.raises(ValueError, match="at least"):
        render.png("cube-conquest", view, width=200)


def test_unknown_game_is_refused_with_a_sentence() -> None:
    with pytest.raises(ValueError, match="no picture for the game 'chess'"):
        render.png("chess", {})
    with pytest.raises(ValueError, match="cube-conquest"):
        render.summary("chess", {})


# --------------------------------------------------------------------------- what is drawn


def test_spectator_picture_is_the_same_for_every_determinization() -> None:
    """Resampling all a seat cannot see leaves the spectator's picture pixel-identical."""
    compared = 0
    for state in all_samples()[::2]:
        spectator = png(GAME.view(state, None))
        for seat in range(state.players):
            other = GAME.determinize(state, seat, seed=seat + 1)
            if GAME.dump(other)["tiles"] == GAME.dump(state)["tiles"] and (
                    GAME.dump(other)["hands"] == GAME.dump(state)["hands"]):
                continue  # nothing hidden changed: the comparison would prove nothing
            # drawn afresh, not memoised: every pixel must match
            again = render.png("cube-conquest", GAME.view(other, None))
            assert pixels(again) == pixels(spectator)
            compared += 1
    assert compared >= 40


def test_picture_changes_when_the_board_changes() -> None:
    changed = 0
    for state in all_samples():
        if state.phase not in ("setup", "action"):
            continue
        seat = state.turn
        moves = [m for m in GAME.legal_moves(state, seat)
                 if m.startswith(("place", "move", "reinforce", "outpost"))]
        if not moves:
            continue
        after, _ = GAME.play(state, seat, moves[0])
        assert png(GAME.view(after, None)) != png(GAME.view(state, None))
        changed += 1
    assert changed >= 6


def test_picture_shows_tile_symbols_and_cubes() -> None:
    """Editing one square of a view (its symbol, then its cubes) changes the picture."""
    view = next(v for v in (GAME.view(s, None) for s in samples(2) if s.phase == "action")
                if any(sq["symbol"] and sq["owner"] is None for sq in v["board"])
                and any(sq["cubes"] == 1 for sq in v["board"]))
    base = png(view)
    square = next(i for i, sq in enumerate(view["board"]) if sq["symbol"] and sq["owner"] is None)
    other = copy.deepcopy(view)
    other["board"][square].update(symbol="crown" if view["board"][square]["symbol"] != "crown"
                                  else "drop")
    assert png(other) != base
    stacked = copy.deepcopy(view)
    mine = next(i for i, sq in enumerate(view["board"]) if sq["cubes"] == 1)
    stacked["board"][mine]["cubes"] = 2
    assert png(stacked) != base


def test_seat_picture_adds_the_hand() -> None:
    shown = 0
    for state in all_samples():
        for seat in range(state.players):
            view = GAME.view(state, seat)
            if not view["hand"]:
                continue
            assert png(view) != png(GAME.view(state, None))
            if seat == state.turn:
                other = copy.deepcopy(view)
                other["hand"] = ["arrow" if card != "arrow" else "drop" for card in view["hand"]]
                assert png(other) != png(view)  # the cards themselves are drawn
                shown += 1
    assert shown >= 20


def test_a_secret_pick_shows_only_in_its_own_seats_picture() -> None:
    """The attacker's chosen card appears in the attacker's picture, not the spectator's."""
    for state in all_samples():
        if state.phase != "attack":
            continue
        attack = GAME.view(state, None)["attack"]
        attacker = attack["attacker"]
        mine = GAME.view(state, attacker)
        if mine["attack"]["attacker_card"] is None:
            continue
        hidden = copy.deepcopy(mine)
        hidden["attack"]["attacker_card"] = None
        assert png(mine) != png(hidden)
        card = mine["attack"]["attacker_card"]
        assert f"You chose {card} (" in render.summary("cube-conquest", mine)
        assert "You chose" not in render.summary("cube-conquest", GAME.view(state, None))
        return
    pytest.fail("no sample has an attack whose attacker has chosen")


def test_display_names_are_drawn_and_said() -> None:
    state = next(s for s in samples(4) if s.phase == "action")
    view = GAME.view(state, None)
    names = ["Alice", "Bob", "Chandra", "Dee"]
    named = {**view, "names": names}
    assert png(named) != png(view)
    said = render.summary("cube-conquest", named)
    turn = view["turn"]
    assert f"{names[turn]} ({view['colours'][turn].capitalize()}) to move" in said
    assert "Points: Alice " in said
    odd = {**view, "names": ["🎲🎲", "x" * 32, "Zoë\nnew line", ""]}
    data = png(odd)
    with Image.open(io.BytesIO(data)) as image:
        assert image.width == 1000
    said = render.summary("cube-conquest", odd)
    assert "\n" not in said
    assert "🎲🎲 " in said and "Zoë new line " in said  # said as given, on one line


# --------------------------------------------------------------------------- the summary


def test_summary_is_one_line_saying_who_acts() -> None:
    said = 0
    for state in all_samples():
        for seat in viewers(state):
            view = GAME.view(state, seat)
            line = render.summary("cube-conquest", view)
            assert line and line == line.strip()
            assert "\n" not in line and "  " not in line and ".." not in line
            assert line.startswith("Cube Conquest, ")
            if view["result"] is None:
                for acting in view["to_act"]:
                    assert view["colours"][acting].capitalize() in line
            else:
                assert "game over" in line
            said += 1
    assert said >= 100


def test_summary_examples() -> None:
    state = next(s for s in samples(2) if s.phase == "action" and s.last)
    view = GAME.view(state, None)
    mover = view["colours"][view["turn"]].capitalize()
    line = render.summary("cube-conquest", view)
    assert line.startswith(f"Cube Conquest, {mover} to move. Points: Blue ")
    who = view["colours"][view["last_action"]["seat"]].capitalize()
    assert f"Last: {who} " in line and view["last"][-1] in line.split("Last: ")[1]
    assert "Your hand" not in line
    assert "Your hand: " in render.summary("cube-conquest", GAME.view(state, 0))


# --------------------------------------------------------------------------- the kit


def test_seat_colours_are_okabe_ito_with_readable_letters() -> None:
    expected = {"blue": "#0072B2", "red": "#D55E00", "yellow": "#F0E442", "green": "#009E73"}
    for name, code in expected.items():
        assert kit.seat_colour(name).fill == kit.rgb(code)
    letters = [c.letter for c in kit.SEAT_COLOURS.values()]
    assert len(set(letters)) == len(letters)
    for colour in kit.SEAT_COLOURS.values():
        assert kit.contrast(colour.fill, colour.ink) >= 4.5, colour.name
    with pytest.raises(ValueError, match="No palette colour"):
        kit.seat_colour("mauve")


def test_grid_is_laid_out_like_chess() -> None:
    grid = kit.Grid(files=5, ranks=4, left=10, top=20, cell=100)
    assert grid.box("a1") == (10, 320, 110, 420)  # bottom left
    assert grid.box("e4") == (410, 20, 510, 120)  # top right
    assert grid.squares()[:2] == ["a1", "b1"] and len(grid.squares()) == 20
    assert kit.square_index("c4") == (2, 3) and kit.square_name(2, 3) == "c4"


@pytest.mark.parametrize("game_id", sorted(render.RENDERERS))
def test_finish_keeps_the_palette_colours_exact(game_id: str) -> None:
    """Every kit colour, seat colour and colour a game adds survives the palette exactly."""
    surfaces = render.RENDERERS[game_id].surfaces
    colours = [kit.INK, kit.PAPER, kit.MUTED, *surfaces,
               *(c.fill for c in kit.SEAT_COLOURS.values())]
    image = Image.new("RGB", (len(colours) * 4, 4))
    for i, colour in enumerate(colours):
        image.paste(colour, (i * 4, 0, i * 4 + 4, 4))
    data = kit.finish(image, surfaces=surfaces)
    with Image.open(io.BytesIO(data)) as decoded:
        back = decoded.convert("RGB")
        assert [back.getpixel((i * 4 + 1, 1)) for i in range(len(colours))] == colours


def test_text_helpers_fit_and_clean() -> None:
    assert kit.clean("Zoë\n 🎲  Łx") == "Zoe ? ?x"
    long = "Bartholomew the Magnificent"
    short = kit.fit(long, 30, 150)
    assert short.endswith("…") and kit.text_width(short, 30) <= 150
    assert kit.fit("Bob", 30, 150) == "Bob"
    assert all(kit.text_width(line, 28) <= 300 for line in kit.wrap(long * 3, 28, 300))


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (1000, 1746)])
def test_png_bytes_decode_to_the_same_pixels_and_palette(size: tuple[int, int]) -> None:
    width, height = size
    rgb = Image.new("RGB", size, kit.PAPER)
    ImageDraw.Draw(rgb).rectangle((0, 0, width // 2, height // 2), fill=kit.INK)
    kit.text(rgb, (width / 2, height / 2), "Blue 3/10", 40, kit.MUTED, anchor="mm")
    image = rgb.quantize(palette=kit.palette(), dither=Image.Dither.NONE)
    data = kit.png_bytes(image)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(data)) as decoded:
        decoded.load()
        assert decoded.mode == "P" and decoded.size == size
        assert decoded.tobytes() == image.tobytes()
        assert decoded.getpalette() == image.getpalette()
        assert decoded.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_png_bytes_refuses_an_image_that_is_not_a_palette_image() -> None:
    with pytest.raises(ValueError, match="palette image"):
        kit.png_bytes(Image.new("RGB", (4, 4)))


@given(st.lists(st.binary(max_size=3000), min_size=2, max_size=5))
def test_adler32_combine_agrees_with_zlib_on_the_joined_bytes(pieces: list[bytes]) -> None:
    adler = 1
    for piece in pieces:
        adler = kit.adler32_combine(adler, zlib.adler32(piece), len(piece))
    assert adler == zlib.adler32(b"".join(pieces))


def test_a_png_stacked_from_bands_and_images_decodes_to_the_stacked_picture() -> None:
    """Bands deflated apart (one of them reused, as a move's pictures reuse their top) and
    plain images follow one another in one valid PNG, pixel for pixel."""
    parts = []
    for n, height in enumerate((37, 1, 120)):
        part = kit.canvas(300, height)
        ImageDraw.Draw(part).rectangle((n * 40, 0, n * 40 + 90, height // 2), fill=kit.INK)
        kit.text(part, (150, height), f"part {n}", 30, kit.MUTED, anchor="md")
        parts.append(part)
    whole = kit.stack(parts)
    shared = kit.band(parts[0])
    for pieces in ([shared, parts[1], parts[2]], [shared, kit.band(parts[1]), parts[2]],
                   [parts[0], parts[1], kit.band(parts[2])]):
        with Image.open(io.BytesIO(kit.png_stack(pieces))) as decoded:
            decoded.load()
            assert decoded.size == whole.size == (300, 158)
            assert decoded.tobytes() == whole.tobytes()
    with pytest.raises(ValueError, match="one width"):
        kit.png_stack([shared, kit.canvas(299, 4)])


def _playout_views(game_id: str, seed: int, every: int) -> list[dict[str, Any]]:
    """Spectator and seat views along one random game (and at its end)."""
    game = rules.GAMES[game_id]
    state, rng, views = game.new(2, seed), random.Random(seed), []
    for n in range(every * 6):
        if n % every == 0:
            views += [game.view(state, None), game.view(state, n // every % 2)]
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
    return [*views, game.view(state, None), game.view(state, 1)]


@pytest.mark.parametrize("game_id", sorted(render.RENDERERS))
def test_palette_drawing_gives_the_pixels_of_rgb_drawing(
        game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing straight onto palette indices (fast) and drawing in RGB then mapping to the
    palette (the reference) give the same picture, anti-aliased text and sprites included."""
    views = _playout_views(game_id, seed=3, every=5)
    assert len(views) >= 8
    for view in views:
        fast = Image.open(io.BytesIO(render.png(game_id, view))).convert("RGB")
        monkeypatch.setattr(kit, "PALETTE_DRAWING", False)
        reference = Image.open(io.BytesIO(render.png(game_id, view))).convert("RGB")
        monkeypatch.setattr(kit, "PALETTE_DRAWING", True)
        assert fast.size == reference.size
        assert fast.tobytes() == reference.tobytes(), f"{game_id}: pixels differ"


def test_text_over_a_mixed_background_is_mapped_in_place() -> None:
    """Text across two colours on a palette canvas: each half's edges blend with its own
    background, as on RGB."""
    fast, reference = kit.canvas(200, 60), Image.new("RGB", (200, 60), kit.PAPER)
    for image in (fast, reference):
        ImageDraw.Draw(image).rectangle((0, 0, 99, 59), fill=kit.SEAT_COLOURS["blue"].fill)
        kit.text(image, (100, 30), "Mixed", 40, kit.INK, anchor="mm", halo=kit.SHADE)
    mapped = reference.quantize(palette=kit.palette(), dither=Image.Dither.NONE)
    assert fast.mode == "P"
    assert fast.convert("RGB").tobytes() == mapped.convert("RGB").tobytes()


def _whole_line_mask(text: str, size: int, anchor: str, stroke: int
                     ) -> tuple[tuple[int, int, int, int], bytes]:
    """The line's box (left, top, width, height from the anchor) and mask as Pillow draws
    the whole line with FreeType: the reference."""
    box = kit.font(size).getbbox(text, anchor=anchor, stroke_width=stroke)
    left, top = math.floor(box[0]), math.floor(box[1])
    width, height = max(1, math.ceil(box[2]) - left), max(1, math.ceil(box[3]) - top)
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=kit.font(size), fill=255,
                              anchor=anchor, stroke_width=stroke, stroke_fill=255)
    return (left, top, width, height), mask.tobytes()


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=24),
       size=st.integers(8, 96), stroke=st.sampled_from([0, 0, 1, 2, 3, 5]),
       anchor=st.sampled_from(["ls", "lm", "lt", "la", "ld", "lb", "md", "mm", "ms", "mt",
                               "rm", "rs", "rb"]))
def test_text_laid_out_from_kept_letters_is_the_line_freetype_draws(
        text: str, size: int, anchor: str, stroke: int) -> None:
    """Lines are put together from kept letters (``kit._text_mask``, ``kit._text_box``):
    the same box and the same coverage, pixel for pixel, as FreeType laying out and drawing
    the whole line, for every letter the pictures may use, at any size, stroke and anchor."""
    line = kit.clean(text)
    assume(line)
    mask, left, top = kit._text_mask.__wrapped__(line, size, anchor, stroke)
    ours = ((left, top, mask.width, mask.height), mask.tobytes())
    assert ours == _whole_line_mask(line, size, anchor, stroke)
    assert kit._text_box.__wrapped__(line, size, anchor, stroke) == ours[0]
    assert kit.text_width(line, size) == math.ceil(kit.font(size).getlength(line))


def test_overlapping_letters_blend_as_freetype_blends_them() -> None:
    """Letters whose coverage overlaps (a thick stroke, 'fj', italics-like pairs) are not
    simply the lighter of the two where both have ink: the overlap is blended as Pillow's
    renderer blends, and a line that needs it is still the line FreeType draws."""
    line, size, stroke = "W'fj//AVA,y", 30, 5
    mask, _, _ = kit._text_mask.__wrapped__(line, size, "ls", stroke)
    assert mask.tobytes() == _whole_line_mask(line, size, "ls", stroke)[1]
    pen = kit._line(line, size).pens
    blended = 0
    for (a, x_a), (b, x_b) in zip(zip(line, pen, strict=True), zip(line[1:], pen[1:],
                                                                   strict=True), strict=False):
        first, second = kit._letter(a, size, stroke), kit._letter(b, size, stroke)
        if first[0] is not None and second[0] is not None and \
                x_a + first[1] + first[0].size[0] > x_b + second[1]:
            blended += 1
    assert blended >= 3, "the example should make letters overlap"
    assert kit._over(0, 77) == 77 and kit._over(77, 0) == 77
    assert kit._over(128, 128) == 192 and kit._over(255, 1) == 255


@pytest.mark.parametrize("width", [600, 1000, 1333, 2000])
def test_nothing_drawn_crosses_the_cut_under_the_headline(width: int) -> None:
    """The status line is two strips cut at ``kit.HEADLINE_END``: the headline's chips and
    lowest descender end above the cut, and the detail line's tallest letter starts below
    it, for every letter the font draws and every picture width."""
    at = kit.Layout(width)
    letters = "".join(kit.clean(chr(c)) for c in range(32, 256)).replace("?", "") + "?"
    cut = at.px(kit.HEADLINE_END)
    head_size, detail_size = at.px(40), at.px(30)
    chips_top, chip = at.px(28), at.px(54)
    _, head_top, _, head_height = kit._text_box(
        letters, head_size, "lm", max(1, head_size // 28))
    assert chips_top + chip <= cut
    assert chips_top + chip // 2 + head_top + head_height <= cut
    _, detail_top, _, _ = kit._text_box(letters, detail_size, "ls", 0)
    assert at.px(124) + detail_top >= cut
    assert chips_top + chip // 2 + head_top >= 0


def test_a_moves_pictures_draw_their_board_and_seats_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The channel's picture and the players' DM pictures of a move share the board and
    the table: each is drawn once, and each picture is still the one drawn whole."""
    monkeypatch.setattr(kit, "_STRIPS", kit.Shelf(2**20))
    kit._MOVE_STRIPS.clear()
    drawn: list[str] = []

    def counted(name: str) -> Any:
        original = getattr(cube_conquest, name)

        def spy(*args: Any, **kwargs: Any) -> Any:
            drawn.append(name)
            return original(*args, **kwargs)
        return spy

    for name in ("_board", "_seat_row"):
        monkeypatch.setattr(cube_conquest, name, counted(name))
    turn = next(s for s in all_samples() if s.phase == "action")
    pictures = [render.png("cube-conquest", GAME.view(turn, seat)) for seat in (None, 0, 1)]
    assert drawn.count("_board") == 1
    assert drawn.count("_seat_row") == len(turn.hands)  # a row per seat, for all three
    for seat, picture in zip((None, 0, 1), pictures, strict=True):
        with Image.open(io.BytesIO(picture)) as decoded:
            whole = cube_conquest.draw(GAME.view(turn, seat))
            assert decoded.convert("RGB").tobytes() == whole.convert("RGB").tobytes()


def test_pictures_made_of_kept_strips_are_the_pictures_drawn_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A strip is kept under what it shows, so a picture put together from strips other
    pictures drew (both seats' views and the spectator's, secret picks included, along
    whole games) is pixel for pixel the picture drawn whole; and a small shelf that keeps
    overwriting itself changes nothing."""
    views = [v for seed in (5, 6) for v in _playout_views("cube-conquest", seed, every=3)]
    views += [GAME.view(s, seat) for s in all_samples()[::3] for seat in (None, 0, 1)
              if seat is None or seat < len(s.hands)]
    for size, order in ((2**22, views + views[::-1]), (40_000, views)):
        monkeypatch.setattr(kit, "_STRIPS", kit.Shelf(size))
        for view in order:
            with Image.open(io.BytesIO(render.png("cube-conquest", view))) as decoded:
                whole = cube_conquest.draw(view)
                assert decoded.size == whole.size
                assert decoded.convert("RGB").tobytes() == whole.convert("RGB").tobytes()
        assert len(kit._STRIPS) > 0


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 120)), min_size=60, max_size=300),
       st.integers(100, 900))
def test_a_shelf_gives_back_what_was_put_or_nothing(puts: list[tuple[int, int]],
                                                     size: int) -> None:
    """However often it wraps and overwrites (and copies what is read to the front), a
    shelf gives back under a key exactly the bytes (and meta) put under it, or nothing; the
    newest entry that fits is always there, and it never holds more than its size."""
    shelf = kit.Shelf(size)
    model: dict[int, bytes] = {}
    for n, (key, length) in enumerate(puts):
        data = bytes((n + i) % 251 for i in range(length))
        if key not in shelf:
            model[key] = data  # a key already kept keeps its bytes
        shelf.put(key, data, meta=length)
        if length <= size // 8:
            assert shelf.get(key) is not None
        assert shelf.used <= size
        for k, expected in list(model.items()):
            found = shelf.get(k)
            if found is None:
                del model[k]
            else:
                assert found == (len(expected), expected)


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 120)), min_size=60, max_size=300),
       st.integers(100, 900))
def test_a_shelf_keeps_what_keeps_being_read(puts: list[tuple[int, int]], size: int) -> None:
    """An entry read after every put stays, however much else is put and overwritten: a
    read near the point of being overwritten copies it to the front."""
    shelf = kit.Shelf(size)
    hot = b"read after every put"[: size // 8]
    shelf.put("hot", hot)
    for key, length in puts:
        shelf.put(key, bytes(length))
        assert shelf.get("hot") == (None, hot)


def test_text_over_lines_is_kept_by_the_pixels_under_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Text over other pixels (a tile's name the arrow crosses) is kept by those pixels and
    what is drawn: drawn again it is the text drawn afresh, and another colour, line, size
    or word over the same place is never taken for it."""
    cases = [(word, colour, shift, size) for word in ("circles", "crown")
             for colour in (kit.INK, kit.MUTED) for shift in (0, 5) for size in (28, 30)]

    def drawn(word: str, colour: kit.RGB, shift: int, size: int) -> bytes:
        image = kit.canvas(220, 70)
        ImageDraw.Draw(image).line((0, 30 + shift, 220, 36 + shift), fill=kit.INK, width=6)
        kit.text(image, (10, 45), word, size, colour, bold=True, halo=kit.PAPER)
        return image.tobytes()

    monkeypatch.setattr(kit, "PATCH_PIXELS", 0)  # nothing kept: each drawn afresh
    expected = [drawn(*case) for case in cases]
    assert len(set(expected)) == len(cases)
    monkeypatch.setattr(kit, "PATCH_PIXELS", 8192)
    kit._PATCHES.clear()
    for _ in range(2):
        assert [drawn(*case) for case in cases] == expected
    assert len(kit._PATCHES) > 0


# --------------------------------------------------------------------------- memory

_REUSE = """
import ctypes, resource, sys
from render import kit
if sys.argv[1] == "keep":
    assert kit.keep_freed_memory()
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
size = kit.MMAP_FROM // 2  # a picture's canvas is ~1-2 MB
first = libc.malloc(size); ctypes.memset(first, 1, size); libc.free(first)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
again = libc.malloc(size); ctypes.memset(again, 1, size)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's allocator only")
def test_memory_a_picture_frees_is_reused_not_faulted_in_again() -> None:
    """After ``keep_freed_memory`` the second of two equal blocks (a picture's canvas, say)
    reuses the first one's pages; by glibc's default it is fresh pages, each faulted in
    (1,024 of 4 KB for 4 MB): the cost the service's drawing threads avoid."""
    def faults(mode: str) -> int:
        done = subprocess.run([sys.executable, "-c", _REUSE, mode], capture_output=True,
                              text=True, check=True, cwd=Path(__file__).resolve().parents[1])
        return int(done.stdout)

    pages = kit.MMAP_FROM // 2 // resource.getpagesize()
    assert faults("keep") < pages // 10
    assert faults("default") > pages // 2  # what the test would see without it
