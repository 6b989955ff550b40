"""Block Buster: polyomino blocks laid in chains to surround point blocks.

2-4 players (AURUM, 2008), no chance and no hidden information. Each colour lays its blocks
one at a time, each sharing a side with its previous block unless it pays -2 tokens to skip
spaces; whoever holds most of the 12 spaces around a point block wins it. The board, the
point-block layout, the placing areas, the block shapes and the starting penalties did not
survive in the seed: they are designed in ``data/block-buster.json``, every decision is in
``block-buster.md``.

Read top to bottom: components (board, blocks and their orientations), state, setup, the
placements a colour may make (bitboards: the hot path), the turn, scoring and the end, then
the contract methods (moves, parsing, views).
"""

from __future__ import annotations

import functools
import operator
import random
import re
from collections import OrderedDict
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from rules.core import (
    ROLLOUT_TO_END,
    Event,
    Game,
    IllegalMove,
    InvalidMove,
    Outcome,
    State,
    Term,
    Thinking,
    listing,
    load_data,
    not_known,
    plural,
    quote,
    starts,
)

# --------------------------------------------------------------------------- components

DATA = load_data("block-buster")
FILES_N: int = DATA["board"]["files"]
RANKS_N: int = DATA["board"]["ranks"]
FILES = "abcdefghijklmnopqrstuvwxyz"[:FILES_N]
COLOURS: list[str] = DATA["colours"]
KINDS: list[str] = DATA["point_kinds"]
FLOOR: int = DATA["penalty_floor"]
SKIP_TOKEN: int = DATA["skip_token"]
SET_POINTS: list[int] = DATA["set_points"]
VARIANTS = ("standard", "special-2p", "couples", "official-2p")
CONNECTS = ("previous", "any")

EMPTY, POINT, OUTSIDE = ".", "#", "-"

# The computer players' rating of a position (``evaluate``) weighs what the points as they
# stand do not see by ``data/weights/block-buster.json`` (the file says how they were set);
# these are the weights when the file lacks one. See ``BlockBuster.evaluate``.
WEIGHTS = {"secured": 2.0, "room": 0.5, "reach": 0.0, "margin": 0.0, "skips": 0.0,
           "set": 0.0, "free_skip": 0.0}
POLICY_SAMPLE = 12  # placements the playouts' default policy rates per move


def square_name(x: int, y: int) -> str:
    """(2, 3) -> 'c4': files a.. left to right, ranks 1.. bottom to top."""
    return f"{FILES[x]}{y + 1}"


def square_xy(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1:]) - 1


SQUARE_RE = re.compile(rf"^[{FILES[0]}-{FILES[-1]}]([1-9]|1[0-9]|20)$")

# Point blocks: the squares they stand on and the 12 spaces that count for each.
POINT_BLOCKS: list[dict[str, Any]] = DATA["point_blocks"]
POINT_KIND: list[int] = [KINDS.index(p["kind"]) for p in POINT_BLOCKS]
RINGS: list[list[tuple[int, int]]] = [
    [(y, x) for x, y in map(square_xy, p["spaces"])] for p in POINT_BLOCKS]
RING_OF = {(x, y): n for n, ring in enumerate(RINGS) for y, x in ring}  # square -> point
# Each ring's 12 squares as characters of the board's rows joined ("".join(board)).
RING_CHARS = [operator.itemgetter(*(y * FILES_N + x for y, x in ring)) for ring in RINGS]
POINT_NAME: list[str] = [f"{p['kind']} point block on {p['squares'][0]}" for p in POINT_BLOCKS]
POINT_SQUARES = {square_xy(s) for p in POINT_BLOCKS for s in p["squares"]}
POINT_AT = {square_xy(s): n for n, p in enumerate(POINT_BLOCKS) for s in p["squares"]}

# Bitboards: one bit per square, rows of W = FILES_N + 1 bits; the extra column is never
# free, so a shape shifted past the left or right edge lands on it and does not fit.
W = FILES_N + 1
BOARD_BITS = sum(1 << (y * W + x) for y in range(RANKS_N) for x in range(FILES_N))
BIT_SQUARE: dict[int, str] = {y * W + x: square_name(x, y)
                              for y in range(RANKS_N) for x in range(FILES_N)}
SQUARE_BITS: dict[str, int] = {name: 1 << bit for bit, name in BIT_SQUARE.items()}
_FREE = str.maketrans({c: "0" for c in "#-0123"} | {".": "1"})


def _bit(x: int, y: int) -> int:
    return y * W + x


RING_BITS = [sum(1 << _bit(x, y) for y, x in ring) for ring in RINGS]
_MARKS = [str.maketrans({c: "1" if c == str(colour) else "0" for c in ".#-0123"})
          for colour in range(len(COLOURS))]


# Blocks: each shape's cells as drawn (x right, y up), and its distinct orientations.
ORIENTATIONS = ["r0", "r90", "r180", "r270", "f0", "f90", "f180", "f270"]
TURNED = {"r0": "as drawn", "r90": "turned a quarter clockwise", "r180": "turned half round",
          "r270": "turned three quarters clockwise", "f0": "mirrored"}  # a hint's words
BLOCK_NAMES: list[str] = [b["name"] for b in DATA["blocks"]]
BLOCK_CELLS: dict[str, list[tuple[int, int]]] = {
    b["name"]: [(c[0], c[1]) for c in b["cells"]] for b in DATA["blocks"]}
SIZE_OF: dict[str, int] = {name: len(cells) for name, cells in BLOCK_CELLS.items()}


