"""The picture of a Battle Tiles view: the grid, the players' supplies, and a hand.

Top to bottom, as a phone shows it: a status line (who acts and what they must do), the 5x5
grid with coordinates on every edge, each tile with its four sides (a number, a piercer's
spike or a barrier's wall), its colour marker (a lettered disc) and its power token, then
one panel per seat (score, markers left, opponent markers held, tiles left, tokens left),
the result, and, in a seat's own view, its hand with each tile numbered as moves name it.

Everything drawn comes from the view: the opponent's hand is only a count.
"""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, SHADE, Grid, SeatColour

NAME = "Battle Tiles"

FACE: RGB = kit.rgb("#F3EEE2")  # a tile
LIT: RGB = kit.rgb("#F6DE8D")  # a tile defeated in the last turn
GLOW: RGB = kit.rgb("#FFF6C8")  # the glowing circle of a scoring tile
MAT: RGB = kit.rgb("#A9A293")  # the table under the tiles
HOLE: RGB = kit.rgb("#C9C3B6")  # an empty square
SURFACES = (FACE, LIT, GLOW, MAT, HOLE)  # for ``kit.finish``'s palette
TOKEN_LETTERS = {"rotate": "R", "chaos": "C", "death": "D", "life": "L"}
POWERS = ["rotate", "chaos", "death", "life"]


# --------------------------------------------------------------------------- seats


def _sides(sides: list[Any]) -> str:
    words = {"P": "piercer", "B": "barrier"}
    return "-".join(words.get(str(v), str(v)) for v in sides)


