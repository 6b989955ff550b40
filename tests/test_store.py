"""Storage: round trips, the one-table-per-channel rule, the append-only log, migrations."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from bot import store as store_module
from bot.store import ChannelBusy, SeatTaken, Store, StoreError


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(str(tmp_path / "t.db"))
    yield opened
    await opened.close()


async def test_a_table_round_trips(store: Store) -> None:
    row = await store.create_game(10, 20, "cube-conquest", {"variant": "x"}, 7, "Ann")
    assert (row.channel_id, row.guild_id, row.game, row.options) == (
        10, 20, "cube-conquest", {"variant": "x"})
    assert (row.status, row.opener_id, row.version, row.state, row.announced) == (
        "open", 7, 0, None, 0)
    assert await store.game(row.id) == row
    assert await store.active_game(10) == row
    assert await store.latest_game(10) == row
    assert await store.active_game(11) is None
    seats = await store.seats(row.id)
    assert [(s.seat, s.user_id, s.name, s.kind) for s in seats] == [(0, 7, "Ann", "human")]


async def test_names_are_stored_as_given_never_as_sql(store: Store) -> None:
    name = "Robert'); DROP TABLE games;--"
    row = await store.create_game(1, None, "cube-conquest", {}, 5, name)
    await store.add_seat(row.id, 1, 6, '"quoted" \\ name', "human")
    assert [s.name for s in await store.seats(row.id)] == [name, '"quoted" \\ name']
    assert await store.game(row.id) == row


async def test_one_open_table_per_channel(store: Store) -> None:
    first = await store.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    with pytest.raises(ChannelBusy):
        await store.create_game(1, None, "cube-conquest", {}, 6, "Bob")
    assert [g.id for g in await store.games()] == [first.id]
    assert await store.end_game(first.id)
    assert not await store.end_game(first.id)
    second = await store.create_game(1, None, "cube-conquest", {}, 6, "Bob")
    assert (await store.latest_game(1)) == second
    assert (await store.game(first.id)).status == "ended"  # type: ignore[union-attr]


async def test_seats_renumber_when_one_leaves(store: Store) -> None:
    row = await store.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.add_seat(row.id, 1, 6, "Bob", "human")
    await store.add_seat(row.id, 2, None, "Computer 1", "computer")
    await store.add_seat(row.id, 3, 8, "Dee", "human")
    with pytest.raises(SeatTaken):
        await store.add_seat(row.id, 4, 6, "Bob again", "human")
    with pytest.raises(SeatTaken):
        await store.add_seat(row.id, 3, 9, "Eve", "human")
    await store.remove_seat(row.id, 1)
    assert [(s.seat, s.name) for s in await store.seats(row.id)] == [
        (0, "Ann"), (1, "Computer 1"), (2, "Dee")]


async def test_a_move_writes_state_version_and_log_together(store: Store) -> None:
    row = await store.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    assert await store.start_game(row.id, 1234, '{"s": 1}')
    assert not await store.start_game(row.id, 1234, '{"s": 1}')
    started = await store.game(row.id)
    assert started is not None
    assert (started.status, started.seed, started.state, started.version) == (
        "playing", 1234, '{"s": 1}', 1)
    assert await store.moves(row.id) == []

    assert await store.commit_move(row.id, 1, 0, "place b1", '{"s": 2}')
    assert await store.commit_move(row.id, 2, 1, "place e5", '{"s": 3}')
    # A move computed from an older version is refused, and nothing at all is written.
    assert not await store.commit_move(row.id, 2, 1, "place d5", '{"s": "stale"}')
    after = await store.game(row.id)
    assert after is not None
    assert (after.state, after.version, after.status) == ('{"s": 3}', 3, "playing")
    assert [(m.version, m.seat, m.text) for m in await store.moves(row.id)] == [
        (2, 0, "place b1"), (3, 1, "place e5")]

    assert await store.commit_move(row.id, 3, 0, "pass", '{"s": 4}', over=True)
    over = await store.game(row.id)
    assert over is not None
    assert (over.status, over.version) == ("over", 4)
    assert over.finished is not None
    assert not await store.commit_move(row.id, 4, 1, "pass", '{"s": 5}')
    assert await store.active_game(1) is None


async def started_games(store: Store, count: int) -> list[int]:
    ids = []
    for channel in range(1, count + 1):
        row = await store.create_game(channel, None, "cube-conquest", {}, 5, "Ann")
        await store.start_game(row.id, channel, '{"s": 1}')
        ids.append(row.id)
    return ids


async def test_moves_at_the_same_moment_are_each_written_or_refused(store: Store) -> None:
    """Moves of many games at once are written together, yet each is checked against its
    own game's version, and two moves of one game go one after the other."""
    ids = await started_games(store, 30)
    first, second = ids[0], ids[1]
    results = await asyncio.gather(
        *(store.commit_move(g, 1, 0, f"place a{g}", f'{{"g": {g}}}') for g in ids),
        store.commit_move(first, 1, 1, "place e5", '{"s": "same version"}'),  # loses
        store.commit_move(second, 2, 1, "place e5", '{"s": "next"}'),  # follows its move
        store.commit_move(ids[2], 7, 1, "place e5", '{"s": "stale"}'),  # never matches
    )
    assert results == [True] * len(ids) + [False, True, False]
    for g in ids:
        row = await store.game(g)
        assert row is not None
        moves = [(m.version, m.seat, m.text) for m in await store.moves(g)]
        if g == second:
            assert (row.version, row.state) == (3, '{"s": "next"}')
            assert moves == [(2, 0, f"place a{g}"), (3, 1, "place e5")]
        else:
            assert (row.version, row.state) == (2, f'{{"g": {g}}}')
            assert moves == [(2, 0, f"place a{g}")]
    # A move that ends its game, among others.
    done = await asyncio.gather(store.commit_move(ids[3], 2, 0, "pass", "{}", over=True),
                                store.commit_move(ids[4], 2, 0, "pass", "{}"))
    assert done == [True, True]
    over, running = await store.game(ids[3]), await store.game(ids[4])
    assert over is not None and running is not None
    assert (over.status, over.version, running.status, running.finished) == (
        "over", 3, "playing", None)
    assert over.finished is not None


