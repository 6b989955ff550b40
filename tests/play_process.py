"""One bot process for tests/test_multiprocess.py: a table service on the given database
plays the awaited player's move at each of the channels in turn, with the version it read
(as a button does), and writes each move it applied and delivered to ``OUT`` as
"channel version" lines.

Both processes draw the same move for the same table and version, so they race for real.
With SWEEP (1) it then sweeps the outbox as the bot's scheduler does (``Outbox.sweep``),
posting what a killed process committed but never posted, with one line per version a
late reply covers ("channel version late"); at once, since the other process is gone by
then (the bot waits ``SWEEP_GRACE`` seconds, as a reply may still be on its way).
Run as ``python -m tests.play_process URL OUT SEED SWEEP CHANNEL...``.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.service import TableService
from bot.service.table import TableError
from bot.store import Store


async def main(url: str, out: str, seed: int, sweep: bool, channels: list[int]) -> None:
    store = await Store.open(url)
    service = TableService(store, images=False)
    try:
        with open(out, "a", encoding="utf-8") as log:
            for _ in range(400):
                active = False
                for channel in channels:
                    waiting = await service.waiting(channel)
                    if not waiting:
                        continue
                    active = True
                    user = waiting[0][0]
                    version = (await service.status(channel)).version
                    moves = await service.legal_moves(channel, user)
                    if not moves:
                        continue
                    pick = random.Random(f"{seed}/{channel}/{version}").choice(moves)
                    try:
                        reply = await service.play(channel, user, pick, version=version)
                    except TableError:
                        continue  # the other process moved first
                    print(channel, reply.version, file=log, flush=True)  # posted, then
                    await service.delivered(reply)  # marked, as the bot does
                if not active:
                    break
            for channel, reply in await service.sweep(0.0) if sweep else []:
                for version in reply.covers or ():
                    print(channel, version, "late", file=log, flush=True)
                await service.delivered(reply)
            await store.flush()
    finally:
        service.close()
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1",
                     [int(c) for c in sys.argv[5:]]))
