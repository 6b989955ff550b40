"""Tables in threads (issue 40) end to end on SimCord: ``/game new thread:True`` opens the
table in a new thread of the channel, the parent gets one message with a Join button that
becomes who plays and then the result, the thread is renamed at the start and archived
after the recap, a running table's thread is reopened when Discord archives it (or before
the bot posts there, when the bot did not see it archived), a missing permission is named
and nothing is made, and ``/server threads`` makes a thread the server's default.

SimCord models threads (creation from a message and from a channel, public and private,
members, the archived flag of PATCH /channels/{id}, ``THREAD_UPDATE``) but not Discord's
own archiving after ``auto_archive_duration`` without messages: the tests archive the
thread themselves, as Discord would after a quiet week, through SimCord's backend. SimCord
also posts its "thread created" line (type 18) in the parent for a thread started from a
message just posted, which Discord posts only for a thread without a message or from an
older one: the tests count the bot's own messages there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.discord.threads import ARCHIVE_AFTER
from tests.test_discord import World, buttons, message_text, said, world

WEEK = 7 * 24 * 3600


def thread_of(w: World, n: int = 0) -> Any:
    """The channel's ``n``th thread (in the order made)."""
    threads = sorted(w.channel.threads, key=lambda t: t.id)
    return threads[n]


def meta(w: World, thread: Any) -> Any:
    return w.env.backend.channels[thread.id].thread_metadata


def notices(w: World) -> list[discord.Message]:
    """The bot's own messages in the parent channel (SimCord's system messages apart)."""
    assert w.bot.user is not None
    return [m for m in w.public() if m.author.id == w.bot.user.id
            and m.type == discord.MessageType.default]


async def open_in_thread(w: World, member: Any, **options: Any) -> Any:
    text = said(await member.slash(w.channel, "game new", game="cube-conquest", thread=True,
                                   **options))
    assert "opened a table for **Cube Conquest**" in text, text
    return thread_of(w, len(w.channel.threads) - 1)


def archive(w: World, thread: Any, *, seen: bool) -> None:
    """Archive the thread as Discord does after a week without messages: with its
    THREAD_UPDATE (``seen``), or as if the bot was away then (no event reaches it)."""
    if seen:
        w.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    else:
        meta(w, thread).archived = True


def patched(w: World, thread: Any) -> list[Any]:
    """The requests that changed the thread's archived flag, in order."""
    return [r.json["archived"] for r in w.env.http_requests
            if r.method == "PATCH" and r.path == f"/channels/{thread.id}"
            and r.json and "archived" in r.json]


async def test_a_table_in_a_thread_plays_to_its_end_joined_from_the_parent(
        tmp_path: Path) -> None:
    async with world(tmp_path, level="easy") as w:  # the computers play the game out fast
        thread = await open_in_thread(w, w.alice)
        assert thread.name == "Cube Conquest · alice"
        assert meta(w, thread).auto_archive_duration == ARCHIVE_AFTER == 10080
        # The table lives in the thread; the parent has one message with a Join button,
        # the one the (public) thread was started from: Discord shows the thread under it.
        assert "opened a table" in message_text(thread.history()[-1])
        [notice] = notices(w)
        assert notice.id == thread.id and "press Join" in notice.content
        assert [r.path for r in w.env.http_requests if "/threads" in r.path] == [
            f"/channels/{w.channel.id}/messages/{notice.id}/threads"]
        [join] = buttons(notice)
        assert join.label == "Join"
        assert f"<#{thread.id}>" in said(await w.bob.click(notice, label="Join"))
        assert w.bob.id in w.env.backend.channels[thread.id].thread_members
        assert "bob" in message_text(thread.history()[-1])
        said(await w.alice.slash(thread, "game start"))
        [notice] = notices(w)  # the same message, edited: who plays, no button
        assert "is being played" in notice.content and "alice and bob" in notice.content
        assert not buttons(notice)
        table = (await w.bot.service.status(thread.id)).game
        assert w.env.backend.channels[thread.id].name == f"Cube Conquest · table {table} · " \
            "alice, bob"
        # A move each, then both resign: the computers play the game out in the thread.
        said(await w.alice.slash(thread, "game resign"))
        said(await w.bob.slash(thread, "game resign"))
        await w.env.settle()
        last = message_text(thread.history()[-1])
        assert "Game over" in last or "wins" in last, last
        [notice] = notices(w)
        assert "is over" in notice.content and "Final score" in notice.content, notice.content
        assert meta(w, thread).archived  # after its recap
        assert patched(w, thread) == [True]
        assert len(w.public()) == 2  # the notice, and SimCord's "thread created" line


