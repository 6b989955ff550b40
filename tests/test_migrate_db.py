"""``boardroom migrate-db FROM TO``: a SQLite file's tables copied into PostgreSQL (and
back), row for row, ids and move log verbatim; a target that holds rows is refused."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

import rules
from bot import migrate_db
from bot.records import PlayerRow, UndoRow
from bot.service import TableService
from bot.store import Store
from bot.timeline import Timeline
from tests import pg

GUILD = 7
GAME = "cube-conquest"


async def played_file(path: str) -> None:
    """A SQLite file with a bit of everything: a finished (rated) game, games in play
    with waits, an open table, a player's quiet hours, time away, DM channel (their DMs
    refused) and daily digest (a job beside the waits), an undo request."""
    store = await Store.open(path)
    clock = [1_000_000.0]
    service = TableService(store, images=False, now=lambda: clock[0])
    rng = random.Random(23)

    async def moves(channel: int, count: int) -> None:
        for _ in range(count):
            waiting = await service.waiting(channel)
            if not waiting:
                return
            user = waiting[0][0]
            move = rng.choice(await service.legal_moves(channel, user))
            await service.delivered(await service.play(channel, user, move))
            clock[0] += 60

    for channel in (11, 12, 13):
        await service.open(channel, GUILD, channel * 10, f"Ann {channel}", GAME)
        await service.join(channel, channel * 10 + 1, f"Bob {channel}")
        await service.delivered(await service.start(channel, channel * 10, seed=channel))
    await moves(11, 10_000)  # to the end: a rated game
    await moves(12, 7)
    await moves(13, 3)
    await service.open(14, GUILD, 140, "Cy", GAME)  # open, never started
    # A league under way, its round's table open in a thread (channel 15), its message kept.
    league = await service.leagues.new(GUILD, 16, 150, "Di", GAME, "swiss", 2, "7d",
                                       table={"turn_time": "1d"})
    for user in (150, 151, 152):
        await service.leagues.join(league.id, user, f"P{user}")
    await service.leagues.start(league.id, 150)
    await store.leagues.set_message(league.id, 1_400_000_000_000_000_888)
    (board,) = await service.leagues.to_open(league.id)
    assert await service.leagues.claim(board)
    await service.delivered(await service.leagues.seat(board, 15, GUILD))
    await store.members.set_player(PlayerRow(120, 22, 7, "Europe/Paris", 5.0, 6.0))
    await store.members.add_absence(120, 10.0, 20.0)
    await service.digest(120, "8", "UTC")
    await store.members.set_direct(120, 1_400_000_000_000_000_777, 30)  # a DM channel, DMs refused
    row = await store.tables.active_game(12)
    assert row is not None
    await store.tables.put_undo(UndoRow(row.id, row.version, 0, 1.0, 2.0, (1,)))
    await store.close()


async def replays_to_its_state(store: pg.AnyStore) -> int:
    """Every started game's log, replayed from its seed, gives the state it stores; how
    many games were checked."""
    checked = 0
    for row in await store.tables.games(statuses=("playing", "over")):
        game = rules.GAMES[row.game]
        seats = await store.seats.of(row.id)
        state = Timeline(game, len(seats), row.seed or 0, row.options or None,
                         await store.tables.moves(row.id)).whole().final
        assert row.state is not None
        assert game.dump(state) == json.loads(row.state)
        checked += 1
    return checked


async def test_a_sqlite_file_moves_into_postgresql_whole_and_only_once(
        tmp_path: Path, pg_database: pg.Database, capsys: pytest.CaptureFixture[str]
        ) -> None:
    source = str(tmp_path / "boardroom.db")
    await played_file(source)
    origin = await Store.open(source)
    before = await migrate_db.read_all(origin)
    await origin.close()
    assert all(before[t] for t in ("games", "seats", "moves", "jobs", "players",
                                   "absences", "ratings", "undos", "leagues",
                                   "league_games")), {
        t: len(r) for t, r in before.items()}
    cited = migrate_db.TABLES["games"].index("cited")  # the topics named (migration 12)
    assert any(":" in r[cited] for r in before["games"])

    # The command runs its own event loop: in a thread of its own here.
    assert await asyncio.to_thread(migrate_db.main, [source, pg_database.url]) == 0
    printed = capsys.readouterr().out
    counted = dict(line.split() for line in printed.splitlines()[1:])
    assert counted == {t: f"{len(rows):,}" for t, rows in before.items()}

    target = await pg_database.open()
    try:
        assert await migrate_db.read_all(target) == before  # ids, log, marks: verbatim
        assert await replays_to_its_state(target) == 4  # three games and the league table
        # A new table on the target takes the next id, after the copied ones.
        row = await target.tables.create_game(99, GUILD, GAME, {}, 990, "Di")
        assert row.id == max(r[0] for r in before["games"]) + 1
        league = await target.leagues.create(GUILD, 99, 990, GAME, "{}")
        assert league.id == max(r[0] for r in before["leagues"]) + 1
        # Every column of the league's tables came across, none left empty.
        for name in ("leagues", "league_games"):
            assert all(value is not None for value in before[name][0]), name
    finally:
        await target.close()

    # A second run finds rows there: refused with a sentence, nothing written.
    assert await asyncio.to_thread(migrate_db.main, [source, pg_database.url]) == 1
    said = capsys.readouterr().err
    assert "already holds tables" in said and "nothing was copied" in said
    target = await pg_database.open()
    try:
        assert len(await migrate_db.read_all(target)) == len(before)
        assert len((await migrate_db.read_all(target))["games"]) == len(before["games"]) + 1
    finally:
        await target.close()


async def test_postgresql_moves_back_into_a_new_sqlite_file(
        tmp_path: Path, pg_database: pg.Database) -> None:
    first = str(tmp_path / "first.db")
    await played_file(first)
    await migrate_db.migrate(first, pg_database.url)
    again = str(tmp_path / "again.db")
    counts = await migrate_db.migrate(pg_database.url, again)
    assert counts["games"] == 5 and counts["moves"] > 10 and counts["leagues"] == 1
    a, b = await Store.open(first), await Store.open(again)
    try:
        assert await migrate_db.read_all(a) == await migrate_db.read_all(b)
        assert await replays_to_its_state(b) == 4
    finally:
        await a.close()
        await b.close()


async def test_a_missing_source_file_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    missing, target = tmp_path / "nothing.db", tmp_path / "target.db"
    with pytest.raises(migrate_db.MigrationRefused, match="There is no database file"):
        await migrate_db.migrate(str(missing), str(target))
    assert not missing.exists() and not target.exists()
