"""The threads cog: ``/server threads``, where ``/game new`` opens a server's tables when it
is not told (this channel, a new thread of it, or a new private thread), and keeping a
running table's thread open when Discord archives it (``bot/discord/threads.py``)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot import words
from bot.discord.answer import Answer, answer
from bot.discord.host import Host, Interaction
from bot.discord.words import described
from rules import GameError

log = logging.getLogger("boardroom.discord")
PLACE_CHOICES = [app_commands.Choice(name=place, value=place)
                 for place in ("channel", "thread", "private")]


def place_words(place: str) -> str:
    if place == "thread":
        return words.say("threads.place.thread")
    if place == "private":
        return words.say("threads.place.private")
    return words.say("threads.place.channel")


class Threads(commands.Cog):
    """The server's place for tables; a running table's thread kept open."""

    server = app_commands.Group(name="server", description=described(
        "threads.described.server"), guild_only=True)

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @server.command(name="threads", description=described("threads.described.threads"))
    @app_commands.describe(default=described("threads.described.default"))
    @app_commands.choices(default=PLACE_CHOICES)
    async def threads(self, interaction: Interaction,
                      default: app_commands.Choice[str] | None = None) -> None:
        async def work() -> Answer:
            assert interaction.guild_id is not None
            found = self.bot.service.threads
            if default is None:
                return Answer(words.say("threads.place.shown", command="/game new",
                                        option="thread:",
                                        place=place_words(await found.place(
                                            interaction.guild_id))))
            if not interaction.permissions.manage_guild:
                raise GameError(words.say("threads.place.who"))
            await found.set_place(interaction.guild_id, default.value)
            return Answer(words.say("threads.place.set", command="/game new",
                                    option="thread:", place=place_words(default.value)))
        await answer(interaction, work)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """Discord archived a thread (a week without messages): reopen it if a table runs
        there, so that the table stays in the channel's list of threads."""
        if before.archived or not after.archived:
            return
        try:
            if await self.bot.service.threads.running(after.id):
                await after.edit(archived=False)
        except Exception:  # the thread is reopened before the next post anyway
            log.warning("Could not reopen thread %s", after.id, exc_info=True)


async def setup(bot: Host) -> None:
    await bot.add_cog(Threads(bot))
