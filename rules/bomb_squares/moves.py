"""The moves of each phase, with their notes and costs (joined steps included: a meeple
with the dice step, a sale with its answer).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from rules.bomb_squares import state as components
from rules.bomb_squares.acting import Acting
from rules.bomb_squares.dice import CHALLENGE_PRICE, FACES, any_attack, attackers, targets
from rules.bomb_squares.notation import ANSWERS, PRICES, PRICES_BY_VERB
from rules.bomb_squares.state import (
    CELLS,
    COST,
    DICE,
    INDEX,
    KINDS,
    MEEPLES,
    REACTIVE,
    SIZE,
    BombState,
    Steps,
    Won,
    crystals,
    distances,
    laid_cards,
    open_place,
    spots_for,
    takes,
)
from rules.bomb_squares.tokens import token_places
from rules.bomb_squares.turn import bombless, mine_places, one_short, tower_places
from rules.core import clone


class Moves(Acting):
    """Listing the moves (``Game.moves``), with their notes and costs; a joined step is
    tried on a copy with ``Acting``'s ``_apply``."""

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
            return {f"token {CELLS[c]}": c for c in token_places(state)}
        if phase == "start":
            return self._start_moves(state, seat)
        if phase == "place":
            return self._place_moves(state, seat, keep=True)
        if phase == "bomb":
            out: dict[str, Any] = {f"bomb {CELLS[c]}": c for c in bombless(state)}
            if not state.redo and state.crystals[seat] >= COST["do_over"]:
                out["redraw bomb"] = None
            return out
        if phase == "meeple":
            out = {f"meeple {CELLS[c]}": c for c in laid_cards(state)
                   if takes(state, c, state.pending)}
            cells = list(out.values())
            if not state.meepled:  # an extra meeple (a card, a bonus): no do-over or skip
                if not state.redo and state.crystals[seat] >= COST["do_over"]:
                    out["redraw meeple"] = None
                out.update({f"clear {CELLS[c]}": c for c in laid_cards(state)
                            if state.mine[c] and state.mine[c] < state.turns})
            if len(out) > 1:  # a lone meeple step stays the table's to make
                out.update(self._meeple_joins(state, seat, cells))
            return out
        if phase == "landmine":
            return {f"landmine {CELLS[c]}": c for c in mine_places(state)}
        if phase == "tower":
            return {f"tower {CELLS[c]}": c for c in tower_places(state)}
        if phase == "switch" and state.source < 0:
            return {f"switch {CELLS[c]}": c for c in self._switchable(state)}
        if phase == "switch":
            out = {f"with {CELLS[c]}": c for c in laid_cards(state)
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
        attack = any_attack(state, seat)  # the same for every card (none is filled yet)
        for cell in cells:
            name = f"meeple {CELLS[cell]}"
            ends = self._dice_ends(state, seat, cell, attack)
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
                    ends = self._dice_ends(state, seat, cell, attack) or []
                finally:
                    state.meeples[cell] -= 1
                    state.meeple_colour[cell] = was
                    state.crystals[seat] += COST["extra_meeple"]
                out.update({f"{name} {bought} {end}": Steps((name, bought, end))
                            for end in ends})
        return out

    def _dice_ends(self, state: BombState, seat: int, cell: int | None = None,
                   attack: bool | None = None) -> list[str] | None:
        """The dice step's first choices ('roll'; else 'roll yellow', 'done'; and 'second
        card' where a square card may be drawn) after a step that shows nothing, a meeple
        put on ``cell``: one that fills an attacker makes the choice 'roll'; None when the
        meeple fills a card that wins the game (nothing follows). ``attack``: whether an
        attack is possible before that meeple (``any_attack``), where the caller knows."""
        if attack is None:
            attack = any_attack(state, seat)
        if cell is not None and state.meeples[cell] + 1 == state.sections[cell]:
            paid = min(state.sections[cell], state.bank)
            if state.winner < 0 and state.crystals[seat] + paid >= components.TO_WIN:
                return None
            attack = attack or (state.bomb[cell] >= 0 and bool(
                targets(state, seat, cell, SIZE * SIZE)))
        ends = ["roll"] if attack else ["roll yellow", "done"]
        if state.deck and state.held[seat] < 0 and open_place(state):
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
        except Won:  # the seller or the attacker reached 75: no turn follows
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
        elif state.deck and open_place(state):
            out["draw"] = None
        else:
            out["continue"] = None
        if self._buyers(state, seat):
            out["sell"] = None
        return out

    def _place_moves(self, state: BombState, seat: int, keep: bool) -> dict[str, Any]:
        spots = spots_for(state, state.held[seat])
        out: dict[str, Any] = {f"place {CELLS[c]}": cost for c, cost in spots.items()
                               if cost <= state.crystals[seat]}
        if keep and all(cost for cost in out.values()):
            out["keep"] = None
        return out

    def _act_moves(self, state: BombState, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        cash = state.crystals[seat]
        if any_attack(state, seat):
            out["roll"] = None
        else:
            out["roll yellow"] = None
            out["done"] = None
        if state.deck and state.held[seat] < 0 and open_place(state):
            out["second card"] = None
        switchable = self._switchable(state)
        if switchable:
            out["switch"] = None
            out.update({f"switch {CELLS[c]}": Steps(("switch", f"switch {CELLS[c]}"))
                        for c in switchable})
        cards = laid_cards(state)
        if "landmine" not in state.bought_now and state.landmines and \
                cash >= COST["landmine"] and mine_places(state):
            out["landmine"] = None
            out.update({f"landmine {CELLS[c]}": Steps(("landmine", f"landmine {CELLS[c]}"))
                        for c in mine_places(state)})
        if "tower" not in state.bought_now and state.towers and \
                cash >= COST["lookout_tower"] and tower_places(state):
            out["tower"] = None
            out.update({f"tower {CELLS[c]}": Steps(("tower", f"tower {CELLS[c]}"))
                        for c in tower_places(state)})
        if state.airplanes and not state.plane[seat] and cash >= COST["airplane"]:
            out["airplane"] = None
        if "unmine" not in state.bought_now and cash >= COST["landmine_removal"]:
            out.update({f"unmine {CELLS[c]}": c for c in cards if state.mine[c]})
        if "meeple" not in state.bought_now and cash >= COST["extra_meeple"]:
            short = [c for c in cards if one_short(state, c)]
            out.update({f"buy meeple {CELLS[c]}": c for c in short})
            attack = any_attack(state, seat) if short else False
            for c in short:  # with how the dice step goes on: 'buy meeple e5 roll'
                if state.meeple_colour[c] >= 0:  # (a blank card's meeple is drawn blind)
                    name = f"buy meeple {CELLS[c]}"
                    out.update({f"{name} {end}": Steps((name, end))
                                for end in self._dice_ends(state, seat, c, attack) or []})
        if state.bonus[seat] and state.meepled:
            for m, name in enumerate(MEEPLES):
                if state.meeple_bag[m] and any(takes(state, c, m) for c in cards):
                    out[f"bonus {name}"] = m
        for kind in sorted(set(state.bought[seat])):
            name = KINDS[kind]
            if kind in REACTIVE:
                for target in range(state.players):
                    if target != seat:
                        out[f"arm {name} player {target + 1}"] = (kind, target)
            elif name == "crystals" or (name == "meeple" and any(state.meeple_bag)) or (
                    name == "bomb" and any(state.bomb_bag) and bombless(state)) or (
                    name == "square" and state.deck and state.held[seat] < 0
                    and open_place(state)):
                out[f"card {name}"] = kind
        return out

    def _switchable(self, state: BombState) -> list[int]:
        """Cards whose bomb may be switched: with the bag, or with a bomb of another colour."""
        bombs = [c for c in laid_cards(state) if state.bomb[c] >= 0 and not state.token[c]]
        return [c for c in bombs
                if any(state.bomb_bag) or any(state.bomb[d] != state.bomb[c] for d in bombs)]

    def _rolled_moves(self, state: BombState, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        red, blue, yellow = state.dice[:3]
        if blue:
            for source in attackers(state):
                for target in targets(state, seat, source, blue):
                    out[f"attack {CELLS[target]} from {CELLS[source]}"] = (source, target)
        attack = bool(out)
        if not attack:
            out["done"] = None
        flying = self._flying(state, seat)
        # an attack in reach must be made: no meeple moves before it (a do-over may come
        # first), so a move's filling reroll never takes the attack away (decision, issue 38)
        if not state.moving_over and not attack:
            open_to: dict[int, list[int]] = {}
            if state.source < 0:
                joined: dict[str, Any] = {}
                for c in laid_cards(state):
                    if state.meeples[c] < 2:
                        continue
                    near = self._destinations(state, c, yellow, False, open_to)
                    far = (self._destinations(state, c, SIZE * SIZE, True, open_to)
                           if flying else [])
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
                near = self._destinations(state, state.source, yellow, False, open_to)
                out.update({f"to {CELLS[c]}": c for c in near})
                if flying:
                    out.update({f"fly {CELLS[c]}": c for c in self._destinations(
                        state, state.source, SIZE * SIZE, True, open_to)})
        if not state.redo and not state.moved:
            rolled = [d for d, v in zip(DICE, (red, blue, yellow), strict=True) if v]
            for n in range(1, len(rolled) + 1):
                for dice in combinations(rolled, n):
                    if state.crystals[seat] >= n * COST["do_over"]:
                        out["reroll " + " ".join(dice)] = dice
        return out

    def _destinations(self, state: BombState, source: int, reach: int, anywhere: bool,
                      open_to: dict[int, list[int]]) -> list[int]:
        """Where the meeples of ``source`` may go, in board order; ``open_to`` keeps, by
        meeple colour, the cards that take one (worked out once for every card's moves)."""
        colour = state.meeple_colour[source]
        if colour not in open_to:
            open_to[colour] = [c for c in laid_cards(state) if takes(state, c, colour)]
        # cards are only ever laid beside a card (and never lifted): a flight reaches them all
        if anywhere:
            return [c for c in open_to[colour] if c != source]
        near = distances(state, source, reach)
        return [c for c in open_to[colour] if c in near and c != source]

    @staticmethod
    def _flying(state: BombState, seat: int) -> bool:
        """Whether ``seat``'s airplane may fly a meeple after this roll (fuel paid, or
        payable)."""
        return state.plane[seat] in (2, 4) or (
            state.plane[seat] == 3 and state.crystals[seat] >= COST["airplane_fuel"])

    def _may_move(self, state: BombState, seat: int) -> bool:
        """Whether some roll of the yellow die could let ``seat`` move a meeple: a card
        with two meeples or more, and a card that takes one within the die's highest face
        (anywhere, for an airplane that may fly)."""
        open_to: dict[int, list[int]] = {}
        return any(self._destinations(state, c, FACES, self._flying(state, seat), open_to)
                   for c in laid_cards(state) if state.meeples[c] >= 2)

    # -- how lists show the moves

    def notes(self, state: BombState, seat: int) -> dict[str, str]:
        """The legal moves as lists show them: grouped by what they begin with (each card's
        meeple with the moves that go on from it, 'switch' with its bombs, a shop item with
        its places), in ``moves``' order otherwise; beside a move, what it does that its
        text does not say: how full a meeple leaves its card, that a second square card
        gets no bomb or meeple, that a won attack from a token card clears the token, that
        a move at a sale buys nothing, that a move ends the turn (as 'roll yellow' does
        where no meeple could move whatever the die shows)."""
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
        elif first[0] == "bonus":
            words.append("the extra meeple a yellow challenge won you; then 'meeple e5'")
        if move == "roll yellow" and not self._may_move(state, seat):
            words.append("no meeple can move, whatever it shows; ends your turn")
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
