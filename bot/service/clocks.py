"""Turn clocks: the waits of the awaited human seats kept in step with each table, the
table's turn time and reminders, and each player's quiet hours and time away.

Time lives in the database (the ``waits`` rows and their due moments), never only in
memory, so a restart changes nothing; the rules of time (when a reminder goes, when a turn
runs out, quiet hours) are ``bot.scheduler``'s pure functions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace

from bot import scheduler
from bot.records import PlayerRow, WaitRow
from bot.service.replies import Reply
from bot.service.table import Table, TableError
from bot.service.tables import Tables
from bot.store import Store
from bot.store.errors import StoreError

log = logging.getLogger("boardroom.service")


class Clocks:
    """The waits, the players' clock settings (read once, kept), and who is told of the
    next due moment (``on_due``: the scheduler, woken early for it)."""

    def __init__(self, store: Store, tables: Tables, *, now: Callable[[], float]) -> None:
        self.store = store
        self.tables = tables
        self.now = now
        self.on_due: Callable[[float], None] | None = None
        self._players: dict[int, PlayerRow] = {}

    async def player(self, user_id: int) -> PlayerRow:
        player = self._players.get(user_id)
        if player is None:
            player = self._players[user_id] = await self.store.player(user_id)
        return player

    async def _store_player(self, player: PlayerRow) -> None:
        await self.store.set_player(player)
        self._players[player.user_id] = player

    async def due_of(self, table: Table, wait: WaitRow) -> float | None:
        """The next moment the scheduler has something to do for ``wait``."""
        user = table.seats[wait.seat].user_id
        player = await self.player(user) if user is not None else PlayerRow(0)
        return scheduler.next_due(wait, table.turn_time, table.reminders, player)

    # -- the waits

    async def sync(self, table: Table, moved: Iterable[int] = (), *,
                   again: bool = False) -> None:
        """Keep the stored waits equal to the awaited human seats. A seat still awaited
        keeps its wait (its clock and the reminders it had) unless it just ``moved``; a
        newly awaited seat starts waiting now. With ``again``, every due moment is worked
        out anew (the settings or a player's quiet hours changed). The scheduler is told
        of the earliest one.

        A database that refuses the write now is logged and the waits are read again at
        the next change: the move that came before is committed and stays so."""
        try:
            await self._write(table, moved, again=again)
        except StoreError:
            table.waits = None
            log.warning("Could not store the waits of game %s; they are written at its next "
                        "change", table.id, exc_info=True)

    async def _write(self, table: Table, moved: Iterable[int], *, again: bool) -> None:
        if table.waits is None:
            table.waits = {w.seat: w for w in await self.store.waits(table.id)}
            again = True
        awaited = set() if table.status != "playing" else {
            s for s in table.awaited() if table.seats[s].kind == "human"}
        fresh = awaited & set(moved)
        if awaited == set(table.waits) and not fresh and not again:
            return
        now = self.now()
        waits = {}
        for seat in sorted(awaited):
            old = table.waits.get(seat)
            wait = old if old is not None and seat not in fresh else WaitRow(table.id, seat, now)
            if old is None or seat in fresh or again:
                wait = replace(wait, due=await self.due_of(table, wait))
            waits[seat] = wait
        self.store.put_waits(table.id, list(waits.values()))
        table.waits = waits
        moments = [w.due for w in waits.values() if w.due is not None]
        if moments and self.on_due is not None:
            self.on_due(min(moments))

    async def next_due(self) -> float | None:
        """The earliest moment the scheduler has something to do."""
        return await self.store.next_due()

    async def due(self, now: float, limit: int = 100) -> list[WaitRow]:
        """The waits due by ``now``, earliest first."""
        return await self.store.due_waits(now, limit)

    async def postpone(self, wait: WaitRow, moment: float) -> None:
        """Try a wait again at ``moment`` (tending it failed)."""
        await self.store.set_due(wait.game_id, wait.seat, moment)

    async def reminded(self, table: Table, wait: WaitRow) -> None:
        """A reminder for ``wait`` is about to go: recorded first (a crash then loses one
        reminder, it never sends one twice), with the wait's next due moment."""
        user_id = table.seats[wait.seat].user_id
        assert user_id is not None and table.waits is not None
        player = await self.player(user_id)
        step = scheduler.reminder_step(wait, table.turn_time, player)
        await self._store_player(replace(player, reminded=self.now()))
        wait = replace(wait, reminded=(wait.reminded if step is None else step) + 1)
        wait = replace(wait, due=await self.due_of(table, wait))
        table.waits[wait.seat] = wait
        await self.store.set_waits(table.id, list(table.waits.values()))

    async def time_left(self, table: Table, seat: int) -> float | None:
        """Seconds of the awaited ``seat``'s turn time left now (None: the table has no
        turn time, or the seat has no wait): the one place this figure is worked out (the
        daily digest shows it)."""
        wait = (table.waits or {}).get(seat)
        user = table.seats[seat].user_id
        if wait is None or user is None:
            return None
        end = scheduler.deadline(wait, table.turn_time, await self.player(user))
        return None if end is None else max(0.0, end - self.now())

    async def later(self, table: Table, wait: WaitRow) -> None:
        """Nothing was due for ``wait`` after all: store its next moment."""
        assert table.waits is not None
        wait = replace(wait, due=await self.due_of(table, wait))
        table.waits[wait.seat] = wait
        await self.store.set_due(table.id, wait.seat, wait.due)

    # -- a table's settings

    async def settings(self, channel_id: int, user_id: int, *, turn_time: str | None = None,
                       reminders: bool | None = None) -> Reply:
        """The opener sets the table's turn time ('off', '12h', '2d', '90m') and whether
        awaited players are reminded; with neither, the settings are only shown."""
        clock = None
        if turn_time is not None:
            try:
                clock = scheduler.parse_duration(turn_time)
            except ValueError as error:
                raise TableError(str(error)) from None
        async with self.tables.lock(channel_id):
            table = await self.tables.active(channel_id)
            if turn_time is None and reminders is None:
                return Reply(ephemeral=table.settings(), version=table.version, game=table.id)
            if user_id != table.opener_id:
                raise TableError(f"Only {table.opener()}, who opened this table, can change "
                                 "the table's settings.")
            new_time = clock if turn_time is not None else table.turn_time
            new_reminders = table.reminders if reminders is None else reminders
            await self.store.set_settings(table.id, new_time, new_reminders)
            table.turn_time, table.reminders = new_time, new_reminders
            await self.sync(table, again=True)
            # No game or version: this is not a move, and must not mark one delivered.
            return Reply(public=f"{table.opener()} changed the table's settings. "
                                f"{table.settings()}")

    # -- a player's quiet hours and time away

    async def quiet(self, user_id: int, start: int, end: int, timezone: str) -> str:
        """A player's quiet hours (local hours ``start`` to ``end``; equal hours: none):
        no reminders then, and their turn clock stops. At most 12 hours a day."""
        if not (0 <= start <= 23 and 0 <= end <= 23):
            raise TableError("Hours are whole numbers from 0 to 23.")
        hours = scheduler.quiet_length(start, end)
        if hours > scheduler.QUIET_CAP:
            raise TableError(f"Quiet hours are at most {scheduler.QUIET_CAP} a day; "
                             f"{start}:00 to {end}:00 is {hours}.")
        try:
            zone = scheduler.check_timezone(timezone)
        except ValueError as error:
            raise TableError(str(error)) from None
        await self._store_player(replace(await self.player(user_id), quiet_from=start,
                                         quiet_to=end, timezone=zone.key))
        await self._changed(user_id)
        if not hours:
            return "You have no quiet hours now."
        return (f"Quiet hours set: {start}:00 to {end}:00 ({zone.key}). No reminders then, "
                "and your turn clock stops (at most 12 hours a day).")

    async def away(self, user_id: int, days: int) -> str:
        """Time away from now: no reminders and no running turn clock for ``days`` days.
        At most 21 days a year."""
        now = self.now()
        left = scheduler.away_days_left(await self.player(user_id), now)
        if not 1 <= days <= 21 or days > left:
            raise TableError(f"Time away is 1 to {scheduler.AWAY_CAP} days a year; you have "
                             f"{int(left)} left.")
        await self.store.add_absence(user_id, now, now + days * scheduler.DAY)
        self._players[user_id] = await self.store.player(user_id)
        await self._changed(user_id)
        return (f"You are away for {days} day{'s' if days != 1 else ''}: no reminders, and "
                f"your turn clocks stop. ({int(left) - days} of {scheduler.AWAY_CAP} days "
                "a year left.)")

    async def refresh(self, user_id: int) -> PlayerRow:
        """Read the player's settings again (their digest changed) and work out again the
        due moments of their waits (a digest stands for some reminders)."""
        self._players[user_id] = await self.store.player(user_id)
        await self._changed(user_id)
        return self._players[user_id]

    async def _changed(self, user_id: int) -> None:
        """Work out again the due moments of the player's waits at the tables held here."""
        for table in self.tables.held():
            if table.status == "playing" and table.seat_of(user_id) is not None:
                async with self.tables.lock(table.channel_id):
                    await self.sync(table, again=True)

    async def mentionable(self, user_id: int) -> bool:
        """Whether a player whose DMs are closed may be mentioned in a channel instead
        (at most once a day); if so it is recorded now."""
        player = await self.player(user_id)
        now = self.now()
        if player.mentioned is not None and now - player.mentioned < scheduler.MENTION_GAP:
            return False
        await self._store_player(replace(player, mentioned=now))
        return True
