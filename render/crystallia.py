"""The picture of a Crystallia view: the board, the pyramid of stones, the platforms.

Top to bottom, as a phone shows it: who acts and what they must do (with the stone they
hold), the 6x9 Board of Opportunity with coordinates on every edge (square colours as
tinted squares with a lettered gem, abilities as words, stones as dominoes with a letter on
each crystal, the last action outlined), the pyramid with every stone's number (available
ones in a dark badge, face-down ones as backs), and one row of platforms per player.

Everything drawn comes from the view: face-down stones show only their backs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, SHADE, Box, Grid

NAME = "Crystallia"
COLOURS = ("red", "blue", "green", "purple")
LETTER = {"red": "R", "blue": "B", "green": "G", "purple": "P", "yellow": "Y", "black": "K"}
ABILITY_WORD = {"move": "move", "rotate": "rotate", "again": "again"}


def _blend(colour: RGB, target: RGB, step: int) -> RGB:
    """The kit palette's ramp: ``step``/7 of the way from ``colour`` to ``target``."""
    f = step / 7
    return (round(colour[0] + (target[0] - colour[0]) * f),
            round(colour[1] + (target[1] - colour[1]) * f),
            round(colour[2] + (target[2] - colour[2]) * f))


def fill(name: str) -> RGB:
    return kit.seat_colour(name).fill


def tint(name: str) -> RGB:
    """The pale square of a colour on the board."""
    return _blend(fill(name), PAPER, 5)


MAT: RGB = kit.rgb("#C9C2B2")  # the table under the board
BLANK: RGB = kit.rgb("#F3EEE2")  # a square showing nothing
BACK: RGB = kit.rgb("#3D4A5C")  # a face-down stone
ABILITY: RGB = kit.rgb("#DCD6F0")  # a square showing an ability
SURFACES = (MAT, BLANK, BACK, ABILITY, *(tint(c) for c in COLOURS))


@dataclass(frozen=True)
class Scale:
    width: int

    def px(self, n: float) -> int:
        return round(n * self.width / 1000)


def names(view: dict[str, Any]) -> list[str]:
    """Each seat's name: the display name the bot gave, else 'Player N'."""
    given = view.get("names") or []
    out = []
    for s in range(view["players"]):
        name = kit.clean(str(given[s])) if s < len(given) and given[s] else ""
        out.append(name if name.strip("? ") else f"Player {s + 1}")
    return out


