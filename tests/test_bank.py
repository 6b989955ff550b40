"""A time bank per player (``/game settings clock:bank``) on a fake clock: the clock time
each wait uses comes off the seat's bank, each turn puts the per-turn amount back (never
above the start), quiet hours stop it, and a bank that runs out brings the stand-in, after
which the bank holds the per-turn amount again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import scheduler
from bot.records import Job, PlayerRow, WaitRow
from bot.scheduler import DAY, HOUR, MINUTE, banked, clock_after, clock_ran
from bot.service import TableService
from bot.service.table import TableError
from bot.store import Store
from tests.conftest import NEW_YEAR, Clock
from tests.pg import Database

pytestmark = pytest.mark.engines  # its tests of ``store`` run on both engines

CH = 710
ANN, BOB = 301, 302


async def seated(service: TableService, game: str = "cube-conquest", seed: int = 3) -> None:
    await service.open(CH, 1, ANN, "Ann", game)
    await service.join(CH, BOB, "Bob")
    await service.start(CH, ANN, seed=seed)


async def awaited(service: TableService) -> list[int]:
    return [user for user, _ in await service.waiting(CH)]


async def banks(store: Store) -> dict[int, float | None]:
    row = await store.tables.active_game(CH)
    assert row is not None
    return {s.user_id: s.bank for s in await store.seats.of(row.id) if s.user_id is not None}


async def one_turn(service: TableService, clock: Clock, thinking: float) -> int:
    """The first awaited player thinks for ``thinking`` seconds, then plays their first
    legal move, step after step, until they are no longer awaited; who it was."""
    user = (await awaited(service))[0]
    clock.t += thinking
    for _ in range(10):
        await service.play(CH, user, (await service.legal_moves(CH, user))[0])
        if user not in await awaited(service):
            return user
    raise AssertionError("a turn of more than ten steps")


# --------------------------------------------------------------------------- the rules


def test_a_bank_loses_what_a_wait_used_and_gets_the_amount_back_up_to_the_start() -> None:
    assert banked(3 * DAY, DAY, True, 3 * DAY, 12 * HOUR) == 2.5 * DAY
    assert banked(3 * DAY, HOUR, True, 3 * DAY, DAY) == 3 * DAY  # never above the start
    assert banked(3 * DAY, DAY, False, 3 * DAY, DAY) == 2 * DAY  # no turn made: nothing back
    assert banked(HOUR, 2 * HOUR, True, 3 * DAY, 30 * MINUTE) == 30 * MINUTE  # ran out


def test_the_clock_that_ran_is_the_inverse_of_the_clock_after() -> None:
    sleeper = PlayerRow(1, quiet_from=1, quiet_to=9, timezone="UTC")
    away = PlayerRow(1, absences=((NEW_YEAR + DAY, NEW_YEAR + 3 * DAY),))
    for player in (PlayerRow(1), sleeper, away):
        for seconds in (MINUTE, 2 * HOUR, 18 * HOUR, 2.5 * DAY):
            end = clock_after(NEW_YEAR, seconds, player)
            assert clock_ran(NEW_YEAR, end, player) == pytest.approx(seconds)
    # From midnight, twelve hours with quiet hours from 01:00 to 09:00: four ran.
    assert clock_ran(NEW_YEAR, NEW_YEAR + 12 * HOUR, sleeper) == 4 * HOUR


def test_reminders_come_at_the_fractions_of_the_bank() -> None:
    wait = WaitRow(1, 0, NEW_YEAR)
    at = [scheduler.reminder_at(WaitRow(1, 0, NEW_YEAR, n), 2 * HOUR, True, PlayerRow(1))
          for n in range(3)]
    assert at == [NEW_YEAR + HOUR, NEW_YEAR + 1.6 * HOUR, NEW_YEAR + 1.9 * HOUR]
    assert scheduler.deadline(wait, 2 * HOUR, PlayerRow(1)) == NEW_YEAR + 2 * HOUR


# --------------------------------------------------------------------------- at a table


async def test_a_bank_drains_while_its_player_thinks_and_refills_after_the_turn(
        service: TableService, store: Store, clock: Clock) -> None:
    await seated(service)
    said = await service.settings(CH, ANN, clock="bank", bank="3d", add="12h")
    assert "a time bank of 3d per player, 12h back after each turn (up to 3d)" in said.public
    assert await banks(store) == {ANN: None, BOB: None}  # full until first used
    board = (await service.board(CH)).public
    assert "Time banks: " in board and "3d, running" in board
    mover = await one_turn(service, clock, DAY + 2 * HOUR)
    assert (await banks(store))[mover] == 3 * DAY - (DAY + 2 * HOUR) + 12 * HOUR
    assert "2d 10h" in (await service.board(CH)).public
    assert "your time bank: 2d 10h" in await service.games(1, mover)
    # Quick turns (the other player's thinking is not theirs): up to the start, no more.
    for expected in (58 * HOUR - HOUR + 12 * HOUR, 3 * DAY):
        while mover not in await awaited(service):
            await one_turn(service, clock, 5 * HOUR)
        assert await one_turn(service, clock, HOUR) == mover
        assert (await banks(store))[mover] == expected


async def test_quiet_hours_stop_the_bank(service: TableService, store: Store,
                                         clock: Clock) -> None:
    await seated(service, seed=5)
    await service.settings(CH, ANN, clock="bank", bank="2d", add="0")
    first = (await awaited(service))[0]
    await service.quiet(first, 1, 9, "UTC")  # the clock started at midnight UTC
    assert await one_turn(service, clock, 12 * HOUR) == first  # four hours ran
    assert (await banks(store))[first] == 2 * DAY - 4 * HOUR


async def test_a_bank_that_runs_out_brings_the_stand_in_and_then_holds_the_amount(
        service: TableService, store: Store, clock: Clock) -> None:
    await seated(service, seed=4)
    await service.settings(CH, ANN, clock="bank", bank="1h", add="30m", reminders=False)
    late = (await awaited(service))[0]
    row = await store.tables.active_game(CH)
    assert row is not None
    assert await store.jobs.next_due() == clock.t + HOUR
    assert await service.due(clock.t + HOUR - 1) == []
    clock.t += HOUR + 1
    due = [w for w in await service.due(clock.t)]
    assert due
    tended = await service.tend(due[0])
    assert tended is not None and tended.reply is not None
    assert "ran out of time" in tended.reply.public
    assert late not in await awaited(service)  # the stand-in played the whole turn
    assert (await banks(store))[late] == 30 * MINUTE


async def test_a_turn_of_several_steps_is_one_wait_on_the_bank(
        service: TableService, store: Store, clock: Clock) -> None:
    await seated(service, game="bomb-squares", seed=2)
    await service.settings(CH, ANN, clock="bank", bank="1d", add="1h")
    row = await store.tables.active_game(CH)
    assert row is not None
    for _ in range(12):
        (user,) = await awaited(service)
        before = {w.seat: w.since for w in await store.jobs.waits(row.id)}
        clock.t += HOUR
        await service.play(CH, user, (await service.legal_moves(CH, user))[0])
        after = {w.seat: w.since for w in await store.jobs.waits(row.id)}
        if user in await awaited(service):  # a step within the turn: the clock runs on
            assert after == before
            return
    pytest.fail("no turn of several steps in twelve moves")


async def test_the_clock_settings_refuse_what_does_not_fit(service: TableService,
                                                           store: Store) -> None:
    await seated(service)
    with pytest.raises(TableError, match="for clock:bank"):
        await service.settings(CH, ANN, clock="per-turn", bank="3d")
    with pytest.raises(TableError, match="not a turn time"):
        await service.settings(CH, ANN, clock="bank", bank="lots")
    with pytest.raises(TableError, match="needs an amount"):
        await service.settings(CH, ANN, bank="off")
    with pytest.raises(TableError, match="Only"):
        await service.settings(CH, BOB, clock="bank")
    row = await store.tables.active_game(CH)
    assert row is not None and row.bank_start is None  # nothing changed
    said = await service.settings(CH, ANN, clock="bank")  # the defaults: 3d, 1d back
    assert "a time bank of 3d per player, 1d back" in said.public
    await service.settings(CH, ANN, clock="per-turn")
    said = await service.settings(CH, ANN, clock="bank", turn_time="4h")  # three turns deep
    assert "a time bank of 12h per player, 4h back" in said.public
    said = await service.settings(CH, ANN, clock="per-turn", turn_time="12h")
    assert "turn time 12h" in said.public and "bank" not in said.public
    assert "Time banks" not in (await service.board(CH)).public


async def test_the_digest_shows_the_bank_and_its_reader_gets_only_the_warnings(
        service: TableService, store: Store, clock: Clock) -> None:
    await seated(service)
    await service.settings(CH, ANN, clock="bank", bank="2d", add="0")
    late = (await awaited(service))[0]
    await service.digest(late, "8", "UTC")
    clock.t = NEW_YEAR + 8 * HOUR
    tended = await service.tend(Job("digest", late))
    assert tended is not None
    assert "your time bank: 1d 16h" in tended.text and "the turn ends <t:" in tended.text
    # With a digest the reminder at half the bank is left out: the first is at 80%.
    row = await store.tables.active_game(CH)
    assert row is not None
    (wait,) = [w for w in await store.jobs.waits(row.id) if w.seat == [ANN, BOB].index(late)]
    assert wait.due == NEW_YEAR + 0.8 * 2 * DAY


async def test_the_digest_counts_the_bank_in_clock_time_as_the_board_does(
        service: TableService, clock: Clock) -> None:
    """Quiet hours from midnight to six: by eight the bank has run two hours, not eight,
    and the digest says what /board says."""
    await seated(service)
    await service.settings(CH, ANN, clock="bank", bank="2d", add="0")
    late = (await awaited(service))[0]
    await service.quiet(late, 0, 6, "UTC")
    await service.digest(late, "8", "UTC")
    clock.t = NEW_YEAR + 8 * HOUR
    tended = await service.tend(Job("digest", late))
    assert tended is not None and "your time bank: 1d 22h" in tended.text
    assert "1d 22h, running" in (await service.board(CH)).public


async def test_a_wait_is_charged_to_the_bank_once_whoever_reads_the_table_next(
        tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bank and the waits that spent it are written together, at once: a process that
    stops before its batched writes land (none of them landing here) leaves no ended wait
    beside its spent bank, so whoever reads the table next does not charge it again."""
    path = str(tmp_path / "bank.db")
    first, second = await Store.open(path), await Store.open(path)
    try:
        service = TableService(first, images=False, now=clock, level="normal")
        await seated(service)
        await service.settings(CH, ANN, clock="bank", bank="3d", add="12h")
        monkeypatch.setattr(first.jobs, "put_waits", lambda *_: None)  # it stops before they land
        mover = await one_turn(service, clock, 5 * HOUR)
        clock.t += HOUR
        other = TableService(second, images=False, now=clock, level="normal")
        await other.board(CH)  # reads the table and its waits
        assert (await banks(second))[mover] == 3 * DAY  # 5 h used, 12 h back, up to 3 d
    finally:
        await first.close()
        await second.close()


