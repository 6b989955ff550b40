-- 11: a game ended with /game end keeps its end notice (``end_note``) until the channel has been told it, after every move before it: the outbox tells it then, after a failed post or a restart (NULL: told, or not ended that way).

    ALTER TABLE games ADD COLUMN end_note TEXT;
