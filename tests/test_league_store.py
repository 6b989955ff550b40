"""A league's storage on both engines (``store.leagues``): a round is paired once when two
processes see its end at once (a conditional write on the league's version), and a round's
table is claimed by one process."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot import leagues
from bot.store import Store
from tests import pg

DAY = 86400.0
GUILD, CHANNEL, ORGANISER = 7, 70, 1000

pytestmark = pytest.mark.engines


async def test_a_round_is_paired_once_when_two_processes_see_its_end(
        store: Store, database: pg.Database) -> None:
    """Two stores on one database write the same league from the same version: one
    write wins, and the loser reads the round already paired."""
    other = await database.open()
    try:
        settings = leagues.Settings("battle-tiles", "round-robin", 3, 7 * DAY)
        league = leagues.start(settings, [1, 2, 3, 4])
        row = await store.leagues.create(GUILD, CHANNEL, ORGANISER, "battle-tiles",
                                         json.dumps(leagues.to_data(league)), now=1.0)
        paired = leagues.to_data(leagues.League(settings, league.entries,
                                                (leagues.pair(league),)))
        wrote = await asyncio.gather(*(s.leagues.write(row.id, row.version, "running",
                                                       json.dumps(paired), 9.0, now=2.0)
                                       for s in (store, other)))
        assert sorted(wrote) == [False, True]
        again = await other.leagues.get(row.id)
        assert again is not None and again.version == row.version + 1
        claims = await asyncio.gather(*(s.leagues.claim(row.id, 1, 0, "[0, 1]", now=3.0)
                                        for s in (store, other, store)))
        assert sorted(claims) == [False, False, True]
        assert not await store.leagues.claim(row.id, 1, 0, "[0, 1]", now=50.0)
        assert await other.leagues.claim(row.id, 1, 0, "[0, 1]", now=100.0)  # left: again
        await other.leagues.threaded(row.id, 1, 0, 4)  # its thread made, then it stops
        (made,) = await store.leagues.boards(row.id, 1)
        assert (made.channel_id, made.game_id) == (4, None)
        game = await store.tables.create_game(5, GUILD, "battle-tiles", {}, 1, "P1")
        await store.leagues.opened(row.id, 1, 0, 5, game.id, "[1, 0]")
        assert not await store.leagues.claim(row.id, 1, 0, "[0, 1]", now=1000.0)
        await store.leagues.threaded(row.id, 1, 0, 6)  # an open table keeps its thread
        assert (await store.leagues.boards(row.id, 1))[0].channel_id == 5
        board = await other.leagues.board_of(game.id)
        assert board is not None and (board.round, board.board, board.seats) == (1, 0, "[1, 0]")
        assert [r.id for r in await other.leagues.due(9.0)] == [row.id]
        assert await other.leagues.next_due() == 9.0
        assert [r.id for r in await other.leagues.of_guild(GUILD)] == [row.id]
    finally:
        await other.close()
