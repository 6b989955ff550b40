"""The picture of a Cube Conquest view: the board, the seats, the fight, and a hand.

Top to bottom, as a phone shows it: a status line (who acts and what they must do), the 5x5
board with coordinates on every edge and each seat's home edge in its colour, a table of
points, supply, hand and deck per seat, the attack being fought, the result, and, in a
seat's own view, its hand drawn as cards.

Everything drawn comes from the view: face-down tiles stay blank, and a card chosen in
secret shows only as "chosen" unless the view reveals it.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections import Counter
from collections.abc import Callable
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, SHADE, Box, Grid, SeatColour

NAME = "Cube Conquest"

# --------------------------------------------------------------------------- components

_DATA: dict[str, Any] = json.loads(
    resources.files("data").joinpath("cube-conquest.json").read_text(encoding="utf-8"))
PIPS: dict[str, int] = {s["name"]: s["pips"] for s in _DATA["symbols"]}

FACE: RGB = kit.rgb("#F3EEE2")  # a revealed tile
LIT: RGB = kit.rgb("#F6DE8D")  # a revealed tile the last action touched
BACK: RGB = kit.rgb("#3D4A5C")  # a face-down tile
BACK_LINE: RGB = kit.rgb("#56667B")
MAT: RGB = kit.rgb("#A9A293")  # the table under the tiles
SURFACES = (FACE, LIT, BACK, BACK_LINE, MAT)  # for ``kit.finish``'s palette


# --------------------------------------------------------------------------- symbol icons
# Each icon is drawn in a square box from simple shapes, so it reads at any size.

Point = tuple[float, float]


def _turned(points: list[Point], centre: Point, degrees: float) -> list[Point]:
    a = math.radians(degrees)
    cx, cy = centre
    return [(cx + (x - cx) * math.cos(a) - (y - cy) * math.sin(a),
             cy + (x - cx) * math.sin(a) + (y - cy) * math.cos(a)) for x, y in points]


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _drop(draw: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A water drop: a circle drawn up into a point."""
    x0, y0, x1, _ = box
    s = x1 - x0
    cx, cy, r = x0 + s / 2, y0 + s * 0.64, s * 0.3
    tip = (cx, y0 + s * 0.04)
    spread = math.degrees(math.asin(r / (cy - tip[1])))
    arc = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
           for a in range(round(-90 + (90 - spread)), round(270 - (90 - spread)) + 1, 6)]
    draw.polygon([tip, *arc], fill=fill)


