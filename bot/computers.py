"""Computer players: their choices, in a thread or (the strong ones) a worker process,
seeded so that a game replays the same."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import rules
from bot.pictures import _cores
from bot.tables import TableError, Tables, _Table
from rules import computer

log = logging.getLogger("boardroom.service")


CHAIN_LIMIT = 10_000  # computer moves in a row before the service stops to ask why


class Computers(Tables):
    """Computer players at the tables: they move until a human must."""

    _thinkers: ProcessPoolExecutor | None = None  # 'strong' computer players

    def close(self) -> None:
        """Stop the worker processes of strong computer players (if any started)."""
        if self._thinkers is not None:
            self._thinkers.shutdown(wait=False, cancel_futures=True)
            self._thinkers = None

    async def _computers_move(self, table: _Table, said: list[tuple[int | None, rules.Event]]
                              ) -> None:
        """Computer players whose input is awaited move (``rules.computer.choose`` at the
        seat's level; a seat stored without one plays at random).

        Each move is its own transaction. A computer's choice is drawn from the game's seed
        and the version, so a game replays the same with the same seed. If anything fails,
        the chain stops where it is; the outbox finishes it after a restart.
        """
        computers = set(table.computers())
        game = table.game
        for _ in range(CHAIN_LIMIT):
            if table.status != "playing":
                return
            waiting = sorted(computers & table.awaited())
            if not waiting:
                return
            seat = waiting[0]
            try:
                legal = table.moves(seat)
                move = await self._choice(table, seat, table.seats[seat].level or "easy")
                state, events = game.play(table.state, seat, move, legal=legal)
                await self._commit(table, seat, move, state)
            except TableError:
                return  # another process moved this table on; it carries on from there
            except Exception:
                log.exception("A computer player could not move in channel %s",
                              table.channel_id)
                return
            said.extend((seat, e) for e in events)
        log.error("Computer players made %s moves in a row in channel %s; stopping",
                  CHAIN_LIMIT, table.channel_id)

    async def _choice(self, table: _Table, seat: int, level: str) -> str:
        """A computer player's move for ``seat`` at ``level``, seeded by the table's seed,
        its version and the seat (so a game replays the same). It sees only what the seat
        sees (``rules.computer.choose``). ``hard`` thinks in a worker process, the others
        in a thread, so the event loop keeps answering other channels meanwhile."""
        digest = hashlib.sha256(f"computer/{table.seed}/{table.version}/{seat}".encode())
        seed = int.from_bytes(digest.digest()[:8], "big")
        if computer.PLAYS[computer.level_of(level)] == "strong":
            if self._thinkers is None:
                self._thinkers = ProcessPoolExecutor(max_workers=max(1, _cores() - 1))
            return await asyncio.wrap_future(self._thinkers.submit(
                _choose, table.game.id, table.state, seat, level, seed))
        return await asyncio.get_running_loop().run_in_executor(
            None, _choose, table.game.id, table.state, seat, level, seed)



def _choose(game_id: str, state: Any, seat: int, level: str, seed: int) -> str:
    """``rules.computer.choose`` by game id (it runs in a thread or a worker process)."""
    return computer.choose(rules.GAMES[game_id], state, seat, level=level, seed=seed)
