-- 12: the topics of the game's guide that its lines have named (``cited``: each key with the version whose reply named it, after a comma: ',life:3,chain:5'), so that a line names a topic once per game, across restarts and bot processes, and a reply rebuilt after a failed post names it again as it first did.

    ALTER TABLE games ADD COLUMN cited TEXT NOT NULL DEFAULT '';
