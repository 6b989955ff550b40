"""What is due when (``store.jobs``): the awaited seats (``waits``: the scheduler's durable
deadlines, each due at the next moment something is to be done for it) and the players'
daily digests (``players.digest_due``); each found through a partial index on its due
moment and claimed by one process at a time (``CLAIM``)."""

from __future__ import annotations

from bot.records import WaitRow
from bot.store import schema
from bot.store.engine import CLAIM, WAIT_SQL, Repository, Session, wait_values
from bot.store.schema import placeholders

WAITS = f"{schema.WAITS.select(WaitRow)} FROM waits WHERE game_id = ? ORDER BY seat"


class DueJobs(Repository):
    """``waits`` and ``players.digest_due``."""

    async def waits(self, game_id: int) -> list[WaitRow]:
        return [WaitRow(*r) for r in await self.seam.rows(WAITS, (game_id,))]

    def put_waits(self, game_id: int, waits: list[WaitRow]) -> None:
        """The game's awaited seats are exactly ``waits`` now: written with the delivered
        marks, so a move costs no transaction of its own for them. A crash in between
        loses the change; at start-up the service makes the waits match again."""
        self.seam.marks.put_waits(game_id, waits)

    async def set_waits(self, game_id: int, waits: list[WaitRow],
                        banks: dict[int, float] | None = None) -> None:
        """The game's awaited seats are exactly ``waits`` now, and its seats' time banks
        ``banks`` (seat -> seconds), in one transaction."""
        self.seam.marks.waits.pop(game_id, None)  # this list is newer than one not yet written
        rows = [wait_values(w) for w in waits]
        keep = tuple(w.seat for w in waits)
        others = f" AND seat NOT IN ({placeholders(keep)})" if keep else ""

        async def write(session: Session) -> None:
            await session.execute(f"DELETE FROM waits WHERE game_id = ?{others}",
                                  (game_id, *keep))
            await session.executemany(WAIT_SQL, rows)
            if banks:
                await session.executemany(
                    "UPDATE seats SET bank = ? WHERE game_id = ? AND seat = ?",
                    [(bank, game_id, seat) for seat, bank in banks.items()])

        await self.seam.run(write, ordered=True, transaction=True)

    async def set_due(self, game_id: int, seat: int, due: float | None) -> None:
        if self.seam.marks.waits:
            await self.seam.marks.flush_quietly()  # the row to change is the latest one
        await self.seam.run(lambda session: session.execute(
            "UPDATE waits SET due = ? WHERE game_id = ? AND seat = ?", (due, game_id, seat)),
            ordered=True)

    async def rebase_waits(self, waits: list[WaitRow]) -> None:
        """Store how long each wait's clock had run by its mark (``WaitRow.ran``, ``mark``)."""
        if not waits:
            return
        if self.seam.marks.waits:
            await self.seam.marks.flush_quietly()  # the rows to change are the latest ones
        await self.seam.run(lambda session: session.executemany(
            "UPDATE waits SET ran = ?, mark = ? WHERE game_id = ? AND seat = ?",
            [(w.ran, w.mark, w.game_id, w.seat) for w in waits]), ordered=True)

    async def next_due(self) -> float | None:
        """The earliest moment something is due for any wait (the index answers it)."""
        rows = await self.seam.rows("SELECT MIN(due) FROM waits WHERE due IS NOT NULL")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def due_waits(self, now: float, limit: int = 100) -> list[WaitRow]:
        """The waits due by ``now``, earliest first (through the index), claimed for this
        process: in the same transaction their ``due`` moves to ``now + CLAIM``, so that
        another process does not get them too. Each comes back with the moment it was due."""
        await self.seam.marks.flush_quietly()  # the rows to claim are the latest ones
        engine = self.seam.engine
        rows = await self.seam.run(
            lambda session: engine.claim(session, now, limit, now + CLAIM),
            ordered=True, transaction=True)
        return sorted((WaitRow(*r) for r in rows),
                      key=lambda w: (w.due or 0.0, w.game_id, w.seat))

    # -- the daily digest's due moment (its setting: ``store.members.set_digest``)

    async def set_digest_due(self, user_id: int, due: float | None, *,
                             sent: float | None = None) -> None:
        """The digest's next moment; with ``sent``, one is recorded as sent at that moment.
        A digest turned off meanwhile stays off."""
        await self.seam.write(
            "UPDATE players SET digest_due = ?, digest_sent = COALESCE(?, digest_sent) "
            "WHERE user_id = ? AND digest_hour IS NOT NULL", (due, sent, user_id))

    async def next_digest(self) -> float | None:
        """The earliest moment a digest is due (the index ``players_digest_due`` answers)."""
        rows = await self.seam.rows(
            "SELECT MIN(digest_due) FROM players WHERE digest_due IS NOT NULL")
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

        return await self.seam.run(claim, ordered=True, transaction=True)
