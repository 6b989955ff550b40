"""Delivery: how a reply of the table service reaches Discord, in one place.

The desk hands each reply to ``Delivery.deliver`` once; everything after is here:

- the channel gets one live message per turn (``bot.discord.live``): a step of the turn
  under way edits it; a new message, pinging exactly the members newly awaited, comes when
  the turn changes hands; the start, the end and seat changes are messages of their own;
- each player whose private view changed gets it by DM with their image (with buttons
  when their choices are few); their own steps edit the DM of their turn, and a new DM
  comes only when news reaches them from another seat or their turn begins (the last move
  of a turn shows the mover their view in its answer: ``bot.discord.direct``). A DM that
  cannot be delivered is announced in the channel without revealing anything, and
  ``/hand`` keeps working; closed DMs are not tried again for a day, or until ``/hand``;
- reminders and digests go by DM, or as a mention in the channel if DMs are closed;
- the caller learns how the channel's part went: posted; waiting behind earlier moves
  Discord has not taken yet; a passing failure (saved, shown as soon as Discord answers);
  or no permission.

Replies are delivered at least once: the service keeps each one (``store.deliveries``)
until ``delivered`` is called, and the desk delivers what is left when the bot connects
(after a restart). If a channel post fails while the bot runs, the channel is *behind*: its
later replies are not posted one by one (they stay in the outbox), and a retry task posts
what the outbox holds for it, in move order, with a growing pause between tries
(``RETRY_FIRST`` doubling up to ``RETRY_MOST``), until it succeeds.

A DM's move buttons go stale when the game moves on; delivery remembers each player's
last DM per game and takes its buttons off (an edit) when a newer DM is sent or the
player is no longer asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

import discord

import rules
from bot import words
from bot.discord.answer import NOBODY, clip, picture_files
from bot.discord.buttons import choice_view
from bot.discord.direct import Owed, line, send
from bot.discord.live import TurnMessages, mentions, pinging
from bot.discord.threads import Keeper
from bot.service import TableService
from bot.service.pictures import Picture
from bot.service.replies import Private, Reply, Tended

log = logging.getLogger("boardroom.discord")
RETRY_FIRST = 30.0  # seconds before a failed channel post is tried again
RETRY_MOST = 600.0  # the pause between tries doubles up to this
# How a reply's channel part went (``Delivery.deliver``).
POSTED, QUEUED, FAILED, FORBIDDEN = "posted", "queued", "failed", "forbidden"


@dataclass
class Waiting:
    """A reply waiting for its channel's turn to be posted, and how its post went."""

    reply: Reply
    actor: int | None
    told: asyncio.Future[str]


def joins(before: Reply, after: Reply) -> bool:
    """Whether ``after`` may go out in the same message as ``before``: a step of the same
    game's turn that newly awaits nobody."""
    return (bool(before.game) and after.game == before.game and before.step and after.step
            and not after.newly)


def joined(replies: list[Reply]) -> Reply:
    """Steps of one turn as one channel message: their events in order, the board, whose
    turn it is and what the last of them says; pinging whom the first newly awaits."""
    if len(replies) == 1:
        return replies[0]
    first, last = replies[0], replies[-1]
    return replace(last, public="\n".join(r.public for r in replies if r.public),
                   newly=first.newly, note=first.note,
                   picture=next((r.picture for r in reversed(replies) if r.picture), None))


