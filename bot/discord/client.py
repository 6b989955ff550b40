"""Boardroom's Discord client: one table service, one desk delivering its replies, the
scheduler's loop, the cogs and the persistent buttons.

``login`` first loads the cogs (the command tree) and checks the commands against
Discord's documented limits (``bot.discord.limits``): a tree Discord would refuse stops the
start before any request (``StartRefused``). ``setup_hook`` opens the store when the bot owns
it and syncs the slash commands: globally, or only to the guild in ``DISCORD_GUILD`` when
it is set (guild commands update at once, global ones can take a while, so set it while
testing); a registration Discord refuses (any 4xx) stops the start too, with Discord's
answer. ``on_ready`` posts what the outbox holds, then starts the loop.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.answer import NOBODY, failed, refusal, shown_name
from bot.discord.buttons import BUTTONS
from bot.discord.desk import Desk
from bot.discord.host import Host
from bot.discord.limits import command_problems
from bot.discord.loop import SWEEP_EVERY, Scheduler
from bot.discord.words import Translator
from bot.service import TableService
from bot.shards import Shards
from bot.store import Store

log = logging.getLogger("boardroom.discord")

INVALID_FORM_BODY = 50035  # Discord's code: a field of the request breaks a rule

# The gateway events the bot asks for: its guilds, channels and threads, nothing more.
# Commands, buttons and autocomplete come as interactions, which need no intent; DMs are
# sent over REST. Discord's default set would also send every message, edit, reaction and
# typing indicator in every channel the bot can see (its own posts and edits too), each
# parsed and the messages cached for nothing: no code of the bot reads them, hence
# ``max_messages=None`` as well.
INTENTS = discord.Intents(guilds=True)

# One cog per feature, loaded as extensions (``setup`` in each).
EXTENSIONS = ("bot.discord.cogs.tables", "bot.discord.cogs.play", "bot.discord.cogs.guide",
              "bot.discord.cogs.looking_back", "bot.discord.cogs.me", "bot.discord.cogs.ranks",
              "bot.discord.cogs.threads",
              "bot.discord.cogs.leagues")


def discord_clock() -> float:
    """Now, as Discord's clock says (``discord.utils.utcnow``): SimCord drives it in
    tests, so the scheduler and the service run on simulated days there."""
    return discord.utils.utcnow().timestamp()


class StartRefused(Exception):
    """The bot cannot start as it is: Discord refused its start, or would (its commands
    break a documented limit, ``DISCORD_GUILD`` is not a server id). ``sentences``: what
    is wrong, one sentence each, with what to do; retrying unchanged would fail again."""

    def __init__(self, *sentences: str) -> None:
        super().__init__(" ".join(sentences))
        self.sentences = sentences


def guild_from_env() -> int | None:
    """The server ``DISCORD_GUILD`` names, if any (``StartRefused`` if it is no id)."""
    guild = os.environ.get("DISCORD_GUILD", "").strip()
    if guild and not guild.isdigit():
        raise StartRefused(f"DISCORD_GUILD must be a server id (digits only), not "
                           f"{guild[:40]!r}; unset it to register the commands globally.")
    return int(guild) if guild else None


class BoardroomTree(app_commands.CommandTree["Boardroom"]):
    """The command tree; its error hook (what ``answer`` did not catch: a failed check,
    an error before or after the work) follows the one error policy, ``answer.failed``."""

    async def on_error(self, interaction: discord.Interaction[Boardroom],
                       error: app_commands.AppCommandError) -> None:
        await failed(interaction, error)


class Boardroom(Host):
    """Boardroom's client: one table service, one desk delivering its replies."""

    def __init__(self, database: str | Store | None = None, *, images: bool = True,
                 now: Callable[[], float] = discord_clock, shards: Shards | None = None,
                 sweep: bool | None = None, level: str | None = None) -> None:
        # The shards this process runs (ShardedBoardroom); none named: all of them.
        sharding: dict[str, Any] = {} if shards is None else {
            "shard_ids": list(shards.ids), "shard_count": shards.count}
        # Nobody is pinged unless a message names whom it may ping (the turn line does).
        super().__init__(command_prefix=commands.when_mentioned, intents=INTENTS,
                         max_messages=None, tree_cls=BoardroomTree, help_command=None,
                         allowed_mentions=NOBODY, **sharding)
        self._database = database
        self._owns_store = database is None or isinstance(database, str)
        self._images = images
        self._level = level  # the computer level tables take when none is chosen (None:
        # the service's, ``bot.service.computers.Levels``)
        self._store = None if database is None or isinstance(database, str) else database
        self._service: TableService | None = None
        self._desk: Desk | None = None
        self._scheduler: Scheduler | None = None
        self._commands_loaded = False
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

    async def load_commands(self) -> None:
        """Load the cogs (the command tree) and register the buttons, once: no network and
        no database needed (``boardroom check`` builds the tree so)."""
        if self._commands_loaded:
            return
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*BUTTONS)
        self._commands_loaded = True

    def registration(self, guild: int | None = None) -> list[dict[str, Any]]:
        """The commands as ``CommandTree.sync`` sends them to Discord (the body of ``PUT
        /applications/{id}/commands``), globally or for ``guild``."""
        target = None if guild is None else discord.Object(id=guild)
        return [command.to_dict(self.tree) for command in self.tree.get_commands(guild=target)]

    async def login(self, token: str) -> None:
        """Log in, once the commands are known to fit Discord's limits: a tree Discord
        would refuse raises ``StartRefused`` before any request is made."""
        guild_from_env()
        await self.load_commands()
        problems = command_problems(self.registration())
        if problems:  # one sentence each, the last saying what it means
            *others, last = problems
            raise StartRefused(*others, last.removesuffix(".") + ", so the bot stopped before "
                               "asking Discord anything (this version of Boardroom cannot "
                               "register its commands: run another one, or report it).")
        await super().login(token)

    async def setup_hook(self) -> None:
        """Set up once (a second login, after Discord could not be reached, only syncs the
        commands again), then sync the commands: ``StartRefused`` with Discord's answer if
        it refuses them (a 4xx; 429 is discord.py's to wait out, 5xx ``bot.app.run``'s to
        retry)."""
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
        await self.load_commands()
        if self.tree.translator is None:  # command texts in every language the catalogue has
            await self.tree.set_translator(Translator())
        guild = guild_from_env()
        target = None if guild is None else discord.Object(id=guild)
        if target is not None:
            self.tree.copy_global_to(guild=target)
        try:
            synced = await self.tree.sync(guild=target)
        except discord.HTTPException as error:
            if not 400 <= error.status < 500 or error.status == 429:
                raise
            raise StartRefused(registration_refused(error, guild)) from None
        if guild is None:
            log.info("Synced %d global commands", len(synced))
        else:
            log.info("Synced %d commands to guild %s", len(synced), guild)

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


