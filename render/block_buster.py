"""The pictures of a Block Buster view: the table everybody sees, and a seat's own blocks.

The table: the kit's header (who places, the last move), the 20x20 board as large as fits
(ranks on the left, files below; the placing area's boundary as a thick line, outside it
greyed; each placed block in its colour with the colour's letter, the last one ringed; each
point block with its shape and a band with the leading colour's letter and count, the whole
tile in the colour once won: for good, or at the final count), then the kit's seat rows or,
once the game is over, its result box with where each seat's points came from.

Nothing is hidden in Block Buster; a seat's ``hand`` is its blocks still to place, drawn as
shapes (the table says how many), where it may place, and how to read the board.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections import Counter
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw

from render import kit
from render.kit import INK, MUTED, PAPER, RGB, SHADE, Box, Grid, SeatColour

NAME = "Block Buster"
# A seat's picture (the table with its blocks still to place under it) goes to the player
# at each of their turns, though nothing in it is secret: it is what they place from
# (``render.hand_every_turn``).
HAND_EVERY_TURN = True

_DATA: dict[str, Any] = json.loads(
    resources.files("data").joinpath("block-buster.json").read_text(encoding="utf-8"))
SHAPES: dict[str, list[tuple[int, int]]] = {
    b["name"]: [(c[0], c[1]) for c in b["cells"]] for b in _DATA["blocks"]}
# points for 0, 1, 2... point blocks of one shape: 0, 3, 7, 12, then 18, 25 (the pattern)
SET_POINTS: list[int] = [*_DATA["set_points"], 18, 25]

# An empty square, a square outside the placing area and a point block nobody has won stay
# 20 apart (CIEDE2000, also under protanopia and deuteranopia) from the seat colours and the
# outside (an empty square and a tile differ by the tile's border and shape instead).
FACE: RGB = kit.rgb("#FFFFFF")  # an empty square inside the placing area
OUT: RGB = kit.rgb("#A7A3B4")  # a square outside it
PLATE: RGB = kit.rgb("#E2DED0")  # a point block nobody has won
LINE: RGB = kit.rgb("#D6D0C2")  # the lines between squares

_SEATS: dict[str, RGB] = {n: kit.seat_colour(n).fill for n in _DATA["colours"]}
TOLD_APART: dict[str, dict[str, RGB]] = {
    "seats": _SEATS, "squares": {"empty": FACE, "outside the area": OUT, **_SEATS},
    "point blocks": {"nobody's yet": PLATE, "outside the area": OUT, **_SEATS}}


# --------------------------------------------------------------------------- words


def _given(view: dict[str, Any], seat: int) -> str:
    """The seat's display name from the bot, drawable, or ''."""
    names = view.get("names") or []
    given = kit.clean(str(names[seat])) if seat < len(names) and names[seat] else ""
    return given if given.strip("? ") else ""


def _colour_word(view: dict[str, Any], colour: int) -> str:
    return str(view["colours"][colour]).capitalize()


def _seat_colours(view: dict[str, Any], seat: int) -> list[int]:
    return [c for c, owner in enumerate(view["owners"]) if owner == seat]


def _seat_words(view: dict[str, Any], seat: int) -> str:
    """'Blue', or 'Blue and Yellow' for a seat of the special 2-player game."""
    return kit.listing([_colour_word(view, c) for c in _seat_colours(view, seat)])


def _seat_name(view: dict[str, Any], seat: int) -> str:
    """As drawn: 'Alice', else the seat's colours."""
    return _given(view, seat) or _seat_words(view, seat)


def _spoken(view: dict[str, Any], seat: int, words: str) -> str:
    """'Alice (Blue and Yellow)': the seat's name once, then ``words``; or ``words``."""
    given = _given(view, seat)
    return f"{given} ({words})" if given else words


def _winners(view: dict[str, Any], seats: list[int]) -> str:
    """'Alice wins', 'Alice and Carol win', 'Blue and Yellow win': each player once."""
    if all(_given(view, s) for s in seats):
        words = kit.listing([_given(view, s) for s in seats])
        return f"{words} {'wins' if len(seats) == 1 else 'win'}"
    words = kit.listing([_seat_words(view, s) for s in seats])
    return f"{words} {'win' if len(seats) > 1 or ' and ' in words else 'wins'}"


