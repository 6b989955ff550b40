-- 9: time that has passed is charged as the settings were while it passed: a wait's turn clock had run ``ran`` seconds by ``mark`` (NULL: nothing by ``since``), when its player last changed their quiet hours or time away; it runs on from there under the new settings.

    ALTER TABLE waits ADD COLUMN ran REAL NOT NULL DEFAULT 0;
    ALTER TABLE waits ADD COLUMN mark REAL;
