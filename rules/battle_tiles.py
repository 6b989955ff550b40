"""Battle Tiles: place numbered tiles on a 5x5 grid; each attacks its neighbours, and every
tile it defeats carries the attack on in a straight line, capturing scoring tiles.

2 players (red, blue), no chance after the shuffle except each draw from one's own stack;
hidden hands and hidden stack order. Every rule and every decision taken where the seed is
silent: ``battle-tiles.md``; the player's guide: ``guides/battle-tiles.md``. Every effect is
said as it happens (a token's effect, a capture and its points, an attack that fails and
why, death striking), and a move that uses a power token says so in ``costs``.

Read top to bottom: components, state, setup, the turn (place, attack and chains, power
tokens, the follow-up choices), the end, then the contract methods (moves, parsing, views).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rules.core import (
    ROLLOUT_TO_END,
    Event,
    Game,
    IllegalMove,
    InvalidMove,
    Outcome,
    State,
    Term,
    Thinking,
    counted,
    listing,
    load_data,
    not_known,
    out_of_step,
    starts,
)

# --------------------------------------------------------------------------- components

DATA = load_data("battle-tiles")
SIZE: int = DATA["grid_size"]
HAND_SIZE: int = DATA["hand_size"]
MARKERS: int = DATA["markers_per_player"]
TOKENS: list[str] = DATA["power_tokens"]
COLOURS: list[str] = DATA["colours"]

PIERCER, BARRIER = -1, -2  # side values that are icons, not numbers
_ICONS = {"P": PIERCER, "B": BARRIER}
SIDE_WORDS = {PIERCER: "piercer", BARRIER: "barrier"}
TILE_SIDES: list[list[int]] = [[_ICONS[v] if isinstance(v, str) else int(v) for v in t["sides"]]
                               for t in DATA["tiles"]]
TILE_SCORING: list[bool] = [bool(t["scoring"]) for t in DATA["tiles"]]
STACK = list(range(len(TILE_SIDES)))  # each player's stack holds one of every tile

FILES = "abcdefghij"[:SIZE]
SQUARES = [f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE)]
INDEX = {name: i for i, name in enumerate(SQUARES)}

# Sides and directions: 0 north (towards row 5), 1 east, 2 south, 3 west.
DIRECTIONS = ["north", "east", "south", "west"]
_STEPS = [(1, 0), (0, 1), (-1, 0), (0, -1)]


def _step(i: int, direction: int) -> int:
    """The square next to ``i`` in ``direction``, or -1 off the grid."""
    row, col = divmod(i, SIZE)
    dr, dc = _STEPS[direction]
    r, c = row + dr, col + dc
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1


NEXT = [[_step(i, d) for d in range(4)] for i in range(SIZE * SIZE)]
DIAGONALS = [sorted(j for dr in (-1, 1) for dc in (-1, 1)
                    for j in [(i // SIZE + dr) * SIZE + i % SIZE + dc]
                    if 0 <= i // SIZE + dr < SIZE and 0 <= i % SIZE + dc < SIZE)
             for i in range(SIZE * SIZE)]

SQUARE_RE = re.compile(rf"^[{FILES}][1-{SIZE}]$")


def side_word(value: int) -> str:
    """A side as players say it: '4', 'piercer', 'barrier'."""
    return SIDE_WORDS.get(value, str(value))


def beats(attack: int, defence: int) -> bool:
    """Whether an attacking side defeats a defending side.

    A barrier never attacks and always defends; a piercer defeats everything but a barrier
    and defends against nothing (so a piercer defeats a piercer); numbers: greater wins, a
    tie fails.
    """
    if attack == BARRIER or defence == BARRIER:
        return False
    if attack == PIERCER or defence == PIERCER:
        return True
    return attack > defence


def colour(seat: int) -> str:
    return COLOURS[seat].capitalize()


# --------------------------------------------------------------------------- state


@dataclass
class TilesState(State):
    """Everything about one game. Squares are indexed 0..24 from a1 along each row."""

    turn: int  # the seat placing now (or making the follow-up choice)
    phase: str  # "place", "rotate" (a defeated tile may be turned), "chaos" or "over"
    tile: list[int]  # the tile on each square (index into the tile set), or -1
    placer: list[int]  # the seat that placed it, or -1
    sides: list[list[int]]  # its sides now, north, east, south, west (turned by rotate)
    scoring: list[bool]  # a scoring tile (printed, or made one by a life token)
    marker: list[int]  # the seat whose colour marker is on it, or -1 (none / neutral)
    token: list[str | None]  # a death or life token left on it
    stacks: list[list[int]]  # each seat's face-down stack; the top is the end
    hands: list[list[int]]  # each seat's hand, in the order drawn (numbered from 1)
    markers: list[int]  # colour markers each seat has left to place
    held: list[int]  # opponent markers each seat has won by capturing
    tokens: list[list[str]]  # power tokens each seat has not used
    chain: list[list[int]]  # attacks still to resolve this turn: [from square, direction]
    pending: dict[str, Any] | None  # the choice awaited: rotate (square) or chaos (who)
    rotating: bool  # the rotate token was played this turn and not yet used on a tile
    struck: bool  # a death token was defeated this turn
    placed: int  # tiles placed so far
    last: dict[str, Any] | None  # the last turn for the picture: seat, square, defeated ...
    result: str | None  # why the game ended
    ran_out: bool = False  # a player needed a colour marker and had none (for the tallies)
    first: int = 0  # the seat that placed first (drawn at set-up)
    defeats: list[int] = field(default_factory=lambda: [0, 0])  # tiles each seat defeated


def _score(state: TilesState, seat: int) -> int:
    """One point per scoring tile with your marker, one per opponent marker you hold."""
    return state.marker.count(seat) + state.held[seat]


# --------------------------------------------------------------------------- setup


def _deal(players: int, seed: int) -> TilesState:
    cells = SIZE * SIZE
    state = TilesState(
        players=players, seed=seed, draws=0, turn=0, phase="place", tile=[-1] * cells,
        placer=[-1] * cells, sides=[[] for _ in range(cells)], scoring=[False] * cells,
        marker=[-1] * cells, token=[None] * cells, stacks=[], hands=[[] for _ in range(players)],
        markers=[MARKERS] * players, held=[0] * players,
        tokens=[list(TOKENS) for _ in range(players)], chain=[], pending=None,
        rotating=False, struck=False, placed=0, last=None, result=None,
    )
    for seat in range(players):
        stack = list(STACK)
        state.rng().shuffle(stack)
        state.stacks.append(stack)
        for _ in range(HAND_SIZE):
            state.hands[seat].append(stack.pop())
    state.first = state.turn = state.rng().randrange(players)  # who places first
    return state


def _draw(state: TilesState, seat: int, events: list[Event]) -> None:
    """Refill the hand to its size from the player's own stack, as long as it lasts."""
    drawn = []
    while len(state.hands[seat]) < HAND_SIZE and state.stacks[seat]:
        tile = state.stacks[seat].pop()
        state.hands[seat].append(tile)
        drawn.append(tile)
    if not drawn and len(state.hands[seat]) < HAND_SIZE:
        left = len(state.hands[seat])
        holds = f"{left} tile{'s' if left != 1 else ''} left in hand" if left else "no tile left"
        events.append(Event(f"{colour(seat)}'s stack is empty, so no tile is drawn: {holds}.",
                            kind="draw", data={"seat": seat}))
    for tile in drawn:
        events.append(Event(f"{colour(seat)} draws a tile.", kind="draw", data={"seat": seat}))
        events.append(Event(f"You draw {describe(tile)}; it is tile {len(state.hands[seat])} "
                            "in your hand.", to=frozenset({seat}), kind="draw",
                            data={"tile": tile}))


