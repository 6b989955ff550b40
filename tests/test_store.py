"""Storage: round trips, the one-table-per-channel rule, the append-only log, migrations."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

import rules
from bot import store as store_module
from bot.service import SET_ASIDE, TableError, TableService
from bot.store import ChannelBusy, DamagedDatabase, SeatTaken, Store, StoreError, StoreUnavailable


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


# -- A damaged or full database (issue 17, items 5-7)


async def test_an_empty_file_is_refused_never_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    with pytest.raises(DamagedDatabase, match="empty") as info:
        await Store.open(str(path))
    assert str(path) in str(info.value) and "backup" in str(info.value)
    assert path.stat().st_size == 0  # nothing was written over it


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
        with pytest.raises(DamagedDatabase, match="truncated") as info:
            await Store.open(str(path))
        assert str(path) in str(info.value)
    path.write_bytes(whole)  # the whole file opens again
    again = await Store.open(str(path))
    assert len(await again.games()) == 200
    await again.close()


def test_python_m_bot_says_the_database_is_damaged_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "BOARDROOM_DB": str(path)}
    done = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 1
    assert f"The database file {path} is empty" in done.stderr
    assert "Traceback" not in done.stderr


async def a_move(service: TableService, channel: int) -> None:
    user = (await service.waiting(channel))[0][0]
    await service.play(channel, user, (await service.legal_moves(channel, user))[0])


async def damaged_tables(tmp_path: Path) -> tuple[str, list[int]]:
    """A file with three running tables (channels 1-3), a move each; then table 2's state
    is not JSON and table 3's game is unknown."""
    path = str(tmp_path / "d.db")
    opened = await Store.open(path)
    service = TableService(opened, images=False)
    ids = []
    for channel in (1, 2, 3):
        await service.open(channel, None, 10, "Ann", "cube-conquest")
        await service.join(channel, 11, "Bob")
        reply = await service.start(channel, 10, seed=channel)
        await a_move(service, channel)
        ids.append(reply.game)
    await opened.db.execute("UPDATE games SET state = ? WHERE id = ?", ('{"cut', ids[1]))
    await opened.db.execute("UPDATE games SET game = 'gone-game' WHERE id = ?", (ids[2],))
    await opened.close()
    return path, ids


async def test_an_unreadable_table_is_set_aside_and_the_others_go_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path, ids = await damaged_tables(tmp_path)
    opened = await Store.open(path)
    try:
        service = TableService(opened, images=False)
        with caplog.at_level("ERROR", logger="boardroom.service"):
            replies = await service.undelivered()
        told = [(channel, r.public) for channel, r in replies if r.public == SET_ASIDE]
        assert sorted(told) == [(2, SET_ASIDE), (3, SET_ASIDE)]
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
                assert str(info.value) == SET_ASIDE
            await service.open(channel, None, 10, "Ann", "cube-conquest")
        stored = await opened.game(ids[1])
        assert stored is not None and stored.status == "ended" and stored.damaged
        assert len(await opened.moves(ids[1])) == 1  # its rows stay in the file
    finally:
        await opened.close()


async def test_a_row_whose_options_are_not_json_does_not_stop_the_others(
        tmp_path: Path) -> None:
    opened = await Store.open(str(tmp_path / "o.db"))
    try:
        first = await opened.create_game(1, None, "cube-conquest", {}, 5, "Ann")
        second = await opened.create_game(2, None, "cube-conquest", {}, 5, "Ann")
        await opened.db.execute("UPDATE games SET options = 'nope' WHERE id = ?", (first.id,))
        rows = await opened.games()
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
    pages = (await store.db.execute_fetchall("PRAGMA page_count"))[0][0]  # type: ignore[index]
    await store.db.execute_fetchall(f"PRAGMA max_page_count = {pages}")
    return service


async def test_a_full_database_says_so_and_changes_nothing(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
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
            assert await store.active_game(channel) is None  # nothing half-made
        # Moves fail the same way and leave the table where it was, in memory and stored.
        stuck = None
        for _ in range(400):
            user = (await service.waiting(1))[0][0]
            move = (await service.legal_moves(1, user))[0]
            version = (await store.game(1)).version  # type: ignore[union-attr]
            try:
                await service.play(1, user, move)
            except StoreUnavailable:
                stuck = (user, move, version)
                break
        assert stuck is not None, "no move was refused"
        user, move, version = stuck
        row = await store.game(1)
        assert row is not None and row.version == version
        assert len(await store.moves(1)) == version - 1
    logged = [r for r in caplog.records if "refused a write" in r.getMessage()]
    assert len(logged) == 1  # once, not once per refusal
    # Space comes back: the same move plays, and the other table too.
    await store.db.execute_fetchall("PRAGMA max_page_count = 1073741823")
    await service.play(1, user, move)
    assert (await store.game(1)).version == version + 1  # type: ignore[union-attr]
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
            assert [s.name for s in await opened.seats(1)] == ["Ann"]  # reads still work
        finally:
            other.execute("ROLLBACK")
            other.close()
        await service.join(1, 11, "Bob")
    finally:
        await opened.close()


FILL = """
import asyncio, resource, sys
from bot.store import Store, StoreUnavailable

async def main(path):
    store = await Store.open(path)
    row = await store.create_game(1, None, "cube-conquest", {}, 5, "Ann")
    await store.start_game(row.id, 1, "{}")
    resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
    try:
        for version in range(1, 100_000):
            await store.commit_move(row.id, version, 0, "x" * 500, "{}")
    except StoreUnavailable as error:
        print("refused:", error.kind, "|", error)
        print("version:", (await store.game(row.id)).version, len(await store.moves(row.id)))
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


async def test_a_cancelled_caller_never_leaves_a_transaction_open(store: Store) -> None:
    """A caller cancelled while its multi-statement write waits on the database: the
    write happens whole or not at all, and the next caller's statements are not caught
    inside an open transaction (they commit, and survive a reopen)."""
    for attempt in range(6):
        task = asyncio.ensure_future(
            store.create_game(100 + attempt, None, "cube-conquest", {}, 5, "Ann"))
        for _ in range(attempt):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        row = await store.create_game(200 + attempt, None, "cube-conquest", {}, 6, "Bob")
        assert [s.name for s in await store.seats(row.id)] == ["Bob"]
        made = await store.active_game(100 + attempt)
        if made is not None:  # written whole: the game and its seat
            assert [s.name for s in await store.seats(made.id)] == ["Ann"]
    assert not store.db.in_transaction
    path = store.path
    await store.close()
    again = await Store.open(path)
    assert {200 + a for a in range(6)} <= {g.channel_id for g in await again.games()}
    await again.close()
    store.db = again.db  # the fixture closes it again: harmless


async def test_a_new_game_opens_at_once_where_an_unread_damaged_table_sat(
        tmp_path: Path) -> None:
    """/game new in a channel whose damaged table nobody has looked at yet: the table is
    set aside on the spot and the new one opens, on the first try."""
    path, _ids = await damaged_tables(tmp_path)
    opened = await Store.open(path)
    try:
        service = TableService(opened, images=False)
        reply = await service.open(2, None, 10, "Ann", "cube-conquest")
        assert "opened a table for Cube Conquest" in reply.public
    finally:
        await opened.close()
