"""The me cog: ``/me quiet`` and ``/me away``, when a player is not to be reminded,
``/me digest``, one DM a day instead of the daily reminders, and ``/me leagues``, the
member's leagues in the server.

All are per player, over every table: in quiet hours and time away no reminder is sent
and the player's turn clocks stop (``bot/scheduler.py``). Quiet hours are at most 12 a day,
time away at most 21 days a year. The daily digest (``bot/service/digests.py``) lists every
table in every server that waits for the player, at the hour they chose.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot import words
from bot.discord.answer import Answer, answer, clip
from bot.discord.host import Host, Interaction
from bot.discord.words import described


class Me(commands.Cog):
    """A player's own settings: quiet hours and time away."""

    me = app_commands.Group(name="me", description=described("commands.me"))

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @me.command(name="quiet", description=described("commands.me_quiet"))
    @app_commands.rename(start="from", end="to")
    @app_commands.describe(start=described("commands.me_quiet_from"),
                           end=described("commands.me_quiet_to"),
                           timezone=described("commands.me_quiet_timezone"))
    async def quiet(self, interaction: Interaction, start: app_commands.Range[int, 0, 23],
                    end: app_commands.Range[int, 0, 23], timezone: str) -> None:
        async def work() -> Answer:
            return Answer(await self.bot.service.quiet(interaction.user.id, start, end,
                                                       timezone))
        await answer(interaction, work)

    @me.command(name="away", description=described("commands.me_away"))
    @app_commands.describe(days=described("commands.me_away_days"))
    async def away(self, interaction: Interaction,
                   days: app_commands.Range[int, 1, 21]) -> None:
        async def work() -> Answer:
            return Answer(await self.bot.service.away(interaction.user.id, days))
        await answer(interaction, work)

    @me.command(name="digest", description=described("commands.me_digest"))
    @app_commands.describe(at=described("commands.me_digest_at"),
                           timezone=described("commands.me_digest_timezone"))
    async def digest(self, interaction: Interaction, at: str | None = None,
                     timezone: str | None = None) -> None:
        async def work() -> Answer:
            return Answer(await self.bot.service.digest(interaction.user.id, at, timezone))
        await answer(interaction, work)

    @me.command(name="leagues", description=described("commands.me_leagues"))
    async def leagues(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            found = [] if interaction.guild_id is None else \
                await self.bot.service.leagues.mine(interaction.guild_id, interaction.user.id)
            return Answer(clip("\n".join(found) or words.say("leagues.mine_none")))
        await answer(interaction, work)

    @digest.autocomplete("at")
    async def hours(self, interaction: Interaction, current: str
                    ) -> list[app_commands.Choice[str]]:
        """'off' and the hours 0:00 to 23:00 that start with what is typed."""
        typed = current.strip().lower()
        found = ["off", *(f"{hour}:00" for hour in range(24))]
        return [app_commands.Choice(name=f, value=f) for f in found
                if f.startswith(typed)][:25]


async def setup(bot: Host) -> None:
    await bot.add_cog(Me(bot))
