"""The computer's knowledge of Bomb Squares: what a seat's position is worth (the weights),
what is due to it, and the plain policy the playouts follow.
"""

from __future__ import annotations

import random
from typing import Any

from rules.bomb_squares.dice import attackers, targets
from rules.bomb_squares.state import (
    INDEX,
    REWARD,
    SIZE,
    BombState,
    Steps,
    filled,
    free,
    laid_cards,
    takes,
)

# --------------------------------------------------------------------------- the computer

# what ``evaluate`` counts beyond crystals, in crystals (``data/weights/bomb-squares.json``)
WEIGHTS = {"held_card": 1.0, "mint_tin_card": 1.0, "token": 2.0, "airplane": 3.0,
           "step_in_hand": 1.0}
ATTACK_AT = 8.0  # spoils the playouts' policy rolls for (measured: ``bomb-squares.md``)


def worth(state: BombState, seat: int, weights: dict[str, float]) -> float:
    """A seat's crystals and what will pay it later: a held square card, bought mint tin
    cards, token colours towards a set of four (10 crystals), an airplane."""
    w = {**WEIGHTS, **weights}
    tokens = 0 if state.sets[seat] else len(set(state.tokens[seat]))
    return (state.crystals[seat] + w["held_card"] * (state.held[seat] >= 0)
            + w["mint_tin_card"] * (len(state.bought[seat])
                                    + sum(a[0] == seat for a in state.armed))
            + w["token"] * tokens + w["airplane"] * bool(state.plane[seat])
            + w["step_in_hand"] * _due(state, seat))


def _due(state: BombState, seat: int) -> float:
    """What the step in hand will pay ``seat``: the meeple drawn fills a card (its
    sections), or the dice rolled force an attack (the chance against the best bet times
    the spoils for the attacker; 2 crystals and the chance for each bettor)."""
    if state.phase == "meeple" and state.turn == seat and state.pending >= 0:
        return max((state.sections[c] for c in laid_cards(state)
                    if _fills(state, c) and takes(state, c, state.pending)), default=0)
    if state.phase != "rolled" or not state.dice[1] or state.source >= 0:
        return 0.0
    mover, power = state.turn, state.dice[0]
    bettors = [s for s in range(state.players) if s != mover and state.crystals[s]]
    chance = (power if bettors else power - 1) / 6
    best = max((_spoil(state, mover, t) for a in attackers(state)
                for t in targets(state, mover, a, state.dice[1])), default=-1.0)
    if best < 0:
        return 0.0
    if seat == mover:
        return chance * best
    return REWARD["furthest_guess"] + chance * REWARD["furthest_guess_won"] \
        if seat in bettors else 0.0


def _fills(state: BombState, cell: int) -> bool:
    return free(state, cell) == 1 and not state.mine[cell]


def _spoils(state: BombState, seat: int) -> float:
    """What the best attack possible would take if won (reach aside): the target's
    meeples, a token card's sections and 5, and 2 for a token colour new to the seat."""
    return max((_spoil(state, seat, target) for source in attackers(state)
                for target in targets(state, seat, source, SIZE * SIZE)), default=0.0)


def _spoil(state: BombState, seat: int, target: int) -> float:
    new = not state.sets[seat] and state.colour[target] not in state.tokens[seat]
    return state.meeples[target] + 2 * new + (
        state.sections[target] + REWARD["token_card"] if state.token[target] else 0)


def plain_play(state: BombState, seat: int, moves: dict[str, Any],
                rng: random.Random, attack_at: float) -> str:
    """The playouts' default policy, a newcomer's sound turn: draw (never sell), lay the
    card where it is free, fill the card the meeple completes (else the nearest to full),
    the bomb on a full card, roll when an attack is possible and attack the fullest card
    in reach, move a meeple that fills a card, bet far from the middle, buy a card. Every
    attack pays its bettors 2 crystals or 3, so it rolls only for spoils of ``attack_at``
    or more (else a second card or a switch instead), or against a seat with no crystals
    to bet."""
    phase = state.phase
    if phase == "bets":
        return "bet 1"
    if phase == "sale":
        return "buy" if state.crystals[seat] >= 3 else "no buy"
    if phase == "challenge":
        return "no challenge"
    single = [m for m in moves if not isinstance(moves[m], Steps)]
    if phase in ("start", "place"):
        places = [m for m in single if m.startswith("place")]
        if places:
            return min(places, key=lambda m: (moves[m], rng.random()))
        return next(m for m in ("draw", "keep", "continue", "sell") if m in moves)
    if phase == "meeple":
        cells = [m for m in single if m.startswith("meeple")]
        if cells:
            return min(cells, key=lambda m: (free(state, moves[m]),
                                             -state.sections[moves[m]], rng.random()))
    elif phase == "bomb":
        cells = [m for m in single if m.startswith("bomb")]
        return max(cells, key=lambda m: (filled(state, moves[m]),
                                         state.meeples[moves[m]], rng.random()))
    elif phase == "act":
        for move in ("card crystals", "card meeple"):
            if move in moves:
                return move
        bought = [m for m in single if m.startswith("buy meeple")]
        if bought and state.crystals[seat] >= 3:
            return max(bought, key=lambda m: state.sections[moves[m]])
        if "roll" in moves and _spoils(state, seat) < attack_at:
            return next((m for m in ("second card", "switch") if m in moves), "roll")
        return next(m for m in ("roll", "done", "second card", "switch") if m in moves)
    elif phase == "rolled":
        attacks = [m for m in single if m.startswith("attack")]
        if attacks:
            return max(attacks, key=lambda m: state.meeples[moves[m][1]]
                       + 10 * bool(state.token[moves[m][1]]))
        fills = [m for m in moves if m.startswith("from") and " to " in m
                 and _fills(state, INDEX[m.split()[-1]])]
        if fills:
            return fills[0]
        if "done" in moves:
            return "done"
    return rng.choice(single or list(moves))
