"""Crystallia played the way newcomers play it, from the seat's view and legal moves alone.

Each player takes the stone whose best placement pays it most, as it reads the board: one
crystal for each colour square the stone covers, then the lines of 2 or more it makes with
other stones (length minus one, yellow matching every colour), or one crystal when it
touches no other stone. They differ in what "pays" means:

- ``nine``: points now, never over 9 of a colour when it can help it (13 loses the game);
- ``grabby``: the most crystals now, whatever the colour, up to 10 of one (13 loses);
- ``cautious``: points now, never over 9, no more than 5 crystals a turn (6 bring a black
  one), the colours it has least of first, and a talisman when no stone pays.

None of them uses a move or rotate ability except ``grabby``, to cover more colour squares
of colours it has fewer than 9 of.
"""

from __future__ import annotations

import random
from typing import Any

GAME = "crystallia"
COLOURS = ("red", "blue", "green", "purple")
WILD = "yellow"


def _square(view: dict[str, Any], name: str) -> int:
    files: int = view["files"]
    return (int(name[1:]) - 1) * files + "abcdefghij".index(name[0])


def _name(view: dict[str, Any], i: int) -> str:
    return f"{'abcdefghij'[i % view['files']]}{i // view['files'] + 1}"


def _step(view: dict[str, Any], i: int, dr: int, dc: int) -> int:
    r, c = divmod(i, view["files"])
    r, c = r + dr, c + dc
    return r * view["files"] + c if 0 <= r < view["ranks"] and 0 <= c < view["files"] else -1