def _hammers(draw: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """Two hammers, crossed."""
    x0, y0, x1, _ = box
    s = x1 - x0
    centre = (x0 + s / 2, y0 + s / 2)
    cx = centre[0]
    handle = _rect(cx - s * 0.05, y0 + s * 0.2, cx + s * 0.05, y0 + s * 0.98)
    head = _rect(cx - s * 0.22, y0 + s * 0.04, cx + s * 0.22, y0 + s * 0.26)
    for degrees in (-38, 38):
        draw.polygon(_turned(handle, centre, degrees), fill=fill)
        draw.polygon(_turned(head, centre, degrees), fill=fill)


def _circles(draw: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """Three rings."""
    x0, y0, x1, _ = box
    s = x1 - x0
    r, width = s * 0.2, max(2, round(s * 0.08))
    for cx, cy in ((0.5, 0.27), (0.26, 0.71), (0.74, 0.71)):
        x, y = x0 + s * cx, y0 + s * cy
        draw.ellipse((x - r, y - r, x + r, y + r), outline=fill, width=width)


def _bricks(draw: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A wall of bricks in three staggered courses."""
    x0, y0, x1, _ = box
    s = x1 - x0
    gap, course = s * 0.06, (s * 0.84) / 3
    for row, bricks in enumerate(((0.0, 0.5, 1.0), (0.0, 0.25, 0.75, 1.0), (0.0, 0.5, 1.0))):
        top = y0 + s * 0.1 + row * course
        for left, right in itertools.pairwise(bricks):
            draw.rectangle((x0 + left * s + gap / 2, top + gap / 2, x0 + right * s - gap / 2,
                            top + course - gap / 2), fill=fill)


def _crown(draw: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A crown: a band with three points, a ball on each."""
    x0, y0, x1, _ = box
    s = x1 - x0

    def at(x: float, y: float) -> Point:
        return x0 + s * x, y0 + s * y

    draw.polygon([at(0.06, 0.84), at(0.06, 0.3), at(0.3, 0.56), at(0.5, 0.2), at(0.7, 0.56),
                  at(0.94, 0.3), at(0.94, 0.84)], fill=fill)
    r = s * 0.07
    for x, y in ((0.06, 0.24), (0.5, 0.14), (0.94, 0.24)):
        px, py = at(x, y)
        draw.ellipse((px - r, py - r, px + r, py + r), fill=fill)


def _arrow(draw: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """An arrow flying up and to the right."""
    x0, y0, x1, _ = box
    s = x1 - x0
    centre = (x0 + s / 2, y0 + s / 2)
    cy = centre[1]
    shape = [(x0 + s * 0.02, cy - s * 0.07), (x0 + s * 0.6, cy - s * 0.07),
             (x0 + s * 0.6, cy - s * 0.24), (x0 + s * 0.98, cy), (x0 + s * 0.6, cy + s * 0.24),
             (x0 + s * 0.6, cy + s * 0.07), (x0 + s * 0.02, cy + s * 0.07)]
    draw.polygon(_turned(shape, centre, -45), fill=fill)
    feather = _rect(x0 + s * 0.02, cy - s * 0.15, x0 + s * 0.16, cy + s * 0.15)
    draw.polygon(_turned(feather, centre, -45), fill=fill)


ICONS: dict[str, Callable[[ImageDraw.ImageDraw, Box, RGB], None]] = {
    "drop": _drop, "hammers": _hammers, "circles": _circles, "bricks": _bricks,
    "crown": _crown, "arrow": _arrow,
}


def icon(draw: ImageDraw.ImageDraw, symbol: str, box: Box, fill: RGB = INK) -> None:
    """Draw ``symbol``'s icon in ``box``; an unknown symbol gets its initial in a ring."""
    drawer = ICONS.get(symbol)
    if drawer is not None:
        drawer(draw, box, fill)
        return
    draw.ellipse(box, outline=fill, width=max(2, (box[2] - box[0]) // 12))


# --------------------------------------------------------------------------- seats


def _card(symbol: str) -> str:
    return f"{symbol} ({PIPS[symbol]})" if symbol in PIPS else symbol


# --------------------------------------------------------------------------- words


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who acts, doing what) and a second line with detail."""
    all_seats = kit.seats(view)
    acting = [all_seats[s].name for s in view["to_act"]]
    phase, attack = view["phase"], view.get("attack")
    if view.get("result") is not None:
        winners = [all_seats[s].name for s in view["result"]["winners"]]
        verb = "wins" if len(winners) == 1 else "win"
        reason = str(view["result"]["reason"]).split(". ")[0].rstrip(".") + "."
        return f"Game over: {kit.listing(winners)} {verb}", kit.clean(reason)
    if phase == "setup":
        return (f"{kit.listing(acting)} places a starting cube",
                "Setup: each seat puts 2 cubes on its own edge.")
    if attack is not None:
        attacker, defender = all_seats[attack["attacker"]], all_seats[attack["defender"]]
        fight = f"{attacker.name} attacks {defender.name} on {attack['to']} from {attack['from']}"
        if phase == "choose":
            return (f"{kit.listing(acting)} picks a card to defend",
                    f"{fight}; {attacker.name} revealed {_card(str(attack['attacker_card']))}.")
        verb = "chooses a card" if len(acting) == 1 else "choose cards"
        return f"{kit.listing(acting)} {verb} in secret", f"{fight}."
    return f"{kit.listing(acting)} to move", f"First to {view['points_to_win']} points wins."


def summary(view: dict[str, Any]) -> str:
    """One line for screen readers and notifications."""
    all_seats = kit.seats(view)
    phase, attack = view["phase"], view.get("attack")
    acting = kit.listing([kit.called(all_seats[s]) for s in view["to_act"]])
    if view.get("result") is not None:
        lead = f"game over: {str(view['result']['reason']).rstrip('.')}"
    elif phase == "setup":
        edges = sorted({view["edges"][s] for s in view["to_act"]})
        lead = f"setup, {acting} places a starting cube on the {kit.listing(edges)} edge"
    elif attack is not None:
        attacker = kit.called(all_seats[attack["attacker"]])
        defender = kit.called(all_seats[attack["defender"]])
        target = f"{defender}'s Outpost" if attack.get("outpost") else defender
        lead = f"{attacker} attacks {target} on {attack['to']} from {attack['from']}"
        if phase == "choose":
            lead += f"; {attacker} revealed {_card(str(attack['attacker_card']))}"
            lead += f"; {acting} to choose which card to use"
        else:
            lead += f"; {acting} to choose in secret"
    else:
        lead = f"{acting} to move"
    points = ", ".join(f"{s.spoken} {p}" for s, p in zip(all_seats, view["points"], strict=False))
    parts = [f"{NAME}, {lead}.", f"Points: {points} ({view['points_to_win']} to win)."]
    last = view.get("last") or []
    action = view.get("last_action") or {}
    if action and view.get("result") is None and attack is None:
        who = all_seats[action["seat"]].spoken
        verb = {"place": "placed a cube on", "move": "moved", "reinforce": "reinforced",
                "outpost": "built an Outpost on", "attack": "attacked",
                "prepare": "prepared", "pass": "passed"}.get(action["kind"], action["kind"])
        where = f" {last[0]}" if len(last) == 1 else (
            f" {last[-1]} from {last[0]}" if action["kind"] == "attack"
            else f" {last[0]} to {last[-1]}" if last else "")
        lost = f"; {action['destroyed']} destroyed" if action.get("destroyed") else ""
        parts.append(f"Last: {who} {verb}{where}{lost}.")
    if view.get("seat") is not None and "hand" in view:
        mine = _own_picks(view)
        if mine:
            parts.append(f"You chose {kit.listing([_card(c) for c in mine])}.")
        hand = ", ".join(_card(c) for c in view["hand"]) or "no cards"
        parts.append(f"Your hand: {hand}.")
    return " ".join(" ".join(parts).split())


def _own_picks(view: dict[str, Any]) -> list[str]:
    """The cards the viewing seat has chosen for the attack in progress, if any."""
    attack, seat = view.get("attack"), view.get("seat")
    if attack is None or seat is None:
        return []
    if seat == attack["attacker"] and attack.get("attacker_card"):
        return [str(attack["attacker_card"])]
    if seat == attack["defender"]:
        return [str(c) for c in attack.get("defender_cards") or []]
    return []


# --------------------------------------------------------------------------- sprites
# Tiles and cubes are drawn once per size and pasted: a board is 25 pastes, not 25 drawings.


@functools.lru_cache(maxsize=8)
def _tile_back(size: int) -> Image.Image:
    """A face-down tile: a plain lattice, the same for every tile."""
    tile = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    radius = size // 12
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=radius, fill=BACK)
    step, width = size // 6, max(2, size // 40)
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).rounded_rectangle((6, 6, size - 7, size - 7), radius=radius, fill=255)
    lattice = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    lines = ImageDraw.Draw(lattice)
    for offset in range(-size, 2 * size, step):
        lines.line((offset, 0, offset + size, size), fill=BACK_LINE, width=width)
        lines.line((offset, size, offset + size, 0), fill=BACK_LINE, width=width)
    tile.paste(lattice, (0, 0), Image.composite(lattice, lattice, mask).getchannel("A"))
    return tile


@functools.lru_cache(maxsize=64)
def _tile_face(symbol: str, pips: int, size: int, occupied: bool, lit: bool) -> Image.Image:
    """A revealed tile: pips top left, the icon, the name at the bottom.

    The icon fills the middle of an empty tile; under a cube, or on the route of the last
    move (which an arrow crosses), it moves small into the top right corner.
    """
    tile = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 12,
                           fill=LIT if lit else FACE)
    r = size * 0.115
    cx, cy = size * 0.05 + r, size * 0.05 + r
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    kit.text(tile, (cx, cy), str(pips), round(size * 0.18), PAPER, anchor="mm", bold=True)
    if occupied or lit:
        s, left, top = size * 0.24, size * 0.7, size * 0.06
    else:
        s, left, top = size * 0.44, size * 0.28, size * 0.2
    box = (round(left), round(top), round(left + s), round(top + s))
    icon(draw, symbol, box)
    _tile_name(tile, symbol, size, (0, 0))
    return tile


def _tile_name(image: Image.Image, symbol: str, size: int, corner: tuple[int, int],
               halo: RGB | None = None) -> None:
    """The symbol's name along the bottom of the tile whose top-left corner is ``corner``."""
    label = kit.fit(symbol, round(size * 0.18), round(size * 0.92))
    kit.text(image, (corner[0] + size / 2, corner[1] + size * 0.93), label, round(size * 0.18),
             INK, anchor="md", bold=True, halo=halo)


@functools.lru_cache(maxsize=32)
def _cube(colour: SeatColour, size: int, outpost: bool) -> Image.Image:
    """A cube in its seat colour with the colour's letter; an Outpost is two cubes stacked,
    the front one ringed twice and marked with a 2."""
    lift = size // 5 if outpost else 0
    sprite = Image.new("RGBA", (size, size + lift), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    border, radius = max(3, size // 18), size // 7
    if outpost:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=radius,
                               fill=colour.fill, outline=INK, width=border)
    face = (0, lift, size - 1, size + lift - 1)
    draw.rounded_rectangle(face, radius=radius, fill=colour.fill, outline=INK, width=border)
    if outpost:
        inner = border * 2
        draw.rounded_rectangle((inner, lift + inner, size - 1 - inner, size + lift - 1 - inner),
                               radius=max(1, radius - inner), outline=INK, width=border)
    letter = round(size * (0.5 if outpost else 0.56))
    kit.text(sprite, (size / 2, lift + size / 2), colour.letter, letter, colour.ink, anchor="mm",
             bold=True)
    if outpost:
        r = size * 0.18
        bx, by = size - r - 1, size + lift - r - 1
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=PAPER, outline=INK, width=border)
        kit.text(sprite, (bx, by), "2", round(r * 1.5), INK, anchor="mm", bold=True)
    return sprite


# --------------------------------------------------------------------------- drawing


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The whole picture of ``view``, ``width`` pixels wide."""
    return kit.stack([_top(_public(view), width, kit.PALETTE_DRAWING), _bottom(view, width)])


def parts(view: dict[str, Any], *, width: int = 1000) -> list[Image.Image | kit.Band]:
    """``draw``'s picture as parts of a PNG: the top, the same for every viewer of a move,
    deflated once (``_top_band``), then the viewer's own part."""
    return [_top_band(_public(view), width), _bottom(view, width)]


# What the top of the picture (status, board, table) shows: the same for every viewer, so a
# move's channel picture and its players' DM pictures draw it once (a seat's own secret pick
# changes "attack", so such a top is drawn apart). Only these keys reach ``_top``: it cannot
# draw anything else, and cannot hand one viewer's secret to another.
TOP_KEYS = ("colours", "names", "to_act", "phase", "attack", "result", "points_to_win",
            "size", "board", "edges", "last", "points", "supply", "hand_counts",
            "deck_counts")


def _public(view: dict[str, Any]) -> str:
    return json.dumps({key: view.get(key) for key in TOP_KEYS})  # the game's fixed key order


@functools.lru_cache(maxsize=8)
def _top(public: str, width: int, palette: bool) -> Image.Image:
    """The status line, the board and the table for ``public`` (JSON of ``TOP_KEYS``), on
    a canvas of the mode ``kit.canvas`` gives (``palette`` keeps the two apart)."""
    view = json.loads(public)
    at = kit.Layout(width, margin_at_1000=65)
    image = kit.canvas(width, at.px(3200), SURFACES)
    # What never changes in a game (the mat, the home edges, the coordinates) is pasted
    # first, drawn once; the status line is drawn over it (a descender may reach in).
    frame, above = _frame(width, int(view["size"]), tuple(view["colours"]),
                          tuple(view["edges"]), palette)
    image.paste(frame, (0, at.px(kit.HEADER_HEIGHT) - above))
    y = kit.header(image, view, at, *status(view))
    y = _board(image, view, at, y)
    y = _table(image, view, at, y)
    return image.crop((0, 0, width, y))


@functools.lru_cache(maxsize=8)
def _top_band(public: str, width: int) -> kit.Band:
    return kit.band(_top(public, width, True))


def _bottom(view: dict[str, Any], width: int) -> Image.Image:
    """Below the table: the fight, the result, and in a seat's own view its hand."""
    at = kit.Layout(width, margin_at_1000=65)
    image = kit.canvas(width, at.px(1600), SURFACES)
    y = 0
    if view.get("attack") is not None:
        y = _attack(image, view, at, y)
    return kit.finish_picture(image, view, at, y, _hand)


def _board(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """The board's tiles, the last action and the cubes, over the mat, home edges and
    coordinates that ``_top`` pasted from ``_frame``."""
    size = int(view["size"])
    cell = at.body // size
    grid = Grid(size, size, (at.width - cell * size) // 2, y + at.px(66), cell)
    draw_ = ImageDraw.Draw(image)
    last = set(view.get("last") or [])
    inset = at.px(4)
    tile_size = cell - 2 * inset
    for square in view["board"]:
        x0, y0, _, _ = grid.box(square["square"], inset)
        if square["symbol"] is None:
            tile = _tile_back(tile_size)
        else:
            tile = _tile_face(square["symbol"], int(square["pips"]), tile_size,
                              square["owner"] is not None, square["square"] in last)
        kit.paste(image, tile, (x0, y0))
    _last(draw_, view, grid, at)
    for square in view["board"]:
        if square["square"] in last and square["symbol"] is not None:
            _tile_name(image, square["symbol"], tile_size, grid.box(square["square"], inset)[:2],
                       halo=LIT)
    cube = round(tile_size * 0.44)
    for square in view["board"]:
        if square["owner"] is None or not square["cubes"]:
            continue
        colour = kit.seat_colour(view["colours"][square["owner"]])
        sprite = _cube(colour, cube, square["cubes"] >= 2)
        cx, cy = grid.centre(square["square"])
        lift = sprite.height - cube
        kit.paste(image, sprite, (cx - cube // 2, cy - cube // 2 - lift - at.px(3)))
    return grid.bottom + at.px(66)


@functools.lru_cache(maxsize=8)
def _frame(width: int, size: int, colours: tuple[str, ...], edges: tuple[str, ...],
           palette: bool) -> tuple[Image.Image, int]:
    """The mat, the home edges and the coordinates around a board whose band starts
    ``above`` rows into the returned picture (some letters reach above it); ``palette``
    keeps the canvas modes apart."""
    at = kit.Layout(width, margin_at_1000=65)
    above = at.px(40)
    cell = at.body // size
    grid = Grid(size, size, (at.width - cell * size) // 2, above + at.px(66), cell)
    image = kit.canvas(width, grid.bottom + at.px(66), SURFACES)
    pad = at.px(8)
    ImageDraw.Draw(image).rounded_rectangle(
        (grid.left - pad, grid.top - pad, grid.right + pad, grid.bottom + pad),
        radius=at.px(16), fill=MAT)
    _edges(image, {"colours": colours, "edges": edges}, grid, at)
    grid.coordinates(image, at.px(34), at.px(34))
    return image, above


def _edges(image: Image.Image, view: dict[str, Any], grid: Grid, at: kit.Layout) -> None:
    """Each seat's home edge, a bar in its colour between the board and the coordinates."""
    draw_ = ImageDraw.Draw(image)
    near, far = at.px(12), at.px(26)
    bars = {
        "south": (grid.left, grid.bottom + near, grid.right, grid.bottom + far),
        "north": (grid.left, grid.top - far, grid.right, grid.top - near),
        "west": (grid.left - far, grid.top, grid.left - near, grid.bottom),
        "east": (grid.right + near, grid.top, grid.right + far, grid.bottom),
    }
    for colour_name, edge in zip(view["colours"], view["edges"], strict=False):
        if edge in bars:
            draw_.rectangle(bars[edge], fill=kit.seat_colour(colour_name).fill, outline=INK,
                            width=max(1, at.px(2)))


def _last(draw_: ImageDraw.ImageDraw, view: dict[str, Any], grid: Grid, at: kit.Layout) -> None:
    """The route of the last move (or the line of an attack) as an arrow, start ringed.

    The tiles it touched are lit as well; their names are drawn again over the arrow.
    """
    last = list(view.get("last") or [])
    if len(last) < 2:
        return
    points: list[tuple[float, float]] = [grid.centre(s) for s in last]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    occupied = {s["square"] for s in view["board"] if s["owner"] is not None}
    stop = grid.cell * (0.3 if last[-1] in occupied else 0.1)  # stop at the cube's edge
    points[-1] = (x1 - (x1 - x0) * stop / length, y1 - (y1 - y0) * stop / length)
    width, head = at.px(12), at.px(40)
    kit.arrow(draw_, points, width + at.px(8), PAPER, head + at.px(10))
    kit.arrow(draw_, points, width, INK, head)
    sx, sy = points[0]
    r = at.px(16)
    draw_.ellipse((sx - r, sy - r, sx + r, sy + r), fill=INK, outline=PAPER, width=at.px(4))


# --------------------------------------------------------------------------- the panel


def _table(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """One row per seat: points, cubes in supply, cards in hand, cards in deck."""
    draw_ = ImageDraw.Draw(image)
    shared = len(view["deck_counts"]) != len(view["colours"])
    columns = ["Points", "Supply", "Hand"] + ([] if shared else ["Deck"])
    right = at.width - at.margin
    xs = [right - at.px(x) for x in ((335, 205, 100, 0) if not shared else (240, 110, 0))]
    label = at.px(28)
    for name, x in zip(columns, xs, strict=False):
        kit.text(image, (x, y + at.px(30)), name, label, MUTED, anchor="rs")
    y += at.px(44)
    row, chip = at.px(70), at.px(52)
    result = view.get("result")
    marked = set(result["winners"] if result is not None else view["to_act"])
    for seat in kit.seats(view):
        i = seat.index
        top, middle = y, y + row // 2
        if i in marked:
            draw_.rounded_rectangle((at.margin - at.px(12), top + at.px(4), right + at.px(12),
                                     top + row - at.px(4)), radius=at.px(12), fill=SHADE)
            if result is not None:
                s = at.px(40)
                icon(draw_, "crown", (at.px(10), middle - s // 2, at.px(10) + s, middle + s // 2))
            else:
                kit.triangle(draw_, (at.px(30), middle), at.px(20), 0, INK)
        kit.chip(image, (at.margin, middle - chip // 2, at.margin + chip, middle + chip // 2),
                 seat.colour, at.px(32))
        name_x = at.margin + chip + at.px(14)
        kit.text(image, (name_x, middle), kit.fit(seat.name, at.px(34), xs[0] - at.px(100)
                 - name_x, bold=True), at.px(34), INK, anchor="lm", bold=True)
        values = [f"{view['points'][i]}/{view['points_to_win']}", str(view["supply"][i]),
                  str(view["hand_counts"][i])]
        if not shared:
            values.append(str(view["deck_counts"][i]))
        for value, x in zip(values, xs, strict=False):
            kit.text(image, (x, middle), value, at.px(34), INK, anchor="rm", bold=True)
        y += row
    if shared and view["deck_counts"]:
        y += at.px(12)
        kit.text(image, (at.margin, y + at.px(26)),
                 f"Shared deck: {view['deck_counts'][0]} cards", at.px(30), MUTED)
        y += at.px(34)
    return y + at.px(16)


def _pill(image: Image.Image, symbol: str, x: int, middle: int, at: kit.Layout) -> int:
    """A small card face: icon and 'crown 5'; returns its width."""
    draw_ = ImageDraw.Draw(image)
    label = f"{symbol} {PIPS.get(symbol, '')}".strip()
    size, height = at.px(30), at.px(52)
    width = at.px(58) + kit.text_width(label, size, bold=True)
    draw_.rounded_rectangle((x, middle - height // 2, x + width, middle + height // 2),
                            radius=at.px(10), fill=PAPER, outline=INK, width=at.px(3))
    s = at.px(32)
    icon(draw_, symbol, (x + at.px(12), middle - s // 2, x + at.px(12) + s, middle + s // 2))
    kit.text(image, (x + at.px(50), middle), label, size, INK, anchor="lm", bold=True)
    return width


def _attack(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """The fight in progress: who attacks whom, and each side's card as far as it is known."""
    attack = view["attack"]
    all_seats = kit.seats(view)
    draw_ = ImageDraw.Draw(image)
    top, right = y + at.px(8), at.width - at.margin
    title = f"Attack on {attack['to']} from {attack['from']}"
    if attack.get("outpost"):
        title += " (Outpost)"
    y = top + at.px(50)
    kit.text(image, (at.margin + at.px(20), y), title, at.px(36), INK, bold=True)
    y += at.px(14)
    chosen = set(attack.get("chosen") or [])
    sides = [
        (attack["attacker"], "attacks", [attack["attacker_card"]] if attack.get("attacker_card")
         else []),
        (attack["defender"], "defends", list(attack.get("defender_cards") or [])),
    ]
    row, chip = at.px(68), at.px(48)
    for index, role, cards in sides:
        seat, middle = all_seats[index], y + row // 2
        x = at.margin + at.px(20)
        kit.chip(image, (x, middle - chip // 2, x + chip, middle + chip // 2), seat.colour,
                 at.px(30))
        x += chip + at.px(14)
        words = kit.fit(f"{seat.name} {role}", at.px(32), at.px(330))
        kit.text(image, (x, middle), words, at.px(32), INK, anchor="lm")
        x = at.margin + at.px(420)
        if cards:
            for symbol in cards:
                x += _pill(image, symbol, x, middle, at) + at.px(12)
        else:
            state = "choosing…"
            if index in chosen:
                state = "has chosen"
                if role == "defends" and attack.get("defender_card_count") == 0:
                    state = "no card: defends with 0"
            kit.text(image, (x, middle), state, at.px(32), MUTED, anchor="lm")
        y += row
    rule = "Attacker wins ties. Defender: +1 matching tile" + (
        ", +1 Outpost." if attack.get("outpost") else ".")
    for line in kit.wrap(rule, at.px(28), at.body - at.px(40)):
        y += at.px(38)
        kit.text(image, (at.margin + at.px(20), y), line, at.px(28), MUTED)
    y += at.px(24)
    draw_.rounded_rectangle((at.margin, top, right, y), radius=at.px(16), outline=INK,
                            width=at.px(4))
    return y + at.px(20)


def _hand(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """A seat's own hand as cards, and its discard pile (what 'prepare' can take back)."""
    hand: list[str] = list(view["hand"])
    y = kit.hand_title(image, view, at, y) + at.px(22)
    if not hand:
        y += at.px(40)
        kit.text(image, (at.margin, y), "No cards in hand.", at.px(32), MUTED)
    else:
        gap = at.px(20)
        card_w = min(at.px(200), (at.body - gap * (len(hand) - 1)) // len(hand))
        card_h = card_w * 6 // 5
        x = at.margin
        for symbol in hand:
            _playing_card(image, symbol, (x, y, x + card_w, y + card_h))
            x += card_w + gap
        y += card_h
    discards: list[str] = list(view["discards"][view["seat"]])
    if discards:
        counts = Counter(discards)
        pile = ", ".join(f"{n} {s}" if n > 1 else s for s, n in sorted(
            counts.items(), key=lambda item: PIPS.get(item[0], 0)))
        for line in kit.wrap(f"Your discard pile: {pile}", at.px(30), at.body):
            y += at.px(44)
            kit.text(image, (at.margin, y), line, at.px(30), MUTED)
    return y


def _playing_card(image: Image.Image, symbol: str, box: Box) -> None:
    """A card: pips in the corner, the icon, the name (drawn once per size, then pasted)."""
    kit.paste(image, _card_face(symbol, box[2] - box[0], box[3] - box[1]), (box[0], box[1]))


@functools.lru_cache(maxsize=64)
def _card_face(symbol: str, w: int, h: int) -> Image.Image:
    card = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))  # the outline includes x = w
    draw_ = ImageDraw.Draw(card)
    draw_.rounded_rectangle((0, 0, w, h), radius=w // 10, fill=PAPER, outline=INK,
                            width=max(3, w // 40))
    kit.text(card, (w * 0.1, h * 0.05), str(PIPS.get(symbol, "?")), round(w * 0.22), INK,
             anchor="lt", bold=True)
    s = round(w * 0.46)
    top = round(h * 0.28)
    icon(draw_, symbol, (round((w - s) / 2), top, round((w + s) / 2), top + s))
    size = min(round(w * 0.17), 34)
    kit.text(card, (w / 2, h * 0.93), kit.fit(symbol, size, round(w * 0.9)), size, INK,
             anchor="md", bold=True)
    return card
