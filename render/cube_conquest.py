"""The pictures of a Cube Conquest view: the table everyone sees, and a seat's own hand.

The table: who acts and what happened last (and, where the two lines under the title leave
room, how points are won), the 5x5 board (coordinates on every edge, each seat's home edge
a bar in its colour), a row per seat with its discard pile, or at the end the result broken
down. The last move's route, or the attack, is an arrow in the mover's colour under the
tiles' names and pips, so that they stay readable. A seat's hand: the card or two it picked
in secret for a fight, its cards, its discard pile. Face-down tiles stay blank; the
symbols' icons are ``render.cube_icons``. ``describe`` says all of it in words. Every mark
is explained in the guide's ``symbols`` topic.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from render import kit
from render.cube_icons import icon
from render.kit import INK, MUTED, PAPER, RGB, Grid
from rules.core import load_data

NAME = "Cube Conquest"
PIPS: dict[str, int] = {s["name"]: s["pips"] for s in load_data("cube-conquest")["symbols"]}
CHROME = 58  # room for the coordinates and the home edges around the board, at 1000 px
EDGE_WORDS = {"south": "row 1", "north": "row 5", "west": "column a", "east": "column e"}

FACE: RGB = kit.rgb("#F3EEE2")  # a revealed tile
LIT: RGB = kit.rgb("#D8C8F0")  # a revealed tile the last action touched: lavender
BACK: RGB = kit.rgb("#3D4A5C")  # a face-down tile
MAT: RGB = kit.rgb("#9C9586")  # the table under the tiles
SEATS = {name: kit.seat_colour(name).fill for name in load_data("cube-conquest")["colours"]}
# Colours a player tells apart (tests/test_render.py: 20 apart in CIEDE2000, also under
# protanopia and deuteranopia): the seats; the tiles (face up, face down, touched by the
# last action) and the table between them; and a cube of each seat on the tiles it stands
# on. A gold highlight (#F6DE8D) was 5 from the yellow cubes and 18 from a plain tile.
TOLD_APART: dict[str, dict[str, RGB]] = {
    "seats": SEATS,
    "tiles": {"revealed": FACE, "face down": BACK, "last action": LIT, "table": MAT},
    "cubes on tiles": {**SEATS, "revealed tile": FACE, "last action's tile": LIT},
}

# --------------------------------------------------------------------------- words


def _plural(n: int, word: str) -> str:  # '1 card', '2 cards'
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _card(symbol: str) -> str:
    return f"{symbol} ({PIPS[symbol]})"  # 'crown (5)'


def last_move(view: dict[str, Any], names: list[str]) -> str:
    """The last action in words, with a move's route: 'Red moved b5 to c3 by b5-b4-c4-c3.'"""
    action, last = view.get("last_action"), list(view.get("last") or [])
    if not action:
        return ""
    who, kind, lost = names[action["seat"]], action["kind"], action.get("destroyed")
    first, end = (last[0], last[-1]) if last else ("", "")
    if kind == "move":
        return f"{who} moved {first} to {end}" + (f" by {'-'.join(last)}." if len(last) > 2
                                                  else ".")
    if kind == "attack":
        return f"{who} attack{'s' if lost is None else 'ed'} {end} from {first}" + (
            "." if lost is None else f" and won: {end} is destroyed." if lost == end
            else f" and lost the cube on {first}.")
    return {"place": f"{who} placed a cube on {first}.", "reinforce": f"{who} added a cube "
            f"on {first}.", "outpost": f"{who} built an Outpost on {first}.",
            "prepare": f"{who} prepared: discarded 2 cards, took 1 back."
            }.get(kind, f"{who} passed.")


