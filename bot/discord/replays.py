"""Replays on Discord (``/game replay``): a step of a game as a message with its board, and
the controls that step through it.

A finished game's replay is posted in the channel for everyone (its seed is told, so
every hand is shown), and a click on its controls edits that message: the group steps
through it together. A running game's replay is the caller's alone (an ephemeral answer,
as they may see it), and a click edits that answer, worked out afresh for the clicker then;
a step of a running game is never put on a public message, whatever the button.

The controls' custom ids (``bot/discord/buttons.py`` lists every one) name the stored game
and the move they go to, never a viewer or anything hidden: a button can only show the
move its place says, as whoever clicks may see it.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot import words
from bot.discord.answer import NOBODY, Answer, Attachment, answer, clip, failed
from bot.discord.host import Interaction
from bot.service.replays import Frame
from rules import GameError

log = logging.getLogger("boardroom.discord")

# (the Jumps field it goes to, the tag in its custom id, its row)
CONTROLS = (("start", "start", 0), ("turn_back", "turn-back", 0), ("back", "back", 0),
            ("forward", "next", 1), ("turn_forward", "turn-next", 1), ("end", "end", 1))
TAGS = "|".join(tag for _, tag, _ in CONTROLS)


def labels() -> dict[str, str]:
    """Each control's label, by its tag ('\N{BLACK LEFT-POINTING TRIANGLE} Move')."""
    return {"start": words.say("replay_controls.start"),
            "turn-back": words.say("replay_controls.turn_back"),
            "back": words.say("replay_controls.back"),
            "next": words.say("replay_controls.next"),
            "turn-next": words.say("replay_controls.turn_next"),
            "end": words.say("replay_controls.end")}


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"br:replay:(?P<channel>\d+):(?P<game>\d+):(?P<move>\d+):"
                            rf"(?P<tag>{TAGS})"):
    """Go to move ``move`` of that stored game (its tag only tells the controls apart)."""

    def __init__(self, channel_id: int, game: int, move: int, tag: str, label: str = "…",
                 *, disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label, disabled=disabled,
            style=discord.ButtonStyle.primary if tag == "next" else
            discord.ButtonStyle.secondary,
            custom_id=f"br:replay:{channel_id}:{game}:{move}:{tag}"), row=row)
        self.channel_id, self.game, self.move = channel_id, game, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ReplayButton:
        return cls(int(match["channel"]), int(match["game"]), int(match["move"]), match["tag"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await step(interaction, self.channel_id, self.game, self.move)


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"br:replay-to:(?P<channel>\d+):(?P<game>\d+)"):
    """Jump to the move chosen (a turn's last) in that stored game."""

    def __init__(self, channel_id: int, game: int,
                 options: list[discord.SelectOption] | None = None,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"br:replay-to:{channel_id}:{game}",
            placeholder=words.say("replay_controls.jump"),
            options=options or [discord.SelectOption(label=words.say("replay_controls.the_deal"),
                                                     value="0")]), row=row)
        self.channel_id, self.game = channel_id, game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ReplaySelect:
        return cls(int(match["channel"]), int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        data: dict[str, Any] = dict(interaction.data or {})
        chosen = str((data.get("values") or ["0"])[0])
        await step(interaction, self.channel_id, self.game,
                   int(chosen) if chosen.isdigit() else -1)


class AnimationButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"br:replay-gif:(?P<channel>\d+):(?P<game>\d+)"):
    """The stored game, so far, as an animated GIF of the public board after each turn,
    answered to the clicker alone."""

    def __init__(self, channel_id: int, game: int, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=words.say("replay_controls.whole_game"), style=discord.ButtonStyle.secondary,
            custom_id=f"br:replay-gif:{channel_id}:{game}"), row=row)
        self.channel_id, self.game = channel_id, game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> AnimationButton:
        return cls(int(match["channel"]), int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        async def work() -> Answer:
            if interaction.channel_id != self.channel_id:
                raise GameError(words.say("replay_controls.elsewhere"))
            what, gif = await interaction.client.service.replay_animation(
                self.channel_id, self.game)
            return Answer(what, files=(Attachment("game.gif", gif),))
        await answer(interaction, work)


REPLAY_ITEMS = (ReplayButton, ReplaySelect, AnimationButton)


def controls(frame: Frame) -> discord.ui.View:
    """A step's controls: back a move, a turn or to the start; on a move, a turn or to
    the end (disabled where they would stay put); a select of turns to jump to; and the
    whole game animated."""
    view = discord.ui.View(timeout=None)
    labelled = labels()
    for field, tag, row in CONTROLS:
        target = getattr(frame.jumps, field)
        view.add_item(ReplayButton(frame.channel_id, frame.game,
                                   frame.move if target is None else target, tag,
                                   labelled[tag], disabled=target is None, row=row))
    options = [discord.SelectOption(label=label[:100], value=str(move),
                                    default=move == frame.move)
               for move, label in frame.turns]
    view.add_item(ReplaySelect(frame.channel_id, frame.game, options, row=2))
    view.add_item(AnimationButton(frame.channel_id, frame.game, row=3))
    return view


def images(frame: Frame) -> tuple[Attachment, ...]:
    return tuple(Attachment(image.name, image.png, image.alt) for image in frame.images)


def files(frame: Frame) -> list[discord.File]:
    return [image.file() for image in images(frame)]


async def command(interaction: Interaction, table: int | None, move: int | None) -> Answer:
    """``/game replay``: a finished game's step posted in the channel for everyone, a
    running game's answered to the caller alone."""
    assert interaction.channel_id is not None
    frame = await interaction.client.service.replay(interaction.channel_id,
                                                    interaction.user.id, table, move)
    if not frame.finished:
        return Answer(clip(frame.text), view=controls(frame), files=images(frame))
    channel = interaction.client.get_partial_messageable(interaction.channel_id)
    try:
        await channel.send(clip(frame.text), files=files(frame), view=controls(frame),
                           allowed_mentions=NOBODY)
    except discord.HTTPException:
        log.warning("Could not post a replay to channel %s", interaction.channel_id,
                    exc_info=True)
        note = "\n" + words.say("replay_controls.yours_alone")
        return Answer(clip(frame.text, 2000 - len(note)) + note, view=controls(frame),
                      files=images(frame))
    return Answer(words.say("replay_controls.posted", title=frame.title))


async def step(interaction: Interaction, channel_id: int, game: int, move: int) -> None:
    """A control: the message it is on shows move ``move`` of that game, as the clicker
    may see it (a running game's step goes to the clicker alone, never onto a public
    message); a refusal is the clicker's alone."""
    try:
        await interaction.response.defer()  # a component's: the message is edited later
    except discord.HTTPException:
        log.warning("Could not defer a replay control", exc_info=True)
        return
    try:
        if interaction.channel_id != channel_id:
            raise GameError(words.say("replay_controls.elsewhere"))
        frame = await interaction.client.service.replay(channel_id, interaction.user.id,
                                                        game, move)
    except Exception as error:  # the one error policy: the clicker alone is told
        await failed(interaction, error)
        return
    message = interaction.message
    public = message is not None and not message.flags.ephemeral
    try:
        if public and not frame.finished:  # a running game's step is the clicker's alone
            await interaction.followup.send(clip(frame.text), files=files(frame),
                                            view=controls(frame), ephemeral=True,
                                            allowed_mentions=NOBODY)
        else:
            await interaction.edit_original_response(
                content=clip(frame.text), attachments=files(frame), view=controls(frame),
                allowed_mentions=NOBODY)
    except discord.HTTPException:
        log.warning("Could not show a replay step in channel %s", channel_id, exc_info=True)
        await _alone(interaction, words.say(
            "replay_controls.not_updated",
            command=f"/game replay table:{frame.game} move:{frame.move}"))


async def _alone(interaction: Interaction, text: str) -> None:
    try:
        await interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=NOBODY)
    except discord.HTTPException:
        log.warning("Could not answer a replay control", exc_info=True)