_PLAYER = re.compile(r"\bPlayer (\d+)\b")


def _said(view: dict[str, Any], line: str) -> str:
    """The rules' sentence with names for 'Player 1' (the special 2-player game), or after
    each colour's first mention ('Blue (Alice) wins') where a seat has one colour."""
    line = _PLAYER.sub(lambda m: _given(view, int(m.group(1)) - 1) or m.group(0), line)
    if len(view["owners"]) != int(view["players"]):
        return line
    named = {_colour_word(view, c): _given(view, int(o)) for c, o in enumerate(view["owners"])}
    seen: set[str] = set()

    def name(match: re.Match[str]) -> str:
        word = match.group(0)
        if word in seen or not named[word]:
            return word
        seen.add(word)
        return f"{word} ({named[word]})"

    return re.sub(r"\b(" + "|".join(named) + r")\b", name, line)


def _anchor(squares: list[str]) -> str:
    """A placement's anchor square: the leftmost square of its lowest row."""
    cells = [kit.square_index(s) for s in squares]
    low = min(r for _, r in cells)
    return kit.square_name(min(f for f, r in cells if r == low), low)


def _last(view: dict[str, Any]) -> str:
    """'Last: Alice (Blue) placed 5L r90 at c4, skipping 1 for -2.', or ''."""
    last = view.get("last")
    if not last:
        return ""
    colour = int(last["colour"])
    who = _spoken(view, int(view["owners"][colour]), _colour_word(view, colour))
    if last["kind"] == "pass":
        return f"Last: {who} passed."
    skipped = int(last["skipped"])
    extra = f", skipping {skipped} for {-2 * skipped}" if skipped else ""
    return (f"Last: {who} placed {str(last['block']).upper()} {last['orientation']} at "
            f"{_anchor(last['squares'])}{extra}.")


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who places, or who won) and the line under it (the last move)."""
    result = view.get("result")
    if result is not None:
        return f"Game over: {_winners(view, sorted(result['winners']))}", ""
    turn = int(view["turn"])
    seat = int(view["owners"][turn])
    mover = _colour_word(view, turn)
    if len(_seat_colours(view, seat)) == 1:
        head = f"{_seat_name(view, seat)} to place a block"
    else:
        head = f"{_given(view, seat)} to place {mover}" if _given(view, seat) else \
            f"{mover} to place a block"
    return head, _last(view) or rule(view)


def rule(view: dict[str, Any]) -> str:
    """Where the colour to place may put its block, or ''."""
    if view.get("result") is not None:
        return ""
    turn = int(view["turn"])
    mover, skip = _colour_word(view, turn), int(view["max_skip"])
    if not view["previous"][turn]:
        return f"{mover}'s first block: anywhere inside the placing area."
    touch = "any of your blocks" if view.get("connect") == "any" else "your previous block"
    if skip:
        return (f"{mover}: touch {touch}, or skip up to {skip} space"
                f"{'s' if skip > 1 else ''} (-2 each).")
    return f"{mover}: touch {touch} (no skipping left)."


def _blocks_left(view: dict[str, Any], seat: int) -> list[str]:
    return [b for c in _seat_colours(view, seat) for b in view["blocks"][c]]


def summary(view: dict[str, Any]) -> str:
    """One line: whose turn, the points, the last move; a seat's view adds its blocks."""
    result = view.get("result")
    if result is not None:
        lead = f"game over: {_said(view, str(result['reason'])).rstrip('.')}"
    else:
        turn = int(view["turn"])
        lead = f"{_spoken(view, view['owners'][turn], _colour_word(view, turn))} to place a block"
    scores = ", ".join(f"{_spoken(view, s, _seat_words(view, s))} {view['scores'][s]}"
                       for s in range(int(view["players"])))
    word = "Scores" if result is not None else \
        "Scores if it ended now (every square not yet placed counts -1" + (
            ", a team's partners added together)" if view["variant"] == "couples" else ")")
    parts = [f"{NAME}, {lead}.", f"{word}: {scores}."]
    if result is None and view.get("last"):
        parts.append(_last(view))
    return " ".join(" ".join(parts + _yours(view)).split())


