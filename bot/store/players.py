"""The store's queries of players (``players``, ``absences``): quiet hours, reminders,
their direct messages and their daily digest; ``Store`` has them as its own."""

from __future__ import annotations

from typing import Any

from bot.records import PlayerRow
from bot.store.engine import CLAIM, Jobs, Session


class Players:
    """Players' rows, for ``Store`` (which supplies the jobs and the two helpers)."""

    _jobs: Jobs

    async def _rows(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    async def _write(self, sql: str, parameters: tuple[Any, ...] = ()) -> int:
        raise NotImplementedError

    async def player(self, user_id: int) -> PlayerRow:
        rows = await self._rows(
            "SELECT quiet_from, quiet_to, timezone, reminded, mentioned, digest_hour, "
            "digest_zone, digest_due, digest_sent FROM players WHERE user_id = ?", (user_id,))
        away = await self._rows(
            "SELECT start, until FROM absences WHERE user_id = ? ORDER BY start", (user_id,))
        absences = tuple((float(a), float(b)) for a, b in away)
        if not rows:
            return PlayerRow(user_id, absences=absences)
        quiet_from, quiet_to, timezone, reminded, mentioned, hour, zone, due, sent = rows[0]
        return PlayerRow(user_id, quiet_from, quiet_to, timezone, reminded, mentioned,
                         absences, hour, zone, due, sent)

    async def set_player(self, player: PlayerRow) -> None:
        """Store a player's quiet hours and reminder marks (their absences apart)."""
        await self._write(
            "INSERT INTO players (user_id, quiet_from, quiet_to, timezone, reminded, "
            "mentioned) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to, "
            "timezone = excluded.timezone, reminded = excluded.reminded, "
            "mentioned = excluded.mentioned",
            (player.user_id, player.quiet_from, player.quiet_to, player.timezone,
             player.reminded, player.mentioned))

    # -- a player's direct messages (``players.dm_*``; set_player leaves them alone)

    async def direct(self, user_id: int) -> tuple[int | None, float | None]:
        """The player's DM channel (None: none opened yet) and when Discord last refused a
        DM to them because their DMs are closed (None: not since one got through)."""
        rows = await self._rows(
            "SELECT dm_channel_id, dm_refused FROM players WHERE user_id = ?", (user_id,))
        return (rows[0][0], rows[0][1]) if rows else (None, None)

    async def set_direct(self, user_id: int, channel_id: int | None, refused: float | None
                         ) -> None:
        """Keep the player's DM channel (None keeps the one stored) and refusal moment."""
        await self._write(
            "INSERT INTO players (user_id, dm_channel_id, dm_refused) VALUES (?, ?, ?) ON "
            "CONFLICT (user_id) DO UPDATE SET dm_channel_id = COALESCE(excluded.dm_channel_id, "
            "players.dm_channel_id), dm_refused = excluded.dm_refused",
            (user_id, channel_id, refused))

    # -- the daily digest (``players.digest_*``; set_player leaves these columns alone)

    async def set_digest(self, user_id: int, hour: int | None, zone: str | None,
                         due: float | None) -> None:
        """A player's daily digest: its local hour (None: none), its zone and next moment."""
        await self._write(
            "INSERT INTO players (user_id, digest_hour, digest_zone, digest_due) VALUES "
            "(?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET digest_hour = "
            "excluded.digest_hour, digest_zone = excluded.digest_zone, "
            "digest_due = excluded.digest_due", (user_id, hour, zone, due))

    async def set_digest_due(self, user_id: int, due: float | None, *,
                             sent: float | None = None) -> None:
        """The digest's next moment; with ``sent``, one is recorded as sent at that moment.
        A digest turned off meanwhile stays off."""
        await self._write(
            "UPDATE players SET digest_due = ?, digest_sent = COALESCE(?, digest_sent) "
            "WHERE user_id = ? AND digest_hour IS NOT NULL", (due, sent, user_id))

    async def next_digest(self) -> float | None:
        """The earliest moment a digest is due (the index ``players_digest_due`` answers)."""
        rows = await self._rows("SELECT MIN(digest_due) FROM players WHERE digest_due IS NOT NULL")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def due_digests(self, now: float, limit: int = 100) -> list[int]:
        """The players whose digest is due by ``now``, earliest first (through the index),
        claimed for this process as ``due_waits`` claims waits: each ``digest_due`` moves to
        ``now + CLAIM`` where it still holds what was read (of two processes, one wins)."""
        async def claim(session: Session) -> list[int]:
            rows = await session.fetch(
                "SELECT user_id, digest_due FROM players WHERE digest_due IS NOT NULL AND "
                "digest_due <= ? ORDER BY digest_due LIMIT ?", (now, limit))
            return [user for user, due in rows if await session.execute(
                "UPDATE players SET digest_due = ? WHERE user_id = ? AND digest_due = ?",
                (now + CLAIM, user, due))]

        return await self._jobs.run(claim, ordered=True, transaction=True)

    async def add_absence(self, user_id: int, start: float, until: float) -> None:
        await self._write("INSERT INTO absences (user_id, start, until) VALUES (?, ?, ?)",
                          (user_id, start, until))
