"""1,000 open tables playing random games through the table service on a file database.

    .venv/bin/python benchmarks/tables.py [--tables 1000] [--seconds 20] [--cores 1]

Every table is a real one: opened, joined and started through ``TableService`` on a SQLite
file (WAL; synchronous=NORMAL as the bot runs, or ``--sync FULL``), two seated players each.
A move is what a player's command costs the bot: ``legal_moves`` (the driver picks one at
random), ``play``, and ``delivered`` once the reply is "posted". Printed:

- throughput: all tables at once, moves/s without and with images (and CPU per move); with
  images, after each table has drawn its first picture (measured apart, 50 tables at a
  time);
- latency of ``play``, until the DMs' pictures are drawn too: one move at a time (nothing
  else queued) and under full load (where the time includes waiting behind the other tables'
  moves);
- the floor, measured in the same run on the same states and pictures: a bare ``sqlite3``
  UPDATE + COMMIT of the state's bytes on the same file, plus PNG-encoding the same board
  picture (decoded beforehand; encoding only) with Pillow's standard encoder, and the ratio
  of the move's p99 to it; and the same with the bot's own, faster encoder;
- database bytes per finished game (whole games played to the end, file size after VACUUM,
  minus an empty database's), and peak RSS.

By default the process is pinned to one core (``--cores``), so the figures are one core's.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# Import this checkout's packages, whatever the working directory or the install says.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.service import Reply, TableService
from bot.store import Store
from render import kit

GAME = "cube-conquest"
TARGETS = {"ratio": 3.0, "with images": 40.0, "without images": 1500.0, "rss MB": 200.0}


@dataclass
class Run:
    """What one phase measured."""

    moves: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    latencies: list[float] = field(default_factory=list)  # of play() + its DMs, in seconds
    samples: list[tuple[str, bytes]] = field(default_factory=list)  # (state, board png)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def quantile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def pin(cores: int) -> str:
    """Run on the first ``cores`` CPUs we may use (Linux); say which."""
    if cores <= 0 or not hasattr(os, "sched_setaffinity"):
        return "all cores"
    allowed = sorted(os.sched_getaffinity(0))[:cores]
    os.sched_setaffinity(0, allowed)
    return f"{len(allowed)} core{'s' if len(allowed) > 1 else ''} (CPU {allowed})"


def cpu_time() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Bench:
    """The tables, their players, and the driver that makes random moves for them."""

    def __init__(self, service: TableService, store: Store, tables: int) -> None:
        self.service = service
        self.store = store
        self.channels = list(range(1, tables + 1))
        self.rng = random.Random(2026)
        self.finished = 0

    async def open(self, channel: int) -> None:
        first, second = channel * 2, channel * 2 + 1
        await self.service.open(channel, 1, first, f"Player {first}", GAME)
        await self.service.join(channel, second, f"Player {second}")
        reply = await self.service.start(channel, first, seed=self.rng.randrange(2**63))
        await self.service.delivered(reply)

    async def move(self, channel: int, run: Run) -> Reply:
        """One player's move on one table, as the bot would serve it."""
        waiting = await self.service.waiting(channel)
        if not waiting:  # that game is over: the table opens a new one
            self.finished += 1
            await self.open(channel)
            waiting = await self.service.waiting(channel)
        user = waiting[0][0]
        move = self.rng.choice(await self.service.legal_moves(channel, user))
        start = time.perf_counter()
        reply = await (await self.service.play(channel, user, move)).with_pictures()
        run.latencies.append(time.perf_counter() - start)
        await self.service.delivered(reply)
        run.moves += 1
        return reply

    async def load(self, seconds: float) -> Run:
        """Every table plays as fast as it can, all at once, for ``seconds``."""
        run = Run()
        stop = time.perf_counter() + seconds

        async def table(channel: int) -> None:
            while time.perf_counter() < stop:
                await self.move(channel, run)

        started, cpu = time.perf_counter(), cpu_time()
        await asyncio.gather(*(table(c) for c in self.channels))
        run.seconds, run.cpu = time.perf_counter() - started, cpu_time() - cpu
        return run

    async def each_once(self) -> Run:
        """Every table plays one move, fifty tables at a time."""
        run = Run()
        started, cpu = time.perf_counter(), cpu_time()
        for first in range(0, len(self.channels), 50):
            await asyncio.gather(*(self.move(c, run) for c in self.channels[first:first + 50]))
        run.seconds, run.cpu = time.perf_counter() - started, cpu_time() - cpu
        return run

    async def one_at_a_time(self, moves: int, *, sample: bool = False) -> Run:
        """``moves`` moves in turn over the tables, never two at once."""
        run = Run()
        started, cpu = time.perf_counter(), cpu_time()
        for n in range(moves):
            channel = self.channels[n * 7919 % len(self.channels)]
            reply = await self.move(channel, run)
            if sample and reply.picture is not None:
                row = await self.store.active_game(channel) or await self.store.latest_game(
                    channel)
                assert row is not None and row.state is not None
                run.samples.append((row.state, reply.picture.png))
        run.seconds, run.cpu = time.perf_counter() - started, cpu_time() - cpu
        return run


