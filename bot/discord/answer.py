"""Answering an interaction: defer at once, then one ephemeral reply, whatever happens.

Every command and button goes through ``answer``. It acknowledges the interaction before any
slow work (Discord allows 3 seconds), runs the work, and edits the deferred reply with the
result. Whatever fails on the way goes to ``failed``, the one error policy of every
interaction (commands, buttons, menus, the replay controls, and the command tree's error
hook, ``BoardroomTree.on_error``): a ``GameError`` (a player's mistake) is its sentence, a
command's failed check says why, and anything else is logged with a short error id while the
member reads an apology naming that id, never a traceback; always to the member alone.
What the member typed into the command's options, where a sentence quotes it, is escaped
there as names are (``unmarked``): the rules quote it, and know no markdown.
"""

from __future__ import annotations

import io
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import discord
from discord import app_commands

from bot import words
from bot.service.pictures import Picture
from rules import GameError

log = logging.getLogger("boardroom.discord")

LIMIT = 2000  # Discord's limit on a message's text


@dataclass(frozen=True)
class Attachment:
    """A file a message carries, the one shape of attachment on Discord: its name, its
    bytes and its alt text (Discord's description, cut to its 1,024 characters)."""

    name: str
    data: bytes
    alt: str = ""

    def file(self) -> discord.File:
        """A fresh ``discord.File``: a send closes its files, so each try makes its own."""
        return discord.File(io.BytesIO(self.data), filename=self.name,
                            description=clip(self.alt, 1024) or None)


@dataclass(frozen=True)
class Answer:
    """What the invoking player alone sees once the work is done."""

    text: str
    picture: Picture | None = None
    view: discord.ui.View | None = None
    files: tuple[Attachment, ...] = ()  # after the picture's: a replay's images, a document
    more: tuple[str, ...] = ()  # what did not fit one message: further ones, to them alone


NOBODY = discord.AllowedMentions.none()  # ephemeral answers and DMs ping nobody


def shown_name(name: str) -> str:
    """A member's name as Discord text shows it: markdown, masked links and mentions
    escaped, so a nickname like '<@123> **M**' reads as written and pings nobody."""
    escaped = discord.utils.escape_markdown(name).replace("\\[", "[")
    for mark in "[]<":
        escaped = escaped.replace(mark, "\\" + mark)
    return escaped.replace("@", "@\u200b")


# A quoted span of a sentence: 'b1', "I don't know 'frob'" (an apostrophe inside a word,
# as in "can't", neither opens nor closes one).
QUOTED = re.compile(r"(?<!\w)'(.+?)'(?!\w)")


def typed(interaction: discord.Interaction[Any]) -> list[str]:
    """The text the member typed into the command's options (a move, options, a topic),
    blanks collapsed as ``rules.core.quote`` collapses them."""
    found: list[str] = []

    def walk(options: Any) -> None:
        for option in options or ():
            if isinstance(option, dict):
                if isinstance(value := option.get("value"), str) and value.strip():
                    found.append(" ".join(value.split()))
                walk(option.get("options"))
    walk(dict(interaction.data or {}).get("options"))
    return found


def unmarked(text: str, typed: list[str]) -> str:
    """``text`` with every quoted span that shows what the member typed (whole, a word of
    it, or cut short with '…') escaped as a name is (``shown_name``), so that '**x**' or
    '<@123>' in a refusal reads as typed, not as bold text or a mention."""
    if not typed:
        return text
    typed = [t.casefold() for t in typed]

    def escaped(match: re.Match[str]) -> str:
        inner = match[1]
        core = inner.removesuffix("…").casefold()
        if shown_name(inner) == inner or not any(core in t for t in typed):
            return match[0]
        return f"'{shown_name(inner)}'"
    return QUOTED.sub(escaped, text)


