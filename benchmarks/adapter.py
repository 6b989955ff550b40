"""A move through the Discord adapter on SimCord: the CPU it costs, and how long it takes to
reach the channel, alone and at a given rate of moves; optionally side by side with another
commit.

    .venv/bin/python benchmarks/adapter.py [--tables 1000] [--rate 40] [--batch 100]
        [--batches 3] [--chunk 400] [--rounds 2] [--baseline REV]

The real bot (``bot.app.create_bot``, pictures on) runs on SimCord, the simulated Discord
the tests use, over a fresh SQLite file. ``--tables`` channels (200 to a guild), each with
two members seated at a table of the five games in turn, each dealt its own seed (opened,
joined and started through the service, not timed: three commands a table through SimCord
would take most of the run), then one move each, not timed either, so that what is measured
is a table in play (its turn message posted, its players' DM channels open) rather than a
first move. A move is a member's ``/play`` of one of their legal moves
(``service.legal_moves``) chosen at random, at a table chosen at random among those awaiting
someone; moves are listed before the timed part (what a player's listing costs, paid while
they type ``/play``, is not counted here); a table whose game is over is dealt a new one
between timed parts.

- CPU: ``time.process_time`` (every thread of the process: the bot, its picture threads,
  and SimCord's own work answering the bot, which both commits pay alike) over ``--batch``
  moves sent back to back at distinct tables, divided by the moves: the median of
  ``--batches`` batches a round; and the same split by thread (each thread's CPU clock):
  the event loop (the bot, discord.py and SimCord's simulated Discord, all in one thread),
  the picture threads (``boardroom-render``), the database's thread (aiosqlite's), the rest.
- A move alone (``--chunk`` of them, one after another): time from the interaction to
  the bot's first REST call that shows the move in the game's channel (a post or an edit of
  its messages, or a public interaction answer there), and to the bot's last REST call for
  it (the mover's answer), in wall time and in CPU time (the process's; and the event
  loop's thread's to the last call). The calls are stamped by a watcher that reads
  ``env.http_requests`` every millisecond while the move is served. A move that shows
  nothing in the channel is counted as silent. Wall times count whatever else the machine
  runs meanwhile; CPU times do not.
- At ``--rate`` moves a second: SimCord runs one operation at a time, and each returns only
  after polling in real time (50 ms steps) until every task and timer of the bot has
  settled, far longer than the bot's own work (a ``/play`` takes 80 to 350 ms of wall time
  for 25 to 30 ms of CPU), so an open loop's issue times cannot be kept through it. The
  moves alone are replayed instead, on their CPU clocks, through a queue: the i-th move
  arrives ``i / rate`` seconds after the first, starts when the move before it has let go
  of the server, holds it for its event loop's CPU (the picture threads running beside it on
  cores of their own: a lower bound) or for all its CPU (one core for everything: an upper
  bound), and reaches the channel its CPU to the channel after it starts: median and p99 of
  arrival to channel. Under overload (what a move holds above ``1 / rate`` on average) the
  wait grows through a chunk, and the figures then depend on ``--chunk``.
- Python's full garbage collections during the moves alone: how many, the CPU of each,
  and the objects tracked at the end (what each one scans); and the queue's p99 again with
  their pauses taken out of the moves they fell in. A full collection holds the GIL, and
  here it scans SimCord's objects too (its messages and the log of every request grow
  with each move), more than the bot's own: the two p99s bound what a bot would see.
- Requests a move makes, all of them and those under Discord's global rate limit (all but
  interaction callbacks and interaction webhooks), with the channel's, the DMs' (and DM
  channels opened) and user look-ups apart.

SimCord's own work grows with the tables: each settling of an operation scans every message
of the simulated Discord for polls to expire (10 to 20 ms of the event loop's CPU a move at
1,000 tables, by cProfile of main), and how much settling a move needs differs between
commits (a timer of the bot's is one more step), so "CPU ms a move" is largely SimCord's
and its event loop row even more. The moves alone's "CPU to its last request" leaves out
the settling after it (it still holds SimCord's answers to the bot's requests): the nearer
figure for the bot's own work. Compare commits at the same ``--tables``.

Delivered marks are written without delay (``flush_delay=0`` where the store takes it): a
timer of the bot keeps SimCord's operation waiting until it fires, so every commit here
writes one batch of marks a move (commits whose store does not take the option keep their
quarter of a second, and wait for it each move); at 40 moves a second in production a batch
holds about ten.

With ``--baseline REV`` the same file runs twice in subprocesses of this Python, one over a
``git worktree`` of REV (made in a temporary folder and removed after) and one over this
checkout, each with its own tables, set up one after the other; then, round after round,
each does its CPU batches and its moves alone in turn (the order swapped every round), so
both see the same load of the machine. Printed: both columns and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import inspect
import json
import os
import pstats
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("BOARDROOM_BENCH_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402

import rules  # noqa: E402
from bot.app import create_bot  # noqa: E402
from bot.store import Store  # noqa: E402

PER_GUILD = 200
EPHEMERAL = 1 << 6
CHANNEL = re.compile(r"^/channels/(\d+)/")
CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
WEBHOOK = re.compile(r"^/webhooks/\d+/[^/]+")
USER = re.compile(r"^/users/\d+$")


# --------------------------------------------------------------------------- requests


def kind(entry: simcord.HttpLogEntry, games: set[int]) -> str:
    """What a REST call was for: ``channel`` (a game channel), ``dm`` (a DM channel's
    messages, or opening one), ``user`` (a user looked up), ``interaction`` (a callback or
    an interaction webhook: not under the global limit), or ``other``."""
    path = entry.path.split("?")[0]
    if CALLBACK.match(path) or WEBHOOK.match(path):
        return "interaction"
    if found := CHANNEL.match(path):
        return "channel" if int(found.group(1)) in games else "dm"
    if path == "/users/@me/channels":
        return "dm"
    if USER.match(path) and entry.method == "GET":
        return "user"
    return "other"


def shows(entry: simcord.HttpLogEntry, channel_id: int) -> bool:
    """Whether a REST call puts something in ``channel_id`` for everyone to see: a post or
    an edit of its messages, or a public answer to an interaction (every ``/play`` here is
    sent in its table's channel)."""
    path = entry.path.split("?")[0]
    payload = entry.json if isinstance(entry.json, dict) else {}
    if path.startswith(f"/channels/{channel_id}/messages"):
        return entry.method in ("POST", "PATCH")
    if CALLBACK.match(path):
        flags = int((payload.get("data") or {}).get("flags") or 0)
        return payload.get("type") in (4, 7) and not flags & EPHEMERAL
    if WEBHOOK.match(path) and entry.method == "POST":
        return not int(payload.get("flags") or 0) & EPHEMERAL
    return False


def role(thread: threading.Thread) -> str:
    if thread is threading.main_thread():
        return "loop"
    if thread.name.startswith("boardroom-render"):
        return "pictures"
    return "database" if "_connection_worker_thread" in thread.name else "other"


def thread_clocks() -> dict[int, tuple[str, float]]:
    """Each live thread's role and CPU seconds so far (where the system tells)."""
    clocks = {}
    for thread in threading.enumerate():
        try:
            clock = time.pthread_getcpuclockid(thread.ident or 0)
            clocks[thread.ident or 0] = (role(thread), time.clock_gettime(clock))
        except (AttributeError, OSError):
            continue
    return clocks


def package(filename: str) -> str:
    """Whose code a profiled function is: a site package's name, this project's top
    package, the standard library's module, or a built-in (C code: named by its caller's
    package in ``attribute``)."""
    path = Path(filename)
    if "site-packages" in path.parts:
        return path.parts[path.parts.index("site-packages") + 1].split(".")[0]
    if path.is_relative_to(ROOT):
        return path.relative_to(ROOT).parts[0]
    if filename.startswith("<") or filename == "~":
        return "built-in"
    return "stdlib:" + path.stem


def attribute(profile: cProfile.Profile) -> Counter[str]:
    """The event loop's CPU (its own time, ``tottime``) by package. The time of the
    standard library and of built-ins goes to the packages that called them, through
    callers of callers (by their shares of the calls), so Pillow's C code called by the
    bot counts as the bot's, ``copy.deepcopy`` called by SimCord as SimCord's, and the
    event loop's own machinery (nobody's caller above it) as ``asyncio``'s."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    owners: dict[Any, Counter[str]] = {}

    def owner(function: Any, seen: frozenset[Any]) -> Counter[str]:
        if function in owners:
            return owners[function]
        name = package(function[0])
        callers = stats.get(function, (0, 0, 0, 0, {}))[4]
        shares: Counter[str] = Counter()
        if not name.startswith(("stdlib:", "built-in")):
            shares[name] = 1.0
        else:
            outside = {c: v for c, v in callers.items() if c not in seen and c != function}
            total = sum(v[1] for v in outside.values())
            for caller, v in outside.items():
                for who, share in owner(caller, seen | {function}).items():
                    shares[who] += share * v[1] / total
            if not shares:
                shares["asyncio (the loop itself)"] = 1.0
        if not seen:
            owners[function] = shares
        return shares

    spent: Counter[str] = Counter()
    for function, (_, _, tottime, _, _) in stats.items():
        for who, share in owner(function, frozenset()).items():
            spent[who] += tottime * share
    return spent


def thread_cpu(before: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds by role since ``before`` (threads that ended meanwhile are lost)."""
    spent: Counter[str] = Counter()
    for ident, (name, now) in thread_clocks().items():
        spent[name] += now - before.get(ident, (name, 0.0))[1]
    return dict(spent)


# --------------------------------------------------------------------------- the tables


@dataclass
class Table:
    channel: Any
    guild_id: int
    members: list[Any]
    game: str
    deals: int = 0
    awaited: list[tuple[Any, list[str]]] | None = None  # None: to be listed again


@dataclass
class Alone:
    """Moves served one at a time, seconds from each one's interaction: to the bot's first
    REST call that shows it in the channel (``None``: nothing shown there) and to its last
    REST call for it, in wall time; to the channel and to the last call in the process's
    CPU time, and to the last call in the event loop's thread's CPU time. ``collected``:
    the CPU of each move's full garbage collections (``Collections``): all of them, those
    the event loop's thread made, and those that ended before the move showed."""

    shown: list[float | None] = field(default_factory=list)
    busy: list[float] = field(default_factory=list)
    shown_cpu: list[float | None] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    loop: list[float] = field(default_factory=list)
    collected: list[tuple[float, float, float]] = field(default_factory=list)

    def extend(self, other: Alone) -> None:
        self.shown += other.shown
        self.busy += other.busy
        self.shown_cpu += other.shown_cpu
        self.cpu += other.cpu
        self.loop += other.loop
        self.collected += [(spent, loop, before) for spent, loop, before in other.collected]

    def without_collections(self) -> Alone:
        """The same moves, each one's full collections taken out of its clocks."""
        spent, loop, before = zip(*self.collected, strict=True) if self.collected else ((),) * 3
        return replace(
            self,
            shown_cpu=[None if s is None else s - b
                       for s, b in zip(self.shown_cpu, before, strict=True)],
            cpu=[c - g for c, g in zip(self.cpu, spent, strict=True)],
            loop=[c - g for c, g in zip(self.loop, loop, strict=True)])


class Collections:
    """Python's full garbage collections (generation 2) as they happen: each one's end on
    the process's CPU clock, its CPU (the collecting thread's), and whether the event
    loop's thread made it. A full collection scans every object the process tracks, and
    the process here holds SimCord's simulated Discord too (its guilds, members, messages
    and the log of every request, more objects than the bot's own tables), so its pauses
    are longer than a bot's in production; the GIL is held meanwhile, so the event loop
    waits whichever thread collects."""

    def __init__(self) -> None:
        self.ended: list[tuple[float, float, bool]] = []
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._began = time.thread_time()
        else:
            self.ended.append((time.process_time(), time.thread_time() - self._began,
                               threading.current_thread() is threading.main_thread()))

    def between(self, began: float, end: float, shown: float | None
                ) -> tuple[float, float, float]:
        """CPU of the full collections that ended between two process CPU stamps: all
        of them, the event loop's thread's, and those before ``shown``."""
        inside = [(at, cpu, loop) for at, cpu, loop in self.ended if began <= at <= end]
        return (sum(cpu for _, cpu, _ in inside), sum(cpu for _, cpu, loop in inside if loop),
                sum(cpu for at, cpu, _ in inside if shown is not None and at <= shown))


@dataclass
class Bench:
    """The bot on SimCord with its tables, and what was counted so far."""

    env: simcord.Env
    tables: list[Table]
    seed: int
    rng: random.Random
    games: set[int] = field(default_factory=set)
    requests: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    refused: int = 0
    collections: Collections = field(default_factory=Collections)

    @property
    def service(self) -> Any:
        return getattr(self.env.bot, "service")  # noqa: B009 (Boardroom's, not discord.py's)

    async def version(self, t: Table) -> int:
        try:
            return int((await self.service.status(t.channel.id)).version)
        except rules.GameError:
            return 0

    async def deal(self, t: Table) -> None:
        """A new game at ``t`` through the service (opened, joined, started with its own
        seed), its start marked posted: the first move posts the turn."""
        first, second = t.members
        seed = self.seed * 100_000 + self.tables.index(t) * 100 + t.deals
        t.deals += 1
        await self.service.open(t.channel.id, t.guild_id, first.id, first.name, t.game)
        await self.service.join(t.channel.id, second.id, second.name)
        await self.service.delivered(await self.service.start(t.channel.id, first.id,
                                                              seed=seed))
        t.awaited = None

    async def listed(self, t: Table) -> list[tuple[Any, list[str]]]:
        if t.awaited is None:
            t.awaited = [(m, moves) for m in t.members
                         if (moves := await self.service.legal_moves(t.channel.id, m.id))]
        return t.awaited

    async def pick(self, count: int, tables: Sequence[Table] | None = None
                   ) -> list[tuple[Table, Any, str]]:
        """``count`` moves (at most one a table) chosen at random, or one at each of
        ``tables``; games over are dealt anew first. Listed now, before anything is timed."""
        for t in self.tables:
            if t.awaited is None and not await self.listed(t):
                await self.deal(t)
                if not await self.listed(t):
                    raise RuntimeError(f"nobody is awaited at the new {t.game} table")
        chosen = list(tables) if tables is not None else self.rng.sample(
            self.tables, min(count, len(self.tables)))
        picks = []
        for t in chosen:
            member, moves = self.rng.choice(t.awaited or [])
            picks.append((t, member, self.rng.choice(moves)))
        return picks

    async def play(self, t: Table, member: Any, move: str) -> None:
        await member.slash(t.channel, "play", action=move)
        t.awaited = None

    def count(self, since: int) -> None:
        for entry in self.env.http_requests[since:]:
            self.requests[kind(entry, self.games)] += 1

    async def check(self, picks: Sequence[tuple[Table, Any, str]], before: list[int]) -> None:
        for (t, _, _), version in zip(picks, before, strict=True):
            if await self.version(t) <= version:
                self.refused += 1

    async def warm(self) -> None:
        """One move at every table, not counted."""
        for t, member, move in await self.pick(0, self.tables):
            await self.play(t, member, move)

    async def cpu(self, size: int) -> dict[str, float]:
        """CPU and wall time a move over ``size`` moves sent back to back."""
        picks = await self.pick(size)
        before = [await self.version(t) for t, _, _ in picks]
        since = len(self.env.http_requests)
        threads = thread_clocks()
        wall, cpu = time.perf_counter(), time.process_time()
        for t, member, move in picks:
            await self.play(t, member, move)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        split = thread_cpu(threads)
        self.count(since)
        self.moves += len(picks)
        await self.check(picks, before)
        return {"cpu_ms": 1000 * cpu / len(picks), "wall_ms": 1000 * wall / len(picks),
                **{f"{k}_ms": 1000 * v / len(picks) for k, v in split.items()}}

    async def alone(self, size: int) -> Alone:
        """``size`` moves at distinct tables, one after another, each one's times."""
        picks = await self.pick(size)
        before = [await self.version(t) for t, _, _ in picks]
        since = len(self.env.http_requests)
        result = Alone()
        for t, member, move in picks:
            began = clocks()
            with self.watch(t.channel.id) as (shown, last):
                await self.play(t, member, move)
            end = last[-1] if last else clocks()
            result.shown.append(shown[0][0] - began[0] if shown else None)
            result.shown_cpu.append(shown[0][1] - began[1] if shown else None)
            result.busy.append(end[0] - began[0])
            result.cpu.append(end[1] - began[1])
            result.loop.append(end[2] - began[2])
            result.collected.append(self.collections.between(
                began[1], end[1], shown[0][1] if shown else None))
        self.count(since)
        self.moves += len(picks)
        await self.check(picks, before)
        return result

    @contextlib.contextmanager
    def watch(self, channel_id: int) -> Iterator[tuple[list[Clocks], list[Clocks]]]:
        """Yield two lists that get the ``clocks()`` of the first REST call made while the
        block runs that shows something in ``channel_id``, and of the last REST call
        (read every millisecond, in the event loop's thread)."""
        log = self.env.http_requests
        shown: list[Clocks] = []
        last: list[Clocks] = []
        start = len(log)

        def look() -> None:
            nonlocal start
            upto = len(log)
            if upto == start:
                return
            now = clocks()
            if not shown and any(shows(entry, channel_id) for entry in log[start:upto]):
                shown.append(now)
            last[:] = [now]
            start = upto

        async def watcher() -> None:
            while True:
                look()
                await asyncio.sleep(0.001)

        task = asyncio.get_running_loop().create_task(watcher())
        try:
            yield shown, last
        finally:
            task.cancel()
            look()  # calls made in the loop's last turn before the answer came back


Clocks = tuple[float, float, float]


def clocks() -> Clocks:
    """Wall time, the process's CPU time, the calling thread's CPU time."""
    return time.perf_counter(), time.process_time(), time.thread_time()


def queued(alone: Alone, rate: float, hold: str) -> list[float]:
    """Arrival to channel (seconds) of the moves alone, replayed on CPU clocks at ``rate``
    a second through one server: each move starts when it arrives or when the server is
    done with the one before, holds it for its event loop's CPU (``hold="loop"``: the
    picture threads have cores of their own) or for all its CPU (``"cpu"``: one core for
    everything), and shows in the channel its CPU to the channel after it starts."""
    free = 0.0
    out = []
    held = alone.loop if hold == "loop" else alone.cpu
    for i, (shown, busy) in enumerate(zip(alone.shown_cpu, held, strict=True)):
        arrival = i / rate
        begin = max(arrival, free)
        free = begin + busy
        if shown is not None:
            out.append(begin - arrival + shown)
    return out


def accepted(function: Any, **options: Any) -> dict[str, Any]:
    """The options ``function`` takes (older commits' signatures differ)."""
    names = inspect.signature(function).parameters
    return {k: v for k, v in options.items() if k in names}


try:  # this checkout's requests are checked against Discord's specification at the end
    from tests.contract import run as on_simcord
except ImportError:  # a commit measured beside it (--baseline) from before the contract
    on_simcord = simcord.run


@contextlib.asynccontextmanager
async def bench(tables: int, seed: int, *, warm: bool = True) -> AsyncIterator[Bench]:
    with tempfile.TemporaryDirectory(prefix="adapter-") as folder:
        store = await Store.open(str(Path(folder) / "boardroom.db"),
                                 **accepted(Store.open, flush_delay=0))
        try:
            bot = create_bot(store, images=True, **accepted(create_bot, level="normal"))
            async with on_simcord(bot, approved_intents=discord.Intents.none()) as env:
                names = list(rules.GAMES)
                made = []
                for i in range(tables):
                    if i % PER_GUILD == 0:
                        guild = env.create_guild(f"Game night {i // PER_GUILD + 1}")
                    channel = guild.create_text_channel(f"table-{i}")
                    members = [guild.add_member(env.create_user(f"p{i}{side}"))
                               for side in "ab"]
                    made.append(Table(channel, guild.id, members, names[i % len(names)]))
                b = Bench(env, made, seed, random.Random(f"adapter/{seed}"),
                          {t.channel.id for t in made})
                for t in made:
                    await b.deal(t)
                if warm:
                    await b.warm()
                gc.callbacks.append(b.collections)
                try:
                    yield b
                finally:
                    gc.callbacks.remove(b.collections)
        finally:
            await store.close()


# --------------------------------------------------------------------------- figures


def tracked() -> int:
    """How many objects the garbage collector tracks: what a full collection scans."""
    return len(gc.get_objects())


def median(values: Sequence[float] | None) -> float | None:
    return statistics.median(values) if values else None


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Side:
    """What one commit measured, over every round."""

    name: str
    cpu: list[float] = field(default_factory=list)  # ms a move, a batch each
    split: dict[str, list[float]] = field(default_factory=dict)  # the same by thread
    alone: Alone = field(default_factory=Alone)
    queued: dict[str, list[float]] = field(default_factory=dict)  # seconds, at the rate
    moves: int = 0
    refused: int = 0
    requests: Counter[str] = field(default_factory=Counter)
    setup: float = 0.0
    tracked: int = 0  # objects the garbage collector tracks, at the end

    def add(self, what: str, result: dict[str, Any], rate: float) -> None:
        if what == "cpu":
            self.cpu += [b["cpu_ms"] for b in result["batches"]]
            for name in ("loop", "pictures", "database"):
                self.split.setdefault(name, []).extend(
                    b.get(f"{name}_ms", 0.0) for b in result["batches"])
        else:
            alone = Alone(**result)
            self.alone.extend(alone)
            for hold in ("loop", "cpu"):
                self.queued.setdefault(hold, []).extend(queued(alone, rate, hold))
            self.queued.setdefault("loop without", []).extend(
                queued(alone.without_collections(), rate, "loop"))

    def close(self, totals: dict[str, Any]) -> None:
        self.moves, self.refused = totals["moves"], totals["refused"]
        self.requests = Counter(totals["requests"])
        self.tracked = totals.get("tracked", 0)

    def rows(self, rate: float) -> list[tuple[str, float | None, str]]:
        """(label, value, format) for the table; ``None`` where nothing was measured."""
        def ms(values: Sequence[float], q: float) -> float | None:
            return 1000 * percentile(values, q) if values else None

        per = (lambda n: n / self.moves) if self.moves else (lambda _n: 0.0)
        under = sum(n for k, n in self.requests.items() if k != "interaction")
        shown = [s for s in self.alone.shown if s is not None]
        shown_cpu = [s for s in self.alone.shown_cpu if s is not None]
        full = [spent for spent, _, _ in self.alone.collected if spent]
        return [
            ("moves measured", float(self.moves), ".0f"),
            ("CPU ms a move (median of batches)", median(self.cpu), ".1f"),
            ("  the event loop (bot, discord.py, SimCord)", median(self.split["loop"]), ".1f"),
            ("  picture threads", median(self.split["pictures"]), ".1f"),
            ("  database thread", median(self.split["database"]), ".1f"),
            ("alone: to the channel, wall, median ms", ms(shown, 0.5), ".0f"),
            ("alone: to the channel, wall, p99 ms", ms(shown, 0.99), ".0f"),
            ("alone: to its last request, wall, median ms", ms(self.alone.busy, 0.5), ".0f"),
            ("alone: to the channel, CPU, median ms", ms(shown_cpu, 0.5), ".1f"),
            ("alone: CPU to its last request, median ms", ms(self.alone.cpu, 0.5), ".1f"),
            ("  the event loop's", ms(self.alone.loop, 0.5), ".1f"),
            ("alone: silent in the channel", float(len(self.alone.shown) - len(shown)), ".0f"),
            (f"queued at {rate:g}/s on the loop's CPU: median ms",
             ms(self.queued.get("loop", []), 0.5), ".0f"),
            ("  p99 ms", ms(self.queued.get("loop", []), 0.99), ".0f"),
            (f"queued at {rate:g}/s on all CPU, one core: median ms",
             ms(self.queued.get("cpu", []), 0.5), ".0f"),
            ("  p99 ms", ms(self.queued.get("cpu", []), 0.99), ".0f"),
            ("full garbage collections in the moves alone", float(len(full)), ".0f"),
            ("  median ms of CPU", ms(full, 0.5), ".0f"),
            ("  objects tracked at the end, thousands", self.tracked / 1000, ".0f"),
            (f"queued at {rate:g}/s on the loop's CPU without them: p99 ms",
             ms(self.queued.get("loop without", []), 0.99), ".0f"),
            ("requests a move", per(sum(self.requests.values())), ".2f"),
            ("  under the global limit", per(under), ".2f"),
            ("  channel", per(self.requests["channel"]), ".2f"),
            ("  DMs (and DM channels)", per(self.requests["dm"]), ".2f"),
            ("  user look-ups", per(self.requests["user"]), ".2f"),
            ("  interaction (exempt)", per(self.requests["interaction"]), ".2f"),
            ("moves refused (should be 0)", float(self.refused), ".0f"),
        ]


def report(sides: Sequence[Side], rate: float) -> str:
    columns = [s.name for s in sides] + (["this / base"] if len(sides) == 2 else [])
    rows = [side.rows(rate) for side in sides]
    lines = []
    for i, (label, _, fmt) in enumerate(rows[0]):
        values = [r[i][1] for r in rows]
        cells = ["-" if v is None else format(v, fmt) for v in values]
        if len(values) == 2:
            a, b = values
            cells.append(f"{b / a:.2f}" if a and b is not None else "-")
        lines.append((label, cells))
    width = max(len(label) for label, _ in lines)
    widths = [max(len(c), *(len(cells[j]) for _, cells in lines)) for j, c in
              enumerate(columns)]
    out = [" " * width + "  " + "  ".join(c.rjust(w) for c, w in zip(columns, widths,
                                                                       strict=True))]
    out += [label.ljust(width) + "  " + "  ".join(c.rjust(w) for c, w in
                                                  zip(cells, widths, strict=True))
            for label, cells in lines]
    return "\n".join(out)


def brief(what: str, result: dict[str, Any], rate: float) -> str:
    if what == "cpu":
        return " ".join(f"{b['cpu_ms']:.1f}" for b in result["batches"]) + " ms CPU a move"
    alone = Alone(**result)
    shown = [s for s in alone.shown if s is not None] or [0.0]
    loop, cpu = (queued(alone, rate, hold) or [0.0] for hold in ("loop", "cpu"))
    return (f"{len(alone.busy)} moves alone: to the channel median "
            f"{1000 * percentile(shown, 0.5):.0f} ms, loop CPU "
            f"{1000 * percentile(alone.loop, 0.5):.1f} ms, all CPU "
            f"{1000 * percentile(alone.cpu, 0.5):.1f} ms; queued at {rate:g}/s p50/p99 "
            f"{1000 * percentile(loop, 0.5):.0f}/{1000 * percentile(loop, 0.99):.0f} ms "
            f"(loop), {1000 * percentile(cpu, 0.5):.0f}/{1000 * percentile(cpu, 0.99):.0f} ms"
            " (all)")


# --------------------------------------------------------------------------- running


def commit(root: Path) -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


async def measure(b: Bench, what: str, args: argparse.Namespace) -> dict[str, Any]:
    if what == "cpu":
        return {"batches": [await b.cpu(args.batch) for _ in range(args.batches)]}
    alone = await b.alone(args.chunk)
    return {"shown": alone.shown, "busy": alone.busy, "shown_cpu": alone.shown_cpu,
            "cpu": alone.cpu, "loop": alone.loop, "collected": alone.collected}


async def serve(args: argparse.Namespace) -> None:
    """The child's side: set up, then answer ``cpu``, ``alone`` and ``done`` lines on
    stdin with one JSON line each on stdout."""
    began = time.perf_counter()
    async with bench(args.tables, args.seed, warm=not args.cold) as b:
        print(json.dumps({"setup": time.perf_counter() - began}), flush=True)
        for line in sys.stdin:
            what = line.strip()
            if what in ("cpu", "alone"):
                result = await measure(b, what, args)
            else:
                result = {"moves": b.moves, "refused": b.refused, "tracked": tracked(),
                          "requests": dict(b.requests), "errors": len(b.env.errors)}
            print(json.dumps(result), flush=True)
            if what == "done":
                break


class Child:
    """One commit's benchmark in a subprocess, set up and waiting for orders."""

    def __init__(self, name: str, root: Path, argv: Sequence[str]) -> None:
        self.name = name
        env = dict(os.environ, BOARDROOM_BENCH_ROOT=str(root), PYTHONPATH=str(root))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", *argv], env=env,
            cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, what: str | None = None) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        if what is not None:
            self.process.stdin.write(what + "\n")
            self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name}'s benchmark stopped (exit status "
                               f"{self.process.wait()}); its error is above")
        answer: dict[str, Any] = json.loads(line)
        return answer


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[tuple[Path, str]]:
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="adapter-baseline-") as folder:
        path = Path(folder) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(path), rev],
                       cwd=here, check=True)
        try:
            yield path, commit(path)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=here,
                           check=False)


