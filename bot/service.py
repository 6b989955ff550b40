"""The table service: one table per channel, from opening to the last move, without Discord.

Every surface (the Discord adapter, the terminal's try-it mode, tests, benchmarks) calls this
service and gets back a ``Reply``: what to say in the channel, what each player reads in
private, and what the caller alone is told. Replies are built only from ``view()`` and from
events, so nothing hidden can leak into the channel.

Consistency, in short (details in ``bot/README.md``): each channel has a lock, a move is one
conditional write of the state with its version, a move is committed before its reply is
built, and a reply stays in the outbox (``undelivered``) until ``delivered`` is called.

The service is built of layers, each in its own module: ``bot.tables`` (tables held, loaded,
checked against the database and written), ``bot.pictures``, ``bot.replies``,
``bot.computers`` (computer players) and ``bot.outbox``. This module holds the commands,
turn clocks, looking back and undo, and still exports every name it did.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import render
import rules
from bot import fairness, history, ratings, scheduler, undo
from bot.computers import CHAIN_LIMIT, _choose
from bot.moves import Choices, plain
from bot.outbox import Outbox
from bot.pictures import PICTURE_CACHE, Picture, Pictures, Shown, _cores, _pictures
from bot.records import MoveRow, PlayerRow, SeatRow, UndoRow, WaitRow
from bot.replies import DISCORD, Commands, Private, Reply, Tended, _private_part, _revealed
from bot.store import Store
from bot.store.errors import ChannelBusy, SeatTaken, StoreError
from bot.tables import (
    NAME_LIMIT,
    SET_ASIDE,
    TableError,
    Tables,
    TableSetAside,
    _colours,
    _Table,
    clean_name,
    decode,
    encode,
    move_digest,
    parse_options,
    replay,
)
from rules import computer
from rules.computer import level_name
from rules.core import listing, normalize, quote

__all__ = [
    "CHAIN_LIMIT", "NAME_LIMIT", "PICTURE_CACHE", "SET_ASIDE", "Picture", "Private",
    "Reply", "Shown", "TableError", "TableService", "TableSetAside", "Tended", "_Table",
    "_choose", "_colours", "_cores", "_pictures", "_private_part", "_revealed",
    "clean_name", "decode", "encode", "move_digest", "parse_options", "replay",
]

log = logging.getLogger("boardroom.service")


class TableService(Outbox):
    """Tables in channels: open, join, leave, start, play, end, and looking at them.

    Every method takes the channel's lock, so commands on one channel run one at a time;
    different channels never wait for each other except on the database.
    """

    def __init__(self, store: Store, *, images: bool = True,
                 shown: Callable[[str], str] = str,
                 now: Callable[[], float] = time.time,
                 commands: Commands = DISCORD, level: str = computer.DEFAULT) -> None:
        """``shown`` turns a player's name into what a sentence shows: as it is for the
        terminal, escaped (no markdown, no mentions) for Discord. ``now`` is the clock
        (seconds since the epoch): every time the service stores or compares comes from
        it, so a test can run days at once. ``commands``: how the surface spells the
        commands sentences point to (Discord's by default). ``level``: the computer level a
        table takes when none is chosen (``rules.computer.DEFAULT``, the strongest that
        answers within a second), for its computer players, stand-ins and resigned seats."""
        Tables.__init__(self, store, shown=shown, now=now)
        self.commands = commands
        self.level = computer.level_of(level)
        Pictures.__init__(self, images=images)
        # Told of each new due moment of a wait (the scheduler wakes early for it).
        self.on_due: Callable[[float], None] | None = None
        self._players: dict[int, PlayerRow] = {}  # quiet hours and marks, once read

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
            told = self.commands
            return Reply(public=f"{self.shown(name)} opened a table for {game.name} "
                                f"({table.seat_range()})." + (
                                    f" Take a seat with {told.join}; {self.shown(name)} "
                                    f"starts the game with {told.start}." if told.join else ""))

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
                           level: str | None = None) -> Reply:
        """The opener seats a computer player of ``level`` (``rules.computer.LEVELS``, or
        an older name for one; the service's level when None) before the start."""
        try:
            level = computer.level_of(level or self.level)
        except ValueError:
            raise TableError(f"There is no computer level {quote(level)}; the levels are "
                             f"{listing(list(computer.LEVELS))}.") from None
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
            self._owe(table)
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
            text = plain(text)  # a suggestion's label, if Discord sent that
            try:
                state, events = table.game.play(table.state, seat, text,
                                                legal=table.moves(seat))
            except (rules.InvalidMove, rules.IllegalMove):
                unfinished = self._choices(table, seat).unfinished(text)
                if unfinished is None:
                    raise
                raise rules.InvalidMove(unfinished) from None
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
        level = table.level(self.level)
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
        (at the table's level) plays the seat for the rest of the game, which goes on; the seat is
        marked resigned, so the result says it was decided with a resignation."""
        async with self._lock(channel_id):
            table = await self._running(channel_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You have no seat in this game.")
            name = table.who(seat)
            old = table.seats[seat]
            level = table.level(self.level)
            await self._hand(table, SeatRow(seat, None, old.name, "computer", level,
                                            "resigned", user_id))
            return await self._handed(table, seat, f"{name} resigns; a computer player "
                                      f"({level}) plays their seat for the rest of the game.")

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
                level = table.level(self.level)
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
        self._owe(table)
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
                                            *_revealed(table, self.commands.export)]),
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
                end = self.commands.end
                raise TableError("The move log is given once the game is over: until then "
                                 "its seed and salt stay secret. Ask again after the last "
                                 "move" + (f" (or once the game is ended with {end})."
                                           if end else "."))
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

    async def game_of(self, channel_id: int) -> str | None:
        """The id of the game at the channel's table (running, else its last), if any."""
        async with self._lock(channel_id):
            try:
                return (await self._latest(channel_id)).game.id
            except TableError:
                return None

    async def board_text(self, channel_id: int, user_id: int | None) -> str:
        """The board as text a screen reader reads (``render.describe``), as the caller may
        see it: a seated player's own view, anyone else's a spectator's."""
        async with self._lock(channel_id):
            table = await self._latest(channel_id)
            text = self._situation(table)
            if table.state is None:
                return text
            seat = table.seat_of(user_id) if user_id is not None else None
            view = table.game.view(table.state, seat)
            view["names"] = [table.who(s.seat) for s in table.seats]  # as text shows names
            return f"{text}\n{render.describe(table.game.id, view)}"

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
        """The caller's legal moves, free ones first: empty unless they are seated and
        awaited."""
        return (await self.choices(channel_id, user_id)).moves

    async def choices(self, channel_id: int, user_id: int) -> Choices:
        """The caller's legal moves, free ones first, with what the costly ones cost (none
        unless they are seated and awaited)."""
        async with self._lock(channel_id):
            try:
                table = await self._running(channel_id)
            except TableError:
                return Choices()
            seat = table.seat_of(user_id)
            if seat is None:
                return Choices()
            return self._choices(table, seat)

    def _choices(self, table: _Table, seat: int) -> Choices:
        return Choices.of(list(table.moves(seat)), table.costs(seat))

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


def _kind(seat: SeatRow) -> str:
    """' (hard)' after a computer player's name in the list of seats."""
    return f" ({level_name(seat.level)})" if seat.kind == "computer" else ""


def _span(seconds: float) -> str:
    """'2 days', '5 hours', '40 minutes': a time left, roughly."""
    for unit, size in (("day", scheduler.DAY), ("hour", scheduler.HOUR)):
        if seconds >= 2 * size:
            return f"{int(seconds // size)} {unit}s"
    minutes = max(1, int(seconds // scheduler.MINUTE))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
