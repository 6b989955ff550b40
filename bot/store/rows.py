"""How a game's row reads back (``bot.store.tables`` and ``bot.store.deliveries`` read it):
the columns of ``GameRow``, as ``bot.store.schema`` declares them, and its decoder."""

from __future__ import annotations

import json
from typing import Any

from bot.records import GameRow
from bot.store.schema import GAMES as TABLE

GAME_FIELDS = TABLE.fields(GameRow)
GAMES = f"{TABLE.select(GameRow)} FROM games"


def game_row(row: Any) -> GameRow:
    """A row as read (its first values ``GAME_FIELDS``). Options that are not a JSON
    object leave the row readable, marked damaged, so that one bad row cannot stop a query
    over every table."""
    values = dict(zip(GAME_FIELDS, row, strict=False))
    try:
        options = json.loads(values["options"])
        damaged = values["damaged"] if isinstance(options, dict) \
            else "its options are not an object"
    except (TypeError, ValueError):
        options, damaged = {}, "its options are not valid JSON"
    values.update(options=options if isinstance(options, dict) else {}, damaged=damaged,
                  reminders=bool(values["reminders"]), bank_add=values["bank_add"] or 0.0)
    return GameRow(**values)
