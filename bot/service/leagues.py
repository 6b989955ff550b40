"""Leagues as a product (issue 40): sign-up, the rounds' tables, results, the deadline
rule, standings and the organiser's tools, over the pure core ``bot.leagues``.

A league is one row of ``store.leagues`` whose ``state`` is ``Held`` as JSON: the core's
``League`` (once started), the sign-ups before, the names, the table settings the league
fixes, and the clocks of a pause. Every change is ``_change``: read the row, change the
record, write it back only while the row is still at the version read (else read again and
redo), so two processes that see a round end at once pair it once. A round's tables are
claimed one by one (``store.leagues.claim``) by the process that opens them (``Boards``).

What the surface does with a change: ``on_change(league_id)`` is told after each (the
Discord adapter edits the league's message and opens the tables of a new round).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import rules
from bot import leagues, scheduler, words
from bot.records import BoardRow, Job, LeagueRow
from bot.service.league_records import (
    Change,
    Held,
    Shown,
    chosen,
    entry_of,
    has_result,
    organiser,
    owed,
    played,
    signing,
    table_result,
    under_way,
)
from bot.service.league_tables import Board, Boards, Delivered
from bot.service.league_words import Told
from bot.service.replies import Reply, Tended
from bot.service.table import TableError, clean_name
from bot.store import Store
from bot.store.engine import CLAIM

log = logging.getLogger("boardroom.service")
TRIES = 8  # conditional writes tried before a change gives up (others kept writing)
KIND = "league"  # the kind of a league's job (its round's deadline) in ``store.jobs``


class Leagues:
    """The leagues of every server: created, joined, started, their tables opened and
    recorded, their rounds paired, closed at the deadline, and the organiser's tools."""

    def __init__(self, store: Store, boards: Boards, *, now: Callable[[], float],
                 shown: Callable[[str], str] = str) -> None:
        self.store = store
        self.boards = boards
        self.now = now
        self.shown = shown
        self.told = Told(shown)  # what league messages and lists say
        self.on_change: Callable[[int], Awaitable[None]] | None = None
        # Replies of tables the stand-in played out at a deadline, for the surface (else outbox)
        self.on_replies: Callable[[Delivered], Awaitable[None]] | None = None
        # Who is told of a new due moment (the scheduler, woken early for it).
        self.on_due: Callable[[], Callable[[float], None] | None] = lambda: None

    # -- reading

    async def row(self, league_id: int, guild_id: int | None = None) -> LeagueRow:
        row = await self.store.leagues.get(league_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise TableError(words.say("leagues.no_league", league=league_id,
                                       command="/league list"))
        return row

    async def held(self, league_id: int) -> tuple[LeagueRow, Held]:
        row = await self.row(league_id)
        return row, Held.loads(row.state)

    async def of_guild(self, guild_id: int) -> list[LeagueRow]:
        return await self.store.leagues.of_guild(guild_id)

    async def mine(self, guild_id: int, member: int) -> list[str]:
        """A member's leagues in the server, a line each (rank and points)."""
        lines = [self.told.mine(row, Held.loads(row.state), member)
                 for row in await self.of_guild(guild_id)]
        return [line for line in lines if line is not None]

    async def set_message(self, league_id: int, message_id: int | None) -> None:
        await self.store.leagues.set_message(league_id, message_id)  # (sign-up, standings)

    async def pick(self, guild_id: int, league_id: int | None) -> int:
        """The league meant: the one named, else the server's one under way or in sign-up,
        else its latest (a sentence when several are under way, or there is none)."""
        if league_id is not None:
            return (await self.row(league_id, guild_id)).id
        return chosen(await self.of_guild(guild_id))

    # -- sign-up

    async def new(self, guild_id: int, channel_id: int, organiser: int, name: str,
                  game_id: str, format_: str, rounds: int, length: str, *,
                  per_table: int = 2, deadline: str = "play on",
                  table: dict[str, Any] | None = None) -> LeagueRow:
        """A league in sign-up: its game, format, rounds and round length ('7d'), players
        a table, the deadline rule, and the tables' clock and options (``table``:
        'turn_time', 'clock', 'bank', 'add', 'options'), checked now."""
        game = rules.GAMES.get(game_id)
        if game is None:
            raise TableError(words.say("leagues.no_game", typed=rules.core.quote(game_id)))
        if not game.min_players <= per_table <= game.max_players:
            raise TableError(words.say("leagues.table_size", game=game.name,
                                       range=game.players(), size=per_table))
        try:
            seconds = scheduler.parse_duration(length)
        except ValueError:
            seconds = None
        if seconds is None:
            raise TableError(words.say("leagues.length", typed=rules.core.quote(length)))
        try:
            settings = leagues.Settings(game.id, format_, rounds, seconds,  # type: ignore[arg-type]
                                        per_table, deadline)  # type: ignore[arg-type]
        except ValueError as error:
            raise TableError(str(error)) from None
        table = dict(table or {})
        try:  # the tables' clock, checked now as /game settings would check it
            if table.get("turn_time") is not None:
                scheduler.parse_duration(str(table["turn_time"]))
            scheduler.parse_bank(table.get("bank"), table.get("add"))
        except ValueError as error:
            raise TableError(str(error)) from None
        if table.get("clock") == "per-turn" and (table.get("bank") or table.get("add")):
            raise TableError(words.say("leagues.per_turn_bank"))
        options = dict(table.get("options") or {})
        game.check_options(options)
        game.new(per_table, 0, options or None)  # the options fit the tables
        table["options"] = options
        held = Held(settings, table, organiser=clean_name(name))
        return await self.store.leagues.create(guild_id, channel_id, organiser, game.id,
                                               held.dumps(), now=self.now())

    async def join(self, league_id: int, user_id: int, name: str) -> LeagueRow:
        def joined(row: LeagueRow, held: Held) -> Change:
            signing(row)
            if user_id in held.names:
                raise TableError(words.say("leagues.signed_already", league=row.id))
            held.names[user_id] = clean_name(name)
            return Change(held, row.status, row.due)
        return (await self._change(league_id, joined))[0]

    async def leave(self, league_id: int, user_id: int) -> LeagueRow:
        def left(row: LeagueRow, held: Held) -> Change:
            signing(row)
            if held.names.pop(user_id, None) is None:
                raise TableError(words.say("leagues.not_signed", league=row.id))
            return Change(held, row.status, row.due)
        return (await self._change(league_id, left))[0]

    async def start(self, league_id: int, user_id: int, *, moderator: bool = False
                    ) -> LeagueRow:
        """The organiser starts the league: round 1 is paired (its tables to open)."""
        now = self.now()

        def started(row: LeagueRow, held: Held) -> Change:
            organiser(row, user_id, moderator, held, self.shown)
            signing(row)
            if len(held.names) < max(2, held.settings.per_table):
                raise TableError(words.say("leagues.too_few", league=row.id,
                                           count=max(2, held.settings.per_table)))
            held.league = leagues.start(held.settings, list(held.names))
            return self._advance(row, held, now)
        row = (await self._change(league_id, started))[0]
        await self._told(league_id)
        return row

    # -- a round's tables

    async def to_open(self, league_id: int) -> list[Board]:
        """The tables of the round under way that are not open yet (nor claimed now)."""
        row, held = await self.held(league_id)
        round_ = held.current()
        if row.status != "running" or round_ is None or held.league is None:
            return []
        claimed = {b.board: b for b in await self.store.leagues.boards(row.id, round_.number)}
        recorded = {frozenset(r.players) for r in held.league.results if r.round == round_.number}
        opened = {n for n, b in claimed.items() if b.game_id is not None}
        if owed(held.league, round_, opened):  # withdrawn since the pairing, before it opened
            await self._record(row.id, lambda lg: owed(lg, round_, opened))
            return await self.to_open(league_id)
        out = []
        for number, entries in enumerate(round_.tables):
            board = claimed.get(number)
            if frozenset(entries) in recorded or (board is not None and (
                    board.game_id is not None or board.claimed > self.now() - CLAIM)):
                continue
            out.append(self.boards.board(row, held.league, held.names, round_.number, number,
                                         entries, held.table,
                                         None if board is None else board.channel_id))
        return out

    async def claim(self, board: Board) -> bool:
        """Whether this process opens ``board`` (the first to claim it does)."""
        return await self.store.leagues.claim(board.league_id, board.round, board.number,
                                              json.dumps(board.entries), now=self.now())

    async def seat(self, board: Board, channel_id: int, guild_id: int) -> Reply:
        """Open the claimed table in ``channel_id`` (its thread), seat its players, set the
        league's clock and deal: the start's reply, for the surface to deliver."""
        return await self.boards.open(board, channel_id, guild_id)

    # -- results

    async def finished(self, game_id: int) -> None:
        """A game ended (by its rules, or with /game end): if it is a league table, its
        result is recorded (and when it was the round's last, the next round is paired)."""
        board = await self.store.leagues.board_of(game_id)
        if board is None:
            return
        outcome = await self.boards.outcome(game_id)
        if outcome is not None:
            await self._record(board.league_id, lambda lg: [table_result(lg, board, outcome)])

    async def _record(self, league_id: int,
                      found: Callable[[leagues.League], list[leagues.Result]]) -> None:
        """Record what ``found`` gives not yet recorded; a round so finished pairs the next."""
        now = self.now()

        def recorded(row: LeagueRow, held: Held) -> Change:
            league = held.league
            if league is None or row.status not in ("running", "paused"):
                return Change(held, row.status, row.due)
            new = [r for r in found(league) if not any(
                x.round == r.round and set(x.players) == set(r.players) for x in league.results)]
            if not new:  # (recorded already)
                return Change(held, row.status, row.due)
            for result in new:
                league = leagues.record(league, result)
            held.league = league
            if row.status == "paused":
                return Change(held, row.status, row.due)
            return self._advance(row, held, now)
        await self._change(league_id, recorded)
        await self._told(league_id)

    async def catch_up(self, league_id: int) -> None:
        """Record every game of the league that ended without its result being recorded
        (the process stopped in between): at start-up and at each due check."""
        _, held = await self.held(league_id)  # (read once: recording twice keeps one)
        for board in await self.store.leagues.boards(league_id):
            if held.league is None or board.game_id is None or has_result(held.league, board):
                continue
            game = await self.store.tables.game(board.game_id)
            if game is not None and game.status in ("over", "ended"):
                await self.finished(board.game_id)

    # -- the deadline

    async def due(self, now: float) -> Delivered:
        """Do what is due by ``now`` for every league (its round's deadline); the replies
        of tables the stand-in played out, as (channel, reply), for the surface."""
        done: Delivered = []
        for row in await self.store.leagues.due(now):
            done += await self.close_round(row.id, now)
        return done

    async def tend(self, job: Job) -> Tended | None:
        """The job of kind 'league' (``KIND``) is due: its round's deadline (``close_round``);
        the tables the stand-in played out go to ``on_replies``. The job then follows the
        league's due moment as it now is (another process may have moved it)."""
        replies = await self.close_round(job.owner_id, self.now())
        if replies and self.on_replies is not None:
            await self.on_replies(replies)
        row = await self.store.leagues.get(job.owner_id)
        await self._timer(job.owner_id, None if row is None else row.due)
        return None

    async def _timer(self, league_id: int, due: float | None) -> None:
        """The league's job (kind 'league') due at ``due`` (None: none)."""
        job = Job(KIND, league_id, 0, due)
        if due is None:
            await self.store.jobs.drop(job)
            return
        await self.store.jobs.put(job)
        told = self.on_due()
        if told is not None:
            told(due)

    async def close_round(self, league_id: int, now: float) -> Delivered:
        """The round's deadline has passed: its tables still running play on (the next
        round waits for them) or are played out by the computer at once, as the league's
        rule says. Done once: the league's due moment is cleared by a conditional write."""
        await self.catch_up(league_id)
        row, held = await self.held(league_id)
        round_ = held.current()
        if row.status != "running" or row.due is None or row.due > now or round_ is None:
            return []

        def closed(row: LeagueRow, held: Held) -> Change:
            if row.due is None or row.due > now:
                raise _Done()
            return Change(held, row.status, None)
        try:
            await self._change(league_id, closed)
        except _Done:
            return []
        replies: Delivered = []
        if held.settings.deadline == "stand-in":
            for board in await self.store.leagues.boards(league_id, round_.number):
                if board.game_id is not None and board.channel_id is not None:
                    replies += await self.boards.play_out(board)
        await self._told(league_id)
        return replies

    # -- standings

    async def standings(self, league_id: int) -> Shown:
        """The standings as text (for screen readers) and as the picture's data."""
        return self.told.shown_standings(*await self.held(league_id))

    # -- the organiser's tools

    async def withdraw(self, league_id: int, user_id: int, member: int, after: str, *,
                       moderator: bool = False) -> tuple[str, Delivered]:
        """``member`` leaves the league from the round under way: their games then are
        forfeited or played by the stand-in (``after``). A table of theirs still running
        is handed to the computer at once (a forfeit still counts as one)."""
        now = self.now()
        number = -1

        def gone(row: LeagueRow, held: Held) -> Change:
            nonlocal number
            organiser(row, user_id, moderator, held, self.shown)
            league = under_way(row, held)
            number = entry_of(row, held, member)
            if league.entries[number].withdrawn is not None:
                raise TableError(words.say("leagues.withdrawn_already", league=row.id,
                                           player=self.shown(held.names[member])))
            current = held.current()
            first = current.number if current is not None else 1
            if current is not None and played(league, current, number):
                first += 1
            held.league = leagues.withdraw(league, number, first, after)  # type: ignore[arg-type]
            return self._advance(row, held, now) if row.status == "running" else Change(
                held, row.status, row.due)
        row, held = await self._change(league_id, gone)
        round_ = held.current()
        handed: Delivered = []
        if round_ is not None:
            for board in await self.store.leagues.boards(league_id, round_.number):
                if number in json.loads(board.seats) and board.game_id is not None:
                    handed += await self.boards.hand_over(board, member)
        await self._told(league_id)
        player = self.shown(held.names[member])
        said = words.say("leagues.withdrawn_forfeit", league=row.id, player=player) \
            if after == "forfeit" else \
            words.say("leagues.withdrawn_stand_in", league=row.id, player=player)
        return said, handed

    async def replace(self, league_id: int, user_id: int, member: int, by: int,
                      name: str, *, moderator: bool = False) -> str:
        """``by`` takes over ``member``'s place between rounds (while no table of the
        place's is open and unfinished): its points and its games."""
        _, before = await self.held(league_id)
        round_ = before.current()
        seated = set() if round_ is None else {
            n for b in await self.store.leagues.boards(league_id, round_.number)
            for n in json.loads(b.seats)}

        def handed(row: LeagueRow, held: Held) -> Change:
            organiser(row, user_id, moderator, held, self.shown)
            league = under_way(row, held)
            number = entry_of(row, held, member)
            current = held.current()
            if current is not None and not played(league, current, number) and (
                    number in seated and current.number == getattr(round_, "number", 0)):
                raise TableError(words.say("leagues.still_playing", round=current.number,
                                           player=self.shown(held.names[member])))
            if any(e.member == by for e in league.entries):
                raise TableError(words.say("leagues.plays_already", league=row.id))
            held.league = leagues.replace_member(league, number, by)
            held.names[by] = clean_name(name)
            return Change(held, row.status, row.due)
        row, held = await self._change(league_id, handed)
        await self._told(league_id)
        return words.say("leagues.replaced", league=row.id, player=self.shown(held.names[by]),
                         former=self.shown(held.names[member]))

    async def pause(self, league_id: int, user_id: int, *, moderator: bool = False) -> str:
        """Every table of the league stops its clock, and so does the round."""
        now = self.now()

        def paused(row: LeagueRow, held: Held) -> Change:
            organiser(row, user_id, moderator, held, self.shown)
            if row.status == "paused":
                raise TableError(words.say("leagues.paused_already", league=row.id))
            if row.status != "running":
                raise TableError(words.say("leagues.not_running", league=row.id))
            held.left = None if row.due is None else max(0.0, row.due - now)
            return Change(held, "paused", None)
        row, held = await self._change(league_id, paused)
        stopped = {}
        for board in await self._running_boards(row.id, held):
            clock = await self.boards.stop_clock(board)
            if clock is not None:
                stopped[str(board.game_id)] = clock
        await self._change(league_id, lambda r, h: Change(
            replace(h, paused={**h.paused, **stopped}), r.status, r.due))
        await self._told(league_id)
        return words.say("leagues.paused", league=row.id)

    async def resume(self, league_id: int, user_id: int, *, moderator: bool = False) -> str:
        now = self.now()
        clocks: dict[str, Any] = {}

        def resumed(row: LeagueRow, held: Held) -> Change:
            nonlocal clocks
            organiser(row, user_id, moderator, held, self.shown)
            if row.status != "paused":
                raise TableError(words.say("leagues.not_paused", league=row.id))
            clocks, held.paused = held.paused, {}
            due = None if held.left is None else now + held.left
            held.left = None
            return Change(held, "running", due)
        row, held = await self._change(league_id, resumed)
        for game_id, clock in clocks.items():
            await self.boards.start_clock(int(game_id), clock)
        row, held = await self._change(league_id, lambda r, h: self._advance(r, h, now))
        await self._told(league_id)
        round_ = held.current()
        return words.say("leagues.resumed", league=row.id,
                         round=round_.number if round_ else 1, time=row.due or now)

    async def end(self, league_id: int, user_id: int, *, moderator: bool = False) -> str:
        """The league ends now: its standings stay as they are; tables still running play
        on as ordinary games."""
        def ended(row: LeagueRow, held: Held) -> Change:
            organiser(row, user_id, moderator, held, self.shown)
            if row.status in ("over", "ended"):
                raise TableError(words.say("leagues.not_running", league=row.id))
            return Change(held, "ended", None)
        row, _ = await self._change(league_id, ended)
        await self._told(league_id)
        return words.say("leagues.ended", league=row.id)

    # -- inside

    def _advance(self, row: LeagueRow, held: Held, now: float) -> Change:
        """Pair the next round while the one under way is finished (its forfeits recorded
        at once); the league is over after its last round."""
        league = held.league
        assert league is not None
        due = row.due
        while not league.rounds or leagues.finished(league, league.rounds[-1]):
            if len(league.rounds) >= league.settings.rounds:
                held.league = league
                return Change(held, "over", None)
            try:
                round_ = leagues.pair(league, seed=row.id * 1000 + len(league.rounds))
            except ValueError:  # too few players are left for a table
                held.league = league
                return Change(held, "over", None)
            league = replace(league, rounds=(*league.rounds, round_))
            for forfeit in leagues.forfeits(league, round_):
                league = leagues.record(league, forfeit)
            held.since, due = now, now + league.settings.round_seconds
        held.league = league
        return Change(held, "running", due)

    async def _change(self, league_id: int, change: Callable[[LeagueRow, Held], Change]
                      ) -> tuple[LeagueRow, Held]:
        """Read, change, write back while the league is still at the version read."""
        for _ in range(TRIES):
            row, held = await self.held(league_id)
            done = change(row, held)
            if await self.store.leagues.write(row.id, row.version, done.status,
                                              done.held.dumps(), done.due, now=self.now()):
                if done.due != row.due:
                    await self._timer(league_id, done.due)
                return await self.row(league_id), done.held
        raise TableError(words.say("leagues.not_running", league=league_id))

    async def _running_boards(self, league_id: int, held: Held) -> list[BoardRow]:
        round_ = held.current()
        if round_ is None:
            return []
        return [b for b in await self.store.leagues.boards(league_id, round_.number)
                if b.game_id is not None]

    async def _told(self, league_id: int) -> None:
        if self.on_change is not None:
            try:
                await self.on_change(league_id)
            except Exception:
                log.exception("Could not show the change of league %s", league_id)


class _Done(Exception):
    """Another process closed the round first."""
