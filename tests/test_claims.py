"""Due jobs (reminders, turns that run out, digests, retries) are claimed by one process: two
stores on one database (two bot processes) asking at once for what is due get disjoint
sets, on either engine."""

from __future__ import annotations

import asyncio

from bot.records import Job, WaitRow
from bot.store.engine import CLAIM
from tests import pg

TABLES = 60
NOW = 10_000.0


async def test_two_processes_asking_at_once_never_get_the_same_due_job(
        database: pg.Database) -> None:
    first, second = await database.open(), await database.open()
    try:
        expected = set()
        for n in range(TABLES):
            row = await first.tables.create_game(100 + n, 1, "cube-conquest", {}, 1000 + n, "Ann")
            waits = [WaitRow(row.id, seat, 0.0, 0, NOW - n - seat) for seat in (0, 1)]
            await first.jobs.set_waits(row.id, waits)
            expected |= {("wait", row.id, seat) for seat in (0, 1)}
            await first.members.set_digest(5000 + n, 8, None)  # a digest of another kind
            await first.jobs.set_digest_due(5000 + n, NOW - n)
            expected.add(("digest", 5000 + n, 0))
        taken: list[list[tuple[str, int, int]]] = [[], []]

        async def tick(store: pg.AnyStore, mine: list[tuple[str, int, int]]) -> None:
            while True:  # as the scheduler does: a small batch at a time, until none
                due = await store.jobs.claim(NOW, 7)
                assert all(j.due is not None and j.due <= NOW for j in due)
                mine += [(j.kind, j.owner_id, j.part) for j in due]
                if not due:
                    return

        await asyncio.gather(tick(first, taken[0]), tick(second, taken[1]),
                             tick(first, taken[0]), tick(second, taken[1]))
        assert not set(taken[0]) & set(taken[1])
        assert len(taken[0]) + len(taken[1]) == len(expected)
        assert set(taken[0]) | set(taken[1]) == expected
        # Claimed, not dropped: a process that dies holding them leaves them due again.
        assert await second.jobs.next_due() == NOW + CLAIM
        assert await second.jobs.claim(NOW + CLAIM - 1) == []
        again = await second.jobs.claim(NOW + CLAIM, 1000)
        assert {(j.kind, j.owner_id, j.part) for j in again} == expected
    finally:
        await first.close()
        await second.close()


async def test_a_claimed_job_comes_back_with_the_moment_it_was_due(
        database: pg.Database) -> None:
    store = await database.open()
    try:
        row = await store.tables.create_game(1, 1, "cube-conquest", {}, 10, "Ann")
        await store.jobs.set_waits(row.id, [WaitRow(row.id, 0, 5.0, 2, 50.0),
                                       WaitRow(row.id, 1, 6.0, 0, 40.0)])
        assert await store.jobs.claim(45.0) == [Job("wait", row.id, 1, 40.0)]
        assert await store.jobs.waits(row.id) == [WaitRow(row.id, 0, 5.0, 2, 50.0),
                                                  WaitRow(row.id, 1, 6.0, 0, 45.0 + CLAIM)]
        # Tending it sets its next moment, as before.
        await store.jobs.set_due(Job("wait", row.id, 1), 400.0)
        assert await store.jobs.next_due() == 50.0
        # A job of a kind that needs only its key and moment (a later timer).
        await store.jobs.put(Job("round", 7, 2, 30.0))
        assert await store.jobs.claim(45.0) == [Job("round", 7, 2, 30.0)]
        await store.jobs.drop(Job("round", 7, 2))
        assert await store.jobs.next_due() == 50.0
    finally:
        await store.close()
