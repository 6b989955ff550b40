"""Every table of the store, declared once: its columns in order, each with the type SQLite's
migrations give it (``migrations/``; PostgreSQL's engine translates them). The declarations
are what the schema is after every migration: ``tests/test_store.py`` compares them with
both engines' tables, ``boardroom migrate-db`` copies exactly these columns, and the
repositories read a record's fields through ``select`` (a column added to a table and to
its record in ``bot/records.py`` is read with it).

To add a column: a new numbered migration (``ALTER TABLE ... ADD COLUMN``), the column at
the end of its table here, and (where it is read back) a field of the same name in its
record.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Table:
    """One table: its name and its columns in order, each a (name, SQLite type) pair."""

    name: str
    columns: tuple[tuple[str, str], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.columns)

    @property
    def reals(self) -> frozenset[str]:
        """The columns of ``REAL`` numbers (PostgreSQL's ``DOUBLE PRECISION``)."""
        return frozenset(name for name, kind in self.columns if kind == "REAL")

    def fields(self, record: type[Any]) -> tuple[str, ...]:
        """The record's fields this table holds, in the record's order."""
        return tuple(f.name for f in fields(record) if f.name in self.names)

    def select(self, record: type[Any], alias: str = "") -> str:
        """``SELECT`` of the record's columns (each ``alias.column`` with an alias), up to
        ``FROM``: a row it reads is the record's values in the order of its fields."""
        prefix = f"{alias}." if alias else ""
        return "SELECT " + ", ".join(prefix + name for name in self.fields(record))


def table(name: str, columns: str) -> Table:
    """A table from its columns written as in SQL: ``"id INTEGER, name TEXT"``."""
    pairs = []
    for column in columns.split(","):
        label, kind = column.split()
        pairs.append((label, kind))
    return Table(name, tuple(pairs))


GAMES = table("games", """
    id INTEGER, channel_id INTEGER, guild_id INTEGER, game TEXT, options TEXT, status TEXT,
    opener_id INTEGER, seed INTEGER, state TEXT, version INTEGER, announced INTEGER,
    last_seat INTEGER, last_text TEXT, created REAL, updated REAL, started REAL,
    finished REAL, damaged TEXT, turn_time REAL, reminders INTEGER, salt TEXT,
    commitment TEXT, unrated TEXT, bank_start REAL, bank_add REAL, end_note TEXT,
    cited TEXT""")
SEATS = table("seats", """
    game_id INTEGER, seat INTEGER, user_id INTEGER, name TEXT, kind TEXT, level TEXT,
    handed TEXT, former INTEGER, bank REAL""")
MOVES = table("moves", "game_id INTEGER, version INTEGER, seat INTEGER, text TEXT, time REAL")
PLAYERS = table("players", """
    user_id INTEGER, quiet_from INTEGER, quiet_to INTEGER, timezone TEXT, reminded REAL,
    mentioned REAL, digest_hour INTEGER, digest_zone TEXT, digest_sent REAL,
    dm_channel_id INTEGER, dm_refused REAL""")
ABSENCES = table("absences", "user_id INTEGER, start REAL, until REAL")
RATINGS = table("ratings", """
    guild_id INTEGER, game TEXT, user_id INTEGER, name TEXT, mu REAL, sigma REAL,
    games INTEGER, wins REAL, updated REAL""")
UNDOS = table("undos", """
    game_id INTEGER, version INTEGER, seat INTEGER, asked REAL, due REAL, agreed TEXT""")
POSTED = table("posted", "game_id INTEGER, version INTEGER")
TURN_MESSAGES = table("turn_messages", "game_id INTEGER, message_id INTEGER, since INTEGER")
LEAGUES = table("leagues", """
    id INTEGER, guild_id INTEGER, channel_id INTEGER, organiser_id INTEGER, game TEXT,
    status TEXT, state TEXT, version INTEGER, due REAL, message_id INTEGER, created REAL,
    updated REAL""")
LEAGUE_GAMES = table("league_games", """
    league_id INTEGER, round INTEGER, board INTEGER, claimed REAL, channel_id INTEGER,
    game_id INTEGER, seats TEXT""")
THREADS = table("threads", """
    channel_id INTEGER, guild_id INTEGER, parent_id INTEGER, notice_id INTEGER,
    game_id INTEGER, private INTEGER, stage TEXT""")
SERVERS = table("servers", "guild_id INTEGER, threads TEXT")
# Every timer (``store.jobs``): a kind, its key (``owner_id``: the game of a wait, the player
# of a digest; ``part``: a wait's seat, else 0), its due moment, and what a wait (a turn
# clock) needs; a later kind keys its rows likewise and leaves the rest at their defaults.
JOBS = table("jobs", """
    kind TEXT, owner_id INTEGER, part INTEGER, due REAL, since REAL, reminded INTEGER,
    ran REAL, mark REAL""")
# A wait's fields (``WaitRow``'s, in order) as ``jobs`` holds them.
WAIT_COLUMNS = ("owner_id", "part", "since", "reminded", "due", "ran", "mark")

# Every table, in the order that keeps references whole: a game before its seats, moves,
# undo request, posted versions, turn message and thread; a league before its games; the
# jobs (no reference) last.
TABLES: tuple[Table, ...] = (GAMES, SEATS, MOVES, PLAYERS, ABSENCES, RATINGS, UNDOS, POSTED,
                             TURN_MESSAGES, THREADS, SERVERS, LEAGUES, LEAGUE_GAMES, JOBS)


def placeholders(values: tuple[Any, ...]) -> str:
    """The ``?`` marks of a list of ``values`` in a statement."""
    return ", ".join("?" * len(values))
