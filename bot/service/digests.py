"""The daily digest (``/me digest``): one DM a day listing every table, in every server,
that waits for a player, with what happened there since their last move.

When it is due is ``bot.scheduler``'s (``next_digest``, ``digest_ready``); what it says,
``bot.history.daily_text``. The setting and the next due moment live in the player's row
(``players.digest_*``), where the bot's one loop finds the due ones through an index, like
the waits: a restart loses nothing, and a digest is recorded as sent before it goes, so a
crash loses one and never sends one twice. A player who takes it gets no daily reminders
and no 50% reminder of a turn time (``scheduler.reminder_step``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from bot import history, scheduler, words
from bot.records import Job, PlayerRow
from bot.service.clocks import Clocks
from bot.service.looking_back import LookingBack
from bot.service.replies import Tended
from bot.service.table import Table, TableError
from bot.service.tables import Tables
from bot.store import Store

log = logging.getLogger("boardroom.service")

Servers = Callable[[int], str | None]  # a server's name by its id, where known


def unnamed(_guild_id: int) -> str | None:
    return None


class Digests:
    """The players' daily digests: the setting, what is due, and the digest itself."""

    def __init__(self, store: Store, tables: Tables, clocks: Clocks,
                 looking_back: LookingBack, *, now: Callable[[], float]) -> None:
        self.store = store
        self.tables = tables
        self.clocks = clocks
        self.looking_back = looking_back
        self.now = now
        self.servers: Servers = unnamed  # the surface names servers where it knows them

    # -- the setting

    async def set(self, user_id: int, at: str | None, timezone: str | None = None) -> str:
        """``/me digest``: ``at`` an hour (0-23) or 'off'; None: only say how it stands.
        ``timezone`` (an IANA name) is the hour's zone; left out, the one given before,
        else the player's quiet hours' zone, else UTC. A bad hour or zone changes nothing."""
        player = await self.store.members.player(user_id)
        if at is None:
            return self.told(player)
        try:
            hour = scheduler.parse_hour(at)
            zone = scheduler.check_timezone(timezone).key if timezone else player.digest_zone
        except ValueError as error:
            raise TableError(str(error)) from None
        if hour is None:
            await self.store.members.set_digest(user_id, None, player.digest_zone)
            await self.store.jobs.set_digest_due(user_id, None)
            await self.clocks.refresh(user_id)
            return words.say("digests.off")
        due = scheduler.next_digest(replace(player, digest_hour=hour, digest_zone=zone),
                                    self.now())
        await self.store.members.set_digest(user_id, hour, zone)
        await self.store.jobs.set_digest_due(user_id, due)
        player = await self.clocks.refresh(user_id)
        self._wake(due)
        return " ".join((self.told(player), words.say("digests.instead")))

    def told(self, player: PlayerRow) -> str:
        """How the player's digest stands, in a sentence or two."""
        if player.digest_hour is None:
            return words.say("digests.none")
        zone = scheduler.digest_zone(player).key
        if player.digest_zone or player.timezone:
            text = words.say("digests.comes", hour=player.digest_hour, zone=zone)
        else:  # no zone given: UTC, and how to give one
            text = words.say("digests.comes_utc", hour=player.digest_hour, zone=zone)
        if player.digest_due is not None:
            text = " ".join((text, words.say("digests.next", time=player.digest_due)))
        return text

    async def changed(self, user_id: int) -> None:
        """The player's quiet hours or time away changed: their next digest is worked out
        again (one due already stays due: the loop checks it when it goes)."""
        player = await self.store.members.player(user_id)
        now = self.now()
        if player.digest_hour is None or (player.digest_due is not None
                                          and player.digest_due <= now):
            return
        due = scheduler.next_digest(player, now)
        await self.store.jobs.set_digest_due(user_id, due)
        self._wake(due)

    def _wake(self, due: float | None) -> None:
        if due is not None and self.clocks.on_due is not None:
            self.clocks.on_due(due)

    # -- what the loop finds due (a job of kind 'digest', keyed by the player)

    async def tend(self, due: Job) -> Tended | None:
        """The player's digest, if one is due: recorded as sent (with the next due moment)
        before it is returned to be sent. None if it is not due after all (quiet hours or
        time away began, one went today: the next moment is stored) or nothing waits for
        the player (nothing is sent that day)."""
        user_id, servers = due.owner_id, self.servers
        player = await self.store.members.player(user_id)
        now = self.now()
        if player.digest_hour is None:
            await self.store.jobs.set_digest_due(user_id, None)  # turned off meanwhile
            return None
        if not scheduler.digest_ready(player, now):
            await self.store.jobs.set_digest_due(user_id, scheduler.next_digest(player, now))
            return None
        waiting = await self.awaiting(user_id, servers)
        if not waiting:
            await self.store.jobs.set_digest_due(user_id, scheduler.next_digest(player, now))
            return None
        text = history.daily_text(waiting)
        later = scheduler.next_digest(replace(player, digest_sent=now), now)
        await self.store.jobs.set_digest_due(user_id, later, sent=now)  # before it goes
        first = min(waiting, key=history.pressing)
        return Tended(first.channel_id, user_id=user_id, text=text)

    # -- the digest

    async def awaiting(self, user_id: int, servers: Servers = unnamed
                       ) -> list[history.Awaiting]:
        """The tables of every server that wait for the player now, as the digest lists
        them: each read and checked under its channel's lock, its waits in step."""
        found = []
        for row, _ in await self.store.tables.waiting_for(user_id):
            async with self.tables.lock(row.channel_id):
                try:
                    table = await self.tables.active(row.channel_id)
                except TableError:
                    continue  # ended, or set aside, since the query
                if table.id != row.id or table.status != "playing":
                    continue
                await self.clocks.sync(table)
                seat = table.seat_of(user_id)
                if seat is not None and seat in (table.waits or {}):
                    found.append(await self._awaiting(table, seat, row.guild_id, servers))
        return found

    async def _awaiting(self, table: Table, seat: int, guild_id: int | None,
                        servers: Servers) -> history.Awaiting:
        assert table.waits is not None
        wait = table.waits[seat]
        deadline = await self.clocks.deadline(table, wait)
        bank = await self.clocks.bank_left(table, seat, wait)
        try:
            lines = await self.looking_back.since_lines(table, seat)
        except Exception:
            log.exception("Could not look back over game %s for a digest", table.id)
            lines = None

        def since(limit: int) -> str:  # a table that cannot be looked back over goes without
            try:
                return "" if lines is None else lines(limit)
            except Exception:
                log.exception("Could not shorten game %s's lines for a digest", table.id)
                return ""

        return history.Awaiting(
            table.channel_id, None if guild_id is None else servers(guild_id),
            table.game.name, table.label(seat),
            tuple(table.label(s) for s in sorted(table.awaited()) if s != seat),
            wait.since, deadline, since,
            bank=None if bank is None else scheduler.remaining(bank))
