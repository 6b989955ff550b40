"""What an action says: in the channel, in private and to the caller alone (``Reply``),
built only from views and events (names put into the rules' sentences) by ``Narrator``, so
nothing hidden can leak into the channel."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

import render
import rules
from bot import fairness, history, steps, undo, words
from bot.records import SeatRow
from bot.service import recap
from bot.service.pictures import Picture, Pictures
from bot.service.table import Shown, Table, private_part
from bot.store import Store
from bot.store.errors import StoreUnavailable
from render import kit
from rules.core import listing
from rules.guide import guide

log = logging.getLogger("boardroom.service")


@dataclass(frozen=True)
class Commands:
    """How a surface spells the commands the service's sentences point to (what a member
    types, never markup: the sentence gives it its role). Discord's by default; the
    terminal passes its own, and an empty one leaves its sentence out (the terminal seats
    everyone itself, so nobody is told to join)."""

    join: str = "/game join"
    start: str = "/game start"
    export: str = "/game export"
    end: str = "/game end"
    topic: str = "/rules topic:{}"  # how a line names a topic of the game's guide
    # where a computer's turn told in short is read whole: the last {} moves listed (empty:
    # the surface lists none), and the replay of move {}
    log: str = "/log count:{}"
    replay: str = "/game replay move:{}"
    # what a member typed as a move but is a command of the surface ('undo', 'help'):
    # taking a move back, and the game's guide (empty: the surface has none)
    undo: str = "/game undo"
    guide: str = "/rules game:{}"


DISCORD = Commands()
FOLD = 25  # public lines of one computer's run of steps beyond which it is told in short


@dataclass(frozen=True)
class Made:
    """A computer's move made after a command (``Turns.play_on``): its seat, where its
    events lie in the step's ``said`` (``start`` to ``end``) and the version it made."""

    seat: int
    start: int
    end: int
    version: int


def fold(table: Table, said: list[tuple[int | None, rules.Event]], made: list[Made],
         commands: Commands) -> None:
    """Tell each computer's run of moves in short where its public lines would be more
    than ``FOLD`` (an ability chain fills a screen): the game sums the run up
    (``Game.fold``) and a line says how many lines there were and where to read them
    (``/log``, which replays every move with all its events). ``said`` is changed in
    place; private events are kept as they were, and a short run is left whole."""
    runs: list[list[Made]] = []
    for move in made:  # one seat's moves back to back, nothing else between them
        if runs and runs[-1][-1].seat == move.seat and runs[-1][-1].end == move.start:
            runs[-1].append(move)
        else:
            runs.append([move])
    for run in reversed(runs):  # the last first, so the earlier runs' places hold
        seat, start, end = run[0].seat, run[0].start, run[-1].end
        told = sum(1 for _, e in said[start:end] if e.to is None)
        if told <= FOLD:
            continue
        try:
            short = table.game.fold(seat, [[e for _, e in said[m.start:m.end]
                                            if e.to is None and e.kind != "remark"]
                                           for m in run])
        except Exception:  # the whole run, rather than no turn at all
            continue
        first = commands.replay.format(undo.number(run[0].version))
        pointer = rules.Event(
            words.say("replies.folded", player=table.who(seat), count=len(run), lines=told,
                      log=commands.log.format(min(len(run), history.LOG_MOST)),
                      replay=first) if commands.log else
            words.say("replies.folded_replays", player=table.who(seat), count=len(run),
                      lines=told, replay=first,
                      replay_last=commands.replay.format(undo.number(run[-1].version))),
            kind="folded")
        said[start:end] = [*((seat, e) for e in short if e.to is None), (seat, pointer),
                           *((s, e) for s, e in said[start:end] if e.to is not None)]


def opening(table: Table, state: Any) -> tuple[str, list[tuple[int | None, rules.Event]]]:
    """The start message, built here alone (the deal's reply and the outbox's catch-up of
    an unannounced start both use it): the line saying who plays, the game's own opening
    events (``Game.opening``: who starts and how they were drawn, the words the first turns
    use), told like any event (names put in), and last the fair shuffle's commitment (a
    line for those who check, after what every player reads). ``state`` is the dealt
    state."""
    game = table.game
    said: list[tuple[int | None, rules.Event]] = [(None, e) for e in game.opening(state)]
    if table.commitment:
        said.append((None, rules.Event(fairness.announced(table.commitment), kind="fairness")))
    return words.say("replies.begins", game=game.name, players=listing(table.labels())), said