def describe(tile: int) -> str:
    """A tile as players say it: 'a scoring tile 3-2-3-2' (north, east, south, west)."""
    kind = "a scoring tile" if TILE_SCORING[tile] else "a tile"
    return f"{kind} {'-'.join(side_word(v) for v in TILE_SIDES[tile])}"


# --------------------------------------------------------------------------- the turn


def _place(state: TilesState, seat: int, slot: int, square: int, power: str | None
           ) -> list[Event]:
    """Put a hand tile on the grid, mark it if it scores, then attack or use chaos."""
    tile = state.hands[seat].pop(slot)
    state.tile[square], state.placer[square] = tile, seat
    state.sides[square] = list(TILE_SIDES[tile])
    state.scoring[square] = TILE_SCORING[tile]
    state.placed += 1
    name = SQUARES[square]
    state.last = {"seat": seat, "square": name, "power": power, "defeated": [],
                  "captured": [], "rotated": None, "swapped": [], "struck": False}
    with_power = f" with the {power} token" if power else ""
    events = [Event(f"{colour(seat)} places {describe(tile)} on {name}{with_power}.",
                    kind="place", data={"seat": seat, "square": name, "power": power})]
    if power is not None:
        events.append(Event(_token_effect(seat, power, name), kind="power",
                            data={"seat": seat, "token": power, "square": name}))
    if power is not None and power != "rotate":  # rotate is spent only when it turns a tile
        state.tokens[seat].remove(power)
    if power in ("death", "life"):
        state.token[square] = power
    if power == "life":
        state.scoring[square] = True
    if state.scoring[square]:
        _mark(state, seat, square, events)
    if power == "chaos":
        return events + _chaos(state, seat, square)
    state.rotating = power == "rotate"
    state.chain = [[square, d] for d in range(3, -1, -1)]  # popped from the end: N first
    if all(NEXT[square][d] < 0 or state.tile[NEXT[square][d]] < 0 for d in range(4)):
        events.append(Event(f"{name} touches no tile by a side, so it attacks nothing.",
                            kind="attack", data={"square": name}))
    return events + _resolve(state, seat)


def _token_effect(seat: int, power: str, name: str) -> str:
    """What playing a power token does, said as it is played (and what it costs)."""
    who = colour(seat)
    if power == "death":
        return (f"{who} spends the death token: it stays on {name}, and whoever defeats "
                f"{name} later (either player) loses every marker they have on the grid, "
                "once that turn's attacks are over.")
    if power == "life":
        return (f"{who} spends the life token: it stays on {name}, which is a scoring tile "
                "for the rest of the game.")
    if power == "chaos":
        return (f"{who} spends the chaos token: {name} attacks nothing; instead the tiles "
                "touching its corners change marker colour.")
    return (f"{who} plays the rotate token: each time a tile is defeated this turn, {who} "
            "may turn it a quarter before its chain goes on. It is spent only when it turns "
            "a tile.")


def _mark(state: TilesState, seat: int, square: int, events: list[Event]) -> None:
    """Put the seat's colour marker on a scoring tile, or leave it neutral without one."""
    name = SQUARES[square]
    if state.markers[seat] > 0:
        state.markers[seat] -= 1
        state.marker[square] = seat
        events.append(Event(f"{name} is a scoring tile: {colour(seat)} puts a "
                            f"{COLOURS[seat]} marker on it (1 point while it stays "
                            f"{COLOURS[seat]}).", kind="mark",
                            data={"seat": seat, "square": name}))
        return
    state.marker[square] = -1
    state.ran_out = True
    events.append(Event(f"{colour(seat)} has no colour marker left: {name} stays "
                        "neutral.", kind="neutral", data={"seat": seat, "square": name}))


