"""Backups a server owner can make: ``Store.backup`` and ``boardroom backup FILE`` copy a
running SQLite database while moves are being written, as one consistent moment with every
move committed before it began; on PostgreSQL they say to use pg_dump instead."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

import rules
from bot.service import TableService
from bot.store import Store
from bot.store.errors import StoreError
from bot.timeline import Timeline
from tests import pg

TABLES = 6
FILLER = 16 * 2**20  # bytes of an old table's state: a copy that takes a while


async def while_playing(path: str, copy: Callable[[], Awaitable[None]]
                        ) -> tuple[dict[int, int], dict[int, int]]:
    """``copy()`` while every table of a new file plays as fast as it can (again, should
    no move land during it): the highest version of each game committed, and delivered
    (its mark written), before the copy began."""
    store = await Store.open(path)
    old = await store.tables.create_game(999, None, "cube-conquest", {}, 5, "Ann")
    await store.tables.end_game(old.id)
    await pg.sql(store, "UPDATE games SET state = ? WHERE id = ?", os.urandom(FILLER).hex(),
                 old.id)
    service = TableService(store, images=False)
    for channel in range(1, TABLES + 1):
        await service.open(channel, None, 10 * channel, "Ann", "cube-conquest")
        await service.join(channel, 10 * channel + 1, "Bob")
        await service.delivered(await service.start(channel, 10 * channel, seed=channel))
    committed: dict[int, int] = {}
    delivered: dict[int, int] = {}
    done = asyncio.Event()

    async def play(channel: int) -> None:
        rng = random.Random(channel)
        while not done.is_set():
            waiting = await service.waiting(channel)
            if not waiting:
                return
            user = waiting[0][0]
            reply = await service.play(channel, user,
                                       rng.choice(await service.legal_moves(channel, user)))
            committed[reply.game] = max(committed.get(reply.game, 0), reply.version)
            await service.delivered(reply)
            await store.flush()  # a delivered mark is written at most FLUSH_DELAY later
            delivered[reply.game] = max(delivered.get(reply.game, 0), reply.version)

    players = [asyncio.ensure_future(play(channel)) for channel in range(1, TABLES + 1)]
    try:
        while sum(committed.values()) < 20 * TABLES:  # a few moves each first
            await asyncio.sleep(0.01)
        for _attempt in range(5):
            before = dict(committed), dict(delivered)
            await copy()  # the tables go on playing meanwhile
            if sum(committed.values()) > sum(before[0].values()):
                break
        else:
            raise AssertionError("no move was written during a copy")
    finally:
        done.set()
        await asyncio.gather(*players)
        await store.close()
    return before


async def check_copy(target: str, committed: dict[int, int], delivered: dict[int, int]
                     ) -> None:
    """The copy opens as a whole database (``Store.open`` runs SQLite's page check), each
    game's state is what its own move log replays to, and every move committed (and every
    reply delivered) before the copy began is in it."""
    copied = await Store.open(target)
    try:
        rows = await copied.tables.games(statuses=("playing", "over"))
        assert {row.id for row in rows} == set(committed)
        for row in rows:
            assert row.version >= committed[row.id]
            assert row.announced >= delivered.get(row.id, 0)
            log = await copied.tables.moves(row.id)
            assert [m.version for m in log] == list(range(2, row.version + 1))
            game = rules.GAMES[row.game]
            state = Timeline(game, len(await copied.seats.of(row.id)), row.seed or 0,
                             row.options or None, log).whole().final
            assert row.state is not None and game.dump(state) == json.loads(row.state)
    finally:
        await copied.close()


async def test_a_backup_taken_while_moves_are_written_holds_every_committed_move(
        tmp_path: Path) -> None:
    path, target = str(tmp_path / "boardroom.db"), str(tmp_path / "backup.db")

    async def copy() -> None:
        store = await Store.open(path)  # another connection, as the command opens
        await store.backup(target)
        await store.close()

    committed, delivered = await while_playing(path, copy)
    await check_copy(target, committed, delivered)
    with sqlite3.connect(target) as raw:  # a whole file, nothing left in a journal
        assert raw.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".boardroom-backup-")]


async def test_the_store_itself_backs_up_with_its_marks(tmp_path: Path) -> None:
    path, target = str(tmp_path / "boardroom.db"), str(tmp_path / "backup.db")
    store = await Store.open(path)
    try:
        row = await store.tables.create_game(1, None, "cube-conquest", {}, 5, "Ann")
        await store.tables.start_game(row.id, 1, "{}")
        await store.tables.commit_move(row.id, 1, 0, "place b1", "{}")
        store.deliveries.mark_delivered(row.id, 1)
        store.deliveries.mark_delivered(row.id, 2)  # still in memory: the copy holds it too
        await store.backup(target)
        await store.backup(target)  # again: the file is replaced whole
        with pytest.raises(StoreError, match="is the database itself"):
            await store.backup(path)
    finally:
        await store.close()
    copied = await Store.open(target)
    try:
        again = await copied.tables.game(row.id)
        assert again is not None and (again.version, again.announced) == (2, 2)
    finally:
        await copied.close()


def backup_command(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot backup ...`` with no program on its PATH (the Docker image has no
    ``sqlite3``): Python alone makes the copy."""
    env = {**os.environ, "PATH": ""}
    env.pop("BOARDROOM_DB", None)
    return subprocess.run([sys.executable, "-m", "bot", "backup", *args], env=env,
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).parent.parent)


async def test_boardroom_backup_copies_a_running_bots_database(tmp_path: Path) -> None:
    path, target = str(tmp_path / "boardroom.db"), str(tmp_path / "copies" / "b.db")
    os.mkdir(tmp_path / "copies")
    done: list[subprocess.CompletedProcess[str]] = []

    async def copy() -> None:  # another process, while this one writes moves
        done.append(await asyncio.to_thread(backup_command, target, "--db", path))

    committed, delivered = await while_playing(path, copy)
    assert done[0].returncode == 0, done[0].stderr
    assert done[0].stdout.startswith(f"Backed up {path} to {target} (")
    await check_copy(target, committed, delivered)


def test_boardroom_backup_refuses_a_missing_file_and_creates_nothing(tmp_path: Path) -> None:
    missing, target = tmp_path / "nothing.db", tmp_path / "b.db"
    done = backup_command(str(target), "--db", str(missing))
    assert done.returncode == 1
    assert done.stderr == f"boardroom backup: There is no database file {missing}, so " \
                          "nothing was backed up.\n"
    assert not missing.exists() and not target.exists()


async def test_postgresql_says_to_use_pg_dump(pg_database: pg.Database, tmp_path: Path
                                              ) -> None:
    store = await pg_database.open()
    try:
        with pytest.raises(StoreError, match="pg_dump"):
            await store.backup(str(tmp_path / "b.db"))
    finally:
        await store.close()
    url = pg_database.url.replace("postgresql://postgres@", "postgresql://postgres:s3cret@")
    done = await asyncio.to_thread(backup_command, str(tmp_path / "b.db"), "--db", url)
    assert done.returncode == 1 and "pg_dump" in done.stderr and "pg_restore" in done.stderr
    assert "s3cret" not in done.stderr and not (tmp_path / "b.db").exists()
