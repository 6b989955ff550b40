"""Tables and moves: the table record, a state as stored (encode, decode, replay), and the
tables a process holds, loaded, checked against the database and written one move at a time."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import rules
from bot import ratings, scheduler, undo
from bot.records import GameRow, MoveRow, Rated, SeatRow, WaitRow
from bot.store import Store
from bot.store.errors import StoreError
from rules.computer import level_name
from rules.core import quote

log = logging.getLogger("boardroom.service")


NAME_LIMIT = 32  # Discord display names are at most 32 characters


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
    priced: dict[int, dict[str, str]] = field(default_factory=dict)  # ``game.costs`` per seat
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
            self.priced = {}
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

    def costs(self, seat: int) -> dict[str, str]:
        """``game.costs`` of ``seat`` now (what its costly moves cost), worked out once a
        state like ``moves``."""
        self.listed()
        costs = self.priced.get(seat)
        if costs is None:
            costs = self.priced[seat] = (self.game.costs(self.state, seat)
                                         if seat in self.awaited() else {})
        return costs

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

    def level(self, default: str) -> str:
        """The table's computer level: its computer players', else ``default`` (for
        stand-ins and resigned seats)."""
        return next((level_name(s.level) for s in self.seats if s.kind == "computer"
                     and s.level and s.handed is None), default)

    def settings(self) -> str:
        """'Turn time: 2d; reminders on.'"""
        clock = ("no turn time" if self.turn_time is None
                 else f"turn time {scheduler.duration(self.turn_time)}")
        return f"Settings: {clock}; reminders {'on' if self.reminders else 'off'}."

    def awaited(self) -> frozenset[int]:
        return self.game.to_act(self.state) if self.state is not None else frozenset()

    def seat_range(self) -> str:
        return self.game.players()


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


def _colours(view: dict[str, Any], players: int) -> list[str]:
    """The seat colours the rules' events use ('Blue'), when the view lists them."""
    colours = view.get("colours")
    if isinstance(colours, list) and len(colours) == players and all(
            isinstance(c, str) for c in colours):
        return [c.capitalize() for c in colours]
    return []


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


class Tables:
    """The tables this process holds, one per channel, loaded from the store and checked
    against it before each command; a move is written only if nobody wrote first."""

    def __init__(self, store: Store, *, shown: Callable[[str], str] = str,
                 now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.now = now
        self.shown = shown
        self._tables: dict[int, _Table] = {}
        self._set_aside: set[int] = set()  # games set aside by this process (logged once)
        self._locks: dict[int, asyncio.Lock] = {}
        # game -> versions this process wrote and has not posted yet: its replies mark them
        # posted (``Outbox.delivered``), and its sweep leaves them alone while in flight
        self._owed: dict[int, set[int]] = {}

    def _owe(self, table: _Table) -> None:
        """The table's version was just written here: this process is to post it."""
        self._owed.setdefault(table.id, set()).add(table.version)

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

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
        """The channel's open or running table, or a sentence saying there is none.

        The table held here is checked against the database first (one indexed read of
        the channel's game row): another process may have moved, joined, started or ended
        it, and a stale table would refuse a move with an old turn or show an old board."""
        table = self._tables.get(channel_id)
        row = await self.store.active_game(channel_id)
        if table is not None:
            if row is not None and await self._current(table, row):
                return table
            self._forget(table)
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

    async def _current(self, table: _Table, row: GameRow) -> bool:
        """Whether the held table is still the one the stored row holds: same game,
        version, status and settings, and the same seats (joins, resignations and
        replacements do not change the version)."""
        if (row.id, row.version, row.status, row.turn_time, row.reminders) != (
                table.id, table.version, table.status, table.turn_time, table.reminders):
            return False
        return await self.store.seats(row.id) == table.seats

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
        self._owe(table)
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
