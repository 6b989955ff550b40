"""SQLite storage for tables: games, seats and the append-only move log.

One file, opened through aiosqlite in autocommit mode with a WAL journal. The schema is a
list of migrations; ``PRAGMA user_version`` says how many have run, so a database written by
an older version upgrades in place when it is opened. Every statement is parameterised.

A move is a single ``UPDATE`` of its game's row: the new state, ``version + 1``, and the move
itself in ``last_seat``/``last_text``. It only matches while the row still holds the version
the move was computed from, and a trigger copies the move into ``moves`` inside the same
statement, so state, version and log are written by one transaction in one round trip.
Moves of different games that arrive while the database is busy are written together, by
one such statement over all their rows (each still checked against its own version).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from functools import lru_cache
from typing import Any, TypeVar

import aiosqlite

import rules
from bot.records import (
    GameRow,
    MoveRow,
    PlayerRow,
    Rated,
    RatingRow,
    SeatRow,
    UndoRow,
    WaitRow,
)

log = logging.getLogger("boardroom.store")
_T = TypeVar("_T")
# A job: statements run one after the other on the connection, alone (``Store._run``).
_Job = Callable[[aiosqlite.Connection], Awaitable[_T]]

ENV_VAR = "BOARDROOM_DB"
SYNC_VAR = "BOARDROOM_DB_SYNC"
DEFAULT_PATH = "boardroom.db"

# Statuses: 'open' (seats being taken), 'playing', 'over' (the rules ended it) and 'ended'
# (stopped by the opener or a moderator). Only open and playing tables hold their channel.
ACTIVE = ("open", "playing")
FLUSH_DELAY = 0.25  # seconds a delivered mark may wait to be written with others
MOVE_BATCH = 200  # moves written by one statement at most
QUICK_CHECK_BYTES = 64 * 1024 * 1024  # files up to this size are checked page by page at open
REPORT_EVERY = 300.0  # seconds between two log lines about the same database trouble
NEW_FILE_GRACE = 1.0  # seconds a just-made empty file may wait for its maker's header
# Seconds a due wait handed out by ``due_waits`` is held for the process that took it:
# tending it sets its next moment; if that process dies first, it is due again then.
CLAIM = 60.0

MIGRATIONS: list[str] = [
    # 1: games, seats, the move log.
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        channel_id  INTEGER NOT NULL,
        guild_id    INTEGER,
        game        TEXT    NOT NULL,
        options     TEXT    NOT NULL DEFAULT '{}',
        status      TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'playing', 'over', 'ended')),
        opener_id   INTEGER NOT NULL,
        seed        INTEGER,
        state       TEXT,
        version     INTEGER NOT NULL DEFAULT 0,
        announced   INTEGER NOT NULL DEFAULT 0,
        last_seat   INTEGER,
        last_text   TEXT,
        created     REAL    NOT NULL,
        updated     REAL    NOT NULL,
        started     REAL,
        finished    REAL
    );
    CREATE UNIQUE INDEX games_one_table_per_channel
        ON games (channel_id) WHERE status IN ('open', 'playing');
    CREATE INDEX games_by_channel ON games (channel_id, id);
    CREATE INDEX games_unannounced ON games (status) WHERE announced < version;

    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat    INTEGER NOT NULL,
        user_id INTEGER,
        name    TEXT    NOT NULL,
        kind    TEXT    NOT NULL CHECK (kind IN ('human', 'computer')),
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id)
        WHERE user_id IS NOT NULL;

    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        version INTEGER NOT NULL,
        seat    INTEGER NOT NULL,
        text    TEXT    NOT NULL,
        time    REAL    NOT NULL,
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID;

    CREATE TRIGGER moves_logged AFTER UPDATE OF version ON games
        WHEN NEW.version > OLD.version AND NEW.last_text IS NOT NULL
    BEGIN
        INSERT INTO moves (game_id, version, seat, text, time)
        VALUES (NEW.id, NEW.version, NEW.last_seat, NEW.last_text, NEW.updated);
    END;
    CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
    BEGIN
        SELECT RAISE(ABORT, 'the move log is append-only');
    END;
    CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
    BEGIN
        SELECT RAISE(ABORT, 'the move log is append-only');
    END;
    """,
    # 2: a table whose stored row could not be read is set aside (``Store.set_aside``):
    # why, in ``damaged``; its status becomes 'ended' so that the channel is free again.
    """
    ALTER TABLE games ADD COLUMN damaged TEXT;
    """,
    # 3: games over days. A computer seat's level; a seat handed on ('resigned' or
    # 'replaced', and by whom); each table's clock and reminders; one row per awaited human
    # seat (``waits``: since when, reminders sent, the next moment something is due, found
    # through an index so the scheduler never scans); each player's quiet hours, time away
    # and when they were last reminded.
    """
    ALTER TABLE seats ADD COLUMN level TEXT;
    ALTER TABLE seats ADD COLUMN handed TEXT;
    ALTER TABLE seats ADD COLUMN former INTEGER;
    UPDATE seats SET level = 'random' WHERE kind = 'computer';
    ALTER TABLE games ADD COLUMN turn_time REAL;
    ALTER TABLE games ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1;

    CREATE TABLE waits (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        seat     INTEGER NOT NULL,
        since    REAL    NOT NULL,
        reminded INTEGER NOT NULL DEFAULT 0,
        due      REAL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX waits_due ON waits (due) WHERE due IS NOT NULL;

    CREATE TABLE players (
        user_id    INTEGER PRIMARY KEY,
        quiet_from INTEGER,
        quiet_to   INTEGER,
        timezone   TEXT,
        reminded   REAL,
        mentioned  REAL
    );
    CREATE TABLE absences (
        user_id INTEGER NOT NULL,
        start   REAL    NOT NULL,
        until   REAL    NOT NULL
    );
    CREATE INDEX absences_by_user ON absences (user_id, until);
    """,
    # 4: looking back. Fair shuffles: a salt drawn when the game starts and the commitment
    # posted then (SHA-256 of the seed and the salt); both are revealed once it is over.
    # Why a finished game does not count for ratings (``unrated``: a stand-in moved, a seat
    # resigned or was replaced). Ratings per server, game and player (openskill's mu and
    # sigma). At most one undo request per table, awaiting the other humans' consent.
    """
    ALTER TABLE games ADD COLUMN salt TEXT;
    ALTER TABLE games ADD COLUMN commitment TEXT;
    ALTER TABLE games ADD COLUMN unrated TEXT;

    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        user_id  INTEGER NOT NULL,
        name     TEXT    NOT NULL,
        mu       REAL    NOT NULL,
        sigma    REAL    NOT NULL,
        games    INTEGER NOT NULL DEFAULT 0,
        wins     REAL    NOT NULL DEFAULT 0,
        updated  REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    ) WITHOUT ROWID;

    CREATE TABLE undos (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        version INTEGER NOT NULL,
        seat    INTEGER NOT NULL,
        asked   REAL    NOT NULL,
        due     REAL    NOT NULL,
        agreed  TEXT    NOT NULL DEFAULT '[]'
    );
    """,
    # 5: several processes: the versions posted beyond ``games.announced`` (every version
    # up to which was posted). A process killed after committing a move but before posting
    # it leaves a gap that a later move's post by another process must not cover.
    """
    CREATE TABLE posted (
        game_id INTEGER NOT NULL REFERENCES games (id),
        version INTEGER NOT NULL,
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID;
    """,
]


