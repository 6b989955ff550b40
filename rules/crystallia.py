"""Crystallia: draft domino stones from a pyramid and lay them on the Board of Opportunity.

2-4 players. The board (6x9, six random 3x3 tiles) shows crystal colours and abilities;
each stone covers two squares and carries two crystals. Covering a colour gives that
crystal; abilities (move a stone, rotate a stone, take another turn) resolve next; then the
stone is activated: isolated it gives one crystal, matching lines give count minus one.
Too many of one colour hurts: over 9 loses points and 13 loses the game at once. Hidden
information: the face-down stones at the back of the pyramid (hidden from everyone).
Every effect is said as it happens, with what it paid and why (or why nothing), and
``costs`` names what a move surely costs (black crystals, crystals over 9, a talisman).
Every rule and every decision taken where the seed is silent: ``crystallia.md``; the
player's guide: ``guides/crystallia.md``.

Read top to bottom: components, state, setup, lines on the board, gaining crystals, the
turn (take, place, abilities, activation, end of turn), scoring, then the Game class.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

from rules.core import (
    Event,
    Game,
    IllegalMove,
    InvalidMove,
    Outcome,
    State,
    Term,
    Thinking,
    clone,
    counted,
    left_out,
    listing,
    load_data,
    not_known,
    out_of_step,
    plural,
    quote,
    starts,
)

# --------------------------------------------------------------------------- components

DATA = load_data("crystallia")
COLOURS: list[str] = DATA["colours"]  # the four scoring colours, one platform each
WILD: str = DATA["wild"]
CODES: dict[str, str] = DATA["square_codes"]
ABILITIES = ("move", "rotate", "again")
STONES: list[list[str]] = DATA["stones"]
SUPPLY: int = DATA["supply_per_colour"]
TALISMANS: int = DATA["talismans"]
RING: int = DATA["regular_platform"]["ring"]
LOSS_AT: int = DATA["regular_platform"]["loss_at"]
SUPER_AT: int = DATA["regular_platform"]["supercrystal_at"]
ADV_SPACES: int = DATA["advanced_platform"]["spaces"]
ADV_POINTS: int = DATA["advanced_platform"]["points_each"]
ADV_SUPER_AT: int = DATA["advanced_platform"]["supercrystal_at"]
SUPER_POINTS: int = DATA["supercrystal_points"]
BLACK_AT: int = DATA["black_for_crystals_in_a_turn"]

TILE = DATA["board_tiles"]["size"]
FILES_N = DATA["board_tiles"]["across"] * TILE  # 6 files, a-f
RANKS_N = DATA["board_tiles"]["down"] * TILE  # 9 ranks, 1-9
CELLS = FILES_N * RANKS_N
FILES = "abcdefghij"[:FILES_N]
SQUARES = [f"{FILES[i % FILES_N]}{i // FILES_N + 1}" for i in range(CELLS)]
INDEX = {name: i for i, name in enumerate(SQUARES)}
SQUARE_RE = re.compile(rf"^[{FILES}][1-9]$")


@dataclass(frozen=True)
class Pyramid:
    """The layout of a pyramid, per position (numbered front row first): its row, its x
    (in half-stone steps), whether it is dealt face down (the back row), and the positions
    that cover it: the stones of the row in front that overlap it."""

    row: tuple[int, ...]
    x: tuple[int, ...]
    face_down: tuple[bool, ...]
    covered_by: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return len(self.row)


def _pyramid(counts: list[int]) -> Pyramid:
    rows, xs = [], []
    for r, count in enumerate(counts):
        assert r == 0 or count < counts[r - 1], "each row is covered by the row in front"
        for k in range(count):
            rows.append(r)
            xs.append(r + 2 * k)
    covers = [tuple(q for q in range(len(rows)) if rows[q] == rows[p] - 1
                    and abs(xs[q] - xs[p]) == 1) for p in range(len(rows))]
    return Pyramid(tuple(rows), tuple(xs), tuple(r == len(counts) - 1 for r in rows),
                   tuple(covers))


# Stones per row of the pyramid, by player count (front row first; the back row face down).
PYRAMID_ROWS: dict[int, list[int]] = {int(k): v for k, v in DATA["pyramid"]["rows"].items()}
# A state's pyramid is known by its size (a game saved before the 2-player pyramid shrank
# keeps its 24 positions).
PYRAMIDS = {sum(counts): _pyramid(counts) for counts in PYRAMID_ROWS.values()}
assert max(PYRAMIDS) == len(STONES), "the largest pyramid holds every stone"


def _neighbours(i: int, diagonal: bool) -> list[int]:
    row, col = divmod(i, FILES_N)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and (diagonal or not (dr and dc)):
                r, c = row + dr, col + dc
                if 0 <= r < RANKS_N and 0 <= c < FILES_N:
                    out.append(r * FILES_N + c)
    return out


ORTHOGONAL = [_neighbours(i, False) for i in range(CELLS)]
AROUND = [_neighbours(i, True) for i in range(CELLS)]
# Every pair of orthogonally adjacent squares, lower index first.
PAIRS = [(i, j) for i in range(CELLS) for j in ORTHOGONAL[i] if j > i]


def _board_order(move: str) -> list[tuple[int, str]]:
    """A move's words, each square as its file then its rank: 'place a2 a3' before
    'place b1 b2' (a list grouped by first letters then reads a, b, c ...)."""
    return [(0, w[0] + w[1:].zfill(2)) if w in INDEX else (1, w) for w in move.split()]


def player(seat: int) -> str:
    return f"Player {seat + 1}"


def stone_name(stone: int) -> str:
    """A stone as players say it: 'red/yellow'."""
    return "/".join(STONES[stone])


# --------------------------------------------------------------------------- state


@dataclass
class CrystalliaState(State):
    """Everything about one game. Board squares are indexed a1=0 along each rank."""

    advanced: bool
    start: int  # the random first player
    turn: int  # whose turn it is (in the advanced setup: who is flipping)
    phase: str  # "flip", "take", "place", "ability", "gain" or "over"
    board: list[str]  # what each square shows: a colour, an ability or ""
    tiles: list[list[Any]]  # the board as built: [kind, number, quarter turns] per slot
    pyramid: list[int]  # stone on each pyramid position, -1 once taken
    face_up: list[bool]  # per pyramid position
    crystal: list[str]  # crystal lying on each board square, "" when empty
    stone_at: list[int]  # stone covering each square, -1 when empty
    placed: list[list[int]]  # per stone: its squares [first crystal, second crystal] or []
    holding: int  # the stone taken this turn, not yet placed (-1: none)
    played: int  # the stone placed this turn (-1: none yet)
    pending: list[int]  # ability squares covered this turn, still to resolve
    used: list[int]  # squares that paid or whose ability resolved this turn
    gained: int  # crystals taken this turn (6+ brings a black one)
    extra: bool  # another turn is owed (ability or 4 in a line)
    streak: int  # turns in a row by the seat to act: 1 or 2
    turns: int  # turns finished in the game
    fours: list[str]  # the lines of 4 on the board when the turn began
    crystals: list[list[int]]  # per seat, per colour: crystals on that platform
    black: list[list[int]]  # per seat, per colour: black crystals on that platform
    flipped: list[list[bool]]  # per seat, per colour: advanced side up
    supply: list[int]  # per colour
    supercrystals: dict[str, int]  # colour -> seat that took it
    talismans: dict[str, int]  # colour named -> seat that used the talisman
    talisman_last: list[bool]  # per seat: their latest turn was a talisman
    ready: list[bool]  # advanced setup: seats that have chosen their platforms
    loser: int  # the seat that reached 13 of a colour (-1: nobody)
    last: list[str]  # squares the last action touched, for the picture
    last_action: dict[str, Any] | None  # who did what: {"seat", "kind", "text"}
    result: str | None  # why the game ended
    left_out: list[int] = field(default_factory=list)  # stones back in the box, unseen


def shape(state: CrystalliaState) -> Pyramid:
    """The layout of this game's pyramid."""
    return PYRAMIDS[len(state.pyramid)]


# --------------------------------------------------------------------------- setup


def _turned(tile: list[str], quarters: int) -> list[str]:
    """A 3x3 tile (rows top to bottom) turned clockwise ``quarters`` times."""
    rows = [list(r) for r in tile]
    for _ in range(quarters % 4):
        rows = [list(r) for r in zip(*rows[::-1], strict=True)]
    return ["".join(r) for r in rows]


def build_board(tiles: list[list[Any]]) -> list[str]:
    """The squares from six [kind, number, quarter turns], slots left to right, top down."""
    board = [""] * CELLS
    across = DATA["board_tiles"]["across"]
    for slot, (kind, number, quarters) in enumerate(tiles):
        rows = _turned(DATA[f"{kind}_tiles"][number], quarters)
        tx, ty = slot % across, slot // across
        for r in range(TILE):
            for c in range(TILE):
                rank = RANKS_N - 1 - (ty * TILE + r)
                board[rank * FILES_N + tx * TILE + c] = CODES[rows[r][c]]
    return board


