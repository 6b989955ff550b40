"""What the store raises, whichever engine holds the tables: ``StoreError`` (a sentence for
the operator), ``StoreUnavailable`` (for players: refused for now, nothing changed), and
the two rules the service words itself, ``ChannelBusy`` and ``SeatTaken``."""

from __future__ import annotations

import rules
from bot import words


def refusal(kind: str) -> str:
    """A player's sentence for each kind of "not now" ('full', 'busy', 'unwritable'), the
    same on every engine."""
    if kind == "full":
        return words.say("store.full")
    if kind == "busy":
        return words.say("store.busy")
    if kind == "unwritable":
        return words.say("store.unwritable")
    raise KeyError(kind)


class StoreError(Exception):
    """The database cannot be used (for example, a newer Boardroom wrote it).

    ``str(error)`` is a sentence for the bot's operator.
    """


class DamagedDatabase(StoreError):
    """The file exists but is not a whole SQLite database: empty, truncated, or another
    kind of file. The bot refuses to start over it (it never starts afresh over a file)."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(
            f"The database file {path} {what}, so Boardroom did not start. Restore the file "
            "from a backup (see 'A damaged or full database' in bot/README.md), or move it "
            "away to start with an empty database.")
        self.path = path


class StoreUnavailable(StoreError, rules.GameError):
    """The database refused a statement for now: the disk or the file-size limit is full,
    another process held its lock past the timeout, or the file cannot be written.

    Nothing was changed (the statement's transaction was rolled back). ``str(error)`` is
    a sentence a player can read; ``kind`` is 'full', 'busy' or 'unwritable'.
    """

    def __init__(self, kind: str, sentence: str | None = None) -> None:
        super().__init__(sentence or refusal(kind))
        self.kind = kind


class ChannelBusy(Exception):
    """The channel already holds an open or running table."""


class SeatTaken(Exception):
    """The user already has a seat, or the seat number is used."""


def newer(current: int, known: int) -> StoreError:
    """The refusal of a database whose schema a newer Boardroom wrote."""
    return StoreError(f"The database was written by a newer Boardroom (schema {current}; "
                      f"this version knows {known}).")
