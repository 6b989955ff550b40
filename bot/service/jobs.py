"""The due jobs: every timer of the bot is a row of one kind of job (``bot.records.Job``,
stored in ``jobs``: ``store.jobs``), and what is done when one is due is its kind's
handler, registered here (``Jobs.handle``). The bot's one loop (``bot.discord.loop``)
sleeps until ``next_due``, claims a batch (``due``), hands each job to ``tend`` and, when
tending one fails, ``postpone``s it.

Kinds today: ``wait`` (an awaited seat: a reminder, or a stand-in when the turn runs out;
``Tending``), ``digest`` (a player's daily digest; ``Digests``) and ``league`` (a league's
round deadline, keyed by the league; ``Leagues.tend``). To add a timer: a kind
name, rows written with ``store.jobs.put`` (key and due moment) wherever the service
decides one, and a handler registered in ``TableService`` (``docs/architecture.md``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot import scheduler
from bot.records import Job
from bot.service.replies import Tended
from bot.store import Store

log = logging.getLogger("boardroom.service")

# What is done when a job of a kind is due: a reply or a DM to deliver (``Tended``), or
# None. A handler sets the job's next moment itself (or drops it) before it returns.
Handler = Callable[[Job], Awaitable[Tended | None]]
UNKNOWN_RETRY = scheduler.DAY  # a job of a kind this version has no handler for


class Jobs:
    """The registry of handlers by kind, over ``store.jobs``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.handlers: dict[str, Handler] = {}

    def handle(self, kind: str, handler: Handler) -> None:
        """``handler`` tends the jobs of ``kind`` from now on."""
        self.handlers[kind] = handler

    async def next_due(self) -> float | None:
        """The earliest moment a job is due, of any kind."""
        return await self.store.jobs.next_due()

    async def due(self, now: float, limit: int = 100) -> list[Job]:
        """The jobs due by ``now``, earliest first, claimed for this process."""
        return await self.store.jobs.claim(now, limit)

    async def tend(self, job: Job, now: float) -> Tended | None:
        """Do what is due for ``job`` (its kind's handler). A kind without one (a row a
        newer version wrote) is logged and left for a day: nothing is lost."""
        handler = self.handlers.get(job.kind)
        if handler is None:
            log.warning("No handler for jobs of kind %r (owner %s); tried again in a day",
                        job.kind, job.owner_id)
            await self.postpone(job, now + UNKNOWN_RETRY)
            return None
        return await handler(job)

    async def postpone(self, job: Job, moment: float) -> None:
        """Try ``job`` again at ``moment`` (tending it failed)."""
        await self.store.jobs.set_due(job, moment)
