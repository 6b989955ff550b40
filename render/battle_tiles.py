"""The pictures of a Battle Tiles view: the table everyone sees, and a seat's own hand.

The table, top to bottom: who acts and what happened last (``kit.header``); the 5x5 grid
with coordinates on every edge, each tile with its four sides (a number; a piercer as a
black spike pointing out, a barrier as a black brick wall: shapes, since a letter 'B' would
also be the Blue player's), the glowing circle of a scoring tile holding a lettered colour
marker ('N' when neutral) and a death 'D' or life 'L' badge; the last tile placed framed in
black, the tiles it defeated or changed in yellow, the tiles awaiting a choice ringed in
the chooser's colour; one row per seat (points, markers left, tiles left); one row per seat
of power tokens, held ones framed after 'tokens', used ones grey after 'used' (whole
words in the smallest type); a legend of the tile symbols; at the end, the result with each
seat's points broken down and the tiles each one holds. The hand: the seat's tiles,
numbered as moves name them. ``describe`` says all of it as lines of text.

Everything drawn comes from the view: the opponent's hand is only a count.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, Layout

NAME = "Battle Tiles"

FACE: RGB = kit.rgb("#F3EEE2")  # a tile
LIT: RGB = kit.rgb("#F2C94C")  # a tile defeated or changed in the last turn
GLOW: RGB = kit.rgb("#FFF6C8")  # the glowing circle of a scoring tile
MAT: RGB = kit.rgb("#A9A293")  # the table under the tiles
HOLE: RGB = kit.rgb("#C9C3B6")  # an empty square
SPENT: RGB = kit.rgb("#DCDCDC")  # a power token used up (its word in MUTED: 5:1)
POWERS = ["rotate", "chaos", "death", "life"]
BADGES = {"death": ("D", INK, PAPER), "life": ("L", PAPER, INK)}  # letter, fill, ink
COLOUR_WORDS = ["Red", "Blue"]  # the seats as the rules' sentences name them
_RED, _BLUE = kit.seat_colour("red").fill, kit.seat_colour("blue").fill
# Colours a player tells apart (each also carries a letter or a shape: R, B and N on the
# markers; the last move is said in the header; the awaited tile is named there too).
TOLD_APART: dict[str, dict[str, RGB]] = {
    "markers": {"red": _RED, "blue": _BLUE, "neutral": GLOW},
    "tiles": {"tile": FACE, "changed last turn": LIT},
    "frames": {"placed last": INK, "red's choice": _RED, "blue's choice": _BLUE},
}

# --------------------------------------------------------------------------- words


def _side(value: Any) -> str:
    return {"P": "piercer", "B": "barrier"}.get(str(value), str(value))


def _said(seat: kit.Seat) -> str:
    """A seat as the summary says it: 'Alice (Red)', or 'Red' without a display name."""
    colour = seat.colour.name.capitalize()
    return seat.spoken if seat.spoken == colour else f"{seat.spoken} ({colour})"


def last_move(view: dict[str, Any], names: list[str]) -> str:
    """'Blue placed b3 with death: defeated b4 and c3, captured b4.' ('' before any move)."""
    last = view.get("last")
    if not last:
        return ""
    text = f"{names[last['seat']]} placed {last['square']}"
    if last.get("power"):
        text += f" with {last['power']}"
    done = []
    if last.get("swapped"):
        done.append(f"markers changed on {kit.listing(last['swapped'])}")
    if last.get("defeated"):
        done.append(f"defeated {kit.listing(last['defeated'])}")
    if last.get("rotated"):
        done.append(f"turned {last['rotated']}")
    if last.get("captured"):
        done.append(f"captured {kit.listing(last['captured'])}")
    if last.get("struck"):
        done.append(f"death struck {names[last['seat']]}")
    return text + (": " + ", ".join(done) if done else "") + "."


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who acts, doing what) and the detail under it."""
    names = [s.name for s in kit.seats(view)]
    if view.get("result") is not None:
        winners = [names[s] for s in view["result"]["winners"]]
        return (f"{kit.listing(winners)} {'wins' if len(winners) == 1 else 'draw'}",
                last_move(view, names))
    acting = names[view["turn"]]
    pending = view.get("pending")
    if pending and pending["kind"] == "rotate":
        square = pending["square"]
        return (f"{acting} may rotate {square}", last_move(view, names)
                + f" Type 'rotate {square} left', 'rotate {square} right' or 'no rotate'.")
    if pending and pending["kind"] == "chaos":
        short, tiles = pending["short"], pending["tiles"]
        return (f"{acting} picks neutral tiles",
                f"Chaos gives {kit.listing(tiles)} to {names[pending['colour']]}, "
                f"{_plural(short, 'marker')} short: leave {short} neutral, e.g. "
                f"'neutral {tiles[0]}'.")
    if view.get("last") is None:  # the opening: say who was drawn to start
        return (f"{names[view['first']]} starts: place a tile",
                "Drawn at random. Type 'place 2 at c3' for tile 2 of your hand.")
    return f"{acting} to place a tile", last_move(view, names)


