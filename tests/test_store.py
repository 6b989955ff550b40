"""Storage: round trips, the one-table-per-channel rule, the append-only log, migrations.

Tests of the ``store`` fixture run on both engines (SQLite and PostgreSQL: the module is
marked ``engines``, conftest.py); those about SQLite's file alone (damage, its pragmas, its
size limits) open a file themselves, and PostgreSQL has its own tests for the same
guarantees where it has them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

import rules
from bot import migrate_db
from bot.records import Job, WaitRow
from bot.service import TableService
from bot.service.table import TableError, set_aside_notice
from bot.store import Store, schema
from bot.store import postgres as pgstore
from bot.store import sqlite as store_module
from bot.store.engine import FLUSH_DELAY
from bot.store.errors import (
    ChannelBusy,
    DamagedDatabase,
    SeatTaken,
    StoreError,
    StoreUnavailable,
)
from bot.store.postgres import Postgres
from bot.store.sqlite import SQLite
from tests.pg import (
    AnyStore,
    Database,
    Server,
    create_database,
    create_schema,
    drop_database,
    drop_schema,
    free_port,
)

pytestmark = pytest.mark.engines  # its tests of ``store`` run on both engines


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    """A store on a SQLite file, for tests of what only SQLite has (its pragmas)."""
    opened = await Store.open(str(tmp_path / "t.db"))
    yield opened
    await opened.close()


async def test_a_table_round_trips(store: AnyStore) -> None:
    row = await store.tables.create_game(10, 20, "cube-conquest", {"variant": "x"}, 7, "Ann")
    assert (row.channel_id, row.guild_id, row.game, row.options) == (
        10, 20, "cube-conquest", {"variant": "x"})
    assert (row.status, row.opener_id, row.version, row.state, row.announced) == (
        "open", 7, 0, None, 0)
    assert await store.tables.game(row.id) == row
    assert await store.tables.active_game(10) == row
    assert await store.tables.latest_game(10) == row
    assert await store.tables.active_game(11) is None
    seats = await store.seats.of(row.id)
    assert [(s.seat, s.user_id, s.name, s.kind) for s in seats] == [(0, 7, "Ann", "human")]


async def test_names_are_stored_as_given_never_as_sql(store: AnyStore) -> None:
    name = "Robert'); DROP TABLE games;--"
    row = await store.tables.create_game(1, None, "cube-conquest", {}, 5, name)
    await store.seats.add(row.id, 1, 6, '"quoted" \\ name', "human")
    assert [s.name for s in await store.seats.of(row.id)] == [name, '"quoted" \\ name']
    assert await store.tables.game(row.id) == row


async def test_one_open_table_per_channel(store: AnyStore) -> None:
    first = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    with pytest.raises(ChannelBusy):
        await store.tables.create_game(1, None, "cube-conquest", {}, 6, "Bob")
    assert [g.id for g in await store.tables.games()] == [first.id]
    assert await store.tables.end_game(first.id)
    assert not await store.tables.end_game(first.id)
    second = await store.tables.create_game(1, None, "cube-conquest", {}, 6, "Bob")
    assert (await store.tables.latest_game(1)) == second
    assert (await store.tables.game(first.id)).status == "ended"  # type: ignore[union-attr]


async def test_seats_renumber_when_one_leaves(store: AnyStore) -> None:
    row = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.seats.add(row.id, 1, 6, "Bob", "human")
    await store.seats.add(row.id, 2, None, "Computer 1", "computer")
    await store.seats.add(row.id, 3, 8, "Dee", "human")
    with pytest.raises(SeatTaken):
        await store.seats.add(row.id, 4, 6, "Bob again", "human")
    with pytest.raises(SeatTaken):
        await store.seats.add(row.id, 3, 9, "Eve", "human")
    await store.seats.remove(row.id, 1)
    assert [(s.seat, s.name) for s in await store.seats.of(row.id)] == [
        (0, "Ann"), (1, "Computer 1"), (2, "Dee")]


async def test_a_move_writes_state_version_and_log_together(store: AnyStore) -> None:
    row = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    assert await store.tables.start_game(row.id, 1234, '{"s": 1}')
    assert not await store.tables.start_game(row.id, 1234, '{"s": 1}')
    started = await store.tables.game(row.id)
    assert started is not None
    assert (started.status, started.seed, started.state, started.version) == (
        "playing", 1234, '{"s": 1}', 1)
    assert await store.tables.moves(row.id) == []

    assert await store.tables.commit_move(row.id, 1, 0, "place b1", '{"s": 2}')
    assert await store.tables.commit_move(row.id, 2, 1, "place e5", '{"s": 3}')
    # A move computed from an older version is refused, and nothing at all is written.
    assert not await store.tables.commit_move(row.id, 2, 1, "place d5", '{"s": "stale"}')
    after = await store.tables.game(row.id)
    assert after is not None
    assert (after.state, after.version, after.status) == ('{"s": 3}', 3, "playing")
    assert [(m.version, m.seat, m.text) for m in await store.tables.moves(row.id)] == [
        (2, 0, "place b1"), (3, 1, "place e5")]

    assert await store.tables.commit_move(row.id, 3, 0, "pass", '{"s": 4}', over=True)
    over = await store.tables.game(row.id)
    assert over is not None
    assert (over.status, over.version) == ("over", 4)
    assert over.finished is not None
    assert not await store.tables.commit_move(row.id, 4, 1, "pass", '{"s": 5}')
    assert await store.tables.active_game(1) is None


async def started_games(store: AnyStore, count: int) -> list[int]:
    ids = []
    for channel in range(1, count + 1):
        row = await store.tables.create_game(channel, None, "cube-conquest", {}, 5, "Ann")
        await store.tables.start_game(row.id, channel, '{"s": 1}')
        ids.append(row.id)
    return ids


async def test_moves_at_the_same_moment_are_each_written_or_refused(store: AnyStore) -> None:
    """Moves of many games at once are written together, yet each is checked against its
    own game's version, and two moves of one game go one after the other."""
    ids = await started_games(store, 30)
    first, second = ids[0], ids[1]
    results = await asyncio.gather(
        *(store.tables.commit_move(g, 1, 0, f"place a{g}", f'{{"g": {g}}}') for g in ids),
        store.tables.commit_move(first, 1, 1, "place e5", '{"s": "same version"}'),  # loses
        store.tables.commit_move(second, 2, 1, "place e5", '{"s": "next"}'),  # follows its move
        store.tables.commit_move(ids[2], 7, 1, "place e5", '{"s": "stale"}'),  # never matches
    )
    assert results == [True] * len(ids) + [False, True, False]
    for g in ids:
        row = await store.tables.game(g)
        assert row is not None
        moves = [(m.version, m.seat, m.text) for m in await store.tables.moves(g)]
        if g == second:
            assert (row.version, row.state) == (3, '{"s": "next"}')
            assert moves == [(2, 0, f"place a{g}"), (3, 1, "place e5")]
        else:
            assert (row.version, row.state) == (2, f'{{"g": {g}}}')
            assert moves == [(2, 0, f"place a{g}")]
    # A move that ends its game, among others.
    done = await asyncio.gather(store.tables.commit_move(ids[3], 2, 0, "pass", "{}", over=True),
                                store.tables.commit_move(ids[4], 2, 0, "pass", "{}"))
    assert done == [True, True]
    over, running = await store.tables.game(ids[3]), await store.tables.game(ids[4])
    assert over is not None and running is not None
    assert (over.status, over.version, running.status, running.finished) == (
        "over", 3, "playing", None)
    assert over.finished is not None


