"""The history cog: ``/games``, ``/log [count]`` and ``/since``, looking back.

All three answer ephemerally: ``/games`` lists the caller's own tables, and ``/log`` and
``/since`` show a seated caller their private events too, which must never reach the
channel. The text comes from the service (``bot/history.py``); times are Discord
timestamps, and the answers ping nobody (``answer``).
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.discord.answer import Answer, answer
from bot.discord.host import Host, Interaction
from bot.discord.words import described
from bot.history import LOG_COUNT, LOG_MOST, pages


class History(commands.Cog):
    """Catching up: one's tables, a game's log, what happened since one's last move."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="games", description=described("commands.games"))
    @app_commands.guild_only()
    async def games(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.guild_id is not None
            return Answer(await self.bot.service.games(interaction.guild_id,
                                                       interaction.user.id))
        await answer(interaction, work)

    @app_commands.command(name="log", description=described("commands.log"))
    @app_commands.describe(count=described("commands.log_count", most=LOG_MOST,
                                           default=LOG_COUNT))
    @app_commands.guild_only()
    async def log(self, interaction: Interaction,
                  count: app_commands.Range[int, 1, LOG_MOST] = LOG_COUNT) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.log(interaction.channel_id, interaction.user.id,
                                               count)
            first, *more = pages(reply.ephemeral)
            return Answer(first, more=tuple(more))
        await answer(interaction, work)

    @app_commands.command(name="since", description=described("commands.since"))
    @app_commands.guild_only()
    async def since(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.since(interaction.channel_id, interaction.user.id)
            picture = next((p.picture for p in reply.private if p.picture is not None), None)
            return Answer(reply.ephemeral, picture)
        await answer(interaction, work)


async def setup(bot: Host) -> None:
    await bot.add_cog(History(bot))
