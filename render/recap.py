"""The recap of a finished game, as a picture and in words: each seat's points over the
course of the game (the chart), and where each seat's final points came from (the
breakdown, ``breakdown`` and ``sums``), all read from public views.

``draw(chart, *, width)`` is a pure function of a *chart*, plain JSON-able data that the bot
builds from public views alone (``points`` reads a view's public score):

    {"names": ["Alice", "Bob"],          # the seats' names, as the table shows them
     "colours": ["blue", "red"] | None,  # each seat's colour as the table draws it (None:
                                         #   the game's seats have none: numbered chips)
     "unit": "points",                   # what is counted ('points', 'crystals')
     "points": [[0, 1, 1, 2], [0, 0, 1, 1]]}  # per seat: at the deal, then after each move

Each seat is a line in its table colour, cased in ink so that light colours read on white,
drawn with its own dash pattern and ending in the seat's chip (its letter or number), so it
reads without colour too. Made like the tables: 1000 px wide by default, no capital or digit
under 20 px tall there, no taller than 1.25 x the width.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from render import bomb_squares, kit
from render.kit import INK, MUTED, PAPER, SHADE, Layout
from rules.block_buster import SIZE_OF

# Where each game's view keeps its public points (the outcome's scores at the end).
SCORE_KEYS = {"cube-conquest": "points", "bomb-squares": "crystals"}
UNITS = {"bomb-squares": "crystals"}
DASHES: list[tuple[int, ...]] = [(), (28, 14), (8, 12), (30, 10, 6, 10)]  # at 1000 px


def points(game_id: str, view: dict[str, Any]) -> list[float]:
    """Each seat's public points in a view, as the table shows them (with couples in
    Block Buster, the team's)."""
    return [float(p) for p in view[SCORE_KEYS.get(game_id, "scores")]]


def colours(game_id: str, view: dict[str, Any]) -> list[str] | None:
    """Each seat's colour as its table draws it, or None for a game without seat colours
    (Block Buster: the first colour a seat plays)."""
    found = view.get("colours")
    if not found:
        return None
    if game_id == "block-buster":
        owners = list(view["owners"])
        return [found[owners.index(s)] for s in range(int(view["players"]))]
    return [str(c) for c in found]


def unit(game_id: str) -> str:
    return UNITS.get(game_id, "points")


def chart(game_id: str, view: dict[str, Any], series: list[list[float]]) -> dict[str, Any]:
    """The chart of a game whose final public view (with its ``names``) is ``view`` and whose
    seats' points were ``series`` (per seat: at the deal, then after each move)."""
    return {"names": list(view.get("names") or []), "colours": colours(game_id, view),
            "unit": unit(game_id), "points": [list(line) for line in series]}


def summary(chart: dict[str, Any]) -> str:
    """One line for the picture's alt text: 'Points over 42 moves: Alice 10, Bob 6.'"""
    final = ", ".join(f"{seat.spoken} {_number(series[-1])}"
                      for seat, series in zip(_seats(chart), chart["points"], strict=True))
    moves = len(chart["points"][0]) - 1
    return (f"{chart['unit'].capitalize()} over {moves} move{'s' if moves != 1 else ''}: "
            f"{final}.")


# --------------------------------------------------------------------------- the breakdown
# Where each seat's final points came from, in words: read from the final public view (as
# each game's page counts points) and, for a game whose view does not keep it, from what
# each move earned (``EARNED``: Cube Conquest's fights, attacking or defending).


@dataclass(frozen=True)
class Term:
    """Some of a seat's points and where they came from, as said after the number:
    (7, 'attacks won'), (-8, 'from penalty tokens')."""

    points: float
    what: str


def _cube_fight(before: dict[str, Any], seat: int) -> str:
    """Cube Conquest: a point is a fight won, attacking or defending (the attack under way
    in the view before the move says which)."""
    attack = before.get("attack")
    if attack is not None and attack["attacker"] == seat:
        return "attacks won"
    if attack is not None and attack["defender"] == seat:
        return "defences held"
    return "fights won"


# Games whose points are earned move by move in ways the final view does not keep.
EARNED: dict[str, Callable[[dict[str, Any], int], str]] = {"cube-conquest": _cube_fight}


def _plural(count: float, word: str) -> str:
    """'1 circle', '2 circles'."""
    return f"{count:g} {word}{'' if abs(count) == 1 else 's'}"


def _counted(count: float, one: str, many: str) -> Term:
    """A term counting things worth a point each: '1 attack won', '2 attacks won'."""
    return Term(count, one if abs(count) == 1 else many)