async def test_a_quiet_week_does_not_lose_a_running_tables_thread(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        thread = await open_in_thread(w, w.alice)
        said(await w.alice.slash(thread, "game settings", turn_time="9d"))
        said(await w.bob.click(notices(w)[0], label="Join"))
        said(await w.alice.slash(thread, "game start"))
        # Discord archives it after a week; the bot sees it and opens it again at once.
        await w.env.advance_time(WEEK + 60)
        archive(w, thread, seen=True)
        await w.env.settle()
        assert not meta(w, thread).archived
        assert patched(w, thread) == [False]
        # Archived again while the bot was away (a restart): when the turn time runs out,
        # the stand-in's move is posted there, after the thread is opened again.
        archive(w, thread, seen=False)
        await w.restart()
        posts, since = len(thread.history()), len(w.env.http_requests)
        await w.env.advance_time(2 * 24 * 3600 + 60)
        await w.env.settle()
        assert len(thread.history()) > posts
        assert "ran out of time" in "\n".join(message_text(m) for m in thread.history()[posts:])
        assert not meta(w, thread).archived
        assert patched(w, thread) == [False, False]
        later = [(r.method, r.path, r.json) for r in w.env.http_requests[since:]]
        reopened = later.index(("PATCH", f"/channels/{thread.id}", {"archived": False}))
        first_post = next(i for i, (method, path, _) in enumerate(later)
                          if (method, path) == ("POST", f"/channels/{thread.id}/messages"))
        assert reopened < first_post


async def test_a_missing_permission_is_named_and_nothing_is_made(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        bot_user = w.bot.user
        assert bot_user is not None
        closed = w.guild.create_text_channel("no-threads", overwrites={
            bot_user: discord.PermissionOverwrite(manage_threads=False)})
        text = said(await w.alice.slash(closed, "game new", game="cube-conquest",
                                        thread=True))
        assert "I need the **Manage Threads** permission" in text, text
        assert closed.threads == [] and closed.history() == []
        private = w.guild.create_text_channel("no-private", overwrites={
            bot_user: discord.PermissionOverwrite(create_private_threads=False)})
        text = said(await w.alice.slash(private, "game new", game="cube-conquest",
                                        thread=True, private=True))
        assert "**Create Private Threads**" in text
        assert private.threads == [] and private.history() == []
        # Options that don't fit the game: the thread made for it goes again.
        refused = said(await w.alice.slash(w.channel, "game new", game="cube-conquest",
                                           thread=True, options="nonsense=9"))
        assert "table" not in refused or "opened" not in refused, refused
        assert w.channel.threads == []
        made = [r for r in w.env.http_requests if "/threads" in r.path
                or r.method == "DELETE"]
        assert [r.method for r in made] == ["POST", "DELETE", "DELETE"]  # thread, notice
        assert notices(w) == []  # (SimCord's own line for a thread made stays: see above)
        # Nothing was opened: a table here still opens in the channel itself.
        said(await w.alice.slash(private, "game new", game="cube-conquest"))
        assert private.threads == []


async def test_one_table_a_thread_and_any_number_of_threads_a_channel(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        first = await open_in_thread(w, w.alice)
        refused = said(await w.bob.slash(first, "game new", game="block-buster"))
        assert "already has a table" in refused, refused
        second = await open_in_thread(w, w.carol)
        assert second.id != first.id and len(notices(w)) == 2
        # Each Join button seats at its own thread's table.
        said(await w.bob.click(notices(w)[1], label="Join"))
        assert w.bob.id in w.env.backend.channels[second.id].thread_members
        assert w.bob.id not in w.env.backend.channels[first.id].thread_members
        assert "bob" in message_text(second.history()[-1])
        # A thread asked for inside a thread: the table opens in that thread itself.
        said(await w.alice.slash(first, "game end"))
        said(await w.bob.slash(first, "game new", game="block-buster", thread=True))
        assert len(w.channel.threads) == 2
        # The ended table's notice says so, and its thread is archived.
        assert "was ended before the game finished" in notices(w)[0].content


async def test_a_private_thread_shows_to_its_players_and_the_server_default(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        thread = await open_in_thread(w, w.alice, private=True)
        assert w.env.backend.channels[thread.id].type == 12
        made = [r.json for r in w.env.http_requests if "/threads" in r.path]
        assert made == [{"name": "Cube Conquest · alice", "auto_archive_duration": 10080,
                         "type": 12, "invitable": False, "rate_limit_per_user": None}]
        assert f"br:join:{thread.id}" in str(notices(w)[0].components)
        members = w.env.backend.channels[thread.id].thread_members
        assert w.alice.id in members and w.bob.id not in members
        said(await w.bob.click(notices(w)[0], label="Join"))
        assert w.bob.id in members and w.carol.id not in members
        # A seat handed on in play brings its new player into the thread too.
        said(await w.alice.slash(thread, "game start"))
        said(await w.alice.slash(thread, "game replace", player=w.bob, seat=w.carol))
        assert w.carol.id in members
        # The server's default: shown to anyone, changed by a server manager only.
        assert "opens a table in the channel where it is used" in said(
            await w.carol.slash(w.channel, "server threads"))
        assert "Only a member who may manage the server" in said(
            await w.carol.slash(w.channel, "server threads", default="thread"))
        admins = w.guild.create_role("Admins", permissions=discord.Permissions(
            manage_guild=True))
        dave = w.guild.add_member(w.env.create_user("dave"), roles=[admins])
        assert "From now on" in said(await dave.slash(w.channel, "server threads",
                                                      default="thread"))
        said(await w.bob.slash(w.channel, "game new", game="block-buster"))
        assert len(w.channel.threads) == 2
        assert w.env.backend.channels[thread_of(w, 1).id].type == 11
        said(await dave.slash(w.channel, "game new", game="block-buster", thread=False))
        assert (await w.bot.service.status(w.channel.id)).game  # this one in the channel


async def test_a_table_whose_thread_could_not_be_recorded_does_not_stay_open(
        tmp_path: Path, caplog: Any) -> None:
    """The table opened in the thread but recording the thread failed: the thread and its
    notice go again, and so does the table, so its opener is not left seated in it."""
    async with world(tmp_path) as w:
        async def failing(*_: Any, **__: Any) -> Any:
            raise RuntimeError("the database went away")
        w.bot.service.threads.opened = failing  # type: ignore[method-assign]
        said(await w.alice.slash(w.channel, "game new", game="cube-conquest", thread=True))
        assert w.channel.threads == []
        deleted = [r for r in w.env.http_requests if r.method == "DELETE"]
        assert len(deleted) == 2  # the thread and its notice
        made = [r for r in w.env.http_requests if r.method == "POST" and "/threads" in r.path]
        (thread_id,) = {int(r.path.split("/")[-2]) for r in made}  # a public thread's id
        # is its notice's: /channels/{parent}/messages/{notice}/threads
        game = await w.bot.service.store.tables.latest_game(thread_id)
        assert game is not None and game.status == "ended"