def _deal(players: int, seed: int, advanced: bool) -> CrystalliaState:
    state = CrystalliaState(
        players=players, seed=seed, draws=0, advanced=advanced, start=0, turn=0,
        phase="flip" if advanced else "take", board=[], tiles=[], pyramid=[],
        face_up=[], crystal=[""] * CELLS, stone_at=[-1] * CELLS,
        placed=[[] for _ in STONES], holding=-1, played=-1, pending=[], used=[], gained=0,
        extra=False, streak=1, turns=0, fours=[],
        crystals=[[0] * len(COLOURS) for _ in range(players)],
        black=[[0] * len(COLOURS) for _ in range(players)],
        flipped=[[False] * len(COLOURS) for _ in range(players)],
        supply=[SUPPLY] * len(COLOURS), supercrystals={}, talismans={},
        talisman_last=[False] * players, ready=[not advanced] * players, loser=-1,
        last=[], last_action=None, result=None,
    )
    used = DATA["tiles_used"][str(players)]
    chosen: list[list[Any]] = []
    for kind in ("chaos", "regular"):
        numbers = list(range(len(DATA[f"{kind}_tiles"])))
        state.rng().shuffle(numbers)
        chosen += [[kind, n, 0] for n in numbers[: used[kind]]]
    state.rng().shuffle(chosen)
    turns = state.rng()
    for tile in chosen:
        tile[2] = turns.randrange(4)
    state.tiles = chosen
    state.board = build_board(chosen)
    order = list(range(len(STONES)))
    state.rng().shuffle(order)
    size = sum(PYRAMID_ROWS[players])
    state.pyramid, state.left_out = order[:size], order[size:]
    state.face_up = [not d for d in PYRAMIDS[size].face_down]
    state.start = state.rng().randrange(players)
    state.turn = state.start
    return state


# --------------------------------------------------------------------------- lines


def _matches(crystal: str, colour: str) -> bool:
    return crystal in (colour, WILD)


def _line_squares(i: int, step: int) -> tuple[list[int], list[int]]:
    """The squares before and after ``i`` along a rank (step 1) or file (step FILES_N),
    nearest first."""
    r, c = divmod(i, FILES_N)
    if step == 1:
        return ([r * FILES_N + k for k in range(c - 1, -1, -1)],
                [r * FILES_N + k for k in range(c + 1, FILES_N)])
    return ([k * FILES_N + c for k in range(r - 1, -1, -1)],
            [k * FILES_N + c for k in range(r + 1, RANKS_N)])


LINES = [[_line_squares(i, 1), _line_squares(i, FILES_N)] for i in range(CELLS)]


def _run(crystal: list[str], square: int, step: int, colour: str) -> list[int]:
    """The maximal line through ``square`` (along the rank for step 1, the file for step
    FILES_N) of crystals matching ``colour``, yellow matching every colour."""
    out = [square]
    for side in LINES[square][0 if step == 1 else 1]:
        for i in side:
            if crystal[i] != colour and crystal[i] != WILD:
                break
            out.append(i)
    return sorted(out)


def _lines_through(crystal: list[str], squares: list[int], least: int
                   ) -> list[tuple[str, list[int]]]:
    """Each distinct line of ``least`` or more through any of ``squares``, per colour."""
    seen: set[tuple[str, int, int]] = set()
    out = []
    for square in squares:
        for step in (1, FILES_N):
            for colour in COLOURS:
                if not _matches(crystal[square], colour):
                    continue
                run = _run(crystal, square, step, colour)
                key = (colour, step, run[0])
                if len(run) >= least and key not in seen:
                    seen.add(key)
                    out.append((colour, run))
    return out


def _too_long(crystal: list[str], squares: list[int]) -> bool:
    """Whether a line of 5 or more of one colour (wilds included) runs through ``squares``.
    The hot path of listing placements, so it counts without building lines."""
    for square in squares:
        x = crystal[square]
        for back, ahead in LINES[square]:
            if not (back and crystal[back[0]]) and not (ahead and crystal[ahead[0]]):
                continue
            for colour in (COLOURS if x == WILD else (x,)):
                n = 1
                for side in (back, ahead):
                    for i in side:
                        y = crystal[i]
                        if y != colour and y != WILD:
                            break
                        n += 1
                if n >= 5:
                    return True
    return False


# Every rank and every file, as its squares in order: where lines of 4 are looked for.
RANKS_AND_FILES = [list(range(r * FILES_N, (r + 1) * FILES_N)) for r in range(RANKS_N)] + \
    [list(range(c, CELLS, FILES_N)) for c in range(FILES_N)]


def _fours(crystal: list[str]) -> list[str]:
    """Every line of 4 or more on the board (wilds included), as 'colour:first
    square:direction' keys. One pass along each rank and file per colour: it runs twice
    a turn, and for every move whose cost is worked out."""
    out = set()
    for line in RANKS_AND_FILES:
        step = line[1] - line[0]
        for colour in COLOURS:
            n = 0
            for k, i in enumerate([*line, -1]):
                if i >= 0 and crystal[i] in (colour, WILD):
                    n += 1
                    continue
                if n >= 4:
                    out.add(f"{colour}:{line[k - n]}:{step}")
                n = 0
    return sorted(out)


def _fits(state: CrystalliaState, stone: int, first: int, second: int) -> bool:
    """Whether ``stone`` may lie with its crystals on ``first`` and ``second`` (both empty,
    adjacent) without making a line of 5."""
    crystal = state.crystal
    old = crystal[first], crystal[second]
    crystal[first], crystal[second] = STONES[stone]
    bad = _too_long(crystal, [first, second])
    crystal[first], crystal[second] = old
    return not bad


# --------------------------------------------------------------------------- crystals


def _fullest(state: CrystalliaState, seat: int) -> int:
    """The platform with the most crystals (black ones included); the first colour on ties."""
    counts = [state.crystals[seat][c] + state.black[seat][c] for c in range(len(COLOURS))]
    return counts.index(max(counts))


def _black(state: CrystalliaState, seat: int, events: list[Event], why: str,
           platform: int | None = None) -> None:
    """One black crystal for ``seat`` (-1 point), on ``platform`` or else their fullest."""
    where = _fullest(state, seat) if platform is None else platform
    state.black[seat][where] += 1
    place = f"their {COLOURS[where]} platform" + ("" if platform is not None else
                                                  ", their fullest")
    events.append(Event(f"{player(seat)} gains a black crystal, -1 point, because {why}: it "
                        f"goes on {place}.", kind="black",
                        data={"seat": seat, "platform": COLOURS[where]}))


def _gained(state: CrystalliaState, seat: int, colour: str, count: int, what: str) -> Event:
    """The sentence for ``count`` crystals of ``colour`` just taken: ``what`` they are and
    paid for (``_share``), and what they cost when they lie over 9 on a regular platform."""
    c = COLOURS.index(colour)
    have = state.crystals[seat][c]
    said = f"{player(seat)} gains {what}: {have} {colour} now"
    over = 0 if state.flipped[seat][c] else min(count, have - RING)
    if over > 0:  # the platform's total, what lies over 9, and what its points became
        now = platform_points(state, seat, c)
        change = now - (min(have - count, RING) - max(0, have - count - RING))
        said += (f", {have - RING} over {RING} at -1 point each, so their {colour} platform "
                 f"scores {now} point{'s' if now != 1 else ''}, "
                 + (f"{-change} fewer than before" if change < 0 else
                    f"{change} more than before" if change else "as before"))
    return Event(said + ".", kind="gain",
                 data={"seat": seat, "colour": colour, "count": count, "over": max(0, over),
                       "now": have})


def _step_verbs(state: CrystalliaState) -> tuple[str, ...]:
    """The words the moves of the step the game is at begin with."""
    if state.phase == "ability":
        return ("move", "skip") if state.board[state.pending[0]] == "move" else \
            ("rotate", "skip")
    return {"flip": ("flip", "ready"), "take": ("take", "talisman"),
            "place": ("place", "set"), "gain": ("gain",)}[state.phase]


def _share(colour: str, count: int, why: str, done: int, part: int) -> str:
    """What a sentence of a payment of ``count`` crystals for ``why`` pays for, when
    ``done`` of them were told before it and it tells ``part`` more: the whole payment
    ('2 red crystals for a row of 3 red, ... (3 - 1)'), its first share ('1 of the 3 red
    crystals for a row of 4 red, ... (4 - 1)'), the rest of it ('the other 2') or a share
    between ('the next 1'), so each line's arithmetic is true on its own."""
    if part == count:
        return f"{count} {colour} crystal{'s' if count != 1 else ''} for {why}"
    if not done:
        return f"{part} of the {count} {colour} crystals for {why}"
    return f"the {'other' if done + part == count else 'next'} {part}"


