"""The league core (bot/leagues/): the circle method meets every pair once, Swiss never
rematches when it can help it and keeps score groups together, tables of 3 or 4 spread
meetings, the points and tiebreaks come out as worked by hand, withdrawals and
replacements keep the books straight, and the text says what the picture shows."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import leagues
from bot.leagues import League, Result, Round, Settings

WEEK = 7 * 86400


def league(n: int, fmt: leagues.Format = "swiss", per_table: int = 2,
           rounds: int = 5) -> League:
    return leagues.start(Settings("battle-tiles", fmt, rounds, WEEK, per_table),
                         [1000 + i for i in range(n)])


def play(lg: League, rng: random.Random, seed: int = 0) -> League:
    """Pair the next round and record a random result at every table."""
    round_ = leagues.pair(lg, seed)
    lg = dataclasses.replace(lg, rounds=(*lg.rounds, round_))
    for result in leagues.forfeits(lg, round_):
        lg = leagues.record(lg, result)
    done = {frozenset(r.players) for r in lg.results if r.round == round_.number}
    for table in round_.tables:
        if frozenset(table) not in done:
            places = tuple(rng.randrange(len(table)) for _ in table)
            scores = tuple(float(rng.randrange(20)) for _ in table)
            lg = leagues.record(lg, Result(round_.number, table, places, scores))
    return lg


def pairs_of(round_: Round) -> Iterator[frozenset[int]]:
    for table in round_.tables:
        yield from (frozenset(p) for p in itertools.combinations(table, 2))


# --------------------------------------------------------------------------- round-robin


@pytest.mark.parametrize("n", range(2, 15))
def test_the_circle_method_meets_every_pair_exactly_once(n: int) -> None:
    cycle = n - 1 if n % 2 == 0 else n
    lg = league(n, "round-robin", rounds=cycle)
    rng = random.Random(n)
    for _ in range(cycle):
        lg = play(lg, rng)
    met = Counter(p for r in lg.rounds for p in pairs_of(r))
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
    assert set(met.values()) == {1}
    byes = Counter(p for r in lg.rounds for p in r.byes)
    assert byes == (Counter(range(n)) if n % 2 else Counter())  # an odd field: one bye each
    for r in lg.rounds:  # everyone plays or sits out once a round
        seated = [p for t in r.tables for p in t] + list(r.byes)
        assert sorted(seated) == list(range(n))
    firsts = Counter(t[0] for r in lg.rounds for t in r.tables)
    spread = max(firsts.values()) - min(firsts[p] for p in range(n))
    assert spread == (0 if n % 2 else 1)  # first seats as even as can be


def test_round_robin_beyond_the_cycle_plays_it_again_with_seats_turned() -> None:
    lg = league(4, "round-robin", rounds=6)
    rng = random.Random(1)
    for _ in range(6):
        lg = play(lg, rng)
    met = Counter(p for r in lg.rounds for p in pairs_of(r))
    assert set(met.values()) == {2}
    for a, b in itertools.combinations(range(4), 2):
        seated = [t for r in lg.rounds for t in r.tables if set(t) == {a, b}]
        assert {t[0] for t in seated} == {a, b}  # each sat first once in a double cycle


def test_nine_players_at_three_player_tables_meet_every_pair_once_in_four_rounds() -> None:
    lg = league(9, "round-robin", per_table=3, rounds=4)
    rng = random.Random(2)
    for _ in range(4):
        lg = play(lg, rng)
    met = Counter(p for r in lg.rounds for p in pairs_of(r))
    assert len(met) == 36 and set(met.values()) == {1}
    assert all(len(t) == 3 for r in lg.rounds for t in r.tables)


def test_four_player_tables_spread_meetings_and_share_the_byes() -> None:
    lg = league(10, "round-robin", per_table=4, rounds=5)
    rng = random.Random(3)
    for _ in range(5):
        lg = play(lg, rng)
    assert all(len(t) == 4 for r in lg.rounds for t in r.tables)
    byes = Counter(p for r in lg.rounds for p in r.byes)
    assert sum(byes.values()) == 10 and set(byes.values()) == {1}  # 2 a round, 1 each
    met = Counter(p for r in lg.rounds for p in pairs_of(r))
    assert max(met.values()) <= 2


# --------------------------------------------------------------------------- Swiss


def matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *more]


def best_key(lg: League) -> tuple[int, int, int]:
    """By brute force over every pairing (-1: the bye): the fewest rematches plus repeated
    byes, then the bye as low in the standings as it can go, then the least sum of squared
    score differences (in half points)."""
    table = leagues.standings(lg)
    ranked = [r.entry for r in table.rows]
    got = {r.entry: r.points for r in table.rows}
    met = leagues.meetings(lg.rounds)
    had = {p for r in lg.rounds for p in r.byes}
    nodes = ranked + ([-1] if len(ranked) % 2 else [])
    keys = []
    for matching in matchings(nodes):
        bye = [a if b == -1 else b for a, b in matching if -1 in (a, b)]
        played = [(a, b) for a, b in matching if -1 not in (a, b)]
        keys.append(key_of(played, bye, ranked, got, met, had))
    return min(keys)


def key_of(played: list[tuple[int, int]], bye: list[int], ranked: list[int],
           got: dict[int, F], met: Counter[tuple[int, int]], had: set[int]
           ) -> tuple[int, int, int]:
    repeats = sum(1 for a, b in played if met[a, b]) + sum(1 for p in bye if p in had)
    low = -ranked.index(bye[0]) if bye else 0
    spread = sum(int(2 * (got[a] - got[b])) ** 2 for a, b in played)
    return repeats, low, spread


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 9), st.integers(3, 5), st.integers(0, 10**6))
def test_swiss_rematches_only_when_unavoidable_and_keeps_score_groups(
        n: int, rounds: int, seed: int) -> None:
    lg = league(n, rounds=rounds)
    rng = random.Random(seed)
    for _ in range(rounds):
        round_ = leagues.pair(lg, seed)
        table = leagues.standings(lg)
        got = {r.entry: r.points for r in table.rows}
        ranked = [r.entry for r in table.rows]
        met = leagues.meetings(lg.rounds)
        had = {p for r in lg.rounds for p in r.byes}
        pairs = [(t[0], t[1]) for t in round_.tables]
        assert key_of(pairs, list(round_.byes), ranked, got, met, had) == best_key(lg)
        assert round_.rematches == sum(1 for a, b in pairs if met[a, b])
        lg = play(lg, rng, seed)


@settings(max_examples=10, deadline=None)
@given(st.integers(10, 40), st.integers(0, 10**6))
def test_a_larger_swiss_never_rematches_over_five_rounds(n: int, seed: int) -> None:
    lg = league(n)
    rng = random.Random(seed)
    for _ in range(5):
        lg = play(lg, rng, seed)
    assert [r.rematches for r in lg.rounds] == [0] * 5
    met = Counter(p for r in lg.rounds for p in pairs_of(r))
    assert set(met.values()) == {1}
    byes = Counter(p for r in lg.rounds for p in r.byes)
    assert set(byes.values()) <= {1} and sum(byes.values()) == 5 * (n % 2)


def test_the_bye_goes_to_the_lowest_ranked_entry_without_one() -> None:
    lg = league(5)
    rng = random.Random(4)
    lg = play(lg, rng)
    first = lg.rounds[0].byes[0]
    ranked = [r.entry for r in leagues.standings(lg).rows]
    assert leagues.pair(lg).byes == (next(p for p in reversed(ranked) if p != first),)


def test_a_withdrawn_entry_is_no_longer_paired_in_swiss() -> None:
    lg = league(6)
    rng = random.Random(5)
    lg = play(lg, rng)
    lg = leagues.withdraw(lg, 2, 2, "forfeit")
    nxt = leagues.pair(lg)
    assert 2 not in {p for t in nxt.tables for p in t} | set(nxt.byes)
    assert len(nxt.byes) == 1  # five left: one sits out
    assert next(r for r in leagues.standings(lg).rows if r.entry == 2).withdrawn


def test_three_player_swiss_for_nine_avoids_meeting_again_over_three_rounds() -> None:
    for seed in range(10):
        lg = league(9, per_table=3, rounds=3)
        rng = random.Random(seed)
        for _ in range(3):
            lg = play(lg, rng, seed)
        assert [r.rematches for r in lg.rounds] == [0, 0, 0], seed
        assert all(len(t) == 3 for r in lg.rounds for t in r.tables)


def test_three_player_swiss_tables_follow_the_standings() -> None:
    lg = league(9, per_table=3, rounds=2)
    # Round 1 by hand: the winners are 0, 3 and 6; seconds 1, 4, 7.
    r1 = Round(1, ((0, 1, 2), (3, 4, 5), (6, 7, 8)))
    lg = dataclasses.replace(lg, rounds=(r1,))
    for t in r1.tables:
        lg = leagues.record(lg, Result(1, t, (0, 1, 2), (3.0, 2.0, 1.0)))
    nxt = leagues.pair(lg)
    assert sorted(map(sorted, nxt.tables)) == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]
    assert nxt.rematches == 0


# --------------------------------------------------------------------------- points


def test_points_by_place() -> None:
    assert leagues.points_by_place([0, 1]) == [1, 0]
    assert leagues.points_by_place([0, 0]) == [F(1, 2), F(1, 2)]
    assert leagues.points_by_place([0, 1, 2, 3]) == [1, F(2, 3), F(1, 3), 0]
    assert leagues.points_by_place([0, 0, 2, 3]) == [F(5, 6), F(5, 6), F(1, 3), 0]
    assert leagues.points_by_place([1, 0, 1]) == [F(1, 4), 1, F(1, 4)]


def test_buchholz_and_sonneborn_berger_as_worked_by_hand() -> None:
    """Five players, two rounds (A..E are entries 0..4; a bye scores 1 and adds nothing to
    either tiebreak):

    round 1: A beats B, C draws D, E has the bye
    round 2: A draws C, E beats D, B has the bye

    points: A 1 + 1/2 = 1.5, B 0 + 1 = 1, C 1/2 + 1/2 = 1, D 1/2 + 0 = 0.5, E 1 + 1 = 2
    Buchholz (opponents' points): A: B 1 + C 1 = 2; B: A 1.5; C: D 0.5 + A 1.5 = 2;
        D: C 1 + E 2 = 3; E: D 0.5
    Sonneborn-Berger (points of those beaten, half of those drawn): A: B 1 + C 1/2 = 1.5;
        B: 0; C: D 0.25 + A 0.75 = 1; D: C 0.5; E: D 0.5
    ranking: E 2; A 1.5; C and B on 1, C ahead on Buchholz; D 0.5."""
    lg = league(5)
    r1 = Round(1, ((0, 1), (2, 3)), byes=(4,))
    r2 = Round(2, ((0, 2), (4, 3)), byes=(1,))
    lg = dataclasses.replace(lg, rounds=(r1, r2))
    for result in (Result(1, (0, 1), (0, 1)), Result(1, (2, 3), (0, 0)),
                   Result(2, (0, 2), (0, 0)), Result(2, (4, 3), (0, 1))):
        lg = leagues.record(lg, result)
    table = leagues.standings(lg)
    assert table.columns == ("Buchholz", "Sonneborn-Berger")
    rows = {r.entry: r for r in table.rows}
    assert {e: rows[e].points for e in rows} == {0: F(3, 2), 1: 1, 2: 1, 3: F(1, 2), 4: 2}
    assert {e: rows[e].tiebreaks for e in rows} == {
        0: (2, F(3, 2)), 1: (F(3, 2), 0), 2: (2, 1), 3: (3, F(1, 2)), 4: (F(1, 2), F(1, 2))}
    assert [(r.rank, r.entry) for r in table.rows] == [(1, 4), (2, 0), (3, 2), (4, 1), (5, 3)]
    assert {e: rows[e].games for e in rows} == {0: 2, 1: 1, 2: 2, 3: 2, 4: 1}
    assert table.after == 2


def test_head_to_head_and_score_difference_as_worked_by_hand() -> None:
    """A round-robin of three with a fourth: A beats B 10-4, B beats C 7-5, C beats A 6-3,
    and D loses all three 0-1. A, B and C are on 2 points; among them each scored 1
    (head-to-head ties); score difference: A (10-4) + (3-6) + 1 = 4, B (4-10) + (7-5) + 1
    = -3, C (5-7) + (6-3) + 1 = 2. So A, C, B, then D."""
    lg = league(4, "round-robin", rounds=3)
    games = [((0, 1), (0, 1), (10.0, 4.0)), ((1, 2), (0, 1), (7.0, 5.0)),
             ((2, 0), (0, 1), (6.0, 3.0)), ((0, 3), (0, 1), (1.0, 0.0)),
             ((1, 3), (0, 1), (1.0, 0.0)), ((2, 3), (0, 1), (1.0, 0.0))]
    for n, (players, places, scores) in enumerate(games):
        lg = leagues.record(lg, Result(1 + n // 2, players, places, scores))
    table = leagues.standings(lg)
    assert table.columns == ("head-to-head", "score difference")
    assert [r.entry for r in table.rows] == [0, 2, 1, 3]
    rows = {r.entry: r for r in table.rows}
    assert rows[0].tiebreaks == (1, 4) and rows[2].tiebreaks == (1, 2)
    assert rows[1].tiebreaks == (1, -3) and rows[3].tiebreaks == (0, -3)


def test_equal_on_everything_shares_a_rank() -> None:
    lg = league(2, "round-robin", rounds=1)
    lg = leagues.record(lg, Result(1, (0, 1), (0, 0), (5.0, 5.0)))
    rows = leagues.standings(lg).rows
    assert [(r.rank, r.shared) for r in rows] == [(1, True), (1, True)]
    assert leagues.text(leagues.standings(lg), {0: "Ann", 1: "Bo"}).splitlines() == [
        "=1. Ann: 0.5 points from 1 game; head-to-head 0.5, score difference 0.",
        "=1. Bo: 0.5 points from 1 game; head-to-head 0.5, score difference 0."]


# --------------------------------------------------------------------------- organisers


def test_a_withdrawn_entrys_round_robin_games_are_forfeited() -> None:
    lg = league(4, "round-robin", rounds=3)
    rng = random.Random(6)
    lg = play(lg, rng)
    lg = leagues.withdraw(lg, 1, 2, "forfeit")
    lg = play(lg, rng)
    lg = play(lg, rng)
    forfeited = [r for r in lg.results if r.forfeited]
    assert len(forfeited) == 2 and all(r.forfeited == {1} for r in forfeited)
    for r in forfeited:
        other = next(p for p in r.players if p != 1)
        assert leagues.points_by_place(r.places)[r.players.index(other)] == 1
        assert not r.played and r.scores is None
    table = leagues.standings(lg)
    assert next(r for r in table.rows if r.entry == 1).withdrawn
    assert "(withdrawn)" in leagues.text(table, {n: f"P{n}" for n in range(4)})


def test_a_stand_in_plays_a_withdrawn_entrys_games() -> None:
    lg = league(4, "round-robin", rounds=3)
    lg = leagues.withdraw(lg, 1, 1, "stand-in")
    round_ = leagues.pair(lg)
    assert any(1 in t for t in round_.tables) and not leagues.forfeits(lg, round_)


def test_a_table_nobody_is_left_to_play_is_forfeited_by_all_and_scores_nothing() -> None:
    """Both entries of a round-robin table withdrawn (one with a stand-in, one forfeiting):
    no table of computers alone is opened; the result is recorded at pairing, nobody
    scores, and the other tables are paired and played as before."""
    lg = league(6, "round-robin", rounds=3)
    rng = random.Random(8)
    lg = play(lg, rng)
    table = leagues.pair(lg).tables[0]
    lg = leagues.withdraw(lg, table[0], 2, "stand-in")
    lg = leagues.withdraw(lg, table[1], 2, "forfeit")
    before = leagues.points(lg)
    round_ = leagues.pair(lg)
    decided = leagues.forfeits(lg, round_)
    assert [r.players for r in decided] == [table]
    assert decided[0].forfeited == set(table) and decided[0].scores is None
    lg = play(lg, rng)
    assert leagues.points(lg)[table[0]] == before[table[0]]
    assert leagues.points(lg)[table[1]] == before[table[1]]
    assert sum(leagues.points(lg).values()) == sum(before.values()) + 2  # two tables played
    # A stand-in beside a member still playing plays on: nothing decided at once.
    lg = leagues.withdraw(league(4, "round-robin", rounds=3), 0, 1, "stand-in")
    assert not leagues.forfeits(lg, leagues.pair(lg))


def test_a_table_of_three_all_stood_in_is_decided_at_once() -> None:
    lg = league(6, "round-robin", per_table=3, rounds=2)
    for entry in (0, 1, 2):
        lg = leagues.withdraw(lg, entry, 1, "stand-in")
    round_ = Round(1, ((0, 1, 2), (3, 4, 5)))
    (decided,) = leagues.forfeits(lg, round_)
    assert decided.players == (0, 1, 2) and decided.forfeited == {0, 1, 2}
    lg = dataclasses.replace(lg, rounds=(round_,), results=(
        decided, Result(1, (3, 4, 5), (0, 1, 2), (9.0, 5.0, 1.0))))
    assert leagues.points(lg) == {0: 0, 1: 0, 2: 0, 3: 1, 4: F(1, 2), 5: 0}
    assert leagues.finished(lg, round_)
    games = {r.entry: r.games for r in leagues.standings(lg).rows}
    assert games == {0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1}  # nobody played at the first


def test_a_replacement_takes_over_the_entry_and_its_points() -> None:
    lg = league(4, rounds=3)
    rng = random.Random(7)
    lg = play(lg, rng)
    before = leagues.points(lg)[2]
    lg = leagues.replace_member(lg, 2, 5555)
    assert lg.entries[2].member == 5555 and lg.entries[2].former == (1002,)
    row = next(r for r in leagues.standings(lg).rows if r.entry == 2)
    assert row.member == 5555 and row.points == before
    with pytest.raises(ValueError):
        leagues.replace_member(lg, 3, 5555)


def test_a_result_is_recorded_once_and_settings_are_checked() -> None:
    lg = league(2, "round-robin", rounds=1)
    lg = leagues.record(lg, Result(1, (0, 1), (0, 1)))
    with pytest.raises(ValueError):
        leagues.record(lg, Result(1, (1, 0), (0, 1)))
    with pytest.raises(ValueError):
        Settings("battle-tiles", "swiss", 3, WEEK, per_table=5)
    with pytest.raises(ValueError):
        leagues.start(Settings("battle-tiles", "swiss", 3, WEEK, per_table=4), [1, 2, 3])
    one = league(2, "round-robin", rounds=1)
    one = dataclasses.replace(one, rounds=(leagues.pair(one),))
    with pytest.raises(ValueError, match="played all its 1 rounds"):
        leagues.pair(one)
    three = leagues.withdraw(league(3, per_table=3), 0, 1, "forfeit")
    with pytest.raises(ValueError, match="Too few players"):
        leagues.pair(three)


def test_the_text_and_the_pictures_data_say_the_same() -> None:
    lg = league(7, rounds=3)
    rng = random.Random(8)
    for _ in range(3):
        lg = play(lg, rng)
    table = leagues.standings(lg)
    names = {n: f"Player {n}" for n in range(7)}
    data = leagues.picture(table, names, "Standings")
    for line, row in zip(leagues.text(table, names).splitlines(), data["rows"],
                         strict=True):
        assert line.startswith(f"{row['rank']}. {row['name']}: {row['figures'][0]} point")
        assert f"from {row['figures'][1]} game" in line
        assert line.endswith(f"Buchholz {row['figures'][2]}, "
                             f"Sonneborn-Berger {row['figures'][3]}.")


def test_pairing_is_pure() -> None:
    lg = league(12, per_table=3, rounds=3)
    rng = random.Random(9)
    lg = play(lg, rng)
    assert leagues.pair(lg, 3) == leagues.pair(lg, 3)


def test_figures_are_shown_to_two_decimals_rounded_half_up() -> None:
    shown = [leagues.number(v) for v in (F(37, 8), F(4, 3), F(5, 2), F(3), F(-1, 3),
                                         F(-1, 1000), F(10), F(1, 6))]
    assert shown == ["4.63", "1.33", "2.5", "3", "-0.33", "0", "10", "0.17"]


def test_points_are_said_in_the_number_they_are() -> None:
    """'/me leagues' and the standings' text say points alike: one point, else points."""
    from bot.leagues.ranking import points_said
    assert points_said(F(1)) == "1 point"
    assert points_said(F(5, 2)) == "2.5 points"
    assert points_said(F(0)) == "0 points"