def payout(view: dict[str, Any], stone: list[str], squares: list[int]) -> dict[str, Any]:
    """What laying ``stone`` on ``squares`` pays, as a newcomer counts it: crystals per
    colour, the colours a lone stone offers one of (``alone``) and another turn."""
    board = view["board"]
    crystal = [b["crystal"] for b in board]
    for square, colour in zip(squares, stone, strict=True):
        crystal[square] = colour
    got: dict[str, int] = {}
    again = False
    for square in squares:
        shows = board[square]["shows"]
        if shows in COLOURS:
            got[shows] = got.get(shows, 0) + 1
        again = again or shows == "again"
    around = [_step(view, s, dr, dc) for s in squares for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
    if all(j < 0 or j in squares or crystal[j] is None for j in around):
        alone = list(COLOURS) if WILD in stone else sorted(set(stone))
        return {"got": got, "again": again, "alone": alone}
    seen = set()
    for square in squares:
        for dr, dc in ((0, 1), (1, 0)):
            for colour in COLOURS:
                line = [square]
                for sign in (1, -1):
                    j = _step(view, square, sign * dr, sign * dc)
                    while j >= 0 and crystal[j] in (colour, WILD):
                        line.append(j)
                        j = _step(view, j, sign * dr, sign * dc)
                key = (colour, dr, min(line))
                if (len(line) >= 2 and key not in seen and crystal[square] in (colour, WILD)
                        and any(j not in squares for j in line)
                        and any(crystal[j] == colour for j in line)):
                    seen.add(key)
                    got[colour] = got.get(colour, 0) + len(line) - 1
    return {"got": got, "again": again, "alone": []}


def _mine(view: dict[str, Any]) -> dict[str, int]:
    return {p["colour"]: p["crystals"] for p in view["platforms"][view["seat"]]}


def _points(view: dict[str, Any], paid: dict[str, Any], cap: int) -> float:
    """Points the crystals ``paid`` brings (a lone stone's colour chosen best): +1 a crystal
    up to ``cap`` of its colour, -1 over, -100 for a 13th, +2 for a supercrystal still free,
    -1 for 6 or more in the turn."""
    have = _mine(view)

    def worth(got: dict[str, int]) -> float:
        total = 0.0
        for colour, count in got.items():
            n = have[colour] + count
            total += min(count, max(0, cap - have[colour])) - max(0, n - max(cap, have[colour]))
            if n >= 13:
                total -= 100
            if have[colour] < n == 9 and colour not in view["supercrystals"]:
                total += 2
        return total - (1 if sum(got.values()) >= 6 else 0)

    return max([worth(_with(paid["got"], c)) for c in paid["alone"]] or [worth(paid["got"])])


def _with(got: dict[str, int], colour: str) -> dict[str, int]:
    return {**got, colour: got.get(colour, 0) + 1}


def _placements(view: dict[str, Any], legal: list[str]) -> list[tuple[str, list[int]]]:
    return [(m, [_square(view, w) for w in m.split()[1:]]) for m in legal
            if m.startswith("place ")]


def _all_placements(view: dict[str, Any], stone: list[str]) -> list[list[int]]:
    """Where ``stone`` could go (empty squares side by side; lines of 5 not checked)."""
    out = []
    free = [i for i, b in enumerate(view["board"]) if b["crystal"] is None]
    empty = set(free)
    for i in free:
        for j in (_step(view, i, 0, 1), _step(view, i, 1, 0)):
            if j in empty:
                out += [[i, j], [j, i]] if stone[0] != stone[1] else [[i, j]]
    return out


def _player(worth: Any, *, talisman: bool = False, abilities: bool = False) -> Any:
    """A player that plays the move ``worth(view, payout)`` rates best (ties at random)."""

    def play(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        phase = view["phase"]
        if phase == "flip":
            return "ready"

        def best(options: list[tuple[str, float]]) -> str:
            top = max(v for _, v in options)
            return rng.choice([m for m, v in options if v >= top - 1e-9])

        if phase == "take":
            options = []
            for m in legal:
                if m.startswith("take "):
                    stone = view["pyramid"][int(m.split()[1]) - 1]["stone"]
                    rated = [worth(view, payout(view, stone, sq))
                             for sq in _all_placements(view, stone)]
                    options.append((m, max(rated, default=-1.0)))
            if talisman and max(v for _, v in options) <= 0:
                have = _mine(view)
                named = [m for m in legal if m.startswith("talisman ")
                         and have[m.split()[1]] < 9]
                if named:
                    return min(named, key=lambda m: have[m.split()[1]])
            return best(options)
        if phase == "place":
            placed = _placements(view, legal)
            if not placed:
                return legal[0]
            return best([(m, worth(view, payout(view, view["holding"], sq)))
                         for m, sq in placed])
        if phase == "gain":
            have = _mine(view)
            return min(legal, key=lambda m: (have[m.split()[1]] >= 9, have[m.split()[1]]))
        if phase == "ability" and abilities:
            return _best_shift(view, legal, rng)
        return "skip" if "skip" in legal else rng.choice(legal)

    return play


def _best_shift(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """The move or rotation that newly covers the most colour squares, none of a colour it
    has 9 of already (else skip)."""
    board, have = view["board"], _mine(view)
    best, chosen = 0, ["skip"]
    for m in legal:
        if m == "skip":
            continue
        _, start, _, end = m.split()
        a, b = _square(view, start), _square(view, end)
        if m.startswith("rotate "):
            new = [b]
        else:
            partner = _square(view, board[a]["partner"])
            b2 = b + partner - a
            new = [s for s in (b, b2) if s not in (a, partner)]
        shows = [board[s]["shows"] for s in new if board[s]["shows"] in COLOURS]
        count = -1 if any(have[c] >= 9 for c in shows) else len(shows)
        if count > best:
            best, chosen = count, [m]
        elif count == best and count:
            chosen.append(m)
    return rng.choice(chosen)


def _nine(view: dict[str, Any], paid: dict[str, Any]) -> float:
    return _points(view, paid, 9) + (0.5 if paid["again"] else 0.0)


def _grabby(view: dict[str, Any], paid: dict[str, Any]) -> float:
    have = _mine(view)
    if any(have[c] + n >= 13 for c, n in paid["got"].items()):
        return -100.0
    count = sum(n if have[c] + n <= 10 else -n for c, n in paid["got"].items())
    return float(count + (1 if paid["alone"] else 0)) + (0.5 if paid["again"] else 0.0)


def _cautious(view: dict[str, Any], paid: dict[str, Any]) -> float:
    got: dict[str, int] = paid["got"]
    points = _points(view, paid, 9)
    if sum(got.values()) > 5:
        return -10.0 + points / 10
    have = _mine(view)
    return points + sum(count * (9 - have[c]) / 90.0 for c, count in got.items())


PEOPLE = {
    "nine": _player(_nine),
    "grabby": _player(_grabby, abilities=True),
    "cautious": _player(_cautious, talisman=True),
}
