"""The leagues cog: ``/league new|start|standings|list|withdraw|replace|pause|resume|end``,
the sign-up message's Join and Leave buttons, the league's message in its channel (the
sign-up, then the standings, edited after every result), and each round's tables opened
in threads of the league's channel (``open_in_thread``).

Buttons carry what they do and nothing else: ``br:league-join:{league}`` and
``br:league-leave:{league}``. The service tells the cog of every change of a league
(``Leagues.on_change``); the cog then edits the league's message and opens the tables of a
new round, in a task of its own (a move that ends a round does not wait for the next
round's threads). The round's deadline is the scheduler's (``due``, a job of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import words
from bot.discord.answer import NOBODY, Answer, Attachment, answer, clip
from bot.discord.choices import CLOCK_CHOICES, GAME_CHOICES
from bot.discord.host import Host, Interaction
from bot.discord.live import mentions, pinging
from bot.discord.threads import ARCHIVE_AFTER, missing
from bot.discord.words import described
from bot.service.league_tables import Board
from bot.service.replies import Reply
from bot.service.table import TableError, parse_options
from render import standings as drawn

log = logging.getLogger("boardroom.discord")
FORMATS = [app_commands.Choice(name=described("choices.round_robin"), value="round-robin"),
           app_commands.Choice(name=described("choices.swiss"), value="swiss")]
RULES = [app_commands.Choice(name=described("choices.play_on"), value="play on"),
         app_commands.Choice(name=described("choices.stand_in"), value="stand-in")]
AFTER = [app_commands.Choice(name=described("choices.forfeit"), value="forfeit"),
         app_commands.Choice(name=described("choices.stand_in_games"), value="stand-in")]


async def open_in_thread(bot: Host, channel_id: int, guild_id: int, board: Board) -> None:
    """Open a round's table in a new public thread of the league's channel, named for the
    league, the round and the players: a first line there adds the players to it, then
    the table is opened, seated and dealt through the service, its start delivered, and
    the thread kept as a table's thread."""
    thread = await _made_before(bot, board)
    if thread is None:
        channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.TextChannel)
        thread = await channel.create_thread(name=board.title(),
                                             auto_archive_duration=ARCHIVE_AFTER,
                                             type=discord.ChannelType.public_thread)
        await bot.service.leagues.boards.threaded(board, thread.id)
    humans = [m for m in board.members if m is not None]
    await thread.send(words.say("leagues.table_of", league=board.league_id,
                                round=board.round, mentions=mentions(humans)),
                      allowed_mentions=pinging(humans))
    reply = await bot.service.leagues.seat(board, thread.id, guild_id)
    await bot.desk.deliver(thread.id, reply)
    # A table's thread from now on (bot/discord/threads.py's Keeper): reopened before
    # anything is posted in it after Discord archived it in a quiet week, archived once the
    # game is over. Recorded at the stage its game is at, so its league name stays.
    with contextlib.suppress(TableError):  # the game ended already
        await bot.service.threads.opened(thread.id, guild_id, channel_id, private=False)


async def _made_before(bot: Host, board: Board) -> discord.Thread | None:
    """The thread a process made for ``board`` before it stopped, if it is still there and
    holds no table (a table half opened there is left alone: a new thread it is)."""
    if board.thread is None:
        return None
    try:
        thread = bot.get_channel(board.thread) or await bot.fetch_channel(board.thread)
    except (discord.NotFound, discord.Forbidden):
        return None
    if not isinstance(thread, discord.Thread) or await bot.service.game_of(thread.id):
        return None
    if thread.archived:
        await thread.edit(archived=False)
    return thread