def floor(path: str, samples: list[tuple[str, bytes]], sync: str
          ) -> tuple[list[float], list[float]]:
    """Per sample: a bare UPDATE + COMMIT of the state bytes, plus encoding the picture,
    (a) with Pillow's standard PNG encoder, the floor as this benchmark has always defined
    it, and (b) with the bot's own encoder (``kit.png``, one call of ISA-L's deflate)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute(f"PRAGMA synchronous = {'FULL' if sync == 'FULL' else 'NORMAL'}")
    db.execute("CREATE TABLE IF NOT EXISTS floor (id INTEGER PRIMARY KEY, state TEXT)")
    db.execute("INSERT OR REPLACE INTO floor VALUES (1, '')")
    standard, own = [], []
    for state, png in samples:
        image = Image.open(io.BytesIO(png))
        image.load()
        start = time.perf_counter()
        db.execute("BEGIN")
        db.execute("UPDATE floor SET state = ? WHERE id = 1", (state,))
        db.execute("COMMIT")
        commit = time.perf_counter() - start
        start = time.perf_counter()
        image.save(io.BytesIO(), format="PNG")
        standard.append(commit + time.perf_counter() - start)
        start = time.perf_counter()
        kit.png(image)
        own.append(commit + time.perf_counter() - start)
    db.close()
    return standard, own


async def bytes_per_game(folder: str, games: int) -> tuple[float, int]:
    """Whole games on a fresh file: (database bytes per finished game, moves per game)."""
    path = os.path.join(folder, "games.db")
    empty = os.path.join(folder, "empty.db")
    for each in (path, empty):
        store = await Store.open(each)
        await store.close()
    store = await Store.open(path)
    service = TableService(store, images=False)
    bench = Bench(service, store, games)
    await asyncio.gather(*(bench.open(c) for c in bench.channels))
    run = Run()

    async def play_out(channel: int) -> None:
        while await service.waiting(channel):
            await bench.move(channel, run)

    await asyncio.gather(*(play_out(c) for c in bench.channels))
    await store.close()
    sizes = []
    for each in (path, empty):
        with sqlite3.connect(each) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("VACUUM")
        sizes.append(os.path.getsize(each))
    return (sizes[0] - sizes[1]) / games, run.moves // games


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def rss_mb() -> float:
    """Peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_now_mb() -> float:
    """Resident memory now, in MB (Linux; else the peak)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return rss_mb()


async def main(args: argparse.Namespace) -> int:
    where = pin(args.cores)
    folder = tempfile.mkdtemp(prefix="boardroom-bench-", dir=args.dir)
    path = os.path.join(folder, "tables.db")
    print(f"Boardroom tables benchmark: {args.tables} tables of {GAME}, 2 players each, on "
          f"{where}; database {path} (WAL, synchronous={args.sync}).")
    store = await Store.open(path, synchronous=args.sync)
    service = TableService(store, images=False)
    bench = Bench(service, store, args.tables)
    started = time.perf_counter()
    await asyncio.gather(*(bench.open(c) for c in bench.channels))
    print(f"Opened and started {args.tables} tables in {time.perf_counter() - started:.1f} s; "
          f"peak RSS so far {rss_mb():.0f} MB.")

    service.images = False
    plain = await bench.load(args.seconds)
    quiet = await bench.one_at_a_time(args.latency_moves)
    without = rss_mb()
    service.images = True
    # Each table's first picture is measured apart: it warms the text masks the kit keeps.
    first = await bench.each_once()
    pictured = await bench.load(args.image_seconds)
    quiet_pictured = await bench.one_at_a_time(args.image_moves, sample=True)
    print(f"RSS: peak {without:.0f} MB before any picture; after the picture phases "
          f"{rss_now_mb():.0f} MB now, {rss_mb():.0f} MB peak.")
    await store.close()
    floors, own_floors = floor(path, quiet_pictured.samples, args.sync)
    per_game, moves_per_game = await bytes_per_game(folder, args.games)
    peak = rss_mb()

    f50 = statistics.median(floors)
    f99 = sorted(floors)[min(len(floors) - 1, int(0.99 * len(floors)))]
    p99 = quiet_pictured.quantile(0.99)
    ratio = p99 / f99
    print()
    print(f"{'':34}{'moves/s':>9}{'CPU/move':>11}{'p50':>11}{'p99':>11}")
    for label, run in (("all tables at once, no images", plain),
                       ("each table's first picture", first),
                       ("all tables at once, images", pictured),
                       ("one at a time, no images", quiet),
                       ("one at a time, images", quiet_pictured)):
        cpu = ms(run.cpu / run.moves) if run.moves else "-"
        print(f"{label:<34}{run.rate:>9.0f}{cpu:>11}{ms(run.quantile(0.5)):>11}"
              f"{ms(run.quantile(0.99)):>11}")
    print(f"(latency is the time play() takes, the DMs' pictures included; 'all at once' "
          f"includes waiting behind the other {args.tables - 1} tables' moves; a table's "
          f"first picture is drawn 50 tables at a time)")
    print()
    print(f"Floor (bare sqlite3 commit of the same state + PNG encoding of the same board, "
          f"{len(floors)} samples): p50 {ms(f50)}, p99 {ms(f99)}")
    print(f"Move p99 with images, one at a time: {ms(p99)} = {ratio:.1f}x the floor's p99 "
          f"(p50: {quiet_pictured.quantile(0.5) / f50:.1f}x)")
    o50 = statistics.median(own_floors)
    o99 = sorted(own_floors)[min(len(own_floors) - 1, int(0.99 * len(own_floors)))]
    print(f"The same floor with the bot's own encoder (kit.png): p50 {ms(o50)}, p99 "
          f"{ms(o99)}; the move's p99 is {p99 / o99:.1f}x that (p50: "
          f"{quiet_pictured.quantile(0.5) / o50:.1f}x): drawing, not encoding, is the cost")
    print(f"Database bytes per finished game: {per_game:,.0f} ({moves_per_game} moves a game, "
          f"{args.games} games)")
    print(f"Peak RSS: {peak:.0f} MB ({without:.0f} MB before any picture was drawn)")
    print()
    checks = [
        ("p99 move latency with images <= 3x the floor", ratio <= TARGETS["ratio"]),
        (">= 40 moves/s with images", pictured.rate >= TARGETS["with images"]),
        (">= 1,500 moves/s without images", plain.rate >= TARGETS["without images"]),
        (f"peak RSS < 200 MB with {args.tables} open tables", peak < TARGETS["rss MB"]),
    ]
    for text, ok in checks:
        print(f"  {'met   ' if ok else 'MISSED'} {text}")
    if not args.keep:
        for name in os.listdir(folder):
            os.remove(os.path.join(folder, name))
        os.rmdir(folder)
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=1000, help="open tables (default 1000)")
    p.add_argument("--seconds", type=float, default=20.0,
                   help="seconds of all-at-once play without images (default 20)")
    p.add_argument("--image-seconds", type=float, default=10.0,
                   help="seconds of all-at-once play with images (default 10)")
    p.add_argument("--latency-moves", type=int, default=2000,
                   help="one-at-a-time moves without images (default 2000)")
    p.add_argument("--image-moves", type=int, default=200,
                   help="one-at-a-time moves with images (default 200)")
    p.add_argument("--games", type=int, default=10,
                   help="whole games played for bytes per game (default 10)")
    p.add_argument("--cores", type=int, default=1, help="pin to this many cores; 0: no pin")
    p.add_argument("--sync", choices=("NORMAL", "FULL"), default="NORMAL",
                   help="SQLite synchronous mode (default NORMAL, as the bot)")
    p.add_argument("--dir", default=None, help="folder for the database files (default tmp)")
    p.add_argument("--keep", action="store_true", help="keep the database files")
    return p.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))
