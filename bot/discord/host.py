"""The bot as the cogs and the buttons reach it (``interaction.client``, the cogs' bot): its
table service and what they ask of its desk.

``Host`` is the base of the bot's client class (``bot.discord.client.Boardroom``), and
``Actions`` names the desk's answers to commands and buttons (``bot.discord.desk.Desk``
has them), so that a button can call the desk and the desk can make buttons without the
two modules importing each other.
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord.ext import commands

from bot.discord.answer import Answer
from bot.service import TableService
from bot.service.replies import Reply


class Actions(Protocol):
    """What commands and buttons ask of the desk: each answers the acting member."""

    async def deliver(self, channel_id: int, reply: Reply, actor: int | None = None
                      ) -> str: ...
    async def play(self, user_id: int, channel_id: int, text: str,
                   version: int | None = None, game: int | None = None) -> Answer: ...
    async def choose(self, user_id: int, channel_id: int, game: int, version: int,
                     digest: str) -> Answer: ...
    async def outdated(self, user_id: int, channel_id: int) -> Answer: ...
    async def moves(self, user_id: int, channel_id: int) -> Answer: ...
    async def hand(self, user_id: int, channel_id: int) -> Answer: ...
    async def board(self, channel_id: int) -> Answer: ...
    async def board_text(self, user_id: int, channel_id: int) -> Answer: ...
    async def ask_undo(self, user_id: int, channel_id: int) -> Answer: ...
    async def answer_undo(self, user_id: int, channel_id: int, game: int, version: int,
                          digest: str, *, agree: bool,
                          message: discord.Message | None = None) -> Answer: ...


class Host(commands.Bot):
    """A bot with a table service and a desk (``Boardroom`` sets both up)."""

    @property
    def service(self) -> TableService:
        raise NotImplementedError

    @property
    def desk(self) -> Actions:
        raise NotImplementedError


Interaction = discord.Interaction[Host]  # what a command or a button receives
