"""The seam between the store and its engines, and the machinery the store runs on it.

``bot.store.Store`` is written once, in SQL both engines speak with ``?`` marks; an engine
(``bot.store.sqlite``, ``bot.store.postgres``) supplies only what differs (``Engine``,
``Session``). Written once over it: every access is one job (``Jobs.run``), an async
function of a session run as its own task and awaited through ``asyncio.shield``, so a
cancelled caller never cuts it short or leaves a transaction half-done; jobs whose order
matters take the lock in turn (on SQLite, whose one connection carries every statement,
every job does). ``Moves`` batches moves; ``Marks`` writes delivered marks and waits;
``Seam`` is what the store's repositories (one per aggregate) share.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, suppress
from importlib import resources
from typing import Any, NamedTuple, TypeVar

from bot.records import WaitRow
from bot.store.errors import StoreUnavailable

log = logging.getLogger("boardroom.store")

FLUSH_DELAY = 0.25  # seconds a delivered mark may wait to be written with others
# Seconds a due job handed out by ``store.jobs.claim`` is held for the process that took it:
# tending it sets its next moment; if that process dies first, it is due again then.
CLAIM = 60.0
MOVE_BATCH = 200  # moves written by one statement at most
REPORT_EVERY = 300.0  # seconds between two log lines about the same database trouble
T = TypeVar("T")
# The schema, written once: the migrations in order, each a numbered file of migrations/ in
# SQLite's words whose first line (a comment) says what it adds; PostgreSQL's engine
# translates the types, each engine adds the move log's triggers to the first and counts the
# steps run. Append new steps as new files; never edit a released one.
MIGRATION_FILES = resources.files("bot.store").joinpath("migrations")
STEPS = [MIGRATION_FILES.joinpath(name).read_text(encoding="utf-8").split("\n", 1)[1] for name in
         sorted(f.name for f in MIGRATION_FILES.iterdir() if f.name.endswith(".sql"))]


class Move(NamedTuple):
    """A move as written: the game's new state and how it ends the row's move (its
    ``status``, and ``finished`` for the last), made from ``version``. Its values, in this
    order, are the rows of an engine's batch (``Engine.batch``)."""

    game_id: int
    state: str
    seat: int
    text: str
    time: float
    status: str
    finished: float | None
    version: int


def now_or_wall(now: float | None) -> float:
    """The service's clock passes the time down; a tool or a store test gets the wall's."""
    return time.time() if now is None else now


