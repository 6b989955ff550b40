"""Several processes, one bot: the shards a process runs come from the environment
(``bot.shards``); malformed values stop it with a sentence, before it connects."""

from __future__ import annotations

import subprocess
import sys

import pytest
from discord.ext import commands

from bot import shards
from bot.app import create_bot
from bot.discord.client import Boardroom, ShardedBoardroom
from bot.shards import COUNT_VAR, IDS_VAR, Shards, from_env


def test_no_shard_variables_mean_one_process_runs_every_shard() -> None:
    assert from_env({}) is None
    assert from_env({IDS_VAR: " ", COUNT_VAR: ""}) is None


def test_the_shards_of_this_process_are_read_from_the_environment() -> None:
    assert from_env({IDS_VAR: "1,0", COUNT_VAR: "4"}) == Shards((0, 1), 4)
    assert from_env({IDS_VAR: " 3 ", COUNT_VAR: "4"}) == Shards((3,), 4)


@pytest.mark.parametrize(("ids", "count", "said"), [
    ("0,1", "", "BOARDROOM_SHARD_COUNT must be how many shards"),
    ("0,1", "two", "not 'two'"),
    ("0", "0", "at least 1"),
    ("", "4", "BOARDROOM_SHARD_IDS must name the shards"),
    ("0;1", "4", "separated by commas"),
    ("0,-1", "4", "separated by commas"),
    ("0,4", "4", "names shard 4, but with BOARDROOM_SHARD_COUNT=4 the shards are 0 to 3"),
    ("1,1", "4", "names a shard twice"),
])
def test_malformed_shard_variables_are_refused_with_a_sentence(ids: str, count: str,
                                                               said: str) -> None:
    with pytest.raises(shards.ShardError, match=said) as refused:
        from_env({IDS_VAR: ids, COUNT_VAR: count})
    assert str(refused.value).endswith(".")


def test_discords_arithmetic_puts_a_server_on_one_shard() -> None:
    guild = 81384788765712384  # Discord's example id: (guild >> 22) is 19403645698
    assert shards.shard_of(guild, 1) == 0
    assert shards.shard_of(guild, 4) == 2  # docs/scale.md's example
    assert {shards.shard_of(guild + (n << 22), 4) for n in range(4)} == {0, 1, 2, 3}


async def test_the_bot_runs_only_the_shards_it_is_given() -> None:
    sharded = create_bot(":memory:", shards=Shards((0, 2), 4))
    assert isinstance(sharded, ShardedBoardroom)
    assert isinstance(sharded, commands.AutoShardedBot)
    assert sharded.shard_ids == [0, 2] and sharded.shard_count == 4
    whole = create_bot(":memory:")
    assert type(whole) is Boardroom and whole.shard_count is None
    # One of several processes sweeps the outbox for replies another never posted.
    assert sharded.sweeps and not whole.sweeps
    # (Neither has logged in or opened its database: nothing to close.)


def test_the_bot_refuses_to_start_on_malformed_shards() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"], capture_output=True, text=True, timeout=60,
        env={"DISCORD_TOKEN": "not-a-real-token", IDS_VAR: "0,7", COUNT_VAR: "2",
             "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert "boardroom: BOARDROOM_SHARD_IDS names shard 7" in done.stderr
    assert "Traceback" not in done.stderr
