"""The rules contract every game follows: errors, events, outcomes, the Game base.

A game is a small object with pure methods over a *state*. The base class owns the checks
every game shares (the game is over, the seat is not awaited, the text is empty or unknown)
so a game module only says what its moves are and what they do.
"""

from __future__ import annotations

import json
import pickle
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar, Generic, TypeVar

# --------------------------------------------------------------------------- errors


class GameError(Exception):
    """A move was refused. ``str(error)`` is a sentence the player reads."""


class InvalidMove(GameError):
    """The text is not a move at all; the message says what a move looks like."""


class IllegalMove(GameError):
    """The text is a move, but not one allowed now; the message says why."""


class NotYourTurn(GameError):
    """The seat is not one whose input the game is waiting for."""


class GameOver(GameError):
    """The game has ended; no more moves are taken."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Event:
    """Something that happened. ``to=None`` is public; otherwise only those seats see it.

    ``kind`` names what it is for the game's own use, and two that the bot reads: a
    computer's ``remark``; ``prompt``, a private line that only asks its seat for a move
    from what that seat already knows (its own cards), so it tells nobody anything new and
    leaves the move free to be taken back (``bot.undo``)."""

    text: str
    to: frozenset[int] | None = None
    kind: str = "info"
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: points per seat, the winning seats and a sentence saying why.

    ``ending`` names the way it ended in a word or two ('points', 'crystal loss', 'draw'),
    for tallies such as the balance benchmark; players read ``reason``.
    """

    scores: tuple[int, ...]
    winners: frozenset[int]
    reason: str
    ending: str = "points"


@dataclass
class State:
    """Fields every game's state has: the seat count and its random generator's position.

    Randomness lives here: each draw makes a fresh ``random.Random`` from the seed and a
    counter, so the same seed and the same moves always give the same game, and a state
    loaded from JSON continues exactly where it left off.
    """

    players: int
    seed: int
    draws: int

    def rng(self) -> random.Random:
        """A generator for the next random draw; advances the counter."""
        generator = random.Random(f"{self.seed}/{self.draws}")
        self.draws += 1
        return generator


S = TypeVar("S", bound=State)
T = TypeVar("T")


def clone(value: T) -> T:
    """A deep copy of plain data (a state, lists, dicts): pickle does it in C, 4x faster
    than ``copy.deepcopy``. Only ever used on the process's own in-memory values."""
    copied: T = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    return copied

# --------------------------------------------------------------------------- helpers

_SPACES = re.compile(r"[\s,;]+")


def normalize(text: str) -> str:
    """Lower case, single spaces, no surrounding blanks or stray punctuation."""
    return _SPACES.sub(" ", text.strip().lower().strip(".!")).strip()


