-- 12: the topics of the game's guide that its lines have named (``cited``: each key after a comma, ',life,chain'), so that a line names a topic once per game, across restarts and bot processes.

    ALTER TABLE games ADD COLUMN cited TEXT NOT NULL DEFAULT '';
