"""Bomb Squares' components and state: the numbers in the box, the cells of the table, the
state, the set-up, what lies on the table, and crystals paid and gained.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from rules.core import Event, State, load_data

# --------------------------------------------------------------------------- components

DATA = load_data("bomb-squares")
COLOURS: list[str] = DATA["colours"]  # square cards, bombs and tokens
OPPOSITE: list[int] = [0] * len(COLOURS)
for _a, _b in DATA["opposites"]:
    OPPOSITE[COLOURS.index(_a)], OPPOSITE[COLOURS.index(_b)] = (
        COLOURS.index(_b), COLOURS.index(_a))
MEEPLES: list[str] = DATA["meeple_colours"]  # green, blue, red, yellow
KINDS: list[str] = [c["name"] for c in DATA["mint_tin_cards"]]
KIND_TEXT: dict[str, str] = {c["name"]: c["text"] for c in DATA["mint_tin_cards"]}
REACTIVE = [KINDS.index(k) for k in DATA["reactive_cards"]]
LARGEST: int = DATA["largest_card"]
SIZE: int = DATA["grid"]
COST: dict[str, int] = DATA["costs"]
REWARD: dict[str, int] = DATA["rewards"]
TO_WIN: int = DATA["crystals_to_win"]
TURN_LIMIT: int = DATA["turn_limit"]
QUIET_ROUNDS: int = DATA["quiet_rounds"]
MOVE_LIMIT: int = DATA["move_limit"]
MOST_MOVES_A_TURN: int = DATA["most_moves_a_turn"]
FOR_SALE: int = DATA["cards_for_sale"]
BOUGHT_MOST: int = DATA["bought_cards_held"]
SET_SIZE: int = DATA["set_size"]
DICE = ("red", "blue", "yellow")  # the green die is never re-rolled
LETTER = {"red": "R", "green": "G", "blue": "B", "orange": "O", "yellow": "Y", "purple": "P"}

FILES = "abcdefghi"[:SIZE]
CELLS = [f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE)]
INDEX = {name: i for i, name in enumerate(CELLS)}
START_CELL = INDEX[f"{FILES[SIZE // 2]}{SIZE // 2 + 1}"]  # e5, the middle of the table
CELL_RE = re.compile(rf"^[{FILES}][1-{SIZE}]$")


def _neighbours(i: int) -> tuple[int, ...]:
    row, col = divmod(i, SIZE)
    return tuple(r * SIZE + c for r, c in ((row + 1, col), (row - 1, col), (row, col + 1),
                                           (row, col - 1)) if 0 <= r < SIZE and 0 <= c < SIZE)


NEIGHBOURS = [_neighbours(i) for i in range(SIZE * SIZE)]


def card_code(colour: int, sections: int) -> int:
    """A square card as one number: colour * 6 + sections - 1."""
    return colour * LARGEST + sections - 1


def card_name(code: int) -> str:
    """'a 4-section green card'."""
    colour, sections = divmod(code, LARGEST)
    return f"a {sections + 1}-section {COLOURS[colour]} card"


def an(word: str) -> str:
    """'a red', 'an orange'."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def player(seat: int) -> str:
    return f"Player {seat + 1}"


# --------------------------------------------------------------------------- state


@dataclass
class BombState(State):
    """One game. The table is a 9x9 grid of places, indexed from a1 along each row; the
    per-place lists say what lies there (a card has sections > 0)."""

    start: int  # the seat that played first
    turn: int  # whose turn it is
    turns: int  # turns begun so far (the end after ``TURN_LIMIT``)
    phase: str  # start, place, bomb, meeple, act, rolled, switch, bets, challenge,
    #             sale, tokens or over
    then: str  # where the turn goes after this place/bomb/meeple step: bomb, meeple, act, end
    sections: list[int]  # 0: no card here
    colour: list[int]  # the card's colour, -1 without a card
    bomb: list[int]  # colour of the bomb on the card's middle, -1 none
    meeples: list[int]
    meeple_colour: list[int]  # -1: no meeple yet (a blank card)
    mine: list[int]  # 0, or the turn number on which a landmine was laid here
    tower: list[bool]
    token: list[int]  # 0, 1 a token (the card counts as filled), 2 placed this turn
    deck: list[int]  # square cards face down (card codes); the end of the list is the top
    held: list[int]  # the square card each seat holds back, -1 none
    set_aside: list[int]  # held cards given up for a new draw: out of the game, face up
    bomb_bag: list[int]  # bombs left in the bag, per colour
    meeple_bag: list[int]  # meeples left in the bag, per meeple colour
    crystals: list[int]
    bank: int
    for_sale: list[list[int]]  # each seat's 3 mint tin cards (kinds), face down
    bought: list[list[int]]  # each seat's bought cards, at most 2
    armed: list[list[int]]  # [owner, kind, target]: reactive cards laid face down
    tin_deck: list[int]  # mint tin cards left in the tin, per kind
    tokens: list[list[int]]  # token colours each seat has won, in the order won
    sets: list[list[int]]  # a seat's four colours once its set is complete
    to_place: list[int]  # set colours the current player still places on cards
    token_supply: list[int]
    landmines: int  # left in the box
    towers: int
    airplanes: int
    plane: list[int]  # 0 none, 1 bought this turn, 2 first use free, 3 fuelled, 4 flying free
    bonus: list[int]  # 1: an extra meeple of any colour owed (a yellow challenge)
    redo: bool  # this turn's one do-over is spent
    bought_now: list[str]  # shop items bought this turn (one of each a turn)
    meepled: bool  # this turn's meeple step is over
    pending: int  # the bomb or meeple colour drawn and not yet placed, -1 none
    dice: list[int]  # red, blue, yellow, green: 0 not rolled
    source: int  # the card meeples move from this turn (or the bomb being switched), -1
    moved: int  # meeples moved this turn
    moving_over: bool  # a card was filled by moving: no more moves this turn
    attack: dict[str, Any] | None  # the attack being fought, see ``_declare``
    sale: dict[str, Any] | None  # {"seller", "answers"}: each buyer's answer, None awaited
    last: dict[str, Any] | None  # {"seat", "text", "cells"}: the last move, for the picture
    winner: int  # the first seat to reach 75 crystals, -1
    result: str | None
    ending: str | None
    quiet: int  # turns in a row in which nobody earned a crystal
    moves: int  # moves made so far, every seat's (the guaranteed end)
    forced: list[int]  # chance outcomes a test sets, used before the generator: die values
    #                    and bag draws (colour or kind indices), in the order drawn
    earned: dict[str, list[int]]  # crystals earned per way of earning, per seat


