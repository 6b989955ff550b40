"""Every game's pictures, checked the same way: the gallery's fixed views (each seat count and
variant; start, a third, two thirds, a secret choice, the end; the channel and a seat) fit
Discord's column, use no text under 24 px at 1000 px wide, draw nothing hidden, and are pure
functions of their view. Then the kit itself: text, blocks and the PNG encoder."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
import rules
from render import gallery, kit
from tests.pictures import pixels

GAME_IDS = sorted(rules.GAMES)
RENDER = Path(render.__file__).parent


def sample(game_id: str, every: int) -> list[gallery.Moment]:
    """Every ``every``-th moment of the gallery (all the ends and secret choices)."""
    found = list(gallery.moments(game_id))
    return [m for i, m in enumerate(found)
            if i % every == 0 or "-over-" in m.name or "-secret-" in m.name]


MOMENTS = {gid: sample(gid, 3) for gid in GAME_IDS}


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_picture_fits_the_message_column(game_id: str) -> None:
    """Each attachment at most 1.25 x as tall as wide, at the default width and others."""
    for moment in MOMENTS[game_id]:
        view = moment.view()
        for width in (600, 1000, 1400):
            for png in render.pngs(game_id, view, width=width):
                image = decoded(png)
                assert image.width == width
                assert image.height <= kit.MAX_RATIO * width, (moment.name, image.size)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_text_under_24_px_at_1000_px(game_id: str, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    sizes: list[int] = []
    real = kit.text

    def recording(image: Image.Image, xy: tuple[float, float], line: str, size: int,
                  fill: kit.RGB, **options: Any) -> kit.Box:
        sizes.append(size)
        return real(image, xy, line, size, fill, **options)

    monkeypatch.setattr(kit, "text", recording)
    for moment in MOMENTS[game_id][:12]:
        render.pngs(game_id, moment.view(), width=1000)
    assert sizes and min(sizes) >= 24


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
    for moment in MOMENTS[game_id]:
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
    for moment in MOMENTS[game_id]:
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
    for moment in MOMENTS[game_id][:6]:
        view = moment.view()
        kept = copy.deepcopy(view)
        first = render.png(game_id, view)
        assert view == kept, "drawing changed the view"
        assert pixels(render.png(game_id, json.loads(json.dumps(view)))) == pixels(first)
        assert render.summary(game_id, view) == render.summary(game_id, kept)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pictures_are_small(game_id: str) -> None:
    sizes = sorted(len(render.png(game_id, m.view())) for m in MOMENTS[game_id][:10])
    assert sizes[len(sizes) // 2] < 120_000


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_summary_says_where_the_game_stands(game_id: str) -> None:
    for moment in MOMENTS[game_id]:
        line = render.summary(game_id, moment.view())
        assert line and "\n" not in line and len(line) < 1024
        if "-over-" in moment.name:
            assert re.search(r"game over|wins?\b|draw", line, re.IGNORECASE), line


def test_render_modules_stay_small() -> None:
    """The drawing code in proportion: the kit under 600 lines, no module over 500."""
    for module in RENDER.glob("*.py"):
        lines = len(module.read_text(encoding="utf-8").splitlines())
        assert lines < (600 if module.name == "kit.py" else 500), (module.name, lines)


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


def test_seats_are_named_and_coloured() -> None:
    view = {"players": 2, "colours": ["blue", "red"], "names": ["Zoë", "🙂"]}
    seats = kit.seats(view)
    assert [s.name for s in seats] == ["Zoe", "Red"]
    assert [s.colour.letter for s in seats] == ["B", "R"]
    plain = kit.seats({"players": 3})
    assert [s.name for s in plain] == ["Player 1", "Player 2", "Player 3"]
    assert [s.colour.letter for s in plain] == ["1", "2", "3"]
    assert {s.colour.fill for s in plain} == {kit.NUMBERED}


def test_pngs_split_a_picture_too_tall_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Table and hand go as one picture when they fit 1.25 x the width, else as two."""
    game_id = GAME_IDS[0]
    drawer = render.renderer(game_id)
    moment = next(m for m in MOMENTS[game_id] if m.seat is not None)
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
