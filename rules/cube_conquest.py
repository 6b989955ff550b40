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
from collections import Counter, deque
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
    listing,
    load_data,
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
COLOURS: list[str] = DATA["colours"]
EDGES: list[str] = DATA["edges"]

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


def _shared_deck(state: CubeState) -> bool:
    return state.players > 2


def _deck_of(state: CubeState, seat: int) -> int:
    return 0 if _shared_deck(state) else seat


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
    decks = [per_deck * DATA["decks_in_box"]] if players > 2 else [list(per_deck)] * players
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
    for i in squares:
        if not state.face_up[i]:
            state.face_up[i] = True
            events.append(Event(f"{SQUARES[i]} is revealed: {card(state.tiles[i])}.",
                                kind="reveal", data={"square": SQUARES[i]}))


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
        state.turn = state.start
        state.phase = "action"
        _begin_turn(state, events)
    return events


# --------------------------------------------------------------------------- the turn


def _begin_turn(state: CubeState, events: list[Event]) -> None:
    """Step 1: draw until 4 cards in hand, reshuffling the discard pile when needed."""
    seat = state.turn
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
    if state.result:
        state.phase = "over"
        events.append(Event(f"The game ends: {state.result}", kind="end"))
        return
    state.phase = "action"
    state.turn = (state.turn + 1) % state.players
    _begin_turn(state, events)


def _route(state: CubeState, seat: int, start: int) -> tuple[list[int], list[int]]:
    """Shortest distances from ``start`` and each square's previous step on its route.

    A cube may pass its own cubes but never a square with enemy cubes. Among routes of
    equal length it takes the one found first, preferring up/down over right/left.
    """
    far = SIZE * SIZE
    dist, parent = [far] * (SIZE * SIZE), [-1] * (SIZE * SIZE)
    dist[start] = 0
    queue = deque([start])
    while queue:
        i = queue.popleft()
        for j in NEIGHBOURS[i]:
            if dist[j] == far and state.owner[j] in (-1, seat):
                dist[j], parent[j] = dist[i] + 1, i
                queue.append(j)
    return dist, parent


def _path(parent: list[int], start: int, end: int) -> list[int]:
    path = [end]
    while path[-1] != start:
        path.append(parent[path[-1]])
    return path[::-1]


def _move(state: CubeState, seat: int, symbol: int, path: list[int]) -> list[Event]:
    start, end = path[0], path[-1]
    _discard(state, seat, symbol)
    state.owner[start], state.height[start] = -1, 0
    state.owner[end], state.height[end] = seat, 1
    _mark(state, seat, "move", path)
    events = [Event(f"{colour(seat)} plays {card(symbol)} and moves {SQUARES[start]} to "
                    f"{SQUARES[end]} (by {'-'.join(SQUARES[i] for i in path)}).", kind="move",
                    data={"seat": seat, "path": [SQUARES[i] for i in path]})]
    _reveal(state, path[1:], events)
    return events


def _prepare(state: CubeState, seat: int, spent: tuple[int, int], taken: int) -> list[Event]:
    for symbol in spent:
        _discard(state, seat, symbol)
    state.discards[seat].remove(taken)
    state.hands[seat] = sorted(state.hands[seat] + [taken])
    _mark(state, seat, "prepare", [])
    return [Event(f"{colour(seat)} prepares: discards {card(spent[0])} and {card(spent[1])}, "
                  f"takes {card(taken)} back from their discard pile.", kind="prepare",
                  data={"seat": seat})]


def _reinforce(state: CubeState, seat: int, symbol: int, square: int) -> list[Event]:
    _discard(state, seat, symbol)
    outpost = state.owner[square] == seat
    state.owner[square] = seat
    state.height[square] += 1
    state.supply[seat] -= 1
    _mark(state, seat, "outpost" if outpost else "reinforce", [square])
    what = "stacks a second cube: an Outpost on" if outpost else "adds a cube on"
    return [Event(f"{colour(seat)} plays {card(symbol)} and {what} {SQUARES[square]}.",
                  kind="reinforce", data={"seat": seat, "square": SQUARES[square]})]