def side_by_side(args: argparse.Namespace, argv: Sequence[str]) -> None:
    here = Path(__file__).resolve().parents[1]
    with worktree(args.baseline) as (tree, name):
        sides = [Side(name if args.baseline == name else f"{args.baseline} ({name})"),
                 Side(f"this ({commit(here)})")]
        children: list[Child] = []
        try:
            for side, root in zip(sides, (tree, here), strict=True):
                # One after the other: the two do not share the cores while setting up.
                children.append(Child(side.name, root, argv))
                side.setup = children[-1].ask()["setup"]
                print(f"{side.name}: set up in {side.setup:.0f} s", flush=True)
            for r in range(args.rounds):
                order = [0, 1] if r % 2 == 0 else [1, 0]
                for what in ("cpu", "alone"):
                    for i in order:
                        result = children[i].ask(what)
                        sides[i].add(what, result, args.rate)
                        print(f"round {r + 1} {sides[i].name}: "
                              + brief(what, result, args.rate), flush=True)
            for child, side in zip(children, sides, strict=True):
                totals = child.ask("done")
                side.close(totals)
                if totals["errors"]:
                    print(f"{side.name}: the bot swallowed {totals['errors']} errors",
                          flush=True)
        finally:
            for child in children:
                if child.process.poll() is None:
                    child.process.kill()
                child.process.wait()
        print()
        print(report(sides, args.rate))


