"""Leagues (``store.leagues``): a league's row, changed only by a conditional write on its
version (of two processes that see a round end at once, one pairs it), and its tables
(``league_games``), each claimed by one process before it opens it, so a round's tables
open once."""

from __future__ import annotations

from typing import Any

from bot.records import BoardRow, LeagueRow
from bot.store import schema
from bot.store.engine import CLAIM, Repository, Session, now_or_wall

LEAGUES = f"{schema.LEAGUES.select(LeagueRow)} FROM leagues"
BOARDS = f"{schema.LEAGUE_GAMES.select(BoardRow)} FROM league_games"


class Leagues(Repository):
    """``leagues`` and ``league_games``."""

    async def create(self, guild_id: int, channel_id: int, organiser_id: int, game: str,
                     state: str, *, now: float | None = None) -> LeagueRow:
        """A new league in sign-up."""
        now = now_or_wall(now)

        async def create(session: Session) -> list[Any]:
            league_id = await session.insert(
                "INSERT INTO leagues (guild_id, channel_id, organiser_id, game, state, "
                "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, organiser_id, game, state, now, now))
            return await session.fetch(f"{LEAGUES} WHERE id = ?", (league_id,))

        rows = await self.seam.run(create, transaction=True)
        return LeagueRow(*rows[0])

    async def get(self, league_id: int) -> LeagueRow | None:
        rows = await self.seam.rows(f"{LEAGUES} WHERE id = ?", (league_id,))
        return LeagueRow(*rows[0]) if rows else None

    async def of_guild(self, guild_id: int) -> list[LeagueRow]:
        """The server's leagues, newest first."""
        rows = await self.seam.rows(f"{LEAGUES} WHERE guild_id = ? ORDER BY id DESC",
                                    (guild_id,))
        return [LeagueRow(*r) for r in rows]

    async def running(self) -> list[LeagueRow]:
        """Every league under way (running or paused)."""
        rows = await self.seam.rows(
            f"{LEAGUES} WHERE status IN ('running', 'paused') ORDER BY id")
        return [LeagueRow(*r) for r in rows]

    async def write(self, league_id: int, version: int, status: str, state: str,
                    due: float | None, *, now: float | None = None) -> bool:
        """The league's next version, written only while it is still at ``version``:
        whether it was (else another writer came first, and the caller reads it again)."""
        return await self.seam.write(
            "UPDATE leagues SET status = ?, state = ?, due = ?, version = version + 1, "
            "updated = ? WHERE id = ? AND version = ?",
            (status, state, due, now_or_wall(now), league_id, version)) == 1

    async def set_message(self, league_id: int, message_id: int | None) -> None:
        """The league's message in its channel (the sign-up, then the standings)."""
        await self.seam.write("UPDATE leagues SET message_id = ? WHERE id = ?",
                              (message_id, league_id))

    async def next_due(self) -> float | None:
        """The earliest moment something is due for a league (its round's deadline)."""
        rows = await self.seam.rows("SELECT MIN(due) FROM leagues WHERE due IS NOT NULL")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def due(self, now: float) -> list[LeagueRow]:
        """The leagues with something due by ``now``, earliest first."""
        rows = await self.seam.rows(
            f"{LEAGUES} WHERE due IS NOT NULL AND due <= ? ORDER BY due, id", (now,))
        return [LeagueRow(*r) for r in rows]

    # -- a round's tables

    async def boards(self, league_id: int, round_: int | None = None) -> list[BoardRow]:
        """The league's tables claimed so far (of one round), in round and board order."""
        where, values = "league_id = ?", [league_id]
        if round_ is not None:
            where, values = "league_id = ? AND round = ?", [league_id, round_]
        rows = await self.seam.rows(f"{BOARDS} WHERE {where} ORDER BY round, board", values)
        return [BoardRow(*r) for r in rows]

    async def board_of(self, game_id: int) -> BoardRow | None:
        """The league table that a game is, if it is one."""
        rows = await self.seam.rows(f"{BOARDS} WHERE game_id = ?", (game_id,))
        return BoardRow(*rows[0]) if rows else None

    async def claim(self, league_id: int, round_: int, board: int, seats: str, *,
                    now: float | None = None) -> bool:
        """Claim a round's table for this process to open: whether it got it. A table
        claimed longer than ``CLAIM`` ago and still without its game (the process that
        claimed it stopped) may be claimed again."""
        now = now_or_wall(now)

        async def claim(session: Session) -> bool:
            if await session.execute(
                    "INSERT INTO league_games (league_id, round, board, claimed, seats) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (league_id, round_, board, now, seats)):
                return True
            return await session.execute(
                "UPDATE league_games SET claimed = ? WHERE league_id = ? AND round = ? AND "
                "board = ? AND game_id IS NULL AND claimed < ?",
                (now, league_id, round_, board, now - CLAIM)) == 1

        return await self.seam.run(claim, ordered=True, transaction=True)

    async def threaded(self, league_id: int, round_: int, board: int, channel_id: int
                       ) -> None:
        """The claimed table's thread is made (the table not yet open in it): a process
        that claims the table after this one stopped opens it there, not in a new one."""
        await self.seam.write(
            "UPDATE league_games SET channel_id = ? WHERE league_id = ? AND round = ? AND "
            "board = ? AND game_id IS NULL", (channel_id, league_id, round_, board))

    async def opened(self, league_id: int, round_: int, board: int, channel_id: int,
                     game_id: int, seats: str) -> None:
        """The claimed table is open: in this thread, as this game, its entries seated
        in this order (JSON list)."""
        await self.seam.write(
            "UPDATE league_games SET channel_id = ?, game_id = ?, seats = ? WHERE "
            "league_id = ? AND round = ? AND board = ?",
            (channel_id, game_id, seats, league_id, round_, board))
