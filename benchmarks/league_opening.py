"""A league round of many tables opening (issue 40): ``/league start`` on SimCord for a
Swiss league of ``2 x tables`` players, each pairing's table opened in its own thread of
the league's channel (thread, first line, the table opened, seated, dealt and its start
posted). Prints the time the round took to open, the requests the bot made (by kind, per
table) and how they sit with Discord's limits.

How the opening is paced: one table after another (``Leagues._open`` in
bot/discord/cogs/leagues.py), each table's requests in order, so the bot never has more
than one request to Discord in flight for the round; discord.py keeps every route's
bucket and waits out a 429 (on the real Discord the round takes as long as the buckets
allow, never failing a table). Discord's global limit is 50 requests a second per bot; a
guild holds at most 1,000 active threads (a league of 128 tables a round keeps its threads
until each table's recap archives it).

    .venv/bin/python benchmarks/league_opening.py [--tables 128]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(os.environ.get("BOARDROOM_BENCH_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402

from bot.app import create_bot  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.contract import run as on_simcord  # noqa: E402

GLOBAL_LIMIT = 50  # requests a second, per bot (Discord's global rate limit)
THREADS_LIMIT = 1000  # active threads in a guild
IDS = re.compile(r"\d{5,}")


def kind(method: str, path: str) -> str:
    return f"{method} {IDS.sub('{id}', path)}"


async def measure(tables: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="league-") as folder:
        store = await Store.open(str(Path(folder) / "boardroom.db"), flush_delay=0)
        try:
            bot = create_bot(store, images=True, level="easy")
            async with on_simcord(bot, approved_intents=discord.Intents.none(),
                                  settle_timeout=900) as env:
                guild = env.create_guild("League night")
                channel = guild.create_text_channel("league")
                organiser = guild.add_member(env.create_user("organiser"))
                players = [guild.add_member(env.create_user(f"p{n}"))
                           for n in range(2 * tables)]
                await organiser.slash(channel, "league new", game="battle-tiles",
                                      format="swiss", rounds=3, round="7d")
                leagues = bot.service.leagues
                (row,) = await leagues.of_guild(guild.id)
                for player in players:  # signing up is not what this measures
                    await leagues.join(row.id, player.id, player.name)
                since = len(env.http_requests)
                start = time.perf_counter()
                await organiser.slash(channel, "league start")
                await env.settle()
                took = time.perf_counter() - start
                made = env.http_requests[since:]
                threads = len(channel.threads)
                games = await store.tables.games()
        finally:
            await store.close()
    counts = Counter(kind(e.method, e.path) for e in made)
    return {"tables": tables, "threads": threads, "games": len(games), "seconds": took,
            "requests": len(made), "kinds": counts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=128)
    args = parser.parse_args()
    got = asyncio.run(measure(args.tables))
    tables, requests = int(got["tables"]), int(got["requests"])  # type: ignore[call-overload]
    seconds = float(got["seconds"])  # type: ignore[arg-type]
    print(f"League round of {tables} tables opened: {got['threads']} threads, "
          f"{got['games']} games dealt, in {seconds:.1f} s on SimCord")
    print(f"Requests: {requests} ({requests / tables:.1f} a table)")
    for name, count in sorted(got["kinds"].items(), key=lambda kv: -kv[1]):  # type: ignore[attr-defined]
        print(f"  {count:6d}  {name}")
    print(f"At Discord's global limit ({GLOBAL_LIMIT}/s) these requests take at least "
          f"{requests / GLOBAL_LIMIT:.1f} s; one at a time, the opening stays under it. "
          f"Threads: {got['threads']} of the {THREADS_LIMIT} a guild may hold active.")


if __name__ == "__main__":
    main()
