"""Applying a move: the dispatch to each step, the redraw, clearing a landmine, the dice
step, and moving meeples.
"""

from __future__ import annotations

from typing import Any

from rules.bomb_squares import state as components
from rules.bomb_squares.dice import (
    challenge,
    declare,
    dice_text,
    in_reach,
    move_meeple,
    roll,
    roll_green,
    settle,
    start_roll,
)
from rules.bomb_squares.notation import done
from rules.bomb_squares.shop import Shop
from rules.bomb_squares.state import (
    CELLS,
    COLOURS,
    COST,
    DICE,
    INDEX,
    MEEPLES,
    BombState,
    Steps,
    Won,
    an,
    card_name,
    crystals,
    draw_from,
    laid_cards,
    mark,
    pay,
    player,
    takes,
)
from rules.bomb_squares.tokens import lay_token
from rules.bomb_squares.turn import draw_square, end_turn, goto, meeple_on, meeple_step, place
from rules.core import Event


class Acting(Shop):
    """Applying a move (``Game.apply``): each step of the turn, the shop's from ``Shop``."""

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
        except Won:
            state.phase = "over"
            state.ending = "75 crystals"
            state.result = f"{player(state.winner)} reached {components.TO_WIN} crystals first."
            events.append(Event(f"The game ends: {state.result}", kind="end"))
        return events

    def _apply(self, state: BombState, seat: int, move: str, detail: Any,
               events: list[Event]) -> None:
        verb = move.split()[0]
        if state.phase not in ("bets", "sale", "challenge", "tokens"):
            mark(state, seat, done(move), [])
        if verb == "draw":
            held = state.held[seat]
            if held >= 0:  # the held card fits nowhere for free: set aside for good
                state.set_aside.append(held)
                state.held[seat] = -1
                events.append(Event(f"{player(seat)} sets aside their held card, "
                                    f"{card_name(held)}, which cannot be placed for free.",
                                    kind="draw", data={"card": held}))
            draw_square(state, seat, "bomb", events)
        elif verb == "continue":
            why = "the square cards are used up" if not state.deck else \
                "no place on the table is open"
            events.append(Event(f"{player(seat)} places no square card: {why}.",
                                kind="draw", data={"seat": seat}))
            meeple_step(state, "act", events)
        elif verb == "keep":
            then = "act" if state.phase == "place" and state.then == "act" else "end"
            events.append(Event(f"{player(seat)} keeps their square card back, face down, "
                                "since no place takes it for free" + (
                                    "" if then == "act" else "; the turn ends") + ".",
                                kind="keep", data={"seat": seat}))
            goto(state, then, events)
        elif verb == "place":
            place(state, seat, INDEX[move.split()[1]], detail, events)
        elif verb == "sell":
            self._sell(state, seat, events)
        elif verb in ("buy", "no") and state.phase == "sale":
            self._answer_sale(state, seat, verb == "buy", events)
        elif verb == "bomb":
            state.bomb[detail] = state.pending
            mark(state, seat, f"bomb on {move.split()[1]}", [detail])
            events.append(Event(f"{player(seat)} puts the {COLOURS[state.pending]} bomb on "
                                f"{move.split()[1]}.", kind="bomb", data={"seat": seat}))
            state.pending = -1
            goto(state, state.then, events)
        elif move in ("redraw bomb", "redraw meeple"):
            self._redraw(state, seat, move.split()[1], events)
        elif verb == "meeple":
            colour, state.pending = state.pending, -1
            state.meepled = True
            then = state.then
            meeple_on(state, seat, detail, colour, events)
            goto(state, then, events)
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
            declare(state, seat, detail[0], detail[1], events)
        elif verb == "bet":
            assert state.attack is not None
            state.attack["bets"][seat] = detail
            events.append(Event(f"{player(seat)} has bet.", kind="bet", data={"seat": seat}))
            events.append(Event(f"You bet {detail}.", to=frozenset({seat}), kind="bet"))
            if all(b != 0 for b in state.attack["bets"]):
                roll_green(state, events)
        elif move == "challenge":
            challenge(state, seat, events)
        elif move == "no challenge":
            events.append(Event(f"{player(seat)} does not challenge.", kind="challenge"))
            settle(state, events)
        elif verb == "token":
            lay_token(state, seat, detail, events)

    def _redraw(self, state: BombState, seat: int, what: str, events: list[Event]) -> None:
        """The turn's one do-over: the drawn bomb or meeple back in its bag, another drawn."""
        pay(state, seat, COST["do_over"])
        state.redo = True
        bag = state.bomb_bag if what == "bomb" else state.meeple_bag
        bag[state.pending] += 1
        state.pending = draw_from(state, bag)
        name = (COLOURS if what == "bomb" else MEEPLES)[state.pending]
        events.append(Event(f"{player(seat)} pays {crystals(COST['do_over'])} (the turn's one "
                            f"do-over) to draw the {what} again: {name}.", kind="redraw",
                            data={"seat": seat}))
        if what == "meeple" and not any(takes(state, c, state.pending)
                                        for c in laid_cards(state)):
            state.meeple_bag[state.pending] += 1
            state.pending, state.meepled = -1, True
            events.append(Event(f"No card takes a {name} meeple; it goes back in the bag.",
                                kind="meeple"))
            goto(state, state.then, events)

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
        mark(state, seat, f"cleared the landmine on {CELLS[cell]}", [cell])
        events.append(Event(f"{player(seat)} gives up this turn's meeple to remove the "
                            f"landmine on {CELLS[cell]}: the drawn meeple{back} "
                            f"{'go' if back else 'goes'} back in the bag, and the landmine "
                            "leaves the game.", kind="landmine",
                            data={"seat": seat}))
        goto(state, state.then, events)

    def _dice_step(self, state: BombState, seat: int, move: str, detail: Any,
                   events: list[Event]) -> None:
        if move == "roll":
            start_roll(state, seat, DICE, events)
        elif move == "roll yellow":
            start_roll(state, seat, ("yellow",), events)
        elif move == "done":
            events.append(Event(f"{player(seat)} ends the turn.", kind="done",
                                data={"seat": seat}))
            end_turn(state, events)
        elif move == "second card":
            events.append(Event(f"{player(seat)} skips the dice to place a second square "
                                "card (no bomb, no meeple).", kind="second"))
            draw_square(state, seat, "end", events)
        elif move == "switch":
            state.phase = "switch"
            events.append(Event(f"{player(seat)} skips the dice to switch a bomb.",
                                kind="switch"))
        elif move.startswith("switch"):
            state.source = detail
            events.append(Event(f"{player(seat)} picks the {COLOURS[state.bomb[detail]]} "
                                f"bomb on {CELLS[detail]} to switch: 'with' and the place of "
                                "another bomb" + (", or 'with bag' for one drawn blind"
                                                  if any(state.bomb_bag) else "") + ".",
                                kind="switch",
                                data={"seat": seat}))
        else:  # with ...
            source = state.source
            old = state.bomb[source]
            if detail < 0:
                state.bomb[source] = draw_from(state, state.bomb_bag)
                state.bomb_bag[old] += 1
                other = (f"{an(COLOURS[state.bomb[source]])} bomb drawn from the bag (the "
                         f"{COLOURS[old]} one goes back)")
                cells = [source]
            else:
                state.bomb[source], state.bomb[detail] = state.bomb[detail], old
                other = f"the {COLOURS[state.bomb[source]]} bomb on {CELLS[detail]}"
                cells = [source, detail]
            mark(state, seat, f"switched the bomb on {CELLS[source]}", cells)
            events.append(Event(f"{player(seat)} switches the {COLOURS[old]} bomb on "
                                f"{CELLS[source]} with {other}; the turn ends.",
                                kind="switch", data={"seat": seat}))
            end_turn(state, events)

    def _moving(self, state: BombState, seat: int, move: str, detail: Any,
                events: list[Event]) -> None:
        verb = move.split()[0]
        if verb == "from":
            state.source = detail
            events.append(Event(f"{player(seat)} moves meeples from {CELLS[detail]}, "
                                "leaving at least one behind.", kind="move",
                                data={"seat": seat}))
        elif verb in ("to", "fly"):
            move_meeple(state, seat, detail, verb == "fly", events)
        else:
            pay(state, seat, len(detail) * COST["do_over"])
            state.redo = True
            roll(state, detail)
            events.append(Event(f"{player(seat)} pays {crystals(len(detail) * COST['do_over'])}"
                                f" (the turn's one do-over) to roll again: "
                                f"{dice_text(state, detail)}"
                                f"{in_reach(state, seat) if 'blue' in detail else ''}.",
                                kind="roll",
                                data={"seat": seat}))

    # -- reading what a player typed
