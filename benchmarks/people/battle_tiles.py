"""Battle Tiles played the way newcomers play it, from the seat's view and legal moves only.

Each player works out, on the grid it sees, what a placement defeats (the attack and its
straight chains, as the guide explains them) and counts what that pays: a capture of an
opponent's scoring tile swings 3 points (their marker off the tile, yours on it, theirs in
your hand), a neutral one 1, a new scoring tile of your own 1; defeating a tile with the
death token costs every marker you have on the grid.

- ``takes the capture that pays most``: the placement that pays most now; no tokens.
- ``keeps a strong tile back``: pays most now too, but with the weakest tile that does,
  keeping the strongest for later, and puts the life token on a strong fighter.
- ``plays safe``: pays most now less the own scoring tiles it leaves open to an attack
  from an empty square (a side of 3 or less, or a piercer side); death on a fighter placed
  in the open, as bait.
"""

from __future__ import annotations

import random
from typing import Any

GAME = "battle-tiles"
SIZE = 5
FILES = "abcde"
STEPS = [(1, 0), (0, 1), (-1, 0), (0, -1)]  # north, east, south, west: (row, file)


def _index(square: str) -> int:
    return (int(square[1]) - 1) * SIZE + FILES.index(square[0])


def _next(i: int, d: int) -> int:
    r, c = i // SIZE + STEPS[d][0], i % SIZE + STEPS[d][1]
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1


def _beats(attack: Any, defence: Any) -> bool:
    if attack == "B" or defence == "B":
        return False
    return bool(attack == "P" or defence == "P" or attack > defence)


def _defeated(grid: list[Any], square: int, sides: list[Any]) -> list[int]:
    """The squares a tile placed on ``square`` defeats, chains included."""
    out = []
    for d in range(4):
        at, attack = square, sides[d]
        while True:
            target = _next(at, d)
            if target < 0 or grid[target]["sides"] is None or target in out:
                break
            if not _beats(attack, grid[target]["sides"][(d + 2) % 4]):
                break
            out.append(target)
            at, attack = target, grid[target]["sides"][d]
    return out


def _pays(view: dict[str, Any], move: str) -> tuple[float, int, dict[str, Any]]:
    """What ``place N at SQ`` pays now, the squares it defeats and the tile placed."""
    seat, grid = view["seat"], view["grid"]
    words = move.split()
    tile = view["hand"][int(words[1]) - 1]
    square = _index(words[3])
    markers = view["markers"][seat]
    pays = 0.0
    if tile["scoring"] or move.endswith("life"):
        pays += 1 if markers > 0 else 0
        markers -= 1
    lost = 0
    for j in _defeated(grid, square, tile["sides"]):
        cell = grid[j]
        if cell["token"] == "death":
            lost = 99
        if not cell["scoring"] or cell["marker"] == seat:
            continue
        pays += (3 if cell["marker"] is not None else 1) if markers > 0 else 2
        markers -= 1
    if lost:
        pays -= sum(1 for c in grid if c["sides"] and c["marker"] == seat) + 1
    return pays, square, tile


def _open(view: dict[str, Any], square: int, tile: dict[str, Any]) -> int:
    """Sides of a scoring tile on ``square`` that face an empty square and are weak."""
    grid = view["grid"]
    weak = 0
    for d in range(4):
        j = _next(square, d)
        if j >= 0 and grid[j]["sides"] is None:
            side = tile["sides"][d]
            weak += side == "P" or (side != "B" and side <= 3)
    return weak


def _answer(view: dict[str, Any], legal: list[str], rng: random.Random) -> str | None:
    """The follow-up choices: no rotate, any tile left neutral; None when placing."""
    if view["phase"] == "rotate":
        return "no rotate"
    if view["phase"] == "chaos":
        return rng.choice(legal)
    return None


def _best(scored: list[tuple[float, str]], rng: random.Random) -> str:
    top = max(s for s, _ in scored)
    return rng.choice([m for s, m in scored if s >= top - 1e-9])


def pays_most(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """The placement that pays most now, without tokens."""
    answer = _answer(view, legal, rng)
    if answer is not None:
        return answer
    return _best([(_pays(view, m)[0], m) for m in legal if "with" not in m], rng)


def strong_back(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """Pays most now, with the weakest tile that does; life on a strong fighter."""
    answer = _answer(view, legal, rng)
    if answer is not None:
        return answer

    def strength(tile: dict[str, Any]) -> int:
        return sum(6 if s in ("P", "B") else s for s in tile["sides"])

    scored = []
    for m in legal:
        if "with" in m and not m.endswith("with life"):
            continue
        pays, _, tile = _pays(view, m)
        if m.endswith("with life"):
            pays -= 0.5 if strength(tile) >= 14 else 9
        scored.append((pays - strength(tile) / 100, m))
    return _best(scored, rng)


def plays_safe(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """Pays most now less the own scoring tiles left open; death on a fighter in the open."""
    answer = _answer(view, legal, rng)
    if answer is not None:
        return answer
    scored = []
    for m in legal:
        if "with" in m and not m.endswith("with death"):
            continue
        pays, square, tile = _pays(view, m)
        if tile["scoring"]:
            pays -= 0.75 * _open(view, square, tile)
        if m.endswith("with death"):
            empty = sum(1 for d in range(4) if _next(square, d) >= 0
                        and view["grid"][_next(square, d)]["sides"] is None)
            pays += 0.25 if empty >= 3 else -9
        scored.append((pays, m))
    return _best(scored, rng)


PEOPLE = {
    "takes the capture that pays most": pays_most,
    "keeps a strong tile back": strong_back,
    "plays safe": plays_safe,
}
