"""The guide cog: ``/rules [game] [topic]``, each game's guide for players (``bot.rulebook``):
all five games with their player counts, a game's overview, then one topic at a time,
offered as the member types."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

import rules
from bot import rulebook, words
from bot.discord.answer import Answer, answer, clip
from bot.discord.choices import GAME_CHOICES
from bot.discord.host import Host, Interaction
from bot.discord.words import DISCORD, described
from rules.guide import guide


class Guide(commands.Cog):
    """Learning a game at the table."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description=described("commands.rules"))
    @app_commands.describe(game=described("commands.rules_game"),
                           topic=described("commands.rules_topic"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: app_commands.Choice[str] | None = None,
                    topic: str | None = None) -> None:
        async def work() -> Answer:
            here = await self._table_game(interaction)
            game_id = game.value if game is not None else (here if topic else None)
            if game_id is None:
                text = rulebook.games()
            else:
                text = rulebook.page(game_id, topic, ask=DISCORD.code("/rules topic:"))
            if interaction.channel_id is not None and not topic and here is not None and \
                    game_id in (None, here):  # not above another game's guide
                try:  # this channel's table, if it has one
                    table = await self.bot.service.settings(interaction.channel_id,
                                                            interaction.user.id)
                    told = words.say("cog_guide.this_table", game=rules.GAMES[here].name,
                                     said=table.ephemeral) + "\n\n" + text
                    text = told if len(told) <= rulebook.LIMIT else text
                except rules.GameError:
                    pass
            return Answer(clip(text))
        await answer(interaction, work)

    @rules.autocomplete("topic")
    async def topics(self, interaction: Interaction, current: str
                     ) -> list[app_commands.Choice[str]]:
        """The topics of the game chosen (or this channel's) that match what is typed."""
        chosen = getattr(interaction.namespace, "game", None)
        game_id = chosen if chosen in rules.GAMES else await self._table_game(interaction)
        if game_id is None:
            return []
        return [app_commands.Choice(name=f"{t.key}: {t.title}"[:100], value=t.key[:100])
                for t in guide(game_id).matching(current)[:25]]

    async def _table_game(self, interaction: Interaction) -> str | None:
        """The id of the game of this channel's table (running, or the last one)."""
        if interaction.channel_id is None:
            return None
        return await self.bot.service.game_of(interaction.channel_id)


async def setup(bot: Host) -> None:
    await bot.add_cog(Guide(bot))
