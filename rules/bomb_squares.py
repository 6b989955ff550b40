"""Bomb Squares: square cards joined edge to edge, meeples filling them, bombs attacking.

2-4 players. Chance everywhere (the square card deck, the bomb and meeple bags, four dice,
the mint tin deck); hidden mint tin cards, a held square card and secret bets on the green
die, several opponents betting at once. Every rule and every decision taken where the seed
is silent or contradicts itself: ``bomb-squares.md``.

Read top to bottom: components, state, set-up, the turn (square card, bomb, meeple, the dice
step), the attack, the challenge, shops and mint tin cards, tokens, the end, then the
contract methods (moves, parsing, views, determinize).
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass
from itertools import combinations
from typing import Any

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
    listing,
    load_data,
    out_of_step,
    quote,
    starts,
)

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


class _Won(Exception):
    """Raised by ``_gain`` when a seat reaches 75 crystals: the move stops there."""


@dataclass(frozen=True)
class Steps:
    """A joined move's detail: the single steps it names, played one by one. A move joins
    steps only where nothing is drawn, rolled or shown between them (``bomb-squares.md``,
    "Joined moves")."""

    steps: tuple[str, ...]
    last: Any = None  # the last step's own detail where it has a price (a placement's)


# --------------------------------------------------------------------------- set-up


def _deal(players: int, seed: int) -> BombState:
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
    _lay(state, START_CELL, start_card)
    # "Place a bomb on the square from the bag and any colour mini Meeple": the bomb is
    # drawn, the meeple's colour is left to the dice (a random colour).
    state.bomb[START_CELL] = _draw_from(state, state.bomb_bag)
    _put_meeple(state, START_CELL, _draw_from(state, state.meeple_bag))
    for seat in range(players):
        _fill_tin(state, seat)
    state.start = state.turn = state.rng().randrange(players)
    return state


def _draw_from(state: BombState, bag: list[int]) -> int:
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


def _fill_tin(state: BombState, seat: int) -> list[int]:
    """Draw mint tin cards until ``seat`` has 3 to sell (fewer if the tin runs out)."""
    drawn: list[int] = []
    while len(state.for_sale[seat]) + len(drawn) < FOR_SALE and any(state.tin_deck):
        drawn.append(_draw_from(state, state.tin_deck))
    state.for_sale[seat] = sorted(state.for_sale[seat] + drawn)
    return drawn


def _lay(state: BombState, cell: int, code: int) -> None:
    state.colour[cell], sections = divmod(code, LARGEST)
    state.sections[cell] = sections + 1


def _put_meeple(state: BombState, cell: int, colour: int) -> None:
    state.meeples[cell] += 1
    state.meeple_colour[cell] = colour


# --------------------------------------------------------------------------- the table


def _free(state: BombState, cell: int) -> int:
    """Sections still open for a meeple (a landmine blocks one; a token card has none)."""
    if state.token[cell]:
        return 0
    return state.sections[cell] - state.meeples[cell] - (1 if state.mine[cell] else 0)


def _filled(state: BombState, cell: int) -> bool:
    """Every section holds a meeple, or a token says so (from the turn after it is laid)."""
    if state.token[cell]:
        return state.token[cell] == 1
    return state.sections[cell] > 0 and state.meeples[cell] == state.sections[cell]


def _bomb_of(state: BombState, cell: int) -> int:
    """The bomb colour a card fights with: its bomb, or its own colour under a token."""
    return state.colour[cell] if state.token[cell] else state.bomb[cell]


def _takes(state: BombState, cell: int, colour: int) -> bool:
    """Whether a meeple of ``colour`` may go on ``cell``: a free section, blank or same."""
    return _free(state, cell) > 0 and state.meeple_colour[cell] in (-1, colour)


def _distances(state: BombState, start: int, limit: int) -> dict[int, int]:
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


def _spots(state: BombState, code: int) -> dict[int, int]:
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


def _open_place(state: BombState) -> bool:
    return any(not state.sections[c] and any(state.sections[j] for j in NEIGHBOURS[c])
               for c in range(SIZE * SIZE))


def _cards(state: BombState) -> list[int]:
    return [c for c in range(SIZE * SIZE) if state.sections[c]]


# --------------------------------------------------------------------------- crystals


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def crystals(count: int) -> str:
    """'1 crystal', '3 crystals'."""
    return _plural(count, "crystal")


def _gain(state: BombState, seat: int, amount: int, way: str, why: str,
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
        raise _Won
    return paid


def _pay(state: BombState, seat: int, amount: int) -> None:
    """``seat`` pays the bank (callers check the seat can afford it)."""
    state.crystals[seat] -= amount
    state.bank += amount


def _transfer(state: BombState, payer: int, payee: int, amount: int, way: str) -> None:
    """``payer`` pays ``payee`` (the caller says so in its sentence)."""
    state.crystals[payer] -= amount
    _receive(state, payee, amount, way)


def _mark(state: BombState, seat: int, text: str, cells: list[int]) -> None:
    state.last = {"seat": seat, "text": text, "cells": [CELLS[c] for c in cells]}


# --------------------------------------------------------------------------- the turn


def _begin_turn(state: BombState, events: list[Event]) -> None:
    """A new turn for ``state.turn``: a 'lose a turn' card armed against them fires."""
    while True:
        state.turns += 1
        seat = state.turn
        state.redo, state.bought_now, state.meepled, state.pending = False, [], False, -1
        state.dice, state.source, state.moved, state.moving_over = [0, 0, 0, 0], -1, 0, False
        state.phase, state.then = "start", "bomb"
        fired = _fire(state, seat, KINDS.index("skip"))
        if fired is None:
            return
        events.append(Event(f"{player(fired)} reveals a 'lose a turn' card against "
                            f"{player(seat)}: {player(seat)} loses this turn.", kind="card",
                            data={"seat": fired, "target": seat}))
        if _over_by_time(state, events):
            return
        state.turn = (seat + 1) % state.players


def _fire(state: BombState, target: int, kind: int) -> int | None:
    """The first armed card of ``kind`` against ``target`` goes off: back in the tin."""
    for n, (owner, armed_kind, against) in enumerate(state.armed):
        if armed_kind == kind and against == target:
            del state.armed[n]
            state.tin_deck[kind] += 1
            return owner
    return None


def _end_turn(state: BombState, events: list[Event]) -> None:
    """The turn is over: tokens laid this turn count from now, a new airplane is ready."""
    seat = state.turn
    state.token = [1 if t else 0 for t in state.token]
    if state.plane[seat] in (1, 4):
        state.plane[seat] = 2 if state.plane[seat] == 1 else 3
    state.phase, state.attack, state.sale, state.source, state.pending = (
        "start", None, None, -1, -1)
    if _over_by_time(state, events):
        return
    state.turn = (seat + 1) % state.players
    _begin_turn(state, events)


def _goto(state: BombState, then: str, events: list[Event]) -> None:
    """Carry on with the turn after a step: the bomb, the meeple, the dice step or the end."""
    if then == "bomb":
        _bomb_step(state, "meeple", events)
    elif then == "meeple":
        _meeple_step(state, "act", events)
    elif then == "act":
        state.phase = "act"
    else:
        _end_turn(state, events)


def _draw_square(state: BombState, seat: int, then: str, events: list[Event]) -> None:
    code = state.deck.pop()
    state.held[seat] = code
    state.phase, state.then = "place", then
    events.append(Event(f"{player(seat)} draws a square card.", kind="draw",
                        data={"seat": seat}))
    events.append(Event(f"You draw {card_name(code)}.", to=frozenset({seat}), kind="draw",
                        data={"card": code}))


def _place(state: BombState, seat: int, cell: int, cost: int, events: list[Event]) -> None:
    code = state.held[seat]
    state.held[seat] = -1
    if cost:
        _pay(state, seat, cost)
    _lay(state, cell, code)
    why = (f", paying {crystals(cost)}: 1 for each neighbour, all with fewer sections"
           if cost else ", free beside a card with as many sections or more")
    if state.then == "end":  # the second square card, instead of the dice
        why += "; a second square card gets no bomb or meeple, and the turn ends"
    _mark(state, seat, f"placed a card on {CELLS[cell]}", [cell])
    events.append(Event(f"{player(seat)} places {card_name(code)} on {CELLS[cell]}{why}.",
                        kind="place", data={"seat": seat, "cell": CELLS[cell]}))
    then = state.then
    _goto(state, then, events)


def _bomb_step(state: BombState, then: str, events: list[Event]) -> None:
    """Draw a bomb blind for a card without one; none in the bag or no such card: skip."""
    if not any(state.bomb_bag) or not _bombless(state):
        why = "the bomb bag is empty" if not any(state.bomb_bag) else \
            "every card already holds a bomb"
        events.append(Event(f"No bomb is drawn: {why}.", kind="bomb"))
        _goto(state, then, events)
        return
    state.pending = _draw_from(state, state.bomb_bag)
    state.phase, state.then = "bomb", then
    events.append(Event(f"{player(state.turn)} draws {an(COLOURS[state.pending])} bomb.",
                        kind="bomb", data={"colour": COLOURS[state.pending]}))


def _mine_places(state: BombState) -> list[int]:
    """Cards a landmine may blockade: a free section, no lookout tower, no landmine yet."""
    return [c for c in _cards(state)
            if _free(state, c) > 0 and not state.mine[c] and not state.tower[c]]


def _tower_places(state: BombState) -> list[int]:
    """Bombs a lookout tower may stand on: one tower a card, not on a token card."""
    return [c for c in _cards(state)
            if state.bomb[c] >= 0 and not state.tower[c] and not state.token[c]]


def _one_short(state: BombState, cell: int) -> bool:
    """Whether one more meeple fills ``cell`` (the extra meeple is bought only to fill a
    card): one free section, no landmine, and a meeple in the bag that it takes: of its
    colour, or any for a blank card (a blank 1-section card included)."""
    if state.mine[cell] or _free(state, cell) != 1:
        return False
    colour = state.meeple_colour[cell]
    return bool(state.meeple_bag[colour]) if colour >= 0 else any(state.meeple_bag)


def _bombless(state: BombState) -> list[int]:
    return [c for c in range(SIZE * SIZE)
            if state.sections[c] and state.bomb[c] < 0 and not state.token[c]]


def _meeple_step(state: BombState, then: str, events: list[Event]) -> None:
    """Draw a meeple blind; it must be placed if it fits anywhere, else it goes back."""
    if not any(state.meeple_bag):
        state.meepled = True
        events.append(Event("No meeple is drawn: every meeple is on the table.",
                            kind="meeple"))
        _goto(state, then, events)
        return
    colour = _draw_from(state, state.meeple_bag)
    seat = state.turn
    events.append(Event(f"{player(seat)} draws a {MEEPLES[colour]} meeple.", kind="meeple",
                        data={"colour": MEEPLES[colour]}))
    if not any(_takes(state, c, colour) for c in _cards(state)):
        state.meeple_bag[colour] += 1
        state.meepled = True
        events.append(Event(f"No card takes a {MEEPLES[colour]} meeple; it goes back in the "
                            "bag.", kind="meeple"))
        _goto(state, then, events)
        return
    state.pending, state.phase, state.then = colour, "meeple", then


def _meeple_on(state: BombState, seat: int, cell: int, colour: int, events: list[Event],
               how: str = "places a") -> None:
    """A meeple goes on ``cell``; a card filled so pays its sections to ``seat``."""
    _put_meeple(state, cell, colour)
    _mark(state, seat, f"meeple on {CELLS[cell]}", [cell])
    events.append(Event(f"{player(seat)} {how} {MEEPLES[colour]} meeple on {CELLS[cell]}"
                        f"{_how_full(state, cell)}.", kind="meeple",
                        data={"seat": seat, "cell": CELLS[cell]}))
    _check_filled(state, seat, cell, events)


def _how_full(state: BombState, cell: int) -> str:
    """' (2 of 4 sections taken: a full card pays 4)', or '' once the card is full (its
    payout follows); with a landmine, why it cannot fill."""
    sections, meeples = state.sections[cell], state.meeples[cell]
    if meeples == sections:
        return ""
    if state.mine[cell]:
        return (f" ({meeples} of {sections} sections taken; a landmine blocks one, so it "
                "cannot fill until the landmine is removed)")
    return f" ({meeples} of {sections} sections taken: a full card pays {sections})"


def _check_filled(state: BombState, seat: int, cell: int, events: list[Event]) -> bool:
    """A card whose every section holds a meeple pays its sections to ``seat``."""
    if state.meeples[cell] != state.sections[cell]:
        return False
    _gain(state, seat, state.sections[cell], "fill",
          f"for filling the {state.sections[cell]}-section card on {CELLS[cell]}", events)
    return True


# --------------------------------------------------------------------------- the dice


def _attackers(state: BombState) -> list[int]:
    """Filled cards with a bomb (or a token) that may attack."""
    return [c for c in range(SIZE * SIZE) if _bomb_of(state, c) >= 0 and _filled(state, c)]


def _targets(state: BombState, seat: int, source: int, reach: int) -> list[int]:
    """Cards with the opposite bomb within ``reach`` of ``source``. A card whose token was
    laid this turn is not yet in play; a seat that has laid its tokens may not attack a
    token card."""
    want = OPPOSITE[_bomb_of(state, source)]
    # cards are only ever laid beside a card, so without a limit every card is in reach
    near = _distances(state, source, reach) if reach < SIZE * SIZE else _cards(state)
    return sorted(c for c in near if c != source and _bomb_of(state, c) == want
                  and state.token[c] != 2 and not (state.token[c] and state.sets[seat]))


def _any_attack(state: BombState, seat: int, reach: int = SIZE * SIZE) -> bool:
    return any(_targets(state, seat, a, reach) for a in _attackers(state))


def _roll(state: BombState, which: tuple[str, ...]) -> None:
    for die in which:
        value = state.forced.pop(0) if state.forced else state.rng().randint(1, 6)
        state.dice[("red", "blue", "yellow", "green").index(die)] = value


def _dice_text(state: BombState, which: tuple[str, ...]) -> str:
    index = {"red": 0, "blue": 1, "yellow": 2, "green": 3}
    return listing([f"{d} {state.dice[index[d]]}" for d in which])


def _start_roll(state: BombState, seat: int, which: tuple[str, ...], events: list[Event]
                ) -> None:
    fired = _fire(state, seat, KINDS.index("stop"))
    if fired is not None:
        events.append(Event(f"{player(fired)} reveals a 'stop a dice roll' card: "
                            f"{player(seat)}'s roll is stopped and their turn ends.",
                            kind="card", data={"seat": fired, "target": seat}))
        _end_turn(state, events)
        return
    _roll(state, which)
    state.phase = "rolled"
    _mark(state, seat, f"rolled {_dice_text(state, which)}", [])
    events.append(Event(f"{player(seat)} rolls {_dice_text(state, which)}"
                        f"{_in_reach(state, seat)}.", kind="roll",
                        data={"dice": {d: state.dice[n] for n, d in enumerate(DICE)}}))


def _in_reach(state: BombState, seat: int) -> str:
    """After red and blue are rolled: '', or that a target in reach must be attacked."""
    blue = state.dice[1]
    if not blue:
        return ""
    if any(_targets(state, seat, a, blue) for a in _attackers(state)):
        return ": a target is in reach, so an attack must be made (no meeple moves first)"
    return ": no target is in reach of the blue die"


def _move_meeple(state: BombState, seat: int, target: int, by_air: bool,
                 events: list[Event]) -> None:
    """One meeple from the source card to ``target``; filling a card stops the moves and,
    when an attack is then possible, rolls every die again but yellow."""
    source = state.source
    colour = state.meeple_colour[source]
    state.meeples[source] -= 1
    state.moved += 1
    how, paid = "moves", ""
    if by_air:
        how, paid = "flies", " (the airplane's first use is free this turn)"
        if state.plane[seat] == 3:
            _pay(state, seat, COST["airplane_fuel"])
            paid = f", paying {crystals(COST['airplane_fuel'])} of fuel"
        else:
            state.plane[seat] = 4
    _put_meeple(state, target, colour)
    _mark(state, seat, f"{how} a meeple {CELLS[source]}-{CELLS[target]}", [source, target])
    events.append(Event(f"{player(seat)} {how} a {MEEPLES[colour]} meeple from "
                        f"{CELLS[source]} to {CELLS[target]}{paid}{_how_full(state, target)}.",
                        kind="move",
                        data={"seat": seat, "from": CELLS[source], "to": CELLS[target]}))
    if _check_filled(state, seat, target, events):
        state.moving_over = True
        if _any_attack(state, seat):
            _roll(state, ("red", "blue"))
            events.append(Event(f"A card was filled and an attack is possible: red and blue "
                                f"are rolled again: {_dice_text(state, ('red', 'blue'))}"
                                f"{_in_reach(state, seat)}.", kind="roll"))


# --------------------------------------------------------------------------- the attack


def _declare(state: BombState, seat: int, source: int, target: int,
             events: list[Event]) -> None:
    """The attack is on: every opponent holding crystals bets on the green die, in secret."""
    bets = [0 if s != seat and state.crystals[s] > 0 else -1 for s in range(state.players)]
    state.attack = {"attacker": seat, "from": source, "to": target, "power": state.dice[0],
                    "bets": bets, "green": 0, "toughness": 0, "furthest": [],
                    "won": False}
    _mark(state, seat, f"attacks {CELLS[target]} from {CELLS[source]}", [source, target])
    token = (f" (attacking from a token card: a win clears {CELLS[source]} and destroys "
             "its token, which goes back to the supply)" if state.token[source] else "")
    events.append(Event(f"{player(seat)} attacks the {COLOURS[_bomb_of(state, target)]} "
                        f"bomb on {CELLS[target]} from {CELLS[source]} with power "
                        f"{state.dice[0]}{token}.", kind="attack",
                        data={"seat": seat, "from": CELLS[source], "to": CELLS[target]}))
    if any(b == 0 for b in bets):
        state.phase = "bets"
        events.append(Event("Every opponent with crystals now bets in secret on the green "
                            "die (1 to 6).", kind="attack"))
    else:
        _roll_green(state, events)


def _roll_green(state: BombState, events: list[Event]) -> None:
    """The green die against the bets: the furthest guess wins 2 crystals and sets the
    toughness (guess minus roll); without bets the roll itself is the toughness."""
    attack = state.attack
    assert attack is not None
    _roll(state, ("green",))
    green = attack["green"] = state.dice[3]
    bettors = [s for s, b in enumerate(attack["bets"]) if b > 0]
    if bettors:
        far = max(abs(attack["bets"][s] - green) for s in bettors)
        attack["furthest"] = [s for s in bettors if abs(attack["bets"][s] - green) == far]
        attack["toughness"] = far
        guesses = listing([f"{player(s)} {attack['bets'][s]}" for s in bettors])
        events.append(Event(f"Green rolls {green}. The bets: {guesses}. The furthest guess "
                            f"is {far} away, so the toughness is {far}.", kind="green",
                            data={"green": green, "bets": attack["bets"]}))
        for s in attack["furthest"]:
            _gain(state, s, REWARD["furthest_guess"], "bets",
                  f"for the guess furthest from the green die ({attack['bets'][s]})", events)
    else:
        attack["toughness"] = green
        events.append(Event(f"Green rolls {green}: nobody bets, so the toughness is {green}.",
                            kind="green", data={"green": green}))
    if attack["toughness"] >= attack["power"]:
        events.append(Event(f"Toughness {attack['toughness']} holds against power "
                            f"{attack['power']}: the attack is lost, nothing is cleared, and "
                            "the turn ends.", kind="battle"))
        _end_turn(state, events)
        return
    attack["won"] = True
    events.append(Event(f"Toughness {attack['toughness']} is below power {attack['power']}: "
                        "the attack is won.", kind="battle"))
    challenger = (attack["attacker"] + 1) % state.players
    if state.crystals[challenger] >= DATA["challenge_minimum"] and any(state.meeple_bag):
        attack["challenger"] = challenger
        state.phase = "challenge"
        events.append(Event(f"{player(challenger)} may challenge the win (it costs "
                            f"{crystals(CHALLENGE_PRICE)}).", kind="challenge",
                            data={"seat": challenger}))
    else:
        _settle(state, events)


CHALLENGE_PRICE = COST["challenge_bank"] + COST["challenge_attacker"]


def _challenge(state: BombState, seat: int, events: list[Event]) -> None:
    """1 crystal to the bank, 1 to the attacker, and a meeple drawn: green and blue turn
    the win into a loss (blue also costs 5), red and yellow let it stand (yellow pays 3 and
    an extra meeple)."""
    attack = state.attack
    assert attack is not None
    attacker = attack["attacker"]
    _pay(state, seat, COST["challenge_bank"])
    colour = _draw_from(state, state.meeple_bag)
    state.meeple_bag[colour] += 1  # shown, then back in the bag
    drawn = MEEPLES[colour]
    events.append(Event(f"{player(seat)} challenges, paying {crystals(CHALLENGE_PRICE)}: "
                        f"{COST['challenge_bank']} to the bank and "
                        f"{COST['challenge_attacker']} to {player(attacker)}, and draws a "
                        f"{drawn} meeple (it goes back in the bag).", kind="challenge",
                        data={"seat": seat, "colour": drawn}))
    _transfer(state, seat, attacker, COST["challenge_attacker"], "challenge")
    if drawn in ("green", "blue"):
        text = f"A {drawn} meeple: the battle is lost and nothing is cleared"
        if drawn == "blue":
            lost = min(COST["challenge_blue"], state.crystals[seat])
            _pay(state, seat, lost)
            text += f"; {player(seat)} sacrifices {crystals(lost)} to the bank"
        else:
            text += f", and the turn goes to {player(seat)}"
        events.append(Event(text + ".", kind="battle", data={"seat": seat}))
        _end_turn(state, events)
        return
    if drawn == "yellow":
        state.bonus[seat] = 1
        events.append(Event(f"A yellow meeple: the win stands, and {player(seat)} will place "
                            "an extra meeple of any colour on their next turn.",
                            kind="challenge", data={"seat": seat}))
        _gain(state, seat, REWARD["challenge_yellow"], "challenge",
              "for drawing a yellow meeple in the challenge", events)
    else:
        events.append(Event("A red meeple: the win stands.", kind="challenge"))
    _settle(state, events)


def _settle(state: BombState, events: list[Event]) -> None:
    """A won attack pays out: crystals for the meeples on the attacked card (a token card:
    its sections and 5 more), its token, 1 more crystal to the furthest guess; both cards
    are cleared."""
    attack = state.attack
    assert attack is not None
    seat, source, target = attack["attacker"], attack["from"], attack["to"]
    token_card = bool(state.token[target])
    sections, meeples = state.sections[target], state.meeples[target]
    earnings = sections + REWARD["token_card"] if token_card else meeples
    colour = state.colour[target]
    named = COLOURS[colour]
    if state.sets[seat]:
        events.append(Event(f"{player(seat)} already holds a set of four, so wins no "
                            f"{named} token.", kind="token", data={"seat": seat}))
    elif token_card or state.token_supply[colour]:
        if not token_card:
            state.token_supply[colour] -= 1
        state.tokens[seat].append(colour)
        events.append(Event(f"{player(seat)} wins {an(named)} token for the attack on the "
                            f"{named} card on {CELLS[target]}" + (
                                ", the token that lay on it" if token_card else "") + ".",
                            kind="token", data={"seat": seat, "colour": named}))
    else:
        events.append(Event(f"No {named} token is left to win.", kind="token"))
    state.token[target] = 0
    events.append(Event(f"{CELLS[source]} and {CELLS[target]} are cleared: "
                        f"{_clearing(state, (source, target))}.", kind="spoils"))
    for cell in (source, target):
        _clear(state, cell)
    why = (f"for the token card on {CELLS[target]} ({sections} sections + "
           f"{REWARD['token_card']})" if token_card else
           f"for the {_plural(meeples, 'meeple')} on {CELLS[target]}")
    _gain(state, seat, earnings, "attack", why, events)
    for s in attack["furthest"]:
        _gain(state, s, REWARD["furthest_guess_won"], "bets",
              "more for the furthest guess, as the attack was won", events)
    if _complete_set(state, seat, events):
        return
    _end_turn(state, events)


def _clearing(state: BombState, cells: tuple[int, ...]) -> str:
    """What clearing ``cells`` sends where: 'meeples and bombs go back to their bags, a
    lookout tower to the shop, a landmine out of the game'."""
    meeples = sum(state.meeples[c] for c in cells)
    bombs = sum(state.bomb[c] >= 0 for c in cells)
    towers = sum(state.tower[c] for c in cells)
    mines = sum(bool(state.mine[c]) for c in cells)
    parts = [f"{_plural(meeples, 'meeple')} and {_plural(bombs, 'bomb')} go back to "
             "their bags"]
    if towers:
        parts.append(f"{_plural(towers, 'lookout tower')} to the shop")
    if mines:
        parts.append(f"{_plural(mines, 'landmine')} out of the game")
    if state.token[cells[0]]:  # the attacker's own token card: its token is destroyed
        parts.append(f"the {COLOURS[state.colour[cells[0]]]} token on {CELLS[cells[0]]} "
                     "back to the supply (it attacked, so its token is destroyed)")
    return listing(parts)