def _give(state: CrystalliaState, seat: int, colour: str, count: int, events: list[Event],
          why: str) -> None:
    """``seat`` takes ``count`` crystals of ``colour`` (mandatory) for ``why``, one at a
    time: each may find the supply empty (a black one instead), burst a flipped platform,
    reach the supercrystal or the 13 that lose. One sentence per run of plain gains; where
    something comes between, each part says its share of the payment (``_share``)."""
    c = COLOURS.index(colour)
    run = 0  # crystals taken since the last sentence
    done = 0  # crystals of this payment told already (black substitutes too)

    def tell() -> None:
        nonlocal run, done
        if run:
            what = _share(colour, count, why, done, run)
            events.append(_gained(state, seat, colour, run, what))
        done += run
        run = 0

    for _ in range(count):
        state.gained += 1
        if state.supply[c] == 0:
            tell()
            instead = (why if count == 1 else
                       f"the {ordinal(done + 1)} of the {count} {colour} crystals for {why}"
                       if not done else f"the {ordinal(done + 1)} of those {count}")
            _black(state, seat, events, f"the {colour} supply is empty (for {instead})")
            done += 1
            continue
        state.supply[c] -= 1
        state.crystals[seat][c] += 1
        run += 1
        have = state.crystals[seat][c]
        if state.flipped[seat][c] and have > ADV_SPACES:
            tell()
            state.supply[c] += have
            state.crystals[seat][c] = 0
            events.append(Event(f"{player(seat)}'s flipped {colour} platform overflows with a "
                                f"{ordinal(have)} crystal: its {have - 1} crystals go back to "
                                f"the supply, -{ADV_POINTS * (have - 1)} points.",
                                kind="overflow", data={"seat": seat, "colour": colour}))
            _black(state, seat, events, f"a {ordinal(have)} {colour} crystal overflowed "
                   "their flipped platform", platform=c)
            continue
        goal = ADV_SUPER_AT if state.flipped[seat][c] else SUPER_AT
        if have == goal and colour not in state.supercrystals:
            tell()
            state.supercrystals[colour] = seat
            where = " on a flipped platform" if state.flipped[seat][c] else ""
            events.append(Event(f"{player(seat)} takes the {colour} supercrystal, "
                                f"+{SUPER_POINTS} points: the first to reach exactly {goal} "
                                f"{colour}{where}.", kind="supercrystal",
                                data={"seat": seat, "colour": colour}))
        if have >= LOSS_AT and state.loser < 0:
            tell()
            state.loser = seat
            events.append(Event(f"{player(seat)} has {have} {colour} crystals and loses at "
                                f"once: {LOSS_AT} of one colour is too many.", kind="loss",
                                data={"seat": seat, "colour": colour}))
    tell()


def ordinal(n: int) -> str:
    """1 -> '1st', 6 -> '6th', 13 -> '13th'."""
    ending = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{ending}"


# --------------------------------------------------------------------------- the turn


def _available(state: CrystalliaState) -> list[int]:
    """Pyramid positions holding a stone that no stone covers."""
    covered_by = shape(state).covered_by
    return [p for p in range(len(state.pyramid)) if state.pyramid[p] >= 0
            and all(state.pyramid[q] < 0 for q in covered_by[p])]


def _begin_turn(state: CrystalliaState, fours: list[str] | None = None) -> None:
    """A fresh turn; ``fours`` are the board's lines of 4 when the caller has them."""
    state.phase = "take"
    state.holding = state.played = -1
    state.pending, state.used = [], []
    state.gained = 0
    state.extra = False
    state.fours = _fours(state.crystal) if fours is None else fours


def _take(state: CrystalliaState, seat: int, position: int) -> list[Event]:
    stone = state.pyramid[position]
    state.pyramid[position] = -1
    state.holding = stone
    state.phase = "place"
    state.last_action = {"seat": seat, "kind": "take", "text": f"took stone {position + 1}"}
    events = [Event(f"{player(seat)} takes stone {position + 1} ({stone_name(stone)}).",
                    kind="take", data={"seat": seat, "position": position + 1})]
    for p in _available(state):
        if not state.face_up[p]:
            state.face_up[p] = True
            events.append(Event(f"Stone {p + 1} is turned face up: "
                                f"{stone_name(state.pyramid[p])}.", kind="reveal",
                                data={"position": p + 1}))
    return events


def _cover(state: CrystalliaState, seat: int, stone: int, squares: list[int],
           events: list[Event], kept: tuple[int, ...] = ()) -> None:
    """Lay ``stone`` on ``squares``: take each newly covered colour, queue each newly covered
    ability. A square the stone ``kept`` (it lay there before a move or rotation) does
    nothing, and a square pays or acts at most once a turn; each square that pays nothing
    is said, with why."""
    state.placed[stone] = list(squares)
    for square, crystal in zip(squares, STONES[stone], strict=True):
        state.crystal[square] = crystal
        state.stone_at[square] = stone
    quiet: dict[str, list[str]] = {}  # why squares pay nothing -> those squares
    for square in squares:
        shown = state.board[square]
        if square in kept:
            quiet.setdefault("kept", []).append(SQUARES[square])
        elif square in state.used or square in state.pending:
            quiet.setdefault("acted" if shown in ABILITIES else "paid", []
                             ).append(SQUARES[square])
        elif shown in COLOURS:
            state.used.append(square)
            _give(state, seat, shown, 1, events,
                  f"covering the {shown} square {SQUARES[square]}")
        elif shown in ABILITIES:
            state.pending.append(square)
        else:
            quiet.setdefault("blank", []).append(SQUARES[square])
    for why, names in quiet.items():
        one, they = len(names) == 1, listing(names)
        it = "it" if one else "them"
        text = {
            "blank": f"{they} show{'s' if one else ''} nothing: no crystal for covering {it}.",
            "kept": f"{they} {'was' if one else 'were'} under this stone already: no crystal "
                    "or ability again.",
            "paid": f"{they} already paid this turn: no crystal again.",
            "acted": f"{they} already acted this turn: the ability works once a turn.",
        }[why]
        events.append(Event(text, kind="nothing", data={"squares": names}))


def _lift(state: CrystalliaState, stone: int) -> list[int]:
    squares = state.placed[stone]
    for square in squares:
        state.crystal[square] = ""
        state.stone_at[square] = -1
    state.placed[stone] = []
    return squares


def _place(state: CrystalliaState, seat: int, squares: list[int]) -> list[Event]:
    stone = state.holding
    state.holding, state.played = -1, stone
    names = " ".join(SQUARES[s] for s in squares)
    first, second = STONES[stone]
    where = f"{first} on both" if first == second else \
        f"{first} on {SQUARES[squares[0]]}, {second} on {SQUARES[squares[1]]}"
    events = [Event(f"{player(seat)} places {stone_name(stone)} on {names}: {where}.",
                    kind="place", data={"seat": seat, "squares": [SQUARES[s] for s in squares]})]
    state.last = [SQUARES[s] for s in squares]
    state.last_action = {"seat": seat, "kind": "place", "text": f"placed a stone on {names}"}
    _cover(state, seat, stone, squares, events)
    _go_on(state, seat, events)
    return events


WHAT_ABILITIES_DO = {
    "move": "move another stone already on the board to two empty squares, or skip",
    "rotate": "rotate another stone about one of its squares, or skip",
}


def _go_on(state: CrystalliaState, seat: int, events: list[Event]) -> None:
    """Resolve abilities (another turn needs no choice), then activate the stone."""
    if state.loser >= 0:
        _end_turn(state, events)
        return
    while state.pending:
        square = state.pending[0]
        kind = state.board[square]
        if kind != "again":
            state.phase = "ability"
            events.append(Event(f"{player(seat)} covered the {kind} ability on "
                                f"{SQUARES[square]}: they may {WHAT_ABILITIES_DO[kind]}.",
                                kind="ability", data={"seat": seat, "ability": kind}))
            return
        state.pending.pop(0)
        state.used.append(square)
        if state.turns == 0:
            events.append(Event(f"{SQUARES[square]} shows another turn, but the first player "
                                "may not use it to start the game.", kind="ability"))
        elif state.streak >= 2:
            events.append(Event(f"{SQUARES[square]} shows another turn, but nobody takes more "
                                "than two turns in a row.", kind="ability"))
        elif all(p < 0 for p in state.pyramid):  # the game ends with this turn
            events.append(Event(f"{player(seat)} covered the again square on {SQUARES[square]}, "
                                "but no stone is left in the pyramid for a second turn.",
                                kind="again"))
        else:
            state.extra = True
            events.append(Event(f"{player(seat)} covered the again square on {SQUARES[square]} "
                                "and must take a second turn.", kind="again"))
    _activate(state, seat, events)


def _isolated(state: CrystalliaState, stone: int) -> bool:
    own = state.placed[stone]
    return all(state.stone_at[j] in (-1, stone) for i in own for j in AROUND[i])


def _gain_choices(stone: int) -> list[str]:
    """The colours an isolated stone offers: its own, every colour for a yellow crystal."""
    if WILD in STONES[stone]:
        return list(COLOURS)
    return [c for c in COLOURS if c in STONES[stone]]


def matches(state: CrystalliaState, stone: int) -> list[tuple[str, list[int]]]:
    """The lines of 2+ that the stone makes with other stones: each gives count minus one."""
    own = state.placed[stone]
    out = []
    for colour, run in _lines_through(state.crystal, own, 2):
        if any(state.stone_at[i] != stone for i in run) and \
                any(state.crystal[i] == colour for i in run):
            out.append((colour, run))
    return out


def _line_words(state: CrystalliaState, colour: str, run: list[int]) -> str:
    """'a row of 3 red, b4 to d4 (3 - 1)': a line that pays, as the events say it."""
    kind = "row" if run[1] - run[0] == 1 else "column"
    wild = f", yellow counting as {colour}" if any(state.crystal[i] == WILD for i in run) else ""
    return (f"a {kind} of {len(run)} {colour}, {SQUARES[run[0]]} to {SQUARES[run[-1]]}"
            f"{wild} ({len(run)} - 1)")