async def alone(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    side = Side(f"this ({commit(ROOT)})")
    async with bench(args.tables, args.seed, warm=not args.cold) as b:
        print(f"set up in {time.perf_counter() - began:.0f} s", flush=True)
        for r in range(args.rounds):
            for what in ("cpu", "alone"):
                result = await measure(b, what, args)
                side.add(what, result, args.rate)
                print(f"round {r + 1}: " + brief(what, result, args.rate), flush=True)
        if args.profile:
            await profiled(b, args.batch)
        side.close({"moves": b.moves, "refused": b.refused, "requests": b.requests,
                    "tracked": tracked()})
    print()
    print(report([side], args.rate))


async def profiled(b: Bench, size: int) -> None:
    """One more batch under cProfile: whose code the event loop's CPU is spent in."""
    profile = cProfile.Profile(time.thread_time)  # the loop thread's CPU, not wall time
    loop_before = time.thread_time()
    profile.enable()
    result = await b.cpu(size)
    profile.disable()
    loop = time.thread_time() - loop_before
    spent = attribute(profile)
    total = sum(spent.values())
    print(f"\nprofiled batch: {result['cpu_ms']:.1f} ms CPU a move under the profiler, the "
          f"event loop's CPU by package (share of {total:.2f} s profiled, {loop:.2f} s):")
    for name, seconds in spent.most_common(12):
        print(f"  {name:24} {100 * seconds / total:5.1f}%")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=40.0, help="moves a second offered")
    parser.add_argument("--batch", type=int, default=100, help="moves a CPU batch")
    parser.add_argument("--batches", type=int, default=3, help="CPU batches a round")
    parser.add_argument("--chunk", type=int, default=400, help="moves alone a round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--cold", action="store_true",
                        help="no untimed first move at every table")
    parser.add_argument("--baseline", metavar="REV",
                        help="a commit to measure side by side with this checkout")
    parser.add_argument("--profile", action="store_true",
                        help="one more batch under cProfile: the event loop's CPU by package")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve(args))
        return
    shared = ["--tables", str(args.tables), "--rate", str(args.rate), "--batch",
              str(args.batch), "--batches", str(args.batches), "--chunk", str(args.chunk),
              "--seed", str(args.seed), *(["--cold"] if args.cold else [])]
    print(f"{args.tables} tables on SimCord, pictures on; {args.rounds} rounds of "
          f"{args.batches} CPU batches of {args.batch} moves and {args.chunk} moves alone; "
          f"queued at {args.rate:g}/s", flush=True)
    if args.baseline:
        side_by_side(args, shared)
    else:
        asyncio.run(alone(args))


if __name__ == "__main__":
    main()