# --------------------------------------------------------------------------- words


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who acts, doing what) and a second line with detail."""
    all_seats = kit.seats(view)
    if view.get("result") is not None:
        winners = [all_seats[s].name for s in view["result"]["winners"]]
        verb = "wins" if len(winners) == 1 else "draw"
        return (f"Game over: {kit.listing(winners)} {verb}",
                kit.clean(str(view["result"]["reason"]).split(". ")[0].rstrip(".") + "."))
    acting = all_seats[view["turn"]].name
    pending = view.get("pending")
    if pending and pending["kind"] == "rotate":
        square = pending["square"]
        return (f"{acting} may rotate {square}",
                f"'rotate {square} left', 'rotate {square} right' or 'no rotate'.")
    if pending and pending["kind"] == "chaos":
        return (f"{acting} picks neutral tiles",
                f"Leave {pending['short']} of {', '.join(pending['tiles'])} neutral: "
                f"'neutral {pending['tiles'][0]}'.")
    if view.get("last") is None:  # the opening: say who was drawn to start
        starter = all_seats[view.get("first", view["turn"])].name
        return (f"{starter} starts: place a tile",
                "Drawn at random. Type 'place 2 at c3' (hand tile 2).")
    return f"{acting} to place a tile", "Type 'place 2 at c3' (hand tile 2), tokens: 'with death'."


def summary(view: dict[str, Any]) -> str:
    """One line for screen readers and notifications."""
    all_seats = kit.seats(view)
    if view.get("result") is not None:
        lead = f"game over: {str(view['result']['reason']).rstrip('.')}"
    else:
        acting = kit.called(all_seats[view["turn"]])
        pending = view.get("pending")
        if pending and pending["kind"] == "rotate":
            lead = f"{acting} to decide whether to rotate {pending['square']}"
        elif pending and pending["kind"] == "chaos":
            lead = f"{acting} to choose which tiles stay neutral"
        elif view.get("last") is None:
            lead = f"{acting} to place a tile, drawn at random to start"
        else:
            lead = f"{acting} to place a tile"
    scores = ", ".join(f"{s.spoken} {p}" for s, p in zip(all_seats, view["scores"], strict=False))
    parts = [f"{NAME}, {lead}.", f"Score: {scores}."]
    last = view.get("last")
    if last:
        text = f"Last: {all_seats[last['seat']].spoken} placed on {last['square']}"
        if last.get("power"):
            text += f" with {last['power']}"
        if last.get("defeated"):
            text += f", defeated {kit.listing(last['defeated'])}"
        if last.get("captured"):
            text += f", captured {kit.listing(last['captured'])}"
        if last.get("struck"):
            text += ", struck by death"
        parts.append(text + ".")
    if view.get("seat") is not None and "hand" in view:
        tiles = "; ".join(f"{t['number']}: {_sides(t['sides'])}"
                          f"{' scoring' if t['scoring'] else ''}" for t in view["hand"])
        parts.append(f"Your hand: {tiles or 'empty'}.")
    return " ".join(" ".join(parts).split())


# --------------------------------------------------------------------------- tiles


def _side_mark(draw: ImageDraw.ImageDraw, image: Image.Image, value: Any, side: int,
               size: int) -> None:
    """One side: a number near the edge, a spike (piercer) or a wall (barrier)."""
    c = size / 2
    reach = size * 0.17
    centres = [(c, reach), (size - reach, c), (c, size - reach), (reach, c)]
    x, y = centres[side]
    if value == "P":
        r = size * 0.13
        tip = [(c, size * 0.03), (size * 0.97, c), (c, size * 0.97), (size * 0.03, c)][side]
        dx, dy = [(0, 1), (-1, 0), (0, -1), (1, 0)][side]  # from the tip inwards
        base = (tip[0] + dx * r * 1.9, tip[1] + dy * r * 1.9)
        draw.polygon([tip, (base[0] + dy * r, base[1] + dx * r),
                      (base[0] - dy * r, base[1] - dx * r)], fill=INK)
        kit.text(image, (base[0] + dx * r * 0.7, base[1] + dy * r * 0.7), "P",
                 round(size * 0.15), INK, anchor="mm", bold=True)
        return
    if value == "B":
        long, thick = size * 0.56, size * 0.09
        if side in (0, 2):
            y0 = size * 0.05 if side == 0 else size * 0.95 - thick
            box = (c - long / 2, y0, c + long / 2, y0 + thick)
        else:
            x0 = size * 0.05 if side == 3 else size * 0.95 - thick
            box = (x0, c - long / 2, x0 + thick, c + long / 2)
        draw.rectangle(box, fill=INK)
        inward = [(0, 1), (-1, 0), (0, -1), (1, 0)][side]
        bx, by = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        kit.text(image, (bx + inward[0] * size * 0.14, by + inward[1] * size * 0.14), "B",
                 round(size * 0.15), INK, anchor="mm", bold=True)
        return
    kit.text(image, (x, y), str(value), round(size * 0.24), INK, anchor="mm", bold=True)


@functools.lru_cache(maxsize=512)
def _tile(sides: tuple[Any, ...], scoring: bool, marker: SeatColour | None, token: str | None,
          size: int, fill: RGB, hand: bool) -> Image.Image:
    """A tile: sides, the glowing circle of a scoring tile with its marker, a token badge."""
    tile = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 12, fill=fill,
                           outline=INK, width=max(2, size // 60))
    for side, value in enumerate(sides):
        _side_mark(draw, tile, value, side, size)
    c, r = size / 2, size * 0.19
    if scoring:
        draw.ellipse((c - r, c - r, c + r, c + r), fill=GLOW, outline=MUTED,
                     width=max(2, size // 50))
        if marker is not None:
            m = r * 0.82
            draw.ellipse((c - m, c - m, c + m, c + m), fill=marker.fill, outline=INK,
                         width=max(2, size // 45))
            kit.text(tile, (c, c), marker.letter, round(size * 0.2), marker.ink, anchor="mm",
                     bold=True)
        elif not hand:
            kit.text(tile, (c, c), "N", round(size * 0.17), MUTED, anchor="mm", bold=True)
    if token is not None:
        b = size * 0.2
        x0, y0 = size * 0.05, size * 0.75
        death = token == "death"
        draw.rounded_rectangle((x0, y0, x0 + b, y0 + b), radius=size // 25,
                               fill=INK if death else PAPER, outline=INK,
                               width=max(2, size // 50))
        kit.text(tile, (x0 + b / 2, y0 + b / 2), TOKEN_LETTERS[token], round(size * 0.15),
                 PAPER if death else INK, anchor="mm", bold=True)
    return tile


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The whole picture of ``view``, ``width`` pixels wide."""
    at = kit.Layout(width, margin_at_1000=65)
    image = kit.canvas(width, at.px(2600), SURFACES)
    y = kit.header(image, view, at, *status(view))
    y = _grid(image, view, at, y)
    y = _legend(image, at, y)
    y = _panel(image, view, at, y)
    return kit.finish_picture(image, view, at, y, _hand)


