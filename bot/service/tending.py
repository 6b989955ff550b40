"""What the scheduler finds due for a wait: a computer stand-in for a seat whose turn ran
out, or a reminder (with what happened since the player's last move)."""

from __future__ import annotations

from collections.abc import Callable

from bot import scheduler, words
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
    if seconds >= 2 * scheduler.DAY:
        return words.say("tending.days", count=int(seconds // scheduler.DAY))
    if seconds >= 2 * scheduler.HOUR:
        return words.say("tending.hours", count=int(seconds // scheduler.HOUR))
    return words.say("tending.minutes", count=max(1, int(seconds // scheduler.MINUTE)))


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
            allowance = table.allowance(wait.seat)
            due_now = scheduler.due_now(wait, allowance, table.reminders, player, self.now())
            if due_now == "stand-in":
                reply = await self.turns.stand_in(table, wait.seat, self.level)
                return Tended(table.channel_id, reply=reply)
            if due_now == "reminder":
                end = scheduler.deadline(wait, allowance, player)
                await self.clocks.reminded(table, wait)
                text = await self.looking_back.with_digest(table, wait.seat,
                                                           self.reminder(table, end))
                return Tended(table.channel_id, user_id=user_id, text=text)
            await self.clocks.later(table, wait)
            return None

    def reminder(self, table: Table, end: float | None) -> str:
        """A reminder: the game, the channel (a link there) and the time left, if any."""
        parts = [words.say("tending.reminder", game=table.game.name,
                           channel=table.channel_id, number=table.version - 1)]
        if end is not None:
            left = span(max(0.0, end - self.now()))
            parts.append(words.say("tending.bank_left", left=left) if table.banked()
                         else words.say("tending.turn_left", left=left))
        parts.append(words.say("tending.play_there"))
        return " ".join(parts)
