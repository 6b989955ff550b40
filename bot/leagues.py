"""A league's pure core: its settings, entries, rounds and results, the pairings and the
standings (issue 40). No Discord, no storage: the service stores a ``League`` and asks this
module what the next round is and who leads; docs/leagues.md has the decisions.

Players are *entries*, numbered 0.. in sign-up order: an entry is a place in the league held
by a member (``Entry.member``), so a replacement between rounds takes over the entry, its
points and its remaining games, and pairings and results never need rewriting.

- Round-robin, 2 players a table: the circle method (one spot fixed, the others turning
  one step a round; an odd field fixes the empty place, so everyone sits out once). A cycle
  is n - 1 rounds (n for an odd n); rounds beyond it play the cycle again, seats swapped.
- Swiss, 2 players a table: networkx's maximum weight matching over the pairs (near pairs
  first in a field over ``WIDE``), weighted in tiers: no rematch first, then the bye to
  the lowest-ranked entry without one, then equal scores (top half of a score group
  against its bottom half). A rematch happens only when no pairing without one exists,
  and then the fewest (``Round.rematches`` says how many).
- 3 or 4 players a table (both formats): every table has the league's size; the entries
  left over sit out (round-robin: the fewest byes first; Swiss: the lowest-ranked without a
  bye). Tables are dealt (Swiss: in standings order) and improved by swapping players
  between tables while a swap lowers the cost: repeated meetings first (round-robin: a pair's
  n-th meeting costs 4^n - 1, so meetings spread evenly), then score differences.
- Points: a table counts as if each pair at it played one game: 1 for each player placed
  below, 1/2 for each placed equal, divided by the table's size - 1. Two players: win 1,
  draw 1/2, loss 0; four players: 1, 2/3, 1/3, 0. A Swiss bye scores 1 (a round-robin bye
  nothing: everyone has one); a forfeit is a loss for the entry that withdrew and a win for
  the others.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, Literal

import networkx as nx

Format = Literal["round-robin", "swiss"]
DeadlineRule = Literal["play on", "stand-in"]
Withdrawal = Literal["forfeit", "stand-in"]
FORMATS: tuple[Format, ...] = ("round-robin", "swiss")
DEADLINE_RULES: tuple[DeadlineRule, ...] = ("play on", "stand-in")
TABLE_SIZES = (2, 3, 4)

ROUND_ROBIN_TIEBREAKS = ("head-to-head", "score difference")
SWISS_TIEBREAKS = ("Buchholz", "Sonneborn-Berger")


@dataclass(frozen=True)
class Settings:
    """What the organiser fixes at ``/league new``: the format, how many rounds, how long a
    round lasts (seconds), players per table, and what happens to a table still running at
    the round's deadline ('play on': it finishes in its own time and the next round waits;
    'stand-in': computer players play it out at once)."""

    game: str
    format: Format
    rounds: int
    round_seconds: float
    per_table: int = 2
    deadline: DeadlineRule = "play on"

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise ValueError(f"A league is round-robin or swiss, not {self.format[:20]!r}.")
        if self.per_table not in TABLE_SIZES:
            raise ValueError("A league's tables have 2, 3 or 4 players.")
        if self.rounds < 1:
            raise ValueError("A league has at least one round.")
        if self.deadline not in DEADLINE_RULES:
            raise ValueError("At the deadline a table plays on or the stand-in plays it out.")


@dataclass(frozen=True)
class Entry:
    """A place in the league: its number, the member who holds it (``former``: who held it
    before a replacement), and from which round on it is withdrawn (its games from then are
    forfeited or played by the stand-in, as the organiser chose)."""

    number: int
    member: int
    withdrawn: int | None = None
    after: Withdrawal = "forfeit"
    former: tuple[int, ...] = ()


@dataclass(frozen=True)
class Round:
    """A round's pairing: its tables (entries in seat order) and who sits out; ``rematches``
    counts the pairs meeting again that no pairing could avoid (0 nearly always)."""

    number: int
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()
    rematches: int = 0


@dataclass(frozen=True)
class Result:
    """A table's result: its entries in seat order, each one's place (0 is first; equal
    places share, as ``bot.ratings.ranks`` gives them), the game's own points (None when
    nothing was played), and the entries that forfeited."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    forfeited: frozenset[int] = frozenset()

    @property
    def played(self) -> bool:
        return not self.forfeited


@dataclass(frozen=True)
class League:
    settings: Settings
    entries: tuple[Entry, ...]
    rounds: tuple[Round, ...] = ()
    results: tuple[Result, ...] = ()

    def active(self, round_number: int) -> list[int]:
        """The entries still playing in ``round_number``."""
        return [e.number for e in self.entries
                if e.withdrawn is None or e.withdrawn > round_number]


