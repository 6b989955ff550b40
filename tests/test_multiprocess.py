"""Two bot processes on one PostgreSQL database (issue 23): they play the same tables at
once, racing for every move (tests/play_process.py), and one of them may be killed with
SIGKILL mid-play. Each table's log must hold every move once and replay to the stored state,
and every committed move is posted: exactly once without a kill; with one, at least once (a
reply the killed process posted but had not marked yet is posted again)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import rules
from bot.service import TableService
from bot.service.table import decode, encode
from bot.timeline import Timeline
from tests import pg

ANN, BOB = 101, 102
GAME = "battle-tiles"
TABLES = 12
ROOT = Path(__file__).resolve().parents[1]


async def _tables(database: pg.Database) -> list[int]:
    store = await database.open()
    service = TableService(store, images=False)
    channels = [5000 + n for n in range(TABLES)]
    try:
        for channel in channels:
            await service.open(channel, 1, ANN, "Ann", GAME)
            await service.join(channel, BOB, "Bob")
            reply = await service.start(channel, ANN, seed=channel)
            await service.delivered(reply)
        await store.flush()
    finally:
        service.close()
        await store.close()
    return channels


def _start(database: pg.Database, out: Path, channels: list[int], *, sweep: bool = False
           ) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.play_process", database.url, str(out), "7",
         "1" if sweep else "0", *map(str, channels)],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def _posted(out: Path) -> list[tuple[int, int]]:
    if not out.exists():
        return []
    return [(int(line.split()[0]), int(line.split()[1]))
            for line in out.read_text().splitlines() if line.strip()]


async def _check_logs(database: pg.Database, channels: list[int]) -> dict[int, int]:
    """Every table's log replays to its stored state; the versions each table reached."""
    store = await database.open()
    game = rules.GAMES[GAME]
    reached = {}
    try:
        for channel in channels:
            row = await store.tables.latest_game(channel)
            assert row is not None and row.seed is not None and row.state is not None
            moves = await store.tables.moves(row.id)
            versions = [m.version for m in moves]
            assert versions == list(range(2, row.version + 1))  # each version once, none lost
            state = Timeline(game, 2, row.seed, None, moves).whole().final
            assert encode(game, state) == row.state
            assert row.announced == row.version  # everything committed was posted
            reached[channel] = row.version
    finally:
        await store.close()
    return reached


async def test_two_processes_race_on_every_table(pg_database: pg.Database,
                                                 tmp_path: Path) -> None:
    channels = await _tables(pg_database)
    outs = [tmp_path / "a.txt", tmp_path / "b.txt"]
    processes = [_start(pg_database, out, channels) for out in outs]
    for process in processes:
        assert await asyncio.to_thread(process.wait, 300) == 0
    reached = await _check_logs(pg_database, channels)
    posted = [p for out in outs for p in _posted(out)]
    counts = Counter(posted)
    assert all(n == 1 for n in counts.values())  # every reply posted once
    assert set(counts) == {(c, v) for c, top in reached.items() for v in range(2, top + 1)}
    assert all(_posted(out) for out in outs)  # both processes won some races
    for out in outs:  # each process posts a channel's replies in move order
        mine = _posted(out)
        for channel in channels:
            versions = [v for c, v in mine if c == channel]
            assert versions == sorted(versions)


async def test_a_killed_process_loses_no_move_and_the_other_finishes_every_game(
        pg_database: pg.Database, tmp_path: Path) -> None:
    channels = await _tables(pg_database)
    outs = [tmp_path / "a.txt", tmp_path / "b.txt"]
    first = _start(pg_database, outs[0], channels)
    for _ in range(600):  # until the first process has played a few moves
        if len(_posted(outs[0])) >= 10 or first.poll() is not None:
            break
        await asyncio.sleep(0.05)
    second = _start(pg_database, outs[1], channels, sweep=True)
    await asyncio.sleep(0.3)
    first.send_signal(signal.SIGKILL)
    assert await asyncio.to_thread(first.wait, 60) == -signal.SIGKILL
    assert await asyncio.to_thread(second.wait, 300) == 0
    reached = await _check_logs(pg_database, channels)
    # Every move either process committed was posted, the killed process's last ones by
    # the other's sweep, even where the other posted a later move of that table first.
    posted = {p for out in outs for p in _posted(out)}
    assert posted == {(c, v) for c, top in reached.items() for v in range(2, top + 1)}
    game = rules.GAMES[GAME]
    store = await pg_database.open()
    try:
        for channel in channels:  # the second process played every game to its end
            row = await store.tables.latest_game(channel)
            assert row is not None and row.status == "over"
            assert game.outcome(decode(game, row.state or "")) is not None
    finally:
        await store.close()
