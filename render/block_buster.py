"""The picture of a Block Buster view: the board, the point blocks, and every colour's blocks.

Top to bottom, as a phone shows it: a status line (who places, how far they may skip), the
20x20 board with coordinates on every edge, the placing area's boundary as a thick line
(outside it the board is greyed), the 12 counting spaces of each point block framed by the
thicker lines of its 4x4 cell, each point block with its shape and the colour that leads it
(filled in that colour once it is won for good), placed blocks in colour with the colour's
letter on every square and the last one ringed; then one panel per colour: its blocks still
to place drawn as shapes with their names, its penalties and its score if the game ended now.

There is nothing hidden in Block Buster: every seat's picture is the spectator's.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, SHADE, Box, Grid, SeatColour

NAME = "Block Buster"

_DATA: dict[str, Any] = json.loads(
    resources.files("data").joinpath("block-buster.json").read_text(encoding="utf-8"))
SHAPES: dict[str, list[tuple[int, int]]] = {
    b["name"]: [(c[0], c[1]) for c in b["cells"]] for b in _DATA["blocks"]}

FACE: RGB = kit.rgb("#F3EEE2")  # an empty square inside the placing area
OUT: RGB = kit.rgb("#B9B4AA")  # a square outside it
PLATE: RGB = kit.rgb("#D9D2C3")  # a point block nobody leads
LINE: RGB = kit.rgb("#CFC8B8")  # the lines between squares
SURFACES = (FACE, OUT, PLATE, LINE)  # for ``kit.finish``'s palette


# --------------------------------------------------------------------------- seats


@dataclass(frozen=True)
class Side:
    """One colour in play: its palette entry, the seat playing it, and names."""

    index: int
    seat: int
    colour: SeatColour
    name: str  # as drawn: 'Alice' or 'Blue'
    spoken: str  # as said: 'Alice (Blue)' or 'Blue'
    colour_word: str  # 'Blue'


def sides(view: dict[str, Any]) -> list[Side]:
    """The colours of ``view``, named by the seat's display name when the bot gave one."""
    names = view.get("names") or []
    out = []
    for i, colour_name in enumerate(view["colours"]):
        seat = int(view["owners"][i])
        colour, plain = kit.seat_colour(colour_name), colour_name.capitalize()
        given = " ".join(str(names[seat]).split()) if seat < len(names) and names[seat] else ""
        drawn = kit.clean(given)
        out.append(Side(i, seat, colour, drawn if drawn.strip("? ") else plain,
                        f"{given} ({plain})" if given else plain, plain))
    return out


def _given(view: dict[str, Any], seat: int) -> str:
    """The seat's display name from the bot, or ''."""
    names = view.get("names") or []
    return " ".join(str(names[seat]).split()) if seat < len(names) and names[seat] else ""


def _seat_colours(view: dict[str, Any], seat: int) -> str:
    """'Blue', or 'Blue and Yellow' for a seat of the special 2-player game."""
    return kit.listing([s.colour_word for s in sides(view) if s.seat == seat])


def _seat_spoken(view: dict[str, Any], seat: int) -> str:
    """'Alice (Blue and Yellow)': the name once, then every colour of the seat."""
    given = _given(view, seat)
    colours = _seat_colours(view, seat)
    return f"{given} ({colours})" if given else colours


def _winners(view: dict[str, Any], seats: list[int]) -> str:
    """'Alice wins', 'Alice and Carol win', 'Blue and Yellow win' (no names given)."""
    named = [kit.clean(_given(view, s)) for s in seats]
    if all(n.strip("? ") for n in named):
        return f"{kit.listing(named)} {'wins' if len(seats) == 1 else 'win'}"
    words = kit.listing([_seat_colours(view, s) for s in seats])
    plural = len(seats) > 1 or " and " in words
    return f"{words} {'win' if plural else 'wins'}"


_PLAYER = re.compile(r"\bPlayer (\d+)\b")


def _said(view: dict[str, Any], text: str) -> str:
    """The rules' sentence with names for 'Player 1' (the special 2-player game names
    seats so), as the bot's channel text has them."""
    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        return _given(view, seat) or match.group(0)
    return _PLAYER.sub(named, text)