def start(settings: Settings, members: Sequence[int]) -> League:
    """A league of ``members`` in sign-up order (entry 0 is the first), not yet paired."""
    if len(set(members)) != len(members):
        raise ValueError("A member holds one entry in a league.")
    if len(members) < settings.per_table:
        raise ValueError(f"A league of {settings.per_table}-player tables needs at least "
                         f"{settings.per_table} players.")
    return League(settings, tuple(Entry(n, m) for n, m in enumerate(members)))


def withdraw(league: League, number: int, from_round: int, after: Withdrawal) -> League:
    """``number`` withdrawn from ``from_round`` on: its games then are forfeited or played
    by the stand-in (round-robin; a Swiss league no longer pairs it)."""
    entries = tuple(replace(e, withdrawn=from_round, after=after) if e.number == number else e
                    for e in league.entries)
    return replace(league, entries=entries)


def replace_member(league: League, number: int, member: int) -> League:
    """``member`` takes over entry ``number`` (between rounds): its points and its games."""
    if any(e.member == member for e in league.entries):
        raise ValueError("That member already plays in this league.")
    entries = tuple(replace(e, member=member, former=(*e.former, e.member))
                    if e.number == number else e for e in league.entries)
    return replace(league, entries=entries)


def record(league: League, result: Result) -> League:
    """The league with ``result`` added (a table's result is recorded once)."""
    if any(r.round == result.round and set(r.players) == set(result.players)
           for r in league.results):
        raise ValueError("That table's result is already recorded.")
    return replace(league, results=(*league.results, result))


def forfeits(league: League, round_: Round) -> list[Result]:
    """The results of the round's tables that a withdrawn entry forfeits at once: it is
    last, the others share first place. (A stand-in's tables are played.)"""
    out = []
    for table in round_.tables:
        gone = frozenset(p for p in table if _forfeiting(league, p, round_.number))
        if gone:
            out.append(Result(round_.number, table,
                              tuple(1 if p in gone else 0 for p in table), None, gone))
    return out


def _forfeiting(league: League, number: int, round_number: int) -> bool:
    entry = league.entries[number]
    return (entry.withdrawn is not None and entry.withdrawn <= round_number
            and entry.after == "forfeit")


# --------------------------------------------------------------------------- points


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
    """Every entry's points: its tables' points by place and its byes."""
    total = {e.number: Fraction(0) for e in league.entries}
    for result in league.results:
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
    games = Counter(p for r in league.results for p in r.players)

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
    points (a table of n counting each opponent 1/(n - 1), forfeits included); score
    difference: the entry's own points in each game played less its opponents' mean."""
    out = {n: [Fraction(0), Fraction(0)] for n in got}
    for result in league.results:
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


def text(table: Standings, names: Mapping[int, str]) -> str:
    """The standings for a screen reader, one line per entry in rank order, the names as the
    caller gives them (escaped by it): '1. Alice: 3 points from 4 games; Buchholz 7.5,
    Sonneborn-Berger 5.25.'"""
    lines = []
    for row in table.rows:
        rank = f"{'=' if row.shared else ''}{row.rank}."
        said = ", ".join(f"{column} {number(v)}"
                         for column, v in zip(table.columns, row.tiebreaks, strict=True))
        unit = "point" if row.points == 1 else "points"
        games = "game" if row.games == 1 else "games"
        note = " (withdrawn)" if row.withdrawn else ""
        lines.append(f"{rank} {names[row.entry]}{note}: {number(row.points)} {unit} from "
                     f"{row.games} {games}; {said}.")
    return "\n".join(lines)


def picture(table: Standings, names: Mapping[int, str], title: str) -> dict[str, Any]:
    """The plain data ``render.standings.draw`` draws: the same ranks, names and figures as
    ``text``."""
    return {"title": title, "columns": ["Points", "Games", *table.columns],
            "rows": [{"rank": f"{'=' if r.shared else ''}{r.rank}", "name": names[r.entry],
                      "withdrawn": r.withdrawn,
                      "figures": [number(r.points), str(r.games),
                                  *(number(v) for v in r.tiebreaks)]} for r in table.rows]}


# --------------------------------------------------------------------------- pairing


