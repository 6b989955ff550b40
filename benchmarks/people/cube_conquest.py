"""Cube Conquest played the way newcomers play it, from the seat's view and legal moves only.

- ``attacker``: attacks whenever its best card is likely to win (an arrow, or a crown
  against a lone cube), taking the fight that pays most (an Outpost is two cubes); else
  reinforces, else closes in on the nearest enemy.
- ``arrow-keeper``: keeps an arrow, attacks with it, then takes it back (``prepare ... take
  arrow``) and does it again; between fights it reinforces or walks towards the enemy.
- ``builder``: reinforces away from enemy cubes (the tie-break counts cubes on the board)
  and attacks only when it holds an arrow.
"""

from __future__ import annotations

import random
from typing import Any

GAME = "cube-conquest"
PIPS = {"drop": 1, "hammers": 2, "circles": 3, "bricks": 4, "crown": 5, "arrow": 6}


def _board(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {cell["square"]: cell for cell in view["board"]}


def _near(a: str, b: str) -> int:
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1]) - int(b[1]))


def _enemies(view: dict[str, Any]) -> list[str]:
    return [c["square"] for c in view["board"] if c["owner"] not in (None, view["seat"])]


def _beside_enemy(view: dict[str, Any], square: str) -> bool:
    return any(_near(square, e) == 1 for e in view.setdefault("enemies", _enemies(view)))


def _pick(view: dict[str, Any], legal: list[str]) -> str:
    """Attack with the best card; defend with the best card counting the tile's +1 (an
    Outpost puts up its two best); of two, use one that wins, else the smaller."""
    attack, hand = view["attack"], sorted(view["hand"], key=PIPS.__getitem__)
    if legal[0].startswith("use"):
        mine = sorted(attack["defender_cards"], key=PIPS.__getitem__)
        tile = _board(view)[attack["to"]]["symbol"]
        need = PIPS[attack["attacker_card"]] + 1 - attack["outpost"]
        good = [c for c in mine if PIPS[c] + (c == tile) >= need]
        return f"use {(good or mine)[0]}"
    if view["seat"] == attack["attacker"]:
        return f"pick {hand[-1]}"
    tile = _board(view)[attack["to"]]["symbol"]
    hand.sort(key=lambda c: PIPS[c] + (c == tile))
    two = f"pick {' '.join(sorted(hand[-2:], key=list(PIPS).index))}"
    return two if two in legal else f"pick {hand[-1]}"


def _approach(view: dict[str, Any], legal: list[str], keep: str | None = None) -> str | None:
    """The move that ends nearest an enemy cube with the cheapest card (not ``keep``)."""
    enemies = _enemies(view)
    moves = [m for m in legal if m.startswith("move") and not m.endswith(f" {keep}")]
    if not moves or not enemies:
        return None
    return min(moves, key=lambda m: (min(_near(m.split()[2], e) for e in enemies),
                                     PIPS[m.split()[-1]]))


def _prepare(view: dict[str, Any], legal: list[str], want: str | None = None) -> str | None:
    """Throw the two smallest cards, take back ``want`` or the best card in the pile."""
    hand = sorted(view["hand"], key=PIPS.__getitem__)
    pile = view["discards"][view["seat"]] + hand[:2]
    take = want or max(pile, key=PIPS.__getitem__)
    low = sorted(hand[:2], key=list(PIPS).index)
    move = f"prepare {low[0]} {low[1]} take {take}"
    return move if move in legal else None


def _attacks(view: dict[str, Any], legal: list[str]) -> list[str]:
    board = _board(view)
    return sorted((m for m in legal if m.startswith("attack")),
                  key=lambda m: -board[m.split()[1]]["cubes"])


def attacker(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    if view["phase"] in ("attack", "choose"):
        return _pick(view, legal)
    if view["phase"] == "setup":
        return rng.choice(legal)
    best = max((PIPS[c] for c in view["hand"]), default=0)
    board = _board(view)
    for move in _attacks(view, legal):
        target = board[move.split()[1]]
        if best == 6 or (best == 5 and target["cubes"] == 1 and target["symbol"] != "arrow"):
            return move
    adds = [m for m in legal if m.startswith("reinforce")]
    if adds:
        return rng.choice(adds)
    return _approach(view, legal) or _prepare(view, legal) or rng.choice(legal)


def arrow(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    if view["phase"] in ("attack", "choose"):
        return _pick(view, legal)
    if view["phase"] == "setup":
        return rng.choice(legal)
    hand = view["hand"]
    attacks = _attacks(view, legal)
    if "arrow" in hand and attacks:
        return attacks[0]
    if "arrow" not in hand and "arrow" in view["discards"][view["seat"]]:
        back = _prepare(view, legal, "arrow")
        if back:
            return back
    adds = [m for m in legal if m.startswith("reinforce") and not m.endswith("arrow")]
    if adds:
        return rng.choice(adds)
    return (_approach(view, legal, keep="arrow") or _prepare(view, legal)
            or rng.choice(legal))


def builder(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    if view["phase"] in ("attack", "choose"):
        return _pick(view, legal)
    if view["phase"] == "setup":
        return rng.choice(legal)
    attacks = _attacks(view, legal)
    if "arrow" in view["hand"] and attacks:
        return attacks[0]
    adds = [m for m in legal if m.startswith("reinforce")]
    safe = [m for m in adds if not _beside_enemy(view, m.split()[1])]
    if safe or adds:
        return rng.choice(safe or adds)
    guard = [m for m in legal if m.startswith("outpost") and _beside_enemy(view, m.split()[1])]
    if guard:
        return guard[0]
    # walk to where new tiles may match: any move that does not end beside an enemy
    calm = [m for m in legal if m.startswith("move") and not _beside_enemy(view, m.split()[2])
            and PIPS[m.split()[-1]] <= 3]
    if calm and rng.random() < 0.5:
        return rng.choice(calm)
    return _prepare(view, legal) or rng.choice(legal)


PEOPLE = {"attacker": attacker, "arrow-keeper": arrow, "builder": builder}
