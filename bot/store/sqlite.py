"""The SQLite engine: one file, opened through aiosqlite in autocommit mode, WAL journal.
What only SQLite has: the file's checks at start-up (``check_file``: a file that is empty,
truncated or not SQLite is refused, never started afresh), its pragmas, migrations counted
in ``PRAGMA user_version``, ``BEGIN IMMEDIATE`` on the one connection, its result codes, the
batch of moves as ``UPDATE ... FROM (VALUES ...)``, and the online backup. Jobs use only
aiosqlite's calls that close each cursor on its worker thread (``execute_fetchall``,
``execute_insert``, ``async with db.execute(...)``): a cursor finalised by the event loop's
thread would reset a statement the worker may be stepping."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, closing, suppress
from functools import cache
from typing import Any

import aiosqlite

from bot.store.engine import STEPS, Engine, Move, Session, T, Work
from bot.store.errors import DamagedDatabase, StoreError, newer

ENV_VAR = "BOARDROOM_DB"
DEFAULT_PATH = "boardroom.db"
QUICK_CHECK_BYTES = 64 * 1024 * 1024  # files up to this size are checked page by page at open
NEW_FILE_GRACE = 1.0  # seconds a just-made empty file may wait for its maker's header

# The move log: a trigger copies a move into ``moves`` within the statement that writes
# it; others refuse to change or delete the log.
TRIGGERS = """
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
    """
MIGRATIONS: list[str] = [STEPS[0] + TRIGGERS, *STEPS[1:]]

# SQLite's primary result codes that mean "not now" rather than "never".
KINDS = {sqlite3.SQLITE_FULL: "full", sqlite3.SQLITE_BUSY: "busy",
         sqlite3.SQLITE_LOCKED: "busy", sqlite3.SQLITE_IOERR: "unwritable",
         sqlite3.SQLITE_READONLY: "unwritable"}
DAMAGED = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def default_path() -> str:
    """``$BOARDROOM_DB`` if set, else ``boardroom.db`` in the working directory."""
    return os.environ.get(ENV_VAR) or DEFAULT_PATH


def code(error: BaseException) -> int:
    """SQLite's primary result code of an error (-1 when it carries none)."""
    found = getattr(error, "sqlite_errorcode", None)
    return found & 0xFF if isinstance(found, int) else -1


@cache
def _moves_sql(count: int) -> str:
    """One statement for ``count`` moves of different games, each row a ``Move``
    (UPDATE ... FROM and RETURNING need SQLite 3.35)."""
    rows = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * count)
    return ("UPDATE games SET state = m.column2, version = games.version + 1, "
            "last_seat = m.column3, last_text = m.column4, updated = m.column5, "
            "status = m.column6, finished = m.column7 "
            f"FROM (VALUES {rows}) AS m WHERE games.id = m.column1 "
            "AND games.version = m.column8 AND games.status = 'playing' RETURNING games.id")


