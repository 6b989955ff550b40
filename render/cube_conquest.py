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
    return kit.strips_image(_strips(view, width), width, SURFACES)


def parts(view: dict[str, Any], *, width: int = 1000) -> list[Image.Image | kit.Band]:
    """``draw``'s picture as the deflated parts of a PNG, one per strip: a strip already
    shown (this move's board, a status line, a seat's row, a hand) is not drawn again."""
    return kit.strips_bands(_strips(view, width), width, SURFACES)


# What the top of the picture (status, board, table) shows: the same for every viewer, so a
# move's channel picture and its players' DM pictures share it (a seat's own secret pick
# changes "attack", so such a top is its own). Only these keys reach ``_top_strips``: it
# cannot draw anything else, and cannot hand one viewer's secret to another.
TOP_KEYS = ("colours", "names", "to_act", "phase", "attack", "result", "points_to_win",
            "size", "board", "edges", "last", "points", "supply", "hand_counts",
            "deck_counts")


def _public(view: dict[str, Any]) -> dict[str, Any]:
    return {key: view.get(key) for key in TOP_KEYS}


def _strips(view: dict[str, Any], width: int) -> list[kit.Strip]:
    """The picture top to bottom: the status line over the board's top edge, the board,
    its bottom edge, the table; then the fight, the result, and a seat's own hand."""
    at = kit.Layout(width, margin_at_1000=65)
    return [*kit.recent_strips(_public(view), width, lambda top: _top_strips(top, at)),
            *_bottom_strips(view, at)]


def _top_strips(top: dict[str, Any], at: kit.Layout) -> list[kit.Strip]:
    """The status line, the board and the table, cut where nothing crosses: above the
    mat, below it, and between the table's rows."""
    size, colours, edges = int(top["size"]), tuple(top["colours"]), tuple(top["edges"])
    header = at.px(kit.HEADER_HEIGHT)
    grid_top = header + at.px(66)
    grid_bottom = grid_top + at.body // size * size
    mat_top, mat_end = grid_top - at.px(8), grid_bottom + at.px(8) + 1
    layout = (size, colours, edges)

    def frame(image: Image.Image, y: int) -> None:
        """Paste what never changes in a game (the mat, the home edges, the coordinates),
        drawn once, so that the picture's row ``y`` is the canvas's first."""
        picture, above = _frame(at.width, size, colours, edges, kit.PALETTE_DRAWING)
        kit.put(image, picture, (0, header - above - y))

    head, detail = status(top)
    shown = top["result"]["winners"] if top.get("result") is not None else top["to_act"]

    headline_end = at.px(kit.HEADLINE_END)

    def detail_line(image: Image.Image) -> None:
        frame(image, headline_end)  # the detail is drawn over it (a descender may reach in)
        kit.detail_line(image, at, detail, headline_end)

    def board(image: Image.Image) -> None:
        frame(image, mat_top)
        _board(image, top, at, header - mat_top)

    on_board = (tuple(tuple(square.values()) for square in top["board"]), tuple(top["last"]))
    return [
        # The headline names the table's players; the detail line under it is most
        # often the same at every table ("First to 10 points wins."): kept apart.
        kit.Strip(headline_end, lambda image: kit.headline(image, top, at, head),
                  ("head", head, tuple(shown), colours)),
        kit.Strip(mat_top - headline_end, detail_line, ("detail", layout, detail)),
        kit.Strip(mat_end - mat_top, board, ("board", layout, on_board), lasting=False),
        kit.Strip(grid_bottom + at.px(66) - mat_end, lambda image: frame(image, mat_end),
                  ("under the board", layout)),
        *_table_strips(top, at),
    ]


def _bottom_strips(view: dict[str, Any], at: kit.Layout) -> list[kit.Strip]:
    """Below the table: the fight, the result, and in a seat's own view its hand; or the
    bottom margin."""
    strips = []
    if view.get("attack") is not None:
        strips.append(kit.Strip(None, lambda image: _attack(image, view, at, 0)))
    result = view.get("result")
    if result is not None:
        strips.append(kit.Strip(None, lambda image: kit.result_box(image, view, at, 0),
                                ("result", result["reason"])))
    if view.get("seat") is not None and "hand" in view:
        return strips + _hand(view, at)
    return [*strips, kit.Strip(at.px(36), _blank, ("margin",))]


def _blank(image: Image.Image) -> None:
    """Nothing: a strip of paper."""


