"""A league's points and standings: points by place at each table, the byes, the ranking
with the format's tiebreaks, and the standings as text for a screen reader and as plain data
for ``render.standings`` (the same figures in both, from ``number``).

- Points: a table counts as if each pair at it played one game: 1 for each player placed
  below, 1/2 for each placed equal, divided by the table's size - 1. Two players: win 1,
  draw 1/2, loss 0; four players: 1, 2/3, 1/3, 0. A Swiss bye scores 1 (a round-robin bye
  nothing: everyone has one); a forfeit is a loss for the entry that withdrew and a win for
  the others.
- Tiebreaks: Swiss, Buchholz then Sonneborn-Berger; round-robin, head-to-head among the
  entries equal on points then score difference. Entries equal on all share a rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from bot.leagues.records import Format, League, Result, Round, Settings, nobody_played
from bot.words import say

ROUND_ROBIN_TIEBREAKS = ("head-to-head", "score difference")
SWISS_TIEBREAKS = ("Buchholz", "Sonneborn-Berger")


def points_by_place(places: Sequence[int]) -> list[Fraction]:
    """Each seat's points: 1 for each player placed below, 1/2 for each equal, over n - 1."""
    n = len(places)
    return [Fraction(sum(2 if q > p else 1 if q == p else 0
                         for j, q in enumerate(places) if j != i), 2 * (n - 1))
            for i, p in enumerate(places)]


def pairwise(result: Result, a: int, b: int) -> Fraction:
    """What ``a`` scored against ``b`` at their table: 1 placed above, 1/2 equal, 0 below."""
    pa, pb = (result.places[result.players.index(x)] for x in (a, b))
    return Fraction(2 if pa < pb else 1 if pa == pb else 0, 2)


def bye_points(settings: Settings) -> Fraction:
    return Fraction(1) if settings.format == "swiss" else Fraction(0)


def points(league: League) -> dict[int, Fraction]:
    """Every entry's points: its tables' points by place and its byes (a table where
    every entry forfeited gives nobody a point)."""
    total = {e.number: Fraction(0) for e in league.entries}
    for result in league.results:
        if nobody_played(result):
            continue
        for player, got in zip(result.players, points_by_place(result.places), strict=True):
            total[player] += got
    for round_ in league.rounds:
        for player in round_.byes:
            total[player] += bye_points(league.settings)
    return total


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class Row:
    """One line of the standings. ``rank`` is shared by entries equal on points and on
    every tiebreak (``shared``)."""

    rank: int
    entry: int
    member: int
    points: Fraction
    games: int
    tiebreaks: tuple[Fraction, ...]
    withdrawn: bool = False
    shared: bool = False


@dataclass(frozen=True)
class Standings:
    format: Format
    after: int  # rounds with every result in
    columns: tuple[str, ...]
    rows: tuple[Row, ...] = field(default_factory=tuple)


def standings(league: League) -> Standings:
    """Ranked by points, then the format's tiebreaks (Swiss: Buchholz, Sonneborn-Berger;
    round-robin: head-to-head among the entries equal on points, score difference); entries
    equal on all of them share a rank. Withdrawn entries keep their place, marked."""
    got = points(league)
    swiss = league.settings.format == "swiss"
    breaks = (_swiss_breaks(league, got) if swiss else _round_robin_breaks(league, got))
    games = Counter(p for r in league.results if not nobody_played(r) for p in r.players)

    def key(n: int) -> tuple[Fraction, ...]:
        return (got[n], *breaks[n])

    order = sorted(got, key=lambda n: (tuple(-v for v in key(n)), n))
    keys = Counter(key(n) for n in order)
    first: dict[tuple[Fraction, ...], int] = {}
    rows = []
    for i, n in enumerate(order):
        rank = first.setdefault(key(n), i + 1)
        entry = league.entries[n]
        rows.append(Row(rank, n, entry.member, got[n], games[n], tuple(breaks[n]),
                        entry.withdrawn is not None, keys[key(n)] > 1))
    done = sum(1 for r in league.rounds if finished(league, r))
    return Standings(league.settings.format, done,
                     SWISS_TIEBREAKS if swiss else ROUND_ROBIN_TIEBREAKS, tuple(rows))


def finished(league: League, round_: Round) -> bool:
    """Whether every table of ``round_`` has its result."""
    recorded = {frozenset(r.players) for r in league.results if r.round == round_.number}
    return all(frozenset(t) in recorded for t in round_.tables)


