"""The recap of a finished game, as a picture and in words: each seat's points over the
course of the game (the chart), and where each seat's final points came from (the
breakdown, ``breakdown`` and ``sums``), all read from public views.

``draw(chart, *, width)`` is a pure function of a *chart*, plain JSON-able data that the bot
builds from public points alone (``Game.points``, each seat's points as everyone sees
them):

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
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

import render
import rules
from render import kit
from render.kit import INK, MUTED, PAPER, SHADE, Layout
from rules.core import Term

DASHES: list[tuple[int, ...]] = [(), (28, 14), (8, 12), (30, 10, 6, 10)]  # at 1000 px


def colours(game_id: str, view: dict[str, Any]) -> list[str] | None:
    """Each seat's colour as its table draws it (a renderer whose seats are not the view's
    colours in seat order says which with ``seat_colours``), or None for a game without
    seat colours."""
    found = view.get("colours")
    if not found:
        return None
    own = getattr(render.renderer(game_id), "seat_colours", None)
    return own(view) if own is not None else [str(c) for c in found]


def unit(game_id: str) -> str:
    """What the game's points are called ('points', 'crystals': ``Game.unit``)."""
    return rules.GAMES[game_id].unit


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


def breakdown(game_id: str, view: dict[str, Any],
              earned: Sequence[dict[str, float]] | None = None) -> list[list[Term]]:
    """Per seat, where its final points came from (they add up to the outcome's scores),
    from the final public view and, for games that need it, what the replay ``earned``
    (each game says it: ``Game.breakdown``)."""
    game = rules.GAMES[game_id]
    return [game.breakdown(view, seat, earned[seat] if earned else {})
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
