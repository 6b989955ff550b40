"""The recap when a game ends by its rules: where each seat's points came from, a picture of
the points over the game, how long it took, and how it counted for the ratings.

Everything here is public. The points over the game are replayed from the move log (the
moves still in force, ``undo.in_force``: a move taken back is not part of the game's
story; ``game.new`` with the seed, then each move) and read from the spectator's view after
each move (``render.recap.points``); the breakdown reads the final spectator view, as the
game's page (``rules/<game>.md``) counts points. A game whose log no longer replays (the
rules changed) gets its recap without the picture.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import rules
from bot import ratings, undo
from bot.records import GameRow, MoveRow, Rated
from render import bomb_squares as bomb_picture
from render import recap as chart_picture
from rules.block_buster import SIZE_OF

if TYPE_CHECKING:
    from bot.service import Picture, _Table

log = logging.getLogger("boardroom.service")
MINUTE, HOUR, DAY = 60, 3600, 86400


class Records(Protocol):
    """What the recap reads from the store (either engine)."""

    async def moves(self, game_id: int) -> list[MoveRow]: ...
    async def game(self, game_id: int) -> GameRow | None: ...
    async def unrated(self, game_id: int) -> str | None: ...


@dataclass(frozen=True)
class Term:
    """Some of a seat's points and where they came from, as said after the number:
    (7, 'attacks won'), (-8, 'from penalty tokens')."""

    points: float
    what: str


@dataclass(frozen=True)
class Replayed:
    """A game replayed from its log: its final state and, per seat, its public points at
    the deal and after each move, and what the moves earned it (``earned``: games whose
    final view does not say it, such as Cube Conquest's attacks won and defences held)."""

    state: Any
    points: list[list[float]]
    earned: list[dict[str, float]]


@dataclass(frozen=True)
class Recap:
    """The recap's lines for the final reply, and its picture (None without pictures)."""

    lines: list[str]
    picture: Picture | None = None


# --------------------------------------------------------------------------- replaying


def _cube_fight(before: dict[str, Any], seat: int) -> str:
    """Cube Conquest: a point is a fight won, attacking or defending (the attack under way
    in the view before the move says which)."""
    attack = before.get("attack")
    if attack is not None and attack["attacker"] == seat:
        return "attacks won"
    if attack is not None and attack["defender"] == seat:
        return "defences held"
    return "fights won"


# Games whose points are earned move by move in ways the final view does not keep.
EARNED: dict[str, Callable[[dict[str, Any], int], str]] = {"cube-conquest": _cube_fight}


def replay(game: rules.Game[Any], players: int, seed: int, options: dict[str, Any] | None,
           moves: Sequence[MoveRow]) -> Replayed:
    """Replay the log, reading each seat's public points after every move."""
    state = game.new(players, seed, options or None)
    view = game.view(state, None)
    points = [[p] for p in chart_picture.points(game.id, view)]
    earned: list[dict[str, float]] = [{} for _ in range(players)]
    source = EARNED.get(game.id)
    for move in moves:
        state, _ = game.play(state, move.seat, move.text)
        after = game.view(state, None)
        for seat, now in enumerate(chart_picture.points(game.id, after)):
            if source is not None and now != points[seat][-1]:
                way = source(view, seat)
                earned[seat][way] = earned[seat].get(way, 0.0) + now - points[seat][-1]
            points[seat].append(now)
        view = after
    return Replayed(state, points, earned)


# --------------------------------------------------------------------------- breakdowns


def _plural(count: float, word: str) -> str:
    """'1 circle', '2 circles'."""
    return f"{count:g} {word}{'' if abs(count) == 1 else 's'}"


def _counted(count: float, one: str, many: str) -> Term:
    """A term counting things worth a point each: '1 attack won', '2 attacks won'."""
    return Term(count, one if abs(count) == 1 else many)


def _cube(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """One point per fight won: attacking, or holding a defence."""
    return [_counted(earned[way], one, way) for way, one in (
        ("attacks won", "attack won"), ("defences held", "defence held"),
        ("fights won", "fight won")) if earned.get(way)]


def _crystallia(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """Each platform's points (1 a crystal up to 9, -1 over; 2 each flipped), -1 per black
    crystal, +2 per supercrystal."""
    terms = []
    for p in view["platforms"][seat]:
        if p["crystals"]:
            note = " flipped" if p["flipped"] else ""
            terms.append(Term(p["points"], f"{p['colour']}{note} "
                                           f"({_plural(p['crystals'], 'crystal')})"))
    black = sum(p["black"] for p in view["platforms"][seat])
    if black:
        terms.append(_counted(-black, "black crystal", "black crystals"))
    terms += [Term(2, f"for the {colour} supercrystal")
              for colour, owner in view["supercrystals"].items() if owner == seat]
    return terms


def _block_buster(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """Point blocks held by the seat's colours at the final count (sets of one shape),
    penalty tokens, squares left unplaced; with couples, the partner's points too."""
    mine = [c for c, owner in enumerate(view["owners"]) if owner == seat]
    unplaced = sum(SIZE_OF[b] for c in mine for b in view["blocks"][c])
    penalty = view["penalties"][seat]
    kinds = Counter(p["kind"] for p in view["point_blocks"] if p["leader"] in mine)
    held = ", ".join(_plural(n, kind) for kind, n in sorted(kinds.items()))
    sets = view["own_scores"][seat] - penalty + unplaced
    terms = [Term(sets, f"from point blocks ({held})" if held else "from point blocks")]
    terms += [Term(penalty, "from penalty tokens")] if penalty else []
    terms += [Term(-unplaced, f"for {_plural(unplaced, 'square')} not placed")] \
        if unplaced else []
    for team in view.get("teams") or []:
        terms += [Term(view["own_scores"][s], "from the partner's colours")
                  for s in team if seat in team and s != seat]
    return terms


def _battle_tiles(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """1 per scoring tile with the seat's marker, 1 per opponent marker it holds."""
    owned = sum(1 for sq in view["grid"] if sq["sides"] and sq["marker"] == seat)
    return [term for term in (_counted(owned, "tile with their marker", "tiles with their marker"),
                              _counted(view["held"][seat], "marker won", "markers won"))
            if term.points]


def _bomb_squares(view: dict[str, Any], seat: int, earned: dict[str, float]) -> list[Term]:
    """The crystals each seat starts with, what each way of earning paid, less what was
    spent (the shop, redraws, rerolls, cards bought)."""
    terms = [Term(bomb_picture.START, "to start")]
    terms += [Term(view["earned"][key][seat], f"from {word}") for key, word in bomb_picture.WAYS
              if view["earned"][key][seat]]
    spent = sum(t.points for t in terms) - view["crystals"][seat]
    terms += [Term(-spent, "spent")] if spent else []
    return terms


BREAKDOWNS: dict[str, Callable[[dict[str, Any], int, dict[str, float]], list[Term]]] = {
    "cube-conquest": _cube, "crystallia": _crystallia, "block-buster": _block_buster,
    "battle-tiles": _battle_tiles, "bomb-squares": _bomb_squares,
}


def breakdown(game_id: str, view: dict[str, Any],
              earned: Sequence[dict[str, float]] | None = None) -> list[list[Term]]:
    """Per seat, where its final points came from (they add up to the outcome's scores),
    from the final public view and, for games that need it, what the replay ``earned``."""
    counted = BREAKDOWNS[game_id]
    return [counted(view, seat, earned[seat] if earned else {})
            for seat in range(int(view["players"]))]


def sums(total: float, terms: Sequence[Term], unit: str) -> str:
    """'10 points = 7 attacks won + 3 defences held'."""
    said = f"{total:g} {unit if abs(total) != 1 else unit.rstrip('s')}"
    if not terms:
        return said
    parts = [f"{abs(t.points):g} {t.what}" for t in terms]
    signs = ["-" if t.points < 0 else "+" for t in terms]
    first = f"{'-' if signs[0] == '-' else ''}{parts[0]}"
    return f"{said} = " + first + "".join(f" {s} {p}" for s, p in zip(signs[1:], parts[1:],
                                                                    strict=True))


def duration(seconds: float) -> str:
    """'3 days 4 hours', '2 hours 5 minutes', '12 minutes', 'under a minute'."""
    seconds = max(0.0, seconds)
    if seconds < MINUTE:
        return "under a minute"
    days, rest = divmod(int(seconds), DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    units = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    shown = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in units if n][:2]
    return " ".join(shown)


# --------------------------------------------------------------------------- the recap


async def build(store: Records, table: _Table, *, painter: Executor | None) -> Recap:
    """The recap of a table whose game just ended by its rules: the lines for the final
    reply and, with a ``painter`` (the service's drawing threads), the chart. A recap that
    cannot be made is logged and left out: the final reply goes without it."""
    try:
        return await _build(store, table, painter)
    except Exception:
        log.exception("Could not make the recap of game %s", table.id)
        return Recap([])


async def _build(store: Records, table: _Table, painter: Executor | None) -> Recap:
    from bot.service import Picture  # the service imports this module

    game = table.game
    logged = await store.moves(table.id)
    moves = undo.in_force(logged)
    taken = len(logged) - len(moves) - sum(1 for m in logged if undo.is_entry(m.text))
    row = await store.game(table.id)
    loop = asyncio.get_running_loop()
    replayed = None
    try:
        assert table.seed is not None
        replayed = await loop.run_in_executor(None, replay, game, len(table.seats),
                                              table.seed, table.options, moves)
        if game.dump(replayed.state) != game.dump(table.state):
            raise ValueError("the replayed state differs from the stored one")
    except Exception:
        log.exception("Game %s no longer replays; its recap has no chart", table.id)
        replayed = None
    view = game.view(table.state, None)
    view["names"] = table.names()
    outcome = game.outcome(table.state)
    assert outcome is not None
    unit = chart_picture.unit(game.id)
    started = row.started if row is not None and row.started is not None else None
    ended = logged[-1].time if logged else None
    length = f"{len(moves)} move{'s' if len(moves) != 1 else ''}"
    length += f" ({taken} taken back)" if taken else ""
    if started is not None and ended is not None:
        length += f" in {duration(ended - started)}"
    lines = [f"Recap: {length}. Where the {unit} came from:"]
    terms = breakdown(game.id, view, replayed.earned if replayed else None)
    if game.id == "cube-conquest" and replayed is None:  # the fights are not known
        terms = [[Term(p, "fights won")] if p else [] for p in outcome.scores]
    lines += [f"• {table.label(s)}: {sums(outcome.scores[s], t, unit)}"
              for s, t in enumerate(terms)]
    rated = table.rated
    if rated is None:  # built again after a restart: the ratings were written then
        why = await store.unrated(table.id)
        rated = None if why is None else Rated(why)
    lines.append(ratings.result_line(rated, [table.who(s) for s in range(len(table.seats))]))
    picture = None
    if painter is not None and replayed is not None:
        chart = chart_picture.chart(game.id, view, replayed.points)
        png = await loop.run_in_executor(painter, chart_picture.png, chart)
        picture = Picture(png, chart_picture.summary(chart))
    return Recap(lines, picture)