def token_hint(view: dict[str, Any]) -> str:
    """How the viewing seat places a tile, naming only the tokens it still holds."""
    held, hand = view["tokens"][view["seat"]], view["hand"]  # (drawn only with a hand)
    free = [t["number"] for t in hand if not t["scoring"]]
    empty = [g["square"] for g in view["grid"] if g["sides"] is None] or ["c3"]
    at = "c3" if "c3" in empty else empty[0]  # an example the seat may play
    if not held or not free:
        number = hand[0]["number"]
        return f"Type 'place {number} at {at}' for tile {number} of your hand."
    return (f"Type 'place {free[0]} at {at}', or with a token: 'place {free[0]} at {at} "
            f"with {held[0]}'. Yours: {kit.listing(held)}.")


def summary(view: dict[str, Any]) -> str:
    """One line for screen readers and notifications."""
    all_seats = kit.seats(view)
    said = [_said(s) for s in all_seats]
    if view.get("result") is not None:
        lead = f"game over: {str(view['result']['reason']).rstrip('.')}"
    else:
        acting = said[view["turn"]]
        pending = view.get("pending")
        if pending and pending["kind"] == "rotate":
            lead = f"{acting} to decide whether to rotate {pending['square']}"
        elif pending and pending["kind"] == "chaos":
            lead = f"{acting} to choose which tiles stay neutral"
        elif view.get("last") is None:
            lead = f"{said[view['first']]} to place a tile, drawn at random to start"
        else:
            lead = f"{acting} to place a tile"
    scores = ", ".join(f"{s} {p}" for s, p in zip(said, view["scores"], strict=True))
    parts = [f"{NAME}, {lead}.", f"Score: {scores}."]
    if view.get("last"):
        parts.append("Last: " + last_move(view, [s.spoken for s in all_seats]))
    if view.get("seat") is not None and "hand" in view:
        tiles = "; ".join(f"{t['number']}: {'-'.join(_side(v) for v in t['sides'])}"
                          f"{' scoring' if t['scoring'] else ''}" for t in view["hand"])
        held = view["tokens"][view["seat"]]
        parts.append(f"Your hand: {tiles or 'empty'}. "
                     f"Your tokens: {kit.listing(held) if held else 'none'}.")
    return " ".join(" ".join(parts).split())


def _reason(view: dict[str, Any]) -> str:
    """Why the game ended, its colour words ('Red wins') followed by the players' names."""
    said = [_said(s) for s in kit.seats(view)]
    return re.sub(r"\b(Red|Blue)\b", lambda m: said[COLOUR_WORDS.index(m[0])],
                  str(view["result"]["reason"]))


