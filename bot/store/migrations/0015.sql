-- 15: leagues (issue 40): a league's row (its state the service's JSON, its version for conditional writes, its next due moment and its channel message) and its tables, one per (league, round, board), claimed once by the process that opens it, then linked to its thread and game.

    CREATE TABLE leagues (
        id          INTEGER PRIMARY KEY,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        organiser_id INTEGER NOT NULL,
        game        TEXT    NOT NULL,
        status      TEXT    NOT NULL DEFAULT 'signup'
                    CHECK (status IN ('signup', 'running', 'paused', 'over', 'ended')),
        state       TEXT    NOT NULL,
        version     INTEGER NOT NULL DEFAULT 0,
        due         REAL,
        message_id  INTEGER,
        created     REAL    NOT NULL,
        updated     REAL    NOT NULL
    );
    CREATE INDEX leagues_by_guild ON leagues (guild_id, id);
    CREATE INDEX leagues_due ON leagues (due) WHERE due IS NOT NULL;
    CREATE TABLE league_games (
        league_id   INTEGER NOT NULL REFERENCES leagues (id),
        round       INTEGER NOT NULL,
        board       INTEGER NOT NULL,
        claimed     REAL    NOT NULL,
        channel_id  INTEGER,
        game_id     INTEGER REFERENCES games (id),
        seats       TEXT    NOT NULL DEFAULT '[]',
        PRIMARY KEY (league_id, round, board)
    );
    CREATE UNIQUE INDEX league_games_by_game ON league_games (game_id) WHERE game_id IS NOT NULL;