async def test_a_batch_that_fails_is_written_move_by_move(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the statement for several moves fails, nothing of it was written and each move
    is tried alone: each caller gets what its own move gets."""
    ids = await started_games(store, 5)
    tried = []

    def broken(count: int) -> str:
        tried.append(count)
        return "UPDATE nowhere SET x = 1"

    monkeypatch.setattr(store_module, "_moves_sql", broken)
    results = await asyncio.gather(
        *(store.commit_move(g, 1, 0, "place b1", '{"s": 2}') for g in ids),
        store.commit_move(ids[0], 5, 0, "place a1", '{"s": "stale"}'))
    assert tried == [len(ids)]  # one statement for the five games' moves, which failed
    assert results == [True] * len(ids) + [False]
    assert [(await store.game(g)).version for g in ids] == [2] * len(ids)  # type: ignore[union-attr]


async def test_a_move_whose_caller_gave_up_before_it_was_written_is_not(store: Store) -> None:
    (game,) = await started_games(store, 1)
    async with store.transaction():  # the database is busy: the move has to wait
        waiting = asyncio.ensure_future(store.commit_move(game, 1, 0, "place b1", "{}"))
        await asyncio.sleep(0)
        waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert await store.commit_move(game, 1, 0, "place a1", '{"s": 2}')
    assert [m.text for m in await store.moves(game)] == ["place a1"]


async def test_the_move_log_is_append_only(store: Store) -> None:
    row = await store.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.start_game(row.id, 1, "{}")
    await store.commit_move(row.id, 1, 0, "place b1", "{}")
    for sql in ("UPDATE moves SET text = 'place a1'", "DELETE FROM moves"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await store.db.execute(sql)
    assert [m.text for m in await store.moves(row.id)] == ["place b1"]


async def test_the_outbox_tracks_announced_versions(store: Store) -> None:
    row = await store.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.start_game(row.id, 1, "{}")
    assert [g.id for g in await store.unannounced()] == [row.id]
    store.mark_delivered(row.id, 1)
    assert await store.unannounced() == []
    await store.commit_move(row.id, 1, 0, "place b1", "{}")
    await store.commit_move(row.id, 2, 0, "place a1", "{}")
    store.mark_delivered(row.id, 2)
    assert [(g.announced, g.version) for g in await store.unannounced()] == [(2, 3)]
    store.mark_delivered(row.id, 99)  # beyond the latest version: nothing to mark
    assert [(g.announced, g.version) for g in await store.unannounced()] == [(2, 3)]
    store.mark_delivered(row.id, 3)
    assert await store.unannounced() == []


async def test_a_delivered_mark_goes_to_its_own_game_not_the_channels_newest(
        store: Store) -> None:
    old = await store.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.start_game(old.id, 1, "{}")
    await store.commit_move(old.id, 1, 0, "place b1", "{}", over=True)  # over, not announced
    new = await store.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.start_game(new.id, 1, "{}")
    for version in range(1, 4):
        await store.commit_move(new.id, version, 0, "place b1", "{}")
    store.mark_delivered(old.id, 2)  # the old game's last reply, posted late
    assert [(g.id, g.announced) for g in await store.unannounced()] == [(new.id, 0)]
    store.mark_delivered(new.id, 4)
    assert await store.unannounced() == []


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
    row = await old.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await old.start_game(row.id, 42, '{"s": 1}')
    await old.commit_move(row.id, 1, 0, "place b1", '{"s": 2}')
    await old.close()

    newer = [*store_module.MIGRATIONS,
             "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'kept';"]
    monkeypatch.setattr(store_module, "MIGRATIONS", newer)
    upgraded = await Store.open(path)
    try:
        assert await store_module.schema_version(upgraded.db) == len(newer)
        kept = await upgraded.game(row.id)
        assert kept is not None
        assert (kept.state, kept.version, kept.seed) == ('{"s": 2}', 2, 42)
        assert [m.text for m in await upgraded.moves(row.id)] == ["place b1"]
        notes = await upgraded.db.execute_fetchall("SELECT note FROM games")
        assert [n[0] for n in notes] == ["kept"]
        # The trigger still logs moves after the upgrade.
        assert await upgraded.commit_move(row.id, 2, 0, "place a1", '{"s": 3}')
        assert [m.text for m in await upgraded.moves(row.id)] == ["place b1", "place a1"]
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
