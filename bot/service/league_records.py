"""A league's record as the service keeps it (``Held``, stored as JSON in
``store.leagues``), a change to it (``Change``), its standings as shown (``Shown``), and the
checks and steps the league service takes on it: who may use the organiser's tools, which
entry a member holds, a finished table's result."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot import leagues, ratings, words
from bot.leagues import League, Result
from bot.records import BoardRow, LeagueRow
from bot.service.league_tables import Outcome
from bot.service.table import TableError


@dataclass
class Held:
    """A league as the service keeps it (``store.leagues``' state, as JSON)."""

    settings: leagues.Settings
    table: dict[str, Any]  # the tables' clock ('turn_time', 'clock', 'bank', 'add') and options
    names: dict[int, str] = field(default_factory=dict)  # member -> name, in sign-up order
    league: League | None = None
    since: float | None = None  # when the round under way began
    left: float | None = None  # while paused: the round's time left
    paused: dict[str, Any] = field(default_factory=dict)  # game -> its clock before the pause
    organiser: str = ""  # the organiser's name

    def dumps(self) -> str:
        return json.dumps({
            "settings": leagues.to_data(leagues.League(self.settings, ()))["settings"],
            "table": self.table, "names": [[m, n] for m, n in self.names.items()],
            "league": None if self.league is None else leagues.to_data(self.league),
            "since": self.since, "left": self.left, "paused": self.paused,
            "organiser": self.organiser})

    @classmethod
    def loads(cls, text: str) -> Held:
        data = json.loads(text)
        return cls(leagues.Settings(**data["settings"]), data["table"],
                   {int(m): n for m, n in data["names"]},
                   None if data["league"] is None else leagues.from_data(data["league"]),
                   data["since"], data["left"], data["paused"], data.get("organiser", ""))

    def current(self) -> leagues.Round | None:
        return self.league.rounds[-1] if self.league and self.league.rounds else None


@dataclass(frozen=True)
class Change:
    """A league's new record, status and due moment (None: nothing due)."""

    held: Held
    status: str
    due: float | None


@dataclass(frozen=True)
class Shown:
    """A league's standings as the surface shows them: its text and picture data."""

    heading: str
    text: str
    picture: dict[str, Any]


def signing(row: LeagueRow) -> None:
    if row.status != "signup":
        raise TableError(words.say("leagues.closed", league=row.id))


def organiser(row: LeagueRow, user_id: int, moderator: bool, held: Held,
              shown: Callable[[str], str]) -> None:
    """Only the organiser or a member who may manage the channel (``moderator``)."""
    if user_id != row.organiser_id and not moderator:
        raise TableError(words.say("leagues.organiser_only", league=row.id,
                                   organiser=shown(held.organiser)))


def under_way(row: LeagueRow, held: Held) -> League:
    if held.league is None or row.status not in ("running", "paused"):
        raise TableError(words.say("leagues.not_running", league=row.id))
    return held.league


def entry_of(row: LeagueRow, held: Held, member: int) -> int:
    assert held.league is not None
    for entry in held.league.entries:
        if entry.member == member:
            return entry.number
    raise TableError(words.say("leagues.no_entry", league=row.id,
                               player=held.names.get(member, str(member))))


def played(league: League, round_: leagues.Round, number: int) -> bool:
    """Whether ``number``'s table of ``round_`` has its result (or it sits out)."""
    return any(r.round == round_.number and number in r.players for r in league.results) \
        or number in round_.byes


def has_result(league: League, board: BoardRow) -> bool:
    entries = set(json.loads(board.seats))
    return any(r.round == board.round and set(r.players) == entries for r in league.results)


def table_result(league: League, board: BoardRow, outcome: Outcome) -> Result:
    """A finished table's result: places as ``bot.ratings.ranks`` gives them (a game ended
    with /game end: everyone shares first), a withdrawn entry that forfeits placed last."""
    entries = tuple(json.loads(board.seats))
    places = list(ratings.ranks(outcome.outcome)) if outcome.outcome is not None \
        else [0] * len(entries)
    scores = tuple(float(s) for s in outcome.outcome.scores) \
        if outcome.outcome is not None else None
    gone = frozenset(n for n in entries if league.entries[n].withdrawn is not None
                     and league.entries[n].withdrawn <= board.round
                     and league.entries[n].after == "forfeit")
    if gone:  # the others keep their order among themselves; the forfeits come last
        kept = sorted({p for n, p in zip(entries, places, strict=True) if n not in gone})
        places = [len(kept) if n in gone else kept.index(p)
                  for n, p in zip(entries, places, strict=True)]
    return Result(board.round, entries, tuple(places), scores, gone)


def chosen(rows: list[LeagueRow]) -> int:
    """The league meant when none is named, among a server's (newest first): the one under
    way or in sign-up, else the latest; a sentence when several are under way, or none."""
    live = [r for r in rows if r.status in ("signup", "running", "paused")]
    if len(live) == 1 or (not live and rows):
        return (live or rows)[0].id
    if not live:
        raise TableError(words.say("leagues.none", command="/league new"))
    raise TableError(words.say("leagues.which", league=live[0].id))


def owed(league: League, round_: leagues.Round, opened: set[int]) -> list[Result]:
    """The forfeits owed at the round's tables that hold no game yet (board numbers not in
    ``opened``), their entries withdrawn since the round was paired, not yet recorded: such
    a table does not open (``leagues.forfeits``, as at the pairing)."""
    shut = {frozenset(t) for n, t in enumerate(round_.tables) if n not in opened}
    done = {frozenset(r.players) for r in league.results if r.round == round_.number}
    return [r for r in leagues.forfeits(league, round_) if frozenset(r.players) in shut - done]
