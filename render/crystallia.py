"""The picture of a Crystallia view: the board, the pyramid of stones, the platforms.

Top to bottom, as a phone shows it: who acts and what they must do (the kit's header, with
the last action); the 6x9 Board of Opportunity with coordinates on every edge (square
colours as tinted squares with a lettered gem, abilities as words, stones as dominoes with a
letter on each crystal, the last action framed) and beside it the pyramid, one column per
row from the front row (left) to the face-down back row (right), every stone numbered (the
ones that may be taken in a dark badge); the stone in hand and the crystal supply; one row
per seat with its four platforms and its points. A finished game shows the kit's result box
(why it ended, where each seat's points came from, who took each supercrystal) instead of the
seats' rows.

Nothing in Crystallia is private (the face-down stones are hidden from everyone and drawn as
backs), so ``hand`` is always None and a seat sees the spectator's picture.
"""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, Box, Layout

NAME = "Crystallia"
COLOURS = ("red", "blue", "green", "purple")  # the scoring colours, one platform each
LETTER = {"red": "R", "blue": "B", "green": "G", "purple": "P", "yellow": "Y", "black": "K"}
RING, FLIPPED_SPACES = 9, 5  # a regular platform pays up to 9; a flipped one holds 5

MAT: RGB = kit.rgb("#C9C2B2")  # the table under the board
BLANK: RGB = kit.rgb("#F3EEE2")  # a square showing nothing
BACK: RGB = kit.rgb("#3D4A5C")  # a face-down stone
ABILITY: RGB = kit.rgb("#DCD6F0")  # a square showing an ability
MARKS = {  # what the small chips beside a platform's count mean
    "K": ("black -1", kit.seat_colour("black").fill),
    "S": ("supercrystal +2", kit.rgb("#F0E442")),
    "T": ("talisman", kit.rgb("#BFBFBF")),
}


def fill(colour: str) -> RGB:
    return kit.seat_colour(colour).fill


@functools.lru_cache(maxsize=8)
def tint(colour: str) -> RGB:
    """The pale square of a colour on the board: five sevenths of the way to white."""
    return tuple(round(v + (255 - v) * 5 / 7) for v in fill(colour))  # type: ignore[return-value]


# --------------------------------------------------------------------------- words


def _names(view: dict[str, Any]) -> list[str]:
    return [seat.name for seat in kit.seats(view)]


