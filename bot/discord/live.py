"""One live message per turn in a game's channel.

A turn's message is edited in place as the steps of that turn arrive: their events added
to its text, the board replaced, the line saying whose turn it is rewritten. A new message
is posted only when a step newly awaits someone (``Reply.newly``: a member who was not
awaited all through it), and that message pings exactly them; edits never notify anyone.
Anything that is not a step of play (the start, the end, an undo, a seat handed on) is a
message of its own, and the turn after it starts a new message.

Which message tells of a game's turn is stored (``TableService.turn_message``), so that
after a restart, or from another bot process, the next step edits the same message: its
text is read back from Discord, and a step it already shows (the bot stopped after the
edit but before marking the step posted) is not added twice.

A message Discord refuses to edit (any 400, such as error 30046, too many edits to a message
older than an hour, or 50035 on an attachment it cannot find; or 404, deleted) gives way at
once to a new message that carries the turn on, all its lines, pinging nobody; the refusal
is logged with Discord's status and code, and the old message's buttons are taken off
where Discord may still edit it (one try). A server error, a rate limit or a missing
permission (403, which a new message would meet too) is not such a refusal: the edit is
tried again from the outbox.

An edit uploads the board only when it changed: where the picture is the one the message
shows, the edit lists the attachment Discord already holds (kept by its id), and the
layout's ``attachment://board.png`` names it still.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot import words
from bot.discord.answer import Attachment, picture_files, refusal
from bot.discord.buttons import turn_buttons
from bot.service import TableService
from bot.service.pictures import Picture
from bot.service.replies import Reply

log = logging.getLogger("boardroom.discord")

EDIT_CAP = 30046  # Discord's code: a message older than an hour may not be edited more
UNKNOWN_MESSAGE = 10008  # Discord's code: the message is gone (deleted)
REFUSED = (400, 404)  # an edit refused for good: the turn is posted anew
TEXT_LIMIT = 4000  # Discord: the text of all a layout message's text displays together
EVENTS, TURN = 1, 2  # the ids of the text displays of the events told and of whose turn


def earlier() -> str:
    """The line in place of a turn's oldest steps, where they no longer fit."""
    return words.say("live.earlier", command="/log")


def mentions(user_ids: tuple[int, ...] | list[int]) -> str:
    return " ".join(f"<@{u}>" for u in user_ids)


def pinging(user_ids: tuple[int, ...] | list[int]) -> discord.AllowedMentions:
    """Exactly these members may be pinged by a message: no one else, no role, nobody
    named in a player's nickname."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in user_ids])


def turn_line(reply: Reply) -> str:
    """Who must act next, as mentions (only a new message's pings notify)."""
    if reply.over or not reply.mention:
        return ""
    if len(reply.mention) == 1:
        return words.say("live.your_turn", mentions=mentions(reply.mention))
    return words.say("live.waiting_for", mentions=mentions(reply.mention))


def told(lines: list[str], limit: int) -> str:
    """The events told; where they would not fit, the oldest lines but the first (the move
    that began them) give way, and a note says where they are; a line too long alone
    keeps its beginning, cut after a word."""
    kept = [part for line in lines if line for part in line.split("\n") if part]
    text = "\n".join(kept)
    head, rest = (kept[:1], kept[1:]) if len(kept) > 2 else ([], kept)
    while len(text) > limit and len(rest) > 1:
        rest = rest[1:]
        text = "\n".join([*head, earlier(), *rest])
    if len(text) > limit and head:  # the first line gives way too
        text = "\n".join([earlier(), *rest])
    if len(text) <= limit:
        return text
    head_ = text[:limit - 1]
    return head_[:head_.rfind(" ")].rstrip(" ,;:") + "…" if " " in head_ else head_ + "…"


def layout(channel_id: int, lines: list[str], reply: Reply,
           files: Sequence[discord.File | discord.Attachment], *, buttons: bool = True
           ) -> discord.ui.LayoutView:
    """A turn message, in Discord's layout components: a container in the awaited seat's
    colour holding the events told, the board (its summary as alt text), whose turn it is
    and the turn buttons (none once the game is over, nor without ``buttons``). ``files``
    are the pictures, uploaded with it or kept from an earlier upload."""
    turn = turn_line(reply)
    items: list[discord.ui.Item[Any]] = []
    events = told(lines, TEXT_LIMIT - len(turn) - 1)
    if events:
        items.append(discord.ui.TextDisplay(events, id=EVENTS))
    if files:
        items.append(discord.ui.MediaGallery(*(
            discord.MediaGalleryItem(f"attachment://{file.filename}",
                                     description=file.description)
            for file in files)))
    if turn:
        items.append(discord.ui.TextDisplay(turn, id=TURN))
    if buttons and reply.mention and not reply.over:
        items.append(discord.ui.ActionRow(*turn_buttons(channel_id)))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*items, accent_colour=reply.accent))
    return view