class Leagues(commands.Cog):
    """Leagues over weeks: sign-up, rounds in threads, standings, the organiser's tools."""

    league = app_commands.Group(name="league", description=described("commands.league"),
                                guild_only=True)

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SignButton)
        with contextlib.suppress(RuntimeError):  # none: the tree alone (``boardroom check``)
            self.bot.service.leagues.on_change = self.changed
            self.bot.service.leagues.on_replies = self.delivered

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a restart: record what ended meanwhile, open what was not opened, and
        tell each league's service of its changes from now on."""
        try:
            leagues = self.bot.service.leagues
        except RuntimeError:  # a client without the service (``boardroom smoke``)
            return
        leagues.on_change = self.changed
        leagues.on_replies = self.delivered
        for row in await self.bot.service.store.leagues.running():
            try:  # one league's trouble does not keep the others waiting
                await leagues.catch_up(row.id)
            except Exception:
                log.exception("Could not catch up league %s", row.id)
            await self.refresh(row.id)

    async def changed(self, league_id: int) -> None:
        task = asyncio.ensure_future(self.refresh(league_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def due(self, now: float) -> None:
        """Every round whose deadline has passed closed now, and the tables the computer
        played out delivered (the scheduler does it through the jobs of kind 'league';
        this is for a test, or an operator, that does not wait for it)."""
        await self.delivered(await self.bot.service.leagues.due(now))

    async def delivered(self, replies: list[tuple[int, Reply]]) -> None:
        """Deliver the replies of tables the computer played out at a deadline."""
        for channel_id, reply in replies:
            await self.bot.desk.deliver(channel_id, reply)

    # -- the league's message and its tables

    async def refresh(self, league_id: int) -> None:
        """Show the league as it is now in its message, and open its round's tables."""
        lock = self._locks.setdefault(league_id, asyncio.Lock())
        async with lock:
            try:
                await self._show(league_id)
            except Exception:  # the tables open all the same; the next change shows it
                log.exception("Could not show league %s", league_id)
            try:
                await self._open(league_id)
            except Exception:
                log.exception("Could not open the tables of league %s", league_id)

    async def _show(self, league_id: int) -> None:
        leagues = self.bot.service.leagues
        row, held = await leagues.held(league_id)
        files: list[discord.File] = []
        view: discord.ui.View | None = None
        if row.status == "signup":
            text = leagues.told.signup(row, held)
            view = signup_view(row.id)
        else:
            shown = await leagues.standings(league_id)
            text = leagues.told.standings(row, held, shown)
            if shown.picture.get("rows"):
                png = await asyncio.to_thread(drawn.png, shown.picture)
                alt = words.say("leagues.standings_alt", league=row.id,
                                summary=drawn.summary(shown.picture))
                files = [Attachment(f"league-{row.id}.png", png, alt).file()]
        channel = self.bot.get_partial_messageable(row.channel_id)
        if row.message_id is not None:
            try:
                await channel.get_partial_message(row.message_id).edit(
                    content=clip(text), attachments=files, view=view, allowed_mentions=NOBODY)
                return
            except discord.NotFound:
                pass  # deleted: a new one
        message = await (
            channel.send(clip(text), files=files, allowed_mentions=NOBODY) if view is None
            else channel.send(clip(text), files=files, view=view, allowed_mentions=NOBODY))
        await leagues.set_message(row.id, message.id)

    async def _open(self, league_id: int) -> None:
        """The round's tables one after another (each a thread, a line and the table's
        start): Discord's limits on creating threads are met by going one at a time and
        letting discord.py wait out any 429."""
        leagues = self.bot.service.leagues
        row = await leagues.row(league_id)
        for board in await leagues.to_open(league_id):
            if await leagues.claim(board):
                try:
                    await open_in_thread(self.bot, row.channel_id, row.guild_id, board)
                except Exception:
                    log.exception("Could not open table %s of round %s of league %s",
                                  board.number, board.round, league_id)

    async def idle(self) -> None:
        """Wait for the league work under way (tests, and a bot that closes)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    # -- commands

    @league.command(name="new", description=described("commands.league_new"))
    @app_commands.rename(format_="format", length="round", size="players")
    @app_commands.describe(game=described("commands.league_new_game"),
                           format_=described("commands.league_new_format"),
                           rounds=described("commands.league_new_rounds"),
                           length=described("commands.league_new_round"),
                           size=described("commands.league_new_players"),
                           deadline=described("commands.league_new_deadline"),
                           clock=described("commands.league_new_clock"),
                           turn_time=described("commands.league_new_turn_time"),
                           bank=described("commands.league_new_bank"),
                           add=described("commands.league_new_add"),
                           options=described("commands.league_new_options"))
    @app_commands.choices(game=GAME_CHOICES, format_=FORMATS, deadline=RULES,
                          clock=CLOCK_CHOICES)
    async def new(self, interaction: Interaction, game: app_commands.Choice[str],
                  format_: app_commands.Choice[str], rounds: app_commands.Range[int, 1, 30],
                  length: str, size: app_commands.Range[int, 2, 4] = 2,
                  deadline: app_commands.Choice[str] | None = None,
                  clock: app_commands.Choice[str] | None = None,
                  turn_time: str | None = None, bank: str | None = None,
                  add: str | None = None, options: str | None = None) -> None:
        async def work() -> Answer:
            assert interaction.guild_id is not None and interaction.channel_id is not None
            if not isinstance(interaction.channel, discord.TextChannel):
                raise TableError(words.say("leagues.text_channel"))
            table: dict[str, Any] = {"turn_time": turn_time, "bank": bank, "add": add,
                                     "clock": None if clock is None else clock.value,
                                     "options": parse_options(options)}
            row = await self.bot.service.leagues.new(
                interaction.guild_id, interaction.channel_id, interaction.user.id,
                interaction.user.display_name, game.value, format_.value, rounds, length,
                per_table=size, deadline="play on" if deadline is None else deadline.value,
                table=table)
            async with self._locks.setdefault(row.id, asyncio.Lock()):
                await self._show(row.id)  # without it nobody can sign up: its error is said
            return Answer(words.say("leagues.opened", league=row.id))
        await answer(interaction, work)

    @league.command(name="start", description=described("commands.league_start"))
    @app_commands.describe(league=described("commands.league_number"))
    async def start(self, interaction: Interaction, league: int | None = None) -> None:
        async def work() -> Answer:
            league_id = await self._pick(interaction, league)
            lacking = missing(interaction.app_permissions, private=False)
            if lacking is not None:  # (the threads' own check: archiving needs one too)
                raise TableError(words.say("leagues.no_threads", permission=lacking))
            await self.bot.service.leagues.start(league_id, interaction.user.id,
                                                 moderator=_manager(interaction))
            return Answer(words.say("leagues.started", league=league_id))
        await answer(interaction, work)

    @league.command(name="standings", description=described("commands.league_standings"))
    @app_commands.describe(league=described("commands.league_number"))
    async def standings(self, interaction: Interaction, league: int | None = None) -> None:
        async def work() -> Answer:
            leagues = self.bot.service.leagues
            league_id = await self._pick(interaction, league)
            row, held = await leagues.held(league_id)
            if held.league is None:
                raise TableError(words.say("leagues.not_open", league=row.id,
                                           command="/league start"))
            shown = await leagues.standings(league_id)
            png = await asyncio.to_thread(drawn.png, shown.picture)
            alt = words.say("leagues.standings_alt", league=row.id,
                            summary=drawn.summary(shown.picture))
            return Answer(clip(leagues.told.standings(row, held, shown)),
                          files=(Attachment(f"league-{row.id}.png", png, alt),))
        await answer(interaction, work)

    @league.command(name="list", description=described("commands.league_list"))
    async def listing(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.guild_id is not None
            leagues = self.bot.service.leagues
            lines = [leagues.told.listed(row, held) for row, held in
                     [await leagues.held(r.id) for r in await leagues.of_guild(
                         interaction.guild_id)]]
            return Answer(clip("\n".join(lines) or words.say("leagues.none",
                                                             command="/league new")))
        await answer(interaction, work)

    @league.command(name="withdraw", description=described("commands.league_withdraw"))
    @app_commands.rename(after="then")
    @app_commands.describe(player=described("commands.league_withdraw_player"),
                           after=described("commands.league_withdraw_then"),
                           league=described("commands.league_number"))
    @app_commands.choices(after=AFTER)
    async def withdraw(self, interaction: Interaction, player: discord.Member,
                       after: app_commands.Choice[str], league: int | None = None) -> None:
        async def work() -> Answer:
            league_id = await self._pick(interaction, league)
            said, handed = await self.bot.service.leagues.withdraw(
                league_id, interaction.user.id, player.id, after.value,
                moderator=_manager(interaction))
            for channel_id, reply in handed:
                await self.bot.desk.deliver(channel_id, reply)
            return Answer(said)
        await answer(interaction, work)

    @league.command(name="replace", description=described("commands.league_replace"))
    @app_commands.describe(player=described("commands.league_replace_player"),
                           by=described("commands.league_replace_by"),
                           league=described("commands.league_number"))
    async def replace(self, interaction: Interaction, player: discord.Member,
                      by: discord.Member, league: int | None = None) -> None:
        async def work() -> Answer:
            league_id = await self._pick(interaction, league)
            said = await self.bot.service.leagues.replace(
                league_id, interaction.user.id, player.id, by.id, by.display_name,
                moderator=_manager(interaction))
            return Answer(said)
        await answer(interaction, work)

    @league.command(name="pause", description=described("commands.league_pause"))
    @app_commands.describe(league=described("commands.league_number"))
    async def pause(self, interaction: Interaction, league: int | None = None) -> None:
        await self._organise(interaction, league, self.bot.service.leagues.pause)

    @league.command(name="resume", description=described("commands.league_resume"))
    @app_commands.describe(league=described("commands.league_number"))
    async def resume(self, interaction: Interaction, league: int | None = None) -> None:
        await self._organise(interaction, league, self.bot.service.leagues.resume)

    @league.command(name="end", description=described("commands.league_end"))
    @app_commands.describe(league=described("commands.league_number"))
    async def end(self, interaction: Interaction, league: int | None = None) -> None:
        await self._organise(interaction, league, self.bot.service.leagues.end)

    async def _organise(self, interaction: Interaction, league: int | None,
                        tool: Callable[..., Awaitable[str]]) -> None:
        """An organiser's tool that answers in one sentence (pause, resume, end): the
        service says who may use it."""
        async def work() -> Answer:
            league_id = await self._pick(interaction, league)
            return Answer(await tool(league_id, interaction.user.id,
                                     moderator=_manager(interaction)))
        await answer(interaction, work)

    async def _pick(self, interaction: Interaction, league: int | None) -> int:
        assert interaction.guild_id is not None
        return await self.bot.service.leagues.pick(interaction.guild_id, league)

    async def sign(self, interaction: Interaction, league_id: int, *, join: bool) -> Answer:
        """A Join or Leave button of the sign-up message."""
        leagues = self.bot.service.leagues
        if join:
            await leagues.join(league_id, interaction.user.id, interaction.user.display_name)
            said = words.say("leagues.joined", league=league_id)
        else:
            await leagues.leave(league_id, interaction.user.id)
            said = words.say("leagues.left", league=league_id)
        await self.refresh(league_id)
        return Answer(said)


def _manager(interaction: Interaction) -> bool:
    return interaction.permissions.manage_channels


def _cog(interaction: Interaction) -> Leagues:
    cog = interaction.client.get_cog("Leagues")
    assert isinstance(cog, Leagues)
    return cog


class SignButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"br:league-(?P<what>join|leave):(?P<league>\d+)"):
    """Sign up for the league it names (join), or give up one's sign-up (leave)."""

    def __init__(self, what: str, league_id: int) -> None:
        join = what == "join"
        super().__init__(discord.ui.Button(
            label=words.say("buttons.league_join") if join else words.say("buttons.league_leave"),
            style=discord.ButtonStyle.primary if join else discord.ButtonStyle.secondary,
            custom_id=f"br:league-{what}:{league_id}"))
        self.join, self.league_id = join, league_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> SignButton:
        return cls(match["what"], int(match["league"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await answer(interaction, lambda: _cog(interaction).sign(
            interaction, self.league_id, join=self.join))


def signup_view(league_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SignButton("join", league_id))
    view.add_item(SignButton("leave", league_id))
    return view


async def setup(bot: Host) -> None:
    await bot.add_cog(Leagues(bot))