def _clear(state: BombState, cell: int) -> None:
    """Everything on a card goes back for reuse, but a landmine, which leaves the game."""
    if state.meeples[cell]:
        state.meeple_bag[state.meeple_colour[cell]] += state.meeples[cell]
    if state.bomb[cell] >= 0:
        state.bomb_bag[state.bomb[cell]] += 1
    if state.tower[cell]:
        state.towers += 1
    if state.token[cell]:
        state.token_supply[state.colour[cell]] += 1
    state.meeples[cell], state.meeple_colour[cell], state.bomb[cell] = 0, -1, -1
    state.mine[cell], state.tower[cell], state.token[cell] = 0, False, 0


# --------------------------------------------------------------------------- tokens


def _complete_set(state: BombState, seat: int, events: list[Event]) -> bool:
    """Four different token colours: 10 crystals, the rest of the seat's tokens go back,
    and the four are laid on empty cards of their colours. True: the seat lays them now."""
    distinct = list(dict.fromkeys(state.tokens[seat]))
    if state.sets[seat] or len(distinct) < SET_SIZE:
        return False
    chosen = distinct[:SET_SIZE]
    extras = list(state.tokens[seat])
    for colour in chosen:
        extras.remove(colour)
    for colour in extras:  # set aside, to be won by the others
        state.token_supply[colour] += 1
    state.tokens[seat] = list(chosen)
    state.sets[seat] = list(chosen)
    state.to_place = list(chosen)
    spare = (f"; the spare {listing([COLOURS[c] for c in extras])} "
             f"token{'s go' if len(extras) > 1 else ' goes'} back for others to win"
             if extras else "")
    events.append(Event(f"{player(seat)} holds a set of four token colours "
                        f"({listing([COLOURS[c] for c in chosen])}){spare}.", kind="set",
                        data={"seat": seat}))
    _gain(state, seat, REWARD["token_set"], "tokens", "for the set of four tokens", events)
    if _token_places(state):
        state.phase = "tokens"
        events.append(Event(f"{player(seat)} now lays each set token on an empty card of its "
                            "colour.", kind="set", data={"seat": seat}))
        return True
    _tokens_back(state, seat, events)
    return False


