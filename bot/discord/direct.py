"""Direct messages: each sent through the member's kept DM channel (``send``), and the
mover's own view that goes with the answer to their move rather than a DM of its own
(``answered``, ``Owed``): the requests a move costs under Discord's global limit of about
50 a second (interaction answers are not counted there; DMs are)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot import words
from bot.discord.answer import NOBODY, picture_files
from bot.service import TableService
from bot.service.pictures import Picture
from bot.service.replies import Private, Reply

log = logging.getLogger("boardroom.discord")
DMS_CLOSED = 50007  # Discord's code: "Cannot send messages to this user"
NO_ACCESS = 50001  # "Missing Access"


def back_again() -> str:
    """What /hand's answer tells a member whose DMs are tried again (``dm_back``)."""
    return words.say("direct.back")


async def send(client: discord.Client, service: TableService, user_id: int, text: str,
               picture: Picture | None = None, view: discord.ui.View | None = None
               ) -> discord.Message | None:
    """Send a DM through the player's kept DM channel, opening it first if none is kept;
    None if it did not go. No look-up of the member (``GET /users/{id}``): the channel is
    addressed by its id (``POST /channels/{id}/messages``, as Discord takes it for a DM
    channel). A kept channel Discord no longer knows (404, or 50001 Missing Access: a
    database moved to another application) is opened anew, once. A player whose DMs are
    closed (403, code 50007) is sent none for a day, or until they are back
    (``bot.service.direct``); nothing is tried meanwhile."""
    channel_id, held = await line(service, user_id)
    if held:
        return None
    while True:
        kept = channel_id is not None
        try:
            if channel_id is None:
                channel_id = (await client.create_dm(discord.Object(id=user_id))).id
                await noted(service.dm_opened(user_id, channel_id), user_id)
            channel = client.get_partial_messageable(
                channel_id, type=discord.ChannelType.private)
            extra: dict[str, Any] = {} if view is None else {"view": view}
            if picture is not None:  # made anew for each try: a send closes its files
                extra["files"] = picture_files(picture, "hand")
            sent = await channel.send(text, allowed_mentions=NOBODY, **extra)
        except discord.HTTPException as error:
            if kept and (error.status == 404 or error.code == NO_ACCESS):
                log.info("The DM channel kept for user %s is not ours now (%s); opening "
                         "one", user_id, error)
                channel_id = None
                continue
            log.info("No DM to user %s (%s)", user_id, error)
            if error.status == 403 and error.code == DMS_CLOSED:
                await noted(service.dm_refused(user_id), user_id)
            return None
        await noted(service.dm_back(user_id), user_id)  # (a write only after a refusal)
        return sent


async def line(service: TableService, user_id: int) -> tuple[int | None, bool]:
    """The member's kept DM channel and whether DMs to them are held back; a database
    that cannot be read now costs an opening of the channel, never the DM."""
    try:
        return await service.dm_line(user_id)
    except Exception:
        log.warning("Could not read the DM channel of user %s", user_id, exc_info=True)
        return None, False


async def noted(work: Awaitable[Any], user_id: int) -> Any:
    """Keep what was learnt of a member's DMs (``bot.service.direct`` holds it in memory
    first); a database that refuses the write now (full, busy) costs at most a request
    later, never the DM or the move. None if it failed."""
    try:
        return await work
    except Exception:
        log.warning("Could not store the DM state of user %s", user_id, exc_info=True)
        return None


def answered(reply: Reply, actor: int) -> tuple[Reply, int | None]:
    """The reply to deliver for a move of ``actor``'s, and where in ``reply.private`` the
    actor's own view is when it goes with the answer to their move (an interaction's, which
    Discord's global limit does not count), the game going on.

    When their turn is over (not awaited: a step of a turn under way edits that turn's DM,
    with its buttons) and the view tells them nothing the answer does not (every line of it
    is in ``reply.ephemeral``: their view changed by their own move alone), it goes there
    instead of a DM of its own, which would be a request for no news. The view is owed to
    their next DM (``Owed``): news from another seat brings a newer one, and when their
    turn begins it comes then. An actor still (or again) awaited gets it with the answer as
    well, and ``reply`` is returned whole: the DM of their turn (edited, or the one that
    asks for it) brings it too, with its buttons, a request made in any case."""
    if reply.over:
        return reply, None
    if actor in reply.mention:
        return reply, next((n for n, p in enumerate(reply.private) if p.user_id == actor),
                           None)
    told = set(reply.ephemeral.splitlines())
    at = next((n for n, p in enumerate(reply.private)
               if p.user_id == actor and set(p.text.splitlines()) <= told), None)
    if at is None:
        return reply, None
    keep = [n for n in range(len(reply.private)) if n != at]
    drawing = reply.drawing

    async def others() -> list[Picture | None]:
        assert drawing is not None
        pictures = await drawing
        return [pictures[n] for n in keep]

    if drawing is None:
        return replace(reply, private=tuple(reply.private[n] for n in keep)), at
    rest = asyncio.ensure_future(others())
    # A reply that waits in the outbox never awaits it; a failed drawing is logged by
    # whoever awaits the original (``Delivery._tell``, ``Owed.private``).
    rest.add_done_callback(lambda done: done.cancelled() or done.exception())
    return replace(reply, private=tuple(reply.private[n] for n in keep), drawing=rest), at


@dataclass(frozen=True)
class Owed:
    """A player's own view that went with the answer to their move (``answered``): their
    next DM brings it if nothing newer does (when their turn begins)."""

    reply: Reply  # the move's reply, whose ``private[at]`` it is
    at: int

    async def private(self) -> Private:
        mine = self.reply.private[self.at]
        try:
            return (await self.reply.with_pictures()).private[self.at]
        except Exception:  # without its picture then; /hand still draws one
            log.exception("Could not draw the view of user %s", mine.user_id)
            return mine
