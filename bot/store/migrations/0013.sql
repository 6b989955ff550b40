-- 13: tables in threads (issue 40): each thread the bot opened for a table (``threads``: the thread's channel id, its server, the parent channel, the parent's notice with the Join button, the game it was opened for, whether it is private, and what the notice says now: 'open', 'playing' or 'over'), and each server's settings (``servers``: ``threads``, where /game new opens a table when not told: 'channel', 'thread' or 'private').

    CREATE TABLE threads (
        channel_id INTEGER PRIMARY KEY,
        guild_id   INTEGER,
        parent_id  INTEGER NOT NULL,
        notice_id  INTEGER,
        game_id    INTEGER NOT NULL REFERENCES games (id),
        private    INTEGER NOT NULL DEFAULT 0,
        stage      TEXT    NOT NULL DEFAULT 'open'
    );
    CREATE TABLE servers (
        guild_id INTEGER PRIMARY KEY,
        threads  TEXT    NOT NULL DEFAULT 'channel'
    );