def clip(text: str, limit: int = LIMIT) -> str:
    """Text cut to Discord's length limit, marked when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pictured(picture: Picture, name: str = "board") -> tuple[Attachment, ...]:
    """A picture as attachments (two where it comes in two parts), its one-line summary as
    the alt text of each, the parts saying which they are."""
    if not picture.more:
        return (Attachment(f"{name}.png", picture.png, picture.summary),)
    return (Attachment(f"{name}.png", picture.png,
                       words.say("answer.part_table", summary=picture.summary)),
            *(Attachment(f"{name}-{n}.png", png,
                         words.say("answer.part_yours", summary=picture.summary))
              for n, png in enumerate(picture.more, 1)))


def picture_files(picture: Picture, name: str = "board") -> list[discord.File]:
    """A picture as the files of a send or an edit (``pictured``)."""
    return [attachment.file() for attachment in pictured(picture, name)]


def apology(error_id: str) -> str:
    return words.say("answer.apology", error_id=error_id)


def describe(interaction: discord.Interaction[Any]) -> str:
    """Who did what where, for the log."""
    if interaction.command is not None:
        what = f"/{interaction.command.qualified_name}"
    else:
        data: dict[str, Any] = dict(interaction.data or {})
        what = f"component {data.get('custom_id')!r}"
    return f"{what} by user {interaction.user.id} in channel {interaction.channel_id}"


def report_unexpected(interaction: discord.Interaction[Any], error: BaseException) -> str:
    """Log an unexpected error with a fresh id; returns the id."""
    error_id = secrets.token_hex(4)
    log.error("Unexpected error %s in %s", error_id, describe(interaction),
              exc_info=(type(error), error, error.__traceback__))
    return error_id


async def answer(interaction: discord.Interaction[Any],
                 work: Callable[[], Awaitable[Answer]]) -> None:
    """Defer ephemerally, run ``work``, and edit the deferred reply with its outcome."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException:
        # Too late (over 3 seconds) or already answered: nobody is left to tell.
        log.warning("Could not defer %s", describe(interaction), exc_info=True)
        return
    try:
        result = await work()
    except Exception as error:
        await failed(interaction, error)
        return
    await _edit(interaction, result)


def sentence(interaction: discord.Interaction[Any], error: BaseException) -> str:
    """What a member reads when their interaction failed: a ``GameError``'s own sentence;
    why a command's check failed; else an apology with the id the error is logged under."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GameError):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return words.say("answer.in_server")
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or words.say("answer.not_here")
    return apology(report_unexpected(interaction, error))


async def failed(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one error policy: tell the member ``sentence``, to them alone, wherever the
    interaction stands: its first response; the deferred answer (``answer``'s thinking)
    edited; or a follow-up (a control deferred to edit its message leaves it as it was)."""
    text = sentence(interaction, error)
    response = interaction.response
    if response.type == discord.InteractionResponseType.deferred_channel_message:
        await _edit(interaction, Answer(text))
        return
    text = unmarked(text, typed(interaction))
    try:
        if response.is_done():
            await interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=NOBODY)
        else:
            await response.send_message(clip(text), ephemeral=True, allowed_mentions=NOBODY)
    except discord.HTTPException:
        log.warning("Could not tell %s what went wrong", describe(interaction), exc_info=True)


async def _edit(interaction: discord.Interaction[Any], result: Answer) -> None:
    said = typed(interaction)
    result = replace(result, text=unmarked(result.text, said),
                     more=tuple(unmarked(text, said) for text in result.more))
    shown = pictured(result.picture) if result.picture is not None else ()
    files = [attachment.file() for attachment in (*shown, *result.files)]
    try:
        if result.view is not None:
            await interaction.edit_original_response(content=clip(result.text),
                                                     attachments=files, view=result.view,
                                                     allowed_mentions=NOBODY)
        else:
            await interaction.edit_original_response(content=clip(result.text),
                                                     attachments=files, allowed_mentions=NOBODY)
    except discord.HTTPException:
        log.warning("Could not answer %s", describe(interaction), exc_info=True)
        return
    for text in result.more:
        try:
            await interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=NOBODY)
        except discord.HTTPException:
            log.warning("Could not answer %s in full", describe(interaction), exc_info=True)
            return


def refusal(error: discord.HTTPException) -> str:
    """Discord's answer to a refused request, in a few words, for a log or a sentence:
    'HTTP 400, error code 50035: Invalid Form Body; In 0.description: Must be 100 or fewer
    in length'."""
    said = "; ".join(line.strip() for line in error.text.splitlines() if line.strip())
    return f"HTTP {error.status}, error code {error.code}" + (f": {said}" if said else "")
