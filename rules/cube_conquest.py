"""Cube Conquest: cubes spread over a 5x5 field of face-down tiles, fighting with cards.

2-4 players, no chance after the deal except card draws; hidden hands, hidden deck order,
face-down tiles, and attack cards chosen in secret by two players at once.
Every rule and every decision taken where the seed is silent: ``cube-conquest.md``.

Read top to bottom: components, state, setup, the turn (draw, then one action), the
attack, the end, then the contract methods (moves, parsing, views).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import Any

from rules.core import (
    Event,
    Game,
    GameError,
    IllegalMove,
    InvalidMove,
    Outcome,
    State,
    Term,
    Thinking,
    counted,
    left_out,
    listing,
    load_data,
    not_known,
    out_of_step,
    quote,
    starts,
)

# --------------------------------------------------------------------------- components

DATA = load_data("cube-conquest")
SYMBOLS: list[str] = [s["name"] for s in DATA["symbols"]]
PIPS: list[int] = [s["pips"] for s in DATA["symbols"]]
SIZE: int = DATA["board_size"]
HAND_SIZE: int = DATA["hand_size"]
CUBES: int = DATA["cubes_per_player"]
STARTING_CUBES: int = DATA["starting_cubes"]
POINTS_TO_WIN: int = DATA["points_to_win"]
# Turns each player may take before the game ends on points (then cubes on the board): the
# seed has no limit, and two sides that only move and prepare would play for ever. Games
# between computers last 30-55 turns each; people rarely attack less.
TURN_LIMIT: int = DATA["turn_limit"]
COLOURS: list[str] = DATA["colours"]
EDGES: list[str] = DATA["edges"]
DECKS_IN_BOX: int = DATA["decks_in_box"]

FILES = "abcdefghij"[:SIZE]
SQUARES = [f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE)]
INDEX = {name: i for i, name in enumerate(SQUARES)}


def _neighbours(i: int) -> list[int]:
    """Orthogonal neighbours, in the order a route prefers them: up, down, right, left."""
    row, col = divmod(i, SIZE)
    out = []
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            out.append(r * SIZE + c)
    return out


NEIGHBOURS = [_neighbours(i) for i in range(SIZE * SIZE)]
EDGE_SQUARES = {
    "south": [i for i in range(SIZE * SIZE) if i // SIZE == 0],
    "north": [i for i in range(SIZE * SIZE) if i // SIZE == SIZE - 1],
    "west": [i for i in range(SIZE * SIZE) if i % SIZE == 0],
    "east": [i for i in range(SIZE * SIZE) if i % SIZE == SIZE - 1],
}
EDGE_WORDS = {"south": "row 1", "north": f"row {SIZE}", "west": "column a",
              "east": f"column {FILES[-1]}"}

# Words a player may type for a card: its name, singular or plural, or its pips.
CARD_WORDS: dict[str, int] = {}
for _n, _name in enumerate(SYMBOLS):
    for _word in (_name, _name.rstrip("s"), _name.rstrip("s") + "s", str(PIPS[_n])):
        CARD_WORDS[_word] = _n

SQUARE_RE = re.compile(rf"^[{FILES}][1-{SIZE}]$")


def card(n: int) -> str:
    """A card as players say it: 'crown (5)'."""
    return f"{SYMBOLS[n]} ({PIPS[n]})"


def a_or_an(n: int) -> str:
    """A symbol with its article, to name a tile or a card: 'a crown', 'an arrow'."""
    return f"{'an' if SYMBOLS[n][0] in 'aeiou' else 'a'} {SYMBOLS[n]}"


def colour(seat: int) -> str:
    return COLOURS[seat].capitalize()


# --------------------------------------------------------------------------- state


@dataclass
class CubeState(State):
    """Everything about one game. Squares are indexed 0..24 from a1 along each row."""

    start: int  # the random start player
    turn: int  # whose turn it is (in setup: who places next)
    phase: str  # "setup", "action", "attack", "choose" (outpost defender) or "over"
    tiles: list[int]  # symbol index of the tile on each square
    face_up: list[bool]
    owner: list[int]  # seat with cubes on the square, or -1
    height: list[int]  # cubes on the square: 0, 1, or 2 (an Outpost)
    decks: list[list[int]]  # draw piles (top is the end); one per seat, or one shared
    discards: list[list[int]]  # one face-up discard pile per seat
    hands: list[list[int]]  # sorted symbol indices
    points: list[int]
    supply: list[int]  # cubes each seat has not yet put on the board
    placed: int  # setup: cubes placed so far
    attack: dict[str, Any] | None  # the attack being fought, see ``_declare_attack``
    last: list[int]  # squares the last action touched, for the picture
    last_action: dict[str, Any] | None  # who did it and what: {"seat", "kind"}
    result: str | None  # why the game ended
    turns: int = 0  # actions taken since setup, by every player (the end at the turn limit)
    # cards each seat is known by everyone to hold: taken back by Prepare, not shown since
    shown: list[list[int]] = field(default_factory=list)


def _shared_deck(state: CubeState) -> bool:
    """The box holds three 18-card decks: one each for up to 3 players; 4 share all 54."""
    return state.players > DECKS_IN_BOX


def _deck_of(state: CubeState, seat: int) -> int:
    return 0 if _shared_deck(state) else seat


def _forget(state: CubeState, seat: int, symbol: int) -> None:
    """``seat`` has shown ``symbol`` leaving its hand: if everyone knew it held one, they
    know one fewer."""
    if len(state.shown) > seat and symbol in state.shown[seat]:
        state.shown[seat].remove(symbol)


def _cubes_on_board(state: CubeState, seat: int) -> int:
    return sum(h for o, h in zip(state.owner, state.height, strict=True) if o == seat)


# --------------------------------------------------------------------------- setup


def _deal(players: int, seed: int) -> CubeState:
    state = CubeState(
        players=players, seed=seed, draws=0, start=0, turn=0, phase="setup",
        tiles=[], face_up=[False] * SIZE * SIZE, owner=[-1] * SIZE * SIZE,
        height=[0] * SIZE * SIZE, decks=[], discards=[[] for _ in range(players)],
        hands=[[] for _ in range(players)], points=[0] * players,
        supply=[CUBES] * players, placed=0, attack=None, last=[], last_action=None,
        result=None,
    )
    box = [n for n in range(len(SYMBOLS)) for _ in range(DATA["tiles_per_symbol"])]
    state.rng().shuffle(box)
    state.tiles = box[: SIZE * SIZE]
    per_deck = [n for n in range(len(SYMBOLS)) for _ in range(DATA["cards_per_symbol_per_deck"])]
    decks = [per_deck * DECKS_IN_BOX] if players > DECKS_IN_BOX else [per_deck] * players
    state.decks = []
    for deck in decks:
        pile = list(deck)
        state.rng().shuffle(pile)
        state.decks.append(pile)
    state.start = state.rng().randrange(players)
    state.turn = state.start
    return state


def _mark(state: CubeState, seat: int, kind: str, squares: list[int]) -> None:
    """Remember the last action for the picture: who, what, and the squares it touched."""
    state.last = squares
    state.last_action = {"seat": seat, "kind": kind}


def _placer(state: CubeState) -> int:
    return (state.start + state.placed // STARTING_CUBES) % state.players


def _reveal(state: CubeState, squares: list[int], events: list[Event]) -> None:
    """Turn face-down tiles up, in one sentence with what a tile's symbol does from now on:
    'b2 is revealed: a crown tile (crown cards reinforce there and defend it at +1).'"""
    turned = [i for i in dict.fromkeys(squares) if not state.face_up[i]]  # once each
    for i in turned:
        state.face_up[i] = True
    if not turned:
        return
    first = turned[0]
    what = (f"{SQUARES[first]} is revealed: {a_or_an(state.tiles[first])} tile "
            f"({SYMBOLS[state.tiles[first]]} cards reinforce there and defend it at +1)."
            if len(turned) == 1 else "Revealed: " + listing(
                [f"{SQUARES[i]} {SYMBOLS[state.tiles[i]]}" for i in turned])
            + " (a tile's own cards reinforce there and defend it at +1).")
    events.append(Event(what, kind="reveal", data={
        "squares": [SQUARES[i] for i in turned],
        "symbols": [SYMBOLS[state.tiles[i]] for i in turned]}))


def _place(state: CubeState, seat: int, square: int) -> list[Event]:
    events = [Event(f"{colour(seat)} places a cube on {SQUARES[square]}.", kind="place",
                    data={"seat": seat, "square": SQUARES[square]})]
    state.owner[square], state.height[square] = seat, 1
    state.supply[seat] -= 1
    _mark(state, seat, "place", [square])
    _reveal(state, [square], events)
    state.placed += 1
    if state.placed < STARTING_CUBES * state.players:
        state.turn = _placer(state)
    else:
        # Everyone draws an opening hand now, in turn order, so that nobody is attacked
        # holding no card just because their first turn has not come yet.
        state.turn = state.start
        state.phase = "action"
        for n in range(state.players):
            _draw(state, (state.start + n) % state.players, events)
    return events


# --------------------------------------------------------------------------- the turn


def _draw(state: CubeState, seat: int, events: list[Event]) -> None:
    """Step 1 of a turn: draw until 4 cards in hand, reshuffling the discard pile when
    needed. Also each player's opening hand, at the end of setup."""
    deck = state.decks[_deck_of(state, seat)]
    drawn: list[int] = []
    while len(state.hands[seat]) + len(drawn) < HAND_SIZE:
        if not deck:
            piles = state.discards if _shared_deck(state) else [state.discards[seat]]
            if not any(piles):
                break  # every card is in someone's hand: play on with fewer
            for pile in piles:
                deck.extend(pile)
                pile.clear()
            state.rng().shuffle(deck)
            whose = "all discard piles" if _shared_deck(state) else "their discard pile"
            events.append(Event(f"{colour(seat)} shuffles {whose} into a new deck.",
                                kind="reshuffle", data={"seat": seat}))
        drawn.append(deck.pop())
    state.hands[seat] = sorted(state.hands[seat] + drawn)
    if drawn:
        events.append(Event(f"{colour(seat)} draws {len(drawn)} card"
                            f"{'s' if len(drawn) != 1 else ''}.", kind="draw",
                            data={"seat": seat, "count": len(drawn)}))
        events.append(Event(f"You draw {listing([card(c) for c in sorted(drawn)])}.",
                            to=frozenset({seat}), kind="draw",
                            data={"cards": [SYMBOLS[c] for c in sorted(drawn)]}))