class Connection(Session):
    """The file's one connection."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        return list(await self.db.execute_fetchall(sql, parameters))

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        async with self.db.execute(sql, parameters) as cursor:
            return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            async with self.db.executemany(sql, rows):
                pass  # the cursor is closed on the worker thread

    async def insert(self, sql: str, parameters: Sequence[Any]) -> int:
        row = await self.db.execute_insert(sql, parameters)
        assert row is not None
        return int(row[0])

    async def lock_games(self, ids: Sequence[int]) -> None:
        pass  # BEGIN IMMEDIATE holds the whole file already

    async def lock(self, key: str) -> None:
        pass  # BEGIN IMMEDIATE holds the whole file already


class SQLite(Engine):
    """A SQLite file."""

    serial = True
    batches = sqlite3.sqlite_version_info >= (3, 35, 0)
    integrity = (sqlite3.IntegrityError,)
    active_games = "games INDEXED BY games_one_table_per_channel"

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.db = db
        self.path = self.shown = path
        self.session = Connection(db)

    @classmethod
    async def open(cls, path: str, synchronous: str) -> SQLite:
        """Open (creating or upgrading) the file at ``path``. Only a path where no file
        exists starts an empty database; a file that is empty, truncated or not SQLite
        raises ``DamagedDatabase``, whose sentence names the file."""
        size = check_file(path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as error:  # a folder it may not write in, say: a sentence
            raise StoreError(f"The database file {path} could not be opened or made: "
                             f"{error}. Check that the folder can be written, or name "
                             "another file.") from None
        try:
            # Fetched, not just executed: a pragma that answers a row (journal_mode) would
            # otherwise stay "in progress" and block the migrations' COMMIT.
            await db.execute_fetchall("PRAGMA busy_timeout = 10000")
            if 0 < size <= QUICK_CHECK_BYTES:  # before anything is written to the file
                found = [str(r[0]) for r in await db.execute_fetchall("PRAGMA quick_check(3)")]
                if found != ["ok"]:
                    raise DamagedDatabase(path, "is damaged (SQLite's check says: "
                                                f"{'; '.join(found)[:200]})")
            # Switching to WAL needs the file alone: while another process opens the same
            # new file SQLite answers "locked" at once, so try again for the busy timeout.
            deadline = time.monotonic() + 10.0
            while True:
                try:
                    await db.execute_fetchall("PRAGMA journal_mode = WAL")
                    break
                except sqlite3.OperationalError as error:
                    if KINDS.get(code(error)) != "busy" or time.monotonic() > deadline:
                        raise
                await asyncio.sleep(0.01)
            await db.execute_fetchall(f"PRAGMA synchronous = {synchronous}")
            await db.execute_fetchall("PRAGMA foreign_keys = ON")
            await migrate(db)
        except sqlite3.Error as error:
            await db.close()
            if code(error) in DAMAGED:
                raise DamagedDatabase(path, f"is damaged ({error})") from None
            if code(error) in KINDS:
                raise StoreError(f"The database file {path} could not be opened: {error}. "
                                 "Nothing was changed; try again once it is free (another "
                                 "process may hold it) or has space.") from None
            raise
        except BaseException:
            await db.close()
            raise
        return cls(db, path)

    async def job(self, work: Work[T], transaction: bool) -> T:
        if not transaction:
            return await work(self.session)
        await self.db.execute_fetchall("BEGIN IMMEDIATE")
        try:
            result = await work(self.session)
            await self.db.commit()
        except Exception:  # (a job is never cancelled: ``Jobs.run``)
            await self.db.rollback()  # nothing to do if SQLite did it (after a full disk)
            raise
        return result

    def kind(self, error: BaseException) -> str | None:
        return KINDS.get(code(error)) if isinstance(error, sqlite3.Error) else None

    def batch(self, moves: Sequence[Move]) -> tuple[str, Sequence[Any]]:
        return _moves_sql(len(moves)), tuple(value for move in moves for value in move)

    async def claim(self, session: Session, now: float, limit: int, until: float
                    ) -> list[Any]:
        # Another process waits for the write lock (BEGIN IMMEDIATE) meanwhile.
        rows = await session.fetch(
            "SELECT kind, owner_id, part, due FROM jobs "
            "WHERE due IS NOT NULL AND due <= ? ORDER BY due LIMIT ?", (now, limit))
        await session.executemany(
            "UPDATE jobs SET due = ? WHERE kind = ? AND owner_id = ? AND part = ?",
            [(until, *r[:3]) for r in rows])
        return rows

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        try:
            await self.db.execute_fetchall("BEGIN IMMEDIATE")
            yield self.db
        except BaseException:
            # Shielded: a second cancellation cannot leave the transaction open.
            await asyncio.shield(self.db.rollback())
            raise
        await asyncio.shield(self.db.commit())

    async def backup(self, target: str) -> None:
        if self.path == ":memory:" or self.path.startswith("file:"):
            raise StoreError(f"The database {self.path} is not a file, so it cannot be "
                             "backed up.")
        if os.path.exists(target) and os.path.samefile(target, self.path):
            raise StoreError(f"{target} is the database itself; name another file.")
        await asyncio.to_thread(copy, self.path, target)

    async def close(self) -> None:
        await self.db.close()


def copy(source: str, target: str) -> None:
    """SQLite's online backup of ``source`` into ``target`` through a connection of its
    own, in one step: the copy is one moment of the database (one read transaction, beside
    which the WAL journal lets the bot's writes go on). Written beside ``target`` and
    checked first, it replaces ``target`` whole or not at all."""
    partial = ""
    try:
        handle, partial = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(target)),
                                           prefix=".boardroom-backup-")
        os.close(handle)
        os.chmod(partial, os.stat(source).st_mode & 0o777)  # as private as the original
        with closing(sqlite3.connect(source)) as origin, \
                closing(sqlite3.connect(partial)) as copied:
            origin.execute("PRAGMA busy_timeout = 10000")
            origin.backup(copied)
            found = [str(r[0]) for r in copied.execute("PRAGMA quick_check(3)")]
        if found != ["ok"]:
            raise sqlite3.DatabaseError(f"the copy did not check out: {'; '.join(found)}")
        os.replace(partial, target)
    except (sqlite3.Error, OSError) as error:
        raise StoreError(f"The backup of {source} to {target} failed ({error}), so nothing "
                         "was written there.") from None
    finally:
        with suppress(OSError):
            os.remove(partial)


def check_file(path: str | None = None) -> int:
    """Refuse (``DamagedDatabase``) an existing database file that is empty, truncated or
    not SQLite, without opening or creating anything (a check before connecting): its
    100-byte header, and its size against the page count the header gives. The file's
    size, 0 if there is none yet. A file shorter than a header but only just made may be
    another process's new database (SQLite makes the file at connect and writes it a moment
    later): it is given up to ``NEW_FILE_GRACE`` after it was made."""
    path = path or default_path()
    if path == ":memory:" or path.startswith("file:"):
        return 0
    if not os.path.exists(path):
        folder = os.path.dirname(path)
        if folder and not os.path.isdir(folder):
            raise StoreError(f"There is no folder {folder} for the database file {path}: "
                             "make it first, or name another file.")
        return 0
    if os.path.isdir(path):
        raise StoreError(f"The database path {path} is a directory, not a file.")
    with suppress(OSError):
        while (os.path.getsize(path) < 100
               and time.time() - os.path.getmtime(path) < NEW_FILE_GRACE):
            time.sleep(0.01)
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
    """Run the migrations this database has not had yet, each in its own transaction,
    which takes the write lock (BEGIN IMMEDIATE) before it reads the version: processes
    opening a new file at once run each step once, in turn."""
    steps = MIGRATIONS if migrations is None else migrations
    while True:
        await db.execute_fetchall("BEGIN IMMEDIATE")
        try:
            current = await schema_version(db)
            if current > len(steps):
                raise newer(current, len(steps))
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
