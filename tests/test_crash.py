"""Crashes: games run in a child process killed with SIGKILL at random moments.

After every kill the database is reopened and checked: every move the child saw committed
is in the log, the log replays to the stored state, nothing committed is lost to the outbox
(what was never marked delivered comes back from ``undelivered``), and the games go on.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import rules
from bot.service import TableService
from bot.service.table import encode
from bot.store import Store
from bot.timeline import Timeline

ROOT = Path(__file__).resolve().parents[1]
CHANNELS = range(1, 7)
CHILD_TIMEOUT = 120.0  # seconds the child may take to print its lines before the test fails

# The child plays random games on six tables at once, a new one in a channel as soon as its
# game is over, until it is killed. It prints "N channel 0" as it opens a table,
# "C channel version seat move" once a move is committed (play returned) and "A channel
# version" just before it marks a reply delivered; about a third of the replies it never marks.
CHILD = """
import asyncio, random, sys
from bot.service import TableService
from bot.store import Store

async def main(path):
    store = await Store.open(path)
    service = TableService(store, images=False)
    for channel, reply in await service.undelivered():
        print(f"A {channel} {reply.version}", flush=True)
        await service.delivered(reply)

    async def run(channel):
        rng = random.Random()
        while True:  # game after game: the child never ends by itself, it is killed
            if await store.tables.active_game(channel) is None:
                # Said before it is done: killed in between, the old game is still the latest.
                print(f"N {channel} 0", flush=True)
                await service.open(channel, None, 1, "Ann", "cube-conquest")
            row = await store.tables.active_game(channel)
            if row.status == "open":
                if len(await store.seats.of(row.id)) < 2:
                    await service.join(channel, 2, "Bob")
                reply = await service.start(channel, 1)
                print(f"C {channel} {reply.version} - start", flush=True)
            while waiting := await service.waiting(channel):
                user = waiting[0][0]
                move = rng.choice(await service.legal_moves(channel, user))
                reply = await service.play(channel, user, move)
                print(f"C {channel} {reply.version} {user - 1} {move}", flush=True)
                if rng.random() < 0.65:
                    print(f"A {channel} {reply.version}", flush=True)
                    await service.delivered(reply)

    await asyncio.gather(*(run(c) for c in range(1, 7)))

asyncio.run(main(sys.argv[1]))
"""


def run_and_kill(path: str, lines: int, jitter: float) -> list[str]:
    """Run the child until it has printed ``lines`` lines, wait ``jitter`` seconds, kill it.

    Counting lines rather than seconds makes the kill land at the same point of the games
    on a slow machine as on a fast one (a busy CI machine may need seconds just to start
    Python); the jitter lets it land anywhere inside a move, not only just after a print.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen([sys.executable, "-c", CHILD, path], stdout=subprocess.PIPE,
                                 stderr=err, env=env, cwd=str(ROOT))
        out: list[bytes] = []
        enough = threading.Event()

        def read() -> None:
            assert child.stdout is not None
            for line in child.stdout:
                out.append(line)
                if len(out) >= lines:
                    enough.set()
            enough.set()  # the child died by itself: the check below says so

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reached = enough.wait(timeout=CHILD_TIMEOUT)
        time.sleep(jitter)
        alive = child.poll() is None
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        reader.join(timeout=30)
        err.seek(0)
        assert alive and reached, (f"the child printed {len(out)} of {lines} lines in "
                                   f"{CHILD_TIMEOUT} s: {err.read().decode()}")
    # The last line may have been cut off by the kill: keep whole lines only.
    return [line.decode().rstrip("\n") for line in out if line.endswith(b"\n")]


async def check(path: str, committed: dict[int, dict[int, tuple[int, str]]],
                announced: dict[int, set[int]]) -> None:
    store = await Store.open(path)
    try:
        rows = {}
        for channel, moves in committed.items():
            if not moves:
                continue  # a new table, not started before the kill
            row = rows[channel] = await store.tables.latest_game(channel)
            assert row is not None and row.status in ("playing", "over")
            assert row.state is not None and row.seed is not None
            logged = await store.tables.moves(row.id)
            # One logged move per version, none missing, and every move the child saw
            # committed is there, as it was played.
            assert [m.version for m in logged] == list(range(2, row.version + 1))
            assert max(moves) <= row.version
            # (a reply's version may be past its move's own: forced steps follow it)
            previous = 1
            for version, (seat, move) in sorted(moves.items()):
                if version > 1:
                    assert (seat, move) in [(m.seat, m.text) for m in logged
                                            if previous < m.version <= version]
                    previous = version
            game = rules.GAMES[row.game]
            state = Timeline(game, 2, row.seed, row.options, logged).whole().final
            assert encode(game, state) == row.state
            # Delivered is only ever marked after the child announced that version.
            assert row.announced == 0 or row.announced in announced[channel]
        # Whatever was committed but not marked delivered comes back from the outbox, the
        # last reply of a finished game included (it announces the end); an earlier game of
        # a channel may be due too, if its last reply was never marked before the next began.
        pending = {row.id: row for row in rows.values() if row.announced < row.version}
        outbox = {reply.game: reply for _, reply in
                  await TableService(store, images=False).undelivered()}
        assert set(outbox) & {row.id for row in rows.values()} == set(pending)
        for game, row in pending.items():
            assert outbox[game].version == row.version
            assert outbox[game].public.startswith("(Posted after a restart.)")
    finally:
        await store.close()


async def test_games_survive_sigkill_at_random_moments(tmp_path: Path) -> None:
    path = str(tmp_path / "crash.db")
    rng = random.Random(os.environ.get("CRASH_SEED", "boardroom"))
    committed: dict[int, dict[int, tuple[int, str]]] = defaultdict(dict)
    announced: dict[int, set[int]] = defaultdict(set)
    # The first child is killed while it is still opening and starting tables; the others
    # after a few hundred lines (about 1 to 2 s of play on one core: the six tables end
    # and begin games many times over).
    for lines in [1] + [rng.randint(150, 900) for _ in range(4)]:
        for line in run_and_kill(path, lines, rng.uniform(0, 0.05)):
            kind, channel, version, *rest = line.split(" ", 4)
            if kind == "N":  # a new game in this channel: follow that one from now on
                committed[int(channel)], announced[int(channel)] = {}, set()
            elif kind == "C":
                seat, move = rest
                committed[int(channel)][int(version)] = (
                    -1 if seat == "-" else int(seat), move)
            else:
                announced[int(channel)].add(int(version))
        await check(path, committed, announced)
    assert sum(len(moves) for moves in committed.values()) > 100
    assert set(committed) == set(CHANNELS)

    # The games go on: every table takes its next move.
    store = await Store.open(path)
    try:
        service = TableService(store, images=False)
        for channel in CHANNELS:
            if not await service.waiting(channel):
                continue  # that game has ended
            (user, _), *_ = await service.waiting(channel)
            before = (await service.board(channel)).version
            reply = await service.play(channel, user, (await service.legal_moves(channel,
                                                                                 user))[0])
            assert reply.version == before + 1
    finally:
        await store.close()
    await check(path, committed, announced)
