-- 3: games over days: a computer's level, a seat handed on (and by whom), each table's clock and reminders, the awaited seats (``waits``, due ones found through an index), players' quiet hours, time away and when they were last reminded.

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
    