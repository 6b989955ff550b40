-- 1: games, seats, the move log.

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
    