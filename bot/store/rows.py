"""Rows as the store reads them, decoded into records (``bot.records``): a game's columns
in the order its decoder knows them."""

from __future__ import annotations

import json
from typing import Any

from bot.records import GameRow

GAME_COLUMNS = ("id, channel_id, guild_id, game, options, status, opener_id, seed, state, "
                "version, announced, created, updated, started, finished, damaged, turn_time, "
                "reminders, salt, commitment, bank_start, bank_add")


def game_row(row: Any) -> GameRow:
    """A row as read. Options that are not a JSON object leave the row readable, marked
    damaged, so that one bad row cannot stop a query over every table."""
    try:
        options = json.loads(row[4])
        damaged = row[15] if isinstance(options, dict) else "its options are not an object"
    except (TypeError, ValueError):
        options, damaged = {}, "its options are not valid JSON"
    return GameRow(row[0], row[1], row[2], row[3], options if isinstance(options, dict)
                   else {}, row[5], row[6], row[7], row[8], row[9], row[10], row[11], row[12],
                   row[13], row[14], damaged, row[16], bool(row[17]), salt=row[18],
                   commitment=row[19], bank_start=row[20], bank_add=row[21] or 0.0)