class Session(ABC):
    """A connection as one job sees it: nothing else runs on it until the job ends."""

    @abstractmethod
    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """The rows a statement gives, each a sequence of its columns."""

    @abstractmethod
    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of values (none: nothing runs)."""

    @abstractmethod
    async def insert(self, sql: str, parameters: Sequence[Any]) -> int:
        """Insert one row into a table keyed by ``id``; the id it was given."""

    @abstractmethod
    async def lock_games(self, ids: Sequence[int]) -> None:
        """Hold these games' rows to the end of the transaction, taken in id order, so
        that two processes writing the same games take turns."""

    @abstractmethod
    async def lock(self, key: str) -> None:
        """Hold the lock named ``key`` to the end of the transaction (a read that decides
        a write, such as a game's ratings)."""


Work = Callable[[Session], Awaitable[T]]  # a job: statements on one session, alone


class Engine(ABC):
    """Where the tables are: a SQLite file or a PostgreSQL database."""

    serial: bool  # one connection carries every job, so every job takes the store's lock
    batches: bool  # several moves can be written by one statement (``batch``)
    integrity: tuple[type[Exception], ...]  # the errors of a broken unique key
    active_games: str  # the FROM of a query over the open and running tables alone
    shown: str  # where the tables are, as sentences and logs may show it (no password)

    @abstractmethod
    async def job(self, work: Work[T], transaction: bool) -> T:
        """``work`` on a session; with ``transaction``, in one write transaction that
        commits if it returns and rolls back whole if it raises."""

    @abstractmethod
    def kind(self, error: BaseException) -> str | None:
        """'full', 'busy' or 'unwritable' for an error that means "not now" (nothing was
        written, and trying later may work); None for any other."""

    @abstractmethod
    def batch(self, moves: Sequence[Move]) -> tuple[str, Sequence[Any]]:
        """One statement and its values for moves of different games: each game still at
        its move's version takes it (as ``Store.commit_move``); it returns their ids."""

    @abstractmethod
    async def claim(self, session: Session, now: float, limit: int, until: float
                    ) -> list[Any]:
        """In a transaction: the jobs due by ``now`` (``limit`` at most) that no other
        process is claiming, their ``due`` moved to ``until``; each row (kind, owner_id,
        part, due) with the moment it was due."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Any]:
        """A write transaction on a connection of the engine's own kind, which it yields
        (for tests and tools; the caller holds the store's lock)."""

    @abstractmethod
    async def backup(self, target: str) -> None:
        """A consistent copy of the database in the file ``target``, or ``StoreError``
        saying how to back it up instead."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (every job has ended)."""


MOVE_SQL = ("UPDATE games SET state = ?, version = version + 1, last_seat = ?, last_text = ?, "
            "updated = ?, status = ?, finished = ? "
            "WHERE id = ? AND version = ? AND status = 'playing'")
# Delivered marks: a version posted beyond ``announced`` (and no further than the game's
# version) is noted in ``posted``; ``announced`` then moves up to the end of the run of
# posted versions that follows it, if there is one; and the notes it passed are dropped.
# ``posted`` holds only the versions beyond a gap, usually none.
POSTED_SQL = ("INSERT INTO posted (game_id, version) SELECT id, CAST(? AS INTEGER) FROM games "
              "WHERE id = ? AND announced < ? AND version >= ? ON CONFLICT DO NOTHING")
ANNOUNCED_SQL = (
    "UPDATE games SET announced = (SELECT MIN(p.version) FROM posted p "
    "WHERE p.game_id = games.id AND p.version > games.announced AND NOT EXISTS ("
    "SELECT 1 FROM posted q WHERE q.game_id = p.game_id AND q.version = p.version + 1)) "
    "WHERE id = ? AND EXISTS (SELECT 1 FROM posted WHERE posted.game_id = games.id "
    "AND posted.version = games.announced + 1)")
POSTED_DROP_SQL = ("DELETE FROM posted WHERE game_id = ? AND version <= "
                   "(SELECT announced FROM games WHERE id = ?)")
WAIT_SQL = ("INSERT INTO jobs (kind, owner_id, part, since, reminded, due, ran, mark) "
            "VALUES ('wait', ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (kind, owner_id, part) DO UPDATE SET since = excluded.since, "
            "reminded = excluded.reminded, due = excluded.due, "
            "ran = excluded.ran, mark = excluded.mark")


def wait_values(w: WaitRow) -> tuple[int, int, float, int, float | None, float, float | None]:
    """A wait's values in ``WAIT_SQL``'s order."""
    return (w.game_id, w.seat, w.since, w.reminded, w.due, w.ran, w.mark)


class Jobs:
    """The store's jobs on its engine, and the lock that orders them."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.lock = asyncio.Lock()
        self._reported: dict[str, float] = {}  # trouble kind -> when it was last logged

    async def run(self, work: Work[T], *, ordered: bool = False,
                  transaction: bool = False) -> T:
        """``work(session)`` as one job (under the lock if ``ordered``, and always on
        SQLite; in one transaction if ``transaction``). Errors that mean "not now" (disk
        full, a lock held too long, an unwritable file) come back as ``StoreUnavailable``."""
        job = self._alone(work, transaction) if ordered or self.engine.serial \
            else self.job(work, transaction)
        return await asyncio.shield(asyncio.ensure_future(job))

    async def _alone(self, work: Work[T], transaction: bool) -> T:
        async with self.lock:
            return await self.job(work, transaction)

    async def job(self, work: Work[T], transaction: bool = False) -> T:
        """``work(session)`` for a caller that holds the lock already (where needed)."""
        try:
            return await self.engine.job(work, transaction)
        except Exception as error:
            kind = self.engine.kind(error)
            if kind is None:
                raise
            now = time.monotonic()
            if now - self._reported.get(kind, -REPORT_EVERY) >= REPORT_EVERY:
                self._reported[kind] = now
                log.error("The database %s refused a write (%s: %s); players are told to "
                          "try again later, and other tables go on. (Logged once per %d "
                          "minutes.)", self.engine.shown, kind, error, REPORT_EVERY // 60)
            raise StoreUnavailable(kind) from error


class Moves:
    """The move batcher: moves of different games that wait for the database at the same
    moment are written by one statement (one transaction, one round trip), each checked
    against its own game's version, and each caller told whether its move was written."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs
        self._waiting: list[tuple[Move, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def commit(self, move: Move) -> bool:
        """Whether the move was written (and committed)."""
        written: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, written))
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._write())
        return await written

    async def close(self) -> None:
        if self._writer is not None:
            await self._writer

    async def _write(self) -> None:
        """Write the waiting moves a batch at a time (those that come in meanwhile go in
        the next), at most one move of a game per batch, so its moves go in the order they
        came. No caller's own task (callers await their futures): it holds the lock itself."""
        limit = MOVE_BATCH if self.jobs.engine.batches else 1
        try:
            while self._waiting:
                async with self.jobs.lock:
                    batch: list[tuple[Move, asyncio.Future[bool]]] = []
                    later: list[tuple[Move, asyncio.Future[bool]]] = []
                    games: set[int] = set()
                    for move, written in self._waiting:
                        if not written.done():  # else its caller gave up before its turn
                            fits = move.game_id not in games and len(batch) < limit
                            (batch if fits else later).append((move, written))
                            games.add(move.game_id)
                    self._waiting = later
                    if batch:
                        await self._batch(batch)
        finally:
            self._writer = None

    async def _batch(self, batch: list[tuple[Move, asyncio.Future[bool]]]) -> None:
        """One statement for the batch (the caller holds the lock). Rows go in game order,
        so that two processes writing batches lock the rows they share in the same order."""
        moves = sorted(move for move, _ in batch)
        try:
            if len(batch) == 1:
                (one,) = moves
                row = (one.state, one.seat, one.text, one.time, one.status, one.finished,
                       one.game_id, one.version)
                count = await self.jobs.job(lambda session: session.execute(MOVE_SQL, row))
                changed = {one.game_id} if count == 1 else set()
            else:
                sql, values = self.jobs.engine.batch(moves)
                changed = {found[0] for found in await self.jobs.job(
                    lambda session: session.fetch(sql, values))}
        except StoreUnavailable as error:
            for _, written in batch:  # nothing of the batch was written, nor would be alone
                if not written.done():
                    written.set_exception(error)
            return
        except Exception as error:
            if len(batch) == 1:
                if not batch[0][1].done():
                    batch[0][1].set_exception(error)
                return
            # The statement failed as a whole and wrote nothing: each move again on its
            # own, so that each caller gets the answer (or the error) its move alone gets.
            for entry in batch:
                await self._batch([entry])
            return
        except BaseException:
            for _, written in batch:
                written.cancel()
            raise
        for move, written in batch:
            if not written.done():
                written.set_result(move.game_id in changed)


class Marks:
    """Delivered marks and waits, held in memory and written together in one transaction
    when the one timer fires (``delay``, ``FLUSH_DELAY`` unless told, after the first of
    them), before any read
    (which writes them without touching the timer), and at ``close``."""

    def __init__(self, jobs: Jobs, delay: float = FLUSH_DELAY) -> None:
        self.jobs = jobs
        self.delay = delay
        self.delivered: set[tuple[int, int]] = set()  # (game, version) not yet written
        self.waits: dict[int, list[WaitRow]] = {}  # game -> its waits, not yet written
        self._timer: asyncio.TimerHandle | None = None
        self._flushing: set[asyncio.Future[None]] = set()

    def deliver(self, game_id: int, version: int) -> None:
        self.delivered.add((game_id, version))
        self._soon()

    def put_waits(self, game_id: int, waits: list[WaitRow]) -> None:
        self.waits[game_id] = waits
        self._soon()

    def _soon(self) -> None:  # the next mark after the timer fires arms it again
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.delay, self._later)

    def _later(self) -> None:
        self._timer = None
        if self.delivered or self.waits:  # else a read wrote them meanwhile
            task = asyncio.ensure_future(self.flush_quietly())
            self._flushing.add(task)
            task.add_done_callback(self._flushing.discard)

    async def flush(self) -> None:
        if not self.delivered and not self.waits:
            return
        marks, self.delivered = sorted(self.delivered), set()
        waits, self.waits = self.waits, {}
        touched = sorted({game_id for game_id, _ in marks})
        games = sorted(waits)

        async def write(session: Session) -> None:
            if marks:  # two processes marking one game take turns (rows locked by id)
                await session.lock_games(touched)
                await session.executemany(POSTED_SQL, [(v, g, v, v) for g, v in marks])
                await session.executemany(ANNOUNCED_SQL, [(g,) for g in touched])
                await session.executemany(POSTED_DROP_SQL, [(g, g) for g in touched])
            await session.executemany(
                "DELETE FROM jobs WHERE kind = 'wait' AND owner_id = ?", [(g,) for g in games])
            await session.executemany(WAIT_SQL, [
                wait_values(w) for g in games for w in waits[g]])

        try:
            await self.jobs.run(write, ordered=True, transaction=True)
        except BaseException:
            self.delivered.update(marks)
            for game_id, each in waits.items():  # unless a newer list came meanwhile
                self.waits.setdefault(game_id, each)
            raise

    async def flush_quietly(self) -> None:
        """``flush``, but a database refusing writes for now does not stop a read: the
        marks wait for the next flush (at worst a reply is posted twice after a restart)."""
        with suppress(StoreUnavailable):
            await self.flush()

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        await self.flush_quietly()
        for task in list(self._flushing):
            await task