class Won(Exception):
    """Raised by ``_gain`` when a seat reaches 75 crystals: the move stops there."""


@dataclass(frozen=True)
class Steps:
    """A joined move's detail: the single steps it names, played one by one. A move joins
    steps only where nothing is drawn, rolled or shown between them (``bomb-squares.md``,
    "Joined moves")."""

    steps: tuple[str, ...]
    last: Any = None  # the last step's own detail where it has a price (a placement's)


# --------------------------------------------------------------------------- set-up


def deal(players: int, seed: int) -> BombState:
    per = DATA["square_cards_per_colour_and_size"]
    state = BombState(
        players=players, seed=seed, draws=0, start=0, turn=0, turns=0, phase="start",
        then="bomb", sections=[0] * SIZE * SIZE, colour=[-1] * SIZE * SIZE,
        bomb=[-1] * SIZE * SIZE, meeples=[0] * SIZE * SIZE,
        meeple_colour=[-1] * SIZE * SIZE, mine=[0] * SIZE * SIZE,
        tower=[False] * SIZE * SIZE, token=[0] * SIZE * SIZE, deck=[], held=[-1] * players,
        set_aside=[],
        bomb_bag=[DATA["bombs_per_colour"]] * len(COLOURS),
        meeple_bag=[DATA["meeples_per_colour"]] * len(MEEPLES),
        crystals=[DATA["starting_crystals"]] * players,
        bank=DATA["crystals_in_box"] - DATA["starting_crystals"] * players,
        for_sale=[[] for _ in range(players)], bought=[[] for _ in range(players)], armed=[],
        tin_deck=[c["copies"] for c in DATA["mint_tin_cards"]],
        tokens=[[] for _ in range(players)], sets=[[] for _ in range(players)], to_place=[],
        token_supply=[DATA["tokens_per_colour"]] * len(COLOURS),
        landmines=DATA["landmines"], towers=DATA["lookout_towers"],
        airplanes=DATA["airplanes"], plane=[0] * players, bonus=[0] * players, redo=False,
        bought_now=[], meepled=False, pending=-1, dice=[0, 0, 0, 0], source=-1, moved=0,
        moving_over=False, attack=None, sale=None, last=None, winner=-1, result=None,
        ending=None, quiet=0, moves=0, forced=[],
        earned={k: [0] * players for k in ("fill", "attack", "bets", "sales", "cards",
                                           "challenge", "tokens")},
    )
    box = [card_code(c, s) for c in range(len(COLOURS)) for s in range(1, LARGEST + 1)
           for _ in range(per)]
    # The starting card (black back) is one of the 6-section cards, its colour drawn.
    start_card = card_code(state.rng().randrange(len(COLOURS)), LARGEST)
    box.remove(start_card)
    state.rng().shuffle(box)
    state.deck = box
    lay(state, START_CELL, start_card)
    # "Place a bomb on the square from the bag and any colour mini Meeple": the bomb is
    # drawn, the meeple's colour is left to the dice (a random colour).
    state.bomb[START_CELL] = draw_from(state, state.bomb_bag)
    put_meeple(state, START_CELL, draw_from(state, state.meeple_bag))
    for seat in range(players):
        fill_tin(state, seat)
    state.start = state.turn = state.rng().randrange(players)
    return state