def registration_refused(error: discord.HTTPException, guild: int | None) -> str:
    """The sentence for a command registration Discord refused, with its answer and what
    to do about it."""
    where = "globally" if guild is None else f"in server {guild} (DISCORD_GUILD)"
    if error.status in (403, 404) and guild is not None:
        todo = ("invite the bot to that server with the applications.commands scope "
                "(docs/discord.md), or correct or unset DISCORD_GUILD")
    elif error.status in (401, 403):
        todo = "check the token and the application in the Developer Portal"
    elif error.code == INVALID_FORM_BODY:
        todo = "run 'boardroom check', fix what it names, then start the bot again"
    else:
        todo = "start it again once what Discord names is settled"
    return (f"Discord refused to register the bot's commands {where} ({refusal(error)}), "
            f"so the bot stopped: {todo}.")


def start_refused(error: discord.HTTPException) -> str:
    """The sentence for another request of the start that Discord refused (the
    application's details at login, say), with its answer and what to do."""
    return (f"Discord refused a request of the bot's start ({refusal(error)}), so the bot "
            "stopped: check the token, the application and the bot's permissions in the "
            "Developer Portal (docs/discord.md), then start it again.")


class ShardedBoardroom(Boardroom, commands.AutoShardedBot):
    """Boardroom running some of the bot's shards (``bot.shards``: the environment names
    them), all in this one process and connection pool; other processes run the others
    on the same PostgreSQL database (docs/scale.md)."""