def _tokens_back(state: BombState, seat: int, events: list[Event]) -> None:
    """Set colours with no empty card of their colour go back to the supply."""
    if not state.to_place:
        return
    for colour in state.to_place:
        state.tokens[seat].remove(colour)
        state.token_supply[colour] += 1
    names = listing([COLOURS[c] for c in state.to_place])
    events.append(Event(f"No empty {names} card is on the table, so "
                        f"{'that token goes' if len(state.to_place) == 1 else 'those tokens go'}"
                        " back to the supply.", kind="set"))
    state.to_place = []


def _token_places(state: BombState) -> list[int]:
    """Empty cards (no meeple, bomb, landmine or token) of a colour still to lay."""
    return [c for c in range(SIZE * SIZE) if state.sections[c]
            and state.colour[c] in state.to_place and not state.meeples[c]
            and state.bomb[c] < 0 and not state.mine[c] and not state.token[c]]


def _lay_token(state: BombState, seat: int, cell: int, events: list[Event]) -> None:
    colour = state.colour[cell]
    state.to_place.remove(colour)
    state.token[cell] = 2
    state.tokens[seat].remove(colour)
    _mark(state, seat, f"token on {CELLS[cell]}", [cell])
    events.append(Event(f"{player(seat)} lays {an(COLOURS[colour])} token on {CELLS[cell]}: "
                        "from the next turn it counts as filled with a bomb of its colour.",
                        kind="token", data={"seat": seat, "cell": CELLS[cell]}))
    if not _token_places(state):
        _tokens_back(state, seat, events)
        _end_turn(state, events)


# --------------------------------------------------------------------------- the end


def _over_by_time(state: BombState, events: list[Event]) -> bool:
    """The ends the seed does not give: the turn limit, and a full round without anyone
    earning once the square cards are used up. Most crystals wins."""
    if state.turns >= TURN_LIMIT or state.moves > MOVE_LIMIT - MOST_MOVES_A_TURN:
        state.result = f"The turn limit ({TURN_LIMIT} turns) is reached; most crystals wins."
        if state.turns < TURN_LIMIT:
            state.result = f"The move limit ({MOVE_LIMIT} moves) is near; most crystals wins."
        state.ending = "turn limit"
    elif not state.deck and state.quiet >= QUIET_ROUNDS * state.players:
        state.result = "The square cards are used up and nobody earned for a whole round; " \
                       "most crystals wins."
        state.ending = "no earnings"
    else:
        if not state.deck:
            state.quiet += 1
        return False
    state.phase = "over"
    events.append(Event(f"The game ends: {state.result}", kind="end"))
    return True


# --------------------------------------------------------------------------- the computer

# what ``evaluate`` counts beyond crystals, in crystals (``data/weights/bomb-squares.json``)
WEIGHTS = {"held_card": 1.0, "mint_tin_card": 1.0, "token": 2.0, "airplane": 3.0,
           "step_in_hand": 1.0}
ATTACK_AT = 8.0  # spoils the playouts' policy rolls for (measured: ``bomb-squares.md``)


def _worth(state: BombState, seat: int, weights: dict[str, float]) -> float:
    """A seat's crystals and what will pay it later: a held square card, bought mint tin
    cards, token colours towards a set of four (10 crystals), an airplane."""
    w = {**WEIGHTS, **weights}
    tokens = 0 if state.sets[seat] else len(set(state.tokens[seat]))
    return (state.crystals[seat] + w["held_card"] * (state.held[seat] >= 0)
            + w["mint_tin_card"] * (len(state.bought[seat])
                                    + sum(a[0] == seat for a in state.armed))
            + w["token"] * tokens + w["airplane"] * bool(state.plane[seat])
            + w["step_in_hand"] * _due(state, seat))


def _due(state: BombState, seat: int) -> float:
    """What the step in hand will pay ``seat``: the meeple drawn fills a card (its
    sections), or the dice rolled force an attack (the chance against the best bet times
    the spoils for the attacker; 2 crystals and the chance for each bettor)."""
    if state.phase == "meeple" and state.turn == seat and state.pending >= 0:
        return max((state.sections[c] for c in _cards(state)
                    if _fills(state, c) and _takes(state, c, state.pending)), default=0)
    if state.phase != "rolled" or not state.dice[1] or state.source >= 0:
        return 0.0
    mover, power = state.turn, state.dice[0]
    bettors = [s for s in range(state.players) if s != mover and state.crystals[s]]
    chance = (power if bettors else power - 1) / 6
    best = max((_spoil(state, mover, t) for a in _attackers(state)
                for t in _targets(state, mover, a, state.dice[1])), default=-1.0)
    if best < 0:
        return 0.0
    if seat == mover:
        return chance * best
    return REWARD["furthest_guess"] + chance * REWARD["furthest_guess_won"] \
        if seat in bettors else 0.0


def _fills(state: BombState, cell: int) -> bool:
    return _free(state, cell) == 1 and not state.mine[cell]


def _spoils(state: BombState, seat: int) -> float:
    """What the best attack possible would take if won (reach aside): the target's
    meeples, a token card's sections and 5, and 2 for a token colour new to the seat."""
    return max((_spoil(state, seat, target) for source in _attackers(state)
                for target in _targets(state, seat, source, SIZE * SIZE)), default=0.0)


def _spoil(state: BombState, seat: int, target: int) -> float:
    new = not state.sets[seat] and state.colour[target] not in state.tokens[seat]
    return state.meeples[target] + 2 * new + (
        state.sections[target] + REWARD["token_card"] if state.token[target] else 0)


def _plain_play(state: BombState, seat: int, moves: dict[str, Any],
                rng: random.Random, attack_at: float) -> str:
    """The playouts' default policy, a newcomer's sound turn: draw (never sell), lay the
    card where it is free, fill the card the meeple completes (else the nearest to full),
    the bomb on a full card, roll when an attack is possible and attack the fullest card
    in reach, move a meeple that fills a card, bet far from the middle, buy a card. Every
    attack pays its bettors 2 crystals or 3, so it rolls only for spoils of ``attack_at``
    or more (else a second card or a switch instead), or against a seat with no crystals
    to bet."""
    phase = state.phase
    if phase == "bets":
        return "bet 1"
    if phase == "sale":
        return "buy" if state.crystals[seat] >= 3 else "no buy"
    if phase == "challenge":
        return "no challenge"
    single = [m for m in moves if not isinstance(moves[m], Steps)]
    if phase in ("start", "place"):
        places = [m for m in single if m.startswith("place")]
        if places:
            return min(places, key=lambda m: (moves[m], rng.random()))
        return next(m for m in ("draw", "keep", "continue", "sell") if m in moves)
    if phase == "meeple":
        cells = [m for m in single if m.startswith("meeple")]
        if cells:
            return min(cells, key=lambda m: (_free(state, moves[m]),
                                             -state.sections[moves[m]], rng.random()))
    elif phase == "bomb":
        cells = [m for m in single if m.startswith("bomb")]
        return max(cells, key=lambda m: (_filled(state, moves[m]),
                                         state.meeples[moves[m]], rng.random()))
    elif phase == "act":
        for move in ("card crystals", "card meeple"):
            if move in moves:
                return move
        bought = [m for m in single if m.startswith("buy meeple")]
        if bought and state.crystals[seat] >= 3:
            return max(bought, key=lambda m: state.sections[moves[m]])
        if "roll" in moves and _spoils(state, seat) < attack_at:
            return next((m for m in ("second card", "switch") if m in moves), "roll")
        return next(m for m in ("roll", "done", "second card", "switch") if m in moves)
    elif phase == "rolled":
        attacks = [m for m in single if m.startswith("attack")]
        if attacks:
            return max(attacks, key=lambda m: state.meeples[moves[m][1]]
                       + 10 * bool(state.token[moves[m][1]]))
        fills = [m for m in moves if m.startswith("from") and " to " in m
                 and _fills(state, INDEX[m.split()[-1]])]
        if fills:
            return fills[0]
        if "done" in moves:
            return "done"
    return rng.choice(single or list(moves))


# --------------------------------------------------------------------------- the game

DONE = {"draw": "drew a square card", "continue": "had no square card to place",
        "sell": "sold mint tin cards", "keep": "kept the square card back",
        "done": "ended the turn", "second card": "placed a second square card",
        "switch": "switched a bomb", "airplane": "bought an airplane",
        "landmine": "bought a landmine", "tower": "bought a lookout tower"}
DID = {"from": "chose {} to move meeples from", "switch": "picked the bomb on {} to switch",
       "redraw": "redrew the {}", "reroll": "rerolled {}", "card": "played a '{}' card",
       "bonus": "took a bonus {} meeple"}


def _done(move: str) -> str:
    """The last move as the picture's header says it: 'drew a square card'."""
    verb, _, rest = move.partition(" ")
    if move in DONE:
        return DONE[move]
    return DID[verb].format(rest) if verb in DID else f"played '{move}'"


VERBS = {"draw", "sell", "continue", "keep", "place", "bomb", "meeple", "redraw", "clear",
         "roll", "done", "second", "switch", "with", "landmine", "tower", "airplane",
         "unmine", "buy", "card", "arm", "bonus", "attack", "from", "to", "fly", "reroll",
         "bet", "challenge", "no", "token"}
ALIASES = {"pass": "done", "end": "done", "plane": "airplane", "mine": "landmine",
           "play": "card", "use": "card", "put": "place", "remove": "unmine", "guess": "bet",
           "lay": "place"}
FILLERS = {"on", "the", "a", "an", "at", "of", "then", "and"}
# what the game draws, rolls or shows after a step, so that no choice is named with it
MOST_STEPS = 3  # steps read from one text; the joined moves listed have 2
REVEALS = {"draw": "the square card is drawn", "place": "the bomb is drawn",
           "continue": "the meeple is drawn", "bomb": "the meeple is drawn",
           "redraw": "the new draw is made", "roll": "the dice are rolled",
           "reroll": "the dice are rolled", "second": "the square card is drawn",
           "card": "the card's draw is made", "sell": "the others answer",
           "attack": "the others bet and the green die is rolled",
           "bet": "the green die is rolled", "challenge": "the challenge's meeple is drawn",
           "no": "the others answer", "buy": "the meeple or the card is drawn",
           "with": "the new bomb is drawn"}
ENDS = {"done", "keep"}  # steps that end the turn outright
# answers that the next player's own first move gives by moving on (issue 38), as lists
# say it beside that move
ANSWERS = {"no buy": "buys nothing at this sale", "no challenge": "does not challenge"}


# what a move costs in crystals: the whole move ('landmine' buys one; 'landmine c3' lays it,
# free; 'buy' alone buys at a sale), or any move of a first word ('unmine c3')
PRICES = {"landmine": COST["landmine"], "tower": COST["lookout_tower"],
          "airplane": COST["airplane"], "buy": COST["card_sale"]}
PRICES_BY_VERB = {"redraw": COST["do_over"], "unmine": COST["landmine_removal"]}
LEADS = {"start": "Start your turn", "place": "Your drawn square card",
         "bomb": "The bomb drawn", "meeple": "The meeple drawn", "act": "The dice step",
         "rolled": "After the roll", "switch": "The bomb switch", "sale": "The sale",
         "challenge": "The won attack", "tokens": "Your set of tokens",
         "landmine": "Your landmine", "tower": "Your lookout tower"}

