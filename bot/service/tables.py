"""The tables a process holds, one per channel: loaded from the store, checked against it
before each command, and written through one path, a version at a time.

Every version of a table (the deal, each move, an undo entry) is written by ``Tables.write``:
one conditional write of the state with its version, so that of two writers (two bot
processes on one database) only the first succeeds; the other reads the table again and
is told (``Conflict``). A table that cannot be read is set aside, and every other table
goes on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import rules
from bot import ratings, words
from bot.records import GameRow, Rated
from bot.service.table import (
    Conflict,
    Table,
    TableError,
    TableSetAside,
    colours_of,
    decode,
    encode,
)
from bot.store import Store
from bot.store.errors import StoreError

log = logging.getLogger("boardroom.service")


@dataclass(frozen=True)
class Deal:
    """What the first version carries besides its state: the seed it was dealt from, and
    the salt and commitment that keep the seed secret until the end (``bot.fairness``)."""

    seed: int
    salt: str
    commitment: str


class Tables:
    """The tables this process holds, a lock per channel, and the one write path."""

    def __init__(self, store: Store, *, shown: Callable[[str], str],
                 now: Callable[[], float]) -> None:
        self.store = store
        self.shown = shown
        self.now = now
        self._held: dict[int, Table] = {}  # channel -> its open or running table
        self._set_aside: set[int] = set()  # games set aside by this process (logged once)
        self._locks: dict[int, asyncio.Lock] = {}
        # game -> versions this process wrote and has not posted yet: its replies mark them
        # posted (``Outbox.delivered``), and its sweep leaves them alone while in flight
        self.owed: dict[int, set[int]] = {}
        # Told of each game this process ends (by its rules or with /game end), after it
        # is written: the leagues record their tables' results (``Leagues.finished``).
        self.on_end: Callable[[int], Awaitable[None]] | None = None

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock: its commands run one at a time."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def held(self) -> list[Table]:
        """The tables this process holds now."""
        return list(self._held.values())

    # -- finding a channel's table

    async def active(self, channel_id: int) -> Table:
        """The channel's open or running table, or a sentence saying there is none.

        The table held here is checked against the database first (one indexed read of
        the channel's game row): another process may have moved, joined, started or ended
        it, and a stale table would refuse a move with an old turn or show an old board."""
        table = self._held.get(channel_id)
        row = await self.store.tables.active_game(channel_id)
        if table is not None:
            if row is not None and await self._current(table, row):
                return table
            self.forget(table)
        if row is None:
            latest = await self.store.tables.latest_game(channel_id)
            if latest is not None and latest.damaged:
                raise TableSetAside()
            if latest is not None and latest.status in ("over", "ended"):
                raise TableError(words.say("tables.over"))
            raise TableError(words.say("tables.none"))
        table = self._held[channel_id] = await self.load(row)
        return table

    async def running(self, channel_id: int) -> Table:
        """The channel's table once it has started."""
        table = await self.active(channel_id)
        if table.status == "open":
            raise TableError(words.say("tables.not_started", opener=table.opener()))
        return table

    async def latest(self, channel_id: int) -> Table:
        """The running table, else the channel's last one (to look at a finished game)."""
        try:
            return await self.active(channel_id)
        except TableError:
            row = await self.store.tables.latest_game(channel_id)
            if row is None:
                raise
            return await self.load(row)

    async def opened(self, row: GameRow) -> Table:
        """Hold the table just created in ``row``'s channel."""
        table = self._held[row.channel_id] = await self.load(row)
        return table

    async def _current(self, table: Table, row: GameRow) -> bool:
        """Whether the held table is still the one the stored row holds: same game,
        version, status and settings, and the same seats (joins, resignations and
        replacements do not change the version)."""
        if (row.id, row.version, row.status, row.turn_time, row.reminders, row.bank_start,
                row.bank_add) != (table.id, table.version, table.status, table.turn_time,
                                  table.reminders, table.bank_start, table.bank_add):
            return False
        return await self.store.seats.of(row.id) == table.seats

    def forget(self, table: Table) -> None:
        if self._held.get(table.channel_id) is table:
            del self._held[table.channel_id]

    async def reload(self, table: Table) -> None:
        """Drop a table whose stored row changed under us (another process wrote it)."""
        self._held.pop(table.channel_id, None)
        row = await self.store.tables.game(table.id)
        if row is not None and row.status in ("open", "playing"):
            self._held[table.channel_id] = await self.load(row)

    # -- reading a table

    async def load(self, row: GameRow) -> Table:
        """The table a stored row holds. A row that cannot be read (options or state that
        are not valid JSON, a state ``game.load`` refuses, a game no longer known) is set
        aside, and ``TableSetAside`` says so; every other table goes on."""
        if row.damaged and row.status not in ("open", "playing") and (
                row.announced >= row.version):
            raise TableSetAside()  # set aside already
        try:
            if row.damaged:
                raise ValueError(row.damaged)
            return await self._read(row)
        except StoreError:
            raise  # the database, not the row: nothing to set aside
        except Exception as error:
            await self._put_aside(row, error)
            raise TableSetAside() from None

    async def _read(self, row: GameRow) -> Table:
        game = rules.GAMES.get(row.game)
        if game is None:
            raise ValueError(f"there is no game called {row.game!r}")
        table = Table(id=row.id, channel_id=row.channel_id, game=game, options=row.options,
                      status=row.status, opener_id=row.opener_id,
                      seats=await self.store.seats.of(row.id), seed=row.seed,
                      version=row.version, shown=self.shown, turn_time=row.turn_time,
                      reminders=row.reminders, salt=row.salt, commitment=row.commitment,
                      bank_start=row.bank_start, bank_add=row.bank_add)
        if row.state is not None:
            table.state = decode(game, row.state)
            table.colours = colours_of(game.view(table.state, None), len(table.seats))
        return table

    async def _put_aside(self, row: GameRow, error: Exception) -> None:
        """Set an unreadable table aside: logged once, marked in the store (which frees
        its channel), and forgotten here."""
        current = self._held.get(row.channel_id)
        if current is not None and current.id == row.id:
            del self._held[row.channel_id]
        if row.id in self._set_aside:
            return
        self._set_aside.add(row.id)
        log.error("Game %s in channel %s could not be read from the database and is set "
                  "aside (%s: %s); its rows stay in the file", row.id, row.channel_id,
                  type(error).__name__, error)
        try:
            await self.store.tables.set_aside(row.id, f"{type(error).__name__}: {error}",
                                       now=self.now())
        except Exception:
            log.exception("Could not mark game %s as set aside", row.id)

    # -- the one write path

    async def write(self, table: Table, state: Any, *, seat: int = 0, text: str = "",
                    deal: Deal | None = None) -> None:
        """Write the table's next version: the deal (with ``deal``), a move (``seat`` and
        its canonical ``text``), or an undo entry (``text`` from ``undo.entry``); the move
        that ends the game is written with what it does to the ratings. Written only if the
        stored table is still at ``table.version``; then the table holds the new state.
        If another writer came first, the table is read again and ``Conflict`` raised."""
        now, data = self.now(), encode(table.game, state)
        over = deal is None and table.game.outcome(state) is not None
        if deal is not None:
            written = await self.store.tables.start_game(table.id, deal.seed, data, salt=deal.salt,
                                                  commitment=deal.commitment, now=now)
        elif over:
            table.rated = await self._finish(table, seat, text, state, data, now)
            written = table.rated is not None
        else:
            written = await self.store.tables.commit_move(table.id, table.version, seat, text, data,
                                                   now=now)
        if not written:
            await self.reload(table)
            raise Conflict()
        table.state, table.version = state, table.version + 1
        if deal is not None:
            table.status, table.seed = "playing", deal.seed
            table.salt, table.commitment = deal.salt, deal.commitment
            table.colours = colours_of(table.game.view(state, None), len(table.seats))
            table.named = None
        self.owed.setdefault(table.id, set()).add(table.version)  # this process posts it
        if over:
            table.status = "over"
            self.forget(table)
            await self.ended(table.id)

    async def ended(self, game_id: int) -> None:
        """Tell ``on_end`` that this game ended (a failure there is logged: the game's end
        stands, and the league catches up at its next due check)."""
        if self.on_end is not None:
            try:
                await self.on_end(game_id)
            except Exception:
                log.exception("Could not record the end of game %s in its league", game_id)

    async def _finish(self, table: Table, seat: int, text: str, state: Any, data: str,
                      now: float) -> Rated | None:
        """The move that ends the game, in one transaction with the ratings it changes
        (``store.tables.finish_game``); None if another writer moved the game on first."""
        outcome = table.game.outcome(state)
        assert outcome is not None
        return await self.store.tables.finish_game(
            table.id, table.version, seat, text, data,
            users=tuple(s.user_id or 0 for s in table.seats),
            unrated=ratings.seated_reason(table.seats),
            rate=ratings.rater(table.game.id, outcome, table.seats, now), now=now)