# --------------------------------------------------------------------------- words


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who acts, doing what) and a line of detail."""
    who = names(view)
    if view.get("result") is not None:
        winners = [who[s] for s in view["result"]["winners"]]
        verb = "wins" if len(winners) == 1 else "win"
        reason = str(view["result"]["reason"]).split(". ")[0].rstrip(".") + "."
        return f"Game over: {kit.listing(winners)} {verb}", reason
    seat = view["turn"]
    phase = view["phase"]
    second = "Second turn in a row. " if view["streak"] == 2 else ""
    if phase == "flip":
        return f"{who[seat]}: flip platforms or ready", "Advanced mode: a flipped " \
            "platform holds 5, 2 points each; a 6th crystal empties it."
    if phase == "take":
        what = "take a stone"
        if view.get("talisman_allowed"):
            what += " or a talisman"
    elif phase == "place":
        what = "place the stone"
    elif phase == "ability":
        pending = view["pending"][0]
        what = f"{pending['ability']} a stone ({pending['square']}) or skip"
    else:
        what = "choose a colour to gain"
    stones, talismans = view["stones_left"], view["talismans_left"]
    detail = f"{second}{stones} stone{'s' if stones != 1 else ''} left in the pyramid; " \
             f"{talismans} talisman{'s' if talismans != 1 else ''} left."
    return f"{who[seat]}: {what}", detail


def summary(view: dict[str, Any]) -> str:
    """One line for screen readers and notifications."""
    head, _detail = status(view)
    who = names(view)
    if view["streak"] == 2 and view.get("result") is None:
        head += " (second turn in a row)"
    scores = ", ".join(f"{who[s]} {p}" for s, p in enumerate(view["scores"]))
    parts = [f"{NAME}: {head}.", f"Points: {scores}."]
    action = view.get("last_action")
    if action and view.get("result") is None:
        parts.append(f"Last: {who[action['seat']]} {action['text']}.")
    return " ".join(parts)


# --------------------------------------------------------------------------- pieces


def _crystal(image: Image.Image, box: Box, colour: str, size: int) -> None:
    """One crystal on a stone: its colour filling ``box`` and its letter."""
    draw = ImageDraw.Draw(image)
    draw.rectangle(box, fill=fill(colour))
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    kit.text(image, centre, LETTER[colour], size, kit.ink_for(fill(colour)), anchor="mm",
             bold=True)


def _stone(image: Image.Image, boxes: tuple[Box, Box], crystals: list[str], size: int,
           border: int) -> None:
    """A stone across two cells: each crystal, a divider, and a dark frame."""
    a, b = boxes
    if a[1] == b[1]:  # side by side: the halves meet in the middle
        mid = (min(a[2], b[2]) + max(a[0], b[0])) // 2
        a, b = ((a[0], a[1], mid, a[3]), (mid, b[1], b[2], b[3])) if a[0] < b[0] else \
            ((mid, a[1], a[2], a[3]), (b[0], b[1], mid, b[3]))
    else:
        mid = (min(a[3], b[3]) + max(a[1], b[1])) // 2
        a, b = ((a[0], a[1], a[2], mid), (b[0], mid, b[2], b[3])) if a[1] < b[1] else \
            ((a[0], mid, a[2], a[3]), (b[0], b[1], b[2], mid))
    boxes = (a, b)
    for box, colour in zip(boxes, crystals, strict=True):
        _crystal(image, box, colour, size)
    outer = (min(boxes[0][0], boxes[1][0]), min(boxes[0][1], boxes[1][1]),
             max(boxes[0][2], boxes[1][2]), max(boxes[0][3], boxes[1][3]))
    draw = ImageDraw.Draw(image)
    if a[1] == b[1]:
        x = max(a[0], b[0])
        draw.line((x, outer[1], x, outer[3]), fill=INK, width=2)
    else:
        y = max(a[1], b[1])
        draw.line((outer[0], y, outer[2], y), fill=INK, width=2)
    draw.rectangle(outer, outline=INK, width=border)


def _gem(image: Image.Image, centre: tuple[int, int], radius: int, colour: str, size: int
         ) -> None:
    """A square's colour as a lettered diamond."""
    draw = ImageDraw.Draw(image)
    x, y = centre
    draw.polygon([(x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y)],
                 fill=fill(colour), outline=INK)
    kit.text(image, centre, LETTER[colour], size, kit.ink_for(fill(colour)), anchor="mm",
             bold=True)