def _grid(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    size = int(view["size"])
    cell = at.body // size
    grid = Grid(size, size, (at.width - cell * size) // 2, y + at.px(56), cell)
    draw_ = ImageDraw.Draw(image)
    pad = at.px(8)
    draw_.rounded_rectangle((grid.left - pad, grid.top - pad, grid.right + pad,
                             grid.bottom + pad), radius=at.px(16), fill=MAT)
    grid.coordinates(image, at.px(34), at.px(26))
    last = view.get("last") or {}
    defeated = set(last.get("defeated") or [])
    inset = at.px(4)
    tile_size = cell - 2 * inset
    colours = [kit.seat_colour(c) for c in view["colours"]]
    for square in view["grid"]:
        x0, y0, x1, y1 = grid.box(square["square"], inset)
        if square["sides"] is None:
            draw_.rounded_rectangle((x0, y0, x1, y1), radius=tile_size // 12, fill=HOLE)
            continue
        marker = None if square["marker"] is None else colours[square["marker"]]
        fill = LIT if square["square"] in defeated else FACE
        tile = _tile(tuple(square["sides"]), bool(square["scoring"]), marker, square["token"],
                     tile_size, fill, False)
        kit.paste(image, tile, (x0, y0))
        if square["square"] == last.get("square"):
            draw_.rounded_rectangle((x0 - inset, y0 - inset, x1 + inset, y1 + inset),
                                    radius=tile_size // 10, outline=INK, width=at.px(9))
    pending = view.get("pending")
    if pending and pending["kind"] == "rotate":
        x0, y0, x1, y1 = grid.box(pending["square"], 0)
        draw_.rounded_rectangle((x0, y0, x1, y1), radius=tile_size // 10, outline=INK,
                                width=at.px(6))
    return grid.bottom + at.px(90)


LEGEND = ("Black frame: last tile placed. Yellow: defeated then. "
          "P spike: piercer. B wall: barrier. N: neutral. D: death. L: life.")


@functools.lru_cache(maxsize=8)
def _legend_lines(size: int, width: int) -> tuple[str, ...]:
    return tuple(kit.wrap(LEGEND, size, width))


def _legend(image: Image.Image, at: kit.Layout, y: int) -> int:
    for text in _legend_lines(at.px(28), at.body):
        kit.text(image, (at.margin, y), text, at.px(28), MUTED)
        y += at.px(38)
    return y + at.px(4)


def _panel(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """Two lines per seat: name and score; then markers, captures, tiles and tokens."""
    draw_ = ImageDraw.Draw(image)
    result = view.get("result")
    marked = set(result["winners"] if result is not None else view["to_act"])
    right = at.width - at.margin
    row, chip = at.px(172), at.px(52)
    for seat in kit.seats(view):
        i = seat.index
        top = y
        if i in marked:
            draw_.rounded_rectangle((at.margin - at.px(12), top + at.px(4), right + at.px(12),
                                     top + row - at.px(4)), radius=at.px(12), fill=SHADE)
            if result is None:
                kit.triangle(draw_, (at.px(30), top + at.px(40)), at.px(20), 0, INK)
        middle = top + at.px(40)
        kit.chip(image, (at.margin, middle - chip // 2, at.margin + chip, middle + chip // 2),
                 seat.colour, at.px(32))
        name_x = at.margin + chip + at.px(14)
        kit.text(image, (right, middle), f"Score {view['scores'][i]}", at.px(36), INK,
                 anchor="rm", bold=True)
        kit.text(image, (name_x, middle), kit.fit(seat.name, at.px(36), right - name_x
                 - at.px(200), bold=True), at.px(36), INK, anchor="lm", bold=True)
        tiles = view["hand_counts"][i] + view["stack_counts"][i]
        words = (f"Markers left {view['markers'][i]}   Opponent markers {view['held'][i]}   "
                 f"Tiles left {tiles}")
        second = top + at.px(96)
        kit.text(image, (at.margin, second), words, at.px(30), INK)
        third = second + at.px(50)
        kit.text(image, (at.margin, third), "Tokens:", at.px(30), INK)
        x = at.margin + kit.text_width("Tokens:", at.px(30)) + at.px(12)
        for power in POWERS:
            have = power in view["tokens"][i]
            w = kit.text_width(power, at.px(28)) + at.px(16)
            draw_.rounded_rectangle((x, third - at.px(30), x + w, third + at.px(8)),
                                    radius=at.px(8), fill=PAPER if have else SHADE,
                                    outline=INK if have else MUTED, width=at.px(2))
            kit.text(image, (x + at.px(8), third), power, at.px(28), INK if have else MUTED)
            if not have:  # struck through: used
                draw_.line((x + at.px(4), third - at.px(10), x + w - at.px(4),
                            third - at.px(10)), fill=INK, width=at.px(3))
            x += w + at.px(10)
        y += row
    return y + at.px(10)


def _hand(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """The seat's own hand, each tile under its number: 'place 2 at c3' uses tile 2."""
    hand: list[dict[str, Any]] = list(view["hand"])
    y = kit.hand_title(image, view, at, y) + at.px(20)
    if not hand:
        y += at.px(40)
        kit.text(image, (at.margin, y), "No tiles in hand.", at.px(32), MUTED)
        return y
    gap = at.px(30)
    size = min(at.px(260), (at.body - gap * 2) // 3)
    x = at.margin
    for tile in hand:
        kit.text(image, (x + size // 2, y + at.px(44)), f"Tile {tile['number']}", at.px(36),
                 INK, anchor="ms", bold=True)
        sprite = _tile(tuple(tile["sides"]), bool(tile["scoring"]), None, None, size, FACE,
                       True)
        kit.paste(image, sprite, (x, y + at.px(60)))
        kind = "scoring" if tile["scoring"] else "can take a token"
        kit.text(image, (x + size // 2, y + at.px(60) + size + at.px(38)), kind, at.px(28),
                 MUTED, anchor="ms")
        x += size + gap
    return y + at.px(60) + size + at.px(40)