# --------------------------------------------------------------------------- words


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who places, or who won) and a line of detail."""
    all_sides = sides(view)
    result = view.get("result")
    if result is not None:
        winners = _winners(view, sorted(result["winners"]))
        return f"Game over: {winners}", kit.clean(_said(view, str(result["reason"])))
    side = all_sides[int(view["turn"])]
    skip = int(view["max_skip"])
    if not view["previous"][side.index]:
        detail = "First block: anywhere inside the boundary."
    elif skip:
        detail = (f"Touch your previous block, or skip up to {skip} space"
                  f"{'s' if skip > 1 else ''} (-2 each).")
    else:
        detail = "Touch your previous block (no skipping left)."
    return f"{side.name} to place a block", detail


def summary(view: dict[str, Any]) -> str:
    """One line for screen readers and notifications."""
    all_sides = sides(view)
    result = view.get("result")
    if result is not None:
        lead = f"game over: {_said(view, str(result['reason'])).rstrip('.')}"
    else:
        lead = f"{all_sides[int(view['turn'])].spoken} to place a block"
    seats = range(int(view["players"]))
    scores = ", ".join(f"{_seat_spoken(view, s)} {view['scores'][s]}" for s in seats)
    word = "Scores" if result is not None else "Scores if it ended now"
    parts = [f"{NAME}, {lead}.", f"{word}: {scores}."]
    last = view.get("last")
    if last and result is None:
        who = all_sides[int(last["colour"])].spoken
        if last["kind"] == "pass":
            parts.append(f"Last: {who} passed.")
        else:
            skipped = int(last["skipped"])
            extra = f", skipping {skipped}" if skipped else ""
            parts.append(f"Last: {who} placed {last['block']} {last['orientation']} at "
                         f"{last['squares'][0] if len(last['squares']) == 1 else _anchor(last)}"
                         f"{extra}.")
    return " ".join(" ".join(parts).split())


def _anchor(last: dict[str, Any]) -> str:
    """The anchor square of a placement: the leftmost square of its lowest row."""
    squares = [kit.square_index(s) for s in last["squares"]]
    low = min(r for _, r in squares)
    left = min(f for f, r in squares if r == low)
    return kit.square_name(left, low)


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The whole picture of ``view``, ``width`` pixels wide."""
    at = kit.Layout(width, margin_at_1000=46)
    image = kit.canvas(width, at.px(3400), SURFACES)
    y = _header(image, view, at)
    y = _board(image, view, at, y)
    y = _panels(image, view, at, y)
    y = _legend(image, view, at, y)
    return image.crop((0, 0, width, y + at.px(30)))


def _header(image: Image.Image, view: dict[str, Any], at: kit.Layout) -> int:
    head, detail = status(view)
    all_sides = sides(view)
    result = view.get("result")
    shown = ([s for s in all_sides if s.seat in result["winners"]] if result is not None
             else [all_sides[int(view["turn"])]])
    x, top, size = at.margin, at.px(24), at.px(54)
    for side in shown:
        kit.chip(image, (x, top, x + size, top + size), side.colour, at.px(34))
        x += size + at.px(10)
    x += at.px(8)
    kit.text(image, (x, top + size // 2), kit.fit(head, at.px(40), at.width - at.margin - x,
             bold=True), at.px(40), INK, anchor="lm", bold=True)
    kit.text(image, (at.margin, at.px(118)), kit.fit(detail, at.px(30), at.body), at.px(30),
             MUTED)
    return at.px(134)


# --------------------------------------------------------------------------- the board


