"""Tables in threads on Discord (issue 40): opening a table in a new thread of the channel,
the parent channel's notice with its Join button, and keeping the thread open while the
table runs.

- ``/game new thread:True`` (or the server's setting, ``/server threads``) opens the table
  in a new thread of the channel (``open_in_thread``): a public thread is started from the
  parent's notice (so the parent shows one message, with the thread under it: Discord
  posts no "started a thread" line for a message just posted), a private one
  (``private:True``) from the channel, its notice posted after. The thread is archived
  after a week without messages (Discord's longest, ``ARCHIVE_AFTER``), named for the game
  and its opener (``bot.service.threads.thread_name``), and is the table's channel from then
  on (one table per channel holds there as anywhere). The permissions it needs are checked
  first, from the interaction's ``app_permissions`` (``missing``); one missing is named in
  a sentence and nothing is made. A table that cannot open in the thread (options that
  don't fit) deletes the thread and the notice again.
- The parent channel's message: the table's opener and a Join button (``br:join`` on the
  message a public thread was started from, whose id is the thread's; ``br:join:{thread}``
  on a private thread's notice) while it is open; who plays once it starts (``Keeper``;
  the thread is renamed then, with the table's number and every player: one rename, within
  Discord's two per ten minutes); the result once it ends (edited each time, never posted
  anew, so the parent holds one line per table and pings nobody). Then the thread is
  archived.
- Discord archives a thread after a week without messages. A running table's thread is
  reopened when Discord says it archived it (``on_thread_update``, in the threads cog), and
  before anything is posted in it (``Keeper.reopen``: a thread the gateway does not show as
  open is fetched, and unarchived if it is archived), so a week-long quiet turn loses
  nothing.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any, Literal

import discord

from bot import words
from bot.discord.answer import NOBODY, Answer, answer, refusal, shown_name
from bot.discord.host import Host, Interaction
from bot.service import TableService
from bot.service.replies import Reply
from bot.service.threads import Notice, thread_name
from rules import GameError

log = logging.getLogger("boardroom.discord")
# Minutes without messages before Discord archives a thread: a week, the longest it allows.
ARCHIVE_AFTER: Literal[10080] = 10080
# What opening a table in a thread needs, in the parent channel: the notice, the thread,
# the table's messages there, and reopening and archiving it.
NEEDS = ("send_messages", "create_public_threads", "send_messages_in_threads",
         "manage_threads")


def missing(permissions: discord.Permissions, *, private: bool) -> str | None:
    """The first permission the bot lacks to open a table in a thread, by its name in
    Discord's settings (None: it has them all)."""
    for flag in NEEDS:
        if private and flag == "create_public_threads":
            flag = "create_private_threads"
        if not getattr(permissions, flag):
            return permission_name(flag)
    return None


