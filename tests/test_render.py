"""Every game's pictures, checked the same way: the gallery's fixed views (each seat count and
variant; start, a third, two thirds, a secret choice, the end; the channel and a seat) fit
Discord's column, draw no capital or digit under 20 px at 1000 px wide and cut no text, keep
their colours apart under colour blindness, draw nothing hidden, and are pure functions of
their view; their text alternative says what they show. Then the kit itself: text, blocks
and the PNG encoder."""

from __future__ import annotations

import copy
import functools
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render import gallery, kit, recap
from tests.pictures import decoded, pixels

GAME_IDS = sorted(rules.GAMES)
RENDER = Path(render.__file__).parent


def sample(game_id: str, every: int) -> list[gallery.Moment]:
    """Every ``every``-th moment of the gallery (all the ends and secret choices)."""
    found = list(gallery.moments(game_id))
    return [m for i, m in enumerate(found)
            if i % every == 0 or "-over-" in m.name or "-secret-" in m.name]


@functools.cache
def moments() -> dict[str, list[gallery.Moment]]:
    """Every third moment of each game's gallery (played when a test first asks, not while
    the tests are collected)."""
    return {gid: sample(gid, 3) for gid in GAME_IDS}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_picture_fits_the_message_column(game_id: str) -> None:
    """Each attachment at most 1.25 x as tall as wide, at the default width and others."""
    for moment in moments()[game_id]:
        view = moment.view()
        for width in (600, 1000, 1400):
            for png in render.pngs(game_id, view, width=width):
                image = decoded(png)
                assert image.width == width
                assert image.height <= kit.MAX_RATIO * width, (moment.name, image.size)


