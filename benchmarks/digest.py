"""The daily digest's cost: 10,000 members, each at a few running tables (two seats each, of
all five games, a few dozen moves played), each member taking a digest at an hour of the
day. It runs one simulated day of the bot's loop: every quarter of an hour, the digests due
are found (``store.jobs.claim``: through the partial index ``jobs_due``, never a scan of
the players) and each is made and recorded as the bot does (``TableService.tend``, a job of
kind 'digest': the tables that wait for the member through the index
``seats_by_user``, each read, its waits checked, its log replayed for the
since-your-last-move lines, the message fitted to 2,000 characters). Then, on a fresh
service, the digests of the first ``--memory-members`` members are made again under
``tracemalloc`` (which slows Python about fivefold) for the peak memory.

    .venv/bin/python benchmarks/digest.py [--members 10000] [--tables 3] [--moves 30]
                                          [--memory-members 1000]

It prints the query plans, the median and 95th percentile of a wake-up's search, the
median, 95th percentile and total of making the digests, the process's peak resident
memory after the day, and tracemalloc's peak.

Nearly all of a digest's time is the replay of each waiting table's log through the rules
(a ``bot.timeline.Timeline``), the same cost ``/since`` and a reminder pay: it grows with the moves
a table has and with the game (Cube Conquest's moves are the dearest to check).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

# Import this checkout's packages, whatever the working directory or the install says.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from bot import history, scheduler
from bot.records import PlayerRow
from bot.service import TableService
from bot.service.table import encode
from bot.store import Store

NOW = 1_767_225_600.0  # 2026-01-01 00:00 UTC
GUILDS = 100
ZONES = ("UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Sydney")
WAKE = 15 * scheduler.MINUTE


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def template(game: rules.Game[Any], seed: int, moves: int
             ) -> tuple[int, list[tuple[int, str]], str, frozenset[int]]:
    """A game of two played at random for ``moves`` moves (fewer if it would end): the
    seed, the moves (seat, text), the state's JSON and the seats it waits for."""
    rng = random.Random(seed)
    state = game.new(2, seed)
    log: list[tuple[int, str]] = []
    while len(log) < moves:
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_moves(state, seat))
        after, _ = game.play(state, seat, move)
        if game.outcome(after) is not None:
            break
        state = after
        log.append((seat, move))
    return seed, log, encode(game, state), game.to_act(state)


async def build(store: Store, members: int, each: int, moves: int) -> int:
    """The database: ``members`` players at ``each`` tables on average; the tables' count."""
    rng = random.Random(7)
    games = list(rules.GAMES.values())
    templates = [template(game, 11 + n, moves) for n, game in enumerate(games)]
    slots = [m for m in range(1, members + 1) for _ in range(each)]
    rng.shuffle(slots)
    pairs = [(slots[i], slots[i + 1]) for i in range(0, len(slots) - 1, 2)
             if slots[i] != slots[i + 1]]
    rows, seats, logged, waits = [], [], [], []
    for game_id, (first, second) in enumerate(pairs, 1):
        kind = game_id % len(games)
        game, (seed, log, state, awaited) = games[kind], templates[kind]
        version = 1 + len(log)
        since = NOW - rng.uniform(0, 3 * scheduler.DAY)
        rows.append((game_id, 10**6 + game_id, 10**5 + game_id % GUILDS, game.id, seed,
                     state, version, version, NOW - 5 * scheduler.DAY, since))
        seats += [(game_id, 0, first, f"member {first}"), (game_id, 1, second,
                                                          f"member {second}")]
        start = since - len(log) * scheduler.HOUR
        logged += [(game_id, n + 2, seat, text, start + n * scheduler.HOUR)
                   for n, (seat, text) in enumerate(log)]
        # Their next reminder after the day measured: the day's jobs are the digests.
        waits += [(game_id, seat, since, NOW + 2 * scheduler.DAY) for seat in awaited]
    players = []
    for user in range(1, members + 1):
        player = PlayerRow(user, digest_hour=rng.randrange(24), digest_zone=rng.choice(ZONES))
        players.append((user, player.digest_hour, player.digest_zone,
                        scheduler.next_digest(player, NOW)))
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO games (id, channel_id, guild_id, game, status, opener_id, seed, "
            "state, version, announced, created, updated, started) VALUES (?, ?, ?, ?, "
            "'playing', 0, ?, ?, ?, ?, ?, ?, ?)",
            [(g, c, gu, name, seed, state, v, a, created, updated, created)
             for g, c, gu, name, seed, state, v, a, created, updated in rows])
        await db.executemany("INSERT INTO seats (game_id, seat, user_id, name, kind) "
                             "VALUES (?, ?, ?, ?, 'human')", seats)
        await db.executemany("INSERT INTO moves (game_id, version, seat, text, time) "
                             "VALUES (?, ?, ?, ?, ?)", logged)
        await db.executemany("INSERT INTO jobs (kind, owner_id, part, since, reminded, due) "
                             "VALUES ('wait', ?, ?, ?, 0, ?)", waits)
        await db.executemany("INSERT INTO players (user_id, digest_hour, digest_zone) "
                             "VALUES (?, ?, ?)", [p[:3] for p in players])
        await db.executemany("INSERT INTO jobs (kind, owner_id, part, due) "
                             "VALUES ('digest', ?, 0, ?)", [(p[0], p[3]) for p in players])
    return len(rows)


