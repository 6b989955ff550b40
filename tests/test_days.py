"""Games over days without Discord: the service and the scheduler's rules of time on a
fake clock (computer levels, waits in the database, turn clocks that stop in quiet hours
and time away, reminders, stand-ins, resigning and replacing, upgrading an old file)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

import rules
from bot import scheduler
from bot.records import PlayerRow, WaitRow
from bot.scheduler import DAY, HOUR, MINUTE, clock_after, next_due, reminder_at
from bot.service import TableService
from bot.service import computers as computers_module
from bot.service.table import TableError
from bot.store import Store
from tests.conftest import NEW_YEAR, Clock

pytestmark = pytest.mark.engines  # its tests of ``store`` run on both engines

GAME = "cube-conquest"
CH = 700
ANN, BOB = 201, 202


async def two(service: TableService, seed: int = 1) -> None:
    await service.open(CH, 1, ANN, "Ann", GAME)
    await service.join(CH, BOB, "Bob")
    await service.start(CH, ANN, seed=seed)


async def awaited(service: TableService) -> list[int]:
    return [user for user, _ in await service.waiting(CH)]


# --------------------------------------------------------------------------- time rules


def test_the_turn_clock_stops_in_quiet_hours_and_away() -> None:
    nobody = PlayerRow(1)
    assert clock_after(NEW_YEAR, 2 * HOUR, nobody) == NEW_YEAR + 2 * HOUR
    # Quiet from 01:00 to 09:00 UTC: a 2-hour clock started at midnight runs 1 h, stops
    # 8 h, runs 1 h more.
    sleeper = PlayerRow(1, quiet_from=1, quiet_to=9, timezone="UTC")
    assert clock_after(NEW_YEAR, 2 * HOUR, sleeper) == NEW_YEAR + 10 * HOUR
    # Over two days the clock stops twice.
    assert clock_after(NEW_YEAR, 18 * HOUR, sleeper) == NEW_YEAR + DAY + 10 * HOUR
    # Away for 3 days from the start: the clock starts when they are back.
    away = PlayerRow(1, absences=((NEW_YEAR, NEW_YEAR + 3 * DAY),))
    assert clock_after(NEW_YEAR, HOUR, away) == NEW_YEAR + 3 * DAY + HOUR
    # Quiet hours in a time zone: 22:00 to 06:00 in Tokyo is 13:00 to 21:00 UTC.
    tokyo = PlayerRow(1, quiet_from=22, quiet_to=6, timezone="Asia/Tokyo")
    assert clock_after(NEW_YEAR + 12 * HOUR, 2 * HOUR, tokyo) == NEW_YEAR + 22 * HOUR


def test_reminders_at_half_80_and_95_percent_or_daily() -> None:
    player = PlayerRow(1)
    wait = WaitRow(1, 0, NEW_YEAR)
    at = [reminder_at(WaitRow(1, 0, NEW_YEAR, n), 10 * DAY, True, player) for n in range(4)]
    assert at == [NEW_YEAR + 5 * DAY, NEW_YEAR + 8 * DAY, NEW_YEAR + 9.5 * DAY, None]
    daily = [reminder_at(WaitRow(1, 0, NEW_YEAR, n), None, True, player) for n in range(4)]
    assert daily == [NEW_YEAR + DAY, NEW_YEAR + 2 * DAY, NEW_YEAR + 3 * DAY, None]
    assert reminder_at(wait, None, False, player) is None
    # Never within three hours of the last reminder (any table), never in quiet hours.
    recent = PlayerRow(1, reminded=NEW_YEAR + DAY - HOUR)
    assert reminder_at(wait, None, True, recent) == NEW_YEAR + DAY + 2 * HOUR
    asleep = PlayerRow(1, quiet_from=0, quiet_to=8, timezone="UTC")
    assert reminder_at(wait, None, True, asleep) == NEW_YEAR + DAY + 8 * HOUR
    assert next_due(wait, 2 * HOUR, True, player) == NEW_YEAR + HOUR


def test_turn_times_as_typed() -> None:
    assert scheduler.parse_duration("12h") == 12 * HOUR
    assert scheduler.parse_duration("2d") == 2 * DAY
    assert scheduler.parse_duration("90m") == 90 * MINUTE
    assert scheduler.parse_duration("off") is None
    for bad in ("3x", "12", "h", "1.5h", "-2d"):
        with pytest.raises(ValueError, match="is not a turn time"):
            scheduler.parse_duration(bad)
    with pytest.raises(ValueError, match="between 10 minutes and 30 days"):
        scheduler.parse_duration("31d")
    assert [scheduler.duration(s) for s in (2 * DAY, 12 * HOUR, 90 * MINUTE)] == [
        "2d", "12h", "90m"]


# --------------------------------------------------------------------------- computer seats


async def test_computer_levels_are_stored_and_refused_when_unknown(
        service: TableService, store: Store) -> None:
    await service.open(CH, 1, ANN, "Ann", GAME)
    with pytest.raises(TableError, match="There is no computer level 'genius'"):
        await service.add_computer(CH, ANN, "genius")
    reply = await service.add_computer(CH, ANN, "random")  # the older name of easy
    assert reply.public.startswith("Computer 1 (easy) takes a seat.")
    await service.add_computer(CH, ANN)  # the service's level (normal here)
    await service.add_computer(CH, ANN, "Hard")
    row = await store.tables.active_game(CH)
    assert row is not None
    assert [s.level for s in await store.seats.of(row.id)] == [None, "easy", "normal", "hard"]
    product = TableService(store).levels  # the product's: hard, expert where turns are slow
    assert (product.quick, product.patient) == ("hard", "expert")


async def test_a_computer_game_replays_the_same_from_its_seed(tmp_path: Path) -> None:
    logs = []
    for n in range(2):
        store = await Store.open(str(tmp_path / f"{n}.db"))
        try:
            service = TableService(store, images=False, now=Clock())
            await service.open(CH, 1, ANN, "Ann", GAME)
            await service.add_computer(CH, ANN, "greedy")
            await service.start(CH, ANN, seed=42)
            rng = random.Random(9)
            for _ in range(12):
                moves = await service.legal_moves(CH, ANN)
                if not moves:
                    break
                await service.play(CH, ANN, rng.choice(moves))
            row = await store.tables.latest_game(CH)
            assert row is not None
            logs.append([(m.seat, m.text) for m in await store.tables.moves(row.id)])
        finally:
            await store.close()
    assert logs[0] == logs[1] and any(seat == 1 for seat, _ in logs[0])


async def test_a_strong_computer_thinks_in_a_worker_process(
        service: TableService, store: Store) -> None:
    await service.open(CH, 1, ANN, "Ann", GAME)
    await service.add_computer(CH, ANN, "strong")
    await service.start(CH, ANN, seed=3)
    rng = random.Random(3)
    for _ in range(3):
        moves = await service.legal_moves(CH, ANN)
        if not moves:
            break
        await service.play(CH, ANN, rng.choice(moves))
    assert service.computers.thinkers is not None
    service.close()
    row = await store.tables.latest_game(CH)
    assert row is not None
    assert any(m.seat == 1 for m in await store.tables.moves(row.id))


async def test_other_channels_are_answered_while_a_strong_computer_thinks(
        service: TableService) -> None:
    await service.open(CH, 1, ANN, "Ann", GAME)
    await service.add_computer(CH, ANN, "strong")
    await service.start(CH, ANN, seed=11)
    await two_in(service, CH + 1)
    rng = random.Random(11)
    answered_first = []
    for _ in range(6):
        moves = await service.legal_moves(CH, ANN)
        if not moves:
            break
        playing = asyncio.ensure_future(service.play(CH, ANN, rng.choice(moves)))
        await service.board(CH + 1)
        answered_first.append(not playing.done())
        await playing
    service.close()
    assert any(answered_first)


async def two_in(service: TableService, channel: int) -> None:
    await service.open(channel, 1, ANN, "Ann", GAME)
    await service.join(channel, BOB, "Bob")
    await service.start(channel, ANN, seed=1)


def test_the_stand_in_never_sees_more_than_its_seat() -> None:
    """Two states the seat cannot tell apart (all it cannot see resampled) give the same
    choice: the stand-in chooses from what its seat sees."""
    for game_id in ("cube-conquest", "crystallia"):
        game = rules.GAMES[game_id]
        state = game.new(2, 5, None)
        seat = next(iter(game.to_act(state)))
        other = game.determinize(state, seat, 99)
        assert game.view(other, seat) == game.view(state, seat)
        for level in ("random", "greedy"):
            assert (computers_module.decide(game_id, state, seat, level, 7)
                    == computers_module.decide(game_id, other, seat, level, 7))


# --------------------------------------------------------------------------- waits


async def test_waits_follow_the_awaited_seats_and_go_when_the_game_ends(
        service: TableService, store: Store, clock: Clock) -> None:
    await two(service)
    row = await store.tables.active_game(CH)
    assert row is not None
    waits = await store.jobs.waits(row.id)
    assert [w.since for w in waits] == [clock.t] * len(waits)
    assert {w.seat for w in waits} == {s for s in range(2) if
                                       [ANN, BOB][s] in await awaited(service)}
    assert all(w.due == clock.t + DAY for w in waits)  # no turn time: a reminder a day on
    assert await store.jobs.next_due() == clock.t + DAY
    clock.t += HOUR
    user = (await awaited(service))[0]
    await service.play(CH, user, (await service.legal_moves(CH, user))[0])
    after = await store.jobs.waits(row.id)
    assert after and all(w.since in (NEW_YEAR, clock.t) for w in after)
    mover = [ANN, BOB].index(user)
    assert all(w.since == clock.t for w in after if w.seat == mover)
    await service.end(CH, ANN)
    assert await store.jobs.waits(row.id) == []
    assert await store.jobs.next_due() is None


async def test_time_running_out_brings_a_stand_in_for_that_turn_only(
        service: TableService, store: Store, clock: Clock) -> None:
    await two(service, seed=4)
    await service.settings(CH, ANN, turn_time="1h", reminders=False)
    late = (await awaited(service))[0]
    before = (await service.status(CH)).version
    assert await service.due(clock.t) == []
    clock.t += HOUR + 1
    (due,) = await service.due(clock.t)
    tended = await service.tend(due)
    assert tended is not None and tended.reply is not None
    name = "Ann" if late == ANN else "Bob"
    assert f"{name} (" in tended.reply.public.split("ran out of time")[0]
    assert "a computer player (normal) stands in for this turn" in tended.reply.public
    assert (await service.status(CH)).version > before
    # The seat is still the player's: it is theirs to play when next awaited.
    row = await store.tables.active_game(CH)
    assert row is not None
    assert {s.user_id for s in await store.seats.of(row.id)} == {ANN, BOB}


async def test_a_reminder_is_recorded_before_it_is_sent_so_never_twice(
        service: TableService, store: Store, clock: Clock) -> None:
    await two(service, seed=5)
    late = (await awaited(service))[0]
    clock.t += DAY
    (due,) = await service.due(clock.t)
    tended = await service.tend(due)
    assert tended is not None and tended.user_id == late
    assert f"<#{CH}>" in tended.text and "Cube Conquest" in tended.text
    # A second service on the same file (a restart) finds nothing due now.
    again = TableService(store, images=False, now=clock)
    assert await again.due(clock.t) == []
    assert await again.next_due() == clock.t + DAY


async def test_quiet_hours_move_the_deadline(service: TableService, store: Store,
                                             clock: Clock) -> None:
    await two(service, seed=6)
    await service.settings(CH, ANN, turn_time="2h", reminders=False)
    late = (await awaited(service))[0]
    first = await store.jobs.next_due()
    await service.quiet(late, 1, 9, "UTC")
    assert first == clock.t + 2 * HOUR
    assert await store.jobs.next_due() == clock.t + 10 * HOUR
    with pytest.raises(TableError, match="at most 12 a day"):
        await service.quiet(late, 18, 8, "UTC")


async def test_time_away_is_at_most_21_days_a_year(service: TableService,
                                                   clock: Clock) -> None:
    assert "20 of 21" in await service.away(ANN, 1)
    with pytest.raises(TableError, match="you have 20 left"):
        await service.away(ANN, 21)
    await service.away(ANN, 20)
    with pytest.raises(TableError, match="you have 0 left"):
        await service.away(ANN, 1)
    clock.t += 400 * DAY  # a year on, the days are back
    assert "20 of 21" in await service.away(ANN, 1)


# --------------------------------------------------------------------------- seats changing hands


async def test_a_resigned_seat_is_played_by_a_computer_to_the_end(
        service: TableService, store: Store) -> None:
    await two(service, seed=7)
    reply = await service.resign(CH, BOB)
    assert reply.public.startswith("Bob resigns; a computer player (normal) plays their "
                                   "seat for the rest of the game.")
    with pytest.raises(TableError, match="You have no seat"):
        await service.play(CH, BOB, "pass")
    rng = random.Random(7)
    for _ in range(500):
        moves = await service.legal_moves(CH, ANN)
        if not moves:
            break
        await service.play(CH, ANN, rng.choice(moves))
    board = await service.board(CH)
    assert "game over (decided with a resignation)" in board.public
    row = await store.tables.latest_game(CH)
    assert row is not None
    seat = (await store.seats.of(row.id))[1]
    assert (seat.kind, seat.level, seat.handed, seat.former) == (
        "computer", "normal", "resigned", BOB)


async def test_the_opener_hands_a_seat_to_a_member_or_a_computer(
        service: TableService, store: Store) -> None:
    await two(service, seed=8)
    with pytest.raises(TableError, match="Only Ann"):
        await service.replace(CH, BOB, ANN, 303, "Cy")
    reply = await service.replace(CH, ANN, BOB, 303, "Cy")
    assert reply.public.startswith("Bob's seat is handed to Cy.")
    assert 303 in {p.user_id for p in reply.private}  # Cy gets the seat's view
    with pytest.raises(TableError, match="already has a seat"):
        await service.replace(CH, ANN, 303, ANN, "Ann")
    reply = await service.replace(CH, 999, 303, moderator=True)
    assert "Cy's seat is handed to a computer player (normal)." in reply.public


async def test_without_a_player_the_seat_waited_for_is_handed_on(
        service: TableService, store: Store) -> None:
    """/game replace seat:<member>: the absent player is the one the game waits for."""
    await two(service, seed=8)
    ((user, _),) = await service.waiting(CH)
    name = {ANN: "Ann", BOB: "Bob"}[user]
    reply = await service.replace(CH, ANN, None, 303, "Cy")
    assert reply.public.startswith(f"{name}'s seat is handed to Cy.")
    assert [u for u, _ in await service.waiting(CH)] == [303]
    reply = await service.replace(CH, ANN, None)
    assert "Cy's seat is handed to a computer player (normal)." in reply.public


# --------------------------------------------------------------------------- the schema


async def test_an_old_file_upgrades_and_its_computers_keep_playing_at_random(
        tmp_path: Path) -> None:
    from bot.store import sqlite as store_module
    path = str(tmp_path / "old.db")
    raw = sqlite3.connect(path)
    raw.executescript(store_module.MIGRATIONS[0] + store_module.MIGRATIONS[1]
                      + "PRAGMA user_version = 2;")
    raw.execute("INSERT INTO games (channel_id, game, opener_id, created, updated) "
                "VALUES (1, 'cube-conquest', 5, 0, 0)")
    raw.execute("INSERT INTO seats VALUES (1, 0, 5, 'Ann', 'human')")
    raw.execute("INSERT INTO seats VALUES (1, 1, NULL, 'Computer 1', 'computer')")
    raw.commit()
    raw.close()
    store = await Store.open(path)
    try:
        assert [s.level for s in await store.seats.of(1)] == [None, "random"]
        row = await store.tables.game(1)
        assert row is not None and (row.turn_time, row.reminders) == (None, True)
        assert await store.jobs.next_due() is None
    finally:
        await store.close()