def status(view: dict[str, Any]) -> tuple[str, str]:
    """The headline (who acts, doing what) and the detail under it (the fight, the last
    move), in the names drawn."""
    names = [s.name for s in kit.seats(view)]
    acting = kit.listing([names[s] for s in view["to_act"]])
    attack, result = view.get("attack"), view.get("result")
    if result is not None:
        winners = [names[s] for s in result["winners"]]
        return f"{kit.listing(winners)} {'wins' if len(winners) == 1 else 'win'}", ""
    if view["phase"] == "setup":
        edges = kit.listing([EDGE_WORDS[view["edges"][s]] for s in view["to_act"]])
        return f"{acting} places a starting cube", f"On {edges}; each seat places 2."
    if attack is None:
        return f"{acting} to move", last_move(view, names)
    a, d = names[attack["attacker"]], names[attack["defender"]]
    whose = f"{d}'s Outpost" if attack["outpost"] else d
    fight = f"{a} attacks {whose} on {attack['to']} from {attack['from']}"
    if view["phase"] == "choose":
        return (f"{acting} chooses which card to use",
                f"{fight} with {_card(attack['attacker_card'])}; {d} placed 2 cards.")
    count, done = attack["defender_card_count"], [names[s] for s in attack["chosen"]]
    said = f" {d} has no card and defends with 0." if count == 0 else (
        f" {d} placed 2 cards." if count == 2 else f" {kit.listing(done)} has chosen."
        if done else "")
    head = "chooses a card" if len(view["to_act"]) == 1 else "choose cards"
    return f"{acting} {head} in secret", f"{fight}.{said}"


def summary(view: dict[str, Any]) -> str:
    """One line: whose turn, the points, the last move; a seat's own hand and picks."""
    names = [s.spoken if s.spoken == s.colour.name.capitalize()
             else f"{s.spoken} ({s.colour.name.capitalize()})" for s in kit.seats(view)]
    head, detail = status({**view, "names": names})
    result = view.get("result")
    points = ", ".join(f"{n} {p}" for n, p in zip(names, view["points"], strict=True))
    parts = [f"{NAME}, {head if result is None else 'game over: ' + result['reason']}",
             f"Points: {points} ({view['points_to_win']} to win)."]
    if result is None:
        parts += [detail, "In hand: " + ", ".join(f"{n} {_plural(c, 'card')}" for n, c in
                                                  zip(names, view["hand_counts"], strict=True)),
                  "Discard piles: " + "; ".join(f"{n} {_pile(pile)}" for n, pile in zip(
                      names, view["discards"], strict=True)) if any(view["discards"]) else ""]
    if view.get("seat") is not None and "hand" in view:
        parts += _own_lines(view)
    return " ".join(" ".join(p.rstrip(".") + "." for p in parts if p).split())


def describe(view: dict[str, Any]) -> str:
    """The picture in words, line by line, for a screen reader: whose turn and the last
    move, each seat (its colour as a word, letter, home edge, points, cards, supply, its
    discard pile in order), the board row by row from row 5 down (each tile's symbol, face
    down, and whose cube or Outpost stands there), the result; a seat's fight and hand."""
    all_seats = kit.seats(view)
    names = [s.spoken for s in all_seats]
    head, detail = status({**view, "names": names})
    result = view.get("result")
    lines = [f"{NAME}. {head}." + (f" {detail}" if detail else "")]
    if result is not None:
        lines.append(f"Game over: {result['reason']}")
    lines.append(f"Points ({view['points_to_win']} win, 1 per fight won): " + ", ".join(
        f"{n} {p}" for n, p in zip(names, view["points"], strict=True)) + ".")
    deck = view.get("shared_deck")
    for s, seat in enumerate(all_seats):
        cubes = sum(sq["cubes"] for sq in view["board"] if sq["owner"] == s)
        lines.append(
            f"{seat.spoken}: {seat.colour.name} ({seat.colour.letter}), home "
            f"{EDGE_WORDS[view['edges'][s]]}; {_plural(view['hand_counts'][s], 'card')} in "
            f"hand" + ("" if deck else f", {view['deck_counts'][s]} in deck")
            + f", {_plural(cubes, 'cube')} on the board, {view['supply'][s]} in supply.")
        pile = view["discards"][s]
        lines.append(f"{seat.spoken}'s discard pile, face up: " + (", ".join(
            pile) + f" ({_plural(len(pile), 'card')}, the last discarded last)." if pile
            else "empty."))
    if deck:
        lines.append(f"Shared deck: {_plural(view['deck_counts'][0], 'card')}.")
    lines.append("The board, row 5 at the top, files a to e from the left (pips: " + ", ".join(
        f"{symbol} {pips}" for symbol, pips in PIPS.items()) + "):")
    squares = {sq["square"]: sq for sq in view["board"]}
    for row in range(view["size"], 0, -1):
        said = []
        for file in "abcde"[: view["size"]]:
            sq = squares[f"{file}{row}"]
            what = f"{sq['square']} {sq['symbol'] or 'face down'}"
            if sq["owner"] is not None and sq["cubes"]:
                kind = "Outpost" if sq["cubes"] >= 2 else "cube"
                what += f", {all_seats[sq['owner']].colour.name} {kind}"
            said.append(what)
        hidden = all(w.endswith("face down") for w in said)
        lines.append(f"Row {row}: " + ("all face down" if hidden else "; ".join(said)) + ".")
    if result is not None:
        lines += _result_lines(view, names)[1:]
    if view.get("seat") is not None and "hand" in view and result is None:
        lines += _own_lines(view)
    return "\n".join(lines)


