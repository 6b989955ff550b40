"""Tables in threads without Discord: a thread's name within Discord's 100 characters, the
store's threads and servers' settings, and the thread requests as Discord's specification
has them (the SimCord tests are in tests/test_threads_discord.py)."""

from __future__ import annotations

import pytest
import simcord

from bot.discord.threads import ARCHIVE_AFTER, missing
from bot.records import ThreadRow
from bot.service.threads import NAME_LIMIT, thread_name
from bot.store import Store
from tests import contract


def test_a_threads_name_holds_the_game_the_table_and_its_players() -> None:
    assert thread_name("Cube Conquest", None, ["alice"]) == "Cube Conquest · alice"
    assert thread_name("Bomb Squares", 12, ["alice", "bob"]) == \
        "Bomb Squares · table 12 · alice, bob"
    long = ["A" * 90, "B" * 40, "C\nnewline" * 5, "D" * 30]
    name = thread_name("Bomb Squares", 123456, long)
    assert len(name) <= NAME_LIMIT and name.startswith("Bomb Squares · table 123456 · ")
    assert "\n" not in name and "…" in name  # each name cut short, as quote cuts
    assert len(thread_name("Bomb Squares", 1, ["x" * 30] * 20)) == NAME_LIMIT


def test_the_permissions_a_thread_needs_are_named_one_at_a_time() -> None:
    import discord

    everything = discord.Permissions(send_messages=True, create_public_threads=True,
                                     create_private_threads=True,
                                     send_messages_in_threads=True, manage_threads=True)
    assert missing(everything, private=False) is None
    assert missing(everything, private=True) is None
    lacking = discord.Permissions(everything.value)
    lacking.manage_threads = False
    assert missing(lacking, private=False) == "Manage Threads"
    lacking = discord.Permissions(everything.value)
    lacking.create_private_threads = False
    assert missing(lacking, private=False) is None
    assert missing(lacking, private=True) == "Create Private Threads"


@pytest.mark.engines  # on SQLite and PostgreSQL
async def test_the_store_keeps_threads_and_each_servers_place(store: Store) -> None:
    assert await store.threads.place(7) == "channel"
    await store.threads.set_place(7, "private")
    await store.threads.set_place(7, "thread")
    assert await store.threads.place(7) == "thread"
    assert await store.threads.place(8) == "channel"
    with pytest.raises(ValueError):
        await store.threads.set_place(7, "forum")
    game = await store.tables.create_game(55, 7, "cube-conquest", {}, 1, "alice")
    await store.threads.add(ThreadRow(55, 7, 50, game.id, private=True))
    assert await store.threads.of(56) is None
    await store.threads.notice(55, 99)
    row = await store.threads.of(55)
    assert row == ThreadRow(55, 7, 50, game.id, notice_id=99, private=True, stage="open")
    # The notice's stage moves once: a second process finds it moved and tells nothing.
    assert await store.threads.stage(55, "open", "playing")
    assert not await store.threads.stage(55, "open", "playing")


def request(method: str, path: str, body: object) -> simcord.HttpLogEntry:
    return simcord.HttpLogEntry(method, path, {}, body, None)


def test_the_thread_requests_are_discords() -> None:
    made = {"name": "Cube Conquest · alice", "type": 11, "invitable": True,
            "auto_archive_duration": ARCHIVE_AFTER}
    assert contract.problems([request("POST", "/channels/1/threads", made)]) == []
    assert contract.problems([request("POST", "/channels/1/threads",
                                      {**made, "type": 12, "invitable": False})]) == []
    assert contract.problems([request("POST", "/channels/1/threads",
                                      {**made, "auto_archive_duration": 20160})])
    assert contract.problems([request("PATCH", "/channels/2", {"archived": False})]) == []
    assert contract.problems([request("PATCH", "/channels/2", {"archived": True})]) == []
    assert contract.problems([request("PATCH", "/channels/2", {"name": "x" * 101})])