def _why_unpaid(state: CrystalliaState, stone: int) -> str:
    """Why a stone that is not alone makes no line that pays."""
    own = state.placed[stone]
    beside = [(i, j) for i in own for j in ORTHOGONAL[i] if state.stone_at[j] not in (-1, stone)]
    if not beside:
        return "it touches other stones only at a corner, so it is not alone, and corners " \
               "make no line"
    why = "it touches other stones, but no crystal of it has a crystal of its colour beside " \
          "it in a row or column"
    if any(state.crystal[i] == WILD and state.crystal[j] == WILD for i, j in beside):
        why += " (yellow beside yellow alone is no colour)"
    first, second = STONES[stone]
    if first == second or WILD in (first, second):
        why += "; its own two crystals make a line only with another stone"
    return why


def _activate(state: CrystalliaState, seat: int, events: list[Event]) -> None:
    """The stone just placed pays: alone, 1 crystal of a colour it shows; else each line of
    2 or more that it makes with other stones, its length minus one; else nothing (said)."""
    stone = state.played
    name = stone_name(stone)
    if _isolated(state, stone):
        choices = _gain_choices(stone)
        if len(choices) > 1:
            state.phase = "gain"
            wild = " (its yellow crystal is wild)" if WILD in STONES[stone] else ""
            events.append(Event(f"The {name} stone touches no other stone: {player(seat)} "
                                f"chooses 1 crystal of {listing(choices, 'or')}{wild}.",
                                kind="alone", data={"seat": seat}))
            return
        _give(state, seat, choices[0], 1, events, f"the {name} stone, touching no other")
    else:
        lines = matches(state, stone)
        for colour, run in lines:
            _give(state, seat, colour, len(run) - 1, events, _line_words(state, colour, run))
        if not lines:
            events.append(Event(f"The {name} stone pays nothing: {_why_unpaid(state, stone)}.",
                                kind="nothing", data={"seat": seat}))
    _end_turn(state, events)


def _four_words(key: str) -> str:
    """'red:8:1' (a line of 4 from _fours) -> 'red, c2 to f2'."""
    colour, first, step = key.split(":")
    start, stride = int(first), int(step)
    return f"{colour}, {SQUARES[start]} to {SQUARES[start + 3 * stride]}"


# How each move is written, for a text that names a move's word but not the rest of it.
FORMS = {"take": "with a stone's number: 'take 3'",
         "place": "with two adjacent empty squares: 'place c4 c5'",
         "move": "with the stone's square and where it goes: 'move b2 to f7'",
         "rotate": "with the crystal's square and where it swings: 'rotate b3 to c2'",
         "gain": "with a colour: 'gain red'", "talisman": "with a colour: 'talisman blue'",
         "flip": "with a platform's colour: 'flip red'"}


def _end_turn(state: CrystalliaState, events: list[Event], talisman: bool = False) -> None:
    seat = state.turn
    if state.loser < 0 and state.gained >= BLACK_AT:
        _black(state, seat, events, f"they took {state.gained} crystals this turn "
               f"({BLACK_AT} or more bring one)")
    state.talisman_last[seat] = talisman
    fours = _fours(state.crystal)
    new_fours = sorted(set(fours) - set(state.fours))
    ending = state.loser >= 0 or all(p < 0 for p in state.pyramid)
    if new_fours and not talisman:
        lines = listing([_four_words(k) for k in new_fours])
        made = f"a line of 4 ({lines})" if len(new_fours) == 1 else f"lines of 4 ({lines})"
        if ending:
            events.append(Event(f"{player(seat)} made {made}, but the game ends with this "
                                "turn, so there is no second turn.", kind="four"))
        elif state.streak < 2:
            state.extra = True
            events.append(Event(f"{player(seat)} made {made} and must take a second turn.",
                                kind="four"))
        else:
            events.append(Event(f"{player(seat)} made {made}, but nobody takes more than "
                                "two turns in a row.", kind="four"))
    state.turns += 1
    if state.loser >= 0:
        state.result = (f"{player(state.loser)} reached {LOSS_AT} crystals of one colour, "
                        "which loses whatever the points.")
    elif all(p < 0 for p in state.pyramid):
        state.result = "Every stone has left the pyramid."
    if state.result:
        owed = state.extra and state.streak < 2  # said at once: no second turn follows
        state.phase = "over"
        _, _, verdict = _verdict(state)
        unowed = f", with no second turn for {player(seat)}" if owed else ""
        events.append(Event(f"The game ends{unowed}: {verdict}", kind="end"))
        return
    if state.extra and state.streak < 2:
        state.streak = 2
    else:
        state.streak = 1
        state.turn = (seat + 1) % state.players
    _begin_turn(state, fours)
    if state.streak == 2:
        events.append(Event(f"{player(seat)} takes a second turn.", kind="turn"))


def _talisman(state: CrystalliaState, seat: int, colour: str) -> list[Event]:
    state.talismans[colour] = seat
    state.last_action = {"seat": seat, "kind": "talisman", "text": f"used the {colour} talisman"}
    state.last = []
    left = TALISMANS - len(state.talismans)
    events = [Event(f"{player(seat)} uses a talisman instead of taking a stone and names "
                    f"{colour}: {_count(left, 'talisman')} left for anyone.", kind="talisman",
                    data={"seat": seat, "colour": colour, "left": left})]
    _give(state, seat, colour, 1, events, f"the {colour} talisman")
    _end_turn(state, events, talisman=True)
    return events


def _count(n: int, thing: str) -> str:
    """'1 talisman', '2 talismans', 'no talisman'."""
    return f"{n} {thing}{'s' if n != 1 else ''}" if n else f"no {thing}"


def _may_use_talisman(state: CrystalliaState, seat: int) -> bool:
    """Not on a second turn in a row (it must take a stone), not twice running, not right
    after the player before; while talismans are left."""
    before = (seat - 1) % state.players
    return state.streak < 2 and len(state.talismans) < TALISMANS and \
        not state.talisman_last[seat] and not state.talisman_last[before]


def _move_targets(state: CrystalliaState) -> dict[str, Any]:
    """Every stone but the one just placed, moved whole in its orientation: 'move a1 to c4'
    names the stone by its lower (or left) square and where that square's crystal goes."""
    out: dict[str, Any] = {}
    for stone, squares in enumerate(state.placed):
        if not squares or stone == state.played:
            continue
        first, second = squares
        anchor = min(first, second)
        old = _lift(state, stone)
        offset_r = second // FILES_N - first // FILES_N
        offset_c = second % FILES_N - first % FILES_N
        for target in range(CELLS):
            r, c = divmod(target, FILES_N)
            r2, c2 = r + offset_r, c + offset_c
            if not (0 <= r2 < RANKS_N and 0 <= c2 < FILES_N):
                continue
            partner = r2 * FILES_N + c2
            if target == first or state.stone_at[target] >= 0 or state.stone_at[partner] >= 0:
                continue
            if _fits(state, stone, target, partner):
                new_anchor = target if anchor == first else partner
                out[f"move {SQUARES[anchor]} to {SQUARES[new_anchor]}"] = (
                    "move", stone, [target, partner])
        _restore(state, stone, old)
    return out


def _offset(square: int, to: int, origin: int) -> int:
    """``square`` shifted by the step from ``origin`` to ``to``; -1 when off the board."""
    r = square // FILES_N + to // FILES_N - origin // FILES_N
    c = square % FILES_N + to % FILES_N - origin % FILES_N
    return r * FILES_N + c if 0 <= r < RANKS_N and 0 <= c < FILES_N else -1


def _restore(state: CrystalliaState, stone: int, squares: list[int]) -> None:
    state.placed[stone] = list(squares)
    for square, crystal in zip(squares, STONES[stone], strict=True):
        state.crystal[square] = crystal
        state.stone_at[square] = stone


def _rotate_targets(state: CrystalliaState) -> dict[str, Any]:
    """A stone turned about one of its squares: 'rotate b3 to c2' swings the crystal on b3
    to c2 while its partner stays put."""
    out: dict[str, Any] = {}
    for stone, squares in enumerate(state.placed):
        if not squares or stone == state.played:
            continue
        old = _lift(state, stone)
        for k in (0, 1):
            swing, pivot = old[k], old[1 - k]
            for target in ORTHOGONAL[pivot]:
                if target == swing or state.stone_at[target] >= 0:
                    continue
                new = [target, pivot] if k == 0 else [pivot, target]
                if _fits(state, stone, new[0], new[1]):
                    out[f"rotate {SQUARES[swing]} to {SQUARES[target]}"] = ("rotate", stone, new)
        _restore(state, stone, old)
    return out


