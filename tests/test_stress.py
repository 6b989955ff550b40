"""Thousands of tables at once through one store: no SQLite misuse, every move once.

Issue 17, item 7: with 1,000 tables opened within seconds, one ``/game new`` in about 8,000
failed with ``InterfaceError('bad parameter or other API misuse')``: SQLite's sign that its
one connection was used in a way it forbids. This test opens, joins, starts and plays many
tables concurrently through the service, with the noise a busy bot makes at the same time
(a second ``/game new`` in a busy channel, boards, delivered marks, tables ended), round
after round on one database, and checks that nothing fails but refusals (``GameError``)
and that every move the service accepted is in the log exactly once.

The default run (1,000 tables at once, two moves each) takes about 8 s on one core.
``BOARDROOM_STRESS=long`` (or ``--stress=long``) runs twice the tables, eight rounds on one
database and twelve moves a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from pathlib import Path

import pytest

import rules
from bot.service import TableService
from bot.store import Store

GAME = "cube-conquest"


async def one_table(service: TableService, channel: int, rng: random.Random, moves: int,
                    accepted: Counter[int], problems: list[BaseException]) -> None:
    """Open, join, start and play ``moves`` moves in one channel, with some noise."""
    opener, guest = channel * 10 + 1, channel * 10 + 2
    try:
        await service.open(channel, 1, opener, f"Ann {channel}", GAME)
        await asyncio.sleep(0)
        if rng.random() < 0.2:  # a second /game new in the busy channel is refused
            with contextlib.suppress(rules.GameError):
                await service.open(channel, 1, guest, "Bob", GAME)
        if rng.random() < 0.1:  # a command given up half-way (its caller was cancelled)
            await abandoned(service, -channel, rng)
        await service.join(channel, guest, f"Bob {channel}")
        reply = await service.start(channel, opener, seed=channel)
        await service.delivered(reply)
        game_id = reply.game
        for _ in range(moves):
            waiting = await service.waiting(channel)
            if not waiting:
                break
            user = waiting[0][0]
            legal = await service.legal_moves(channel, user)
            try:
                reply = await service.play(channel, user, rng.choice(legal))
            except rules.GameError:
                continue
            accepted[game_id] += 1
            if rng.random() < 0.5:
                await service.delivered(reply)
            if rng.random() < 0.05:
                await service.board(channel)
            if reply.over:
                break
        if rng.random() < 0.3:
            await service.end(channel, opener)
    except rules.GameError:
        pass
    except BaseException as error:  # every other failure is the finding
        problems.append(error)


async def abandoned(service: TableService, channel: int, rng: random.Random) -> None:
    """A /game new cancelled after a few turns of the event loop or a few milliseconds: it
    happens whole or not at all, and leaves nothing open for the next command."""
    task = asyncio.ensure_future(service.open(channel, 1, 1, "Gone", GAME))
    if rng.random() < 0.5:
        for _ in range(rng.randrange(8)):
            await asyncio.sleep(0)
    else:
        await asyncio.sleep(rng.random() * 0.02)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, rules.GameError):
        await task


def sizes(request: pytest.FixtureRequest) -> tuple[int, int, int]:
    """(tables, rounds, moves per table) for this run."""
    if request.config.getoption("stress") == "long":
        return 2000, 8, 12
    return 1000, 1, 2


async def test_thousands_of_tables_at_once(tmp_path: Path,
                                           request: pytest.FixtureRequest) -> None:
    tables, rounds, moves = sizes(request)
    store = await Store.open(str(tmp_path / "stress.db"))
    service = TableService(store, images=False)
    accepted: Counter[int] = Counter()
    problems: list[BaseException] = []
    started = time.monotonic()
    try:
        for round_ in range(rounds):
            rng = random.Random(round_)
            channels = list(range(1 + round_ * tables, 1 + (round_ + 1) * tables))
            rng.shuffle(channels)
            await asyncio.gather(*(
                one_table(service, channel, random.Random(channel), moves, accepted, problems)
                for channel in channels))
            assert not problems, f"round {round_}: {len(problems)} failures: {problems[:3]!r}"
        await store.flush()
        for game_id, count in accepted.items():
            row = await store.tables.game(game_id)
            assert row is not None
            logged = await store.tables.moves(game_id)
            assert row.version == 1 + count, (game_id, row.version, count)
            assert [m.version for m in logged] == list(range(2, 2 + count))
    finally:
        await store.close()
    assert sum(accepted.values()) > tables  # the tables really played
    print(f"\n{tables} tables x {rounds} rounds, {sum(accepted.values())} moves, "
          f"{time.monotonic() - started:.1f} s")
