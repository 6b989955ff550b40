"""The picture of a Crystallia view: the board, the pyramid of stones, the platforms.

Top to bottom, as a phone shows it: who acts and what they must do (the kit's header, with
the last action); the 6x9 Board of Opportunity with file letters under it and rank numbers
on its left, and beside it the pyramid, one column per row from the front row (left) to the
face-down back row (right), the stones that may be taken numbered in a dark badge. A colour
printed on the board is flat: a pale diamond edged in its colour, with its letter; a stone
stands raised on a shadow, each crystal solid in its colour with its letter, in a dark frame
(thick for the stone the last action placed or moved); abilities are shapes on lavender
squares. Under the board: the legend of those symbols, the stone in hand and the crystal
supply; one row per seat with its four platforms (supercrystal S and talisman T chips beside
them), its black crystals and its points. A finished game shows the kit's result box (why it
ended, where each seat's points came from, who took each supercrystal) instead of the seats'
rows. ``describe`` says the same as lines of text.

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

MAT: RGB = kit.rgb("#C9C2B2")  # the table under the board (and the lines between squares)
BLANK: RGB = kit.rgb("#F3EEE2")  # the board's paper: a square showing nothing or a colour
BACK: RGB = kit.rgb("#3D4A5C")  # a face-down stone
ABILITY: RGB = kit.rgb("#C4C0EA")  # a square showing an ability
SHADOW: RGB = kit.rgb("#5E5A52")  # under a stone: it stands on the board, raised
MARKS = {  # the chips beside a platform's count, and the column of black crystals
    "K": ("black -1", kit.seat_colour("black").fill),
    "S": ("supercrystal +2", kit.rgb("#F0E442")),
    "T": ("talisman", kit.rgb("#BFBFBF")),
}
# Colours a player tells apart (tests/test_render.py holds each group 20 apart in CIEDE2000,
# for normal vision, protanopia and deuteranopia). Every one also carries a letter or a
# shape: a crystal its letter, a printed square a lettered diamond, an ability its arrows.
TOLD_APART: dict[str, dict[str, RGB]] = {
    "crystals": {c: kit.seat_colour(c).fill
                 for c in ("red", "blue", "green", "purple", "yellow", "black")},
    "squares": {"blank": BLANK, "ability": ABILITY, "face-down stone": BACK},
    "marks": {letter: colour for letter, (_label, colour) in MARKS.items()},
}


def fill(colour: str) -> RGB:
    return kit.seat_colour(colour).fill


@functools.lru_cache(maxsize=8)
def tint(colour: str) -> RGB:
    """The pale inside of a printed square's diamond: four fifths of the way to white."""
    return tuple(round(v + (255 - v) * 4 / 5) for v in fill(colour))  # type: ignore[return-value]


# --------------------------------------------------------------------------- words


def _names(view: dict[str, Any]) -> list[str]:
    return [seat.name for seat in kit.seats(view)]


def _reason(view: dict[str, Any], who: list[str] | None = None) -> str:
    """Why the game ended and who won, with the seats' names (``who``: as drawn)."""
    who, result = who or _names(view), view["result"]
    winners = [who[s] for s in result["winners"]]
    best = view["scores"][result["winners"][0]]
    why = "Every stone has left the pyramid." if result.get("loser") is None else \
        f"{who[result['loser']]} reached 13 crystals of one colour and cannot win."
    verb = "wins" if len(winners) == 1 else "win"
    return f"{why} {kit.listing(winners)} {verb} with {best} point{'s' if best != 1 else ''}."


def status(view: dict[str, Any], who: list[str] | None = None) -> tuple[str, str]:
    """The headline (who acts, doing what) and a line of detail (the last action, the
    second turn, what is left), naming the seats by ``who`` (as drawn by default)."""
    who = who or _names(view)
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
    parts = [f"{NAME}: {head}.", f"Points as the platforms stand now: {scores}."]
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