def _shift(state: CrystalliaState, seat: int, kind: str, stone: int, squares: list[int]
           ) -> list[Event]:
    square = state.pending.pop(0)
    state.used.append(square)
    old = _lift(state, stone)
    was = " ".join(SQUARES[s] for s in old)
    now = " ".join(SQUARES[s] for s in squares)
    verb = "moves" if kind == "move" else "rotates"
    events = [Event(f"{player(seat)} {verb} the {stone_name(stone)} stone from {was} to "
                    f"{now} (the {kind} ability on {SQUARES[square]}); a stone moved or "
                    "rotated pays only for the squares it newly covers.", kind=kind,
                    data={"seat": seat, "from": was, "to": now})]
    state.last = [SQUARES[s] for s in squares] + [SQUARES[s] for s in old]
    state.last_action = {"seat": seat, "kind": kind, "text": f"{verb[:-1]}d a stone to {now}"}
    _cover(state, seat, stone, squares, events, kept=tuple(s for s in old if s in squares))
    _go_on(state, seat, events)
    return events


def _skip(state: CrystalliaState, seat: int) -> list[Event]:
    square = state.pending.pop(0)
    state.used.append(square)
    state.last_action = {"seat": seat, "kind": "skip", "text": f"let the "
                         f"{state.board[square]} ability on {SQUARES[square]} go"}
    events = [Event(f"{player(seat)} does not use the {state.board[square]} ability on "
                    f"{SQUARES[square]}.", kind="skip")]
    _go_on(state, seat, events)
    return events


def _set_aside(state: CrystalliaState, seat: int) -> list[Event]:
    stone = state.holding
    state.holding = -1
    state.last_action = {"seat": seat, "kind": "aside", "text": "set a stone aside"}
    events = [Event(f"{player(seat)} cannot place {stone_name(stone)} anywhere (no two "
                    "empty squares side by side take it without a line of 5) and sets it "
                    "aside: no crystals.", kind="aside")]
    _end_turn(state, events)
    return events


# --------------------------------------------------------------------------- scoring


def platform_points(state: CrystalliaState, seat: int, c: int) -> int:
    n = state.crystals[seat][c]
    if state.flipped[seat][c]:
        return ADV_POINTS * n
    return min(n, RING) - max(0, n - RING)


def score(state: CrystalliaState, seat: int) -> int:
    """1 per crystal up to 9 and -1 over 9 (2 each on a flipped platform), -1 per black,
    +2 per supercrystal."""
    return (sum(platform_points(state, seat, c) for c in range(len(COLOURS)))
            - sum(state.black[seat])
            + SUPER_POINTS * sum(1 for s in state.supercrystals.values() if s == seat))


def _price(events: list[Event]) -> str:
    """What a move's events cost its player, in a few words ('-2 points: 1 black, 1 over
    9'; '13th red: you lose'); '' when nothing."""
    loss = next((e for e in events if e.kind == "loss"), None)
    if loss is not None:
        return f"{ordinal(LOSS_AT)} {loss.data['colour']}: you lose"
    burst = next((e for e in events if e.kind == "overflow"), None)
    if burst is not None:
        return f"{ordinal(ADV_SPACES + 1)} {burst.data['colour']}: platform empties"
    black = sum(1 for e in events if e.kind == "black")
    over = sum(e.data["over"] for e in events if e.kind == "gain")
    parts = [f"{n} {what}" for n, what in ((black, "black"), (over, f"over {RING}")) if n]
    points = black + over
    price = f"-{points} point{'s' if points != 1 else ''}: {', '.join(parts)}" if parts else ""
    spent = next((e for e in events if e.kind == "talisman"), None)
    if spent is None:
        return price
    if price:
        return f"talisman; {price}"
    left = spent.data["left"] + 1
    return "uses the last talisman" if left == 1 else f"uses 1 of {left} talismans left"


# --------------------------------------------------------------------------- the computer

LOSS_WORTH = -40.0  # what the computer's playouts make of a 13th crystal: a lost game
# Weights of ``evaluate`` where data/weights/crystallia.json names none (the file says how
# its own were set and tried)
WEIGHTS = {"at_11": -1.0, "at_12": -3.0, "room": 0.3, "to_move": 2.0, "holding": 2.0}


def _worth(state: CrystalliaState, seat: int, c: int, count: int) -> float:
    """Points ``count`` more crystals of colour ``c`` bring ``seat`` (its supercrystal
    too), and ``LOSS_WORTH`` for a 13th: as a player weighs taking them."""
    have = state.crystals[seat][c]
    n = have + count
    if state.flipped[seat][c]:
        return -ADV_POINTS * have - 1.0 if n > ADV_SPACES else float(ADV_POINTS * count)
    if n >= LOSS_AT:
        return LOSS_WORTH
    gain = (min(n, RING) - max(0, n - RING)) - (min(have, RING) - max(0, have - RING))
    if have < SUPER_AT <= n and COLOURS[c] not in state.supercrystals:
        gain += SUPER_POINTS
    return float(gain)


def placement_worth(state: CrystalliaState, seat: int, squares: list[int]) -> float:
    """What laying the stone in hand on ``squares`` pays ``seat`` at once, in points: the
    colour squares it covers, then its lines (or the best colour of a lone stone), and a
    point for another turn. Abilities it covers other than another turn are left out."""
    stone = state.holding
    got = [0] * len(COLOURS)
    again = 0.0
    for square in squares:
        shown = state.board[square]
        if square in state.used:
            continue
        if shown in COLOURS:
            got[COLOURS.index(shown)] += 1
        elif shown == "again" and state.streak < 2:
            again = 1.0
    _restore(state, stone, squares)
    choices: list[str] = []
    if _isolated(state, stone):
        choices = _gain_choices(stone)
    else:
        for colour, run in matches(state, stone):
            got[COLOURS.index(colour)] += len(run) - 1
    _lift(state, stone)

    def total(extra: int) -> float:
        counts = [n + (1 if c == extra else 0) for c, n in enumerate(got)]
        black = 1.0 if state.gained + sum(counts) >= BLACK_AT else 0.0
        return sum(_worth(state, seat, c, n) for c, n in enumerate(counts) if n) - black

    if not choices:
        return total(-1) + again
    return max(total(COLOURS.index(c)) for c in choices) + again


PLACEMENTS_TRIED = 12  # placements the playout policy weighs before it lays a stone


def _policy(state: CrystalliaState, seat: int, moves: dict[str, Any], rng: random.Random
            ) -> str | None:
    """The computer's playouts: any stone (a talisman only when no stone is free), laid
    where it pays most of a dozen places tried; abilities skipped; a lone stone's crystal
    in the colour that brings most."""
    phase = state.phase
    if phase == "take":
        takes = [m for m in moves if m.startswith("take ")]
        return rng.choice(takes or list(moves))
    if phase == "place":
        names = list(moves)
        if len(names) > PLACEMENTS_TRIED:
            names = rng.sample(names, PLACEMENTS_TRIED)
        if names[0] == "set aside":
            return names[0]
        rated = [(placement_worth(state, seat, moves[m][1]) + rng.random() * 1e-3, m)
                 for m in names]
        return max(rated)[1]
    if phase == "ability":
        return "skip"
    if phase == "gain":
        return max(moves, key=lambda m: (_worth(state, seat, COLOURS.index(m.split()[1]), 1),
                                         rng.random()))
    return "ready" if "ready" in moves else None


def _standing(state: CrystalliaState, seat: int, weights: dict[str, float]) -> float:
    """Besides points: colours near the 13 that lose, room left under 9 while stones
    remain, and whose turn it is (a turn pays crystals)."""
    left = sum(1 for p in state.pyramid if p >= 0) / len(state.pyramid)
    at_11 = at_12 = room = 0
    for c in range(len(COLOURS)):
        if state.flipped[seat][c]:
            continue
        n = state.crystals[seat][c]
        at_11 += n == LOSS_AT - 2
        at_12 += n >= LOSS_AT - 1
        room += max(0, SUPER_AT - n)
    mine = state.turn == seat
    return (weights["at_11"] * at_11 + weights["at_12"] * at_12 + weights["room"] * room * left
            + weights["to_move"] * (mine and state.phase == "take")
            + weights["holding"] * (mine and state.phase in ("place", "ability", "gain")))


def _remark(public: dict[str, Any], seat: int, move: str, chance: float | None) -> str | None:
    """Why a computer chose a talisman, a skipped ability, a move or rotation, or the
    square of another turn, from the spectators' view before the move; None for the
    rest (taking and laying stones, a lone stone's colour)."""
    words = move.split()
    board = {b["square"]: b for b in public["board"]}
    odds = f" (its search rates the move {round(100 * chance)}%)" if chance is not None else ""
    if words[0] == "talisman":
        colour = words[1]
        have = public["platforms"][seat][COLOURS.index(colour)]["crystals"]
        why = (f"one short of the {colour} supercrystal"
               if have == SUPER_AT - 1 and colour not in public["supercrystals"]
               else "no stone pays it more just now")
        return f"Takes 1 {colour} crystal with a talisman instead of a stone: {why}{odds}."
    if words[0] == "skip" and public["pending"]:
        pending = public["pending"][0]
        return (f"Leaves the {pending['ability']} ability on {pending['square']} unused: no "
                f"{pending['ability']} pays it more than the board as it is{odds}.")
    if words[0] in ("move", "rotate"):
        start, end = words[1], words[3]
        partner = board[start]["partner"]
        if words[0] == "rotate":
            new, old = [end], f"{start} {partner}"
        else:
            a, b = INDEX[start], INDEX[end]
            new = [SQUARES[b], SQUARES[b + INDEX[partner] - a]]
            old = f"{start} {partner}"
        colours = [board[n]["shows"] for n in new
                   if board[n]["shows"] in COLOURS and n not in (start, partner)]
        stone = "/".join(board[x]["crystal"] for x in (start, partner))
        gains = (f"to take {listing(colours)} for the square{'s' if len(colours) > 1 else ''} "
                 "it newly covers" if colours else "to change the lines its crystals make")
        verb = "Moves" if words[0] == "move" else "Turns"
        return f"{verb} the {stone} stone on {old} {gains}{odds}."
    first = all(b["crystal"] is None for b in public["board"])  # it gives no turn then
    if words[0] == "place" and public["streak"] < 2 and not first:
        again = [w for w in words[1:] if board[w]["shows"] == "again"]
        if again:
            return f"Lays its stone on {again[0]}, the square of another turn{odds}."
    return None