def describe(view: dict[str, Any]) -> str:
    """The picture as lines a screen reader reads: what happens now and last, each seat's
    points, markers, tiles and tokens, the grid row by row (sides north, east, south,
    west), and in a seat's view its hand."""
    all_seats = kit.seats(view)
    said = [_said(s) for s in all_seats]
    head, detail = status({**view, "names": [s.spoken for s in all_seats]})
    if view.get("result") is not None:
        head = f"game over, {head}. {_reason(view).rstrip('.')}"
    lines = [f"{NAME}: {head}."] + ([detail] if detail else [])
    last = last_move(view, [s.spoken for s in all_seats])
    if last and last not in detail:
        lines.append(f"Last move: {last}")
    for s, who in enumerate(said):
        held = view["tokens"][s]
        used = [p for p in POWERS if p not in held]
        tiles = view["hand_counts"][s] + view["stack_counts"][s]
        lines.append(f"{who}: {_plural(view['scores'][s], 'point')} "
                     f"({_plural(view['held'][s], 'opponent marker')} won), "
                     f"{_plural(view['markers'][s], 'marker')} and {_plural(tiles, 'tile')} "
                     f"left; tokens: {kit.listing(held) or 'none'}"
                     + (f" (used: {kit.listing(used)})." if used else "."))
    lines.append("Grid, sides north-east-south-west:")
    colours = view["colours"]
    empty = []
    for row in range(view["size"], 0, -1):
        tiles = []
        for sq in view["grid"]:
            if not sq["square"].endswith(str(row)) or len(sq["square"]) != 2:
                continue
            if sq["sides"] is None:
                empty.append(sq["square"])
                continue
            marks = []
            if sq["scoring"]:
                marks.append(f"{colours[sq['marker']]} marker" if sq["marker"] is not None
                             else "neutral")
            if sq["token"]:
                marks.append(f"{sq['token']} token")
            tiles.append(f"{sq['square']} {'-'.join(_side(v) for v in sq['sides'])}"
                         + (f" {', '.join(marks)}" if marks else ""))
        if tiles:
            lines.append(f"Row {row}: {'; '.join(tiles)}.")
    if len(empty) == len(view["grid"]):
        lines.append("The grid is empty.")
    elif empty:
        lines.append(f"Empty: {', '.join(empty)}.")
    if view.get("seat") is not None and "hand" in view:
        hand = "; ".join(f"tile {t['number']} {'-'.join(_side(v) for v in t['sides'])}"
                         f"{' scoring' if t['scoring'] else ''}" for t in view["hand"])
        lines.append(f"Your hand: {hand or 'empty'}.")
    return "\n".join(lines)


# --------------------------------------------------------------------------- tiles

_OUTWARD = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # north, east, south, west on the picture


def _spike(draw: ImageDraw.ImageDraw, centre: tuple[float, float], side: int, size: float
           ) -> None:
    """A piercer: a black spearhead pointing out of ``side``, ``size`` long, on a shaft."""
    dx, dy = _OUTWARD[side]
    cx, cy = centre
    tip = (cx + dx * size * 0.5, cy + dy * size * 0.5)
    base = (cx - dx * size * 0.05, cy - dy * size * 0.05)
    half = size * 0.42
    draw.polygon([tip, (base[0] - dy * half, base[1] + dx * half),
                  (base[0] + dy * half, base[1] - dx * half)], fill=INK)
    shaft = max(2, round(size * 0.16))
    draw.line([base, (cx - dx * size * 0.5, cy - dy * size * 0.5)], fill=INK, width=shaft)


