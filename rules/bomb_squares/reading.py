"""Reading what a member typed: parsing (several steps in one text), refusals with their
reasons, and the notation hint.
"""

from __future__ import annotations

import re

from rules.bomb_squares.dice import attackers
from rules.bomb_squares.moves import Moves
from rules.bomb_squares.notation import (
    ALIASES,
    ANSWERS,
    ENDS,
    FILLERS,
    FORMS,
    LEADS,
    MOST_STEPS,
    REVEALS,
    STEPS,
    VERBS,
)
from rules.bomb_squares.state import (
    CELL_RE,
    CELLS,
    COLOURS,
    COST,
    DICE,
    INDEX,
    KINDS,
    MEEPLES,
    OPPOSITE,
    REACTIVE,
    SIZE,
    BombState,
    bomb_of,
    crystals,
    distances,
    free,
    spots_for,
)
from rules.core import IllegalMove, InvalidMove, clone, listing, out_of_step, quote


def shape(words: list[str]) -> list[str]:
    """Words with every place and number made alike, to compare a text with an example."""
    return ["#" if CELL_RE.match(w) or w.isdigit() else w for w in words]


class Reading(Moves):
    """Reading text into a move (``Game.parse``), refusing with a reason (``Game.refuse``),
    and the notation hint."""

    def parse(self, state: BombState, seat: int, text: str) -> str:
        words = [w for w in text.split() if w not in FILLERS]
        steps = self._segments(state, words) if words else None
        if steps is None:  # the hint lists the legal moves: worked out only when needed
            hint = self.notation_hint(state, seat)
            if len(words) == 1 and CELL_RE.match(words[0]):
                raise InvalidMove(f"Say what to do on {words[0]}. {hint}")
            verb = ALIASES.get(words[0], words[0]) if words else ""
            strange = [w for w in words[1:] if re.fullmatch(r"[a-z]\d+", w)
                       and not CELL_RE.match(w)]
            if strange:
                raise InvalidMove(f"There is no place {quote(strange[0])} on the table: "
                                  f"places run {CELLS[0]} to {CELLS[-1]}. {hint}")
            if verb == "reroll" and "green" in words:
                raise InvalidMove(f"The green die is never rerolled. {hint}")
            if verb in FORMS:  # a step's word, the rest of it wrong or left out
                self._refuse_form(state, seat, verb, words, hint)
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
        if cell >= 0 and not state.sections[cell] and verb != "place" and verb in {
                m.split()[0] for m in self.moves(state, seat)}:  # a word of this step
            return IllegalMove(f"There is no card on {words[-1]}. {hint}")
        if verb == "bet" and state.phase == "bets":
            n = int(words[1])
            if not 1 <= n <= 6:
                return IllegalMove("A bet is a guess of the green die, 1 to 6.")
            return IllegalMove(f"You may bet no more than the crystals you hold ({cash}).")
        if verb == "place" and state.phase in ("place", "start") and state.held[seat] >= 0:
            spots = spots_for(state, state.held[seat])
            if state.sections[cell]:
                return IllegalMove(f"{words[1]} already holds a card.")
            if cell not in spots:
                return IllegalMove(f"{words[1]} is not next to a card.")
            return IllegalMove(f"Placing there costs {spots[cell]} crystals (1 for each "
                               f"neighbour with fewer sections); you hold {cash}.")
        if verb == "bomb" and state.phase == "bomb" and cell >= 0:
            return IllegalMove((f"{words[1]} carries a token, which stands for its bomb"
                                if state.token[cell] else f"{words[1]} already carries a bomb")
                               + ": the bomb you drew goes on a card without one. " + hint)
        if verb == "meeple" and state.phase == "meeple" and cell >= 0:
            return IllegalMove(self._meeple_place_refusal(state, cell) + " " + hint)
        if state.phase == "switch" and verb == "switch" and state.source >= 0:
            return IllegalMove(f"You are switching the bomb on {CELLS[state.source]}: say what "
                               f"with ('with f6' or 'with bag'). {hint}")
        if state.phase == "switch" and verb == "with" and state.source < 0:
            return IllegalMove(f"Choose first the bomb to switch ('switch e5'). {hint}")
        if state.phase in ("landmine", "tower", "tokens", "switch") and cell >= 0 and (
                verb == {"tokens": "token"}.get(state.phase, state.phase)
                or (state.phase == "switch" and verb == "with")):
            return IllegalMove(f"{self._laying_refusal(state, verb, cell)} {hint}")
        if verb == "sell" and state.phase == "start" and not self._buyers(state, seat):
            return IllegalMove("Nobody can buy from you now (a buyer needs a crystal and "
                               "fewer than 2 bought cards, and you need cards for sale), so "
                               f"there is no sale this turn. {hint}")
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
        return out_of_step(move, self._step_now(state, seat), hint)

    def _step_now(self, state: BombState, seat: int) -> str:
        """The step the game is at, as a refusal of another step's move names it; after a
        roll with a target in reach, that the attack comes first (no meeple move then)."""
        if state.phase == "rolled" and any(m.startswith("attack ")
                                           for m in self.moves(state, seat)):
            return ("your turn is after the roll, with a target in reach: an attack in reach "
                    "must be made (a do-over may come first)")
        return STEPS.get(state.phase, "it is another step of the game")

    def _refuse_form(self, state: BombState, seat: int, verb: str, words: list[str],
                     hint: str) -> None:
        """Raise the refusal of a text that names a step's word (``FORMS``) but reads as no
        move: a word of no step now names the step the game is at; the start of one of the
        step's examples says how it is written. Returns where neither applies."""
        firsts = {m.split()[0] for m in self.moves(state, seat)}
        if verb == "attack" and state.phase == "rolled" and "attack" not in firsts:
            raise IllegalMove(f"No target is in reach of the blue die, so there is no attack "
                              f"this turn. {hint}")
        if verb not in firsts:
            raise out_of_step(" ".join(words), self._step_now(state, seat), hint)
        if any(len(words) < len(shown) and shape(words) == shape(shown)[:len(words)]
               for shown in (e.split() for e in re.findall(r"'([^']+)'", FORMS[verb]))):
            raise InvalidMove(f"Write {quote(verb)} {FORMS[verb]}. {hint}")

    @staticmethod
    def _laying_refusal(state: BombState, verb: str, cell: int) -> str:
        """Why what was bought, won or chosen may not go on ``cell`` (a card is there)."""
        where = CELLS[cell]
        if verb == "landmine":
            return (f"A landmine goes on a card with a free section, no landmine and no "
                    f"lookout tower, and {where} has " + (
                        "a landmine" if state.mine[cell] else "a lookout tower"
                        if state.tower[cell] else "no free section") + ".")
        if verb == "tower":
            return (f"A lookout tower stands on a card's bomb, one a card and none on a "
                    f"token card, and {where} " + (
                        "has a tower already" if state.tower[cell] else "is a token card"
                        if state.token[cell] else "has no bomb") + ".")
        if verb == "token":
            return (f"A token goes on an empty card (no meeple, bomb, landmine or token) of "
                    f"a colour still to lay, and {where} is not one.")
        if verb == "switch":
            return (f"The bomb switched is one of your choice on a card, and {where} has no "
                    "bomb of its own (a token card keeps its token).")
        rule = ("a switch takes a bomb of another colour from another card, or one from "
                "the bag ('with bag').")
        if cell == state.source:
            return f"{where} holds the bomb you are switching: {rule}"
        if state.bomb[cell] >= 0 and not state.token[cell]:
            return f"The bomb on {where} is {COLOURS[state.bomb[cell]]} like yours: {rule}"
        return f"{where} has no bomb to switch with: {rule}"

    @staticmethod
    def _meeple_place_refusal(state: BombState, cell: int) -> str:
        """Why the meeple drawn may not go on ``cell``."""
        where = CELLS[cell]
        if state.token[cell]:
            return f"{where} carries a token: a token card takes no meeple."
        if free(state, cell) <= 0:
            return f"{where} is full: " + ("a landmine blocks one section and meeples "
                                           "fill the rest." if state.mine[cell] else
                                           "a meeple in every section.")
        return (f"{where} holds {MEEPLES[state.meeple_colour[cell]]} meeples, and a card takes "
                f"meeples of one colour only: your {MEEPLES[state.pending]} meeple goes on a "
                "card with no meeple yet or one whose meeples are its colour.")

    def _attack_refusal(self, state: BombState, seat: int, target: int, source: int) -> str:
        """Why an attack after the roll is not one the dice allow."""
        blue = state.dice[1]
        if not blue:
            return "Only the yellow die was rolled, so there is no attack this turn."
        if source not in attackers(state):
            return (f"The card on {CELLS[source]} cannot attack: only a card filled with "
                    "meeples and carrying a bomb (or a token) attacks.")
        mine = bomb_of(state, source)
        if bomb_of(state, target) != OPPOSITE[mine]:
            return (f"The card on {CELLS[target]} carries no {COLOURS[OPPOSITE[mine]]} bomb, "
                    f"the opposite of the {COLOURS[mine]} bomb on {CELLS[source]}.")
        far = distances(state, source, SIZE * SIZE).get(target)
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
                "(the yellow die) that takes their colour (no meeple yet, or meeples of "
                "their colour) and has a free section.")

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
        said = str(self.refuse(after, seat, rest))  # 'After ...' again: one prefix
        return IllegalMove(f"After {quote(first)} and {said.removeprefix('After ')}"
                           if said.startswith("After ") else f"After {quote(first)}: {said}")

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
        if free(state, cell) != 1:
            return (f"An extra meeple is bought only when it fills the card, and "
                    f"{CELLS[cell]} has {free(state, cell)} free sections.")
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
            shown = next((m for m in found if m not in costs), found[0])  # a free one first
            extra = [f"1 of {len(found)}"] if len(found) > 1 else []
            extra += [costs[shown]] if shown in costs else []
            return f"'{shown}'" + (f" ({'; '.join(extra)})" if extra else "")

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
