"""The turn of Bomb Squares: its start and end, the square card drawn and placed, the bomb
and the meeple drawn blind, and the end by time. A step carries on with ``goto``, which
calls the next step, so the steps of the turn stay in one module.
"""

from __future__ import annotations

from rules.bomb_squares.state import (
    CELLS,
    COLOURS,
    KINDS,
    MEEPLES,
    MOST_MOVES_A_TURN,
    MOVE_LIMIT,
    QUIET_ROUNDS,
    SIZE,
    TURN_LIMIT,
    BombState,
    an,
    card_name,
    crystals,
    draw_from,
    free,
    gain,
    laid_cards,
    lay,
    mark,
    pay,
    player,
    put_meeple,
    takes,
)
from rules.core import Event

# --------------------------------------------------------------------------- the turn


def begin_turn(state: BombState, events: list[Event]) -> None:
    """A new turn for ``state.turn``: a 'lose a turn' card armed against them fires."""
    while True:
        state.turns += 1
        seat = state.turn
        state.redo, state.bought_now, state.meepled, state.pending = False, [], False, -1
        state.dice, state.source, state.moved, state.moving_over = [0, 0, 0, 0], -1, 0, False
        state.phase, state.then = "start", "bomb"
        fired = fire(state, seat, KINDS.index("skip"))
        if fired is None:
            return
        events.append(Event(f"{player(fired)} reveals a 'lose a turn' card against "
                            f"{player(seat)}: {player(seat)} loses this turn.", kind="card",
                            data={"seat": fired, "target": seat}))
        if _over_by_time(state, events):
            return
        state.turn = (seat + 1) % state.players


def fire(state: BombState, target: int, kind: int) -> int | None:
    """The first armed card of ``kind`` against ``target`` goes off: back in the tin."""
    for n, (owner, armed_kind, against) in enumerate(state.armed):
        if armed_kind == kind and against == target:
            del state.armed[n]
            state.tin_deck[kind] += 1
            return owner
    return None


def end_turn(state: BombState, events: list[Event]) -> None:
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
    begin_turn(state, events)


def goto(state: BombState, then: str, events: list[Event]) -> None:
    """Carry on with the turn after a step: the bomb, the meeple, the dice step or the end."""
    if then == "bomb":
        bomb_step(state, "meeple", events)
    elif then == "meeple":
        meeple_step(state, "act", events)
    elif then == "act":
        state.phase = "act"
    else:
        end_turn(state, events)


def draw_square(state: BombState, seat: int, then: str, events: list[Event]) -> None:
    code = state.deck.pop()
    state.held[seat] = code
    state.phase, state.then = "place", then
    events.append(Event(f"{player(seat)} draws a square card.", kind="draw",
                        data={"seat": seat}))
    events.append(Event(f"You draw {card_name(code)}.", to=frozenset({seat}), kind="draw",
                        data={"card": code}))


def place(state: BombState, seat: int, cell: int, cost: int, events: list[Event]) -> None:
    code = state.held[seat]
    state.held[seat] = -1
    if cost:
        pay(state, seat, cost)
    lay(state, cell, code)
    why = (f", paying {crystals(cost)}: 1 for each neighbour, all with fewer sections"
           if cost else ", free beside a card with as many sections or more")
    if state.then == "end":  # the second square card, instead of the dice
        why += "; a second square card gets no bomb or meeple, and the turn ends"
    mark(state, seat, f"placed a card on {CELLS[cell]}", [cell])
    events.append(Event(f"{player(seat)} places {card_name(code)} on {CELLS[cell]}{why}.",
                        kind="place", data={"seat": seat, "cell": CELLS[cell]}))
    then = state.then
    goto(state, then, events)


def bomb_step(state: BombState, then: str, events: list[Event]) -> None:
    """Draw a bomb blind for a card without one; none in the bag or no such card: skip."""
    if not any(state.bomb_bag) or not bombless(state):
        why = "the bomb bag is empty" if not any(state.bomb_bag) else \
            "every card already holds a bomb"
        events.append(Event(f"No bomb is drawn: {why}.", kind="bomb"))
        goto(state, then, events)
        return
    state.pending = draw_from(state, state.bomb_bag)
    state.phase, state.then = "bomb", then
    events.append(Event(f"{player(state.turn)} draws {an(COLOURS[state.pending])} bomb.",
                        kind="bomb", data={"colour": COLOURS[state.pending]}))


def mine_places(state: BombState) -> list[int]:
    """Cards a landmine may blockade: a free section, no lookout tower, no landmine yet."""
    return [c for c in laid_cards(state)
            if free(state, c) > 0 and not state.mine[c] and not state.tower[c]]


