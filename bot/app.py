"""The Discord bot, built: ``create_bot(database)`` returns the client (``Boardroom``, or
``ShardedBoardroom`` when it runs some of the bot's shards).

``database`` is either a path or a PostgreSQL URL (``None``: the ``BOARDROOM_DB`` variable,
else ``boardroom.db``), in which case the bot opens the store in ``setup_hook`` and closes
it in ``close``; or a store that is already open, which the caller keeps and closes (tests
share one store, or reopen the same file to restart a bot).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.discord.client import Boardroom, ShardedBoardroom, discord_clock
from bot.shards import Shards
from bot.store import Store
from rules.computer import DEFAULT


def create_bot(database: str | Store | None = None, *, images: bool = True,
               now: Callable[[], float] = discord_clock, shards: Shards | None = None,
               sweep: bool | None = None, level: str = DEFAULT) -> Boardroom:
    """The bot over a database path or URL (opened and closed by the bot) or an open store;
    ``now`` is its clock (Discord's, unless a test gives another). ``sweep``: whether its
    scheduler sweeps the outbox for replies other processes never posted (default: when
    it runs some of the shards, as one of several processes). ``level``: the computer level
    a table takes when none is chosen (its computer players, stand-ins, resigned seats)."""
    if shards is not None:
        return ShardedBoardroom(database, images=images, now=now, shards=shards, sweep=sweep,
                                level=level)
    return Boardroom(database, images=images, now=now, sweep=sweep, level=level)
