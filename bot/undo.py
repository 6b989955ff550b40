"""Taking a move back: which moves may be, and how the log says that one was.

A move is taken back by replaying the log without it, never by editing the log: the log is
append-only, so an undo is itself a logged entry, ``undo <v>`` by the asker's seat, which
takes back every move still in force from version ``v`` on (the asker's move, and at a
table with computers alone, their replies since). The entry gets a version of its own, like
a move, so every button made before it goes stale.

A move may be taken back only when nobody learned anything from it that they cannot
un-learn, and no chance was drawn (taking back a roll would let a player roll again):

- **randomness**: the state's random generator moved (``State.seed``/``State.draws``);
- **hidden information**, in any of three ways:
  1. the move has a private event (one with ``to`` set: a card drawn, a secret choice),
     other than a ``prompt`` (which only asks a seat for a move from what it knows);
  2. some seat's private part changed: what ``view(state, seat)`` shows beyond
     ``view(state, None)`` (a hand, a secret pick) is not the same after the move;
  3. the move's public result depends on something the mover could not see (a face-down
     stone turned up, a tile drawn from a hidden stack): the move is played again in
     ``WORLDS`` states drawn with ``determinize(state, mover, ...)``, which the mover cannot
     tell from the true one, and the spectator's and the mover's views after it must be
     the same in every one. A move that uncovers one of n unknown things passes this by
     chance in at most (1/n) ** WORLDS of cases, n >= 2.

These checks read only the rules' contract (``play``, ``view``, ``determinize``), so they
hold for every registered game. They are pure: this module knows no database or Discord.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import rules
from bot import words
from bot.records import MoveRow, UndoRow

WORD = "undo"  # a log entry whose text is ``undo <version>`` takes moves back
WORLDS = 16  # states the mover cannot tell apart in which a move must look the same
_ENTRY = re.compile(r"undo (\d+)")

# Why a move cannot be taken back (``why_not``; said by ``reason``).
RANDOM = "random"
HIDDEN = "hidden"


def reason(why: str) -> str:
    """Why a move cannot be taken back (``RANDOM`` or ``HIDDEN``), as a clause of a refusal."""
    return words.say("undo.random") if why == RANDOM else words.say("undo.hidden")


def entry(first: int) -> str:
    """The log text that takes back every move in force from version ``first`` on."""
    return f"{WORD} {first}"


def taken_back(text: str) -> int | None:
    """The first version an undo entry takes back, or None for a move of the game."""
    found = _ENTRY.fullmatch(text)
    return int(found.group(1)) if found else None


def is_entry(text: str) -> bool:
    """Whether ``text`` is an undo entry: a word no game uses as a move (the service
    refuses to log a move that reads like one)."""
    return taken_back(text) is not None


def in_force(moves: Sequence[MoveRow]) -> list[MoveRow]:
    """The logged moves still in force, in order: each undo entry takes back the moves
    before it from the version it names on (undo entries themselves are not listed)."""
    kept: list[MoveRow] = []
    for move in moves:
        first = taken_back(move.text)
        if first is None:
            kept.append(move)
        else:
            while kept and kept[-1].version >= first:
                kept.pop()
    return kept


def _private(game: rules.Game[Any], state: Any, seat: int, public: dict[str, Any]
             ) -> dict[str, Any]:
    """What ``seat``'s view holds beyond the spectator's (as the service's replies see it)."""
    return {k: v for k, v in game.view(state, seat).items()
            if k != "seat" and public.get(k) != v}


def why_not(game: rules.Game[Any], before: Any, seat: int, text: str) -> str | None:
    """Why the move ``text`` by ``seat`` from ``before`` cannot be taken back (``RANDOM`` or
    ``HIDDEN``), or None if it can. ``text`` is a logged move, so it plays from ``before``."""
    after, events = game.play(before, seat, text)
    if (after.seed, after.draws) != (before.seed, before.draws):
        return RANDOM
    if any(event.to is not None and event.kind != "prompt" for event in events):
        return HIDDEN
    public_before, public_after = game.view(before, None), game.view(after, None)
    for other in range(before.players):
        if (_private(game, before, other, public_before)
                != _private(game, after, other, public_after)):
            return HIDDEN
    mover_after = game.view(after, seat)
    for world in range(WORLDS):
        unseen = game.determinize(before, seat, world)
        try:
            played, _ = game.play(unseen, seat, text)
        except rules.GameError:  # not even legal there: the move itself tells something
            return HIDDEN
        if (game.view(played, None) != public_after
                or game.view(played, seat) != mover_after):
            return HIDDEN
    return None


# --------------------------------------------------------------------------- asking


class Refusal(Exception):
    """The asker's move cannot be taken back; ``str(refusal)`` is the sentence they read."""


@dataclass(frozen=True)
class Plan:
    """What taking back the asker's last move does: the moves it takes back (the asker's
    first, then any computer replies since), the state before them, and the state the log
    replays to now (the service checks it against the stored one)."""

    moves: tuple[MoveRow, ...]
    before: Any
    current: Any

    @property
    def first(self) -> int:
        """The version of the asker's move: the undo entry names it."""
        return self.moves[0].version


@dataclass(frozen=True)
class Asked:
    """A request posted to the channel: its sentence (names as the surface shows them),
    the humans asked (the only members it may ping), and what its buttons carry."""

    text: str
    asked: tuple[int, ...]
    game: int
    version: int
    digest: str


def number(version: int) -> int:
    """The move number players read for the move that made ``version`` (the board says
    "move n" for the state at version n + 1)."""
    return version - 1


def plan(game: rules.Game[Any], kept: Sequence[MoveRow], seat: int, *,
         at: Callable[[int], Any], replies: bool, who: Callable[[int], str]) -> Plan:
    """Taking back ``seat``'s last move in ``kept`` (the moves in force), or a ``Refusal``
    saying why not.

    The move must be the last in force, unless ``replies`` (a table where the asker is the
    only human): then the computers' replies since go with it. Each move taken back must
    have drawn nothing at random and uncovered nothing (``why_not``). ``who`` names a seat;
    ``at`` gives the state at a version (the log's ``Timeline.state``). Pure: run it off
    the event loop.
    """
    mine = next((i for i in range(len(kept) - 1, -1, -1) if kept[i].seat == seat), None)
    if mine is None:
        raise Refusal(words.say("undo.nothing"))
    own = number(kept[mine].version)
    later = kept[mine + 1:]
    if later and not replies:
        raise Refusal(words.say("undo.answered", player=who(later[0].seat), number=own))
    state = before = at(kept[mine].version - 1)
    for move in kept[mine:]:
        why = why_not(game, state, move.seat, move.text)
        if why is not None and move.seat == seat:
            raise Refusal(words.say("undo.own", number=own, why=reason(why)))
        if why is not None:
            raise Refusal(words.say("undo.reply", player=who(move.seat),
                                    reply=number(move.version), number=own, why=reason(why)))
        state, _ = game.play(state, move.seat, move.text)
    return Plan(tuple(kept[mine:]), before, state)


def digest(row: UndoRow) -> str:
    """What a request's buttons carry: 12 hex digits of a SHA-256 of the game, the version,
    the asker's seat and the moment it was asked, so a button answers that one request
    and no later one, even at the same version."""
    return hashlib.sha256(
        f"undo/{row.game_id}/{row.version}/{row.seat}/{row.asked!r}".encode()).hexdigest()[:12]


def stands(row: UndoRow | None, version: int, now: float) -> bool:
    """Whether a stored request is still open: the game has not moved on since it was
    asked (any entry in the log makes it moot), and it is not past its due moment (a
    refusal closes it by setting its due moment to the refusal's)."""
    return row is not None and row.version == version and now < row.due
