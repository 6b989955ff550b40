"""Block Buster the way newcomers play it, from the seat's view and its legal moves alone.

Every player here places a block touching its previous one whenever one fits (a skip costs
-2 a space), skips as few spaces as it can when none touches, and passes only when nothing
fits at all. They differ in what they look for among the placements: the biggest block
first, room to go on, or the opponent's way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from importlib import resources
from typing import Any

GAME = "block-buster"

Cells = list[tuple[int, int]]

# What a player reads in the box: the blocks as drawn and each point block's 12 spaces.
DATA = json.loads(resources.files("data").joinpath("block-buster.json").read_text("utf-8"))
BLOCKS = {b["name"]: [(c[0], c[1]) for c in b["cells"]] for b in DATA["blocks"]}


def square_xy(name: str) -> tuple[int, int]:
    """'c4' -> (2, 3): files a.. left to right, ranks 1.. bottom to top."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


RING_OF = {square_xy(s): n for n, p in enumerate(DATA["point_blocks"]) for s in p["spaces"]}


def _turned(block: str, orientation: str) -> Cells:
    """The block's cells as the move names them: 'rN' turned N degrees clockwise, 'fN'
    mirrored first; from the anchor, the leftmost square of the lowest row."""
    cells = [(-x, y) if orientation[0] == "f" else (x, y) for x, y in BLOCKS[block]]
    for _ in range(int(orientation[1:]) // 90):
        cells = [(y, -x) for x, y in cells]
    low = min(y for _, y in cells)
    left = min(x for x, y in cells if y == low)
    return [(x - left, y - low) for x, y in cells]


def _cells(move: str) -> Cells:
    """The squares a placement covers, as (x, y)."""
    block, orientation, square = move.split()
    x0, y0 = square_xy(square)
    return [(x0 + dx, y0 + dy) for dx, dy in _turned(block, orientation)]


def _free(view: dict[str, Any], x: int, y: int) -> bool:
    return 0 <= y < view["ranks"] and 0 <= x < view["files"] and view["board"][y][x] == "."


def _around(cells: Cells) -> set[tuple[int, int]]:
    """The squares sharing a side with the block, not under it."""
    inside = set(cells)
    return {(x + dx, y + dy) for x, y in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            } - inside


def _open(view: dict[str, Any], cells: Cells) -> int:
    """Free squares around the block: where the next one can go."""
    return sum(1 for x, y in _around(cells) if _free(view, x, y))


def _points(view: dict[str, Any], cells: Cells) -> float:
    """What the block does for the point blocks whose spaces it covers: a point block led
    or taken from the leader counts most, one already won for good nothing."""
    me = view["turn"]
    gain = 0.0
    by_point: dict[int, int] = {}
    for xy in cells:
        if xy in RING_OF:
            by_point[RING_OF[xy]] = by_point.get(RING_OF[xy], 0) + 1
    for point, n in by_point.items():
        info = view["point_blocks"][point]
        if info["secured"] is not None:
            continue
        counts = list(info["counts"])
        best_other = max(c for i, c in enumerate(counts) if i != me)
        before, after = counts[me] > best_other, counts[me] + n > best_other
        gain += n * 0.5 + (3 if after and not before else 0)
    return gain


def _blocking(view: dict[str, Any], cells: Cells) -> int:
    """Free squares around the opponents' previous blocks that the block takes."""
    me = view["turn"]
    theirs = {square_xy(s) for c, squares in enumerate(view["previous"]) if c != me
              for s in squares}
    near = {xy for xy in _around(list(theirs)) if _free(view, *xy)}
    return sum(1 for xy in cells if xy in near)


def _play(rate: Callable[[dict[str, Any], Cells, str], float]) -> Callable[
        [dict[str, Any], list[str], random.Random], str]:
    """A player that never skips when a block touches, skips the fewest spaces when none
    does, passes only when nothing fits, and otherwise places the best by ``rate``."""

    def play(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        placements = [m for m in legal if m != "pass"]
        if not placements:
            return "pass"
        moves = placements
        if view["previous"][view["turn"]]:
            gaps = {m: _gap(view, _cells(m)) for m in placements}
            fewest = min(gaps.values())
            moves = [m for m in placements if gaps[m] == fewest]
        if len(moves) > 400:
            moves = rng.sample(moves, 400)
        return max(moves, key=lambda m: (rate(view, _cells(m), m), rng.random()))

    return play


def _gap(view: dict[str, Any], cells: Cells) -> int:
    previous = [square_xy(s) for s in view["previous"][view["turn"]]]
    return min(abs(x - a) + abs(y - b) for x, y in cells for a, b in previous) - 1


def biggest_first(view: dict[str, Any], cells: Cells, move: str) -> float:
    """Place the biggest block, where it takes point blocks and leaves room around it."""
    return 4 * len(cells) + _points(view, cells) + 0.3 * _open(view, cells)


def chain_open(view: dict[str, Any], cells: Cells, move: str) -> float:
    """Keep the chain open: the most free squares around the new block."""
    return _open(view, cells) + len(cells) + 0.5 * _points(view, cells)


def block_them(view: dict[str, Any], cells: Cells, move: str) -> float:
    """Crowd the opponent's last block, then take point blocks with big blocks."""
    return 3 * _blocking(view, cells) + len(cells) + _points(view, cells) \
        + 0.2 * _open(view, cells)


PEOPLE = {
    "biggest first": _play(biggest_first),
    "chain open": _play(chain_open),
    "block them": _play(block_them),
}
