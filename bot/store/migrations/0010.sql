-- 10: a player's direct messages: the DM channel Discord opened for them (kept, so that it is opened once, whatever process sends), and when Discord last refused a DM because theirs are closed (NULL: not since one got through or they came back).

    ALTER TABLE players ADD COLUMN dm_channel_id INTEGER;
    ALTER TABLE players ADD COLUMN dm_refused REAL;