def load_data(game_id: str) -> dict[str, Any]:
    """Read ``data/<game_id>.json``, the game's component definitions."""
    text = resources.files("data").joinpath(f"{game_id}.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


# A rollout this long plays on until the game ends (``Thinking.expert_rollout``): every game
# that uses it ends sooner, by its rules (Block Buster at most 68 moves, Battle Tiles 75).
ROLLOUT_TO_END = 1_000


@dataclass(frozen=True)
class Thinking:
    """How the search of ``rules/computer.py`` plays one game (``Game.thinking``): the
    numbers each game measured for itself with ``benchmarks/computers.py``."""

    budget: int = 200  # ``hard``'s playouts per move (under about a second of CPU)
    widening: float = 2.0  # a node visited n times tries at most 1 + widening * sqrt(n) moves
    rollout: int = 0  # moves the default policy (``Game.policy``) plays before ``evaluate``
    # ``expert``'s rollout where its ten-fold time pays for a longer one (None: ``rollout``;
    # ``ROLLOUT_TO_END``: every playout to the game's end)
    expert_rollout: int | None = None
    # How much better (mean reward in [0, 1]) the search's pick must be to overrule the
    # game's own policy at the root; 0: the search alone decides. Where chance is large and
    # playouts few, a sound policy is steadier than the search's noise.
    trust: float = 0.0


def load_weights(game_id: str) -> dict[str, float]:
    """The evaluation weights of ``data/weights/<game_id>.json`` (tuned by self-play with
    the command that file names); empty when the game has none."""
    source = resources.files("data").joinpath("weights", f"{game_id}.json")
    if not source.is_file():
        return {}
    weights: dict[str, float] = json.loads(source.read_text(encoding="utf-8"))["weights"]
    return weights


MOVE_LIMIT = 100  # characters: longer text is no move of any game, and is never echoed
QUOTE_LIMIT = 30  # characters of what a player typed that a sentence quotes back (a whole
# move of every game's usual length: 'move c4 e3 via e2 with circles')


def quote(typed: object, limit: int = QUOTE_LIMIT) -> str:
    """What a player typed, quoted short for a sentence: 'b1', or 'frobnicate-the-…'."""
    text = " ".join(str(typed).split())
    return f"'{text}'" if len(text) <= limit else f"'{text[: limit - 1]}…'"


def option_words(options: dict[str, Any] | None) -> list[str]:
    """Options as they are typed: 'advanced', 'variant=couples'."""
    return [name if value is True else f"{name}={value}"
            for name, value in (options or {}).items() if value is not False]


def starts(who: str, how: str = "drawn at random") -> Event:
    """The opening's first line: who moves first and how they were chosen, e.g. 'Blue
    starts: drawn at random.'"""
    return Event(f"{who} starts: {how}.", kind="start")


def not_known(word: str, squares: list[str], hint: str) -> InvalidMove:
    """A word of what was typed that no move of the game uses: a square off the board says
    where the board runs (``squares``, first to last), anything else that it is unknown."""
    if re.fullmatch(r"[a-z]\d{1,2}", word):
        return InvalidMove(f"There is no square {quote(word)} on the board: it runs "
                           f"{squares[0]} to {squares[-1]}. {hint}")
    return InvalidMove(f"I don't know {quote(word)}. {hint}")


def out_of_step(move: str, step: str, hint: str) -> IllegalMove:
    """The refusal of a well-formed move that belongs to another step of the game: what was
    typed, the step the game is at and why that rules the move out (``step``: 'your turn is
    at the dice step (roll first)'), then what to type now (``hint``)."""
    return IllegalMove(f"You can't {quote(move)} now: {step}. {hint}")


def left_out(typed: str, verb: str, firsts: Collection[str], step: str, form: str,
             hint: str) -> GameError:
    """The refusal of a move's word with the rest of it left out ('attack c3'): how it is
    written (``form``: "as 'attack c3 from c2'"), or, where no move of this step begins
    with it (``firsts``), the step the game is at, as ``out_of_step`` says it."""
    if verb not in firsts:
        return out_of_step(typed, step, hint)
    return InvalidMove(f"Write {quote(verb)} {form}. {hint}")


def listing(words: list[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (or 'a, b or c' with ``last="or"``, for choices)."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


# --------------------------------------------------------------------------- the game


class Game(ABC, Generic[S]):
    """One game's rules. Subclasses give components, state, moves and scoring.

    The base owns ``play``: it refuses a finished game and a seat that is not awaited, then
    asks the game to parse the text into a canonical move. A canonical move is legal exactly
    when ``legal_moves`` lists it; the game explains any refusal with ``refuse``.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    summary: ClassVar[str]
    options_help: ClassVar[dict[str, str]] = {}  # option name -> what it does (for players)
    # option name -> the values it takes; (True, False) is a switch, written bare
    option_values: ClassVar[dict[str, tuple[str | bool, ...]]] = {}
    state_type: ClassVar[type[State]]
    thinking: ClassVar[Thinking] = Thinking()  # how the computer's search plays this game
    # What the game hides from a player, in the game's words, as the guide says it to them
    # ("your hand of tiles and both stacks"); empty when nothing is hidden.
    hidden: ClassVar[str] = ""
    # Lists show free moves first; a game whose moves go by the thing they act on (Bomb
    # Squares: a card's meeple moves) keeps a costly move that begins with a free one
    # ('meeple e5 buy meeple e5 roll' after 'meeple e5') beside it instead.
    costly_beside: ClassVar[bool] = False
    # How the picture tells colours apart, as the guide's shared 'board' topic says it.
    board_colours: ClassVar[str] = (
        "Every coloured piece also carries its letter, so you never need to tell colours "
        "apart: the seat rows under the board say which letter is whose.")

    def __init__(self) -> None:
        # ``evaluate``'s weights, if the game has any; a tuner tries others on a copy
        self.weights: dict[str, float] = load_weights(self.id)

    # -- setting up

    @abstractmethod
    def new(self, players: int, seed: int, options: dict[str, Any] | None = None) -> S:
        """A fresh game for ``players`` seats, everything random drawn from ``seed``."""

    def check_options(self, options: dict[str, Any] | None) -> None:
        """Refuse option names the game does not know, and values an option does not take,
        with a sentence naming the option and what it accepts."""
        unknown = sorted(set(options or {}) - set(self.options_help))
        if unknown:
            known = listing(sorted(self.options_help), "or") if self.options_help else ""
            named = listing([quote(u) for u in unknown], "or")
            raise IllegalMove(f"{self.name} has no option {named}"
                              + (f"; it knows {known}." if known else "; it has none."))
        for name, value in (options or {}).items():
            accepted = self.option_values.get(name)
            if accepted is None or value in accepted:
                continue
            if accepted == (True, False):
                raise IllegalMove(f"The option {quote(name)} is a switch: write {quote(name)} "
                                  f"alone to turn it on, not {quote(f'{name}={value}')}.")
            raise IllegalMove(f"The option {quote(name)} takes "
                              f"{listing([str(a) for a in accepted], 'or')}, not "
                              + (f"{quote(value)}." if value is not True else "nothing: "
                                 f"write e.g. '{name}={accepted[0]}'."))

    def opening(self, state: S) -> list[Event]:
        """The start message's own lines, told once after the deal (public events): who
        starts and how that was drawn (``starts``), then a few lines defining the words the
        first turns use (the notation of a move, the names events give to pieces, tokens
        and cards), so that no line uses a word before the table has said what it means.
        Seats are named as the game's events name them."""
        return []

    def player_range(self, options: dict[str, Any] | None = None) -> tuple[int, int]:
        """The fewest and the most players with ``options`` (a variant may fix the count)."""
        return self.min_players, self.max_players

    def players(self, options: dict[str, Any] | None = None) -> str:
        """How many play (with ``options``), as a sentence says it: '2 players', '2-4
        players'."""
        fewest, most = self.player_range(options)
        return f"{fewest} players" if fewest == most else f"{fewest}-{most} players"

    def check_players(self, players: int, options: dict[str, Any] | None = None) -> None:
        """Refuse a seat count outside the game's range (with ``options``), with a
        sentence."""
        fewest, most = self.player_range(options)
        if not fewest <= players <= most:
            what = f"{self.name} with {', '.join(option_words(options))}" if (
                (fewest, most) != self.player_range()) else self.name
            raise IllegalMove(f"{what} takes {self.players(options)}, not {players}.")

    # -- asking

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats whose input is awaited; empty once the game is over."""

    @abstractmethod
    def moves(self, state: S, seat: int) -> dict[str, Any]:
        """Every legal move of ``seat``: canonical text -> whatever ``apply`` needs."""

    def legal_moves(self, state: S, seat: int) -> list[str]:
        """Every legal move of ``seat`` in canonical notation (empty if not awaited)."""
        if seat not in self.to_act(state):
            return []
        return list(self.moves(state, seat))

    def costs(self, state: S, seat: int) -> dict[str, str]:
        """What each legal move of ``seat`` that costs something costs, in a few words a
        player reads beside the move ('2 skips: -4 points'); free moves are left out. Every
        list of moves shows it, free moves first (``costly_beside``: a costly move that begins
        with a free one right after it); playing such a move says what it cost."""
        return {}

    def notes(self, state: S, seat: int) -> dict[str, str]:
        """The legal moves of ``seat`` in the order lists of moves show them, each with a
        few words a player reads beside it on what it does (Block Buster: the squares a
        placement covers; '' for nothing). Empty (the base): lists keep ``moves``' order
        and show nothing beside a move but its cost."""
        return {}

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-able data; ``None`` is a spectator."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result, or None while the game runs."""

    # -- moving

    @abstractmethod
    def parse(self, state: S, seat: int, text: str) -> str:
        """Turn normalized player text into a canonical move, or raise ``InvalidMove``."""

    @abstractmethod
    def refuse(self, state: S, seat: int, move: str) -> IllegalMove:
        """The sentence for a well-formed move that is not legal now."""

    @abstractmethod
    def apply(self, state: S, seat: int, move: str, detail: Any) -> list[Event]:
        """Carry out a legal move on ``state`` (a private copy) and say what happened.

        Only ``play`` calls this, after checking legality: it does not check again.
        """

    def play(self, state: S, seat: int, text: str, *, legal: dict[str, Any] | None = None
             ) -> tuple[S, list[Event]]:
        """Parse, check and apply one move; ``state`` itself is never changed.

        ``legal``, when given, is ``moves(state, seat)`` for this very state, which the
        caller already worked out (the service keeps it per state version), so it is not
        worked out twice; it is still the one list that decides what is legal.
        """
        if self.outcome(state) is not None:
            raise GameOver("The game is over; start a new one to play again.")
        awaited = self.to_act(state)
        if seat not in awaited:
            if 0 <= seat < state.players:
                raise NotYourTurn(self.waiting_for(state))
            raise NotYourTurn("You have no seat in this game.")
        text = normalize(text)
        if not text:
            raise InvalidMove(f"Type a move. {self.notation_hint(state, seat)}")
        if len(text) > MOVE_LIMIT:
            raise InvalidMove(f"That is too long for a move ({len(text):,} characters). "
                              f"{self.notation_hint(state, seat)}")
        move = self.parse(state, seat, text)
        if legal is None:
            legal = self.moves(state, seat)
        if move not in legal:
            raise self._as_typed(self.refuse(state, seat, move), text, move)
        after = clone(state)
        events = self.apply(after, seat, move, legal[move])
        return after, events

    @staticmethod
    def _as_typed(error: GameError, text: str, move: str) -> GameError:
        """A refusal that quotes the move as the game reads it ('done'), where the player
        typed another word for it ('pass'): it quotes both, so nobody seems misheard."""
        said = quote(move)
        if text.split()[0] == move.split()[0] or said not in str(error):
            return error
        return type(error)(str(error).replace(said, f"{quote(text)} ({said})", 1))

    def waiting_for(self, state: S) -> str:
        """The sentence for a seat that tries to move out of turn."""
        seats = sorted(self.to_act(state))
        names = listing([f"seat {s + 1}" for s in seats])
        return f"It is not your turn: the game is waiting for {names}."

    @abstractmethod
    def notation_hint(self, state: S, seat: int) -> str:
        """A sentence showing what a move looks like at this point of the game."""

    def evaluate(self, state: S, seat: int) -> float:
        """How well ``seat`` stands, higher is better: the lead a one-step look-ahead player
        maximises. By default the seat's points less the best other seat's, from the
        outcome once the game is over; a game whose points live elsewhere overrides it."""
        result = self.outcome(state)
        if result is None:
            return 0.0
        others = [p for s, p in enumerate(result.scores) if s != seat]
        won = 1000.0 if seat in result.winners else 0.0
        return won + result.scores[seat] - max(others, default=0)

    def policy(self, state: S, seat: int, moves: dict[str, Any], rng: random.Random
               ) -> str | None:
        """A sensible move of ``seat`` among ``moves`` (``moves(state, seat)``), cheaply, by
        the game's own knowledge: the default policy of the computer's playouts. ``state``
        is a world the computer sampled (``determinize``), never the table's. None leaves
        the choice to the computer's generic policy."""
        return None

    def remark(self, public: dict[str, Any], seat: int, move: str, chance: float | None
               ) -> str | None:
        """One line for the channel on why a computer in ``seat`` chose ``move`` when the
        choice is notable (an attack it expects to win, a sale, a skip), else None.
        ``public`` is the spectators' view (``view(state, None)``) before the move, so the
        line can name nothing hidden; ``chance`` is the computer's own estimate of how well
        the move turns out for it (0 to 1), when its level makes one."""
        return None

    def fold(self, seat: int, steps: list[list[Event]]) -> list[Event]:
        """A long run of ``seat``'s steps told in short: the channel gets these events in
        place of a computer's turn whose lines would fill a screen (every line stays in
        the log). ``steps`` holds each step's public events, oldest first. By default the
        first event of each step and the run's last one (how it ended); a game may sum up
        the run its own way."""
        out = [events[0] for events in steps if events]
        last = next((events[-1] for events in reversed(steps) if events), None)
        if last is not None and (not out or last is not out[-1]):
            out.append(last)
        return out

    # -- storing and hidden information

    def dump(self, state: S) -> dict[str, Any]:
        """The whole state as JSON-able data (random generator position included)."""
        return {"format": 1, **clone(vars(state))}

    def load(self, data: dict[str, Any]) -> S:
        """The state ``dump`` wrote; ``load(dump(s)) == s``."""
        fields = {k: v for k, v in clone(data).items() if k != "format"}
        state: S = self.state_type(**fields)  # type: ignore[assignment]
        return state

    @abstractmethod
    def determinize(self, state: S, seat: int | None, seed: int) -> S:
        """A state ``seat`` cannot tell from ``state``, all it cannot see resampled."""

    # -- points, as the recap and the digest tell them

    unit: ClassVar[str] = "points"  # what the game's points are called ('crystals')

    def points(self, state: S) -> tuple[int, ...] | None:
        """Each seat's points as the table shows them to everyone (the public view has
        them; with teams, the team's), or None for a game that shows none while it runs.
        Every game's are the outcome's scores at its end. Public: they never depend on
        anything ``determinize`` redraws."""
        return None

    def earned(self, public: dict[str, Any], seat: int) -> str | None:
        """For a game whose final view does not keep how points were won: the way (a
        ``breakdown`` term's words) that the points ``seat`` gains in the move after
        ``public`` (the spectators' view before it) count as; None (the base) otherwise."""
        return None

    def breakdown(self, public: dict[str, Any], seat: int, earned: dict[str, float]
                  ) -> list[Term]:
        """Where ``seat``'s final points came from, read from the final spectators' view
        and, for a game that needs it, the points its moves ``earned`` by way (``earned``):
        terms that add up to the outcome's score. The base: none (the score alone)."""
        return []


@dataclass(frozen=True)
class Term:
    """Some of a seat's points and where they came from, as said after the number:
    (7, 'attacks won'), (-8, 'from penalty tokens')."""

    points: float
    what: str


def plural(count: float, word: str) -> str:
    """'1 circle', '2 circles'."""
    return f"{count:g} {word}{'' if abs(count) == 1 else 's'}"


def counted(count: float, one: str, many: str) -> Term:
    """A term counting things worth a point each: '1 attack won', '2 attacks won'."""
    return Term(count, one if abs(count) == 1 else many)