def describe(view: dict[str, Any]) -> str:
    """The picture as lines a screen reader reads: what happens now, the stone in hand,
    each seat's points and platforms, the supply, the stones on the board, the printed
    squares still open, and the pyramid (the stones that may be taken first)."""
    who = [seat.spoken for seat in kit.seats(view)]
    head, detail = status(view, who)
    lines = [f"{NAME}: {head}." + (f" {detail}" if detail else "")]
    if view.get("result") is not None:
        lines.append(_reason(view, who))
    if view.get("holding"):
        first, second = view["holding"]
        lines.append(f"In hand: a {first}/{second} stone ({first} goes on the first square "
                     "you name).")
    for seat, platforms in enumerate(view["platforms"]):
        counts = ", ".join(f"{p['colour']} {p['crystals']}"
                           + (f" of {FLIPPED_SPACES} (flipped)" if p["flipped"] else "")
                           for p in platforms)
        black = sum(p["black"] for p in platforms)
        extras = [f"{black} black"] if black else []
        extras += [f"{c} supercrystal" for c, s in view["supercrystals"].items() if s == seat]
        extras += [f"{c} talisman" for c, s in view["talismans"].items() if s == seat]
        points = view["scores"][seat]
        lines.append(f"{who[seat]}: {points} point{'s' if points != 1 else ''}; {counts}"
                     + (f"; {', '.join(extras)}" if extras else "") + ".")
    supply = ", ".join(f"{c} {n}" for c, n in view["supply"].items())
    lines.append(f"Supply: {supply}; {_left(view['talismans_left'], 'talisman')}.")
    board = {s["square"]: s for s in view["board"]}
    stones = [f"{name}-{s['partner']} {s['crystal']}/{board[s['partner']]['crystal']}"
              for name, s in board.items()
              if s["partner"] is not None and _order(name) < _order(s["partner"])]
    lines.append("Stones on the board (the first colour on the first square): "
                 f"{'; '.join(stones) or 'none'}.")
    open_squares: dict[str, list[str]] = {}
    for name, s in board.items():
        if s["crystal"] is None and s["shows"]:
            open_squares.setdefault(s["shows"], []).append(name)
    lines.append("Printed squares still open: " + ("; ".join(
        f"{shows} {' '.join(names)}" for shows, names in open_squares.items()) or "none") + ".")
    if view["stones_left"]:
        left = [p for p in view["pyramid"] if not p["taken"]]
        free = [f"{p['number']} {'/'.join(p['stone'])}" for p in left if p["available"]]
        covered = [f"{p['number']} {'/'.join(p['stone'])}" for p in left
                   if not p["available"] and p["stone"]]
        hidden = [str(p["number"]) for p in left if not p["stone"]]
        lines.append(f"Pyramid, {_left(view['stones_left'], 'stone')}: free to take "
                     f"{', '.join(free)}" + (f"; covered {', '.join(covered)}" if covered
                                              else "")
                     + (f"; face down {', '.join(hidden)}" if hidden else "") + ".")
    return "\n".join(lines)


# --------------------------------------------------------------------------- pieces


def _crystal(image: Image.Image, box: Box, colour: str, size: int) -> None:
    """One crystal: its colour filling ``box`` and its letter."""
    paint = kit.seat_colour(colour)
    ImageDraw.Draw(image).rectangle(box, fill=paint.fill)
    kit.text(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), paint.letter, size,
             paint.ink, anchor="mm", bold=True)


