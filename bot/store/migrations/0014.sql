-- 14: one table of due jobs (``store.jobs``): every timer is a row of ``jobs``, of a kind (``wait``: an awaited seat, keyed by its game and seat; ``digest``: a player's daily digest, keyed by the player), due at ``due`` (found through an index, claimed by one process at a time); a wait's turn clock (``since``, ``reminded``, ``ran``, ``mark``) comes with it. The waits and the digests' due moments move in, so every deadline is kept.

    CREATE TABLE jobs (
        kind     TEXT    NOT NULL,
        owner_id INTEGER NOT NULL,
        part     INTEGER NOT NULL DEFAULT 0,
        due      REAL,
        since    REAL    NOT NULL DEFAULT 0,
        reminded INTEGER NOT NULL DEFAULT 0,
        ran      REAL    NOT NULL DEFAULT 0,
        mark     REAL,
        PRIMARY KEY (kind, owner_id, part)
    ) WITHOUT ROWID;
    CREATE INDEX jobs_due ON jobs (due) WHERE due IS NOT NULL;
    INSERT INTO jobs (kind, owner_id, part, due, since, reminded, ran, mark)
        SELECT 'wait', game_id, seat, due, since, reminded, ran, mark FROM waits;
    INSERT INTO jobs (kind, owner_id, part, due)
        SELECT 'digest', user_id, 0, digest_due FROM players WHERE digest_due IS NOT NULL;
    DROP TABLE waits;
    DROP INDEX players_digest_due;
    ALTER TABLE players DROP COLUMN digest_due;
