"""Plain records every layer shares: a table, its seats, its move log and waits, a
player's clock settings, ratings and undo requests, as the store reads and writes them.

Frozen dataclasses and nothing else: no I/O, no SQL, so the service, the store and the
pure helpers (``bot.history``, ``bot.undo``, ``bot.ratings``...) can all use them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameRow:
    """One table, as stored. ``state`` is the JSON of ``game.dump``; None before the start."""

    id: int
    channel_id: int
    guild_id: int | None
    game: str
    options: dict[str, Any]
    status: str
    opener_id: int
    seed: int | None
    state: str | None
    version: int
    announced: int
    created: float
    updated: float
    started: float | None
    finished: float | None
    damaged: str | None = None  # why the table was set aside (``store.tables.set_aside``)
    turn_time: float | None = None  # seconds a turn may take (None: no limit)
    reminders: bool = True  # whether awaited players are reminded
    salt: str | None = None  # drawn at the start, secret until the game is over (fairness)
    commitment: str | None = None  # SHA-256 of seed and salt, posted at the start
    bank_start: float | None = None  # a time bank's start per player (None: per-turn clock)
    bank_add: float = 0.0  # what a time bank gets back after each of a player's turns


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int | None  # None for a computer player
    name: str
    kind: str  # 'human' or 'computer'
    level: str | None = None  # a computer's level (``rules.computer.LEVELS``)
    handed: str | None = None  # 'resigned' or 'replaced': the seat changed hands in play
    former: int | None = None  # who held the seat before it was handed on
    bank: float | None = None  # its time bank when its next wait begins (None: full)


@dataclass(frozen=True)
class WaitRow:
    """An awaited human seat: since when it waits, how many reminders it has had, and the
    next moment the scheduler has something to do for it (None: nothing).

    Its turn clock has run ``ran`` seconds by ``mark`` (None: 0 by ``since``) and runs on
    from there under the player's settings of now: a change of quiet hours or time away
    charges the time before it as the settings were then (``bot.scheduler.rebased``)."""

    game_id: int
    seat: int
    since: float
    reminded: int = 0
    due: float | None = None
    ran: float = 0.0
    mark: float | None = None


@dataclass(frozen=True)
class Job:
    """A timer (a row of ``jobs``): something of a ``kind`` to do at ``due`` (None: nothing
    for now) for the thing its key names, ``owner_id`` and ``part``: a wait's game and seat
    (``kind`` 'wait'), a player's daily digest (``'digest'``, the user, 0). The bot's one
    loop claims due jobs and hands each to the handler of its kind (``bot.service.jobs``)."""

    kind: str
    owner_id: int
    part: int = 0
    due: float | None = None


@dataclass(frozen=True)
class PlayerRow:
    """A player's quiet hours (local hours ``quiet_from`` to ``quiet_to`` in ``timezone``),
    their times away, and when they were last reminded by DM or mentioned in a channel;
    their daily digest: its local hour (None: no digest) in ``digest_zone`` (None: their
    quiet hours' zone, else UTC), when the next one is due and when the last one went."""

    user_id: int
    quiet_from: int | None = None
    quiet_to: int | None = None
    timezone: str | None = None
    reminded: float | None = None
    mentioned: float | None = None
    absences: tuple[tuple[float, float], ...] = ()
    digest_hour: int | None = None
    digest_zone: str | None = None
    digest_due: float | None = None
    digest_sent: float | None = None


@dataclass(frozen=True)
class MoveRow:
    version: int  # the state version this move produced
    seat: int
    text: str
    time: float


@dataclass(frozen=True)
class UndoRow:
    """A request to take back a move (``bot/undo.py``): made by ``seat`` at state
    ``version``, ``asked`` at that moment, open until ``due``, and the seats that agreed
    so far. It stands only while the game is still at ``version``."""

    game_id: int
    version: int
    seat: int
    asked: float
    due: float
    agreed: tuple[int, ...] = ()


@dataclass(frozen=True)
class RatingRow:
    """A player's rating at one game in one server: openskill's ``mu`` and ``sigma``, the
    rated games they played and won (a shared win counts its share), the name they last
    played under and when it last changed."""

    guild_id: int
    game: str
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: float = 0.0
    updated: float = 0.0


@dataclass(frozen=True)
class Rated:
    """How a finished game counted for the ratings: ``unrated`` says why it did not (None:
    it did); then ``before`` (None for a player's first rated game of it) and ``after``
    hold each seat's rating, by seat."""

    unrated: str | None
    before: tuple[RatingRow | None, ...] = ()
    after: tuple[RatingRow, ...] = ()


@dataclass(frozen=True)
class ThreadRow:
    """A thread the bot opened for a table (``threads``): the thread is the table's
    channel; ``parent_id`` the channel it was opened from, whose message ``notice_id``
    (None until posted) tells of the table there, with a Join button until it starts and
    the result once it ends; ``stage`` is what that message says now ('open', 'playing' or
    'over')."""

    channel_id: int
    guild_id: int | None
    parent_id: int
    game_id: int
    notice_id: int | None = None
    private: bool = False
    stage: str = "open"


@dataclass(frozen=True)
class LeagueRow:
    """One league, as stored (``store.leagues``). ``state`` is the JSON of the service's
    league record (its settings, sign-ups or entries, rounds and results); ``version`` goes
    up with every change, each a conditional write on it, so that a round is paired once.
    ``due``: when the service next has something to do for it (the round's deadline);
    ``message_id``: its message in its channel (the sign-up, then the standings)."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    status: str  # 'signup', 'running', 'paused', 'over' (its rounds played), 'ended' (early)
    state: str
    version: int
    due: float | None
    message_id: int | None
    created: float
    updated: float


@dataclass(frozen=True)
class BoardRow:
    """A table of a league's round (``board``: its number in the round): claimed by the
    process that opens it (``claimed``), then its thread and game; ``seats`` the league's
    entries by seat (JSON list)."""

    league_id: int
    round: int
    board: int
    claimed: float
    channel_id: int | None = None
    game_id: int | None = None
    seats: str = "[]"
