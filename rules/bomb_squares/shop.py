"""The shop: selling mint tin cards and answering a sale, buying in the act step (landmines,
towers, airplanes, a meeple), and playing mint tin cards.
"""

from __future__ import annotations

from typing import Any

from rules.bomb_squares.state import (
    BOUGHT_MOST,
    CELLS,
    COST,
    KIND_TEXT,
    KINDS,
    MEEPLES,
    REWARD,
    BombState,
    crystals,
    draw_from,
    fill_tin,
    gain,
    mark,
    pay,
    player,
    transfer,
)
from rules.bomb_squares.turn import bomb_step, draw_square, end_turn, meeple_on, meeple_step
from rules.core import Event, Game, listing


class Shop(Game[BombState]):
    """The shop's steps of the contract class ``BombSquares``: a sale and its answers, buying
    in the act step, mint tin cards."""

    def _buyers(self, state: BombState, seat: int) -> list[int]:
        if not state.for_sale[seat]:
            return []
        return [s for s in range(state.players) if s != seat and state.crystals[s] >= 1
                and len(state.bought[s]) < BOUGHT_MOST]

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
            transfer(state, buyer, seller, COST["card_sale"], "sales")
        drawn = fill_tin(state, seller)
        if drawn:
            events.append(Event(f"You draw {listing([repr(KINDS[k]) for k in drawn])} "
                                "from the tin.", to=frozenset({seller}), kind="sale"))
        end_turn(state, events)

    def _shop(self, state: BombState, seat: int, move: str, detail: Any,
              events: list[Event]) -> None:
        """A purchase, paid when it is made: a landmine or a lookout tower is then laid
        with its own move ('landmine c3'), free."""
        verb = move.split()[0]
        if move in ("landmine", "tower"):
            item, cost = (("landmine", "landmine"), ("lookout tower", "lookout_tower"))[
                move == "tower"]
            pay(state, seat, COST[cost])
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
            pay(state, seat, COST["airplane"])
            state.airplanes -= 1
            state.plane[seat] = 1
            state.bought_now.append("airplane")
            text = (f"buys an airplane for {crystals(COST['airplane'])} (it flies from the "
                    "next turn, the first turn free)")
        elif verb == "unmine":
            pay(state, seat, COST["landmine_removal"])
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
        mark(state, seat, text, cells)
        events.append(Event(f"{player(seat)} {text}.", kind="shop", data={"seat": seat}))

    def _buy_meeple(self, state: BombState, seat: int, cell: int, events: list[Event]
                    ) -> None:
        """The turn's extra meeple, bought to fill a card: of the card's colour, or drawn
        blind from the bag for a blank card (any colour fills it)."""
        pay(state, seat, COST["extra_meeple"])
        state.bought_now.append("meeple")
        colour = state.meeple_colour[cell]
        if colour < 0:
            colour = draw_from(state, state.meeple_bag)
            how = (f"buys a meeple for {crystals(COST['extra_meeple'])} (drawn blind: any "
                   "colour fills a blank card) and places a")
        else:
            state.meeple_bag[colour] -= 1
            how = f"buys a meeple for {crystals(COST['extra_meeple'])} and places a"
        meeple_on(state, seat, cell, colour, events, how)

    def _card(self, state: BombState, seat: int, move: str, detail: Any,
              events: list[Event]) -> None:
        if move.startswith("arm"):
            kind, target = detail
            state.bought[seat].remove(kind)
            state.armed.append([seat, kind, target])
            mark(state, seat, "armed a card", [])
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
            gain(state, seat, REWARD["card_crystals"], "cards", "from the 'crystals' card",
                  events)
        elif name == "meeple":
            meeple_step(state, "act", events)
        elif name == "bomb":
            bomb_step(state, "act", events)
        else:
            draw_square(state, seat, "act", events)
