"""The outbox: a reply stays undelivered until posted; after a restart (or a failed post)
what was committed but never announced is rebuilt from the move log."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

import rules
from bot import fairness, undo
from bot.computers import Computers
from bot.replies import Replies, Reply
from bot.store import GameRow
from bot.tables import SET_ASIDE, TableError, TableSetAside, _Table, encode, replay
from rules.core import listing

log = logging.getLogger("boardroom.service")


class Outbox(Replies, Computers):
    """Replies committed but not yet announced, and marking them announced."""

    if TYPE_CHECKING:  # the service's own (bot/service.py)
        async def _sync_waits(self, table: _Table, moved: Iterable[int] = (), *,
                              again: bool = False) -> None: ...

        def _took_back(self, table: _Table, seat: int, first: int, count: int
                       ) -> rules.Event: ...

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
