"""The table service: one table per channel, from opening to the last move, without Discord.

Every surface (the Discord adapter, the terminal's try-it mode, tests, benchmarks) calls this
service and gets back a ``Reply``: what to say in the channel, what each player reads in
private, and what the caller alone is told. Replies are built only from ``view()`` and from
events, so nothing hidden can leak into the channel.

Consistency, in short (details in ``bot/README.md``): each channel has a lock, a move is one
conditional write of the state with its version, a move is committed before its reply is
built, and a reply stays in the outbox (``undelivered``) until ``delivered`` is called.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

import render
import rules
from bot import fairness, history, ratings, recap, scheduler, undo
from bot.store import (
    ChannelBusy,
    GameRow,
    MoveRow,
    PlayerRow,
    Rated,
    SeatRow,
    SeatTaken,
    StoreError,
    UndoRow,
    WaitRow,
)
from bot.stores import TableStore
from rules import computer
from rules.core import listing, normalize, quote

log = logging.getLogger("boardroom.service")

NAME_LIMIT = 32  # Discord display names are at most 32 characters
CHAIN_LIMIT = 10_000  # computer moves in a row before the service stops to ask why
Shown = tuple[Hashable, dict[str, Any]]  # a view, and what names it among pictures
PICTURE_CACHE = 64  # pictures kept, keyed by what their view shows (``_shown``)


SET_ASIDE = ("This channel's game could not be read from the database and has been set "
             "aside; the bot's operator has been told. Open a new one with /game new.")


class TableError(rules.GameError):
    """A table-level refusal (no table, busy channel, not seated, stale button...).

    ``str(error)`` is a sentence the player reads; nothing was changed.
    """


class TableSetAside(TableError):
    """The channel's table could not be read from the database and was set aside."""

    def __init__(self) -> None:
        super().__init__(SET_ASIDE)


@dataclass(frozen=True)
class Picture:
    """An image and the one line that says what it shows (screen readers, notifications);
    ``more`` holds a second image where one would be too tall (a seat's private part under
    the table), attached with it."""

    png: bytes
    summary: str
    more: tuple[bytes, ...] = ()


@dataclass(frozen=True)
class Private:
    """What one human player reads in private (a DM): their events and their own view."""

    user_id: int
    text: str
    picture: Picture | None


@dataclass(frozen=True)
class Reply:
    """What an action says.

    ``public`` and ``picture`` go to the channel. ``private`` holds one entry per human whose
    private view changed or who got private events. ``ephemeral`` is for the caller alone
    (for a secret pick, what they picked: ``public`` only says that a choice was made).
    ``mention`` lists the humans awaited next; ``version`` is the state version after the
    action (0 before the start) and ``game`` the stored game it is about (0 before a table
    exists): ``delivered(reply)`` marks exactly that game's version posted. For ``hand``,
    ``private`` holds the caller's own view, meant for an ephemeral answer rather than a DM.
    """

    public: str = ""
    picture: Picture | None = None
    private: tuple[Private, ...] = ()
    ephemeral: str = ""
    mention: tuple[int, ...] = ()
    version: int = 0
    game: int = 0
    over: bool = False
    recap: Picture | None = None  # the end of a game: its points over time (bot/recap.py)
    # The DMs' pictures, in the order of ``private``, drawn after the channel's picture so
    # that when the channel hears of a move never depends on what the DMs show (their
    # drawing time does). None: ``private`` already holds its pictures.
    drawing: asyncio.Future[list[Picture | None]] | None = field(
        default=None, compare=False, repr=False)

    async def with_pictures(self) -> Reply:
        """This reply with its DMs' pictures, once drawn: post the channel's part first."""
        if self.drawing is None:
            return self
        pictures = await self.drawing
        return replace(self, drawing=None, private=tuple(
            replace(p, picture=picture)
            for p, picture in zip(self.private, pictures, strict=True)))


@dataclass(frozen=True)
class Tended:
    """What the scheduler has to deliver for a wait that was due: a stand-in's move (a
    ``reply`` for ``channel_id``), or a reminder for ``user_id`` (``text``, naming the
    channel and the game)."""

    channel_id: int
    reply: Reply | None = None
    user_id: int = 0
    text: str = ""


@dataclass
class _Table:
    """A table as the service holds it: the stored row, its seats, and the loaded state."""

    id: int
    channel_id: int
    game: rules.Game[Any]
    options: dict[str, Any]
    status: str
    opener_id: int
    seats: list[SeatRow]
    seed: int | None = None
    state: Any = None
    version: int = 0
    colours: list[str] = field(default_factory=list)
    # What each human seat alone could see after the last reply, and at which version.
    parts: dict[int, dict[str, Any]] = field(default_factory=dict)
    parts_version: int = -1
    # ``game.moves`` per seat of ``legal_state``, the state at ``legal_version``: worked
    # out once per state, for autocomplete (it asks on every keystroke) and for ``play``.
    legal: dict[int, dict[str, Any]] = field(default_factory=dict)
    legal_version: int = -1
    legal_state: Any = None
    named: re.Pattern[str] | None = None  # finds colour words, for naming players
    shown: Callable[[str], str] = str  # a name as the surface shows it in text (escaped)
    turn_time: float | None = None  # seconds a turn may take (None: no limit)
    reminders: bool = True
    waits: dict[int, WaitRow] | None = None  # the stored waits, once read
    salt: str | None = None  # secret until the game is over (``bot.fairness``)
    commitment: str | None = None  # SHA-256 of the seed and the salt, posted at the start
    rated: Rated | None = None  # how the last move counted for the ratings

    def listed(self) -> dict[int, dict[str, Any]]:
        """The moves worked out so far for the current state (seat -> ``game.moves``).

        A state is never changed once the table holds it (``play`` returns a new one), and
        every new state comes with a new version; the cache is keyed by both anyway.
        """
        if self.legal_version != self.version or self.legal_state is not self.state:
            self.legal, self.legal_version, self.legal_state = {}, self.version, self.state
        return self.legal

    def moves(self, seat: int) -> dict[str, Any]:
        """``game.moves`` of ``seat`` now (empty unless awaited): canonical move -> detail.

        Shared with later calls at this state: callers must not change it.
        """
        listed = self.listed()
        moves = listed.get(seat)
        if moves is None:
            moves = listed[seat] = (self.game.moves(self.state, seat)
                                    if seat in self.awaited() else {})
        return moves

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def names(self) -> list[str]:
        """The seats' names as players gave them: for views (pictures), never for text."""
        return [s.name for s in self.seats]

    def who(self, seat: int) -> str:
        """A seat's name for a sentence, as the surface shows names (escaped in Discord);
        a player who resigned is marked so."""
        row = self.seats[seat]
        if row.handed == "resigned":
            return f"{self.shown(row.name)} (resigned)"
        return self.shown(row.name)

    def label(self, seat: int) -> str:
        """'Alice (Blue)': the player and the colour the rules call them by."""
        name = self.who(seat)
        if seat < len(self.colours):
            return f"{name} ({self.colours[seat]})"
        return f"{name} (seat {seat + 1})"

    def opener(self) -> str:
        return next((self.shown(s.name) for s in self.seats if s.user_id == self.opener_id),
                    "the opener")

    def computers(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "computer"]

    def level(self) -> str:
        """The table's computer level: its computer players', else greedy (stand-ins)."""
        return next((s.level for s in self.seats if s.kind == "computer" and s.level
                     and s.handed is None), "greedy")

    def settings(self) -> str:
        """'Turn time: 2d; reminders on.'"""
        clock = ("no turn time" if self.turn_time is None
                 else f"turn time {scheduler.duration(self.turn_time)}")
        return f"Settings: {clock}; reminders {'on' if self.reminders else 'off'}."

    def awaited(self) -> frozenset[int]:
        return self.game.to_act(self.state) if self.state is not None else frozenset()

    def seat_range(self) -> str:
        game = self.game
        if game.min_players == game.max_players:
            return f"{game.min_players} players"
        return f"{game.min_players}-{game.max_players} players"


# --------------------------------------------------------------------------- helpers


def encode(game: rules.Game[Any], state: Any) -> str:
    """A state as the JSON the database keeps: ``game.dump(state)``.

    For a game that keeps the base ``dump`` (the format marker, then the state's fields),
    the fields are written straight from the state, skipping the copy ``dump`` makes to
    hand out a dict: the same text, without copying state on every move.
    """
    if type(game).dump is rules.Game.dump:
        return json.dumps({"format": 1, **vars(state)}, separators=(",", ":"))
    return json.dumps(game.dump(state), separators=(",", ":"))


def decode(game: rules.Game[Any], text: str) -> Any:
    return game.load(json.loads(text))


def replay(game: rules.Game[Any], players: int, seed: int,
           options: dict[str, Any] | None, moves: Iterable[MoveRow]
           ) -> tuple[Any, list[list[rules.Event]]]:
    """The state after the logged ``moves`` (from version 1), and each entry's events. An
    undo entry goes back to the state before the moves it takes back (``undo.replay``)."""
    return undo.replay(game, players, seed, options, list(moves))


