"""The play cog: ``/play action:<text>``, autocompleting the caller's own legal moves."""

from __future__ import annotations

import logging

from discord import app_commands
from discord.ext import commands

from bot.discord.answer import Answer, answer
from bot.discord.host import Host, Interaction
from bot.discord.words import described

log = logging.getLogger("boardroom.discord")

SUGGESTIONS = 25  # Discord shows at most 25 autocomplete choices
CHOICE_LIMIT = 100  # and each choice's name and value hold at most 100 characters


class Play(commands.Cog):
    """Moves typed with ``/play`` (or picked from its suggestions)."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @app_commands.command(name="play", description=described("commands.play"))
    @app_commands.describe(action=described("commands.play_action"))
    @app_commands.guild_only()
    async def play(self, interaction: Interaction, action: str) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            return await self.bot.desk.play(interaction.user.id, interaction.channel_id, action)
        await answer(interaction, work)

    @play.autocomplete("action")
    async def suggest(self, interaction: Interaction, current: str
                      ) -> list[app_commands.Choice[str]]:
        """Only the caller's own legal moves (else one entry saying why there are none),
        free ones first, a costly one with its cost; where more match than fit, grouped
        by the next word to type (``bot.moves``), so each word typed narrows them."""
        if interaction.channel_id is None:
            return []
        try:
            choices = await self.bot.service.choices(interaction.channel_id,
                                                     interaction.user.id)
        except Exception:
            log.exception("Autocomplete failed in channel %s", interaction.channel_id)
            return []
        if not choices.moves and choices.why:  # one entry saying why (played, it is refused
            said = choices.why[:CHOICE_LIMIT]  # with the same sentence)
            return [app_commands.Choice(name=said, value=said)]
        return [app_commands.Choice(name=e.label(CHOICE_LIMIT), value=e.text[:CHOICE_LIMIT])
                for e in choices.narrow(current, SUGGESTIONS)]


async def setup(bot: Host) -> None:
    await bot.add_cog(Play(bot))
