"""Which of the bot's shards this process runs: ``BOARDROOM_SHARD_IDS`` and
``BOARDROOM_SHARD_COUNT`` from the environment.

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count`` (and DMs to
shard 0). A bot in many servers splits its shards over several processes, all on one
PostgreSQL database (docs/scale.md): each process names the shards it runs, and all of
them the same count. Neither variable set: one process runs the whole bot, as before.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

IDS_VAR = "BOARDROOM_SHARD_IDS"
COUNT_VAR = "BOARDROOM_SHARD_COUNT"


class ShardError(ValueError):
    """The shard variables do not make sense; ``str()`` is the sentence for the operator."""


@dataclass(frozen=True)
class Shards:
    """The shards this process runs (``ids``), of ``count`` in all."""

    ids: tuple[int, ...]
    count: int


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord sends a server's events to."""
    return (guild_id >> 22) % count


def from_env(env: Mapping[str, str] | None = None) -> Shards | None:
    """The shards named by the environment (None: neither variable set, one process runs
    every shard). ``ShardError`` says in one sentence what is wrong with them."""
    env = os.environ if env is None else env
    ids_text = env.get(IDS_VAR, "").strip()
    count_text = env.get(COUNT_VAR, "").strip()
    if not ids_text and not count_text:
        return None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ShardError(f"{COUNT_VAR} must be how many shards the bot has in all, a whole "
                         f"number of at least 1, not {count_text[:40]!r}.")
    count = int(count_text)
    if not ids_text:
        raise ShardError(f"{IDS_VAR} must name the shards this process runs, such as "
                         f"'0,1', when {COUNT_VAR} is set.")
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isdigit() for part in parts):
        raise ShardError(f"{IDS_VAR} must be shard numbers separated by commas, such as "
                         f"'0,1', not {ids_text[:40]!r}.")
    ids = tuple(int(part) for part in parts)
    outside = [n for n in ids if n >= count]
    if outside:
        raise ShardError(f"{IDS_VAR} names shard {outside[0]}, but with {COUNT_VAR}="
                         f"{count} the shards are 0 to {count - 1}.")
    if len(set(ids)) != len(ids):
        raise ShardError(f"{IDS_VAR} names a shard twice: {ids_text[:40]!r}.")
    return Shards(tuple(sorted(ids)), count)