class Seam:
    """What every repository of the store runs on, one per store: its engine, the jobs
    there (``Jobs``), the move batcher and the marks held for a batch (``Marks``)."""

    def __init__(self, engine: Engine, flush_delay: float = FLUSH_DELAY) -> None:
        self.engine = engine
        self.jobs = Jobs(engine)
        self.moves = Moves(self.jobs)
        self.marks = Marks(self.jobs, flush_delay)

    async def run(self, work: Work[T], *, ordered: bool = False,
                  transaction: bool = False) -> T:
        """One job (``Jobs.run``)."""
        return await self.jobs.run(work, ordered=ordered, transaction=transaction)

    async def rows(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read, which sees every delivered mark and wait made so far."""
        if self.marks.delivered or self.marks.waits:
            await self.marks.flush_quietly()
        return await self.jobs.run(lambda session: session.fetch(sql, parameters))

    async def write(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        """One statement, its own transaction; how many rows it changed."""
        return await self.jobs.run(lambda session: session.execute(sql, parameters))

    async def close(self) -> None:
        """Write what waits (moves, marks); the engine stays open."""
        await self.moves.close()
        await self.marks.close()


class Repository:
    """The queries of one aggregate, in SQL both engines speak (``?`` marks), on the
    store's ``Seam``."""

    def __init__(self, seam: Seam) -> None:
        self.seam = seam
