"""The bot's one loop over the due jobs (``bot.service.jobs``: waits, daily digests, any
later timer; ``bot.scheduler`` says when each is due): sleep until the earliest due moment
the database holds, claim a batch, have the service tend each by its kind, hand the result
to the desk, postpone one that failed, read the next moment, sleep again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable

from bot.discord.desk import Desk
from bot.scheduler import DAY, MINUTE
from bot.service import TableService

log = logging.getLogger("boardroom.scheduler")

BATCH = 100  # jobs claimed per read of the database
RETRY = 10 * MINUTE  # a job whose tending failed is tried again this much later
MAX_SLEEP = DAY  # the loop reads the database at least this often anyway
BACKOFF = 60.0  # after the database refused the loop's read
# In a bot run as several processes the loop also sweeps the outbox this often, for replies
# another process wrote and never posted (it stopped in between); a reply counts as lost
# SWEEP_GRACE seconds after its move. (One process alone has nothing to sweep: its failed
# posts are retried by the desk, and a restart posts what a crash left.)
SWEEP_EVERY = 30.0
SWEEP_GRACE = 30.0


class Scheduler:
    """The bot's one loop over the due jobs: sleep until the earliest due moment the
    database holds, tend what is due, read the next moment, sleep again.

    ``wake(moment)`` is called by the service when a job gets a due moment; if the loop
    sleeps until later, its sleeping task is cancelled and a new one started (an
    ``asyncio.Event`` would do under a real loop, but a simulated clock cannot advance past
    a bare event wait). ``close`` cancels it, so a stopped bot sends nothing. Given
    ``sweep_every``, it also has the desk post that often what the outbox holds that
    another process lost (``Desk.sweep``).
    """

    def __init__(self, service: TableService, desk: Desk, *,
                 now: Callable[[], float], sweep_every: float | None = None) -> None:
        self.service = service
        self.sweep_every = sweep_every
        self.desk = desk
        self.now = now
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._until = math.inf  # when the sleeping loop wakes
        self._dirty = False  # a wake came while the loop was busy: read again
        self._swept = -math.inf  # when the loop last swept the outbox

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._sleeping = False
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="boardroom-scheduler")

    def wake(self, moment: float) -> None:
        """Something is due at ``moment``: wake the loop early if it sleeps past it."""
        if self._task is None:
            return
        if not self._sleeping:
            self._dirty = True
        elif moment < self._until:
            self._task.cancel()
            self._task = None
            self.start()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            delay = BACKOFF
            try:
                self._dirty = False
                await self.tick()
                every = self.sweep_every
                if every is not None and self.now() >= self._swept + every:
                    self._swept = self.now()
                    await self.desk.sweep(SWEEP_GRACE)
                moment = await self.service.next_due()
                if self._dirty:
                    continue
                self._until = math.inf if moment is None else moment
                delay = min(MAX_SLEEP, every or MAX_SLEEP,
                            max(0.0, self._until - self.now()))
            except Exception:
                log.exception("The scheduler could not read what is due; trying again in "
                              "%d s", BACKOFF)
                self._until = self.now() + BACKOFF
            self._sleeping = True
            try:
                await asyncio.sleep(delay)
            finally:
                if asyncio.current_task() is self._task:
                    self._sleeping = False

    async def tick(self) -> int:
        """Tend every job due by now, a batch at a time; how many were tended."""
        done = 0
        while True:
            due = await self.service.due(self.now(), BATCH)
            for job in due:
                try:
                    await self.desk.tend(job)
                except Exception:
                    log.exception("Could not tend the %s job %s/%s; trying again later",
                                  job.kind, job.owner_id, job.part)
                    await self.service.postpone(job, self.now() + RETRY)
                done += 1
            if len(due) < BATCH:
                return done