class StoreError(Exception):
    """The database cannot be used (for example, a newer Boardroom wrote it).

    ``str(error)`` is a sentence for the bot's operator.
    """


class DamagedDatabase(StoreError):
    """The file exists but is not a whole SQLite database: empty, truncated, or another
    kind of file. The bot refuses to start over it (it never starts afresh over a file)."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(
            f"The database file {path} {what}, so Boardroom did not start. Restore the file "
            "from a backup (see 'A damaged or full database' in bot/README.md), or move it "
            "away to start with an empty database.")
        self.path = path


class StoreUnavailable(StoreError, rules.GameError):
    """The database refused a statement for now: the disk or the file-size limit is full,
    another process held its lock past the timeout, or the file cannot be written.

    Nothing was changed (the statement's transaction was rolled back). ``str(error)`` is
    a sentence a player can read; ``kind`` is 'full', 'busy' or 'unwritable'.
    """

    def __init__(self, kind: str, sentence: str) -> None:
        super().__init__(sentence)
        self.kind = kind


# SQLite's primary result codes that mean "not now" rather than "never".
_UNAVAILABLE = {
    sqlite3.SQLITE_FULL: ("full", "The game's database is full right now, so nothing was "
                                  "changed; please try again later."),
    sqlite3.SQLITE_BUSY: ("busy", "The game's database is busy right now, so nothing was "
                                  "changed; please try again in a moment."),
    sqlite3.SQLITE_LOCKED: ("busy", "The game's database is busy right now, so nothing was "
                                    "changed; please try again in a moment."),
    sqlite3.SQLITE_IOERR: ("unwritable", "The game's database can't be written right now, "
                                         "so nothing was changed; please try again later."),
    sqlite3.SQLITE_READONLY: ("unwritable", "The game's database can't be written right "
                                            "now, so nothing was changed; please try again "
                                            "later."),
}
_DAMAGED = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _code(error: sqlite3.Error) -> int:
    """SQLite's primary result code of an error (-1 when it carries none)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else -1


class ChannelBusy(Exception):
    """The channel already holds an open or running table."""


class SeatTaken(Exception):
    """The user already has a seat, or the seat number is used."""


_GAME_COLUMNS = ("id, channel_id, guild_id, game, options, status, opener_id, seed, state, "
                 "version, announced, created, updated, started, finished, damaged, turn_time, "
                 "reminders, salt, commitment")


def _game(row: Any) -> GameRow:
    """A row as read. Options that are not a JSON object leave the row readable, marked
    damaged, so that one bad row cannot stop a query over every table."""
    try:
        options = json.loads(row[4])
        damaged = row[15] if isinstance(options, dict) else "its options are not an object"
    except (TypeError, ValueError):
        options, damaged = {}, "its options are not valid JSON"
    if not isinstance(options, dict):
        options = {}
    return GameRow(row[0], row[1], row[2], row[3], options, row[5], row[6], row[7], row[8],
                   row[9], row[10], row[11], row[12], row[13], row[14], damaged, row[16],
                   bool(row[17]), salt=row[18], commitment=row[19])


# A move as written: (game id, state, seat, text, time, status, finished, from version).
_Move = tuple[int, str, int, str, float, str, float | None, int]

_MOVE_SQL = ("UPDATE games SET state = ?, version = version + 1, last_seat = ?, last_text = ?, "
             "updated = ?, status = ?, finished = ? "
             "WHERE id = ? AND version = ? AND status = 'playing'")

# UPDATE ... FROM and RETURNING (to write several moves by one statement) need SQLite 3.35.
_BATCH_LIMIT = MOVE_BATCH if sqlite3.sqlite_version_info >= (3, 35, 0) else 1


# Delivered marks (``Store.flush``): a version posted beyond ``announced`` (and no further
# than the game's version) is noted in ``posted``; ``announced`` then moves up to the end
# of the run of posted versions that follows it, if there is one; and the notes it passed
# are dropped. ``posted`` holds only the versions beyond a gap, usually none.
_POSTED_SQL = ("INSERT OR IGNORE INTO posted (game_id, version) SELECT ?, ? FROM games "
               "WHERE id = ? AND announced < ? AND version >= ?")
_ANNOUNCED_SQL = (
    "UPDATE games SET announced = (SELECT MIN(p.version) FROM posted p "
    "WHERE p.game_id = games.id AND p.version > games.announced AND NOT EXISTS ("
    "SELECT 1 FROM posted q WHERE q.game_id = p.game_id AND q.version = p.version + 1)) "
    "WHERE id = ? AND EXISTS (SELECT 1 FROM posted WHERE posted.game_id = games.id "
    "AND posted.version = games.announced + 1)")
_POSTED_DROP_SQL = ("DELETE FROM posted WHERE game_id = ?1 AND version <= "
                    "(SELECT announced FROM games WHERE id = ?1)")


@lru_cache(maxsize=MOVE_BATCH)
def _moves_sql(count: int) -> str:
    """One statement for ``count`` moves of different games, each row a ``_Move``: the same
    change as ``_MOVE_SQL`` on each game still at its row's version; it returns the ids of
    the games it changed."""
    rows = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * count)
    return ("UPDATE games SET state = m.column2, version = games.version + 1, "
            "last_seat = m.column3, last_text = m.column4, updated = m.column5, "
            "status = m.column6, finished = m.column7 "
            f"FROM (VALUES {rows}) AS m WHERE games.id = m.column1 "
            "AND games.version = m.column8 AND games.status = 'playing' RETURNING games.id")


