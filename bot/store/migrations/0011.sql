-- 11: a game ended with /game end keeps its end notice (``end_note``) until the channel has been told it, after every move before it: the outbox tells it then, after a failed post or a restart (NULL: told, or not ended that way). From now on the outbox tells an ended game's untold moves too; games ended before this version count as told, so that an upgrade does not post long-ended games into channels that have moved on.

    ALTER TABLE games ADD COLUMN end_note TEXT;
    UPDATE games SET announced = version WHERE status = 'ended' AND announced < version;
