"""A table as the service holds it, and what a table says of itself: its seats named, its
views, a state as stored (encode, decode, replay), the refusals of a table.

Plain data and pure functions of it: nothing here reads or writes the database.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import rules
from bot import scheduler, undo, words
from bot.records import Rated, SeatRow, WaitRow
from rules.computer import level_name
from rules.core import quote

NAME_LIMIT = 32  # Discord display names are at most 32 characters

Shown = tuple[Hashable, dict[str, Any]]  # a view, and what names it among pictures


class TableError(rules.GameError):
    """A table-level refusal (no table, busy channel, not seated, stale button...).

    ``str(error)`` is a sentence the player reads; nothing was changed.
    """


def set_aside_notice() -> str:
    return words.say("table.set_aside", command="/game new")


class TableSetAside(TableError):
    """The channel's table could not be read from the database and was set aside."""

    def __init__(self) -> None:
        super().__init__(set_aside_notice())


class Conflict(TableError):
    """Another writer (another bot process) wrote the table first: nothing was written,
    and the table held here has been read again."""

    def __init__(self) -> None:
        super().__init__(words.say("table.conflict"))


@dataclass
class Table:
    """A table as the service holds it: the stored row, its seats, and the loaded state."""

    id: int
    channel_id: int
    game: rules.Game[Any]
    options: dict[str, Any]
    status: str
    opener_id: int
    seats: list[SeatRow]
    seed: int | None = None
    state: Any = None
    version: int = 0
    colours: list[str] = field(default_factory=list)
    # What each human seat alone could see after the last reply, and at which version.
    parts: dict[int, dict[str, Any]] = field(default_factory=dict)
    parts_version: int = -1
    # ``game.moves`` and ``game.costs`` per seat of ``legal_state``, the state at
    # ``legal_version``: worked out once per state, for autocomplete (it asks on every
    # keystroke) and for ``play``.
    legal: dict[int, dict[str, Any]] = field(default_factory=dict)
    priced: dict[int, dict[str, str]] = field(default_factory=dict)
    noted: dict[int, dict[str, str]] = field(default_factory=dict)  # ``game.notes``
    legal_version: int = -1
    legal_state: Any = None
    named: re.Pattern[str] | None = None  # finds colour words, for naming players
    shown: Callable[[str], str] = str  # a name as the surface shows it in text (escaped)
    turn_time: float | None = None  # seconds a turn may take (None: no limit)
    reminders: bool = True
    bank_start: float | None = None  # a time bank's start per player (None: per-turn clock)
    bank_add: float = 0.0  # what a time bank gets back after each turn, up to the start
    waits: dict[int, WaitRow] | None = None  # the stored waits, once read
    salt: str | None = None  # secret until the game is over (``bot.fairness``)
    commitment: str | None = None  # SHA-256 of the seed and the salt, posted at the start
    rated: Rated | None = None  # how the last move counted for the ratings
    # The guide topics its lines have named, each with the version whose reply named it
    # (``Narrator.cite``), as far as this process knows; the store holds them all.
    cited: dict[str, int] = field(default_factory=dict)

    # -- moves

    def listed(self) -> dict[int, dict[str, Any]]:
        """The moves worked out so far for the current state (seat -> ``game.moves``).

        A state is never changed once the table holds it (``play`` returns a new one), and
        every new state comes with a new version; the cache is keyed by both anyway.
        """
        if self.legal_version != self.version or self.legal_state is not self.state:
            self.legal, self.legal_version, self.legal_state = {}, self.version, self.state
            self.priced, self.noted = {}, {}
        return self.legal

    def moves(self, seat: int) -> dict[str, Any]:
        """``game.moves`` of ``seat`` now (empty unless awaited): canonical move -> detail.

        Shared with later calls at this state: callers must not change it.
        """
        listed = self.listed()
        moves = listed.get(seat)
        if moves is None:
            moves = listed[seat] = (self.game.moves(self.state, seat)
                                    if seat in self.awaited() else {})
        return moves

    def costs(self, seat: int) -> dict[str, str]:
        """``game.costs`` of ``seat`` now (what its costly moves cost), worked out once a
        state like ``moves``."""
        self.listed()
        return self._once(self.priced, seat, self.game.costs)

    def notes(self, seat: int) -> dict[str, str]:
        """``game.notes`` of ``seat`` now (its moves in the order lists show them, with
        what each does), worked out once a state like ``moves``."""
        self.listed()
        return self._once(self.noted, seat, self.game.notes)

    def _once(self, kept: dict[int, dict[str, str]], seat: int,
              work: Callable[[Any, int], dict[str, str]]) -> dict[str, str]:
        """``work(state, seat)`` kept in ``kept`` for this state ({} unless awaited)."""
        found = kept.get(seat)
        if found is None:
            found = kept[seat] = work(self.state, seat) if seat in self.awaited() else {}
        return found

    def canonical(self, seat: int, text: str) -> str:
        """The move in the game's canonical notation, for the log (the text itself if it
        does not parse)."""
        typed = rules.core.normalize(text)
        if typed in self.listed().get(seat, ()):
            return typed  # already canonical: it is one of the listed moves
        try:
            return self.game.parse(self.state, seat, typed)
        except rules.GameError:
            return typed

    def awaited(self) -> frozenset[int]:
        return self.game.to_act(self.state) if self.state is not None else frozenset()

    def over(self) -> bool:
        return self.status in ("over", "ended")

    # -- seats and names

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def seat_for(self, user_id: int, refusal: str = "seats.no_seat") -> int:
        """The member's seat, or ``TableError`` with the catalogue's sentence ``refusal``
        (what a command that needs a seat says to a member who has none)."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError(words.say(refusal))
        return seat

    def names(self) -> list[str]:
        """The seats' names as players gave them: for views (pictures), never for text."""
        return [s.name for s in self.seats]

    def who(self, seat: int) -> str:
        """A seat's name for a sentence, as the surface shows names (escaped in Discord);
        a player who resigned is marked so."""
        row = self.seats[seat]
        if row.handed == "resigned":
            return words.say("table.resigned", player=self.shown(row.name))
        return self.shown(row.name)

    def label(self, seat: int) -> str:
        """'Alice (Blue)': the player and the colour the rules call them by."""
        name = self.who(seat)
        if seat < len(self.colours):
            return words.say("table.label", player=name, colour=self.colours[seat])
        return words.say("table.label_seat", player=name, seat=seat + 1)

    def labels(self) -> list[str]:
        return [self.label(s.seat) for s in self.seats]

    def opener(self) -> str:
        return next((self.shown(s.name) for s in self.seats if s.user_id == self.opener_id),
                    words.say("table.the_opener"))

    def humans(self) -> list[SeatRow]:
        return [s for s in self.seats if s.kind == "human" and s.user_id is not None]

    def computers(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "computer"]

    def level(self, default: str) -> str:
        """The table's computer level: its computer players', else ``default`` (for
        stand-ins and resigned seats)."""
        return next((level_name(s.level) for s in self.seats if s.kind == "computer"
                     and s.level and s.handed is None), default)

    def seated(self) -> str:
        """'2 of 2-4 players seated: Ann and Bob.'"""
        return words.say("table.seated", count=len(self.seats),
                         range=self.game.players(self.options),
                         players=rules.core.listing([self.who(s.seat) for s in self.seats]))

    def takes(self) -> str:
        """How many players this table takes, with the options it was opened with: '2-4
        players', '4 players, variant=couples'."""
        return ", ".join([self.game.players(self.options),
                          *rules.core.option_words(self.options)])

    def settings(self) -> str:
        """'Settings: turn time 2d; reminders on.', or with a time bank 'Settings: a time
        bank of 3d per player, 1d back after each turn (up to 3d); reminders on.'"""
        if self.bank_start is not None:
            start = scheduler.duration(self.bank_start)
            clock = (words.say("table.clock_bank", duration=start,
                               back=scheduler.duration(self.bank_add)) if self.bank_add
                     else words.say("table.clock_bank_flat", duration=start))
        elif self.turn_time is None:
            clock = words.say("table.clock_none")
        else:
            clock = words.say("table.clock_turn", duration=scheduler.duration(self.turn_time))
        if self.reminders:
            return words.say("table.settings_on", clock=clock)
        return words.say("table.settings_off", clock=clock)

    # -- clocks

    @property
    def clock(self) -> scheduler.TableClock:
        """The table's clock settings, for the rules of time (``bot.scheduler``)."""
        return scheduler.TableClock(self.turn_time, self.bank_start, self.bank_add,
                                    self.reminders)

    def banked(self) -> bool:
        return self.bank_start is not None

    def allowance(self, seat: int) -> float | None:
        """The clock time a wait of ``seat`` has (``scheduler.allowance``)."""
        return scheduler.allowance(self.clock, self.seats[seat].bank)

    def annotate(self, text: str) -> str:
        """Players' names into the rules' sentences: 'Blue attacks Red' -> 'Blue (Alice)
        attacks Red (Bob)', names at first mention; in a game whose seats have no colours,
        'Player 2 takes stone 3' -> 'Bob takes stone 3'."""
        labels = self.colours or [f"Player {s + 1}" for s in range(len(self.seats))]
        if self.named is None:
            self.named = re.compile(r"\b(" + "|".join(re.escape(c) for c in labels) + r")\b")
        seen: set[str] = set()

        def named(match: re.Match[str]) -> str:
            word = match.group(0)
            name = self.who(labels.index(word))
            if not self.colours:
                return name
            if word in seen:
                return word
            seen.add(word)
            return words.say("table.named", colour=word, player=name)

        return self.named.sub(named, text)

    def situation(self) -> str:
        """One sentence: where the table stands."""
        game = self.game
        if self.status == "open":
            return words.say("table.waiting_to_start", game=game.name, seated=self.seated(),
                             opener=self.opener())
        outcome = game.outcome(self.state)
        if outcome is not None:
            reason = self.annotate(outcome.reason)
            if any(s.handed == "resigned" for s in self.seats):
                return words.say("table.over_resigned", game=game.name, reason=reason)
            return words.say("table.over", game=game.name, reason=reason)
        if self.status == "ended":
            return words.say("table.ended", game=game.name)
        waiting = rules.core.listing([self.label(s) for s in sorted(self.awaited())])
        return words.say("table.waiting", game=game.name, number=self.version - 1,
                         players=waiting)

    # -- views

    def view(self, seat: int | None) -> dict[str, Any]:
        """``seat``'s view (None: a spectator's), with the players' names for pictures."""
        view = self.game.view(self.state, seat)
        view["names"] = self.names()
        return view

    def shown_to(self, seat: int | None) -> Shown:
        """A seat's view and what names it among pictures: the table, the audience (the
        seat, None for the channel) and a digest of all the view holds (the names too), so
        that a view that did not change is not drawn again, and a picture is only ever
        the one of its own table, audience and view."""
        view = self.view(seat)
        return (self.id, seat, view_digest(view)), view

    def private_parts(self) -> dict[int, dict[str, Any]]:
        """What each human seat alone can see now, to tell later whose view changed."""
        if self.state is None:
            return {}
        public = self.game.view(self.state, None)
        return {s.seat: private_part(self.game.view(self.state, s.seat), public)
                for s in self.seats if s.kind == "human"}

    def parts_before(self) -> dict[int, dict[str, Any]]:
        """The private parts as the last reply left them (worked out afresh if stale)."""
        return self.parts if self.parts_version == self.version else self.private_parts()

    def took_back(self, seat: int, first: int, count: int) -> rules.Event:
        """The public line of an undo entry, in the rules' words (a colour, or 'Player
        2'), so that it names players as every event does."""
        labels = self.colours or [f"Player {s + 1}" for s in range(len(self.seats))]
        replies = count - 1
        text = (words.say("table.took_back_replies", colour=labels[seat],
                          number=undo.number(first), count=replies) if replies > 0
                else words.say("table.took_back", colour=labels[seat],
                               number=undo.number(first)))
        return rules.Event(text, kind="undo",
                           data={"seat": seat, "first": first, "count": count})


