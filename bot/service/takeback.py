"""Taking back a move (``/game undo``): a seated player asks, the other seated humans agree
with a button, and the move goes back as an undo entry in the log, its own version
written through the one write path. Which moves may be taken back is ``bot.undo``'s."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

import rules
from bot import scheduler, undo, words
from bot.records import UndoRow
from bot.service.replies import Reply
from bot.service.table import Table, TableError, encode
from bot.service.tables import Tables
from bot.service.turns import Turns
from bot.store import Store
from bot.timeline import Timeline
from rules.core import listing


class TakeBack:
    """Requests to take back a move, their answers, and the undo itself."""

    def __init__(self, store: Store, tables: Tables, turns: Turns, *,
                 now: Callable[[], float]) -> None:
        self.store = store
        self.tables = tables
        self.turns = turns
        self.now = now

    async def ask(self, channel_id: int, user_id: int) -> Reply | undo.Asked:
        """A seated player asks to take back their last move. With other humans seated,
        the request is stored and returned, to be posted with its buttons
        (``undo.Asked``); they answer with ``answer`` within the turn time, or a day
        without one. With no other human (computers only), the move is taken back at once
        with the computers' replies since, and the reply says so, as after a move."""
        async with self.tables.lock(channel_id):
            table = await self.tables.running(channel_id)
            seat = table.seat_for(user_id, "takeback.no_seat")
            now = self.now()
            pending = await self.store.tables.undo(table.id)
            if pending is not None and undo.stands(pending, table.version, now):
                waiting = [s for s in _asked(table, pending.seat) if s not in pending.agreed]
                raise TableError(words.say("takeback.pending", player=table.label(pending.seat),
                                           players=listing([table.who(s) for s in waiting])))
            others = _asked(table, seat)
            plan = await self._plan(table, seat, replies=not others)
            if not others:
                return await self._take_back(table, seat, plan, user_id)
            asked = now  # a new moment, so that no button of an earlier request answers it
            if pending is not None and pending.version == table.version:
                asked = max(now, pending.asked + 0.001)
            window = table.turn_time or scheduler.DAY
            row = UndoRow(table.id, table.version, seat, asked, asked + window)
            await self.store.tables.put_undo(row)
            asker, number = table.label(seat), undo.number(plan.first)
            players = listing([table.who(s) for s in others])
            text = (words.say("takeback.asks", player=asker, number=number, players=players)
                    if table.turn_time is None else
                    words.say("takeback.asks_turn_time", player=asker, number=number,
                              players=players, duration=scheduler.duration(table.turn_time)))
            return undo.Asked(text, tuple(table.seats[s].user_id or 0 for s in others),
                              table.id, table.version, undo.digest(row))

    async def answer(self, channel_id: int, user_id: int, game: int, version: int,
                     digest: str, *, agree: bool) -> Reply:
        """One of the other seated humans answers a request with its button, which carries
        the game, the version and the request's digest (``undo.digest``). A refusal closes
        the request; the last agreement takes the move back. A button of another game,
        an older version or another request, a request past its time, or a clicker who was
        not asked, is refused with a sentence, and nothing changes."""
        async with self.tables.lock(channel_id):
            table = await self.tables.running(channel_id)
            if game != table.id:
                raise TableError(words.say("turns.earlier_game"))
            if version != table.version:
                raise TableError(words.say("takeback.out_of_date"))
            row = await self.store.tables.undo(table.id)
            if row is None or row.version != version or undo.digest(row) != digest:
                raise TableError(words.say("takeback.answered"))
            now = self.now()
            if not undo.stands(row, version, now):
                raise TableError(words.say("takeback.closed"))
            if table.seats[row.seat].kind != "human":
                raise TableError(words.say("takeback.handed_on"))
            seat = table.seat_of(user_id)
            asked = _asked(table, row.seat)
            if seat == row.seat:
                raise TableError(words.say("takeback.own_request"))
            if seat is None or seat not in asked:
                raise TableError(words.say("takeback.not_asked",
                                           players=listing([table.who(s) for s in asked])))
            asker = table.label(row.seat)
            if not agree:
                await self.store.tables.put_undo(replace(row, due=now))
                return Reply(public=words.say("takeback.refuses", player=table.label(seat),
                                              other=asker),
                             ephemeral=words.say("takeback.refused"))
            agreed = {*row.agreed, seat}
            missing = [s for s in asked if s not in agreed]
            if seat in row.agreed:
                raise TableError(words.say("takeback.agreed_already",
                                           players=listing([table.who(s) for s in missing])))
            if missing:
                await self.store.tables.put_undo(replace(row, agreed=tuple(sorted(agreed))))
                waiting = listing([table.who(s) for s in missing])
                return Reply(public=words.say("takeback.agrees", player=table.label(seat),
                                              other=asker, players=waiting),
                             ephemeral=words.say("takeback.agreed", players=waiting))
            plan = await self._plan(table, row.seat, replies=False)
            reply = await self._take_back(table, row.seat, plan, user_id,
                                          header=words.say("takeback.agrees_too",
                                                           player=table.who(seat)))
            return replace(reply, ephemeral=words.say("takeback.taken_back"))

    async def withdraw(self, channel_id: int, game: int, version: int, digest: str) -> None:
        """Close a request that could not be posted (nobody could answer it), so the
        player can ask again at once."""
        async with self.tables.lock(channel_id):
            table = await self.tables.running(channel_id)
            row = await self.store.tables.undo(table.id)
            if (table.id == game and row is not None and row.version == version
                    and undo.digest(row) == digest):
                await self.store.tables.put_undo(replace(row, due=min(row.due, self.now())))

    async def _plan(self, table: Table, seat: int, *, replies: bool) -> undo.Plan:
        """``undo.plan`` for the table's log (in a thread: it replays the log, a
        ``Timeline``), or the sentence saying why the seat's last move cannot be taken
        back."""
        assert table.seed is not None
        seed, logged = table.seed, await self.store.tables.moves(table.id)

        def planned() -> undo.Plan:
            line = Timeline(table.game, len(table.seats), seed, table.options, logged).whole()
            return undo.plan(table.game, line.in_force(), seat, at=line.state,
                             replies=replies, who=table.label)

        try:
            plan = await asyncio.to_thread(planned)
        except undo.Refusal as refusal:
            raise TableError(str(refusal)) from None
        except rules.GameError:
            plan = None
        if plan is None or encode(table.game, plan.current) != encode(table.game,
                                                                      table.state):
            raise TableError(words.say("takeback.no_replay"))
        return plan

    async def _take_back(self, table: Table, seat: int, plan: undo.Plan, caller: int, *,
                         header: str = "") -> Reply:
        """Write the undo entry (``undo.entry``: its own version, so every older button
        goes stale) with the state before the asker's move; then what follows a move."""
        before = table.parts_before()
        await self.tables.write(table, plan.before, seat=seat, text=undo.entry(plan.first))
        await self.store.tables.drop_undo(table.id)
        said = [(seat, table.took_back(seat, plan.first, len(plan.moves)))]
        return await self.turns.after(table, list(said), before, moved={seat}, caller=caller,
                                      header=header)


def _asked(table: Table, seat: int) -> list[int]:
    """The seats whose consent an undo by ``seat`` needs: the other seated humans."""
    return [s.seat for s in table.humans() if s.seat != seat]

