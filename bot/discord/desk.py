"""The desk between Discord and the table service: what each action answers and delivers.

Commands and buttons call the desk; the desk calls ``TableService`` and turns its ``Reply``
into Discord messages:

- the channel gets one live message per turn (``bot.discord.live``): a step of the turn
  under way edits it; a new message, pinging exactly the members newly awaited, comes when
  the turn changes hands; the start, the end and seat changes are messages of their own;
- each player whose private view changed gets it by DM with their image (with buttons
  when their choices are few); their own steps edit the DM of their turn, and a new DM
  comes only when news reaches them from another seat or their turn begins (the last move
  of a turn shows the mover their view in its answer: ``bot.discord.direct``). A DM that
  cannot be delivered is announced in the channel without revealing anything, and
  ``/hand`` keeps working; closed DMs are not tried again for a day, or until ``/hand``;
- the acting player gets the ephemeral answer (for a secret choice, what they chose), and
  the truth about the channel: posted; waiting behind earlier moves Discord has not taken
  yet; a passing failure (saved, shown as soon as Discord answers); or no permission.

Replies are delivered at least once: the service keeps each one until ``delivered`` is
called, and the desk delivers what is left when the bot connects (after a restart). If a
channel post fails while the bot runs, the channel is *behind*: its later replies are not
posted one by one (they stay in the outbox), and a retry task posts what the outbox holds
for it, in move order, with a growing pause between tries (``RETRY_FIRST`` doubling up to
``RETRY_MOST``), until it succeeds.

A DM's move buttons go stale when the game moves on; the desk remembers each player's
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

from bot.discord.answer import NOBODY, Answer, clip, picture_files, shown_name
from bot.discord.buttons import choice_view, text_view, undo_view
from bot.discord.direct import BACK, Owed, answered, line, noted, send
from bot.discord.live import TurnMessages, mentions, pinging, turn_line
from bot.moves import Choices
from bot.records import WaitRow
from bot.service import TableService
from bot.service.replies import Private, Reply, Tended
from bot.undo import Asked
from rules import GameError
from rules.core import quote

log = logging.getLogger("boardroom.discord")
RETRY_FIRST = 30.0  # seconds before a failed channel post is tried again
RETRY_MOST = 600.0  # the pause between tries doubles up to this
STALE = "(These buttons are out of date: the game moved on.)"
# What the mover is told about the channel, by how its post went (``Desk.deliver``).
POSTED, QUEUED, FAILED, FORBIDDEN = "posted", "queued", "failed", "forbidden"
TOLD = {
    POSTED: "",
    QUEUED: " It appears in the channel right after the moves before it.",
    FAILED: " Your move is saved; Discord did not take the channel's message just now, so "
            "it appears there as soon as Discord answers again.",
    FORBIDDEN: " Your move is saved, but I may not post in the channel: please check that "
               "I may send messages and attach files there.",
}
LISTED = 15  # lines 'Your moves' lists when the moves are too many for buttons

def overview(choices: Choices) -> str:
    """A player's many moves, grouped by their first words (free moves first), and how to
    make one with /play."""
    entries = choices.narrow("", LISTED)
    lines = [f"You have {len(choices.moves)} possible moves:"]
    lines += [f"• `{entry.label()}`" for entry in entries]
    lines.append("Type `/play` and start a move: the suggestions narrow with each word you "
                 "type.")
    return clip("\n".join(lines))


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


class Desk:
    """Delivers the service's replies to Discord and answers the acting player."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._unreachable: set[tuple[int, int]] = set()  # (channel, user) told about
        self._behind: dict[int, asyncio.Task[None]] = {}  # channel -> its retry task
        self.turns = TurnMessages(service)
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

    # -------------------------------------------------------------- delivering

    async def deliver(self, channel_id: int, reply: Reply, actor: int | None = None) -> str:
        """Post a reply's public part and DMs; how the channel's part went: ``POSTED``,
        ``QUEUED`` (behind earlier replies a retry still holds), ``FAILED`` (Discord did
        not take it now; a retry will) or ``FORBIDDEN`` (no permission there).

        One lock per channel keeps the channel's messages in the order the moves happened.
        ``actor`` made the move: their own DM of this turn is edited, others' DMs' buttons
        went stale (the button they pressed answers them itself).
        """
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
        if letters:  # the game moved on: every button it sent before is stale
            for where, game, user_id in list(self._asked):
                if (where, game) == (channel_id, reply.game) and (
                        user_id != actor or actor not in reply.mention):
                    await self._unask((where, game, user_id))
        for private in letters:
            key = (channel_id, private.user_id)
            asking = private.user_id not in told
            own = (private.user_id == actor and reply.step and actor not in reply.newly
                   and actor in reply.mention)  # a step of their own turn
            if await self._direct(channel_id, private, reply.game, reply.version,
                                  asking=asking, own=own,
                                  turn=private.user_id in reply.newly):
                self._unreachable.discard(key)
            elif key not in self._unreachable:  # say it once, not after every move
                self._unreachable.add(key)
                unreachable.append(private.user_id)
        if unreachable:
            notice = (f"I could not send a direct message to {mentions(unreachable)}. "
                      "Use `/hand` here to see your hand (only you will see it), or allow "
                      "direct messages from this server's members.")
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

    async def _direct(self, channel_id: int, private: Private, game: int, version: int, *,
                      asking: bool = False, own: bool = False, turn: bool = False) -> bool:
        """DM one player their private view, with buttons when their choices are few
        (``turn``: their turn begins with it).

        With ``asking``, only the buttons matter: no DM is sent unless there are some.
        With ``own`` (a step of the player's own turn), the DM of that turn is edited:
        its lines kept, the new ones added, the picture and buttons replaced.
        Returns False if Discord refuses the DM (the player closed their DMs), or if
        their DMs are held back after such a refusal (``direct.send``): nothing is tried
        then. A view owed from the player's own move (``direct.Owed``) comes with the DM
        that asks them for their turn.
        """
        game_owed, owed = self._owed.pop((channel_id, private.user_id), (game, None))
        if game_owed != game:  # an earlier game's, never sent: it ended
            owed = None
        if (await line(self.service, private.user_id))[1]:
            return False  # their DMs were refused: none is tried for now
        if owed is not None and asking:  # their turn begins: the view their move left them
            private, asking = await owed.private(), False
        # The version was read before the moves: a button labelled from a newer list
        # carries an older version, and the service refuses it as stale.
        choices = await self.service.choices(channel_id, private.user_id)
        view = choice_view(channel_id, game, version, choices)
        key = (channel_id, game, private.user_id)
        if own and key in self._asked:
            message, lines = self._asked[key]
            if asking and view is None and not message.components:
                return True  # their view is unchanged and no buttons come or go: no edit
            lines = "\n".join(part for part in (lines, private.text) if part)
            text = f"In <#{channel_id}>:\n{lines}" if lines else f"Your turn in <#{channel_id}>:"
            kwargs: dict[str, Any] = {"view": view}
            if private.picture is not None:
                kwargs["attachments"] = picture_files(private.picture, "hand")
            try:
                edited = await message.edit(content=clip(text), allowed_mentions=NOBODY,
                                            **kwargs)
                self._asked[key] = (edited, lines)  # with its buttons now, for _unask
                return True
            except discord.HTTPException as error:  # e.g. the edit cap: a new DM then
                log.info("Could not edit a DM to user %s (%s)", private.user_id, error)
        if asking and view is None:
            return True
        if asking:
            text = f"Your choice in <#{channel_id}>:"
        else:
            text = f"In <#{channel_id}>:\n{private.text}" if private.text else \
                f"Your {'turn' if turn else 'view'} in <#{channel_id}>:"
        sent = await send(self.client, self.service, private.user_id, clip(text),
                          private.picture, view)
        if sent is None:
            return False
        await self._unask(key)  # the DM before it is no longer the turn's
        self._asked[key] = (sent, private.text)
        return True

    async def _unask(self, key: tuple[int, int, int]) -> None:
        """Take the buttons off a player's last DM for a game: stale now. (A game's
        buttons stay on when another game follows it; the service refuses them.)"""
        old, _ = self._asked.pop(key, (None, ""))
        if old is None or not old.components:
            return
        try:
            await old.edit(content=clip(f"{old.content}\n{STALE}"), view=None,
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

    # -------------------------------------------------------------- the scheduler

    async def tend(self, wait: WaitRow) -> None:
        """Deliver what the service did for a due wait: a stand-in's move, or a reminder."""
        tended = await self.service.tend(wait)
        if tended is None:
            return
        if tended.reply is not None:
            await self.deliver(tended.channel_id, tended.reply)
        elif tended.text:
            await self._remind(tended)

    async def digest(self, user_id: int) -> None:
        """Send a player's daily digest, if one is due: by DM, or, if their DMs are closed,
        as a reminder's mention in the channel of the most pressing table (at most once a
        day). Recorded as sent before: a failure here is not retried."""
        def server(guild_id: int) -> str | None:
            guild = self.client.get_guild(guild_id)
            return None if guild is None else shown_name(guild.name)

        tended = await self.service.tend_digest(user_id, server)
        if tended is not None:
            await self._remind(tended)

    async def _remind(self, tended: Tended) -> None:
        """A reminder (or a daily digest) by DM; a player whose DMs are closed (or held
        back: ``direct.send``) is mentioned in the channel instead, at most once a day."""
        if await send(self.client, self.service, tended.user_id, clip(tended.text)) is not None:
            return
        if not await self.service.mentionable(tended.user_id):
            return
        channel = self.client.get_partial_messageable(tended.channel_id)
        try:
            await channel.send(f"{mentions([tended.user_id])}, it is your turn here (I could "
                               "not send you a direct message).",
                               allowed_mentions=pinging([tended.user_id]))
        except discord.HTTPException:
            log.warning("Could not post a reminder to channel %s", tended.channel_id,
                        exc_info=True)

    async def flush(self) -> None:
        """Deliver whatever the service still holds (replies made before a restart)."""
        for channel_id, reply in await self.service.undelivered():
            try:
                await self.deliver(channel_id, reply)
            except Exception:
                log.exception("Could not deliver a queued reply to channel %s", channel_id)

    async def sweep(self, older_than: float) -> None:
        """Post what other processes wrote but never posted, ``older_than`` seconds on
        (``TableService.sweep``)."""
        for channel_id, reply in await self.service.sweep(older_than):
            try:
                await self.deliver(channel_id, reply)
            except Exception:
                log.exception("Could not deliver a swept reply to channel %s", channel_id)

    # -------------------------------------------------------------- acting

    async def play(self, user_id: int, channel_id: int, text: str,
                   version: int | None = None, game: int | None = None) -> Answer:
        """Make a move (typed, or a button's) and deliver what it changed."""
        reply = await self.service.play(channel_id, user_id, text, version=version,
                                        game=game)
        sent, mine = answered(reply, user_id)
        if mine is not None:  # the mover's own view: with this answer, and their next DM
            self._owed[channel_id, user_id] = reply.game, Owed(reply, mine)
        posted = await self.deliver(channel_id, sent, user_id)
        said = (reply.ephemeral or f"Played {quote(text, 60)}.") + TOLD[posted]
        picture = None if mine is None else (await Owed(reply, mine).private()).picture
        return Answer(said, picture)

    async def choose(self, user_id: int, channel_id: int, game: int, version: int,
                     digest: str) -> Answer:
        """A move button: the move it carries, if it is still the clicker's to make there
        and then; otherwise the reason, and the clicker's choices now as fresh buttons."""
        try:
            move = await self.service.button_move(channel_id, user_id, game, version, digest)
        except GameError as refusal:
            return await self._refused(user_id, channel_id, str(refusal))
        return await self.play(user_id, channel_id, move, version, game)

    async def outdated(self, user_id: int, channel_id: int) -> Answer:
        """A move button of the older form, which names no game: never played."""
        return await self._refused(user_id, channel_id, "That button is out of date and does "
                                   "nothing now.")

    async def _refused(self, user_id: int, channel_id: int, why: str) -> Answer:
        """A refused button: the sentence, with fresh buttons if the clicker is awaited."""
        status = await self.service.status(channel_id)  # its version before the moves
        choices = await self.service.choices(channel_id, user_id)
        view = choice_view(channel_id, status.game, status.version, choices)
        if view is not None:
            return Answer(f"{why} Your choices now:", view=view)
        if choices.moves:
            return Answer(f"{why} Type `/play` to choose one of your {len(choices.moves)} "
                          "moves.")
        return Answer(why)

    async def moves(self, user_id: int, channel_id: int) -> Answer:
        """'Your moves': the caller's own choices now, as buttons when they are few."""
        status = await self.service.status(channel_id)  # its version before the moves
        choices = await self.service.choices(channel_id, user_id)
        if not choices.moves:
            await self.explain(user_id, channel_id, None)
            return Answer("You have nothing to do right now.")
        view = choice_view(channel_id, status.game, status.version, choices)
        if view is not None:
            return Answer("Choose:", view=view)
        return Answer(overview(choices))

    async def hand(self, user_id: int, channel_id: int) -> Answer:
        """The caller's private view with their image, and their choices when few."""
        reply = await self.service.hand(channel_id, user_id)  # its version before the moves
        back = await noted(self.service.dm_back(user_id), user_id)  # DMs tried again
        mine = [p for p in reply.private if p.user_id == user_id]
        text = reply.ephemeral or "\n".join(p.text for p in mine)
        picture = reply.picture or next((p.picture for p in mine if p.picture), None)
        choices = await self.service.choices(channel_id, user_id)
        view = choice_view(channel_id, reply.game, reply.version, choices)
        if view is not None:
            count = len(choices.moves)
            text += f"\nYour move: {count} choice{'s' if count != 1 else ''} below."
        return Answer((BACK if back else "") + (text or "You hold nothing secret right now."),
                      picture, view)

    async def board(self, channel_id: int) -> Answer:
        """The current board image and whose turn it is, with a button for it as text."""
        reply = await self.service.board(channel_id)
        text = "\n".join(part for part in (reply.public, turn_line(reply)) if part)
        return Answer(text, reply.picture,
                      text_view(channel_id) if reply.picture is not None else None)

    async def board_text(self, user_id: int, channel_id: int) -> Answer:
        """The board as text a screen reader reads, as the caller may see it."""
        return Answer(clip(await self.service.board_text(channel_id, user_id)))

    async def explain(self, user_id: int, channel_id: int, version: int | None) -> None:
        """Raise the service's sentence for why this user cannot move now, if it has one.

        An empty move is refused after every check on the table, the seat, the version and
        the turn, so the service itself says which one failed; nothing is ever applied.
        """
        await self.service.play(channel_id, user_id, "", version=version)

    # -------------------------------------------------------------- undo

    async def ask_undo(self, user_id: int, channel_id: int) -> Answer:
        """``/game undo``: the request goes to the channel with its buttons, pinging the
        players asked and nobody else; at a table of computers only, the move is taken
        back at once and the channel gets the board as after a move."""
        result = await self.service.ask_undo(channel_id, user_id)
        if not isinstance(result, Asked):
            posted = await self.deliver(channel_id, result)
            return Answer("Your move was taken back." + TOLD[posted])
        channel = self.client.get_partial_messageable(channel_id)
        try:
            await channel.send(clip(f"{mentions(result.asked)} {result.text}"),
                               allowed_mentions=pinging(result.asked),
                               view=undo_view(channel_id, result))
        except discord.HTTPException:
            log.warning("Could not post an undo request to channel %s", channel_id,
                        exc_info=True)
            await self.service.withdraw_undo(channel_id, result.game, result.version,
                                             result.digest)
            return Answer("I could not post your request in the channel, so nobody was "
                          "asked: please check that I may send messages there, and ask again.")
        return Answer("Your request is posted; your move is taken back once everyone asked "
                      "agrees.")

    async def answer_undo(self, user_id: int, channel_id: int, game: int, version: int,
                          digest: str, *, agree: bool,
                          message: discord.Message | None = None) -> Answer:
        """An Agree or Refuse button: the answer goes to the channel (and, from the last
        agreement, the board as it was). Once the request is settled, the buttons come off
        its ``message``."""
        reply = await self.service.answer_undo(channel_id, user_id, game, version, digest,
                                               agree=agree)
        await self.deliver(channel_id, reply)
        if message is not None and (not agree or reply.game):
            try:
                await message.edit(view=None, allowed_mentions=NOBODY)
            except discord.HTTPException:
                log.info("Could not take the buttons off an answered undo request")
        return Answer(reply.ephemeral or "Done.")

