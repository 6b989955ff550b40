"""How a player is reached in private: the direct-message channel opened for them, and
whether their direct messages are closed.

A DM channel is opened once per player and kept (``players.dm_channel_id``), so that
neither a restart nor another bot process opens it again, and a DM goes straight to it with
no look-up of the member first. A player whose DMs were refused as closed is sent none for a
day (``HOLD``, on the service's clock; ``players.dm_refused`` keeps the moment, so a restart
does not try again at once), or until they show they are back (``/hand``, ``/me digest``):
their private view stays with ``/hand`` meanwhile. A DM that gets through ends the hold.

Each process keeps what it read once a channel is known (it never changes but by this
process); a player with no channel yet, or held back, is read again before each DM that
would go, since another process may have opened one or seen them back; and a player back
is read afresh, since another process may have seen them refuse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.store import Store

HOLD = 24 * 3600.0  # seconds a refusal holds a player's DMs back, at most


@dataclass(frozen=True)
class Line:
    """A player's private line: their DM channel (None: none opened yet) and when a DM to
    them was last refused because their DMs are closed (None: not since one got through)."""

    channel_id: int | None = None
    refused: float | None = None

    def held(self, now: float) -> bool:
        """Whether DMs to the player are held back at ``now`` (refused less than a day ago)."""
        return self.refused is not None and now - self.refused < HOLD


class DirectLines:
    """The players' DM channels and refusals, kept in the store and read once a process."""

    def __init__(self, store: Store, *, now: Callable[[], float]) -> None:
        self.store = store
        self.now = now
        self._known: dict[int, Line] = {}

    async def line(self, user_id: int, *, fresh: bool = False) -> Line:
        """The player's line; read from the store the first time, and again while it has
        no channel or says they are held back (another process may have opened one, or
        seen them back), or where ``fresh``."""
        known = self._known.get(user_id)
        if fresh or known is None or known.channel_id is None or known.refused is not None:
            known = Line(*await self.store.members.direct(user_id))
            self._known[user_id] = known
        return known

    async def held(self, user_id: int) -> bool:
        """Whether no DM goes to the player now (their DMs were refused within a day)."""
        return (await self.line(user_id)).held(self.now())

    async def opened(self, user_id: int, channel_id: int) -> None:
        """Discord opened the player's DM channel: kept for every later DM."""
        line = await self.line(user_id)
        if line.channel_id != channel_id:
            self._known[user_id] = Line(channel_id, line.refused)
            await self.store.members.set_direct(user_id, channel_id, line.refused)

    async def refused(self, user_id: int) -> None:
        """Discord refused a DM to the player because their DMs are closed: none goes to
        them for a day, or until they are back."""
        line = Line((await self.line(user_id)).channel_id, self.now())
        self._known[user_id] = line
        await self.store.members.set_direct(user_id, line.channel_id, line.refused)

    async def back(self, user_id: int) -> bool:
        """A DM got through, or the player showed they are back: DMs go to them again.
        Whether they were held back (or refused) until now: read afresh, as another
        process may have seen them refuse (a read a DM, a write only after a refusal)."""
        line = await self.line(user_id, fresh=True)
        if line.refused is None:
            return False
        self._known[user_id] = Line(line.channel_id, None)
        await self.store.members.set_direct(user_id, line.channel_id, None)
        return line.held(self.now())
