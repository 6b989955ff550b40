"""Tokens: a completed set laid on cards of its colours, and tokens going back to their
owner.
"""

from __future__ import annotations

from rules.bomb_squares.state import (
    CELLS,
    COLOURS,
    REWARD,
    SET_SIZE,
    SIZE,
    BombState,
    an,
    gain,
    mark,
    player,
)
from rules.bomb_squares.turn import end_turn
from rules.core import Event, listing

# --------------------------------------------------------------------------- tokens


def complete_set(state: BombState, seat: int, events: list[Event]) -> bool:
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
    gain(state, seat, REWARD["token_set"], "tokens", "for the set of four tokens", events)
    if token_places(state):
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


def token_places(state: BombState) -> list[int]:
    """Empty cards (no meeple, bomb, landmine or token) of a colour still to lay."""
    return [c for c in range(SIZE * SIZE) if state.sections[c]
            and state.colour[c] in state.to_place and not state.meeples[c]
            and state.bomb[c] < 0 and not state.mine[c] and not state.token[c]]


def lay_token(state: BombState, seat: int, cell: int, events: list[Event]) -> None:
    colour = state.colour[cell]
    state.to_place.remove(colour)
    state.token[cell] = 2
    state.tokens[seat].remove(colour)
    mark(state, seat, f"token on {CELLS[cell]}", [cell])
    events.append(Event(f"{player(seat)} lays {an(COLOURS[colour])} token on {CELLS[cell]}: "
                        "from the next turn it counts as filled with a bomb of its colour.",
                        kind="token", data={"seat": seat, "cell": CELLS[cell]}))
    if not token_places(state):
        _tokens_back(state, seat, events)
        end_turn(state, events)
