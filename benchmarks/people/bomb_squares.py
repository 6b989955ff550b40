"""Bomb Squares played the way newcomers play it, from the seat's view and legal moves only.

- ``builder``: draw, fill and refill, attack. Always draws (never sells), lays the card
  free, puts the meeple where it fills a card or comes closest, the bomb on a full card,
  rolls whenever an attack is possible and attacks the fullest card in reach.
- ``shopper``: the builder who also buys what pays: a mint tin card at every sale it can
  afford, the extra meeple that fills a card, plays its cards at once ('crystals',
  'meeple', 'square', 'bomb', a 'skip' armed against the other), and challenges a won
  attack when rich.
- ``seller``: the builder who sells whenever nothing is held, the other has crystals to
  buy and it holds fewer than the other (the mint tin's easy crystal), and buys too.
"""

from __future__ import annotations

import random
from typing import Any

GAME = "bomb-squares"


def _cards(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {card["cell"]: card for card in view["board"]}


def _free(card: dict[str, Any]) -> int:
    return int(card["sections"] - card["meeples"] - (1 if card["landmine"] else 0))


def _around(cell: str) -> list[str]:
    file, rank = cell[0], int(cell[1:])
    return [f"{chr(ord(file) + df)}{rank + dr}" for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]


def _free_places(view: dict[str, Any], places: list[str]) -> list[str]:
    """Places the held card goes for free: beside a card with as many sections or more."""
    cards, held = _cards(view), view["held"]
    if held is None:
        return places
    return [m for m in places if any(cards[c]["sections"] >= held["sections"]
                                     for c in _around(m.split()[1]) if c in cards)]


def _named(legal: list[str], verb: str) -> list[str]:
    """Single-step moves of a verb with one place ('meeple e5'), joined forms left out."""
    return [m for m in legal if m.split()[0] == verb and len(m.split()) == 2]


def _meeple(view: dict[str, Any], legal: list[str]) -> str | None:
    """The card the meeple fills, else the one it brings closest (bigger first)."""
    cards = _cards(view)
    options = _named(legal, "meeple")
    if not options:
        return None
    return min(options, key=lambda m: (_free(cards[m.split()[1]]),
                                       -cards[m.split()[1]]["sections"]))


def _bomb(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """A full card first, else the card with most meeples (it fills soonest)."""
    cards = _cards(view)
    options = _named(legal, "bomb")
    if not options:
        return rng.choice(legal)
    return max(options, key=lambda m: (cards[m.split()[1]]["filled"],
                                       cards[m.split()[1]]["meeples"], rng.random()))


def _attack(view: dict[str, Any], legal: list[str]) -> str | None:
    cards = _cards(view)
    attacks = [m for m in legal if m.startswith("attack ")]
    if not attacks:
        return None
    return max(attacks, key=lambda m: cards[m.split()[1]]["meeples"])


def _fill_by_moving(view: dict[str, Any], legal: list[str]) -> str | None:
    """A meeple moved (yellow die) onto a card it fills."""
    cards = _cards(view)
    for move in legal:
        words = move.split()
        target = words[-1] if words[0] == "to" or words[-2:-1] == ["to"] else None
        if target and _free(cards[target]) == 1:
            return move
    return None


def builder(view: dict[str, Any], legal: list[str], rng: random.Random,
            shops: bool = False) -> str:
    """Draw, fill and refill, attack; with ``shops``, also buy and play what pays."""
    phase, me = view["phase"], view["seat"]
    cash = view["crystals"][me]
    if phase == "bets":  # guess far from the middle, so the green die lands far away
        return rng.choice([m for m in legal if m in ("bet 1", legal[-1])])
    if phase == "sale":
        return "buy" if shops and cash >= 3 else "no buy"
    if phase == "challenge":
        return "challenge" if shops and cash >= 12 else "no challenge"
    places = [m for m in legal if m.startswith("place ")]
    if phase in ("start", "place"):
        free = _free_places(view, places) or places
        if places:
            return rng.choice(free)
        for word in ("draw", "keep", "continue"):
            if word in legal:
                return word
    if phase == "meeple":
        return _meeple(view, legal) or rng.choice(legal)
    if phase == "bomb":
        return _bomb(view, legal, rng)
    if phase == "act":
        if shops:
            for card in ("card crystals", "card meeple", "card square", "card bomb"):
                if card in legal:
                    return card
            armed = [m for m in legal if m.startswith("arm skip")]
            if armed:
                return armed[0]
        bought = [m for m in legal if m.startswith("buy meeple")]
        if bought and (shops or cash >= 4):
            cards = _cards(view)
            return max(bought, key=lambda m: cards[m.split()[2]]["sections"])
        return "roll" if "roll" in legal else "done" if "done" in legal else rng.choice(legal)
    if phase == "rolled":
        return (_attack(view, legal) or _fill_by_moving(view, legal)
                or ("done" if "done" in legal else rng.choice(legal)))
    return rng.choice(legal)  # tokens, switches, landmines: any will do


def shopper(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    return builder(view, legal, rng, shops=True)


def seller(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    me = view["seat"]
    other = max(c for s, c in enumerate(view["crystals"]) if s != me)
    if "sell" in legal and view["held"] is None and other >= 1 and view["crystals"][me] < other:
        return "sell"
    return builder(view, legal, rng, shops=True)


PEOPLE = {"builder": builder, "shopper": shopper, "seller": seller}