def _yours(view: dict[str, Any]) -> list[str]:
    """A seat's view: 'Your blocks: 5I, 4O.', a pair as the picture shows it ('2x5L'); none
    for a spectator."""
    if view.get("seat") is None:
        return []
    left = [f"{n}x{b.upper()}" if n > 1 else b.upper() for c in _seat_colours(
        view, int(view["seat"])) for b, n in Counter(view["blocks"][c]).items()]
    return [f"Your blocks: {', '.join(left)}." if left else "You have placed all your blocks."]


def describe(view: dict[str, Any]) -> str:
    """The picture as lines a screen reader reads: whose turn and the last move, each seat,
    each point block's standing (spaces of its 12 each colour holds), each colour's blocks
    on the board by the square a move names (only how many, should the lines not fit one
    message) and its previous block, and a seat's own blocks."""
    result = view.get("result")
    in_play = sum(p["in_play"] for p in view["point_blocks"])
    lines = [f"{NAME}, {view['players']} players, {in_play} point blocks in the placing area."]
    if result:
        lines += [f"Game over: {_said(view, str(result['reason']))}", *breakdown(view)]
    else:
        turn = int(view["turn"])
        mover = _spoken(view, int(view["owners"][turn]), _colour_word(view, turn))
        lines.append(" ".join(w for w in (f"{mover} to place a block.", _last(view),
                                          rule(view)) if w))
        lines += [f"{_spoken(view, s, _seat_words(view, s))}: {_seat_line(view, s)}."
                  for s in range(int(view["players"]))]
        lines.append(counted(view))
    standing: list[str] = []
    for p in view["point_blocks"]:
        held = sorted(((n, c) for c, n in enumerate(p["counts"]) if n), reverse=True)
        if not p["in_play"] or not held:
            continue
        won = p["secured"] if p["secured"] is not None else p["leader"] if result else None
        mark = ("won" if won is not None else "leads" if p["leader"] is not None else "")
        counts = [f"{_colour_word(view, c)} {n}" for n, c in held]
        counts[0] = f"{counts[0]} {mark}" if mark else f"tied, {counts[0]}"
        standing.append(f"{p['kind']} {p['squares'][0]}: {', '.join(counts)}")
    lines.append("Point blocks, spaces held of 12: " + ("; ".join(standing) or "none yet") + ".")
    lines += _yours(view)
    for full in (True, False):
        board = []
        for colour in range(len(view["owners"])):
            placed = [f"{b['block'].upper()} {_anchor(b['squares'])}" for b in view["placed"]
                      if int(b["colour"]) == colour]
            if placed:
                board.append(f"{_colour_word(view, colour)} blocks: "
                             f"{', '.join(placed) if full else len(placed)}; previous on "
                             f"{' '.join(view['previous'][colour])}.")
        text = "\n".join(lines + board)
        if len(text) <= 1900:
            break
    return text


def breakdown(view: dict[str, Any], *, short: bool = False) -> list[str]:
    """Where each seat's points come from: the point blocks it won by shape (each point
    block goes to the colour holding most of its spaces; ``short``: only how many, so that
    a line fits the picture's width), penalties, unplaced squares."""
    lines = []
    for seat in range(int(view["players"])):
        mine = set(_seat_colours(view, seat))
        kinds: dict[str, int] = {}
        for point in view["point_blocks"]:
            if point["leader"] is not None and point["leader"] in mine:
                kinds[point["kind"]] = kinds.get(point["kind"], 0) + 1
        sets = [f"{n} {kind}{'s' if n > 1 else ''} {SET_POINTS[n]}"
                for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))]
        unplaced = sum(len(SHAPES[b]) for b in _blocks_left(view, seat))
        won = sum(kinds.values())
        if short and won:
            sets = [f"{won} point block{'s' if won > 1 else ''} "
                    f"{sum(SET_POINTS[n] for n in kinds.values())}"]
        parts = [*sets] or ["no point blocks"]
        parts += [f"penalty {view['penalties'][seat]}", f"unplaced {-unplaced}"]
        lines.append(f"{_seat_name(view, seat)} {view['own_scores'][seat]}: {', '.join(parts)}")
    teams = view.get("teams") or []
    if teams:
        lines.append("Teams: " + ", ".join(
            f"{kit.listing([_seat_name(view, s) for s in team])} {view['scores'][team[0]]}"
            for team in teams))
    return lines


# --------------------------------------------------------------------------- the table