def view_digest(view: dict[str, Any]) -> bytes:
    """What a view holds, as a digest: equal digests, equal views (the pickled bytes are
    the view's every key and value; a view pickled differently is only drawn again)."""
    return hashlib.blake2b(pickle.dumps(view, protocol=5), digest_size=20).digest()


def private_part(seat_view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view holds beyond the spectator's: the part only that seat knows."""
    return {k: v for k, v in seat_view.items() if k != "seat" and public.get(k) != v}


def colours_of(view: dict[str, Any], players: int) -> list[str]:
    """The seat colours the rules' events use ('Blue'), when the view lists them."""
    colours = view.get("colours")
    if isinstance(colours, list) and len(colours) == players and all(
            isinstance(c, str) for c in colours):
        return [c.capitalize() for c in colours]
    return []


# --------------------------------------------------------------------------- a state stored


def encode(game: rules.Game[Any], state: Any) -> str:
    """A state as the JSON the database keeps: ``game.dump(state)``.

    For a game that keeps the base ``dump`` (the format marker, then the state's fields),
    the fields are written straight from the state, skipping the copy ``dump`` makes to
    hand out a dict: the same text, without copying state on every move.
    """
    if type(game).dump is rules.Game.dump:
        return json.dumps({"format": 1, **vars(state)}, separators=(",", ":"))
    return json.dumps(game.dump(state), separators=(",", ":"))


def decode(game: rules.Game[Any], text: str) -> Any:
    return game.load(json.loads(text))


def move_digest(game: int, version: int, move: str) -> str:
    """What a move button carries instead of its move: 12 hex digits of a SHA-256 of the
    stored game, the state version and the move, so it matches that move there and then
    and nothing else."""
    return hashlib.sha256(f"{game}/{version}/{move}".encode()).hexdigest()[:12]


def clean_name(name: str) -> str:
    """A display name on one line, at most 32 characters."""
    return " ".join(str(name).split())[:NAME_LIMIT] or "Player"


def parse_options(text: str | None) -> dict[str, Any]:
    """Options as players type them: ``advanced``, ``variant=couples connect=any``.

    A bare word is switched on (True); ``key=value`` gives a value (whole numbers of up to
    six digits and true/false are understood; anything else stays text). The game itself
    says whether it knows them and their values (``Game.check_options``).
    """
    options: dict[str, Any] = {}
    for word in (text or "").replace(",", " ").split():
        key, sep, value = word.partition("=")
        key, lowered = key.strip().lower(), value.strip().lower()
        if not key or (sep and not lowered):
            raise TableError(words.say("table.not_an_option", typed=quote(word)))
        if not sep or lowered == "true":
            options[key] = True
        elif lowered == "false":
            options[key] = False
        elif lowered.isascii() and lowered.isdigit() and len(lowered) <= 6:
            options[key] = int(lowered)
        else:
            options[key] = lowered
    return options