def _board(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    files, ranks = int(view["files"]), int(view["ranks"])
    cell = at.body // files
    grid = Grid(files, ranks, (at.width - cell * files) // 2, y + at.px(40), cell)
    draw_ = ImageDraw.Draw(image)
    board: list[str] = view["board"]
    fills = {".": FACE, "-": OUT, "#": PLATE}
    for r, row in enumerate(board):
        for f, c in enumerate(row):
            if c in ".-":
                draw_.rectangle(_box(grid, f, r), fill=fills[c])
    thin, thick = max(1, at.px(2)), max(2, at.px(4))
    for i in range(files + 1):  # square lines, thicker around each point block's 4x4 cell
        x = grid.left + i * cell
        draw_.line((x, grid.top, x, grid.bottom), fill=MUTED if i % 4 == 0 else LINE,
                   width=thick if i % 4 == 0 else thin)
    for i in range(ranks + 1):
        y_ = grid.top + i * cell
        draw_.line((grid.left, y_, grid.right, y_), fill=MUTED if i % 4 == 0 else LINE,
                   width=thick if i % 4 == 0 else thin)
    all_sides = sides(view)
    for placed in view["placed"]:
        _block(image, grid, placed, all_sides[int(placed["colour"])], at)
    _boundary(draw_, board, grid, at)
    for point in view["point_blocks"]:
        _point_block(image, grid, point, all_sides, at)
    last = view.get("last")
    if last and last["kind"] == "place" and view.get("result") is None:
        _ring(draw_, grid, last["squares"], at)
    grid.coordinates(image, at.px(28), at.px(8))
    return grid.bottom + at.px(50)


def _box(grid: Grid, f: int, r: int) -> Box:
    x = grid.left + f * grid.cell
    y = grid.top + (grid.ranks - 1 - r) * grid.cell
    return x, y, x + grid.cell, y + grid.cell


def _edges(squares: set[tuple[int, int]], grid: Grid) -> list[tuple[int, int, int, int]]:
    """The outline of a set of squares: the sides of its squares that face outside it."""
    out = []
    for f, r in squares:
        x0, y0, x1, y1 = _box(grid, f, r)
        if (f - 1, r) not in squares:
            out.append((x0, y0, x0, y1))
        if (f + 1, r) not in squares:
            out.append((x1, y0, x1, y1))
        if (f, r + 1) not in squares:
            out.append((x0, y0, x1, y0))
        if (f, r - 1) not in squares:
            out.append((x0, y1, x1, y1))
    return out


def _block(image: Image.Image, grid: Grid, placed: dict[str, Any], side: Side, at: kit.Layout
           ) -> None:
    """A placed block: its squares in the colour, its letter on each, its outline in ink."""
    draw_ = ImageDraw.Draw(image)
    squares = {kit.square_index(s) for s in placed["squares"]}
    for f, r in squares:
        draw_.rectangle(_box(grid, f, r), fill=side.colour.fill)
    for f, r in squares:
        x0, y0, x1, y1 = _box(grid, f, r)
        kit.text(image, ((x0 + x1) / 2, (y0 + y1) / 2), side.colour.letter, at.px(28),
                 side.colour.ink, anchor="mm", bold=True)
    width = max(2, at.px(4))
    for line in _edges(squares, grid):
        draw_.line(line, fill=INK, width=width)


def _boundary(draw_: ImageDraw.ImageDraw, board: list[str], grid: Grid, at: kit.Layout) -> None:
    """The placing area's boundary: a thick ink line around every square inside it."""
    inside = {(f, r) for r, row in enumerate(board) for f, c in enumerate(row) if c != "-"}
    inside_lines = _edges(inside, grid)
    width = max(3, at.px(7))
    for x0, y0, x1, y1 in inside_lines:
        draw_.line((x0, y0, x1, y1), fill=INK, width=width)
        for x, y in ((x0, y0), (x1, y1)):  # square off the corners
            draw_.rectangle((x - width // 2, y - width // 2, x + width // 2, y + width // 2),
                            fill=INK)


def _ring(draw_: ImageDraw.ImageDraw, grid: Grid, squares: list[str], at: kit.Layout) -> None:
    """The last block placed, ringed in white and ink so the eye finds it."""
    cells = {kit.square_index(s) for s in squares}
    for x0, y0, x1, y1 in _edges(cells, grid):
        draw_.line((x0, y0, x1, y1), fill=PAPER, width=max(4, at.px(10)))
    for x0, y0, x1, y1 in _edges(cells, grid):
        draw_.line((x0, y0, x1, y1), fill=INK, width=max(2, at.px(4)))


def _point_block(image: Image.Image, grid: Grid, point: dict[str, Any], all_sides: list[Side],
                 at: kit.Layout) -> None:
    """A point block: its shape; a band with the leader's letter and count (or 'tie'); the
    whole tile in the colour once won for good."""
    cells = [kit.square_index(s) for s in point["squares"]]
    left = min(f for f, _ in cells)
    top_rank = max(r for _, r in cells)
    x0, y0, _, _ = _box(grid, left, top_rank)
    size = 2 * grid.cell
    inset = max(2, at.px(4))
    box = (x0 + inset, y0 + inset, x0 + size - inset, y0 + size - inset)
    secured, leader = point["secured"], point["leader"]
    counts: list[int] = point["counts"]
    owner = all_sides[int(secured)].colour if secured is not None else None
    fill = owner.fill if owner is not None else PLATE if point.get("in_play", True) else OUT
    ink = owner.ink if owner is not None else INK if point.get("in_play", True) else MUTED
    kit.paste(image, _plate(size - 2 * inset, fill, ink, str(point["kind"]), max(2, at.px(4))),
              box[:2])
    band_top = box[1] + round((size - 2 * inset) * 0.6)
    draw_ = ImageDraw.Draw(image)
    label_size = at.px(28)
    if owner is not None:
        label = f"{owner.letter} {counts[int(secured)]}"
        kit.text(image, ((box[0] + box[2]) / 2, (band_top + box[3]) / 2), label, label_size,
                 ink, anchor="mm", bold=True)
    elif leader is not None:
        colour = all_sides[int(leader)].colour
        draw_.rectangle((box[0] + inset, band_top, box[2] - inset, box[3] - inset),
                        fill=colour.fill, outline=INK, width=max(1, at.px(2)))
        kit.text(image, ((box[0] + box[2]) / 2, (band_top + box[3]) / 2),
                 f"{colour.letter} {counts[int(leader)]}", label_size, colour.ink, anchor="mm",
                 bold=True)
    elif max(counts) > 0:
        kit.text(image, ((box[0] + box[2]) / 2, (band_top + box[3]) / 2),
                 f"tie {max(counts)}", at.px(26), INK, anchor="mm", bold=True)


@functools.lru_cache(maxsize=64)
def _plate(size: int, fill: RGB, ink: RGB, kind: str, border: int) -> Image.Image:
    """The tile of a point block with its shape in the upper part."""
    tile = Image.new("RGB", (size, size), fill)
    draw_ = ImageDraw.Draw(tile)
    draw_.rectangle((0, 0, size - 1, size - 1), outline=INK, width=border)
    s = round(size * 0.46)
    left, top = (size - s) // 2, round(size * 0.08)
    icon(draw_, kind, (left, top, left + s, top + s), ink)
    return tile


def icon(draw_: ImageDraw.ImageDraw, kind: str, box: Box, fill: RGB = INK) -> None:
    """A point block's shape: circle, triangle, diamond, star or hexagon."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    if kind == "circle":
        draw_.ellipse(box, fill=fill)
        return
    corners = {"triangle": (3, -90, 1.0), "diamond": (4, -90, 1.0), "hexagon": (6, 0, 1.0),
               "star": (10, -90, 1.0)}
    count, start, _ = corners.get(kind, (4, 45, 1.0))
    points = []
    for k in range(count):
        reach = r if kind != "star" or k % 2 == 0 else r * 0.45
        angle = math.radians(start + 360 * k / count)
        points.append((cx + reach * math.cos(angle), cy + reach * math.sin(angle)
                       + (r * 0.15 if kind == "triangle" else 0)))
    draw_.polygon(points, fill=fill)


# --------------------------------------------------------------------------- the panels


def _panels(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """One panel per colour, in turn order: name, penalties, score, blocks left as shapes."""
    all_sides = sides(view)
    draw_ = ImageDraw.Draw(image)
    result = view.get("result")
    turn = int(view["turn"])
    for colour in view["order"]:
        side = all_sides[int(colour)]
        blocks: list[str] = view["blocks"][side.index]
        top = y
        acting = result is None and side.index == turn
        chip = at.px(46)
        kit.chip(image, (at.margin, y, at.margin + chip, y + chip), side.colour, at.px(28))
        name = side.name + (" (passed)" if view["passed"][side.index] else "")
        penalty = int(view["penalties"][side.seat])
        score = int(view["scores"][side.seat])
        right = f"penalty {penalty}   score {score}"
        kit.text(image, (at.width - at.margin, y + chip // 2), right, at.px(30), INK,
                 anchor="rm", bold=True)
        room = at.body - chip - at.px(20) - kit.text_width(right, at.px(30)) - at.px(20)
        kit.text(image, (at.margin + chip + at.px(14), y + chip // 2),
                 kit.fit(name, at.px(34), room, bold=True), at.px(34), INK, anchor="lm",
                 bold=True)
        y += chip + at.px(16)
        y = _shapes(image, blocks, side, at, y)
        if acting:
            draw_.rectangle((at.margin - at.px(16), top, at.margin - at.px(8), y), fill=INK)
        y += at.px(24)
    return y


def _shapes(image: Image.Image, blocks: list[str], side: Side, at: kit.Layout, y: int) -> int:
    """The blocks still to place, drawn as shapes with their names under them; '2x' when a
    colour holds two of a block (the official 2-player game)."""
    if not blocks:
        kit.text(image, (at.margin, y + at.px(30)), "All blocks placed.", at.px(30), MUTED)
        return y + at.px(44)
    counts: dict[str, int] = {}
    for b in blocks:
        counts[b] = counts.get(b, 0) + 1
    unit = at.px(15)
    gap = at.px(10)
    label = at.px(28)
    tallest = max(max(c[1] for c in SHAPES.get(b, [(0, 0)])) + 1 for b in counts)
    x = at.margin
    row_height = tallest * unit + at.px(44)
    draw_ = ImageDraw.Draw(image)
    for name, count in counts.items():
        cells = SHAPES.get(name, [(0, 0)])
        wide = max(c[0] for c in cells) + 1
        text = name.upper() if count == 1 else f"{count}x{name.upper()}"
        slot = max(wide * unit, kit.text_width(text, label, bold=True)) + gap
        if x + slot > at.width - at.margin + gap:
            x = at.margin
            y += row_height
        left = x + (slot - gap - wide * unit) // 2
        bottom = y + tallest * unit
        for cx, cy in cells:
            bx, by = left + cx * unit, bottom - (cy + 1) * unit
            draw_.rectangle((bx, by, bx + unit, by + unit), fill=side.colour.fill, outline=INK,
                            width=max(1, at.px(2)))
        kit.text(image, (x + (slot - gap) / 2, bottom + at.px(8)), text, label, INK,
                 anchor="mt", bold=True)
        x += slot
    return y + row_height


@functools.lru_cache(maxsize=64)
def _wrapped(text: str, size: int, width: int) -> tuple[str, ...]:
    return tuple(kit.wrap(text, size, width))


def _legend(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """How to read a move, and the tokens left."""
    supply = view["supply"]
    lines = [
        "A move: block, turn, square, e.g. '5l r90 c4'. r90 turns a quarter clockwise, "
        "f mirrors first; the square is the block's lowest row, leftmost square.",
        f"Penalty tokens left: {supply.get('-2', 0)} of -2, {supply.get('-1', 0)} of -1. "
        f"A point block goes to the colour holding most of its 12 spaces; "
        f"{view['shape_win']} of one shape win at once.",
    ]
    draw_ = ImageDraw.Draw(image)
    draw_.line((at.margin, y, at.width - at.margin, y), fill=SHADE, width=max(1, at.px(3)))
    for text in lines:
        for line in _wrapped(text, at.px(28), at.body):
            y += at.px(38)
            kit.text(image, (at.margin, y), line, at.px(28), MUTED)
        y += at.px(8)
    return y
