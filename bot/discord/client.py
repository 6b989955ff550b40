"""Boardroom's Discord client: one table service, one desk delivering its replies, the
scheduler's loop, the cogs and the persistent buttons.

``setup_hook`` opens the store when the bot owns it, loads the cogs, registers the buttons
and syncs the slash commands: globally, or only to the guild in ``DISCORD_GUILD`` when it
is set (guild commands update at once, global ones can take a while, so set it while
testing). ``on_ready`` posts what the outbox holds, then starts the loop.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.answer import NOBODY, apology, report_unexpected, shown_name
from bot.discord.buttons import BUTTONS
from bot.discord.desk import Desk
from bot.discord.host import Host
from bot.discord.loop import SWEEP_EVERY, Scheduler
from bot.service import TableService
from bot.shards import Shards
from bot.store import Store
from rules.computer import DEFAULT

log = logging.getLogger("boardroom.discord")

# One cog per feature, loaded as extensions (``setup`` in each).
EXTENSIONS = ("bot.discord.cogs.tables", "bot.discord.cogs.play", "bot.discord.cogs.guide",
              "bot.discord.cogs.looking_back", "bot.discord.cogs.me", "bot.discord.cogs.ranks")


def discord_clock() -> float:
    """Now, as Discord's clock says (``discord.utils.utcnow``): SimCord drives it in
    tests, so the scheduler and the service run on simulated days there."""
    return discord.utils.utcnow().timestamp()


class BoardroomTree(app_commands.CommandTree["Boardroom"]):
    """The command tree; its error handler is the last resort for what ``answer`` missed."""

    async def on_error(self, interaction: discord.Interaction[Boardroom],
                       error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.NoPrivateMessage):
            text = "Use this command in the server channel where the game is."
        elif isinstance(error, app_commands.CheckFailure):
            text = str(error) or "You can't use this command here."
        else:
            cause = error.original if isinstance(error, app_commands.CommandInvokeError) \
                else error
            text = apology(report_unexpected(interaction, cause))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NOBODY)
            else:
                await interaction.response.send_message(text, ephemeral=True,
                                                        allowed_mentions=NOBODY)
        except discord.HTTPException:
            log.warning("Could not apologise for an error", exc_info=True)


class Boardroom(Host):
    """Boardroom's client: one table service, one desk delivering its replies."""

    def __init__(self, database: str | Store | None = None, *, images: bool = True,
                 now: Callable[[], float] = discord_clock, shards: Shards | None = None,
                 sweep: bool | None = None, level: str = DEFAULT) -> None:
        # The shards this process runs (ShardedBoardroom); none named: all of them.
        sharding: dict[str, Any] = {} if shards is None else {
            "shard_ids": list(shards.ids), "shard_count": shards.count}
        # No privileged intents: slash commands, buttons and DMs need none of them.
        # Nobody is pinged unless a message names whom it may ping (the turn line does).
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=discord.Intents.default(), tree_cls=BoardroomTree,
                         help_command=None, allowed_mentions=NOBODY, **sharding)
        self._database = database
        self._owns_store = database is None or isinstance(database, str)
        self._images = images
        self._level = level  # the computer level a table takes when none is chosen
        self._store = None if database is None or isinstance(database, str) else database
        self._service: TableService | None = None
        self._desk: Desk | None = None
        self._scheduler: Scheduler | None = None
        self.now = now
        # One of several processes: another may stop between writing a move and posting
        # it, so the scheduler sweeps the outbox (``Scheduler``, ``Outbox.sweep``).
        self.sweeps = shards is not None if sweep is None else sweep

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("The bot is not set up yet (setup_hook has not run).")
        return self._service

    @property
    def desk(self) -> Desk:
        if self._desk is None:
            raise RuntimeError("The bot is not set up yet (setup_hook has not run).")
        return self._desk

    async def setup_hook(self) -> None:
        """Set up once (a second login, after Discord could not be reached, only syncs the
        commands again), then sync the commands."""
        if self._service is None:
            if self._store is None:
                path = self._database if isinstance(self._database, str) else None
                self._store = await Store.open(path)
            self._service = TableService(self._store, images=self._images, shown=shown_name,
                                         now=self.now, level=self._level)
            self._desk = Desk(self, self._service)
            self._scheduler = Scheduler(self._service, self._desk, now=self.now,
                                        sweep_every=SWEEP_EVERY if self.sweeps else None)
            self._service.on_due = self._scheduler.wake
            for extension in EXTENSIONS:
                await self.load_extension(extension)
            self.add_dynamic_items(*BUTTONS)
        guild = os.environ.get("DISCORD_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DISCORD_GUILD must be a server id (digits only), not {guild!r}.")
        if guild:
            target = discord.Object(id=int(guild))
            self.tree.copy_global_to(guild=target)
            synced = await self.tree.sync(guild=target)
            log.info("Synced %d commands to guild %s", len(synced), guild)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global commands", len(synced))

    @property
    def scheduler(self) -> Scheduler:
        if self._scheduler is None:
            raise RuntimeError("The bot is not set up yet (setup_hook has not run).")
        return self._scheduler

    async def on_ready(self) -> None:
        """Deliver replies the service still holds (the bot stopped before posting them),
        then start the scheduler (reminders, turn times)."""
        try:
            await self.desk.flush()
        finally:
            self.scheduler.start()

    async def close(self) -> None:
        try:
            # First the loops that send on their own: a stopped bot sends nothing.
            if self._scheduler is not None:
                await self._scheduler.close()
            if self._desk is not None:
                await self._desk.close()
            if self._service is not None:
                self._service.close()
            await super().close()
        finally:
            if self._owns_store and self._store is not None:
                await self._store.close()
                self._store = None


class ShardedBoardroom(Boardroom, commands.AutoShardedBot):
    """Boardroom running some of the bot's shards (``bot.shards``: the environment names
    them), all in this one process and connection pool; other processes run the others
    on the same PostgreSQL database (docs/scale.md)."""