def _clock(now: float | None) -> float:
    """The time to store: the service's clock (``TableService.now``) passes it down; a
    direct caller without one (a tool, a store test) gets the wall clock."""
    return time.time() if now is None else now


def default_path() -> str:
    """``$BOARDROOM_DB`` if set, else ``boardroom.db`` in the working directory."""
    return os.environ.get(ENV_VAR) or DEFAULT_PATH


class Store:
    """The database. Open with ``await Store.open(path)``; close with ``await store.close()``.

    Every access is one job (``_run``): an async function of the connection that runs as
    its own task under the store's lock, awaited through ``asyncio.shield``. The statements
    of a job and, for a write of several statements, its whole ``BEGIN IMMEDIATE`` ..
    ``COMMIT`` (or ``ROLLBACK``) run one after the other, alone on the connection, and run
    to their end even if the caller is cancelled. So no other task's statement can land
    inside a transaction and a cancelled caller cannot leave one open. Jobs use only
    aiosqlite's public calls that close each cursor on its worker thread (``execute_fetchall``,
    ``execute_insert``, ``async with db.execute(...)``), so no statement is reset or
    finalised from the event loop's thread (see bot/README.md, "One connection").
    """

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.db = db
        self.path = path
        # One connection carries every statement; this lock keeps the jobs of ``_run``, the
        # move writer and the (test-only) ``transaction`` from overlapping.
        self._lock = asyncio.Lock()
        self._delivered: set[tuple[int, int]] = set()  # (game, version) not yet written
        self._waits: dict[int, list[WaitRow]] = {}  # game -> its waits, not yet written
        self._flush_timer: asyncio.TimerHandle | None = None
        self._flushing: set[asyncio.Future[None]] = set()
        # Moves waiting to be written, and the task writing them (see ``commit_move``).
        self._moves: list[tuple[_Move, asyncio.Future[bool]]] = []
        self._mover: asyncio.Task[None] | None = None
        self._reported: dict[str, float] = {}  # trouble kind -> when it was last logged

    @classmethod
    async def open(cls, path: str | None = None, *, synchronous: str | None = None) -> Store:
        """Open (creating or upgrading) the database at ``path``.

        ``synchronous`` (else ``$BOARDROOM_DB_SYNC``, else NORMAL): with NORMAL a committed
        move survives any crash or kill of the process; FULL also syncs the journal at every
        commit, so it survives a power cut too, at a lower rate of moves.

        Only a path where no file exists starts an empty database. A file that is empty,
        truncated or not SQLite raises ``DamagedDatabase``, whose sentence names the file.
        """
        synchronous = (synchronous or os.environ.get(SYNC_VAR) or "NORMAL").upper()
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"{SYNC_VAR} must be FULL or NORMAL, not {synchronous!r}.")
        path = path or default_path()
        size = _check_file(path)
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            # Fetched, not just executed: a pragma that answers a row (journal_mode) would
            # otherwise stay "in progress" and block the migrations' COMMIT.
            await db.execute_fetchall("PRAGMA busy_timeout = 10000")
            if 0 < size <= QUICK_CHECK_BYTES:  # before anything is written to the file
                found = [str(r[0]) for r in await db.execute_fetchall("PRAGMA quick_check(3)")]
                if found != ["ok"]:
                    raise DamagedDatabase(path, "is damaged (SQLite's check says: "
                                                f"{'; '.join(found)[:200]})")
            await _journal_wal(db)
            await db.execute_fetchall(f"PRAGMA synchronous = {synchronous}")
            await db.execute_fetchall("PRAGMA foreign_keys = ON")
            await migrate(db)
        except sqlite3.Error as error:
            await db.close()
            if _code(error) in _DAMAGED:
                raise DamagedDatabase(path, f"is damaged ({error})") from None
            if _code(error) in _UNAVAILABLE:
                raise StoreError(f"The database file {path} could not be opened: {error}. "
                                 "Nothing was changed; try again once it is free (another "
                                 "process may hold it) or has space.") from None
            raise
        except BaseException:
            await db.close()
            raise
        return cls(db, path)

    async def close(self) -> None:
        if self._mover is not None:
            await self._mover
        await self._flush_quietly()
        for task in list(self._flushing):
            await task
        async with self._lock:  # after the jobs already waiting (their callers may be gone)
            await self.db.close()

    # -- running statements

    async def _run(self, work: _Job[_T]) -> _T:
        """``work(connection)`` as one job: its own task, alone on the connection.

        The task takes the store's lock and runs ``work`` to its end; the caller awaits it
        through ``asyncio.shield``, so a caller cancelled at any point (while the job waits
        for the lock too) does not cut it short, and it runs whole before any later job.
        Errors that mean "not now" (disk full, file-size limit, lock held past the timeout,
        unwritable file) come back as ``StoreUnavailable``.
        """
        return await asyncio.shield(asyncio.ensure_future(self._alone(work)))

    async def _alone(self, work: _Job[_T]) -> _T:
        async with self._lock:
            return await self._job(work)

    async def _job(self, work: _Job[_T]) -> _T:
        """``work(connection)`` for a caller that holds the store's lock already."""
        try:
            return await work(self.db)
        except sqlite3.Error as error:
            trouble = self._unavailable(error)
            if trouble is None:
                raise
            raise trouble from error

    def _unavailable(self, error: sqlite3.Error) -> StoreUnavailable | None:
        """The sentence for a "not now" error (logged once per kind per few minutes)."""
        found = _UNAVAILABLE.get(_code(error))
        if found is None:
            return None
        kind, sentence = found
        now = time.monotonic()
        if now - self._reported.get(kind, -REPORT_EVERY) >= REPORT_EVERY:
            self._reported[kind] = now
            log.error("The database %s refused a write (%s: %s); players are told to try "
                      "again later, and other tables go on. (Logged once per %d minutes.)",
                      self.path, kind, error, REPORT_EVERY // 60)
        return StoreUnavailable(kind, sentence)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Several statements as one write transaction (BEGIN IMMEDIATE), on the connection
        it yields; no other statement of this store runs until it ends. (For tests and
        tools: the store's own writes are jobs of ``_run``.)"""
        async with self._lock:
            try:
                await self.db.execute_fetchall("BEGIN IMMEDIATE")
                yield self.db
            except BaseException:
                # Shielded: a second cancellation cannot leave the transaction open.
                await asyncio.shield(self.db.rollback())
                raise
            await asyncio.shield(self.db.commit())

    async def _rows(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        if self._delivered or self._waits:
            await self._flush_quietly()  # reads see every delivered mark made so far
        return list(await self._run(lambda db: db.execute_fetchall(sql, parameters)))

    async def _write(self, sql: str, parameters: tuple[Any, ...] = ()) -> int:
        """Run one statement (its own transaction); how many rows it changed."""
        return await self._run(lambda db: _change(db, sql, parameters))

    # -- tables

    async def create_game(self, channel_id: int, guild_id: int | None, game: str,
                          options: dict[str, Any], opener_id: int, opener_name: str, *,
                          now: float | None = None) -> GameRow:
        """A new open table with the opener in seat 0; ``ChannelBusy`` if one is active."""
        now = _clock(now)

        async def create(db: aiosqlite.Connection) -> int:
            inserted = await db.execute_insert(
                "INSERT INTO games (channel_id, guild_id, game, options, opener_id, "
                "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (channel_id, guild_id, game, json.dumps(options), opener_id, now, now))
            assert inserted is not None
            game_id = int(inserted[0])
            await db.execute_fetchall(
                "INSERT INTO seats (game_id, seat, user_id, name, kind) "
                "VALUES (?, 0, ?, ?, 'human')", (game_id, opener_id, opener_name))
            return game_id

        try:
            game_id = await self._run(lambda db: _transaction(db, create))
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(str(error)) from error
        row = await self.game(game_id)
        assert row is not None
        return row

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return next((_game(r) for r in rows), None)

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The open or running table in a channel."""
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? "
            "AND status IN ('open', 'playing')", (channel_id,))
        return next((_game(r) for r in rows), None)

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The most recent table in a channel, whatever its status."""
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,))
        return next((_game(r) for r in rows), None)

    async def started_game(self, channel_id: int, game_id: int | None = None
                           ) -> GameRow | None:
        """The channel's most recent game that started (or the one with ``game_id``, if
        it was played there): the one whose move log ``/game export`` gives."""
        chosen = "" if game_id is None else " AND id = ?"
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND seed IS NOT NULL"
            f"{chosen} ORDER BY id DESC LIMIT 1",
            (channel_id,) if game_id is None else (channel_id, game_id))
        return next((_game(r) for r in rows), None)

    async def games(self, *, statuses: tuple[str, ...] = ACTIVE) -> list[GameRow]:
        marks = ", ".join("?" * len(statuses))
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY id",
            statuses)
        return [_game(r) for r in rows]

    async def unannounced(self) -> list[GameRow]:
        """Tables whose latest state version has not been announced yet (the outbox)."""
        rows = await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE announced < version "
            "AND status IN ('playing', 'over') ORDER BY id")
        return [_game(r) for r in rows]

    async def posted(self, game_id: int) -> set[int]:
        """The game's versions beyond ``announced`` that were posted already (a version
        before them was not, or not yet)."""
        rows = await self._rows(
            "SELECT p.version FROM posted p JOIN games g ON g.id = p.game_id "
            "WHERE p.game_id = ? AND p.version > g.announced", (game_id,))
        return {r[0] for r in rows}

    async def set_aside(self, game_id: int, why: str, *, now: float | None = None) -> None:
        """Put aside a table whose row cannot be read: it keeps its rows and log, says
        ``why`` in ``damaged``, frees its channel (an active table becomes 'ended') and
        leaves the outbox."""
        now = _clock(now)
        await self._write(
            "UPDATE games SET damaged = ?, announced = version, updated = ?, "
            "finished = COALESCE(finished, ?), status = CASE WHEN status IN "
            "('open', 'playing') THEN 'ended' ELSE status END WHERE id = ?",
            (why[:500] or "unreadable", now, now, game_id))

    # -- seats

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._rows(
            "SELECT seat, user_id, name, kind, level, handed, former FROM seats "
            "WHERE game_id = ? ORDER BY seat",
            (game_id,))
        return [SeatRow(*r) for r in rows]

    async def add_seat(self, game_id: int, seat: int, user_id: int | None, name: str,
                       kind: str, level: str | None = None) -> None:
        """Take a seat at an open table; ``SeatTaken`` if the user or the seat is taken."""
        try:
            await self._write(
                "INSERT INTO seats (game_id, seat, user_id, name, kind, level) "
                "VALUES (?, ?, ?, ?, ?, ?)", (game_id, seat, user_id, name, kind, level))
        except sqlite3.IntegrityError as error:
            raise SeatTaken(str(error)) from error

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Free a seat before the start; later seats move up so seats stay 0..n-1."""

        async def remove(db: aiosqlite.Connection) -> None:
            await db.execute_fetchall("DELETE FROM seats WHERE game_id = ? AND seat = ?",
                                      (game_id, seat))
            # Two steps so the primary key never sees two rows with one seat number.
            await db.execute_fetchall(
                "UPDATE seats SET seat = -seat WHERE game_id = ? AND seat > ?", (game_id, seat))
            await db.execute_fetchall(
                "UPDATE seats SET seat = -seat - 1 WHERE game_id = ? AND seat < 0", (game_id,))

        await self._run(lambda db: _transaction(db, remove))

    # -- state

    async def start_game(self, game_id: int, seed: int, state: str, *,
                         salt: str | None = None, commitment: str | None = None,
                         now: float | None = None) -> bool:
        """Store the first state (version 1) of an open table, with the salt and the
        commitment to its seed (``bot.fairness``); False if it is not open."""
        now = _clock(now)
        changed = await self._write(
            "UPDATE games SET status = 'playing', seed = ?, state = ?, version = 1, "
            "last_seat = NULL, last_text = NULL, started = ?, updated = ?, salt = ?, "
            "commitment = ? WHERE id = ? AND status = 'open' AND version = 0",
            (seed, state, now, now, salt, commitment, game_id))
        return changed == 1

    async def commit_move(self, game_id: int, version: int, seat: int, text: str, state: str,
                          *, over: bool = False, now: float | None = None) -> bool:
        """Store the state a move made from ``version`` and log the move, atomically.

        False (and nothing written) unless the game is running at exactly ``version``.
        Committed when this returns: moves of other games waiting at the same time are
        written by the same statement (one transaction, one round trip for all of them).
        ``StoreUnavailable`` if the database refused it for now (nothing written).
        """
        now = _clock(now)
        move: _Move = (game_id, state, seat, text, now, "over" if over else "playing",
                       now if over else None, version)
        written: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._moves.append((move, written))
        if self._mover is None:
            self._mover = asyncio.ensure_future(self._write_moves())
        return await written

    async def _write_moves(self) -> None:
        """Write the waiting moves, a batch at a time, until none wait; moves that come in
        while a batch is written go in the next one. A game has at most one move per batch,
        so its moves are written one after the other, in the order they came. This task
        is no caller's own (callers await their futures), so it holds the lock itself."""
        try:
            while self._moves:
                async with self._lock:
                    batch: list[tuple[_Move, asyncio.Future[bool]]] = []
                    games: set[int] = set()
                    later = []
                    for move, written in self._moves:
                        if written.done():
                            continue  # its caller was cancelled before it was written
                        if move[0] in games or len(batch) >= _BATCH_LIMIT:
                            later.append((move, written))
                        else:
                            games.add(move[0])
                            batch.append((move, written))
                    self._moves = later
                    if batch:
                        await self._write_batch(batch)
        finally:
            self._mover = None

    async def _write_batch(self, batch: list[tuple[_Move, asyncio.Future[bool]]]) -> None:
        """One statement for the batch (the caller holds the store's lock); each waiting
        caller learns whether its move was written."""
        moves = [move for move, _ in batch]
        try:
            if len(batch) == 1:
                game_id, state, seat, text, now, status, finished, version = moves[0]
                parameters: tuple[Any, ...] = (
                    state, seat, text, now, status, finished, game_id, version)
                count = await self._job(lambda db: _change(db, _MOVE_SQL, parameters))
                changed = {game_id} if count == 1 else set()
            else:
                sql = _moves_sql(len(batch))
                values = tuple(value for move in moves for value in move)
                changed = {row[0] for row in await self._job(
                    lambda db: db.execute_fetchall(sql, values))}
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
                await self._write_batch([entry])
            return
        except BaseException:
            for _, written in batch:
                written.cancel()
            raise
        for move, written in batch:
            if not written.done():
                written.set_result(move[0] in changed)

    async def end_game(self, game_id: int, *, now: float | None = None) -> bool:
        """Stop an open or running table; False if it was no longer active."""
        now = _clock(now)
        changed = await self._write(
            "UPDATE games SET status = 'ended', finished = ?, updated = ? "
            "WHERE id = ? AND status IN ('open', 'playing')", (now, now, game_id))
        return changed == 1

    def put_waits(self, game_id: int, waits: list[WaitRow]) -> None:
        """The game's awaited seats are exactly ``waits`` now: written with the delivered
        marks (at most ``FLUSH_DELAY`` later, before any read, at ``close``), so a move
        costs no transaction of its own for them. A crash in between loses the change; at
        start-up the service makes the waits match the awaited seats again."""
        self._waits[game_id] = waits
        self._flush_soon()

    def mark_delivered(self, game_id: int, version: int) -> None:
        """The game's ``version`` was posted (that version alone: one before it may still
        be on its way, or lost with a process that stopped). ``announced`` moves up over
        every version posted without a gap; the ones beyond a gap wait in ``posted``. A
        version the game does not hold yet is not marked.

        Marks are written in batches, at most ``FLUSH_DELAY`` seconds later (one commit for
        many), before any read, and when the store closes. A crash in between only means a
        reply is posted twice after the restart: never that one is lost.
        """
        self._delivered.add((game_id, version))
        self._flush_soon()

    def _flush_soon(self) -> None:
        if self._flush_timer is None:
            loop = asyncio.get_running_loop()
            self._flush_timer = loop.call_later(FLUSH_DELAY, self._flush_later)

    def _flush_later(self) -> None:
        task = asyncio.ensure_future(self._flush_quietly())
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def flush(self) -> None:
        """Write the delivered marks still held in memory (kept for later if the database
        refuses them now: ``StoreUnavailable``)."""
        if self._flush_timer is not None:
            self._flush_timer.cancel()
            self._flush_timer = None
        if not self._delivered and not self._waits:
            return
        marks, self._delivered = sorted(self._delivered), set()
        waits, self._waits = self._waits, {}
        rows = [(game_id, v, game_id, v, v) for game_id, v in marks]
        touched = [(game_id,) for game_id in sorted({game_id for game_id, _ in marks})]
        games = [(game_id,) for game_id in waits]
        awaited = [(w.game_id, w.seat, w.since, w.reminded, w.due)
                   for each in waits.values() for w in each]

        async def write(db: aiosqlite.Connection) -> None:
            for sql, parameters in ((_POSTED_SQL, rows), (_ANNOUNCED_SQL, touched),
                                    (_POSTED_DROP_SQL, touched)):
                async with db.executemany(sql, parameters):
                    pass  # the cursor is closed on the worker thread
            async with db.executemany("DELETE FROM waits WHERE game_id = ?", games):
                pass
            async with db.executemany(
                    "INSERT INTO waits (game_id, seat, since, reminded, due) "
                    "VALUES (?, ?, ?, ?, ?)", awaited):
                pass

        try:
            await self._run(lambda db: _transaction(db, write))
        except BaseException:
            self._delivered.update(marks)
            for game_id, each in waits.items():  # unless a newer list came meanwhile
                self._waits.setdefault(game_id, each)
            raise

    async def _flush_quietly(self) -> None:
        """``flush``, but a database refusing writes for now does not stop a read: the
        marks wait for the next flush (at worst a reply is posted twice after a restart)."""
        with suppress(StoreUnavailable):
            await self.flush()

    # -- the log

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._rows(
            "SELECT version, seat, text, time FROM moves WHERE game_id = ? ORDER BY version",
            (game_id,))
        return [MoveRow(*r) for r in rows]


    # -- table settings, seats handed on during play

    async def set_settings(self, game_id: int, turn_time: float | None,
                           reminders: bool) -> None:
        """A table's clock (seconds a turn may take; None: no limit) and reminders."""
        await self._write("UPDATE games SET turn_time = ?, reminders = ? WHERE id = ?",
                          (turn_time, int(reminders), game_id))

    async def hand_seat(self, game_id: int, seat: SeatRow) -> None:
        """A seat of a running game changes hands (resigned, or replaced): the row as given."""
        try:
            await self._write(
                "UPDATE seats SET user_id = ?, name = ?, kind = ?, level = ?, handed = ?, "
                "former = ? WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.name, seat.kind, seat.level, seat.handed, seat.former,
                 game_id, seat.seat))
        except sqlite3.IntegrityError as error:
            raise SeatTaken(str(error)) from error

    # -- waits: the scheduler's durable deadlines

    async def waits(self, game_id: int) -> list[WaitRow]:
        rows = await self._rows(
            "SELECT game_id, seat, since, reminded, due FROM waits WHERE game_id = ? "
            "ORDER BY seat", (game_id,))
        return [WaitRow(*r) for r in rows]

    async def set_waits(self, game_id: int, waits: list[WaitRow]) -> None:
        """The game's awaited seats are exactly ``waits`` now (others' rows go), in one
        transaction."""
        self._waits.pop(game_id, None)  # this list is newer than one not yet written
        rows = [(w.game_id, w.seat, w.since, w.reminded, w.due) for w in waits]
        keep = [w.seat for w in waits]

        async def write(db: aiosqlite.Connection) -> None:
            marks = ", ".join("?" * len(keep))
            await db.execute_fetchall(
                f"DELETE FROM waits WHERE game_id = ? AND seat NOT IN ({marks})",
                (game_id, *keep))
            async with db.executemany(
                    "INSERT INTO waits (game_id, seat, since, reminded, due) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
                    "since = excluded.since, reminded = excluded.reminded, "
                    "due = excluded.due", rows):
                pass

        await self._run(lambda db: _transaction(db, write))

    async def set_due(self, game_id: int, seat: int, due: float | None) -> None:
        if self._waits:
            await self._flush_quietly()  # the row to change is the latest one
        await self._write("UPDATE waits SET due = ? WHERE game_id = ? AND seat = ?",
                          (due, game_id, seat))

    async def next_due(self) -> float | None:
        """The earliest moment something is due for any wait (the index answers it)."""
        rows = await self._rows("SELECT MIN(due) FROM waits WHERE due IS NOT NULL")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def due_waits(self, now: float, limit: int = 100) -> list[WaitRow]:
        """The waits due by ``now``, earliest first (through the index), claimed for this
        process: in the same transaction their ``due`` moves to ``now + CLAIM``, so that
        another process on the same file (which waits for the write lock) does not get
        them too. Each row comes back with the moment it was due."""
        if self._delivered or self._waits:
            await self._flush_quietly()  # the rows to claim are the latest ones

        async def claim(db: aiosqlite.Connection) -> list[Any]:
            rows = list(await db.execute_fetchall(
                "SELECT game_id, seat, since, reminded, due FROM waits "
                "WHERE due IS NOT NULL AND due <= ? ORDER BY due LIMIT ?", (now, limit)))
            async with db.executemany(
                    "UPDATE waits SET due = ? WHERE game_id = ? AND seat = ?",
                    [(now + CLAIM, r[0], r[1]) for r in rows]):
                pass  # the cursor is closed on the worker thread
            return rows

        rows = await self._run(lambda db: _transaction(db, claim))
        return [WaitRow(*r) for r in rows]

    # -- players: quiet hours, time away, when last reminded

    async def player(self, user_id: int) -> PlayerRow:
        rows = await self._rows(
            "SELECT quiet_from, quiet_to, timezone, reminded, mentioned FROM players "
            "WHERE user_id = ?", (user_id,))
        away = await self._rows(
            "SELECT start, until FROM absences WHERE user_id = ? ORDER BY start", (user_id,))
        absences = tuple((float(a), float(b)) for a, b in away)
        if not rows:
            return PlayerRow(user_id, absences=absences)
        quiet_from, quiet_to, timezone, reminded, mentioned = rows[0]
        return PlayerRow(user_id, quiet_from, quiet_to, timezone, reminded, mentioned,
                         absences)

    async def set_player(self, player: PlayerRow) -> None:
        """Store a player's quiet hours and reminder marks (their absences apart)."""
        await self._write(
            "INSERT INTO players (user_id, quiet_from, quiet_to, timezone, reminded, "
            "mentioned) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to, "
            "timezone = excluded.timezone, reminded = excluded.reminded, "
            "mentioned = excluded.mentioned",
            (player.user_id, player.quiet_from, player.quiet_to, player.timezone,
             player.reminded, player.mentioned))

    async def add_absence(self, user_id: int, start: float, until: float) -> None:
        await self._write("INSERT INTO absences (user_id, start, until) VALUES (?, ?, ?)",
                          (user_id, start, until))

    # -- looking back

    async def tables_of(self, guild_id: int, user_id: int
                        ) -> list[tuple[GameRow, list[WaitRow]]]:
        """The open and running tables of a server where ``user_id`` has a seat, each with
        its waits (``/games``). Only active tables are read: through the partial index of
        one table per channel, which holds exactly those."""
        rows = [_game(r) for r in await self._rows(
            f"SELECT {_GAME_COLUMNS} FROM games INDEXED BY games_one_table_per_channel "
            "WHERE status IN ('open', 'playing') AND guild_id = ? AND EXISTS (SELECT 1 "
            "FROM seats WHERE seats.game_id = games.id AND seats.user_id = ?) ORDER BY id",
            (guild_id, user_id))]
        if not rows:
            return []
        marks = ", ".join("?" * len(rows))
        waits: dict[int, list[WaitRow]] = {row.id: [] for row in rows}
        for found in await self._rows(
                "SELECT game_id, seat, since, reminded, due FROM waits "
                f"WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                tuple(row.id for row in rows)):
            waits[found[0]].append(WaitRow(*found))
        return [(row, waits[row.id]) for row in rows]

    # -- ratings

    async def mark_unrated(self, game_id: int, why: str) -> None:
        """The game will not count for the ratings, and why (the first reason stays)."""
        await self._write("UPDATE games SET unrated = COALESCE(unrated, ?) WHERE id = ?",
                          (why, game_id))

    async def unrated(self, game_id: int) -> str | None:
        """Why the game does not count for the ratings (None: nothing says so)."""
        rows = await self._rows("SELECT unrated FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def finish_game(self, game_id: int, version: int, seat: int, text: str,
                          state: str, *, users: tuple[int, ...], unrated: str | None,
                          rate: Callable[[int, list[RatingRow | None]], list[RatingRow]],
                          now: float | None = None) -> Rated | None:
        """Write the move that ends a game and, in the same transaction, what it does to
        the ratings; None (and nothing written) unless the game runs at ``version``.

        The game counts unless it is marked unrated already (``mark_unrated``), ``unrated``
        gives a reason, or it was not played in a server; then that reason is stored and
        no rating changes. Otherwise ``rate(guild_id, before)`` turns the seats' ratings
        (``users``, by seat; None: no rated game yet) into their new ones. One transaction
        for both, so a game is rated exactly once: a retry of the move finds the version
        moved on and writes nothing, and a crash leaves neither or both.
        """
        now = _clock(now)

        async def finish(db: aiosqlite.Connection) -> Rated | None:
            if await _change(db, _MOVE_SQL, (state, seat, text, now, "over", now, game_id,
                                             version)) != 1:
                return None
            ((guild_id, game, marked),) = await db.execute_fetchall(
                "SELECT guild_id, game, unrated FROM games WHERE id = ?", (game_id,))
            why = marked or unrated or (
                None if guild_id is not None else "it was not played in a server")
            if why is not None:
                await db.execute_fetchall("UPDATE games SET unrated = ? WHERE id = ?",
                                          (why, game_id))
                return Rated(why)
            before: list[RatingRow | None] = []
            for user in users:
                found = await db.execute_fetchall(
                    "SELECT guild_id, game, user_id, name, mu, sigma, games, wins, updated "
                    "FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
                    (guild_id, game, user))
                before.append(next((RatingRow(*r) for r in found), None))
            after = rate(guild_id, before)
            async with db.executemany(
                    "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, "
                    "wins, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
                    "(guild_id, game, user_id) DO UPDATE SET name = excluded.name, "
                    "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                    "wins = excluded.wins, updated = excluded.updated",
                    [(r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins,
                      r.updated) for r in after]):
                pass  # the cursor is closed on the worker thread
            return Rated(None, tuple(before), tuple(after))

        return await self._run(lambda db: _transaction(db, finish))

    async def ratings(self, guild_id: int, game: str) -> list[RatingRow]:
        """Every rating of a game in a server (in no particular order: ``bot.ratings``
        ranks them)."""
        rows = await self._rows(
            "SELECT guild_id, game, user_id, name, mu, sigma, games, wins, updated "
            "FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        return [RatingRow(*r) for r in rows]

    # -- undo: at most one request per table to take back a move, awaiting consent

    async def undo(self, game_id: int) -> UndoRow | None:
        """The game's last request to take back a move (it may be answered, expired or
        moot: ``bot.undo`` says whether it still stands)."""
        rows = await self._rows(
            "SELECT game_id, version, seat, asked, due, agreed FROM undos WHERE game_id = ?",
            (game_id,))
        return next((UndoRow(r[0], r[1], r[2], r[3], r[4], tuple(json.loads(r[5])))
                     for r in rows), None)

    async def put_undo(self, row: UndoRow) -> None:
        """Store the game's request, in place of any earlier one."""
        await self._write(
            "INSERT INTO undos (game_id, version, seat, asked, due, agreed) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "version = excluded.version, seat = excluded.seat, asked = excluded.asked, "
            "due = excluded.due, agreed = excluded.agreed",
            (row.game_id, row.version, row.seat, row.asked, row.due,
             json.dumps(sorted(row.agreed))))

    async def drop_undo(self, game_id: int) -> None:
        """Forget the game's request (its move was taken back)."""
        await self._write("DELETE FROM undos WHERE game_id = ?", (game_id,))


# Jobs' helpers. Every cursor is closed on aiosqlite's thread: by ``execute_fetchall`` and
# ``execute_insert``, which never hand it over, or by ``async with db.execute(...)``.

async def _change(db: aiosqlite.Connection, sql: str, parameters: Any) -> int:
    """Run one statement; how many rows it changed."""
    async with db.execute(sql, parameters) as cursor:
        return cursor.rowcount


async def _transaction(db: aiosqlite.Connection, work: _Job[_T]) -> _T:
    """``work`` in one BEGIN IMMEDIATE .. COMMIT; rolled back whole if anything fails (SQLite
    may already have rolled back by itself, after a full disk for instance: ``rollback``
    does nothing then). A job is never cancelled (``Store._run``), so errors are enough."""
    await db.execute_fetchall("BEGIN IMMEDIATE")
    try:
        result = await work(db)
        await db.commit()
    except Exception:
        await db.rollback()
        raise
    return result


def check_file(path: str | None = None) -> None:
    """Refuse (``DamagedDatabase``) an existing database file that is empty, truncated or
    not SQLite, without opening it or creating anything: for a check before connecting."""
    _check_file(path or default_path())


async def _journal_wal(db: aiosqlite.Connection) -> None:
    """Switch the file to the WAL journal. The switch needs the file alone, and SQLite
    answers "locked" at once, without waiting its busy timeout, while another process
    opens the same new file: so try again, for as long as that timeout (10 s)."""
    deadline = time.monotonic() + 10.0
    while True:
        try:
            await db.execute_fetchall("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            busy = _code(error) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
            if not busy or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.01)


def _wait_for_header(path: str) -> None:
    """A file shorter than a header but only just made may be another process's new
    database (SQLite makes the file at connect and writes it a moment later): wait for its
    header, at most ``NEW_FILE_GRACE`` after it was made. An older file is judged at once."""
    with suppress(OSError):
        while (os.path.getsize(path) < 100
               and time.time() - os.path.getmtime(path) < NEW_FILE_GRACE):
            time.sleep(0.01)


def _check_file(path: str) -> int:
    """The file's size (0: none yet), after checking that an existing file looks like a
    whole SQLite database: its 100-byte header, and its size against the page count the
    header gives. Costs one read of 100 bytes."""
    if path == ":memory:" or path.startswith("file:"):
        return 0
    if not os.path.exists(path):
        return 0
    if os.path.isdir(path):
        raise StoreError(f"The database path {path} is a directory, not a file.")
    _wait_for_header(path)
    try:
        with open(path, "rb") as file:
            header = file.read(100)
            size = os.fstat(file.fileno()).st_size
    except OSError as error:
        raise StoreError(f"The database file {path} could not be read: {error}.") from None
    if size == 0:
        raise DamagedDatabase(path, "is empty (0 bytes)")
    if not header.startswith(b"SQLite format 3\x00"):
        raise DamagedDatabase(path, "is not a SQLite database")
    if len(header) < 100:
        raise DamagedDatabase(path, f"is truncated (only {size} bytes)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise DamagedDatabase(path, "is not a SQLite database (its header is damaged)")
    pages = int.from_bytes(header[28:32], "big")
    counted = header[24:28] == header[92:96]  # the header's page count is up to date
    wal = path + "-wal"
    pending = os.path.exists(wal) and os.path.getsize(wal) > 0  # may finish a checkpoint
    if counted and not pending and size < pages * page_size:
        raise DamagedDatabase(path, f"is truncated ({size} bytes, where its header counts "
                                    f"{pages} pages of {page_size} bytes)")
    return size + (os.path.getsize(wal) if os.path.exists(wal) else 0)


async def schema_version(db: aiosqlite.Connection) -> int:
    rows = list(await db.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(db: aiosqlite.Connection, migrations: list[str] | None = None) -> int:
    """Run the migrations this database has not had yet, each in its own transaction.

    Each transaction takes the write lock (BEGIN IMMEDIATE) before it reads the version,
    so processes opening a new file at once run each step once, in turn: the others wait
    for the lock (``busy_timeout``) and then find the step done.
    """
    steps = MIGRATIONS if migrations is None else migrations
    while True:
        await db.execute_fetchall("BEGIN IMMEDIATE")
        try:
            current = await schema_version(db)
            if current > len(steps):
                raise StoreError(f"The database was written by a newer Boardroom (schema "
                                 f"{current}; this version knows {len(steps)}).")
            if current < len(steps):
                # A fixed script of ours, a statement at a time (executescript would
                # commit the open transaction first): no values are formatted into it.
                for statement in _statements(steps[current]):
                    await db.execute_fetchall(statement)
                await db.execute_fetchall(f"PRAGMA user_version = {current + 1}")
            await db.commit()
        except BaseException:
            if db.in_transaction:
                await db.rollback()
            raise
        if current >= len(steps):
            return len(steps)


def _statements(script: str) -> list[str]:
    """The statements of a script, each whole (``sqlite3.complete_statement`` knows a
    trigger's BEGIN ... END and a semicolon inside quotes)."""
    found, start = [], 0
    for end, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start:end + 1]):
            found.append(script[start:end + 1].strip())
            start = end + 1
    rest = script[start:].strip()
    return [*found, rest] if rest else found