def _wall(image: Image.Image, centre: tuple[float, float], side: int, length: int,
          thick: int, mortar: RGB) -> None:
    """A barrier: a black brick wall along ``side``, two courses of staggered bricks."""
    wall = kit.canvas(length, thick, INK)
    draw = ImageDraw.Draw(wall)
    line = max(1, thick // 9)
    draw.line([(0, thick // 2), (length, thick // 2)], fill=mortar, width=line)
    for course, joints in ((0, (1 / 3, 2 / 3)), (1, (1 / 6, 1 / 2, 5 / 6))):
        y0, y1 = course * thick // 2, (course + 1) * thick // 2
        for joint in joints:
            x = round(joint * length)
            draw.line([(x, y0), (x, y1)], fill=mortar, width=line)
    if side % 2:  # east and west walls stand upright
        wall = wall.transpose(Image.Transpose.ROTATE_90)
    image.paste(wall, (round(centre[0] - wall.width / 2), round(centre[1] - wall.height / 2)))


def _badge(image: Image.Image, box: tuple[float, float, float, float], token: str,
           small: int, line: int) -> None:
    """A death ('D', black) or life ('L', white) token lying on a tile."""
    letter, back, ink = BADGES[token]
    ImageDraw.Draw(image).rounded_rectangle(box, radius=(box[2] - box[0]) / 5, fill=back,
                                            outline=INK, width=line)
    kit.text(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), letter, small, ink,
             anchor="mm", bold=True)


def _marker(image: Image.Image, centre: tuple[float, float], r: float, marker: str | None,
            small: int, line: int) -> None:
    """A scoring tile's glowing circle: a lettered colour marker (a colour name), 'N' for a
    neutral tile (None), or empty ('': a tile in hand, not yet marked)."""
    colour = kit.seat_colour(marker) if marker else None
    c = centre
    ImageDraw.Draw(image).ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r),
                                  fill=colour.fill if colour else GLOW,
                                  outline=INK if colour else MUTED, width=line)
    if colour is not None:
        kit.text(image, c, colour.letter, small, colour.ink, anchor="mm", bold=True)
    elif marker is None:
        kit.text(image, c, "N", small, MUTED, anchor="mm", bold=True)


@functools.lru_cache(maxsize=1024)
def _tile(sides: tuple[Any, ...], scoring: bool, marker: str | None, token: str | None,
          size: int, number: int, small: int, fill: RGB, ground: RGB) -> Image.Image:
    """A tile on ``ground``: its sides (numbers; a piercer's spike, a barrier's wall), a
    scoring tile's glowing circle with its marker, a death or life badge."""
    tile = kit.canvas(size, size, ground)
    draw = ImageDraw.Draw(tile)
    line = max(2, size // 60)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 12, fill=fill,
                           outline=INK, width=line)
    c = size / 2
    for side, value in enumerate(sides):
        dx, dy = _OUTWARD[side]
        if value == "P":
            _spike(draw, (c + dx * size * 0.3, c + dy * size * 0.3), side, size * 0.26)
        elif value == "B":
            _wall(tile, (c + dx * size * 0.32, c + dy * size * 0.32), side, round(size * 0.42),
                  round(size * 0.2), fill)
        else:
            kit.text(tile, (c + dx * size * 0.3, c + dy * size * 0.3), str(value), number, INK,
                     anchor="mm")
    if scoring:
        _marker(tile, (c, c), size * 0.17, marker, small, line)
    if token in BADGES:
        b = max(size * 0.22, small * 1.2)
        x0, y0 = line, size - line - b  # in the corner, clear of the side numbers
        _badge(tile, (x0, y0, x0 + b, y0 + b), token, small, line)
    return tile


@functools.lru_cache(maxsize=16)
def _hole(size: int) -> Image.Image:
    """An empty square on the mat."""
    hole = kit.canvas(size, size, MAT)
    ImageDraw.Draw(hole).rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 12,
                                           fill=HOLE)
    return hole


def _board(view: dict[str, Any], at: Layout, cell: int) -> Image.Image:
    """The grid on its mat with coordinates; the last tile framed, changed tiles lit."""
    size = int(view["size"])
    room = at.px(48)  # for the coordinates above and below
    block = kit.canvas(at.width, 2 * room + size * cell)
    grid = kit.Grid(size, size, (at.width - size * cell) // 2, room, cell)
    draw = ImageDraw.Draw(block)
    pad = at.px(8)
    draw.rounded_rectangle((grid.left - pad, grid.top - pad, grid.right + pad,
                            grid.bottom + pad), radius=at.px(16), fill=MAT)
    grid.coordinates(block, at.px(kit.SMALL), at.px(16))
    last = view.get("last") or {}
    lit = {*last.get("defeated", []), *last.get("swapped", []), last.get("rotated")}
    colours = view["colours"]
    inset = max(2, at.px(4))
    number, small = max(at.px(kit.SMALL), round(cell * 0.24)), at.px(kit.SMALL)
    for square in view["grid"]:
        x0, y0, x1, y1 = grid.box(square["square"], inset)
        if square["sides"] is None:
            block.paste(_hole(x1 - x0), (x0, y0))
            continue
        marker = None if square["marker"] is None else colours[square["marker"]]
        block.paste(_tile(tuple(square["sides"]), bool(square["scoring"]), marker,
                          square["token"], x1 - x0, number, small,
                          LIT if square["square"] in lit else FACE, MAT), (x0, y0))
    pending = view.get("pending") or {}
    awaited = [pending["square"]] if pending.get("kind") == "rotate" else pending.get("tiles", [])
    ring = kit.seat_colour(colours[view["turn"]]).fill
    for name, outline, width in ([(last["square"], INK, at.px(8))] if last else []) + \
            [(name, ring, at.px(6)) for name in awaited]:
        x0, y0, x1, y1 = grid.box(name)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=cell // 10, outline=outline,
                               width=width)
    return block


