"""The recap when a game ends by its rules: where each seat's points came from, a picture of
the points over the game, how long it took, and how it counted for the ratings.

Everything here is public. The game's story is replayed once from the move log
(``bot.timeline.story``: the moves still in force, a move taken back being no part of it):
each seat's public points after each move (``Game.points``), and the public board where
each turn ends for the animation; the words, per game, from ``Game.breakdown``. A game
whose log no longer replays (the rules changed) gets its recap without the picture.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import rules
from bot import ratings, timeline, undo, words
from bot.records import MoveRow, Rated
from bot.service.pictures import Picture
from bot.service.table import Table
from bot.store import Store
from bot.timeline import Timeline
from render import animation
from render import recap as chart_picture

log = logging.getLogger("boardroom.service")
MINUTE, HOUR, DAY = 60, 3600, 86400


@dataclass(frozen=True)
class Replayed:
    """A game's story replayed from its log (``timeline.story``: the moves in force): its
    final state and, per seat, its public points at the deal and after each move, and what
    the moves earned it (for games whose final view does not say it: ``Game.earned``)."""

    state: Any
    points: list[list[float]]
    earned: list[dict[str, float]]
    line: Timeline


@dataclass(frozen=True)
class Recap:
    """The recap's lines for the final reply, its picture and the whole game animated
    (None without pictures)."""

    lines: list[str]
    picture: Picture | None = None
    animation: bytes | None = None  # a GIF of the public board after each turn


def animated(game: rules.Game[Any], table: Table, moves: Sequence[MoveRow]) -> bytes:
    """The whole game as an animated GIF of the public board after each turn
    (``render.animation``): the game's story (the moves in force), public views only."""
    assert table.seed is not None
    line = timeline.story(game, len(table.seats), table.seed, table.options, moves,
                          table.computers())
    return animate(line.whole(), table.names())


def animate(line: Timeline, names: Sequence[str]) -> bytes:
    """The GIF of a story replayed: the public board where each of its turns ends."""
    shown = animation.turns(line.game, line.turn_states(), names)
    return animation.animate(line.game.id, [turn.view for turn in shown],
                             captions=animation.captions(shown))


def replay(game: rules.Game[Any], players: int, seed: int, options: dict[str, Any] | None,
           moves: Sequence[MoveRow], computers: Sequence[int] = ()) -> Replayed:
    """The game's story replayed (``timeline.story``), each seat's public points after
    every move read from it (``Timeline.series``)."""
    line = timeline.story(game, players, seed, options, moves, computers).whole()
    points, earned = line.series()
    return Replayed(line.final, points, earned, line)


def duration(seconds: float) -> str:
    """'3 days 4 hours', '2 hours 5 minutes', '12 minutes', 'under a minute'."""
    seconds = max(0.0, seconds)
    if seconds < MINUTE:
        return words.say("recap.under_a_minute")
    days, rest = divmod(int(seconds), DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    shown = [words.say("recap.days", count=days)] if days else []
    shown += [words.say("recap.hours", count=hours)] if hours else []
    shown += [words.say("recap.minutes", count=minutes)] if minutes else []
    if len(shown) == 1:
        return shown[0]
    return words.say("recap.span", larger=shown[0], smaller=shown[1])


async def build(store: Store, table: Table, *, painter: Executor | None) -> Recap:
    """The recap of a table whose game just ended by its rules: the lines for the final
    reply and, with a ``painter`` (the drawing threads), the chart. A recap that cannot be
    made is logged and left out: the final reply goes without it."""
    try:
        return await _build(store, table, painter)
    except Exception:
        log.exception("Could not make the recap of game %s", table.id)
        return Recap([])


async def _build(store: Store, table: Table, painter: Executor | None) -> Recap:
    game = table.game
    logged = await store.tables.moves(table.id)
    moves = undo.in_force(logged)
    taken = len(logged) - len(moves) - sum(1 for m in logged if undo.is_entry(m.text))
    row = await store.tables.game(table.id)
    loop = asyncio.get_running_loop()
    replayed = None
    try:
        assert table.seed is not None
        replayed = await loop.run_in_executor(None, replay, game, len(table.seats),
                                              table.seed, table.options, moves,
                                              table.computers())
        if game.dump(replayed.state) != game.dump(table.state):
            raise ValueError("the replayed state differs from the stored one")
    except Exception:
        log.exception("Game %s no longer replays; its recap has no chart", table.id)
        replayed = None
    view = table.view(None)
    outcome = game.outcome(table.state)
    assert outcome is not None
    unit = chart_picture.unit(game.id)
    started = row.started if row is not None and row.started is not None else None
    ended = logged[-1].time if logged else None
    lines = [head(len(moves), taken, unit, None if started is None or ended is None
                  else duration(ended - started))]
    terms = chart_picture.breakdown(game.id, view, replayed.earned if replayed else None)
    lines += [words.say("recap.points", player=table.label(s),
                        points=chart_picture.sums(outcome.scores[s], t, unit))
              for s, t in enumerate(terms)]
    rated = table.rated
    if rated is None:  # built again after a restart: the ratings were written then
        why = await store.tables.unrated(table.id)
        rated = None if why is None else Rated(why)
    lines.append(ratings.result_line(rated, [table.who(s) for s in range(len(table.seats))]))
    picture = gif = None
    if painter is not None and replayed is not None:
        chart = chart_picture.chart(game.id, view, replayed.points)
        png = await loop.run_in_executor(painter, chart_picture.png, chart)
        picture = Picture(png, chart_picture.summary(chart))
        try:
            gif = await loop.run_in_executor(painter, animate, replayed.line, table.names())
        except Exception:  # the recap goes without it
            log.exception("Could not animate game %s", table.id)
    return Recap(lines, picture, gif)


def head(count: int, taken: int, unit: str, span: str | None) -> str:
    """The recap's first line: the moves (and those taken back), the game's length if
    known, and what its points are called."""
    if taken and span is not None:
        return words.say("recap.head_taken_timed", count=count, taken=taken, span=span,
                         unit=unit)
    if taken:
        return words.say("recap.head_taken", count=count, taken=taken, unit=unit)
    if span is not None:
        return words.say("recap.head_timed", count=count, span=span, unit=unit)
    return words.say("recap.head", count=count, unit=unit)
