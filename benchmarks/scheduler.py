"""The scheduler's cost: with 10,000 waiting tables, how long one wake-up takes to find
what is due (``store.jobs.claim``) and the next moment to sleep until (``store.jobs.next_due``).

Both go through the partial index ``jobs_due``, so the cost does not grow with the number
of tables. The target (issue 21) is under 10 ms. It prints the median and the 95th
percentile:

    .venv/bin/python benchmarks/scheduler.py [--tables 10000] [--wakes 300]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.store import Store

NOW = 1_767_225_600.0  # 2026-01-01 00:00 UTC


async def measure(tables: int, wakes: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "scheduler.db"))
        try:
            rng = random.Random(1)
            async with store.transaction() as db:
                await db.executemany(
                    "INSERT INTO games (id, channel_id, game, status, opener_id, seed, "
                    "version, created, updated) VALUES (?, ?, 'cube-conquest', 'playing', "
                    "1, 1, 1, ?, ?)", [(g, g, NOW, NOW) for g in range(1, tables + 1)])
                # Each table awaits one or two seats, due over the next three days.
                await db.executemany(
                    "INSERT INTO jobs (kind, owner_id, part, since, reminded, due) "
                    "VALUES ('wait', ?, ?, ?, 0, ?)",
                    [(g, s, NOW, NOW + rng.uniform(0, 3 * 86400))
                     for g in range(1, tables + 1) for s in range(1 + g % 2)])
            times = []
            for n in range(wakes):
                now = NOW + n * (3 * 86400 / wakes)  # a wake-up at each moment of 3 days
                start = time.perf_counter()
                await store.jobs.claim(now, 100)
                await store.jobs.next_due()
                times.append(time.perf_counter() - start)
            return times
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--wakes", type=int, default=300)
    args = parser.parse_args()
    times = asyncio.run(measure(args.tables, args.wakes))
    median = statistics.median(times) * 1000
    p95 = statistics.quantiles(times, n=20)[-1] * 1000
    print(f"{args.tables} waiting tables: a wake-up finds what is due in {median:.2f} ms "
          f"(median of {args.wakes}; 95th percentile {p95:.2f} ms; target under 10 ms)")


if __name__ == "__main__":
    main()