def told_in(message: discord.Message) -> list[str]:
    """The event lines a turn message shows, as Discord holds it."""
    found: list[str] = []
    note = earlier()

    def walk(components: Sequence[Any]) -> None:
        for component in components:
            if isinstance(component, discord.components.TextDisplay) and \
                    component.id == EVENTS:
                found.extend(line for line in component.content.split("\n")
                             if line and line != note)
            if isinstance(component, discord.components.Container):
                walk(component.children)

    walk(message.components)
    return found


@dataclass
class Turn:
    """The message telling of a game's turn under way, and what it shows: its lines, its
    pictures as Discord holds them (``attachments``) and, where this process sent them,
    what names the view its board shows (``shows``, ``Picture.key``) and the reply last
    told in it (``reply``, without its pictures)."""

    game: int
    message_id: int
    lines: list[str]
    attachments: list[discord.Attachment] = field(default_factory=list)
    shows: Hashable = None
    reply: Reply | None = None


def shows(picture: Picture | None) -> Hashable:
    """What names the view a picture shows (None: nothing known, never equal to another)."""
    return None if picture is None else picture.key


def bare(reply: Reply) -> Reply:
    """A reply without its pictures and DMs: what a turn message keeps of the last one it
    told (its turn line, its colour, its buttons), so that 1,000 channels hold no PNGs."""
    return replace(reply, picture=None, private=(), drawing=None, recap=None,
                   animation=None)


def carried(turn: Turn, reply: Reply, read_back: bool) -> list[str]:
    """The lines a turn's message tells once ``reply``, a step of it, is added."""
    step = reply.public  # within the turn's message, without a catch-up's note
    if reply.note and step.startswith(reply.note):
        step = step[len(reply.note):].lstrip("\n")
    new = step.split("\n") if step else []
    # A message read back from Discord (after a restart) may show this step already: the
    # process stopped between the edit and marking it delivered.
    if read_back and new and turn.lines[-len(new):] == new:
        return turn.lines
    return [*turn.lines, *new]


