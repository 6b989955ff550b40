"""``boardroom smoke --guild ID --channel ID [--user ID]``: what the bot sends, tried once on
a maintainer's test server before players are invited (docs/discord.md).

With the token in ``DISCORD_TOKEN``, and without connecting to the gateway, it asks Discord
for what a game asks of it, through the bot's own code: it registers the bot's commands in
that server (as ``DISCORD_GUILD`` does), posts a turn message (Discord's layout components,
the bot's ``layout``) with a real board picture, a game's table as it begins; edits it with
a new picture, the board after the first move; edits it again keeping that picture (the
kept attachment listed, nothing uploaded); sends the maintainer (the application's owner,
or ``--user``) a DM with move buttons and their hand, as a player gets; posts a notice
and starts a thread from it as ``/game new thread:True`` does (a week's auto-archive),
posts in it, archives it and opens it again, as the bot does at a table's end and when Discord
archives a running table's thread (``--no-threads`` leaves this out, for a server that
keeps tables in channels); then deletes the thread and the three messages, and the
server's commands if the server had none before (a server that had them, through
``DISCORD_GUILD``, keeps them: they are the bot's own, and the bot would register the same
at its next start). Each step prints what Discord answered; the first
refusal prints its status, code and text, the steps that clean up still run, and the exit
status is 1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import aiohttp
import discord

import rules
from bot.discord.answer import NOBODY, picture_files, refusal
from bot.discord.buttons import MAX_CHOICES, choice_view, text_view
from bot.discord.client import Boardroom, StartRefused
from bot.discord.live import layout, pinging
from bot.discord.threads import ARCHIVE_AFTER
from bot.moves import Choices
from bot.service.pictures import Picture, pictures
from bot.service.replies import Reply
from bot.service.threads import thread_name
from render import kit

Say = Callable[[str], None]
# What a request may end in besides an answer: Discord's refusal, or no answer at all.
FAILED = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
SEED = 1  # the deal shown: any seed draws a real table
CLOSED_DMS = 50007  # Discord's code: cannot send messages to this user


class SmokeClient(Boardroom):
    """The bot as far as the smoke test needs it: its commands (checked against Discord's
    limits at login, as every start checks them) and its REST client; no database, no
    scheduler, no gateway session of its own."""

    async def setup_hook(self) -> None:
        await self.load_commands()

    async def on_ready(self) -> None:
        pass


class Refusal(Exception):
    """A step Discord refused, or answered otherwise than the bot relies on."""


class Smoke:
    """The steps, on a client that has logged in, DMing ``user``; ``messages`` and
    ``commands_made``: what is to be removed."""

    def __init__(self, client: SmokeClient, guild: int, channel: int, user: int,
                 say: Say, game: str, *, threads: bool = True) -> None:
        self.client, self.guild, self.channel_id, self.say = client, guild, channel, say
        self.user = user
        self.threads = threads  # try the requests of a table in a thread
        self.thread: discord.Thread | None = None  # the thread made, to delete
        self.game = rules.GAMES[game]
        self.messages: list[tuple[str, discord.Message]] = []  # what it is, the message
        self.commands_made = False
        self.step = 0
        self.doing = ""  # the step under way, as told if Discord refuses it
        self.state: Any = None  # the game after its first move

    def start(self, what: str) -> None:
        self.doing = what

    def told(self, answer: str) -> None:
        self.step += 1
        self.say(f"{self.step}. {self.doing}: {answer}")

    async def run(self) -> int:
        """Every step in order; 0 when Discord accepted them all, else 1."""
        failed = False
        try:
            await self.register()
            await self.turn_message()
            await self.direct_message()
            if self.threads:
                await self.in_thread()
        except FAILED as error:
            self.told(answer(error))
            if isinstance(error, discord.HTTPException) and error.code == CLOSED_DMS:
                self.say(f"   User {self.user} does not take direct messages from the bot: "
                         f"allow them from this server's members (Privacy settings), or "
                         f"give --user ID of someone who does.")
            failed = True
        except Refusal as error:
            self.told(str(error))
            failed = True
        failed = not await self.clean_up() or failed
        if failed:
            self.say("The smoke test failed: the bot would meet the same answer with "
                     "players; see the step above.")
            return 1
        self.say("Discord accepted every request the smoke test made: the bot is ready to "
                 "meet players.")
        return 0

    async def register(self) -> None:
        target = discord.Object(id=self.guild)
        tree = self.client.tree
        self.start(f"read the bot's commands in server {self.guild}")
        before = await tree.fetch_commands(guild=target)
        self.told(f"accepted, {len(before)} commands")
        tree.copy_global_to(guild=target)
        self.start(f"register the bot's {len(tree.get_commands(guild=target))} commands in "
                   f"server {self.guild}")
        synced = await tree.sync(guild=target)
        self.commands_made = not before
        ids = sorted(c.id for c in synced)
        self.told(f"accepted, {len(synced)} commands"
                  + (f" (ids {ids[0]} to {ids[-1]})" if ids else "")
                  + (" (the server had the bot's commands before: they stay)" if before
                     else ""))

    async def turn_message(self) -> None:
        game, owner = self.game, self.user
        state = game.new(game.min_players, SEED)
        first = await self.picture(game.view(state, None))
        lines = [f"Boardroom's smoke test: a table of {game.name}, as it begins (this message "
                 f"is deleted in a moment)."]
        reply = Reply(public=lines[0], picture=first, mention=(owner,), newly=(owner,),
                      step=True, accent=accent(game.view(state, None), game.to_act(state)))
        files = picture_files(first)
        channel = self.client.get_partial_messageable(self.channel_id)
        self.start(f"post a turn message with a board picture in channel {self.channel_id}")
        message = await channel.send(view=layout(self.channel_id, lines, reply, files),
                                     files=files, allowed_mentions=pinging((owner,)))
        self.messages.append(("the turn message", message))
        self.told(f"accepted, message {message.id} with {attachments(message)}")
        seat = min(game.to_act(state))
        move = game.legal_moves(state, seat)[0]
        state, events = game.play(state, seat, move)
        lines.append("\n".join(e.text for e in events if e.visible_to(None)) or f"{move}.")
        view = game.view(state, None)
        second = await self.picture(view)
        reply = Reply(public=lines[-1], picture=second, mention=(owner,), step=True,
                      accent=accent(view, game.to_act(state)))
        files = picture_files(second)
        self.start("edit it with a new picture (the board after the first move)")
        edited = await message.edit(view=layout(self.channel_id, lines, reply, files),
                                    attachments=files, allowed_mentions=pinging(()))
        self.told(f"accepted, message {edited.id} now with {attachments(edited)}")
        kept = list(edited.attachments)
        lines.append("The same board again: its picture kept, not uploaded again.")
        self.start("edit it again keeping the picture")
        again = await edited.edit(view=layout(self.channel_id, lines, reply, files),
                                  attachments=kept, allowed_mentions=pinging(()))
        if [a.id for a in again.attachments] != [a.id for a in kept]:
            raise Refusal(f"Discord answered the edit that keeps the picture with "
                          f"{attachments(again)}, not the kept "
                          f"{', '.join(str(a.id) for a in kept)}.")
        self.told(f"accepted, message {again.id} keeps {attachments(again)}")
        self.state = state

    async def direct_message(self) -> None:
        game, user = self.game, self.user
        state = self.state
        seat = min(game.to_act(state))
        choices = Choices.of(game.legal_moves(state, seat)[:MAX_CHOICES],
                             game.costs(state, seat))
        view = choice_view(self.channel_id, 0, 1, choices) or text_view(self.channel_id)
        hand = await self.picture(game.view(state, seat))
        self.start(f"open a DM channel with user {user}")
        dm = await self.client.create_dm(discord.Object(id=user))
        self.told(f"accepted, DM channel {dm.id}")
        self.start(f"DM user {user} a hand with {len(view.children)} buttons")
        sent = await dm.send(f"Your choice in <#{self.channel_id}> (Boardroom's smoke test: "
                             f"a player's DM, deleted in a moment):",
                             files=picture_files(hand, "hand"), view=view,
                             allowed_mentions=NOBODY)
        self.messages.append(("the DM", sent))
        buttons = sum(len(row.children) for row in sent.components
                      if isinstance(row, discord.ActionRow))
        self.told(f"accepted, message {sent.id} with {buttons} buttons and "
                  f"{attachments(sent)}")

    async def in_thread(self) -> None:
        """A table's thread, as ``bot.discord.threads`` makes and keeps it: the parent's
        notice, the thread started from it, a message there, archived, opened again."""
        channel = await self.client.fetch_channel(self.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise Refusal(f"Channel {self.channel_id} is not a text channel, where tables open "
                          f"in threads (--no-threads leaves threads out).")
        self.start(f"post a table's notice in channel {self.channel_id}")
        notice = await channel.send(f"Boardroom's smoke test: a table of {self.game.name} in "
                                    f"a thread (deleted in a moment).",
                                    allowed_mentions=NOBODY)
        self.messages.append(("the notice", notice))
        self.told(f"accepted, message {notice.id}")
        self.start("start a thread from it, archived after a week without messages")
        thread = self.thread = await notice.create_thread(
            name=thread_name(self.game.name, None, ["smoke test"]),
            auto_archive_duration=ARCHIVE_AFTER)
        self.told(f"accepted, thread {thread.id}")
        self.start(f"post in thread {thread.id}")
        posted = await thread.send("A table's message.", allowed_mentions=NOBODY)
        self.told(f"accepted, message {posted.id}")
        self.start("archive it, as after a table's recap")
        thread = await thread.edit(archived=True)
        self.told("accepted" if thread.archived else "accepted, but it is not archived")
        self.start("open it again, as for a running table Discord archived")
        thread = await thread.edit(archived=False)
        if thread.archived:
            raise Refusal("Discord accepted the request to open the thread again but left "
                          "it archived.")
        self.told("accepted")

    async def clean_up(self) -> bool:
        """Delete what the test made (the thread, the messages, the server's commands where
        it had none before), each step told; whether Discord accepted every one."""
        done = True
        if self.thread is not None:
            self.start(f"delete the thread {self.thread.id}")
            try:
                await self.thread.delete()
                self.told("accepted")
            except FAILED as error:
                self.told(answer(error))
                done = False
        for what, message in reversed(self.messages):
            self.start(f"delete {what} {message.id}")
            try:
                await message.delete()
                self.told("accepted")
            except FAILED as error:
                self.told(answer(error))
                done = False
        if self.commands_made:
            target = discord.Object(id=self.guild)
            self.client.tree.clear_commands(guild=target)
            self.start(f"remove the commands from server {self.guild} (it had none before)")
            try:
                await self.client.tree.sync(guild=target)
                self.told("accepted")
            except FAILED as error:
                self.told(answer(error))
                done = False
        return done

    async def picture(self, view: dict[str, Any]) -> Picture:
        """The picture of a view, as the bot draws it (in a thread)."""
        (drawn,) = await asyncio.to_thread(pictures, self.game.id, [view])
        return drawn


def accent(view: dict[str, Any], awaited: frozenset[int]) -> int | None:
    """The colour of the first seat awaited, as the bot frames a turn."""
    colours = view.get("colours") or []
    if not awaited or min(awaited) >= len(colours):
        return None
    try:
        r, g, b = kit.seat_colour(str(colours[min(awaited)])).fill
    except ValueError:
        return None
    return (r << 16) | (g << 8) | b


def answer(error: BaseException) -> str:
    """What Discord answered a request that failed: its status, code and text."""
    if isinstance(error, discord.HTTPException):
        return f"refused ({refusal(error)})"
    said = " ".join(str(error).split())[:160]
    return f"no answer: Discord could not be reached ({type(error).__name__}" + (
        f": {said})" if said else ")")


def attachments(message: discord.Message) -> str:
    """A message's attachments as Discord answered them: 'board.png (attachment 123)'."""
    if not message.attachments:
        return "no attachment"
    return ", ".join(f"{a.filename} (attachment {a.id})" for a in message.attachments)