def draw_from(state: BombState, bag: list[int]) -> int:
    """A blind draw from a bag of counts; the caller checks it is not empty."""
    if state.forced:
        index = state.forced.pop(0)
        bag[index] -= 1
        return index
    pick = state.rng().randrange(sum(bag))
    for index, count in enumerate(bag):
        if pick < count:
            bag[index] -= 1
            return index
        pick -= count
    raise AssertionError("drew from an empty bag")


def fill_tin(state: BombState, seat: int) -> list[int]:
    """Draw mint tin cards until ``seat`` has 3 to sell (fewer if the tin runs out)."""
    drawn: list[int] = []
    while len(state.for_sale[seat]) + len(drawn) < FOR_SALE and any(state.tin_deck):
        drawn.append(draw_from(state, state.tin_deck))
    state.for_sale[seat] = sorted(state.for_sale[seat] + drawn)
    return drawn


def lay(state: BombState, cell: int, code: int) -> None:
    state.colour[cell], sections = divmod(code, LARGEST)
    state.sections[cell] = sections + 1


def put_meeple(state: BombState, cell: int, colour: int) -> None:
    state.meeples[cell] += 1
    state.meeple_colour[cell] = colour


# --------------------------------------------------------------------------- the table


def free(state: BombState, cell: int) -> int:
    """Sections still open for a meeple (a landmine blocks one; a token card has none)."""
    if state.token[cell]:
        return 0
    return state.sections[cell] - state.meeples[cell] - (1 if state.mine[cell] else 0)


def filled(state: BombState, cell: int) -> bool:
    """Every section holds a meeple, or a token says so (from the turn after it is laid)."""
    if state.token[cell]:
        return state.token[cell] == 1
    return state.sections[cell] > 0 and state.meeples[cell] == state.sections[cell]


def bomb_of(state: BombState, cell: int) -> int:
    """The bomb colour a card fights with: its bomb, or its own colour under a token."""
    return state.colour[cell] if state.token[cell] else state.bomb[cell]


def takes(state: BombState, cell: int, colour: int) -> bool:
    """Whether a meeple of ``colour`` may go on ``cell``: a free section, blank or same."""
    return free(state, cell) > 0 and state.meeple_colour[cell] in (-1, colour)


def distances(state: BombState, start: int, limit: int) -> dict[int, int]:
    """Cards within ``limit`` steps of ``start``, counting cards along orthogonal paths
    through placed cards (bends allowed, never diagonal)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        i = queue.popleft()
        if seen[i] == limit:
            continue
        for j in NEIGHBOURS[i]:
            if j not in seen and state.sections[j]:
                seen[j] = seen[i] + 1
                queue.append(j)
    return seen


def spots_for(state: BombState, code: int) -> dict[int, int]:
    """Where a square card may go, and what it costs: an empty place next to a card. Free
    next to a card with as many sections or more; bigger than every neighbour, it costs 1
    crystal for each adjacent card (each has fewer sections)."""
    sections = code % LARGEST + 1
    out = {}
    for cell in range(SIZE * SIZE):
        if state.sections[cell]:
            continue
        around = [state.sections[j] for j in NEIGHBOURS[cell] if state.sections[j]]
        if around:
            out[cell] = 0 if max(around) >= sections else len(around)
    return out


def open_place(state: BombState) -> bool:
    return any(not state.sections[c] and any(state.sections[j] for j in NEIGHBOURS[c])
               for c in range(SIZE * SIZE))


def laid_cards(state: BombState) -> list[int]:
    return [c for c in range(SIZE * SIZE) if state.sections[c]]


# --------------------------------------------------------------------------- crystals


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def crystals(count: int) -> str:
    """'1 crystal', '3 crystals'."""
    return plural(count, "crystal")


def gain(state: BombState, seat: int, amount: int, way: str, why: str,
          events: list[Event]) -> int:
    """Pay ``seat`` from the bank (as much as the bank holds), say how much and ``why``
    ('for filling the card on e5'), and check for the winner."""
    paid = min(amount, state.bank)
    state.bank -= paid
    short = f" (all the bank held of the {amount} due)" if paid < amount else ""
    events.append(Event(f"{player(seat)} earns {crystals(paid)} {why}{short}.", kind="earn",
                        data={"seat": seat, "crystals": paid, "way": way}))
    return _receive(state, seat, paid, way)


def _receive(state: BombState, seat: int, paid: int, way: str) -> int:
    state.crystals[seat] += paid
    state.earned[way][seat] += paid
    if paid:
        state.quiet = 0
    if state.crystals[seat] >= TO_WIN and state.winner < 0:
        state.winner = seat
        raise Won
    return paid


def pay(state: BombState, seat: int, amount: int) -> None:
    """``seat`` pays the bank (callers check the seat can afford it)."""
    state.crystals[seat] -= amount
    state.bank += amount


def transfer(state: BombState, payer: int, payee: int, amount: int, way: str) -> None:
    """``payer`` pays ``payee`` (the caller says so in its sentence)."""
    state.crystals[payer] -= amount
    _receive(state, payee, amount, way)


def mark(state: BombState, seat: int, text: str, cells: list[int]) -> None:
    state.last = {"seat": seat, "text": text, "cells": [CELLS[c] for c in cells]}
