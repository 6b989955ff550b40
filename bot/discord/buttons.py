"""Buttons: persistent across restarts, acting through the same service and checks as /play.

Every button is a ``DynamicItem``: its ``custom_id`` matches a template and the bot rebuilds
the button from it at click time, so buttons sent before a restart keep working. A custom id
never carries hidden information, only where and when it was made:

``br:act:{channel}:{game}:{version}:{digest}``
    play the move whose digest (``move_digest``: 12 hex digits of a SHA-256 of the game,
    version and move) this is, in that stored game at that version. A button from another
    game, an older version, or whose move is no longer one of the clicker's legal moves is
    refused with a sentence, and an awaited clicker gets fresh buttons; so an old button can
    only ever play the move its label shows. The digest says nothing to anyone without the
    move list, which only the button's owner sees.
``br:act:{channel}:{version}:{n}``
    the older form, which named no game: refused, with fresh buttons.
``br:moves:{channel}``
    on the public turn message: shows the clicker, ephemerally, their own choices now.
``br:hand:{channel}``
    on the public turn message: the clicker's private view, ephemerally (like /hand).
``br:text:{channel}``
    on the public turn message and /board's answer: the board as text a screen reader
    reads, as the clicker may see it, ephemerally (like /board text:True).
``br:undo:{channel}:{game}:{version}:{digest}:{yes|no}``
    on a request to take back a move (``/game undo``): agree or refuse that request, whose
    digest (``undo.digest``: the game, version, asker and moment asked) this is, while the
    game is still at that version; anything else is refused with a sentence.

``br:join:{channel}``, ``br:join``
    on the parent channel's notice of a table opened in a thread (``bot/discord/threads.py``):
    a seat at the table of the thread ``channel`` (without it, the thread started from the
    message the button is on, whose id is the thread's), as ``/game join`` there; the
    clicker is added to the thread.

``br:replay:{channel}:{game}:{move}:{tag}``
    on a replay (``/game replay``; ``bot/discord/replays.py``): show move ``move`` (0: the
    deal) of that stored game, in the message the button is on. ``tag`` (``start``,
    ``turn-back``, ``back``, ``next``, ``turn-next``, ``end``) only tells the controls of one
    message apart, which may go to the same move. Who may see what is worked out when it
    is clicked: a finished game's step shows every hand (its message is public); a running
    game's, only the clicker's own view, up to the version then, and never on a public
    message. A move out of range, or a game of another channel, is refused with a sentence.
``br:replay-to:{channel}:{game}``
    the replay's select of turns: its options' values are move numbers, each going as above.
``br:replay-gif:{channel}:{game}``
    on a replay: that game so far as an animated GIF of the public board after each turn,
    answered to the clicker alone.

``br:league-join:{league}``, ``br:league-leave:{league}``
    on a league's sign-up message (``bot/discord/cogs/leagues.py``): sign up for that
    league, or give up one's sign-up, while its sign-up is open; refused with a sentence
    once it has started.

A button's *label* shows a move, so move buttons only go where the clicker alone can see
them: an ephemeral reply or a DM. The public turn message carries no move at all.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import words
from bot.discord.answer import answer
from bot.discord.host import Interaction
from bot.discord.replays import REPLAY_ITEMS
from bot.discord.threads import JoinButton
from bot.moves import Choices
from bot.service.table import move_digest
from bot.undo import Asked

MAX_CHOICES = 10  # at most this many moves become buttons; more goes through /play
LABEL_LIMIT = 80  # Discord's limit on a button label


class ActButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"br:act:(?P<channel>\d+):(?P<game>\d+):(?P<version>\d+):"
                         r"(?P<digest>[0-9a-f]{12})"):
    """One of the clicker's own legal moves: the move whose digest it carries, in that
    game at that version, and nothing else."""

    def __init__(self, channel_id: int, game: int, version: int, digest: str,
                 label: str = "…") -> None:
        super().__init__(discord.ui.Button(
            label=label[:LABEL_LIMIT], style=discord.ButtonStyle.primary,
            custom_id=f"br:act:{channel_id}:{game}:{version}:{digest}"))
        self.channel_id, self.game, self.version, self.digest = (
            channel_id, game, version, digest)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ActButton:
        return cls(int(match["channel"]), int(match["game"]), int(match["version"]),
                   match["digest"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        desk = interaction.client.desk
        await answer(interaction, lambda: desk.choose(
            interaction.user.id, self.channel_id, self.game, self.version, self.digest))


class OldActButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"br:act:(?P<channel>\d+):(?P<version>\d+):(?P<n>\d+)"):
    """A move button of the older form (a move by its index, no game): never played."""

    def __init__(self, channel_id: int, version: int, n: int) -> None:
        super().__init__(discord.ui.Button(
            label="…", custom_id=f"br:act:{channel_id}:{version}:{n}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OldActButton:
        return cls(int(match["channel"]), int(match["version"]), int(match["n"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        desk = interaction.client.desk
        await answer(interaction, lambda: desk.outdated(interaction.user.id, self.channel_id))


class MovesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"br:moves:(?P<channel>\d+)"):
    """'Your moves': the clicker's own choices, as buttons when few, answered ephemerally."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(discord.ui.Button(
            label=words.say("buttons.your_moves"), style=discord.ButtonStyle.primary,
            custom_id=f"br:moves:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> MovesButton:
        return cls(int(match["channel"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        desk = interaction.client.desk
        await answer(interaction, lambda: desk.moves(interaction.user.id, self.channel_id))


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"br:hand:(?P<channel>\d+)"):
    """'Your hand': the clicker's private view, answered ephemerally."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(discord.ui.Button(
            label=words.say("buttons.your_hand"), style=discord.ButtonStyle.secondary,
            custom_id=f"br:hand:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HandButton:
        return cls(int(match["channel"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        desk = interaction.client.desk
        await answer(interaction, lambda: desk.hand(interaction.user.id, self.channel_id))


class TextButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"br:text:(?P<channel>\d+)"):
    """'Board as text': the board as a screen reader reads it, answered ephemerally."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(discord.ui.Button(
            label=words.say("buttons.board_as_text"), style=discord.ButtonStyle.secondary,
            custom_id=f"br:text:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TextButton:
        return cls(int(match["channel"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        desk = interaction.client.desk
        await answer(interaction, lambda: desk.board_text(interaction.user.id, self.channel_id))


class UndoButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"br:undo:(?P<channel>\d+):(?P<game>\d+):(?P<version>\d+):"
                          r"(?P<digest>[0-9a-f]{12}):(?P<answer>yes|no)"):
    """Agree to, or refuse, one request to take back a move: the request whose digest it
    carries, in that game at that version, and no other."""

    def __init__(self, channel_id: int, game: int, version: int, digest: str,
                 agree: bool) -> None:
        super().__init__(discord.ui.Button(
            label=words.say("buttons.agree") if agree else words.say("buttons.refuse"),
            style=discord.ButtonStyle.success if agree else discord.ButtonStyle.danger,
            custom_id=f"br:undo:{channel_id}:{game}:{version}:{digest}:"
                      f"{'yes' if agree else 'no'}"))
        self.channel_id, self.game, self.version, self.digest, self.agree = (
            channel_id, game, version, digest, agree)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> UndoButton:
        return cls(int(match["channel"]), int(match["game"]), int(match["version"]),
                   match["digest"], match["answer"] == "yes")

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        desk = interaction.client.desk
        await answer(interaction, lambda: desk.answer_undo(
            interaction.user.id, self.channel_id, self.game, self.version, self.digest,
            agree=self.agree, message=interaction.message))


BUTTONS = (ActButton, OldActButton, MovesButton, HandButton, TextButton, UndoButton,
           *REPLAY_ITEMS, JoinButton)


def turn_buttons(channel_id: int) -> list[discord.ui.Item[Any]]:
    """The public turn message's buttons: nothing on them depends on anyone's hand."""
    return [MovesButton(channel_id), HandButton(channel_id), TextButton(channel_id)]


def text_view(channel_id: int) -> discord.ui.View:
    """The 'Board as text' button alone, under /board's picture."""
    view = discord.ui.View(timeout=None)
    view.add_item(TextButton(channel_id))
    return view


def choice_view(channel_id: int, game: int, version: int, choices: Choices
                ) -> discord.ui.View | None:
    """One button per move of a small set (free moves first, a costly one labelled with
    its cost), for the eyes of the player who owns them."""
    if not choices.moves or len(choices.moves) > MAX_CHOICES:
        return None
    view = discord.ui.View(timeout=None)
    for move in choices.moves:
        view.add_item(ActButton(channel_id, game, version, move_digest(game, version, move),
                                choices.entry(move).label(LABEL_LIMIT)))
    return view


def undo_view(channel_id: int, asked: Asked) -> discord.ui.View:
    """Agree and Refuse for one request to take back a move (``/game undo``)."""
    view = discord.ui.View(timeout=None)
    for agree in (True, False):
        view.add_item(UndoButton(channel_id, asked.game, asked.version, asked.digest, agree))
    return view
