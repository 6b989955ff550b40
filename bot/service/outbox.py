"""The outbox: a version stays unposted until its reply is posted; after a restart (or a
failed post) what was committed but never announced is rebuilt from the move log (its
``Timeline``: the state where the channel was last told, each move's events), and
replies another process wrote but never posted are found by a sweep."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import replace

import rules
from bot import undo, words
from bot.records import GameRow
from bot.service.clocks import Clocks
from bot.service.replies import Narrator, Reply, opening
from bot.service.table import TableError, TableSetAside, encode, set_aside_notice
from bot.service.tables import Tables
from bot.service.turns import Turns
from bot.store import Store
from bot.timeline import Timeline

log = logging.getLogger("boardroom.service")


class Outbox:
    """Replies committed but not yet announced, and marking them announced."""

    def __init__(self, store: Store, tables: Tables, turns: Turns, clocks: Clocks,
                 narrator: Narrator, *, now: Callable[[], float]) -> None:
        self.store = store
        self.tables = tables
        self.turns = turns
        self.clocks = clocks
        self.narrator = narrator
        self.now = now

    async def delivered(self, reply: Reply) -> None:
        """``reply`` was posted: the versions it told of leave the outbox. Those are the
        versions of its game that this process wrote up to ``reply.version`` (by game, not
        channel: an old game's reply posted late cannot mark the channel's new game), or a
        catch-up's ``covers``. Versions another process wrote stay in the outbox until that
        process posts them, or until a sweep finds them lost (``sweep``)."""
        if not reply.game:
            return
        if reply.ends:
            try:
                await self.store.deliveries.told_end(reply.game)
            except Exception:  # told; at worst it is told again after a restart
                log.exception("Could not mark game %s's end told", reply.game)
        owed = self.tables.owed.get(reply.game, set())
        versions = (set(reply.covers) if reply.covers is not None
                    else {v for v in owed if v <= reply.version})
        for version in sorted(versions):
            self.store.deliveries.mark_delivered(reply.game, version)
        owed -= versions
        if not owed:
            self.tables.owed.pop(reply.game, None)

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
                public=set_aside_notice(), version=row.version, game=row.id, over=True)))

        for row in await self.store.tables.games(statuses=("playing",)):
            async with self.tables.lock(row.channel_id):
                try:
                    table = await self.tables.active(row.channel_id)
                except TableSetAside:
                    set_aside(row)
                    continue
                except TableError:
                    continue
                if table.id == row.id and table.status == "playing":
                    await self.turns.play_on(table, [])
                    await self.clocks.sync(table)
        out = []
        for row in await self.store.deliveries.unannounced():
            async with self.tables.lock(row.channel_id):
                try:
                    reply = await self._catch_up(row)
                except TableSetAside:
                    set_aside(row)
                    continue
                except TableError:
                    log.warning("Game %s can no longer be shown", row.id)
                    continue
            if reply is not None:
                out.append((row.channel_id, reply))
        return [*told.values(), *out]

    async def sweep(self, older_than: float) -> list[tuple[int, Reply]]:
        """Replies that other processes committed but have not posted ``older_than``
        seconds after the move: lost when a process stopped between writing a move and
        posting it (a later move of the same table, posted by another process, does not
        cover it). A reply this process is still posting is left alone; one another
        process is still posting after ``older_than`` seconds is posted twice."""
        cutoff = self.now() - older_than
        out = []
        for row in await self.store.deliveries.unannounced():
            async with self.tables.lock(row.channel_id):
                try:
                    reply = await self._catch_up(
                        row, header=words.say("outbox.stopped"),
                        skip=self.tables.owed.get(row.id, set()), cutoff=cutoff)
                except TableError:
                    continue  # set aside, or no longer shown: the start-up pass says so
            if reply is not None:
                out.append((row.channel_id, reply))
        return out

    async def undelivered_in(self, channel_id: int) -> list[Reply]:
        """The channel's replies committed but not announced, in move order: for a retry
        after a failed post while the bot runs."""
        out = []
        for row in await self.store.deliveries.unannounced():
            if row.channel_id != channel_id:
                continue
            async with self.tables.lock(channel_id):
                try:
                    reply = await self._catch_up(
                        row, header=words.say("outbox.unreachable"))
                except TableError:
                    log.warning("Game %s can no longer be shown", row.id)
                    continue
            if reply is not None:
                out.append(reply)
        return out

    async def _catch_up(self, row: GameRow, header: str | None = None, *,
                        skip: Collection[int] = (), cutoff: float | None = None
                        ) -> Reply | None:
        """The reply for the versions of a stored game beyond ``announced`` not yet posted
        (``deliveries.posted``), leaving out ``skip`` and, given a ``cutoff``, any written after
        that moment; None when no version is left to tell. The reply ``covers`` exactly
        those versions, and shows the board as it stands now. ``header``: its first line
        (by default, that it is posted after a restart)."""
        if header is None:
            header = words.say("outbox.restart")
        # (another process may have moved on since ``row`` was read)
        moves = [m for m in await self.store.tables.moves(row.id) if m.version <= row.version]
        done = [m for m in moves if m.version <= row.announced]
        passed = await self.store.deliveries.posted(row.id) | set(skip)
        written = {m.version: m.time for m in moves if m.version > row.announced}
        if row.announced < 1:  # the start (version 1) is not a logged move
            written[1] = row.started if row.started is not None else 0.0
        wanted = {v for v, at in written.items()
                  if v not in passed and (cutoff is None or at <= cutoff)}
        # A game ended with /game end: its notice comes after its moves (a sweep leaves it
        # to the process that ended it, until the cutoff).
        ended = (await self.store.deliveries.end_note(row.id) if row.status == "ended"
                 and (cutoff is None or (row.finished or 0.0) <= cutoff) else None)
        if not wanted and ended is None:  # e.g. a sweep finding only replies on their way
            return None
        covers = tuple(sorted(wanted))
        if not wanted:
            return Reply(public=f"{header}\n{ended}", version=row.version, game=row.id,
                         over=True, covers=covers, note=header, ends=True)
        table = await self.tables.load(row)
        game = table.game
        try:
            assert row.seed is not None
            line = Timeline(game, len(table.seats), row.seed, row.options, moves).whole()
            state = line.state(max(1, row.announced))
            before = replace(table, state=state).private_parts()
            told = ""
            said: list[tuple[int | None, rules.Event]] = []
            if 1 in wanted:  # not even the start was announced
                before = {seat: {} for seat in before}
                told, said = opening(table, state)
            shown = [m for m in moves[len(done):] if m.version in wanted]
            plays = [m.version for m in shown if not undo.is_entry(m.text)]
            step = 1 not in wanted and len(plays) == len(shown)  # an undo is no step
            for move in shown:
                entry = line.step(move.version)
                if undo.is_entry(move.text):
                    said.append((move.seat, table.took_back(
                        move.seat, undo.taken_back(move.text) or 0, len(entry.took_back))))
                else:
                    said.extend((move.seat, e) for e in entry.events)
            # the seats awaited all through the moves told (the others are newly awaited)
            steady = line.steady(shown[0].version, plays) if shown else set()
            if encode(game, line.final) != encode(game, table.state):
                raise ValueError("the replayed state differs from the stored one")
        except Exception:
            log.exception("Could not replay game %s; posting its board instead", row.id)
            reply = await self.narrator.reply(table, [], {}, None,
                                      header=words.say("outbox.restart_board"))
            return replace(reply, covers=covers)
        reply = await self.narrator.reply(table, said, before, None, opening=told,
                                          header=header, step=step,
                                          steady=frozenset(steady), again=covers)
        if row.status == "ended":  # nobody is awaited any more: the end is told after them
            reply = replace(reply, public="\n".join(p for p in (reply.public, ended) if p),
                            mention=(), newly=(), step=False, over=True,
                            ends=ended is not None)
        return replace(reply, covers=covers, note=header)