def _discard(state: CubeState, seat: int, symbol: int) -> None:
    state.hands[seat].remove(symbol)
    _forget(state, seat, symbol)
    state.discards[seat].append(symbol)


def _frozen(state: CubeState) -> bool:
    """No cube can ever move or attack again: every cube on the board is in an Outpost and
    nobody can add a single cube (no cubes left, or no revealed empty tile next to theirs).
    The seed does not foresee this; without it such a game would never end."""
    if any(h == 1 for h in state.height):
        return False
    for seat in range(state.players):
        if state.supply[seat] and any(
                state.owner[j] == -1 and state.face_up[j]
                for i in range(SIZE * SIZE) if state.owner[i] == seat for j in NEIGHBOURS[i]):
            return False
    return True


def _end_turn(state: CubeState, events: list[Event]) -> None:
    """After an action: check the end conditions, else pass the turn on."""
    state.turns += 1
    leader = max(range(state.players), key=lambda s: state.points[s])
    wiped = [s for s in range(state.players) if _cubes_on_board(state, s) == 0]
    if state.points[leader] >= POINTS_TO_WIN:
        state.result = f"{colour(leader)} reached {POINTS_TO_WIN} points."
    elif wiped:
        state.result = (f"{listing([colour(s) for s in wiped])} "
                        f"{'has' if len(wiped) == 1 else 'have'} no cubes left on the board.")
    elif _frozen(state):
        state.result = "Every cube left is in an Outpost and none can be added: no cube can " \
                       "move or attack any more."
    elif state.turns >= TURN_LIMIT * state.players:
        state.result = f"Every player has taken {TURN_LIMIT} turns, the turn limit."
    if state.result:
        state.phase = "over"
        events.append(Event(f"The game ends: {state.result}", kind="end"))
        return
    state.phase = "action"
    state.turn = (state.turn + 1) % state.players
    _draw(state, state.turn, events)


def _route(state: CubeState, seat: int, start: int, limit: int = SIZE * SIZE
           ) -> tuple[list[int], list[int]]:
    """Shortest distances from ``start`` (up to ``limit``; farther squares count as out of
    reach) and each square's previous step on its route.

    A cube may pass its own cubes but never a square with enemy cubes. Among routes of
    equal length it takes the one found first, preferring up/down over right/left.
    """
    far = SIZE * SIZE
    dist, parent = [far] * (SIZE * SIZE), [-1] * (SIZE * SIZE)
    dist[start] = 0
    owner, frontier, steps = state.owner, [start], 0
    while frontier and steps < limit:  # breadth first, one distance at a time
        steps += 1
        reached = []
        for i in frontier:
            for j in NEIGHBOURS[i]:
                if dist[j] == far and (owner[j] == -1 or owner[j] == seat):
                    dist[j], parent[j] = steps, i
                    reached.append(j)
        frontier = reached
    return dist, parent


def _path(parent: list[int], start: int, end: int) -> list[int]:
    path = [end]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


REACH = max(PIPS)  # no card moves farther
# A possible route: its length, end, via square (None: the shortest), start, tiles revealed.
Candidate = tuple[int, int, int | None, int, frozenset[int]]


class _Routes:
    """Routes for one seat's cubes in one position, worked out as they are asked for."""

    def __init__(self, state: CubeState, seat: int, limit: int = REACH) -> None:
        self.state, self.seat, self.limit = state, seat, limit
        self.trees: dict[int, tuple[list[int], list[int]]] = {}
        self.turned: dict[int, list[frozenset[int]]] = {}
        self.routes: dict[tuple[int, int | None, int], list[int]] = {}
        self.hidden = not all(state.face_up)

    def tree(self, square: int) -> tuple[list[int], list[int]]:
        if square not in self.trees:
            self.trees[square] = _route(self.state, self.seat, square, self.limit)
        return self.trees[square]

    def via(self, start: int, via: int, end: int) -> list[int] | None:
        """From ``start`` by way of ``via`` to ``end``: the shortest route to ``via``, then
        the shortest on to ``end`` (it may double back). None if out of a card's reach."""
        far = SIZE * SIZE
        if self.state.owner[via] not in (-1, self.seat) or self.tree(start)[0][via] == far \
                or self.tree(via)[0][end] == far:
            return None
        return _path(self.tree(start)[1], start, via) + _path(self.tree(via)[1], via, end)[1:]

    def revealed(self, path: list[int]) -> frozenset[int]:
        return frozenset(i for i in path[1:] if not self.state.face_up[i])

    def turns_over(self, square: int) -> list[frozenset[int]]:
        """The face-down tiles the shortest route from ``square`` to each square turns over
        (worked out along the tree, each from the one before it)."""
        if square not in self.turned:
            dist, parent = self.tree(square)
            far, up = SIZE * SIZE, self.state.face_up
            out = [frozenset[int]()] * (SIZE * SIZE)
            for j in sorted((j for j in range(SIZE * SIZE) if 0 < dist[j] < far),
                            key=dist.__getitem__):
                out[j] = out[parent[j]] if up[j] else out[parent[j]] | {j}
            self.turned[square] = out
        return self.turned[square]

    def route(self, start: int, via: int | None, end: int) -> list[int]:
        """The squares of a candidate route (``via`` None: the shortest)."""
        key = (start, via, end)
        if key not in self.routes:
            path = _path(self.tree(start)[1], start, end) if via is None else \
                self.via(start, via, end)
            assert path is not None
            self.routes[key] = path
        return self.routes[key]

    def candidates(self, start: int) -> list[Candidate]:
        """Every route a card could give the cube on ``start``, in the order that decides
        which name a route is listed under: the shortest route to each square first, then
        the routes by way of each square in board order (a1, b1, ... e5)."""
        state = self.state
        dist = self.tree(start)[0]
        ends = [j for j in range(SIZE * SIZE) if 0 < dist[j] <= REACH and state.owner[j] == -1]
        turned = self.turns_over(start)
        out: list[Candidate] = [(dist[j], j, None, start, turned[j]) for j in ends]
        if not self.hidden:
            return out  # every tile is face up: all routes to a square are alike
        for via in range(SIZE * SIZE):
            if via == start or not dist[via] < REACH or state.owner[via] not in (-1, self.seat):
                continue
            onward = self.tree(via)[0]
            seen, further = turned[via], self.turns_over(via)
            for j in ends:
                if j != via and dist[via] + onward[j] <= REACH:
                    out.append((dist[via] + onward[j], j, via, start, seen | further[j]))
        return out


def _routes(candidates: list[Candidate], pips: int
            ) -> dict[tuple[int, frozenset[int]], tuple[int | None, int]]:
    """The moves worth telling apart with a card of ``pips``: (end, face-down tiles
    revealed) -> (via square or None, start); ``_Routes.route`` gives the squares.

    A route matters only by where it ends and which tiles it turns over, so each such pair
    is listed once: by the shortest route when that one does it (no ``via``), else by the
    first square in board order whose ``via`` route does it within the pips.
    """
    out: dict[tuple[int, frozenset[int]], tuple[int | None, int]] = {}
    for length, end, via, start, revealed in candidates:
        if length <= pips:
            out.setdefault((end, revealed), (via, start))
    return out