def move_digest(game: int, version: int, move: str) -> str:
    """What a move button carries instead of its move: 12 hex digits of a SHA-256 of the
    stored game, the state version and the move, so it matches that move there and then
    and nothing else."""
    return hashlib.sha256(f"{game}/{version}/{move}".encode()).hexdigest()[:12]


def clean_name(name: str) -> str:
    """A display name on one line, at most 32 characters."""
    return " ".join(str(name).split())[:NAME_LIMIT] or "Player"


def _private_part(seat_view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view holds beyond the spectator's: the part only that seat knows."""
    return {k: v for k, v in seat_view.items() if k != "seat" and public.get(k) != v}


def _colours(view: dict[str, Any], players: int) -> list[str]:
    """The seat colours the rules' events use ('Blue'), when the view lists them."""
    colours = view.get("colours")
    if isinstance(colours, list) and len(colours) == players and all(
            isinstance(c, str) for c in colours):
        return [c.capitalize() for c in colours]
    return []


# --------------------------------------------------------------------------- the service


def parse_options(text: str | None) -> dict[str, Any]:
    """Options as players type them: ``advanced``, ``variant=couples connect=any``.

    A bare word is switched on (True); ``key=value`` gives a value (whole numbers of up to
    six digits and true/false are understood; anything else stays text). The game itself
    says whether it knows them and their values (``Game.check_options``).
    """
    options: dict[str, Any] = {}
    for word in (text or "").replace(",", " ").split():
        key, sep, value = word.partition("=")
        key, lowered = key.strip().lower(), value.strip().lower()
        if not key or (sep and not lowered):
            raise TableError(f"{quote(word)} is not an option; write e.g. 'advanced' or "
                             "'variant=couples'.")
        if not sep or lowered == "true":
            options[key] = True
        elif lowered == "false":
            options[key] = False
        elif lowered.isascii() and lowered.isdigit() and len(lowered) <= 6:
            options[key] = int(lowered)
        else:
            options[key] = lowered
    return options


class TableService:
    """Tables in channels: open, join, leave, start, play, end, and looking at them.

    Every method takes the channel's lock, so commands on one channel run one at a time;
    different channels never wait for each other except on the database.
    """

    def __init__(self, store: TableStore, *, images: bool = True,
                 shown: Callable[[str], str] = str,
                 now: Callable[[], float] = time.time) -> None:
        """``shown`` turns a player's name into what a sentence shows: as it is for the
        terminal, escaped (no markdown, no mentions) for Discord. ``now`` is the clock
        (seconds since the epoch): every time the service stores or compares comes from
        it, so a test can run days at once."""
        self.store = store
        self.now = now
        # Told of each new due moment of a wait (the scheduler wakes early for it).
        self.on_due: Callable[[float], None] | None = None
        self._players: dict[int, PlayerRow] = {}  # quiet hours and marks, once read
        self._thinkers: ProcessPoolExecutor | None = None  # 'strong' computer players
        self.images = images
        self.shown = shown
        self._tables: dict[int, _Table] = {}
        self._set_aside: set[int] = set()  # games set aside by this process (logged once)
        self._locks: dict[int, asyncio.Lock] = {}
        self._pictures: OrderedDict[Hashable, Picture] = OrderedDict()
        self._painters: ThreadPoolExecutor | None = None
        self._drawing = asyncio.Semaphore(2 * _cores())

    def _painter(self) -> ThreadPoolExecutor:
        """Threads that draw pictures, one per core we may use: the event loop stays free
        while Pillow draws, and no more pictures are held in memory at once than cores."""
        if self._painters is None:
            self._painters = ThreadPoolExecutor(max_workers=_cores(),
                                                thread_name_prefix="boardroom-render")
        return self._painters

    def close(self) -> None:
        """Stop the worker processes of strong computer players (if any started)."""
        if self._thinkers is not None:
            self._thinkers.shutdown(wait=False, cancel_futures=True)
            self._thinkers = None

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # ----------------------------------------------------------------- loading tables

    async def _load(self, row: GameRow) -> _Table:
        """The table a stored row holds. A row that cannot be read (options or state that
        are not valid JSON, a state ``game.load`` refuses, a game no longer known) is set
        aside, and ``TableSetAside`` says so; every other table goes on."""
        if row.damaged and row.status not in ("open", "playing") and (
                row.announced >= row.version):
            raise TableSetAside()  # set aside already
        try:
            if row.damaged:
                raise ValueError(row.damaged)
            return await self._read(row)
        except StoreError:
            raise  # the database, not the row: nothing to set aside
        except Exception as error:
            await self._put_aside(row, error)
            raise TableSetAside() from None

    async def _put_aside(self, row: GameRow, error: Exception) -> None:
        """Set an unreadable table aside: logged once, marked in the store (which frees
        its channel), and forgotten here."""
        current = self._tables.get(row.channel_id)
        if current is not None and current.id == row.id:
            del self._tables[row.channel_id]
        if row.id in self._set_aside:
            return
        self._set_aside.add(row.id)
        log.error("Game %s in channel %s could not be read from the database and is set "
                  "aside (%s: %s); its rows stay in the file", row.id, row.channel_id,
                  type(error).__name__, error)
        try:
            await self.store.set_aside(row.id, f"{type(error).__name__}: {error}",
                                       now=self.now())
        except Exception:
            log.exception("Could not mark game %s as set aside", row.id)

    async def _read(self, row: GameRow) -> _Table:
        game = rules.GAMES.get(row.game)
        if game is None:
            raise ValueError(f"there is no game called {row.game!r}")
        table = _Table(id=row.id, channel_id=row.channel_id, game=game, options=row.options,
                       status=row.status, opener_id=row.opener_id,
                       seats=await self.store.seats(row.id), seed=row.seed,
                       version=row.version, shown=self.shown, turn_time=row.turn_time,
                       reminders=row.reminders, salt=row.salt, commitment=row.commitment)
        if row.state is not None:
            table.state = decode(game, row.state)
            table.colours = _colours(game.view(table.state, None), len(table.seats))
        return table

    async def _active(self, channel_id: int) -> _Table:
        """The channel's open or running table, or a sentence saying there is none."""
        table = self._tables.get(channel_id)
        if table is not None:
            return table
        row = await self.store.active_game(channel_id)
        if row is None:
            latest = await self.store.latest_game(channel_id)
            if latest is not None and latest.damaged:
                raise TableSetAside()
            if latest is not None and latest.status in ("over", "ended"):
                raise TableError("The game in this channel is over; open a new one with "
                                 "/game new.")
            raise TableError("There is no game in this channel. Open one with /game new.")
        table = self._tables[channel_id] = await self._load(row)
        return table

    async def _latest(self, channel_id: int) -> _Table:
        """The running table, else the channel's last one (to look at a finished game)."""
        try:
            return await self._active(channel_id)
        except TableError:
            row = await self.store.latest_game(channel_id)
            if row is None:
                raise
            return await self._load(row)

    async def _running(self, channel_id: int) -> _Table:
        table = await self._active(channel_id)
        if table.status == "open":
            raise TableError(f"The game hasn't started yet; {table.opener()} starts it with "
                             "/game start.")
        return table

    def _forget(self, table: _Table) -> None:
        self._tables.pop(table.channel_id, None)

    async def _reload(self, table: _Table) -> None:
        """Drop a table whose stored row changed under us (another process wrote it)."""
        self._forget(table)
        row = await self.store.game(table.id)
        if row is not None and row.status in ("open", "playing"):
            self._tables[table.channel_id] = await self._load(row)

    # ----------------------------------------------------------------- before the start

    async def open(self, channel_id: int, guild_id: int | None, user_id: int, name: str,
                   game_id: str, options: dict[str, Any] | None = None) -> Reply:
        """Open a table for ``game_id`` in this channel; the opener takes seat 0."""
        game = rules.GAMES.get(game_id)
        if game is None:
            raise TableError(f"There is no game called '{game_id}'. Games: "
                             f"{listing(sorted(rules.GAMES))}.")
        options = dict(options or {})
        game.check_options(options)
        refusals: list[rules.GameError] = []
        for players in range(game.min_players, game.max_players + 1):
            try:  # the seat count is checked at the start; here the options must fit one
                game.new(players, 0, options or None)
                break
            except rules.GameError as refusal:
                refusals.append(refusal)
            except Exception as error:
                raise TableError(f"Those options don't fit {game.name}.") from error
        else:
            raise refusals[-1]
        async with self._lock(channel_id):
            name = clean_name(name)
            try:
                row = await self.store.create_game(channel_id, guild_id, game.id, options,
                                                   user_id, name, now=self.now())
            except ChannelBusy:
                try:
                    busy = await self._active(channel_id)
                except TableSetAside:  # the table there could not be read: now it is aside
                    busy = None
                if busy is not None:
                    raise TableError(f"This channel already has a table for "
                                     f"{busy.game.name}, opened by {busy.opener()}. Join it "
                                     "with /game join, or end it with /game end first."
                                     ) from None
                row = await self.store.create_game(channel_id, guild_id, game.id, options,
                                                   user_id, name, now=self.now())
            table = self._tables[channel_id] = await self._load(row)
            return Reply(public=f"{self.shown(name)} opened a table for {game.name} "
                                f"({table.seat_range()}). Take a seat with /game join; "
                                f"{self.shown(name)} starts the game with /game start.")

    def _check_lobby(self, table: _Table) -> None:
        if table.status != "open":
            raise TableError("The game has already started; seats are fixed until it ends.")

    def _seated_line(self, table: _Table) -> str:
        return (f"{len(table.seats)} of {table.seat_range()} seated: "
                f"{listing([table.who(s.seat) for s in table.seats])}.")

    async def _sit(self, table: _Table, user_id: int | None, name: str, kind: str,
                   level: str | None = None) -> None:
        if len(table.seats) >= table.game.max_players:
            raise TableError(f"The table is full: {table.game.name} takes at most "
                             f"{table.game.max_players} players.")
        try:
            await self.store.add_seat(table.id, len(table.seats), user_id, name, kind, level)
        except SeatTaken:
            await self._reload(table)
            raise TableError("Someone took that seat at the same moment; try again.") from None
        table.seats.append(SeatRow(len(table.seats), user_id, name, kind, level))

    async def join(self, channel_id: int, user_id: int, name: str) -> Reply:
        """Take the next seat at the channel's table before it starts."""
        async with self._lock(channel_id):
            table = await self._active(channel_id)
            self._check_lobby(table)
            if table.seat_of(user_id) is not None:
                raise TableError("You already have a seat at this table.")
            name = clean_name(name)
            await self._sit(table, user_id, name, "human")
            return Reply(public=f"{self.shown(name)} takes a seat. "
                                f"{self._seated_line(table)}")

    async def leave(self, channel_id: int, user_id: int) -> Reply:
        """Give up one's seat before the start (the opener ends the table instead)."""
        async with self._lock(channel_id):
            table = await self._active(channel_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat at this table.")
            if table.status != "open":
                raise TableError("The game has started, so seats are fixed; the opener or a "
                                 "moderator can stop it with /game end.")
            if user_id == table.opener_id:
                raise TableError("You opened this table, so you can't leave it; end it with "
                                 "/game end instead.")
            return await self._unseat(table, seat, "leaves the table")

    async def _unseat(self, table: _Table, seat: int, verb: str) -> Reply:
        name = table.who(seat)
        await self.store.remove_seat(table.id, seat)
        table.seats = await self.store.seats(table.id)
        return Reply(public=f"{name} {verb}. {self._seated_line(table)}")

    def _check_opener(self, table: _Table, user_id: int, what: str) -> None:
        if user_id != table.opener_id:
            raise TableError(f"Only {table.opener()}, who opened this table, can {what}.")

    async def add_computer(self, channel_id: int, user_id: int,
                           level: str = "greedy") -> Reply:
        """The opener seats a computer player of ``level`` (``rules.computer.LEVELS``)
        before the start."""
        if level not in computer.LEVELS:
            raise TableError(f"There is no computer level {quote(level)}; the levels are "
                             f"{listing(list(computer.LEVELS))}.")
        async with self._lock(channel_id):
            table = await self._active(channel_id)
            self._check_lobby(table)
            self._check_opener(table, user_id, "add a computer player")
            taken = {s.name for s in table.seats}
            name = next(f"Computer {n}" for n in range(1, len(taken) + 2)
                        if f"Computer {n}" not in taken)
            await self._sit(table, None, name, "computer", level)
            return Reply(public=f"{self.shown(name)} ({level}) takes a seat. "
                                f"{self._seated_line(table)}")

    async def remove_computer(self, channel_id: int, user_id: int) -> Reply:
        """The opener takes the last computer player off the table before the start."""
        async with self._lock(channel_id):
            table = await self._active(channel_id)
            self._check_lobby(table)
            self._check_opener(table, user_id, "remove a computer player")
            computers = table.computers()
            if not computers:
                raise TableError("There is no computer player at this table.")
            return await self._unseat(table, computers[-1], "leaves the table")

    async def start(self, channel_id: int, user_id: int, *, seed: int | None = None) -> Reply:
        """The opener deals and begins once the seat count fits the game.

        The seed comes from ``secrets`` unless given (tests and the try-it mode's --seed).
        """
        async with self._lock(channel_id):
            table = await self._active(channel_id)
            self._check_opener(table, user_id, "start the game")
            if table.status != "open":
                raise TableError("The game has already started.")
            game, players = table.game, len(table.seats)
            if not game.min_players <= players <= game.max_players:
                raise TableError(
                    f"{game.name} takes {table.seat_range()}; this table has {players}. "
                    "Ask someone to /game join, or add a computer player.")
            seed = secrets.randbelow(2**63) if seed is None else seed
            salt = secrets.token_hex(16)  # so that the commitment hides the seed
            committed = fairness.commitment(seed, salt)
            state = game.new(players, seed, table.options or None)
            if not await self.store.start_game(table.id, seed, encode(game, state),
                                               salt=salt, commitment=committed,
                                               now=self.now()):
                await self._reload(table)
                raise TableError("The table changed at the same moment; try again.")
            before: dict[int, dict[str, Any]] = {
                s.seat: {} for s in table.seats if s.kind == "human"}
            table.status, table.seed, table.state, table.version = "playing", seed, state, 1
            table.salt, table.commitment = salt, committed
            table.colours, table.named = _colours(game.view(state, None), players), None
            said: list[tuple[int | None, rules.Event]] = []
            await self._computers_move(table, said)
            await self._sync_waits(table)
            opening = (f"{game.name} begins: "
                       f"{listing([table.label(s.seat) for s in table.seats])}.\n"
                       f"{fairness.announced(committed)}")
            return await self._reply(table, said, before, None, opening=opening)

    # ----------------------------------------------------------------- playing

    async def play(self, channel_id: int, user_id: int, text: str, *,
                   version: int | None = None, game: int | None = None) -> Reply:
        """Make a move for the caller's seat; computer players then act until a human must.

        Checks, in order: a running table, a seat, the game and version (for buttons), the
        turn;
        then the rules (their ``GameError`` passes through unchanged). A refused move
        changes nothing. The move is committed before the reply is built.
        """
        async with self._lock(channel_id):
            table = await self._running(channel_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat in this game.")
            if game is not None and game != table.id:
                raise TableError("That button is from an earlier game in this channel; it "
                                 "does nothing now.")
            if version is not None and version != table.version:
                raise TableError("That button is from an earlier turn; the game has moved on. "
                                 "Look at the latest board and try again.")
            awaited = table.awaited()
            if seat not in awaited:
                raise TableError(self._not_your_turn(table))
            before = (table.parts if table.parts_version == table.version
                      else self._private_parts(table))
            state, events = table.game.play(table.state, seat, text, legal=table.moves(seat))
            move = self._canonical(table, seat, text)
            await self._commit(table, seat, move, state)
            said: list[tuple[int | None, rules.Event]] = [(seat, e) for e in events]
            await self._computers_move(table, said)
            await self._sync_waits(table, moved={seat})
            return await self._reply(table, said, before, user_id)

    async def button_move(self, channel_id: int, user_id: int, game: int, version: int,
                          digest: str) -> str:
        """The move a button carries (see ``move_digest``), if it is still the clicker's
        to make: in this channel's current game, at this version, among their legal moves.
        Otherwise a ``TableError`` says why; nothing is played here."""
        async with self._lock(channel_id):
            table = await self._running(channel_id)
            if game != table.id:
                raise TableError("That button is from an earlier game in this channel; it "
                                 "does nothing now.")
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat in this game.")
            if version != table.version:
                raise TableError("That button is from an earlier turn; the game has moved "
                                 "on. Look at the latest board and try again.")
            if seat not in table.awaited():
                raise TableError(self._not_your_turn(table))
            move = next((m for m in table.moves(seat)
                         if move_digest(game, version, m) == digest), None)
            if move is None:
                raise TableError("That button's move is not one of your moves now; use the "
                                 "latest message or /play.")
            return move

    def _not_your_turn(self, table: _Table) -> str:
        waiting = listing([table.label(s) for s in sorted(table.awaited())])
        return f"It is not your turn: the game is waiting for {waiting}."

    def _canonical(self, table: _Table, seat: int, text: str) -> str:
        """The move in the game's canonical notation, for the log (the raw text if not)."""
        typed = normalize(text)
        if typed in table.listed().get(seat, ()):
            return typed  # already canonical: it is one of the listed moves
        try:
            return table.game.parse(table.state, seat, normalize(text))
        except rules.GameError:
            return normalize(text)

    async def _commit(self, table: _Table, seat: int, move: str, state: Any) -> None:
        """Write one move: state and version + 1 and the log, only if nobody wrote first."""
        if undo.is_entry(move):  # the log's word for taking moves back (``_take_back``)
            raise TableError(f"{quote(move)} is not a move of {table.game.name}.")
        over = table.game.outcome(state) is not None
        if over:  # the last move, written with the ratings it changes (``bot.ratings``)
            table.rated = await self._finish(table, seat, move, state)
            written = table.rated is not None
        else:
            written = await self.store.commit_move(table.id, table.version, seat, move,
                                                   encode(table.game, state), now=self.now())
        if not written:
            await self._reload(table)
            raise TableError("Someone else moved at the same moment and the game moved on. "
                             "Look at the latest board and try again.")
        table.state, table.version = state, table.version + 1
        if over:
            table.status = "over"
            self._forget(table)

    async def _finish(self, table: _Table, seat: int, move: str, state: Any
                      ) -> Rated | None:
        """Write the move that ends the game with what it does to the ratings, in one
        transaction (``Store.finish_game``); None if another writer moved the game on
        first."""
        outcome, now = table.game.outcome(state), self.now()
        assert outcome is not None
        return await self.store.finish_game(
            table.id, table.version, seat, move, encode(table.game, state),
            users=tuple(s.user_id or 0 for s in table.seats),
            unrated=ratings.seated_reason(table.seats),
            rate=ratings.rater(table.game.id, outcome, table.seats, now), now=now)

    async def _computers_move(self, table: _Table, said: list[tuple[int | None, rules.Event]]
                              ) -> None:
        """Computer players whose input is awaited move (``rules.computer.choose`` at the
        seat's level; a seat stored without one plays at random).

        Each move is its own transaction. A computer's choice is drawn from the game's seed
        and the version, so a game replays the same with the same seed. If anything fails,
        the chain stops where it is; the outbox finishes it after a restart.
        """
        computers = set(table.computers())
        game = table.game
        for _ in range(CHAIN_LIMIT):
            if table.status != "playing":
                return
            waiting = sorted(computers & table.awaited())
            if not waiting:
                return
            seat = waiting[0]
            try:
                legal = table.moves(seat)
                move = await self._choice(table, seat, table.seats[seat].level or "random")
                state, events = game.play(table.state, seat, move, legal=legal)
                await self._commit(table, seat, move, state)
            except TableError:
                return  # another process moved this table on; it carries on from there
            except Exception:
                log.exception("A computer player could not move in channel %s",
                              table.channel_id)
                return
            said.extend((seat, e) for e in events)
        log.error("Computer players made %s moves in a row in channel %s; stopping",
                  CHAIN_LIMIT, table.channel_id)

    async def _choice(self, table: _Table, seat: int, level: str) -> str:
        """A computer player's move for ``seat`` at ``level``, seeded by the table's seed,
        its version and the seat (so a game replays the same). It sees only what the seat
        sees (``rules.computer.choose``). ``strong`` thinks in a worker process, the others
        in a thread, so the event loop keeps answering other channels meanwhile."""
        digest = hashlib.sha256(f"computer/{table.seed}/{table.version}/{seat}".encode())
        seed = int.from_bytes(digest.digest()[:8], "big")
        if level == "strong":
            if self._thinkers is None:
                self._thinkers = ProcessPoolExecutor(max_workers=max(1, _cores() - 1))
            return await asyncio.wrap_future(self._thinkers.submit(
                _choose, table.game.id, table.state, seat, level, seed))
        return await asyncio.get_running_loop().run_in_executor(
            None, _choose, table.game.id, table.state, seat, level, seed)

    # ----------------------------------------------------------------- time and absence

    async def _player(self, user_id: int) -> PlayerRow:
        player = self._players.get(user_id)
        if player is None:
            player = self._players[user_id] = await self.store.player(user_id)
        return player

    async def _due(self, table: _Table, wait: WaitRow) -> float | None:
        user = table.seats[wait.seat].user_id
        player = await self._player(user) if user is not None else PlayerRow(0)
        return scheduler.next_due(wait, table.turn_time, table.reminders, player)

    async def _sync_waits(self, table: _Table, moved: Iterable[int] = (), *,
                          again: bool = False) -> None:
        """Keep the stored waits equal to the awaited human seats. A seat still awaited
        keeps its wait (its clock and the reminders it had) unless it just ``moved``; a
        newly awaited seat starts waiting now. With ``again``, every due moment is worked
        out anew (the settings or a player's quiet hours changed). The scheduler is told
        of the earliest one.

        A database that refuses the write now is logged and the waits are read again at
        the next change: the move that came before is committed and stays so."""
        try:
            await self._write_waits(table, moved, again=again)
        except StoreError:
            table.waits = None
            log.warning("Could not store the waits of game %s; they are written at its next "
                        "change", table.id, exc_info=True)

    async def _write_waits(self, table: _Table, moved: Iterable[int], *, again: bool) -> None:
        if table.waits is None:
            table.waits = {w.seat: w for w in await self.store.waits(table.id)}
            again = True
        awaited = set() if table.status != "playing" else {
            s for s in table.awaited() if table.seats[s].kind == "human"}
        fresh = awaited & set(moved)
        if awaited == set(table.waits) and not fresh and not again:
            return
        now = self.now()
        waits = {}
        for seat in sorted(awaited):
            old = table.waits.get(seat)
            wait = old if old is not None and seat not in fresh else WaitRow(table.id, seat, now)
            if old is None or seat in fresh or again:
                wait = replace(wait, due=await self._due(table, wait))
            waits[seat] = wait
        self.store.put_waits(table.id, list(waits.values()))
        table.waits = waits
        moments = [w.due for w in waits.values() if w.due is not None]
        if moments and self.on_due is not None:
            self.on_due(min(moments))

    async def next_due(self) -> float | None:
        """The earliest moment the scheduler has something to do."""
        return await self.store.next_due()

    async def due(self, now: float, limit: int = 100) -> list[WaitRow]:
        """The waits due by ``now``, earliest first."""
        return await self.store.due_waits(now, limit)

    async def postpone(self, wait: WaitRow, moment: float) -> None:
        """Try a wait again at ``moment`` (tending it failed)."""
        await self.store.set_due(wait.game_id, wait.seat, moment)

    async def tend(self, due: WaitRow) -> Tended | None:
        """Do what is due for a wait: a computer player stands in for a seat whose turn
        ran out (committed, its reply returned to be posted), or a reminder is recorded as
        sent and returned to be sent (recorded first: a crash then loses one reminder,
        it never sends one twice). None if nothing is due after all (the seat moved, the
        settings changed): the wait's next moment is stored."""
        row = await self.store.game(due.game_id)
        if row is None or row.status != "playing":
            await self.store.set_waits(due.game_id, [])
            return None
        async with self._lock(row.channel_id):
            try:
                table = await self._active(row.channel_id)
            except TableError:
                await self.store.set_waits(due.game_id, [])
                return None
            if table.id != due.game_id:
                await self.store.set_waits(due.game_id, [])
                return None
            await self._sync_waits(table)
            assert table.waits is not None
            wait = table.waits.get(due.seat)
            if wait is None:
                return None
            seat = table.seats[wait.seat]
            assert seat.user_id is not None
            player = await self._player(seat.user_id)
            now = self.now()
            end = scheduler.deadline(wait, table.turn_time, player)
            if end is not None and end <= now:
                return Tended(table.channel_id, reply=await self._stand_in(table, wait.seat))
            at = scheduler.reminder_at(wait, table.turn_time, table.reminders, player)
            if at is not None and at <= now:
                wait = replace(wait, reminded=wait.reminded + 1)
                player = self._players[seat.user_id] = replace(player, reminded=now)
                await self.store.set_player(player)
                wait = replace(wait, due=await self._due(table, wait))
                table.waits[wait.seat] = wait
                await self.store.set_waits(table.id, list(table.waits.values()))
                return Tended(table.channel_id, user_id=seat.user_id,
                              text=await self._reminder_with_digest(table, wait, end))
            wait = replace(wait, due=await self._due(table, wait))
            table.waits[wait.seat] = wait
            await self.store.set_due(table.id, wait.seat, wait.due)
            return None

    def _reminder(self, table: _Table, wait: WaitRow, end: float | None) -> str:
        """A reminder: the game, the channel (a link there) and the time left, if any."""
        text = (f"It is your turn in {table.game.name} in <#{table.channel_id}> "
                f"(move {table.version - 1}).")
        if end is not None:
            left = max(0.0, end - self.now())
            text += (f" About {_span(left)} of your turn time is left (it does not run in "
                     "your quiet hours); then a computer player moves for you this turn.")
        return text + " Play there with /play, or /hand to see your hand."

    async def mentionable(self, user_id: int) -> bool:
        """Whether a player whose DMs are closed may be mentioned in a channel instead
        (at most once a day); if so it is recorded now."""
        player = await self._player(user_id)
        now = self.now()
        if player.mentioned is not None and now - player.mentioned < scheduler.MENTION_GAP:
            return False
        player = self._players[user_id] = replace(player, mentioned=now)
        await self.store.set_player(player)
        return True

    async def _stand_in(self, table: _Table, seat: int) -> Reply:
        """A computer player of the table's level makes a late seat's move for this turn;
        the channel is told it is a stand-in. The player takes the seat back by acting
        (the next turn's clock is theirs again)."""
        level = table.level()
        before = (table.parts if table.parts_version == table.version
                  else self._private_parts(table))
        legal = table.moves(seat)
        move = await self._choice(table, seat, level)
        state, events = table.game.play(table.state, seat, move, legal=legal)
        header = (f"{table.label(seat)} ran out of time: a computer player ({level}) "
                  "stands in for this turn.")
        await self.store.mark_unrated(table.id, ratings.STOOD_IN)
        await self._commit(table, seat, move, state)
        said: list[tuple[int | None, rules.Event]] = [(seat, e) for e in events]
        await self._computers_move(table, said)
        await self._sync_waits(table, moved={seat})
        return await self._reply(table, said, before, None, header=header)

    async def settings(self, channel_id: int, user_id: int, *, turn_time: str | None = None,
                       reminders: bool | None = None) -> Reply:
        """The opener sets the table's turn time ('off', '12h', '2d', '90m') and whether
        awaited players are reminded; with neither, the settings are only shown."""
        clock = None
        if turn_time is not None:
            try:
                clock = scheduler.parse_duration(turn_time)
            except ValueError as error:
                raise TableError(str(error)) from None
        async with self._lock(channel_id):
            table = await self._active(channel_id)
            if turn_time is None and reminders is None:
                return Reply(ephemeral=table.settings(), version=table.version, game=table.id)
            self._check_opener(table, user_id, "change the table's settings")
            new_time = clock if turn_time is not None else table.turn_time
            new_reminders = table.reminders if reminders is None else reminders
            await self.store.set_settings(table.id, new_time, new_reminders)
            table.turn_time, table.reminders = new_time, new_reminders
            await self._sync_waits(table, again=True)
            # No game or version: this is not a move, and must not mark one delivered.
            return Reply(public=f"{table.opener()} changed the table's settings. "
                                f"{table.settings()}")

    async def quiet(self, user_id: int, start: int, end: int, timezone: str) -> str:
        """A player's quiet hours (local hours ``start`` to ``end``; equal hours: none):
        no reminders then, and their turn clock stops. At most 12 hours a day."""
        if not (0 <= start <= 23 and 0 <= end <= 23):
            raise TableError("Hours are whole numbers from 0 to 23.")
        hours = scheduler.quiet_length(start, end)
        if hours > scheduler.QUIET_CAP:
            raise TableError(f"Quiet hours are at most {scheduler.QUIET_CAP} a day; "
                             f"{start}:00 to {end}:00 is {hours}.")
        try:
            zone = scheduler.check_timezone(timezone)
        except ValueError as error:
            raise TableError(str(error)) from None
        player = replace(await self._player(user_id), quiet_from=start, quiet_to=end,
                         timezone=zone.key)
        await self.store.set_player(player)
        self._players[user_id] = player
        await self._player_changed(user_id)
        if not hours:
            return "You have no quiet hours now."
        return (f"Quiet hours set: {start}:00 to {end}:00 ({zone.key}). No reminders then, "
                "and your turn clock stops (at most 12 hours a day).")

    async def away(self, user_id: int, days: int) -> str:
        """Time away from now: no reminders and no running turn clock for ``days`` days.
        At most 21 days a year."""
        now = self.now()
        player = await self._player(user_id)
        left = scheduler.away_days_left(player, now)
        if not 1 <= days <= 21 or days > left:
            raise TableError(f"Time away is 1 to {scheduler.AWAY_CAP} days a year; you have "
                             f"{int(left)} left.")
        await self.store.add_absence(user_id, now, now + days * scheduler.DAY)
        self._players[user_id] = await self.store.player(user_id)
        await self._player_changed(user_id)
        return (f"You are away for {days} day{'s' if days != 1 else ''}: no reminders, and "
                f"your turn clocks stop. ({int(left) - days} of {scheduler.AWAY_CAP} days "
                "a year left.)")

    async def _player_changed(self, user_id: int) -> None:
        """Work out again the due moments of the player's waits at the tables held here."""
        for table in list(self._tables.values()):
            if table.status == "playing" and table.seat_of(user_id) is not None:
                async with self._lock(table.channel_id):
                    await self._sync_waits(table, again=True)

    # ----------------------------------------------------------------- seats changing hands

    async def resign(self, channel_id: int, user_id: int) -> Reply:
        """A seated player gives up. The same rule for every game: a computer player
        (greedy) plays the seat for the rest of the game, which goes on; the seat is
        marked resigned, so the result says it was decided with a resignation."""
        async with self._lock(channel_id):
            table = await self._running(channel_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat in this game.")
            name = table.who(seat)
            old = table.seats[seat]
            await self._hand(table, SeatRow(seat, None, old.name, "computer", "greedy",
                                            "resigned", user_id))
            return await self._handed(table, seat, f"{name} resigns; a computer player "
                                      "(greedy) plays their seat for the rest of the game.")

    async def replace(self, channel_id: int, user_id: int, player_id: int | None,
                      by_id: int | None = None, by_name: str = "", *,
                      moderator: bool = False) -> Reply:
        """The opener (or a moderator) hands ``player_id``'s seat (None: the one human seat
        the game is waiting for, the absent player's) to another member (``by_id``), or,
        without one, to a computer player of the table's level."""
        async with self._lock(channel_id):
            table = await self._running(channel_id)
            if user_id != table.opener_id and not moderator:
                raise TableError(f"Only {table.opener()}, who opened this table, or a "
                                 "moderator can hand a seat to someone else.")
            if player_id is None:
                waited = [s for s in sorted(table.awaited())
                          if table.seats[s].kind == "human"]
                if len(waited) != 1:
                    raise TableError("Say whose seat to hand on with player:, as "
                                     + ("several players are waited for."
                                        if waited else "nobody is waited for."))
                player_id = table.seats[waited[0]].user_id or 0
            seat = table.seat_of(player_id)
            if seat is None:
                raise TableError("That member has no seat in this game.")
            if by_id is not None and table.seat_of(by_id) is not None:
                raise TableError("That member already has a seat in this game.")
            name = table.who(seat)
            old = table.seats[seat]
            if by_id is None:
                level = table.level()
                row = SeatRow(seat, None, old.name, "computer", level, "replaced", player_id)
                said = f"a computer player ({level})"
            else:
                row = SeatRow(seat, by_id, clean_name(by_name), "human", None, "replaced",
                              player_id)
                said = self.shown(row.name)
            await self._hand(table, row)
            return await self._handed(table, seat, f"{name}'s seat is handed to {said}.")

    async def _hand(self, table: _Table, row: SeatRow) -> None:
        try:
            await self.store.hand_seat(table.id, row)
        except SeatTaken:
            raise TableError("That member already has a seat in this game.") from None
        await self.store.mark_unrated(table.id, ratings.RESIGNED if row.handed == "resigned"
                                      else ratings.REPLACED)
        table.seats[row.seat] = row

    async def _handed(self, table: _Table, seat: int, header: str) -> Reply:
        """After a seat changed hands: computers move if it is theirs to, the seat's
        clock starts again, and the channel is told (a new human gets their view)."""
        before = self._private_parts(table)
        if table.seats[seat].kind == "human":
            before[seat] = {}
        said: list[tuple[int | None, rules.Event]] = []
        await self._computers_move(table, said)
        await self._sync_waits(table, moved={seat})
        return await self._reply(table, said, before, None, header=header)

    # ----------------------------------------------------------------- replies

    def _private_parts(self, table: _Table) -> dict[int, dict[str, Any]]:
        """What each human seat alone can see now, to tell later whose view changed."""
        if table.state is None:
            return {}
        public = table.game.view(table.state, None)
        return {s.seat: _private_part(table.game.view(table.state, s.seat), public)
                for s in table.seats if s.kind == "human"}

    def _annotate(self, table: _Table, text: str) -> str:
        """Players' names into the rules' sentences: 'Blue attacks Red' -> 'Blue (Alice)
        attacks Red (Bob)', names at first mention; in a game whose seats have no colours,
        'Player 2 takes stone 3' -> 'Bob takes stone 3'."""
        labels = table.colours or [f"Player {s + 1}" for s in range(len(table.seats))]
        if table.named is None:
            table.named = re.compile(
                r"\b(" + "|".join(re.escape(c) for c in labels) + r")\b")
        seen: set[str] = set()

        def named(match: re.Match[str]) -> str:
            word = match.group(0)
            name = table.who(labels.index(word))
            if not table.colours:
                return name
            if word in seen:
                return word
            seen.add(word)
            return f"{word} ({name})"

        return table.named.sub(named, text)

    def _view(self, table: _Table, seat: int | None) -> dict[str, Any]:
        view = table.game.view(table.state, seat)
        view["names"] = table.names()
        return view

    def _shown(self, table: _Table, seat: int | None) -> Shown:
        """A seat's view (None: a spectator's) and what names it among pictures: a view is
        made of the state, which only changes with the version, and of the names."""
        return (table.id, table.version, seat, tuple(table.names())), self._view(table, seat)

    async def _render(self, game_id: str,
                      shown: Sequence[Shown | None], table: Picture | None = None
                      ) -> list[Picture | None]:
        """Pictures of views named as ``_shown`` names them (None: no picture), drawn in
        worker threads; the last few are kept. ``table``: the channel's picture of the same
        state, whose table every seat's picture shares (``render.pngs``)."""
        if not self.images:
            return [None] * len(shown)
        todo: dict[Hashable, dict[str, Any]] = {}
        for each in shown:
            if each is None or each[0] in todo:
                continue
            key, view = each
            if key in self._pictures:
                self._pictures.move_to_end(key)
            else:
                todo[key] = view
        drawn: dict[Hashable, Picture] = {}
        if todo:  # one job for all of them
            drawn = dict(zip(todo, await asyncio.get_running_loop().run_in_executor(
                self._painter(), _pictures, game_id, list(todo.values()),
                None if table is None else table.png), strict=True))
        out = [None if each is None else drawn.get(each[0]) or self._pictures[each[0]]
               for each in shown]
        self._pictures.update(drawn)
        while len(self._pictures) > PICTURE_CACHE:
            self._pictures.popitem(last=False)
        return out

    async def _reply(self, table: _Table, said: list[tuple[int | None, rules.Event]],
                     before: dict[int, dict[str, Any]], caller: int | None, *,
                     opening: str = "", header: str = "") -> Reply:
        """The reply after an action: public events, the board, and what changed in private."""
        game = table.game
        public_lines = [line for line in (header, opening) if line]
        public_lines += [self._annotate(table, e.text) for _, e in said if e.to is None]
        outcome = game.outcome(table.state)
        if outcome is not None:
            scores = ", ".join(f"{table.who(s)} {p}" for s, p in enumerate(outcome.scores))
            public_lines.append(f"Game over: {self._annotate(table, outcome.reason)} "
                                f"Final score: {scores}.")
        if outcome is not None:  # only now may the seed and the salt be told
            public_lines += _revealed(table)
        ended = None if outcome is None else await recap.build(  # points, length, ratings
            self.store, table, painter=self._painter() if self.images else None)
        public_lines += ended.lines if ended is not None else []
        caller_seat = table.seat_of(caller) if caller is not None else None
        ephemeral = [self._annotate(table, e.text) for actor, e in said
                     if e.to is not None and caller_seat is not None and actor == caller_seat
                     and caller_seat in e.to]

        # With pictures, a few replies at a time build their views and draw: a crowd of
        # moves waits here holding little more than its events, not views and images.
        drawing: AbstractAsyncContextManager[Any] = (
            self._drawing if self.images else nullcontext())
        async with drawing:
            spectator = self._shown(table, None)
            humans = [s for s in table.seats if s.kind == "human" and s.user_id is not None]
            changed: list[tuple[SeatRow, list[str], Shown | None]] = []
            parts = {}
            for s in humans:
                lines = [self._annotate(table, e.text) for _, e in said
                         if e.to is not None and s.seat in e.to]
                seat_view = self._shown(table, s.seat)
                part = parts[s.seat] = _private_part(seat_view[1], spectator[1])
                moved = s.seat in before and part != before[s.seat]
                if lines or moved:
                    changed.append((s, lines, seat_view if moved else None))
            table.parts, table.parts_version = parts, table.version
            (picture,) = await self._render(game.id, [spectator])
            later = [v for _, _, v in changed]
            dm_pictures = (asyncio.ensure_future(self._render(game.id, later, picture))
                           if self.images and any(v is not None for v in later) else None)
        private = tuple(Private(s.user_id or 0, "\n".join(lines), None)
                        for s, lines, _ in changed)
        mention = () if outcome is not None else tuple(
            table.seats[s].user_id or 0 for s in sorted(table.awaited())
            if table.seats[s].kind == "human")
        return Reply(public="\n".join(public_lines), picture=picture, private=private,
                     ephemeral="\n".join(ephemeral), mention=mention, version=table.version,
                     game=table.id, over=outcome is not None, drawing=dm_pictures,
                     recap=None if ended is None else ended.picture)

    # ----------------------------------------------------------------- looking back

    async def games(self, guild_id: int, user_id: int) -> str:
        """The caller's open and running tables in a server, theirs to play first: each
        channel, game, whom it waits for, since when, and when the turn time runs out."""
        found = []
        for row, waits in await self.store.tables_of(guild_id, user_id):
            async with self._lock(row.channel_id):
                try:
                    table = await self._active(row.channel_id)
                except TableError:
                    continue  # ended, or set aside, since the query
                if table.id == row.id:
                    found.append(await self._seated(table, user_id, waits))
        return history.games_text(found)

    async def _seated(self, table: _Table, user_id: int, waits: list[WaitRow]
                      ) -> history.Seated:
        """One table as /games lists it for ``user_id``."""
        if table.status == "open":
            return history.Seated(table.channel_id, table.game.name, False,
                                  seated=self._seated_line(table))
        seat = table.seat_of(user_id)
        awaited = table.awaited()
        by_seat = {w.seat: w for w in waits}
        chosen = [by_seat[s] for s in sorted(awaited) if s in by_seat]
        if seat in by_seat and seat in awaited:
            chosen = [by_seat[seat]]
        wait = min(chosen, key=lambda w: w.since, default=None)
        deadline = None
        if wait is not None and table.turn_time is not None:
            held = table.seats[wait.seat].user_id
            player = await self._player(held) if held is not None else PlayerRow(0)
            deadline = scheduler.deadline(wait, table.turn_time, player)
        return history.Seated(
            table.channel_id, table.game.name, True, yours=seat in awaited,
            waiting=tuple(table.label(s) for s in sorted(awaited) if s != seat),
            since=None if wait is None else wait.since, deadline=deadline)

    async def log(self, channel_id: int, user_id: int, count: int = history.LOG_COUNT
                  ) -> Reply:
        """The channel's last ``count`` moves as the caller may see them (a seated player
        also reads their own private events; anyone else the public ones), in
        ``ephemeral``: the caller's private lines must never reach the channel."""
        if not 1 <= count <= history.LOG_MOST:
            raise TableError(f"Ask for 1 to {history.LOG_MOST} moves.")
        async with self._lock(channel_id):
            table = await self._latest(channel_id)
            if table.state is None or table.seed is None:
                raise TableError("The game hasn't started yet, so there are no moves to "
                                 "show.")
            moves = await self.store.moves(table.id)
            past = self._looked_back(table, moves)
            text = history.log_text(past, table.seat_of(user_id), count=count,
                                    labels=self._labels(table),
                                    annotate=lambda line: self._annotate(table, line))
            return Reply(ephemeral=text, version=table.version, game=table.id,
                         over=table.status in ("over", "ended"))

    async def since(self, channel_id: int, user_id: int) -> Reply:
        """What happened since the caller's last move, from their own view (the moves,
        what was revealed to them, how the points changed, their hand now): ``ephemeral``
        text, and their picture in ``private`` (for the same ephemeral answer, not a DM)."""
        async with self._lock(channel_id):
            table = await self._latest(channel_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat in this game; /log shows its moves to "
                                 "everyone.")
            if table.state is None:
                raise TableError("The game hasn't started yet, so nothing has happened.")
            text = await self._digest(table, seat)
            (picture,) = await self._render(table.game.id, [self._shown(table, seat)])
            return Reply(ephemeral=text, private=(Private(user_id, text, picture),),
                         version=table.version, game=table.id,
                         over=table.status in ("over", "ended"))

    async def _digest(self, table: _Table, seat: int, limit: int = history.LIMIT) -> str:
        """``history.digest`` for a seat of a running or finished table."""
        moves = await self.store.moves(table.id)
        mark = history.last_move(moves, seat)
        past = self._looked_back(table, moves, keep={1 if mark is None else mark.version})
        return history.digest(past, seat, table.state, mark=mark, labels=self._labels(table),
                              names=[self.shown(n) for n in table.names()],
                              annotate=lambda line: self._annotate(table, line), limit=limit)

    async def _reminder_with_digest(self, table: _Table, wait: WaitRow, end: float | None
                                    ) -> str:
        """A reminder, and under it the digest of what happened since the player's last
        move (shortened to fit one message). A digest that cannot be made is logged and
        left out: the reminder goes anyway."""
        text = self._reminder(table, wait, end)
        try:
            return f"{text}\n\n" + await self._digest(table, wait.seat,
                                                       history.LIMIT - len(text) - 2)
        except Exception:
            log.exception("Could not make the digest for a reminder in game %s", table.id)
            return text

    def _looked_back(self, table: _Table, moves: list[MoveRow], keep: Iterable[int] = ()
                     ) -> history.History:
        """The table's moves replayed (``history.rebuild``). If the replay ends elsewhere
        than the stored state (the rules changed), none of its events are trusted."""
        assert table.seed is not None
        past = history.rebuild(table.game, len(table.seats), table.seed, table.options,
                               moves, keep=set(keep))
        if past.lost:
            log.warning("Game %s: move %s no longer replays; later moves are listed without "
                        "their events", table.id, past.lost[0].version)
        elif encode(table.game, past.final) != encode(table.game, table.state):
            log.warning("Game %s: its replay differs from the stored state; its moves are "
                        "listed without their events", table.id)
            past = history.unreplayable(table.game, moves)
        return past

    def _labels(self, table: _Table) -> list[str]:
        return [table.label(s.seat) for s in table.seats]

    # ----------------------------------------------------------------- undo

    async def ask_undo(self, channel_id: int, user_id: int) -> Reply | undo.Asked:
        """A seated player asks to take back their last move (``bot/undo.py`` says which
        moves may be). With other humans seated, the request is stored and returned, to
        be posted with its buttons (``undo.Asked``); they answer with ``answer_undo``
        within the turn time, or a day without one. With no other human (computers only),
        the move is taken back at once with the computers' replies since, and the reply
        says so, as after a move."""
        async with self._lock(channel_id):
            table = await self._running(channel_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat in this game, so there is no move of "
                                 "yours to take back.")
            now = self.now()
            pending = await self.store.undo(table.id)
            if pending is not None and undo.stands(pending, table.version, now):
                waiting = [s for s in self._undo_asked(table, pending.seat)
                           if s not in pending.agreed]
                raise TableError(f"{table.label(pending.seat)} has already asked to take back "
                                 f"a move; that request waits for "
                                 f"{listing([table.who(s) for s in waiting])}.")
            others = self._undo_asked(table, seat)
            plan = await self._undo_plan(table, seat, replies=not others)
            if not others:
                return await self._take_back(table, seat, plan, user_id)
            asked = now  # a new moment, so that no button of an earlier request answers it
            if pending is not None and pending.version == table.version:
                asked = max(now, pending.asked + 0.001)
            window = table.turn_time or scheduler.DAY
            row = UndoRow(table.id, table.version, seat, asked, asked + window)
            await self.store.put_undo(row)
            text = (f"{table.label(seat)} asks to take back their move "
                    f"{undo.number(plan.first)}. {listing([table.who(s) for s in others])}: "
                    "agree or refuse with the buttons below, within "
                    + ("a day" if table.turn_time is None else
                       f"the turn time ({scheduler.duration(table.turn_time)})")
                    + "; the move is taken back once everyone asked agrees.")
            return undo.Asked(text, tuple(table.seats[s].user_id or 0 for s in others),
                              table.id, table.version, undo.digest(row))

    async def answer_undo(self, channel_id: int, user_id: int, game: int, version: int,
                          digest: str, *, agree: bool) -> Reply:
        """One of the other seated humans answers a request with its button, which carries
        the game, the version and the request's digest (``undo.digest``). A refusal closes
        the request; the last agreement takes the move back. A button of another game,
        an older version or another request, a request past its time, or a clicker who was
        not asked, is refused with a sentence, and nothing changes."""
        async with self._lock(channel_id):
            table = await self._running(channel_id)
            if game != table.id:
                raise TableError("That button is from an earlier game in this channel; it "
                                 "does nothing now.")
            if version != table.version:
                raise TableError("That request is out of date: the game has moved on since "
                                 "it was asked.")
            row = await self.store.undo(table.id)
            if row is None or row.version != version or undo.digest(row) != digest:
                raise TableError("That request was answered already or replaced by a newer "
                                 "one; its buttons do nothing now.")
            now = self.now()
            if not undo.stands(row, version, now):
                raise TableError("That request is closed: it was refused, or nobody answered "
                                 "in time. The player can ask again with /game undo.")
            if table.seats[row.seat].kind != "human":
                raise TableError("That request no longer stands: the seat that asked has "
                                 "changed hands.")
            seat = table.seat_of(user_id)
            asked = self._undo_asked(table, row.seat)
            if seat == row.seat:
                raise TableError("You asked to take back your move; the other players "
                                 "answer.")
            if seat is None or seat not in asked:
                raise TableError(f"Only {listing([table.who(s) for s in asked])}, who were "
                                 "asked, can answer this request.")
            asker = table.label(row.seat)
            if not agree:
                await self.store.put_undo(replace(row, due=now))
                return Reply(public=f"{table.label(seat)} refuses, so {asker}'s move stands.",
                             ephemeral="You refused; the move stands.")
            agreed = {*row.agreed, seat}
            missing = [s for s in asked if s not in agreed]
            if seat in row.agreed:
                raise TableError("You have agreed already; the request waits for "
                                 f"{listing([table.who(s) for s in missing])}.")
            if missing:
                await self.store.put_undo(replace(row, agreed=tuple(sorted(agreed))))
                waiting = listing([table.who(s) for s in missing])
                return Reply(public=f"{table.label(seat)} agrees to {asker}'s undo; waiting "
                                    f"for {waiting}.",
                             ephemeral=f"You agreed; waiting for {waiting}.")
            plan = await self._undo_plan(table, row.seat, replies=False)
            reply = await self._take_back(table, row.seat, plan, user_id,
                                          header=f"{table.who(seat)} agrees too.")
            return replace(reply, ephemeral="You agreed, and the move is taken back.")

    async def withdraw_undo(self, channel_id: int, game: int, version: int,
                            digest: str) -> None:
        """Close a request that could not be posted (nobody could answer it), so the
        player can ask again at once."""
        async with self._lock(channel_id):
            table = await self._running(channel_id)
            row = await self.store.undo(table.id)
            if (table.id == game and row is not None and row.version == version
                    and undo.digest(row) == digest):
                await self.store.put_undo(replace(row, due=min(row.due, self.now())))

    def _undo_asked(self, table: _Table, seat: int) -> list[int]:
        """The seats whose consent an undo by ``seat`` needs: the other seated humans."""
        return [s.seat for s in table.seats
                if s.kind == "human" and s.user_id is not None and s.seat != seat]

    async def _undo_plan(self, table: _Table, seat: int, *, replies: bool) -> undo.Plan:
        """``undo.plan`` for the table's log (in a thread: it replays the log), or the
        sentence saying why the seat's last move cannot be taken back."""
        assert table.seed is not None
        logged = await self.store.moves(table.id)
        try:
            plan = await asyncio.to_thread(
                undo.plan, table.game, len(table.seats), table.seed, table.options or None,
                logged, seat, replies=replies, who=table.label)
        except undo.Refusal as refusal:
            raise TableError(str(refusal)) from None
        except rules.GameError:
            plan = None
        if plan is None or encode(table.game, plan.current) != encode(table.game,
                                                                      table.state):
            raise TableError("This game's log no longer replays to the board as it stands "
                             "(its rules changed since), so no move can be taken back.")
        return plan

    async def _take_back(self, table: _Table, seat: int, plan: undo.Plan, caller: int, *,
                         header: str = "") -> Reply:
        """Log the undo entry (``undo.entry``: its own version, so every older button goes
        stale) with the state before the asker's move; then the reply, as after a move."""
        before = (table.parts if table.parts_version == table.version
                  else self._private_parts(table))
        if not await self.store.commit_move(table.id, table.version, seat,
                                            undo.entry(plan.first),
                                            encode(table.game, plan.before), now=self.now()):
            await self._reload(table)
            raise TableError("Someone else moved at the same moment and the game moved on. "
                             "Look at the latest board and try again.")
        table.state, table.version = plan.before, table.version + 1
        await self.store.drop_undo(table.id)
        said: list[tuple[int | None, rules.Event]] = [
            (seat, self._took_back(table, seat, plan.first, len(plan.moves)))]
        await self._computers_move(table, said)
        await self._sync_waits(table, moved={seat})
        return await self._reply(table, said, before, caller, header=header)

    def _took_back(self, table: _Table, seat: int, first: int, count: int) -> rules.Event:
        """The public line of an undo entry, in the rules' words (a colour, or 'Player 2'),
        so that it names players as every event does."""
        labels = table.colours or [f"Player {s + 1}" for s in range(len(table.seats))]
        replies = count - 1
        text = f"{labels[seat]} takes back move {undo.number(first)}"
        if replies > 0:
            text += (f" and the {replies} computer repl{'y' if replies == 1 else 'ies'} "
                     "after it")
        return rules.Event(f"{text}: the board is as it was before.", kind="undo",
                           data={"seat": seat, "first": first, "count": count})

    # ----------------------------------------------------------------- ending

    async def end(self, channel_id: int, user_id: int, *, moderator: bool = False) -> Reply:
        """Stop the channel's table: the opener, or anyone the adapter calls a moderator."""
        async with self._lock(channel_id):
            table = await self._active(channel_id)
            if user_id != table.opener_id and not moderator:
                raise TableError(f"Only {table.opener()}, who opened this table, or a "
                                 "moderator can end the game.")
            if not await self.store.end_game(table.id, now=self.now()):
                await self._reload(table)
                raise TableError("The table changed at the same moment; try again.")
            self._forget(table)
            table.status = "ended"
            await self._sync_waits(table)
            seat = table.seat_of(user_id)
            who = "A moderator" if seat is None else table.who(seat)
            return Reply(public="\n".join([f"{who} ended the game of {table.game.name}.",
                                            *_revealed(table)]),
                         version=table.version, game=table.id, over=True)

    async def export(self, channel_id: int, table_id: int | None = None
                     ) -> tuple[str, bytes]:
        """The move log of the channel's last game that started (or of table ``table_id``,
        played in this channel) as a file: (its name, UTF-8 JSON; ``fairness.document``).

        Only once that game is over: until then its seed and salt are secret, so a running
        game is refused with a sentence."""
        async with self._lock(channel_id):
            row = await self.store.started_game(channel_id, table_id)
            if row is None:
                raise TableError("There is no game in this channel with a move log to export."
                                 if table_id is None else
                                 f"There is no table {table_id} played in this channel.")
            if row.status == "playing":
                raise TableError("The move log is given once the game is over: until then "
                                 "its seed and salt stay secret. Ask again after the last "
                                 "move (or once the game is ended with /game end).")
            table = await self._load(row)
            outcome = table.game.outcome(table.state) if table.state is not None else None
            doc = fairness.document(row, table.game, table.seats,
                                    await self.store.moves(row.id), outcome)
            return fairness.file_name(table.game.id, row.id), fairness.dumps(doc)

    # ----------------------------------------------------------------- looking

    async def board(self, channel_id: int) -> Reply:
        """The board as spectators see it, and whose turn it is (no mentions)."""
        async with self._lock(channel_id):
            table = await self._latest(channel_id)
            text = self._situation(table)
            if table.status in ("open", "playing"):
                text += f"\n{table.settings()}"
            if table.state is None:
                return Reply(public=text, version=table.version, game=table.id)
            (picture,) = await self._render(table.game.id, [self._shown(table, None)])
            return Reply(public=text, picture=picture, version=table.version, game=table.id,
                         over=table.status in ("over", "ended"))

    def _situation(self, table: _Table) -> str:
        """One sentence: where the table stands."""
        game = table.game
        if table.status == "open":
            return (f"{game.name}: waiting to start. {self._seated_line(table)} "
                    f"{table.opener()} starts it with /game start.")
        outcome = game.outcome(table.state)
        if outcome is not None:
            resigned = (" (decided with a resignation)"
                        if any(s.handed == "resigned" for s in table.seats) else "")
            return (f"{game.name}, game over{resigned}: "
                    f"{self._annotate(table, outcome.reason)}")
        if table.status == "ended":
            return f"{game.name}: this game was ended before it finished."
        waiting = listing([table.label(s) for s in sorted(table.awaited())])
        return f"{game.name}, move {table.version - 1}: waiting for {waiting}."

    async def hand(self, channel_id: int, user_id: int) -> Reply:
        """The caller's private view: ``ephemeral`` text and, in ``private``, their picture.

        Both are meant for an ephemeral answer to the caller, not for a DM.
        """
        async with self._lock(channel_id):
            table = await self._latest(channel_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat in this game; /board shows the table to "
                                 "everyone.")
            if table.state is None:
                return Reply(ephemeral=f"You have seat {seat + 1}. The game hasn't started "
                                       "yet, so there is nothing in your hand.",
                             version=table.version, game=table.id)
            shown = self._shown(table, seat)
            text = f"You are {table.label(seat)}. {render.summary(table.game.id, shown[1])}"
            if seat in table.awaited():
                text += " It is your turn."
            (picture,) = await self._render(table.game.id, [shown])
            return Reply(ephemeral=text, private=(Private(user_id, text, picture),),
                         version=table.version, game=table.id,
                         over=table.status in ("over", "ended"))

    async def status(self, channel_id: int) -> Reply:
        """Who sits where and where the game stands, as text."""
        async with self._lock(channel_id):
            table = await self._latest(channel_id)
            seats = "; ".join(
                f"{s.seat + 1}. {table.label(s.seat) if table.colours else table.who(s.seat)}"
                f"{_kind(s)}" for s in table.seats)
            return Reply(public=f"{self._situation(table)}\nSeats: {seats}.",
                         version=table.version, game=table.id,
                         over=table.status in ("over", "ended"))

    async def legal_moves(self, channel_id: int, user_id: int) -> list[str]:
        """The caller's legal moves: empty unless they are seated and awaited."""
        async with self._lock(channel_id):
            try:
                table = await self._running(channel_id)
            except TableError:
                return []
            seat = table.seat_of(user_id)
            if seat is None:
                return []
            return list(table.moves(seat))

    async def hint(self, channel_id: int, user_id: int) -> str:
        """How the caller writes a move now (the game's sentence), or '' if they are not
        seated and awaited."""
        async with self._lock(channel_id):
            try:
                table = await self._running(channel_id)
            except TableError:
                return ""
            seat = table.seat_of(user_id)
            if seat is None or seat not in table.awaited():
                return ""
            return table.game.notation_hint(table.state, seat)

    async def waiting(self, channel_id: int) -> list[tuple[int, str]]:
        """The humans the running game awaits: (user id, 'Alice (Blue)'), by seat."""
        async with self._lock(channel_id):
            try:
                table = await self._running(channel_id)
            except TableError:
                return []
            return [(table.seats[s].user_id or 0, table.label(s)) for s in sorted(table.awaited())
                    if table.seats[s].kind == "human"]

    # ----------------------------------------------------------------- the outbox

    async def delivered(self, reply: Reply) -> None:
        """``reply`` was announced: its game's versions up to ``reply.version`` leave the
        outbox. (By game, not channel: an old game's reply posted late cannot mark the
        channel's new game.)"""
        if reply.game:
            self.store.mark_delivered(reply.game, reply.version)

    async def undelivered(self) -> list[tuple[int, Reply]]:
        """Replies committed but never announced (the process stopped first), to post now.

        Computer players who were due to move when the process stopped move first. Each
        reply is rebuilt by replaying the log: events are a pure function of the moves.
        A table that cannot be read is set aside, and its channel is told so once (first
        in the list); every other table goes on.
        """
        told: dict[int, tuple[int, Reply]] = {}  # game -> its channel's set-aside notice

        def set_aside(row: GameRow) -> None:
            told.setdefault(row.id, (row.channel_id, Reply(
                public=SET_ASIDE, version=row.version, game=row.id, over=True)))

        for row in await self.store.games(statuses=("playing",)):
            async with self._lock(row.channel_id):
                try:
                    table = await self._active(row.channel_id)
                except TableSetAside:
                    set_aside(row)
                    continue
                except TableError:
                    continue
                if table.id == row.id and table.status == "playing":
                    await self._computers_move(table, [])
                    await self._sync_waits(table)
        out = []
        for row in await self.store.unannounced():
            async with self._lock(row.channel_id):
                try:
                    out.append((row.channel_id, await self._catch_up(row)))
                except TableSetAside:
                    set_aside(row)
                except TableError:
                    log.warning("Game %s can no longer be shown", row.id)
        return [*told.values(), *out]

    async def undelivered_in(self, channel_id: int) -> list[Reply]:
        """The channel's replies committed but not announced, in move order: for a retry
        after a failed post while the bot runs."""
        out = []
        for row in await self.store.unannounced():
            if row.channel_id != channel_id:
                continue
            async with self._lock(channel_id):
                try:
                    out.append(await self._catch_up(
                        row, header="(Posted late: the channel could not be reached.)"))
                except TableError:
                    log.warning("Game %s can no longer be shown", row.id)
        return out

    async def _catch_up(self, row: GameRow, header: str = "(Posted after a restart.)"
                        ) -> Reply:
        """The reply for versions ``announced + 1 .. version`` of a stored game."""
        table = await self._load(row)
        game = table.game
        try:
            assert row.seed is not None
            moves = await self.store.moves(row.id)
            done = [m for m in moves if m.version <= row.announced]
            state, _ = replay(game, len(table.seats), row.seed, row.options, done)
            before = self._private_parts(replace(table, state=state))
            opening = ""
            if row.announced < 1:  # not even the start was announced
                before = {seat: {} for seat in before}
                opening = (f"{game.name} begins: "
                           f"{listing([table.label(s.seat) for s in table.seats])}.")
                if table.commitment:
                    opening += f"\n{fairness.announced(table.commitment)}"
            said: list[tuple[int | None, rules.Event]] = []
            for index in range(len(done), len(moves)):
                move = moves[index]
                if undo.is_entry(move.text):
                    state, _ = replay(game, len(table.seats), row.seed, row.options,
                                      moves[:index + 1])
                    first = undo.taken_back(move.text) or 0
                    count = sum(1 for m in undo.in_force(moves[:index]) if m.version >= first)
                    said.append((move.seat, self._took_back(table, move.seat, first, count)))
                    continue
                state, events = game.play(state, move.seat, move.text)
                said.extend((move.seat, e) for e in events)
            if encode(game, state) != encode(game, table.state):
                raise ValueError("the replayed state differs from the stored one")
        except Exception:
            log.exception("Could not replay game %s; posting its board instead", row.id)
            return await self._reply(table, [], {}, None,
                                     header="(Posted after a restart; here is the board.)")
        return await self._reply(table, said, before, None, opening=opening, header=header)


def _cores() -> int:
    """How many cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _choose(game_id: str, state: Any, seat: int, level: str, seed: int) -> str:
    """``rules.computer.choose`` by game id (it runs in a thread or a worker process)."""
    return computer.choose(rules.GAMES[game_id], state, seat, level=level, seed=seed)


def _revealed(table: _Table) -> list[str]:
    """The line revealing a finished game's seed and salt (none for a game that never
    started, or one started before commitments were posted)."""
    if table.seed is None or not table.salt or not table.commitment:
        return []
    return [fairness.revealed(table.seed, table.salt, table.commitment)]


def _kind(seat: SeatRow) -> str:
    """' (greedy)' after a computer player's name in the list of seats."""
    return f" ({seat.level or 'computer'})" if seat.kind == "computer" else ""


def _span(seconds: float) -> str:
    """'2 days', '5 hours', '40 minutes': a time left, roughly."""
    for unit, size in (("day", scheduler.DAY), ("hour", scheduler.HOUR)):
        if seconds >= 2 * size:
            return f"{int(seconds // size)} {unit}s"
    minutes = max(1, int(seconds // scheduler.MINUTE))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _pictures(game_id: str, views: list[dict[str, Any]], table: bytes | None = None
              ) -> list[Picture]:
    """Each view's attachments (``render.pngs``: one, or the table and the private part)."""
    out = []
    for view in views:
        first, *more = render.pngs(game_id, view, table=table)
        out.append(Picture(first, render.summary(game_id, view), tuple(more)))
    return out