def _own_lines(view: dict[str, Any]) -> list[str]:
    """The viewing seat's own: the cards it picked for the fight, its notes, its hand."""
    mine = _own_picks(view)
    picked = [f"You picked {kit.listing([_card(c) for c in mine])} for the fight on "
              f"{view['attack']['to']}."] if mine else []
    return [*picked, *_fight_notes(view),
            f"Your hand: {', '.join(_card(c) for c in view['hand']) or 'no cards'}."]


def _own_picks(view: dict[str, Any]) -> list[str]:
    """The cards the viewing seat has picked for the fight under way, if any."""
    attack, seat = view.get("attack"), view.get("seat")
    if attack is None or seat not in (attack["attacker"], attack["defender"]):
        return []
    if seat == attack["attacker"]:
        return [attack["attacker_card"]] if attack["attacker_card"] else []
    return list(attack.get("defender_cards") or [])


def _fight_notes(view: dict[str, Any]) -> list[str]:
    """What the viewing seat should know of its fight: how to pick; for an Outpost's two
    cards, what each counts and, once the attack is shown, which wins."""
    attack, seat, mine = view.get("attack"), view.get("seat"), _own_picks(view)
    if attack is None or seat not in (attack["attacker"], attack["defender"]):
        return []
    tile = next(sq["symbol"] for sq in view["board"] if sq["square"] == attack["to"])
    outpost = 1 if attack["outpost"] else 0
    rule = f"Ties go to the attacker; the defender adds +1 with {tile}" + (
        " and +1 for the Outpost." if outpost else ".")
    if len(mine) < 2:
        if mine:
            return ["Shown to all: the defender now chooses which of two cards to use."
                    if view["phase"] == "choose" else "Shown when both sides have chosen.", rule]
        hand = view["hand"]
        two = seat == attack["defender"] and outpost and len(hand) >= 2
        return [] if seat not in view["to_act"] or not hand else [
            f"Pick one card or two in secret ('pick {hand[0]} {hand[-1]}'): with two, you "
            "choose which to use once the attacker's card is shown." if two else
            f"Pick a card in secret, e.g. 'pick {hand[-1]}'.", rule]
    hit = attack.get("attacker_card")
    notes = [f"The attack is {_card(hit)}; ties go to the attacker." if hit else
             "You choose one once the attacker's card is shown."]
    for symbol in dict.fromkeys(mine):
        value = PIPS[symbol] + (symbol == tile) + outpost
        how = " ".join([str(PIPS[symbol])] + ["+1 " + tile] * (symbol == tile)
                       + ["+1 Outpost"] * outpost)
        verdict = "" if not hit else ": you win" if value > PIPS[hit] else ": you lose"
        notes.append(f"'use {symbol}': {how} = {value}{verdict}")
    return [*notes, "The card you do not use goes back to your hand."]


