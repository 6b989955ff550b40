"""A league's pairings: the next round from the schedule (round-robin) or the standings
(Swiss). Pure: the same league and seed give the same round.

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
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction

from bot.leagues.ranking import points, standings
from bot.leagues.records import League, Round


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
    import networkx as nx  # (here: a tenth of a second to import, and only Swiss needs it)

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