def _resolve(state: TilesState, seat: int) -> list[Event]:
    """Carry out the attacks still in ``state.chain``, depth first, until they are all done
    or a defeated tile waits for the rotate decision; then end the turn. Attacks that fail
    are said together, so a turn that defeats nothing says why."""
    events: list[Event] = []
    failed: list[str] = []
    while state.chain:
        source, direction = state.chain.pop()
        target = NEXT[source][direction]
        if target < 0 or state.tile[target] < 0:
            continue
        attack = state.sides[source][direction]
        defence = state.sides[target][(direction + 2) % 4]
        if not beats(attack, defence):
            failed.append(_failure(source, target, attack, defence))
            continue
        events += _defeat(state, seat, source, target, attack, defence)
        if state.rotating:
            state.phase = "rotate"
            state.pending = {"square": target, "direction": direction}
            return events + _failures(failed) + [Event(
                f"{colour(seat)} may turn {SQUARES[target]} with the rotate token before its "
                f"chain goes on {DIRECTIONS[direction]}: 'rotate {SQUARES[target]} left', "
                f"'rotate {SQUARES[target]} right' or 'no rotate'.", kind="rotate")]
        state.chain.append([target, direction])
    return events + _failures(failed) + _end_turn(state, seat)


def _failure(source: int, target: int, attack: int, defence: int) -> str:
    """Why one attack failed: 'c3 (2) against c4 (3)', 'a tie', a barrier."""
    by, at = SQUARES[source], SQUARES[target]
    if attack == BARRIER:
        return f"{by}'s barrier side never attacks {at}"
    if defence == BARRIER:
        return f"{by} ({side_word(attack)}) against {at}'s barrier, which holds against all"
    tie = ", a tie" if attack == defence else ""
    return f"{by} ({attack}) against {at} ({defence}){tie}"


def _failures(failed: list[str]) -> list[Event]:
    """The attacks that failed, as one sentence (none: no sentence)."""
    if not failed:
        return []
    said = "Attacks that fail" if len(failed) > 1 else "An attack that fails"
    return [Event(f"{said}: {'; '.join(failed)}.", kind="attack")]


def _defeat(state: TilesState, seat: int, source: int, target: int, attack: int,
            defence: int) -> list[Event]:
    """A tile is defeated: capture it if it is a scoring tile that is not the attacker's."""
    assert state.last is not None
    at = SQUARES[target]
    state.last["defeated"].append(at)
    state.defeats[seat] += 1
    text = f"{SQUARES[source]} ({side_word(attack)}) defeats {at} ({side_word(defence)})"
    owner = state.marker[target]
    if not state.scoring[target]:
        text += ", not a scoring tile: nothing to capture"
    elif owner == seat:
        text += f", {colour(seat)}'s own tile: no capture"
    else:
        state.last["captured"].append(at)
        if owner >= 0:
            state.held[seat] += 1
            text += (f" and captures it: {colour(seat)} takes {colour(owner)}'s marker "
                     "(1 point)")
        else:
            text += " and captures the neutral tile (no opponent marker on it to take)"
        if state.markers[seat] > 0:
            state.markers[seat] -= 1
            state.marker[target] = seat
            text += (f" and puts a {COLOURS[seat]} marker on it (1 point while it stays "
                     f"{COLOURS[seat]})")
        else:
            state.marker[target] = -1
            state.ran_out = True
            text += f"; {colour(seat)} has no marker to put on it, so it is left neutral"
    events = [Event(text + ".", kind="defeat", data={"from": SQUARES[source], "square": at})]
    if state.token[target] == "death":
        again = " (it strikes once a turn)" if state.struck else ""
        state.struck = True
        events.append(Event(f"{at} carries the death token: death strikes {colour(seat)} "
                            f"once this turn's attacks are over{again}.", kind="death",
                            data={"seat": seat, "square": at}))
    return events


def _rotate(state: TilesState, seat: int, turn: int | None) -> list[Event]:
    """The rotate decision on the tile just defeated; its chain then goes on straight."""
    assert state.pending is not None and state.last is not None
    square, direction = state.pending["square"], state.pending["direction"]
    name = SQUARES[square]
    if turn is not None:
        sides = state.sides[square]
        state.sides[square] = sides[-1:] + sides[:-1] if turn == 1 else sides[1:] + sides[:1]
        state.rotating = False
        state.tokens[seat].remove("rotate")
        way = "clockwise" if turn == 1 else "counter-clockwise"
        state.last["rotated"] = name
        facing = side_word(state.sides[square][direction])
        text = (f"{colour(seat)} turns {name} {way} and spends the rotate token: its sides "
                f"now read {'-'.join(side_word(v) for v in state.sides[square])}, and its "
                f"{facing} faces {DIRECTIONS[direction]}, where its chain goes on.")
    else:
        text = (f"{colour(seat)} leaves {name} as it is; the rotate token waits for the next "
                "tile defeated this turn.")
    events = [Event(text, kind="rotate", data={"square": name, "turned": turn is not None})]
    state.pending = None
    state.phase = "place"
    state.chain.append([square, direction])
    return events + _resolve(state, seat)


def _chaos(state: TilesState, seat: int, square: int) -> list[Event]:
    """Chaos replaces the attack: the markers on the tiles touching corners swap colours.

    Every marker goes back to its owner first, then each tile takes one of the other
    colour; if that colour is short, the current player leaves tiles neutral, one
    ``neutral`` move at a time (only one colour can ever be short).
    """
    assert state.last is not None
    events: list[Event] = []
    targets = [j for j in DIAGONALS[square] if state.marker[j] >= 0]
    if not targets:
        events.append(Event(f"No tile touching {SQUARES[square]}'s corners carries a colour "
                            "marker, so chaos changes nothing (the token is spent all the "
                            "same).", kind="chaos"))
    new = {SQUARES[j]: 1 - state.marker[j] for j in targets}
    for j in targets:
        state.markers[state.marker[j]] += 1
        state.marker[j] = -1
    state.last["swapped"] = [SQUARES[j] for j in targets]
    for owner in (0, 1):
        wanting = [s for s, o in new.items() if o == owner]
        short = len(wanting) - state.markers[owner]
        if short > 0:
            state.ran_out = True
            state.phase = "chaos"
            state.pending = {"colour": owner, "short": short, "new": new}
            have = state.markers[owner]
            events.append(Event(f"Chaos: {colour(owner)} has only {have} marker"
                                f"{'s' if have != 1 else ''} for {len(wanting)} tiles "
                                f"({listing(sorted(wanting))}): {colour(seat)} chooses which "
                                f"{'tile stays' if short == 1 else f'{short} tiles stay'} "
                                "neutral.", kind="chaos"))
            return events
    return events + _finish_chaos(state, seat, new)