def _seated(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` as the kit's blocks read it: one colour and one name a seat (the colour to
    place for the seat placing, so the header's chip is that colour)."""
    players = int(view["players"])
    colours = [view["colours"][_seat_colours(view, s)[0]] for s in range(players)]
    if view.get("result") is None:
        colours[int(view["owners"][view["turn"]])] = view["colours"][view["turn"]]
    return {**view, "colours": colours, "names": [_seat_name(view, s) for s in range(players)]}


def _seat_line(view: dict[str, Any], seat: int) -> str:
    """'-46 points, penalty -7, 10 blocks left' (the chip and name say the colour), or for
    a seat of two colours '-8 points, penalty -8, Blue 7 left, Yellow passed'."""
    def left(colour: int, one: bool) -> str:
        n = len(view["blocks"][colour])
        unit = "" if not one else " block" if n == 1 else " blocks"
        return "passed" if view["passed"][colour] and n else f"{n}{unit} left"

    colours = _seat_colours(view, seat)
    head = f"{view['scores'][seat]} points, penalty {view['penalties'][seat]}"
    if len(colours) > 1:
        return ", ".join([head, *(f"{_colour_word(view, c)} {left(c, False)}" for c in colours)])
    return f"{head}, {left(colours[0], True)}"


def table(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """What everybody sees: header, board, and the seats' rows or the result."""
    at = kit.Layout(width)
    top, bottom = _around(view, at)
    return kit.stack([top, _board(view, at, _grid(view, at, top, bottom)), bottom])


def board_grid(view: dict[str, Any], *, width: int = 1000) -> Grid:
    """Where ``table`` draws the board's squares, in the table's pixels."""
    at = kit.Layout(width)
    top, bottom = _around(view, at)
    grid = _grid(view, at, top, bottom)
    return Grid(grid.files, grid.ranks, grid.left, grid.top + top.height, grid.cell)


def _around(view: dict[str, Any], at: kit.Layout) -> tuple[Image.Image, Image.Image]:
    """The header over the board, and the seats' rows (or the result box) under it."""
    seated = _seated(view)
    head, detail = status(view)
    top = kit.header(seated, at, head, detail)
    if view.get("result") is not None:
        lines = [line for text in breakdown(view, short=True)
                 for line in kit.wrap(text, at.px(kit.TEXT), at.body - at.px(40))]
        result = {**view["result"], "reason": _said(view, str(view["result"]["reason"]))}
        return top, kit.result_box({**view, "result": result}, at, lines)
    players = range(int(view["players"]))
    rows = kit.seat_rows(seated, at, [_seat_line(view, s) for s in players])
    return top, kit.stack([rows, kit.footnote(at, counted(view))])


def counted(view: dict[str, Any]) -> str:
    """What the running points count, said as they start far below zero (-59; -128 a team)."""
    team = "Team points" if view["variant"] == "couples" else "Points"
    return f"{team} if it ended now: each square not yet placed counts -1."


def _grid(view: dict[str, Any], at: kit.Layout, top_: Image.Image, bottom: Image.Image
          ) -> Grid:
    """The board's squares as large as fits between ``top_`` and ``bottom``, with rank
    numbers on its left and right and file letters over and under it (a square far from
    one edge is read off the nearer one)."""
    room = at.tallest - top_.height - bottom.height
    files, ranks = int(view["files"]), int(view["ranks"])
    numbers = kit.text_width(str(ranks), at.px(kit.SMALL), bold=True) + at.px(10)
    letters = at.px(kit.SMALL) + at.px(18)
    top = letters  # the letters over it, with room for the boundary and the last ring
    cell = min((at.body - 2 * numbers) // files, (room - 2 * letters) // ranks)
    return Grid(files, ranks, (at.width - files * cell) // 2, top, cell)


def _board(view: dict[str, Any], at: kit.Layout, grid: Grid) -> Image.Image:
    """The board: its squares, the placed blocks, the point blocks, the last block ringed."""
    off = {s for p in view["point_blocks"] if not p["in_play"] for s in p["squares"]}
    outside = "".join("-" if c == "-" or kit.square_name(f, r) in off else "."
                      for r, row in enumerate(view["board"]) for f, c in enumerate(row))
    block = _ground(outside, grid, at.width).copy()
    draw = ImageDraw.Draw(block)
    colours = [kit.seat_colour(c) for c in view["colours"]]
    for placed in view["placed"]:
        _block(block, grid, placed["squares"], colours[int(placed["colour"])], at)
    over = view.get("result") is not None
    for point in view["point_blocks"]:
        _point_block(block, grid, point, colours, at, over)
    last = view.get("last")
    if last and last["kind"] == "place" and not over:
        cells = {kit.square_index(s) for s in last["squares"]}
        kit.squared_line(draw, grid.outline(cells), PAPER, max(4, at.px(12)))
        kit.squared_line(draw, grid.outline(cells), INK, max(2, at.px(5)))
    return block


@functools.lru_cache(maxsize=32)
def _ground(outside: str, grid: Grid, width: int) -> Image.Image:
    """The empty board: squares ('-' in ``outside``, rank 1 first: outside the placing
    area), lines between them, thicker around each 4x4 cell, the area's boundary, and the
    coordinates."""
    at = kit.Layout(width)
    size = at.px(kit.SMALL)
    image = kit.canvas(width, grid.bottom + size + at.px(18))
    draw = ImageDraw.Draw(image)
    draw.rectangle((grid.left, grid.top, grid.right, grid.bottom), fill=FACE)
    inside = set()
    for i, c in enumerate(outside):
        f, r = i % grid.files, i // grid.files
        if c == "-":
            draw.rectangle(grid.at(f, r), fill=OUT)
        else:
            inside.add((f, r))
    for i in range(max(grid.files, grid.ranks) + 1):  # thicker around each 4x4 cell
        ink, thick = (MUTED, max(2, at.px(4))) if i % 4 == 0 else (LINE, max(1, at.px(2)))
        x, y = grid.left + i * grid.cell, grid.top + i * grid.cell
        if i <= grid.files:
            draw.line((x, grid.top, x, grid.bottom), fill=ink, width=thick)
        if i <= grid.ranks:
            draw.line((grid.left, y, grid.right, y), fill=ink, width=thick)
    kit.squared_line(draw, grid.outline(inside), INK, max(3, at.px(7)))
    for f in range(grid.files):  # the file letters under and over the board
        x0, _, x1, _ = grid.at(f, 0)
        for y, anchor in ((grid.bottom + at.px(6), "ma"), (grid.top - at.px(6), "md")):
            kit.text(image, ((x0 + x1) / 2, y), chr(ord("a") + f), size, INK, anchor=anchor,
                     bold=True)
    for r in range(grid.ranks):  # the rank numbers left and right of it
        _, y0, _, y1 = grid.at(0, r)
        for x, anchor in ((grid.left - at.px(10), "rm"), (grid.right + at.px(10), "lm")):
            kit.text(image, (x, (y0 + y1) / 2), str(r + 1), size, INK, anchor=anchor,
                     bold=True)
    return image


def _block(image: Image.Image, grid: Grid, squares: list[str], colour: SeatColour,
           at: kit.Layout) -> None:
    """A placed block: its squares in the colour, an ink outline, the colour's letter on
    its middle square."""
    draw = ImageDraw.Draw(image)
    cells = {kit.square_index(s) for s in squares}
    for f, r in cells:
        draw.rectangle(grid.at(f, r), fill=colour.fill)
    kit.squared_line(draw, grid.outline(cells), INK, max(2, at.px(4)))
    mf = sum(f for f, _ in cells) / len(cells)
    mr = sum(r for _, r in cells) / len(cells)
    f, r = min(sorted(cells), key=lambda c: (c[0] - mf) ** 2 + (c[1] - mr) ** 2)
    x0, y0, x1, y1 = grid.at(f, r)
    kit.text(image, ((x0 + x1) / 2, (y0 + y1) / 2), colour.letter, at.px(kit.SMALL),
             colour.ink, anchor="mm", bold=True)


def _point_block(image: Image.Image, grid: Grid, point: dict[str, Any],
                 colours: list[SeatColour], at: kit.Layout, over: bool) -> None:
    """A point block: its shape on a tile; the leader's letter and count on a band in its
    colour; the whole tile in the colour once won (for good, or at the final count)."""
    cells = [kit.square_index(s) for s in point["squares"]]
    x0, y0, _, _ = grid.at(min(f for f, _ in cells), max(r for _, r in cells))
    inset = max(2, at.px(4))
    size = 2 * grid.cell - 2 * inset
    leader, secured = point["leader"], point["secured"]
    won: int | None = secured if secured is not None else leader if over else None
    fill, ink = ((colours[won].fill, colours[won].ink) if won is not None else
                 (PLATE, INK) if point["in_play"] else (OUT, MUTED))
    image.paste(_plate(size, fill, ink, str(point["kind"]), max(2, at.px(4))),
                (x0 + inset, y0 + inset))
    band = (x0 + inset * 2, y0 + inset + round(size * 0.54), x0 + size, y0 + size)
    centre = (x0 + inset + size / 2, (band[1] + band[3]) / 2)
    label = "TIE" if point["in_play"] and max(point["counts"]) > 0 else ""
    if won is None and leader is not None:  # a lead, not yet won: a band in its colour
        ImageDraw.Draw(image).rectangle(band, fill=colours[leader].fill, outline=INK,
                                        width=max(1, at.px(2)))
        ink = colours[leader].ink
    if leader is not None:
        label = f"{colours[leader].letter} {point['counts'][leader]}"
        if kit.text_width(label, at.px(kit.SMALL), bold=True) > size:  # 'G10', not 'G 10'
            label = label.replace(" ", "")
    if label:
        kit.text(image, centre, label, at.px(kit.SMALL), ink, anchor="mm", bold=True)


@functools.lru_cache(maxsize=128)
def _plate(size: int, fill: RGB, ink: RGB, kind: str, border: int) -> Image.Image:
    """The tile of a point block, its shape in the upper half."""
    tile = Image.new("RGB", (size, size), fill)
    draw = ImageDraw.Draw(tile)
    draw.rectangle((0, 0, size - 1, size - 1), outline=INK, width=border)
    s = round(size * 0.5)
    left, top = (size - s) // 2, round(size * 0.03)
    icon(draw, kind, (left, top, left + s, top + s), ink, fill)
    return tile


def icon(draw: ImageDraw.ImageDraw, kind: str, box: Box, fill: RGB = INK,
         ground: RGB = PAPER) -> None:
    """A point block's shape: circle (a ring, so that it never looks like the hexagon at
    phone size), triangle, diamond, star or hexagon; ``ground`` shows through the ring."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    if kind == "circle":
        draw.ellipse(box, fill=fill)
        hole = r * 0.45
        draw.ellipse((cx - hole, cy - hole, cx + hole, cy + hole), fill=ground)
        return
    count, start = {"triangle": (3, -90), "diamond": (4, -90), "hexagon": (6, 0),
                    "star": (10, -90)}.get(kind, (4, 45))
    points = []
    for k in range(count):
        reach = r if kind != "star" or k % 2 == 0 else r * 0.42
        angle = math.radians(start + 360 * k / count)
        points.append((cx + reach * math.cos(angle),
                       cy + reach * math.sin(angle) + (r * 0.15 if kind == "triangle" else 0)))
    draw.polygon(points, fill=fill)


# --------------------------------------------------------------------------- the hand


def hand(view: dict[str, Any], *, width: int = 1000) -> Image.Image | None:
    """A seat's blocks still to place, as shapes with their names, and how to read the
    board; None for a spectator."""
    if view.get("seat") is None:
        return None
    at = kit.Layout(width)
    seat = int(view["seat"])
    parts: list[Image.Image | None] = [kit.hand_title(_seated(view), at, "Your blocks"),
                                       *(_shapes(view, c, at) for c in _seat_colours(view, seat))]
    mine = kit.seat_colour(view["colours"][_seat_colours(view, seat)[0]])
    word = mine.name.capitalize()
    parts.append(kit.legend(at, [
        (mine, f"{mine.letter} 5 on a point block: {word} leads, holding 5 of its 12 spaces"),
        (mine, "the whole tile in colour: won for good"),
    ]))
    supply = view["supply"]
    mover = view.get("result") is None and int(view["owners"][view["turn"]]) == seat
    parts.append(_note(at, [
        *([rule(view)] if mover else []),
        "A move: block, turn, square, as in '5L r90 h9'. Blocks lie here as r0; r90 turns "
        "a quarter clockwise, f0-f270 mirror first. The square is the leftmost of the "
        "block's lowest row once turned: the dot, as drawn.",
        f"A point block goes to the colour holding most of its 12 spaces; "
        f"{view['shape_win']} of one shape win at once. Penalty tokens left: "
        f"{supply.get('-2', 0)} of -2, {supply.get('-1', 0)} of -1."]))
    return kit.stack(parts)


def _shapes(view: dict[str, Any], colour: int, at: kit.Layout) -> Image.Image:
    """One colour's blocks still to place, as shapes lying as a move's r0 names them, with
    their names ('2x5L': two) and a dot on the square a move names (the leftmost square of
    the lowest row); rows as tall as their tallest block."""
    fill = kit.seat_colour(view["colours"][colour])
    blocks: list[str] = view["blocks"][colour]
    counts = Counter(blocks)  # in the order of the blocks
    squares = sum(len(SHAPES[b]) for b in blocks)
    title = (f"{_colour_word(view, colour)}: {len(blocks)} blocks, {squares} squares"
             + (" (passed)" if view["passed"][colour] else ""))
    titles = kit.wrap(title, at.px(kit.TEXT), at.body, bold=True)
    unit, gap, label = at.px(26), at.px(22), at.px(kit.SMALL)
    rows: list[list[tuple[str, str, int, int]]] = [[]]  # name, word, slot's left, width
    x = at.margin
    for name, count in counts.items():
        wide = max(c[0] for c in SHAPES[name]) + 1
        word = name.upper() if count == 1 else f"{count}x{name.upper()}"
        slot = max(wide * unit, kit.text_width(word, label, bold=True))
        if rows[-1] and x + slot > at.width - at.margin:
            rows.append([])
            x = at.margin
        rows[-1].append((name, word, x, slot))
        x += slot + gap
    tall = [max((max(c[1] for c in SHAPES[n]) + 1 for n, *_ in row), default=0) for row in rows]
    top = at.px(8) + len(titles) * at.px(44) + at.px(8)
    height = sum(t * unit + label + at.px(24) for t in tall) if counts else at.px(10)
    block = kit.canvas(at.width, top + height + at.px(8))
    for n, line in enumerate(titles):
        kit.text(block, (at.margin, at.px(8) + n * at.px(44)), line, at.px(kit.TEXT), INK,
                 bold=True)
    draw = ImageDraw.Draw(block)
    y = top
    for row, high in zip(rows, tall, strict=True):
        bottom = y + high * unit
        for name, word, left, slot in row:
            cells = SHAPES[name]
            left += (slot - (max(c[0] for c in cells) + 1) * unit) // 2
            for cx, cy in cells:
                bx, by = left + cx * unit, bottom - (cy + 1) * unit
                draw.rectangle((bx, by, bx + unit, by + unit), fill=fill.fill, outline=INK,
                               width=max(1, at.px(2)))
            ax, r = min(cx for cx, cy in cells if cy == 0), unit * 0.38  # the anchor's dot
            dx, dy = left + (ax + 0.5) * unit, bottom - 0.5 * unit
            draw.ellipse((dx - r, dy - r, dx + r, dy + r), fill=fill.ink)
            kit.text(block, (left + (max(c[0] for c in cells) + 1) * unit / 2,
                             bottom + at.px(6)), word, label, INK, anchor="mt", bold=True)
        y = bottom + label + at.px(24)
    return block


def _note(at: kit.Layout, paragraphs: list[str]) -> Image.Image:
    """Paragraphs in small type under a thin line."""
    lines = [line for p in paragraphs for line in kit.wrap(p, at.px(kit.SMALL), at.body)]
    block = kit.canvas(at.width, at.px(32) + at.px(36) * len(lines))
    ImageDraw.Draw(block).line((at.margin, at.px(6), at.width - at.margin, at.px(6)),
                               fill=SHADE, width=max(1, at.px(3)))
    for i, line in enumerate(lines):
        kit.text(block, (at.margin, at.px(20) + i * at.px(36)), line, at.px(kit.SMALL), MUTED)
    return block


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The table, and under it the seat's blocks for a seat's view."""
    return kit.stack([table(view, width=width), hand(view, width=width)])


def seat_colours(view: dict[str, Any]) -> list[str]:
    """Each seat's colour on the recap's chart: the first colour it plays."""
    owners = list(view["owners"])
    return [view["colours"][owners.index(s)] for s in range(int(view["players"]))]
