"""Replays: a channel's game stepped through move by move (``/game replay``), the board
after move N drawn from the log replayed through the rules, by the channel's renderers,
with what happened in that move.

Who sees what:

- **A finished game** (over by its rules, or ended; its seed is told then) is public: the
  board, every seat's hidden part (each hand drawn under it, as ``hands.png``) and every
  seat's private lines, each naming whom it was told to.
- **A running game** is seen as the caller may see it: a seated player's own view and
  private lines, anyone else a spectator's, only up to the version now. The surface
  answers it to the caller alone; each step is worked out afresh for whoever asks then.

A move is numbered as the board and ``/log`` number it: move 0 is the deal, move N made
state version N + 1; a move an undo took back is shown as it was, marked so. A *turn*
is what the channel told in one turn message (``bot.steps``: it ends with a step that newly
awaits a player): "Turn ▶▶" skips a seat's several steps at once, and stops where the
channel posted a new message.

Nothing is written: a replay reads the stored game and its log. The log replayed (a
``bot.timeline.Timeline``, which keeps a state every ``EVERY`` versions and at each undo
entry) is kept per stored game and version, a few at a time (``KEPT``), and grown by the
moves logged since when the game moves on; a step plays the few moves from the nearest
kept state, in a thread, and draws in the drawing threads.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import render
import rules
from bot import history, undo, words
from bot.records import GameRow, MoveRow
from bot.service.pictures import Pictures
from bot.service.recap import animated
from bot.service.table import Table, TableError, encode, private_part
from bot.service.tables import Tables
from bot.store import Store
from bot.timeline import Timeline
from render import animation, kit
from rules.core import listing

KEPT = 8  # games replayed and kept (by stored game and version)
KEPT_PICTURES = 32  # hands pictures kept (the boards are kept by ``Pictures``)
KEPT_ANIMATIONS = 2  # animated GIFs kept (1-3 MB each)
CHOICES = 25  # Discord's limit on a select's options and on autocomplete's choices
FINISHED = ("over", "ended")
HANDS = "hands.png"


@dataclass(frozen=True)
class Image:
    """A picture to attach: its file name, PNG bytes, and the line a screen reader reads."""

    name: str
    png: bytes
    alt: str


@dataclass(frozen=True)
class Jumps:
    """Where each stepping control goes from the move shown (None: nowhere, disabled)."""

    start: int | None
    turn_back: int | None
    back: int | None
    forward: int | None
    turn_forward: int | None
    end: int | None


@dataclass(frozen=True)
class Frame:
    """One step of a replay as its viewer may see it: the move shown (0: the deal) of
    ``last`` so far, its text and pictures, where the controls go, and the turns a select
    offers (``(move, label)``, at most ``CHOICES``, spread over the game). ``finished``:
    the game is over and this step shows everything (it may go to the channel)."""

    channel_id: int
    game: int  # the stored game: its table number
    title: str  # 'Cube Conquest, table 12'
    move: int
    last: int
    finished: bool
    text: str
    images: tuple[Image, ...]
    jumps: Jumps
    turns: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Listed:
    """One of a channel's tables as ``/game replay`` offers it."""

    game: int
    label: str  # 'Cube Conquest · table 12 · ended 3 days ago'


def rebuild(game: rules.Game[Any], players: int, seed: int, options: dict[str, Any] | None,
            moves: Sequence[MoveRow], stored: str | None, computers: Sequence[int] = ()
            ) -> Timeline:
    """The log replayed (``Timeline``, turns told). ``stored``: the stored state the last
    move must lead to (None: not checked); a log that no longer leads there cannot be
    replayed."""
    past = Timeline(game, players, seed, options, moves, computers=computers)
    if not past.lost:
        check(game, past.final, stored)
    return past


def extend(past: Timeline, moves: Sequence[MoveRow], stored: str | None) -> Timeline:
    """``past`` (a running game's replay) with the moves logged since played on from its
    last state (``Timeline.grown``): the cost of the new moves, not of the whole log.
    ``ValueError`` where it cannot be (a move that no longer replays: ``rebuild`` then)."""
    grown = past.grown(moves)
    if grown.lost:
        raise ValueError("a move no longer replays: replay from the deal")
    check(past.game, grown.final, stored)
    return grown


def check(game: rules.Game[Any], state: Any, stored: str | None) -> None:
    """Refuse a replay whose last state is not the stored one (the rules changed)."""
    if stored is not None and encode(game, state) != stored:
        raise TableError(words.say("replays.no_longer"))


# --------------------------------------------------------------------------- the service