def _finish_chaos(state: TilesState, seat: int, new: dict[str, int]) -> list[Event]:
    swapped = []
    for name, owner in sorted(new.items()):
        state.markers[owner] -= 1
        state.marker[INDEX[name]] = owner
        swapped.append(f"{name} from {COLOURS[1 - owner]} to {COLOURS[owner]}")
    events = [Event(f"Chaos turns {listing(swapped)}.", kind="chaos")] if swapped else []
    return events + _end_turn(state, seat)


def _leave_neutral(state: TilesState, seat: int, square: int) -> list[Event]:
    """Chaos short of markers: the current player leaves one of the tiles neutral."""
    pending = state.pending
    assert pending is not None
    name = SQUARES[square]
    was = COLOURS[1 - pending["new"][name]]
    del pending["new"][name]
    pending["short"] -= 1
    events = [Event(f"{colour(seat)} leaves {name} neutral: its {was} marker went back and "
                    f"{colour(pending['colour'])} has no marker for it.", kind="chaos",
                    data={"square": name})]
    if pending["short"] > 0:
        return events
    state.pending = None
    state.phase = "place"
    return events + _finish_chaos(state, seat, pending["new"])


def _end_turn(state: TilesState, seat: int) -> list[Event]:
    """After all chains: death strikes, the hand is refilled, the game ends or goes on."""
    events: list[Event] = []
    assert state.last is not None
    if state.struck:
        lost = [j for j in range(SIZE * SIZE) if state.marker[j] == seat]
        for j in lost:
            state.marker[j] = -1
        state.last["struck"] = True
        points = f"{len(lost)} point{'s' if len(lost) != 1 else ''}"
        what = (f"their markers on {listing([SQUARES[j] for j in lost])} are discarded "
                f"from the game and those tiles are neutral ({colour(seat)} loses {points}; "
                "opponent markers already won are kept)" if lost
                else "they have no marker on the grid, so nothing is lost")
        events.append(Event(f"Death strikes {colour(seat)}: {what}.", kind="death",
                            data={"seat": seat, "squares": [SQUARES[j] for j in lost]}))
    state.struck = False
    if state.rotating:
        why = ("nothing was defeated" if not state.last["defeated"]
               else f"{colour(seat)} left every defeated tile as it was")
        events.append(Event(f"No tile was turned ({why}): {colour(seat)} keeps the rotate "
                            "token.", kind="rotate", data={"seat": seat}))
    state.rotating = False
    state.chain = []
    state.pending = None
    state.phase = "place"
    _draw(state, seat, events)
    other = 1 - seat
    if state.hands[other]:
        state.turn = other
    elif not state.hands[seat]:
        state.phase = "over"
        empty = SIZE * SIZE - state.placed
        state.result = (f"Every tile has been placed ({empty} square"
                        f"{'s' if empty != 1 else ''} left empty)." if empty
                        else "The grid is full.")
        events.append(Event(f"The game ends: {state.result}", kind="end"))
    else:
        events.append(Event(f"{colour(other)} has no tile left: {colour(seat)} places "
                            "again.", kind="skip", data={"seat": other}))
    return events


# --------------------------------------------------------------------------- the computer's sense
# What the computer players know of the game (rules/computer.py calls these through
# ``BattleTiles.evaluate``, ``policy`` and ``remark``): what a placement defeats and pays,
# and which owned scoring tiles lie open to the tiles the opponent has left. They read
# whole worlds the search sampled (``determinize``), never the table's state.


def _defeated(state: TilesState, square: int, sides: list[int]) -> list[int]:
    """The squares a tile with ``sides`` on the empty ``square`` would defeat, chains
    included, without placing it (no rotate, no chaos)."""
    out = []
    for d in range(4):
        at, attack = square, sides[d]
        while True:
            target = NEXT[at][d]
            if target < 0 or state.tile[target] < 0:
                break
            if not beats(attack, state.sides[target][(d + 2) % 4]):
                break
            out.append(target)
            at, attack = target, state.sides[target][d]
    return out


def _pays(state: TilesState, seat: int, square: int, tile: int, scoring: bool) -> float:
    """The points a placement swings now: a new scoring tile of one's own 1, a capture of
    an opponent's marked tile 3 (2 without a marker to put on it), a neutral one 1; and
    defeating a death token loses every own marker on the grid."""
    markers = state.markers[seat]
    pays = 0.0
    if scoring and markers > 0:
        pays, markers = 1.0, markers - 1
    struck = False
    for target in _defeated(state, square, TILE_SIDES[tile]):
        struck = struck or state.token[target] == "death"
        if not state.scoring[target] or state.marker[target] == seat:
            continue
        pays += 2.0 if state.marker[target] >= 0 else 0.0
        if markers > 0:
            pays, markers = pays + 1.0, markers - 1
    if struck:
        pays -= state.marker.count(seat) + state.markers[seat] - markers
    return pays


