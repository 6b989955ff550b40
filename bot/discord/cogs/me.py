"""The me cog: ``/me quiet`` and ``/me away``, when a player is not to be reminded.

Both are per player, over every table: in quiet hours and time away no reminder is sent
and the player's turn clocks stop (``bot/scheduler.py``). Quiet hours are at most 12 a day,
time away at most 21 days a year.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.discord.answer import Answer, answer
from bot.discord.host import Host, Interaction


class Me(commands.Cog):
    """A player's own settings: quiet hours and time away."""

    me = app_commands.Group(name="me", description="When not to remind you: quiet hours, "
                            "time away.")

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @me.command(name="quiet", description="Hours without reminders, when your turn clock "
                "stops too (at most 12 a day).")
    @app_commands.rename(start="from", end="to")
    @app_commands.describe(start="From this hour (0-23, your time)",
                           end="To this hour (0-23; the same hour as 'from': none)",
                           timezone="Your time zone, e.g. Europe/Paris or America/New_York")
    async def quiet(self, interaction: Interaction, start: app_commands.Range[int, 0, 23],
                    end: app_commands.Range[int, 0, 23], timezone: str) -> None:
        async def work() -> Answer:
            return Answer(await self.bot.service.quiet(interaction.user.id, start, end,
                                                       timezone))
        await answer(interaction, work)

    @me.command(name="away", description="Time away from now: no reminders, your turn "
                "clocks stop (at most 21 days a year).")
    @app_commands.describe(days="How many days (1-21)")
    async def away(self, interaction: Interaction,
                   days: app_commands.Range[int, 1, 21]) -> None:
        async def work() -> Answer:
            return Answer(await self.bot.service.away(interaction.user.id, days))
        await answer(interaction, work)


async def setup(bot: Host) -> None:
    await bot.add_cog(Me(bot))
