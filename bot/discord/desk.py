"""The desk between Discord and the table service: what each action answers.

Commands and buttons call the desk; the desk calls ``TableService`` and hands each ``Reply``
it gets to ``bot.discord.delivery.Delivery`` once (turn messages, DMs, retries, delivered
marks live there). The acting player gets the ephemeral answer (for a secret choice, what
they chose), and the truth about the channel as delivery tells it (``told``): posted;
waiting behind earlier moves Discord has not taken yet; a passing failure (saved, shown as
soon as Discord answers); or no permission.
"""

from __future__ import annotations

import logging

import discord

from bot import words
from bot.discord.answer import NOBODY, Answer, clip, shown_name
from bot.discord.buttons import choice_view, text_view, undo_view
from bot.discord.delivery import FAILED, FORBIDDEN, QUEUED, Delivery
from bot.discord.direct import Owed, answered, back_again, noted
from bot.discord.live import mentions, pinging, turn_line
from bot.moves import Choices
from bot.records import Job
from bot.service import TableService
from bot.service.replies import Reply
from bot.undo import Asked
from rules import GameError
from rules.core import quote

log = logging.getLogger("boardroom.discord")
LISTED = 15  # lines 'Your moves' lists when the moves are too many for buttons


def told(said: str, posted: str) -> str:
    """What the mover is told: ``said``, and how the channel's post went
    (``Delivery.deliver``) unless it was posted."""
    if posted == QUEUED:
        return words.say("desk.queued", said=said)
    if posted == FAILED:
        return words.say("desk.failed", said=said)
    if posted == FORBIDDEN:
        return words.say("desk.forbidden", said=said)
    return said


def overview(choices: Choices) -> str:
    """A player's many moves, grouped by their first words (free moves first), and how to
    make one with /play."""
    entries = choices.narrow("", LISTED)
    lines = [words.say("desk.possible_moves", count=len(choices.moves))]
    lines += [words.say("desk.listed_move", move=entry.label()) for entry in entries]
    lines.append(words.say("desk.type_to_play", command="/play"))
    return clip("\n".join(lines))


class Desk:
    """Answers the acting player and hands the service's replies to delivery."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.delivery = Delivery(client, service)
        service.name_servers(self.server)  # the digest names the servers it lists

    async def close(self) -> None:
        """Stop delivery's retry tasks (what they would post stays in the outbox)."""
        await self.delivery.close()

    async def deliver(self, channel_id: int, reply: Reply, actor: int | None = None) -> str:
        """Deliver a reply (``Delivery.deliver``); how its channel part went."""
        return await self.delivery.deliver(channel_id, reply, actor)

    # -------------------------------------------------------------- the scheduler

    async def tend(self, job: Job) -> None:
        """Deliver what the service did for a due job (``TableService.tend``, by its kind):
        a reply to post (a stand-in's move), or a DM (a reminder, a daily digest: if the
        player's DMs are closed, a mention in the channel instead, at most once a day)."""
        tended = await self.service.tend(job)
        if tended is None:
            return
        if tended.reply is not None:
            await self.deliver(tended.channel_id, tended.reply)
        elif tended.text:
            await self.delivery.remind(tended)

    def server(self, guild_id: int) -> str | None:
        """A server's name as a sentence shows it, where the bot is in it."""
        guild = self.client.get_guild(guild_id)
        return None if guild is None else shown_name(guild.name)

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
        # The mover's own view goes with this answer, and is owed to their next DM unless
        # one brings it now (they are still awaited: ``sent`` is the whole reply).
        shown = None if mine is None else Owed(reply, mine)
        posted = await self.delivery.deliver(channel_id, sent, user_id,
                                             None if sent is reply else shown)
        said = told(reply.ephemeral or words.say("desk.played", move=quote(text, 60)), posted)
        picture = None if shown is None else (await shown.private()).picture
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
        return await self._refused(user_id, channel_id, words.say("desk.out_of_date"))

    async def _refused(self, user_id: int, channel_id: int, why: str) -> Answer:
        """A refused button: the sentence, with fresh buttons if the clicker is awaited."""
        status = await self.service.status(channel_id)  # its version before the moves
        choices = await self.service.choices(channel_id, user_id)
        view = choice_view(channel_id, status.game, status.version, choices)
        if view is not None:
            return Answer(words.say("desk.choices_now", said=why), view=view)
        if choices.moves:
            return Answer(words.say("desk.type_to_choose", said=why, command="/play",
                                    count=len(choices.moves)))
        return Answer(why)

    async def moves(self, user_id: int, channel_id: int) -> Answer:
        """'Your moves': the caller's own choices now, as buttons when they are few."""
        status = await self.service.status(channel_id)  # its version before the moves
        choices = await self.service.choices(channel_id, user_id)
        if not choices.moves:
            await self.explain(user_id, channel_id, None)
            return Answer(words.say("desk.nothing_to_do"))
        view = choice_view(channel_id, status.game, status.version, choices)
        if view is not None:
            return Answer(words.say("desk.choose"), view=view)
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
            text += "\n" + words.say("desk.choices_below", count=len(choices.moves))
        text = text or words.say("desk.nothing_secret")
        # first, where a long hand cannot cut it off
        return Answer(f"{back_again()}\n{text}" if back else text, picture, view)

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
            return Answer(told(words.say("desk.taken_back"), posted))
        channel = self.client.get_partial_messageable(channel_id)
        try:
            await self.delivery.threads.reopen(channel_id)  # a table's thread, archived
            await channel.send(clip(f"{mentions(result.asked)} {result.text}"),
                               allowed_mentions=pinging(result.asked),
                               view=undo_view(channel_id, result))
        except discord.HTTPException:
            log.warning("Could not post an undo request to channel %s", channel_id,
                        exc_info=True)
            await self.service.withdraw_undo(channel_id, result.game, result.version,
                                             result.digest)
            return Answer(words.say("desk.undo_not_posted"))
        return Answer(words.say("desk.undo_posted"))

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
        return Answer(reply.ephemeral or words.say("desk.done"))