# The step the game is at, for a move of another step: why it is refused now.
STEPS = {"start": "your turn is at its start (draw a square card, or sell, first)",
         "place": "your turn is at placing the square card you drew",
         "bomb": "your turn is at putting the bomb you drew on a card",
         "meeple": "your turn is at placing the meeple you drew",
         "act": "your turn is at the dice step (roll first for an attack or a move of "
                "meeples; or shop, play a bought card or end the turn)",
         "rolled": "your turn is after the roll (attack, or move meeples with the yellow "
                   "die)",
         "switch": "your turn is at the bomb switch (choose the bomb to take)",
         "sale": "the table is at a sale of mint tin cards (everyone answers it first)",
         "bets": "the table is at the bets on the green die (everyone bets first)",
         "challenge": "the table is at the challenge of a won attack",
         "tokens": "your turn is at your set of tokens",
         "landmine": "your turn is at placing the landmine you bought",
         "tower": "your turn is at placing the lookout tower you bought"}


class BombSquares(Game[BombState]):
    """Bomb Squares, for 2 to 4 players."""

    id = "bomb-squares"
    thinking = Thinking(budget=120, widening=1.0, rollout=6, trust=0.05)
    name = "Bomb Squares"
    min_players = 2
    max_players = 4
    summary = ("Lay square cards edge to edge, fill them with meeples for crystals, and set "
               "a filled card's bomb on an opposite-coloured bomb within reach of the dice, "
               "while the others bet on the green die. Mint tin cards, landmines, airplanes "
               "and towers help; the first to 75 crystals wins.")
    state_type = BombState
    hidden = ("the square card you drew, the mint tin "
              "cards and what the deck and the bags hold")

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None
            ) -> BombState:
        self.check_players(players)
        self.check_options(options)
        state = _deal(players, seed)
        _begin_turn(state, [])
        return state

    def opening(self, state: BombState) -> list[Event]:
        first = card_code(state.colour[START_CELL], state.sections[START_CELL])
        return [starts(player(state.start)), Event(
            f"The table starts with {card_name(first)} on "
            f"{CELLS[START_CELL]}. A square card has 1 to 6 sections and a colour: on your "
            "turn you draw one and place it beside a card ('place d5'), then put a bomb on "
            "a card and a meeple in a section; a card filled with meeples earns crystals."),
            Event(f"Everyone starts with {crystals(DATA['starting_crystals'])} and holds 3 "
                  "mint tin cards, face down: instead of drawing, a player may sell them "
                  "('sell'), and each other player may buy one, unseen, for 1 crystal "
                  "('buy' or 'no buy'), to play later (crystals, an extra meeple, bomb or "
                  "square card, or a turn lost for a rival). The first to "
                  f"{TO_WIN} crystals wins.")]

    def to_act(self, state: BombState) -> frozenset[int]:
        if state.result is not None or state.winner >= 0:
            return frozenset()
        if state.phase == "bets":
            assert state.attack is not None
            return frozenset(s for s, b in enumerate(state.attack["bets"]) if b == 0)
        if state.phase == "sale":
            assert state.sale is not None
            return frozenset(s for s, a in enumerate(state.sale["answers"]) if a is None)
        if state.phase == "challenge":
            assert state.attack is not None
            return frozenset({state.attack["challenger"]})
        return frozenset({state.turn})

    def outcome(self, state: BombState) -> Outcome | None:
        if state.winner >= 0:
            return Outcome(tuple(state.crystals), frozenset({state.winner}),
                           f"{player(state.winner)} reached {TO_WIN} crystals first.",
                           "75 crystals")
        if state.result is None:
            return None
        best = max(state.crystals)
        winners = frozenset(s for s, c in enumerate(state.crystals) if c == best)
        who = listing([player(s) for s in sorted(winners)])
        reason = (f"{state.result} {who} wins with {best} crystals." if len(winners) == 1
                  else f"{state.result} A draw between {who}, with {best} crystals each.")
        return Outcome(tuple(state.crystals), winners, reason, state.ending or "points")

    def evaluate(self, state: BombState, seat: int) -> float:
        """The lead in what pays: the seat's crystals and what will pay it later
        (``_worth``, weighed by ``self.weights``) less the best other seat's."""
        result = self.outcome(state)
        if result is not None:
            won = 1000.0 if seat in result.winners else 0.0
            others = max(c for s, c in enumerate(state.crystals) if s != seat)
            return won + state.crystals[seat] - others
        return _worth(state, seat, self.weights) - max(
            _worth(state, s, self.weights) for s in range(state.players) if s != seat)

    def remark(self, public: dict[str, Any], seat: int, move: str, chance: float | None
               ) -> str | None:
        """Why a computer sold, attacked, challenged or skipped the dice, from the table."""
        verb = move.split()[0]
        odds = f" (it rates its chances {round(100 * chance)}%)" if chance is not None else ""
        if verb == "sell":
            return (f"{player(seat)} sells mint tin cards: a crystal for each card bought, "
                    "without placing a square card this turn.")
        if verb == "attack":
            cards = {c["cell"]: c for c in public["board"]}
            target, power = cards[move.split()[1]], public["dice"]["red"]
            bettors = any(c for s, c in enumerate(public["crystals"]) if s != seat)
            wins = power if bettors else power - 1  # toughness 0-5 against the best bet
            return (f"{player(seat)} attacks the {target['meeples']}-meeple card on "
                    f"{target['cell']} with power {power}: at least {wins} chances in 6 "
                    f"to win it"
                    f"{odds}.")
        if move == "second card" and public["phase"] == "act" and \
                "done" not in public["offers"]:  # an attack was possible
            return (f"{player(seat)} skips the dice for a second square card: no attack "
                    "pays more than the 2-3 crystals it would give the bettors.")
        if verb == "challenge":
            return (f"{player(seat)} challenges the won attack: a green or blue meeple "
                    f"overturns it{odds}.")
        return None

    def policy(self, state: BombState, seat: int, moves: dict[str, Any],
               rng: random.Random) -> str | None:
        others_bet = any(state.crystals[s] for s in range(state.players) if s != seat)
        attack_at = ATTACK_AT if others_bet else 0.0
        return _plain_play(state, seat, moves, rng, attack_at)

    # -- the moves of each phase

    def moves(self, state: BombState, seat: int) -> dict[str, Any]:
        if seat not in self.to_act(state):
            return {}
        phase = state.phase
        if phase == "bets":
            most = min(6, state.crystals[seat])
            return {f"bet {n}": n for n in range(1, most + 1)}
        if phase == "sale":
            return {"buy": True, "no buy": False, **self._after_sale(state, seat)}
        if phase == "challenge":
            return {"challenge": True, "no challenge": False,
                    **self._own_turn_after(state, seat, "no challenge")}
        if phase == "tokens":
            return {f"token {CELLS[c]}": c for c in _token_places(state)}
        if phase == "start":
            return self._start_moves(state, seat)
        if phase == "place":
            return self._place_moves(state, seat, keep=True)
        if phase == "bomb":
            out: dict[str, Any] = {f"bomb {CELLS[c]}": c for c in _bombless(state)}
            if not state.redo and state.crystals[seat] >= COST["do_over"]:
                out["redraw bomb"] = None
            return out
        if phase == "meeple":
            out = {f"meeple {CELLS[c]}": c for c in _cards(state)
                   if _takes(state, c, state.pending)}
            cells = list(out.values())
            if not state.meepled:  # an extra meeple (a card, a bonus): no do-over or skip
                if not state.redo and state.crystals[seat] >= COST["do_over"]:
                    out["redraw meeple"] = None
                out.update({f"clear {CELLS[c]}": c for c in _cards(state)
                            if state.mine[c] and state.mine[c] < state.turns})
            if len(out) > 1:  # a lone meeple step stays the table's to make
                out.update(self._meeple_joins(state, seat, cells))
            return out
        if phase == "landmine":
            return {f"landmine {CELLS[c]}": c for c in _mine_places(state)}
        if phase == "tower":
            return {f"tower {CELLS[c]}": c for c in _tower_places(state)}
        if phase == "switch" and state.source < 0:
            return {f"switch {CELLS[c]}": c for c in self._switchable(state)}
        if phase == "switch":
            out = {f"with {CELLS[c]}": c for c in _cards(state)
                   if c != state.source and state.bomb[c] >= 0 and not state.token[c]
                   and state.bomb[c] != state.bomb[state.source]}
            if any(state.bomb_bag):
                out["with bag"] = -1
            return out
        if phase == "act":
            return self._act_moves(state, seat)
        return self._rolled_moves(state, seat)

    def _meeple_joins(self, state: BombState, seat: int, cells: list[int]
                      ) -> dict[str, Any]:
        """The meeple step joined with how the dice step begins ('meeple e5 roll'): the
        meeple reveals nothing, so the dice step's first choice is already known. After a
        meeple the turn always reaches the dice step (``then`` is 'act'); a meeple that
        fills a card makes it an attacker, and one that wins the game ends it (no join).
        A meeple that leaves its card one short may also be joined with the extra meeple
        that fills it and the dice step's first choice ('meeple e5 buy meeple e5 roll':
        the bought meeple is of the card's colour, so nothing is drawn blind; issue 38)."""
        out: dict[str, Any] = {}
        buys = "meeple" not in state.bought_now and \
            state.crystals[seat] >= COST["extra_meeple"]
        colour = state.pending
        for cell in cells:
            name = f"meeple {CELLS[cell]}"
            ends = self._dice_ends(state, seat, cell)
            out.update({f"{name} {end}": Steps((name, end)) for end in ends or []})
            if buys and not state.mine[cell] and \
                    state.sections[cell] - state.meeples[cell] == 2 and \
                    state.meeple_bag[colour]:  # (the drawn one is out of the bag already)
                bought = f"buy meeple {CELLS[cell]}"
                # the table as the meeple leaves it, for a moment (cheaper than a copy)
                was = state.meeple_colour[cell]
                state.meeples[cell] += 1
                state.meeple_colour[cell] = colour
                state.crystals[seat] -= COST["extra_meeple"]
                try:
                    ends = self._dice_ends(state, seat, cell) or []
                finally:
                    state.meeples[cell] -= 1
                    state.meeple_colour[cell] = was
                    state.crystals[seat] += COST["extra_meeple"]
                out.update({f"{name} {bought} {end}": Steps((name, bought, end))
                            for end in ends})
        return out

    def _dice_ends(self, state: BombState, seat: int, cell: int | None = None
                   ) -> list[str] | None:
        """The dice step's first choices ('roll'; else 'roll yellow', 'done'; and 'second
        card' where a square card may be drawn) after a step that shows nothing, a meeple
        put on ``cell``: one that fills an attacker makes the choice 'roll'; None when the
        meeple fills a card that wins the game (nothing follows)."""
        attack = _any_attack(state, seat)
        if cell is not None and state.meeples[cell] + 1 == state.sections[cell]:
            paid = min(state.sections[cell], state.bank)
            if state.winner < 0 and state.crystals[seat] + paid >= TO_WIN:
                return None
            attack = attack or (state.bomb[cell] >= 0 and bool(
                _targets(state, seat, cell, SIZE * SIZE)))
        ends = ["roll"] if attack else ["roll yellow", "done"]
        if state.deck and state.held[seat] < 0 and _open_place(state):
            ends.append("second card")
        return ends

    def _after_sale(self, state: BombState, seat: int) -> dict[str, Any]:
        """The next player's turn begins with the sale's last answer: while the others have
        answered, their own turn's first moves are offered too, each a 'no buy' and then
        that move ('draw' buys nothing, then draws; issue 38)."""
        sale = state.sale
        assert sale is not None
        if seat != (sale["seller"] + 1) % state.players or any(
                a is None for s, a in enumerate(sale["answers"]) if s != seat):
            return {}
        return self._own_turn_after(state, seat, "no buy")

    def _own_turn_after(self, state: BombState, seat: int, answer: str) -> dict[str, Any]:
        """The first moves of ``seat``'s own turn, which follows its ``answer`` ('no buy' to
        a sale, 'no challenge' to a won attack), each offered as the answer and then that
        move: moving on says no (issue 38). Worked out on a copy with the answer given and
        any 'lose a turn' card against the seat left out, so that the list never tells
        whether one is armed (one that fires stops the move after the answer). None when
        the turn that follows is not the seat's (a set of tokens to lay, the game over)."""
        after = clone(state)
        after.armed = [a for a in after.armed if a[2] != seat]
        try:
            self._apply(after, seat, answer, None, [])
        except _Won:  # the seller or the attacker reached 75: no turn follows
            return {}
        if after.result is not None or after.turn != seat or after.phase != "start":
            return {}
        return {move: Steps((answer, move), detail)
                for move, detail in self._start_moves(after, seat).items()}

    def _start_moves(self, state: BombState, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        held = state.held[seat]
        if held >= 0:
            # The held card is placed if it can be; else a new card is drawn (the held one
            # goes back into the deck), or with no deck left the step is skipped.
            out = self._place_moves(state, seat, keep=False)
            if not any(cost == 0 for cost in out.values()):
                out["draw" if state.deck else "continue"] = None
        elif state.deck and _open_place(state):
            out["draw"] = None
        else:
            out["continue"] = None
        if self._buyers(state, seat):
            out["sell"] = None
        return out

    def _place_moves(self, state: BombState, seat: int, keep: bool) -> dict[str, Any]:
        spots = _spots(state, state.held[seat])
        out: dict[str, Any] = {f"place {CELLS[c]}": cost for c, cost in spots.items()
                               if cost <= state.crystals[seat]}
        if keep and all(cost for cost in out.values()):
            out["keep"] = None
        return out

    def _buyers(self, state: BombState, seat: int) -> list[int]:
        if not state.for_sale[seat]:
            return []
        return [s for s in range(state.players) if s != seat and state.crystals[s] >= 1
                and len(state.bought[s]) < BOUGHT_MOST]

    def _act_moves(self, state: BombState, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        cash = state.crystals[seat]
        if _any_attack(state, seat):
            out["roll"] = None
        else:
            out["roll yellow"] = None
            out["done"] = None
        if state.deck and state.held[seat] < 0 and _open_place(state):
            out["second card"] = None
        switchable = self._switchable(state)
        if switchable:
            out["switch"] = None
            out.update({f"switch {CELLS[c]}": Steps(("switch", f"switch {CELLS[c]}"))
                        for c in switchable})
        cards = _cards(state)
        if "landmine" not in state.bought_now and state.landmines and \
                cash >= COST["landmine"] and _mine_places(state):
            out["landmine"] = None
            out.update({f"landmine {CELLS[c]}": Steps(("landmine", f"landmine {CELLS[c]}"))
                        for c in _mine_places(state)})
        if "tower" not in state.bought_now and state.towers and \
                cash >= COST["lookout_tower"] and _tower_places(state):
            out["tower"] = None
            out.update({f"tower {CELLS[c]}": Steps(("tower", f"tower {CELLS[c]}"))
                        for c in _tower_places(state)})
        if state.airplanes and not state.plane[seat] and cash >= COST["airplane"]:
            out["airplane"] = None
        if "unmine" not in state.bought_now and cash >= COST["landmine_removal"]:
            out.update({f"unmine {CELLS[c]}": c for c in cards if state.mine[c]})
        if "meeple" not in state.bought_now and cash >= COST["extra_meeple"]:
            short = [c for c in cards if _one_short(state, c)]
            out.update({f"buy meeple {CELLS[c]}": c for c in short})
            for c in short:  # with how the dice step goes on: 'buy meeple e5 roll'
                if state.meeple_colour[c] >= 0:  # (a blank card's meeple is drawn blind)
                    name = f"buy meeple {CELLS[c]}"
                    out.update({f"{name} {end}": Steps((name, end))
                                for end in self._dice_ends(state, seat, c) or []})
        if state.bonus[seat] and state.meepled:
            for m, name in enumerate(MEEPLES):
                if state.meeple_bag[m] and any(_takes(state, c, m) for c in cards):
                    out[f"bonus {name}"] = m
        for kind in sorted(set(state.bought[seat])):
            name = KINDS[kind]
            if kind in REACTIVE:
                for target in range(state.players):
                    if target != seat:
                        out[f"arm {name} player {target + 1}"] = (kind, target)
            elif name == "crystals" or (name == "meeple" and any(state.meeple_bag)) or (
                    name == "bomb" and any(state.bomb_bag) and _bombless(state)) or (
                    name == "square" and state.deck and state.held[seat] < 0
                    and _open_place(state)):
                out[f"card {name}"] = kind
        return out

    def _switchable(self, state: BombState) -> list[int]:
        """Cards whose bomb may be switched: with the bag, or with a bomb of another colour."""
        bombs = [c for c in _cards(state) if state.bomb[c] >= 0 and not state.token[c]]
        return [c for c in bombs
                if any(state.bomb_bag) or any(state.bomb[d] != state.bomb[c] for d in bombs)]

    def _rolled_moves(self, state: BombState, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        red, blue, yellow = state.dice[:3]
        if blue:
            for source in _attackers(state):
                for target in _targets(state, seat, source, blue):
                    out[f"attack {CELLS[target]} from {CELLS[source]}"] = (source, target)
        attack = bool(out)
        if not attack:
            out["done"] = None
        flying = state.plane[seat] in (2, 4) or (
            state.plane[seat] == 3 and state.crystals[seat] >= COST["airplane_fuel"])
        # an attack in reach must be made: no meeple moves before it (a do-over may come
        # first), so a move's filling reroll never takes the attack away (decision, issue 38)
        if not state.moving_over and not attack:
            if state.source < 0:
                joined: dict[str, Any] = {}
                for c in _cards(state):
                    if state.meeples[c] < 2:
                        continue
                    near = self._destinations(state, c, yellow, False)
                    far = self._destinations(state, c, SIZE * SIZE, True) if flying else []
                    if near or far:  # (far holds near: a flight goes anywhere)
                        name = f"from {CELLS[c]}"
                        out[name] = c
                        # 'from e5 to f6': choosing the card shows nothing new
                        joined.update({f"{name} to {CELLS[d]}": Steps((name, f"to {CELLS[d]}"))
                                       for d in near})
                        joined.update({f"{name} fly {CELLS[d]}": Steps((name, f"fly {CELLS[d]}"))
                                       for d in far})
                out.update(joined)
            elif state.meeples[state.source] >= 2:
                near = self._destinations(state, state.source, yellow, False)
                out.update({f"to {CELLS[c]}": c for c in near})
                if flying:
                    out.update({f"fly {CELLS[c]}": c for c in self._destinations(
                        state, state.source, SIZE * SIZE, True)})
        if not state.redo and not state.moved:
            rolled = [d for d, v in zip(DICE, (red, blue, yellow), strict=True) if v]
            for n in range(1, len(rolled) + 1):
                for dice in combinations(rolled, n):
                    if state.crystals[seat] >= n * COST["do_over"]:
                        out["reroll " + " ".join(dice)] = dice
        return out

    def _destinations(self, state: BombState, source: int, reach: int, anywhere: bool
                      ) -> list[int]:
        colour = state.meeple_colour[source]
        near = _distances(state, source, SIZE * SIZE if anywhere else reach)
        return sorted(c for c in near if c != source and _takes(state, c, colour))

    # -- how lists show the moves

    def notes(self, state: BombState, seat: int) -> dict[str, str]:
        """The legal moves as lists show them: grouped by what they begin with (each card's
        meeple with the moves that go on from it, 'switch' with its bombs, a shop item with
        its places), in ``moves``' order otherwise; beside a move, what it does that its
        text does not say: how full a meeple leaves its card, that a second square card
        gets no bomb or meeple, that a won attack from a token card clears the token, that
        a move at a sale buys nothing, that a move ends the turn."""
        if seat not in self.to_act(state):
            return {}
        found = self.moves(state, seat)
        groups: dict[str, list[str]] = {}
        for move, detail in found.items():
            head = move
            if isinstance(detail, Steps) and detail.steps[0] not in ANSWERS:
                head = detail.steps[0]
            groups.setdefault(head, []).append(move)
        return {move: self._note(state, seat, move, found[move])
                for moves in groups.values() for move in moves}

    def _note(self, state: BombState, seat: int, move: str, detail: Any) -> str:
        steps = detail.steps if isinstance(detail, Steps) else (move,)
        words = []
        if len(steps) > 1 and steps[0] in ANSWERS:
            words.append(ANSWERS[steps[0]])
        first = steps[0].split()
        if first[0] == "meeple" and state.phase == "meeple":
            cell = INDEX[first[1]]
            taken = state.meeples[cell] + sum(1 for step in steps if "meeple" in step)
            sections = state.sections[cell]
            words.append(f"fills {first[1]}: +{crystals(sections)}" if taken == sections
                         else f"{taken} of {sections} sections taken")
        elif move.startswith("buy meeple"):
            words.append(f"fills {first[2]}: +{crystals(state.sections[INDEX[first[2]]])}")
        elif first[0] == "attack" and state.token[INDEX[first[3]]]:
            words.append(f"a win clears the token card {first[3]}, token and all")
        if steps[-1] == "second card":
            words.append("no bomb or meeple for it; ends your turn")
        elif steps[-1] == "done" or (steps[-1] == "keep" and state.then != "act"):
            words.append("ends your turn")
        return "; ".join(words)

    # -- what a move costs

    def costs(self, state: BombState, seat: int) -> dict[str, str]:
        """What each costly legal move of ``seat`` costs, from what ``moves`` already
        worked out: crystals (a placement beside smaller cards, a do-over, the shop, an
        airplane's fuel, a mint tin card at a sale, a challenge), a held square card set
        aside, or the turn's meeple given up to clear a landmine. Playing a bought mint
        tin card spends it, but that is its use, so it is not marked."""
        if seat not in self.to_act(state):
            return {}
        out = {}
        for move, detail in self.moves(state, seat).items():
            price = self._price(state, seat, move, detail)
            if price:
                out[move] = price
        return out

    def _price(self, state: BombState, seat: int, move: str, detail: Any) -> str:
        if isinstance(detail, Steps):  # the steps' prices; only the last places or draws
            count = sum(self._count(state, seat, step, None) for step in detail.steps[:-1])
            last = self._price(state, seat, detail.steps[-1], detail.last)
            first = f"costs {crystals(count)}" if count else ""
            return "; ".join(p for p in (first, last) if p)
        verb = move.split()[0]
        if verb == "challenge":
            return f"costs {crystals(CHALLENGE_PRICE)}, risks {COST['challenge_blue']} more"
        if verb == "clear":
            return f"costs your meeple + 1 on {CELLS[detail]}" if state.meeples[detail] \
                else "costs your meeple"
        if verb == "draw" and state.held[seat] >= 0:
            return "sets your held card aside"
        count = detail if verb == "place" else self._count(state, seat, move, detail)
        return f"costs {crystals(count)}" if count else ""

    def _count(self, state: BombState, seat: int, move: str, detail: Any) -> int:
        """The crystals a single step other than a placement costs."""
        verb = move.split()[0]
        if verb == "reroll":
            return len(detail) * COST["do_over"]
        if verb == "fly":
            return COST["airplane_fuel"] if state.plane[seat] == 3 else 0
        if move.startswith("buy meeple"):
            return COST["extra_meeple"]
        return PRICES.get(move, PRICES_BY_VERB.get(verb, 0))

    # -- applying a move

    def apply(self, state: BombState, seat: int, move: str, detail: Any) -> list[Event]:
        events: list[Event] = []
        try:
            if isinstance(detail, Steps):  # a joined move: its steps one by one
                for step in detail.steps:
                    legal = self.moves(state, seat)
                    if step not in legal:  # a 'lose a turn' card fired after the answer
                        break
                    state.moves += 1
                    self._apply(state, seat, step, legal[step], events)
            else:
                state.moves += 1
                self._apply(state, seat, move, detail, events)
        except _Won:
            state.phase = "over"
            state.ending = "75 crystals"
            state.result = f"{player(state.winner)} reached {TO_WIN} crystals first."
            events.append(Event(f"The game ends: {state.result}", kind="end"))
        return events

    def _apply(self, state: BombState, seat: int, move: str, detail: Any,
               events: list[Event]) -> None:
        verb = move.split()[0]
        if state.phase not in ("bets", "sale", "challenge", "tokens"):
            _mark(state, seat, _done(move), [])
        if verb == "draw":
            held = state.held[seat]
            if held >= 0:  # the held card fits nowhere for free: set aside for good
                state.set_aside.append(held)
                state.held[seat] = -1
                events.append(Event(f"{player(seat)} sets aside their held card, "
                                    f"{card_name(held)}, which cannot be placed for free.",
                                    kind="draw", data={"card": held}))
            _draw_square(state, seat, "bomb", events)
        elif verb == "continue":
            why = "the square cards are used up" if not state.deck else \
                "no place on the table is open"
            events.append(Event(f"{player(seat)} places no square card: {why}.",
                                kind="draw", data={"seat": seat}))
            _meeple_step(state, "act", events)
        elif verb == "keep":
            then = "act" if state.phase == "place" and state.then == "act" else "end"
            events.append(Event(f"{player(seat)} keeps their square card back, face down, "
                                "since no place takes it for free" + (
                                    "" if then == "act" else "; the turn ends") + ".",
                                kind="keep", data={"seat": seat}))
            _goto(state, then, events)
        elif verb == "place":
            _place(state, seat, INDEX[move.split()[1]], detail, events)
        elif verb == "sell":
            self._sell(state, seat, events)
        elif verb in ("buy", "no") and state.phase == "sale":
            self._answer_sale(state, seat, verb == "buy", events)
        elif verb == "bomb":
            state.bomb[detail] = state.pending
            _mark(state, seat, f"bomb on {move.split()[1]}", [detail])
            events.append(Event(f"{player(seat)} puts the {COLOURS[state.pending]} bomb on "
                                f"{move.split()[1]}.", kind="bomb", data={"seat": seat}))
            state.pending = -1
            _goto(state, state.then, events)
        elif move in ("redraw bomb", "redraw meeple"):
            self._redraw(state, seat, move.split()[1], events)
        elif verb == "meeple":
            colour, state.pending = state.pending, -1
            state.meepled = True
            then = state.then
            _meeple_on(state, seat, detail, colour, events)
            _goto(state, then, events)
        elif verb == "clear":
            self._clear_mine(state, seat, detail, events)
        elif verb in ("roll", "done", "second", "switch", "with"):
            self._dice_step(state, seat, move, detail, events)
        elif verb in ("landmine", "tower", "airplane", "unmine", "buy", "bonus"):
            self._shop(state, seat, move, detail, events)
        elif verb in ("card", "arm"):
            self._card(state, seat, move, detail, events)
        elif verb in ("from", "to", "fly", "reroll"):
            self._moving(state, seat, move, detail, events)
        elif verb == "attack":
            _declare(state, seat, detail[0], detail[1], events)
        elif verb == "bet":
            assert state.attack is not None
            state.attack["bets"][seat] = detail
            events.append(Event(f"{player(seat)} has bet.", kind="bet", data={"seat": seat}))
            events.append(Event(f"You bet {detail}.", to=frozenset({seat}), kind="bet"))
            if all(b != 0 for b in state.attack["bets"]):
                _roll_green(state, events)
        elif move == "challenge":
            _challenge(state, seat, events)
        elif move == "no challenge":
            events.append(Event(f"{player(seat)} does not challenge.", kind="challenge"))
            _settle(state, events)
        elif verb == "token":
            _lay_token(state, seat, detail, events)

    def _sell(self, state: BombState, seat: int, events: list[Event]) -> None:
        state.sale = {"seller": seat, "answers": [
            None if s in self._buyers(state, seat) else False for s in range(state.players)]}
        state.phase = "sale"
        events.append(Event(f"{player(seat)} sells mint tin cards: each other player may buy "
                            "one, face down, for 1 crystal.", kind="sell",
                            data={"seat": seat}))

    def _answer_sale(self, state: BombState, seat: int, buys: bool,
                     events: list[Event]) -> None:
        sale = state.sale
        assert sale is not None
        sale["answers"][seat] = buys
        events.append(Event(f"{player(seat)} " + (
            f"buys a card for {crystals(COST['card_sale'])}, paid once all have answered."
            if buys else "does not buy."), kind="sale", data={"seat": seat}))
        if any(a is None for a in sale["answers"]):
            return
        seller = sale["seller"]
        order = [(seller + k) % state.players for k in range(1, state.players)]
        for buyer in order:
            if not sale["answers"][buyer] or not state.for_sale[seller]:
                continue
            kind = state.for_sale[seller].pop(state.rng().randrange(
                len(state.for_sale[seller])))
            state.bought[buyer] = sorted(state.bought[buyer] + [kind])
            events.append(Event(f"You buy a '{KINDS[kind]}' card: {KIND_TEXT[KINDS[kind]]}.",
                                to=frozenset({buyer}), kind="sale"))
            events.append(Event(f"{player(buyer)} takes your '{KINDS[kind]}' card.",
                                to=frozenset({seller}), kind="sale"))
            events.append(Event(f"{player(buyer)} pays {player(seller)} "
                                f"{crystals(COST['card_sale'])} for a mint tin card, face "
                                "down.", kind="sale", data={"seat": buyer, "seller": seller}))
            _transfer(state, buyer, seller, COST["card_sale"], "sales")
        drawn = _fill_tin(state, seller)
        if drawn:
            events.append(Event(f"You draw {listing([repr(KINDS[k]) for k in drawn])} "
                                "from the tin.", to=frozenset({seller}), kind="sale"))
        _end_turn(state, events)

    def _redraw(self, state: BombState, seat: int, what: str, events: list[Event]) -> None:
        """The turn's one do-over: the drawn bomb or meeple back in its bag, another drawn."""
        _pay(state, seat, COST["do_over"])
        state.redo = True
        bag = state.bomb_bag if what == "bomb" else state.meeple_bag
        bag[state.pending] += 1
        state.pending = _draw_from(state, bag)
        name = (COLOURS if what == "bomb" else MEEPLES)[state.pending]
        events.append(Event(f"{player(seat)} pays {crystals(COST['do_over'])} (the turn's one "
                            f"do-over) to draw the {what} again: {name}.", kind="redraw",
                            data={"seat": seat}))
        if what == "meeple" and not any(_takes(state, c, state.pending)
                                        for c in _cards(state)):
            state.meeple_bag[state.pending] += 1
            state.pending, state.meepled = -1, True
            events.append(Event(f"No card takes a {name} meeple; it goes back in the bag.",
                                kind="meeple"))
            _goto(state, state.then, events)

    def _clear_mine(self, state: BombState, seat: int, cell: int, events: list[Event]
                    ) -> None:
        """A landmine removed by skipping the meeple draw: the meeple drawn goes back, the
        landmine leaves the game, and one meeple of that card goes back in the bag."""
        state.meeple_bag[state.pending] += 1
        state.pending, state.meepled, state.mine[cell] = -1, True, 0
        back = ""
        if state.meeples[cell]:
            state.meeples[cell] -= 1
            state.meeple_bag[state.meeple_colour[cell]] += 1
            if not state.meeples[cell]:
                state.meeple_colour[cell] = -1
            back = " and one of its meeples"
        _mark(state, seat, f"cleared the landmine on {CELLS[cell]}", [cell])
        events.append(Event(f"{player(seat)} gives up this turn's meeple to remove the "
                            f"landmine on {CELLS[cell]}: the drawn meeple{back} "
                            f"{'go' if back else 'goes'} back in the bag, and the landmine "
                            "leaves the game.", kind="landmine",
                            data={"seat": seat}))
        _goto(state, state.then, events)

    def _dice_step(self, state: BombState, seat: int, move: str, detail: Any,
                   events: list[Event]) -> None:
        if move == "roll":
            _start_roll(state, seat, DICE, events)
        elif move == "roll yellow":
            _start_roll(state, seat, ("yellow",), events)
        elif move == "done":
            events.append(Event(f"{player(seat)} ends the turn.", kind="done",
                                data={"seat": seat}))
            _end_turn(state, events)
        elif move == "second card":
            events.append(Event(f"{player(seat)} skips the dice to place a second square "
                                "card (no bomb, no meeple).", kind="second"))
            _draw_square(state, seat, "end", events)
        elif move == "switch":
            state.phase = "switch"
            events.append(Event(f"{player(seat)} skips the dice to switch a bomb.",
                                kind="switch"))
        elif move.startswith("switch"):
            state.source = detail
            events.append(Event(f"{player(seat)} picks the {COLOURS[state.bomb[detail]]} "
                                f"bomb on {CELLS[detail]} to switch.", kind="switch",
                                data={"seat": seat}))
        else:  # with ...
            source = state.source
            old = state.bomb[source]
            if detail < 0:
                state.bomb[source] = _draw_from(state, state.bomb_bag)
                state.bomb_bag[old] += 1
                other = (f"{an(COLOURS[state.bomb[source]])} bomb drawn from the bag (the "
                         f"{COLOURS[old]} one goes back)")
                cells = [source]
            else:
                state.bomb[source], state.bomb[detail] = state.bomb[detail], old
                other = f"the {COLOURS[state.bomb[source]]} bomb on {CELLS[detail]}"
                cells = [source, detail]
            _mark(state, seat, f"switched the bomb on {CELLS[source]}", cells)
            events.append(Event(f"{player(seat)} switches the {COLOURS[old]} bomb on "
                                f"{CELLS[source]} with {other}; the turn ends.",
                                kind="switch", data={"seat": seat}))
            _end_turn(state, events)

    def _shop(self, state: BombState, seat: int, move: str, detail: Any,
              events: list[Event]) -> None:
        """A purchase, paid when it is made: a landmine or a lookout tower is then laid
        with its own move ('landmine c3'), free."""
        verb = move.split()[0]
        if move in ("landmine", "tower"):
            item, cost = (("landmine", "landmine"), ("lookout tower", "lookout_tower"))[
                move == "tower"]
            _pay(state, seat, COST[cost])
            state.bought_now.append(move)
            state.phase = move
            where = "a card's free section" if move == "landmine" else "a card's bomb"
            events.append(Event(f"{player(seat)} buys a {item} for {crystals(COST[cost])} "
                                f"and chooses {where} for it.", kind="shop",
                                data={"seat": seat}))
            return
        if verb == "landmine":
            state.phase = "act"
            state.landmines -= 1
            state.mine[detail] = state.turns
            text = (f"lays the landmine on {CELLS[detail]}: it blocks a section, so the card "
                    "cannot be filled until someone removes it")
        elif verb == "tower":
            state.phase = "act"
            state.towers -= 1
            state.tower[detail] = True
            text = (f"puts the lookout tower on the bomb on {CELLS[detail]}: no landmine "
                    "may be laid on that card")
        elif verb == "airplane":
            _pay(state, seat, COST["airplane"])
            state.airplanes -= 1
            state.plane[seat] = 1
            state.bought_now.append("airplane")
            text = (f"buys an airplane for {crystals(COST['airplane'])} (it flies from the "
                    "next turn, the first turn free)")
        elif verb == "unmine":
            _pay(state, seat, COST["landmine_removal"])
            state.mine[detail] = 0
            state.bought_now.append("unmine")
            text = (f"pays {crystals(COST['landmine_removal'])} to remove the landmine on "
                    f"{CELLS[detail]}; it leaves the game")
        elif verb == "buy":
            self._buy_meeple(state, seat, detail, events)
            return
        else:  # bonus: a meeple of the chosen colour from the bag, placed as a meeple step
            state.bonus[seat] = 0
            state.meeple_bag[detail] -= 1
            state.pending, state.phase, state.then = detail, "meeple", "act"
            events.append(Event(f"{player(seat)} takes a bonus {MEEPLES[detail]} meeple, won "
                                "by drawing yellow in a challenge, and places it next.",
                                kind="meeple", data={"seat": seat}))
            return
        cells = [detail] if isinstance(detail, int) else []
        _mark(state, seat, text, cells)
        events.append(Event(f"{player(seat)} {text}.", kind="shop", data={"seat": seat}))

    def _buy_meeple(self, state: BombState, seat: int, cell: int, events: list[Event]
                    ) -> None:
        """The turn's extra meeple, bought to fill a card: of the card's colour, or drawn
        blind from the bag for a blank card (any colour fills it)."""
        _pay(state, seat, COST["extra_meeple"])
        state.bought_now.append("meeple")
        colour = state.meeple_colour[cell]
        if colour < 0:
            colour = _draw_from(state, state.meeple_bag)
            how = (f"buys a meeple for {crystals(COST['extra_meeple'])} (drawn blind: any "
                   "colour fills a blank card) and places a")
        else:
            state.meeple_bag[colour] -= 1
            how = f"buys a meeple for {crystals(COST['extra_meeple'])} and places a"
        _meeple_on(state, seat, cell, colour, events, how)

    def _card(self, state: BombState, seat: int, move: str, detail: Any,
              events: list[Event]) -> None:
        if move.startswith("arm"):
            kind, target = detail
            state.bought[seat].remove(kind)
            state.armed.append([seat, kind, target])
            _mark(state, seat, "armed a card", [])
            events.append(Event(f"{player(seat)} lays a mint tin card face down.",
                                kind="arm", data={"seat": seat}))
            events.append(Event(f"Your '{KINDS[kind]}' card is armed against "
                                f"{player(target)}: it goes off at their next "
                                + ("turn start." if KINDS[kind] == "skip" else "roll."),
                                to=frozenset({seat}), kind="arm"))
            return
        kind = detail
        state.bought[seat].remove(kind)
        state.tin_deck[kind] += 1
        name = KINDS[kind]
        events.append(Event(f"{player(seat)} plays a '{name}' card: {KIND_TEXT[name]}; the "
                            "card goes back in the tin.", kind="card",
                            data={"seat": seat, "card": name}))
        if name == "crystals":
            _gain(state, seat, REWARD["card_crystals"], "cards", "from the 'crystals' card",
                  events)
        elif name == "meeple":
            _meeple_step(state, "act", events)
        elif name == "bomb":
            _bomb_step(state, "act", events)
        else:
            _draw_square(state, seat, "act", events)

    def _moving(self, state: BombState, seat: int, move: str, detail: Any,
                events: list[Event]) -> None:
        verb = move.split()[0]
        if verb == "from":
            state.source = detail
            events.append(Event(f"{player(seat)} moves meeples from {CELLS[detail]}, "
                                "leaving at least one behind.", kind="move",
                                data={"seat": seat}))
        elif verb in ("to", "fly"):
            _move_meeple(state, seat, detail, verb == "fly", events)
        else:
            _pay(state, seat, len(detail) * COST["do_over"])
            state.redo = True
            _roll(state, detail)
            events.append(Event(f"{player(seat)} pays {crystals(len(detail) * COST['do_over'])}"
                                f" (the turn's one do-over) to roll again: "
                                f"{_dice_text(state, detail)}"
                                f"{_in_reach(state, seat) if 'blue' in detail else ''}.",
                                kind="roll",
                                data={"seat": seat}))

    # -- reading what a player typed

    def parse(self, state: BombState, seat: int, text: str) -> str:
        words = [w for w in text.split() if w not in FILLERS]
        steps = self._segments(state, words) if words else None
        if steps is None:  # the hint lists the legal moves: worked out only when needed
            hint = self.notation_hint(state, seat)
            if len(words) == 1 and CELL_RE.match(words[0]):
                raise InvalidMove(f"Say what to do on {words[0]}. {hint}")
            raise InvalidMove(f"That is not a move I understand. {hint}")
        if len(steps) > 1 and steps[0] in ANSWERS and state.phase in ("sale", "challenge"):
            return " ".join(steps[1:])  # 'no buy, draw': the turn's move says no buy
        return " ".join(steps)

    def _segments(self, state: BombState | None, words: list[str]) -> list[str] | None:
        """The single steps ``words`` name, in order: one step, or several joined
        ('meeple e5 roll', 'from e5 to f6'), the longest first step that reads first. Only
        the first step may be a bare place or number (``state`` gives its verb); at most
        ``MOST_STEPS`` steps are read."""
        found: dict[tuple[int, int], list[str] | None] = {}

        def read(at: int, left: int) -> list[str] | None:
            if (at, left) not in found:
                found[at, left] = None
                whole = self._one(state if at == 0 else None, words[at:])
                if whole is not None:
                    found[at, left] = [whole]
                elif left > 1:
                    for cut in range(len(words) - 1, at, -1):
                        head = self._one(state if at == 0 else None, words[at:cut])
                        tail = read(cut, left - 1) if head is not None else None
                        if head is not None and tail is not None:
                            found[at, left] = [head, *tail]
                            break
            return found[at, left]
        return read(0, MOST_STEPS)

    def _one(self, state: BombState | None, words: list[str]) -> str | None:
        """One step's canonical text, or None. With ``state`` (the first step of what was
        typed), a bare place is the step that needs one and a bare number is a bet, and
        'yes' or 'no' answers a sale or a challenge."""
        words = list(words)
        if state is not None and words[0] in ("yes", "no") and len(words) == 1:
            answer = {"sale": "buy", "challenge": "challenge"}.get(state.phase, "")
            words = [answer] if words[0] == "yes" else ["no", answer]
        words[0] = ALIASES.get(words[0], words[0])
        if words[0] == "card" and words[1:2] == ["card"]:
            del words[1]
        if state is not None and CELL_RE.match(words[0]) and len(words) == 1:
            verb = {"place": "place", "bomb": "bomb", "meeple": "meeple", "tokens": "token",
                    "landmine": "landmine", "tower": "tower",
                    "switch": "with" if state.source >= 0 else "switch"}.get(state.phase)
            if verb is None:
                return None
            words = [verb, words[0]]
        if state is not None and words[0].isdigit() and len(words) == 1:
            words = ["bet", words[0]]
        verb, rest = words[0], words[1:]
        cells = [w for w in rest if CELL_RE.match(w)]
        return self._canonical(verb, rest, cells)

    def _canonical(self, verb: str, rest: list[str], cells: list[str]) -> str | None:
        if verb not in VERBS:
            return None
        plain = {"draw", "sell", "continue", "keep", "done", "airplane", "challenge",
                 "switch", "landmine", "tower"}
        if verb in plain and not rest:
            return verb
        one_cell = {"place", "bomb", "meeple", "clear", "switch", "landmine", "tower",
                    "unmine", "from", "to", "fly", "token"}
        if verb in one_cell and len(rest) == 1 and cells:
            return f"{verb} {cells[0]}"
        if verb == "with" and rest in (["bag"], cells) and len(rest) == 1:
            return f"with {rest[0]}"
        if verb == "redraw" and rest in (["bomb"], ["meeple"]):
            return f"redraw {rest[0]}"
        if verb == "roll" and rest in ([], ["yellow"]):
            return " ".join(["roll", *rest])
        if verb == "second" and rest == ["card"]:
            return "second card"
        if verb == "no" and rest in (["challenge"], ["buy"]):
            return f"no {rest[0]}"
        if verb == "buy" and not rest:
            return "buy"
        if verb == "buy" and len(rest) == 2 and rest[0] == "meeple" and cells:
            return f"buy meeple {cells[0]}"
        if verb == "bonus" and len(rest) == 1 and rest[0] in MEEPLES:
            return f"bonus {rest[0]}"
        if verb == "card" and len(rest) == 1 and rest[0] in KINDS:
            return f"card {rest[0]}"
        if verb == "arm" and rest[:1] and rest[0] in KINDS:
            numbers = [w for w in rest[1:] if w.isdigit()]
            if len(numbers) == 1 and set(rest[1:]) <= {"player", "against", numbers[0]}:
                return f"arm {rest[0]} player {int(numbers[0])}"
        if verb == "attack" and len(cells) == 2 and len(rest) in (2, 3) and (
                len(rest) == 2 or rest[1] == "from"):
            return f"attack {cells[0]} from {cells[1]}"
        if verb == "reroll" and rest and set(rest) <= set(DICE) and len(set(rest)) == len(rest):
            return "reroll " + " ".join(d for d in DICE if d in rest)
        if verb == "bet" and len(rest) == 1 and rest[0].isdigit() and len(rest[0]) < 3:
            return f"bet {int(rest[0])}"
        return None

    def refuse(self, state: BombState, seat: int, move: str) -> IllegalMove:
        """Why a well-formed move is not allowed now."""
        steps = self._segments(None, move.split()) or [move]
        if len(steps) > 1:
            return self._refuse_joined(state, seat, steps[0], " ".join(steps[1:]))
        words = move.split()
        verb = words[0]
        hint = self.notation_hint(state, seat)
        cash = state.crystals[seat]
        cell = INDEX.get(words[-1], -1)
        if cell >= 0 and not state.sections[cell] and verb not in ("place",):
            return IllegalMove(f"There is no card on {words[-1]}. {hint}")
        if verb == "bet":
            n = int(words[1])
            if not 1 <= n <= 6:
                return IllegalMove("A bet is a guess of the green die, 1 to 6.")
            return IllegalMove(f"You may bet no more than the crystals you hold ({cash}).")
        if verb == "place" and state.phase in ("place", "start") and state.held[seat] >= 0:
            spots = _spots(state, state.held[seat])
            if state.sections[cell]:
                return IllegalMove(f"{words[1]} already holds a card.")
            if cell not in spots:
                return IllegalMove(f"{words[1]} is not next to a card.")
            return IllegalMove(f"Placing there costs {spots[cell]} crystals (1 for each "
                               f"neighbour with fewer sections); you hold {cash}.")
        if verb == "keep" and state.phase == "place":
            return IllegalMove(f"Your square card fits somewhere for free, so it must be "
                               f"placed. {hint}")
        if verb == "done" and state.phase == "act":
            return IllegalMove(f"An attack is possible, so the turn cannot end without one: "
                               f"roll the dice, or skip them for a second square card or a "
                               f"bomb switch where you may. {hint}")
        if verb == "done" and state.phase == "rolled":
            return IllegalMove(f"A bomb is in reach, so you must attack. {hint}")
        if move.startswith("buy meeple") and state.phase == "act":
            return IllegalMove(self._meeple_refusal(state, seat, cell))
        if verb == "roll" and state.phase == "act":
            return IllegalMove("No attack is possible now: roll only the yellow die "
                               "('roll yellow'), or end the turn." if move == "roll" else
                               "An attack is possible: all three dice are rolled ('roll').")
        if verb in ("redraw", "reroll") and state.redo:
            return IllegalMove("Only one do-over is allowed per turn.")
        if verb == "card" and KINDS.index(words[1]) not in state.bought[seat]:
            return IllegalMove(f"You hold no bought '{words[1]}' card.")
        if verb == "arm" and KINDS.index(words[1]) not in REACTIVE:
            return IllegalMove("Only 'skip' and 'stop' cards are armed against a player; "
                               f"play the others with 'card {words[1]}'.")
        if verb == "arm" and KINDS.index(words[1]) not in state.bought[seat]:
            return IllegalMove(f"You hold no bought '{words[1]}' card.")
        if verb in ("landmine", "tower", "unmine", "airplane") and state.phase == "act":
            return IllegalMove(self._shop_refusal(state, seat, verb, cell))
        if state.phase == "act" and move == "second card":
            return IllegalMove(("No square card is left to draw." if not state.deck else
                                "You hold a square card already, so you draw no second one."
                                if state.held[seat] >= 0 else
                                "No empty place touches a card, so a second card has nowhere "
                                "to go.") + f" {hint}")
        if state.phase == "act" and verb == "switch":
            return IllegalMove("A bomb is switched with the bag or with a bomb of another "
                               "colour on a card, and "
                               + (f"{CELLS[cell]} has no bomb of its own (a token card keeps "
                                  "its token)." if cell >= 0 else "no bomb can be now.")
                               + f" {hint}")
        if state.phase == "rolled" and verb == "attack":
            return IllegalMove(f"{self._attack_refusal(state, seat, INDEX[words[1]], cell)} "
                               f"{hint}")
        if state.phase == "rolled" and verb in ("from", "to", "fly"):
            return IllegalMove(f"{self._meeple_move_refusal(state, seat, verb, cell)} {hint}")
        return out_of_step(move, STEPS.get(state.phase, "it is another step of the game"),
                           hint)

    def _attack_refusal(self, state: BombState, seat: int, target: int, source: int) -> str:
        """Why an attack after the roll is not one the dice allow."""
        blue = state.dice[1]
        if not blue:
            return "Only the yellow die was rolled, so there is no attack this turn."
        if source not in _attackers(state):
            return (f"The card on {CELLS[source]} cannot attack: only a card filled with "
                    "meeples and carrying a bomb (or a token) attacks.")
        mine = _bomb_of(state, source)
        if _bomb_of(state, target) != OPPOSITE[mine]:
            return (f"The card on {CELLS[target]} carries no {COLOURS[OPPOSITE[mine]]} bomb, "
                    f"the opposite of the {COLOURS[mine]} bomb on {CELLS[source]}.")
        far = _distances(state, source, SIZE * SIZE).get(target)
        if far is None or far > blue:
            away = "is not joined to it by cards" if far is None else f"is {far} cards away"
            return (f"{CELLS[target]} {away}: the blue die's reach is {blue} from "
                    f"{CELLS[source]}.")
        if state.token[target] == 2:
            return f"The token on {CELLS[target]} was laid this turn: it is not in play yet."
        return "You have laid your set of tokens, so you may not attack a token card."

    def _meeple_move_refusal(self, state: BombState, seat: int, verb: str, cell: int) -> str:
        """Why a move of meeples after the roll is not one the yellow die allows."""
        if state.moving_over:
            return "Your move of meeples is over for this turn."
        if any(m.startswith("attack ") for m in self.moves(state, seat)):
            return ("A target is in reach, and an attack in reach must be made: attack "
                    "first (meeples do not move before it), or reroll as your do-over.")
        source = state.source if verb != "from" else cell
        if verb == "from" and state.source >= 0:
            return (f"You are already moving meeples from {CELLS[state.source]}: say where "
                    "to ('to ...').")
        if verb != "from" and state.source < 0:
            return "Say first which card the meeples move from ('from ...')."
        if state.meeples[source] < 2:
            return (f"Meeples move only from a card holding 2 or more, and {CELLS[source]} "
                    f"holds {state.meeples[source]}.")
        if verb == "fly":
            return "Only an airplane you own (and, after its first flight, can fuel) flies."
        return (f"Meeples move to a card within {state.dice[2]} cards of {CELLS[source]} "
                "(the yellow die) that takes their colour (a blank card or one of its "
                "colour) and has a free section.")

    def _refuse_joined(self, state: BombState, seat: int, first: str, rest: str
                       ) -> IllegalMove:
        """Why steps named together are not one move now: the first is not allowed, the
        game shows something after it (so what follows is chosen then), the turn ends with
        it, or what follows is not allowed after it."""
        legal = self.moves(state, seat)
        if first not in legal:
            return self.refuse(state, seat, first)
        if first.split()[0] in ENDS:
            return IllegalMove(f"{quote(first)} ends your turn, so {quote(rest)} cannot "
                               "follow it.")
        shown = self._reveals(state, first)
        if shown:
            return IllegalMove(f"{quote(rest)} cannot be named with {quote(first)}: {shown} "
                               f"only after it, so you choose what follows then. Play "
                               f"{quote(first)} first.")
        after = clone(state)
        self.apply(after, seat, first, legal[first])
        if seat not in self.to_act(after):
            return IllegalMove(f"{quote(first)} ends your part of the turn, so {quote(rest)} "
                               "cannot follow it.")
        if rest in self.moves(after, seat):
            return IllegalMove(f"{quote(first)} and {quote(rest)} are not joined in one move "
                               f"here: play {quote(first)}, then {quote(rest)}.")
        return IllegalMove(f"After {quote(first)}: {self.refuse(after, seat, rest)}")

    def _reveals(self, state: BombState, step: str) -> str:
        """What the game draws, rolls or shows after ``step`` ('the bomb is drawn'), or ''
        for a step that shows nothing new (the meeple, a move of meeples, a purchase...)."""
        verb, _, rest = step.partition(" ")
        if step.startswith("buy meeple") and \
                state.meeple_colour[INDEX[rest.split()[-1]]] >= 0:
            return ""  # a meeple of the card's colour: nothing drawn blind
        if step == "card crystals" or (verb == "with" and rest != "bag"):
            return ""
        if step == "no buy" and state.sale is not None and \
                sum(a is None for a in state.sale["answers"]) == 1:
            return ""  # the last answer: the sale settles unseen, the next turn begins
        if step == "no challenge":
            return ""  # the win is settled as it stands: nothing drawn
        return REVEALS.get(verb, "")

    def _shop_refusal(self, state: BombState, seat: int, verb: str, cell: int) -> str:
        cost = {"landmine": "landmine", "tower": "lookout_tower", "unmine": "landmine_removal",
                "airplane": "airplane"}[verb]
        if state.crystals[seat] < COST[cost]:
            return f"That costs {COST[cost]} crystals; you hold {state.crystals[seat]}."
        if verb in state.bought_now:
            return f"Only one {verb} a turn."
        if verb == "airplane":
            return "You already own an airplane, or none is left."
        if verb == "unmine":
            return f"There is no landmine on {CELLS[cell]}."
        if verb == "tower":
            return "A lookout tower goes on a card's bomb, one per card, while towers last."
        return "A landmine goes on a free section of a card without a lookout tower or a " \
               "landmine, while landmines last."

    def _meeple_refusal(self, state: BombState, seat: int, cell: int) -> str:
        if "meeple" in state.bought_now:
            return "Only one extra meeple may be bought a turn."
        if state.crystals[seat] < COST["extra_meeple"]:
            return (f"An extra meeple costs {crystals(COST['extra_meeple'])}; you hold "
                    f"{crystals(state.crystals[seat])}.")
        if state.mine[cell]:
            return f"A landmine blocks {CELLS[cell]}: it cannot be filled until it is removed."
        if _free(state, cell) != 1:
            return (f"An extra meeple is bought only when it fills the card, and "
                    f"{CELLS[cell]} has {_free(state, cell)} free sections.")
        return f"The bag holds no meeple that {CELLS[cell]} takes."

    def notation_hint(self, state: BombState, seat: int) -> str:
        """What to type now, built from ``seat``'s legal moves: an example of each first
        word, so the hint offers exactly the moves allowed."""
        if self.outcome(state) is not None:
            return "The game is over."
        moves = self.legal_moves(state, seat)
        if not moves:
            return self.waiting_for(state)
        kinds: dict[str, list[str]] = {}
        for move in moves:
            kinds.setdefault(move.split()[0], []).append(move)
        costs = self.costs(state, seat)

        def example(verb: str, found: list[str]) -> str:
            if verb == "bet" and len(found) > 1:
                return f"'{found[0]}' to '{found[-1]}'"
            extra = [f"1 of {len(found)}"] if len(found) > 1 else []
            extra += [costs[found[0]]] if found[0] in costs else []
            return f"'{found[0]}'" + (f" ({'; '.join(extra)})" if extra else "")

        shown = [example(verb, found) for verb, found in kinds.items()]
        lead = LEADS.get(state.phase, "")
        if state.phase == "sale" and len(kinds) > 2:
            lead = "The sale: buy a card, or start your turn at once (that buys nothing)"
        if state.phase == "challenge" and len(kinds) > 2:
            lead = ("The won attack: challenge it, or start your turn at once (that does not "
                    "challenge)")
        if state.phase == "bets":
            lead = f"Guess the green die, 1 to {len(moves)} (no more than your crystals)"
        return f"{lead}: type {listing(shown, 'or')}."

    def _offers(self, state: BombState) -> tuple[list[str], list[str]]:
        """For the picture's prompt: the first words of the awaited seats' legal moves that
        everyone may know, and those that hang on what only the seat to act sees (its held
        square card, its bought mint tin cards), which may or may not be legal."""
        seat = state.turn
        hidden, maybe = {"card", "arm"}, []
        if state.phase == "place" or (state.phase == "start" and state.held[seat] >= 0):
            hidden |= {"place", "keep", "draw", "continue"}
            maybe = ["place", "keep" if state.phase == "place" else
                     "draw" if state.deck else "continue"]
        if state.phase == "act" and state.bought[seat]:
            maybe += ["card", "arm"]
        words = {move.split()[0] for s in self.to_act(state)
                 for move, detail in self.moves(state, s).items()
                 if not (isinstance(detail, Steps) and detail.steps[0] in ANSWERS)}
        return sorted(words - hidden), maybe  # (moving on instead of an answer: not asked)

    # -- what each seat may see

    def view(self, state: BombState, seat: int | None) -> dict[str, Any]:
        board = [{
            "cell": CELLS[c], "sections": state.sections[c], "colour": COLOURS[state.colour[c]],
            "bomb": COLOURS[state.bomb[c]] if state.bomb[c] >= 0 else None,
            "meeples": state.meeples[c],
            "meeple_colour": MEEPLES[state.meeple_colour[c]] if state.meeple_colour[c] >= 0
            else None,
            "landmine": state.mine[c], "tower": state.tower[c], "token": state.token[c],
            "filled": _filled(state, c),
        } for c in _cards(state)]
        attack = None
        if state.attack is not None:
            a = state.attack
            shown = a["green"] > 0
            attack = {"attacker": a["attacker"], "from": CELLS[a["from"]],
                      "to": CELLS[a["to"]], "power": a["power"], "green": a["green"] or None,
                      "toughness": a["toughness"] if shown else None,
                      "furthest": list(a["furthest"]), "won": a["won"],
                      "betting": [s for s, b in enumerate(a["bets"]) if b >= 0],
                      "bet": [s for s, b in enumerate(a["bets"]) if b > 0],
                      "bets": list(a["bets"]) if shown else None,
                      "challenger": a.get("challenger")}
            if not shown and seat is not None and a["bets"][seat] > 0:
                attack["my_bet"] = a["bets"][seat]
        offers, maybe = self._offers(state)
        view: dict[str, Any] = {
            "game": self.id, "seat": seat, "players": state.players, "size": SIZE,
            "phase": state.phase, "turn": state.turn, "start": state.start,
            "turns": state.turns, "round": (state.turns - 1) // state.players + 1,
            "turn_limit": TURN_LIMIT, "to_act": sorted(self.to_act(state)), "board": board,
            "crystals": list(state.crystals), "bank": state.bank, "to_win": TO_WIN,
            "tokens": [[COLOURS[c] for c in t] for t in state.tokens],
            "sets": [[COLOURS[c] for c in t] for t in state.sets],
            "to_place": [COLOURS[c] for c in state.to_place],
            "token_supply": list(state.token_supply), "planes": list(state.plane),
            "bonus": list(state.bonus), "for_sale_counts": [len(h) for h in state.for_sale],
            "bought_counts": [len(b) for b in state.bought],
            "armed_counts": [sum(1 for a in state.armed if a[0] == s)
                             for s in range(state.players)],
            "holding": [h >= 0 for h in state.held], "deck": len(state.deck),
            "set_aside": [card_name(c) for c in state.set_aside],
            "tin": any(state.tin_deck), "bomb_bag": list(state.bomb_bag),
            "meeple_bag": list(state.meeple_bag), "landmines": state.landmines,
            "towers": state.towers, "airplanes": state.airplanes, "then": state.then,
            "redo": state.redo, "bought_now": list(state.bought_now),
            "meepled": state.meepled,
            "pending": None if state.pending < 0 else (
                COLOURS if state.phase == "bomb" else MEEPLES)[state.pending],
            "dice": dict(zip(("red", "blue", "yellow", "green"), state.dice, strict=True)),
            "source": CELLS[state.source] if state.source >= 0 else None,
            "moved": state.moved, "moving_over": state.moving_over, "attack": attack,
            "sale": None if state.sale is None else {
                "seller": state.sale["seller"], "answers": list(state.sale["answers"])},
            "last": dict(state.last) if state.last else None, "quiet": state.quiet,
            "offers": offers, "maybe": maybe,
            "moves": state.moves,
            "earned": {k: list(v) for k, v in state.earned.items()}, "result": None,
        }
        # the open places and, while a square card may still be laid, those where the
        # largest card costs crystals, with the fewest sections that pay there (one more
        # than every neighbour) and the price; public, from the board alone
        spots = _spots(state, card_code(0, LARGEST))
        view["places"] = [CELLS[c] for c in spots]
        view["costly"] = {CELLS[c]: [1 + max(state.sections[j] for j in NEIGHBOURS[c]), cost]
                          for c, cost in spots.items()
                          if cost and (state.deck or max(state.held) >= 0)}
        result = self.outcome(state)
        if result is not None:
            view["result"] = {"winners": sorted(result.winners), "reason": result.reason}
        if seat is not None:
            view["for_sale"] = [KINDS[k] for k in state.for_sale[seat]]
            view["bought"] = [KINDS[k] for k in state.bought[seat]]
            view["armed"] = [{"card": KINDS[k], "against": t}
                             for o, k, t in state.armed if o == seat]
            view["held"] = None if state.held[seat] < 0 else {
                "sections": state.held[seat] % LARGEST + 1,
                "colour": COLOURS[state.held[seat] // LARGEST]}
        return view

    def determinize(self, state: BombState, seat: int | None, seed: int) -> BombState:
        """Resample the square deck with others' held cards, others' mint tin cards (for
        sale, bought and armed, with the armed cards' targets), the tin, and others' bets
        not yet revealed; the bags are counts, so a new seed redraws them."""
        out = self.load(self.dump(state))
        rng = random.Random(f"determinize/{seed}")
        out.seed, out.draws, out.forced = rng.randrange(2**31), 0, []
        others = [s for s in range(out.players) if s != seat]
        hidden = [s for s in others if out.held[s] >= 0]
        pool = sorted(out.deck + [out.held[s] for s in hidden])
        rng.shuffle(pool)
        for s in hidden:
            out.held[s] = pool.pop()
        out.deck = pool
        cards = [k for k, n in enumerate(out.tin_deck) for _ in range(n)]
        for s in others:
            cards += out.for_sale[s] + out.bought[s]
        secret = [a for a in out.armed if a[0] != seat]
        cards = sorted(cards + [a[1] for a in secret])
        rng.shuffle(cards)
        for a in secret:  # armed cards are reactive ones, against someone else
            pick = next(n for n, k in enumerate(cards) if k in REACTIVE)
            a[1] = cards.pop(pick)
            a[2] = rng.choice([s for s in range(out.players) if s != a[0]])
        for s in others:
            n, m = len(out.for_sale[s]), len(out.bought[s])
            out.for_sale[s], out.bought[s] = sorted(cards[:n]), sorted(cards[n:n + m])
            del cards[:n + m]
        out.tin_deck = [cards.count(k) for k in range(len(KINDS))]
        attack = out.attack
        if attack is not None and not attack["green"]:
            for s in others:
                if attack["bets"][s] > 0:
                    attack["bets"][s] = rng.randint(1, min(6, out.crystals[s]))
        return out

    # -- points, as the recap tells them

    unit = "crystals"

    def points(self, state: BombState) -> tuple[int, ...]:
        return tuple(state.crystals)

    def breakdown(self, public: dict[str, Any], seat: int, earned: dict[str, float]
                  ) -> list[Term]:
        """The crystals each seat starts with, what each way of earning paid, less what was
        spent (the shop, redraws, rerolls, cards bought)."""
        ways = (("fill", "filling"), ("attack", "attacks"), ("bets", "bets"),
                ("sales", "sales"), ("tokens", "token set"), ("challenge", "challenges"),
                ("cards", "cards"))
        terms = [Term(DATA["starting_crystals"], "to start")]
        terms += [Term(public["earned"][key][seat], f"from {word}") for key, word in ways
                  if public["earned"][key][seat]]
        spent = sum(t.points for t in terms) - public["crystals"][seat]
        return terms + ([Term(-spent, "spent")] if spent else [])
