"""The ranks cog: ``/rank [game]``, the server's ratings for a game, best first.

Ratings are per game and per server (``bot/ratings.py``). Without a game, the game of this
channel's table (its latest) is shown; in a channel without one, the answer asks which.
The answer is ephemeral and pings nobody; names are escaped (``shown_name``).
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

import rules
from bot import ratings, words
from bot.discord.answer import Answer, answer, clip, shown_name
from bot.discord.choices import GAME_CHOICES
from bot.discord.host import Host, Interaction
from bot.discord.words import described


def which() -> str:
    """The answer to /rank without a game where the channel has no table."""
    return words.say("cog_ranks.which", command="/rank game:Cube Conquest")


class Ranks(commands.Cog):
    """The server's ratings."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="rank", description=described("commands.rank"))
    @app_commands.describe(game=described("commands.rank_game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def rank(self, interaction: Interaction,
                   game: app_commands.Choice[str] | None = None) -> None:
        async def work() -> Answer:
            assert interaction.guild_id is not None
            game_id = game.value if game is not None else (
                None if interaction.channel_id is None
                else await self.bot.service.game_of(interaction.channel_id))
            if game_id is None:
                return Answer(which())
            rows = await self.bot.service.ratings(interaction.guild_id, game_id)
            return Answer(clip(ratings.table_text(rules.GAMES[game_id].name, rows,
                                                  shown_name)))
        await answer(interaction, work)


async def setup(bot: Host) -> None:
    await bot.add_cog(Ranks(bot))
