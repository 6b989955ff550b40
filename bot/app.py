"""The Discord bot, built and run: ``create_bot(database)`` returns the client
(``Boardroom``, or ``ShardedBoardroom`` when it runs some of the bot's shards); ``run``
serves until SIGTERM or Ctrl-C.

``database`` is either a path or a PostgreSQL URL (``None``: the ``BOARDROOM_DB`` variable,
else ``boardroom.db``), in which case the bot opens the store in ``setup_hook`` and closes
it in ``close``; or a store that is already open, which the caller keeps and closes (tests
share one store, or reopen the same file to restart a bot).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import signal
from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from bot import words
from bot.discord.client import Boardroom, ShardedBoardroom, discord_clock
from bot.discord.words import DISCORD
from bot.shards import Shards
from bot.store import Store, is_postgres
from bot.store.sqlite import check_file, default_path

log = logging.getLogger("boardroom")

FIRST_WAIT = 5.0  # seconds before trying Discord again after it could not be reached
LONGEST_WAIT = 300.0  # the wait doubles up to this
# What "Discord cannot be reached right now" looks like: no network, no name resolution,
# a connection refused or cut, a timeout, Discord's own servers failing.
UNREACHABLE = (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.DiscordServerError)


async def registration() -> list[dict[str, Any]]:
    """The bot's commands as it registers them with Discord (the body of ``PUT
    /applications/{id}/commands``), built offline: the cogs loaded, no token, no network,
    no database (``boardroom check``)."""
    bot = create_bot(None, images=False)
    await bot.load_commands()
    return bot.registration()


def create_bot(database: str | Store | None = None, *, images: bool = True,
               now: Callable[[], float] = discord_clock, shards: Shards | None = None,
               sweep: bool | None = None, level: str | None = None) -> Boardroom:
    """The bot over a database path or URL (opened and closed by the bot) or an open store;
    ``now`` is its clock (Discord's, unless a test gives another). ``sweep``: whether its
    scheduler sweeps the outbox for replies other processes never posted (default: when
    it runs some of the shards, as one of several processes). ``level``: the computer level
    tables take when none is chosen (their computer players, stand-ins, resigned seats);
    None: hard, and expert at tables whose turns may take an hour or more and for
    stand-ins (``bot.service.computers.Levels``). Sentences are said in Discord's markup
    wherever no caller chose a surface (``bot.words``)."""
    words.by_default(DISCORD)
    if shards is not None:
        return ShardedBoardroom(database, images=images, now=now, shards=shards, sweep=sweep,
                                level=level)
    return Boardroom(database, images=images, now=now, sweep=sweep, level=level)


async def run(token: str, shards: Shards | None = None, *, first_wait: float = FIRST_WAIT,
              longest_wait: float = LONGEST_WAIT) -> None:
    """Connect and serve until the connection closes or SIGTERM/SIGINT arrives; only the
    ``shards`` named (``bot.shards``), or all of them.

    While Discord cannot be reached (no network, Discord down), one sentence says so and
    that the bot tries again, after ``first_wait`` seconds, then twice as long each time up
    to ``longest_wait``; no traceback. A token Discord refuses raises
    ``discord.LoginFailure`` at once, commands it refuses (or would: they are checked
    before the first request) ``StartRefused``; ``python -m bot`` says either in a sentence
    and exits with status 1."""
    if not is_postgres(default_path()):  # a damaged file stops the bot before it connects
        check_file()
    bot = create_bot(None) if shards is None else create_bot(None, shards=shards)
    # What exists now (the modules, the rules' tables, the bot) lives as long as the
    # process: frozen out of the collector's way, a full collection scans only the tables
    # and what moves make (1,000 tables: 74,000 objects, 58 ms, instead of 107,000 and 79
    # ms; docs/scale.md). Thawed when the bot stops, for a process that goes on.
    gc.collect()
    gc.freeze()
    loop, stopping = asyncio.get_running_loop(), asyncio.Event()
    signals = (signal.SIGTERM, signal.SIGINT)
    for signum in signals:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(signum, functools.partial(_stop, bot, signum, stopping))
    try:
        async with bot:
            wait = first_wait
            while not bot.is_closed():
                try:
                    await bot.start(token)
                    return
                except UNREACHABLE as error:
                    if bot.is_closed():
                        return
                    log.warning("Discord cannot be reached (%s); trying again in %.0f s.",
                                _why(error), wait)
                    # The next try logs in afresh: a session of its own, on a connector
                    # of its own (closing the session closed the one it had).
                    await bot.http.close()
                    bot.http.connector = discord.utils.MISSING
                    with contextlib.suppress(TimeoutError):  # a signal ends the wait
                        await asyncio.wait_for(stopping.wait(), wait)
                    wait = min(longest_wait, wait * 2)
    finally:
        gc.unfreeze()
        for signum in signals:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signum)


def _why(error: BaseException) -> str:
    """An error in a few words: 'ClientConnectorError: Cannot connect to host ...'."""
    said = " ".join(str(error).split())[:160]
    return f"{type(error).__name__}: {said}" if said else type(error).__name__


def _stop(bot: discord.Client, signum: int, stopping: asyncio.Event) -> None:
    log.info("Received %s, shutting down", signal.Signals(signum).name)
    stopping.set()  # (a wait before trying Discord again ends at once)
    asyncio.get_running_loop().create_task(bot.close())
