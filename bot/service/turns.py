"""Turns: a player's move, a computer's, a stand-in's, and the one place for what follows
every version written (computer players move until a human must, the clocks are put in
step, the reply is built). A computer's (or a stand-in's) move may come with the game's
one-line remark on why (``Game.remark``), told in the channel after the move's events.

A move is written through ``Tables.write``. If another bot process wrote the table first,
the move is tried again on the table as it now stands, as long as it is still the player's
to make, still legal there, and the versions written meanwhile were other seats' (two
players' secret picks sent at once to two processes both go in; one move sent twice goes in
once); only a move that no longer fits is refused.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import rules
from bot import ratings, steps, undo, words
from bot.moves import Choices, plain
from bot.service.clocks import Clocks
from bot.service.computers import Computers
from bot.service.replies import Made, Narrator, Reply, fold
from bot.service.table import Conflict, Table, TableError, move_digest, private_part
from bot.service.tables import Tables
from bot.store import Store
from rules.computer import PLAYS, Choice, level_of
from rules.core import listing, quote

log = logging.getLogger("boardroom.service")

CHAIN_LIMIT = 10_000  # computer moves in a row before the service stops to ask why
STAND_IN_STEPS = 100  # a stand-in's steps in one late turn at most
REMARK_LIMIT = 200  # characters of a computer's remark at most (one line)
RETRIES = 3  # times a move is tried again after another process wrote the table first

Said = list[tuple[int | None, rules.Event]]  # events, each with the seat that caused it


def choices(table: Table, seat: int) -> Choices:
    """The seat's legal moves, free ones first, with what the costly ones cost and what
    each does (``game.notes``, which also orders them)."""
    return Choices.of(list(table.moves(seat)), table.costs(seat), table.notes(seat),
                      beside=table.game.costly_beside)


def not_your_turn(table: Table, *, retried: bool = False) -> str:
    """Why a seat may not move now (``retried``: after another process moved first)."""
    waiting = listing([table.label(s) for s in sorted(table.awaited())])
    if retried:
        return words.say("turns.not_your_turn_now", players=waiting)
    return words.say("turns.not_your_turn", players=waiting)


def remark(table: Table, seat: int, choice: Choice) -> Said:
    """The game's one line on why the computer in ``seat`` chose ``choice`` (``Game.remark``,
    given the spectators' view before the move, so it names nothing hidden, and the
    computer's ``chance`` where its seat sees nothing the spectators do not: an estimate
    that weighed its own hand would tell of the hand), as a public event to tell after
    the move's: one line, clipped, escaped as names are (the surface's ``shown``: no
    markdown, no mentions). None when the game has nothing to say; a remark that fails is
    logged and left out, the move goes on."""
    game = table.game
    try:
        public = game.view(table.state, None)
        # its chance weighs what only its seat knows (a hand): said, it would tell of it
        chance = None if private_part(game.view(table.state, seat), public) else choice.chance
        line = game.remark(public, seat, choice.move, chance)
    except Exception:
        log.exception("%s could not remark on a computer's move in channel %s", game.name,
                      table.channel_id)
        return []
    text = " ".join(str(line or "").split())
    if not text:
        return []
    if len(text) > REMARK_LIMIT:
        text = text[: REMARK_LIMIT - 1] + "…"
    return [(seat, rules.Event(table.shown(text), kind="remark"))]


def with_remark(seat: int, events: list[rules.Event], remarks: Said) -> Said:
    """A computer's move told with its remark right after the move's own line (its first
    public event), before what followed from it (a second turn, the game's end), which the
    remark, a sentence without a subject, must not seem to speak of."""
    at = next((n + 1 for n, e in enumerate(events) if e.to is None), len(events))
    return [*((seat, e) for e in events[:at]), *remarks, *((seat, e) for e in events[at:])]


class Turns:
    """Moves made at the tables, and what follows each."""

    def __init__(self, store: Store, tables: Tables, computers: Computers, clocks: Clocks,
                 narrator: Narrator) -> None:
        self.store = store
        self.tables = tables
        self.computers = computers
        self.clocks = clocks
        self.narrator = narrator

    async def play(self, channel_id: int, user_id: int, text: str, *,
                   version: int | None = None, game: int | None = None) -> Reply:
        """Make a move for the caller's seat; computer players then act until a human must.

        Checks, in order: a running table, a seat, the game and version (for buttons), the
        turn; then the rules (their ``GameError`` passes through unchanged). A refused move
        changes nothing. The move is committed before the reply is built.
        """
        text = plain(text)  # a suggestion's label, if Discord sent that
        async with self.tables.lock(channel_id):
            table = await self.tables.running(channel_id)
            if table.seat_of(user_id) is None:
                raise TableError(words.say("seats.no_seat"))
            if game is not None and game != table.id:
                raise TableError(words.say("turns.earlier_game"))
            if version is not None and version != table.version:
                raise TableError(words.say("turns.earlier_turn"))
            seat = self._mover(table, user_id)
            awaited = table.awaited()
            for attempt in range(RETRIES + 1):
                before, played = table.parts_before(), table.version
                try:
                    state, events, move = self._apply(table, seat, text)
                except rules.GameError as refusal:
                    if not attempt:
                        raise
                    raise TableError(words.say("turns.no_longer_fits",
                                               reason=str(refusal))) from None
                try:
                    await self.tables.write(table, state, seat=seat, text=move)
                    break
                except Conflict:
                    only = list(table.moves(seat)) == [move]  # nothing else was legal
                    table = await self.tables.running(channel_id)  # as it now stands
                    made = await self._moved_since(table, seat, played)
                    if only and made == [move]:  # the table made it meanwhile: forced
                        reply = await self.narrator.reply(
                            table, [], table.parts_before(), user_id, step=True,
                            steady=table.awaited())
                        return replace(reply, ephemeral=words.say("turns.made_already",
                                                                  typed=quote(move)))
                    if attempt == RETRIES or made:
                        raise
                    seat = self._mover(table, user_id, retried=True)
                    awaited = table.awaited()
            said: Said = [(seat, e) for e in events]
            return await self.after(table, said, before, moved={seat}, caller=user_id,
                                    awaited=awaited)

    async def _moved_since(self, table: Table, seat: int, version: int) -> list[str]:
        """The moves ``seat`` itself wrote after ``version`` (the same move sent twice,
        through two processes, or made by the table as a forced step): the move is then
        not tried again (and a forced one is answered as made)."""
        return [m.text for m in await self.store.tables.moves(table.id)
                if m.version > version and m.seat == seat]

    def _mover(self, table: Table, user_id: int, *, retried: bool = False) -> int:
        """The caller's seat, if it is awaited; else the sentence why not."""
        seat = table.seat_for(user_id, "seats.no_seat")
        if seat not in table.awaited():
            raise TableError(not_your_turn(table, retried=retried))
        return seat

    def _apply(self, table: Table, seat: int, text: str
               ) -> tuple[Any, list[rules.Event], str]:
        """The state after the seat's move, its events and its canonical text; the rules'
        sentence if it is refused (and, for the start of a move, what may follow)."""
        try:
            state, events = table.game.play(table.state, seat, text, legal=table.moves(seat))
        except (rules.InvalidMove, rules.IllegalMove):
            unfinished = choices(table, seat).unfinished(text)
            if unfinished is not None:
                raise rules.InvalidMove(unfinished) from None
            command = self._command(table, text)
            if command is None:
                raise
            hint = table.game.notation_hint(table.state, seat)
            raise rules.InvalidMove(f"{command} {hint}") from None
        move = table.canonical(seat, text)
        if undo.is_entry(move):  # the log's word for taking moves back (``TakeBack``)
            raise TableError(words.say("turns.not_a_move", typed=quote(move),
                                       game=table.game.name))
        return state, events, move

    def _command(self, table: Table, text: str) -> str | None:
        """A sentence for a word the game refused that is a command of the surface, typed
        as a move ('undo', 'help'): where that command is; None for any other text."""
        word = text.strip().lower()
        spelt = self.narrator.commands
        if word in ("undo", "takeback", "take back") and spelt.undo:
            return words.say("turns.undo_command", typed=quote(word), command=spelt.undo)
        if word in ("help", "rules", "guide", "?") and spelt.guide:
            return words.say("turns.guide_command", typed=quote(word),
                             command=spelt.guide.format(table.game.id))
        return None

    async def button_move(self, channel_id: int, user_id: int, game: int, version: int,
                          digest: str) -> str:
        """The move a button carries (see ``move_digest``), if it is still the clicker's
        to make: in this channel's current game, at this version, among their legal moves.
        Otherwise a ``TableError`` says why; nothing is played here."""
        async with self.tables.lock(channel_id):
            table = await self.tables.running(channel_id)
            if game != table.id:
                raise TableError(words.say("turns.earlier_game"))
            seat = table.seat_for(user_id, "seats.no_seat")
            if version != table.version:
                raise TableError(words.say("turns.earlier_turn"))
            if seat not in table.awaited():
                raise TableError(not_your_turn(table))
            move = next((m for m in table.moves(seat)
                         if move_digest(game, version, m) == digest), None)
            if move is None:
                raise TableError(words.say("turns.button_stale"))
            return move

    # -- what follows a move

    async def after(self, table: Table, said: Said, before: dict[int, dict[str, Any]], *,
                    moved: set[int] | frozenset[int] = frozenset(), caller: int | None = None,
                    opening: str = "", header: str = "",
                    awaited: frozenset[int] | None = None) -> Reply:
        """What follows every version written (a move, the deal, an undo, a seat handed
        on): computer players and forced steps move until a human must choose, the clocks
        are put in step (a seat that ``moved`` starts a fresh wait), and the reply is built
        from ``said`` and the private parts as they were ``before``.

        ``awaited``: for a step of play (a move, a stand-in's), the seats awaited before
        it; the reply is then a ``step`` and pings only the humans awaited now who were not
        awaited all along (``Reply.newly``). Anything else (the deal, an undo, a seat handed
        on) is news to everyone awaited."""
        steady = set(awaited & table.awaited()) if awaited is not None else set()
        moved = set(moved) | await self.play_on(table, said, steady)
        await self.clocks.sync(table, moved=moved, steady=steady)
        return await self.narrator.reply(table, said, before, caller, opening=opening,
                                         header=header, steady=frozenset(steady),
                                         step=awaited is not None)

    async def play_on(self, table: Table, said: Said, steady: set[int] | None = None
                      ) -> set[int]:
        """Computer players whose input is awaited move (``rules.computer.decide`` at the
        seat's level; a seat stored without one plays at random), and a human awaited alone
        whose only legal move decides nothing has it played for them (``forced``), until a
        human must choose. The human seats so moved are returned; ``steady`` keeps only the seats
        awaited after every one of these moves.

        Each move is its own version. A computer's choice is drawn from the game's seed
        and the version, so a game replays the same with the same seed. If anything fails,
        the chain stops where it is; the outbox finishes it after a restart. A computer's
        run of moves too long for the channel is told in short (``replies.fold``).
        """
        made: list[Made] = []
        forced = await self._chain(table, said, steady, made)
        fold(table, said, made, self.narrator.commands)
        return forced

    async def _chain(self, table: Table, said: Said, steady: set[int] | None,
                     made: list[Made]) -> set[int]:
        """``play_on``'s moves, each computer's move noted in ``made``."""
        computers = set(table.computers())
        forced: set[int] = set()
        for _ in range(CHAIN_LIMIT):
            if table.status != "playing":
                return forced
            waiting = sorted(computers & table.awaited())
            # A forced step is looked for only where one seat alone is awaited: its moves
            # are listed once and serve the player's own next command too (with several
            # awaited, each would be listed though the first to act changes the state).
            alone = sorted(table.awaited()) if len(table.awaited()) == 1 else []
            humans = [] if waiting else [(seat, only) for seat in alone
                                         if (only := self.forced(table, seat)) is not None]
            if not waiting and not humans:
                return forced
            try:
                remarks: Said = []
                if waiting:
                    seat = waiting[0]
                    level = table.seats[seat].level or "easy"
                    choice = await self.computers.decide(table, seat, level)
                    move = choice.move
                    notes: Said = []
                    # a move drawn at random has no reason to tell
                    remarks = [] if PLAYS[level_of(level)] == "random" else \
                        remark(table, seat, choice)
                else:
                    seat, move = humans[0]
                    forced.add(seat)
                    # (never the move's words: a secret pick would show in them)
                    name = (table.colours[seat] if seat < len(table.colours)
                            else f"Player {seat + 1}")  # as the rules name seats
                    notes = [(seat, rules.Event(words.say("turns.forced", colour=name)))]
                state, events = table.game.play(table.state, seat, move,
                                                legal=table.moves(seat))
                await self.tables.write(table, state, seat=seat, text=move)
            except TableError:
                return forced  # another process moved this table on; it carries on there
            except Exception:
                log.exception("A computer player could not move in channel %s",
                              table.channel_id)
                return forced
            if not notes:  # a computer's move (a forced step is told whole)
                made.append(Made(seat, len(said), len(said) + len(events) + len(remarks),
                                 table.version))
            said.extend([*notes, *with_remark(seat, events, remarks)])
            if steady is not None:
                steady &= table.awaited()
        log.error("Computer players made %s moves in a row in channel %s; stopping",
                  CHAIN_LIMIT, table.channel_id)
        return forced

    @staticmethod
    def forced(table: Table, seat: int) -> str | None:
        """The move a human seat must make, when its legal moves are just that one (a
        ``draw`` that must be drawn, a lone ``pass``) and everyone can tell
        (``bot.steps.forced``): nothing to decide, so the table plays it for them. Each
        game's page lists which steps those are."""
        if table.seats[seat].kind != "human":
            return None
        return steps.forced(table.game, table.state, table.version, seat, table.moves(seat))

    async def stand_in(self, table: Table, seat: int, level: str) -> Reply:
        """A computer player of ``level`` makes a late seat's moves for this turn: every
        step while the seat alone stays awaited (a turn of several steps is played whole,
        so one late turn costs one turn time, and the channel hears of it at once); the
        channel is told it is a stand-in. The player takes the seat back by acting (the
        next turn's clock is theirs again)."""
        before, awaited = table.parts_before(), table.awaited()
        header = words.say("turns.stood_in", player=table.label(seat), level=level)
        await self.store.tables.mark_unrated(table.id, ratings.STOOD_IN)
        said: Said = []
        for _ in range(STAND_IN_STEPS):
            legal = table.moves(seat)
            choice = await self.computers.decide(table, seat, level)
            remarks = remark(table, seat, choice)
            state, events = table.game.play(table.state, seat, choice.move, legal=legal)
            await self.tables.write(table, state, seat=seat, text=choice.move)
            said.extend(with_remark(seat, events, remarks))
            if table.status != "playing" or table.awaited() != {seat}:
                break
        return await self.after(table, said, before, moved={seat}, header=header,
                                awaited=awaited)