def permission_name(flag: str) -> str:
    """A permission's name as Discord's settings show it."""
    if flag == "send_messages":
        return words.say("threads.permission.send_messages")
    if flag == "create_public_threads":
        return words.say("threads.permission.create_public_threads")
    if flag == "create_private_threads":
        return words.say("threads.permission.create_private_threads")
    if flag == "send_messages_in_threads":
        return words.say("threads.permission.send_messages_in_threads")
    return words.say("threads.permission.manage_threads")


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"br:join(?::(\d+))?"):
    """Join, on the parent channel's notice: a seat at the table of that thread, as
    ``/game join`` there gives; the clicker is added to the thread (a private one shows
    only to its members). ``br:join`` on the message a public thread was started from (the
    thread's id is the message's), ``br:join:{thread}`` on a private thread's notice."""

    def __init__(self, channel_id: int | None) -> None:
        super().__init__(discord.ui.Button(
            label=words.say("threads.join_button"), style=discord.ButtonStyle.success,
            custom_id="br:join" if channel_id is None else f"br:join:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> JoinButton:
        if match[1]:
            return cls(int(match[1]))
        return cls(None if interaction.message is None else interaction.message.id)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        async def work() -> Answer:
            client = interaction.client
            user = interaction.user
            channel_id = self.channel_id
            assert channel_id is not None, "a Join button is on a message"
            reply = await client.service.join(channel_id, user.id, user.display_name)
            await admit(client, channel_id, user)
            await client.desk.deliver(channel_id, reply)
            return Answer(reply.ephemeral
                          or words.say("threads.said.joined", channel=channel_id))
        await answer(interaction, work)


async def admit(client: Host, channel_id: int, member: discord.abc.Snowflake) -> None:
    """Add a member who took a seat to the table's thread, if the table is in one the bot
    made (a private thread shows only to its members)."""
    if await client.service.threads.of(channel_id) is None:
        return
    thread = await opened(client, channel_id)
    if thread is None:
        return
    try:
        await thread.add_user(member)
    except discord.HTTPException:
        log.warning("Could not add user %s to thread %s", member.id, channel_id,
                    exc_info=True)


def join_view(channel_id: int | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(channel_id))
    return view


async def opened(client: discord.Client, channel_id: int) -> discord.Thread | None:
    """The thread ``channel_id`` as it is now, open: from the gateway's cache when it shows
    it open, else fetched and unarchived if Discord archived it (None: not a thread, or
    Discord refused)."""
    cached = client.get_channel(channel_id)
    if isinstance(cached, discord.Thread) and not cached.archived:
        return cached
    try:
        fetched = await client.fetch_channel(channel_id)
        if not isinstance(fetched, discord.Thread):
            return None
        if fetched.archived:
            fetched = await fetched.edit(archived=False)
        return fetched
    except discord.HTTPException:
        log.warning("Could not reopen thread %s", channel_id, exc_info=True)
        return None


async def open_table(interaction: Interaction, game: str, game_name: str,
                     options: dict[str, Any], *, private: bool) -> Answer:
    """``/game new`` in a new thread of the interaction's channel (``where`` said so)."""
    parent = interaction.channel
    assert isinstance(parent, discord.TextChannel) and interaction.guild_id is not None
    thread = await open_in_thread(interaction.client, parent, interaction.app_permissions,
                                  interaction.user, game, game_name, options,
                                  private=private)
    return Answer(words.say("threads.said.opened", game=game_name, channel=thread.id,
                            command="/game join"))


async def open_in_thread(client: Host, parent: discord.TextChannel,
                         permissions: discord.Permissions, opener: discord.abc.User,
                         game: str, game_name: str, options: dict[str, Any], *,
                         private: bool) -> discord.Thread:
    """A table for ``game`` opened in a new thread of ``parent`` by ``opener`` (seated
    first, and added to the thread), with the parent's notice and its Join button; the
    thread. ``permissions``: the bot's in ``parent``; the first one missing is refused with
    its name (``GameError``) and nothing is made. (A league's tables open in threads of
    their own: ``bot/discord/cogs/leagues.py``.)"""
    lacking = missing(permissions, private=private)
    if lacking is not None:
        raise GameError(words.say("threads.said.missing", permission=lacking,
                                  command="/game new", option="thread:False"))
    first = words.say("threads.notice_new", player=shown_name(opener.display_name),
                      game=game_name)
    name = thread_name(game_name, None, [opener.display_name])
    notice: discord.Message | None = None
    try:
        if private:  # made from the channel: Discord starts no private thread from a message
            thread = await parent.create_thread(
                name=name, type=discord.ChannelType.private_thread,
                auto_archive_duration=ARCHIVE_AFTER, invitable=False)
        else:  # from the notice: the parent shows the thread under it, and nothing else
            notice = await parent.send(first, view=join_view(None), allowed_mentions=NOBODY)
            thread = await notice.create_thread(name=name, auto_archive_duration=ARCHIVE_AFTER)
    except discord.HTTPException as error:
        await removed(notice)
        raise GameError(words.say("threads.said.failed", why=refusal(error))) from None
    opened = False
    try:
        reply = await client.service.open(thread.id, parent.guild.id, opener.id,
                                          opener.display_name, game, options)
        opened = True
        await client.service.threads.opened(thread.id, parent.guild.id, parent.id,
                                            private=private,
                                            notice_id=None if notice is None else notice.id)
    except Exception:  # nothing stays made: the table could not open there
        if opened:  # (a table in a thread about to go would hold its opener's seat)
            with contextlib.suppress(Exception):
                await client.service.end(thread.id, opener.id, moderator=True)
        await removed(thread)
        await removed(notice)
        raise
    try:
        await thread.add_user(opener)
    except discord.HTTPException:
        log.warning("Could not add user %s to thread %s", opener.id, thread.id,
                    exc_info=True)
    await client.desk.deliver(thread.id, reply)
    if notice is None:
        try:
            notice = await parent.send(first, view=join_view(thread.id),
                                       allowed_mentions=NOBODY)
            await client.service.threads.noticed(thread.id, notice.id)
        except discord.HTTPException:
            log.warning("Could not post the notice of thread %s", thread.id, exc_info=True)
    return thread


async def removed(made: discord.Message | discord.Thread | None) -> None:
    """Delete what was made for a table that did not open."""
    if made is None:
        return
    try:
        await made.delete()
    except discord.HTTPException:
        log.warning("Could not delete %s again", made, exc_info=True)


async def where(interaction: Interaction, thread: bool | None, private: bool | None
                ) -> str | None:
    """Where ``/game new`` opens its table: None (this channel), 'thread' or 'private'.
    Told by its options, else by the server's setting; a channel that cannot hold threads
    (a thread already, a voice channel's chat) holds the table itself."""
    if not isinstance(interaction.channel, discord.TextChannel) or \
            interaction.guild_id is None or thread is False:
        return None
    if thread is None and private is None:
        place = await interaction.client.service.threads.place(interaction.guild_id)
        return None if place == "channel" else place
    return "private" if private else "thread"


class Keeper:
    """What delivery does for a table's thread: reopen it before posting, and after a
    reply that changes the table's stage, the parent's notice, the thread's name at the
    start and its archiving at the end."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service

    async def reopen(self, channel_id: int) -> None:
        """Before posting in a channel: if it is a table's thread, open it."""
        if await self.service.threads.of(channel_id) is not None:
            await opened(self.client, channel_id)

    async def after(self, channel_id: int, reply: Reply) -> None:
        """After a reply was posted in a channel: tell the parent of a new stage."""
        if not (reply.version <= 1 or reply.over or reply.ends):
            return  # a move in play changes no stage: no read
        try:
            notice = await self.service.threads.notice(channel_id, reply.game)
            if notice is not None:
                await self.tell(channel_id, notice)
        except Exception:  # the table goes on; the notice is only news for the parent
            log.exception("Could not update the notice of thread %s", channel_id)

    async def tell(self, channel_id: int, notice: Notice) -> None:
        thread = await opened(self.client, channel_id)
        if thread is not None and notice.name is not None:
            try:
                await thread.edit(name=notice.name)
            except discord.HTTPException:
                log.warning("Could not rename thread %s", channel_id, exc_info=True)
        if notice.notice_id is not None:
            parent = self.client.get_partial_messageable(notice.parent_id)
            message = parent.get_partial_message(notice.notice_id)
            try:
                await message.edit(content=notice.text, allowed_mentions=NOBODY, view=None)
            except discord.HTTPException:
                log.warning("Could not edit the notice of thread %s", channel_id,
                            exc_info=True)
        if thread is not None and notice.archive:
            try:
                await thread.edit(archived=True)
            except discord.HTTPException:
                log.warning("Could not archive thread %s", channel_id, exc_info=True)