def drawn_text(game_id: str, monkeypatch: pytest.MonkeyPatch
               ) -> tuple[list[tuple[str, int]], list[tuple[str, str]]]:
    """Every line the gallery's pictures of ``game_id`` (and its recap chart) draw at
    1000 px, with its type size, and every line the kit had to shorten to fit (as given, as
    drawn)."""
    lines: list[tuple[str, int]] = []
    cut: list[tuple[str, str]] = []
    real_text, real_fit = kit.text, kit.fit

    def recording(image: Image.Image, xy: tuple[float, float], line: str, size: int,
                  fill: kit.RGB, **options: Any) -> kit.Box:
        lines.append((line, size))
        return real_text(image, xy, line, size, fill, **options)

    def fitting(line: str, size: int, width: int, **options: Any) -> str:
        shown = real_fit(line, size, width, **options)
        if shown != line:
            cut.append((line, shown))
        return shown

    monkeypatch.setattr(kit, "text", recording)
    monkeypatch.setattr(kit, "fit", fitting)
    for moment in moments()[game_id]:
        render.pngs(game_id, moment.view(), width=1000)
    recap.png(gallery.recap_chart(game_id), width=1000)  # and the recap's chart
    return lines, cut


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_letter_is_20_px_tall_and_none_is_cut(game_id: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A capital or digit at least 20 px tall at 1000 px wide (8 px on a phone's 400 px),
    and no line shortened with an ellipsis, in every gallery picture."""
    lines, cut = drawn_text(game_id, monkeypatch)
    assert lines
    small = sorted({(size, line) for line, size in lines
                    if kit.letter_height(size) < kit.LETTER})
    assert not small, small[:10]
    assert not cut, cut[:10]


def test_a_letter_of_the_smallest_type_is_20_px_tall() -> None:
    assert kit.letter_height(kit.SMALL) >= kit.LETTER
    assert kit.letter_height(kit.SMALL - 4) < kit.LETTER  # the measure can fail


# Colours a player must tell apart stay at least this far apart (CIEDE2000) for normal
# vision and under protanopia and deuteranopia simulation: the plain Okabe-Ito palette has
# red and orange 12.5 apart under deuteranopia, which players could not tell apart.
APART = 20.0
VISIONS = (None, "protan", "deutan")


def distances(a: kit.RGB, b: kit.RGB) -> list[float]:
    """CIEDE2000 between two colours as seen with normal vision, protanopia and
    deuteranopia (coloraide's Brettel simulation, full severity)."""
    from coloraide import Color

    seen = []
    for vision in VISIONS:
        x, y = Color("srgb", [v / 255 for v in a]), Color("srgb", [v / 255 for v in b])
        if vision is not None:
            x, y = x.filter(vision), y.filter(vision)
        seen.append(x.delta_e(y, method="2000"))
    return seen


def close_pairs(colours: dict[str, kit.RGB]) -> list[tuple[str, str, float]]:
    names = sorted(colours)
    return [(a, b, round(min(distances(colours[a], colours[b])), 1))
            for i, a in enumerate(names) for b in names[i + 1:]
            if min(distances(colours[a], colours[b])) < APART]


def test_seat_colours_stay_apart_under_colour_blindness() -> None:
    assert not close_pairs({c.name: c.fill for c in kit.SEAT_COLOURS.values()})
    assert len({c.letter for c in kit.SEAT_COLOURS.values()}) == len(kit.SEAT_COLOURS)
    okabe_ito = {"red": kit.rgb("#D55E00"), "orange": kit.rgb("#E69F00")}
    assert close_pairs(okabe_ito)  # the measure can fail


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_games_colours_stay_apart_under_colour_blindness(game_id: str) -> None:
    """Each group of colours a game asks players to tell apart (``TOLD_APART``)."""
    groups: dict[str, dict[str, kit.RGB]] = render.renderer(game_id).TOLD_APART
    assert groups
    for name, colours in groups.items():
        assert len(colours) >= 2, name
        assert not close_pairs(colours), (name, close_pairs(colours))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_text_is_drawn_only_through_the_kit(game_id: str) -> None:
    """So the size check above sees every line: no game draws text with Pillow itself."""
    source = (RENDER / f"{game_id.replace('-', '_')}.py").read_text(encoding="utf-8")
    assert not re.search(r"\.text\(\s*\(", source)
    assert "ImageFont" not in source and "kit_old" not in source


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_channel_never_sees_hidden_facts(game_id: str) -> None:
    """Two states that differ only in what nobody at the table may see give the same
    channel picture, pixel for pixel."""
    game = rules.GAMES[game_id]
    for moment in moments()[game_id]:
        if moment.seat is not None:
            continue
        twin = game.determinize(moment.state, None, 99)
        other = gallery.Moment(game_id, moment.name, twin, None)
        assert pixels(render.png(game_id, moment.view())) == \
            pixels(render.png(game_id, other.view())), moment.name


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_table_is_the_same_for_every_viewer(game_id: str) -> None:
    """A seat's table is the channel's, pixel for pixel (so the bot draws it once a move and
    sends it with each seat's private part); ``pngs`` given the channel's table attaches
    exactly what it would have drawn."""
    drawer = render.renderer(game_id)
    for moment in moments()[game_id]:
        if moment.seat is None:
            continue
        view = moment.view()
        channel = gallery.Moment(game_id, moment.name, moment.state, None).view()
        assert drawer.table(view, width=1000).tobytes() == \
            drawer.table(channel, width=1000).tobytes(), moment.name
        table = render.png(game_id, channel)
        assert [pixels(p) for p in render.pngs(game_id, view, table=table)] == \
            [pixels(p) for p in render.pngs(game_id, view)], moment.name


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_picture_is_a_pure_function_of_its_view(game_id: str) -> None:
    for moment in moments()[game_id][:6]:
        view = moment.view()
        kept = copy.deepcopy(view)
        first = render.png(game_id, view)
        assert view == kept, "drawing changed the view"
        assert pixels(render.png(game_id, json.loads(json.dumps(view)))) == pixels(first)
        assert render.summary(game_id, view) == render.summary(game_id, kept)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pictures_are_small(game_id: str) -> None:
    sizes = sorted(len(render.png(game_id, m.view())) for m in moments()[game_id][:10])
    assert sizes[len(sizes) // 2] < 120_000


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_summary_says_where_the_game_stands(game_id: str) -> None:
    for moment in moments()[game_id]:
        line = render.summary(game_id, moment.view())
        assert line and "\n" not in line and len(line) < 1024
        if "-over-" in moment.name:
            assert re.search(r"game over|wins?\b|draw", line, re.IGNORECASE), line


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_text_alternative_says_what_the_picture_shows(game_id: str) -> None:
    """``describe``: several lines that fit one Discord message, naming every seat and, for
    a seat, what it holds; the same for two states nobody at the table can tell apart."""
    game = rules.GAMES[game_id]
    for moment in moments()[game_id]:
        view = moment.view()
        text = render.describe(game_id, view)
        assert len(text.splitlines()) >= 3 and len(text) <= 1900, (moment.name, len(text))
        assert all(name in text for name in view["names"]), moment.name
        if "-over-" in moment.name:
            assert re.search(r"game over|wins?\b|draw", text, re.IGNORECASE), moment.name
        twin = game.determinize(moment.state, moment.seat, 99)
        other = gallery.Moment(game_id, moment.name, twin, moment.seat)
        assert render.describe(game_id, other.view()) == text, moment.name
        assert render.describe(game_id, view) == text  # pure


def test_render_modules_stay_small() -> None:
    """The drawing code in proportion: no module over 600 lines."""
    for module in RENDER.glob("*.py"):
        lines = len(module.read_text(encoding="utf-8").splitlines())
        assert lines < 600, (module.name, lines)


# --------------------------------------------------------------------------- the kit


def test_png_round_trips_the_pixels() -> None:
    image = kit.stack([kit.canvas(640, 200, kit.SHADE), kit.canvas(640, 90, kit.INK)])
    kit.text(image, (20, 20), "Game over: Alice wins", 40, kit.INK, bold=True)
    back = decoded(kit.png(image)).convert("RGB")
    assert back.size == (640, 290)
    worst = max(abs(a - b) for a, b in zip(back.tobytes(), image.tobytes(), strict=True))
    assert worst <= 24, worst  # the colours reduced to 256: a level or two, more at edges
    fill, kept = image.getpixel((600, 100)), back.getpixel((600, 100))
    assert max(abs(a - b) for a, b in zip(fill, kept, strict=True)) <= 2  # type: ignore[arg-type]


def test_cached_text_is_the_text_drawn_afresh() -> None:
    """A line pasted from the kept mask matches Pillow drawing it directly."""
    from PIL import ImageDraw

    for line, size, anchor in (("Alice (Blue)", 30, "la"), ("a1", 26, "mm"),
                               ("Your hand, Bob", 36, "lm")):
        kept = kit.canvas(400, 120)
        kit.text(kept, (200, 60), line, size, kit.INK, anchor=anchor)
        fresh = kit.canvas(400, 120)
        ImageDraw.Draw(fresh).text((200, 60), line, font=kit.font(size), fill=kit.INK,
                                   anchor=anchor)
        assert kept.tobytes() == fresh.tobytes(), line
    other = kit.canvas(400, 120)
    kit.text(other, (200, 60), "Alice (Blue)", 30, kit.MUTED)
    assert other.tobytes() != kept.tobytes()


def test_fit_and_wrap_keep_within_the_width() -> None:
    assert kit.fit("short", 30, 500) == "short"
    cut = kit.fit("a name far too long to fit in the space it is given", 30, 200)
    assert cut.endswith("…") and kit.text_width(cut, 30) <= 200
    lines = kit.wrap("the quick brown fox jumps over the lazy dog " * 4, 30, 300)
    assert len(lines) > 3 and all(kit.text_width(line, 30) <= 300 for line in lines)


def test_a_seat_row_of_two_lines_stays_inside_its_shaded_band() -> None:
    """An audit's picture: the awaited seat's line, wrapped, ran out of the band under it
    (its first line drawn at the row's middle). Its lines are centred on the row now."""
    view = {"players": 2, "names": ["Ann", "Bob"], "to_act": [1]}
    at = kit.Layout(1000)
    rows = kit.seat_rows(view, at, ["1 crystal", "16 crystals, tokens B G R, an airplane "
                                    "ready next turn, 1 armed"], row=48)
    inked = [y for y in range(rows.height) if any(
        rows.getpixel((x, y))[:3] == kit.INK for x in range(at.px(400), at.px(900), 2))]
    band = [y for y in range(rows.height) if rows.getpixel((at.margin, y))[:3] == kit.SHADE]
    second = [y for y in inked if y > at.px(60)]  # the second seat's lines
    assert band and second and band[0] <= min(second) and max(second) <= band[-1]


def test_seats_are_named_and_coloured() -> None:
    view = {"players": 2, "colours": ["blue", "red"], "names": ["Zoë", "🙂"]}
    seats = kit.seats(view)
    assert [s.name for s in seats] == ["Zoe", "Red"]
    assert [s.colour.letter for s in seats] == ["B", "R"]
    mixed = kit.seats({**view, "names": ["Ann 🎲", "Łukasz Ø\u200d"]})
    assert [s.name for s in mixed] == ["Ann", "Lukasz O"]  # no '?' for an emoji
    assert [s.spoken for s in mixed] == ["Ann 🎲", "Łukasz Ø\u200d"]  # said as given
    assert kit.clean("小明 (Ann)") == "?? (Ann)" and kit.seats(
        {**view, "names": ["小明", "👨\u200d👩\u200d👧"]})[1].name == "Red"
    plain = kit.seats({"players": 3})
    assert [s.name for s in plain] == ["Player 1", "Player 2", "Player 3"]
    assert [s.colour.letter for s in plain] == ["1", "2", "3"]
    assert {s.colour.fill for s in plain} == {kit.NUMBERED}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_text_says_names_as_given_where_a_picture_draws_what_the_font_can(game_id: str
                                                                          ) -> None:
    """The summary and the board as text are read, not drawn: a name of CJK letters, an
    emoji or an escaped mention (as the Discord adapter escapes it) is said whole there,
    never '??' or a mention bared of its guard; the picture of the same view still draws."""
    game = rules.GAMES[game_id]
    state, rng = game.new(2, 7), random.Random(7)
    for _ in range(8):
        seat = min(game.to_act(state))
        state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
    names = ["\\<@\u200b123> Ann 🎲", "小明"]
    for seat in (None, 0):
        view = {**game.view(state, seat), "names": names}
        said = render.summary(game_id, view) + "\n" + render.describe(game_id, view)
        assert "??" not in said and "<@123" not in said, said
        assert "小明" in said or "Ann 🎲" in said, said
        assert kit.fits(render.renderer(game_id).table(view))
    assert kit.clean("小明") == "??"  # outside a text, the font's own spelling


def test_two_pngs_of_one_picture_are_told_the_same_whatever_their_bytes() -> None:
    """``render.shown`` reads what a PNG shows: the same picture deflated otherwise (here by
    Pillow's own encoder, as ISA-L now and then does) is the same; a pixel changed is not."""
    image = kit.canvas(200, 120, kit.SHADE)
    kit.text(image, (10, 10), "Blue to move", 30, kit.INK)
    ours = kit.png(image)
    other = io.BytesIO()
    decoded(ours).save(other, format="PNG", compress_level=9)
    assert other.getvalue() != ours and render.shown(other.getvalue()) == render.shown(ours)
    image.putpixel((199, 119), kit.INK)
    assert render.shown(kit.png(image)) != render.shown(ours)


def test_pngs_split_a_picture_too_tall_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Table and hand go as one picture when they fit 1.25 x the width, else as two."""
    game_id = GAME_IDS[0]
    drawer = render.renderer(game_id)
    moment = next(m for m in moments()[game_id] if m.seat is not None)
    view = moment.view()
    monkeypatch.setattr(drawer, "table", lambda v, *, width: kit.canvas(width, width))
    monkeypatch.setattr(drawer, "hand", lambda v, *, width: kit.canvas(width, width // 5))
    assert len(render.pngs(game_id, view)) == 1
    monkeypatch.setattr(drawer, "hand", lambda v, *, width: kit.canvas(width, width // 2))
    two = [decoded(p) for p in render.pngs(game_id, view)]
    assert [p.size for p in two] == [(1000, 1000), (1000, 500)]
    monkeypatch.setattr(drawer, "hand", lambda v, *, width: None)
    assert len(render.pngs(game_id, view)) == 1


def test_the_gallery_writes_a_folder_a_maintainer_can_open(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setattr(rules, "GAMES", {"battle-tiles": rules.GAMES["battle-tiles"]})
    assert gallery.main([str(tmp_path)]) == 0
    pictures = sorted((tmp_path / "battle-tiles").glob("*.png"))
    assert pictures and all(p.read_bytes().startswith(b"\x89PNG") for p in pictures)
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert page.count("<img ") == len(pictures)
    assert "2p-over-channel" in page


@pytest.mark.parametrize("size", [kit.SMALL, kit.SMALL + 4, 2 * kit.SMALL])
def test_bold_keeps_the_dot_over_an_i_apart(size: int) -> None:
    """Block Buster's column letters 'i' and 'j' lost their dots (a bold outline all round
    closed the gap), so 'i' read as 'l' beside the squares moves name."""
    image = Image.new("L", (3 * size, 3 * size), 0)
    kit.text(image, (size, 2 * size), "i", size, 255, anchor="ls", bold=True)
    inked = [y for y in range(image.height)
             if any(image.getpixel((x, y)) > 128 for x in range(image.width))]
    gaps = [y for y in range(inked[0], inked[-1]) if y not in inked]
    assert gaps, "the dot and the stem of 'i' touch"
    # bold is wider than regular, never taller
    bold, regular = kit._mask("hi", size, True, "ls")[0], kit._mask("hi", size, False, "ls")[0]
    assert bold.width > regular.width and bold.height == regular.height
