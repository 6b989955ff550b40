"""The tables cog: ``/game new|join|leave|computer|settings|start|resign|undo|replace|end|export|
replay``, ``/board``, ``/hand``, ``/rules``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import words
from bot.discord import threads
from bot.discord.answer import Answer, Attachment, answer
from bot.discord.choices import CLOCK_CHOICES, GAME_CHOICES, LEVEL_CHOICES, SWITCH_CHOICES
from bot.discord.host import Host, Interaction
from bot.discord.replays import command as replay_command
from bot.discord.words import described
from bot.service.replies import Reply
from bot.service.table import parse_options
from rules.computer import DEFAULT, PATIENT


class Tables(commands.Cog):
    """Opening, joining, starting and ending the one table of a channel; looking at it."""

    game = app_commands.Group(name="game", description=described("commands.game"),
                              guild_only=True)

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def _announce(self, interaction: Interaction, reply: Reply, done: str) -> Answer:
        """Deliver a table reply to the channel; the invoker reads ``done`` (or the service's
        ephemeral sentence)."""
        assert interaction.channel_id is not None
        await self.bot.desk.deliver(interaction.channel_id, reply)
        return Answer(reply.ephemeral or done)

    @game.command(name="new", description=described("commands.game_new"))
    @app_commands.describe(game=described("commands.game_new_game"),
                           options=described("commands.game_new_options"),
                           thread=described("threads.described.thread"),
                           private=described("threads.described.private"))
    @app_commands.choices(game=GAME_CHOICES)
    async def new(self, interaction: Interaction, game: app_commands.Choice[str],
                  options: str | None = None, thread: bool | None = None,
                  private: bool | None = None) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None and interaction.guild_id is not None
            place = await threads.where(interaction, thread, private)  # a new thread?
            if place is not None:
                return await threads.open_table(interaction, game.value, game.name,
                                                parse_options(options),
                                                private=place == "private")
            reply = await self.bot.service.open(
                interaction.channel_id, interaction.guild_id, interaction.user.id,
                interaction.user.display_name, game.value, parse_options(options))
            return await self._announce(interaction, reply, words.say(
                "cog_tables.opened", game=game.name, command="/game join"))
        await answer(interaction, work)

    @game.command(name="join", description=described("commands.game_join"))
    async def join(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.join(interaction.channel_id, interaction.user.id,
                                                interaction.user.display_name)
            return await self._announce(interaction, reply, words.say("cog_tables.joined"))
        await answer(interaction, work)

    @game.command(name="leave", description=described("commands.game_leave"))
    async def leave(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.leave(interaction.channel_id, interaction.user.id)
            return await self._announce(interaction, reply, words.say("cog_tables.left"))
        await answer(interaction, work)

    @game.command(name="computer", description=described("commands.game_computer"))
    @app_commands.describe(level=described("commands.game_computer_level", level=DEFAULT,
                                           patient_level=PATIENT))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def computer(self, interaction: Interaction,
                       level: app_commands.Choice[str] | None = None) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.add_computer(
                interaction.channel_id, interaction.user.id,
                None if level is None else level.value)
            return await self._announce(interaction, reply,
                                        words.say("cog_tables.computer_seated"))
        await answer(interaction, work)

    @game.command(name="settings", description=described("commands.game_settings"))
    @app_commands.describe(turn_time=described("commands.game_settings_turn_time"),
                           reminders=described("commands.game_settings_reminders"),
                           clock=described("commands.game_settings_clock"),
                           bank=described("commands.game_settings_bank"),
                           add=described("commands.game_settings_add"))
    @app_commands.choices(reminders=SWITCH_CHOICES, clock=CLOCK_CHOICES)
    async def settings(self, interaction: Interaction, turn_time: str | None = None,
                       reminders: app_commands.Choice[str] | None = None,
                       clock: app_commands.Choice[str] | None = None,
                       bank: str | None = None, add: str | None = None) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.settings(
                interaction.channel_id, interaction.user.id, turn_time=turn_time,
                reminders=None if reminders is None else reminders.value == "on",
                clock=None if clock is None else clock.value, bank=bank, add=add)
            if reply.ephemeral:
                return Answer(reply.ephemeral)
            return await self._announce(interaction, reply,
                                        words.say("cog_tables.settings_changed"))
        await answer(interaction, work)

    @game.command(name="resign", description=described("commands.game_resign"))
    async def resign(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.resign(interaction.channel_id, interaction.user.id)
            return await self._announce(interaction, reply, words.say("cog_tables.resigned"))
        await answer(interaction, work)

    @game.command(name="undo", description=described("commands.game_undo"))
    async def undo(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            return await self.bot.desk.ask_undo(interaction.user.id, interaction.channel_id)
        await answer(interaction, work)

    @game.command(name="replace", description=described("commands.game_replace"))
    @app_commands.describe(seat=described("commands.game_replace_seat"),
                           player=described("commands.game_replace_player"))
    async def replace(self, interaction: Interaction, seat: discord.Member | None = None,
                      player: discord.Member | None = None) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.replace(
                interaction.channel_id, interaction.user.id,
                None if player is None else player.id,
                None if seat is None else seat.id,
                "" if seat is None else seat.display_name,
                moderator=interaction.permissions.manage_channels)
            if seat is not None:  # a table's private thread shows only to its members
                await threads.admit(self.bot, interaction.channel_id, seat)
            return await self._announce(interaction, reply, words.say("cog_tables.handed_on"))
        await answer(interaction, work)

    @game.command(name="start", description=described("commands.game_start"))
    async def start(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            reply = await self.bot.service.start(interaction.channel_id, interaction.user.id)
            return await self._announce(interaction, reply, words.say("cog_tables.started"))
        await answer(interaction, work)

    @game.command(name="end", description=described("commands.game_end"))
    async def end(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            moderator = interaction.permissions.manage_channels
            reply = await self.bot.service.end(interaction.channel_id, interaction.user.id,
                                               moderator=moderator)
            return await self._announce(interaction, reply, words.say("cog_tables.ended"))
        await answer(interaction, work)

    @game.command(name="export", description=described("commands.game_export"))
    @app_commands.describe(table=described("commands.game_export_table"))
    async def export(self, interaction: Interaction,
                     table: app_commands.Range[int, 1] | None = None) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            name, data = await self.bot.service.export(interaction.channel_id, table)
            return Answer(words.say("cog_tables.exported", command=f"boardroom verify {name}"),
                          files=(Attachment(name, data),))
        await answer(interaction, work)

    @game.command(name="replay", description=described("commands.game_replay"))
    @app_commands.describe(table=described("commands.game_replay_table"),
                           move=described("commands.game_replay_move"))
    async def replay(self, interaction: Interaction,
                     table: app_commands.Range[int, 1] | None = None,
                     move: app_commands.Range[int, 0] | None = None) -> None:
        await answer(interaction, lambda: replay_command(interaction, table, move))

    @replay.autocomplete("table")
    async def replay_tables(self, interaction: Interaction, current: str
                            ) -> list[app_commands.Choice[int]]:
        """The channel's tables that started, newest first, labelled with the game, the
        table's number and when it ended (or that it runs)."""
        if interaction.channel_id is None:
            return []
        listed = await self.bot.service.replay_tables(interaction.channel_id, str(current))
        return [app_commands.Choice(name=t.label[:100], value=t.game) for t in listed[:25]]

    @app_commands.command(name="board", description=described("commands.board"))
    @app_commands.describe(text=described("commands.board_text"))
    @app_commands.guild_only()
    async def board(self, interaction: Interaction, text: bool = False) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            if text:
                return await self.bot.desk.board_text(interaction.user.id,
                                                      interaction.channel_id)
            return await self.bot.desk.board(interaction.channel_id)
        await answer(interaction, work)

    @app_commands.command(name="hand", description=described("commands.hand"))
    @app_commands.guild_only()
    async def hand(self, interaction: Interaction) -> None:
        async def work() -> Answer:
            assert interaction.channel_id is not None
            return await self.bot.desk.hand(interaction.user.id, interaction.channel_id)
        await answer(interaction, work)


async def setup(bot: Host) -> None:
    await bot.add_cog(Tables(bot))