class Replays:
    """``/game replay``: a channel's tables to choose from, a step of one as the caller
    may see it, and the whole game animated. Reads only."""

    def __init__(self, store: Store, tables: Tables, pictures: Pictures, *,
                 now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.tables = tables
        self.pictures = pictures
        self.now = now
        self._rebuilt: OrderedDict[tuple[int, int], asyncio.Future[Timeline]] = OrderedDict()
        self._hands: OrderedDict[Hashable, bytes | None] = OrderedDict()
        self._animations: OrderedDict[tuple[int, int], bytes] = OrderedDict()

    # -- which table

    async def listed(self, channel_id: int, typed: str = "") -> list[Listed]:
        """The channel's tables that started, newest first, as autocomplete offers them
        (those whose label holds ``typed``, or whose number starts with it)."""
        rows = [r for r in await self.store.tables.started_games(channel_id, CHOICES)
                if not r.damaged and r.game in rules.GAMES]
        typed = typed.strip().lower().removeprefix("table").strip()
        out = [Listed(r.id, self._label(r)) for r in rows]
        return [t for t in out if not typed or str(t.game).startswith(typed)
                or typed in t.label.lower()]

    def _label(self, row: GameRow) -> str:
        name = rules.GAMES[row.game].name
        if row.status == "playing":
            return words.say("replays.running", game=name, table=row.id,
                             number=max(0, row.version - 1))
        moment = row.finished if row.finished is not None else row.updated
        return words.say("replays.ended", game=name, table=row.id,
                         ago=ago(self.now() - moment, moment))

    async def _find(self, channel_id: int, table_id: int | None
                    ) -> tuple[Table, GameRow, list[MoveRow] | None]:
        """The table asked for (None: the channel's last finished one, else its running
        one), its stored row and, unless its replay is kept, its log up to its version."""
        async with self.tables.lock(channel_id):
            if table_id is None:
                rows = await self.store.tables.started_games(channel_id, CHOICES)
                row = next((r for r in rows if r.status in FINISHED and not r.damaged),
                           None) or next((r for r in rows if r.status == "playing"), None)
                if row is None:
                    raise TableError(words.say("replays.nothing"))
            else:
                found = await self.store.tables.game(table_id)
                if found is None or found.channel_id != channel_id:
                    raise TableError(words.say("replays.no_table", table=table_id,
                                               option="table"))
                row = found
                if row.seed is None:
                    raise TableError(words.say("replays.not_started", table=row.id))
            if row.damaged:
                raise TableError(words.say("replays.set_aside", table=row.id))
            table = None
            if row.status == "playing":
                try:
                    held: Table | None = await self.tables.active(channel_id)
                except TableError:
                    held = None
                if held is not None and held.id == row.id:
                    table = held
                else:  # it ended since: its row read again
                    row = await self.store.tables.game(row.id) or row
            if table is None:
                table = await self.tables.load(row)
            if (table.id, table.version) in self._rebuilt:
                return table, row, None
            return table, row, [m for m in await self.store.tables.moves(table.id)
                                if m.version <= table.version]

    async def _replayed(self, table: Table, moves: list[MoveRow] | None) -> Timeline:
        """The table's log replayed, kept per (game, version), one replay at a time each:
        a running game's from its replay at an earlier version when one is kept (that one
        let go of: nobody steps an old version), else from the deal."""
        key = (table.id, table.version)
        future = self._rebuilt.get(key)
        if future is None:
            if moves is None:  # let go of since it was looked up
                moves = [m for m in await self.store.tables.moves(table.id)
                         if m.version <= table.version]
            earlier = max((k for k, f in self._rebuilt.items() if k[0] == table.id
                           and k[1] < table.version and f.done() and not f.cancelled()
                           and f.exception() is None), default=None)
            base = None if earlier is None else self._rebuilt.pop(earlier).result()
            future = asyncio.ensure_future(asyncio.get_running_loop().run_in_executor(
                None, replayed, table, moves, base))
            self._rebuilt[key] = future
            while len(self._rebuilt) > KEPT:
                self._rebuilt.popitem(last=False)
        else:
            self._rebuilt.move_to_end(key)
        try:
            return await asyncio.shield(future)
        except BaseException:
            if future.done() and self._rebuilt.get(key) is future:
                del self._rebuilt[key]
            raise

    # -- a step

    async def show(self, channel_id: int, user_id: int, table_id: int | None = None,
                   move: int | None = None) -> Frame:
        """Move ``move`` (None: the deal) of the table asked for, as ``user_id`` may see
        it: everything once the game is over, else their seat's view (a spectator's if
        they have none) up to the version now."""
        table, row, moves = await self._find(channel_id, table_id)
        past = await self._replayed(table, moves)
        last = undo.number(past.last)
        move = 0 if move is None else move
        if not 0 <= move <= last:
            raise TableError(
                words.say("replays.no_move", table=table.id, last=last, number=move)
                if table.over() else
                words.say("replays.no_move_so_far", table=table.id, last=last, number=move))
        finished = table.over()
        seat = None if finished else table.seat_of(user_id)
        version = move + 1
        loop = asyncio.get_running_loop()
        views = await loop.run_in_executor(None, _views, table, past, version, finished, seat)
        images = await self._draw(table, version, finished, seat, views)
        return Frame(
            channel_id=channel_id, game=table.id,
            title=words.say("replays.title", game=table.game.name, table=table.id),
            move=move, last=last, finished=finished,
            text=frame_text(table, past, version, seat, finished, row.started),
            images=images, jumps=jumps(past, version), turns=turn_choices(table, past))

    async def _draw(self, table: Table, version: int, finished: bool, seat: int | None,
                    views: list[dict[str, Any]]) -> tuple[Image, ...]:
        """The step's pictures: the board as its viewer sees it (a seat's with its hand),
        and after the end every seat's hidden part, drawn in the drawing threads."""
        if not self.pictures.images:
            return ()
        game_id, names = table.game.id, tuple(table.names())
        shown = seat if not finished else None
        (picture,) = await self.pictures.draw(
            game_id, [((table.id, version, shown, names), views[0])])
        assert picture is not None
        out = [Image("board.png", picture.png, picture.summary)]
        out += [Image("hand.png", png, picture.summary) for png in picture.more]
        if finished and len(views) > 1:
            key = (table.id, version, names)
            if key in self._hands:
                self._hands.move_to_end(key)
                hands = self._hands[key]
            else:
                hands = await asyncio.get_running_loop().run_in_executor(
                    self.pictures.painter(), hands_png, game_id, views[1:])
                self._hands[key] = hands
                while len(self._hands) > KEPT_PICTURES:
                    self._hands.popitem(last=False)
            if hands is not None:
                out.append(Image(HANDS, hands, hands_alt(table, views[0], views[1:], version)))
        return tuple(out)

    # -- the whole game

    async def animation(self, channel_id: int, table_id: int | None = None
                        ) -> tuple[str, bytes]:
        """The table's whole game so far as an animated GIF of the public board after each
        turn (``recap.animated``: public views only), and the line saying what it is."""
        table, _, _ = await self._find(channel_id, table_id)
        if not self.pictures.images:
            raise TableError(words.say("replays.no_pictures"))
        key = (table.id, table.version)
        gif = self._animations.get(key)
        if gif is None:
            moves = undo.in_force(await self.store.tables.moves(table.id))
            try:
                gif = await asyncio.get_running_loop().run_in_executor(
                    self.pictures.painter(), animated, table.game, table,
                    [m for m in moves if m.version <= table.version])
            except rules.GameError:  # its sentence may tell a seat's hand: never shown
                raise TableError(words.say("replays.no_longer")) from None
            self._animations[key] = gif
            while len(self._animations) > KEPT_ANIMATIONS:
                self._animations.popitem(last=False)
        if table.over():
            return words.say("replays.animation_whole", game=table.game.name,
                             table=table.id), gif
        return words.say("replays.animation_so_far", game=table.game.name, table=table.id), gif


# --------------------------------------------------------------------------- pure parts


def replayed(table: Table, moves: Sequence[MoveRow], base: Timeline | None) -> Timeline:
    """The table's ``moves`` replayed: on from ``base`` where it can be, else from the
    deal; checked against the stored state."""
    assert table.seed is not None and table.state is not None
    stored = encode(table.game, table.state)
    if base is not None:
        try:
            return extend(base, [m for m in moves if m.version > base.last], stored)
        except ValueError:
            pass  # from the deal
    return rebuild(table.game, len(table.seats), table.seed, table.options, moves, stored,
                   table.computers())


def _views(table: Table, past: Timeline, version: int, finished: bool, seat: int | None
           ) -> list[dict[str, Any]]:
    """The views a step draws: the viewer's (a spectator's once the game is over), then,
    once it is over, each seat's that holds something the spectator's does not."""
    game, names = table.game, table.names()
    state = past.state(version)

    def view(of: int | None) -> dict[str, Any]:
        shown = game.view(state, of)
        shown["names"] = names
        return shown

    first = view(None if finished else seat)
    if not finished:
        return [first]
    return [first, *(v for s in range(len(table.seats))
                     if private_part(v := view(s), first))]


def hands_png(game_id: str, views: Sequence[dict[str, Any]]) -> bytes | None:
    """Each seat's hidden part (the game's ``hand`` picture of its view), one under
    another; None if no seat holds anything drawn."""
    drawer = render.renderer(game_id)
    drawn = [drawer.hand({**view, "for_all": True}, width=1000) for view in views]
    shown = [d for d in drawn if d is not None]
    return kit.png(kit.stack(shown)) if shown else None


def hands_alt(table: Table, public: dict[str, Any], views: Sequence[dict[str, Any]],
              version: int) -> str:
    """'Every hand after move 5. Ann (Red): <what her view's summary adds to the board's>
    ...'."""
    board = render.summary(table.game.id, public)
    parts = []
    for v in views:
        player = table.label(int(v["seat"]))
        own = render.summary(table.game.id, v).removeprefix(board).strip()
        parts.append(words.say("replays.hand", player=player, summary=own) if own
                     else words.say("replays.hand_empty", player=player))
    return words.say("replays.hands", number=undo.number(version), hands=" ".join(parts))


def frame_text(table: Table, past: Timeline, version: int, seat: int | None, finished: bool,
               started: float | None) -> str:
    """The step's text: which table and move, whose view, what happened in the move."""
    move, last = undo.number(version), undo.number(past.last)
    turn, turns = past.turn_of(version), len(past.ends) - 1
    heading = words.say("replays.heading", game=table.game.name, table=table.id)
    head = (words.say("replays.head_deal", heading=heading, number=move, last=last)
            if version == 1 else
            words.say("replays.head_turn", heading=heading, number=move, last=last, turn=turn,
                      turns=turns))
    if finished and table.game.outcome(table.state) is not None:
        whose = words.say("replays.over")
    elif finished:
        whose = words.say("replays.ended_early")
    elif seat is None:
        whose = words.say("replays.spectator")
    else:
        whose = words.say("replays.seated", player=table.label(seat), lock=history.PRIVATE)
    lines = [head, whose]
    if version == 1:
        numbered = f"#{undo.number(1)}"
        lines.append(words.say("replays.deal", numbered=numbered) if started is None
                     else words.say("replays.deal_at", numbered=numbered, time=started))
    else:
        lines.append(history.step_lines(past.step(version), seat, table.labels(),
                                        table.annotate, past.taken_back, revealed=finished))
    if version == past.last:
        if past.lost:
            lines.append(words.say("replays.lost", count=len(past.lost)))
        elif finished:
            lines.append(history.over_line(table.game, table.state, table.labels(),
                                           table.annotate) or table.situation())
    return "\n".join(line for line in lines if line)


def jumps(past: Timeline, version: int) -> Jumps:
    """Where Start, ◀◀ Turn, ◀ Move, Move ▶, Turn ▶▶ and End go from ``version`` (as
    move numbers); None where one would stay put."""
    last = past.last
    earlier = [v for v in past.ends if v < version]
    later = [v for v in past.ends if v > version]

    def move(v: int | None) -> int | None:
        return None if v is None or v == version else undo.number(v)

    return Jumps(start=move(1), turn_back=move(earlier[-1] if earlier else None),
                 back=move(version - 1 if version > 1 else None),
                 forward=move(version + 1 if version < last else None),
                 turn_forward=move(later[0] if later else None), end=move(last))


def turn_choices(table: Table, past: Timeline) -> tuple[tuple[int, str], ...]:
    """The turns a select offers: at most ``CHOICES``, spread evenly over the game (the
    deal and the last always), each '(move) Turn 12 of 40: Ann (Red)'."""
    turns = len(past.ends) - 1
    out = []
    for n in animation.sample(len(past.ends), CHOICES):
        end = past.ends[n]
        move = undo.number(end)
        if n == 0:
            out.append((move, words.say("replays.deal_choice")))
            continue
        who = listing([plain_label(table, s) for s in past.movers.get(end, ())])
        out.append((move, words.say("replays.turn_choice", turn=n, turns=turns, number=move,
                                    players=who)[:100]))
    return tuple(out)


def plain_label(table: Table, seat: int) -> str:
    """'Ann (Red)' as written, for a select's label (where nothing is markdown)."""
    name = (table.seats[seat].name if seat < len(table.seats)
            else words.say("replays.seat", seat=seat + 1))
    return (words.say("table.label", player=name, colour=table.colours[seat])
            if seat < len(table.colours) else name)


def ago(seconds: float, moment: float) -> str:
    """'just now', '5 minutes ago', '3 hours ago', '2 days ago', else 'on 2026-01-03'."""
    if seconds < 60:
        return words.say("replays.just_now")
    if seconds < 3600:
        return words.say("replays.minutes_ago", count=int(seconds // 60))
    if seconds < 86400:
        return words.say("replays.hours_ago", count=int(seconds // 3600))
    if seconds < 14 * 86400:
        return words.say("replays.days_ago", count=int(seconds // 86400))
    return words.say("replays.on_date", date=time.strftime("%Y-%m-%d", time.gmtime(moment)))
