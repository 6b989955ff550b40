"""A league's records and their changes: the settings the organiser fixes, the entries
(places in the league held by members), the rounds' pairings and the tables' results, and
the pure steps between them (start, withdraw, replace a member, record a result, the
forfeits of a round). ``bot.leagues`` has the overview; docs/leagues.md the decisions.

Players are *entries*, numbered 0.. in sign-up order: an entry is a place in the league held
by a member (``Entry.member``), so a replacement between rounds takes over the entry, its
points and its remaining games, and pairings and results never need rewriting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot.words import say
from rules.core import quote

Format = Literal["round-robin", "swiss"]
DeadlineRule = Literal["play on", "stand-in"]
Withdrawal = Literal["forfeit", "stand-in"]
FORMATS: tuple[Format, ...] = ("round-robin", "swiss")
DEADLINE_RULES: tuple[DeadlineRule, ...] = ("play on", "stand-in")
TABLE_SIZES = (2, 3, 4)




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
            raise ValueError(say("leagues.settings_format", typed=quote(self.format)))
        if self.per_table not in TABLE_SIZES:
            raise ValueError(say("leagues.settings_size"))
        if self.rounds < 1:
            raise ValueError(say("leagues.settings_rounds"))
        if self.deadline not in DEADLINE_RULES:
            raise ValueError(say("leagues.settings_deadline"))


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
    last, the others share first place. (A stand-in's tables are played, unless nobody at
    the table still plays: then every entry forfeits and nobody scores, as ``points``
    counts it, with no table opened for computers alone.)"""
    out = []
    for table in round_.tables:
        out_of = frozenset(p for p in table if _withdrawn(league, p, round_.number))
        gone = out_of if out_of == set(table) else frozenset(
            p for p in out_of if league.entries[p].after == "forfeit")
        if gone:
            out.append(Result(round_.number, table,
                              tuple(1 if p in gone else 0 for p in table), None, gone))
    return out


def nobody_played(result: Result) -> bool:
    """Whether every entry of the table forfeited (a double forfeit: no points)."""
    return result.forfeited == set(result.players)


def _withdrawn(league: League, number: int, round_number: int) -> bool:
    entry = league.entries[number]
    return entry.withdrawn is not None and entry.withdrawn <= round_number