async def smoke(client: SmokeClient, guild: int, channel: int, user: int | None = None, *,
                say: Say = print, game: str | None = None, threads: bool = True) -> int:
    """The smoke test's steps on ``client``, logged in; the exit status. The DM goes to
    ``user``, else to the application's owner (a team's owner for a team's application)."""
    application = client.application
    if user is None and application is not None:
        user = application.team.owner_id if application.team is not None else None
        user = user or application.owner.id
    say(f"Logged in as {client.user} (application "
        f"{application.id if application else client.application_id}); the DM goes to "
        f"user {user}.")
    if user is None:
        say("Discord did not say who owns the application: give --user ID.")
        return 1
    return await Smoke(client, guild, channel, user, say, game or min(rules.GAMES),
                       threads=threads).run()


async def run(token: str, guild: int, channel: int, user: int | None = None, *,
              say: Say = print, game: str | None = None, threads: bool = True) -> int:
    """Log in with ``token`` (REST only, no gateway) and run the smoke test."""
    client = SmokeClient(None, images=True)
    async with client:
        try:
            await client.login(token)
        except discord.LoginFailure:
            say("Discord refused the token in DISCORD_TOKEN; copy it again from the "
                "Developer Portal (see docs/discord.md).")
            return 1
        except StartRefused as refused:
            for sentence in refused.sentences:
                say(sentence)
            return 1
        except FAILED as error:
            say(f"Logging in: {answer(error)}.")
            return 1
        return await smoke(client, guild, channel, user, say=say, game=game,
                           threads=threads)