async def plans(store: Store) -> list[str]:
    """SQLite's plans for the digest's queries: the due ones, the next moment, a member's
    waiting tables."""
    found = []
    for sql in ("SELECT kind, owner_id, part, due FROM jobs WHERE due IS NOT NULL AND "
                "due <= 1 ORDER BY due LIMIT 100",
                "SELECT MIN(due) FROM jobs WHERE due IS NOT NULL",
                "SELECT g.id FROM seats s CROSS JOIN jobs w JOIN games g ON g.id = s.game_id "
                "WHERE w.kind = 'wait' AND w.owner_id = s.game_id AND w.part = s.seat AND "
                "s.user_id = 1 AND g.status = 'playing'"):
        rows = await store.db.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}")
        found.append("; ".join(str(r[-1]) for r in rows))
    return found


async def day(store: Store) -> tuple[list[float], list[float], list[float], int, int, int]:
    """One day of the loop: the wake-ups' claims of the digests due and their reads of the
    next moment, the digests made (each timed), how many were sent, how many found nothing
    waiting, and the longest message."""
    clock = Clock(NOW)
    service = TableService(store, images=False, now=clock)
    claims, nexts, made, sent, empty, longest = [], [], [], 0, 0, 0
    try:
        while clock.t < NOW + scheduler.DAY:
            clock.t += WAKE
            while True:
                start = time.perf_counter()
                await service.next_due()  # it first writes the waits the digests put in step
                nexts.append(time.perf_counter() - start)
                start = time.perf_counter()
                due = await service.due(clock.t, 100)
                claims.append(time.perf_counter() - start)
                for job in due:
                    start = time.perf_counter()
                    tended = await service.tend(job)
                    made.append(time.perf_counter() - start)
                    if tended is None:
                        empty += 1
                    else:
                        sent += 1
                        longest = max(longest, len(tended.text))
                if len(due) < 100:
                    break
    finally:
        service.close()
    return claims, nexts, made, sent, empty, longest


async def memory(store: Store, members: int) -> tuple[int, int, float]:
    """Every member's digest made on a fresh service under tracemalloc: the peak and the
    memory still held after (the tables the service holds), in bytes, and the seconds."""
    service = TableService(store, images=False, now=lambda: NOW + scheduler.DAY)
    tracemalloc.start()
    start = time.perf_counter()
    try:
        for user in range(1, members + 1):
            history.daily_text(await service.digests.awaiting(user))
        seconds = time.perf_counter() - start
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        service.close()
    return peak, held, seconds


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def main(members: int, each: int, moves: int, sample: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "digest.db"))
        try:
            start = time.perf_counter()
            tables = await build(store, members, each, moves)
            print(f"{members:,} members at {tables:,} tables ({each} each on average, "
                  f"{moves} moves a table), built in {time.perf_counter() - start:.1f} s")
            for name, plan in zip(("due digests", "next digest", "a member's tables"),
                                  await plans(store), strict=True):
                print(f"  plan of {name}: {plan}")
            claims, nexts, made, sent, empty, longest = await day(store)
            print(f"A day of wake-ups every {int(WAKE // 60)} minutes, {len(claims)} reads: "
                  f"claiming the digests due (up to 100) median "
                  f"{ms(statistics.median(claims))}, 95th percentile "
                  f"{ms(statistics.quantiles(claims, n=20)[-1])}; the next moment median "
                  f"{ms(statistics.median(nexts))}, 95th percentile "
                  f"{ms(statistics.quantiles(nexts, n=20)[-1])}")
            print(f"Digests made: {len(made):,} ({sent:,} sent, {empty:,} with nothing "
                  f"waiting); per digest median {ms(statistics.median(made))}, 95th "
                  f"percentile {ms(statistics.quantiles(made, n=20)[-1])}; total "
                  f"{sum(made):.1f} s; longest message {longest} characters")
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"The process's peak resident memory after the day: {rss:.0f} MiB")
            peak, held, seconds = await memory(store, min(members, sample))
            print(f"The digests of {min(members, sample):,} members made again under "
                  f"tracemalloc in {seconds:.1f} s: peak {peak / 2**20:.1f} MiB, of which "
                  f"{held / 2**20:.1f} MiB still held after (the tables the service holds); "
                  f"the digests' own peak above that: {(peak - held) / 2**20:.2f} MiB")
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=3, help="tables a member sits at")
    parser.add_argument("--moves", type=int, default=30, help="moves played at each table")
    parser.add_argument("--memory-members", type=int, default=1000,
                        help="members whose digests are made under tracemalloc")
    args = parser.parse_args()
    asyncio.run(main(args.members, args.tables, args.moves, args.memory_members))