def _cube(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """One point per fight won: attacking, or holding a defence (just 'fights won' when the
    log could not be replayed to tell them apart)."""
    if not earned:
        won = view["points"][seat]
        return [_counted(won, "fight won", "fights won")] if won else []
    return [_counted(earned[way], one, way) for way, one in (
        ("attacks won", "attack won"), ("defences held", "defence held"),
        ("fights won", "fight won")) if earned.get(way)]


def _crystallia(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """Each platform's points (1 a crystal up to 9, -1 over; 2 each flipped), -1 per black
    crystal, +2 per supercrystal."""
    terms = []
    for p in view["platforms"][seat]:
        if p["crystals"]:
            note = " flipped" if p["flipped"] else ""
            terms.append(Term(p["points"], f"{p['colour']}{note} "
                                           f"({_plural(p['crystals'], 'crystal')})"))
    black = sum(p["black"] for p in view["platforms"][seat])
    if black:
        terms.append(_counted(-black, "black crystal", "black crystals"))
    terms += [Term(2, f"for the {colour} supercrystal")
              for colour, owner in view["supercrystals"].items() if owner == seat]
    return terms


def _block_buster(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """Point blocks held by the seat's colours at the final count (sets of one shape),
    penalty tokens, squares left unplaced; with couples, the partner's points too."""
    mine = [c for c, owner in enumerate(view["owners"]) if owner == seat]
    unplaced = sum(SIZE_OF[b] for c in mine for b in view["blocks"][c])
    penalty = view["penalties"][seat]
    kinds = Counter(p["kind"] for p in view["point_blocks"] if p["leader"] in mine)
    held = ", ".join(_plural(n, kind) for kind, n in sorted(kinds.items()))
    sets = view["own_scores"][seat] - penalty + unplaced
    terms = [Term(sets, f"from point blocks ({held})" if held else "from point blocks")]
    terms += [Term(penalty, "from penalty tokens")] if penalty else []
    terms += [Term(-unplaced, f"for {_plural(unplaced, 'square')} not placed")] \
        if unplaced else []
    for team in view.get("teams") or []:
        terms += [Term(view["own_scores"][s], "from the partner's colours")
                  for s in team if seat in team and s != seat]
    return terms


def _battle_tiles(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """1 per scoring tile with the seat's marker, 1 per opponent marker it holds."""
    owned = sum(1 for sq in view["grid"] if sq["sides"] and sq["marker"] == seat)
    return [term for term in (_counted(owned, "tile with their marker", "tiles with their marker"),
                              _counted(view["held"][seat], "marker won", "markers won"))
            if term.points]


def _bomb_squares(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """The crystals each seat starts with, what each way of earning paid, less what was
    spent (the shop, redraws, rerolls, cards bought)."""
    terms = [Term(bomb_squares.START, "to start")]
    terms += [Term(view["earned"][key][seat], f"from {word}") for key, word in bomb_squares.WAYS
              if view["earned"][key][seat]]
    spent = sum(t.points for t in terms) - view["crystals"][seat]
    terms += [Term(-spent, "spent")] if spent else []
    return terms


BREAKDOWNS: dict[str, Callable[[dict[str, Any], int, dict[str, float]], list[Term]]] = {
    "cube-conquest": _cube, "crystallia": _crystallia, "block-buster": _block_buster,
    "battle-tiles": _battle_tiles, "bomb-squares": _bomb_squares,
}


def breakdown(game_id: str, view: dict[str, Any],
              earned: Sequence[dict[str, float]] | None = None) -> list[list[Term]]:
    """Per seat, where its final points came from (they add up to the outcome's scores),
    from the final public view and, for games that need it, what the replay ``earned``."""
    counted = BREAKDOWNS[game_id]
    return [counted(view, seat, earned[seat] if earned else {})
            for seat in range(int(view["players"]))]


def sums(total: float, terms: Sequence[Term], unit: str) -> str:
    """'10 points = 7 attacks won + 3 defences held'."""
    said = f"{total:g} {unit if abs(total) != 1 else unit.rstrip('s')}"
    if not terms:
        return said
    parts = [f"{abs(t.points):g} {t.what}" for t in terms]
    signs = ["-" if t.points < 0 else "+" for t in terms]
    first = f"{'-' if signs[0] == '-' else ''}{parts[0]}"
    return f"{said} = " + first + "".join(f" {s} {p}" for s, p in zip(signs[1:], parts[1:],
                                                                    strict=True))


def png(chart: dict[str, Any], *, width: int = 1000) -> bytes:
    return kit.png(draw(chart, width=width))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _step(span: float, most: int) -> int:
    """A round step (1, 2, 5, 10, 20, 50...) giving at most ``most`` ticks over ``span``."""
    for power in range(0, 12):
        for base in (1, 2, 5):
            step: int = base * 10 ** power
            if span / step <= most:
                return step
    return 10 ** 12


def _seats(chart: dict[str, Any]) -> list[kit.Seat]:
    return kit.seats({"players": len(chart["points"]), "names": chart["names"],
                      "colours": chart.get("colours")})


def draw(chart: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The chart: a title, the plot with its axes, and a legend of the seats' final points."""
    at = Layout(width)
    seats = _seats(chart)
    series = [[float(v) for v in line] for line in chart["points"]]
    moves = len(series[0]) - 1
    title = kit.canvas(width, at.px(84))
    kit.text(title, (at.margin, at.px(24)), kit.fit(
        f"{chart['unit'].capitalize()} over the game ({moves} move{'s' if moves != 1 else ''})",
        at.px(kit.LARGE), at.body, bold=True), at.px(kit.LARGE), INK, bold=True)
    legend = kit.legend(at, [(s.colour, kit.fit(f"{s.name} {_number(line[-1])}",
                                                at.px(kit.SMALL), at.px(420)))
                             for s, line in zip(seats, series, strict=True)])
    return kit.stack([title, _plot(series, seats, at), legend])


def _plot(series: list[list[float]], seats: list[kit.Seat], at: Layout) -> Image.Image:
    size = at.px(kit.SMALL)
    chip = at.px(44)
    block = kit.canvas(at.width, at.px(600))
    low = min(0.0, *(min(line) for line in series))
    high = max(1.0, *(max(line) for line in series))
    step = _step(high - low, 6)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    ticks = [low + k * step for k in range(round((high - low) / step) + 1)]
    labels = [_number(t) for t in ticks]
    left = at.margin + max(kit.text_width(t, size) for t in labels) + at.px(14)
    right = at.width - at.margin - chip - at.px(16)
    top, bottom = at.px(20), block.height - at.px(90)
    draw = ImageDraw.Draw(block)
    moves = max(1, len(series[0]) - 1)

    def x_of(move: float) -> float:
        return left + (right - left) * move / moves

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    for tick, label in zip(ticks, labels, strict=True):
        y = y_of(tick)
        draw.line((left, y, right, y), fill=MUTED if tick == 0 else SHADE,
                  width=max(1, at.px(3 if tick == 0 else 2)))
        kit.text(block, (left - at.px(10), y), label, size, MUTED, anchor="rm")
    across = _step(moves, 6)
    for move in range(0, moves + 1, across):
        kit.text(block, (x_of(move), bottom + at.px(10)), str(move), size, MUTED, anchor="mt")
    kit.text(block, ((left + right) / 2, bottom + at.px(50)), "move", size, MUTED,
             anchor="mt")
    draw.line((left, top, left, bottom), fill=INK, width=max(1, at.px(3)))
    ends: list[tuple[float, kit.Seat]] = []
    for seat, line in zip(seats, series, strict=True):
        path = [(x_of(m), y_of(v)) for m, v in enumerate(line)]
        steps = [p for k, p in enumerate(path) if k == 0 or p[1] != path[k - 1][1]
                 or k == len(path) - 1]
        stairs = [q for a, b in itertools.pairwise(steps)
                  for q in (a, (b[0], a[1]))] + [steps[-1]] * 2  # points hold until changed
        ink, casing = _inks(seat)
        _line(draw, stairs, casing, at.px(9), ())
        _line(draw, stairs, ink, at.px(5), tuple(at.px(d) for d in DASHES[
            seat.index % len(DASHES)]))
        ends.append((path[-1][1], seat))
    _end_chips(block, ends, right + at.px(10), chip, top, bottom + chip // 2, at)
    return block


def _inks(seat: kit.Seat) -> tuple[kit.RGB, kit.RGB]:
    """A seat's line colour and its casing: its own colour cased in ink, or, for a seat
    without a colour (a grey chip), ink cased in paper so that its dashes show."""
    if seat.colour.fill == kit.NUMBERED:
        return INK, PAPER
    return seat.colour.fill, INK


def _line(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], fill: kit.RGB,
          width: int, dash: tuple[int, ...]) -> None:
    """A polyline, whole or in dashes (``dash``: lengths drawn and skipped in turn)."""
    if not dash:
        draw.line(points, fill=fill, width=width, joint="curve")
        return
    pattern, k, left, drawing = list(dash), 0, float(dash[0]), True
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length, done = math.hypot(x1 - x0, y1 - y0), 0.0
        while done < length:
            part = min(left, length - done)
            if drawing:
                a, b = done / length, (done + part) / length
                draw.line((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a,
                           x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), fill=fill, width=width)
            done += part
            left -= part
            if left <= 0:
                k = (k + 1) % len(pattern)
                left, drawing = float(pattern[k]), k % 2 == 0


def _end_chips(block: Image.Image, ends: list[tuple[float, kit.Seat]], x: int, chip: int,
               top: int, bottom: int, at: Layout) -> None:
    """Each seat's chip at the height its line ends, pushed apart so that none overlap."""
    placed: list[float] = []
    for y, _ in sorted(ends, key=lambda end: end[0]):
        y = max(top + chip / 2, y, placed[-1] + chip + at.px(4) if placed else y)
        placed.append(y)
    overflow = placed[-1] - (bottom - chip / 2) if placed else 0
    if overflow > 0:
        placed = [y - overflow for y in placed]
    for y, (_, seat) in zip(placed, sorted(ends, key=lambda end: end[0]), strict=True):
        box = (x, round(y - chip / 2), x + chip, round(y + chip / 2))
        kit.chip(block, box, seat.colour, at.px(kit.SMALL))