# --------------------------------------------------------------------------- panels


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _seat_lines(view: dict[str, Any]) -> list[str]:
    """Each seat's points; during play its supplies, at the end where the points came from."""
    lines = []
    for s in range(view["players"]):
        points = _plural(view["scores"][s], "point")
        if view.get("result") is not None:
            owned = sum(1 for sq in view["grid"] if sq["sides"] and sq["marker"] == s)
            lines.append(f"{points} = {_plural(owned, 'tile')} + "
                         f"{_plural(view['held'][s], 'marker')} won")
        else:
            tiles = view["hand_counts"][s] + view["stack_counts"][s]
            lines.append(f"{points} · {_plural(view['markers'][s], 'marker')} · "
                         f"{_plural(tiles, 'tile')} left")
    return lines


@functools.lru_cache(maxsize=64)
def _token(power: str, held: bool, size: int, at_width: int) -> Image.Image:
    """A power token as a labelled pill: white and framed while held; grey, unframed and
    after the word 'used' once spent (the word stays whole, so it reads)."""
    at = Layout(at_width)
    w, h = kit.text_width(power, size, bold=held) + at.px(24), at.px(48)
    pill = kit.canvas(w, h)
    ImageDraw.Draw(pill).rounded_rectangle((0, 0, w - 1, h - 1), radius=at.px(12),
                                           fill=PAPER if held else SPENT,
                                           outline=INK if held else SPENT,
                                           width=max(2, at.px(3)))
    kit.text(pill, (w / 2, h / 2), power, size, INK if held else MUTED, anchor="mm",
             bold=held)
    return pill


