"""Computer players' choices: drawn from the table's seed so a game replays the same, made
off the event loop, and the levels tables take when none is chosen.

Where each level thinks:

- ``easy`` and ``normal`` answer at once, in a thread.
- ``hard`` (up to about a second) in a pool of worker processes, one per core but one.
- ``expert`` (up to about 10 s of CPU) in a pool of its own, one worker per core, behind a
  fair queue (``FairQueue``): at most one expert search per core at a time, and the
  searches waiting start one table at a time in turn (the table that has waited longest
  first, each table's own in order), so a table whose computers move one after another
  cannot keep other tables waiting: its next search queues behind theirs. A table waits
  for its search under its channel's lock, so commands in that channel wait with it (the
  interaction is deferred; slow tables are where nobody waits on the computer).

A search running when the service closes is not stopped mid-way; its answer is dropped.
With several bot processes each has its own pools (one search per core per process).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

import rules
from bot.scheduler import HOUR
from bot.service.pictures import cores
from bot.service.table import Table
from rules import computer
from rules.computer import Choice

SLOW_TABLE = HOUR  # a table whose turns may take this long or more takes ``patient``


@dataclass(frozen=True)
class Levels:
    """The computer levels a table takes when none is chosen: ``quick`` for its computer
    seats while it has no clock, or one shorter than ``SLOW_TABLE``; ``patient`` for them
    at a table whose turn time (or time bank) is ``SLOW_TABLE`` or more, and for every
    stand-in (a late player's turn waited that long already)."""

    quick: str = computer.DEFAULT
    patient: str = computer.PATIENT

    @classmethod
    def of(cls, level: str | None) -> Levels:
        """The product's levels (None), or ``level`` everywhere (a test, the terminal's
        ``--level``); ValueError for an unknown level."""
        if level is None:
            return cls()
        named = computer.level_of(level)
        return cls(named, named)

    def seat(self, table: Table) -> str:
        """The level of a computer seat added to ``table`` without one."""
        return self.patient if slow(table) else self.quick


def slow(table: Table) -> bool:
    """Whether a turn at ``table`` may take ``SLOW_TABLE`` or more (its turn time, or its
    time bank per player)."""
    clock = table.bank_start if table.banked() else table.turn_time
    return clock is not None and clock >= SLOW_TABLE


class FairQueue:
    """Runs jobs in an executor, at most ``slots`` at a time. When a slot is free, the next
    job is that of the key (a table) with the fewest jobs running, and among those the key
    that has waited longest; each key's jobs start in their order, and a key whose job
    starts goes to the back of the line. The executor is made (``start``) on first use."""

    def __init__(self, slots: int, start: Callable[[], Executor]) -> None:
        self.slots = max(1, slots)
        self.start = start
        self.executor: Executor | None = None
        self.running = 0
        self.busy: dict[Hashable, int] = {}  # key -> its jobs running
        self.awaited: set[asyncio.Future[Any]] = set()  # the callers of the jobs running
        # key -> its jobs waiting; the dict's order is the line of keys
        self.waiting: dict[Hashable, deque[tuple[Callable[..., Any], tuple[Any, ...],
                                                 asyncio.Future[Any]]]] = {}

    async def run(self, key: Hashable, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in the executor, once its turn comes; its result."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(key, deque()).append((work, args, done))
        self._next()
        return await done

    def _next(self) -> None:
        """Start waiting jobs while a slot is free, one key at a time in turn."""
        while self.running < self.slots and self.waiting:
            key = min(self.waiting, key=lambda k: self.busy.get(k, 0))  # the first such
            jobs = self.waiting.pop(key)
            work, args, done = jobs.popleft()
            if jobs:
                self.waiting[key] = jobs  # to the back of the line
            if done.done():  # its caller stopped waiting (cancelled)
                continue
            if self.executor is None:
                self.executor = self.start()
            try:
                submitted = self.executor.submit(work, *args)
            except BrokenExecutor as error:  # a worker died: the next job gets a new pool
                self._broken()
                done.set_exception(error)
                continue
            self.running += 1
            self.busy[key] = self.busy.get(key, 0) + 1
            self.awaited.add(done)
            asyncio.wrap_future(submitted).add_done_callback(
                partial(self._finished, key, done, self.executor))

    def _finished(self, key: Hashable, done: asyncio.Future[Any], executor: Executor,
                  finished: asyncio.Future[Any]) -> None:
        """A job ended: its caller hears how, and the next job starts."""
        if done not in self.awaited:
            return  # given up by ``close``
        self.awaited.discard(done)
        self.running -= 1
        self.busy[key] -= 1
        if not self.busy[key]:
            del self.busy[key]
        if not done.done():
            if finished.cancelled():
                done.cancel()
            elif (error := finished.exception()) is not None:
                if isinstance(error, BrokenExecutor) and executor is self.executor:
                    self._broken()  # (not a new pool started since)
                done.set_exception(error)
            else:
                done.set_result(finished.result())
        self._next()

    def _broken(self) -> None:
        """Give up an executor that can run nothing more (a worker process was killed)."""
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None

    def close(self) -> None:
        """Stop the executor and the jobs waiting; the callers of the jobs running stop
        waiting for them (their answers, if any come, are dropped)."""
        for jobs in self.waiting.values():
            for _, _, done in jobs:
                done.cancel()
        self.waiting.clear()
        for done in self.awaited:
            done.cancel()
        self.awaited.clear()
        self.busy.clear()
        self.running = 0
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


class Computers:
    """Chooses computer players' moves; ``close`` stops the worker processes."""

    def __init__(self) -> None:
        self.thinkers: ProcessPoolExecutor | None = None  # for hard computer players
        self.experts = FairQueue(cores(), lambda: ProcessPoolExecutor(max_workers=cores()))

    async def decide(self, table: Table, seat: int, level: str) -> Choice:
        """A computer player's move for ``seat`` at ``level`` and what it thought of it,
        seeded by the table's seed, its version and the seat (so a game replays the same;
        an expert search cut short by its CPU time may differ on another machine). It sees
        only what the seat sees (``rules.computer.decide``). Where it thinks: the module's
        docstring."""
        digest = hashlib.sha256(f"computer/{table.seed}/{table.version}/{seat}".encode())
        seed = int.from_bytes(digest.digest()[:8], "big")
        named = computer.level_of(level)
        job = (table.game.id, table.state, seat, named, seed)
        if named == "expert":
            choice: Choice = await self.experts.run(table.id, decide, *job)
            return choice
        if computer.PLAYS[named] == "strong":
            if self.thinkers is None:
                self.thinkers = ProcessPoolExecutor(max_workers=max(1, cores() - 1))
            return await asyncio.wrap_future(self.thinkers.submit(decide, *job))
        return await asyncio.get_running_loop().run_in_executor(None, decide, *job)

    def close(self) -> None:
        """Stop the worker processes of hard and expert computer players (if any started)."""
        if self.thinkers is not None:
            self.thinkers.shutdown(wait=False, cancel_futures=True)
            self.thinkers = None
        self.experts.close()


def decide(game_id: str, state: Any, seat: int, level: str, seed: int) -> Choice:
    """``rules.computer.decide`` by game id (it runs in a thread or a worker process)."""
    return computer.decide(rules.GAMES[game_id], state, seat, level=level, seed=seed)

