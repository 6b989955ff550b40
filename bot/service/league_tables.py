"""A league's tables as tables (``Boards``): a round's table opened, seated, set to the
league's clock and dealt in its own channel (a thread); its outcome read at the end; played
out by the computer at the deadline; a withdrawn player's seat handed over; its clock
stopped for a pause and started again.

A table's seats are the round's entries in order, except that a withdrawn entry's seat is
a computer player (the stand-in) and the first seat goes to a member (a table is opened by
a member who sits first): the seats turn until a member's comes first.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import rules
from bot import scheduler, words
from bot.leagues import League
from bot.records import BoardRow, LeagueRow
from bot.service.clocks import Clocks
from bot.service.replies import Reply
from bot.service.seats import Seats
from bot.service.table import TableError, decode
from bot.service.tables import Tables
from bot.store import Store

Delivered = list[tuple[int, Reply]]  # replies for the surface to deliver, by channel
CLOCK = ("turn_time", "clock", "bank", "add")  # a league's table settings besides options


@dataclass(frozen=True)
class Board:
    """A table of a league's round to open: its entries in seat order, who holds each
    seat (None: the stand-in), their names, and what the league fixes for it; ``thread``:
    the thread a process made for it before it stopped, the table not yet open there."""

    league_id: int
    round: int
    number: int
    entries: tuple[int, ...]
    members: tuple[int | None, ...]
    names: tuple[str, ...]
    game: str
    table: Mapping[str, Any]
    thread: int | None = None

    def title(self) -> str:
        """The thread's name: the league, the round and the players (at most 100)."""
        return words.say("leagues.thread", game=rules.GAMES[self.game].name,
                         league=self.league_id, round=self.round,
                         players=", ".join(self.names))[:100]


@dataclass(frozen=True)
class Outcome:
    """How a league table ended: by its rules (``outcome``), or with /game end (None)."""

    outcome: rules.Outcome | None


