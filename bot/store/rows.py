"""How a game's row reads back (``bot.store.tables`` and ``bot.store.deliveries`` read it):
the columns of ``GameRow``, as ``bot.store.schema`` declares them, and its decoder."""

from __future__ import annotations

import json
from typing import Any

from bot.records import GameRow
from bot.store.schema import GAMES as TABLE

GAME_FIELDS = TABLE.fields(GameRow)
GAMES = f"{TABLE.select(GameRow)} FROM games"


OPTIONS, DAMAGED, REMINDERS, BANK_ADD = (GAME_FIELDS.index(name) for name in (
    "options", "damaged", "reminders", "bank_add"))


def game_row(row: Any) -> GameRow:
    """A row as read (its first values ``GAME_FIELDS``). Options that are not a JSON
    object leave the row readable, marked damaged, so that one bad row cannot stop a query
    over every table."""
    values = list(row[:len(GAME_FIELDS)])
    try:
        options = json.loads(values[OPTIONS])
        if not isinstance(options, dict):
            options, values[DAMAGED] = {}, "its options are not an object"
    except (TypeError, ValueError):
        options, values[DAMAGED] = {}, "its options are not valid JSON"
    values[OPTIONS] = options
    values[REMINDERS] = bool(values[REMINDERS])
    values[BANK_ADD] = values[BANK_ADD] or 0.0
    return GameRow(*values)