class _Threats:
    """Of the tiles in ``attackers`` (those the other player has left), the share that
    would defeat a side of a given value facing a given direction from the empty square
    beyond it; each worked out once."""

    __slots__ = ("attackers", "shares")

    def __init__(self, attackers: list[int]) -> None:
        self.attackers = attackers
        self.shares: dict[tuple[int, int], float] = {}

    def share(self, direction: int, defence: int) -> float:
        found = self.shares.get((direction, defence))
        if found is None:
            facing = (direction + 2) % 4
            beaten = sum(beats(TILE_SIDES[t][facing], defence) for t in self.attackers)
            found = self.shares[direction, defence] = beaten / max(1, len(self.attackers))
        return found


def _exposure(state: TilesState, square: int, sides: list[int], threats: _Threats) -> float:
    """How open a tile with ``sides`` on ``square`` is: the largest share of the other's
    tiles that would defeat it from one of its empty neighbours."""
    worst = 0.0
    for d in range(4):
        there = NEXT[square][d]
        if there >= 0 and state.tile[there] < 0:
            worst = max(worst, threats.share(d, sides[d]))
    return worst


def _features(state: TilesState, seat: int) -> dict[str, float]:
    """The seat's standing less the other's, feature by feature (``evaluate``'s terms)."""
    other = 1 - seat
    left = [state.hands[s] + state.stacks[s] for s in (0, 1)]
    threats = [_Threats(left[1]), _Threats(left[0])]  # against each seat's tiles
    open_ = [0.0, 0.0]
    for i in range(SIZE * SIZE):
        owner = state.marker[i]
        if owner >= 0:
            open_[owner] += _exposure(state, i, state.sides[i], threats[owner])
    return {
        "points": _score(state, seat) - _score(state, other),
        "held": state.held[seat] - state.held[other],
        "markers": min(state.markers[seat], len(left[seat]))
        - min(state.markers[other], len(left[other])),
        "open": open_[seat] - open_[other],
        "tokens": len(state.tokens[seat]) - len(state.tokens[other]),
    }


def _placing(state: TilesState, seat: int, rng: random.Random) -> tuple[int, int, bool]:
    """The playouts' placement: the hand tile and square that pay most now, less what an
    own scoring tile placed there leaves open to the other's hand (ties at random); and
    whether to make it a scoring tile with the life token (a fighter nobody can take)."""
    other = 1 - seat
    empty = [i for i in range(SIZE * SIZE) if state.tile[i] < 0]
    threats = _Threats(state.hands[other])
    best, choice = -99.0, (0, empty[0])
    for slot, tile in enumerate(state.hands[seat]):
        sides, scoring = TILE_SIDES[tile], TILE_SCORING[tile]
        for square in empty:
            value = _pays(state, seat, square, tile, scoring) + rng.random() * 0.01
            if scoring and value > 0.5:
                value -= 3 * _exposure(state, square, sides, threats)
            if value > best:
                best, choice = value, (slot, square)
    slot, square = choice
    tile = state.hands[seat][slot]
    life = (not TILE_SCORING[tile] and "life" in state.tokens[seat]
            and state.markers[seat] > 0
            and _exposure(state, square, TILE_SIDES[tile], threats) == 0)
    return slot, square, life


def _remark_rotate(public: dict[str, Any], who: str, name: str, way: str) -> str:
    """'Red turns c4 clockwise with the rotate token, so that its 6 faces north and attacks
    c5', from the public view: the chain goes on straight from the tile placed."""
    grid, square = public["grid"], INDEX[name]
    placed = INDEX[public["last"]["square"]] if public.get("last") else square
    direction = next((d for d in range(4) if _in_line(placed, square, d)), 0)
    sides = grid[square]["sides"]
    turned = sides[-1:] + sides[:-1] if way == "right" else sides[1:] + sides[:1]
    facing = side_word(_ICONS.get(turned[direction], turned[direction]))
    how = "clockwise" if way == "right" else "counter-clockwise"
    ahead = NEXT[square][direction]
    attacks = (f" and attacks {SQUARES[ahead]}" if ahead >= 0 and grid[ahead]["sides"]
               and facing != "barrier" else "")
    return (f"{who} turns {name} {how} with the rotate token, so that its {facing} faces "
            f"{DIRECTIONS[direction]}{attacks}")


def _in_line(start: int, end: int, direction: int) -> bool:
    """Whether ``end`` lies straight on from ``start`` in ``direction``."""
    at = NEXT[start][direction]
    while at >= 0:
        if at == end:
            return True
        at = NEXT[at][direction]
    return False


# --------------------------------------------------------------------------- the game

TOKEN_WORDS = set(TOKENS)
# The step a turn is at, for a move of another step: why it is refused now.
STEPS = {"place": "your turn is at placing a tile (the rotate and chaos tokens ask their "
                  "questions only after a placement that uses them)",
         "rotate": "your rotate token waits for your answer on the tile just defeated, "
                   "before anything else",
         "chaos": "your chaos token waits for you to choose the tiles left neutral, before "
                  "anything else"}
# What a move that uses a power token costs, as a list of moves shows it beside the move.
TOKEN_COSTS = {**{t: f"spends the {t} token" for t in TOKENS},
               "rotate": "spent only if it turns a tile", "turn": "spends the rotate token"}
LEFT_WORDS = {"left", "ccw", "anticlockwise", "counterclockwise", "counter-clockwise"}
RIGHT_WORDS = {"right", "cw", "clockwise"}
FILLER = {"at", "on", "with", "the", "tile", "token", "using", "to", "use", "power", "leave",
          "stays", "stay", "tiles", "number", "and"}


NO_ROTATE = {"no rotate", "no", "skip", "don't rotate", "pass"}  # ways to let a rotate go


