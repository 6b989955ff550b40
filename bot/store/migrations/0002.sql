-- 2: why a table whose row could not be read was set aside (``Store.set_aside``).

    ALTER TABLE games ADD COLUMN damaged TEXT;
    