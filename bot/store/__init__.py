"""Storage for tables (games, seats, the append-only move log, waits, players, ratings,
undo requests) in a SQLite file or on a PostgreSQL server: ``Store``, written once for both.

A store is its repositories, one per aggregate, each written once in SQL both engines speak
over one ``engine.Seam`` (``bot.store.engine`` says what each engine supplies):
``store.tables`` (tables and their moves, undo requests, ratings: ``tables.py``),
``store.seats`` (``seats.py``), ``store.members`` (players and their time away:
``members.py``), ``store.deliveries`` (what the channels were told: ``deliveries.py``),
``store.jobs`` (what is due when: ``jobs.py``), ``store.threads`` (tables in threads,
servers' settings: ``threads.py``) and ``store.leagues`` (leagues and their tables:
``leagues.py``). Every table is declared once, in
``schema.py``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast

from bot.store.deliveries import Deliveries
from bot.store.engine import FLUSH_DELAY, Engine, Seam
from bot.store.errors import StoreError
from bot.store.jobs import DueJobs
from bot.store.leagues import Leagues
from bot.store.members import Members
from bot.store.seats import Seats
from bot.store.sqlite import SQLite, default_path
from bot.store.tables import Tables
from bot.store.threads import Threads

if TYPE_CHECKING:
    import aiosqlite
    import asyncpg

    from bot.store.postgres import Postgres

SYNC_VAR = "BOARDROOM_DB_SYNC"
SCHEMES = ("postgresql://", "postgres://")  # a location that names a PostgreSQL database


def is_postgres(where: str) -> bool:
    """Whether ``BOARDROOM_DB`` (or a ``--db``) names a PostgreSQL database."""
    return where.lower().startswith(SCHEMES)


class Store:
    """The database. Open with ``await Store.open(where)``; close with ``await store.close()``.
    Every access is a job (``bot.store.engine.Jobs``) of one of its repositories."""

    def __init__(self, engine: Engine, path: str, *, flush_delay: float = FLUSH_DELAY
                 ) -> None:
        self.engine = engine
        self.path = path  # where the tables are: a file path or a database URL, as given
        self._seam = Seam(engine, flush_delay)
        self.tables = Tables(self._seam)
        self.seats = Seats(self._seam)
        self.members = Members(self._seam)
        self.deliveries = Deliveries(self._seam)
        self.jobs = DueJobs(self._seam)
        self.threads = Threads(self._seam)  # tables in threads, servers' settings
        self.leagues = Leagues(self._seam)
        self._closed = False

    @classmethod
    async def open(cls, where: str | None = None, *, synchronous: str | None = None,
                   flush_delay: float = FLUSH_DELAY) -> Store:
        """Open (creating or upgrading) the tables at ``where`` (else ``$BOARDROOM_DB``,
        else ``boardroom.db``): on the PostgreSQL server a ``postgresql://`` or
        ``postgres://`` URL names, else in that SQLite file; ``StoreError`` says why not.
        ``synchronous`` (else ``$BOARDROOM_DB_SYNC``, else NORMAL): with NORMAL a committed
        move survives any crash of the process; FULL a power cut too, at a lower rate.
        ``flush_delay``: seconds a delivered mark or a wait may wait to be written with
        others (tests that step through time at once take 0)."""
        synchronous = (synchronous or os.environ.get(SYNC_VAR) or "NORMAL").upper()
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"{SYNC_VAR} must be FULL or NORMAL, not {synchronous!r}.")
        where = where or default_path()
        engine: Engine
        if is_postgres(where):
            from bot.store.postgres import Postgres  # asyncpg is imported where it is used

            engine = await Postgres.open(where, synchronous)
        else:
            engine = await SQLite.open(where, synchronous)
        return cls(engine, where, flush_delay=flush_delay)

    @property
    def db(self) -> aiosqlite.Connection:  # for tests and tools (AttributeError on PostgreSQL)
        return cast(SQLite, self.engine).db

    @property
    def pool(self) -> asyncpg.Pool[asyncpg.Record]:  # likewise (AttributeError on SQLite)
        return cast("Postgres", self.engine).pool

    async def close(self) -> None:
        if self._closed:
            return
        await self._seam.close()
        self._closed = True
        # After the jobs waiting for the lock (their callers may be gone).
        async with self._seam.jobs.lock:
            await self.engine.close()

    async def backup(self, target: str) -> None:
        """A consistent copy of the database in the file ``target`` (replaced if it exists),
        made while the bot's writes go on (SQLite's online backup); on PostgreSQL,
        ``StoreError`` says to use ``pg_dump``."""
        await self._seam.marks.flush_quietly()  # the copy holds every mark made so far
        await self.engine.backup(target)

    async def flush(self) -> None:
        """Write the delivered marks and waits held in memory, in one transaction (kept
        for later if the database refuses them now: ``StoreUnavailable``)."""
        await self._seam.marks.flush()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        """For tests and tools: a write transaction on the engine's own connection, which
        it yields (with the engine's own marks); no batch of moves, marks or waits (on
        SQLite, no statement at all) of this store runs until it ends."""
        async with self._seam.jobs.lock, self.engine.transaction() as db:
            yield db
