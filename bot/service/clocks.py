"""Turn clocks: the waits of the awaited human seats kept in step with each table, the
table's turn time and reminders, and each player's quiet hours and time away.

Time lives in the database (the waits: jobs of kind 'wait', and their due moments), never
only in memory, so a restart changes nothing; the rules of time (turn time, time banks,
when a reminder goes, when a turn runs out, quiet hours, time away) are ``bot.scheduler``'s
pure functions, which this module applies to the tables and players it holds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace

import rules
from bot import scheduler, words
from bot.records import Job, PlayerRow, WaitRow
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
            player = self._players[user_id] = await self.store.members.player(user_id)
        return player

    async def _store_player(self, player: PlayerRow) -> None:
        await self.store.members.set_player(player)
        self._players[player.user_id] = player

    async def due_of(self, table: Table, wait: WaitRow) -> float | None:
        """The next moment the scheduler has something to do for ``wait``."""
        player = await self.player_at(table, wait.seat)
        return scheduler.next_due(wait, table.allowance(wait.seat), table.reminders, player)

    async def player_at(self, table: Table, seat: int) -> PlayerRow:
        """The clock settings of the player at ``seat`` (none for a computer's seat)."""
        user = table.seats[seat].user_id
        return await self.player(user) if user is not None else PlayerRow(0)

    async def deadline(self, table: Table, wait: WaitRow) -> float | None:
        """When ``wait``'s turn runs out (None: no limit)."""
        return scheduler.deadline(wait, table.allowance(wait.seat),
                                  await self.player_at(table, wait.seat))

    async def bank_left(self, table: Table, seat: int, wait: WaitRow | None
                        ) -> float | None:
        """A seat's time bank now (None: the table has no bank): less what the clock of
        its ``wait`` (if it is awaited) has used."""
        return scheduler.bank_left(table.clock, table.seats[seat].bank, wait, self.now(),
                                   await self.player_at(table, seat))

    async def banks(self, table: Table) -> str:
        """'Time banks: Red (Ann) 2d 4h, running; Blue (Bob) 3d.' ('' without a bank)."""
        if not table.banked() or table.status != "playing":
            return ""
        if table.waits is None:
            await self.sync(table)
        parts = []
        for row in table.seats:
            if row.kind != "human":
                continue
            left = await self.bank_left(table, row.seat, (table.waits or {}).get(row.seat))
            assert left is not None
            seat, shown = table.label(row.seat), scheduler.remaining(left)
            parts.append(words.say("clocks.bank_running", player=seat, left=shown)
                         if row.seat in (table.waits or {})
                         else words.say("clocks.bank", player=seat, left=shown))
        return words.say("clocks.banks", banks="; ".join(parts)) if parts else ""

    async def _spent(self, table: Table, wait: WaitRow, now: float, *, moved: bool) -> float:
        """A wait ends: its seat's bank less the clock time it used and, if the seat moved
        to end it, with the per-turn amount back (``scheduler.banked``); kept in the
        table's seats, and returned to be stored with the waits."""
        used = scheduler.used(wait, now, await self.player_at(table, wait.seat))
        bank = scheduler.spent(table.clock, table.seats[wait.seat].bank, used, moved)
        table.seats[wait.seat] = replace(table.seats[wait.seat], bank=bank)
        return bank

    # -- the waits

    async def sync(self, table: Table, moved: Iterable[int] = (), *,
                   steady: Iterable[int] = (), again: bool = False) -> None:
        """Keep the stored waits equal to the awaited human seats. A seat still awaited
        keeps its wait (its clock and the reminders it had) unless it just ``moved``; a
        newly awaited seat starts waiting now. With a time bank, a seat that moved but
        stayed awaited all through (``steady``: a step within its turn) keeps its wait too,
        and each wait that ends is taken from the seat's bank. With ``again``, every due
        moment is worked out anew (the settings or a player's quiet hours changed). The
        scheduler is told of the earliest one.

        A database that refuses the write now is logged and the waits are read again at
        the next change: the move that came before is committed and stays so."""
        try:
            await self._write(table, set(moved), set(steady), again=again)
        except StoreError:
            table.waits = None
            log.warning("Could not store the waits of game %s; they are written at its next "
                        "change", table.id, exc_info=True)

    async def _write(self, table: Table, moved: set[int], steady: set[int], *,
                     again: bool) -> None:
        if table.waits is None:
            table.waits = {w.seat: w for w in await self.store.jobs.waits(table.id)}
            again = True
        awaited = set() if table.status != "playing" else {
            s for s in table.awaited() if table.seats[s].kind == "human"}
        fresh = (awaited & moved) - (steady if table.banked() else set())
        if awaited == set(table.waits) and not fresh and not again:
            return
        now = self.now()
        banks = {seat: await self._spent(table, ended, now, moved=seat in moved)
                 for seat, ended in table.waits.items()
                 if table.banked() and (seat not in awaited or seat in fresh)}
        waits = {}
        for seat in sorted(awaited):
            old = table.waits.get(seat)
            wait = old if old is not None and seat not in fresh else WaitRow(table.id, seat, now)
            if old is None or seat in fresh or again:
                wait = replace(wait, due=await self.due_of(table, wait))
            waits[seat] = wait
        if banks:  # the banks and the waits that spent them in one transaction: a wait
            # read again (a restart, another process) is never charged twice
            await self.store.jobs.set_waits(table.id, list(waits.values()), banks)
        else:
            self.store.jobs.put_waits(table.id, list(waits.values()))
        table.waits = waits
        moments = [w.due for w in waits.values() if w.due is not None]
        if moments and self.on_due is not None:
            self.on_due(min(moments))

    async def reminded(self, table: Table, wait: WaitRow) -> None:
        """A reminder for ``wait`` is about to go: recorded first (a crash then loses one
        reminder, it never sends one twice), with the wait's next due moment."""
        user_id = table.seats[wait.seat].user_id
        assert user_id is not None and table.waits is not None
        player = await self.player(user_id)
        wait = scheduler.reminded(wait, table.allowance(wait.seat), player)
        await self._store_player(replace(player, reminded=self.now()))
        wait = replace(wait, due=await self.due_of(table, wait))
        table.waits[wait.seat] = wait
        await self.store.jobs.set_waits(table.id, list(table.waits.values()))

    async def later(self, table: Table, wait: WaitRow) -> None:
        """Nothing was due for ``wait`` after all: store its next moment."""
        assert table.waits is not None
        wait = replace(wait, due=await self.due_of(table, wait))
        table.waits[wait.seat] = wait
        await self.store.jobs.set_due(Job("wait", table.id, wait.seat), wait.due)

    # -- a table's settings

    async def settings(self, channel_id: int, user_id: int, *, turn_time: str | None = None,
                       reminders: bool | None = None, clock: str | None = None,
                       bank: str | None = None, add: str | None = None) -> Reply:
        """The opener sets the table's turn time ('off', '12h', '2d', '90m'), whether
        awaited players are reminded, and its clock: 'per-turn' (the turn time) or 'bank'
        (a time bank per player: ``bank`` to start with, ``add`` back after each turn);
        with none of them, the settings are only shown."""
        try:
            new_time = None if turn_time is None else scheduler.parse_duration(turn_time)
            start, back = scheduler.parse_bank(bank, add)
        except ValueError as error:
            raise TableError(str(error)) from None
        if clock not in (None, "per-turn", "bank"):
            raise TableError(words.say("clocks.not_a_clock", typed=rules.core.quote(clock)))
        async with self.tables.lock(channel_id):
            table = await self.tables.active(channel_id)
            if all(x is None for x in (turn_time, reminders, clock, bank, add)):
                return Reply(ephemeral=table.settings(), version=table.version, game=table.id)
            if user_id != table.opener_id:
                raise TableError(words.say("clocks.only_opener", player=table.opener()))
            try:
                new = scheduler.settled(table.clock, turn_time=new_time,
                                        keep_time=turn_time is None, reminders=reminders,
                                        kind=clock, bank=start, add=back)
            except ValueError as error:
                raise TableError(str(error)) from None
            await self.store.tables.set_settings(table.id, new.turn_time, new.reminders,
                                                 new.bank_start, new.bank_add)
            if new.bank_start != table.bank_start:
                table.seats = [replace(s, bank=scheduler.rebanked(s.bank, new.bank_start))
                               for s in table.seats]
            table.turn_time, table.reminders = new.turn_time, new.reminders
            table.bank_start, table.bank_add = new.bank_start, new.bank_add
            await self.sync(table, again=True)
            # No game or version: this is not a move, and must not mark one delivered.
            return Reply(public=words.say("clocks.changed", player=table.opener(),
                                          settings=table.settings()))

    # -- a player's quiet hours and time away

    async def quiet(self, user_id: int, start: int, end: int, timezone: str) -> str:
        """A player's quiet hours (local hours ``start`` to ``end``; equal hours: none):
        no reminders then, and their turn clock stops. At most 12 hours a day."""
        try:
            hours = scheduler.check_quiet(start, end)
            zone = scheduler.check_timezone(timezone)
        except ValueError as error:
            raise TableError(str(error)) from None
        await self._rebase(user_id)
        await self._store_player(replace(await self.player(user_id), quiet_from=start,
                                         quiet_to=end, timezone=zone.key))
        await self._changed(user_id)
        if not hours:
            return words.say("clocks.quiet_none")
        return words.say("clocks.quiet_set", from_hour=start, to_hour=end, zone=zone.key,
                         cap=scheduler.QUIET_CAP)

    async def away(self, user_id: int, days: int) -> str:
        """Time away from now: no reminders and no running turn clock for ``days`` days.
        At most 21 days a year."""
        now = self.now()
        try:
            left = scheduler.check_away(await self.player(user_id), now, days)
        except ValueError as error:
            raise TableError(str(error)) from None
        await self._rebase(user_id)
        await self.store.members.add_absence(user_id, now, now + days * scheduler.DAY)
        self._players[user_id] = await self.store.members.player(user_id)
        await self._changed(user_id)
        return words.say("clocks.away", count=days, days_left=int(left) - days,
                         cap=scheduler.AWAY_CAP)

    async def refresh(self, user_id: int) -> PlayerRow:
        """Read the player's settings again (their digest changed) and work out again the
        due moments of their waits (a digest stands for some reminders)."""
        self._players[user_id] = await self.store.members.player(user_id)
        await self._changed(user_id)
        return self._players[user_id]

    async def _rebase(self, user_id: int) -> None:
        """Charge the clocks of every wait of the player up to now under the settings in
        force until now (``scheduler.rebased``), before they change: a change of quiet
        hours or time away applies from the moment it is made, never to time that has
        passed (the tables held here in memory, the others in the database)."""
        now, player = self.now(), await self.player(user_id)
        held = set()
        for table in self.tables.held():
            if table.status != "playing" or table.seat_of(user_id) is None:
                continue
            held.add(table.id)
            async with self.tables.lock(table.channel_id):
                if table.waits is None:
                    table.waits = {w.seat: w for w in await self.store.jobs.waits(table.id)}
                for seat, wait in table.waits.items():
                    if table.seats[seat].user_id == user_id:
                        table.waits[seat] = scheduler.rebased(wait, now, player)
        await self.store.jobs.rebase_waits([
            scheduler.rebased(wait, now, player)
            for game, wait in await self.store.tables.waiting_for(user_id) if game.id not in held])

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
        if not scheduler.may_mention(player, now):
            return False
        await self._store_player(replace(player, mentioned=now))
        return True

