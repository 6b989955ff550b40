"""What is due when (``store.jobs``): every timer is a row of ``jobs`` (``bot.records.Job``),
of a kind, keyed by ``owner_id`` and ``part``, due at ``due``. One query finds the next
moment (``next_due``, through the partial index ``jobs_due``), one claims what is due for
one process at a time (``claim``: ``CLAIM``), one moves a job's moment (``set_due``: a
postponement, a retry, the next reminder). Each kind keeps what it needs in the same row:
a wait (an awaited seat, ``WaitRow``) its turn clock; a daily digest nothing more (its
setting and when it last went are the player's, ``players.digest_*``)."""

from __future__ import annotations

from bot.records import Job, WaitRow
from bot.store.engine import CLAIM, WAIT_SQL, Repository, Session, wait_values
from bot.store.schema import WAIT_COLUMNS, placeholders

WAIT = "wait"  # an awaited seat: owner_id the game, part the seat
DIGEST = "digest"  # a player's daily digest: owner_id the user, part 0
WAITS = (f"SELECT {', '.join(WAIT_COLUMNS)} FROM jobs WHERE kind = 'wait' AND owner_id = ? "
         "ORDER BY part")


class DueJobs(Repository):
    """``jobs``: any kind's due moments, the waits' rows and the digests' due moments."""

    # -- every kind

    async def next_due(self) -> float | None:
        """The earliest moment any job is due (the index answers it)."""
        rows = await self.seam.rows("SELECT MIN(due) FROM jobs WHERE due IS NOT NULL")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def claim(self, now: float, limit: int = 100) -> list[Job]:
        """The jobs due by ``now``, earliest first (through the index), claimed for this
        process: in the same transaction their ``due`` moves to ``now + CLAIM``, so that
        another process does not get them too (if this one dies holding them, they are
        due again then). Each comes back with the moment it was due."""
        await self.seam.marks.flush_quietly()  # the rows to claim are the latest ones
        engine = self.seam.engine
        rows = await self.seam.run(
            lambda session: engine.claim(session, now, limit, now + CLAIM),
            ordered=True, transaction=True)
        return sorted((Job(*row) for row in rows),
                      key=lambda j: (j.due or 0.0, j.kind, j.owner_id, j.part))

    async def set_due(self, job: Job, due: float | None) -> None:
        """The job's next moment (None: nothing due for now), if it still exists."""
        if self.seam.marks.waits:
            await self.seam.marks.flush_quietly()  # the row to change is the latest one
        await self.seam.run(lambda session: session.execute(
            "UPDATE jobs SET due = ? WHERE kind = ? AND owner_id = ? AND part = ?",
            (due, job.kind, job.owner_id, job.part)), ordered=True)

    async def put(self, job: Job) -> None:
        """A job of a kind that needs nothing but its key and moment, made or moved."""
        await self.seam.write(
            "INSERT INTO jobs (kind, owner_id, part, due) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (kind, owner_id, part) DO UPDATE SET due = excluded.due",
            (job.kind, job.owner_id, job.part, job.due))

    async def drop(self, job: Job) -> None:
        await self.seam.write("DELETE FROM jobs WHERE kind = ? AND owner_id = ? AND part = ?",
                              (job.kind, job.owner_id, job.part))

    # -- the waits (kind 'wait')

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
        others = f" AND part NOT IN ({placeholders(keep)})" if keep else ""

        async def write(session: Session) -> None:
            await session.execute(
                f"DELETE FROM jobs WHERE kind = 'wait' AND owner_id = ?{others}",
                (game_id, *keep))
            await session.executemany(WAIT_SQL, rows)
            if banks:
                await session.executemany(
                    "UPDATE seats SET bank = ? WHERE game_id = ? AND seat = ?",
                    [(bank, game_id, seat) for seat, bank in banks.items()])

        await self.seam.run(write, ordered=True, transaction=True)

    async def rebase_waits(self, waits: list[WaitRow]) -> None:
        """Store how long each wait's clock had run by its mark (``WaitRow.ran``, ``mark``)."""
        if not waits:
            return
        if self.seam.marks.waits:
            await self.seam.marks.flush_quietly()  # the rows to change are the latest ones
        await self.seam.run(lambda session: session.executemany(
            "UPDATE jobs SET ran = ?, mark = ? WHERE kind = 'wait' AND owner_id = ? "
            "AND part = ?", [(w.ran, w.mark, w.game_id, w.seat) for w in waits]), ordered=True)

    # -- the daily digests (kind 'digest'; the setting: ``store.members.set_digest``)

    async def set_digest_due(self, user_id: int, due: float | None, *,
                             sent: float | None = None) -> None:
        """The digest's next moment (None: none); with ``sent``, one is recorded as sent at
        that moment, in the same transaction. A digest turned off meanwhile stays off: a
        player without a digest hour keeps no digest job."""
        async def write(session: Session) -> None:
            if sent is not None:
                await session.execute("UPDATE players SET digest_sent = ? WHERE user_id = ? "
                                      "AND digest_hour IS NOT NULL", (sent, user_id))
            if due is not None:
                await session.execute(
                    "INSERT INTO jobs (kind, owner_id, part, due) SELECT 'digest', user_id, "
                    "0, ? FROM players WHERE user_id = ? AND digest_hour IS NOT NULL "
                    "ON CONFLICT (kind, owner_id, part) DO UPDATE SET due = excluded.due",
                    (due, user_id))
            await session.execute(
                "DELETE FROM jobs WHERE kind = 'digest' AND owner_id = ? AND (? OR NOT EXISTS "
                "(SELECT 1 FROM players WHERE user_id = ? AND digest_hour IS NOT NULL))",
                (user_id, due is None, user_id))

        await self.seam.run(write, transaction=True)