# --------------------------------------------------------------------------- the attack


def _declare_attack(state: CubeState, seat: int, source: int, target: int) -> list[Event]:
    """Both sides now choose in secret: the defender two cards when defending an Outpost."""
    defender = state.owner[target]
    state.attack = {
        "attacker": seat, "defender": defender, "from": source, "to": target,
        "outpost": state.height[target] == 2,
        "attacker_card": None,
        "defender_cards": None if state.hands[defender] else [],
    }
    state.phase = "attack"
    _mark(state, seat, "attack", [source, target])
    events = [Event(f"{colour(seat)} attacks {colour(defender)} on {SQUARES[target]} from "
                    f"{SQUARES[source]}. Both choose a card in secret.", kind="attack",
                    data={"seat": seat, "defender": defender})]
    if not state.hands[defender]:
        events.append(Event(f"{colour(defender)} has no card and defends with 0.",
                            kind="attack"))
    return events


def _defender_cards_wanted(state: CubeState) -> int:
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
    attacked tile and +1 for an Outpost (both may apply)."""
    attack = state.attack
    assert attack is not None
    attacker, defender = attack["attacker"], attack["defender"]
    source, target = attack["from"], attack["to"]
    attack_value = PIPS[attack["attacker_card"]]
    defence = 0 if used is None else PIPS[used]
    bonuses = []
    if used is not None and used == state.tiles[target]:
        defence += 1
        bonuses.append("+1 suit")
    if attack["outpost"]:
        defence += 1
        bonuses.append("+1 Outpost")
    state.discards[attacker].append(attack["attacker_card"])
    state.discards[defender].extend(attack["defender_cards"])
    shown = card(used) if used is not None else "no card"
    text = (f"{colour(attacker)} {card(attack['attacker_card'])} = {attack_value} against "
            f"{colour(defender)} {shown}{' ' + ' '.join(bonuses) if bonuses else ''} = "
            f"{defence}.")
    if attack_value >= defence:
        lost, winner, loser = target, attacker, defender
    else:
        lost, winner, loser = source, defender, attacker
    what = "Outpost" if state.height[lost] == 2 else "cube"
    state.supply[loser] += state.height[lost]
    state.owner[lost], state.height[lost] = -1, 0
    state.points[winner] += 1
    state.attack = None
    assert state.last_action is not None
    state.last_action["destroyed"] = SQUARES[lost]
    events = [Event(f"{text} {colour(loser)}'s {what} on {SQUARES[lost]} is destroyed; "
                    f"{colour(winner)} scores 1 point.", kind="combat",
                    data={"winner": winner, "loser": loser, "square": SQUARES[lost]})]
    _end_turn(state, events)
    return events


# --------------------------------------------------------------------------- the game


class CubeConquest(Game[CubeState]):
    id = "cube-conquest"
    name = "Cube Conquest"
    min_players = 2
    max_players = 4
    state_type = CubeState
    summary = (
        "Spread your cubes over a 5x5 field of face-down tiles. Each turn draw to 4 cards, "
        "then do one thing: move a cube up to a card's pips, prepare (discard 2, take 1 back), "
        "reinforce (a card matching a tile next to you adds a cube; matching your own tile "
        "makes an Outpost), or attack a neighbour: both sides pick a card in secret, highest "
        "pips wins, the attacker wins ties. First to 10 points, or when anyone loses every "
        "cube, the most points win."
    )

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> CubeState:
        self.check_players(players)
        self.check_options(options)
        return _deal(players, seed)

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
        most = max(_cubes_on_board(state, s) for s in leaders)
        winners = frozenset(s for s in leaders if _cubes_on_board(state, s) == most)
        names = listing([colour(s) for s in sorted(winners)])
        return Outcome(tuple(state.points), winners,
                       f"{state.result} {names} win{'s' if len(winners) == 1 else ''} "
                       f"with {best} point{'s' if best != 1 else ''}.")

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
        if seat == state.attack["defender"] and _defender_cards_wanted(state) == 2:
            pairs = sorted(set(combinations(state.hands[seat], 2)))
            return {f"pick {SYMBOLS[a]} {SYMBOLS[b]}": ("pick", (a, b)) for a, b in pairs}
        return {f"pick {SYMBOLS[c]}": ("pick", (c,)) for c in hand}

    def _actions(self, state: CubeState, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        hand = sorted(set(state.hands[seat]))
        mine = [i for i in range(SIZE * SIZE) if state.owner[i] == seat]
        reach = max((PIPS[c] for c in hand), default=0)
        for i in mine:
            if state.height[i] != 1:
                continue
            dist, parent = _route(state, seat, i)
            for j in range(SIZE * SIZE):
                if 0 < dist[j] <= reach and state.owner[j] == -1:
                    for c in hand:
                        if PIPS[c] >= dist[j]:
                            out[f"move {SQUARES[i]} {SQUARES[j]} with {SYMBOLS[c]}"] = (
                                "move", c, i, j, parent)
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
            cards = state.attack["defender_cards"]
            spare = list(cards)
            spare.remove(detail[1])
            events = [Event(f"{colour(seat)} uses {card(detail[1])} and spends "
                            f"{card(spare[0])}.", kind="reveal")]
            return events + _resolve(state, detail[1])
        if kind == "attack":
            return _declare_attack(state, seat, detail[1], detail[2])
        if kind == "move":
            _, symbol, start, end, parent = detail
            events = _move(state, seat, symbol, _path(parent, start, end))
        elif kind == "prepare":
            events = _prepare(state, seat, detail[1], detail[2])
        elif kind == "reinforce":
            events = _reinforce(state, seat, detail[1], detail[2])
        else:
            _mark(state, seat, "pass", [])
            events = [Event(f"{colour(seat)} has no card to play and passes.", kind="pass")]
        _end_turn(state, events)
        return events

    # -- reading what players type

    def notation_hint(self, state: CubeState, seat: int) -> str:
        if state.phase == "setup":
            return "Place a starting cube on your edge, e.g. 'place b1'."
        if state.phase == "attack":
            if (state.attack and seat == state.attack["defender"]
                    and _defender_cards_wanted(state) == 2):
                return "Pick two cards for your Outpost's defence, e.g. 'pick drop crown'."
            return "Pick a card for the attack in secret, e.g. 'pick crown'."
        if state.phase == "choose":
            return "Choose which of your two cards to use, e.g. 'use crown'."
        return ("Moves look like 'move b1 b3 with crown', 'prepare drop hammers take arrow', "
                "'reinforce c2 with bricks', 'outpost b1 with drop' or 'attack c3 from c2'.")

    def parse(self, state: CubeState, seat: int, text: str) -> str:
        words = [w for w in text.split() if w not in ("to", "with", "using", "and", "from",
                                                      "on", "the", "card", "cards")]
        if not words:
            raise InvalidMove(f"That is not a move I understand. {self.notation_hint(state, seat)}")
        verb, rest = words[0], words[1:]
        verb = {"choose": "pick", "play": "pick", "stack": "outpost", "add": "reinforce",
                "defend": "pick", "keep": "use"}.get(verb, verb)
        squares = [w for w in rest if SQUARE_RE.match(w)]
        cards = [CARD_WORDS[w] for w in rest if w in CARD_WORDS]
        unknown = [w for w in rest if w not in CARD_WORDS and not SQUARE_RE.match(w)
                   and w not in ("take", "for", "get")]
        hint = self.notation_hint(state, seat)
        if unknown:
            raise InvalidMove(f"I don't know '{unknown[0]}'. {hint}")
        shape = {"place": (1, 0), "move": (2, 1), "reinforce": (1, 1), "outpost": (1, 1),
                 "attack": (2, 0), "use": (0, 1), "pass": (0, 0)}
        if verb == "pick" and not squares and cards:
            return "pick " + " ".join(SYMBOLS[c] for c in sorted(cards))
        if verb == "prepare" and not squares and len(cards) == 3:
            spent = sorted(cards[:2])
            return f"prepare {SYMBOLS[spent[0]]} {SYMBOLS[spent[1]]} take {SYMBOLS[cards[2]]}"
        if verb == "attack" and len(squares) == 1 and not cards:
            target = INDEX[squares[0]]
            sources = [i for i in NEIGHBOURS[target]
                       if state.owner[i] == seat and state.height[i] == 1]
            if len(sources) == 1:
                squares.append(SQUARES[sources[0]])
            else:
                raise InvalidMove(f"Say which cube attacks, e.g. 'attack {squares[0]} from "
                                  f"{SQUARES[sources[0]] if sources else 'c2'}'.")
        if verb not in shape or shape[verb] != (len(squares), len(cards)):
            raise InvalidMove(f"That is not a move I understand. {hint}")
        if verb == "reinforce" and state.owner[INDEX[squares[0]]] == seat:
            verb = "outpost"
        named = " ".join(squares) + (" with " if squares and cards else "") + " ".join(
            SYMBOLS[c] for c in cards)
        if verb == "attack":
            named = f"{squares[0]} from {squares[1]}"
        return f"{verb} {named}".strip()

    def refuse(self, state: CubeState, seat: int, move: str) -> IllegalMove:
        """Why a well-formed move is not allowed now."""
        words = move.split()
        verb = words[0]
        hand = state.hands[seat]
        expected = {"setup": ("place",), "attack": ("pick",), "choose": ("use",),
                    "action": ("move", "prepare", "reinforce", "outpost", "attack", "pass")}
        if verb not in expected[state.phase]:
            return IllegalMove(f"You can't {verb} now. {self.notation_hint(state, seat)}")
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
            want = 1
            if state.attack and seat == state.attack["defender"]:
                want = _defender_cards_wanted(state)
            return IllegalMove(f"Pick exactly {want} card{'s' if want > 1 else ''}.")
        if verb == "pass":
            return IllegalMove("You may only pass when no action is possible.")
        if verb in ("reinforce", "outpost") and state.supply[seat] == 0:
            return IllegalMove("You have no cubes left to add.")
        if verb == "attack":
            return self._refuse_attack(state, seat, squares[0], squares[1])
        if verb == "move":
            return self._refuse_move(state, seat, squares[0], squares[1], cards[0])
        square, symbol = squares[0], cards[0]
        if verb == "outpost" and state.height[square] == 2:
            return IllegalMove(f"{SQUARES[square]} is already an Outpost.")
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
        return IllegalMove(f"{SQUARES[target]} holds no enemy cube.")

    def _refuse_move(self, state: CubeState, seat: int, start: int, end: int, symbol: int
                     ) -> IllegalMove:
        if state.owner[start] != seat:
            return IllegalMove(f"{SQUARES[start]} holds no cube of yours.")
        if state.height[start] == 2:
            return IllegalMove("An Outpost cannot move.")
        if start == end:
            return IllegalMove("A move must go at least one space.")
        if state.owner[end] != -1:
            return IllegalMove(f"{SQUARES[end]} is occupied; attack an enemy instead of "
                               "moving onto it.")
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
        """Pool a deck with the hands and hidden picks of ``others``, shuffle, deal back."""
        a = out.attack
        hidden_picks = []
        if a is not None:
            if a["attacker"] in others and a["attacker_card"] is not None \
                    and out.phase != "choose":
                hidden_picks.append(("attacker_card", a["attacker"]))
            if a["defender"] in others and a["defender_cards"]:
                hidden_picks.append(("defender_cards", a["defender"]))
        pool = list(out.decks[deck_index])
        for p in others:
            pool += out.hands[p]
        for key, _ in hidden_picks:
            assert a is not None
            pool += [a[key]] if key == "attacker_card" else a[key]
        rng.shuffle(pool)
        size = len(out.decks[deck_index])
        out.decks[deck_index] = pool[:size]
        del pool[:size]
        for p in others:
            n = len(out.hands[p])
            out.hands[p] = sorted(pool[:n])
            del pool[:n]
        for key, _ in hidden_picks:
            assert a is not None
            if key == "attacker_card":
                a[key] = pool.pop()
            else:
                n = len(a[key])
                a[key] = pool[:n]
                del pool[:n]