def pair(league: League, seed: int = 0) -> Round:
    """The next round's pairing (round ``len(league.rounds) + 1``), from the schedule
    (round-robin) or the standings (Swiss). Pure: the same league and seed give the same
    round. ``ValueError`` with a sentence when the league has played its rounds or has too
    few players left for a table."""
    number_ = len(league.rounds) + 1
    if number_ > league.settings.rounds:
        raise ValueError(f"The league has played all its {league.settings.rounds} rounds.")
    playing = set(league.active(number_))
    if len(playing) < league.settings.per_table:
        raise ValueError("Too few players are left in the league for a table.")
    met = meetings(league.rounds)
    if league.settings.format == "round-robin":
        return _round_robin(league, number_, met, seed)
    ranked = [r.entry for r in standings(league).rows if r.entry in playing]
    had = {p for r in league.rounds for p in r.byes}
    size = league.settings.per_table
    if size == 2:
        tables, byes, rematches = swiss_pairs(ranked, had, met, points(league))
        return Round(number_, _seated(league, tables), tuple(byes), rematches)
    left = len(ranked) % size
    byes = [p for p in reversed(ranked) if p not in had][:left]
    byes += [p for p in reversed(ranked) if p not in byes][:left - len(byes)]
    rest = [p for p in ranked if p not in byes]
    got = points(league)
    units = {p: int(got[p] * 12) for p in rest}  # points in twelfths: whole numbers
    big = 1 + 144 * len(rest) ** 2 * max(1, len(league.rounds)) ** 2
    groups = _arranged([rest[i:i + size] for i in range(0, len(rest), size)],
                       lambda a, b: big * met[a, b] + (units[a] - units[b]) ** 2)
    return Round(number_, _seated(league, groups), tuple(byes), _repeats(groups, met))


def _round_robin(league: League, number_: int, met: Counter[tuple[int, int]], seed: int
                 ) -> Round:
    """Two players a table: the circle method's round (a withdrawn entry's games stay in
    it, to be forfeited or played by the stand-in). Three or four: the entries still
    playing (and those a stand-in plays for), the fewest byes sitting out, in tables that
    meet again as little as the best of a few local searches finds."""
    if league.settings.per_table == 2:
        tables, byes = circle(len(league.entries), number_ - 1)
        return Round(number_, tuple(tables), tuple(byes))
    order = [e.number for e in league.entries
             if e.withdrawn is None or e.withdrawn > number_ or e.after == "stand-in"]
    held = Counter(p for r in league.rounds for p in r.byes)
    byes = sorted(order, key=lambda n: (held[n], (n - number_) % len(order)))[
        :len(order) % league.settings.per_table]
    rest = [n for n in order if n not in byes]
    rng = random.Random(seed * 1000 + number_)
    groups = _best_of(rest, league.settings.per_table, lambda a, b: 4 ** met[a, b] - 1,
                      rng, tries=8)
    return Round(number_, _seated(league, groups), tuple(sorted(byes)),
                 _repeats(groups, met))


