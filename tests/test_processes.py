"""Two bot processes on one database: each holds its own tables in memory, and neither
trusts what it holds once the other has written (issue 23). Two ``TableService``s, each
with its own ``Store`` on one SQLite file, stand for the two processes."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import rules
from bot.discord.loop import SWEEP_GRACE
from bot.service import TableService
from bot.service.replies import Reply
from bot.service.table import TableError, encode
from bot.store import Store
from bot.timeline import Timeline
from tests.conftest import Clock

GAME = "cube-conquest"
CH = 700
ANN, BOB, CY = 201, 202, 203


@pytest.fixture
async def pair(tmp_path: Path) -> AsyncIterator[tuple[TableService, TableService, Store]]:
    """Two services, each on its own connection to one file (as two processes would be)."""
    path = str(tmp_path / "tables.db")
    one, two = await Store.open(path), await Store.open(path)
    try:
        yield TableService(one, images=False), TableService(two, images=False), one
    finally:
        await one.close()
        await two.close()


async def test_a_join_in_one_process_is_seen_by_a_start_in_the_other(
        pair: tuple[TableService, TableService, Store]) -> None:
    first, second, _ = pair
    await first.open(CH, 1, ANN, "Ann", GAME)
    lobby = await second.board(CH)  # the second process now holds the table, Ann alone
    assert "1 of" in (lobby.public or "")
    await first.join(CH, BOB, "Bob")
    await first.join(CH, CY, "Cy")
    board = await second.board(CH)
    assert "3 of" in (board.public or "") and "Cy" in (board.public or "")
    started = await second.start(CH, ANN, seed=3)
    assert started.version == 1
    # And the first process, which held the table open, sees it started.
    assert (await first.board(CH)).version == 1
    assert await first.waiting(CH)


async def test_moves_through_either_process_apply_once_and_either_shows_the_latest(
        pair: tuple[TableService, TableService, Store]) -> None:
    first, second, store = pair
    await first.open(CH, 1, ANN, "Ann", GAME)
    await second.join(CH, BOB, "Bob")
    await first.start(CH, ANN, seed=5)
    rng = random.Random(5)
    services = (first, second)
    for turn in range(30):
        mover = services[turn % 2]  # each move through the other process
        waiting = await mover.waiting(CH)
        if not waiting:
            break  # the game is over
        user = waiting[0][0]
        version = (await mover.board(CH)).version
        move = rng.choice(await mover.legal_moves(CH, user))
        reply = await mover.play(CH, user, move, version=version)
        assert reply.version == version + 1
        for looker in services:  # /board in either process shows the move just made
            assert (await looker.board(CH)).version == version + 1
    row = await store.tables.latest_game(CH)
    assert row is not None and row.state is not None and row.seed is not None
    moves = await store.tables.moves(row.id)
    assert [m.version for m in moves] == list(range(2, row.version + 1))  # each once
    assert row.version > 10
    game = rules.GAMES[GAME]
    state = Timeline(game, 2, row.seed, row.options, moves).whole().final
    assert encode(game, state) == row.state


async def test_one_move_sent_through_both_processes_at_once_applies_once(
        pair: tuple[TableService, TableService, Store]) -> None:
    first, second, store = pair
    await first.open(CH, 1, ANN, "Ann", GAME)
    await first.join(CH, BOB, "Bob")
    await first.start(CH, ANN, seed=7)
    for _ in range(5):
        user = (await first.waiting(CH))[0][0]
        version = (await second.board(CH)).version  # both hold this version now
        move = (await first.legal_moves(CH, user))[0]
        results = await asyncio.gather(first.play(CH, user, move, version=version),
                                       second.play(CH, user, move, version=version),
                                       return_exceptions=True)
        applied = [r for r in results if isinstance(r, Reply)]
        assert len(applied) == 1 and applied[0].version == version + 1
        assert all(isinstance(r, TableError) for r in results if not isinstance(r, Reply))
        row = await store.tables.latest_game(CH)
        assert row is not None and row.version == version + 1
        assert [m.version for m in await store.tables.moves(row.id)] == list(range(2, version + 2))


async def test_an_ended_table_is_not_held_on_to(
        pair: tuple[TableService, TableService, Store]) -> None:
    first, second, _ = pair
    await first.open(CH, 1, ANN, "Ann", GAME)
    await first.join(CH, BOB, "Bob")
    await first.start(CH, ANN, seed=9)
    assert await second.waiting(CH)
    await first.end(CH, ANN)
    with pytest.raises(TableError):
        await second.play(CH, ANN, "a1")
    await second.open(CH, 1, BOB, "Bob", GAME)  # the channel is free in the other process
    assert "Bob" in ((await first.board(CH)).public or "")


async def test_a_seat_handed_on_in_one_process_is_seen_by_the_other(
        pair: tuple[TableService, TableService, Store]) -> None:
    """A resignation does not change the version; the other process still sees it."""
    first, second, _ = pair
    await first.open(CH, 1, ANN, "Ann", GAME)
    await first.join(CH, BOB, "Bob")
    await first.start(CH, ANN, seed=9)
    awaited = {user for user, _ in await first.waiting(CH)}
    assert len(awaited) == 1  # the other resigns, so no computer moves (same version)
    (idle,) = {ANN, BOB} - awaited
    held = await second.status(CH)
    assert "(hard)" not in (held.public or "")
    await first.resign(CH, idle)
    now = await second.status(CH)
    assert now.version == held.version and "(hard)" in (now.public or "")
    with pytest.raises(TableError, match="no seat"):
        await second.resign(CH, idle)


async def test_a_reply_lost_with_its_process_is_swept_alone_after_the_grace(
        tmp_path: Path, clock: Clock) -> None:
    """The first process wrote Ann's move and stopped before posting it; the second then
    wrote and posted Bob's. Ann's move stays in the outbox (Bob's post does not cover it),
    and the second process's sweep posts it, and only it, once ``SWEEP_GRACE`` has passed.
    A reply the sweeping process is still posting itself is never swept."""
    path = str(tmp_path / "tables.db")
    one, two = await Store.open(path), await Store.open(path)
    try:
        first = TableService(one, images=False, now=clock)
        second = TableService(two, images=False, now=clock)
        await first.open(CH, 1, ANN, "Ann", GAME)
        await first.join(CH, BOB, "Bob")
        await first.delivered(await first.start(CH, ANN, seed=5))
        moved = []
        for service in (first, second):  # a move through the first, the next the second
            user = (await service.waiting(CH))[0][0]
            moved.append((await service.legal_moves(CH, user))[0])
            reply = await service.play(CH, user, moved[-1])
        await second.delivered(reply)  # the first process is gone: its reply never posts
        assert await second.sweep(SWEEP_GRACE) == []  # it may still be on its way
        clock.t += SWEEP_GRACE + 1
        swept = await second.sweep(SWEEP_GRACE)
        assert [(channel, r.covers) for channel, r in swept] == [(CH, (2,))]
        late = swept[0][1].public
        assert late.startswith("(Posted late") and f"cube on {moved[0].split()[-1]}" in late
        assert f"cube on {moved[1].split()[-1]}" not in late  # posted by its own process
        await second.delivered(swept[0][1])
        assert await two.deliveries.unannounced() == []
        # The second process's own reply, still being posted, is not the sweep's to post.
        user = (await second.waiting(CH))[0][0]
        await second.play(CH, user, (await second.legal_moves(CH, user))[0])
        clock.t += SWEEP_GRACE + 1
        assert await second.sweep(SWEEP_GRACE) == []
        assert [g.version for g in await two.deliveries.unannounced()] == [4]
    finally:
        await one.close()
        await two.close()


async def test_two_secret_picks_sent_to_two_processes_at_once_both_go_in(
        pair: tuple[TableService, TableService, Store],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An attack's secret picks, Ann's to one process and Bob's to the other at the same
    instant: the pick that loses the race to the database is played again on the table as
    it now stands (both picks are legal together), not refused."""
    first, second, store = pair
    await first.open(CH, 1, ANN, "Ann", GAME)
    await first.join(CH, BOB, "Bob")
    await first.start(CH, ANN, seed=11)
    rng = random.Random(11)
    for _ in range(400):  # play on until both seats are asked at once: a secret pick
        waiting = await first.waiting(CH)
        if len(waiting) == 2:
            break
        user = waiting[0][0]
        moves = await first.legal_moves(CH, user)
        await first.play(CH, user, next((m for m in moves if m.startswith("attack")),
                                        rng.choice(moves)))
    assert len(await first.waiting(CH)) == 2
    version = (await second.board(CH)).version  # both processes hold this version
    picks = {ANN: (await first.legal_moves(CH, ANN))[0],
             BOB: (await second.legal_moves(CH, BOB))[0]}
    # The race, made certain: Bob's process has read the table and waits to write until
    # Ann's process has written.
    ready, written = asyncio.Event(), asyncio.Event()
    real_first, real_second = first.store.tables.commit_move, second.store.tables.commit_move

    async def first_commit(*args: object, **kw: object) -> bool:
        await ready.wait()
        done = await real_first(*args, **kw)  # type: ignore[arg-type]
        written.set()
        return done

    async def second_commit(*args: object, **kw: object) -> bool:
        ready.set()
        await written.wait()
        return await real_second(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(first.store.tables, "commit_move", first_commit)
    monkeypatch.setattr(second.store.tables, "commit_move", second_commit)
    results = await asyncio.gather(first.play(CH, ANN, picks[ANN]),
                                   second.play(CH, BOB, picks[BOB]), return_exceptions=True)
    assert all(isinstance(r, Reply) for r in results), results
    row = await store.tables.latest_game(CH)
    assert row is not None and row.version >= version + 2
    logged = [(m.seat, m.text) for m in await store.tables.moves(row.id) if m.version > version]
    assert logged[:2] == [(0, picks[ANN]), (1, picks[BOB])]