def _move(state: CubeState, seat: int, symbol: int, path: list[int]) -> list[Event]:
    start, end = path[0], path[-1]
    _discard(state, seat, symbol)
    state.owner[start], state.height[start] = -1, 0
    state.owner[end], state.height[end] = seat, 1
    _mark(state, seat, "move", path)
    steps = len(path) - 1
    events = [Event(f"{colour(seat)} plays {card(symbol)} and moves {SQUARES[start]} to "
                    f"{SQUARES[end]} (by {'-'.join(SQUARES[i] for i in path)}: {steps} "
                    f"space{'s' if steps != 1 else ''} of up to {PIPS[symbol]}).", kind="move",
                    data={"seat": seat, "path": [SQUARES[i] for i in path]})]
    _reveal(state, path[1:], events)
    return events


def _prepare(state: CubeState, seat: int, spent: tuple[int, int], taken: int) -> list[Event]:
    for symbol in spent:
        _discard(state, seat, symbol)
    state.discards[seat].remove(taken)
    state.hands[seat] = sorted(state.hands[seat] + [taken])
    if len(state.shown) < state.players:  # a game stored before cards were remembered
        state.shown = [[] for _ in range(state.players)]
    state.shown[seat].append(taken)
    _mark(state, seat, "prepare", [])
    return [Event(f"{colour(seat)} prepares: discards {card(spent[0])} and {card(spent[1])}, "
                  f"takes {card(taken)} back from their discard pile.", kind="prepare",
                  data={"seat": seat})]


def _reinforce(state: CubeState, seat: int, symbol: int, square: int) -> list[Event]:
    """A cube from the supply onto a matching tile: an empty one beside the seat's cubes,
    or under one of its single cubes (an Outpost)."""
    _discard(state, seat, symbol)
    outpost = state.owner[square] == seat
    beside = next((j for j in NEIGHBOURS[square] if state.owner[j] == seat), square)
    state.owner[square] = seat
    state.height[square] += 1
    state.supply[seat] -= 1
    _mark(state, seat, "outpost" if outpost else "reinforce", [square])
    where = SQUARES[square]
    what = (f"stacks a second cube on their cube on {where}: an Outpost, which can no longer "
            "move or attack and defends at +1" if outpost else
            f"adds a cube from their supply on {where}, next to {SQUARES[beside]}")
    left = state.supply[seat]
    return [Event(f"{colour(seat)} plays {card(symbol)} on the {SYMBOLS[symbol]} tile and "
                  f"{what}. {left} cube{'s' if left != 1 else ''} left in their supply.",
                  kind="reinforce", data={"seat": seat, "square": where})]


# --------------------------------------------------------------------------- the attack


def _declare_attack(state: CubeState, seat: int, source: int, target: int) -> list[Event]:
    """Both sides now choose in secret: an Outpost's defender one card or two."""
    defender = state.owner[target]
    state.attack = {
        "attacker": seat, "defender": defender, "from": source, "to": target,
        "outpost": state.height[target] == 2,
        "attacker_card": None,
        "defender_cards": None if state.hands[defender] else [],
    }
    state.phase = "attack"
    _mark(state, seat, "attack", [source, target])
    whose = (f"{colour(defender)}'s Outpost on {SQUARES[target]}, which may defend with one "
             "card or two" if state.attack["outpost"]
             else f"{colour(defender)}'s cube on {SQUARES[target]}")
    events = [Event(f"{colour(seat)} attacks from {SQUARES[source]}: {whose}. Both choose a "
                    "card in secret.", kind="attack", data={"seat": seat, "defender": defender})]
    if not state.hands[defender]:
        events.append(Event(f"{colour(defender)} has no card and defends with 0.",
                            kind="attack", data={"seat": defender}))
    return events + _pick_prompts(state)


def _pick_prompts(state: CubeState) -> list[Event]:
    """Each side of a fight holding cards is told, in private, that it now picks one (an
    Outpost's defender one or two), from which cards, and who wins ties and which bonuses
    the defence adds: the attacker as the defender (issue 38). A ``prompt``: it names only
    the seat's own cards, so the attack can still be taken back."""
    attack = state.attack
    assert attack is not None
    attacker, defender, target = attack["attacker"], attack["defender"], attack["to"]
    outpost = " and +1 for the Outpost" * attack["outpost"]
    out = []
    for seat in (attacker, defender):
        hand = state.hands[seat]
        if not hand:
            continue
        choices = (f"{listing([card(c) for c in sorted(set(hand))], 'or')} "
                   f"('pick {SYMBOLS[hand[-1]]}')")
        where, bonus = SQUARES[target], f"{a_or_an(state.tiles[target])} card{outpost}"
        if seat == attacker:
            what = (f"You now pick your card for the attack on {where} in secret: {choices}. "
                    f"Ties go to you; {colour(defender)} adds +1 with {bonus}.")
        else:
            two = (f"; or two for your Outpost ('pick {SYMBOLS[hand[0]]} {SYMBOLS[hand[-1]]}'), "
                   "then choose which to use once the attack is shown"
                   ) * (_defender_cards_most(state) == 2)
            what = (f"You now pick your card to defend {where} in secret: {choices}{two}. Ties "
                    f"go to {colour(attacker)}; you add +1 with {bonus}.")
        out.append(Event(what, to=frozenset({seat}), kind="prompt"))
    return out


def _defender_cards_most(state: CubeState) -> int:
    """How many cards the defender may place: 2 for an Outpost ("is allowed to place 2
    cards"), else 1; never more than they hold."""
    attack = state.attack
    assert attack is not None
    return min(2 if attack["outpost"] else 1, len(state.hands[attack["defender"]]))


def _pick(state: CubeState, seat: int, cards: tuple[int, ...]) -> list[Event]:
    attack = state.attack
    assert attack is not None
    for symbol in cards:
        state.hands[seat].remove(symbol)
    if seat == attack["attacker"]:
        attack["attacker_card"] = cards[0]
    else:
        attack["defender_cards"] = list(cards)
    events = [Event(f"{colour(seat)} has chosen.", kind="secret", data={"seat": seat}),
              Event(f"You chose {listing([card(c) for c in cards])}.", to=frozenset({seat}),
                    kind="secret")]
    if attack["attacker_card"] is None or attack["defender_cards"] is None:
        return events
    _forget(state, attack["attacker"], attack["attacker_card"])  # shown to all now
    if len(attack["defender_cards"]) == 2:
        state.phase = "choose"
        events.append(Event(f"{colour(attack['attacker'])} reveals "
                            f"{card(attack['attacker_card'])}. {colour(attack['defender'])} "
                            "now chooses which of their two cards to use.", kind="reveal"))
        return events
    used = attack["defender_cards"][0] if attack["defender_cards"] else None
    return events + _resolve(state, used)


def _resolve(state: CubeState, used: int | None) -> list[Event]:
    """Compare pips: the attacker wins ties; the defender adds +1 for a suit matching the
    attacked tile and +1 for an Outpost (both may apply). The loser's cube (an Outpost: both
    cubes) goes back to its supply, and the winner scores 1 point. One sentence for the
    cards shown and who won why, one for what was lost and scored."""
    attack = state.attack
    assert attack is not None
    attacker, defender = attack["attacker"], attack["defender"]
    source, target = attack["from"], attack["to"]
    attack_value = PIPS[attack["attacker_card"]]
    defence = 0 if used is None else PIPS[used]
    if used is not None:
        _forget(state, defender, used)
    bonuses = []
    tile = state.tiles[target]
    if used is not None and used == tile:
        defence += 1
        bonuses.append(f"+1 suit ({SYMBOLS[tile]} on {a_or_an(tile)} tile)")
    if attack["outpost"]:
        defence += 1
        bonuses.append("+1 Outpost")
    state.discards[attacker].append(attack["attacker_card"])
    state.discards[defender].extend(attack["defender_cards"])
    shown = card(used) if used is not None else "no card"
    if attack_value >= defence:
        lost, winner, loser = target, attacker, defender
        why = ("a tie goes to the attacker" if attack_value == defence
               else f"{attack_value} beats {defence}")
    else:
        lost, winner, loser = source, defender, attacker
        why = f"{defence} beats {attack_value}"
    fight = (f"{colour(attacker)} attacks with {card(attack['attacker_card'])} = "
             f"{attack_value} against {colour(defender)}, who defends with {shown}"
             f"{' ' + ' '.join(bonuses) if bonuses else ''} = {defence}. {why.capitalize()}: "
             f"{colour(winner)} wins the fight.")
    outpost = state.height[lost] == 2
    state.supply[loser] += state.height[lost]
    state.owner[lost], state.height[lost] = -1, 0
    state.points[winner] += 1
    state.attack = None
    assert state.last_action is not None
    state.last_action["destroyed"] = SQUARES[lost]
    gone = (f"{colour(loser)}'s Outpost on {SQUARES[lost]} is destroyed: both cubes go back "
            f"to {colour(loser)}'s supply" if outpost else f"{colour(loser)}'s cube on "
            f"{SQUARES[lost]} is destroyed and goes back to {colour(loser)}'s supply")
    total = state.points[winner]
    events = [Event(fight, kind="combat", data={"winner": winner, "loser": loser,
                                                 "attack": attack_value, "defence": defence}),
              Event(f"{gone}; {colour(winner)} scores 1 point for the fight won ({total} "
                    f"point{'s' if total != 1 else ''} now).", kind="score",
                    data={"winner": winner, "loser": loser, "square": SQUARES[lost]})]
    _end_turn(state, events)
    return events