def _reason(view: dict[str, Any]) -> str:
    """Why the game ended and who won, with the seats' names."""
    who, result = _names(view), view["result"]
    winners = [who[s] for s in result["winners"]]
    best = view["scores"][result["winners"][0]]
    why = "Every stone has left the pyramid." if result.get("loser") is None else \
        f"{who[result['loser']]} reached 13 crystals of one colour and cannot win."
    verb = "wins" if len(winners) == 1 else "win"
    return f"{why} {kit.listing(winners)} {verb} with {best} point{'s' if best != 1 else ''}."


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who acts, doing what) and a line of detail (the last action, the
    second turn, what is left)."""
    who = _names(view)
    action = view.get("last_action")
    last = f"Last: {who[action['seat']]} {action['text']}." if action else ""
    if view.get("result") is not None:
        winners = [who[s] for s in view["result"]["winners"]]
        return f"Game over: {kit.listing(winners)} {'wins' if len(winners) == 1 else 'win'}", \
            last
    seat, phase = view["turn"], view["phase"]
    if phase == "flip":
        return f"{who[seat]}: flip platforms or ready", "Advanced: a flipped platform holds " \
            "5 crystals, 2 points each; a 6th empties it."
    if phase == "take":
        what = "take a stone" + (" or a talisman" if view.get("talisman_allowed") else "")
    elif phase == "place":
        what = "place the stone"
    elif phase == "ability":
        pending = view["pending"][0]
        what = f"{pending['ability']} a stone ({pending['square']}) or skip"
    else:
        what = "choose a colour to gain"
    second = "Second turn in a row. " if view["streak"] == 2 else ""
    return f"{who[seat]}: {what}", second + last


def summary(view: dict[str, Any]) -> str:
    """One line for screen readers and notifications: whose turn, the points, the last
    action (a seat holds nothing private in Crystallia, so every viewer reads the same)."""
    head, _detail = status(view)
    who = _names(view)
    if view["streak"] == 2 and view.get("result") is None:
        head += " (second turn in a row)"
    scores = ", ".join(f"{who[s]} {p}" for s, p in enumerate(view["scores"]))
    parts = [f"{NAME}: {head}.", f"Points: {scores}."]
    if view.get("holding"):
        parts.append(f"In hand: {'/'.join(view['holding'])}.")
    action = view.get("last_action")
    if view.get("result") is not None:
        parts.append(_reason(view))
    else:
        if action:
            parts.append(f"Last: {who[action['seat']]} {action['text']}.")
        parts.append(f"{_left(view['stones_left'], 'stone')} in the pyramid, "
                     f"{_left(view['talismans_left'], 'talisman')}.")
    return " ".join(parts)


def _left(count: int, thing: str) -> str:
    return f"{count} {thing}{'s' if count != 1 else ''} left"


def breakdown(view: dict[str, Any]) -> list[str]:
    """Where each seat's points came from, then who took each supercrystal."""
    who = _names(view)
    lines = []
    for seat, platforms in enumerate(view["platforms"]):
        terms: list[tuple[int, str]] = []  # (points, where from)
        for p in platforms:
            if p["crystals"]:
                note = f" ({p['crystals']} x2)" if p["flipped"] else \
                    f" ({p['crystals']} crystals)" if p["crystals"] > RING else ""
                terms.append((p["points"], f"{abs(p['points'])} {p['colour']}{note}"))
        black = sum(p["black"] for p in platforms)
        if black:
            terms.append((-black, f"{black} black"))
        terms += [(2, f"2 {colour} supercrystal")
                  for colour, owner in view["supercrystals"].items() if owner == seat]
        total = view["scores"][seat]
        sums = " ".join(f"{'-' if v < 0 else '+'} {term}" for v, term in terms)
        sums = sums.removeprefix("+ ")
        lines.append(f"{who[seat]}: {total} point{'s' if total != 1 else ''}"
                     + (f" = {sums}" if sums else ""))
    taken = [f"{c} {who[s]}" for c, s in view["supercrystals"].items()]
    untaken = [c for c in COLOURS if c not in view["supercrystals"]]
    supers = "Supercrystals: " + ", ".join(taken) if taken else "Supercrystals: none taken"
    if taken and untaken:
        supers += f" ({kit.listing(untaken)} untaken)"
    return [*lines, supers + "."]


# --------------------------------------------------------------------------- pieces


def _crystal(image: Image.Image, box: Box, colour: str, size: int) -> None:
    """One crystal: its colour filling ``box`` and its letter."""
    paint = kit.seat_colour(colour)
    ImageDraw.Draw(image).rectangle(box, fill=paint.fill)
    kit.text(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), paint.letter, size,
             paint.ink, anchor="mm", bold=True)


def _stone(image: Image.Image, outer: Box, crystals: list[str] | None, across: bool,
           size: int, border: int) -> None:
    """A stone filling ``outer``: its two crystals side by side (``across``) or the first
    above the second, a divider and a dark frame; ``None`` is a face-down back."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = outer
    if crystals is None:  # colourless: nothing to letter
        draw.rectangle(outer, fill=BACK)
    elif across:
        mid = (x0 + x1) // 2
        _crystal(image, (x0, y0, mid, y1), crystals[0], size)
        _crystal(image, (mid, y0, x1, y1), crystals[1], size)
        draw.line((mid, y0, mid, y1), fill=INK, width=max(1, border // 2))
    else:
        mid = (y0 + y1) // 2
        _crystal(image, (x0, y0, x1, mid), crystals[0], size)
        _crystal(image, (x0, mid, x1, y1), crystals[1], size)
        draw.line((x0, mid, x1, mid), fill=INK, width=max(1, border // 2))
    draw.rectangle(outer, outline=INK, width=border)


def _order(square: str) -> tuple[int, int]:
    file, rank = kit.square_index(square)
    return rank, file


def _ability(image: Image.Image, box: Box, kind: str, ink: RGB = INK) -> None:
    """An ability as a shape: move a four-way arrow, rotate a curved arrow, again two
    forward triangles (shapes, not words: 18 words on a 4-player board made the PNG heavy)."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = (x1 - x0) / 2
    width = max(2, round(r / 6))
    if kind == "move":
        draw.line((cx - r * 0.6, cy, cx + r * 0.6, cy), fill=ink, width=width)
        draw.line((cx, cy - r * 0.6, cx, cy + r * 0.6), fill=ink, width=width)
        for angle in (0, 90, 180, 270):
            tip = (cx + r * 0.62 * _cos(angle), cy + r * 0.62 * _sin(angle))
            kit.triangle(draw, tip, r * 0.36, angle, ink)
    elif kind == "rotate":
        inner = r * 0.62
        draw.arc((cx - inner, cy - inner, cx + inner, cy + inner), 200, 110, fill=ink,
                 width=width)
        kit.triangle(draw, (cx - inner * 0.34, cy + inner * 0.94), r * 0.36, 180, ink)
    else:
        for dx in (-0.3, 0.3):
            kit.triangle(draw, (cx + r * dx, cy), r * 0.42, 0, ink)