class TurnMessages:
    """Posts and edits the turn messages of every channel (the desk holds the channel's
    lock around each call, so a channel's messages keep the order of the moves)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._turns: dict[int, Turn] = {}  # channel -> its turn message, as last sent

    async def post(self, channel: discord.PartialMessageable, reply: Reply) -> None:
        """Tell the channel of ``reply``: by editing the turn's message where the reply
        is a step of it, else (or where Discord refuses the edit) by a new message.
        ``discord.HTTPException`` if Discord refuses the new message, or fails the edit
        for a passing reason (nothing is remembered then: the retry tells it again)."""
        lines = [reply.public] if reply.public else []
        stale: Turn | None = None  # a turn message whose edit Discord refused
        if reply.step and not reply.newly and reply.game:
            turn, read_back = await self._current(channel, reply.game)
            if turn is not None:
                lines = carried(turn, reply, read_back)
                try:
                    await self._edit(channel, turn, lines, reply)
                    return
                except discord.HTTPException as error:
                    if error.status not in REFUSED:
                        raise  # a server error or a rate limit: the outbox tries again
                    log.warning("Discord refused an edit of game %s's turn message %s "
                                "(%s); posting the turn anew", reply.game, turn.message_id,
                                refusal(error))
                    # Deleted, or capped: no edit of it can succeed, so none is tried.
                    if error.status != 404 and error.code not in (EDIT_CAP, UNKNOWN_MESSAGE):
                        stale = turn
        if reply.over and reply.game:  # the game's last turn message offers no more moves
            stale, _ = await self._current(channel, reply.game)
        pinged = () if reply.over else reply.newly
        files = self._pictures(reply)
        message = await channel.send(view=layout(channel.id, lines, reply, files),
                                     files=files, allowed_mentions=pinging(pinged))
        if stale is not None:
            await self._unbutton(channel, stale)
        if not reply.game:
            return
        if reply.step:
            self._turns[channel.id] = Turn(reply.game, message.id, lines,
                                           list(message.attachments), shows(reply.picture),
                                           bare(reply))
            await self._store(reply.game, message.id, reply.version)
        else:  # the start, an undo, a seat handed on: the next step starts a new message
            self._turns.pop(channel.id, None)
            if not reply.over:
                await self._store(reply.game, 0, reply.version)

    async def _edit(self, channel: discord.PartialMessageable, turn: Turn, lines: list[str],
                    reply: Reply) -> None:
        """Edit the turn's message to tell ``lines`` and ``reply``'s board and turn: the
        board uploaded only if it is not the picture the message shows already."""
        message = channel.get_partial_message(turn.message_id)
        picture, drawn = reply.picture, turn.shows
        if picture is None or (turn.attachments and shows(picture) is not None
                               and shows(picture) == turn.shows):
            # The same board (or none drawn): the attachments it has are kept, by their id.
            shown: list[discord.File | discord.Attachment] = list(turn.attachments)
        else:
            shown, drawn = list(picture_files(picture)), shows(picture)
        edited = await message.edit(view=layout(channel.id, lines, reply, shown),
                                    attachments=shown, allowed_mentions=pinging(()))
        turn.lines, turn.shows, turn.reply = lines, drawn, bare(reply)
        turn.attachments = list(edited.attachments)

    async def _unbutton(self, channel: discord.PartialMessageable, turn: Turn) -> None:
        """Take the buttons off a turn message that gave way to a new one (its pictures
        kept): one try, as only the newest message of a turn should offer them. A message
        read back from Discord keeps its lines and pictures, and loses its turn line too."""
        if turn.reply is not None and not turn.reply.mention:
            return  # without buttons: left as it is
        shown = turn.reply or Reply(game=turn.game, over=True)
        message = channel.get_partial_message(turn.message_id)
        try:
            await message.edit(view=layout(channel.id, turn.lines, shown,
                                           turn.attachments, buttons=False),
                               attachments=turn.attachments, allowed_mentions=pinging(()))
        except discord.HTTPException as error:
            log.info("Could not take the buttons off game %s's old turn message %s (%s)",
                     turn.game, turn.message_id, refusal(error))

    async def _store(self, game: int, message_id: int, version: int) -> None:
        try:
            await self.service.set_turn_message(game, message_id, version)
        except Exception:  # posted all the same; at worst the next step posts anew
            log.exception("Could not store the turn message of game %s", game)

    async def _current(self, channel: discord.PartialMessageable, game: int
                       ) -> tuple[Turn | None, bool]:
        """The game's turn message, as this process last sent it, or as Discord holds it
        where another process (or this one, before a restart) sent it since; and whether
        it was read back from Discord."""
        try:
            message_id = await self.service.turn_message(game)
        except Exception:
            log.exception("Could not read the turn message of game %s", game)
            return None, False
        if not message_id:
            return None, False
        known = self._turns.get(channel.id)
        if known is not None and (known.game, known.message_id) == (game, message_id):
            return known, False
        try:
            message = await channel.fetch_message(message_id)
        except discord.HTTPException as error:
            log.warning("Could not read game %s's turn message %s back from Discord (%s)",
                        game, message_id, refusal(error))
            return None, False
        turn = self._turns[channel.id] = Turn(game, message_id, told_in(message),
                                              list(message.attachments))
        return turn, True

    @staticmethod
    def _pictures(reply: Reply) -> list[discord.File]:
        """The reply's pictures as files: the board, and at a game's end its recap."""
        files = picture_files(reply.picture) if reply.picture is not None else []
        if reply.recap is not None:  # a game's end: its points over time, under the board
            files += picture_files(reply.recap, "recap")
        if reply.animation is not None:  # and the whole game, turn by turn
            files.append(Attachment("game.gif", reply.animation,
                                    words.say("live.animation")).file())
        return files
