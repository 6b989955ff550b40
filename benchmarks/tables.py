"""1,000 open tables playing random games through the table service on a file database.

    .venv/bin/python benchmarks/tables.py [--tables 1000] [--seconds 20] [--cores 1]

Every table is a real one: opened, joined and started through ``TableService`` on a SQLite
file (WAL; synchronous=NORMAL as the bot runs, or ``--sync FULL``), two seated players each.
A move is what a player's command costs the bot: ``legal_moves`` (the driver picks one at
random), ``play``, and ``delivered`` once the reply is "posted". Printed:

- throughput: all tables at once, moves/s without and with images (and CPU per move); with
  images, after each table has drawn its first picture (measured apart, 50 tables at a
  time);
- latency of a move (its player's moves listed, as ``/play``'s suggestions do, then
  ``play``), until the DMs' pictures are drawn too: one move at a time (nothing
  else queued) and under full load (where the time includes waiting behind the other tables'
  moves);
- the floor, measured in the same run on the same states and pictures: a bare ``sqlite3``
  UPDATE + COMMIT of the state's bytes on the same file, plus PNG-encoding the same board
  picture (decoded beforehand; encoding only) with Pillow's standard encoder, and the ratio
  of the move's p99 to it; and the same with the bot's own, faster encoder;
- database bytes per finished game (whole games played to the end, file size after VACUUM,
  minus an empty database's), and peak RSS.

By default the process is pinned to one core (``--cores``), so the figures are one core's.

    .venv/bin/python benchmarks/tables.py --db postgresql://... --processes N

runs the same tables on a PostgreSQL database (an empty one: ``Store.open``)
from N worker processes, as N bot processes sharing it would: each drives its own
``--tables`` tables (1,000 by default), all at once for ``--seconds``, then one move at a
time (``--latency-moves``) while the others do the same (``--images``: drawing each
move's pictures too). Printed: moves/s (all processes together), p99 of a move's latency
(all at once, and one at a time per process), and where the machine's CPU went meanwhile
(the bot processes, and the rest: the database server, and anything else running). Not
pinned: the workers and the server share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import multiprocessing
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
from urllib.parse import urlsplit

# Import this checkout's packages, whatever the working directory or the install says.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from benchmarks.common import pin
from bot.service import TableService
from bot.service.replies import Reply
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
        start = time.perf_counter()
        move = self.rng.choice(await self.service.legal_moves(channel, user))
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
                tables = self.store.tables
                row = await tables.active_game(channel) or await tables.latest_game(channel)
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
    print(f"(latency is the time legal_moves() and play() take, the DMs' pictures "
          f"included; 'all at once' includes waiting behind the other {args.tables - 1} "
          f"tables' moves; a table's first picture is drawn 50 tables at a time)")
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


# -- several processes on one PostgreSQL database


def machine_busy() -> float:
    """CPU-seconds every core of the machine has been busy so far (Linux's /proc/stat)."""
    with open("/proc/stat") as stat:
        fields = [int(f) for f in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def server_cpu(database: str) -> float:
    """CPU-seconds used so far by the PostgreSQL server's backends serving ``database``
    (Linux: their command line names it; the server's own background processes apart)."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as line:
                command = line.read().replace(b"\0", b" ").decode(errors="replace")
            if not command.startswith("postgres: ") or f" {database} " not in command:
                continue
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
    return total


def worker(url: str, index: int, tables: int, seconds: float, latency_moves: int,
           barrier: multiprocessing.synchronize.Barrier,
           results: multiprocessing.Queue[dict[str, object]], images: bool = False) -> None:
    """One bot process: its own tables (channels apart from the others'), all at once
    for ``seconds``, then one move at a time; what it measured goes to ``results``."""
    results.put(asyncio.run(_worker(url, index, tables, seconds, latency_moves, barrier,
                                    images)))


async def _worker(url: str, index: int, tables: int, seconds: float, latency_moves: int,
                  barrier: multiprocessing.synchronize.Barrier, images: bool = False
                  ) -> dict[str, object]:
    store = await Store.open(url)
    service = TableService(store, images=images)
    bench = Bench(service, store, tables)
    bench.channels = [index * tables + c for c in range(1, tables + 1)]
    bench.rng = random.Random(2026 + index)
    await asyncio.gather(*(bench.open(c) for c in bench.channels))
    barrier.wait()  # every process has its tables open: go
    plain = await bench.load(seconds)
    barrier.wait()
    quiet = await bench.one_at_a_time(latency_moves)
    barrier.wait()
    await store.close()
    return {"moves": plain.moves, "seconds": plain.seconds, "cpu": plain.cpu,
            "latencies": plain.latencies, "quiet": quiet.latencies}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def processes(args: argparse.Namespace) -> int:
    """The benchmark over PostgreSQL from ``args.processes`` worker processes."""
    from bot.store.postgres import shown

    n = args.processes
    print(f"Boardroom tables benchmark on PostgreSQL ({shown(args.db)}): {n} process"
          f"{'es' if n > 1 else ''} x {args.tables} tables of {GAME}, 2 players each"
          f"{', with pictures' if args.images else ''}; "
          f"{os.cpu_count()} cores shared by the workers and the server.")

    async def prepare() -> None:  # the schema, once, before the workers start
        await (await Store.open(args.db)).close()

    asyncio.run(prepare())
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(n + 1)
    results: multiprocessing.Queue[dict[str, object]] = context.Queue()
    workers = [context.Process(target=worker, args=(
        args.db, index, args.tables, args.seconds, args.latency_moves, barrier, results,
        args.images)) for index in range(n)]
    for each in workers:
        each.start()
    database = urlsplit(args.db).path.lstrip("/") or "postgres"
    barrier.wait()
    busy, started, server = machine_busy(), time.perf_counter(), server_cpu(database)
    barrier.wait()
    busy, wall = machine_busy() - busy, time.perf_counter() - started
    server = server_cpu(database) - server
    barrier.wait()
    found = [results.get() for _ in workers]
    for each in workers:
        each.join()
    moves = sum(int(str(r["moves"])) for r in found)
    cpu = sum(float(str(r["cpu"])) for r in found)
    loaded = [x for r in found for x in r["latencies"]]  # type: ignore[attr-defined]
    quiet = [x for r in found for x in r["quiet"]]  # type: ignore[attr-defined]
    print(f"{'processes':>9}{'moves/s':>9}{'p50':>11}{'p99':>11}{'p99 alone':>11}"
          f"{'bot CPU':>9}{'server':>8}{'other':>7}")
    print(f"{n:>9}{moves / wall:>9.0f}{ms(quantile(loaded, 0.5)):>11}"
          f"{ms(quantile(loaded, 0.99)):>11}{ms(quantile(quiet, 0.99)):>11}"
          f"{cpu / wall:>8.2f}c{server / wall:>7.2f}c"
          f"{max(0.0, busy - cpu - server) / wall:>6.2f}c")
    if moves:
        print(f"CPU per move: bot {ms(cpu / moves)}, server {ms(server / moves)}")
    print(f"(p50/p99: all {n * args.tables} tables at once, waiting behind each other; "
          f"'p99 alone': each process one move at a time, all processes together; CPU in "
          f"cores busy during the all-at-once phase: the bot processes', the PostgreSQL "
          f"server's backends for this database, and everything else the machine ran)")
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
    p.add_argument("--db", default=None,
                   help="a postgresql:// URL: the benchmark over that (empty) database")
    p.add_argument("--processes", type=int, default=1,
                   help="with --db: worker processes, each with its own --tables tables")
    p.add_argument("--images", action="store_true",
                   help="with --db: draw each move's pictures too (default: none)")
    return p.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    if arguments.db is not None:
        sys.exit(processes(arguments))
    sys.exit(asyncio.run(main(arguments)))
