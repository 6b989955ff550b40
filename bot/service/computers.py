"""Computer players' choices: drawn from the table's seed so a game replays the same, made
off the event loop (``hard`` in a worker process, the others in a thread)."""

from __future__ import annotations

import asyncio
import hashlib
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import rules
from bot.service.pictures import cores
from bot.service.table import Table
from rules import computer


class Computers:
    """Chooses computer players' moves; ``close`` stops the worker processes."""

    def __init__(self) -> None:
        self.thinkers: ProcessPoolExecutor | None = None  # for hard computer players

    async def choose(self, table: Table, seat: int, level: str) -> str:
        """A computer player's move for ``seat`` at ``level``, seeded by the table's seed,
        its version and the seat (so a game replays the same). It sees only what the seat
        sees (``rules.computer.choose``). ``hard`` thinks in a worker process, the others
        in a thread, so the event loop keeps answering other channels meanwhile."""
        digest = hashlib.sha256(f"computer/{table.seed}/{table.version}/{seat}".encode())
        seed = int.from_bytes(digest.digest()[:8], "big")
        if computer.PLAYS[computer.level_of(level)] == "strong":
            if self.thinkers is None:
                self.thinkers = ProcessPoolExecutor(max_workers=max(1, cores() - 1))
            return await asyncio.wrap_future(self.thinkers.submit(
                choose, table.game.id, table.state, seat, level, seed))
        return await asyncio.get_running_loop().run_in_executor(
            None, choose, table.game.id, table.state, seat, level, seed)

    def close(self) -> None:
        """Stop the worker processes of hard computer players (if any started)."""
        if self.thinkers is not None:
            self.thinkers.shutdown(wait=False, cancel_futures=True)
            self.thinkers = None


def choose(game_id: str, state: Any, seat: int, level: str, seed: int) -> str:
    """``rules.computer.choose`` by game id (it runs in a thread or a worker process)."""
    return computer.choose(rules.GAMES[game_id], state, seat, level=level, seed=seed)