class Delivery:
    """Posts the service's replies in their channels and DMs, retries, marks them
    delivered."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._unreachable: set[tuple[int, int]] = set()  # (channel, user) told about
        self._behind: dict[int, asyncio.Task[None]] = {}  # channel -> its retry task
        self.turns = TurnMessages(service)
        self.threads = Keeper(client, service)  # a table's thread: open, its parent told
        self._waiting: defaultdict[int, list[Waiting]] = defaultdict(list)  # channel -> queue
        # (channel, game, user) -> the last DM sent there for that game, and its lines
        self._asked: dict[tuple[int, int, int], tuple[discord.Message, str]] = {}
        # (channel, user) -> the game and the view owed to their next DM there (one a
        # channel: a newer game's replaces an earlier one's, never sent: that game ended)
        self._owed: dict[tuple[int, int], tuple[int, Owed]] = {}

    async def close(self) -> None:
        """Stop the retry tasks (what they would post stays in the outbox)."""
        tasks = list(self._behind.values())
        self._behind.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def deliver(self, channel_id: int, reply: Reply, actor: int | None = None,
                      owed: Owed | None = None) -> str:
        """Post a reply's public part and DMs; how the channel's part went: ``POSTED``,
        ``QUEUED`` (behind earlier replies a retry still holds), ``FAILED`` (Discord did
        not take it now; a retry will) or ``FORBIDDEN`` (no permission there).

        One lock per channel keeps the channel's messages in the order the moves happened.
        ``actor`` made the move: their own DM of this turn is edited, others' DMs' buttons
        went stale (the button they pressed answers them itself). ``owed``: the actor's own
        view, shown in the answer to their move, owed to their next DM (``direct.Owed``).
        """
        if owed is not None and actor is not None:
            self._owed[channel_id, actor] = reply.game, owed
        mine = Waiting(reply, actor, asyncio.get_running_loop().create_future())
        waiting = self._waiting[channel_id]
        waiting.append(mine)
        try:
            return await self._deliver_queued(channel_id, mine, waiting)
        finally:  # (already gone unless cancelled while it waited for the lock)
            if mine in waiting:
                waiting.remove(mine)

    async def _deliver_queued(self, channel_id: int, mine: Waiting, waiting: list[Waiting]
                              ) -> str:
        reply = mine.reply
        async with self._locks[channel_id]:
            if mine.told.done():  # told within an earlier step's edit
                return mine.told.result()
            # Steps of the same turn that queued behind this one (Discord slowed the
            # channel down, or they came fast) go out with it: one edit, not one each.
            at = waiting.index(mine)
            batch = [mine]
            while at + 1 < len(waiting) and joins(batch[-1].reply, waiting[at + 1].reply):
                batch.append(waiting.pop(at + 1))
            waiting.remove(mine)
            try:
                if channel_id in self._behind and reply.game:
                    status = QUEUED  # the retry posts it, after the replies before it
                else:
                    status = await self._post(channel_id, joined([w.reply for w in batch]))
                    if status == POSTED:
                        for each in batch:
                            await self._tell(channel_id, each.reply, each.actor)
            except BaseException as error:
                for each in batch[1:]:
                    each.told.set_exception(error)
                raise
            for each in batch[1:]:
                each.told.set_result(status)
            return status

    async def _deliver(self, channel_id: int, reply: Reply, actor: int | None = None) -> str:
        status = await self._post(channel_id, reply)
        if status == POSTED:
            await self._tell(channel_id, reply, actor)
        return status

    async def _post(self, channel_id: int, reply: Reply) -> str:
        """The channel's part of a reply (``bot.discord.live``); how it went."""
        channel = self.client.get_partial_messageable(channel_id)
        if reply.public or reply.picture is not None or (reply.step and reply.mention):
            try:
                await self.threads.reopen(channel_id)  # a table's thread Discord archived
                await self.turns.post(channel, reply)
            except discord.HTTPException as error:
                log.warning("Could not post to channel %s; the reply stays queued and is "
                            "tried again", channel_id, exc_info=True)
                if reply.game and channel_id not in self._behind:
                    self._behind[channel_id] = asyncio.get_running_loop().create_task(
                        self._retry(channel_id), name=f"boardroom-retry-{channel_id}")
                return FORBIDDEN if isinstance(error, discord.Forbidden) else FAILED
        return POSTED

    async def _tell(self, channel_id: int, reply: Reply, actor: int | None) -> None:
        """A reply's DMs, then marking it delivered (its channel part is posted)."""
        channel = self.client.get_partial_messageable(channel_id)
        try:  # the DMs' pictures are drawn after the channel's part is posted
            reply = await reply.with_pictures()
        except Exception:  # the DMs go without pictures; /hand still draws one
            log.exception("Could not draw the DM pictures of channel %s", channel_id)
        # Each player whose view changed gets it; each awaited player whose choices fit on
        # buttons is asked for them (a secret card, a placement) even if nothing changed.
        letters = list(reply.private)
        told = {private.user_id for private in letters}
        letters += [Private(user_id, "", None) for user_id in reply.mention
                    if user_id not in told and not reply.over]
        unreachable = []
        if letters or reply.over:  # the game moved on: every button it sent before is stale
            for where, game, user_id in list(self._asked):
                if (where, game) == (channel_id, reply.game) and (
                        user_id != actor or actor not in reply.mention):
                    await self._unask((where, game, user_id), over=reply.over)
        for private in letters:
            key = (channel_id, private.user_id)
            asking = private.user_id not in told
            own = (private.user_id == actor and reply.step and actor not in reply.newly
                   and actor in reply.mention)  # a step of their own turn
            went = await self._direct(channel_id, private, reply.game, reply.version,
                                      reply.picture, asking=asking, own=own,
                                      turn=private.user_id in reply.newly)
            if went:
                self._unreachable.discard(key)
            elif went is False and key not in self._unreachable:  # once, not every move
                self._unreachable.add(key)
                unreachable.append(private.user_id)
        if unreachable:
            notice = words.say("delivery.unreachable", mentions=mentions(unreachable),
                               command="/hand")
            try:
                await channel.send(notice, allowed_mentions=pinging(unreachable))
            except discord.HTTPException:
                log.warning("Could not post a DM notice to channel %s", channel_id,
                            exc_info=True)
        try:
            await self.service.delivered(reply)
        except Exception:  # it was posted; at worst it is posted again after a restart
            log.exception("Could not mark version %s of channel %s delivered",
                          reply.version, channel_id)
        await self.threads.after(channel_id, reply)  # a thread's parent told of it

    async def _now(self, channel_id: int, owed: Owed, board: Picture | None,
                   version: int) -> Private:
        """The DM that starts the turn of a player owed their view: what their move told
        them, and their picture as the table stands now (the view their move left them
        shows an older board)."""
        mine = owed.reply.private[owed.at]
        try:
            picture = await self.service.seen(channel_id, mine.user_id, board, version)
        except Exception:  # the view their move left them, rather than none
            log.exception("Could not draw the view of user %s", mine.user_id)
            picture = (await owed.private()).picture
        return Private(mine.user_id, mine.text, picture)

    async def _direct(self, channel_id: int, private: Private, game: int, version: int,
                      board: Picture | None = None, *, asking: bool = False,
                      own: bool = False, turn: bool = False) -> bool | None:
        """DM one player their private view, with buttons when their choices are few
        (``turn``: their turn begins with it).

        With ``asking``, only the buttons matter: no DM is sent unless there are some.
        With ``own`` (a step of the player's own turn), the DM of that turn is edited:
        its lines kept, the new ones added, the picture and buttons replaced.
        Returns True once a DM went (or was edited), None where there was nothing to
        send (never counted as a DM that got through), False if Discord refuses the DM
        (the player closed their DMs), or if their DMs are held back after such a refusal
        (``direct.send``): nothing is tried then. A player owed their view from their own
        move (``direct.Owed``) is sent, as their turn begins, what they hold as the table
        stands now (the board of ``version``, ``board``, shared), not the view that move
        left them.
        """
        game_owed, owed = self._owed.pop((channel_id, private.user_id), (game, None))
        if game_owed != game:  # an earlier game's, never sent: it ended
            owed = None
        if (await line(self.service, private.user_id))[1]:
            return False  # their DMs were refused: none is tried for now
        after = False  # the DM that starts their turn, after a move of theirs
        if owed is not None and asking:  # what they hold, as the table stands now
            private, asking, after = await self._now(channel_id, owed, board, version), False, True
        # The version was read before the moves: a button labelled from a newer list
        # carries an older version, and the service refuses it as stale.
        choices = await self.service.choices(channel_id, private.user_id)
        view = choice_view(channel_id, game, version, choices)
        key = (channel_id, game, private.user_id)
        if asking and view is None and turn and await self._hides(channel_id):
            # a turn begins with no news and no buttons (their first: nothing owed)
            picture = await self._seen(channel_id, private.user_id, board, version)
            private, asking = Private(private.user_id, "", picture), False
        if own and key in self._asked:
            message, lines = self._asked[key]
            if asking and view is None and not message.components:
                return None  # their view is unchanged and no buttons come or go: no edit
            lines = "\n".join(part for part in (lines, private.text) if part)
            text = (words.say("delivery.in_channel", channel=channel_id, said=lines) if lines
                    else self._bare(channel_id, choices.moves, view, private.picture))
            kwargs: dict[str, Any] = {"view": view}
            picture = private.picture
            if picture is None and message.attachments:  # the turn's picture is stale now
                picture = await self._seen(channel_id, private.user_id, board, version)
            if picture is not None or message.attachments:
                kwargs["attachments"] = [] if picture is None else picture_files(picture, "hand")
            try:
                edited = await message.edit(content=clip(text), allowed_mentions=NOBODY,
                                            **kwargs)
                self._asked[key] = (edited, lines)  # with its buttons now, for _unask
                return True
            except discord.HTTPException as error:  # e.g. the edit cap: a new DM then
                log.info("Could not edit a DM to user %s (%s)", private.user_id, error)
        if asking and view is None:
            return None
        if asking:
            text = words.say("delivery.your_choice_in", channel=channel_id)
        elif private.text:
            text = (words.say("delivery.your_turn_after", channel=channel_id,
                              said=private.text) if after else
                    words.say("delivery.in_channel", channel=channel_id, said=private.text))
        else:
            text = (self._bare(channel_id, choices.moves, view, private.picture) if turn
                    else words.say("delivery.your_view_in", channel=channel_id))
        sent = await send(self.client, self.service, private.user_id, clip(text),
                          private.picture, view)
        if sent is None:
            return False
        await self._unask(key)  # the DM before it is no longer the turn's
        self._asked[key] = (sent, private.text)
        return True

    async def _seen(self, channel_id: int, user_id: int, board: Picture | None,
                    version: int) -> Picture | None:
        """The player's view as the table stands (``service.seen``); None if it cannot
        be drawn (the DM goes without it)."""
        try:
            return await self.service.seen(channel_id, user_id, board, version)
        except Exception:
            log.exception("Could not draw the view of user %s", user_id)
            return None

    async def _hides(self, channel_id: int) -> bool:
        """Whether the channel's game hides something from each player (then their turn
        begins with a DM of their own view, as it does after a move of theirs)."""
        game_id = await self.service.game_of(channel_id)
        return game_id is not None and bool(rules.GAMES[game_id].hidden)

    @staticmethod
    def _bare(channel_id: int, moves: list[str], view: discord.ui.View | None,
              picture: Picture | None) -> str:
        """A turn's DM header; where neither buttons nor a picture follow it, what to do
        instead (a header alone told a player nothing)."""
        if view is None and picture is None and moves:
            return words.say("delivery.your_turn_there", channel=channel_id,
                             count=len(moves), command="/play")
        return words.say("delivery.your_turn_in", channel=channel_id)

    async def _unask(self, key: tuple[int, int, int], *, over: bool = False) -> None:
        """Take the buttons off a player's last DM for a game: stale now, or the game is
        ``over``. (A game's buttons stay on when another game follows it; the service
        refuses them.)"""
        old, _ = self._asked.pop(key, (None, ""))
        if old is None or not old.components:
            return
        stale = (words.say("delivery.over", channel=key[0]) if over
                 else words.say("delivery.stale"))
        try:
            await old.edit(content=clip(f"{old.content}\n{stale}"), view=None,
                           allowed_mentions=NOBODY)
        except discord.HTTPException:
            log.info("Could not take stale buttons off a DM to user %s", key[2])

    async def _retry(self, channel_id: int) -> None:
        """Post what the outbox holds for a channel whose post failed, in move order,
        trying again after a growing pause until it succeeds."""
        pause = RETRY_FIRST
        try:
            while True:
                await asyncio.sleep(pause)
                pause = min(RETRY_MOST, pause * 2)
                try:
                    replies = await self.service.undelivered_in(channel_id)
                except Exception:
                    log.exception("Could not read the outbox of channel %s", channel_id)
                    continue
                async with self._locks[channel_id]:
                    for reply in replies:
                        if await self._deliver(channel_id, reply) != POSTED:
                            break  # the rest waits for the next try, in move order
                    else:
                        self._behind.pop(channel_id, None)
                        return
        finally:
            if self._behind.get(channel_id) is asyncio.current_task():
                del self._behind[channel_id]

    async def remind(self, tended: Tended) -> None:
        """A reminder (or a daily digest) by DM; a player whose DMs are closed (or held
        back: ``direct.send``) is mentioned in the channel instead, at most once a day."""
        if await send(self.client, self.service, tended.user_id, clip(tended.text)) is not None:
            return
        if not await self.service.mentionable(tended.user_id):
            return
        channel = self.client.get_partial_messageable(tended.channel_id)
        await self.threads.reopen(tended.channel_id)
        try:
            await channel.send(words.say("delivery.reminder",
                                         mentions=mentions([tended.user_id])),
                               allowed_mentions=pinging([tended.user_id]))
        except discord.HTTPException:
            log.warning("Could not post a reminder to channel %s", tended.channel_id,
                        exc_info=True)