def _tokens(view: dict[str, Any], at: Layout) -> Image.Image:
    """One row a seat: its chip, the power tokens it holds, then those it has used."""
    chip, height, step = at.px(44), at.px(48), at.px(58)
    block = kit.canvas(at.width, view["players"] * step + at.px(10))
    size = at.px(kit.SMALL)
    for seat in kit.seats(view):
        top = at.px(6) + seat.index * step
        middle = top + height // 2
        x = at.margin
        kit.chip(block, (x, middle - chip // 2, x + chip, middle + chip // 2), seat.colour,
                 size)
        x += chip + at.px(14)
        held = view["tokens"][seat.index]
        x = kit.text(block, (x, middle), "tokens" if held else "no tokens left", size, INK,
                     anchor="lm")[2] + at.px(12)
        used = [p for p in POWERS if p not in held]
        for n, power in enumerate(held + used):
            if n == len(held):
                x = kit.text(block, (x + at.px(12), middle), "used", size, MUTED,
                             anchor="lm")[2] + at.px(12)
            pill = _token(power, n < len(held), size, at.width)
            block.paste(pill, (x, top))
            x += pill.width + at.px(8)
    return block


def _legend(at: Layout) -> Image.Image:
    """What the tile symbols mean: piercer, barrier, a neutral tile, death and life."""
    box, gap, size = at.px(48), at.px(30), at.px(kit.SMALL)
    items = [("piercer", "piercer"), ("barrier", "barrier"), ("neutral", "neutral tile"),
             ("death", "death"), ("life", "life")]
    block = kit.canvas(at.width, box + at.px(20))
    draw = ImageDraw.Draw(block)
    x, top, line = at.margin, at.px(8), max(2, at.px(2))
    for kind, label in items:
        square = (x, top, x + box, top + box)
        c = (x + box / 2, top + box / 2)
        if kind in BADGES:
            _badge(block, square, kind, size, line)
        else:
            draw.rounded_rectangle(square, radius=box // 6, fill=FACE, outline=INK, width=line)
            if kind == "piercer":
                _spike(draw, (c[0], c[1] + box * 0.06), 0, box * 0.62)
            elif kind == "barrier":
                _wall(block, c, 0, round(box * 0.7), round(box * 0.34), FACE)
            else:
                _marker(block, c, box * 0.4, None, size, line)
        x = kit.text(block, (x + box + at.px(10), c[1]), label, size, INK, anchor="lm")[2] + gap
    return block


def _breakdown(view: dict[str, Any], at: Layout) -> list[str]:
    """For the result box: the tiles each seat holds, the neutral ones, tiles defeated."""
    names = [s.name for s in kit.seats(view)]
    held = [[sq["square"] for sq in view["grid"] if sq["sides"] and sq["marker"] == s]
            for s in range(view["players"])]
    lines = ["Tiles held: " + "; ".join(f"{name} {', '.join(squares) or 'none'}"
                                        for name, squares in zip(names, held, strict=True))
             + "."]
    neutral = [sq["square"] for sq in view["grid"]
               if sq["sides"] and sq["scoring"] and sq["marker"] is None]
    if neutral:
        lines.append(f"Neutral: {', '.join(neutral)}.")
    lines.append("Tiles defeated: " + ", ".join(f"{n} {d}" for n, d in
                                                 zip(names, view["defeats"], strict=True)) + ".")
    # wrapped here at the size the box draws them, so no line runs past its frame
    return [part for line in lines for part in kit.wrap(line, at.px(kit.TEXT),
                                                        at.body - at.px(40))]


# --------------------------------------------------------------------------- pictures


def table(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """What everyone sees: the header, the board as large as fits, the seats, the end."""
    at = Layout(width)
    over = view.get("result") is not None
    above = [kit.header(view, at, *status(view))]
    below = [kit.seat_rows(view, at, _seat_lines(view))]
    if over:
        named = {**view, "result": {**view["result"], "reason": _reason(view)}}
        below.append(kit.result_box(named, at, _breakdown(view, at)))
    else:
        below += [_tokens(view, at), _legend(at)]
    rest = sum(b.height for b in above + below) + 2 * at.px(48)
    size = int(view["size"])
    cell = min((at.body - 2 * at.px(40)) // size, (at.tallest - rest) // size)
    return kit.stack([*above, _board(view, at, cell), *below])


def hand(view: dict[str, Any], *, width: int = 1000) -> Image.Image | None:
    """The viewing seat's tiles, numbered as moves name them; None for a spectator or an
    empty hand."""
    if view.get("seat") is None or not view.get("hand"):
        return None
    at = Layout(width)
    tiles: list[dict[str, Any]] = view["hand"]
    gap = at.px(40)
    size = min(at.px(240), (at.body - 2 * gap) // 3)
    hint = kit.wrap(token_hint(view), at.px(kit.TEXT), at.body)
    block = kit.canvas(width, at.px(56) + size + at.px(56) + len(hint) * at.px(40) + at.px(24))
    x = at.margin
    number = max(at.px(kit.SMALL), round(size * 0.23))
    for tile in tiles:
        kit.text(block, (x + size // 2, at.px(40)), f"Tile {tile['number']}", at.px(kit.LARGE),
                 INK, anchor="ms", bold=True)
        block.paste(_tile(tuple(tile["sides"]), bool(tile["scoring"]), "", None, size, number,
                          at.px(kit.SMALL), FACE, PAPER), (x, at.px(56)))
        kit.text(block, (x + size // 2, at.px(56) + size + at.px(38)),
                 "scoring" if tile["scoring"] else "takes a token", at.px(kit.SMALL), MUTED,
                 anchor="ms")
        x += size + gap
    y = at.px(56) + size + at.px(64)
    for line in hint:
        kit.text(block, (at.margin, y), line, at.px(kit.TEXT), INK)
        y += at.px(40)
    return kit.stack([kit.hand_title(view, at), block])


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The table, with the seat's hand under it in a seat's view."""
    return kit.stack([table(view, width=width), hand(view, width=width)])
