"""Tables in threads (issue 40): a thread is a channel, so a table opened in one plays
there as in any channel; this is what the service keeps and says about it besides.

- **Where tables open.** A server's setting (``store.threads.place``): ``channel`` (the
  product's default: where ``/game new`` is used), ``thread`` or ``private`` (a new thread,
  public or private, of that channel). ``/game new thread:`` overrides it per table.
- **The threads opened.** ``opened`` records the thread the surface made for a table (its
  parent channel and whether it is private), ``noticed`` the parent's message that tells
  of it. ``of`` says whether a channel is such a thread (kept per process: a thread's row
  never changes channel, and a channel that is none is asked again only after a restart).
- **The parent's notice.** One message in the parent channel per table: while the table
  is open, who opened it and a Join button (the surface words it); once it starts, who
  plays; once it is over, the result (or that it was ended). ``notice`` says what it
  should say after a reply, only when that changes (``stage``: 'open', 'playing', 'over'),
  and at most once across processes (the stage moves by a conditional write).
- **Its name.** ``thread_name``: the game, the table's number and its players, within
  Discord's 100 characters, each member's name cut short.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot import words
from bot.records import GameRow, ThreadRow
from bot.service.table import Table, TableError
from bot.service.tables import Tables
from bot.store import Store
from bot.store.threads import PLACES
from rules.core import listing, quote

NAME_LIMIT = 100  # Discord's limit on a channel's (a thread's) name
MEMBER_LIMIT = 24  # a member's name in a thread's name, at most
STAGES = {"open": "open", "playing": "playing"}  # a game's status -> its notice's stage


def short(name: str, limit: int = MEMBER_LIMIT) -> str:
    """A member's name cut short as ``quote`` cuts what members type, without the quotes
    (a thread's name shows no markup)."""
    return quote(name, limit)[1:-1]


def thread_name(game: str, table: int | None, names: list[str]) -> str:
    """'Cube Conquest · table 12 · alice, bob': the game, the table's number (once it has
    one) and its players, cut to fit Discord's 100 characters (names shorter first)."""
    name = game
    for limit in (MEMBER_LIMIT, 12, 6):
        players = ", ".join(short(n, limit) for n in names)
        if table is None:
            name = words.say("threads.name_open", game=game, players=players)
        else:
            name = words.say("threads.name", game=game, table=table, players=players)
        if len(name) <= NAME_LIMIT:
            return name
    return name[:NAME_LIMIT - 1] + "…"


@dataclass(frozen=True)
class Notice:
    """What the parent channel's message about a thread's table says once the table
    starts or ends (its Join button goes then): its ``text``, the thread's new name
    (``name``, at the start, with every player; None: unchanged), and whether the thread is
    to be archived now (``archive``: the table is over and told)."""

    parent_id: int
    notice_id: int | None
    text: str
    name: str | None = None
    archive: bool = False


class Threads:
    """The server's place for tables, the threads opened for tables, their notices."""

    def __init__(self, store: Store, tables: Tables) -> None:
        self.store = store
        self.tables = tables
        self._rows: dict[int, ThreadRow | None] = {}  # channel -> its thread row, if read

    # -- the server's setting

    async def place(self, guild_id: int) -> str:
        """Where ``/game new`` opens a table in this server when not told."""
        return await self.store.threads.place(guild_id)

    async def set_place(self, guild_id: int, place: str) -> None:
        if place not in PLACES:
            raise ValueError(f"not a place for tables: {place!r}")
        await self.store.threads.set_place(guild_id, place)

    # -- the threads opened

    async def opened(self, thread_id: int, guild_id: int | None, parent_id: int, *,
                     private: bool, notice_id: int | None = None) -> ThreadRow:
        """Record the thread just made for the table just opened in it (and the parent's
        message it was started from, if any), at the stage its game is at: a table
        recorded once it has started (a league's) is not renamed as if it had just begun."""
        game = await self.store.tables.active_game(thread_id)
        if game is None:
            raise TableError(words.say("threads.said.gone"))
        row = ThreadRow(thread_id, guild_id, parent_id, game.id, notice_id=notice_id,
                        private=private, stage=STAGES.get(game.status, "over"))
        await self.store.threads.add(row)
        self._rows[thread_id] = row
        return row

    async def noticed(self, thread_id: int, notice_id: int) -> None:
        """The parent's message about the thread's table, once posted."""
        await self.store.threads.notice(thread_id, notice_id)
        row = self._rows.get(thread_id)
        if row is not None:
            self._rows[thread_id] = replace(row, notice_id=notice_id)

    async def of(self, channel_id: int) -> ThreadRow | None:
        """The thread the bot opened as this channel, if it is one."""
        if channel_id not in self._rows:
            self._rows[channel_id] = await self.store.threads.of(channel_id)
        return self._rows[channel_id]

    async def running(self, channel_id: int) -> bool:
        """Whether the channel (a thread) holds an open or running table: it is kept open."""
        return await self.store.tables.active_game(channel_id) is not None

    # -- the parent's notice

    async def notice(self, channel_id: int, game_id: int = 0) -> Notice | None:
        """What the parent's message says now about this thread's table, if that changed
        since it was last told (None: not a table's thread, or nothing new). ``game_id``:
        the game a reply just posted is about (another game of the thread tells nothing).
        The first caller to see a change tells it, in any process."""
        row = await self.of(channel_id)
        if row is None or (game_id and game_id != row.game_id):
            return None
        game = await self.store.tables.game(row.game_id)
        if game is None:
            return None
        stage = STAGES.get(game.status, "over")
        if stage == row.stage:
            return None
        if not await self.store.threads.stage(channel_id, row.stage, stage):
            self._rows.pop(channel_id, None)  # another process told it: read again
            return None
        self._rows[channel_id] = replace(row, stage=stage)
        table = await self.tables.load(game)
        return Notice(row.parent_id, row.notice_id, self.said(table, game, stage),
                      name=thread_name(table.game.name, table.id, table.names())
                      if stage == "playing" else None,
                      archive=stage == "over")

    def said(self, table: Table, game: GameRow, stage: str) -> str:
        channel = table.channel_id
        name = table.game.name
        players = listing([table.who(s.seat) for s in table.seats])
        if stage == "playing":
            return words.say("threads.notice_playing", game=name, channel=channel,
                             players=players)
        outcome = table.game.outcome(table.state) if table.state is not None else None
        if game.status != "over" or outcome is None:
            return words.say("threads.notice_ended", game=name, channel=channel,
                             players=players)
        winners = listing([table.who(seat) for seat in sorted(outcome.winners)])
        scores = ", ".join(f"{table.who(s.seat)} {score}"
                           for s, score in zip(table.seats, outcome.scores, strict=False))
        return words.say("threads.notice_over", game=name, channel=channel,
                         count=max(1, len(outcome.winners)), winners=winners or players,
                         scores=scores)