def tower_places(state: BombState) -> list[int]:
    """Bombs a lookout tower may stand on: one tower a card, not on a token card."""
    return [c for c in laid_cards(state)
            if state.bomb[c] >= 0 and not state.tower[c] and not state.token[c]]


def one_short(state: BombState, cell: int) -> bool:
    """Whether one more meeple fills ``cell`` (the extra meeple is bought only to fill a
    card): one free section, no landmine, and a meeple in the bag that it takes: of its
    colour, or any for a blank card (a blank 1-section card included)."""
    if state.mine[cell] or free(state, cell) != 1:
        return False
    colour = state.meeple_colour[cell]
    return bool(state.meeple_bag[colour]) if colour >= 0 else any(state.meeple_bag)


def bombless(state: BombState) -> list[int]:
    return [c for c in range(SIZE * SIZE)
            if state.sections[c] and state.bomb[c] < 0 and not state.token[c]]


def meeple_step(state: BombState, then: str, events: list[Event]) -> None:
    """Draw a meeple blind; it must be placed if it fits anywhere, else it goes back."""
    if not any(state.meeple_bag):
        state.meepled = True
        events.append(Event("No meeple is drawn: every meeple is on the table.",
                            kind="meeple"))
        goto(state, then, events)
        return
    colour = draw_from(state, state.meeple_bag)
    seat = state.turn
    events.append(Event(f"{player(seat)} draws a {MEEPLES[colour]} meeple.", kind="meeple",
                        data={"colour": MEEPLES[colour]}))
    if not any(takes(state, c, colour) for c in laid_cards(state)):
        state.meeple_bag[colour] += 1
        state.meepled = True
        events.append(Event(f"No card takes a {MEEPLES[colour]} meeple; it goes back in the "
                            "bag.", kind="meeple"))
        goto(state, then, events)
        return
    state.pending, state.phase, state.then = colour, "meeple", then


def meeple_on(state: BombState, seat: int, cell: int, colour: int, events: list[Event],
               how: str = "places a") -> None:
    """A meeple goes on ``cell``; a card filled so pays its sections to ``seat``."""
    put_meeple(state, cell, colour)
    mark(state, seat, f"meeple on {CELLS[cell]}", [cell])
    events.append(Event(f"{player(seat)} {how} {MEEPLES[colour]} meeple on {CELLS[cell]}"
                        f"{how_full(state, cell)}.", kind="meeple",
                        data={"seat": seat, "cell": CELLS[cell]}))
    check_filled(state, seat, cell, events)


def how_full(state: BombState, cell: int) -> str:
    """' (2 of 4 sections taken: a full card pays 4)', or '' once the card is full (its
    payout follows); with a landmine, why it cannot fill."""
    sections, meeples = state.sections[cell], state.meeples[cell]
    if meeples == sections:
        return ""
    if state.mine[cell]:
        return (f" ({meeples} of {sections} sections taken; a landmine blocks one, so it "
                "cannot fill until the landmine is removed)")
    return f" ({meeples} of {sections} sections taken: a full card pays {sections})"


def check_filled(state: BombState, seat: int, cell: int, events: list[Event]) -> bool:
    """A card whose every section holds a meeple pays its sections to ``seat``."""
    if state.meeples[cell] != state.sections[cell]:
        return False
    gain(state, seat, state.sections[cell], "fill",
          f"for filling the {state.sections[cell]}-section card on {CELLS[cell]}", events)
    return True


# --------------------------------------------------------------------------- the end


def _over_by_time(state: BombState, events: list[Event]) -> bool:
    """The ends the seed does not give: the turn limit, and ``QUIET_ROUNDS`` full rounds
    without anyone earning once the square cards are used up. Most crystals wins."""
    if state.turns >= TURN_LIMIT or state.moves > MOVE_LIMIT - MOST_MOVES_A_TURN:
        state.result = f"The turn limit ({TURN_LIMIT} turns) is reached; most crystals wins."
        if state.turns < TURN_LIMIT:
            state.result = f"The move limit ({MOVE_LIMIT} moves) is near; most crystals wins."
        state.ending = "turn limit"
    elif not state.deck and state.quiet >= QUIET_ROUNDS * state.players:
        state.result = ("The square cards are used up and nobody earned for "
                        f"{QUIET_ROUNDS} full rounds; most crystals wins.")
        state.ending = "no earnings"
    else:
        if not state.deck:
            state.quiet += 1
        return False
    state.phase = "over"
    events.append(Event(f"The game ends: {state.result}", kind="end"))
    return True