# ------------------------------------------------------------------------- the computer's knowledge
# What the computer players of rules/computer.py read about this game: ``evaluate`` (its
# weights in data/weights/cube-conquest.json), the default policy of the search's playouts
# and the remark on a notable choice. All of it reads a world the computer sampled (or,
# for the remark, the spectators' view), never the table's hidden cards.

# ``evaluate``'s weights when data/weights/cube-conquest.json lacks one
WEIGHTS = {"points": 2.0, "cubes": 1.0, "immobile": 1.5, "arrow": 1.0, "crown": 0.3,
           "arrow_in_pile": 0.3, "strike": 0.7, "threat": 0.8, "wipe": 3.0}


def _defence(state: CubeState, target: int, cards: list[int]) -> int:
    """The best the defender of ``target`` can put up with ``cards``: pips, +1 for a card of
    the tile's suit, +1 for an Outpost."""
    tile = state.tiles[target]
    best = max((PIPS[c] + (c == tile) for c in cards), default=0)
    return best + (state.height[target] == 2)


def _strikes(state: CubeState, seat: int) -> list[tuple[int, int, int]]:
    """Every attack of ``seat`` its best card wins whatever the defender holds (ties go to
    the attacker): (cubes destroyed, source, target), the most cubes first."""
    hand = state.hands[seat]
    if not hand:
        return []
    best = max(PIPS[c] for c in hand)
    out = []
    for i in range(SIZE * SIZE):
        if state.owner[i] != seat or state.height[i] != 1:
            continue
        for j in NEIGHBOURS[i]:
            enemy = state.owner[j]
            if enemy not in (-1, seat) and best >= _defence(state, j, state.hands[enemy]):
                out.append((state.height[j], i, j))
    return sorted(out, reverse=True)


def _strike_value(state: CubeState, seat: int, weights: dict[str, float],
                  against: int | None = None) -> float:
    """What ``seat``'s best sure attack would gain (a point and the cubes destroyed, and
    the end of the game when they are the defender's last); ``against``: only attacks on
    that seat's cubes."""
    return max((weights["points"] + weights["cubes"] * cubes + weights["wipe"] * (
        cubes == _cubes_on_board(state, state.owner[target]))
        for cubes, _, target in _strikes(state, seat)
        if against is None or state.owner[target] == against), default=0.0)


def _hand_value(state: CubeState, seat: int, weights: dict[str, float]) -> float:
    """Arrows and crowns in hand win fights; an arrow in the discard pile can be taken back."""
    hand = state.hands[seat]
    return (weights["arrow"] * min(2, hand.count(SYMBOLS.index("arrow")))
            + weights["crown"] * min(1, hand.count(SYMBOLS.index("crown")))
            + weights["arrow_in_pile"] * (SYMBOLS.index("arrow") in state.discards[seat]))


def _safe(state: CubeState, seat: int, square: int) -> bool:
    """No enemy cube that can attack (a single cube) stands next to ``square``."""
    return not any(state.owner[j] not in (-1, seat) and state.height[j] == 1
                   for j in NEIGHBOURS[square])


def _pick_policy(state: CubeState, seat: int, moves: dict[str, Any]) -> str:
    """Both sides fight with their best card (the defender counting the tile's +1); an
    Outpost's defender puts up its two best and uses the cheapest that wins, else the
    cheapest."""
    attack = state.attack
    assert attack is not None
    if state.phase == "choose":
        strike = PIPS[attack["attacker_card"]]
        cards = sorted(set(attack["defender_cards"]), key=lambda c: PIPS[c])
        wins = [c for c in cards if _defence(state, attack["to"], [c]) > strike]
        return f"use {SYMBOLS[(wins or cards)[0]]}"
    if seat == attack["attacker"]:
        return f"pick {SYMBOLS[max(state.hands[seat], key=lambda c: PIPS[c])]}"
    tile = state.tiles[attack["to"]]
    best = sorted(state.hands[seat], key=lambda c: (PIPS[c] + (c == tile), -PIPS[c]))
    if attack["outpost"] and len(best) >= 2:
        pair = sorted(best[-2:])
        return f"pick {SYMBOLS[pair[0]]} {SYMBOLS[pair[1]]}"
    return f"pick {SYMBOLS[best[-1]]}"


def _action_policy(state: CubeState, seat: int, moves: dict[str, Any],
                   rng: random.Random) -> str:
    """Attack where the best card surely wins (most cubes first); take an arrow back;
    reinforce where no enemy can strike; else a move that ends out of reach of a strike."""
    strikes = _strikes(state, seat)
    if strikes:
        _, source, target = strikes[0]
        return f"attack {SQUARES[target]} from {SQUARES[source]}"
    hand, arrow = state.hands[seat], SYMBOLS.index("arrow")
    if arrow not in hand and arrow in state.discards[seat] and len(hand) >= 2:
        low = sorted(sorted(hand, key=lambda c: PIPS[c])[:2])
        return f"prepare {SYMBOLS[low[0]]} {SYMBOLS[low[1]]} take arrow"
    adds = [m for m, d in moves.items() if d[0] == "reinforce" and d[1] != arrow
            and state.owner[d[2]] == -1 and _safe(state, seat, d[2])]
    if adds:
        return rng.choice(adds)
    calm = [m for m, d in moves.items() if d[0] == "move" and d[1] != arrow
            and _safe(state, seat, d[2][2])]
    if calm and rng.random() < 0.5:
        return rng.choice(calm)
    return rng.choice(list(moves))


# --------------------------------------------------------------------------- the game


