"""Tables in threads (``store.threads``): the threads the bot opened for tables
(``threads``) and each server's settings (``servers``: where ``/game new`` opens a table
when it is not told)."""

from __future__ import annotations

from bot.records import ThreadRow
from bot.store import schema
from bot.store.engine import Repository

THREAD_FIELDS = schema.THREADS.fields(ThreadRow)
THREAD = f"{schema.THREADS.select(ThreadRow)} FROM threads WHERE channel_id = ?"
PLACES = ("channel", "thread", "private")  # where a server's tables open by default


class Threads(Repository):
    """``threads`` and ``servers``."""

    async def add(self, row: ThreadRow) -> None:
        """Record a thread just opened for a table (its notice may follow: ``notice``)."""
        await self.seam.write(
            "INSERT INTO threads (channel_id, guild_id, parent_id, notice_id, game_id, "
            "private, stage) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (row.channel_id, row.guild_id, row.parent_id, row.notice_id, row.game_id,
             int(row.private), row.stage))

    async def of(self, channel_id: int) -> ThreadRow | None:
        """The thread the bot opened as this channel, if it is one."""
        rows = await self.seam.rows(THREAD, (channel_id,))
        if not rows:
            return None
        found = dict(zip(THREAD_FIELDS, rows[0], strict=True))
        found["private"] = bool(found["private"])
        return ThreadRow(**found)

    async def notice(self, channel_id: int, notice_id: int) -> None:
        """The parent channel's message that tells of the thread's table."""
        await self.seam.write("UPDATE threads SET notice_id = ? WHERE channel_id = ?",
                              (notice_id, channel_id))

    async def stage(self, channel_id: int, before: str, after: str) -> bool:
        """Move what the notice says from ``before`` to ``after``; False if it no longer
        said ``before`` (another process moved it first: it tells the parent, not this
        one)."""
        return await self.seam.write(
            "UPDATE threads SET stage = ? WHERE channel_id = ? AND stage = ?",
            (after, channel_id, before)) == 1

    async def place(self, guild_id: int) -> str:
        """Where the server's tables open when ``/game new`` is not told: 'channel',
        'thread' or 'private' (a private thread)."""
        rows = await self.seam.rows("SELECT threads FROM servers WHERE guild_id = ?",
                                    (guild_id,))
        return str(rows[0][0]) if rows else "channel"

    async def set_place(self, guild_id: int, place: str) -> None:
        if place not in PLACES:
            raise ValueError(f"not a place for tables: {place!r}")
        await self.seam.write(
            "INSERT INTO servers (guild_id, threads) VALUES (?, ?) ON CONFLICT (guild_id) "
            "DO UPDATE SET threads = excluded.threads", (guild_id, place))
