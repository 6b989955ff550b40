"""The one loop over due jobs (``bot.discord.loop.Scheduler.tick``) and the registry of
handlers by kind (``bot.service.jobs``), on a fake clock: each due job goes to its kind's
handler, a failed one is postponed, a kind without a handler waits a day, and a new kind
is one handler and its rows."""

from __future__ import annotations

from typing import cast

from bot.discord.desk import Desk
from bot.discord.loop import RETRY, Scheduler
from bot.records import Job
from bot.service import TableService
from bot.service.jobs import UNKNOWN_RETRY
from bot.service.replies import Tended
from bot.store import Store
from tests.conftest import Clock


class FakeDesk:
    """The desk's part of the loop: hands each due job to the service, nothing to post."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def tend(self, job: Job) -> None:
        await self.service.tend(job)


async def test_the_loop_hands_each_job_to_its_kind_and_postpones_a_failure(
        service: TableService, store: Store, clock: Clock) -> None:
    seen: list[Job] = []

    async def round_ends(job: Job) -> Tended | None:  # a later timer: a league round
        seen.append(job)
        if job.owner_id == 2:
            raise RuntimeError("the round's table could not be read")
        await store.jobs.drop(job)
        return None

    service.jobs.handle("round", round_ends)
    for league in (1, 2):
        await store.jobs.put(Job("round", league, 5, clock.t + 10))
    await store.jobs.put(Job("unknown", 9, 0, clock.t + 20))
    loop = Scheduler(service, cast(Desk, FakeDesk(service)), now=clock)
    assert await loop.tick() == 0
    clock.t += 30
    assert await loop.tick() == 3
    assert [(j.owner_id, j.due) for j in seen] == [(1, clock.t - 20), (2, clock.t - 20)]
    # The failed one is due again after RETRY, the unknown kind after a day; the other done.
    assert await service.next_due() == clock.t + RETRY
    clock.t += RETRY
    assert await loop.tick() == 1
    assert [j.owner_id for j in seen] == [1, 2, 2]
    assert await store.jobs.claim(clock.t - RETRY + UNKNOWN_RETRY) == [
        Job("round", 2, 5, clock.t + RETRY), Job("unknown", 9, 0, clock.t - RETRY + UNKNOWN_RETRY)]
