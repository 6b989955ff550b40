"""Looking back: a player's tables in a server (``/games``), the last moves as the caller
may see them (``/log``), what happened since a player's last move (``/since``, and under
each reminder), and the server's ratings (``/rank``). The log is replayed through the rules
(``bot.timeline``, told by ``bot.history``), never read from stored sentences."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot import history, scheduler, words
from bot.records import MoveRow, RatingRow, WaitRow
from bot.service.clocks import Clocks
from bot.service.pictures import Pictures
from bot.service.replies import Private, Reply
from bot.service.table import Table, TableError, encode
from bot.service.tables import Tables
from bot.store import Store
from bot.timeline import Timeline

log = logging.getLogger("boardroom.service")


class LookingBack:
    """``/games``, ``/log`` and ``/since``, and the digest a reminder carries."""

    def __init__(self, store: Store, tables: Tables, clocks: Clocks,
                 pictures: Pictures) -> None:
        self.store = store
        self.tables = tables
        self.clocks = clocks
        self.pictures = pictures

    async def games(self, guild_id: int, user_id: int) -> str:
        """The caller's open and running tables in a server, theirs to play first: each
        channel, game, whom it waits for, since when, and when the turn time runs out."""
        found = []
        for row, waits in await self.store.tables.tables_of(guild_id, user_id):
            async with self.tables.lock(row.channel_id):
                try:
                    table = await self.tables.active(row.channel_id)
                except TableError:
                    continue  # ended, or set aside, since the query
                if table.id == row.id:
                    found.append(await self._seated(table, user_id, waits))
        return history.games_text(found)

    async def _seated(self, table: Table, user_id: int, waits: list[WaitRow]
                      ) -> history.Seated:
        """One table as /games lists it for ``user_id``."""
        if table.status == "open":
            return history.Seated(table.channel_id, table.game.name, False,
                                  seated=table.seated())
        seat = table.seat_of(user_id)
        awaited = table.awaited()
        by_seat = {w.seat: w for w in waits}
        chosen = [by_seat[s] for s in sorted(awaited) if s in by_seat]
        if seat in by_seat and seat in awaited:
            chosen = [by_seat[seat]]
        wait = min(chosen, key=lambda w: w.since, default=None)
        deadline = None if wait is None else await self.clocks.deadline(table, wait)
        bank = None if seat is None else await self.clocks.bank_left(table, seat,
                                                                     by_seat.get(seat))
        return history.Seated(
            table.channel_id, table.game.name, True, yours=seat in awaited,
            waiting=tuple(table.label(s) for s in sorted(awaited) if s != seat),
            since=None if wait is None else wait.since, deadline=deadline,
            bank=None if bank is None else scheduler.remaining(bank))

    async def ratings(self, guild_id: int, game_id: str) -> list[RatingRow]:
        """The server's ratings at a game, best first (``/rank``)."""
        return await self.store.tables.ratings(guild_id, game_id)

    async def log(self, channel_id: int, user_id: int, count: int = history.LOG_COUNT
                  ) -> Reply:
        """The channel's last ``count`` moves as the caller may see them (a seated player
        also reads their own private events; anyone else the public ones), in
        ``ephemeral``: the caller's private lines must never reach the channel. Up to
        ``history.LOG_PAGES`` messages long (``history.pages``)."""
        if not 1 <= count <= history.LOG_MOST:
            raise TableError(words.say("looking_back.log_count", most=history.LOG_MOST))
        async with self.tables.lock(channel_id):
            table = await self.tables.latest(channel_id)
            if table.state is None or table.seed is None:
                raise TableError(words.say("looking_back.no_moves"))
            past = await self._looked_back(table, await self.store.tables.moves(table.id))
            text = history.log_text(past, table.seat_of(user_id), count=count,
                                    labels=table.labels(), annotate=table.annotate,
                                    messages=history.LOG_PAGES)
            return Reply(ephemeral=text, version=table.version, game=table.id,
                         over=table.over())

    async def since(self, channel_id: int, user_id: int) -> Reply:
        """What happened since the caller's last move, from their own view (the moves,
        what was revealed to them, how the points changed, their hand now): ``ephemeral``
        text, and their picture in ``private`` (for the same ephemeral answer, not a DM)."""
        async with self.tables.lock(channel_id):
            table = await self.tables.latest(channel_id)
            seat = table.seat_for(user_id, "looking_back.no_seat")
            if table.state is None:
                raise TableError(words.say("looking_back.nothing_yet"))
            text = await self.digest(table, seat)
            (picture,) = await self.pictures.draw(table.game.id, [table.shown_to(seat)])
            return Reply(ephemeral=text, private=(Private(user_id, text, picture),),
                         version=table.version, game=table.id, over=table.over())

    async def digest(self, table: Table, seat: int, limit: int = history.LIMIT) -> str:
        """``history.digest`` for a seat of a running or finished table."""
        return (await self.since_lines(table, seat))(limit)

    async def since_lines(self, table: Table, seat: int) -> Callable[[int], str]:
        """``digest`` at any length: the moves are read and replayed once, and each call
        fits the text to the length it is given (the daily digest shares its room)."""
        moves = await self.store.tables.moves(table.id)
        mark = history.last_move(moves, seat)
        past = await self._looked_back(table, moves)
        state, labels = table.state, table.labels()
        names = [table.shown(n) for n in table.names()]

        def lines(limit: int) -> str:
            return history.digest(past, seat, state, mark=mark, labels=labels, names=names,
                                  annotate=table.annotate, limit=limit)
        return lines

    async def with_digest(self, table: Table, seat: int, text: str) -> str:
        """``text`` (a reminder), and under it the digest of what happened since the
        player's last move, shortened to fit one message. A digest that cannot be made is
        logged and left out: the reminder goes anyway."""
        try:
            return f"{text}\n\n" + await self.digest(table, seat, history.LIMIT - len(text) - 2)
        except Exception:
            log.exception("Could not make the digest for a reminder in game %s", table.id)
            return text

    async def _looked_back(self, table: Table, moves: list[MoveRow]) -> Timeline:
        """The table's moves replayed (a ``Timeline``, in a thread: a long game takes a few
        hundred milliseconds, and the daily digest replays several). If the replay ends
        elsewhere than the stored state (the rules changed), none of its events are
        trusted."""
        assert table.seed is not None
        past = await asyncio.to_thread(Timeline, table.game, len(table.seats), table.seed,
                                       table.options, moves)
        if past.lost:
            log.warning("Game %s: move %s no longer replays; later moves are listed without "
                        "their events", table.id, past.lost[0].version)
        elif encode(table.game, past.final) != encode(table.game, table.state):
            log.warning("Game %s: its replay differs from the stored state; its moves are "
                        "listed without their events", table.id)
            past = Timeline.untrusted(table.game, len(table.seats), table.seed, table.options,
                                      moves)
        return past