def _stone(image: Image.Image, outer: Box, crystals: list[str] | None, across: bool,
           size: int, border: int) -> None:
    """A stone filling ``outer``, raised on a shadow: its two crystals side by side
    (``across``) or the first above the second, each its full colour with its letter, a
    divider and a dark frame; ``None`` is a face-down back."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = outer
    lift = max(2, (min(x1 - x0, y1 - y0) + 8) // 16)
    draw.rectangle((x0 + lift, y0 + lift, x1 + lift, y1 + lift), fill=SHADOW)
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


def _printed(image: Image.Image, box: Box, colour: str, size: int) -> None:
    """A colour printed on the board: a flat diamond, pale inside, edged in the colour's
    full shade, with the colour's letter; nothing like a stone's solid, framed crystal."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    paint = kit.seat_colour(colour)
    ImageDraw.Draw(image).polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                                  fill=tint(colour), outline=paint.fill,
                                  width=max(2, round(r / 6)))
    kit.text(image, (cx, cy), paint.letter, size, INK, anchor="mm", bold=True)


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
        below = [_legend(view, at), kit.result_box(named, at, breakdown(view))]
    else:
        below = [_legend(view, at), _supply(view, at), _platforms(view, at)]
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
    edge, gap, top = at.px(36), at.px(12), at.px(12)  # the coordinates; over the board
    pyramid = view["stones_left"] > 0
    panel = at.px(330) if pyramid else 0
    # At most 74 px: a larger board adds PNG bytes (rows of many segments) for little gain.
    cell = min((room - top - edge - at.px(8)) // ranks, (at.body - panel - edge) // files,
               at.px(74))
    height = top + ranks * cell + edge + at.px(8)
    block = kit.canvas(at.width, height)
    left = at.margin + edge if pyramid else (at.width - files * cell) // 2
    grid = kit.Grid(files, ranks, left, top, cell)
    draw = ImageDraw.Draw(block)
    pad = at.px(8)
    draw.rectangle((grid.left - pad, grid.top - pad, grid.right + pad, grid.bottom + pad),
                   fill=MAT)
    squares = {s["square"]: s for s in view["board"]}
    size = at.px(kit.SMALL)
    for name, square in squares.items():
        shows = square["shows"]
        box = grid.box(name, max(1, at.px(2)))
        x, y = grid.centre(name)
        r = cell * 2 // 5
        if square["crystal"] is not None or shows not in ("move", "rotate", "again"):
            draw.rectangle(box, fill=BLANK)
        if square["crystal"] is None and shows in COLOURS:
            _printed(block, (x - r, y - r, x + r, y + r), shows, size)
        elif square["crystal"] is None and shows:
            draw.rectangle(box, fill=ABILITY)
            r = cell * 7 // 20
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
        a, b = grid.box(name, at.px(7)), grid.box(partner, at.px(7))
        outer = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
        crystals = [square["crystal"], squares[partner]["crystal"]]
        if a[1] != b[1]:  # one above the other: the upper square's crystal first
            crystals.reverse()
        lit = name in last or partner in last
        _stone(block, outer, crystals, a[1] == b[1], size,
               at.px(9) if lit else max(2, at.px(4)))
    _coordinates(block, grid, size, gap)
    if pyramid:
        _pyramid(block, view, at, (grid.right + at.px(40), 0, at.width - at.margin, height))
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