async def test_a_batch_that_fails_is_written_move_by_move(
        store: AnyStore, database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the statement for several moves fails, nothing of it was written and each move
    is tried alone: each caller gets what its own move gets."""
    ids = await started_games(store, 5)
    tried = []

    def broken(count: int) -> str:
        tried.append(count)
        return "UPDATE nowhere SET x = 1"

    engine = pgstore if database.engine == "postgresql" else store_module
    monkeypatch.setattr(engine, "_moves_sql", broken)
    results = await asyncio.gather(
        *(store.tables.commit_move(g, 1, 0, "place b1", '{"s": 2}') for g in ids),
        store.tables.commit_move(ids[0], 5, 0, "place a1", '{"s": "stale"}'))
    assert tried == [len(ids)]  # one statement for the five games' moves, which failed
    assert results == [True] * len(ids) + [False]
    assert [(await store.tables.game(g)).version for g in ids] == [2] * len(ids)  # type: ignore[union-attr]


async def test_a_move_whose_caller_gave_up_before_it_was_written_is_not(store: AnyStore) -> None:
    (game,) = await started_games(store, 1)
    async with store.transaction():  # the database is busy: the move has to wait
        waiting = asyncio.ensure_future(store.tables.commit_move(game, 1, 0, "place b1", "{}"))
        await asyncio.sleep(0)
        waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert await store.tables.commit_move(game, 1, 0, "place a1", '{"s": 2}')
    assert [m.text for m in await store.tables.moves(game)] == ["place a1"]


async def test_the_move_log_is_append_only(store: AnyStore, database: Database) -> None:
    row = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.tables.start_game(row.id, 1, "{}")
    await store.tables.commit_move(row.id, 1, 0, "place b1", "{}")
    refused = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
    statements = ["UPDATE moves SET text = 'place a1'", "DELETE FROM moves"]
    if database.engine == "postgresql":
        statements.append("TRUNCATE moves")
    for sql in statements:
        with pytest.raises(refused, match="append-only"):
            await database.sql(store, sql)
    assert [m.text for m in await store.tables.moves(row.id)] == ["place b1"]


async def test_the_outbox_tracks_announced_versions(store: AnyStore) -> None:
    row = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.tables.start_game(row.id, 1, "{}")
    assert [g.id for g in await store.deliveries.unannounced()] == [row.id]
    store.deliveries.mark_delivered(row.id, 1)
    assert await store.deliveries.unannounced() == []
    for version in range(1, 4):
        await store.tables.commit_move(row.id, version, 0, "place b1", "{}")
    store.deliveries.mark_delivered(row.id, 3)  # version 2 was not posted (yet): a gap
    assert [(g.announced, g.version) for g in await store.deliveries.unannounced()] == [(1, 4)]
    assert await store.deliveries.posted(row.id) == {3}
    store.deliveries.mark_delivered(row.id, 99)  # beyond the latest version: nothing to mark
    store.deliveries.mark_delivered(row.id, 3)  # twice: nothing more
    assert [(g.announced, g.version) for g in await store.deliveries.unannounced()] == [(1, 4)]
    store.deliveries.mark_delivered(row.id, 2)  # the gap closes: announced runs on over 3
    assert [(g.announced, g.version) for g in await store.deliveries.unannounced()] == [(3, 4)]
    assert await store.deliveries.posted(row.id) == set()
    store.deliveries.mark_delivered(row.id, 4)
    assert await store.deliveries.unannounced() == []


async def test_a_later_version_posted_does_not_cover_an_earlier_one(store: AnyStore) -> None:
    """A process stopped between writing version 2 and posting it; another posted version
    3: version 2 stays in the outbox, alone."""
    row = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.tables.start_game(row.id, 1, "{}")
    await store.tables.commit_move(row.id, 1, 0, "place b1", "{}")
    await store.tables.commit_move(row.id, 2, 0, "place a1", "{}")
    store.deliveries.mark_delivered(row.id, 1)
    store.deliveries.mark_delivered(row.id, 3)
    await store.flush()
    reopened = [(g.id, g.announced, g.version) for g in await store.deliveries.unannounced()]
    assert reopened == [(row.id, 1, 3)] and await store.deliveries.posted(row.id) == {3}


async def test_a_delivered_mark_goes_to_its_own_game_not_the_channels_newest(
        store: AnyStore) -> None:
    old = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.tables.start_game(old.id, 1, "{}")
    await store.tables.commit_move(old.id, 1, 0, "place b1", "{}", over=True)  # over, not announced
    new = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.tables.start_game(new.id, 1, "{}")
    for version in range(1, 4):
        await store.tables.commit_move(new.id, version, 0, "place b1", "{}")
    for version in (1, 2):  # the old game's replies, posted late
        store.deliveries.mark_delivered(old.id, version)
    assert [(g.id, g.announced) for g in await store.deliveries.unannounced()] == [(new.id, 0)]
    for version in range(1, 5):
        store.deliveries.mark_delivered(new.id, version)
    assert await store.deliveries.unannounced() == []


async def test_marks_and_reads_share_one_flush_timer(
        store: AnyStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A thousand delivered marks, each read back at once: the reads write the marks
    without cancelling and re-arming the flush timer, so the store hands the loop one
    timer per ``FLUSH_DELAY`` at most (a handful), not one per mark. (asyncpg's statement
    cache arms timers of its own: only the store's are counted.)"""
    games = await started_games(store, 20)
    for version in range(1, 51):
        assert all(await asyncio.gather(*(store.tables.commit_move(g, version, 0, "pass", "{}")
                                          for g in games)))
    loop = asyncio.get_running_loop()
    timers: list[asyncio.TimerHandle] = []
    call_later = loop.call_later

    def counted(delay: float, callback: Any, *args: Any, **kwargs: Any
                ) -> asyncio.TimerHandle:
        timer = call_later(delay, callback, *args, **kwargs)
        if getattr(callback, "__module__", "").startswith("bot.store"):
            timers.append(timer)
        return timer

    monkeypatch.setattr(loop, "call_later", counted)
    began = time.monotonic()
    for version in range(1, 51):
        for game in games:
            store.deliveries.mark_delivered(game, version)
            row = await store.tables.game(game)
            assert row is not None and row.announced == version  # the read saw the mark
    elapsed = time.monotonic() - began
    assert 1 <= len(timers) <= 2 + elapsed / FLUSH_DELAY, (len(timers), elapsed)
    assert not any(timer.cancelled() for timer in timers)


async def test_a_new_database_is_wal_and_at_the_latest_schema(tmp_path: Path) -> None:
    path = str(tmp_path / "new.db")
    opened = await Store.open(path)
    await opened.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == len(
            store_module.MIGRATIONS)


async def test_the_path_comes_from_the_environment(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOARDROOM_DB", raising=False)
    opened = await Store.open()
    await opened.close()
    assert (tmp_path / "boardroom.db").exists()
    monkeypatch.setenv("BOARDROOM_DB", str(tmp_path / "elsewhere.db"))
    opened = await Store.open(None)
    assert opened.path == str(tmp_path / "elsewhere.db")
    await opened.close()
    assert (tmp_path / "elsewhere.db").exists()


async def test_an_older_database_upgrades_in_place(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "old.db")
    old = await Store.open(path)
    row = await old.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await old.tables.start_game(row.id, 42, '{"s": 1}')
    await old.tables.commit_move(row.id, 1, 0, "place b1", '{"s": 2}')
    await old.close()

    newer = [*store_module.MIGRATIONS,
             "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'kept';"]
    monkeypatch.setattr(store_module, "MIGRATIONS", newer)
    upgraded = await Store.open(path)
    try:
        assert await store_module.schema_version(upgraded.db) == len(newer)
        kept = await upgraded.tables.game(row.id)
        assert kept is not None
        assert (kept.state, kept.version, kept.seed) == ('{"s": 2}', 2, 42)
        assert [m.text for m in await upgraded.tables.moves(row.id)] == ["place b1"]
        notes = await upgraded.db.execute_fetchall("SELECT note FROM games")
        assert [n[0] for n in notes] == ["kept"]
        # The trigger still logs moves after the upgrade.
        assert await upgraded.tables.commit_move(row.id, 2, 0, "place a1", '{"s": 3}')
        assert [m.text for m in await upgraded.tables.moves(row.id)] == ["place b1", "place a1"]
    finally:
        await upgraded.close()


async def test_the_waits_and_digest_moments_move_into_jobs(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Migration 14 on a database made by the schema before it: every wait (its clock and
    due moment) and every digest's due moment becomes a job, so a running deployment
    keeps its deadlines; ``waits`` and ``players.digest_due`` are gone."""
    before = 13  # the steps before migration 14, the jobs'
    with monkeypatch.context() as patched:
        patched.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:before])
        patched.setattr(pgstore, "MIGRATIONS", pgstore.MIGRATIONS[:before])
        old = await database.open()
        try:
            row = await old.tables.create_game(1, 2, "cube-conquest", {}, 10, "Ann")
            for statement, values in (
                    ("INSERT INTO waits (game_id, seat, since, reminded, due, ran, mark) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)", (row.id, 1, 5.0, 2, 90.0, 3.0, 7.0)),
                    ("INSERT INTO waits (game_id, seat, since) VALUES (?, ?, ?)",
                     (row.id, 0, 6.0)),
                    ("INSERT INTO players (user_id, digest_hour, digest_due, digest_sent) "
                     "VALUES (?, ?, ?, ?)", (2**40, 8, 80.0, 1.0)),
                    ("INSERT INTO players (user_id, quiet_from) VALUES (?, ?)", (11, 22))):
                await database.sql(old, statement, *values)
        finally:
            await old.close()
    upgraded = await database.open()
    try:
        assert await upgraded.jobs.waits(row.id) == [
            WaitRow(row.id, 0, 6.0), WaitRow(row.id, 1, 5.0, 2, 90.0, 3.0, 7.0)]
        player = await upgraded.members.player(2**40)
        assert (player.digest_hour, player.digest_due, player.digest_sent) == (8, 80.0, 1.0)
        assert (await upgraded.members.player(11)).digest_due is None
        assert await upgraded.jobs.next_due() == 80.0
        assert await upgraded.jobs.claim(100.0) == [Job("digest", 2**40, 0, 80.0),
                                                    Job("wait", row.id, 1, 90.0)]
    finally:
        await upgraded.close()


async def test_a_failed_migration_changes_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "f.db")
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        await store_module.migrate(db)
        broken = [*store_module.MIGRATIONS,
                  "CREATE TABLE extra (x INTEGER); INSERT INTO nowhere VALUES (1);"]
        with pytest.raises(sqlite3.OperationalError):
            await store_module.migrate(db, broken)
        assert await store_module.schema_version(db) == len(store_module.MIGRATIONS)
        tables = await db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE name = 'extra'")
        assert list(tables) == []
    finally:
        await db.close()


async def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "future.db")
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer Boardroom"):
        await Store.open(path)


# -- A damaged or full database (issue 17, items 5-7)


def aged(path: Path) -> None:
    """Make a file an hour old: a just-made empty file may be another process's new
    database, which opening waits a moment for (``store.NEW_FILE_GRACE``)."""
    an_hour_ago = path.stat().st_mtime - 3600
    os.utime(path, (an_hour_ago, an_hour_ago))


async def test_an_empty_file_is_refused_never_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    aged(path)
    with pytest.raises(DamagedDatabase, match="empty") as info:
        await Store.open(str(path))
    assert str(path) in str(info.value) and "backup" in str(info.value)
    assert path.stat().st_size == 0  # nothing was written over it


async def test_a_just_made_empty_file_is_waited_for_then_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty file made a moment ago may be another process's new database (SQLite
    makes the file first and writes it a moment later): opening waits for its header, a
    moment at most, and refuses it if it stays empty."""
    monkeypatch.setattr(store_module, "NEW_FILE_GRACE", 0.3)
    path = tmp_path / "new.db"
    path.touch()
    began = time.monotonic()
    with pytest.raises(DamagedDatabase, match="empty"):
        await Store.open(str(path))
    assert 0.1 < time.monotonic() - began < 5


async def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 10)
    with pytest.raises(DamagedDatabase, match="not a SQLite database"):
        await Store.open(str(path))


async def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.db"
    opened = await Store.open(str(path))
    await started_games(opened, 200)
    await opened.close()  # the last connection checkpoints the journal into the file
    whole = path.read_bytes()
    assert len(whole) > 8192 and not (tmp_path / "cut.db-wal").exists()
    for size in (len(whole) // 2, 60):
        path.write_bytes(whole[:size])
        aged(path)
        with pytest.raises(DamagedDatabase, match="truncated") as info:
            await Store.open(str(path))
        assert str(path) in str(info.value)
    path.write_bytes(whole)  # the whole file opens again
    again = await Store.open(str(path))
    assert len(await again.tables.games()) == 200
    await again.close()


def test_python_m_bot_says_the_database_is_damaged_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    aged(path)
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "BOARDROOM_DB": str(path)}
    done = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1
    assert f"The database file {path} is empty" in done.stderr
    assert "Traceback" not in done.stderr


async def a_move(service: TableService, channel: int) -> None:
    user = (await service.waiting(channel))[0][0]
    await service.play(channel, user, (await service.legal_moves(channel, user))[0])


async def damaged_tables(database: Database) -> list[int]:
    """A database with three running tables (channels 1-3), a move each; then table 2's
    state is not JSON and table 3's game is unknown."""
    opened = await database.open()
    service = TableService(opened, images=False)
    ids = []
    for channel in (1, 2, 3):
        await service.open(channel, None, 10, "Ann", "cube-conquest")
        await service.join(channel, 11, "Bob")
        reply = await service.start(channel, 10, seed=channel)
        await a_move(service, channel)
        ids.append(reply.game)
    await database.sql(opened, "UPDATE games SET state = ? WHERE id = ?", '{"cut', ids[1])
    await database.sql(opened, "UPDATE games SET game = 'gone-game' WHERE id = ?", ids[2])
    await opened.close()
    return ids


async def test_an_unreadable_table_is_set_aside_and_the_others_go_on(
        database: Database, caplog: pytest.LogCaptureFixture) -> None:
    ids = await damaged_tables(database)
    opened = await database.open()
    try:
        service = TableService(opened, images=False)
        with caplog.at_level("ERROR", logger="boardroom.service"):
            replies = await service.undelivered()
        told = [(channel, r.public) for channel, r in replies if r.public == set_aside_notice()]
        assert sorted(told) == [(2, set_aside_notice()), (3, set_aside_notice())]
        assert {channel for channel, r in replies} == {1, 2, 3}  # table 1's moves too
        logged = [r for r in caplog.records if "set aside" in r.getMessage()]
        assert sorted(str(ids[1]) in r.getMessage() or str(ids[2]) in r.getMessage()
                      for r in logged) == [True, True]
        for _, reply in replies:
            await service.delivered(reply)
        assert await service.undelivered() == []  # told once, not at every start
        # Table 1 plays on; channels 2 and 3 say why, then take a new table.
        await a_move(service, 1)
        for channel in (2, 3):
            for call in (service.board(channel), service.play(channel, 11, "pass")):
                with pytest.raises(TableError) as info:
                    await call
                assert str(info.value) == set_aside_notice()
            await service.open(channel, None, 10, "Ann", "cube-conquest")
        stored = await opened.tables.game(ids[1])
        assert stored is not None and stored.status == "ended" and stored.damaged
        assert len(await opened.tables.moves(ids[1])) == 1  # its rows stay in the file
    finally:
        await opened.close()


async def test_a_row_whose_options_are_not_json_does_not_stop_the_others(
        database: Database) -> None:
    opened = await database.open()
    try:
        first = await opened.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
        second = await opened.tables.create_game(2, None, "cube-conquest", {}, 5, "Ann")
        await database.sql(opened, "UPDATE games SET options = 'nope' WHERE id = ?", first.id)
        rows = await opened.tables.games()
        assert [(r.id, bool(r.damaged)) for r in rows] == [(first.id, True), (second.id, False)]
        service = TableService(opened, images=False)
        with pytest.raises(TableError, match="set aside"):
            await service.join(1, 6, "Bob")
        await service.join(2, 6, "Bob")
    finally:
        await opened.close()


async def full_after_setup(store: Store) -> TableService:
    """Two running tables, then a database that cannot grow by one page."""
    service = TableService(store, images=False)
    for channel in (1, 2):
        await service.open(channel, None, 10, "Ann", "cube-conquest")
        await service.join(channel, 11, "Bob")
        await service.start(channel, 10, seed=channel)
    await store.flush()
    await store.db.execute_fetchall("VACUUM")  # no free page left by a migration to fill
    pages = (await store.db.execute_fetchall("PRAGMA page_count"))[0][0]  # type: ignore[index]
    await store.db.execute_fetchall(f"PRAGMA max_page_count = {pages}")
    return service


async def test_a_full_database_says_so_and_changes_nothing(
        sqlite_store: Store, caplog: pytest.LogCaptureFixture) -> None:
    store = sqlite_store
    service = await full_after_setup(store)
    with caplog.at_level("ERROR", logger="boardroom.store"):
        refusals = []
        for channel in range(100, 160):  # new tables until the file is full
            try:
                await service.open(channel, None, 10, "Ann", "cube-conquest")
            except StoreUnavailable as error:
                refusals.append((channel, error))
        assert refusals, "the database never filled up"
        for channel, refusal in refusals:
            assert isinstance(refusal, rules.GameError) and refusal.kind == "full"
            assert str(refusal) == ("The game's database is full right now, so nothing was "
                                    "changed; please try again later.")
            assert await store.tables.active_game(channel) is None  # nothing half-made
        # Moves fail the same way and leave the table where it was, in memory and stored.
        stuck = None
        for _ in range(400):
            user = (await service.waiting(1))[0][0]
            move = (await service.legal_moves(1, user))[0]
            version = (await store.tables.game(1)).version  # type: ignore[union-attr]
            try:
                await service.play(1, user, move)
            except StoreUnavailable:
                stuck = (user, move, version)
                break
        assert stuck is not None, "no move was refused"
        user, move, version = stuck
        row = await store.tables.game(1)
        assert row is not None and row.version == version
        assert len(await store.tables.moves(1)) == version - 1
    logged = [r for r in caplog.records if "refused a write" in r.getMessage()]
    assert len(logged) == 1  # once, not once per refusal
    # Space comes back: the same move plays, and the other table too.
    await store.db.execute_fetchall("PRAGMA max_page_count = 1073741823")
    await service.play(1, user, move)
    assert (await store.tables.game(1)).version == version + 1  # type: ignore[union-attr]
    await a_move(service, 2)


async def test_a_lock_held_past_the_timeout_says_busy(tmp_path: Path) -> None:
    path = str(tmp_path / "busy.db")
    opened = await Store.open(path)
    try:
        service = TableService(opened, images=False)
        await service.open(1, None, 10, "Ann", "cube-conquest")
        await opened.db.execute_fetchall("PRAGMA busy_timeout = 50")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            with pytest.raises(StoreUnavailable, match="busy right now") as info:
                await service.join(1, 11, "Bob")
            assert info.value.kind == "busy"
            assert [s.name for s in await opened.seats.of(1)] == ["Ann"]  # reads still work
        finally:
            other.execute("ROLLBACK")
            other.close()
        await service.join(1, 11, "Bob")
    finally:
        await opened.close()


FILL = """
import asyncio, resource, sys
from bot.store import Store
from bot.store.errors import StoreUnavailable

async def main(path):
    store = await Store.open(path)
    row = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.tables.start_game(row.id, 1, "{}")
    resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
    try:
        for version in range(1, 100_000):
            await store.tables.commit_move(row.id, version, 0, "x" * 500, "{}")
    except StoreUnavailable as error:
        print("refused:", error.kind, "|", error)
        print("version:", (await store.tables.game(row.id)).version,
              len(await store.tables.moves(row.id)))
    await store.close()

asyncio.run(main(sys.argv[1]))
"""


def test_a_file_size_limit_says_so(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", FILL, str(tmp_path / "limit.db")],
                          capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr
    kind = done.stdout.split("refused: ")[1].split(" |")[0]
    assert kind in ("full", "unwritable"), done.stdout
    assert "so nothing was changed; please try again later." in done.stdout
    version, logged = map(int, done.stdout.split("version: ")[1].split())
    assert logged == version - 1  # the refused move is not half-written


async def test_a_cancelled_caller_never_leaves_a_transaction_open(database: Database) -> None:
    """A caller cancelled while its multi-statement write waits on the database: the
    write happens whole or not at all, and the next caller's statements are not caught
    inside an open transaction (they commit, and survive a reopen)."""
    store = await database.open()
    for attempt in range(6):
        task = asyncio.ensure_future(
            store.tables.create_game(100 + attempt, None, "cube-conquest", {}, 5, "Ann"))
        for _ in range(attempt):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        row = await store.tables.create_game(200 + attempt, None, "cube-conquest", {}, 6, "Bob")
        assert [s.name for s in await store.seats.of(row.id)] == ["Bob"]
        made = await store.tables.active_game(100 + attempt)
        if made is not None:  # written whole: the game and its seat
            assert [s.name for s in await store.seats.of(made.id)] == ["Ann"]
    assert not await database.in_transaction(store)
    await store.close()
    again = await database.open()
    assert {200 + a for a in range(6)} <= {g.channel_id for g in await again.tables.games()}
    await again.close()


async def test_a_new_game_opens_at_once_where_an_unread_damaged_table_sat(
        database: Database) -> None:
    """/game new in a channel whose damaged table nobody has looked at yet: the table is
    set aside on the spot and the new one opens, on the first try."""
    await damaged_tables(database)
    opened = await database.open()
    try:
        service = TableService(opened, images=False)
        reply = await service.open(2, None, 10, "Ann", "cube-conquest")
        assert "opened a table for Cube Conquest" in reply.public
    finally:
        await opened.close()


# -- Two engines (issue 23): the same schema, migrations that run once however many
# processes open a new database together, and PostgreSQL's own forms of the guarantees
# tested above on a SQLite file (a newer database refused, a failed step, full, busy).


def test_stores_opening_a_new_file_together_make_it_once(tmp_path: Path) -> None:
    """Several processes (threads here, each with its own connection) open one new file
    at the same moment, many times: each migration runs once, and every open succeeds."""

    def open_and_close(path: str, start: threading.Barrier, failures: list[str]) -> None:
        async def run() -> None:
            start.wait()
            opened = await Store.open(path)
            await opened.close()
        try:
            asyncio.run(run())
        except Exception as error:
            failures.append(repr(error))

    failures: list[str] = []
    for attempt in range(12):
        path = str(tmp_path / f"new-{attempt}.db")
        start = threading.Barrier(4)
        openers = [threading.Thread(target=open_and_close, args=(path, start, failures))
                   for _ in range(4)]
        for opener in openers:
            opener.start()
        for opener in openers:
            opener.join()
        with sqlite3.connect(path) as raw:
            assert raw.execute("PRAGMA user_version").fetchone()[0] == len(
                store_module.MIGRATIONS)
    assert failures == []


async def test_postgresql_stores_opening_a_new_database_together_make_it_once(
        pg_server: Server) -> None:
    for attempt in range(6):
        name = f"together_{attempt}"
        url = await create_schema(pg_server, name)
        try:
            opened = await asyncio.gather(*(Store.open(url) for _ in range(4)))
            try:
                async with opened[0].pool.acquire() as db:
                    steps = [r[0] for r in await db.fetch(
                        "SELECT version FROM schema_version ORDER BY version")]
                assert steps == list(range(1, len(pgstore.MIGRATIONS) + 1))
            finally:
                for each in opened:
                    await each.close()
        finally:
            await drop_schema(pg_server, name)


async def columns(database: Database, store: AnyStore) -> dict[str, list[str]]:
    """Each table's columns in order, and the names of the indexes and triggers we made."""
    if database.engine == "sqlite":
        tables = [r[0] for r in await database.sql(
            store, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found = {t: [str(c[1]) for c in await database.sql(store, f"PRAGMA table_info({t})")]
                 for t in tables}
        made = await database.sql(store, "SELECT type, name FROM sqlite_master WHERE type IN "
                                         "('index', 'trigger') AND sql IS NOT NULL")
    else:
        rows = await database.sql(
            store, "SELECT table_name, column_name FROM information_schema.columns WHERE "
                   "table_schema = 'public' AND table_name <> 'schema_version' "
                   "ORDER BY table_name, ordinal_position")
        found = {}
        for table, column in rows:
            found.setdefault(table, []).append(column)
        made = await database.sql(
            store, "SELECT 'index', indexname FROM pg_indexes WHERE schemaname = 'public' "
                   "AND indexname NOT LIKE '%_pkey' UNION ALL SELECT 'trigger', tgname "
                   "FROM pg_trigger WHERE NOT tgisinternal")
    found["(made)"] = sorted(f"{kind} {name}" for kind, name in made)
    return found


async def test_every_table_is_declared_once_as_the_migrations_make_it(tmp_path: Path
                                                                      ) -> None:
    """``bot.store.schema`` declares every table and column the migrations make, in order
    and with their types (a migration that adds a column must declare it there too), and
    ``boardroom migrate-db`` copies exactly those columns."""
    database = Database("sqlite", str(tmp_path / "schema.db"))
    opened = await database.open()
    try:
        made = {t: [(str(c[1]), str(c[2])) for c in await database.sql(
            opened, f"PRAGMA table_info({t})")] for t in (await columns(database, opened))
            if t != "(made)"}
    finally:
        await opened.close()
    assert {t.name: list(t.columns) for t in schema.TABLES} == made
    assert {t: tuple(n for n, _ in c) for t, c in made.items()} == migrate_db.TABLES
    assert "bank_add" in schema.GAMES.reals and "user_id" not in schema.SEATS.reals


async def test_both_engines_have_the_same_schema(pg_server: Server, tmp_path: Path) -> None:
    """The same tables, columns (in order), indexes and triggers: a migration added to one
    engine and not the other fails here. (PostgreSQL also refuses TRUNCATE on the log.)"""
    assert len(pgstore.MIGRATIONS) == len(store_module.MIGRATIONS)
    schemas = []
    name = f"schema_{os.getpid()}"
    for database in (Database("sqlite", str(tmp_path / "schema.db")),
                     Database("postgresql", await create_database(pg_server, name))):
        opened = await database.open()
        try:
            schemas.append(await columns(database, opened))
        finally:
            await opened.close()
    await drop_database(pg_server, name)
    sqlite_schema, postgres_schema = schemas
    postgres_schema["(made)"].remove("trigger moves_no_truncate")
    assert postgres_schema == sqlite_schema
    assert "games" in sqlite_schema and "salt" in sqlite_schema["games"]


async def test_the_engine_comes_from_the_url(tmp_path: Path, pg_server: Server,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"chosen_{os.getpid()}"
    url = await create_database(pg_server, name)
    try:
        for where, engine in ((url, Postgres), (str(tmp_path / "chosen.db"), SQLite),
                              (url.replace("postgresql://", "postgres://"), Postgres)):
            monkeypatch.setenv("BOARDROOM_DB", where)
            opened = await Store.open()
            try:
                assert type(opened.engine) is engine and opened.path == where
            finally:
                await opened.close()
    finally:
        await drop_database(pg_server, name)


async def test_a_postgresql_server_that_cannot_be_reached_is_one_sentence_without_password(
        ) -> None:
    url = f"postgresql://boardroom:s3cret@127.0.0.1:{free_port()}/boardroom"
    with pytest.raises(StoreError) as info:
        await Store.open(url)
    said = str(info.value)
    assert said.startswith("The database postgresql://boardroom:***@127.0.0.1:")
    assert "could not be opened" in said and "s3cret" not in said


async def test_an_older_postgresql_database_upgrades_in_place(
        pg_database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    old = await pg_database.open()
    row = await old.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await old.tables.start_game(row.id, 42, '{"s": 1}')
    await old.tables.commit_move(row.id, 1, 0, "place b1", '{"s": 2}')
    await old.close()

    newer = [*pgstore.MIGRATIONS,
             "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'kept';"]
    monkeypatch.setattr(pgstore, "MIGRATIONS", newer)
    upgraded = await pg_database.open()
    try:
        assert isinstance(upgraded.engine, Postgres)
        async with upgraded.pool.acquire() as db:
            assert await pgstore.schema_version(db) == len(newer)
        kept = await upgraded.tables.game(row.id)
        assert kept is not None
        assert (kept.state, kept.version, kept.seed) == ('{"s": 2}', 2, 42)
        assert await pg_database.sql(upgraded, "SELECT note FROM games") == [("kept",)]
        assert await upgraded.tables.commit_move(row.id, 2, 0, "place a1", '{"s": 3}')
        assert [m.text for m in await upgraded.tables.moves(row.id)] == ["place b1", "place a1"]
    finally:
        await upgraded.close()


async def test_a_failed_postgresql_migration_changes_nothing(pg_database: Database) -> None:
    opened = await pg_database.open()
    try:
        assert isinstance(opened.engine, Postgres)
        broken = [*pgstore.MIGRATIONS,
                  "CREATE TABLE extra (x INTEGER); INSERT INTO nowhere VALUES (1);"]
        async with opened.pool.acquire() as db:
            with pytest.raises(asyncpg.UndefinedTableError):
                await pgstore.migrate(db, broken)
            assert await pgstore.schema_version(db) == len(pgstore.MIGRATIONS)
            assert await db.fetchval("SELECT to_regclass('extra')") is None
    finally:
        await opened.close()


async def test_a_postgresql_database_from_a_newer_version_is_refused(
        pg_database: Database) -> None:
    opened = await pg_database.open()
    await pg_database.sql(opened, "INSERT INTO schema_version VALUES (99, 0)")
    await opened.close()
    with pytest.raises(StoreError, match="newer Boardroom"):
        await pg_database.open()


# PostgreSQL says "disk full" (SQLSTATE 53100) when it cannot extend a file; a trigger says
# the same for every write to the tables, as a full disk would.
FULL_DISK = """
CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'could not extend file: No space left on device'
        USING ERRCODE = 'disk_full';
END $$;
CREATE TRIGGER full_games BEFORE INSERT OR UPDATE ON games
    FOR EACH STATEMENT EXECUTE FUNCTION full_disk();
CREATE TRIGGER full_seats BEFORE INSERT OR UPDATE OR DELETE ON seats
    FOR EACH STATEMENT EXECUTE FUNCTION full_disk();
"""


async def test_a_full_postgresql_disk_says_so_and_changes_nothing(
        pg_database: Database, caplog: pytest.LogCaptureFixture) -> None:
    store = await pg_database.open()
    try:
        service = TableService(store, images=False)
        for channel in (1, 2):
            await service.open(channel, None, 10, "Ann", "cube-conquest")
            await service.join(channel, 11, "Bob")
            await service.start(channel, 10, seed=channel)
        await store.flush()
        assert isinstance(store.engine, Postgres)
        async with store.pool.acquire() as db:
            await db.execute(FULL_DISK)
        with caplog.at_level("ERROR", logger="boardroom.store"):
            for channel in (100, 101):
                with pytest.raises(StoreUnavailable) as info:
                    await service.open(channel, None, 10, "Ann", "cube-conquest")
                assert info.value.kind == "full" and str(info.value) == (
                    "The game's database is full right now, so nothing was changed; please "
                    "try again later.")
                assert await store.tables.active_game(channel) is None  # nothing half-made
            user = (await service.waiting(1))[0][0]
            move = (await service.legal_moves(1, user))[0]
            for _ in range(2):
                with pytest.raises(StoreUnavailable, match="full right now"):
                    await service.play(1, user, move)
            row = await store.tables.game(1)
            assert row is not None and row.version == 1 and await store.tables.moves(1) == []
        logged = [r for r in caplog.records if "refused a write" in r.getMessage()]
        assert len(logged) == 1  # once, not once per refusal
        async with store.pool.acquire() as db:  # room again
            await db.execute("DROP TRIGGER full_games ON games; "
                             "DROP TRIGGER full_seats ON seats")
        await service.play(1, user, move)  # the same move, from the table in memory
        assert (await store.tables.game(1)).version == 2  # type: ignore[union-attr]
        await a_move(service, 2)
    finally:
        await store.close()


async def test_a_postgresql_lock_held_past_the_timeout_says_busy(
        pg_database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pgstore, "LOCK_TIMEOUT", "50ms")
    opened = await pg_database.open()
    other = await asyncpg.connect(pg_database.url)  # another process
    try:
        service = TableService(opened, images=False)
        await service.open(1, None, 10, "Ann", "cube-conquest")
        async with other.transaction():  # it holds the seats' write lock
            await other.execute("LOCK TABLE seats IN EXCLUSIVE MODE")
            with pytest.raises(StoreUnavailable, match="busy right now") as info:
                await service.join(1, 11, "Bob")
            assert info.value.kind == "busy"
            assert [s.name for s in await opened.seats.of(1)] == ["Ann"]  # reads still work
        await service.join(1, 11, "Bob")
        assert [s.name for s in await opened.seats.of(1)] == ["Ann", "Bob"]
    finally:
        await other.close()
        await opened.close()


async def test_an_upgrade_counts_games_ended_before_it_as_told(tmp_path: Path) -> None:
    """Migration 11: the outbox now tells an ended game's untold moves; a game ended before
    the upgrade is not posted into its channel long after (a running one still is)."""
    db = await aiosqlite.connect(str(tmp_path / "old.db"), isolation_level=None)
    try:
        await store_module.migrate(db, store_module.MIGRATIONS[:10])
        for id_, status in ((1, "ended"), (2, "playing")):
            await db.execute(
                "INSERT INTO games (id, channel_id, game, status, opener_id, version, "
                "announced, created, updated) VALUES (?, ?, 'cube-conquest', ?, 1, 9, 4, 0, 0)",
                (id_, id_, status))
        await store_module.migrate(db)
        rows = await db.execute_fetchall("SELECT id, announced FROM games ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, 9), (2, 4)]
    finally:
        await db.close()
