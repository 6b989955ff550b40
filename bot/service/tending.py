"""What the scheduler finds due for a wait: a computer stand-in for a seat whose turn ran
out, or a reminder (with what happened since the player's last move)."""

from __future__ import annotations

from collections.abc import Callable

from bot import scheduler
from bot.records import Job
from bot.service.clocks import Clocks
from bot.service.looking_back import LookingBack
from bot.service.replies import Tended
from bot.service.table import Table, TableError
from bot.service.tables import Tables
from bot.service.turns import Turns
from bot.store import Store


def span(seconds: float) -> str:
    """'2 days', '5 hours', '40 minutes': a time left, roughly."""
    for unit, size in (("day", scheduler.DAY), ("hour", scheduler.HOUR)):
        if seconds >= 2 * size:
            return f"{int(seconds // size)} {unit}s"
    minutes = max(1, int(seconds // scheduler.MINUTE))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


class Tending:
    """Does what is due for a wait, as the scheduler finds it."""

    def __init__(self, store: Store, tables: Tables, clocks: Clocks, turns: Turns,
                 looking_back: LookingBack, *, now: Callable[[], float], level: str) -> None:
        self.store = store
        self.tables = tables
        self.clocks = clocks
        self.turns = turns
        self.looking_back = looking_back
        self.now = now
        self.level = level  # a stand-in's level (``Levels.patient``)

    async def tend(self, due: Job) -> Tended | None:
        """Do what is due for a wait (a job of kind 'wait': its game and seat): a computer
        player stands in for a seat whose turn ran out (committed, its reply returned to be
        posted), or a reminder is recorded as sent and returned to be sent (recorded first:
        a crash then loses one reminder, it never sends one twice). None if nothing is due
        after all (the seat moved, the settings changed): the wait's next moment is
        stored."""
        game_id, seat = due.owner_id, due.part
        row = await self.store.tables.game(game_id)
        if row is None or row.status != "playing":
            await self.store.jobs.set_waits(game_id, [])
            return None
        async with self.tables.lock(row.channel_id):
            try:
                table = await self.tables.active(row.channel_id)
            except TableError:
                await self.store.jobs.set_waits(game_id, [])
                return None
            if table.id != game_id:
                await self.store.jobs.set_waits(game_id, [])
                return None
            await self.clocks.sync(table)
            assert table.waits is not None
            wait = table.waits.get(seat)
            if wait is None:
                return None
            user_id = table.seats[wait.seat].user_id
            assert user_id is not None
            player = await self.clocks.player(user_id)
            now = self.now()
            allowance = table.allowance(wait.seat)
            end = scheduler.deadline(wait, allowance, player)
            if end is not None and end <= now:
                reply = await self.turns.stand_in(table, wait.seat, self.level)
                return Tended(table.channel_id, reply=reply)
            at = scheduler.reminder_at(wait, allowance, table.reminders, player)
            if at is not None and at <= now:
                await self.clocks.reminded(table, wait)
                text = await self.looking_back.with_digest(table, wait.seat,
                                                           self.reminder(table, end))
                return Tended(table.channel_id, user_id=user_id, text=text)
            await self.clocks.later(table, wait)
            return None

    def reminder(self, table: Table, end: float | None) -> str:
        """A reminder: the game, the channel (a link there) and the time left, if any."""
        text = (f"It is your turn in {table.game.name} in <#{table.channel_id}> "
                f"(move {table.version - 1}).")
        if end is not None:
            left = max(0.0, end - self.now())
            clock = "time bank" if table.banked() else "turn time"
            text += (f" About {span(left)} of your {clock} is left (it does not run in "
                     "your quiet hours); then a computer player moves for you this turn.")
        return text + " Play there with /play, or /hand to see your hand."
