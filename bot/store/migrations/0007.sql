-- 7: a time bank per player: a table's bank (its starting amount per player, NULL for a clock per turn, and what it gets back after each turn), and each seat's bank when its next wait begins (NULL: full).

    ALTER TABLE games ADD COLUMN bank_start REAL;
    ALTER TABLE games ADD COLUMN bank_add REAL NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN bank REAL;