def meetings(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    """How often each pair of entries has shared a table (both orders counted)."""
    met: Counter[tuple[int, int]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            for a, b in itertools.permutations(table, 2):
                met[a, b] += 1
    return met


def circle(n: int, index: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Round ``index`` (0-based, cycling) of the circle method for ``n`` entries, its pairs
    in seat order: one spot stays put (entry 0; in an odd field, the empty place, so the
    bye turns round the ring), the others turn one place a round, and pairs face across the
    circle. The upper row sits first and the fixed spot every other round, so no entry sits
    first more than once more than another (in an odd field, exactly as often); a second
    cycle turns every pair's seats round."""
    spots: list[int | None] = [None, *range(n)] if n % 2 else list(range(n))
    m = len(spots)
    turn = index % (m - 1)
    ring = spots[1:]
    ring = ring[-turn:] + ring[:-turn] if turn else ring
    spots = [spots[0], *ring]
    again = (index // (m - 1)) % 2 == 1
    tables, byes = [], []
    for i in range(m // 2):
        a, b = spots[i], spots[m - 1 - i]
        if a is None or b is None:
            byes += [p for p in (a, b) if p is not None]
        else:
            tables.append((b, a) if (i == 0 and turn % 2) != again else (a, b))
    return tables, byes


WINDOWS = (4, 16, 64)
WIDE = 64  # fields up to this many entries are matched over every pair at once


def swiss_pairs(ranked: Sequence[int], had_bye: set[int],
                met: Mapping[tuple[int, int], int], got: Mapping[int, Fraction],
                windows: Sequence[int] = WINDOWS) -> tuple[list[tuple[int, int]], list[int], int]:
    """Two-player Swiss: the pairs, the bye and the rematches it could not avoid.

    A maximum weight matching (networkx, every node matched) over pairs of entries and, in
    an odd field, a bye node. Weights in tiers, each worth more than everything in the
    tiers under it: a pair that has not met; the bye to an entry without one, the lower
    ranked the better; equal scores (minus the squared score difference), and within a
    score group the top half against the bottom half. The matching's time grows fast with
    the edges, so in a field of over ``WIDE`` entries it is first found over near pairs only
    (``windows``: ranks at most w apart, or w from the top-half-bottom-half partner in a
    score group), and a wider window is tried only when that one has no pairing without a
    rematch that gives the bye to the lowest-ranked entry without one; the last has every
    pair."""
    n = len(ranked)
    fresh = [p for p in ranked if p not in had_bye]
    due = fresh[-1:] if n % 2 and fresh else []
    for window in (*(w for w in windows if n > WIDE), n):
        pairs, byes, rematches = _matched(ranked, had_bye, met, got, window)
        if window >= n or (not rematches and (not due or byes == due)):
            break
    return pairs, byes, rematches




def _matched(ranked: Sequence[int], had_bye: set[int],
             met: Mapping[tuple[int, int], int], got: Mapping[int, Fraction], window: int
             ) -> tuple[list[tuple[int, int]], list[int], int]:
    """``swiss_pairs`` over the pairs within ``window`` (and every rematch at the last)."""
    n = len(ranked)
    rank = {p: i for i, p in enumerate(ranked)}
    group = Counter(got[p] for p in ranked)
    units = {p: int(got[p] * 2) for p in ranked}
    spread = max(units.values(), default=0) - min(units.values(), default=0)
    quality_top = (spread ** 2 + 1) * (n + 1) * 2
    bye_tier = (quality_top + 1) * n
    rematch_tier = (bye_tier * (n + 1) + quality_top) * (n + 1)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(ranked)
    for a, b in itertools.combinations(ranked, 2):
        apart = rank[b] - rank[a]
        half = group[got[a]] // 2 if got[a] == got[b] else 0
        if window < n and (met.get((a, b)) or (apart > window
                                                and abs(apart - half) > window)):
            continue
        quality = quality_top - (units[a] - units[b]) ** 2 * (n + 1) - abs(apart - half)
        graph.add_edge(a, b, weight=quality + (0 if met.get((a, b)) else rematch_tier))
    if n % 2:
        for p in ranked:
            fresh = p not in had_bye
            graph.add_edge(p, -1, weight=rematch_tier * fresh + bye_tier * (1 + rank[p]))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int]] = []
    byes: list[int] = []
    for a, b in matched:
        if -1 in (a, b):
            byes.append(b if a == -1 else a)
        else:
            pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    if 2 * len(pairs) + len(byes) < n:  # not everyone paired within the window
        return pairs, byes, n
    pairs.sort(key=lambda pair_: rank[pair_[0]])
    return pairs, byes, sum(1 for a, b in pairs if met.get((a, b)))


def _repeats(tables: Iterable[Sequence[int]], met: Mapping[tuple[int, int], int]) -> int:
    return sum(1 for t in tables for a, b in itertools.combinations(t, 2) if met.get((a, b)))


Cost = Callable[[int, int], int]


def _table_cost(table: Sequence[int], cost: Cost) -> int:
    return sum(cost(a, b) for a, b in itertools.combinations(table, 2))


def _arranged(tables: list[list[int]], cost: Cost) -> list[list[int]]:
    """``tables`` improved by swapping two players of different tables while the swap
    lowers the total cost (a local search: every improving swap, until none is left)."""
    tables = [list(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for ta, tb in itertools.combinations(tables, 2):
            for i, j in itertools.product(range(len(ta)), range(len(tb))):
                x, y = ta[i], tb[j]
                delta = sum(cost(y, p) - cost(x, p) for p in ta if p != x) + sum(
                    cost(x, q) - cost(y, q) for q in tb if q != y)
                if delta < 0:
                    ta[i], tb[j] = y, x
                    improved = True
    return tables


def _best_of(players: list[int], size: int, cost: Cost, rng: random.Random, tries: int
             ) -> list[list[int]]:
    """The cheapest of ``tries`` local searches from shuffled deals (the first in order)."""
    best: list[list[int]] | None = None
    for attempt in range(tries):
        order = list(players)
        if attempt:
            rng.shuffle(order)
        found = _arranged([order[i:i + size] for i in range(0, len(order), size)], cost)
        if best is None or (sum(_table_cost(t, cost) for t in found)
                            < sum(_table_cost(t, cost) for t in best)):
            best = found
    return best or []


def _seated(league: League, tables: Iterable[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Each table in seat order: whoever has sat earliest least often first (a seat's lead
    over the table's middle seat, summed over the entry's games; with two players, first
    seats less second seats), then whoever has sat first least often, so first seats, and
    with more players every seat, even out."""
    lead: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    for round_ in league.rounds:
        for table in round_.tables:
            firsts[table[0]] += 1
            for s, p in enumerate(table):
                lead[p] += len(table) - 1 - 2 * s
    return tuple(tuple(sorted(t, key=lambda p: (lead[p], firsts[p], p))) for t in tables)
