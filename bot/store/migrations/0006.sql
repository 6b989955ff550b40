-- 6: one live message per turn: the channel message that tells of each game's turn under way, edited as its steps arrive, and the first version it tells of.

    CREATE TABLE turn_messages (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        message_id INTEGER NOT NULL,
        since INTEGER NOT NULL
    );