def _verdict(state: CrystalliaState) -> tuple[tuple[int, ...], frozenset[int], str]:
    """A finished game's points, its winners (the best score but the 13-crystal loser's)
    and the sentence saying why it ended and who won."""
    scores = tuple(score(state, s) for s in range(state.players))
    eligible = [s for s in range(state.players) if s != state.loser]
    best = max(scores[s] for s in eligible)
    winners = frozenset(s for s in eligible if scores[s] == best)
    names = listing([player(s) for s in sorted(winners)])
    return scores, winners, (f"{state.result} {names} win{'s' if len(winners) == 1 else ''} "
                             f"with {best} point{'s' if best != 1 else ''}.")


# --------------------------------------------------------------------------- told in short

# A fold tells every event whole but these: the abilities used and the crystals gained
# are summed up in a line each per turn, and the prompts and the squares that paid
# nothing are left to the log.
ABILITY_STEPS = ("move", "rotate", "skip")
DROPPED = ("ability", "nothing", "alone")


def _fold_turn(seat: int, events: list[Event]) -> list[Event]:
    """One turn of a long run told in short: what was taken and placed, the abilities
    used in one line, the crystals gained in one line (each colour's count now), and every
    black crystal, supercrystal, loss, line of 4, second turn and the end as they were."""
    out: list[Event] = []
    shifts = [e for e in events if e.kind in ABILITY_STEPS]
    gains = [e for e in events if e.kind == "gain"]
    for event in events:
        if event.kind in ABILITY_STEPS and event is shifts[0]:
            moved = sum(1 for e in shifts if e.kind == "move")
            turned = sum(1 for e in shifts if e.kind == "rotate")
            skipped = len(shifts) - moved - turned
            used = [f"moves {_count(moved, 'stone')}" if moved else "",
                    f"rotates {_count(turned, 'stone')}" if turned else "",
                    f"skips {skipped}" if skipped else ""]
            out.append(Event(f"{player(seat)} uses the abilities they covered: "
                             f"{listing([u for u in used if u])}.", kind="abilities"))
        elif event.kind == "gain" and len(gains) > 1 and event is gains[-1]:
            per: dict[str, list[int]] = {}  # colour -> [crystals gained, count now]
            for e in gains:
                got = per.setdefault(e.data["colour"], [0, 0])
                got[0] += e.data["count"]
                got[1] = e.data["now"]
            parts = [f"{n} {colour} ({now} now"
                     + (f", {now - RING} over {RING}" if now > RING else "") + ")"
                     for colour, (n, now) in per.items()]
            total = sum(n for n, _ in per.values())
            out.append(Event(f"{player(seat)} gains {_count(total, 'crystal')} in all: "
                             f"{listing(parts)}.", kind="gains"))
        elif event.kind not in (*ABILITY_STEPS, *DROPPED, "gain") or \
                (event.kind == "gain" and len(gains) == 1):
            out.append(event)
    return out


# --------------------------------------------------------------------------- the game

VERBS = ("take", "place", "move", "rotate", "skip", "gain", "talisman", "flip", "ready",
         "set")
ALIASES = {"pass": "skip", "no": "skip", "decline": "skip", "choose": "gain", "pick": "gain",
           "done": "ready", "start": "ready", "put": "place", "play": "place", "turn": "rotate",
           "discard": "set", "aside": "set", "draft": "take"}
FILLER = {"stone", "at", "the", "to", "on", "a", "from", "crystal", "platform", "aside",
          "number", "no.", "onto", "with"}

# The step a turn is at, for a move of another step: why it is refused now.
STEPS = {"flip": "the game is at its start, where each player flips platforms to the "
                 "advanced side and says 'ready'",
         "take": "your turn is at taking a stone (placing it, abilities and gains come "
                 "after)",
         "place": "your turn is at placing the stone you took",
         "gain": "your turn is at choosing the crystal your lone stone gives"}