# --------------------------------------------------------------------------- issue 36: the past


async def bank_shown(service: TableService, user: int) -> str:
    """The user's bank as the board shows it: '1d 21h'."""
    board = (await service.board(CH)).public
    name = "Ann" if user == ANN else "Bob"
    found = re.search(rf"Time banks:.*{name} \(\w+\) ([^,;.]+)", board)
    assert found is not None, board
    return found.group(1)


async def test_removing_quiet_hours_does_not_charge_the_quiet_time_that_passed(
        service: TableService, store: Store, clock: Clock, database: Database) -> None:
    """A bank that showed 1d 21h two hours after 8 quiet hours showed 1d 13h after
    '/me quiet from:0 to:0': the 8 hours that were quiet when they passed were charged."""
    await seated(service)
    await service.settings(CH, ANN, clock="bank", bank="2d", add="0", reminders=False)
    first = (await awaited(service))[0]
    await service.quiet(first, 0, 8, "UTC")  # the clock started at midnight UTC
    clock.t += 10 * HOUR
    assert await bank_shown(service, first) == "1d 22h"
    assert await service.quiet(first, 0, 0, "UTC") == "You have no quiet hours now."
    assert await bank_shown(service, first) == "1d 22h"
    clock.t += HOUR
    assert await bank_shown(service, first) == "1d 21h"
    await store.close()  # a restart: the clock's past is in the database
    again = await database.open()
    try:
        service = TableService(again, images=False, now=clock, level="normal")
        assert await bank_shown(service, first) == "1d 21h"
        assert await one_turn(service, clock, HOUR) == first
        assert (await banks(again))[first] == 2 * DAY - 4 * HOUR
    finally:
        await again.close()