def _cos(angle: int) -> int:
    return {0: 1, 90: 0, 180: -1, 270: 0}[angle]


def _sin(angle: int) -> int:
    return {0: 0, 90: 1, 180: 0, 270: -1}[angle]


def table(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """What everyone sees: the header, the board with the pyramid, the keys, the supply over
    the seats' platforms (or, once the game is over, the result in full)."""
    at = Layout(width)
    head, detail = status(view)
    top = kit.header(view, at, head, detail)
    if view.get("result") is not None:
        named = {**view, "result": {**view["result"], "reason": _reason(view)}}
        below = [kit.result_box(named, at, breakdown(view))]
    else:
        below = [*_marks_legend(view, at), _supply(view, at), _platforms(view, at)]
    room = at.tallest - top.height - sum(b.height for b in below)
    return kit.stack([top, _board(view, at, room), *below])


def hand(view: dict[str, Any], *, width: int = 1000) -> Image.Image | None:
    """Nothing: a Crystallia seat holds nothing private (the stone in hand is public)."""
    return None


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The whole picture of ``view``, ``width`` pixels wide."""
    return kit.stack([table(view, width=width), hand(view, width=width)])


def _board(view: dict[str, Any], at: Layout, room: int) -> Image.Image:
    """The board (as large as ``room`` pixels of height allow) and the pyramid beside it."""
    files, ranks = view["files"], view["ranks"]
    band, edge, gap = at.px(56), at.px(36), at.px(12)  # the key; the coordinates
    pyramid = view["stones_left"] > 0
    panel = at.px(330) if pyramid else 0
    # At most 74 px: a larger board adds PNG bytes (rows of many segments) for little gain.
    cell = min((room - band - edge - at.px(8)) // ranks, (at.body - panel - edge) // files,
               at.px(74))
    height = band + ranks * cell + edge + at.px(8)
    block = kit.canvas(at.width, height)
    left = at.margin + edge if pyramid else (at.width - files * cell) // 2
    grid = kit.Grid(files, ranks, left, band + at.px(8), cell)
    draw = ImageDraw.Draw(block)
    pad = at.px(8)
    draw.rectangle((grid.left - pad, grid.top - pad, grid.right + pad, grid.bottom + pad),
                   fill=MAT)
    _key(block, at, at.margin if pyramid else grid.left - edge, band // 2)
    squares = {s["square"]: s for s in view["board"]}
    for name, square in squares.items():
        shows = square["shows"]
        box = grid.box(name, max(1, at.px(2)))
        x, y = grid.centre(name)
        r = cell * 7 // 20
        if square["crystal"] is not None or not shows:  # under a stone, or blank
            draw.rectangle(box, fill=BLANK)
        elif shows in COLOURS:
            draw.rectangle(box, fill=tint(shows))
            kit.chip(block, (x - r, y - r, x + r, y + r), kit.seat_colour(shows),
                     at.px(kit.SMALL))
        else:
            draw.rectangle(box, fill=ABILITY)
            _ability(block, (x - r - 2, y - r - 2, x + r + 2, y + r + 2), shows)
    line = max(2, at.px(4))
    for k in range(1, ranks // 3):  # the edges of the 3x3 tiles
        draw.line((grid.left, grid.top + 3 * k * cell, grid.right, grid.top + 3 * k * cell),
                  fill=MUTED, width=line)
    for k in range(1, files // 3):
        draw.line((grid.left + 3 * k * cell, grid.top, grid.left + 3 * k * cell, grid.bottom),
                  fill=MUTED, width=line)
    last = set(view.get("last") or [])
    for name in last:  # squares a stone has just left: a dark ring
        if squares[name]["partner"] is None:
            draw.rectangle(grid.box(name, at.px(6)), outline=INK, width=line)
    for name, square in squares.items():
        partner = square["partner"]
        if partner is None or _order(partner) < _order(name):
            continue
        a, b = grid.box(name, at.px(6)), grid.box(partner, at.px(6))
        outer = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
        crystals = [square["crystal"], squares[partner]["crystal"]]
        if a[1] != b[1]:  # one above the other: the upper square's crystal first
            crystals.reverse()
        lit = name in last or partner in last
        _stone(block, outer, crystals, a[1] == b[1], at.px(kit.SMALL),
               at.px(9) if lit else max(2, at.px(3)))
    _coordinates(block, grid, at.px(kit.SMALL), gap)
    if pyramid:
        _pyramid(block, view, at, (grid.right + at.px(40), at.px(12), at.width - at.margin,
                                   height))
    return block


def _coordinates(image: Image.Image, grid: kit.Grid, size: int, gap: int) -> None:
    """File letters under the board and rank numbers on its left, as on a chess board (the
    kit's four edges cost 10 KB of PNG here: 30 labels among some 150 texts)."""
    for f in range(grid.files):
        kit.text(image, (grid.left + f * grid.cell + grid.cell // 2, grid.bottom + gap),
                 chr(ord("a") + f), size, INK, anchor="mt", bold=True)
    for r in range(grid.ranks):
        kit.text(image, (grid.left - gap, grid.top + (grid.ranks - 1 - r) * grid.cell
                         + grid.cell // 2), str(r + 1), size, INK, anchor="rm", bold=True)


def _pyramid(block: Image.Image, view: dict[str, Any], at: Layout, box: Box) -> None:
    """The pyramid in ``box``: a column per row, front row left, each stone upright; the
    stones that may be taken have their number in a dark badge beside them."""
    x0, y0, x1, y1 = box
    kit.text(block, (x0, y0 + at.px(4)), f"Pyramid: {_left(view['stones_left'], 'stone')}",
             at.px(kit.SMALL), INK, bold=True)
    top = y0 + at.px(44)
    rows = max(p["row"] for p in view["pyramid"]) + 1
    steps = max(p["x"] for p in view["pyramid"]) + 2  # half-stone steps from top to bottom
    step = (y1 - at.px(8) - top) / steps
    column = (x1 - x0) // rows
    label = at.px(50)
    stone_w = min(column - label - at.px(10), at.px(62))
    draw = ImageDraw.Draw(block)
    size = at.px(kit.SMALL)
    for p in view["pyramid"]:
        x = x0 + p["row"] * column + label
        y = round(top + p["x"] * step)
        outer = (x, y, x + stone_w, round(y + 2 * step) - at.px(6))
        if p["taken"]:
            continue
        _stone(block, outer, p["stone"], False, size,
               max(2, at.px(5)) if p["available"] else max(1, at.px(2)))
        if p["available"]:
            number, middle = str(p["number"]), (outer[1] + outer[3]) / 2
            w = kit.text_width(number, size, bold=True) + at.px(12)
            badge = (x - at.px(6) - w, middle - at.px(19), x - at.px(6), middle + at.px(19))
            draw.rounded_rectangle(badge, radius=at.px(8), fill=INK)
            kit.text(block, ((badge[0] + badge[2]) / 2, middle), number, size, PAPER,
                     anchor="mm", bold=True)


def _key(block: Image.Image, at: Layout, x: int, middle: int) -> None:
    """What the ability shapes on the board mean, in a line from ``x``."""
    size, icon = at.px(kit.SMALL), at.px(40)
    for kind, label in (("move", "move"), ("rotate", "rotate"), ("again", "again")):
        ImageDraw.Draw(block).rectangle((x, middle - icon // 2, x + icon, middle + icon // 2),
                                        fill=ABILITY)
        _ability(block, (x + 2, middle - icon // 2 + 2, x + icon - 2, middle + icon // 2 - 2),
                 kind)
        box = kit.text(block, (x + icon + at.px(10), middle), label, size, INK, anchor="lm")
        x = box[2] + at.px(24)


def _marks(view: dict[str, Any], seat: int, colour: str, platform: dict[str, Any]
           ) -> list[str]:
    """The small chips beside a platform's count: black crystals, supercrystal, talisman."""
    return ["K"] * min(platform["black"], 2) \
        + (["S"] if view["supercrystals"].get(colour) == seat else []) \
        + (["T"] if view["talismans"].get(colour) == seat else [])


def _mark(letter: str) -> kit.SeatColour:
    label, colour = MARKS[letter]
    return kit.SeatColour(label, colour, letter, kit.ink_for(colour))


def _marks_legend(view: dict[str, Any], at: Layout) -> list[Image.Image]:
    """What the small chips beside the platforms mean, when any is drawn (with the
    talismans left, once one has been used)."""
    shown = {m for seat, platforms in enumerate(view["platforms"]) for p in platforms
             for m in _marks(view, seat, p["colour"], p)}
    if not shown:
        return []
    talismans = f"talisman, {view['talismans_left']} left"
    return [kit.legend(at, [(_mark(m), talismans if m == "T" else MARKS[m][0])
                            for m in MARKS if m in shown])]


def _columns(at: Layout) -> list[int]:
    """Where the platforms' columns start: red, blue, green, purple."""
    return [at.px(430) + k * at.px(110) for k in range(len(COLOURS))]


def _supply(view: dict[str, Any], at: Layout) -> Image.Image:
    """The stone in hand (first crystal left), then the crystal supply as the heading of the
    platforms' columns under it, and 'points' over the points."""
    height = at.px(64)
    block = kit.canvas(at.width, height)
    size, chip = at.px(kit.TEXT), at.px(44)
    middle = height // 2
    if view.get("holding"):
        box = kit.text(block, (at.margin, middle), "In hand", size, INK, anchor="lm",
                       bold=True)
        x = box[2] + at.px(12)
        _stone(block, (x, middle - at.px(26), x + at.px(100), middle + at.px(26)),
               view["holding"], True, size, max(2, at.px(5)))
    columns = _columns(at)
    kit.text(block, (columns[0] - at.px(12), middle), "Supply", size, INK, anchor="rm")
    for colour, x in zip(COLOURS, columns, strict=True):
        kit.chip(block, (x, middle - chip // 2, x + chip, middle + chip // 2),
                 kit.seat_colour(colour), at.px(kit.SMALL))
        kit.text(block, (x + chip + at.px(6), middle), str(view["supply"][colour]), size,
                 INK, anchor="lm")
    kit.text(block, (at.width - at.margin, middle), "points", size, INK, anchor="rm")
    return block


def _platforms(view: dict[str, Any], at: Layout) -> Image.Image:
    """The kit's seat rows with, in each, the crystals on the seat's four platforms under
    the supply's colour chips ('3/5' on a flipped platform), their marks, and the points."""
    block = kit.seat_rows(view, at, [""] * view["players"])
    row = (block.height - at.px(12)) // view["players"]
    size, small = at.px(kit.TEXT), at.px(30)
    for seat, platforms in enumerate(view["platforms"]):
        middle = at.px(6) + seat * row + row // 2 - at.px(2)
        for platform, x in zip(platforms, _columns(at), strict=True):
            count = str(platform["crystals"])
            if platform["flipped"]:
                count += f"/{FLIPPED_SPACES}"
            box = kit.text(block, (x + at.px(22), middle), count, size, INK, anchor="mm",
                           bold=True)
            mx = max(box[2], x + at.px(44)) + at.px(4)
            for mark in _marks(view, seat, platform["colour"], platform):
                if mx + small > x + at.px(108):
                    break
                kit.chip(block, (mx, middle - small // 2, mx + small, middle + small // 2),
                         _mark(mark), at.px(24))
                mx += small + at.px(2)
        kit.text(block, (at.width - at.margin, middle), str(view["scores"][seat]), size, INK,
                 anchor="rm", bold=True)
    return block
