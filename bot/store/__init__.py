"""Storage for tables (games, seats, the append-only move log, waits, players, ratings,
undo requests) in a SQLite file or on a PostgreSQL server: ``Store``, written once for both
(``bot.store.engine`` says what each engine supplies and holds the migrations).

A move is one ``UPDATE`` of its game's row (the new state, ``version + 1``, the move in
``last_seat``/``last_text``) that only matches while the row holds the version the move was
computed from; a trigger logs the move in ``moves`` inside that statement.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast

from bot.records import GameRow, MoveRow, Rated, RatingRow, SeatRow, UndoRow, WaitRow
from bot.store.engine import (
    CLAIM,
    FLUSH_DELAY,
    MOVE_SQL,
    WAIT_SQL,
    Engine,
    Jobs,
    Marks,
    Move,
    Moves,
    Session,
    wait_values,
)
from bot.store.errors import ChannelBusy, SeatTaken, StoreError
from bot.store.players import Players
from bot.store.rows import GAME_COLUMNS, GAMES, RATINGS, WAITS, game_row, placeholders
from bot.store.sqlite import SQLite, default_path

if TYPE_CHECKING:
    import aiosqlite
    import asyncpg

    from bot.store.postgres import Postgres

SYNC_VAR = "BOARDROOM_DB_SYNC"
SCHEMES = ("postgresql://", "postgres://")  # a location that names a PostgreSQL database
# Statuses: 'open' (seats being taken), 'playing', 'over' (the rules ended it) and 'ended'
# (stopped by the opener or a moderator). Only open and playing tables hold their channel.
ACTIVE = ("open", "playing")

def is_postgres(where: str) -> bool:
    """Whether ``BOARDROOM_DB`` (or a ``--db``) names a PostgreSQL database."""
    return where.lower().startswith(SCHEMES)


def _clock(now: float | None) -> float:
    """The service's clock passes the time down; a tool or a store test gets the wall's."""
    return time.time() if now is None else now


class Store(Players):
    """The database. Open with ``await Store.open(where)``; close with ``await store.close()``.
    Every access is a job (``bot.store.engine.Jobs``)."""

    def __init__(self, engine: Engine, path: str, *, flush_delay: float = FLUSH_DELAY
                 ) -> None:
        self.engine = engine
        self.path = path  # where the tables are: a file path or a database URL, as given
        self._jobs = Jobs(engine)
        self._moves = Moves(self._jobs)
        self._marks = Marks(self._jobs, flush_delay)
        self._closed = False

    @classmethod
    async def open(cls, where: str | None = None, *, synchronous: str | None = None,
                   flush_delay: float = FLUSH_DELAY) -> Store:
        """Open (creating or upgrading) the tables at ``where`` (else ``$BOARDROOM_DB``,
        else ``boardroom.db``): on the PostgreSQL server a ``postgresql://`` or
        ``postgres://`` URL names, else in that SQLite file; ``StoreError`` says why not.
        ``synchronous`` (else ``$BOARDROOM_DB_SYNC``, else NORMAL): with NORMAL a committed
        move survives any crash of the process; FULL a power cut too, at a lower rate.
        ``flush_delay``: seconds a delivered mark or a wait may wait to be written with
        others (tests that step through time at once take 0)."""
        synchronous = (synchronous or os.environ.get(SYNC_VAR) or "NORMAL").upper()
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"{SYNC_VAR} must be FULL or NORMAL, not {synchronous!r}.")
        where = where or default_path()
        engine: Engine
        if is_postgres(where):
            from bot.store.postgres import Postgres  # asyncpg is imported where it is used

            engine = await Postgres.open(where, synchronous)
        else:
            engine = await SQLite.open(where, synchronous)
        return cls(engine, where, flush_delay=flush_delay)

    @property
    def db(self) -> aiosqlite.Connection:  # for tests and tools (AttributeError on PostgreSQL)
        return cast(SQLite, self.engine).db

    @property
    def pool(self) -> asyncpg.Pool[asyncpg.Record]:  # likewise (AttributeError on SQLite)
        return cast("Postgres", self.engine).pool

    async def close(self) -> None:
        if self._closed:
            return
        await self._moves.close()
        await self._marks.close()
        self._closed = True
        async with self._jobs.lock:  # after the jobs waiting for it (their callers may be gone)
            await self.engine.close()

    async def backup(self, target: str) -> None:
        """A consistent copy of the database in the file ``target`` (replaced if it exists),
        made while the bot's writes go on (SQLite's online backup); on PostgreSQL,
        ``StoreError`` says to use ``pg_dump``."""
        await self._marks.flush_quietly()  # the copy holds every mark made so far
        await self.engine.backup(target)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        """For tests and tools: a write transaction on the engine's own connection, which
        it yields (with the engine's own marks); no batch of moves, marks or waits (on
        SQLite, no statement at all) of this store runs until it ends."""
        async with self._jobs.lock, self.engine.transaction() as db:
            yield db

    async def _rows(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        if self._marks.delivered or self._marks.waits:
            await self._marks.flush_quietly()  # reads see every delivered mark made so far
        return await self._jobs.run(lambda session: session.fetch(sql, parameters))

    async def _write(self, sql: str, parameters: tuple[Any, ...] = ()) -> int:
        """One statement, its own transaction; how many rows it changed."""
        return await self._jobs.run(lambda session: session.execute(sql, parameters))

    async def _games(self, where: str, parameters: tuple[Any, ...] = ()) -> list[GameRow]:
        rows = await self._rows(f"{GAMES} WHERE {where}", parameters)
        return [game_row(row) for row in rows]

    async def _game(self, where: str, parameters: tuple[Any, ...]) -> GameRow | None:
        rows = await self._rows(f"{GAMES} WHERE {where}", parameters)
        return game_row(rows[0]) if rows else None

    # -- tables

    async def create_game(self, channel_id: int, guild_id: int | None, game: str,
                          options: dict[str, Any], opener_id: int, opener_name: str, *,
                          now: float | None = None) -> GameRow:
        """A new open table with the opener in seat 0; ``ChannelBusy`` if one is active."""
        now = _clock(now)

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
            rows = await self._jobs.run(create, transaction=True)
        except self.engine.integrity as error:
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

    async def unannounced(self) -> list[GameRow]:
        """Tables whose latest state version has not been announced yet, or whose end
        (/game end) has not been told (the outbox)."""
        return await self._games("(announced < version AND status IN ('playing', 'over', "
                                 "'ended')) OR end_note IS NOT NULL ORDER BY id")

    async def posted(self, game_id: int) -> set[int]:
        """The game's versions posted beyond ``announced`` (one before them was not, yet)."""
        rows = await self._rows(
            "SELECT p.version FROM posted p JOIN games g ON g.id = p.game_id "
            "WHERE p.game_id = ? AND p.version > g.announced", (game_id,))
        return {r[0] for r in rows}

    async def turn_message(self, game_id: int) -> tuple[int, int] | None:
        """The game's live turn message in its channel, and the first version it tells
        of; None before the first is posted."""
        rows = await self._rows(
            "SELECT message_id, since FROM turn_messages WHERE game_id = ?", (game_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    async def set_turn_message(self, game_id: int, message_id: int, since: int) -> None:
        """A new turn message tells of the game's turn from version ``since`` on."""
        await self._write(
            "INSERT INTO turn_messages (game_id, message_id, since) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id, "
            "since = excluded.since", (game_id, message_id, since))

    async def set_aside(self, game_id: int, why: str, *, now: float | None = None) -> None:
        """Put aside a table whose row cannot be read: it keeps its rows and log, says
        ``why`` in ``damaged``, frees its channel ('ended') and leaves the outbox."""
        now = _clock(now)
        await self._write(
            "UPDATE games SET damaged = ?, announced = version, updated = ?, "
            "finished = COALESCE(finished, ?), status = CASE WHEN status IN "
            "('open', 'playing') THEN 'ended' ELSE status END WHERE id = ?",
            (why[:500] or "unreadable", now, now, game_id))

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._rows(
            "SELECT seat, user_id, name, kind, level, handed, former, bank FROM seats "
            "WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow(*r) for r in rows]

    async def add_seat(self, game_id: int, seat: int, user_id: int | None, name: str,
                       kind: str, level: str | None = None) -> None:
        """Take a seat at an open table; ``SeatTaken`` if the user or the seat is taken."""
        try:
            await self._write(
                "INSERT INTO seats (game_id, seat, user_id, name, kind, level) "
                "VALUES (?, ?, ?, ?, ?, ?)", (game_id, seat, user_id, name, kind, level))
        except self.engine.integrity as error:
            raise SeatTaken(str(error)) from error

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Free a seat before the start; later seats move up so seats stay 0..n-1."""

        async def remove(session: Session) -> None:
            await session.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?",
                                  (game_id, seat))
            # Two steps so the primary key never sees two rows with one seat number.
            await session.execute("UPDATE seats SET seat = -seat WHERE game_id = ? "
                                  "AND seat > ?", (game_id, seat))
            await session.execute("UPDATE seats SET seat = -seat - 1 WHERE game_id = ? "
                                  "AND seat < 0", (game_id,))

        await self._jobs.run(remove, transaction=True)

    async def start_game(self, game_id: int, seed: int, state: str, *,
                         salt: str | None = None, commitment: str | None = None,
                         now: float | None = None) -> bool:
        """Store the first state (version 1) of an open table, with the salt and the
        commitment to its seed (``bot.fairness``); False if it is not open."""
        now = _clock(now)
        return await self._write(
            "UPDATE games SET status = 'playing', seed = ?, state = ?, version = 1, "
            "last_seat = NULL, last_text = NULL, started = ?, updated = ?, salt = ?, "
            "commitment = ? WHERE id = ? AND status = 'open' AND version = 0",
            (seed, state, now, now, salt, commitment, game_id)) == 1

    async def commit_move(self, game_id: int, version: int, seat: int, text: str, state: str,
                          *, over: bool = False, now: float | None = None) -> bool:
        """Store the state a move made from ``version`` and log the move, atomically (with
        other games' moves waiting at the same time: ``engine.Moves``); False (and nothing
        written) unless the game is running at exactly ``version``."""
        now = _clock(now)
        move: Move = (game_id, state, seat, text, now, "over" if over else "playing",
                      now if over else None, version)
        return await self._moves.commit(move)

    async def end_game(self, game_id: int, *, now: float | None = None, note: str | None = None
                       ) -> bool:
        """Stop an open or running table, keeping ``note`` (what tells the channel) until
        ``told_end``; False if it was no longer active."""
        now = _clock(now)
        return await self._write(
            "UPDATE games SET status = 'ended', finished = ?, updated = ?, end_note = ? "
            "WHERE id = ? AND status IN ('open', 'playing')", (now, now, note, game_id)) == 1

    async def end_note(self, game_id: int) -> str | None:
        """The end notice of a game ended with /game end, until its channel is told."""
        rows = await self._rows("SELECT end_note FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def cited(self, game_id: int) -> dict[str, int]:
        """The guide topics the game's lines have named, each with the version whose reply
        first named it (``cite``)."""
        rows = await self._rows("SELECT cited FROM games WHERE id = ?", (game_id,))
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
            await self._write("UPDATE games SET cited = cited || ? WHERE id = ?",
                              ("".join(f",{key}:{version}" for key in sorted(keys)),
                               game_id))

    async def told_end(self, game_id: int) -> None:
        await self._write("UPDATE games SET end_note = NULL WHERE id = ?", (game_id,))

    def put_waits(self, game_id: int, waits: list[WaitRow]) -> None:
        """The game's awaited seats are exactly ``waits`` now: written with the delivered
        marks, so a move costs no transaction of its own for them. A crash in between
        loses the change; at start-up the service makes the waits match again."""
        self._marks.put_waits(game_id, waits)

    def mark_delivered(self, game_id: int, version: int) -> None:
        """The game's ``version`` was posted (that version alone: one before it may be on
        its way still, or lost with a process that stopped); ``announced`` moves up over
        every version posted without a gap. Written in batches (``engine.Marks``): a crash in
        between means a reply is posted twice after the restart, never that one is lost."""
        self._marks.deliver(game_id, version)

    async def flush(self) -> None:
        """Write the delivered marks and waits held in memory, in one transaction (kept
        for later if the database refuses them now: ``StoreUnavailable``)."""
        await self._marks.flush()

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._rows(
            "SELECT version, seat, text, time FROM moves WHERE game_id = ? ORDER BY version",
            (game_id,))
        return [MoveRow(*r) for r in rows]

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

        await self._jobs.run(write, ordered=True, transaction=True)

    async def hand_seat(self, game_id: int, seat: SeatRow) -> None:
        """A seat of a running game changes hands (resigned, or replaced): the row as given."""
        try:
            await self._write(
                "UPDATE seats SET user_id = ?, name = ?, kind = ?, level = ?, handed = ?, "
                "former = ? WHERE game_id = ? AND seat = ?",
                (seat.user_id, seat.name, seat.kind, seat.level, seat.handed, seat.former,
                 game_id, seat.seat))
        except self.engine.integrity as error:
            raise SeatTaken(str(error)) from error

    # -- waits (the scheduler's durable deadlines), players, looking back, ratings, undo

    async def waits(self, game_id: int) -> list[WaitRow]:
        rows = await self._rows(f"{WAITS} WHERE game_id = ? ORDER BY seat", (game_id,))
        return [WaitRow(*r) for r in rows]

    async def set_waits(self, game_id: int, waits: list[WaitRow],
                        banks: dict[int, float] | None = None) -> None:
        """The game's awaited seats are exactly ``waits`` now, and its seats' time banks
        ``banks`` (seat -> seconds), in one transaction."""
        self._marks.waits.pop(game_id, None)  # this list is newer than one not yet written
        rows = [wait_values(w) for w in waits]
        keep = tuple(w.seat for w in waits)
        others = f" AND seat NOT IN ({placeholders(keep)})" if keep else ""

        async def write(session: Session) -> None:
            await session.execute(f"DELETE FROM waits WHERE game_id = ?{others}",
                                  (game_id, *keep))
            await session.executemany(WAIT_SQL, rows)
            if banks:
                await session.executemany(
                    "UPDATE seats SET bank = ? WHERE game_id = ? AND seat = ?",
                    [(bank, game_id, seat) for seat, bank in banks.items()])

        await self._jobs.run(write, ordered=True, transaction=True)

    async def set_due(self, game_id: int, seat: int, due: float | None) -> None:
        if self._marks.waits:
            await self._marks.flush_quietly()  # the row to change is the latest one
        await self._jobs.run(lambda session: session.execute(
            "UPDATE waits SET due = ? WHERE game_id = ? AND seat = ?", (due, game_id, seat)),
            ordered=True)

    async def rebase_waits(self, waits: list[WaitRow]) -> None:
        """Store how long each wait's clock had run by its mark (``WaitRow.ran``, ``mark``)."""
        if not waits:
            return
        if self._marks.waits:
            await self._marks.flush_quietly()  # the rows to change are the latest ones
        await self._jobs.run(lambda session: session.executemany(
            "UPDATE waits SET ran = ?, mark = ? WHERE game_id = ? AND seat = ?",
            [(w.ran, w.mark, w.game_id, w.seat) for w in waits]), ordered=True)

    async def next_due(self) -> float | None:
        """The earliest moment something is due for any wait (the index answers it)."""
        rows = await self._rows("SELECT MIN(due) FROM waits WHERE due IS NOT NULL")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def due_waits(self, now: float, limit: int = 100) -> list[WaitRow]:
        """The waits due by ``now``, earliest first (through the index), claimed for this
        process: in the same transaction their ``due`` moves to ``now + CLAIM``, so that
        another process does not get them too. Each comes back with the moment it was due."""
        await self._marks.flush_quietly()  # the rows to claim are the latest ones
        rows = await self._jobs.run(
            lambda session: self.engine.claim(session, now, limit, now + CLAIM),
            ordered=True, transaction=True)
        return sorted((WaitRow(*r) for r in rows),
                      key=lambda w: (w.due or 0.0, w.game_id, w.seat))

    async def waiting_for(self, user_id: int) -> list[tuple[GameRow, WaitRow]]:
        """The running tables of every server that wait for ``user_id`` (a wait of a seat
        they hold), each with that wait, longest waiting first (through ``seats_by_user``)."""
        rows = await self._rows(
            f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS.split(', '))}, w.game_id, "
            "w.seat, w.since, w.reminded, w.due, w.ran, w.mark FROM seats s JOIN waits w ON "
            "w.game_id = s.game_id AND w.seat = s.seat JOIN games g ON g.id = s.game_id WHERE "
            "s.user_id = ? AND g.status = 'playing' ORDER BY w.since, g.id", (user_id,))
        return [(game_row(r), WaitRow(*r[-7:])) for r in rows]

    async def tables_of(self, guild_id: int, user_id: int
                        ) -> list[tuple[GameRow, list[WaitRow]]]:
        """The open and running tables of a server where ``user_id`` has a seat, each with
        its waits (``/games``), read through the index of active tables alone."""
        rows = [game_row(r) for r in await self._rows(
            f"SELECT {GAME_COLUMNS} FROM {self.engine.active_games} "
            "WHERE status IN ('open', 'playing') AND guild_id = ? AND EXISTS (SELECT 1 "
            "FROM seats WHERE seats.game_id = games.id AND seats.user_id = ?) ORDER BY id",
            (guild_id, user_id))]
        if not rows:
            return []
        ids = tuple(row.id for row in rows)
        waits: dict[int, list[WaitRow]] = {row.id: [] for row in rows}
        for found in await self._rows(
                f"{WAITS} WHERE game_id IN ({placeholders(ids)}) ORDER BY game_id, seat", ids):
            waits[found[0]].append(WaitRow(*found))
        return [(row, waits[row.id]) for row in rows]

    async def mark_unrated(self, game_id: int, why: str) -> None:
        """The game will not count for the ratings, and why (the first reason stays)."""
        await self._write("UPDATE games SET unrated = COALESCE(unrated, ?) WHERE id = ?",
                          (why, game_id))

    async def unrated(self, game_id: int) -> str | None:
        """Why the game does not count for the ratings (None: nothing says so)."""
        rows = await self._rows("SELECT unrated FROM games WHERE id = ?", (game_id,))
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
        now = _clock(now)

        async def finish(session: Session) -> Rated | None:
            if await session.execute(MOVE_SQL, (state, seat, text, now, "over", now,
                                                game_id, version)) != 1:
                return None
            ((guild_id, game, marked),) = await session.fetch(
                "SELECT guild_id, game, unrated FROM games WHERE id = ?", (game_id,))
            why = marked or unrated or (
                None if guild_id is not None else "it was not played in a server")
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

        return await self._jobs.run(finish, transaction=True)

    async def ratings(self, guild_id: int, game: str) -> list[RatingRow]:
        """Every rating of a game in a server (``bot.ratings`` ranks them)."""
        return [RatingRow(*r) for r in await self._rows(RATINGS, (guild_id, game))]

    async def undo(self, game_id: int) -> UndoRow | None:
        """The game's last request to take back a move (it may be answered, expired or
        moot: ``bot.undo`` says whether it still stands)."""
        rows = await self._rows(
            "SELECT game_id, version, seat, asked, due, agreed FROM undos WHERE game_id = ?",
            (game_id,))
        return next((UndoRow(r[0], r[1], r[2], r[3], r[4], tuple(json.loads(r[5])))
                     for r in rows), None)

    async def put_undo(self, row: UndoRow) -> None:
        """Store the game's request, in place of any earlier one."""
        await self._write(
            "INSERT INTO undos (game_id, version, seat, asked, due, agreed) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "version = excluded.version, seat = excluded.seat, asked = excluded.asked, "
            "due = excluded.due, agreed = excluded.agreed",
            (row.game_id, row.version, row.seat, row.asked, row.due,
             json.dumps(sorted(row.agreed))))

    async def drop_undo(self, game_id: int) -> None:
        """Forget the game's request (its move was taken back)."""
        await self._write("DELETE FROM undos WHERE game_id = ?", (game_id,))