class Crystallia(Game[CrystalliaState]):
    id = "crystallia"
    # A narrow tree (a node visited n times tries at most 1 + 0.5 x sqrt(n) moves): on
    # seeds 0-19 against cautious 87.5% at widening 0.5 against 75% at 2. crystallia.md.
    thinking = Thinking(budget=100, widening=0.5, rollout=4)
    name = "Crystallia"
    min_players = 2
    max_players = 4
    state_type = CrystalliaState
    hidden = "the face-down stones of the pyramid and those left in the box"
    board_colours = ("Every crystal and printed square also carries its colour's letter (R "
                     "red, B blue, G green, P purple, Y yellow, K black), so you never need to "
                     "tell colours apart; players own no colour: the seat rows are numbered "
                     "grey chips, each with its crystals under the supply's colour chips.")
    summary = (
        "Take an available stone from the pyramid and lay it on two squares of the 6x9 board. "
        "Take a crystal for each colour you cover, use abilities you cover (move or rotate a "
        "stone, another turn), then the stone pays: alone, 1 crystal of its colour; in lines "
        "of 2+ of a colour (yellow is wild), the line's length minus one. 4 in a line gives "
        "you a second turn; 5 is not allowed. 1 point per crystal up to 9 of a colour, -1 "
        "over 9, 13 loses at once; black crystals -1, supercrystals +2."
    )

    options_help: ClassVar[dict[str, str]] = {
        "advanced": "each player may flip platforms before play (5 spaces, 2 points each)",
    }
    option_values: ClassVar[dict[str, tuple[str | bool, ...]]] = {"advanced": (True, False)}

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None
            ) -> CrystalliaState:
        self.check_players(players)
        self.check_options(options)
        advanced = bool((options or {}).get("advanced", False))
        return _deal(players, seed, advanced)

    def opening(self, state: CrystalliaState) -> list[Event]:
        return [starts(player(state.start)), Event(
            "A stone is a domino of two crystals, named by its colours ('green/yellow'; "
            "yellow is wild): you take one the pyramid leaves free by its number ('take 3') "
            "and lay it on two empty squares side by side ('place c4 c5' puts its first "
            "crystal on c4)."), Event(
            "Colour squares you cover pay a crystal of their colour, and a move, rotate or "
            "again square gives you that ability, used at once or let go ('skip'). Your "
            "crystals go on four platforms, red, "
            "blue, green and purple: a point each up to 9 of a colour, a point off for each "
            "over 9, and 13 of one colour loses at once."), Event(
            f"Instead of taking a stone you may use a talisman ({TALISMANS} for the whole "
            "table): name a colour nobody named yet and gain a crystal of it "
            "('talisman blue').")] + ([Event(
            "Advanced game: before the first turn each player, first player first, may flip "
            f"platforms to the advanced side ('flip red': {ADV_SPACES} spaces, {ADV_POINTS} "
            "points a crystal, emptied by a 6th) and then says 'ready'.")]
            if state.advanced else [])

    def to_act(self, state: CrystalliaState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        return frozenset({state.turn})

    def outcome(self, state: CrystalliaState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores, winners, reason = _verdict(state)
        return Outcome(scores, winners, reason,
                       ending="crystal loss" if state.loser >= 0 else "stones ran out")

    def fold(self, seat: int, steps: list[list[Event]]) -> list[Event]:
        """A computer's long turn (an ability chain) told in short, turn by turn
        (``_fold_turn``); the log keeps every line."""
        out: list[Event] = []
        turn: list[Event] = []
        for event in (e for step in steps for e in step):
            turn.append(event)
            if event.kind == "turn":  # a second turn begins after this line
                out += _fold_turn(seat, turn)
                turn = []
        return out + _fold_turn(seat, turn)

    def evaluate(self, state: CrystalliaState, seat: int) -> float:
        """The seat's points less its rival's (the best other seat), mid-game too (points
        are public and grow as the game goes), with the rest of where each stands
        (``_standing``: the weights of data/weights/crystallia.json); a finished game is
        the lead and 1000 for a win, -1000 for the 13-crystal loss."""
        others = [s for s in range(state.players) if s != seat]
        rival = max(others, key=lambda s: score(state, s))
        lead = score(state, seat) - score(state, rival)
        if state.phase != "over":
            weights = {**WEIGHTS, **self.weights}
            return lead + _standing(state, seat, weights) - _standing(state, rival, weights)
        result = self.outcome(state)
        if seat == state.loser:
            return lead - 1000.0
        return lead + (1000.0 if result is not None and seat in result.winners else 0.0)

    def policy(self, state: CrystalliaState, seat: int, moves: dict[str, Any],
               rng: random.Random) -> str | None:
        return _policy(state, seat, moves, rng)

    def remark(self, public: dict[str, Any], seat: int, move: str, chance: float | None
               ) -> str | None:
        return _remark(public, seat, move, chance)

    # -- legal moves: canonical text -> what ``apply`` needs

    def moves(self, state: CrystalliaState, seat: int) -> dict[str, Any]:
        if seat not in self.to_act(state):
            return {}
        out: dict[str, Any] = {}
        if state.phase == "flip":
            for c, colour in enumerate(COLOURS):
                if not state.flipped[seat][c]:
                    out[f"flip {colour}"] = ("flip", c)
            out["ready"] = ("ready",)
        elif state.phase == "take":
            for p in _available(state):
                out[f"take {p + 1}"] = ("take", p)
            if _may_use_talisman(state, seat):
                for colour in COLOURS:
                    if colour not in state.talismans:
                        out[f"talisman {colour}"] = ("talisman", colour)
        elif state.phase == "place":
            stone = state.holding
            same = STONES[stone][0] == STONES[stone][1]
            for i, j in PAIRS:
                if state.stone_at[i] >= 0 or state.stone_at[j] >= 0:
                    continue
                for a, b in ((i, j),) if same else ((i, j), (j, i)):
                    if _fits(state, stone, a, b):
                        out[f"place {SQUARES[a]} {SQUARES[b]}"] = ("place", [a, b])
            if not out:
                out["set aside"] = ("aside",)
        elif state.phase == "ability":
            kind = state.board[state.pending[0]]
            out.update(_move_targets(state) if kind == "move" else _rotate_targets(state))
            out["skip"] = ("skip",)
        elif state.phase == "gain":
            for colour in _gain_choices(state.played):
                out[f"gain {colour}"] = ("gain", colour)
        return out

    def notes(self, state: CrystalliaState, seat: int) -> dict[str, str]:
        """Beside 'take 3', the stone's colours ('green/yellow'): the pyramid's free
        stones are face up, so the list says what the picture shows. Placements and an
        ability's moves are listed in board order ('place a1 a2', 'place a1 b1', ...,
        'place b1 ...'), with nothing beside them."""
        if seat != state.turn:
            return {}
        if state.phase == "take":
            return {f"take {p + 1}": stone_name(state.pyramid[p]) for p in _available(state)
                    if state.face_up[p]}
        if state.phase in ("place", "ability"):
            return dict.fromkeys(sorted(self.legal_moves(state, seat), key=_board_order), "")
        return {}

    def costs(self, state: CrystalliaState, seat: int) -> dict[str, str]:
        """What each move surely costs, found by playing it on a copy up to the next choice
        (a few milliseconds, 20 at most over ~200 moves of an ability): black crystals and
        crystals over 9 on a regular platform (-1 point each), a flipped platform emptied by
        a 6th crystal, the 13th crystal of a colour (lost at once), a talisman spent.
        Taking a stone and the advanced setup never cost; free moves are left out."""
        out: dict[str, str] = {}
        for move, detail in self.moves(state, seat).items():
            if detail[0] in ("take", "flip", "ready"):
                continue
            price = _price(self.apply(clone(state), seat, move, detail))
            if price:
                out[move] = price
        return out

    def apply(self, state: CrystalliaState, seat: int, move: str, detail: Any) -> list[Event]:
        kind = detail[0]
        if kind == "flip":
            state.flipped[seat][detail[1]] = True
            return [Event(f"{player(seat)} flips their {COLOURS[detail[1]]} platform to the "
                          f"advanced side: {ADV_SPACES} spaces, {ADV_POINTS} points a crystal, "
                          f"emptied by a {ordinal(ADV_SPACES + 1)}.", kind="flip",
                          data={"seat": seat})]
        if kind == "ready":
            state.ready[seat] = True
            said = [Event(f"{player(seat)} is ready.", kind="ready")]
            if all(state.ready):
                state.turn = state.start
                _begin_turn(state)
                said.append(Event(f"{player(state.turn)} begins.", kind="turn"))
            else:
                state.turn = (seat + 1) % state.players
            return said
        if kind == "take":
            return _take(state, seat, detail[1])
        if kind == "talisman":
            return _talisman(state, seat, detail[1])
        if kind == "place":
            return _place(state, seat, detail[1])
        if kind == "aside":
            return _set_aside(state, seat)
        if kind in ("move", "rotate"):
            return _shift(state, seat, kind, detail[1], detail[2])
        if kind == "skip":
            return _skip(state, seat)
        events: list[Event] = []
        state.last_action = {"seat": seat, "kind": "gain",
                             "text": f"took a {detail[1]} crystal for a stone touching no other"}
        _give(state, seat, detail[1], 1, events,
              f"the {stone_name(state.played)} stone, touching no other")
        _end_turn(state, events)
        return events

    # -- reading what players type

    def notation_hint(self, state: CrystalliaState, seat: int) -> str:
        if state.phase == "flip":
            return "Flip platforms to the advanced side with 'flip red', then say 'ready'."
        def first(verb: str, alone: str) -> str:  # an example: one of the seat's own moves
            return next((m for m in self.moves(state, seat) if m.startswith(verb)), alone)
        if state.phase == "place":
            here = first("place ", "place c4 c5").split()[1]
            return (f"Place your stone on two adjacent empty squares, e.g. "
                    f"'{first('place ', 'place c4 c5')}' (the first crystal goes on {here}).")
        if state.phase == "ability":
            if state.board[state.pending[0]] == "move":
                return (f"Move a stone, e.g. '{first('move ', 'move b2 to f7')}' (named by its "
                        f"lower or left square), or 'skip'.")
            rotate = first("rotate ", "rotate b3 to c2").split()
            on, to = rotate[1], rotate[-1]
            return (f"Rotate a stone, e.g. 'rotate {on} to {to}' (the crystal on {on} swings "
                    f"to {to}), or 'skip'.")
        if state.phase == "gain":
            return (f"Choose the colour your isolated stone gives, e.g. "
                    f"'{first('gain ', 'gain red')}'.")
        free = _available(state)
        take = f"Take an available stone by its number, e.g. 'take {free[0] + 1 if free else 3}'"
        unused = [c for c in COLOURS if c not in state.talismans]
        if not _may_use_talisman(state, seat) or not unused:
            return take + "."
        return f"{take}, or use a talisman, e.g. 'talisman {unused[0]}'."

    def parse(self, state: CrystalliaState, seat: int, text: str) -> str:
        hint = partial(self.notation_hint, state, seat)  # worked out only when refused
        if re.search(r"(^|\s)-\d", text):  # a dash joins colours ('green-yellow'), never a number
            raise InvalidMove(f"Numbers here are 1 or more: a stone is taken by its number, "
                              f"'take 3'. {hint()}")
        words = [w for w in text.replace("-", " ").replace("/", " ").split()]
        if not words:
            raise InvalidMove(f"That is not a move I understand. {hint()}")
        typed, verb = " ".join(words), ALIASES.get(words[0], words[0])
        if verb in COLOURS and len(words) == 1:
            verb, words = "gain", ["gain", *words]
        if verb not in VERBS:
            raise InvalidMove(f"I don't know {quote(words[0])}. {hint()}")
        other_words = typed != " ".join(words) or verb != words[0]
        if other_words and verb not in {m.split()[0] for m in self.legal_moves(state, seat)}:
            # a move of another step said in other words: refused in the player's own
            raise out_of_step(typed, self._step(state), hint())
        rest = [w for w in words[1:] if w not in FILLER and w != "#"]
        squares = [w for w in rest if SQUARE_RE.match(w)]
        numbers = [w.lstrip("#") for w in rest if w.lstrip("#").isdigit()]
        colours = [w for w in rest if w in COLOURS]
        unknown = [w for w in rest if w not in squares and w.lstrip("#") not in numbers
                   and w not in colours]
        if unknown and verb in ("gain", "talisman", "flip") and not colours:
            named = listing(COLOURS, "or")
            if unknown[0] in ("yellow", "black"):  # colours of the game, never named so
                raise InvalidMove(f"A {verb} names a platform's colour, "
                                  f"{named}: yellow is wild, on stones only, and black "
                                  f"crystals are penalties. {hint()}")
            raise InvalidMove(f"There is no colour {quote(unknown[0])} in the game: "
                              f"{quote(verb)} names {named}. {hint()}")
        if unknown:
            raise not_known(unknown[0], SQUARES, hint())
        shape = (len(squares), len(numbers), len(colours))
        wanted = {"take": (0, 1, 0), "place": (2, 0, 0), "move": (2, 0, 0),
                  "rotate": (2, 0, 0), "skip": (0, 0, 0), "gain": (0, 0, 1),
                  "talisman": (0, 0, 1), "flip": (0, 0, 1), "ready": (0, 0, 0),
                  "set": (0, 0, 0)}
        if shape != wanted[verb] and all(n <= w for n, w in zip(shape, wanted[verb],
                                                                strict=True)):  # the rest left out
            raise left_out(" ".join(words), verb, {m.split()[0] for m in self.legal_moves(
                state, seat)}, self._step(state), FORMS[verb], hint())
        if shape != wanted[verb]:
            raise InvalidMove(f"That is not a move I understand. {hint()}")
        if verb == "take":
            return f"take {int(numbers[0])}"
        if verb in ("gain", "talisman", "flip"):
            return f"{verb} {colours[0]}"
        if verb == "set":
            return "set aside"
        if verb in ("skip", "ready"):
            return verb
        a, b = INDEX[squares[0]], INDEX[squares[1]]
        if verb == "place":
            stone = state.holding
            if stone >= 0 and STONES[stone][0] == STONES[stone][1] and b < a:
                a, b = b, a
            return f"place {SQUARES[a]} {SQUARES[b]}"
        if verb == "move":
            if verb not in _step_verbs(state):  # quoted as typed, not as read below
                raise out_of_step(typed, self._step(state), hint())
            stone = state.stone_at[a]
            if stone >= 0:  # named by the upper square: shift the target to the lower one
                first, second = state.placed[stone]
                partner = second if a == first else first
                if partner < a:
                    b = _offset(b, partner, a)
                    a = partner
                    if b < 0:
                        raise IllegalMove("That stone would not fit on the board there.")
            return f"move {SQUARES[a]} to {SQUARES[b]}"
        return f"rotate {SQUARES[a]} to {SQUARES[b]}"

    @staticmethod
    def _step(state: CrystalliaState) -> str:
        """The step the game is at, as a refusal of another step's move says it."""
        if state.phase != "ability":
            return STEPS[state.phase]
        return (f"your turn is at the {state.board[state.pending[0]]} ability you covered "
                "(use it or skip it first)")

    def refuse(self, state: CrystalliaState, seat: int, move: str) -> IllegalMove:
        """Why a well-formed move is not allowed now."""
        words = move.split()
        verb = words[0]
        if verb not in _step_verbs(state):
            return out_of_step(move, self._step(state), self.notation_hint(state, seat))
        if verb == "flip":
            return IllegalMove(f"Your {words[1]} platform is already flipped.")
        if verb == "take":
            p = int(words[1]) - 1
            if not 0 <= p < len(state.pyramid):
                return IllegalMove("The pyramid's stones are numbered 1 to "
                                   f"{len(state.pyramid)}.")
            if state.pyramid[p] < 0:
                return IllegalMove(f"Stone {p + 1} has already been taken.")
            free = listing([str(q + 1) for q in _available(state)])
            return IllegalMove(f"Stone {p + 1} is covered by other stones; available: {free}.")
        if verb == "talisman":
            if state.streak >= 2:
                return IllegalMove("On a second turn you must take a stone from the pyramid: "
                                   "a talisman can't replace it.")
            if words[1] in state.talismans:
                return IllegalMove(f"{words[1].capitalize()} has already been named with a "
                                   "talisman.")
            if len(state.talismans) >= TALISMANS:
                return IllegalMove("All three talismans have been used.")
            if state.talisman_last[seat]:
                return IllegalMove("You used a talisman on your last turn.")
            return IllegalMove("The player before you used a talisman on their last turn.")
        if verb == "gain":
            return IllegalMove(f"Your stone gives {listing(_gain_choices(state.played), 'or')}, "
                               f"not {words[1]}.")
        if verb == "set":
            return IllegalMove("You can only set a stone aside when it fits nowhere.")
        a, b = INDEX[words[1]], INDEX[words[-1]]
        if verb == "place":
            if b not in ORTHOGONAL[a]:
                return IllegalMove("A stone covers two squares side by side: "
                                   f"{words[1]} and {words[2]} are not.")
            full = [SQUARES[s] for s in (a, b) if state.stone_at[s] >= 0]
            if full:
                return IllegalMove(f"{full[0]} already holds a stone.")
            return IllegalMove("That would make a line of 5 crystals of one colour "
                               "(yellow counts as every colour), which is not allowed.")
        stone = state.stone_at[a]
        if stone < 0:
            return IllegalMove(f"There is no stone on {words[1]}.")
        if stone == state.played:
            return IllegalMove(f"You can't {verb} the stone you just placed.")
        if verb == "rotate":
            pivot = next(s for s in state.placed[stone] if s != a)
            if b not in ORTHOGONAL[pivot] or b == a:
                return IllegalMove(f"Rotating keeps {SQUARES[pivot]}: the crystal on "
                                   f"{words[1]} can only swing to another square next to it.")
            if state.stone_at[b] >= 0:
                return IllegalMove(f"{words[-1]} already holds a stone.")
        else:
            other = next(s for s in state.placed[stone] if s != a)
            partner = _offset(b, other, a)
            if b == a:
                return IllegalMove("Moving must take the stone somewhere else.")
            if partner < 0:
                return IllegalMove("That stone would not fit on the board there.")
            for s in (b, partner):
                if state.stone_at[s] not in (-1, stone):
                    return IllegalMove(f"{SQUARES[s]} already holds a stone.")
        return IllegalMove("That would make a line of 5 crystals of one colour (yellow counts "
                           "as every colour), which is not allowed.")

    # -- what each seat may see

    def view(self, state: CrystalliaState, seat: int | None) -> dict[str, Any]:
        board = []
        for i in range(CELLS):
            stone = state.stone_at[i]
            partner = None
            if stone >= 0:
                partner = SQUARES[next(s for s in state.placed[stone] if s != i)]
            board.append({"square": SQUARES[i], "shows": state.board[i],
                          "crystal": state.crystal[i] or None, "partner": partner})
        available = set(_available(state))
        layout = shape(state)
        pyramid = [{
            "number": p + 1, "row": layout.row[p], "x": layout.x[p],
            "taken": state.pyramid[p] < 0,
            "stone": (list(STONES[state.pyramid[p]])
                      if state.pyramid[p] >= 0 and state.face_up[p] else None),
            "available": p in available,
        } for p in range(layout.size)]
        platforms = [[{
            "colour": colour, "crystals": state.crystals[s][c], "black": state.black[s][c],
            "flipped": state.flipped[s][c], "points": platform_points(state, s, c),
        } for c, colour in enumerate(COLOURS)] for s in range(state.players)]
        view: dict[str, Any] = {
            "game": self.id, "seat": seat, "players": state.players,
            "to_act": sorted(self.to_act(state)), "phase": state.phase, "turn": state.turn,
            "streak": state.streak, "advanced": state.advanced,
            "files": FILES_N, "ranks": RANKS_N, "board": board, "pyramid": pyramid,
            "holding": list(STONES[state.holding]) if state.holding >= 0 else None,
            "pending": ([{"square": SQUARES[state.pending[0]],
                          "ability": state.board[state.pending[0]]}]
                        if state.pending else []),
            "platforms": platforms,
            "scores": [score(state, s) for s in range(state.players)],
            "supply": dict(zip(COLOURS, state.supply, strict=True)),
            "supercrystals": dict(state.supercrystals),
            "talismans": dict(state.talismans),
            "talismans_left": TALISMANS - len(state.talismans),
            "talisman_allowed": state.phase == "take" and _may_use_talisman(state, state.turn),
            "stones_left": sum(1 for p in state.pyramid if p >= 0),
            "last": list(state.last),
            "last_action": dict(state.last_action) if state.last_action else None,
            "result": None,
        }
        result = self.outcome(state)
        if result is not None:
            view["result"] = {"winners": sorted(result.winners), "reason": result.reason,
                              "loser": state.loser if state.loser >= 0 else None}
        return view

    def determinize(self, state: CrystalliaState, seat: int | None, seed: int
                    ) -> CrystalliaState:
        """Deal the stones nobody has seen (face down in the pyramid, or left in the box)
        again among those places. The pool is sorted first, so the result depends only on
        what the seat sees."""
        out = self.load(self.dump(state))
        rng = random.Random(f"determinize/{seed}")
        out.seed, out.draws = rng.randrange(2**31), 0
        hidden = [p for p in range(len(out.pyramid))
                  if out.pyramid[p] >= 0 and not out.face_up[p]]
        stones = sorted([out.pyramid[p] for p in hidden] + out.left_out)
        rng.shuffle(stones)
        for p, stone in zip(hidden, stones[:len(hidden)], strict=True):
            out.pyramid[p] = stone
        out.left_out = sorted(stones[len(hidden):])
        return out

    # -- points, as the recap tells them

    def points(self, state: CrystalliaState) -> tuple[int, ...]:
        return tuple(score(state, s) for s in range(state.players))

    def breakdown(self, public: dict[str, Any], seat: int, earned: dict[str, float]
                  ) -> list[Term]:
        """Each platform's points (1 a crystal up to 9, -1 over; 2 each flipped), -1 per
        black crystal, +2 per supercrystal."""
        terms = []
        for p in public["platforms"][seat]:
            if p["crystals"]:
                note = " flipped" if p["flipped"] else ""
                terms.append(Term(p["points"], f"{p['colour']}{note} "
                                               f"({plural(p['crystals'], 'crystal')})"))
        black = sum(p["black"] for p in public["platforms"][seat])
        if black:
            terms.append(counted(-black, "black crystal", "black crystals"))
        terms += [Term(2, f"for the {colour} supercrystal")
                  for colour, owner in public["supercrystals"].items() if owner == seat]
        return terms
