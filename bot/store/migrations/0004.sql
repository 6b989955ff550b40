-- 4: looking back: a fair shuffle's salt and commitment, why a game is unrated, ratings per server, game and player, and at most one undo request per table.

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
    