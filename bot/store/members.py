"""The members who play (``store.members``: ``players``, ``absences``): quiet hours and
reminder marks, time away, their direct messages and their daily digest's setting. (When
a digest is due is a job: ``store.jobs``.)"""

from __future__ import annotations

from typing import NamedTuple

from bot.records import PlayerRow
from bot.store import schema
from bot.store.engine import Repository

PLAYER_FIELDS = (*schema.PLAYERS.fields(PlayerRow), "digest_due")
# The player's row, with their digest's due moment (a job: ``store.jobs``).
PLAYER = (f"{schema.PLAYERS.select(PlayerRow)}, (SELECT due FROM jobs WHERE kind = 'digest' "
          "AND owner_id = players.user_id AND part = 0) FROM players WHERE user_id = ?")


class Direct(NamedTuple):
    """A member's DM channel (None: none opened yet) and when Discord last refused a DM to
    them because their DMs are closed (None: not since one got through)."""

    channel_id: int | None
    refused: float | None


class Members(Repository):
    """``players`` and ``absences``."""

    async def player(self, user_id: int) -> PlayerRow:
        rows = await self.seam.rows(PLAYER, (user_id,))
        away = await self.seam.rows(
            "SELECT start, until FROM absences WHERE user_id = ? ORDER BY start", (user_id,))
        absences = tuple((float(a), float(b)) for a, b in away)
        if not rows:
            return PlayerRow(user_id, absences=absences)
        return PlayerRow(**dict(zip(PLAYER_FIELDS, rows[0], strict=True)), absences=absences)

    async def set_player(self, player: PlayerRow) -> None:
        """Store a player's quiet hours and reminder marks (their absences apart)."""
        await self.seam.write(
            "INSERT INTO players (user_id, quiet_from, quiet_to, timezone, reminded, "
            "mentioned) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to, "
            "timezone = excluded.timezone, reminded = excluded.reminded, "
            "mentioned = excluded.mentioned",
            (player.user_id, player.quiet_from, player.quiet_to, player.timezone,
             player.reminded, player.mentioned))

    async def add_absence(self, user_id: int, start: float, until: float) -> None:
        await self.seam.write("INSERT INTO absences (user_id, start, until) VALUES (?, ?, ?)",
                              (user_id, start, until))

    # -- a player's direct messages (``players.dm_*``; set_player leaves them alone)

    async def direct(self, user_id: int) -> Direct:
        """The player's DM channel and when a DM to them was last refused."""
        rows = await self.seam.rows(
            "SELECT dm_channel_id, dm_refused FROM players WHERE user_id = ?", (user_id,))
        return Direct(*rows[0]) if rows else Direct(None, None)

    async def set_direct(self, user_id: int, channel_id: int | None, refused: float | None
                         ) -> None:
        """Keep the player's DM channel (None keeps the one stored) and refusal moment."""
        await self.seam.write(
            "INSERT INTO players (user_id, dm_channel_id, dm_refused) VALUES (?, ?, ?) ON "
            "CONFLICT (user_id) DO UPDATE SET dm_channel_id = COALESCE(excluded.dm_channel_id, "
            "players.dm_channel_id), dm_refused = excluded.dm_refused",
            (user_id, channel_id, refused))

    # -- the daily digest's setting (``players.digest_*``; set_player leaves them alone)

    async def set_digest(self, user_id: int, hour: int | None, zone: str | None) -> None:
        """A player's daily digest: its local hour (None: none) and its zone (its next
        moment is a job: ``store.jobs.set_digest_due``)."""
        await self.seam.write(
            "INSERT INTO players (user_id, digest_hour, digest_zone) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET digest_hour = excluded.digest_hour, "
            "digest_zone = excluded.digest_zone", (user_id, hour, zone))
