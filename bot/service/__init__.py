"""The table service: one table per channel, from opening to the last move, without Discord.

Every surface (the Discord adapter, the terminal's try-it mode, tests, benchmarks) calls
``TableService`` and gets back a ``Reply``: what to say in the channel, what each player
reads in private, and what the caller alone is told. Replies are built only from
``view()`` and from events, so nothing hidden can leak into the channel.

``TableService`` is the front door; behind it, objects with one job each, composed here
and passed what they need:

- ``Tables`` (``tables.py``): the tables held, a lock per channel, and the one write path
  for every version (the deal, a move, an undo entry);
- ``Turns`` (``turns.py``): a player's move, computers' and stand-ins' moves, and the one
  place for what follows a move (computers move, clocks, the reply);
- ``Seats``, ``Clocks``, ``Jobs``, ``Tending``, ``Digests``, ``TakeBack``, ``LookingBack``,
  ``Looking``, ``Replays``, ``Outbox``: seats and the deal, turn clocks, the due jobs and
  their handlers by kind (a wait's, a digest's), the daily digest, undo,
  ``/games``/``/log``/``/since``, looking at a table, stepping through a game
  (``/game replay``), replies not yet posted;
- ``DirectLines`` (``direct.py``): each player's DM channel, kept, and whether their DMs
  are held back after a refusal;
- ``Leagues`` (``leagues.py``, its tables through ``Boards`` in ``league_tables.py``):
  leagues from sign-up to standings (``service.leagues``), told by ``Tables`` of each
  game that ends;
- ``Narrator`` (``replies.py``), ``Pictures``, ``Computers``: replies, pictures and
  computer players' choices, off the event loop.

Consistency in short (``docs/architecture.md`` has it whole): each channel has a lock, a
version is one conditional write, a move is committed before its reply is built, and a
reply stays in the outbox until ``delivered`` is called.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from bot import history, undo
from bot.moves import Choices
from bot.records import Job, RatingRow
from bot.service.clocks import Clocks
from bot.service.computers import Computers, Levels
from bot.service.digests import Digests, Servers
from bot.service.direct import DirectLines
from bot.service.jobs import Jobs
from bot.service.league_tables import Boards
from bot.service.leagues import Leagues
from bot.service.looking import Looking
from bot.service.looking_back import LookingBack
from bot.service.outbox import Outbox
from bot.service.pictures import Picture, Pictures
from bot.service.replays import Frame, Listed, Replays
from bot.service.replies import DISCORD, Commands, Narrator, Reply, Tended
from bot.service.seats import Seats
from bot.service.tables import Tables
from bot.service.takeback import TakeBack
from bot.service.tending import Tending
from bot.service.threads import Threads
from bot.service.turns import Turns
from bot.store import Store


class TableService:
    """Tables in channels: open, join, leave, start, play, end, and looking at them.

    Every command takes the channel's lock, so commands on one channel run one at a time;
    different channels never wait for each other except on the database.
    """

    def __init__(self, store: Store, *, images: bool = True,
                 shown: Callable[[str], str] = str,
                 now: Callable[[], float] = time.time,
                 commands: Commands = DISCORD, level: str | None = None) -> None:
        """``shown`` turns a player's name into what a sentence shows: as it is for the
        terminal, escaped (no markdown, no mentions) for Discord. ``now`` is the clock
        (seconds since the epoch): every time the service stores or compares comes from
        it, so a test can run days at once. ``commands``: how the surface spells the
        commands sentences point to (Discord's by default). ``level``: the computer level
        tables take when none is chosen, for their computer players, stand-ins and
        resigned seats; None, the product's (``Levels``): ``hard``, the strongest that
        answers within a second, and ``expert`` at tables whose turns may take an hour or
        more and for stand-ins."""
        self.store = store
        self.now = now
        self.commands = commands
        self.levels = Levels.of(level)
        self.tables = Tables(store, shown=shown, now=now)
        self.pictures = Pictures(images=images)
        self.computers = Computers()
        self.narrator = Narrator(store, self.pictures, commands)
        self.clocks = Clocks(store, self.tables, now=now)
        self.turns = Turns(store, self.tables, self.computers, self.clocks, self.narrator)
        self.seats = Seats(store, self.tables, self.clocks, self.turns, self.narrator,
                           commands=commands, levels=self.levels, now=now)
        self.looking = Looking(self.tables, self.pictures, self.clocks)
        self.looking_back = LookingBack(store, self.tables, self.clocks, self.pictures)
        self.tending = Tending(store, self.tables, self.clocks, self.turns, self.looking_back,
                               now=now, level=self.levels.patient)
        self.digests = Digests(store, self.tables, self.clocks, self.looking_back, now=now)
        self.jobs = Jobs(store)  # what is done when a job of each kind is due
        self.jobs.handle("wait", self.tending.tend)
        self.jobs.handle("digest", self.digests.tend)
        self.takeback = TakeBack(store, self.tables, self.turns, now=now)
        self.replays = Replays(store, self.tables, self.pictures, now=now)
        self.outbox = Outbox(store, self.tables, self.turns, self.clocks, self.narrator,
                             now=now)
        self.direct = DirectLines(store, now=now)
        self.threads = Threads(store, self.tables)  # tables in threads (``threads.py``)
        self.leagues = Leagues(store, Boards(store, self.tables, self.seats, self.clocks,
                                             now=now), now=now, shown=shown)
        self.tables.on_end = self.leagues.finished
        self.leagues.on_due = lambda: self.clocks.on_due
        self.jobs.handle("league", self.leagues.tend)  # a round's deadline

    @property
    def images(self) -> bool:
        """Whether replies carry pictures (a benchmark switches them on and off)."""
        return self.pictures.images

    @images.setter
    def images(self, images: bool) -> None:
        self.pictures.images = images

    @property
    def on_due(self) -> Callable[[float], None] | None:
        """Told of each new due moment of a wait (the scheduler wakes early for it)."""
        return self.clocks.on_due

    @on_due.setter
    def on_due(self, told: Callable[[float], None] | None) -> None:
        self.clocks.on_due = told

    def name_servers(self, names: Servers) -> None:
        """How the surface names a server by its id, where it knows it (for the digest)."""
        self.digests.servers = names

    def close(self) -> None:
        """Stop the computer players' worker processes and the drawing threads."""
        self.computers.close()
        self.pictures.close()

    # -- seats, the deal and the end (``Seats``)

    async def open(self, channel_id: int, guild_id: int | None, user_id: int, name: str,
                   game_id: str, options: dict[str, Any] | None = None) -> Reply:
        return await self.seats.open(channel_id, guild_id, user_id, name, game_id, options)

    async def join(self, channel_id: int, user_id: int, name: str) -> Reply:
        return await self.seats.join(channel_id, user_id, name)

    async def leave(self, channel_id: int, user_id: int) -> Reply:
        return await self.seats.leave(channel_id, user_id)

    async def add_computer(self, channel_id: int, user_id: int,
                           level: str | None = None) -> Reply:
        return await self.seats.add_computer(channel_id, user_id, level)

    async def remove_computer(self, channel_id: int, user_id: int) -> Reply:
        return await self.seats.remove_computer(channel_id, user_id)

    async def start(self, channel_id: int, user_id: int, *, seed: int | None = None) -> Reply:
        """Deal and begin; the seed is drawn with ``secrets`` unless given (tests and the
        try-it mode's --seed)."""
        return await self.seats.start(
            channel_id, user_id, seed=secrets.randbelow(2**63) if seed is None else seed)

    async def resign(self, channel_id: int, user_id: int) -> Reply:
        return await self.seats.resign(channel_id, user_id)

    async def replace(self, channel_id: int, user_id: int, player_id: int | None,
                      by_id: int | None = None, by_name: str = "", *,
                      moderator: bool = False) -> Reply:
        return await self.seats.replace(channel_id, user_id, player_id, by_id, by_name,
                                        moderator=moderator)

    async def end(self, channel_id: int, user_id: int, *, moderator: bool = False) -> Reply:
        return await self.seats.end(channel_id, user_id, moderator=moderator)

    async def export(self, channel_id: int, table_id: int | None = None
                     ) -> tuple[str, bytes]:
        return await self.seats.export(channel_id, table_id)

    # -- moves (``Turns``)

    async def play(self, channel_id: int, user_id: int, text: str, *,
                   version: int | None = None, game: int | None = None) -> Reply:
        return await self.turns.play(channel_id, user_id, text, version=version, game=game)

    async def button_move(self, channel_id: int, user_id: int, game: int, version: int,
                          digest: str) -> str:
        return await self.turns.button_move(channel_id, user_id, game, version, digest)

    # -- time and absence (``Clocks``, ``Tending``)

    async def settings(self, channel_id: int, user_id: int, *, turn_time: str | None = None,
                       reminders: bool | None = None, clock: str | None = None,
                       bank: str | None = None, add: str | None = None) -> Reply:
        return await self.clocks.settings(channel_id, user_id, turn_time=turn_time,
                                          reminders=reminders, clock=clock, bank=bank,
                                          add=add)

    async def quiet(self, user_id: int, start: int, end: int, timezone: str) -> str:
        text = await self.clocks.quiet(user_id, start, end, timezone)
        await self.digests.changed(user_id)
        return text

    async def away(self, user_id: int, days: int) -> str:
        text = await self.clocks.away(user_id, days)
        await self.digests.changed(user_id)
        return text

    async def mentionable(self, user_id: int) -> bool:
        return await self.clocks.mentionable(user_id)

    # -- the due jobs (``Jobs``: a wait's, a digest's, by kind)

    async def next_due(self) -> float | None:
        """The earliest moment the scheduler has something to do."""
        return await self.jobs.next_due()

    async def due(self, now: float, limit: int = 100) -> list[Job]:
        return await self.jobs.due(now, limit)

    async def postpone(self, job: Job, moment: float) -> None:
        await self.jobs.postpone(job, moment)

    async def tend(self, job: Job) -> Tended | None:
        return await self.jobs.tend(job, self.now())

    # -- the daily digest (``Digests``)

    async def digest(self, user_id: int, at: str | None,
                     timezone: str | None = None) -> str:
        await self.direct.back(user_id)  # asking for a DM a day: DMs are tried again
        return await self.digests.set(user_id, at, timezone)

    # -- a player's direct messages (``DirectLines``)

    async def dm_line(self, user_id: int) -> tuple[int | None, bool]:
        """The player's DM channel (None: none opened yet), and whether DMs to them are
        held back now (refused as closed within a day, and they were not back since)."""
        line = await self.direct.line(user_id)
        return line.channel_id, line.held(self.now())

    async def dm_opened(self, user_id: int, channel_id: int) -> None:
        await self.direct.opened(user_id, channel_id)

    async def dm_refused(self, user_id: int) -> None:
        await self.direct.refused(user_id)

    async def dm_back(self, user_id: int) -> bool:
        """A DM got through, or the player is back (``/hand``): DMs go to them again.
        Whether they were held back until now."""
        return await self.direct.back(user_id)

    # -- looking back (``LookingBack``) and undo (``TakeBack``)

    async def games(self, guild_id: int, user_id: int) -> str:
        return await self.looking_back.games(guild_id, user_id)

    async def ratings(self, guild_id: int, game_id: str) -> list[RatingRow]:
        return await self.looking_back.ratings(guild_id, game_id)

    async def log(self, channel_id: int, user_id: int, count: int = history.LOG_COUNT
                  ) -> Reply:
        return await self.looking_back.log(channel_id, user_id, count)

    async def since(self, channel_id: int, user_id: int) -> Reply:
        return await self.looking_back.since(channel_id, user_id)

    async def ask_undo(self, channel_id: int, user_id: int) -> Reply | undo.Asked:
        return await self.takeback.ask(channel_id, user_id)

    async def answer_undo(self, channel_id: int, user_id: int, game: int, version: int,
                          digest: str, *, agree: bool) -> Reply:
        return await self.takeback.answer(channel_id, user_id, game, version, digest,
                                          agree=agree)

    async def withdraw_undo(self, channel_id: int, game: int, version: int,
                            digest: str) -> None:
        await self.takeback.withdraw(channel_id, game, version, digest)

    # -- looking (``Looking``)

    async def board(self, channel_id: int, *, clocks: bool = True) -> Reply:
        return await self.looking.board(channel_id, clocks=clocks)

    async def board_text(self, channel_id: int, user_id: int | None) -> str:
        return await self.looking.board_text(channel_id, user_id)

    async def game_of(self, channel_id: int) -> str | None:
        return await self.looking.game_of(channel_id)

    async def hand(self, channel_id: int, user_id: int) -> Reply:
        return await self.looking.hand(channel_id, user_id)

    async def seen(self, channel_id: int, user_id: int, board: Picture | None = None,
                   version: int = 0) -> Picture | None:
        """The caller's picture as their seat sees the table now (``Looking.seen``)."""
        return await self.looking.seen(channel_id, user_id, board, version)

    async def status(self, channel_id: int) -> Reply:
        return await self.looking.status(channel_id)

    async def choices(self, channel_id: int, user_id: int) -> Choices:
        return await self.looking.choices(channel_id, user_id)

    async def legal_moves(self, channel_id: int, user_id: int) -> list[str]:
        """The caller's legal moves, free ones first (none unless seated and awaited)."""
        return (await self.looking.choices(channel_id, user_id)).moves

    async def hint(self, channel_id: int, user_id: int) -> str:
        return await self.looking.hint(channel_id, user_id)

    async def waiting(self, channel_id: int) -> list[tuple[int, str]]:
        return await self.looking.waiting(channel_id)

    # -- replays (``Replays``): they read, never write

    async def replay(self, channel_id: int, user_id: int, table: int | None = None,
                     move: int | None = None) -> Frame:
        """Move ``move`` (None: the deal) of table ``table`` of this channel (None: its
        last finished one, else its running one), as ``user_id`` may see it."""
        return await self.replays.show(channel_id, user_id, table, move)

    async def replay_tables(self, channel_id: int, typed: str = "") -> list[Listed]:
        """The channel's tables a replay may show, newest first (autocomplete)."""
        return await self.replays.listed(channel_id, typed)

    async def replay_animation(self, channel_id: int, table: int | None = None
                               ) -> tuple[str, bytes]:
        """The table's whole game (so far) animated: what it is, and the GIF."""
        return await self.replays.animation(channel_id, table)

    # -- the outbox (``Outbox``)

    async def delivered(self, reply: Reply) -> None:
        await self.outbox.delivered(reply)

    async def undelivered(self) -> list[tuple[int, Reply]]:
        return await self.outbox.undelivered()

    async def sweep(self, older_than: float) -> list[tuple[int, Reply]]:
        return await self.outbox.sweep(older_than)

    async def undelivered_in(self, channel_id: int) -> list[Reply]:
        return await self.outbox.undelivered_in(channel_id)

    async def turn_message(self, game: int) -> int:
        """The channel message telling of the game's turn under way (0: none now)."""
        found = await self.store.deliveries.turn_message(game)
        return found.message_id if found is not None else 0

    async def set_turn_message(self, game: int, message_id: int, version: int) -> None:
        """From ``version`` on, the game's turn is told in ``message_id`` (0: in none:
        the next step starts a new message)."""
        await self.store.deliveries.set_turn_message(game, message_id, version)