def _legend(view: dict[str, Any], at: Layout) -> Image.Image:
    """What the picture's symbols mean, flowing into rows: a printed square against a
    stone, the three abilities, then (while the seats' rows show) the black crystals'
    column, the supercrystal and the talisman chips."""
    size, icon, gap = at.px(kit.SMALL), at.px(44), at.px(22)

    def wide(kind: str) -> int:  # the sample stone has two crystals
        return at.px(80) if kind == "stone" else icon

    items: list[tuple[str, str]] = [("printed", "printed square"), ("stone", "stone"),
                                    ("move", "move"), ("rotate", "rotate"),
                                    ("again", "again")]
    if view.get("result") is None:
        left = view["talismans_left"]
        items += [(m, f"talisman, {left} left" if m == "T" else MARKS[m][0]) for m in MARKS]
    rows: list[list[tuple[str, str, int]]] = [[]]
    x = at.margin
    for kind, label in items:
        width = wide(kind) + at.px(10) + kit.text_width(label, size)
        if rows[-1] and x + width > at.width - at.margin:
            rows.append([])
            x = at.margin
        rows[-1].append((kind, label, x))
        x += width + gap
    step = icon + at.px(14)
    block = kit.canvas(at.width, at.px(16) + len(rows) * step)
    draw = ImageDraw.Draw(block)
    for r, row in enumerate(rows):
        y = at.px(8) + r * step
        for kind, label, x in row:
            box = (x, y, x + icon, y + icon)
            if kind == "printed":
                draw.rectangle(box, fill=BLANK)
                _printed(block, box, "red", size)
            elif kind == "stone":
                _stone(block, (x, y, x + wide(kind) - at.px(4), y + icon - at.px(4)),
                       ["red", "blue"], True, size, max(2, at.px(4)))
            elif kind in MARKS:
                kit.chip(block, box, _mark(kind), size)
            else:
                draw.rectangle(box, fill=ABILITY)
                _ability(block, (x + 2, y + 2, x + icon - 2, y + icon - 2), kind)
            kit.text(block, (x + wide(kind) + at.px(10), y + icon // 2), label, size, INK,
                     anchor="lm")
    return block


def _mark(letter: str) -> kit.SeatColour:
    label, colour = MARKS[letter]
    return kit.SeatColour(label, colour, letter, kit.ink_for(colour))


def _marks(view: dict[str, Any], seat: int, colour: str) -> list[str]:
    """The chips beside a platform's count: its supercrystal, its talisman."""
    return (["S"] if view["supercrystals"].get(colour) == seat else []) \
        + (["T"] if view["talismans"].get(colour) == seat else [])


def _columns(at: Layout) -> list[int]:
    """Where the columns of the seats' rows start: the red, blue, green and purple
    platforms, then the black crystals."""
    return [at.px(400) + k * at.px(100) for k in range(len(COLOURS) + 1)]


def _supply(view: dict[str, Any], at: Layout) -> Image.Image:
    """The stone in hand (first crystal left), then the crystal supply as the heading of the
    platforms' columns under it, the black crystals' chip, and 'points' over the points."""
    height = at.px(64)
    block = kit.canvas(at.width, height)
    size, chip = at.px(kit.TEXT), at.px(44)
    middle = height // 2
    if view.get("holding"):
        box = kit.text(block, (at.margin, middle), "In hand", size, INK, anchor="lm",
                       bold=True)
        x = box[2] + at.px(12)
        _stone(block, (x, middle - at.px(24), x + at.px(96), middle + at.px(24)),
               view["holding"], True, at.px(kit.SMALL), max(2, at.px(5)))
    columns = _columns(at)
    kit.text(block, (columns[0] - at.px(12), middle), "Supply", size, INK, anchor="rm")
    for colour, x in zip(COLOURS, columns[:-1], strict=True):
        kit.chip(block, (x, middle - chip // 2, x + chip, middle + chip // 2),
                 kit.seat_colour(colour), at.px(kit.SMALL))
        kit.text(block, (x + chip + at.px(6), middle), str(view["supply"][colour]), size,
                 INK, anchor="lm")
    x = columns[-1]  # black crystals: no supply to count, they never run out
    kit.chip(block, (x, middle - chip // 2, x + chip, middle + chip // 2), _mark("K"),
             at.px(kit.SMALL))
    kit.text(block, (at.width - at.margin, middle), "points", size, INK, anchor="rm")
    return block


def _platforms(view: dict[str, Any], at: Layout) -> Image.Image:
    """The kit's seat rows with, in each, the crystals on the seat's four platforms under
    the supply's colour chips ('3/5' on a flipped platform) with a chip for the
    supercrystal and the talisman it holds, its black crystals, and its points."""
    block = kit.seat_rows(view, at, [""] * view["players"])
    row = (block.height - at.px(12)) // view["players"]
    size, small = at.px(kit.TEXT), at.px(kit.SMALL)
    columns = _columns(at)
    for seat, platforms in enumerate(view["platforms"]):
        middle = at.px(6) + seat * row + row // 2 - at.px(2)
        for platform, x in zip(platforms, columns[:-1], strict=True):
            count = str(platform["crystals"])
            if platform["flipped"]:
                count += f"/{FLIPPED_SPACES}"
            kit.text(block, (x + at.px(50), middle), count, size, INK, anchor="rm", bold=True)
            marks = _marks(view, seat, platform["colour"])
            side = at.px(32) if len(marks) < 2 else at.px(28)  # two: one above the other
            for k, mark in enumerate(marks):
                top = middle - side // 2 if len(marks) < 2 else middle - side + k * side
                kit.chip(block, (x + at.px(56), top, x + at.px(56) + side, top + side),
                         _mark(mark), small)
        black = sum(p["black"] for p in platforms)
        if black:
            kit.text(block, (columns[-1] + at.px(22), middle), str(black), size, INK,
                     anchor="mm", bold=True)
        kit.text(block, (at.width - at.margin, middle), str(view["scores"][seat]), size, INK,
                 anchor="rm", bold=True)
    return block
