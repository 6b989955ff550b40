"""Seats: opening a table and taking seats before the start, the deal, seats changing hands
during play (a resignation, a replacement), and the end of a table."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import rules
from bot import fairness, ratings, words
from bot.records import SeatRow
from bot.service.clocks import Clocks
from bot.service.computers import Levels
from bot.service.replies import Commands, Narrator, Reply, opening
from bot.service.table import (
    Conflict,
    Table,
    TableError,
    TableSetAside,
    clean_name,
)
from bot.service.tables import Deal, Tables
from bot.service.turns import Said, Turns
from bot.store import Store
from bot.store.errors import ChannelBusy, SeatTaken
from rules import computer
from rules.core import listing, quote


class Seats:
    """Who sits at a table, from its opening to its end."""

    def __init__(self, store: Store, tables: Tables, clocks: Clocks, turns: Turns,
                 narrator: Narrator, *, commands: Commands, levels: Levels,
                 now: Callable[[], float]) -> None:
        self.store = store
        self.tables = tables
        self.clocks = clocks
        self.turns = turns
        self.narrator = narrator
        self.commands = commands
        self.levels = levels  # a computer player's level when none is chosen
        self.now = now

    # -- before the start

    async def open(self, channel_id: int, guild_id: int | None, user_id: int, name: str,
                   game_id: str, options: dict[str, Any] | None = None) -> Reply:
        """Open a table for ``game_id`` in this channel; the opener takes seat 0."""
        game = rules.GAMES.get(game_id)
        if game is None:
            raise TableError(words.say("seats.no_game", typed=quote(game_id),
                                       games=listing(sorted(rules.GAMES))))
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
                raise TableError(words.say("seats.options_misfit", game=game.name)) from error
        else:
            raise refusals[-1]
        async with self.tables.lock(channel_id):
            name = clean_name(name)
            try:
                row = await self.store.tables.create_game(channel_id, guild_id, game.id, options,
                                                   user_id, name, now=self.now())
            except ChannelBusy:
                try:
                    busy = await self.tables.active(channel_id)
                except TableSetAside:  # the table there could not be read: now it is aside
                    busy = None
                if busy is not None and busy.status == "open":
                    raise TableError(words.say("seats.busy", game=busy.game.name,
                                               opener=busy.opener())) from None
                if busy is not None:  # the game under way: seats are fixed
                    raise TableError(words.say("seats.busy_playing", game=busy.game.name,
                                               opener=busy.opener())) from None
                row = await self.store.tables.create_game(channel_id, guild_id, game.id, options,
                                                   user_id, name, now=self.now())
            table = await self.tables.opened(row)
            told, shown, takes = self.commands, table.shown(name), table.takes()
            if told.join:
                return Reply(public=words.say("seats.opened_join", player=shown, game=game.name,
                                              range=takes, join=told.join, start=told.start))
            return Reply(public=words.say("seats.opened", player=shown, game=game.name,
                                          range=takes))

    async def join(self, channel_id: int, user_id: int, name: str) -> Reply:
        """Take the next seat at the channel's table before it starts."""
        async with self.tables.lock(channel_id):
            table = await self._lobby(channel_id)
            if table.seat_of(user_id) is not None:
                raise TableError(words.say("seats.seated_already"))
            name = clean_name(name)
            await self._sit(table, user_id, name, "human")
            return Reply(public=words.say("seats.takes_seat", player=table.shown(name),
                                          seated=table.seated()))

    async def leave(self, channel_id: int, user_id: int) -> Reply:
        """Give up one's seat before the start (the opener ends the table instead)."""
        async with self.tables.lock(channel_id):
            table = await self.tables.active(channel_id)
            seat = table.seat_for(user_id, "seats.not_at_table")
            if table.status != "open":
                raise TableError(words.say("seats.leave_started"))
            if user_id == table.opener_id:
                raise TableError(words.say("seats.opener_stays"))
            return await self._unseat(table, seat)

    async def add_computer(self, channel_id: int, user_id: int,
                           level: str | None = None) -> Reply:
        """The opener seats a computer player of ``level`` (``rules.computer.LEVELS``, or
        an older name for one) before the start; when None, the service's level for the
        table's clock as it is now (``Levels.seat``: expert with turns of an hour or more)."""
        try:
            chosen = None if level is None else computer.level_of(level)
        except ValueError:
            raise TableError(words.say("seats.no_level", typed=quote(level),
                                       levels=listing(list(computer.LEVELS)))) from None
        async with self.tables.lock(channel_id):
            table = await self._lobby(channel_id)
            _opener(table, user_id, words.say("seats.only_opener_add", opener=table.opener()))
            level = chosen or self.levels.seat(table)
            taken = {s.name for s in table.seats}
            name = next(f"Computer {n}" for n in range(1, len(taken) + 2)
                        if f"Computer {n}" not in taken)
            await self._sit(table, None, name, "computer", level)
            return Reply(public=words.say("seats.computer_takes_seat", player=table.shown(name),
                                          level=level, seated=table.seated()))

    async def remove_computer(self, channel_id: int, user_id: int) -> Reply:
        """The opener takes the last computer player off the table before the start."""
        async with self.tables.lock(channel_id):
            table = await self._lobby(channel_id)
            _opener(table, user_id,
                    words.say("seats.only_opener_remove", opener=table.opener()))
            computers = table.computers()
            if not computers:
                raise TableError(words.say("seats.no_computer"))
            return await self._unseat(table, computers[-1])

    async def _lobby(self, channel_id: int) -> Table:
        table = await self.tables.active(channel_id)
        if table.status != "open":
            raise TableError(words.say("seats.fixed"))
        return table

    async def _sit(self, table: Table, user_id: int | None, name: str, kind: str,
                   level: str | None = None) -> None:
        most = table.game.player_range(table.options)[1]
        if len(table.seats) >= most:
            raise TableError(words.say("seats.full", game=table.game.name, count=most))
        try:
            await self.store.seats.add(table.id, len(table.seats), user_id, name, kind, level)
        except SeatTaken:
            await self.tables.reload(table)
            raise TableError(words.say("seats.seat_taken")) from None
        table.seats.append(SeatRow(len(table.seats), user_id, name, kind, level))

    async def _unseat(self, table: Table, seat: int) -> Reply:
        name = table.who(seat)
        await self.store.seats.remove(table.id, seat)
        table.seats = await self.store.seats.of(table.id)
        return Reply(public=words.say("seats.leaves", player=name, seated=table.seated()))

    # -- the deal

    async def start(self, channel_id: int, user_id: int, *, seed: int) -> Reply:
        """The opener deals from ``seed`` and begins, once the seat count fits the game."""
        async with self.tables.lock(channel_id):
            table = await self.tables.active(channel_id)
            _opener(table, user_id, words.say("seats.only_opener_start", opener=table.opener()))
            if table.status != "open":
                raise TableError(words.say("seats.started"))
            game, players = table.game, len(table.seats)
            fewest, most = game.player_range(table.options)
            if not fewest <= players <= most:
                raise TableError(words.say("seats.wrong_count", game=game.name,
                                           range=table.takes(), count=players))
            salt = secrets.token_hex(16)  # so that the commitment hides the seed
            deal = Deal(seed, salt, fairness.commitment(seed, salt))
            state = game.new(players, seed, table.options or None)
            try:
                await self.tables.write(table, state, deal=deal)
            except Conflict:
                raise TableError(words.say("seats.changed")) from None
            told, said = opening(table, state)
            before: dict[int, dict[str, Any]] = {
                s.seat: {} for s in table.seats if s.kind == "human"}
            return await self.turns.after(table, said, before, opening=told)

    # -- seats changing hands

    async def resign(self, channel_id: int, user_id: int) -> Reply:
        """A seated player gives up. The same rule for every game: a computer player (at
        the table's level) plays the seat for the rest of the game, which goes on; the seat
        is marked resigned, so the result says it was decided with a resignation."""
        async with self.tables.lock(channel_id):
            table = await self.tables.running(channel_id)
            seat = table.seat_for(user_id, "seats.no_seat")
            name, old = table.who(seat), table.seats[seat]
            level = table.level(self.levels.seat(table))
            await self._hand(table, SeatRow(seat, None, old.name, "computer", level,
                                            "resigned", user_id))
            return await self._handed(table, seat, words.say("seats.resigns", player=name,
                                                             level=level))

    async def replace(self, channel_id: int, user_id: int, player_id: int | None,
                      by_id: int | None = None, by_name: str = "", *,
                      moderator: bool = False) -> Reply:
        """The opener (or a moderator) hands ``player_id``'s seat (None: the one human seat
        the game is waiting for, the absent player's) to another member (``by_id``), or,
        without one, to a computer player of the table's level."""
        async with self.tables.lock(channel_id):
            table = await self.tables.running(channel_id)
            if user_id != table.opener_id and not moderator:
                raise TableError(words.say("seats.only_opener_hand", opener=table.opener()))
            if player_id is None:
                waited = [s for s in sorted(table.awaited())
                          if table.seats[s].kind == "human"]
                if waited and len(waited) != 1:
                    raise TableError(words.say("seats.hand_whom_several"))
                if not waited:
                    raise TableError(words.say("seats.hand_whom_nobody"))
                player_id = table.seats[waited[0]].user_id or 0
            seat = table.seat_of(player_id)
            if seat is None:
                raise TableError(words.say("seats.member_unseated"))
            if by_id is not None and table.seat_of(by_id) is not None:
                raise TableError(words.say("seats.member_seated"))
            name, old = table.who(seat), table.seats[seat]
            if by_id is None:
                level = table.level(self.levels.seat(table))
                row = SeatRow(seat, None, old.name, "computer", level, "replaced", player_id)
                said = words.say("seats.handed_computer", player=name, level=level)
            else:
                row = SeatRow(seat, by_id, clean_name(by_name), "human", None, "replaced",
                              player_id)
                said = words.say("seats.handed", player=name, other=table.shown(row.name))
            await self._hand(table, row)
            return await self._handed(table, seat, said)

    async def _hand(self, table: Table, row: SeatRow) -> None:
        try:
            await self.store.seats.hand(table.id, row)
        except SeatTaken:
            raise TableError(words.say("seats.member_seated")) from None
        await self.store.tables.mark_unrated(table.id, ratings.RESIGNED if row.handed == "resigned"
                                      else ratings.REPLACED)
        table.seats[row.seat] = row

    async def _handed(self, table: Table, seat: int, header: str) -> Reply:
        """After a seat changed hands: computers move if it is theirs to, the seat's
        clock starts again, and the channel is told (a new human gets their view)."""
        before = table.private_parts()
        if table.seats[seat].kind == "human":
            before[seat] = {}
        said: Said = []
        return await self.turns.after(table, said, before, moved={seat}, header=header)

    # -- the end

    async def end(self, channel_id: int, user_id: int, *, moderator: bool = False) -> Reply:
        """Stop the channel's table: the opener, or anyone the adapter calls a moderator."""
        async with self.tables.lock(channel_id):
            table = await self.tables.active(channel_id)
            if user_id != table.opener_id and not moderator:
                raise TableError(words.say("seats.only_opener_end", opener=table.opener()))
            seat = table.seat_of(user_id)
            ended = (words.say("seats.ended_moderator", game=table.game.name) if seat is None
                     else words.say("seats.ended", player=table.who(seat),
                                    game=table.game.name))
            notice = "\n".join([ended, *self.narrator.revealed(table)])
            # Kept until the channel is told, after every move before it (``Outbox``): a
            # post that fails now, or waits behind one that did, is told by the retry.
            if not await self.store.tables.end_game(table.id, now=self.now(), note=notice):
                await self.tables.reload(table)
                raise TableError(words.say("seats.changed"))
            self.tables.forget(table)
            table.status = "ended"
            await self.clocks.sync(table)
            await self.tables.ended(table.id)
            return Reply(public=notice, version=table.version, game=table.id, over=True,
                         ends=True)

    async def export(self, channel_id: int, table_id: int | None = None
                     ) -> tuple[str, bytes]:
        """The move log of the channel's last game that started (or of table ``table_id``,
        played in this channel) as a file: (its name, UTF-8 JSON; ``fairness.document``).

        Only once that game is over: until then its seed and salt are secret, so a running
        game is refused with a sentence."""
        async with self.tables.lock(channel_id):
            row = await self.store.tables.started_game(channel_id, table_id)
            if row is None:
                raise TableError(words.say("seats.no_log") if table_id is None
                                 else words.say("seats.no_table", table=table_id))
            if row.status == "playing":
                end = self.commands.end
                raise TableError(words.say("seats.log_secret", command=end) if end
                                 else words.say("seats.log_secret_plain"))
            table = await self.tables.load(row)
            outcome = table.game.outcome(table.state) if table.state is not None else None
            doc = fairness.document(row, table.game, table.seats,
                                    await self.store.tables.moves(row.id), outcome)
            return fairness.file_name(table.game.id, row.id), fairness.dumps(doc)


def _opener(table: Table, user_id: int, refusal: str) -> None:
    """Refuse with ``refusal`` unless ``user_id`` opened the table."""
    if user_id != table.opener_id:
        raise TableError(refusal)