class BattleTiles(Game[TilesState]):
    id = "battle-tiles"
    # hard rates its leaves at once (rollout 0: deeper rollouts bought nothing at the same
    # CPU); expert, with ten times the time, plays every playout out to the end of the game
    # with the policy (against takes the capture that pays most, on the same 20 deals: 85% ->
    # 100%; 8.4 s a move at the median). See battle-tiles.md.
    thinking = Thinking(budget=400, widening=2.0, rollout=0, expert_rollout=ROLLOUT_TO_END)
    name = "Battle Tiles"
    min_players = 2
    max_players = 2
    state_type = TilesState
    hidden = "your hand of tiles and both face-down stacks"
    summary = (
        "Place tiles from your hidden hand of 3 on a 5x5 grid. A placed tile attacks every "
        "neighbour: a greater number on the touching sides defeats it, and a defeated tile "
        "carries the attack on straight ahead. Defeating an opponent's scoring tile captures "
        "it: your marker replaces theirs, and you keep theirs. Piercers beat all but "
        "barriers; barriers never lose and never attack. Once per turn, with a non-scoring "
        "tile, play a power token: rotate, chaos, death or life. When every tile is placed, "
        "1 point per tile you own and per opponent marker you hold; equal points, more "
        "opponent markers held, then more tiles defeated. Who places first is drawn at random."
    )

    def new(self, players: int, seed: int, options: dict[str, Any] | None = None
            ) -> TilesState:
        self.check_players(players)
        self.check_options(options)
        return _deal(players, seed)

    def opening(self, state: TilesState) -> list[Event]:
        return [starts(colour(state.first)), Event(
            "A tile is named by its four side numbers clockwise from the top, north-east-"
            "south-west: a tile 4-2-5-3 shows 4 on its north side, 2 east, 5 south and 3 "
            "west; a piercer side attacking beats any number, yet loses to anything that "
            "attacks it, and a barrier side is never beaten. "
            "Placed, a tile attacks its neighbours: the greater number on the touching "
            "sides wins."), Event(
            f"Each player has four power tokens, {listing(TOKENS)}, one use each, to add to "
            "a non-scoring tile as it is placed ('place 2 at c3 with life').")]

    def to_act(self, state: TilesState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        return frozenset({state.turn})

    def outcome(self, state: TilesState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = tuple(_score(state, s) for s in range(state.players))
        best = max(scores)
        leaders = [s for s in range(state.players) if scores[s] == best]
        # Equal points: more opponent markers held; then more tiles defeated in the game.
        most = max(state.held[s] for s in leaders)
        holders = [s for s in leaders if state.held[s] == most]
        most = max(state.defeats[s] for s in holders)
        winners = frozenset(s for s in holders if state.defeats[s] == most)
        points = f"{best} point{'s' if best != 1 else ''}"
        if len(winners) > 1:
            level = "/".join(str(state.defeats[s]) for s in sorted(winners))
            how, ending = (f"a draw at {points} each, with as many opponent markers held and "
                           f"tiles defeated ({level}).", "draw")
        else:
            (winner,) = winners
            how = f"{colour(winner)} wins with {points} against {min(scores)}"
            if len(holders) > 1:
                defeats = "/".join(str(state.defeats[s]) for s in (winner, 1 - winner))
                how += f", on more tiles defeated ({defeats})."
            elif len(leaders) > 1:
                how += ", on more opponent markers held."
            else:
                how += "."
            ending = "tie-break" if len(leaders) > 1 else "points"
        if state.ran_out:
            ending += ", markers ran out"
        return Outcome(scores, winners, f"{state.result} {how[0].upper()}{how[1:]}", ending)

    def evaluate(self, state: TilesState, seat: int) -> float:
        """How far ``seat`` is ahead: the point difference, and (weighted by
        ``self.weights``) opponent markers held (points no attack takes back), markers left
        to place, own scoring tiles open to the tiles the other has left (less the other's)
        and power tokens left; a finished game adds its win."""
        features = _features(state, seat)
        value = sum(self.weights.get(name, 0.0) * x for name, x in features.items())
        value += features["points"]
        result = self.outcome(state)
        if result is not None:
            value += 50.0 if result.winners == {seat} else -50.0 if seat not in result.winners \
                else 0.0
        return value

    def policy(self, state: TilesState, seat: int, moves: dict[str, Any], rng: random.Random
               ) -> str | None:
        """The playouts' placement (``_placing``): what pays most now without leaving an
        own scoring tile open; the life token on a fighter nobody can take. The rotate and
        chaos choices are left to the generic policy."""
        if state.phase != "place":
            return None
        slot, square, life = _placing(state, seat, rng)
        move = f"place {slot + 1} at {SQUARES[square]}"
        return f"{move} with life" if life and f"{move} with life" in moves else move

    def remark(self, public: dict[str, Any], seat: int, move: str, chance: float | None
               ) -> str | None:
        """One line on a notable choice, from the spectators' view before it: a power
        token, an attack on the other's scoring tiles, a tile turned by rotate. The tile
        placed is still hidden in ``public``, so the line names its square, never its
        sides."""
        words = move.split()
        who, other = colour(seat), colour(1 - seat)
        grid = public["grid"]
        odds = f" (its search rates the move {round(100 * chance)}%)" if chance is not None else ""
        if words[0] == "rotate":
            return _remark_rotate(public, who, words[1], words[2]) + odds + "."
        if words[0] != "place":
            return None
        name, power = words[3], words[5] if len(words) > 5 else None
        square = INDEX[name]
        if power == "death":
            return (f"{who} leaves the death token on {name}: whoever defeats it loses every "
                    f"marker they have on the grid{odds}.")
        if power == "life":
            return f"{who} makes {name} a scoring tile with the life token{odds}."
        if power == "chaos":
            turned = [f"{grid[j]['square']} to {COLOURS[1 - grid[j]['marker']]}"
                      for j in DIAGONALS[square] if grid[j].get("marker") is not None]
            what = f"turning {listing(turned)}" if turned else "though no corner has a marker"
            return f"{who} plays chaos on {name}, {what}{odds}."
        if power == "rotate":
            return f"{who} brings the rotate token to {name}, to turn a tile it defeats{odds}."
        targets = [SQUARES[j] for j in NEXT[square]
                   if j >= 0 and grid[j]["sides"] is not None and grid[j]["marker"] == 1 - seat]
        if not targets:
            return None
        tiles = "tile" if len(targets) == 1 else "tiles"
        return (f"{who} places on {name} to attack {other}'s scoring {tiles} "
                f"{listing(targets)}{odds}.")

    # -- legal moves: canonical text -> what ``apply`` needs

    def moves(self, state: TilesState, seat: int) -> dict[str, Any]:
        if seat not in self.to_act(state):
            return {}
        if state.phase == "rotate":
            assert state.pending is not None
            name = SQUARES[state.pending["square"]]
            return {f"rotate {name} left": ("rotate", -1), f"rotate {name} right": ("rotate", 1),
                    "no rotate": ("rotate", None)}
        if state.phase == "chaos":
            assert state.pending is not None
            wanted = state.pending["colour"]
            return {f"neutral {name}": ("neutral", INDEX[name])
                    for name, owner in sorted(state.pending["new"].items()) if owner == wanted}
        out: dict[str, Any] = {}
        empty = [i for i in range(SIZE * SIZE) if state.tile[i] < 0]
        powers = state.tokens[seat]
        for slot, tile in enumerate(state.hands[seat]):
            for i in empty:
                where = f"place {slot + 1} at {SQUARES[i]}"
                out[where] = ("place", slot, i, None)
                if not TILE_SCORING[tile]:
                    for power in powers:
                        out[f"{where} with {power}"] = ("place", slot, i, power)
        return out

    def costs(self, state: TilesState, seat: int) -> dict[str, str]:
        """A power token is used once a game: placing with one spends it (rotate only when
        it turns a tile), and so does turning a tile in the rotate decision."""
        out = {}
        for move, detail in self.moves(state, seat).items():
            if detail[0] == "place" and detail[3] is not None:
                out[move] = TOKEN_COSTS[detail[3]]
            elif detail[0] == "rotate" and detail[1] is not None:
                out[move] = TOKEN_COSTS["turn"]
        return out

    def apply(self, state: TilesState, seat: int, move: str, detail: Any) -> list[Event]:
        kind = detail[0]
        if kind == "place":
            return _place(state, seat, detail[1], detail[2], detail[3])
        if kind == "rotate":
            return _rotate(state, seat, detail[1])
        return _leave_neutral(state, seat, detail[1])

    # -- reading what players type

    def notation_hint(self, state: TilesState, seat: int) -> str:
        if state.phase == "rotate" and state.pending is not None:
            name = SQUARES[state.pending["square"]]
            return (f"Turn the defeated tile or not: 'rotate {name} left', 'rotate {name} "
                    "right' or 'no rotate'.")
        if state.phase == "chaos":
            return "Choose a tile to leave neutral, e.g. 'neutral b2'."
        legal = list(self.moves(state, seat))  # the examples: the seat's own moves
        plain = next((m for m in legal if " with " not in m), "place 2 at c3")
        token = next((m for m in legal if m.startswith(f"{plain} with ")),
                     next((m for m in legal if " with " in m), None))
        return (f"Place a tile from your hand by its number, e.g. '{plain}'"
                + (f", or with a power token: '{token}'." if token else "."))

    def parse(self, state: TilesState, seat: int, text: str) -> str:
        words = [w for w in text.replace("#", " ").split() if w not in FILLER]
        hint = partial(self.notation_hint, state, seat)  # worked out only when refused
        if not words:
            raise InvalidMove(f"That is not a move I understand. {hint()}")
        if words == ["yes"] and state.phase == "rotate":
            raise InvalidMove(f"Say which way to turn the defeated tile, left or right. {hint()}")
        if words in (["end"], ["done"], ["end", "turn"]) and state.phase == "place":
            raise InvalidMove(f"A turn ends with its tile placed; nobody passes. {hint()}")
        if words in (["yes"], ["end"], ["done"], ["end", "turn"]):
            raise out_of_step(" ".join(words), STEPS[state.phase], hint())
        declines = " ".join(words) in NO_ROTATE
        if (declines or words[0] in ("rotate", "turn")) and state.phase != "rotate":
            raise out_of_step(" ".join(words), STEPS[state.phase], hint())  # in their words
        if declines:
            return "no rotate"
        squares = [w for w in words if SQUARE_RE.match(w)]
        numbers = [w for w in words if w.isdigit()]
        powers = [w for w in words if w in TOKEN_WORDS]
        verb = words[0]
        rest = words[1:]
        if verb in ("place", "play", "put") or verb.isdigit():
            if verb.isdigit():
                rest = words
            unknown = [w for w in rest if not (SQUARE_RE.match(w) or w.isdigit()
                                               or w in TOKEN_WORDS)]
            if unknown:
                raise not_known(unknown[0], SQUARES, hint())
            if len(powers) > 1:
                raise InvalidMove(f"Only one power token can be used in a turn. {hint()}")
            if (len(squares) != 1 or len(numbers) != 1) and state.phase != "place":
                raise out_of_step(" ".join(words), STEPS[state.phase], hint())  # not now at all
            if len(squares) != 1 or len(numbers) != 1:
                raise InvalidMove(f"Say which tile of your hand and where. {hint()}")
            move = f"place {int(numbers[0])} at {squares[0]}"
            return f"{move} with {powers[0]}" if powers else move
        if verb in ("rotate", "turn"):
            ways = [w for w in rest if w in LEFT_WORDS | RIGHT_WORDS]
            unknown = [w for w in rest if w not in LEFT_WORDS | RIGHT_WORDS
                       and not SQUARE_RE.match(w)]
            if unknown:
                raise not_known(unknown[0], SQUARES, hint())
            if len(ways) != 1 or len(squares) > 1:
                raise InvalidMove(f"Say which way to turn it. {hint()}")
            if not squares:
                if state.pending is None or "square" not in state.pending:
                    raise InvalidMove(f"Say which tile to turn. {hint()}")
                squares = [SQUARES[state.pending["square"]]]
            return f"rotate {squares[0]} {'left' if ways[0] in LEFT_WORDS else 'right'}"
        if "neutral" in words:
            others = [w for w in words if w != "neutral" and not SQUARE_RE.match(w)]
            if len(squares) == 1 and not others:
                return f"neutral {squares[0]}"
        raise InvalidMove(f"That is not a move I understand. {hint()}")

    def refuse(self, state: TilesState, seat: int, move: str) -> IllegalMove:
        """Why a well-formed move is not allowed now."""
        words = move.split()
        verb = "rotate" if move == "no rotate" else words[0]
        expected = {"place": "place", "rotate": "rotate", "chaos": "neutral"}[state.phase]
        if verb != expected:
            return out_of_step(move, STEPS[state.phase], self.notation_hint(state, seat))
        if verb == "rotate":
            assert state.pending is not None
            return IllegalMove(f"The rotate token can only turn the tile just defeated, "
                               f"{SQUARES[state.pending['square']]}.")
        if verb == "neutral":
            assert state.pending is not None
            wanted = state.pending["colour"]
            choices = [n for n, o in sorted(state.pending["new"].items()) if o == wanted]
            return IllegalMove(f"{words[1]} is not a tile that can be left neutral; choose "
                               f"{listing(choices, 'or')}.")
        hand = state.hands[seat]
        slot, square = int(words[1]), INDEX[words[3]]
        if not 1 <= slot <= len(hand):
            return IllegalMove(f"You hold {len(hand)} tile{'s' if len(hand) != 1 else ''}: "
                               f"choose a number from 1 to {len(hand)}.")
        if state.tile[square] >= 0:
            return IllegalMove(f"{words[3]} already holds a tile.")
        power = words[5]
        if TILE_SCORING[hand[slot - 1]]:
            return IllegalMove(f"Power tokens go only with a non-scoring tile, and tile {slot} "
                               "is a scoring tile.")
        return IllegalMove(f"You have already used your {power} token.")

    # -- what each seat may see

    def view(self, state: TilesState, seat: int | None) -> dict[str, Any]:
        grid: list[dict[str, Any]] = []
        for i in range(SIZE * SIZE):
            if state.tile[i] < 0:
                grid.append({"square": SQUARES[i], "sides": None})
                continue
            grid.append({
                "square": SQUARES[i], "sides": [_shown(v) for v in state.sides[i]],
                "placer": state.placer[i], "scoring": state.scoring[i],
                "marker": state.marker[i] if state.marker[i] >= 0 else None,
                "token": state.token[i],
            })
        pending = None
        if state.pending is not None:
            if state.phase == "rotate":
                pending = {"kind": "rotate", "square": SQUARES[state.pending["square"]]}
            else:
                pending = {"kind": "chaos", "colour": state.pending["colour"],
                           "short": state.pending["short"],
                           "tiles": sorted(n for n, o in state.pending["new"].items()
                                           if o == state.pending["colour"])}
        view: dict[str, Any] = {
            "game": self.id, "seat": seat, "players": state.players, "size": SIZE,
            "colours": COLOURS[: state.players], "phase": state.phase, "turn": state.turn,
            "first": state.first, "defeats": list(state.defeats),
            "to_act": sorted(self.to_act(state)), "grid": grid,
            "markers": list(state.markers), "held": list(state.held),
            "tokens": [list(t) for t in state.tokens],
            "scores": [_score(state, s) for s in range(state.players)],
            "hand_counts": [len(h) for h in state.hands],
            "stack_counts": [len(s) for s in state.stacks],
            "pending": pending, "last": dict(state.last) if state.last else None,
            "result": None,
        }
        result = self.outcome(state)
        if result is not None:
            view["result"] = {"winners": sorted(result.winners), "reason": result.reason}
        if seat is not None:
            view["hand"] = [{"number": n + 1, "sides": [_shown(v) for v in TILE_SIDES[t]],
                             "scoring": TILE_SCORING[t]}
                            for n, t in enumerate(state.hands[seat])]
        return view

    def determinize(self, state: TilesState, seat: int | None, seed: int) -> TilesState:
        """Reshuffle every stack, and pool each other seat's hand with its stack."""
        out = self.load(self.dump(state))
        rng = random.Random(f"determinize/{seed}")
        out.seed, out.draws = rng.randrange(2**31), 0
        for p in range(out.players):
            if p == seat:  # sorted first: the result depends only on what the seat sees
                out.stacks[p] = sorted(out.stacks[p])
                rng.shuffle(out.stacks[p])
                continue
            pool = sorted(out.stacks[p] + out.hands[p])
            rng.shuffle(pool)
            size = len(out.stacks[p])
            out.stacks[p], out.hands[p] = pool[:size], pool[size:]
        return out

    # -- points, as the recap tells them

    def points(self, state: TilesState) -> tuple[int, ...]:
        return tuple(_score(state, s) for s in range(state.players))

    def breakdown(self, public: dict[str, Any], seat: int, earned: dict[str, float]
                  ) -> list[Term]:
        """1 per scoring tile with the seat's marker, 1 per opponent marker it holds."""
        owned = sum(1 for sq in public["grid"] if sq["sides"] and sq["marker"] == seat)
        return [term for term in (
            counted(owned, "tile with their marker", "tiles with their marker"),
            counted(public["held"][seat], "marker won", "markers won")) if term.points]


def _shown(value: int) -> int | str:
    """A side for a view: its number, or 'P' (piercer) or 'B' (barrier)."""
    return {PIERCER: "P", BARRIER: "B"}.get(value, value)
