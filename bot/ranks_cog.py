"""The ranks cog: ``/rank [game]``, the server's ratings for a game, best first.

Ratings are per game and per server (``bot/ratings.py``). Without a game, the game of this
channel's table (its latest) is shown; in a channel without one, the answer asks which.
The answer is ephemeral and pings nobody; names are escaped (``shown_name``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import ratings
from bot.answer import Answer, answer, clip, shown_name
from bot.tables_cog import GAME_CHOICES

if TYPE_CHECKING:
    from bot.app import Boardroom

Interaction = discord.Interaction["Boardroom"]

WHICH = ("Which game? This channel has no table to take it from: name one, e.g. "
         "`/rank game:Cube Conquest`.")


class Ranks(commands.Cog):
    """The server's ratings."""

    def __init__(self, bot: Boardroom) -> None:
        self.bot = bot

    @app_commands.command(name="rank", description="This server's ratings for a game, best "
                          "first.")
    @app_commands.describe(game="The game (left out: the game of this channel's table)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def rank(self, interaction: Interaction,
                   game: app_commands.Choice[str] | None = None) -> None:
        async def work() -> Answer:
            assert interaction.guild_id is not None
            game_id = game.value if game is not None else await self._channel_game(
                interaction.channel_id)
            if game_id is None:
                return Answer(WHICH)
            rows = await self.bot.service.store.ratings(interaction.guild_id, game_id)
            return Answer(clip(ratings.table_text(rules.GAMES[game_id].name, rows,
                                                  shown_name)))
        await answer(interaction, work)

    async def _channel_game(self, channel_id: int | None) -> str | None:
        """The game of the channel's latest table, if it has one that is still known."""
        if channel_id is None:
            return None
        row = await self.bot.service.store.latest_game(channel_id)
        return row.game if row is not None and row.game in rules.GAMES else None


async def setup(bot: Boardroom) -> None:
    await bot.add_cog(Ranks(bot))
