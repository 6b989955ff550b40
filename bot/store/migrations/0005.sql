-- 5: several processes: the versions posted beyond ``games.announced``, so that a gap (a move committed by a process killed before posting it) is never covered.

    CREATE TABLE posted (
        game_id INTEGER NOT NULL REFERENCES games (id),
        version INTEGER NOT NULL,
        PRIMARY KEY (game_id, version)
    ) WITHOUT ROWID;
    