def _anchored(cells: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Cells relative to the anchor: the leftmost square of the lowest row."""
    low = min(y for _, y in cells)
    left = min(x for x, y in cells if y == low)
    return tuple(sorted(((x - left, y - low) for x, y in cells), key=lambda c: (c[1], c[0])))


def _turned(cells: list[tuple[int, int]], orientation: str) -> tuple[tuple[int, int], ...]:
    """``orientation``: 'rN' turns N degrees clockwise; 'fN' mirrors left-right first."""
    out = [(-x, y) for x, y in cells] if orientation[0] == "f" else list(cells)
    for _ in range(int(orientation[1:]) // 90):
        out = [(y, -x) for x, y in out]
    return _anchored(out)


@dataclass(frozen=True)
class Orientation:
    """One distinct way a block lies: its name, cells from the anchor, and bit offsets."""

    block: str
    name: str
    cells: tuple[tuple[int, int], ...]
    offsets: tuple[int, ...]
    prefix: str  # the move text before the square: '5l r90 '


SHAPES: dict[str, list[Orientation]] = {}
CANONICAL: dict[tuple[str, str], str] = {}  # (block, any orientation) -> its listed name
for _name in BLOCK_NAMES:
    _seen: dict[tuple[tuple[int, int], ...], str] = {}
    SHAPES[_name] = []
    for _o in ORIENTATIONS:
        _cells = _turned(BLOCK_CELLS[_name], _o)
        if _cells not in _seen:
            _seen[_cells] = _o
            SHAPES[_name].append(Orientation(
                _name, _o, _cells, tuple(y * W + x for x, y in _cells), f"{_name} {_o} "))
        CANONICAL[_name, _o] = _seen[_cells]
ORIENTATION_OF = {(o.block, o.name): o for shapes in SHAPES.values() for o in shapes}
# Each orientation's bit offsets in board order (by file, then rank), as lists name the
# squares a placement covers.
COVERED = {key: tuple(dy * W + dx for dx, dy in sorted(o.cells))
           for key, o in ORIENTATION_OF.items()}


def _area_rows(key: str) -> list[str]:
    """The board at the start: point blocks '#', outside the placing area '-', else '.'."""
    cells = DATA["placing_areas"][key][::-1]  # the data lists the top row first
    rows = []
    for y in range(RANKS_N):
        row = ""
        for x in range(FILES_N):
            if (x, y) in POINT_SQUARES:
                row += POINT
            elif cells[y // 4][x // 4] == "X":
                row += EMPTY
            else:
                row += OUTSIDE
        rows.append(row)
    return rows


def colour_name(colour: int) -> str:
    return COLOURS[colour].capitalize()


# Names in events and results. The bot puts a player's name after a colour word when every
# seat has one colour ('Blue' -> 'Blue (Alice)'); in the special 2-player game a seat has
# two, so there the sentences name the seat as 'Player 1', which the bot replaces by the
# player's name ('Player 1 (Blue and Yellow)' -> 'Alice (Blue and Yellow)').


def colour_said(state: BlockState, colour: int) -> str:
    """A colour in an event: 'Blue', or 'Blue (Player 1)' in the special 2-player game."""
    if state.variant == "special-2p":
        return f"{colour_name(colour)} (Player {state.owners[colour] + 1})"
    return colour_name(colour)


def seat_name(state: BlockState, seat: int) -> str:
    """A seat: its colour ('Blue'), or 'Player 1 (Blue and Yellow)' in the special 2-player
    game, where a seat plays two colours."""
    colours = listing([colour_name(c) for c, o in enumerate(state.owners) if o == seat])
    if state.variant == "special-2p":
        return f"Player {seat + 1} ({colours})"
    return colours


def _side_name(state: BlockState, team: list[int]) -> str:
    """A side as one subject: 'Blue', 'Blue and Yellow' (a team of couples), or
    'Player 1 (Blue and Yellow)' (one player of the special 2-player game)."""
    return listing([seat_name(state, s) for s in team])


# --------------------------------------------------------------------------- state


@dataclass
class BlockState(State):
    """One game. ``board`` holds 20 rows, rank 1 first: '.' empty, '#' point block,
    '-' outside the placing area, '0'-'3' a colour's block. Colours are indexed 0-3."""

    variant: str  # "standard", "special-2p", "couples" or "official-2p"
    connect: str  # "previous" (the seed) or "any" (the later Korean rule)
    start: int  # the starting player
    owners: list[int]  # the seat playing each colour
    order: list[int]  # colours in turn order, the starting player's first
    turn: int  # the colour to place
    board: list[str]
    blocks: list[list[str]]  # each colour's blocks not yet placed
    previous: list[list[str]]  # squares of each colour's previous block
    tokens: list[list[int]]  # penalty tokens each seat holds (-2s and -1s)
    supply: dict[str, int]  # penalty tokens left: {"-2": n, "-1": n}
    passed: list[bool]  # per colour: passed, so out of the game
    placed: list[dict[str, Any]]  # every block on the board: colour, block, squares
    secured: list[int]  # per point block: the colour that can no longer lose it, or -1
    last: dict[str, Any] | None  # the last action: colour, kind, block, squares, skipped
    result: str | None  # why the game ended
    shape_winner: int | None  # the seat that won by a set of one shape during the game


def _teams(state: BlockState) -> list[list[int]]:
    if state.variant == "couples":
        return [[0, 2], [1, 3]]
    return [[s] for s in range(state.players)]


def _team_of(state: BlockState, seat: int) -> list[int]:
    return next(t for t in _teams(state) if seat in t)


def _penalty(state: BlockState, seat: int) -> int:
    return sum(state.tokens[seat])


def _shape_win(state: BlockState) -> int:
    """Point blocks of one shape that win at once: 3 with two players (in every variant),
    else 4."""
    return int(DATA["shape_win"][str(state.players)])


# --------------------------------------------------------------------------- setup


def _deal(players: int, seed: int, variant: str, connect: str) -> BlockState:
    start = State(players, seed, 0).rng().randrange(players)  # the players choose: lots
    if variant == "special-2p":
        owners = [0, 1, 0, 1]
    elif variant == "official-2p":
        owners = [0, 1]
    else:
        owners = list(range(players))
    colours = len(owners)
    order = [(start + k) % colours for k in range(colours)]
    key = str(players) if variant == "standard" else "4"
    if variant == "standard":
        kit = [b for b in BLOCK_NAMES if b not in DATA["set_aside"][str(players)]]
    elif variant == "official-2p":
        kit = [b for b in BLOCK_NAMES for _ in range(2)]
    else:
        kit = list(BLOCK_NAMES)
    state = BlockState(
        players=players, seed=seed, draws=1, variant=variant, connect=connect, start=start,
        owners=owners, order=order, turn=order[0], board=_area_rows(key),
        blocks=[list(kit) for _ in owners], previous=[[] for _ in owners],
        tokens=[[] for _ in range(players)],
        supply={str(k): v for k, v in DATA["penalty_tokens"].items()},
        passed=[False] * colours, placed=[], secured=[-1] * len(POINT_BLOCKS), last=None,
        result=None, shape_winner=None,
    )
    for seat, tokens in enumerate(_starting_tokens(state)):
        for token in tokens:
            state.tokens[seat].append(token)
            state.supply[str(token)] -= 1
    return state


def _starting_tokens(state: BlockState) -> list[list[int]]:
    """The penalty tokens each seat takes before the first block: the starting player's
    (and with 3-4 players the second's), by the variant and the number of players."""
    table = DATA["starting_penalties"][
        state.variant if state.variant != "standard" else str(state.players)]
    out: list[list[int]] = [[] for _ in range(state.players)]
    seats_in_order = list(dict.fromkeys(state.owners[c] for c in state.order))
    for seat, tokens in zip(seats_in_order, table, strict=False):
        out[seat] = list(tokens)
    return out


# --------------------------------------------------------------------------- placements


def _free_bits(board: list[str]) -> int:
    """Bits of the empty squares inside the placing area."""
    text = "".join(row + OUTSIDE for row in board).translate(_FREE)
    return int(text[::-1], 2)


def _grow(bits: int) -> int:
    """Every square within one step (up, down, left, right) of ``bits``, on the board."""
    return (bits | bits << 1 | bits >> 1 | bits << W | bits >> W) & BOARD_BITS


def _reference_bits(state: BlockState, colour: int) -> int:
    """The squares a new block must touch: the previous block (or, with the 'any' option,
    every block of the colour)."""
    if state.connect == "any":
        mark = str(colour)
        return sum(1 << _bit(x, y) for y, row in enumerate(state.board)
                   for x, c in enumerate(row) if c == mark)
    return sum(SQUARE_BITS[s] for s in state.previous[colour])


def _room(state: BlockState, colour: int, free: int) -> int:
    """How many of its unplaced squares a colour could still hope to place: no more than
    the free squares (``free``: ``_free_bits``) it can reach from its previous block, since
    every block must touch the one before (0 once it has passed). A cheap measure of the
    room to go on, which the points as they stand do not see; skipping spaces with tokens
    is left out."""
    if state.passed[colour]:
        return 0
    unplaced = sum(SIZE_OF[b] for b in state.blocks[colour])
    reference = _reference_bits(state, colour)
    if not reference:
        return unplaced
    region = _grow(reference) & free
    while region.bit_count() < unplaced:
        bigger = _grow(region) & free
        if bigger == region:
            break
        region = bigger
    return min(unplaced, region.bit_count())


def _reach(state: BlockState, free: int) -> list[int]:
    """Per colour, how many of its unplaced squares fit in the free squares it reaches
    before every other colour (steps from the previous block; a square reached at once by
    two colours counts for neither): the room to go on once the others take theirs."""
    colours = range(len(state.owners))
    fronts = [0 if state.passed[c] else _grow(_reference_bits(state, c)) & free
              for c in colours]
    owned = [0] * len(fronts)
    taken = 0
    while len(fronts) == 2 and any(fronts):  # the hot path: two colours
        a, b = fronts[0] & ~taken, fronts[1] & ~taken
        owned[0] |= a & ~b
        owned[1] |= b & ~a
        taken |= a | b
        fronts = [_grow(a) & free & ~taken, _grow(b) & free & ~taken]
    while any(fronts):
        fresh = [front & ~taken for front in fronts]
        for c, new in enumerate(fresh):
            rivals = 0
            for d, other in enumerate(fresh):
                if d != c:
                    rivals |= other
            owned[c] |= new & ~rivals
        for new in fresh:
            taken |= new
        fronts = [_grow(new) & free & ~taken if new else 0 for new in fresh]
    return [0 if state.passed[c] else min(_unplaced(state, c), owned[c].bit_count())
            for c in colours]


def _skipped_freely(state: BlockState) -> int:
    """The spaces the last block skipped although a block of its colour could have touched
    the previous one (0 for any other last move): paying -2 a space for nothing."""
    last = state.last
    if not last or last["kind"] != "place" or not last["skipped"]:
        return 0
    colour = last["colour"]
    own = [p["squares"] for p in state.placed if p["colour"] == colour]
    if len(own) < 2:
        return 0
    board = [list(row) for row in state.board]
    for square in last["squares"]:
        x, y = square_xy(square)
        board[y][x] = EMPTY
    free = _free_bits(["".join(row) for row in board])
    reference = sum(SQUARE_BITS[s] for squares in (own[:-1] if state.connect == "any"
                                                   else own[-2:-1]) for s in squares)
    near = _grow(reference)
    for block in dict.fromkeys([*state.blocks[colour], last["block"]]):
        for o in SHAPES[block]:
            fits, reach = free, 0
            for off in o.offsets:
                fits &= free >> off
                reach |= near >> off
            if fits & reach:
                return int(last["skipped"])
    return 0


def _colour_bits(board: list[str], colour: int) -> int:
    """Bits of the squares holding the colour's blocks."""
    text = "".join(row + OUTSIDE for row in board)
    return int(text.translate(_MARKS[colour])[::-1], 2)


def _firmness(state: BlockState, sides: list[list[int]], marks: list[int], free: int
              ) -> float:
    """How firmly the first side leads the point blocks not yet won for good, less how
    firmly the others lead them: per point block, the lead in spaces (the side's best
    colour against the others' best) over the spaces still empty, at most 1 either way."""
    own = [[marks[c] for c, o in enumerate(state.owners) if o in side] for side in sides]
    total = 0.0
    if [len(side) for side in own] == [1, 1]:  # two colours, one a side: the hot path
        mark, other = own[0][0], own[1][0]
        for point, ring in enumerate(RING_BITS):
            lead = (mark & ring).bit_count() - (other & ring).bit_count()
            if lead and state.secured[point] < 0:
                total += max(-1.0, min(1.0, lead / ((ring & free).bit_count() + 1)))
        return total
    for point, ring in enumerate(RING_BITS):
        if state.secured[point] >= 0:
            continue
        best = [max((m & ring).bit_count() for m in side) for side in own]
        lead = best[0] - max(best[1:], default=0)
        if lead:
            total += max(-1.0, min(1.0, lead / ((ring & free).bit_count() + 1)))
    return total


def _max_skip(state: BlockState, colour: int) -> int:
    """Spaces a colour may skip now: one -2 token each, never below the floor, never more
    tokens than the supply holds."""
    seat = state.owners[colour]
    return max(0, min(state.supply[str(SKIP_TOKEN)],
                      (_penalty(state, seat) - FLOOR) // -SKIP_TOKEN))


def _bits_of(bits: int) -> list[int]:
    """The set bits of ``bits``, lowest first."""
    text = bin(bits)[:1:-1]
    out, i = [], text.find("1")
    while i >= 0:
        out.append(i)
        i = text.find("1", i + 1)
    return out


# The placements of the last positions asked about, least recently used first: a search
# asks again and again about the position it starts from, between many others.
_CACHE: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 32


def _placements(state: BlockState, colour: int) -> dict[str, Any]:
    """Every placement of the colour: move text -> ('place', block, orientation, anchor bit,
    spaces skipped). Memoised on what decides it (callers never change the result)."""
    skip = _max_skip(state, colour)
    key = (tuple(state.board), state.connect, tuple(state.blocks[colour]),
           tuple(state.previous[colour]), colour if state.connect == "any" else -1, skip)
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    free = _free_bits(state.board)
    reference = _reference_bits(state, colour)
    # near[j]: squares within j steps of the reference; a block first touching near[j]
    # leaves j - 1 spaces between itself and the reference: it skips j - 1.
    near = [reference]
    for _ in range(skip + 1):
        near.append(_grow(near[-1]))
    out: dict[str, Any] = {}
    for block in dict.fromkeys(state.blocks[colour]):
        for o in SHAPES[block]:
            fits = free
            for off in o.offsets[1:]:
                fits &= free >> off
            if not fits:
                continue
            if not reference:
                for i in _bits_of(fits):
                    out[o.prefix + BIT_SQUARE[i]] = ("place", block, o.name, i, 0)
                continue
            touched = 0
            for j in range(1, skip + 2):
                reach = 0
                for off in o.offsets:
                    reach |= near[j] >> off
                new = fits & reach & ~touched
                touched |= new
                for i in _bits_of(new):
                    out[o.prefix + BIT_SQUARE[i]] = ("place", block, o.name, i, j - 1)
    _CACHE[key] = out
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out


def _cells_at(o: Orientation, x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in o.cells]


def _gap(state: BlockState, colour: int, cells: list[tuple[int, int]]) -> int:
    """Spaces between the new block and the reference: the shortest step count (up, down,
    left, right, over anything) from one to the other, less one."""
    if state.connect == "any":
        mark = str(colour)
        ref = [(x, y) for y, row in enumerate(state.board) for x, c in enumerate(row)
               if c == mark]
    else:
        ref = [square_xy(s) for s in state.previous[colour]]
    return min(abs(x - a) + abs(y - b) for x, y in cells for a, b in ref) - 1


# --------------------------------------------------------------------------- the turn


def _ring(state: BlockState, point: int, flat: str | None = None) -> str:
    """The point block's 12 spaces as board characters; ``flat`` is "".join(board)."""
    return "".join(RING_CHARS[point](flat if flat is not None else "".join(state.board)))


def _counts(state: BlockState, point: int, flat: str | None = None) -> list[int]:
    """How many of the point block's 12 spaces each colour holds."""
    ring = _ring(state, point, flat)
    return [ring.count(str(c)) for c in range(len(state.owners))]


def _leader(counts: list[int]) -> int | None:
    """The colour holding the most spaces; None when nobody or a tie."""
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return None
    return counts.index(best)


def _secure(state: BlockState, point: int) -> int:
    """The colour that has won the point block for good, or -1: it holds more of the 12
    spaces than any other colour can still reach, that colour's spaces plus the spaces
    still empty, or its spaces alone once it has passed (it places no more blocks)."""
    counts = _counts(state, point)
    empty = _ring(state, point).count(EMPTY)
    leader = _leader(counts)
    if leader is None:
        return -1
    reach = [n + (0 if state.passed[c] else empty) for c, n in enumerate(counts)]
    return leader if all(counts[leader] > r for c, r in enumerate(reach) if c != leader) else -1


def _secured_by_pass(state: BlockState, colour: int) -> list[Event]:
    """The point blocks a pass settles: those whose leader only the colour that passed
    could still have caught up with (it places no more blocks), each said; none once every
    colour has passed (the final count settles them all)."""
    events: list[Event] = []
    if all(state.passed):
        return events
    flat = "".join(state.board)
    for point, held in enumerate(state.secured):
        if held >= 0 or (owner := _secure(state, point)) < 0:
            continue
        state.secured[point] = owner
        counts = _counts(state, point, flat)
        second = max(n for c, n in enumerate(counts) if c != owner)
        why = "" if owner == colour else f"{colour_name(colour)} has passed, so "
        events.append(Event(
            f"{why}{colour_name(owner)} has won the "
            f"{POINT_NAME[point]} for good ({counts[owner]} to {second}): no colour still "
            "placing can catch up.", kind="secure", data={"colour": owner, "point": point}))
    return events


def _set_won(state: BlockState, events: list[Event]) -> bool:
    """Whether a seat has now won the winning number of point blocks of one shape for
    good: then the game ends at once (said in ``events``, with the final count)."""
    need = _shape_win(state)
    for s in range(state.players):
        sets = _sets(state, s, state.secured)
        kind = next((k for k, n in enumerate(sets) if n >= need), None)
        if kind is not None:
            state.shape_winner = s
            state.result = f"{seat_name(state, s)} won {need} {KINDS[kind]} point blocks"
            team = _team_of(state, s)
            if len(team) > 1:  # couples: the partner wins too
                state.result += f": {_side_name(state, team)} win"
            state.result += "."
            events.append(Event(f"The game ends at once: {state.result}", kind="end"))
            events.extend(_final_count(state))
            return True
    return False


def _sets(state: BlockState, seat: int, holders: list[int]) -> list[int]:
    """Point blocks of each shape the seat holds, given each point block's colour."""
    out = [0] * len(KINDS)
    for point, colour in enumerate(holders):
        if colour >= 0 and state.owners[colour] == seat:
            out[POINT_KIND[point]] += 1
    return out


def _set_points(count: int) -> int:
    if count < len(SET_POINTS):
        return SET_POINTS[count]
    return count * (count + 5) // 2  # 18, 25: the table's pattern, see block-buster.md


@functools.lru_cache(maxsize=1 << 16)
def _ring_leader(ring: str) -> int:
    """The colour holding most of a ring (its 12 board characters), or -1 for nobody or a
    tie. Memoised: the hot path of rating positions."""
    counts = [ring.count(str(c)) for c in range(len(COLOURS))]
    leader = _leader(counts)
    return -1 if leader is None else leader


def _final_holders(state: BlockState) -> list[int]:
    """Each point block's colour by majority as the board stands (-1: nobody)."""
    flat = "".join(state.board)
    return [_ring_leader("".join(chars(flat))) for chars in RING_CHARS]


def _own_scores(state: BlockState, holders: list[int] | None = None) -> list[int]:
    """Each seat's points if the game ended now: sets, penalty tokens, unplaced squares
    (``holders``: ``_final_holders``, when the caller has them)."""
    if holders is None:
        holders = _final_holders(state)
    sets = [[0] * len(KINDS) for _ in range(state.players)]  # ``_sets`` of every seat
    for point, colour in enumerate(holders):
        if colour >= 0:
            sets[state.owners[colour]][POINT_KIND[point]] += 1
    scores = []
    for seat in range(state.players):
        points = sum(_set_points(n) for n in sets[seat])
        unplaced = sum(SIZE_OF[b] for c, owner in enumerate(state.owners) if owner == seat
                       for b in state.blocks[c])
        scores.append(points + _penalty(state, seat) - unplaced)
    return scores


def _scores(state: BlockState, holders: list[int] | None = None) -> list[int]:
    """Scores as the game counts them: with couples, each seat gets its team's total."""
    own = _own_scores(state, holders)
    return [sum(own[s] for s in _team_of(state, seat)) for seat in range(state.players)]


def _advance(state: BlockState, events: list[Event]) -> None:
    """The next colour in turn order that has not passed; none left: the game ends, and the
    final count says who won what."""
    n = len(state.order)
    at = state.order.index(state.turn)
    for k in range(1, n + 1):
        colour = state.order[(at + k) % n]
        if not state.passed[colour]:
            state.turn = colour
            return
    state.result = "Every colour has passed."
    events.append(Event(f"The game ends: {state.result}", kind="end"))
    events.extend(_final_count(state))


def _place(state: BlockState, colour: int, detail: tuple[Any, ...]) -> list[Event]:
    _, block, orientation, anchor, skipped = detail
    o = ORIENTATION_OF[block, orientation]
    y0, x0 = divmod(anchor, W)
    cells = _cells_at(o, x0, y0)
    points = sorted({RING_OF[xy] for xy in cells})  # only these rings can change
    flat = "".join(state.board)
    before = {point: (_counts(state, point, flat), state.secured[point]) for point in points}
    rows = [list(row) for row in state.board]
    for x, y in cells:
        rows[y][x] = str(colour)
    state.board = ["".join(row) for row in rows]
    state.blocks[colour].remove(block)
    squares = [square_name(x, y) for x, y in cells]
    state.previous[colour] = squares
    state.placed.append({"colour": colour, "block": block, "squares": squares})
    seat = state.owners[colour]
    text = (f"{colour_said(state, colour)} places {block.upper()} {orientation} at "
            f"{square_name(x0, y0)}")
    if skipped:
        state.tokens[seat].extend([SKIP_TOKEN] * skipped)
        state.supply[str(SKIP_TOKEN)] -= skipped
        tokens = ("a -2 penalty token" if skipped == 1
                  else f"{skipped} penalty tokens of -2 each")
        text += (f", skipping {skipped} space{'s' if skipped > 1 else ''}: that costs "
                 f"{tokens}, {SKIP_TOKEN * skipped} points (penalties now "
                 f"{_penalty(state, seat)})")
    state.last = {"colour": colour, "kind": "place", "block": block,
                  "orientation": orientation, "squares": squares, "skipped": skipped}
    events = [Event(text + ".", kind="place", data={"colour": colour, "squares": squares})]
    if skipped and not state.supply[str(SKIP_TOKEN)]:
        what = "any block of its colour" if state.connect == "any" else \
            "its colour's previous block"
        events.append(Event(f"That was the last -2 penalty token: skipping is over for "
                            f"everyone, and every block from now on must touch {what}.",
                            kind="supply"))
    flat = "".join(state.board)
    for point in points:
        if state.secured[point] < 0:
            state.secured[point] = _secure(state, point)
        events.append(_standing(state, colour, point, *before[point], flat))
    if not _set_won(state, events):
        _advance(state, events)
    return events


# --------------------------------------------------------------------------- in words


def _standing(state: BlockState, colour: int, point: int, was: list[int], secured: int,
              flat: str) -> Event:
    """What a block placed on a point block's spaces did there: the spaces the colour now
    holds, and who leads, takes the lead, ties or has won the point block for good."""
    counts = _counts(state, point, flat)
    held, who = counts[colour], colour_name(colour)
    text = f"{who} holds {held} of the 12 spaces of the {POINT_NAME[point]}"
    others = [n for c, n in enumerate(counts) if c != colour]
    second = max(others, default=0)
    leader, led = _leader(counts), _leader(was)
    if secured >= 0:
        owner = "it" if secured == colour else colour_name(secured)
        text += f", which {owner} has already won for good: nothing changes there."
    elif state.secured[point] == colour:
        text += (f" and has won it for good ({held} to {second}): no other colour can "
                 "catch up.")
        return Event(text, kind="secure", data={"colour": colour, "point": point})
    elif leader == colour:
        taken = f"takes the lead from {colour_name(led)}" if led not in (None, colour) \
            else "leads"
        text += f" and {taken} ({held} to {second})."
    elif leader is None:
        tied = [colour_name(c) for c, n in enumerate(counts) if n == held and c != colour]
        text += f", as many as {listing(tied)}: tied, so as it stands nobody wins it."
    else:
        text += f"; {colour_name(leader)} leads with {counts[leader]}."
    return Event(text, kind="lead", data={"colour": colour, "point": point})


def _skip_cost(skipped: int) -> str:
    """What skipping costs, as a list of moves shows it: 'skips 2 spaces: -4 (2 tokens)'."""
    spaces = "1 space" if skipped == 1 else f"{skipped} spaces"
    tokens = "1 token" if skipped == 1 else f"{skipped} tokens"
    return f"skips {spaces}: {SKIP_TOKEN * skipped} ({tokens})"


SKIP_COSTS = [_skip_cost(n) for n in range(-FLOOR // -SKIP_TOKEN + 1)]


def _unplaced(state: BlockState, colour: int) -> int:
    return sum(SIZE_OF[b] for b in state.blocks[colour])


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _final_count(state: BlockState) -> list[Event]:
    """The count at the end: which colour wins each point block (most of its 12 spaces),
    which point blocks nobody wins and why, and each seat's score line by line."""
    holders = _final_holders(state)
    flat = "".join(state.board)
    events = []
    for colour in state.order:
        won = [p for p, c in enumerate(holders) if c == colour]
        if won:
            items = [f"the {POINT_NAME[p]} ({_counts(state, p, flat)[colour]} of 12)"
                     for p in won]
            events.append(Event(
                f"At the count, {colour_said(state, colour)} wins "
                f"{_plural(len(won), 'point block')} by holding most of the 12 spaces: "
                f"{listing(items)}.", kind="count", data={"colour": colour, "points": won}))
    tied, empty = [], 0
    for p, c in enumerate(holders):
        counts = _counts(state, p, flat)
        if c < 0 and max(counts) > 0:
            tied.append(f"the {POINT_NAME[p]} ({max(counts)} each)")
        elif c < 0 and _ring(state, p, flat).count(EMPTY) == 12:
            empty += 1
    if tied:
        events.append(Event(f"Nobody wins {listing(tied)}: a tie for the most spaces wins "
                            "nobody the point block.", kind="count"))
    if empty:
        events.append(Event(f"Nobody wins {_plural(empty, 'point block')} whose 12 spaces "
                            "are all empty.", kind="count"))
    own = _own_scores(state)
    starting = _starting_tokens(state)
    for seat in range(state.players):
        events.append(Event(_score_line(state, seat, holders, starting[seat], own[seat]),
                            kind="score", data={"seat": seat}))
    if state.variant == "couples":
        events.append(Event(listing([f"{_side_name(state, t)} score {_scores(state)[t[0]]} "
                                     "together" for t in _teams(state)]) + ".", kind="score"))
    return events


def _score_line(state: BlockState, seat: int, holders: list[int], starting: list[int],
                total: int) -> str:
    """'Blue scores 4: 2 circles 7, 1 star 3; penalty tokens -5 (-3 at the start, 1 skip
    -2); 1 square unplaced -1.'"""
    sets = _sets(state, seat, holders)
    won = [f"{_plural(n, KINDS[k])} {_set_points(n)}" for k, n in enumerate(sets) if n]
    tokens = state.tokens[seat]
    if tokens[:len(starting)] != starting:  # a position set up by hand
        starting = []
    skips = len(tokens) - len(starting)
    causes = ([f"{sum(starting)} at the start"] if starting else []) + \
        ([f"{_plural(skips, 'skip')} {SKIP_TOKEN * skips}"] if skips else [])
    penalty = f"penalty tokens {sum(tokens)}" + (f" ({', '.join(causes)})" if causes else "")
    unplaced = sum(_unplaced(state, c) for c, o in enumerate(state.owners) if o == seat)
    parts = [", ".join(won) or "no point blocks", penalty,
             f"{_plural(unplaced, 'square')} unplaced {-unplaced}" if unplaced
             else "every block placed"]
    return f"{seat_name(state, seat)} scores {total}: {'; '.join(parts)}."


# --------------------------------------------------------------------------- the game


class BlockBuster(Game[BlockState]):
    """Block Buster, by the contract of ``rules.core.Game``."""

    id = "block-buster"
    # Block Buster's best moves are few and its lines long (a colour is lost by getting
    # stuck several moves on), so a narrow tree (40 games at 150 playouts against greedy:
    # 52.5% at widening 2.0, 62.5% at 1.0, 81% at 0.5, 77.5% at 0.25) whose playouts roll 4
    # moves on with ``policy`` (against chain open, 10 games: 50% at rollout 0, 90% at 4)
    # at 100 playouts (150: no stronger, 1.5 times the CPU). ``expert`` rolls on to the end
    # of the game (20 games at hard's 100 playouts: against block them 85% -> 100%, chain
    # open 87.5% -> 95%; but 1.4-1.8 s a move at the median with 3-4 players, 8.5 s at
    # most, beyond ``hard``'s second). See block-buster.md.
    thinking = Thinking(budget=100, widening=0.5, rollout=4, expert_rollout=ROLLOUT_TO_END)
    name = "Block Buster"
    min_players = 2
    max_players = 4
    summary = ("Lay your polyomino blocks in a chain, each touching your previous one, to "
               "hold most of the 12 spaces around point blocks; skipping spaces costs -2, "
               "blocks left over cost 1 per square.")
    state_type = BlockState

    options_help: ClassVar[dict[str, str]] = {
        "variant": "standard, special-2p, couples or official-2p",
        "connect": "previous (touch your last block) or any (touch any of your blocks)",
    }
    option_values: ClassVar[dict[str, tuple[str | bool, ...]]] = {
        "variant": tuple(VARIANTS), "connect": tuple(CONNECTS)}

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None
            ) -> BlockState:
        self.check_options(options)
        self.check_players(players, options)
        options = dict(options or {})
        variant = str(options.pop("variant", "standard"))
        connect = str(options.pop("connect", "previous"))
        return _deal(players, seed, variant, connect)

    def player_range(self, options: dict[str, Any] | None = None) -> tuple[int, int]:
        """2 to 4 players; the special-2p and official-2p variants 2, couples 4."""
        fixed = {"special-2p": 2, "official-2p": 2, "couples": 4}.get(
            str((options or {}).get("variant", "standard")))
        return (fixed, fixed) if fixed else (self.min_players, self.max_players)

    def opening(self, state: BlockState) -> list[Event]:
        events = [starts(colour_said(state, state.turn), "drawn by lot")]
        if state.variant == "special-2p":
            events.append(Event(
                f"Each player plays two colours: {seat_name(state, 0)} against "
                f"{seat_name(state, 1)}, the colours taking turns in the order "
                f"{', '.join(colour_name(c) for c in state.order)}."))
        elif state.variant == "official-2p":
            events.append(Event(
                "Each colour has 32 blocks, two of each shape: a pieces picture shows a "
                "pair as '2x5L', and a move names the shape alone ('5l r0 d1')."))
        elif state.variant == "couples":
            blue, red = (_side_name(state, team) for team in _teams(state))
            events.append(Event(
                f"Two teams of partners: {blue} against {red}. Each places their own colour, "
                "and a team scores its partners' points together."))
        held = [(seat, state.tokens[seat]) for seat in
                dict.fromkeys(state.owners[c] for c in state.order) if state.tokens[seat]]
        if held:
            said = [f"{seat_name(state, seat)}{', second,' if n else ' starts'} with "
                    + (f"a {tokens[0]}" + ("" if n else " penalty token") if len(tokens) == 1
                       else f"{'' if n else 'penalty '}tokens {listing([str(t) for t in tokens])}")
                    for n, (seat, tokens) in enumerate(held)]
            events.append(Event(f"Going first is an advantage, so {listing(said)} (points "
                                "off at the end)."))
        first = self.legal_moves(state, state.owners[state.turn])  # an example it may play
        example = next((m for m in first if m.startswith("5p r0 ")), first[0] if first else "")
        events.append(Event(
            "A move names a block (its size and shape letter: '5p' is the P of 5 squares), "
            "how it lies ('r0' as your pieces picture draws it; r90, r180, r270 turn it "
            "clockwise, f0 to f270 mirror it) and the square of its anchor, the leftmost "
            "square of its lowest row" + (f": '{example}', a first move" if example else "")
            + "."))
        touch = "any block of yours" if state.connect == "any" else \
            "the block you placed just before it"
        events.append(Event(
            f"After your first block, each one must share a side with {touch}; placed "
            "apart it skips spaces, and each space skipped costs a -2 penalty token (the "
            "list says so beside such a move)."))
        events.append(Event(
            "The 2 x 2 point blocks (circle, triangle, diamond, star, hexagon) are named by "
            "shape and lower-left square, 'the star point block on j10'; at the end each "
            "goes to the colour holding most of the 12 spaces around it."))
        return events

    def to_act(self, state: BlockState) -> frozenset[int]:
        if state.result is not None:
            return frozenset()
        return frozenset({state.owners[state.turn]})

    def moves(self, state: BlockState, seat: int) -> dict[str, Any]:
        """The placements of the colour to move; 'pass' too when none of them touches its
        previous block (the seed: a blocked player "can use penalty tokens", so may also
        decline to), and 'pass' alone when nothing fits."""
        if not state.blocks[state.turn]:
            return {"pass": ("pass",)}
        found = _placements(state, state.turn)
        if any(detail[-1] == 0 for detail in found.values()):
            return found
        return {**found, "pass": ("pass", "could skip")} if found else {"pass": ("pass",)}

    def apply(self, state: BlockState, seat: int, move: str, detail: Any) -> list[Event]:
        colour = state.turn
        if detail[0] == "place":
            return _place(state, colour, detail)
        state.passed[colour] = True
        state.last = {"colour": colour, "kind": "pass", "block": None, "orientation": None,
                      "squares": [], "skipped": 0}
        left = _unplaced(state, colour)
        cost = (f"its {_plural(left, 'square')} left over will cost {left} "
                f"point{'s' if left != 1 else ''} at the end")
        if not state.blocks[colour]:
            why = "has no block left and passes"
        elif detail[-1] == "could skip":
            why = f"passes rather than skip and places no more blocks: {cost}"
        else:
            why = f"cannot place a block and passes for good: {cost}"
        events = [Event(f"{colour_said(state, colour)} {why}.", kind="pass",
                        data={"colour": colour, "left": left})]
        events += _secured_by_pass(state, colour)
        if not _set_won(state, events):
            _advance(state, events)
        return events

    def costs(self, state: BlockState, seat: int) -> dict[str, str]:
        """Each placement that skips spaces ('skips 2 spaces: -4 (2 tokens)'), and 'pass'
        while blocks are left: a colour that passes places no more, and its squares left
        over count against it ('no more blocks: -27 points'). From ``moves``, which already
        knows the spaces each placement skips."""
        if seat not in self.to_act(state):
            return {}
        found = self.moves(state, seat)
        out = {move: SKIP_COSTS[detail[-1]] for move, detail in found.items()
               if detail[-1] and detail[0] == "place"}
        left = _unplaced(state, state.turn)
        if "pass" in found and left:
            out["pass"] = f"no more blocks: -{left} point{'s' if left != 1 else ''}"
        return out

    def notes(self, state: BlockState, seat: int) -> dict[str, str]:
        """Every move of the colour to place as lists show them: by block (in the order the
        colour holds them, the largest first), then turn (r0 ... f270), then anchor square
        in board order (files a-t, each from rank 1 up), 'pass' last; beside each
        placement the squares it covers, in the same order ('covers c4 c5 c6 d4')."""
        if seat not in self.to_act(state):
            return {}
        found = self.moves(state, seat)
        rank = {b: n for n, b in enumerate(dict.fromkeys(state.blocks[state.turn]))}
        turn = {o: n for n, o in enumerate(ORIENTATIONS)}

        def order(move: str) -> tuple[int, int, int, int]:
            detail = found[move]
            if detail[0] != "place":
                return len(rank), 0, 0, 0
            y, x = divmod(detail[3], W)
            return rank[detail[1]], turn[detail[2]], x, y

        out = {}
        for move in sorted(found, key=order):
            detail = found[move]
            if detail[0] != "place":
                out[move] = ""
                continue
            anchor = detail[3]
            out[move] = "covers " + " ".join(
                [BIT_SQUARE[anchor + off] for off in COVERED[detail[1], detail[2]]])
        return out

    # -- reading what players type

    def notation_hint(self, state: BlockState, seat: int) -> str:
        """Block, turn, square; when 'pass' is allowed; what a skip costs."""
        colour = state.turn
        what = "any of your blocks" if state.connect == "any" else "your previous block"
        if _reference_bits(state, colour) and not state.supply[str(SKIP_TOKEN)]:
            after = (f" No -2 token is left, so skipping is over: a block touches {what} "
                     "('pass' when none can).")
        elif _reference_bits(state, colour):
            after = (f" A block apart from {what} skips spaces, -2 points each; 'pass' only "
                     "when none can touch it.")
        else:
            after = (" Your first block goes anywhere inside the placing area; 'pass' only when "
                     "none fits.")
        # the example: one of the seat's own placements now, an L turned a quarter if one is
        legal = self.moves(state, seat)
        if list(legal) == ["pass"]:
            return "No block of yours can be placed now, so your move is 'pass'."
        placed = [m for m in legal if m != "pass"] or ["5l r90 c4"]  # (not the seat's turn)
        turned = [m for m in placed if " r90 " in m] or placed
        block, turn, square = next((m for m in turned if m[1] == "l"), turned[0]).split()
        how = TURNED.get(turn, f"lying as {turn} names it")
        return (f"A move is block, turn, square: '{block} {turn} {square}' is the {block} "
                f"{how} (r0 as drawn, r90-r270 turned, f0-f270 mirrored first; only "
                "distinct turns are listed: 4o has only r0) with its lowest row's leftmost "
                f"square on {square}." + after)

    def parse(self, state: BlockState, seat: int, text: str) -> str:
        words = [w for w in text.split() if w not in ("at", "on", "to", "place", "put",
                                                        "block")]
        hint = partial(self.notation_hint, state, seat)  # worked out only when refused
        if words == ["pass"]:
            return "pass"
        if not words:
            raise InvalidMove(f"That is not a move I understand. {hint()}")
        block = _block_word(words[0])
        kit = _kit(state)
        if block is None and words[0] in ("skip", "skips", "skipping"):
            raise InvalidMove("A skip is not a move of its own: a block placed apart from "
                              "your colour's previous block skips the spaces between, one -2 "
                              "token each, and the move list says what each placement "
                              f"skips. {hint()}")
        if block is None and SQUARE_RE.match(words[0]):
            raise InvalidMove(f"Name the block and how it lies before the square: "
                              f"'5l r0 {words[0]}'. {hint()}")
        if block is None and words[0].isalpha():
            raise InvalidMove(f"Block Buster has no move {quote(words[0])}: a move is a "
                              f"block, how it lies and a square, or 'pass' when no block "
                              f"fits. {hint()}")
        if block is None:
            raise InvalidMove(f"There is no block called {quote(words[0])}. Blocks are "
                              f"{listing(kit, 'or')}. {hint()}")
        if block not in kit:
            raise InvalidMove(f"The {block} is not used with {state.players} players; the "
                              f"blocks are {listing(kit, 'or')}.")
        orientation, squares, flip = "r0", [], False
        turned: str | None = None
        for word in words[1:]:
            if SQUARE_RE.match(word):
                squares.append(word)
            elif word in ("flip", "flipped", "mirror", "mirrored", "m", "f"):
                flip = True
            elif (m := re.fullmatch(r"(f|flip|m|mirror)?(r|rot|turn)?(0|90|180|270)", word)):
                flip = flip or bool(m.group(1))
                turned = m.group(3)
            elif re.fullmatch(r"[rf]\d+", word):
                raise InvalidMove(f"A block turns r0, r90, r180 or r270 (f0 to f270: "
                                  f"mirrored first), not {quote(word)}. {hint()}")
            else:
                raise not_known(word, ["a1", f"{FILES[-1]}{RANKS_N}"], hint())
        if len(squares) != 1:
            raise InvalidMove(f"Name one square for the block. {hint()}")
        orientation = ("f" if flip else "r") + (turned or "0")
        return f"{block} {CANONICAL[block, orientation]} {squares[0]}"

    def refuse(self, state: BlockState, seat: int, move: str) -> IllegalMove:
        colour = state.turn
        if move == "pass":
            example = next(m for m, d in self.moves(state, seat).items() if d[-1] == 0)
            what = "any of your blocks" if state.connect == "any" else "your previous block"
            when = (f"no block can touch {what}" if _reference_bits(state, colour)
                    else "no block fits")
            return IllegalMove(f"You may only pass when {when}; you can still play, e.g. "
                               f"'{example}'.")
        block, orientation, square = move.split()
        if block not in state.blocks[colour]:
            left = listing(list(dict.fromkeys(state.blocks[colour]))) or "none"
            return IllegalMove(f"{colour_name(colour)} has no {block} left (blocks left: "
                               f"{left}).")
        x0, y0 = square_xy(square)
        cells = _cells_at(ORIENTATION_OF[block, orientation], x0, y0)
        for x, y in cells:
            if not (0 <= x < FILES_N and 0 <= y < RANKS_N):
                return IllegalMove(f"{move} would stick out of the board.")
        for x, y in cells:
            c = state.board[y][x]
            if c == OUTSIDE:
                return IllegalMove(f"{move} would cover {square_name(x, y)}, outside the "
                                   f"placing area for {state.players} players.")
            if c == POINT:
                return IllegalMove(f"{move} would cover {square_name(x, y)}, part of the "
                                   f"{POINT_NAME[POINT_AT[x, y]]}.")
            if c != EMPTY:
                return IllegalMove(f"{move} would cover {square_name(x, y)}, which already "
                                   f"holds a {colour_name(int(c)).lower()} block.")
        gap = _gap(state, colour, cells)
        seat_total = _penalty(state, state.owners[colour])
        what = "your blocks" if state.connect == "any" else "your previous block"
        spaces = f"{gap} space{'s' if gap > 1 else ''}"
        if gap > state.supply[str(SKIP_TOKEN)]:
            return IllegalMove(f"{move} does not touch {what}: skipping {spaces} takes "
                               f"{gap} -2 token{'s' if gap > 1 else ''}, and the supply has "
                               f"{state.supply[str(SKIP_TOKEN)]} left.")
        return IllegalMove(f"{move} does not touch {what}: skipping {spaces} would take "
                           f"your penalties from {seat_total} to {seat_total + SKIP_TOKEN * gap}"
                           f", below {FLOOR}.")

    # -- what everybody sees (there is nothing hidden)

    def view(self, state: BlockState, seat: int | None) -> dict[str, Any]:
        points = []
        for n, p in enumerate(POINT_BLOCKS):
            counts = _counts(state, n)
            points.append({
                "kind": p["kind"], "squares": list(p["squares"]), "counts": counts,
                "in_play": any(state.board[y][x] != OUTSIDE for y, x in RINGS[n]),
                "leader": _leader(counts),
                "secured": state.secured[n] if state.secured[n] >= 0 else None,
            })
        result = self.outcome(state)
        return {
            "game": self.id, "seat": seat, "players": state.players,
            "variant": state.variant, "connect": state.connect,
            "to_act": sorted(self.to_act(state)), "turn": state.turn,
            "colours": [COLOURS[c] for c in range(len(state.owners))],
            "owners": list(state.owners), "order": list(state.order),
            "teams": _teams(state) if state.variant == "couples" else None,
            "files": FILES_N, "ranks": RANKS_N, "board": list(state.board),
            "point_blocks": points,
            "blocks": [list(b) for b in state.blocks],
            "previous": [list(p) for p in state.previous],
            "placed": [dict(p, squares=list(p["squares"])) for p in state.placed],
            "penalties": [_penalty(state, s) for s in range(state.players)],
            "tokens": [list(t) for t in state.tokens], "supply": dict(state.supply),
            "max_skip": _max_skip(state, state.turn), "floor": FLOOR,
            "passed": list(state.passed), "scores": _scores(state),
            "own_scores": _own_scores(state), "shape_win": _shape_win(state),
            "last": dict(state.last) if state.last else None,
            "result": None if result is None else {
                "winners": sorted(result.winners), "reason": result.reason},
        }

    def outcome(self, state: BlockState) -> Outcome | None:
        if state.result is None:
            return None
        scores = _scores(state)
        if state.shape_winner is not None:
            return Outcome(tuple(scores), frozenset(_team_of(state, state.shape_winner)),
                           state.result, ending="shape")
        # The final count acquires every point block at once: a player then holding the
        # winning number of one shape wins (the team with couples), ahead of points.
        need = _shape_win(state)
        holders = _final_holders(state)
        shaped = [s for s in range(state.players) if max(_sets(state, s, holders)) >= need]
        pool = {m for s in shaped for m in _team_of(state, s)} or set(range(state.players))
        best = max(scores[s] for s in pool)
        winners = frozenset(s for s in pool if scores[s] == best)
        sides = [t for t in _teams(state) if t[0] in winners]
        if len(sides) > 1 and state.variant == "couples":
            who, plural = "Both teams", True
        else:
            who = listing([_side_name(state, t) for t in sides])
            plural = len(sides) > 1 or len(sides[0]) > 1
        win = "win" if plural else "wins"
        if not shaped:
            verb = "share the win" if len(sides) > 1 else win
            return Outcome(tuple(scores), winners,
                           f"{state.result} {who} {verb} on points.", ending="points")
        holding = {tuple(_team_of(state, s)) for s in shaped}
        reason = f"{state.result} {who} {win} with {need} point blocks of one shape"
        if len(holding) > len(sides):
            reason += " and the most points of those holding such a set"
        return Outcome(tuple(scores), winners, reason + ".", ending="shape at count")

    def evaluate(self, state: BlockState, seat: int) -> float:
        """The seat's standing against the best other side: the points if the game ended
        now, and by ``self.weights`` (``WEIGHTS``) the point blocks won for good (they lead
        to the immediate win), the unplaced squares each side can still reach (``_room``:
        a colour is lost by getting stuck), how firmly it leads each open point block
        (``_firmness``), the spaces it skipped beyond their -2 tokens, and holding a set
        that wins at the count; once over, the base's rating."""
        if self.outcome(state) is not None:
            return super().evaluate(state, seat)
        w = {**WEIGHTS, **self.weights}
        holders = _final_holders(state)
        scores = _scores(state, holders)
        mine = _team_of(state, seat)
        sides = [mine] + [t for t in _teams(state) if t != mine]
        free = _free_bits(state.board)
        need = _shape_win(state)
        starting = _starting_tokens(state)
        reach = _reach(state, free) if w["reach"] else [0] * len(state.owners)

        def rate(team: list[int]) -> float:
            colours = [c for c, owner in enumerate(state.owners) if owner in team]
            held = sum(1 for c in state.secured if c >= 0 and state.owners[c] in team)
            room = sum(_room(state, c, free) for c in colours)
            skips = sum(state.tokens[s].count(SKIP_TOKEN) - starting[s].count(SKIP_TOKEN)
                        for s in team)
            sets = max(max(_sets(state, s, holders)) for s in team) >= need
            return (w["secured"] * held + w["room"] * room - w["skips"] * skips
                    + w["reach"] * sum(reach[c] for c in colours)
                    + w["set"] * sets)

        lead = scores[seat] - max((scores[t[0]] for t in sides[1:]), default=0)
        firm = 0.0
        if w["margin"]:
            marks = [_colour_bits(state.board, c) for c in range(len(state.owners))]
            firm = _firmness(state, sides, marks, free)
        wasted = _skipped_freely(state) if w["free_skip"] else 0
        if wasted and state.last is not None:  # the last block's: its side pays for it
            wasted *= 1 if state.owners[state.last["colour"]] in mine else -1
        return (lead + rate(mine) - max((rate(t) for t in sides[1:]), default=0.0)
                + w["margin"] * firm - w["free_skip"] * wasted)

    def policy(self, state: BlockState, seat: int, moves: dict[str, Any],
               rng: random.Random) -> str | None:
        """The playouts' default move, as a sensible player makes it: never skip while a
        block touches the previous one, skip the fewest spaces when none does rather than
        pass for good (unless the tokens cost more than the squares left over), and among
        those the biggest block, where it covers most spaces of point blocks still open
        and leaves most free squares around it (a few candidates rated)."""
        places = [d for d in moves.values() if d[0] == "place"]
        if not places:
            return "pass"
        fewest = min(d[-1] for d in places)
        colour = state.turn
        if fewest and "pass" in moves and \
                -SKIP_TOKEN * fewest > max(_unplaced(state, colour) // 2, 1):
            return "pass"
        places = [d for d in places if d[-1] == fewest]
        biggest = max(SIZE_OF[d[1]] for d in places)
        places = [d for d in places if SIZE_OF[d[1]] == biggest]
        if len(places) > POLICY_SAMPLE:
            places = rng.sample(places, POLICY_SAMPLE)
        free = _free_bits(state.board)
        open_rings = sum(ring for ring, c in zip(RING_BITS, state.secured, strict=True)
                         if c < 0)
        best, chosen = -1, places[0]
        for d in places:
            bits = sum(1 << (d[3] + off) for off in ORIENTATION_OF[d[1], d[2]].offsets)
            value = 4 * (bits & open_rings).bit_count() + (_grow(bits) & free & ~bits
                                                          ).bit_count()
            if value > best:
                best, chosen = value, d
        return f"{chosen[1]} {chosen[2]} {BIT_SQUARE[chosen[3]]}"

    def remark(self, public: dict[str, Any], seat: int, move: str, chance: float | None
               ) -> str | None:
        """Why a computer skipped spaces or passed for good, from the spectators' view
        before the move (there is nothing hidden): 'Blue is blocked: no block can touch its
        previous one, so it skips 1 space for -2 rather than leave 40 squares unplaced.'
        None for a placement touching the previous block, and for the pass of a colour
        with no block left."""
        state = _from_view(public)
        colour = state.turn
        found = self.moves(state, seat)
        detail = found.get(move)
        if detail is None:
            return None
        who, left = colour_said(state, colour), _unplaced(state, colour)
        what = "any of its blocks" if state.connect == "any" else "its previous one"
        blocked = not any(d[-1] == 0 for d in found.values() if d[0] == "place")
        if detail[0] == "pass":
            if not left:
                return None
            skips = [d[-1] for d in found.values() if d[0] == "place"]
            if not skips:
                why = ("it may take no more -2 tokens to skip" if not public["max_skip"]
                       else f"none fits within {_plural(public['max_skip'], 'space')} of it")
                return f"{who} is blocked: no block can touch {what} and {why}."
            return (f"{who} passes for good rather than skip: no block can touch {what}, "
                    f"and skipping at least {_plural(min(skips), 'space')} "
                    f"({SKIP_TOKEN * min(skips)}) would not pay with "
                    f"{_plural(left, 'square')} left ({-left}).")
        skipped = detail[-1]
        if not skipped:
            return None
        cost = f"{_plural(skipped, 'space')} for {SKIP_TOKEN * skipped}"
        if blocked:
            return (f"{who} is blocked: no block can touch {what}, so it skips {cost} "
                    f"rather than pass with {_plural(left, 'square')} left ({-left}).")
        cells = _cells_at(ORIENTATION_OF[detail[1], detail[2]], *square_xy(move.split()[2]))
        points = sorted({RING_OF[xy] for xy in cells})
        return (f"{who} skips {cost} to take spaces around "
                f"{listing([f'the {POINT_NAME[p]}' for p in points])} first.")

    def determinize(self, state: BlockState, seat: int | None, seed: int) -> BlockState:
        """Nothing is hidden: the same state, with a fresh random seed."""
        out = self.load(self.dump(state))
        out.seed = random.Random(f"determinize/{seed}").randrange(2**31)
        return out

    # -- points, as the recap tells them

    def points(self, state: BlockState) -> tuple[int, ...]:
        return tuple(_scores(state))

    def breakdown(self, public: dict[str, Any], seat: int, earned: dict[str, float]
                  ) -> list[Term]:
        """Point blocks held by the seat's colours at the final count (sets of one shape),
        penalty tokens, squares left unplaced; with couples, the partner's points too."""
        mine = [c for c, owner in enumerate(public["owners"]) if owner == seat]
        unplaced = sum(SIZE_OF[b] for c in mine for b in public["blocks"][c])
        penalty = public["penalties"][seat]
        kinds: dict[str, int] = {}
        for held in public["point_blocks"]:
            if held["leader"] in mine:
                kinds[held["kind"]] = kinds.get(held["kind"], 0) + 1
        named = ", ".join(plural(n, kind) for kind, n in sorted(kinds.items()))
        sets = public["own_scores"][seat] - penalty + unplaced
        terms = [Term(sets, f"from point blocks ({named})" if named else "from point blocks")]
        terms += [Term(penalty, "from penalty tokens")] if penalty else []
        terms += [Term(-unplaced, f"for {plural(unplaced, 'square')} not placed")] \
            if unplaced else []
        for team in public.get("teams") or []:
            terms += [Term(public["own_scores"][s], "from the partner's colours")
                      for s in team if seat in team and s != seat]
        return terms


def _kit(state: BlockState) -> list[str]:
    """The block names this game plays with: the standard game with 2 or 3 players sets
    some aside (``set_aside`` in the data)."""
    if state.variant != "standard":
        return list(BLOCK_NAMES)
    return [b for b in BLOCK_NAMES if b not in DATA["set_aside"][str(state.players)]]


def _from_view(view: dict[str, Any]) -> BlockState:
    """The position a view shows (every view shows all of it; the seed and the starting
    player, which no move depends on, are left at 0)."""
    return BlockState(
        players=view["players"], seed=0, draws=1, variant=view["variant"],
        connect=view["connect"], start=0, owners=list(view["owners"]),
        order=list(view["order"]), turn=view["turn"], board=list(view["board"]),
        blocks=[list(b) for b in view["blocks"]],
        previous=[list(p) for p in view["previous"]],
        tokens=[list(t) for t in view["tokens"]], supply=dict(view["supply"]),
        passed=list(view["passed"]), placed=[dict(p) for p in view["placed"]],
        secured=[-1 if p["secured"] is None else p["secured"] for p in view["point_blocks"]],
        last=dict(view["last"]) if view["last"] else None, result=None, shape_winner=None)


def _block_word(word: str) -> str | None:
    """'5l', 'l5', '5L' -> '5l'; None if no block is called that."""
    m = re.fullmatch(r"(\d)([a-z])|([a-z])(\d)", word)
    if not m:
        return None
    name = m.group(1) + m.group(2) if m.group(1) else m.group(4) + m.group(3)
    return name if name in SIZE_OF else None
