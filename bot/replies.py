"""Replies: what an action says in the channel, in private and to the caller alone, built
only from views and events (names put into the rules' sentences), so nothing hidden leaks."""

from __future__ import annotations

import asyncio
import re
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

import rules
from bot import fairness, recap
from bot.pictures import Picture, Pictures, Shown
from bot.records import SeatRow
from bot.tables import Tables, _Table


@dataclass(frozen=True)
class Commands:
    """How a surface spells the commands the service's sentences point to. Discord's by
    default; the terminal passes its own, and an empty one leaves its sentence out (the
    terminal seats everyone itself, so nobody is told to join)."""

    join: str = "/game join"
    start: str = "/game start"
    export: str = "/game export"
    end: str = "/game end"


DISCORD = Commands()

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
    ``mention`` lists the humans awaited next; ``version`` is the state version after the
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
    version: int = 0
    game: int = 0
    over: bool = False
    recap: Picture | None = None  # the end of a game: its points over time (bot/recap.py)
    covers: tuple[int, ...] | None = None  # a catch-up's versions (``bot.outbox``)
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


class Replies(Tables, Pictures):
    commands = DISCORD  # how this surface spells the commands sentences name

    """Building a table's replies."""

    def _private_parts(self, table: _Table) -> dict[int, dict[str, Any]]:
        """What each human seat alone can see now, to tell later whose view changed."""
        if table.state is None:
            return {}
        public = table.game.view(table.state, None)
        return {s.seat: _private_part(table.game.view(table.state, s.seat), public)
                for s in table.seats if s.kind == "human"}

    def _annotate(self, table: _Table, text: str) -> str:
        """Players' names into the rules' sentences: 'Blue attacks Red' -> 'Blue (Alice)
        attacks Red (Bob)', names at first mention; in a game whose seats have no colours,
        'Player 2 takes stone 3' -> 'Bob takes stone 3'."""
        labels = table.colours or [f"Player {s + 1}" for s in range(len(table.seats))]
        if table.named is None:
            table.named = re.compile(
                r"\b(" + "|".join(re.escape(c) for c in labels) + r")\b")
        seen: set[str] = set()

        def named(match: re.Match[str]) -> str:
            word = match.group(0)
            name = table.who(labels.index(word))
            if not table.colours:
                return name
            if word in seen:
                return word
            seen.add(word)
            return f"{word} ({name})"

        return table.named.sub(named, text)

    def _view(self, table: _Table, seat: int | None) -> dict[str, Any]:
        view = table.game.view(table.state, seat)
        view["names"] = table.names()
        return view

    def _shown(self, table: _Table, seat: int | None) -> Shown:
        """A seat's view (None: a spectator's) and what names it among pictures: a view is
        made of the state, which only changes with the version, and of the names."""
        return (table.id, table.version, seat, tuple(table.names())), self._view(table, seat)

    async def _reply(self, table: _Table, said: list[tuple[int | None, rules.Event]],
                     before: dict[int, dict[str, Any]], caller: int | None, *,
                     opening: str = "", header: str = "") -> Reply:
        """The reply after an action: public events, the board, and what changed in private."""
        game = table.game
        public_lines = [line for line in (header, opening) if line]
        public_lines += [self._annotate(table, e.text) for _, e in said if e.to is None]
        outcome = game.outcome(table.state)
        if outcome is not None:
            scores = ", ".join(f"{table.who(s)} {p}" for s, p in enumerate(outcome.scores))
            public_lines.append(f"Game over: {self._annotate(table, outcome.reason)} "
                                f"Final score: {scores}.")
        if outcome is not None:  # only now may the seed and the salt be told
            public_lines += _revealed(table, self.commands.export)
        ended = None if outcome is None else await recap.build(  # points, length, ratings
            self.store, table, painter=self._painter() if self.images else None)
        public_lines += ended.lines if ended is not None else []
        caller_seat = table.seat_of(caller) if caller is not None else None
        ephemeral = [self._annotate(table, e.text) for actor, e in said
                     if e.to is not None and caller_seat is not None and actor == caller_seat
                     and caller_seat in e.to]

        # With pictures, a few replies at a time build their views and draw: a crowd of
        # moves waits here holding little more than its events, not views and images.
        drawing: AbstractAsyncContextManager[Any] = (
            self._drawing if self.images else nullcontext())
        async with drawing:
            spectator = self._shown(table, None)
            humans = [s for s in table.seats if s.kind == "human" and s.user_id is not None]
            changed: list[tuple[SeatRow, list[str], Shown | None]] = []
            parts = {}
            for s in humans:
                lines = [self._annotate(table, e.text) for _, e in said
                         if e.to is not None and s.seat in e.to]
                seat_view = self._shown(table, s.seat)
                part = parts[s.seat] = _private_part(seat_view[1], spectator[1])
                moved = s.seat in before and part != before[s.seat]
                if lines or moved:
                    changed.append((s, lines, seat_view if moved else None))
            table.parts, table.parts_version = parts, table.version
            (picture,) = await self._render(game.id, [spectator])
            later = [v for _, _, v in changed]
            dm_pictures = (asyncio.ensure_future(self._render(game.id, later, picture))
                           if self.images and any(v is not None for v in later) else None)
        private = tuple(Private(s.user_id or 0, "\n".join(lines), None)
                        for s, lines, _ in changed)
        mention = () if outcome is not None else tuple(
            table.seats[s].user_id or 0 for s in sorted(table.awaited())
            if table.seats[s].kind == "human")
        return Reply(public="\n".join(public_lines), picture=picture, private=private,
                     ephemeral="\n".join(ephemeral), mention=mention, version=table.version,
                     game=table.id, over=outcome is not None, drawing=dm_pictures,
                     recap=None if ended is None else ended.picture)



def _private_part(seat_view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view holds beyond the spectator's: the part only that seat knows."""
    return {k: v for k, v in seat_view.items() if k != "seat" and public.get(k) != v}


def _revealed(table: _Table, export: str = Commands.export) -> list[str]:
    """The line revealing a finished game's seed and salt (none for a game that never
    started, or one started before commitments were posted); ``export`` is how the
    surface spells the command that saves the move log."""
    if table.seed is None or not table.salt or not table.commitment:
        return []
    return [fairness.revealed(table.seed, table.salt, table.commitment, export)]