def _opponents(result: Result, me: int) -> list[int]:
    return [p for p in result.players if p != me]


def _swiss_breaks(league: League, got: Mapping[int, Fraction]) -> dict[int, list[Fraction]]:
    """Buchholz: the points of the opponents met over the board; Sonneborn-Berger: each
    opponent's points times what the entry scored against them. A table of n counts each
    opponent 1/(n - 1), so two-player tables give the usual figures. Byes and forfeits add
    nothing to either."""
    out = {n: [Fraction(0), Fraction(0)] for n in got}
    for result in league.results:
        if not result.played:
            continue
        share = Fraction(1, len(result.players) - 1)
        for me in result.players:
            for them in _opponents(result, me):
                out[me][0] += share * got[them]
                out[me][1] += share * got[them] * pairwise(result, me, them)
    return out


def _round_robin_breaks(league: League, got: Mapping[int, Fraction]
                        ) -> dict[int, list[Fraction]]:
    """Head-to-head: what the entry scored in its games against the entries equal with it on
    points (a table of n counting each opponent 1/(n - 1), forfeits included, a table every
    entry forfeited not); score
    difference: the entry's own points in each game played less its opponents' mean."""
    out = {n: [Fraction(0), Fraction(0)] for n in got}
    for result in league.results:
        if nobody_played(result):
            continue
        share = Fraction(1, len(result.players) - 1)
        for i, me in enumerate(result.players):
            rivals = [t for t in _opponents(result, me) if got[t] == got[me]]
            out[me][0] += sum((share * pairwise(result, me, t) for t in rivals), Fraction(0))
            if result.scores is not None:
                mine = Fraction(result.scores[i])
                others = [Fraction(s) for j, s in enumerate(result.scores) if j != i]
                out[me][1] += mine - sum(others, Fraction(0)) / len(others)
    return out


def number(value: Fraction | float) -> str:
    """'3', '2.5', '1.33', '4.63': a figure as the standings show it (picture and text
    alike), to two decimals rounded half up."""
    exact = Fraction(value)
    shown = Decimal(exact.numerator) / Decimal(exact.denominator)
    text_ = f"{shown.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):f}"
    text_ = text_.rstrip("0").rstrip(".") if "." in text_ else text_
    return "0" if text_ == "-0" else text_


def points_said(value: Fraction) -> str:
    """'1 point', '2.5 points'."""
    return say("leagues.one_point") if value == 1 else say("leagues.points",
                                                            points=number(value))


def text(table: Standings, names: Mapping[int, str]) -> str:
    """The standings for a screen reader, one line per entry in rank order, the names as the
    caller gives them (escaped by it): '1. Alice: 3 points from 4 games; Buchholz 7.5,
    Sonneborn-Berger 5.25.'"""
    lines = []
    for row in table.rows:
        said = ", ".join(say("leagues.tiebreak", column=column(name), figure=number(v))
                         for name, v in zip(table.columns, row.tiebreaks, strict=True))
        fields = {"rank": f"{'=' if row.shared else ''}{row.rank}.",
                  "player": names[row.entry], "count": row.games, "tiebreaks": said,
                  "points": points_said(row.points)}
        lines.append(say("leagues.row_withdrawn", **fields) if row.withdrawn
                     else say("leagues.row", **fields))
    return "\n".join(lines)


def column(name: str) -> str:
    """A tiebreak's name (``Standings.columns``), said as a column's heading."""
    if name == "head-to-head":
        return say("leagues.head_to_head")
    if name == "score difference":
        return say("leagues.score_difference")
    if name == "Buchholz":
        return say("leagues.buchholz")
    if name == "Sonneborn-Berger":
        return say("leagues.sonneborn_berger")
    return name


def picture(table: Standings, names: Mapping[int, str], title: str) -> dict[str, Any]:
    """The plain data ``render.standings.draw`` draws: the same ranks, names and figures as
    ``text``."""
    return {"title": title, "columns": [say("leagues.points_column"),
                                        say("leagues.games_column"),
                                        *(column(name) for name in table.columns)],
            "rows": [{"rank": f"{'=' if r.shared else ''}{r.rank}", "name": names[r.entry],
                      "withdrawn": r.withdrawn,
                      "figures": [number(r.points), str(r.games),
                                  *(number(v) for v in r.tiebreaks)]} for r in table.rows]}
