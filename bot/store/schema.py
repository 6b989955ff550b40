"""The schema, written once: ``STEPS``, the migrations in order, in SQLite's words (the
PostgreSQL engine translates their types). Each engine adds to the first step the triggers
that keep the move log, and counts the steps run (SQLite: ``PRAGMA user_version``;
PostgreSQL: the table ``schema_version``). Append new steps; never edit a released one."""

from __future__ import annotations

STEPS: list[str] = [
    # 1: games, seats, the move log.
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        channel_id  INTEGER NOT NULL,
        guild_id    INTEGER,
        game        TEXT    NOT NULL,
        options     TEXT    NOT NULL DEFAULT '{}',
        status      TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'playing', 'over', 'ended')),
        opener_id   INTEGER NOT NULL,
        seed        INTEGER,
        state       TEXT,
        version     INTEGER NOT NULL DEFAULT 0,
        announced   INTEGER NOT NULL DEFAULT 0,
        last_seat   INTEGER,
        last_text   TEXT,
        created     REAL    NOT NULL,
        updated     REAL    NOT NULL,
        started     REAL,
        finished    REAL
    );
    CREATE UNIQUE INDEX games_one_table_per_channel
        ON games (channel_id) WHERE status IN ('open', 'playing');
    CREATE INDEX games_by_channel ON games (channel_id, id);
    CREATE INDEX games_unannounced ON games (status) WHERE announced < version;
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat    INTEGER NOT NULL,
        user_id INTEGER,
        name    TEXT    NOT NULL,
        kind    TEXT    NOT NULL CHECK (kind IN ('human', 'computer')),
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id)
        WHERE user_id IS NOT NULL;
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        version INTEGER NOT NULL,
        seat    INTEGER NOT NULL,
        text    TEXT    NOT NULL,
        time    REAL    NOT NULL,
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID;
    """,
    # 2: why a table whose row could not be read was set aside (``Store.set_aside``).
    """
    ALTER TABLE games ADD COLUMN damaged TEXT;
    """,
    # 3: games over days: a computer's level, a seat handed on (and by whom), each table's
    # clock and reminders, the awaited seats (``waits``, due ones found through an index),
    # players' quiet hours, time away and when they were last reminded.
    """
    ALTER TABLE seats ADD COLUMN level TEXT;
    ALTER TABLE seats ADD COLUMN handed TEXT;
    ALTER TABLE seats ADD COLUMN former INTEGER;
    UPDATE seats SET level = 'random' WHERE kind = 'computer';
    ALTER TABLE games ADD COLUMN turn_time REAL;
    ALTER TABLE games ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE waits (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        seat     INTEGER NOT NULL,
        since    REAL    NOT NULL,
        reminded INTEGER NOT NULL DEFAULT 0,
        due      REAL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX waits_due ON waits (due) WHERE due IS NOT NULL;
    CREATE TABLE players (
        user_id    INTEGER PRIMARY KEY,
        quiet_from INTEGER,
        quiet_to   INTEGER,
        timezone   TEXT,
        reminded   REAL,
        mentioned  REAL
    );
    CREATE TABLE absences (
        user_id INTEGER NOT NULL,
        start   REAL    NOT NULL,
        until   REAL    NOT NULL
    );
    CREATE INDEX absences_by_user ON absences (user_id, until);
    """,
    # 4: looking back: a fair shuffle's salt and commitment, why a game is unrated, ratings
    # per server, game and player, and at most one undo request per table.
    """
    ALTER TABLE games ADD COLUMN salt TEXT;
    ALTER TABLE games ADD COLUMN commitment TEXT;
    ALTER TABLE games ADD COLUMN unrated TEXT;
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        user_id  INTEGER NOT NULL,
        name     TEXT    NOT NULL,
        mu       REAL    NOT NULL,
        sigma    REAL    NOT NULL,
        games    INTEGER NOT NULL DEFAULT 0,
        wins     REAL    NOT NULL DEFAULT 0,
        updated  REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE undos (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        version INTEGER NOT NULL,
        seat    INTEGER NOT NULL,
        asked   REAL    NOT NULL,
        due     REAL    NOT NULL,
        agreed  TEXT    NOT NULL DEFAULT '[]'
    );
    """,
    # 5: several processes: the versions posted beyond ``games.announced``, so that a gap
    # (a move committed by a process killed before posting it) is never covered.
    """
    CREATE TABLE posted (
        game_id INTEGER NOT NULL REFERENCES games (id),
        version INTEGER NOT NULL,
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID;
    """,
]
