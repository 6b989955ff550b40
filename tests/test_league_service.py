"""Leagues as a product, without Discord (bot/service/leagues.py): sign-up, rounds opened
and recorded, the deadline rule on a fake clock, the organiser's tools, and the storage
underneath on both engines (a round is paired once when two processes see its end)."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest

from bot import leagues
from bot.service import TableService
from bot.service.league_tables import Board
from bot.service.replies import Reply
from bot.service.table import TableError
from bot.store import Store
from tests import pg
from tests.conftest import Clock

DAY = 86400.0
GUILD, CHANNEL, ORGANISER = 7, 70, 1000
threads = iter(range(5000, 10**6))


async def league_of(service: TableService, players: int, *, game: str = "battle-tiles",
                    format_: str = "round-robin", rounds: int = 3, per_table: int = 2,
                    deadline: str = "play on", table: dict[str, object] | None = None
                    ) -> int:
    row = await service.leagues.new(GUILD, CHANNEL, ORGANISER, "Org", game, format_, rounds,
                                    "7d", per_table=per_table, deadline=deadline, table=table)
    for n in range(players):
        await service.leagues.join(row.id, 1 + n, f"P{n + 1}")
    return row.id


async def open_round(service: TableService, league_id: int) -> dict[int, Board]:
    """Claim and open every table of the round under way: thread -> its board."""
    opened = {}
    for board in await service.leagues.to_open(league_id):
        assert await service.leagues.claim(board)
        thread = next(threads)
        reply = await service.leagues.seat(board, thread, GUILD)
        await service.delivered(reply)
        opened[thread] = board
    return opened


async def play(service: TableService, channel: int, rng: random.Random,
               limit: int = 10**6, *,
               last: Callable[[int, Reply], Awaitable[object]] | None = None) -> bool:
    """Random legal moves at the channel's table until it ends (or ``limit`` moves);
    whether it ended. Each reply is marked delivered, but the one that ends the game goes
    to ``last`` where given (a surface's delivery)."""
    for _ in range(limit):
        waiting = await service.waiting(channel)
        if not waiting:
            return True
        user = waiting[0][0]
        move = rng.choice(await service.legal_moves(channel, user))
        reply = await service.play(channel, user, move)
        if reply.over and last is not None:
            await last(channel, reply)
        else:
            await service.delivered(reply)
    return not await service.waiting(channel)


async def test_a_round_robin_plays_its_rounds_and_the_standings_add_up(
        service: TableService, clock: Clock) -> None:
    league_id = await league_of(service, 4)
    with pytest.raises(TableError, match="Only"):
        await service.leagues.start(league_id, 2)
    await service.leagues.start(league_id, ORGANISER)
    rng = random.Random(3)
    for round_ in (1, 2, 3):
        opened = await open_round(service, league_id)
        assert len(opened) == 2
        assert await service.leagues.to_open(league_id) == []  # each opens once
        for thread in opened:
            assert await play(service, thread, rng)
        row, held = await service.leagues.held(league_id)
        assert held.league is not None and len(held.league.results) == 2 * round_
    row, held = await service.leagues.held(league_id)
    assert row.status == "over" and row.due is None
    assert held.league is not None
    table = leagues.standings(held.league)
    assert sum(r.points for r in table.rows) == 6  # six games, a point each
    shown = await service.leagues.standings(league_id)
    assert shown.text.splitlines()[0].startswith("1.") or shown.text.startswith("=1.")
    assert [r["figures"][0] for r in shown.picture["rows"]] == [
        leagues.number(r.points) for r in table.rows]
    assert "after round 3 of 3" in shown.heading


async def test_sign_up_checks(service: TableService) -> None:
    with pytest.raises(TableError, match=r"^A league has at least one round\.$"):
        await service.leagues.new(GUILD, CHANNEL, ORGANISER, "Org", "battle-tiles",
                                  "swiss", 0, "7d")
    with pytest.raises(TableError, match="7d or 36h"):
        await service.leagues.new(GUILD, CHANNEL, ORGANISER, "Org", "battle-tiles",
                                  "swiss", 3, "soon")
    with pytest.raises(TableError, match="seat 3"):
        await service.leagues.new(GUILD, CHANNEL, ORGANISER, "Org", "battle-tiles",
                                  "swiss", 3, "7d", per_table=3)
    with pytest.raises(TableError, match="for clock:bank"):
        await service.leagues.new(GUILD, CHANNEL, ORGANISER, "Org", "battle-tiles",
                                  "swiss", 3, "7d", table={"clock": "per-turn", "bank": "3d"})
    with pytest.raises(TableError, match="not a turn time"):
        await service.leagues.new(GUILD, CHANNEL, ORGANISER, "Org", "battle-tiles",
                                  "swiss", 3, "7d", table={"turn_time": "soon"})
    league_id = await league_of(service, 1)
    with pytest.raises(TableError, match="already signed up"):
        await service.leagues.join(league_id, 1, "P1")
    with pytest.raises(TableError, match="at least 2 players"):
        await service.leagues.start(league_id, ORGANISER)
    await service.leagues.leave(league_id, 1)
    with pytest.raises(TableError, match="not signed up"):
        await service.leagues.leave(league_id, 1)


@pytest.mark.parametrize("rule", ["play on", "stand-in"])
async def test_the_deadline_rule_decides_a_table_still_running(
        service: TableService, clock: Clock, rule: str) -> None:
    league_id = await league_of(service, 4, deadline=rule, rounds=2)
    await service.leagues.start(league_id, ORGANISER)
    opened = await open_round(service, league_id)
    first, second = opened
    rng = random.Random(5)
    assert await play(service, first, rng)
    assert not await play(service, second, rng, limit=3)
    row = await service.store.leagues.get(league_id)
    assert row is not None and row.due is not None
    jobs = await service.store.db.execute_fetchall(
        "SELECT owner_id, due FROM jobs WHERE kind = 'league'")
    assert [tuple(j) for j in jobs] == [(league_id, row.due)]  # the league's job
    clock.t += 6 * DAY
    assert await service.leagues.due(clock.t) == []  # not yet
    clock.t += 2 * DAY
    replies = await service.leagues.due(clock.t)
    row, held = await service.leagues.held(league_id)
    assert held.league is not None
    if rule == "play on":
        assert replies == [] and row.due is None and len(held.league.rounds) == 1
        assert await service.leagues.due(clock.t + DAY) == []
        assert await play(service, second, rng)  # it finishes: the next round is paired
        row, held = await service.leagues.held(league_id)
        assert held.league is not None
    else:
        assert replies and all(channel == second for channel, _ in replies)
        assert not await service.waiting(second)  # played out at once
    assert len(held.league.rounds) == 2 and len(held.league.results) == 2
    assert row.due == clock.t + 7 * DAY


async def test_a_withdrawal_forfeits_or_stands_in_and_a_replacement_takes_over(
        service: TableService, clock: Clock) -> None:
    league_id = await league_of(service, 4, rounds=3)
    await service.leagues.start(league_id, ORGANISER)
    opened = await open_round(service, league_id)
    rng = random.Random(9)
    with pytest.raises(TableError, match="Only"):
        await service.leagues.withdraw(league_id, 3, 1, "forfeit")
    # P1 withdraws in the middle of round 1: the table is played by the computer, and the
    # result counts as P1's forfeit; from round 2 on P1's games are forfeited at once.
    text, handed = await service.leagues.withdraw(league_id, ORGANISER, 1, "forfeit")
    assert "forfeited" in text and handed
    for thread in opened:
        await play(service, thread, rng)
    _, held = await service.leagues.held(league_id)
    assert held.league is not None
    forfeits = [r for r in held.league.results if r.forfeited]
    assert len(forfeits) == 2  # round 1's table, and round 2's at once
    assert all(r.places[r.players.index(0)] == 1 for r in forfeits)
    opened = await open_round(service, league_id)
    assert len(opened) == 1  # the other table of round 2 is P1's forfeit
    (thread,) = opened
    board = opened[thread]
    player = next(m for m in board.members if m is not None)
    with pytest.raises(TableError, match="still playing"):
        await service.leagues.replace(league_id, ORGANISER, player, 99, "New")
    await play(service, thread, rng)
    other = next(m for m in (2, 3, 4) if m != player)
    with pytest.raises(TableError, match="already plays"):
        await service.leagues.replace(league_id, ORGANISER, player, other, "P")
    said = await service.leagues.replace(league_id, ORGANISER, player, 99, "New")
    assert "takes over" in said
    _, held = await service.leagues.held(league_id)
    assert held.league is not None
    assert any(e.member == 99 and player in e.former for e in held.league.entries)
    opened = await open_round(service, league_id)
    assert any(99 in b.members for b in opened.values())


async def test_a_pause_stops_every_tables_clock_and_the_round(
        service: TableService, clock: Clock) -> None:
    league_id = await league_of(service, 2, rounds=1, table={"turn_time": "1d"})
    await service.leagues.start(league_id, ORGANISER)
    (thread,) = await open_round(service, league_id)
    row = await service.store.tables.active_game(thread)
    assert row is not None and row.turn_time == DAY
    clock.t += DAY / 2
    await service.leagues.pause(league_id, ORGANISER)
    assert await service.next_due() is None  # no wait is due, nor the round
    assert (await service.store.leagues.get(league_id)).due is None  # type: ignore[union-attr]
    clock.t += 30 * DAY
    await service.leagues.resume(league_id, ORGANISER)
    row = await service.store.tables.active_game(thread)
    assert row is not None and row.turn_time == DAY
    # Half the turn was used before the pause: the rest runs from the resumption.
    assert await service.next_due() is not None
    (wait,) = await service.store.jobs.waits(row.id)
    assert wait.ran == pytest.approx(DAY / 2) and wait.mark == clock.t
    league = await service.store.leagues.get(league_id)
    assert league is not None and league.due == pytest.approx(clock.t + 6.5 * DAY)
    said = await service.leagues.end(league_id, ORGANISER)
    assert "ended early" in said
    assert (await service.store.leagues.get(league_id)).status == "ended"  # type: ignore[union-attr]


async def test_a_pause_reaches_a_table_another_process_holds(
        service: TableService, store: Store, database: pg.Database, clock: Clock) -> None:
    """A second process holding a league table in memory moves under the paused clock:
    a held table whose stored settings changed is read again before its next command."""
    league_id = await league_of(service, 2, rounds=1, table={"turn_time": "1d"})
    await service.leagues.start(league_id, ORGANISER)
    (thread,) = await open_round(service, league_id)
    other_store = await database.open()
    try:
        other = TableService(other_store, images=False, now=clock, level="normal")
        rng = random.Random(5)
        assert not await play(other, thread, rng, limit=1)  # the other process holds it
        assert await other.next_due() is not None  # the turn's clock runs
        await service.leagues.pause(league_id, ORGANISER)
        clock.t += 3 * DAY
        assert not await play(other, thread, rng, limit=2)
        assert await other.next_due() is None  # no turn's wait runs there either
        assert await other.due(clock.t) == []
        await service.leagues.resume(league_id, ORGANISER)
        assert not await play(other, thread, rng, limit=1)
        due = await other.next_due()  # the turn's clock (its reminder first) runs again
        assert due is not None and clock.t < due <= clock.t + DAY
    finally:
        await other_store.close()


async def test_a_swiss_league_of_three_player_tables(service: TableService) -> None:
    league_id = await league_of(service, 6, game="crystallia", format_="swiss", rounds=2,
                                per_table=3)
    await service.leagues.start(league_id, ORGANISER)
    rng = random.Random(1)
    for _ in range(2):
        opened = await open_round(service, league_id)
        assert len(opened) == 2 and all(len(b.entries) == 3 for b in opened.values())
        for thread in opened:
            assert await play(service, thread, rng)
    row, held = await service.leagues.held(league_id)
    assert row.status == "over" and held.league is not None
    # Each pair at a table shares one game (a point), over the table's size - 1: 1.5 a table.
    assert sum(r.points for r in leagues.standings(held.league).rows) == 6


async def test_a_league_tables_thread_keeps_its_name_until_the_end(
        service: TableService) -> None:
    """A league's table is recorded as a thread once it has started: no reply after that
    (a reminder's has no version) renames it as if it had just begun; its end archives it."""
    league_id = await league_of(service, 2, rounds=1)
    await service.leagues.start(league_id, ORGANISER)
    (thread,) = await open_round(service, league_id)
    row = await service.threads.opened(thread, GUILD, CHANNEL, private=False)
    assert row.stage == "playing"
    assert await service.threads.notice(thread) is None  # a reply of version 0: no rename
    assert await play(service, thread, random.Random(2))
    end = await service.threads.notice(thread)
    assert end is not None and end.archive and end.name is None


async def test_a_withdrawal_before_its_table_opens_is_a_forfeit_and_opens_nothing(
        service: TableService) -> None:
    """A player withdrawn (forfeit) after the round was paired but before their table
    opened (its opening failed, or the process stopped): the table is not opened with
    them seated; it is recorded as their forfeit, and the round goes on."""
    league_id = await league_of(service, 4)
    await service.leagues.start(league_id, ORGANISER)
    await service.leagues.withdraw(league_id, ORGANISER, 1, "forfeit")  # entry 0
    opened = await open_round(service, league_id)
    assert len(opened) == 1  # the other table alone
    _, held = await service.leagues.held(league_id)
    assert held.league is not None
    (forfeit,) = [r for r in held.league.results if r.forfeited]
    assert forfeit.round == 1 and 0 in forfeit.players and forfeit.forfeited == {0}
    (thread,) = opened
    assert await play(service, thread, random.Random(3))
    _, held = await service.leagues.held(league_id)
    assert held.league is not None and len(held.league.rounds) == 2  # round 2 is paired