async def test_adding_quiet_hours_does_not_refund_the_time_already_thought(
        service: TableService, store: Store, clock: Clock, database: Database) -> None:
    """A player who had thought for 12 hours set quiet hours over them just before moving,
    and got the 12 hours back: any player could do it every turn. (After a restart: the
    change is made where no process holds the table in memory.)"""
    await seated(service)
    await service.settings(CH, ANN, clock="bank", bank="2d", add="0", reminders=False)
    first = (await awaited(service))[0]
    clock.t += 12 * HOUR
    assert await bank_shown(service, first) == "1d 12h"
    await store.close()
    store = await database.open()
    service = TableService(store, images=False, now=clock, level="normal")
    await service.quiet(first, 0, 12, "UTC")
    assert await bank_shown(service, first) == "1d 12h"
    assert await one_turn(service, clock, 0) == first
    assert (await banks(store))[first] == DAY + 12 * HOUR
    # From now on the quiet hours count: the next wait, from noon, runs until midnight
    # and stops for the quiet hours after it.
    while first not in await awaited(service):
        await one_turn(service, clock, 0)
    clock.t = NEW_YEAR + DAY + 11 * HOUR
    assert await bank_shown(service, first) == "1d"
    await store.close()


async def test_the_turn_time_deadline_keeps_the_time_that_passed(
        service: TableService, store: Store, clock: Clock) -> None:
    """A turn time of a day; twelve hours in, quiet hours over those twelve hours do not
    give them back: the turn still ends at midnight (it ended a day later before)."""
    await seated(service)
    await service.settings(CH, ANN, turn_time="1d", reminders=False)
    first = (await awaited(service))[0]
    assert await store.jobs.next_due() == NEW_YEAR + DAY
    clock.t += 12 * HOUR
    await service.quiet(first, 0, 12, "UTC")
    assert await store.jobs.next_due() == NEW_YEAR + DAY
    await service.quiet(first, 0, 0, "UTC")  # and removed again: still midnight
    assert await store.jobs.next_due() == NEW_YEAR + DAY
    # Away from now: the rest of the turn waits for the return (two days later).
    await service.away(first, 2)
    assert await store.jobs.next_due() == NEW_YEAR + 12 * HOUR + 2 * DAY + 12 * HOUR