class Boards:
    """League tables opened and tended through the table service's own objects."""

    def __init__(self, store: Store, tables: Tables, seats: Seats, clocks: Clocks, *,
                 now: Callable[[], float]) -> None:
        self.store = store
        self.tables = tables
        self.seats = seats
        self.clocks = clocks
        self.now = now

    def board(self, row: LeagueRow, league: League, names: Mapping[int, str], round_: int,
              number: int, entries: Sequence[int], table: Mapping[str, Any],
              thread: int | None = None) -> Board:
        """The board of ``entries``, its seats turned so that a member sits first."""
        members = [None if _stood_in(league, e, round_) else league.entries[e].member
                   for e in entries]
        first = next((i for i, m in enumerate(members) if m is not None), 0)
        order = [*range(first, len(entries)), *range(first)]
        seated = tuple(members[i] for i in order)
        shown = tuple(names.get(m, "?") if m is not None else
                      names.get(league.entries[entries[i]].member, "?")
                      for i, m in zip(order, seated, strict=True))
        return Board(row.id, round_, number, tuple(entries[i] for i in order), seated,
                     shown, row.game, table, thread)

    async def threaded(self, board: Board, channel_id: int) -> None:
        """The claimed table's thread is made: kept, so that a process claiming the table
        after this one stopped opens it there (``Board.thread``)."""
        await self.store.leagues.threaded(board.league_id, board.round, board.number,
                                          channel_id)

    async def open(self, board: Board, channel_id: int, guild_id: int) -> Reply:
        """Open, seat, set the clock and deal in ``channel_id``: the start's reply."""
        opener = board.members[0]
        if opener is None:
            raise TableError(words.say("leagues.not_running", league=board.league_id))
        await self.seats.open(channel_id, guild_id, opener, board.names[0], board.game,
                              dict(board.table.get("options") or {}))
        for member, name in zip(board.members[1:], board.names[1:], strict=True):
            if member is None:
                await self.seats.add_computer(channel_id, opener)
            else:
                await self.seats.join(channel_id, member, name)
        clock = {k: board.table.get(k) for k in CLOCK}
        if any(v is not None for v in clock.values()):
            await self.clocks.settings(channel_id, opener, **clock)
        reply = await self.seats.start(channel_id, opener, seed=secrets.randbelow(2**63))
        await self.store.leagues.opened(board.league_id, board.round, board.number,
                                        channel_id, reply.game, json.dumps(board.entries))
        return reply

    async def outcome(self, game_id: int) -> Outcome | None:
        """How the game ended (None while it is open or running)."""
        row = await self.store.tables.game(game_id)
        if row is None or row.status not in ("over", "ended"):
            return None
        if row.status == "ended" or row.state is None:
            return Outcome(None)
        game = rules.GAMES[row.game]
        return Outcome(game.outcome(decode(game, row.state)))

    async def play_out(self, board: BoardRow) -> Delivered:
        """The deadline's stand-in: every member's seat is handed to the computer, which
        plays the game to its end at once."""
        out: Delivered = []
        for seat in await self._humans(board):
            out += await self._hand(board, seat)
        return out

    async def hand_over(self, board: BoardRow, member: int) -> Delivered:
        """A withdrawn member's seat at a running table goes to the computer."""
        return await self._hand(board, member) if member in await self._humans(board) else []

    async def _humans(self, board: BoardRow) -> list[int]:
        if board.game_id is None:
            return []
        row = await self.store.tables.game(board.game_id)
        if row is None or row.status != "playing":
            return []
        return [s.user_id for s in await self.store.seats.of(board.game_id)
                if s.kind == "human" and s.user_id is not None]

    async def _hand(self, board: BoardRow, member: int) -> Delivered:
        assert board.channel_id is not None
        try:
            reply = await self.seats.replace(board.channel_id, 0, member, moderator=True)
        except TableError:  # it ended meanwhile
            return []
        return [(board.channel_id, reply)]

    # -- a pause

    async def stop_clock(self, board: BoardRow) -> dict[str, Any] | None:
        """Stop the table's clock: each wait charged up to now and then still, the table
        without a clock or reminders; what to restore (None: not running)."""
        if board.channel_id is None:
            return None
        now = self.now()
        async with self.tables.lock(board.channel_id):
            try:
                table = await self.tables.running(board.channel_id)
            except TableError:
                return None
            if table.id != board.game_id:
                return None
            if table.waits is None:
                table.waits = {w.seat: w for w in await self.store.jobs.waits(table.id)}
            kept = {"turn_time": table.turn_time, "reminders": table.reminders,
                    "bank_start": table.bank_start, "bank_add": table.bank_add,
                    "banks": {str(s.seat): s.bank for s in table.seats}}
            waits = {seat: replace(scheduler.rebased(
                wait, now, await self.clocks.player_at(table, seat)), due=None)
                for seat, wait in table.waits.items()}
            await self.store.tables.set_settings(table.id, None, False, None, 0.0)
            table.turn_time, table.reminders = None, False
            table.bank_start, table.bank_add = None, 0.0
            await self.store.jobs.set_waits(table.id, list(waits.values()))
            table.waits = waits
            return kept

    async def start_clock(self, game_id: int, kept: Mapping[str, Any]) -> None:
        """Start a paused table's clock again from now, with what it had used before."""
        row = await self.store.tables.game(game_id)
        if row is None or row.status != "playing":
            return
        now = self.now()
        async with self.tables.lock(row.channel_id):
            table = await self.tables.running(row.channel_id)
            await self.store.tables.set_settings(game_id, kept["turn_time"], kept["reminders"],
                                                 kept["bank_start"], kept["bank_add"])
            table.turn_time, table.reminders = kept["turn_time"], kept["reminders"]
            table.bank_start, table.bank_add = kept["bank_start"], kept["bank_add"]
            banks = {int(s): b for s, b in kept["banks"].items()}
            table.seats = [replace(s, bank=banks.get(s.seat)) for s in table.seats]
            waits = [replace(w, mark=now) for w in await self.store.jobs.waits(game_id)]
            await self.store.jobs.set_waits(game_id, waits, banks)
            table.waits = None
            await self.clocks.sync(table, again=True)


def _stood_in(league: League, entry: int, round_: int) -> bool:
    held = league.entries[entry]
    return held.withdrawn is not None and held.withdrawn <= round_ and held.after == "stand-in"