class _Tiles(NamedTuple):
    """The measures of a tile on a board of ``cell`` pixels a square."""

    at: kit.Layout
    inset: int  # between tiles, and from a tile's edge to its pips and under its plate
    size: int  # a tile's side
    text: int  # its name and pips
    plate: int  # its name plate's height
    cube: int
    edge: int  # from a tile's side to its name plate's: narrow, so 'hammers' fits

    @property
    def name(self) -> int:
        """A name plate's width."""
        return self.size - 2 * self.edge

    def spot(self, grid: Grid, square: str) -> tuple[int, int]:
        """Where a cube stands (its front cube's centre), and the route passes: right of
        the middle, clear of the pips and the name plate whether on top or at the bottom."""
        x, y = grid.centre(square)
        return x + self.at.px(8), y


def _measure(at: kit.Layout, cell: int) -> _Tiles:
    inset, plate = max(2, at.px(4)), at.px(kit.SMALL + 6)
    size = cell - 2 * inset
    between = 2 * (cell // 2 - 2 * inset - plate)  # a cube between the two places of a plate
    return _Tiles(at, inset, size, at.px(kit.SMALL), plate, min(round(size * 0.4), between),
                  max(1, at.px(2)))


# --------------------------------------------------------------------------- sprites


@functools.lru_cache(maxsize=256)
def _tile(symbol: str, size: int, plate: int, icon_shown: bool, lit: bool, flipped: bool
          ) -> Image.Image:
    """A revealed tile under its name plate and pips: its icon large in the part the plate
    leaves, unless a cube stands there or the last route crosses it."""
    tile = kit.canvas(size, size, MAT)
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 12,
                           fill=LIT if lit else FACE)
    if icon_shown:
        s, shift = round(min(size * 0.4, (size - plate) * 0.56)), size // 15
        top = (size + plate - s) // 2 if flipped else (size - plate - s) // 2
        icon(draw, symbol, ((size - s) // 2 + shift, top, (size + s) // 2 + shift, top + s))
    return tile


@functools.lru_cache(maxsize=64)
def _plate(symbol: str, width: int, height: int, text: int) -> Image.Image:
    """A tile's name on a plate, drawn over the arrow of the last move. A name is never
    shortened: on a board too small for it (none the game draws) the plate stays blank,
    and the pips say the symbol."""
    plate = kit.canvas(width, height, PAPER)
    if kit.text_width(symbol, text) <= width:
        kit.text(plate, (width / 2, height / 2), symbol, text, INK, anchor="mm")
    return plate


@functools.lru_cache(maxsize=16)
def _pips(pips: int, text: int, back: RGB) -> Image.Image:
    """A tile's pips in a black disc, drawn over the arrow of the last move."""
    r = round(text * 0.68)
    disc = kit.canvas(2 * r + 1, 2 * r + 1, back)
    ImageDraw.Draw(disc).ellipse((0, 0, 2 * r, 2 * r), fill=INK)
    kit.text(disc, (r, r), str(pips), text, PAPER, anchor="mm", bold=True)
    return disc


@functools.lru_cache(maxsize=32)
def _cube(fill: RGB, ink: RGB, letter: str, size: int, text: int, badge: int, outpost: bool,
          down: bool) -> Image.Image:
    """A cube with its colour's letter; an Outpost is two stacked, the back one marked 2 (in
    type of ``badge``) and showing above and right of the front one (below and right:
    ``down``)."""
    lift = size // 3 if outpost else 0
    sprite = Image.new("RGBA", (size + lift, size + lift))
    draw = ImageDraw.Draw(sprite)
    border, radius, top = max(2, size // 18), size // 7, 0 if down else lift
    for x, y in ((lift, lift - top), (0, top)) if outpost else ((0, 0),):
        draw.rounded_rectangle((x, y, x + size - 1, y + size - 1), radius=radius, fill=fill,
                               outline=INK, width=border)
    kit.text(sprite, (size / 2, top + size / 2), letter, text, ink, anchor="mm", bold=True)
    if outpost:
        r = round(badge * 0.56)
        x, y = size + lift - r - 1, size + lift - r - 1 if down else r
        draw.ellipse((x - r, y - r, x + r, y + r), fill=PAPER, outline=INK, width=border)
        kit.text(sprite, (x, y), "2", badge, INK, anchor="mm", bold=True)
    return sprite


@functools.lru_cache(maxsize=32)
def _card_face(symbol: str, m: _Tiles) -> Image.Image:
    """A card of the hand, drawn as its symbol's tile: icon, pips and name."""
    card = _tile(symbol, m.size, m.plate, True, False, False).copy()
    card.paste(_plate(symbol, m.name, m.plate, m.text), (m.edge, m.size - m.inset - m.plate))
    card.paste(_pips(PIPS[symbol], m.text, FACE), (m.inset, m.inset))
    return card


# --------------------------------------------------------------------------- the table


def table(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """What everyone sees: whose turn, the board as large as fits (one size while the game
    is on: room is kept for two lines under the title), the seats or the result."""
    at = kit.Layout(width)
    head, detail = status(view)
    if view.get("result") is not None:
        top = kit.header(view, at, head, detail)
        below = [kit.result_box(view, at, _breakdown(view, at))]
        used = top.height
    else:
        top = kit.header(view, at, head, _with_notes(view, at, detail))
        below = [_seat_rows(view, at)]
        used = max(top.height, at.px(24 + 56 + 24) + 2 * at.px(40))  # two lines of detail
    used += sum(b.height for b in below) + 2 * at.px(CHROME)
    cell = min((at.width - 2 * at.px(CHROME)) // 5, (at.tallest - used) // 5)
    board = cell * 5 + 2 * at.px(CHROME)  # drawn in place: one canvas, not two
    image = kit.stack([top, kit.canvas(at.width, board), *below])
    _board(view, image, at, cell, top.height)
    return image


def _with_notes(view: dict[str, Any], at: kit.Layout, detail: str) -> str:
    """The detail under the title, followed by the shared deck's size and how points are
    won, each where the two lines kept for the detail still hold it (a line of its own
    would take the room the tiles' names need with four players)."""
    notes = [f"Shared deck: {_plural(view['deck_counts'][0], 'card')}."] \
        if view.get("shared_deck") else []
    notes.append(f"A fight won scores 1 point; first to {view['points_to_win']} points wins.")
    for note in notes:
        longer = f"{detail} {note}".strip()
        if len(kit.wrap(longer, at.px(kit.TEXT), at.body)) <= 2:
            detail = longer
    return detail


def _seat_lines(view: dict[str, Any]) -> list[str]:
    """Each seat's row: its home edge in setup; then points, cards and deck (the supply,
    12 less the cubes on the board, is said in words only: the row's room is the discard
    pile's)."""
    if view["phase"] == "setup":
        return [f"home: {EDGE_WORDS[edge]}, the {edge} edge" for edge in view["edges"]]
    return [f"{_plural(view['points'][s], 'point')} · {_plural(view['hand_counts'][s], 'card')}"
            + ("" if view.get("shared_deck") else f" · deck {view['deck_counts'][s]}")
            for s in range(view["players"])]


def _seat_rows(view: dict[str, Any], at: kit.Layout) -> Image.Image:
    """The kit's seat rows, each line followed by the seat's discard pile, face up on a
    tray: a disc per card, lowest first, alike cards fanned together, the front one showing
    its pips (closer where the line leaves less room), named '· discards' where that fits
    too; else its size in words, in place of the deck's where both do not fit."""
    piles, d = view["discards"], at.px(36)
    column, size, width = kit.seat_column(view, at, least=0), at.px(kit.TEXT), at.width - at.margin
    lines, fans = [], []
    for line, pile in zip(_seat_lines(view), piles, strict=True):
        named, said = f"{line} · discards", f"{line} · {_plural(len(pile), 'discard')}"
        room = [width - column - kit.text_width(t, size) - at.px(18) for t in (named, line)]
        if (tray := _fan(pile, at, room[0])) is not None:  # the tray named, where it fits
            line = named
        elif (tray := _fan(pile, at, room[1])) is None and pile:  # the words, the deck's
            short = " · ".join(p for p in said.split(" · ") if not p.startswith("deck "))
            line = short if kit.text_width(said, size) > width - column else said  # first
        lines.append(line)
        fans.append(tray)
    block, top = kit.seat_rows(view, at, lines, least=0), at.px(6)
    draw = ImageDraw.Draw(block)
    for line, pile, fan in zip(lines, piles, fans, strict=True):
        x, middle = column + kit.text_width(line, size) + at.px(23), top + at.px(28)
        top += max(at.px(60), at.px(20 + 40 * len(kit.wrap(line, size, width - column))))
        if fan is None:
            continue
        step, gap, span = fan
        draw.rounded_rectangle((x - at.px(5), middle - d // 2 - at.px(5), x + span,
                                middle + d // 2 + at.px(5)), radius=at.px(10), fill=MAT)
        for symbol, n in sorted(Counter(pile).items(), key=lambda item: PIPS[item[0]]):
            for left in range(x, x + step * n, step):  # the back ones first: rims show
                draw.ellipse((left, middle - d // 2, left + d, middle + d // 2), fill=INK,
                             outline=MAT, width=max(1, at.px(3)))
            x += step * (n - 1) + d + gap
            kit.text(block, (x - gap - d / 2, middle), str(PIPS[symbol]), at.px(kit.SMALL),
                     PAPER, anchor="mm", bold=True)
    return block


def _fan(pile: list[str], at: kit.Layout, room: int) -> tuple[int, int, int] | None:
    """How a discard pile is drawn in ``room``: how far apart its alike cards are (20 px at
    1000, down to 4), the gap between kinds (8 px, or 3 where room is short) and how far
    its cards reach; None when it does not fit even so, or is empty."""
    kinds = len(set(pile))
    extra = len(pile) - kinds
    for gap in (at.px(8), at.px(3)):
        fixed = at.px(10) + kinds * (at.px(36) + gap) - gap
        step = min(at.px(20), (room - fixed) // extra) if extra else at.px(20)
        if pile and step >= at.px(4) and fixed + extra * step <= room:
            return step, gap, fixed - at.px(5) + extra * step
    return None


def _breakdown(view: dict[str, Any], at: kit.Layout) -> list[str]:
    """The result's lines, wrapped as the box draws them."""
    names = [s.name for s in kit.seats(view)]
    return [part for line in _result_lines(view, names) for part in
            kit.wrap(line, at.px(kit.TEXT), at.body - at.px(40))]


def _result_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    """Each seat's points (one per fight won) and cubes on the board (the tie-break), and
    the move that ended the game."""
    points = ", ".join(f"{n} {p}" for n, p in zip(names, view["points"], strict=True))
    cubes = ", ".join(f"{n} {sum(sq['cubes'] for sq in view['board'] if sq['owner'] == s)}"
                      for s, n in enumerate(names))
    lines = [f"Points, one per fight won: {points}.", f"Cubes on the board: {cubes}."]
    last = last_move(view, names)
    return lines + ([f"Last: {last}"] if last else [])


def _flipped(last: list[str], square: str) -> bool:
    """Whether ``square``'s name plate goes on top, out of the arrow's way: when the route
    crosses only its bottom edge, or ends on it coming from below (the arrowhead)."""
    def under(other: str) -> bool:
        return other[0] == square[0] and int(other[1:]) < int(square[1:])

    if len(last) > 1 and square == last[-1]:
        return under(last[-2])
    near = {b if a == square else a for a, b in itertools.pairwise(last) if square in (a, b)}
    return {under(s) for s in near if s[0] == square[0]} == {True}


def _lanes(points: list[tuple[float, float]], k: float) -> list[tuple[float, float]]:
    """A route moved ``k`` to the right of its way, so that where it doubles back both ways
    show; its steps go up, down, left or right."""
    steps = []
    for a, b in itertools.pairwise(points):
        d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        nx, ny = (a[1] - b[1]) / d * k, (b[0] - a[0]) / d * k
        steps.append(((a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)))
    out = [steps[0][0]]
    for (p, q), (r, t) in itertools.pairwise(steps):
        if (p[0] == q[0]) != (r[0] == t[0]):  # a turn: where the two lanes cross
            out.append((q[0], t[1]) if p[0] == q[0] else (t[0], q[1]))
        else:  # straight on (the same point twice) or back (a U-turn)
            out += [q, r]
    return [*out, steps[-1][1]]


def _board(view: dict[str, Any], image: Image.Image, at: kit.Layout, cell: int, y: int
           ) -> None:
    """The mat, the home edges, the coordinates, the tiles, the last route and the cubes,
    drawn on ``image`` from row ``y`` down."""
    grid = Grid(5, 5, (at.width - cell * 5) // 2, y + at.px(CHROME), cell)
    m = _measure(at, cell)
    draw = ImageDraw.Draw(image)
    pad = at.px(8)
    draw.rounded_rectangle((grid.left - pad, grid.top - pad, grid.right + pad,
                            grid.bottom + pad), radius=at.px(14), fill=MAT)
    near, far = pad + at.px(3), pad + at.px(15)
    bars = {"south": (grid.left, grid.bottom + near, grid.right, grid.bottom + far),
            "north": (grid.left, grid.top - far, grid.right, grid.top - near),
            "west": (grid.left - far, grid.top, grid.left - near, grid.bottom),
            "east": (grid.right + near, grid.top, grid.right + far, grid.bottom)}
    all_seats = kit.seats(view)
    for seat, edge in zip(all_seats, view["edges"], strict=True):
        draw.rectangle(bars[edge], fill=seat.colour.fill, outline=INK, width=max(1, at.px(2)))
    grid.coordinates(image, at.px(kit.SMALL), far + at.px(8))
    last = list(view.get("last") or [])
    over: list[tuple[Image.Image, tuple[int, int]]] = []  # plates and pips over the route
    cubes: list[tuple[Image.Image, tuple[int, int]]] = []
    for sq in view["board"]:
        x0, y0, _, y1 = grid.box(sq["square"], m.inset)
        if sq["symbol"] is None:  # face down: plain (flat colours keep PNGs small)
            draw.rounded_rectangle((x0, y0, x0 + m.size - 1, y0 + m.size - 1),
                                   radius=m.size // 12, fill=BACK)
            continue
        lit, flipped = sq["square"] in last, _flipped(last, sq["square"])
        occupied = sq["owner"] is not None and sq["cubes"] > 0
        image.paste(_tile(sq["symbol"], m.size, m.plate, not (lit or occupied), lit, flipped),
                    (x0, y0))
        disc = _pips(int(sq["pips"]), m.text, LIT if lit else FACE)
        over += [(_plate(sq["symbol"], m.name, m.plate, m.text),
                  (x0 + m.edge, y0 + m.inset if flipped else y1 - m.inset - m.plate)),
                 (disc, (x0 + m.inset, y1 - m.inset - disc.height if flipped
                         else y0 + m.inset))]
        if occupied:
            colour = all_seats[sq["owner"]].colour
            sprite = _cube(colour.fill, colour.ink, colour.letter, m.cube, at.px(kit.TEXT),
                           m.text, sq["cubes"] >= 2, flipped)
            x, y = m.spot(grid, sq["square"])
            lift = 0 if flipped else sprite.height - m.cube
            cubes.append((sprite, (x - m.cube // 2, y - m.cube // 2 - lift)))
    action = view.get("last_action")
    if len(last) >= 2 and action:  # the route or the attack: an arrow from a ringed start
        points: list[tuple[float, float]] = [m.spot(grid, s) for s in last]
        if len(set(last)) < len(last):
            points = _lanes(points, at.px(12))
        (ax, ay), (bx, by) = points[-2], points[-1]
        stop = m.cube * 0.6 / (math.hypot(bx - ax, by - ay) or 1.0)  # at the cube's edge
        points[-1] = (bx - (bx - ax) * stop, by - (by - ay) * stop)
        fill = all_seats[action["seat"]].colour.fill
        width, head, edge, r = at.px(10), at.px(34), max(2, at.px(4)), at.px(14)
        kit.arrow(draw, points, width + 2 * edge, INK, head + 2.5 * edge)
        kit.arrow(draw, points, width, fill, head)
        draw.ellipse((points[0][0] - r, points[0][1] - r, points[0][0] + r, points[0][1] + r),
                     fill=fill, outline=INK, width=edge)
    for sprite, xy in over:
        image.paste(sprite, xy)
    for sprite, xy in cubes:
        image.paste(sprite, xy, sprite)


# --------------------------------------------------------------------------- the hand


def hand(view: dict[str, Any], *, width: int = 1000) -> Image.Image | None:
    """What the viewing seat alone knows: the cards it picked for a fight and what they
    count, its hand, its discard pile. None for a spectator, in setup and at the end."""
    if view.get("seat") is None or "hand" not in view or view.get("result") is not None:
        return None
    cards, picks, notes = list(view["hand"]), _own_picks(view), _fight_notes(view)
    if not cards and not picks:
        return None
    at = kit.Layout(width)
    blocks = [kit.hand_title(view, at)]
    if picks:
        blocks += [_lines(at, [f"Picked for the fight on {view['attack']['to']}:"], True),
                   _cards(at, picks)]
    blocks += [_lines(at, notes, False)] if notes else []
    if picks:
        blocks.append(_lines(at, ["Still in your hand:" if cards else "No other cards."], True))
    if cards:
        blocks.append(_cards(at, cards))
    pile = _pile(view["discards"][view["seat"]])
    return kit.stack([*blocks, _lines(at, [f"Your discard pile: {pile}."], False),
                      kit.canvas(at.width, at.px(20))])


def _pile(cards: list[str]) -> str:
    """A discard pile by card, lowest first: '2 drops, 3 crowns, arrow', or 'empty'."""
    pile = Counter(cards)
    return ", ".join(f"{n} {s.rstrip('s')}s" if n > 1 else s for s, n in sorted(
        pile.items(), key=lambda item: PIPS.get(item[0], 0))) or "empty"


def _lines(at: kit.Layout, paragraphs: list[str], bold: bool) -> Image.Image:
    """A few lines of text across the picture: a bold title or muted notes, wrapped."""
    lines = [line for p in paragraphs for line in kit.wrap(p, at.px(kit.TEXT), at.body, bold=bold)]
    block = kit.canvas(at.width, at.px(16) + at.px(40) * len(lines))
    for n, line in enumerate(lines):
        kit.text(block, (at.margin, at.px(10) + n * at.px(40)), line, at.px(kit.TEXT),
                 INK if bold else MUTED, bold=bold)
    return block


def _cards(at: kit.Layout, symbols: list[str]) -> Image.Image:
    """A row of cards, on the mat like the board's tiles."""
    m = _measure(at, min(at.px(200), (at.body + at.px(16)) // max(4, len(symbols))))
    block = kit.canvas(at.width, m.size + at.px(36))
    ImageDraw.Draw(block).rounded_rectangle(
        (at.margin - at.px(8), at.px(10), at.margin + len(symbols) * (m.size + 2 * m.inset)
         - 2 * m.inset + at.px(8), m.size + at.px(26)), radius=at.px(14), fill=MAT)
    for n, symbol in enumerate(symbols):
        block.paste(_card_face(symbol, m), (at.margin + n * (m.size + 2 * m.inset), at.px(18)))
    return block


def draw(view: dict[str, Any], *, width: int = 1000) -> Image.Image:
    """The table with the viewing seat's hand under it (the table alone when it has none)."""
    below = hand(view, width=width)
    table_ = table(view, width=width)
    return table_ if below is None else kit.stack([table_, below])
