"""The pictures of a Battle Tiles view: the table everyone sees, and a seat's own hand.

The table, top to bottom: who acts and what happened last (``kit.header``); the 5x5 grid
with coordinates on every edge, each tile with its four sides (a number; a piercer's 'P'
with a spike; a barrier's 'B' with a wall), the glowing circle of a scoring tile holding a
lettered colour marker ('N' when neutral) and a death 'D' or life 'L' badge; the last tile
placed framed in black, the tiles it defeated or changed in yellow; one row per seat
(points, markers left, tiles left) and the power tokens, spent ones grey and struck
through; a legend; at the end, the result with each seat's points broken down and the
tiles each one holds. The hand: the seat's tiles, numbered as moves name them.

Everything drawn comes from the view: the opponent's hand is only a count.
"""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, Layout, SeatColour

NAME = "Battle Tiles"

FACE: RGB = kit.rgb("#F3EEE2")  # a tile
LIT: RGB = kit.rgb("#F6DE8D")  # a tile defeated or changed in the last turn
GLOW: RGB = kit.rgb("#FFF6C8")  # the glowing circle of a scoring tile
MAT: RGB = kit.rgb("#A9A293")  # the table under the tiles
HOLE: RGB = kit.rgb("#C9C3B6")  # an empty square
SPENT: RGB = kit.rgb("#D4D4D4")  # a power token used up
POWERS = ["rotate", "chaos", "death", "life"]
BADGES = {"death": ("D", INK, PAPER), "life": ("L", PAPER, INK)}  # letter, fill, ink
LEGEND = [(SeatColour("piercer", FACE, "P", INK), "piercer"),
          (SeatColour("barrier", FACE, "B", INK), "barrier"),
          (SeatColour("neutral", GLOW, "N", MUTED), "neutral"),
          (SeatColour("death", INK, "D", PAPER), "death"),
          (SeatColour("life", PAPER, "L", INK), "life")]


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
    held = view["tokens"][view["seat"]]
    free = [t["number"] for t in view.get("hand", []) if not t["scoring"]]
    if not held or not free:
        return "Type 'place 2 at c3' for tile 2 of your hand."
    return (f"Type 'place {free[0]} at c3', or with a token: 'place {free[0]} at c3 with "
            f"{held[0]}'. Yours: {kit.listing(held)}.")


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


# --------------------------------------------------------------------------- tiles

_OUTWARD = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # north, east, south, west on the picture


@functools.lru_cache(maxsize=1024)
def _tile(sides: tuple[Any, ...], scoring: bool, marker: str | None, token: str | None,
          size: int, number: int, small: int, fill: RGB, ground: RGB) -> Image.Image:
    """A tile on ``ground``: its sides, a scoring tile's glowing circle with its marker
    (a colour name; None: neutral, 'N'; '': none yet, in a hand), a death or life badge."""
    tile = kit.canvas(size, size, ground)
    draw = ImageDraw.Draw(tile)
    line = max(2, size // 60)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 12, fill=fill,
                           outline=INK, width=line)
    c = size / 2
    for side, value in enumerate(sides):
        dx, dy = _OUTWARD[side]
        x, y = c + dx * size * 0.3, c + dy * size * 0.3
        if value == "P":  # a spike pointing out of the side
            kit.triangle(draw, (c + dx * size * 0.435, c + dy * size * 0.435), size * 0.05,
                         90 * ((side + 3) % 4), INK)
        elif value == "B":  # a wall along the side
            half, thick = size * 0.25, size * 0.025
            mx, my = c + dx * (c - thick - 2 * line), c + dy * (c - thick - 2 * line)
            draw.rectangle((mx - max(abs(dy) * half, thick), my - max(abs(dx) * half, thick),
                            mx + max(abs(dy) * half, thick), my + max(abs(dx) * half, thick)),
                           fill=INK)
        kit.text(tile, (x, y), str(value), number, INK, anchor="mm")
    if scoring:
        r = size * 0.17
        colour = kit.seat_colour(marker) if marker else None
        draw.ellipse((c - r, c - r, c + r, c + r), fill=colour.fill if colour else GLOW,
                     outline=INK if colour else MUTED, width=line)
        if colour is not None:
            kit.text(tile, (c, c), colour.letter, small, colour.ink, anchor="mm", bold=True)
        elif marker is None:
            kit.text(tile, (c, c), "N", small, MUTED, anchor="mm", bold=True)
    if token in BADGES:
        letter, back, ink = BADGES[token]
        b = max(size * 0.22, small * 1.2)
        x0, y0 = size * 0.04, size * 0.96 - b
        draw.rounded_rectangle((x0, y0, x0 + b, y0 + b), radius=b / 5, fill=back, outline=INK,
                               width=line)
        kit.text(tile, (x0 + b / 2, y0 + b / 2), letter, small, ink, anchor="mm", bold=True)
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
    """A power token as a labelled pill: white while held, grey and struck through spent."""
    at = Layout(at_width)
    w, h = kit.text_width(power, size) + at.px(20), at.px(48)
    pill = kit.canvas(w, h)
    draw = ImageDraw.Draw(pill)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=at.px(10),
                           fill=PAPER if held else SPENT, outline=INK if held else MUTED,
                           width=max(1, at.px(2)))
    kit.text(pill, (w / 2, h / 2), power, size, INK if held else MUTED, anchor="mm")
    if not held:
        draw.line((at.px(6), h // 2, w - at.px(6), h // 2), fill=INK, width=max(1, at.px(3)))
    return pill


def _tokens(view: dict[str, Any], at: Layout) -> Image.Image:
    """Each seat's chip and its four power tokens, side by side."""
    chip, height = at.px(40), at.px(48)
    block = kit.canvas(at.width, height + at.px(16))
    top = at.px(8)
    half = at.body // view["players"]
    for seat in kit.seats(view):
        x = at.margin + seat.index * half
        kit.chip(block, (x, top + (height - chip) // 2, x + chip, top + (height + chip) // 2),
                 seat.colour, at.px(24))
        x += chip + at.px(12)
        for power in POWERS:
            pill = _token(power, power in view["tokens"][seat.index], at.px(kit.SMALL),
                          at.width)
            block.paste(pill, (x, top))
            x += pill.width + at.px(8)
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
        below.append(kit.result_box(view, at, _breakdown(view, at)))
    else:
        below += [_tokens(view, at), kit.legend(at, LEGEND)]
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
