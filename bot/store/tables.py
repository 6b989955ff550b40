"""The tables and their moves (``store.tables``): a table's row in ``games`` from open to
end, the append-only move log, what a table's lines have named, its undo request and the
ratings its end writes.

A move is one ``UPDATE`` of its game's row (the new state, ``version + 1``, the move in
``last_seat``/``last_text``) that only matches while the row holds the version the move was
computed from; a trigger logs the move in ``moves`` inside that statement.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from bot import ratings
from bot.records import GameRow, MoveRow, Rated, RatingRow, UndoRow, WaitRow
from bot.store import schema
from bot.store.engine import MOVE_SQL, Move, Repository, Session, now_or_wall
from bot.store.errors import ChannelBusy
from bot.store.rows import GAMES, game_row
from bot.store.schema import placeholders

# Statuses: 'open' (seats being taken), 'playing', 'over' (the rules ended it) and 'ended'
# (stopped by the opener or a moderator). Only open and playing tables hold their channel.
ACTIVE = ("open", "playing")
WAITS = f"SELECT {', '.join(schema.WAIT_COLUMNS)} FROM jobs WHERE kind = 'wait'"
RATINGS = f"{schema.RATINGS.select(RatingRow)} FROM ratings WHERE guild_id = ? AND game = ?"
MOVES = f"{schema.MOVES.select(MoveRow)} FROM moves WHERE game_id = ? ORDER BY version"
UNDOS = f"{schema.UNDOS.select(UndoRow)} FROM undos WHERE game_id = ?"


class Tables(Repository):
    """``games`` and ``moves``, with ``undos`` and ``ratings``."""

    async def _games(self, where: str, parameters: tuple[Any, ...] = ()) -> list[GameRow]:
        return [game_row(row) for row in await self.seam.rows(f"{GAMES} WHERE {where}",
                                                              parameters)]

    async def _game(self, where: str, parameters: tuple[Any, ...]) -> GameRow | None:
        found = await self._games(where, parameters)
        return found[0] if found else None

    async def create_game(self, channel_id: int, guild_id: int | None, game: str,
                          options: dict[str, Any], opener_id: int, opener_name: str, *,
                          now: float | None = None) -> GameRow:
        """A new open table with the opener in seat 0; ``ChannelBusy`` if one is active."""
        now = now_or_wall(now)

        async def create(session: Session) -> list[Any]:
            game_id = await session.insert(
                "INSERT INTO games (channel_id, guild_id, game, options, opener_id, "
                "created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (channel_id, guild_id, game, json.dumps(options), opener_id, now, now))
            await session.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, kind) "
                "VALUES (?, 0, ?, ?, 'human')", (game_id, opener_id, opener_name))
            return await session.fetch(f"{GAMES} WHERE id = ?", (game_id,))

        try:
            rows = await self.seam.run(create, transaction=True)
        except self.seam.engine.integrity as error:
            raise ChannelBusy(str(error)) from error
        return game_row(rows[0])

    async def game(self, game_id: int) -> GameRow | None:
        return await self._game("id = ?", (game_id,))

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The open or running table in a channel."""
        return await self._game("channel_id = ? AND status IN ('open', 'playing')",
                                (channel_id,))

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The most recent table in a channel, whatever its status."""
        return await self._game("channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))

    async def started_game(self, channel_id: int, game_id: int | None = None
                           ) -> GameRow | None:
        """The channel's most recent game that started (or the one with ``game_id``, if
        it was played there): the one whose move log ``/game export`` gives."""
        chosen, values = ("", (channel_id,)) if game_id is None else (" AND id = ?", (
            channel_id, game_id))
        return await self._game(f"channel_id = ? AND seed IS NOT NULL{chosen} ORDER BY id "
                                "DESC LIMIT 1", values)

    async def started_games(self, channel_id: int, limit: int = 25) -> list[GameRow]:
        """The channel's games that started (running, over or ended), newest first, at
        most ``limit``: the tables ``/game replay`` offers."""
        return await self._games("channel_id = ? AND seed IS NOT NULL ORDER BY id DESC "
                                 "LIMIT ?", (channel_id, limit))

    async def games(self, *, statuses: tuple[str, ...] = ACTIVE) -> list[GameRow]:
        return await self._games(f"status IN ({placeholders(statuses)}) ORDER BY id", statuses) \
            if statuses else []

    async def waiting_for(self, user_id: int) -> list[tuple[GameRow, WaitRow]]:
        """The running tables of every server that wait for ``user_id`` (a wait of a seat
        they hold), each with that wait, longest waiting first (through ``seats_by_user``)."""
        game = schema.GAMES.select(GameRow, "g")
        wait = ", ".join(f"w.{column}" for column in schema.WAIT_COLUMNS)
        width = len(schema.WAIT_COLUMNS)
        rows = await self.seam.rows(
            # The player's seats first (SQLite keeps a CROSS JOIN's order), each wait then
            # found by its key: never a walk over every wait.
            f"{game}, {wait} FROM seats s CROSS JOIN jobs w JOIN games g ON g.id = s.game_id "
            "WHERE w.kind = 'wait' AND w.owner_id = s.game_id AND w.part = s.seat AND "
            "s.user_id = ? AND g.status = 'playing' ORDER BY w.since, g.id", (user_id,))
        return [(game_row(r), WaitRow(*r[-width:])) for r in rows]

    async def tables_of(self, guild_id: int, user_id: int
                        ) -> list[tuple[GameRow, list[WaitRow]]]:
        """The open and running tables of a server where ``user_id`` has a seat, each with
        its waits (``/games``), read through the index of active tables alone."""
        rows = [game_row(r) for r in await self.seam.rows(
            f"{schema.GAMES.select(GameRow)} FROM {self.seam.engine.active_games} "
            "WHERE status IN ('open', 'playing') AND guild_id = ? AND EXISTS (SELECT 1 "
            "FROM seats WHERE seats.game_id = games.id AND seats.user_id = ?) ORDER BY id",
            (guild_id, user_id))]
        if not rows:
            return []
        ids = tuple(row.id for row in rows)
        waits: dict[int, list[WaitRow]] = {row.id: [] for row in rows}
        for found in await self.seam.rows(
                f"{WAITS} AND owner_id IN ({placeholders(ids)}) ORDER BY owner_id, part", ids):
            wait = WaitRow(*found)
            waits[wait.game_id].append(wait)
        return [(row, waits[row.id]) for row in rows]

    async def set_aside(self, game_id: int, why: str, *, now: float | None = None) -> None:
        """Put aside a table whose row cannot be read: it keeps its rows and log, says
        ``why`` in ``damaged``, frees its channel ('ended') and leaves the outbox."""
        now = now_or_wall(now)
        await self.seam.write(
            "UPDATE games SET damaged = ?, announced = version, updated = ?, "
            "finished = COALESCE(finished, ?), status = CASE WHEN status IN "
            "('open', 'playing') THEN 'ended' ELSE status END WHERE id = ?",
            (why[:500] or "unreadable", now, now, game_id))

    async def start_game(self, game_id: int, seed: int, state: str, *,
                         salt: str | None = None, commitment: str | None = None,
                         now: float | None = None) -> bool:
        """Store the first state (version 1) of an open table, with the salt and the
        commitment to its seed (``bot.fairness``); False if it is not open."""
        now = now_or_wall(now)
        return await self.seam.write(
            "UPDATE games SET status = 'playing', seed = ?, state = ?, version = 1, "
            "last_seat = NULL, last_text = NULL, started = ?, updated = ?, salt = ?, "
            "commitment = ? WHERE id = ? AND status = 'open' AND version = 0",
            (seed, state, now, now, salt, commitment, game_id)) == 1

    async def commit_move(self, game_id: int, version: int, seat: int, text: str, state: str,
                          *, over: bool = False, now: float | None = None) -> bool:
        """Store the state a move made from ``version`` and log the move, atomically (with
        other games' moves waiting at the same time: ``engine.Moves``); False (and nothing
        written) unless the game is running at exactly ``version``."""
        now = now_or_wall(now)
        return await self.seam.moves.commit(Move(
            game_id, state, seat, text, now, "over" if over else "playing",
            now if over else None, version))

    async def end_game(self, game_id: int, *, now: float | None = None, note: str | None = None
                       ) -> bool:
        """Stop an open or running table, keeping ``note`` (what tells the channel) until
        ``deliveries.told_end``; False if it was no longer active."""
        now = now_or_wall(now)
        return await self.seam.write(
            "UPDATE games SET status = 'ended', finished = ?, updated = ?, end_note = ? "
            "WHERE id = ? AND status IN ('open', 'playing')", (now, now, note, game_id)) == 1

    async def cited(self, game_id: int) -> dict[str, int]:
        """The guide topics the game's lines have named, each with the version whose reply
        first named it (``cite``)."""
        rows = await self.seam.rows("SELECT cited FROM games WHERE id = ?", (game_id,))
        named: dict[str, int] = {}
        for entry in (rows[0][0] if rows else "").split(","):
            key, _, version = entry.rpartition(":")
            if key and version.isdigit():
                named.setdefault(key, int(version))
        return named

    async def cite(self, game_id: int, keys: Collection[str], version: int) -> None:
        """The reply of ``version`` named these guide topics: added to ``cited`` in one
        statement (a topic two processes name at once is kept twice; the first counts)."""
        if keys:
            await self.seam.write("UPDATE games SET cited = cited || ? WHERE id = ?",
                                  ("".join(f",{key}:{version}" for key in sorted(keys)),
                                   game_id))

    async def moves(self, game_id: int) -> list[MoveRow]:
        return [MoveRow(*r) for r in await self.seam.rows(MOVES, (game_id,))]

    async def set_settings(self, game_id: int, turn_time: float | None,
                           reminders: bool, bank_start: float | None = None,
                           bank_add: float = 0.0) -> None:
        """A table's clock (seconds a turn may take; None: no limit), reminders, and its
        time bank (a start per player, None: a clock per turn; and what a turn gives back).
        Seats' banks above a new start come down to it."""

        async def write(session: Session) -> None:
            await session.execute(
                "UPDATE games SET turn_time = ?, reminders = ?, bank_start = ?, bank_add = ? "
                "WHERE id = ?", (turn_time, int(reminders), bank_start, bank_add, game_id))
            if bank_start is None:
                await session.execute("UPDATE seats SET bank = NULL WHERE game_id = ?",
                                      (game_id,))
            else:
                await session.execute("UPDATE seats SET bank = ? WHERE game_id = ? AND "
                                      "bank > ?", (bank_start, game_id, bank_start))

        await self.seam.run(write, ordered=True, transaction=True)

    # -- ratings and undo requests

    async def mark_unrated(self, game_id: int, why: str) -> None:
        """The game will not count for the ratings, and why (the first reason stays)."""
        await self.seam.write("UPDATE games SET unrated = COALESCE(unrated, ?) WHERE id = ?",
                              (why, game_id))

    async def unrated(self, game_id: int) -> str | None:
        """Why the game does not count for the ratings (None: nothing says so)."""
        rows = await self.seam.rows("SELECT unrated FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def finish_game(self, game_id: int, version: int, seat: int, text: str,
                          state: str, *, users: tuple[int, ...], unrated: str | None,
                          rate: Callable[[int, list[RatingRow | None]], list[RatingRow]],
                          now: float | None = None) -> Rated | None:
        """Write the move that ends a game and, in the same transaction (so it is rated
        exactly once), what it does to the ratings; None (and nothing written) unless the
        game runs at ``version``. It counts unless marked unrated already, ``unrated`` gives
        a reason, or it was not played in a server (then that reason is stored); else
        ``rate(guild_id, before)`` turns the seats' ratings (``users``, by seat; None: no
        rated game yet), read under a lock, into their new ones."""
        now = now_or_wall(now)

        async def finish(session: Session) -> Rated | None:
            if await session.execute(MOVE_SQL, (state, seat, text, now, "over", now,
                                                game_id, version)) != 1:
                return None
            ((guild_id, game, marked),) = await session.fetch(
                "SELECT guild_id, game, unrated FROM games WHERE id = ?", (game_id,))
            why = marked or unrated or (
                None if guild_id is not None else ratings.NO_SERVER)
            if why is not None:
                await session.execute("UPDATE games SET unrated = ? WHERE id = ?",
                                      (why, game_id))
                return Rated(why)
            await session.lock(f"ratings/{guild_id}/{game}")
            before: list[RatingRow | None] = []
            for user in users:
                found = await session.fetch(f"{RATINGS} AND user_id = ?",
                                            (guild_id, game, user))
                before.append(next((RatingRow(*r) for r in found), None))
            after = rate(guild_id, before)
            await session.executemany(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, "
                "wins, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
                "(guild_id, game, user_id) DO UPDATE SET name = excluded.name, "
                "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                "wins = excluded.wins, updated = excluded.updated",
                [(r.guild_id, r.game, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins,
                  r.updated) for r in after])
            return Rated(None, tuple(before), tuple(after))

        return await self.seam.run(finish, transaction=True)

    async def ratings(self, guild_id: int, game: str) -> list[RatingRow]:
        """Every rating of a game in a server (``bot.ratings`` ranks them)."""
        return [RatingRow(*r) for r in await self.seam.rows(RATINGS, (guild_id, game))]

    async def undo(self, game_id: int) -> UndoRow | None:
        """The game's last request to take back a move (it may be answered, expired or
        moot: ``bot.undo`` says whether it still stands)."""
        rows = await self.seam.rows(UNDOS, (game_id,))
        for row in rows:
            values = dict(zip(schema.UNDOS.fields(UndoRow), row, strict=True))
            return UndoRow(**{**values, "agreed": tuple(json.loads(values["agreed"]))})
        return None

    async def put_undo(self, row: UndoRow) -> None:
        """Store the game's request, in place of any earlier one."""
        await self.seam.write(
            "INSERT INTO undos (game_id, version, seat, asked, due, agreed) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "version = excluded.version, seat = excluded.seat, asked = excluded.asked, "
            "due = excluded.due, agreed = excluded.agreed",
            (row.game_id, row.version, row.seat, row.asked, row.due,
             json.dumps(sorted(row.agreed))))

    async def drop_undo(self, game_id: int) -> None:
        """Forget the game's request (its move was taken back)."""
        await self.seam.write("DELETE FROM undos WHERE game_id = ?", (game_id,))
