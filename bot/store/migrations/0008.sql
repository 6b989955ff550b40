-- 8: the daily digest: a player's digest hour and its time zone (NULL: their quiet hours' zone, else UTC), the next moment it is due (found through an index) and when the last one went; a player's seats found through an index (the tables that wait for them, in every server).

    ALTER TABLE players ADD COLUMN digest_hour INTEGER;
    ALTER TABLE players ADD COLUMN digest_zone TEXT;
    ALTER TABLE players ADD COLUMN digest_due REAL;
    ALTER TABLE players ADD COLUMN digest_sent REAL;
    CREATE INDEX players_digest_due ON players (digest_due) WHERE digest_due IS NOT NULL;
    CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
