"""The one loop over due jobs (``bot.discord.loop.Scheduler.tick``) and the registry of
handlers by kind (``bot.service.jobs``), on a fake clock: each due job goes to its kind's
handler, a failed one is postponed, a kind without a handler waits a day, and a new kind
is one handler and its rows."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import pytest

from bot.discord.desk import Desk
from bot.discord.loop import RETRY, Scheduler
from bot.records import Job, PlayerRow, WaitRow
from bot.scheduler import (
    BANK_START,
    DAY,
    HOUR,
    TableClock,
    allowance,
    check_away,
    check_quiet,
    due_now,
    may_mention,
    reminded,
    settled,
    spent,
)
from bot.service import TableService
from bot.service.jobs import UNKNOWN_RETRY
from bot.service.replies import Tended
from bot.store import Store
from tests.conftest import NEW_YEAR, Clock


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


# --------------------------------------------------------------------------- the rules of time


def test_a_tables_clock_is_settled_from_plain_data() -> None:
    per_turn = TableClock(turn_time=4 * HOUR)
    bank = settled(per_turn, turn_time=None, keep_time=True, reminders=None, kind="bank",
                   bank=None, add=None)
    assert bank == TableClock(4 * HOUR, 12 * HOUR, 4 * HOUR, True)  # three turns, one back
    assert settled(TableClock(), turn_time=None, keep_time=True, reminders=False,
                   kind="bank", bank=None, add=0.0) == TableClock(None, BANK_START, 0.0, False)
    assert settled(bank, turn_time=None, keep_time=False, reminders=None, kind="per-turn",
                   bank=None, add=None) == TableClock(None, None, 0.0, True)
    with pytest.raises(ValueError, match="for clock:bank"):
        settled(bank, turn_time=None, keep_time=True, reminders=None, kind="per-turn",
                bank=DAY, add=None)
    # A seat's bank: full until used, never above the start, and back after a turn.
    assert allowance(bank, None) == 12 * HOUR and allowance(bank, 20 * HOUR) == 12 * HOUR
    assert allowance(per_turn, 3.0) == 4 * HOUR
    assert spent(bank, None, 5 * HOUR, moved=True) == 11 * HOUR
    assert spent(bank, None, 5 * HOUR, moved=False) == 7 * HOUR


def test_what_is_due_for_a_wait_at_a_moment() -> None:
    wait, player = WaitRow(1, 0, NEW_YEAR), PlayerRow(5)
    assert due_now(wait, 2 * HOUR, True, player, NEW_YEAR + HOUR - 1) is None
    assert due_now(wait, 2 * HOUR, True, player, NEW_YEAR + HOUR) == "reminder"  # half
    assert due_now(wait, 2 * HOUR, False, player, NEW_YEAR + HOUR) is None
    assert due_now(wait, 2 * HOUR, True, player, NEW_YEAR + 2 * HOUR) == "stand-in"
    assert reminded(wait, 2 * HOUR, replace(player, digest_hour=8)).reminded == 2  # 80% next


def test_quiet_hours_time_away_and_mentions_have_their_limits() -> None:
    assert check_quiet(22, 7) == 9
    with pytest.raises(ValueError, match="at most 12 a day; 20:00 to 9:00 is 13"):
        check_quiet(20, 9)
    player = PlayerRow(5, absences=((NEW_YEAR - 10 * DAY, NEW_YEAR - 3 * DAY),))
    assert check_away(player, NEW_YEAR, 14) == 14
    with pytest.raises(ValueError, match="you have 14 left"):
        check_away(player, NEW_YEAR, 15)
    assert may_mention(player, NEW_YEAR)
    assert not may_mention(replace(player, mentioned=NEW_YEAR - HOUR), NEW_YEAR)