def _board(image: Image.Image, view: dict[str, Any], at: kit.Layout, y: int) -> int:
    """The board's tiles, the last action and the cubes, over the mat, home edges and
    coordinates that the board strip pasted from ``_frame``."""
    size = int(view["size"])
    cell = at.body // size
    grid = Grid(size, size, (at.width - cell * size) // 2, y + at.px(66), cell)
    draw_ = ImageDraw.Draw(image)
    last = set(view.get("last") or [])
    inset = at.px(4)
    tile_size = cell - 2 * inset
    cube = round(tile_size * 0.44)
    # A cell the last action did not touch is one cached sprite, tile and cubes together
    # (the arrow stays on the cells it touched); a touched one is drawn in layers.
    corner = (cell // 2 - cube // 2 - inset, cell // 2 - cube // 2 - inset - at.px(3))
    for square in view["board"]:
        x0, y0, _, _ = grid.box(square["square"], inset)
        if square["square"] not in last:
            owner = square["owner"]
            colour = kit.seat_colour(view["colours"][owner]) if owner is not None else None
            kit.put(image, _cell(square["symbol"], square["pips"], colour, square["cubes"],
                                 tile_size, cube, corner, kit.PALETTE_DRAWING), (x0, y0))
        else:
            kit.paste(image, _tile(square["symbol"], square["pips"], tile_size,
                                   square["owner"] is not None, True), (x0, y0))
    _last(draw_, view, grid, at)
    for square in view["board"]:
        if square["square"] in last and square["symbol"] is not None:
            _tile_name(image, square["symbol"], tile_size, grid.box(square["square"], inset)[:2],
                       halo=LIT)
    for square in view["board"]:
        if square["square"] not in last or square["owner"] is None or not square["cubes"]:
            continue
        colour = kit.seat_colour(view["colours"][square["owner"]])
        sprite = _cube(colour, cube, square["cubes"] >= 2)
        cx, cy = grid.centre(square["square"])
        kit.paste(image, sprite, (cx - cube // 2, cy - cube // 2 - (sprite.height - cube)
                                  - at.px(3)))
    return grid.bottom + at.px(66)


def _tile(symbol: str | None, pips: int | None, size: int, occupied: bool, lit: bool
          ) -> Image.Image:
    return _tile_back(size) if symbol is None else _tile_face(symbol, int(pips or 0), size,
                                                              occupied, lit)


@functools.lru_cache(maxsize=256)
def _cell(symbol: str | None, pips: int | None, colour: SeatColour | None, cubes: int,
          size: int, cube: int, corner: tuple[int, int], palette: bool) -> Image.Image:
    """A tile with its cubes, over the mat, as a canvas of the picture's mode (``palette``
    keeps the modes apart): the cube's corner is ``corner`` less its Outpost lift."""
    image = kit.canvas(size, size, SURFACES)
    ImageDraw.Draw(image).rectangle((0, 0, size, size), fill=MAT)
    kit.paste(image, _tile(symbol, pips, size, colour is not None, False), (0, 0))
    if colour is not None and cubes:
        sprite = _cube(colour, cube, cubes >= 2)
        kit.paste(image, sprite, (corner[0], corner[1] - (sprite.height - cube)))
    return image


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


def _table_strips(top: dict[str, Any], at: kit.Layout) -> list[kit.Strip]:
    """One row per seat: points, cubes in supply, cards in hand, cards in deck; a row is a
    strip, drawn once for a move's pictures (its numbers change nearly every move, so it is
    not kept across moves)."""
    shared = len(top["deck_counts"]) != len(top["colours"])
    columns = ["Points", "Supply", "Hand"] + ([] if shared else ["Deck"])
    right = at.width - at.margin
    xs = [right - at.px(x) for x in ((335, 205, 100, 0) if not shared else (240, 110, 0))]

    def heading(image: Image.Image) -> None:
        for name, x in zip(columns, xs, strict=False):
            kit.text(image, (x, at.px(30)), name, at.px(28), MUTED, anchor="rs")

    strips = [kit.Strip(at.px(44), heading, ("columns", shared))]
    result = top.get("result")
    marked = set(result["winners"] if result is not None else top["to_act"])
    for seat in kit.seats(top):
        i = seat.index
        values = [f"{top['points'][i]}/{top['points_to_win']}", str(top["supply"][i]),
                  str(top["hand_counts"][i])]
        if not shared:
            values.append(str(top["deck_counts"][i]))
        mark = None if i not in marked else "crown" if result is not None else "turn"
        strips.append(kit.Strip(at.px(70), functools.partial(
            _seat_row, at=at, seat=seat, values=tuple(values), xs=tuple(xs), mark=mark),
            ("seat", seat.name, seat.colour, tuple(values), tuple(xs), mark), lasting=False))
    if shared and top["deck_counts"]:
        line = f"Shared deck: {top['deck_counts'][0]} cards"
        strips.append(kit.Strip(at.px(12) + at.px(34) + at.px(16), lambda image: kit.text(
            image, (at.margin, at.px(12) + at.px(26)), line, at.px(30), MUTED), ("deck", line)))
    else:
        strips.append(kit.Strip(at.px(16), _blank, ("under the table",)))
    return strips


def _seat_row(image: Image.Image, *, at: kit.Layout, seat: kit.Seat, values: tuple[str, ...],
              xs: tuple[int, ...], mark: str | None) -> None:
    """A seat's row of the table: shaded and marked when it acts (or won), its chip and
    name, and its numbers under the columns."""
    row, chip = image.height, at.px(52)
    middle = row // 2
    if mark is not None:
        kit.put(image, _marked_row(at, row, mark, kit.PALETTE_DRAWING), (0, 0))
    kit.chip(image, (at.margin, middle - chip // 2, at.margin + chip, middle + chip // 2),
             seat.colour, at.px(32))
    name_x = at.margin + chip + at.px(14)
    kit.text(image, (name_x, middle), kit.fit(seat.name, at.px(34), xs[0] - at.px(100)
             - name_x, bold=True), at.px(34), INK, anchor="lm", bold=True)
    for value, x in zip(values, xs, strict=False):
        kit.text(image, (x, middle), value, at.px(34), INK, anchor="rm", bold=True)


@functools.lru_cache(maxsize=8)
def _marked_row(at: kit.Layout, row: int, mark: str, palette: bool) -> Image.Image:
    """The shading and the mark of the row of the seat that acts (or won), drawn once (on
    a canvas of the picture's mode: ``palette``)."""
    image = kit.canvas(at.width, row, SURFACES)
    draw_ = ImageDraw.Draw(image)
    middle, right = row // 2, at.width - at.margin
    draw_.rounded_rectangle((at.margin - at.px(12), at.px(4), right + at.px(12),
                             row - at.px(4)), radius=at.px(12), fill=SHADE)
    if mark == "crown":
        s = at.px(40)
        icon(draw_, "crown", (at.px(10), middle - s // 2, at.px(10) + s, middle + s // 2))
    else:
        kit.triangle(draw_, (at.px(30), middle), at.px(20), 0, INK)
    return image


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


def _hand(view: dict[str, Any], at: kit.Layout) -> list[kit.Strip]:
    """A seat's own hand as cards, and its discard pile (what 'prepare' can take back), as
    strips: the title, the cards, and the rest down to the bottom margin."""
    hand: list[str] = list(view["hand"])
    seat = kit.seats(view)[view["seat"]]
    strips = [kit.Strip(at.px(52) + at.px(22), lambda image: kit.hand_title(image, view, at, 0),
                        ("hand title", seat.name, seat.colour))]
    y = 0  # where the rest's first line is measured from, in the rest's rows
    if hand:
        gap = at.px(20)
        card_w = min(at.px(200), (at.body - gap * (len(hand) - 1)) // len(hand))
        card_h = card_w * 6 // 5

        def cards(image: Image.Image) -> None:
            for n, symbol in enumerate(hand):
                x = at.margin + n * (card_w + gap)
                _playing_card(image, symbol, (x, 0, x + card_w, card_h))

        strips.append(kit.Strip(card_h + 1, cards, ("cards", tuple(hand), card_w)))
        y = -1  # a card's outline takes the row below it
    lines: list[str] = []
    discards: list[str] = list(view["discards"][view["seat"]])
    if discards:
        counts = Counter(discards)
        pile = ", ".join(f"{n} {s}" if n > 1 else s for s, n in sorted(
            counts.items(), key=lambda item: PIPS.get(item[0], 0)))
        lines = kit.wrap(f"Your discard pile: {pile}", at.px(30), at.body)
    first = y + (0 if hand else at.px(40))
    end = first + at.px(44) * len(lines) + at.px(36)

    def rest(image: Image.Image) -> None:
        if not hand:
            kit.text(image, (at.margin, first), "No cards in hand.", at.px(32), MUTED)
        for n, line in enumerate(lines, start=1):
            kit.text(image, (at.margin, first + n * at.px(44)), line, at.px(30), MUTED)

    return [*strips, kit.Strip(end, rest, ("under the hand", bool(hand), tuple(lines)))]


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
