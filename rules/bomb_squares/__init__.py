"""Bomb Squares: square cards joined edge to edge, meeples filling them, bombs attacking.

2-4 players. Chance everywhere (the square card deck, the bomb and meeple bags, four dice,
the mint tin deck); hidden mint tin cards, a held square card and secret bets on the green
die, several opponents betting at once. Every rule and every decision taken where the seed
is silent or contradicts itself: ``bomb-squares.md``.

The package follows the turn, each module readable on its own and importing only the ones
before it: ``state`` (components, the state, the set-up, the table, crystals), ``turn`` (its
start and end, the square card, the bomb and the meeple steps, the end by time), ``tokens``,
``dice`` (the dice step, the attack, bets, the challenge), ``computer`` (worth, weights, the
playouts' policy), ``notation`` (the words of the moves). The contract class is built in
layers: ``shop.Shop`` (sales, buying, mint tin cards), ``acting.Acting`` (applying a move),
``moves.Moves`` (listing moves, notes, costs), ``reading.Reading`` (parsing, refusals, the
hint), and here ``BombSquares``: the game's contract (set-up, who acts, the outcome, the
computer's hooks, views, determinize, points) and every name other code imports.
A helper that another module uses has a public name (no private name is imported across
modules: ``tests/test_layout.py``); the crystals that win (``TO_WIN``) are read from
``state`` wherever they are needed, so a test that plays a shorter game changes them there.
"""

from __future__ import annotations

import random
from typing import Any

from rules.bomb_squares import state as components
from rules.bomb_squares.computer import ATTACK_AT, plain_play, worth
from rules.bomb_squares.notation import ANSWERS
from rules.bomb_squares.reading import Reading
from rules.bomb_squares.state import (
    CELLS,
    COLOURS,
    DATA,
    INDEX,
    KINDS,
    LARGEST,
    MEEPLES,
    NEIGHBOURS,
    REACTIVE,
    SIZE,
    START_CELL,
    TO_WIN,
    TURN_LIMIT,
    BombState,
    Steps,
    card_code,
    card_name,
    crystals,
    deal,
    filled,
    laid_cards,
    player,
    spots_for,
)
from rules.bomb_squares.turn import begin_turn
from rules.core import Event, Outcome, Term, Thinking, listing, starts

__all__ = [
    "ANSWERS",
    "CELLS",
    "COLOURS",
    "INDEX",
    "KINDS",
    "MEEPLES",
    "SIZE",
    "START_CELL",
    "TO_WIN",
    "BombSquares",
    "BombState",
    "Steps",
    "card_code",
    "player",
    "spots_for",
]


class BombSquares(Reading):
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
    costly_beside = True  # the extra meeple bought with a meeple: listed with its card
    board_colours = ("Every card, bomb and meeple also carries its colour's letter (R red, "
                     "G green, B blue, O orange, Y yellow, P purple), so you never need to "
                     "tell colours apart; players own no colour: the seat rows are numbered "
                     "grey chips.")

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None
            ) -> BombState:
        self.check_players(players)
        self.check_options(options)
        state = deal(players, seed)
        begin_turn(state, [])
        return state

    def opening(self, state: BombState) -> list[Event]:
        first = card_code(state.colour[START_CELL], state.sections[START_CELL])
        return [starts(player(state.start)), Event(
            f"The table starts with {card_name(first)} on "
            f"{CELLS[START_CELL]}. A square card has 1 to 6 sections and a colour: on your "
            "turn you draw one and place it beside a card ('place d5'), then put a bomb on "
            "a card and a meeple in a section; a card filled with meeples earns crystals."),
            Event("Then comes the dice step: a filled card's bomb attacks an opposite bomb "
                  "(red and green, blue and orange, yellow and purple are opposites) with "
                  "the dice ('roll'), or you move meeples with the yellow die ('roll "
                  "yellow', then 'from e5' and 'to f6') or end the turn ('done'); instead "
                  "of the dice you may lay a 'second card' or 'switch' a bomb, and before "
                  "them shop for a landmine, a "
                  "lookout tower or an airplane. Once a turn a crystal buys a do-over: "
                  "'redraw' the bomb or meeple drawn, or 'reroll' dice."),
            Event(f"Everyone starts with {crystals(DATA['starting_crystals'])} and holds 3 "
                  "mint tin cards, face down: instead of drawing, a player may sell them "
                  "('sell'), and each other player may buy one, unseen, for 1 crystal "
                  "('buy' or 'no buy'), to play later (crystals, an extra meeple, bomb or "
                  "square card, a turn lost for a rival ('skip') or a rival's dice roll "
                  "stopped ('stop')). The first to "
                  f"{components.TO_WIN} crystals wins.")]

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
                           f"{player(state.winner)} reached {components.TO_WIN} crystals first.",
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
        return worth(state, seat, self.weights) - max(
            worth(state, s, self.weights) for s in range(state.players) if s != seat)

    def remark(self, public: dict[str, Any], seat: int, move: str, chance: float | None
               ) -> str | None:
        """Why a computer sold, attacked, challenged or skipped the dice, from the table."""
        verb = move.split()[0]
        odds = f" (it rates its chances {round(100 * chance)}%)" if chance is not None else ""
        if verb == "sell":
            return (f"{player(seat)} would rather sell than draw: a crystal for each card "
                    "bought, for no square card this turn.")
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
        return plain_play(state, seat, moves, rng, attack_at)
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
            "filled": filled(state, c),
        } for c in laid_cards(state)]
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
            "crystals": list(state.crystals), "bank": state.bank, "to_win": components.TO_WIN,
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
        spots = spots_for(state, card_code(0, LARGEST))
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