def untold(reason: str, lines: list[str]) -> str:
    """What of a game's end ``reason`` the ``lines`` did not already say: all of it, its
    sentences after the first (the game's own end line said why, the rest says who wins),
    or nothing."""
    if any(reason in line for line in lines):
        return ""
    first, _, rest = reason.partition(". ")
    return rest if rest and any(first + "." in line for line in lines) else reason


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
    ``mention`` lists the humans awaited next and ``newly`` those of them this action
    newly awaits (the ones to ping): for a ``step`` of play (a move, a computer's or a
    stand-in's, and what follows it), the humans who were not awaited all along; for
    anything else (the deal, an undo, a seat handed on), everyone awaited. A step that
    newly awaits nobody belongs to the turn already under way (the surface may add it to
    that turn's message). ``version`` is the state version after the
    action (0 before the start) and ``game`` the stored game it is about (0 before a table
    exists). ``delivered(reply)`` marks posted the versions of that game this process
    wrote up to ``version`` (not those another process wrote: that one posts them), or,
    for the outbox's catch-up replies, exactly the versions in ``covers``. For ``hand``,
    ``private`` holds the caller's own view, meant for an ephemeral answer rather than a DM.
    """

    public: str = ""
    picture: Picture | None = None
    private: tuple[Private, ...] = ()
    ephemeral: str = ""
    mention: tuple[int, ...] = ()
    newly: tuple[int, ...] = ()
    step: bool = False
    version: int = 0
    game: int = 0
    over: bool = False
    recap: Picture | None = None  # the end of a game: its points over time (``bot.service.recap``)
    animation: bytes | None = None  # the end of a game: the whole game, an animated GIF
    covers: tuple[int, ...] | None = None  # a catch-up's versions (``Outbox``)
    note: str = ""  # a catch-up's first line of ``public`` ('(Posted late...)'), if any
    ends: bool = False  # it tells a /game end: once posted, the stored end notice goes
    accent: int | None = None  # the colour of the first seat awaited (0xRRGGBB), if any
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


class Narrator:
    """Builds the reply after an action from the table's views and events: the public
    events and the board for the channel, what changed in private for each human seat,
    the caller's own secret lines; at the end, the result, the seed revealed and the
    recap."""

    def __init__(self, store: Store, pictures: Pictures, commands: Commands) -> None:
        self.store = store
        self.pictures = pictures
        self.commands = commands

    async def reply(self, table: Table, said: list[tuple[int | None, rules.Event]],
                    before: dict[int, dict[str, Any]], caller: int | None, *,
                    opening: str = "", header: str = "", step: bool = False,
                    steady: frozenset[int] = frozenset(), again: Collection[int] = ()
                    ) -> Reply:
        """The reply after an action: ``said`` holds the events and the seat that caused
        each; ``before`` the private parts as they were (``Table.private_parts``), so that
        only the seats whose view changed get it again. ``step``: a step of play, during
        which the seats ``steady`` stayed awaited (``Reply.newly``). ``again``: the
        versions a catch-up tells again (``cite``)."""
        game = table.game
        public_lines = [line for line in (header, opening) if line]
        public_lines += await self.cite(table, [table.annotate(e.text) for _, e in said
                                                if e.to is None], again)
        outcome = game.outcome(table.state)
        ended = None
        if outcome is not None:
            scores = ", ".join(words.say("replies.score", player=table.who(s), points=p)
                               for s, p in enumerate(outcome.scores))
            reason = untold(table.annotate(outcome.reason), public_lines)
            public_lines.append(words.say("replies.game_over_reason", reason=reason,
                                          scores=scores) if reason else
                                words.say("replies.game_over", scores=scores))
            public_lines += self.revealed(table)  # only now may the seed and salt be told
            ended = await recap.build(  # points, length, ratings
                self.store, table,
                painter=self.pictures.painter() if self.pictures.images else None)
            public_lines += ended.lines
        caller_seat = table.seat_of(caller) if caller is not None else None
        ephemeral = [table.annotate(e.text) for actor, e in said
                     if e.to is not None and caller_seat is not None and actor == caller_seat
                     and caller_seat in e.to]
        awaited = [] if outcome is not None else [
            s for s in sorted(table.awaited()) if table.seats[s].kind == "human"]
        newly = steps.newly(awaited, steady, [h.seat for h in table.humans()])
        # A game whose hand is worth showing at every turn (``render.hand_every_turn``):
        # the seat whose turn begins gets its picture (their turn's DM), and so does the
        # mover (with the answer to their move, ``bot.discord.direct.answered``).
        every = ({*newly, caller_seat} if outcome is None and render.hand_every_turn(game.id)
                 else set())
        drawing: AbstractAsyncContextManager[Any] = (
            self.pictures.drawing if self.pictures.images else nullcontext())
        async with drawing:
            spectator = table.shown_to(None)
            changed: list[tuple[SeatRow, list[str], Shown | None]] = []
            parts = {}
            for s in table.humans():
                lines = [table.annotate(e.text) for _, e in said
                         if e.to is not None and s.seat in e.to]
                seat_view = table.shown_to(s.seat)
                part = parts[s.seat] = private_part(seat_view[1], spectator[1])
                moved = s.seat in before and (part != before[s.seat] or s.seat in every)
                if lines or moved:
                    changed.append((s, lines, seat_view if moved else None))
            table.parts, table.parts_version = parts, table.version
            (picture,) = await self.pictures.draw(game.id, [spectator])
            later = [v for _, _, v in changed]
            dm_pictures = (asyncio.ensure_future(self.pictures.draw(game.id, later, picture))
                           if self.pictures.images and any(v is not None for v in later)
                           else None)
        private = tuple(Private(s.user_id or 0, "\n".join(lines), None)
                        for s, lines, _ in changed)
        mention = tuple(table.seats[s].user_id or 0 for s in awaited)
        accent = None
        if awaited and awaited[0] < len(table.colours):
            with contextlib.suppress(ValueError):  # a colour the palette does not name
                r, g, b = kit.seat_colour(table.colours[awaited[0]]).fill
                accent = (r << 16) | (g << 8) | b
        return Reply(public="\n".join(public_lines), picture=picture, private=private,
                     ephemeral="\n".join(ephemeral), mention=mention, accent=accent,
                     newly=tuple(table.seats[s].user_id or 0 for s in newly),
                     step=step and outcome is None, version=table.version,
                     game=table.id, over=outcome is not None, drawing=dm_pictures,
                     recap=None if ended is None else ended.picture,
                     animation=None if ended is None else ended.animation)

    async def cite(self, table: Table, lines: list[str], again: Collection[int] = ()
                   ) -> list[str]:
        """The channel's lines, the first of the game to use a term a topic of its guide
        explains (``Guide.cites``) naming that topic as the surface asks for it, "(`rules
        life`)": once per game, across restarts and processes (``store.tables.cite``, with the
        version of the reply). A reply told ``again`` (a catch-up of those versions, never
        posted) names what their first telling named. Only the channel's own lines are
        given, so no topic is ever named from a private line."""
        if not self.commands.topic or not lines:
            return lines
        book = guide(table.game.id)
        found = [[t.key for t in book.cites(line)] for line in lines]

        def told(key: str) -> bool:  # named by a reply already posted
            return key in table.cited and table.cited[key] not in again

        if all(told(key) for keys in found for key in keys):
            return lines
        # another process may have named some (busy: what this process knows will do)
        with contextlib.suppress(StoreUnavailable):
            table.cited = {**await self.store.tables.cited(table.id), **table.cited}
        named: list[str] = []
        out = []
        for line, keys in zip(lines, found, strict=True):
            fresh = [key for key in keys if not told(key) and key not in named]
            named += fresh
            topics = ", ".join(words.say("replies.topic", command=self.commands.topic.format(k))
                               for k in fresh)
            out.append(words.say("replies.cited", line=line, topics=topics) if fresh else line)
        new = [key for key in named if key not in table.cited]
        if new:
            table.cited.update(dict.fromkeys(new, table.version))
            try:  # the move is written already: a full database costs only the naming
                await self.store.tables.cite(table.id, new, table.version)
            except StoreUnavailable:
                log.warning("Could not keep the topics named in game %s", table.id)
        return out

    def revealed(self, table: Table) -> list[str]:
        """The line revealing a finished game's seed and salt (none for a game that never
        started, or one started before commitments were posted), with how this surface
        spells the command that saves the move log."""
        if table.seed is None or not table.salt or not table.commitment:
            return []
        return [fairness.revealed(table.seed, table.salt, table.commitment,
                                  self.commands.export)]