def _edge_example(state: CubeState, seat: int) -> str:
    """A free square of the seat's home edge, nearest its middle: an example it may play."""
    edge = EDGE_SQUARES[EDGES[seat]]
    free = [i for i in edge if state.owner[i] < 0] or edge
    return SQUARES[min(free, key=lambda i: abs(edge.index(i) - SIZE // 2))]


# How each move is written, for a text that names a move's word but not the rest of it.
ACTIONS = ("move", "prepare", "reinforce", "outpost", "attack", "pass")  # a turn's action
FORMS = {
    "place": "with a square of your edge: 'place b1'",
    "move": "with the cube's square, where it goes and a card: 'move b1 b3 with crown'",
    "reinforce": "with your cube's square and a card: 'reinforce c2 with bricks'",
    "outpost": "with your cube's square and a card: 'outpost b1 with drop'",
    "attack": "with the square attacked and your cube's: 'attack c3 from c2'",
    "use": "with one of your two cards: 'use crown'",
    "prepare": "with the two cards you discard, then the one you take back: 'prepare drop "
               "hammers take arrow'",
    "pick": "with the card you play in secret: 'pick crown'",
}

# An action's general forms, for a hint where the seat has no move of that kind to show.
ACTION_EXAMPLES = (("move", "move b1 b3 with crown"),
                   ("prepare", "prepare drop hammers take arrow"),
                   ("reinforce", "reinforce c2 with bricks"), ("outpost", "outpost b1 with drop"),
                   ("attack", "attack c3 from c2"))

# Words of other games a player may bring to this one, and what this game does instead.
NOT_HERE = {
    "roll": "There are no dice here: a fight is won by the cards both sides pick in secret.",
    "draw": "Cards are drawn for you at the start of your turn, up to 4; 'prepare' takes "
            "one back from your discard pile.",
    "yes": "Nothing in this game is answered yes or no.",
    "no": "Nothing in this game is answered yes or no.",
}


class CubeConquest(Game[CubeState]):
    id = "cube-conquest"
    # A narrow tree: with 130 playouts over some 30 moves, widening 2 gave each move a few
    # visits, spent half of them on a card no player would pick in the fight that
    # followed, and so rated a sure attack below a prepare (against builder on seeds
    # 2200-2219: 85% at widening 2, 100% at 0.5). Measured: rules/cube-conquest.md.
    thinking = Thinking(budget=130, widening=0.5, rollout=0)
    name = "Cube Conquest"
    min_players = 2
    max_players = 4
    state_type = CubeState
    hidden = "your cards, the decks, the secret picks and the face-down tiles"
    summary = (
        "Spread your cubes over a 5x5 field of face-down tiles and win fights: each fight won "
        "scores 1 point, and the first to 10 points wins. Each turn draw to 4 cards, then do "
        "one thing: move a cube up to a card's pips (by the route you choose: 'via' a square), "
        "prepare (discard 2, take 1 back), reinforce (a card matching a tile next to you adds "
        "a cube; matching your own tile makes an Outpost), or attack a neighbour: both sides "
        "pick a card in secret (an Outpost's defender may place two and use one), highest pips "
        "wins, the attacker wins ties. When anyone loses every cube, the most points win (then "
        "the most cubes on the board)."
    )

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> CubeState:
        self.check_players(players)
        self.check_options(options)
        return _deal(players, seed)

    def opening(self, state: CubeState) -> list[Event]:
        cards = listing([f"{name} {pips}" for name, pips in zip(SYMBOLS, PIPS, strict=True)])
        edges = listing([f"{colour(seat)} the {EDGES[seat]} edge ({EDGE_WORDS[EDGES[seat]]})"
                         for seat in range(state.players)])
        return [starts(colour(state.start)), Event(
            f"The field is {SIZE * SIZE} face-down tiles, a1 at the bottom left to "
            f"{SQUARES[-1]} at the top right; a tile turns face up when a cube arrives, "
            "showing one of six symbols."), Event(
            f"Cards show the same six symbols, each worth its pips: {cards}. A card moves "
            "a cube up to its pips and counts them in a fight; a tile's symbol lets a "
            "matching card reinforce there, and defend it at +1."), Event(
            f"First, in turn, each player places {STARTING_CUBES} starting cubes on their "
            f"home edge: {edges}; {colour(state.start)} begins, e.g. "
            f"'place {_edge_example(state, state.start)}'."), Event(
            "Then a turn is a draw up to 4 cards and one action: move a cube, prepare "
            "(discard two cards, take one back), reinforce (a new cube), build an outpost (a "
            "second cube on one), attack an enemy cube next to yours, or pass when none is "
            "possible.")]

    def to_act(self, state: CubeState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "attack":
            assert state.attack is not None
            waiting = set()
            if state.attack["attacker_card"] is None:
                waiting.add(state.attack["attacker"])
            if state.attack["defender_cards"] is None:
                waiting.add(state.attack["defender"])
            return frozenset(waiting)
        if state.phase == "choose":
            assert state.attack is not None
            return frozenset({state.attack["defender"]})
        return frozenset({state.turn})

    def outcome(self, state: CubeState) -> Outcome | None:
        if state.phase != "over":
            return None
        best = max(state.points)
        leaders = [s for s in range(state.players) if state.points[s] == best]
        cubes = {s: _cubes_on_board(state, s) for s in leaders}
        most = max(cubes.values())
        winners = frozenset(s for s in leaders if cubes[s] == most)
        names = listing([colour(s) for s in sorted(winners)])
        level = (f"{listing([colour(s) for s in leaders])} are level on {best} "
                 f"point{'s' if best != 1 else ''}")
        if len(leaders) == 1:
            ending = ("10 points" if best >= POINTS_TO_WIN else "no cubes"
                      if any(_cubes_on_board(state, s) == 0 for s in range(state.players))
                      else "frozen" if _frozen(state) else "turn limit")
            why = f"{names} wins with {best} point{'s' if best != 1 else ''}."
        elif len(winners) == 1:
            ending = "tie-break"
            counts = ", ".join(f"{colour(s)} {cubes[s]}" for s in leaders)
            why = f"{level}; the tie goes to the most cubes on the board ({counts}): " \
                  f"{names} wins."
        else:
            ending = "shared"
            why = f"{level} and on cubes on the board ({most} each): {names} share the win."
        return Outcome(tuple(state.points), winners, f"{state.result} {why}", ending)

    def evaluate(self, state: CubeState, seat: int) -> float:
        """Points lead, then cubes on the board (the tie-break), the fights the hands can
        win (arrows and crowns held, an arrow to take back), the sure attack of the player
        to move (theirs against the seat's cubes counts against it), less a penalty when no
        cube of the seat can move or attack any more (all in Outposts). An attack under way
        is judged by the best cards each side holds. Weights: ``self.weights``."""
        w = {**WEIGHTS, **self.weights}
        result = self.outcome(state)
        if result is not None:
            return (1000.0 if seat in result.winners else 0.0) + w["points"] * (
                result.scores[seat] - max(p for s, p in enumerate(result.scores) if s != seat))
        points, cubes = list(state.points), [_cubes_on_board(state, s)
                                             for s in range(state.players)]
        attack = state.attack
        if attack is not None:
            attacker, defender, target = attack["attacker"], attack["defender"], attack["to"]
            hit = attack["attacker_card"]
            strike = PIPS[hit] if hit is not None else max(
                (PIPS[c] for c in state.hands[attacker]), default=0)
            held = attack["defender_cards"] or state.hands[defender]
            if strike >= _defence(state, target, held):
                points[attacker] += 1
                cubes[defender] -= state.height[target]
            else:
                points[defender] += 1
                cubes[attacker] -= 1
        others = [s for s in range(state.players) if s != seat]
        mobile = any(o == seat and h == 1 for o, h in zip(state.owner, state.height,
                                                          strict=True))
        value = w["points"] * (points[seat] - max(points[s] for s in others)) + w["cubes"] * (
            cubes[seat] - max(cubes[s] for s in others)) - (0.0 if mobile else w["immobile"])
        value += _hand_value(state, seat, w) - max(_hand_value(state, s, w) for s in others)
        if state.phase == "action":
            if state.turn == seat:
                value += w["strike"] * _strike_value(state, seat, w)
            else:
                value -= w["threat"] * _strike_value(state, state.turn, w, against=seat)
        return value

    def policy(self, state: CubeState, seat: int, moves: dict[str, Any], rng: random.Random
               ) -> str | None:
        if state.phase in ("attack", "choose"):
            return _pick_policy(state, seat, moves)
        if state.phase == "action":
            return _action_policy(state, seat, moves, rng)
        return None

    def remark(self, public: dict[str, Any], seat: int, move: str, chance: float | None
               ) -> str | None:
        """An attack, with the computer's estimate and the defender's arrows already seen
        in their discard pile; an arrow taken back to strike again; an Outpost raised
        next to enemy cubes. Only what the spectators see: never a card in a hand."""
        words = move.split()
        me = colour(seat)
        cells = {cell["square"]: cell for cell in public["board"]}
        if words[0] == "attack":
            target = cells[words[1]]
            enemy = target["owner"]
            whose = (f"{colour(enemy)}'s Outpost on {words[1]}" if target["cubes"] == 2
                     else f"{colour(enemy)}'s cube on {words[1]}")
            line = f"{me} attacks {whose} from {words[3]}"
            if chance is not None:
                line += (f", expecting to win ({chance:.0%})" if chance >= 0.5
                         else f", taking a chance ({chance:.0%})")
            shown = public["discards"][enemy].count("arrow")
            if not public["shared_deck"]:
                line += (f"; {shown} of {colour(enemy)}'s "
                         f"{DATA['cards_per_symbol_per_deck']} arrows are in their discard pile")
            return line + "."
        if words[0] == "prepare" and words[-1] == "arrow":
            return (f"{me} takes an arrow back from their discard pile: an arrow (6) wins "
                    "most fights.")
        if words[0] == "outpost":
            square = INDEX[words[1]]
            if any(cells[SQUARES[j]]["owner"] not in (None, seat) for j in NEIGHBOURS[square]):
                return (f"{me} makes an Outpost on {words[1]}, next to enemy cubes: it defends "
                        "at +1, with two cards to choose from.")
        return None

    # -- legal moves: canonical text -> what ``apply`` needs

    def moves(self, state: CubeState, seat: int) -> dict[str, Any]:
        if seat not in self.to_act(state):
            return {}
        if state.phase == "setup":
            edge = EDGE_SQUARES[EDGES[seat]]
            return {f"place {SQUARES[i]}": ("place", i) for i in edge if state.owner[i] == -1}
        if state.phase == "attack":
            return self._picks(state, seat)
        if state.phase == "choose":
            assert state.attack is not None
            return {f"use {SYMBOLS[c]}": ("use", c)
                    for c in sorted(set(state.attack["defender_cards"]))}
        return self._actions(state, seat)

    def _picks(self, state: CubeState, seat: int) -> dict[str, Any]:
        hand = sorted(set(state.hands[seat]))
        assert state.attack is not None
        out: dict[str, Any] = {f"pick {SYMBOLS[c]}": ("pick", (c,)) for c in hand}
        if seat == state.attack["defender"] and _defender_cards_most(state) == 2:
            pairs = sorted(set(combinations(state.hands[seat], 2)))
            out |= {f"pick {SYMBOLS[a]} {SYMBOLS[b]}": ("pick", (a, b)) for a, b in pairs}
        return out

    def _actions(self, state: CubeState, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        hand = sorted(set(state.hands[seat]))
        mine = [i for i in range(SIZE * SIZE) if state.owner[i] == seat]
        ways = _Routes(state, seat)
        for i in mine:
            if state.height[i] != 1 or not hand:
                continue
            candidates = ways.candidates(i)
            for c in hand:
                routes = _routes(candidates, PIPS[c])
                for (j, _), (via, _) in sorted(routes.items(), key=lambda r: (
                        r[0][0], -1 if r[1][0] is None else r[1][0])):
                    by = f" via {SQUARES[via]}" if via is not None else ""
                    # the route's squares are worked out when the move is made
                    out[f"move {SQUARES[i]} {SQUARES[j]}{by} with {SYMBOLS[c]}"] = (
                        "move", c, (i, via, j))
        if len(state.hands[seat]) >= 2:
            for a, b in sorted(set(combinations(state.hands[seat], 2))):
                for t in sorted(set(state.discards[seat]) | {a, b}):
                    out[f"prepare {SYMBOLS[a]} {SYMBOLS[b]} take {SYMBOLS[t]}"] = (
                        "prepare", (a, b), t)
        if state.supply[seat] > 0:
            empty_next = sorted({j for i in mine for j in NEIGHBOURS[i]
                                 if state.owner[j] == -1 and state.face_up[j]})
            for j in empty_next:
                if state.tiles[j] in hand:
                    out[f"reinforce {SQUARES[j]} with {SYMBOLS[state.tiles[j]]}"] = (
                        "reinforce", state.tiles[j], j)
            for i in mine:
                if state.height[i] == 1 and state.tiles[i] in hand:
                    out[f"outpost {SQUARES[i]} with {SYMBOLS[state.tiles[i]]}"] = (
                        "reinforce", state.tiles[i], i)
        if hand:
            for i in mine:
                if state.height[i] == 1:
                    for j in NEIGHBOURS[i]:
                        if state.owner[j] not in (-1, seat):
                            out[f"attack {SQUARES[j]} from {SQUARES[i]}"] = ("attack", i, j)
        if not out:
            out["pass"] = ("pass",)
        return out

    def apply(self, state: CubeState, seat: int, move: str, detail: Any) -> list[Event]:
        kind = detail[0]
        if kind == "place":
            return _place(state, seat, detail[1])
        if kind == "pick":
            return _pick(state, seat, detail[1])
        if kind == "use":
            assert state.attack is not None
            spare = list(state.attack["defender_cards"])
            spare.remove(detail[1])
            # Only the card used is spent: the other goes back to the hand, unseen.
            state.hands[seat] = sorted(state.hands[seat] + spare)
            state.attack["defender_cards"] = [detail[1]]
            events = [Event(f"{colour(seat)} uses {card(detail[1])}; the other card goes "
                            "back to their hand.", kind="reveal"),
                          Event(f"You keep {card(spare[0])}: it goes back to your hand.",
                                to=frozenset({seat}), kind="reveal")]
            return events + _resolve(state, detail[1])
        if kind == "attack":
            return _declare_attack(state, seat, detail[1], detail[2])
        if kind == "move":
            _, symbol, (start, via, end) = detail
            path = _Routes(state, seat).route(start, via, end)
            events = _move(state, seat, symbol, path)
        elif kind == "prepare":
            events = _prepare(state, seat, detail[1], detail[2])
        elif kind == "reinforce":
            events = _reinforce(state, seat, detail[1], detail[2])
        else:
            _mark(state, seat, "pass", [])
            why = ("has no card in hand" if not state.hands[seat] else "can use no card they "
                   "hold (no cube can move, reinforce or attack with it)")
            events = [Event(f"{colour(seat)} {why} and passes.", kind="pass",
                            data={"seat": seat})]
        _end_turn(state, events)
        return events

    # -- reading what players type

    def notation_hint(self, state: CubeState, seat: int) -> str:
        if state.phase == "setup":
            edge = EDGES[seat]
            return (f"Place a starting cube on your edge, the {edge} edge ({EDGE_WORDS[edge]}), "
                    f"e.g. 'place {_edge_example(state, seat)}'.")
        held = [SYMBOLS[c] for c in state.hands[seat]] or ["crown"]  # examples of its own
        if state.phase == "attack":
            if (state.attack and seat == state.attack["defender"]
                    and _defender_cards_most(state) == 2):
                return ("Pick one card, or two for your Outpost's defence and choose one "
                        f"after the attacker's is shown, e.g. 'pick {held[0]}' or "
                        f"'pick {' '.join(held[:2])}'.")
            side = "to defend" if state.attack and seat == state.attack["defender"] else \
                "for your attack"
            return f"Pick a card {side} in secret, e.g. 'pick {held[0]}'."
        if state.phase == "choose":
            picked = state.attack["defender_cards"] if state.attack else None
            card = SYMBOLS[picked[0]] if picked else held[0]
            return f"Choose which of your two cards to use, e.g. 'use {card}'."
        if seat == state.turn and len(state.hands[seat]) < 2 \
                and self._actions(state, seat).keys() == {"pass"}:
            return "No card of yours can be used this turn: type 'pass'."
        return self._action_hint(state, seat)

    def _action_hint(self, state: CubeState, seat: int) -> str:
        """What an action looks like, each example one of the seat's own moves now (the
        general forms where it has none of that kind, as when another seat is to act)."""
        moves = self.legal_moves(state, seat) if seat in self.to_act(state) else []
        shown = []
        for verb, general in ACTION_EXAMPLES:
            own = next((m for m in moves if m.startswith(verb + " ") and " via " not in m),
                       None if moves else general)
            if own is None:
                continue
            shown.append(f"'{own}'")
            if verb == "move" and (route := next(
                    (m for m in moves if m.startswith("move ") and " via " in m),
                    None if moves else "move b1 c3 via c1 with circles")) is not None:
                shown[-1] += f" (a route of your choice: '{route}')"
        return f"Moves look like {listing(shown, 'or')}."

    def _left_out(self, state: CubeState, seat: int, verb: str, words: list[str],
                  hint: str) -> GameError:
        """A move's word with the rest left out: how it is written, or the step it is not,
        or, an action of this step that none of the player's cubes can take now, why."""
        firsts = {m.split()[0] for m in self.legal_moves(state, seat)}
        if state.phase == "action" and verb not in firsts and verb in ACTIONS:
            return out_of_step(" ".join(words), self._no_action(state, seat, verb), hint)
        return left_out(" ".join(words), verb, firsts, self._step(state, seat), FORMS[verb],
                        hint)

    @staticmethod
    def _no_action(state: CubeState, seat: int, verb: str) -> str:  # verb: one of ACTIONS
        """Why no action of ``verb``'s kind is open to ``seat`` at all."""
        hand, supply = state.hands[seat], state.supply[seat]
        if verb == "attack":
            return ("an attack needs a card in hand" if not hand else "no enemy cube is "
                    "next to a cube of yours that may attack (an Outpost cannot)")
        if verb in ("reinforce", "outpost") and not supply:
            return "you have no cubes left to add"
        return {"prepare": "preparing takes two cards from your hand",
                "pass": "you may only pass when no action is possible",
                "move": "none of your cubes can move with the cards you hold (an Outpost "
                        "cannot move)",
                "reinforce": "no empty face-up tile beside your cubes matches a card you hold",
                "outpost": "none of your single cubes stands on a tile a card of yours "
                           "matches"}[verb]

    def parse(self, state: CubeState, seat: int, text: str) -> str:
        hint = partial(self.notation_hint, state, seat)  # worked out only when refused
        raw, via = text.split(), None
        for n, word in enumerate(raw):
            if word in ("via", "by", "through", "over"):
                if n + 1 == len(raw) or not SQUARE_RE.match(raw[n + 1]):
                    raise InvalidMove("Name the square to pass by, e.g. 'move b1 c3 via c1 "
                                      "with circles'.")
                via = raw[n + 1]
                del raw[n:n + 2]
                break
        if [w.lower() for w in raw] in (["end"], ["done"], ["skip"], ["end", "turn"]):
            if state.phase != "action":
                raise out_of_step(" ".join(raw), self._step(state, seat), hint())
            raise InvalidMove("A turn ends with its one action (a move, prepare, reinforce, "
                              "outpost or attack); 'pass' only when none is possible. "
                              + hint())
        words = [w for w in raw if w not in ("to", "with", "using", "and", "from",
                                             "on", "the", "card", "cards")]
        if not words:
            raise InvalidMove(f"That is not a move I understand. {hint()}")
        verb, rest = words[0], words[1:]
        verb = {"choose": "pick", "play": "pick", "stack": "outpost", "add": "reinforce",
                "defend": "pick", "keep": "use"}.get(verb, verb)
        squares = [w for w in rest if SQUARE_RE.match(w)]
        cards = [CARD_WORDS[w] for w in rest if w in CARD_WORDS]
        unknown = [w for w in rest if w not in CARD_WORDS and not SQUARE_RE.match(w)
                   and w not in ("take", "for", "get")]
        if unknown:
            raise not_known(unknown[0], SQUARES, hint())
        shape = {"place": (1, 0), "move": (2, 1), "reinforce": (1, 1), "outpost": (1, 1),
                 "attack": (2, 0), "use": (0, 1), "pass": (0, 0)}
        if verb == "pick" and not squares and cards:
            return "pick " + " ".join(SYMBOLS[c] for c in sorted(cards))
        if verb == "prepare" and not squares and len(cards) == 3:
            spent = sorted(cards[:2])
            return f"prepare {SYMBOLS[spent[0]]} {SYMBOLS[spent[1]]} take {SYMBOLS[cards[2]]}"
        if verb in ("prepare", "pick") and not squares and len(cards) < (
                3 if verb == "prepare" else 1):  # the rest left out
            raise self._left_out(state, seat, verb, words, hint())
        if verb == "attack" and len(squares) == 1 and not cards:
            if state.phase != "action":  # the step is the reason, not the cubes
                raise self.refuse(state, seat, f"attack {squares[0]}")
            target = INDEX[squares[0]]
            sources = [i for i in NEIGHBOURS[target]
                       if state.owner[i] == seat and state.height[i] == 1]
            outposts = [SQUARES[i] for i in NEIGHBOURS[target] if state.owner[i] == seat
                        and state.height[i] == 2]
            if len(sources) == 1:
                squares.append(SQUARES[sources[0]])
            elif outposts and not sources:
                raise InvalidMove(f"Only your Outpost{'s' if len(outposts) > 1 else ''} on "
                                  f"{listing(outposts)} touch{'' if len(outposts) > 1 else 'es'} "
                                  f"{quote(squares[0])}, and an Outpost cannot attack.")
            elif not sources:
                raise InvalidMove(f"None of your cubes touches {quote(squares[0])}: a cube "
                                  "attacks a square up, down, left or right of it.")
            elif state.owner[target] in (-1, seat):
                raise InvalidMove(f"There is no enemy cube on {quote(squares[0])}: an attack "
                                  "is on a square with another player's cube.")
            else:
                able = [SQUARES[i] for i in sorted(sources)]
                raise InvalidMove(f"Say which cube attacks {quote(squares[0])}: "
                                  f"{listing(able, 'or')}, e.g. 'attack {squares[0]} from "
                                  f"{able[0]}'.")
        if verb in shape and len(squares) <= shape[verb][0] and len(cards) <= shape[verb][1] \
                and shape[verb] != (len(squares), len(cards)):  # the rest left out
            if verb in ("move", "outpost") and squares and state.phase == "action" \
                    and state.owner[INDEX[squares[0]]] != seat:  # the square is the reason
                raise IllegalMove(f"There is no cube of yours on {squares[0]}. {hint()}")
            raise self._left_out(state, seat, verb, words, hint())
        if verb in NOT_HERE and not squares and not cards:
            raise InvalidMove(f"{NOT_HERE[verb]} {hint()}")
        if verb not in shape or shape[verb] != (len(squares), len(cards)):
            raise InvalidMove(f"That is not a move I understand. {hint()}")
        if via is not None:
            if verb != "move":
                raise InvalidMove(f"Only a move goes by way of a square. {hint()}")
            return self._name_move(state, seat, INDEX[squares[0]], INDEX[squares[1]],
                                   INDEX[via], cards[0])
        if verb == "reinforce" and state.owner[INDEX[squares[0]]] == seat:
            verb = "outpost"
        named = " ".join(squares) + (" with " if squares and cards else "") + " ".join(
            SYMBOLS[c] for c in cards)
        if verb == "attack":
            named = f"{squares[0]} from {squares[1]}"
        return f"{verb} {named}".strip()

    def _name_move(self, state: CubeState, seat: int, start: int, end: int, via: int,
                   symbol: int) -> str:
        """A move by way of ``via`` in canonical form: the listed move that ends on the same
        square and turns over the same tiles (often the plain shortest move), when the
        route is possible; else the move as typed, which ``refuse`` explains."""
        typed = f"move {SQUARES[start]} {SQUARES[end]} via {SQUARES[via]} with {SYMBOLS[symbol]}"
        if state.owner[start] != seat or state.height[start] != 1 or state.owner[end] != -1 \
                or start == end or state.owner[via] not in (-1, seat):
            return typed
        ways = _Routes(state, seat)
        path = ways.via(start, via, end)
        if path is None or len(path) - 1 > PIPS[symbol]:
            return typed
        named, _ = _routes(ways.candidates(start), PIPS[symbol])[
            (end, ways.revealed(path))]
        by = f" via {SQUARES[named]}" if named is not None else ""
        return f"move {SQUARES[start]} {SQUARES[end]}{by} with {SYMBOLS[symbol]}"

    def refuse(self, state: CubeState, seat: int, move: str) -> IllegalMove:
        """Why a well-formed move is not allowed now."""
        words = move.split()
        verb = words[0]
        hand = state.hands[seat]
        expected = {"setup": ("place",), "attack": ("pick",), "choose": ("use",),
                    "action": ACTIONS}
        if verb not in expected[state.phase]:
            return out_of_step(move, self._step(state, seat), self.notation_hint(state, seat))
        cards = [CARD_WORDS[w] for w in words if w in CARD_WORDS]
        squares = [INDEX[w] for w in words if w in INDEX]
        if verb == "place":
            edge = EDGES[seat]
            if squares[0] not in EDGE_SQUARES[edge]:
                return IllegalMove(f"Your starting cubes go on your edge, the {edge} edge "
                                   f"({EDGE_WORDS[edge]}).")
            return IllegalMove(f"{SQUARES[squares[0]]} already holds a cube.")
        if verb == "use":
            return IllegalMove("You can only use one of the two cards you placed.")
        if verb == "prepare" and len(hand) < 2:
            return IllegalMove("Preparing takes two cards from your hand; you hold fewer.")
        spent = cards[:2] if verb == "prepare" else cards
        missing = [c for c, n in Counter(spent).items() if hand.count(c) < n]
        if missing:
            return IllegalMove(f"You hold no{' second' if hand.count(missing[0]) else ''} "
                               f"{SYMBOLS[missing[0]]} card. Your hand: "
                               f"{listing([SYMBOLS[c] for c in hand]) or 'empty'}.")
        if verb == "prepare":
            return IllegalMove(f"Your discard pile has no {SYMBOLS[cards[2]]} to take back.")
        if verb == "pick":
            if state.attack and seat == state.attack["defender"] \
                    and _defender_cards_most(state) == 2:
                return IllegalMove("Pick one card, or two for your Outpost's defence.")
            return IllegalMove("Pick exactly 1 card.")
        if verb == "pass":
            return IllegalMove("You may only pass when no action is possible.")
        if verb in ("reinforce", "outpost") and state.supply[seat] == 0:
            return IllegalMove("You have no cubes left to add.")
        if verb == "attack":
            return self._refuse_attack(state, seat, squares[0], squares[1])
        if verb == "move":
            via = squares[2] if len(squares) == 3 else None
            return self._refuse_move(state, seat, squares[0], squares[1], cards[0], via)
        square, symbol = squares[0], cards[0]
        if verb == "outpost" and state.height[square] == 2:
            return IllegalMove(f"{SQUARES[square]} is already an Outpost.")
        if verb == "outpost" and state.owner[square] != seat:
            return IllegalMove(f"{SQUARES[square]} holds no cube of yours: an Outpost is a "
                               "second cube stacked on one of your own.")
        if verb == "outpost" and not state.face_up[square]:
            return IllegalMove(f"{SQUARES[square]} is face down; you can only match a "
                               "revealed tile.")
        if verb == "reinforce":
            if state.owner[square] != -1:
                return IllegalMove(f"{SQUARES[square]} is not empty.")
            if not any(state.owner[j] == seat for j in NEIGHBOURS[square]):
                return IllegalMove(f"{SQUARES[square]} is not next to one of your cubes.")
            if not state.face_up[square]:
                return IllegalMove(f"{SQUARES[square]} is face down; you can only match a "
                                   "revealed tile.")
        return IllegalMove(f"The tile on {SQUARES[square]} is {SYMBOLS[state.tiles[square]]}, "
                           f"not {SYMBOLS[symbol]}.")

    def _step(self, state: CubeState, seat: int) -> str:
        """The step the game is at, as the reason a move of another step is refused."""
        if state.phase == "setup":
            return ("the game is at the setup, where each player places starting cubes on their "
                    "edge before any action")
        if state.phase == "attack":
            side = ("the defence" if state.attack and seat == state.attack["defender"]
                    else "your attack")
            return f"a fight is on, and you pick a card in secret for {side} first"
        if state.phase == "choose":
            return ("a fight is on, and your Outpost's defence waits for you to choose which "
                    "of your two cards to use")
        return "your turn is at its action (a fight's picks come only after an attack)"

    def _refuse_attack(self, state: CubeState, seat: int, target: int, source: int
                       ) -> IllegalMove:
        if state.owner[source] != seat:
            return IllegalMove(f"{SQUARES[source]} holds no cube of yours.")
        if state.height[source] == 2:
            return IllegalMove("An Outpost cannot attack.")
        if target not in NEIGHBOURS[source]:
            return IllegalMove(f"{SQUARES[target]} is not next to {SQUARES[source]} "
                               "(attacks go up, down, left or right).")
        if not state.hands[seat]:
            return IllegalMove("You need a card in hand to attack.")
        return IllegalMove(f"There is no enemy cube on {SQUARES[target]}: an attack is on a "
                           "square with another player's cube.")

    def _refuse_move(self, state: CubeState, seat: int, start: int, end: int, symbol: int,
                     via: int | None = None) -> IllegalMove:
        if state.owner[start] != seat:
            return IllegalMove(f"{SQUARES[start]} holds no cube of yours.")
        if state.height[start] == 2:
            return IllegalMove("An Outpost cannot move.")
        if start == end:
            return IllegalMove("A move must go at least one space.")
        if state.owner[end] != -1:
            return IllegalMove(f"{SQUARES[end]} is occupied; attack an enemy instead of "
                               "moving onto it.")
        if via is not None:
            if state.owner[via] not in (-1, seat):
                return IllegalMove(f"You can't move through {SQUARES[via]}: it holds an "
                                   "enemy cube.")
            path = _Routes(state, seat, SIZE * SIZE).via(start, via, end)
            if path is None:
                return IllegalMove(f"Enemy cubes block every route from {SQUARES[start]} to "
                                   f"{SQUARES[end]} by {SQUARES[via]}.")
            return IllegalMove(f"That route ({'-'.join(SQUARES[i] for i in path)}) is "
                               f"{len(path) - 1} spaces; {SYMBOLS[symbol]} moves at most "
                               f"{PIPS[symbol]}.")
        dist, _ = _route(state, seat, start)
        if dist[end] > SIZE * SIZE - 1:
            return IllegalMove(f"Enemy cubes block every route from {SQUARES[start]} to "
                               f"{SQUARES[end]}.")
        return IllegalMove(f"{SQUARES[end]} is {dist[end]} spaces away; {SYMBOLS[symbol]} "
                           f"moves at most {PIPS[symbol]}.")

    # -- what each seat may see

    def view(self, state: CubeState, seat: int | None) -> dict[str, Any]:
        board = [{
            "square": square,
            "symbol": SYMBOLS[tile] if up else None,
            "pips": PIPS[tile] if up else None,
            "owner": owner if owner >= 0 else None,
            "cubes": height,
        } for square, tile, up, owner, height in zip(
            SQUARES, state.tiles, state.face_up, state.owner, state.height, strict=True)]
        view: dict[str, Any] = {
            "game": self.id, "seat": seat, "players": state.players, "size": SIZE,
            "colours": COLOURS[: state.players], "edges": EDGES[: state.players],
            "phase": state.phase, "turn": state.turn,
            "to_act": sorted(self.to_act(state)), "board": board,
            "points": list(state.points), "supply": list(state.supply),
            "hand_counts": [len(h) for h in state.hands],
            "deck_counts": [len(d) for d in state.decks],
            "discards": [[SYMBOLS[c] for c in pile] for pile in state.discards],
            "last": [SQUARES[i] for i in state.last], "last_action": (
                dict(state.last_action) if state.last_action else None),
            "shared_deck": _shared_deck(state), "attack": None, "result": None,
            "points_to_win": POINTS_TO_WIN,
            # cards everyone knows a player holds: taken back by Prepare, not played since
            "shown": [[SYMBOLS[c] for c in (state.shown[p] if len(state.shown) > p else [])]
                      for p in range(state.players)],
        }
        if state.attack is not None:
            a = state.attack
            view["attack"] = {
                "attacker": a["attacker"], "defender": a["defender"],
                "from": SQUARES[a["from"]], "to": SQUARES[a["to"]], "outpost": a["outpost"],
                "chosen": sorted(s for s, c in ((a["attacker"], a["attacker_card"]),
                                                (a["defender"], a["defender_cards"]))
                                 if c is not None),
                "attacker_card": (SYMBOLS[a["attacker_card"]]
                                  if state.phase == "choose" or (seat == a["attacker"]
                                  and a["attacker_card"] is not None) else None),
            }
            committed = a["defender_cards"]
            view["attack"]["defender_card_count"] = None if committed is None else len(committed)
            if seat == a["defender"] and a["defender_cards"] is not None:
                view["attack"]["defender_cards"] = [SYMBOLS[c] for c in a["defender_cards"]]
        result = self.outcome(state)
        if result is not None:
            view["result"] = {"winners": sorted(result.winners), "reason": result.reason}
        if seat is not None:
            view["hand"] = [SYMBOLS[c] for c in state.hands[seat]]
        return view

    def determinize(self, state: CubeState, seat: int | None, seed: int) -> CubeState:
        """Resample face-down tiles, others' hands and secret picks, and every deck order."""
        out = self.load(self.dump(state))
        rng = random.Random(f"determinize/{seed}")
        out.seed, out.draws = rng.randrange(2**31), 0
        unseen = Counter({n: DATA["tiles_per_symbol"] for n in range(len(SYMBOLS))})
        unseen.subtract(t for t, up in zip(out.tiles, out.face_up, strict=True) if up)
        pool = list(unseen.elements())
        rng.shuffle(pool)
        for i in range(SIZE * SIZE):
            if not out.face_up[i]:
                out.tiles[i] = pool.pop()
        groups = [[0, *range(out.players)]] if _shared_deck(out) else [
            [p, p] for p in range(out.players)]
        for deck_index, *owners in groups:
            secret = [p for p in dict.fromkeys(owners) if p != seat]
            self._reshuffle_unknown(out, rng, deck_index, secret)
        return out

    def _reshuffle_unknown(self, out: CubeState, rng: random.Random, deck_index: int,
                           others: list[int]) -> None:
        """Pool a deck with the hands and hidden picks of ``others``, shuffle, deal back; a
        card everyone knows a player holds (taken back by Prepare) stays among theirs."""
        a = out.attack
        picks: dict[int, list[str]] = {p: [] for p in others}  # each one's hidden picks
        if a is not None:
            if a["attacker"] in others and a["attacker_card"] is not None \
                    and out.phase != "choose":
                picks[a["attacker"]].append("attacker_card")
            if a["defender"] in others and a["defender_cards"]:
                picks[a["defender"]].append("defender_cards")
        pool = list(out.decks[deck_index])
        held: dict[int, list[int]] = {}  # each one's hand and hidden picks, in that order
        for p in others:
            held[p] = list(out.hands[p])
            for key in picks[p]:
                assert a is not None
                held[p] += [a[key]] if key == "attacker_card" else a[key]
            pool += held[p]
        known: dict[int, list[int]] = {}
        for p in others:
            shown = Counter(out.shown[p] if len(out.shown) > p else [])
            known[p] = list((shown & Counter(held[p])).elements())
            for c in known[p]:
                pool.remove(c)
        pool.sort()  # so the deal depends on what the pool holds, never on its true order
        rng.shuffle(pool)
        size = len(out.decks[deck_index])
        out.decks[deck_index] = pool[:size]
        del pool[:size]
        for p in others:
            count = len(held[p]) - len(known[p])
            cards = known[p] + pool[:count]
            del pool[:count]
            rng.shuffle(cards)
            out.hands[p] = sorted(cards[:len(out.hands[p])])
            del cards[:len(out.hands[p])]
            for key in picks[p]:
                assert a is not None
                if key == "attacker_card":
                    a[key] = cards.pop()
                else:
                    n = len(a[key])
                    a[key] = cards[:n]
                    del cards[:n]

    # -- points, as the recap tells them

    def points(self, state: CubeState) -> tuple[int, ...]:
        return tuple(state.points)

    def earned(self, public: dict[str, Any], seat: int) -> str:
        """A point is a fight won, attacking or defending: the attack under way in the
        view before the move says which."""
        attack = public.get("attack")
        if attack is not None and attack["attacker"] == seat:
            return "attacks won"
        if attack is not None and attack["defender"] == seat:
            return "defences held"
        return "fights won"

    def breakdown(self, public: dict[str, Any], seat: int, earned: dict[str, float]
                  ) -> list[Term]:
        """One point per fight won: attacking, or holding a defence (just 'fights won'
        when the log could not be replayed to tell them apart)."""
        if not earned:
            won = public["points"][seat]
            return [counted(won, "fight won", "fights won")] if won else []
        return [counted(earned[way], one, way) for way, one in (
            ("attacks won", "attack won"), ("defences held", "defence held"),
            ("fights won", "fight won")) if earned.get(way)]