def main(argv: Sequence[str]) -> int:
    """``boardroom smoke``: the command line."""
    parser = argparse.ArgumentParser(
        prog="boardroom smoke", description="Try what the bot sends on a test server, "
        "once, before inviting players: register the commands in the server, post and "
        "edit a turn message in the channel, DM the application's owner, make, archive and "
        "reopen a thread, delete it all. "
        "The token comes from DISCORD_TOKEN.")
    parser.add_argument("--guild", type=int, required=True, metavar="ID",
                        help="the test server's id")
    parser.add_argument("--channel", type=int, required=True, metavar="ID",
                        help="a text channel of that server where the bot may post")
    parser.add_argument("--user", type=int, metavar="ID",
                        help="whom to DM (default: the application's owner)")
    parser.add_argument("--game", choices=sorted(rules.GAMES), default=min(rules.GAMES),
                        help="the game whose board is drawn (default: %(default)s)")
    parser.add_argument("--no-threads", dest="threads", action="store_false",
                        help="leave out the thread of a table (for a server that keeps "
                             "tables in channels, without the thread permissions)")
    args = parser.parse_args(argv)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("boardroom smoke: set DISCORD_TOKEN to your bot's token (see docs/discord.md).",
              file=sys.stderr)
        return 2
    return asyncio.run(run(token, args.guild, args.channel, args.user, game=args.game,
                           threads=args.threads))
