"""``boardroom migrate-db FROM TO``: copy every table from one database to another.

FROM and TO are each a SQLite file path or a ``postgresql://`` URL (``Store.open``), so an
existing SQLite file moves to PostgreSQL (or back). Every row of every table is copied as
it is: games with their ids, states, versions and delivered marks, seats, the move log
verbatim, waits, players, absences, ratings, undo requests, posted versions and turn
messages: every column ``bot.store.schema`` declares, which is every column of the schema
(``tests/test_store.py`` compares them). The target must be empty
(a new file, or a database without Boardroom's tables or with none of their rows): a
target holding any row is refused with a sentence, so that nothing is ever merged or
overwritten. The copy is one transaction on the target: it is all there, or none of it.

Stop the bot first: the source is read in one snapshot, so moves made meanwhile would be
missing from the copy.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.store import Store, is_postgres, schema
from bot.store.errors import StoreError
from bot.store.postgres import shown

# Every table and its columns (``bot.store.schema``: the schema after the migrations both
# engines share), in the order that keeps references whole: a game before its seats,
# moves, waits, undo and posted versions.
TABLES: dict[str, tuple[str, ...]] = {table.name: table.names for table in schema.TABLES}
# Columns PostgreSQL holds as DOUBLE PRECISION: a SQLite file may hold a whole number
# there (a time of 0, a test's clock), which asyncpg takes only as a float.
REALS: dict[str, frozenset[str]] = {table.name: table.reals for table in schema.TABLES}
CHUNK = 5000  # rows written per statement


class MigrationRefused(StoreError):
    """The copy cannot be made (a missing source, a target that holds rows); ``str()``
    is the sentence for the operator. Nothing was written."""


Rows = list[tuple[Any, ...]]


@asynccontextmanager
async def _snapshot(store: Store) -> AsyncIterator[Any]:
    """A connection that sees one consistent moment of the store's database."""
    if is_postgres(store.path):
        async with store.pool.acquire() as db, db.transaction(
                isolation="repeatable_read", readonly=True):
            yield db
        return
    async with store.transaction() as lite:  # the write lock: no writer in between
        yield lite


async def _read(store: Store, db: Any, table: str) -> Rows:
    columns = ", ".join(TABLES[table])
    order = ", ".join(TABLES[table][:2])
    sql = f"SELECT {columns} FROM {table} ORDER BY {order}"  # our own names only
    if is_postgres(store.path):
        return [tuple(row) for row in await db.fetch(sql)]
    return [tuple(row) for row in await db.execute_fetchall(sql)]


async def read_all(store: Store) -> dict[str, Rows]:
    """Every row of every table, from one snapshot."""
    async with _snapshot(store) as db:
        return {table: await _read(store, db, table) for table in TABLES}


def _typed(table: str, rows: Rows) -> Rows:
    """Rows with PostgreSQL's types: whole numbers in DOUBLE PRECISION columns as floats."""
    reals = [n for n, c in enumerate(TABLES[table]) if c in REALS[table]]
    if not reals:
        return rows
    typed = []
    for row in rows:
        values = list(row)
        for n in reals:
            if isinstance(values[n], int):
                values[n] = float(values[n])
        typed.append(tuple(values))
    return typed


def _refused(store: Store, held: list[str]) -> MigrationRefused:
    return MigrationRefused(
        f"The target database {shown(store.path)} already holds tables (rows in "
        f"{', '.join(held)}), so nothing was copied: migrate-db only copies into an empty "
        "database.")


async def write_all(store: Store, tables: dict[str, Rows]) -> None:
    """Write the rows into an empty database in one transaction, refusing (and writing
    nothing) if any of its tables holds a row."""
    if is_postgres(store.path):
        async with store.transaction() as pg:
            held = [t for t in TABLES
                    if await pg.fetchval(f"SELECT EXISTS (SELECT 1 FROM {t})")]
            if held:
                raise _refused(store, held)
            for table, rows in tables.items():
                if rows:
                    await pg.copy_records_to_table(table, records=_typed(table, rows),
                                                   columns=list(TABLES[table]))
            # New games and leagues continue after the copied ids.
            for keyed in ("games", "leagues"):
                await pg.execute(f"SELECT setval(pg_get_serial_sequence('{keyed}', 'id'), "
                                 f"COALESCE(MAX(id), 0) + 1, false) FROM {keyed}")
        return
    async with store.transaction() as db:
        held = []
        for table in TABLES:
            (found,) = await db.execute_fetchall(f"SELECT EXISTS (SELECT 1 FROM {table})")
            if found[0]:
                held.append(table)
        if held:
            raise _refused(store, held)
        for table, rows in tables.items():
            columns = TABLES[table]
            marks = ", ".join("?" * len(columns))
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            for first in range(0, len(rows), CHUNK):
                async with db.executemany(sql, rows[first:first + CHUNK]):
                    pass  # the cursor is closed on aiosqlite's thread


async def migrate(source: str, target: str) -> dict[str, int]:
    """Copy every table from ``source`` to ``target`` (paths or URLs); how many rows of
    each were copied. ``MigrationRefused`` (nothing written) if the source does not exist,
    is the target, or the target holds rows."""
    if not is_postgres(source) and not os.path.isfile(source):
        raise MigrationRefused(f"There is no database file {source}, so nothing was copied.")
    if source == target:
        raise MigrationRefused("FROM and TO name the same database, so nothing was copied.")
    origin = await Store.open(source)
    try:
        tables = await read_all(origin)
    finally:
        await origin.close()
    destination = await Store.open(target)
    try:
        await write_all(destination, tables)
    finally:
        await destination.close()
    return {table: len(rows) for table, rows in tables.items()}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="boardroom migrate-db",
        description="Copy every game, seat, move, wait, player, absence, rating and undo "
                    "request from one database to another, empty one (SQLite file or "
                    "postgresql:// URL, either way). Stop the bot first.")
    p.add_argument("source", metavar="FROM", help="the database to copy from")
    p.add_argument("target", metavar="TO", help="the empty database to copy into")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """The subcommand: copy, then print how many rows of each table were copied."""
    args = parser().parse_args(argv)
    try:
        counts = asyncio.run(migrate(args.source, args.target))
    except StoreError as error:
        print(f"boardroom migrate-db: {error}", file=sys.stderr)
        return 1
    print(f"Copied {shown(args.source)} to {shown(args.target)}:")
    for table, count in counts.items():
        print(f"  {table:<9} {count:>9,}")
    return 0