# --------------------------------------------------------------------------- drawing


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The whole picture of ``view``, ``width`` pixels wide."""
    at = Scale(width)
    image = kit.canvas(width, at.px(2600), SURFACES)
    y = _header(image, view, at)
    y = _board(image, view, at, y)
    if view["stones_left"]:
        y = _pyramid(image, view, at, y)
    y = _platforms(image, view, at, y)
    return image.crop((0, 0, width, y + at.px(24)))


def _header(image: Image.Image, view: dict[str, Any], at: Scale) -> int:
    head, detail = status(view)
    body = at.width - 2 * at.px(30)
    kit.text(image, (at.px(30), at.px(60)), kit.fit(head, at.px(40), body, bold=True),
             at.px(40), INK, bold=True)
    lines = kit.wrap(kit.clean(detail), at.px(30), body)[:2]
    y = at.px(104)
    for line in lines:
        kit.text(image, (at.px(30), y), line, at.px(30), MUTED)
        y += at.px(38)
    return y


def _board(image: Image.Image, view: dict[str, Any], at: Scale, top: int) -> int:
    cell = at.px(98)
    grid = Grid(view["files"], view["ranks"], at.px(62), top + at.px(52), cell)
    draw = ImageDraw.Draw(image)
    pad = at.px(10)
    draw.rectangle((grid.left - pad, grid.top - pad, grid.right + pad, grid.bottom + pad),
                   fill=MAT)
    squares = {s["square"]: s for s in view["board"]}
    for name, square in squares.items():
        box = grid.box(name, at.px(3))
        shows = square["shows"]
        if shows in COLOURS:
            draw.rectangle(box, fill=tint(shows))
            _gem(image, grid.centre(name), at.px(26), shows, at.px(28))
        elif shows:
            draw.rectangle(box, fill=ABILITY)
            kit.text(image, grid.centre(name), ABILITY_WORD[shows], at.px(28), INK,
                     anchor="mm", bold=True)
        else:
            draw.rectangle(box, fill=BLANK)
    # tile edges every 3 squares
    for k in range(1, view["ranks"] // 3):
        y = grid.top + 3 * k * cell
        draw.line((grid.left, y, grid.right, y), fill=MUTED, width=at.px(4))
    for k in range(1, view["files"] // 3):
        x = grid.left + 3 * k * cell
        draw.line((x, grid.top, x, grid.bottom), fill=MUTED, width=at.px(4))
    last = set(view.get("last") or [])
    for name, square in squares.items():
        partner = square["partner"]
        if partner is None or _index(partner) < _index(name):
            continue
        crystals = [square["crystal"], squares[partner]["crystal"]]
        lit = name in last or partner in last
        _stone(image, (grid.box(name, at.px(8)), grid.box(partner, at.px(8))), crystals,
               at.px(40), at.px(9) if lit else at.px(3))
    grid.coordinates(image, at.px(30), at.px(18))
    _side(image, view, at, grid.right + at.px(70), grid.top)
    return grid.bottom + at.px(60)


def _index(square: str) -> int:
    file, rank = kit.square_index(square)
    return rank * 100 + file


def _side(image: Image.Image, view: dict[str, Any], at: Scale, left: int, top: int) -> None:
    """Beside the board: the stone in hand, the crystal supply, the talismans."""
    y = top + at.px(10)
    right = at.width - at.px(20)
    if view.get("holding"):
        kit.text(image, (left, y + at.px(30)), "In hand:", at.px(30), INK, bold=True)
        y += at.px(46)
        w = at.px(96)
        boxes = ((left, y, left + w, y + w), (left + w, y, left + 2 * w, y + w))
        _stone(image, boxes, view["holding"], at.px(40), at.px(5))
        y += w + at.px(30)
    kit.text(image, (left, y + at.px(30)), "Supply", at.px(30), INK, bold=True)
    y += at.px(44)
    for colour in COLOURS:
        kit.chip(image, (left, y, left + at.px(44), y + at.px(44)), kit.seat_colour(colour),
                 at.px(28))
        kit.text(image, (left + at.px(56), y + at.px(22)), str(view["supply"][colour]),
                 at.px(30), INK, anchor="lm")
        y += at.px(52)
    y += at.px(16)
    kit.text(image, (left, y + at.px(30)), "Talismans", at.px(30), INK, bold=True)
    y += at.px(44)
    who = names(view)
    kit.text(image, (left, y + at.px(30)), f"{view['talismans_left']} left", at.px(28), INK)
    y += at.px(40)
    for colour, seat in view["talismans"].items():
        kit.text(image, (left, y + at.px(30)), kit.fit(f"{colour}: {who[seat]}", at.px(28),
                 right - left), at.px(28), MUTED)
        y += at.px(38)


def _pyramid(image: Image.Image, view: dict[str, Any], at: Scale, top: int) -> int:
    """Back row at the top, the front row (free first) at the bottom."""
    kit.text(image, (at.px(30), top + at.px(10)), "Pyramid: take a stone by its number",
             at.px(30), INK, bold=True)
    top += at.px(30)
    rows = int(max(p["row"] for p in view["pyramid"])) + 1
    span = int(max(p["x"] for p in view["pyramid"])) + 2
    unit = (at.width - 2 * at.px(30)) // span
    half = unit  # one crystal is one unit wide
    row_h = unit + at.px(46)
    draw = ImageDraw.Draw(image)
    for p in view["pyramid"]:
        x = at.px(30) + p["x"] * unit
        y = top + (rows - 1 - p["row"]) * row_h + at.px(40)
        boxes = ((x + 2, y, x + half, y + unit), (x + half, y, x + 2 * half - 2, y + unit))
        number = str(p["number"])
        label_at = (x + half, y - at.px(6))
        if p["taken"]:
            draw.rectangle((boxes[0][0], y, boxes[1][2], y + unit), outline=SHADE,
                           width=at.px(2))
            kit.text(image, label_at, number, at.px(26), SHADE, anchor="md")
            continue
        if p["stone"] is None:
            draw.rectangle((boxes[0][0], y, boxes[1][2], y + unit), fill=BACK, outline=INK,
                           width=at.px(2))
            kit.text(image, (x + half, y + unit // 2), "?", at.px(28), PAPER, anchor="mm",
                     bold=True)
        else:
            _stone(image, boxes, p["stone"], at.px(28), at.px(4) if p["available"] else 2)
        if p["available"]:
            w = kit.text_width(number, at.px(28), bold=True) + at.px(16)
            badge = (x + half - w // 2, y - at.px(38), x + half + w // 2, y - at.px(4))
            draw.rounded_rectangle(badge, radius=at.px(8), fill=INK)
            kit.text(image, (x + half, (badge[1] + badge[3]) / 2), number, at.px(28), PAPER,
                     anchor="mm", bold=True)
        else:
            kit.text(image, label_at, number, at.px(26), MUTED, anchor="md")
    return top + rows * row_h + at.px(40)


def _platforms(image: Image.Image, view: dict[str, Any], at: Scale, top: int) -> int:
    """One row per player: name and points, then each platform's crystals."""
    who = names(view)
    draw = ImageDraw.Draw(image)
    left = at.px(30)
    name_w = at.px(250)
    col_w = (at.width - 2 * left - name_w - at.px(110)) // 4
    kit.text(image, (left, top + at.px(30)), "Platforms (crystals per colour)", at.px(30), INK,
             bold=True)
    kit.text(image, (at.width - left, top + at.px(30)), "points", at.px(28), MUTED, anchor="rs")
    y = top + at.px(48)
    row_h = at.px(84)
    acting = set(view["to_act"])
    supers = view["supercrystals"]
    talismans = view["talismans"]
    for seat, platforms in enumerate(view["platforms"]):
        if seat in acting:
            draw.rectangle((left - at.px(10), y, at.width - left + at.px(10), y + row_h - 6),
                           fill=SHADE)
        mark = "> " if seat in acting else ""
        kit.text(image, (left, y + row_h // 2), kit.fit(mark + who[seat], at.px(30), name_w),
                 at.px(30), INK, anchor="lm", bold=seat in acting)
        for c, platform in enumerate(platforms):
            colour = platform["colour"]
            x = left + name_w + c * col_w
            chip = (x, y + at.px(12), x + at.px(52), y + at.px(64))
            if platform["flipped"]:
                draw.rectangle((chip[0] - 4, chip[1] - 4, chip[2] + 4, chip[3] + 4), fill=INK)
            kit.chip(image, chip, kit.seat_colour(colour), at.px(28))
            limit = 5 if platform["flipped"] else 13
            kit.text(image, (x + at.px(60), y + at.px(36)),
                     f"{platform['crystals']}/{limit}", at.px(30), INK, anchor="lm", bold=True)
            extra = []
            if platform["black"]:
                extra.append(f"K{platform['black']}")
            if supers.get(colour) == seat:
                extra.append("S")
            if talismans.get(colour) == seat:
                extra.append("T")
            if platform["flipped"]:
                extra.append("x2")
            kit.text(image, (x + at.px(60), y + at.px(74)), " ".join(extra), at.px(24), MUTED,
                     anchor="ls")
        kit.text(image, (at.width - left, y + row_h // 2), str(view["scores"][seat]), at.px(34),
                 INK, anchor="rm", bold=True)
        y += row_h
    key = "K black (-1 each), S supercrystal (+2), T talisman, x2 flipped (advanced)"
    kit.text(image, (left, y + at.px(32)), kit.fit(key, at.px(24), at.width - 2 * left),
             at.px(24), MUTED)
    return y + at.px(40)
