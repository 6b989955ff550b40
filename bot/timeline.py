"""One timeline: a table's move log replayed through the rules, once, and what every reader
asks of it.

A game's log is append-only: each entry makes a state version (the deal is version 1, the
entry logged at version *v* made state *v*), and an undo entry (``undo <v>``, ``bot.undo``)
goes back to the state before version *v*. ``Timeline`` plays the log once, from the seed,
and answers:

- **the state at any version** (``state``, ``walk``): states are kept at every
  ``EVERY``-th version, at each undo entry and at the last; any other is played on from
  the nearest kept one, so a long game is not replayed from the deal for every question,
  and an undo entry goes back by that lookup (fewer than ``EVERY`` moves played), never
  by a replay from the deal;
- **each entry as it was replayed** (``steps``: its events, what an undo entry took back),
  the moves still in force (``in_force``), the moves taken back (``taken_back``) and the
  entries that no longer replay (``lost``: the rules changed);
- **where turns end** (``ends``, ``movers``, ``open``, ``turn_of``), by the one rule of
  ``bot.steps`` (``TurnEnds``), which the channel's turn messages follow too; and who was
  awaited all through some moves (``steady``: those *not* newly awaited);
- **the public points** at any version (``points``: ``Game.points``) and over the game
  (``series``, with what each way of winning ``earned`` where the game tells it).

A timeline grows (``grown``: a new one, the moves logged since played on from the last
state, undo entries too) rather than being replayed again. Who reads it: the undo plan
(``bot.undo``), ``/log`` and ``/since`` (``bot.history``), ``/game replay``, the recap and
its animation (``story``: the moves in force only), and the outbox's catch-up.
"""

from __future__ import annotations

import bisect
import copy
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import rules
from bot import undo
from bot.records import MoveRow
from bot.steps import TurnEnds

EVERY = 16  # a state is kept every this many versions (benchmarks/replay.py; see README)


@dataclass(frozen=True)
class Step:
    """One logged entry as replayed: the state version it made, the seat it was made for,
    when, and every event it caused (each reader sees their part). An undo entry has no
    events; ``took_back`` lists the versions of the moves it took back."""

    version: int
    seat: int
    time: float
    events: tuple[rules.Event, ...]
    took_back: tuple[int, ...] = ()


class Timeline:
    """A log replayed (see the module). ``computers``: the seats computer players hold,
    given to tell where turns end (None: turns are not asked of this timeline)."""

    def __init__(self, game: rules.Game[Any], players: int, seed: int,
                 options: dict[str, Any] | None, moves: Iterable[MoveRow] = (), *,
                 computers: Collection[int] | None = None, every: int = EVERY) -> None:
        self.game, self.players, self.every = game, players, every
        dealt = game.new(players, seed, options or None)
        self.kept: dict[int, Any] = {1: dealt}  # version -> state (see ``state``)
        self.moves: dict[int, MoveRow] = {}  # version -> the entry replayed that made it
        self.steps: list[Step] = []
        self.at: dict[int, Step] = {}  # version -> its step
        self.force: list[MoveRow] = []  # the moves in force, in order
        self.took: set[int] = set()  # the versions of the moves taken back
        self.lost: tuple[MoveRow, ...] = ()
        self.failure: Exception | None = None  # why the first lost entry did not replay
        self.last, self.final = 1, dealt
        self.turns = None if computers is None else TurnEnds(game, players, computers)
        if self.turns is not None:
            self.turns.dealt(dealt)
        self._extend(moves)

    @classmethod
    def untrusted(cls, game: rules.Game[Any], players: int, seed: int,
                  options: dict[str, Any] | None, moves: Sequence[MoveRow]) -> Timeline:
        """A timeline whose entries are all listed as lost, without their events (its
        replay ended elsewhere than the stored state, so none of its events is trusted)."""
        line = cls(game, players, seed, options)
        line.lost, line.last, line.kept = tuple(moves), 0, {}
        line.final = None
        return line

    def whole(self) -> Timeline:
        """This timeline, for a reader that needs every entry: raises what the first
        entry that no longer replays raised (``lost``)."""
        if self.lost:
            raise self.failure or ValueError("the log no longer replays")
        return self

    def grown(self, moves: Iterable[MoveRow]) -> Timeline:
        """This timeline with the entries logged since played on from its last state (the
        cost of the new entries alone; any that do not replay, or do not follow on, are
        ``lost``). ``ValueError`` where this one has lost entries already."""
        if self.lost:
            raise ValueError("the log stopped replaying: replay it from the deal")
        twin = copy.copy(self)
        twin.kept, twin.moves, twin.steps = dict(self.kept), dict(self.moves), list(self.steps)
        twin.at = dict(self.at)
        twin.force, twin.took = list(self.force), set(self.took)
        twin.turns = None if self.turns is None else self.turns.copy()
        twin._extend(moves)
        return twin

    def _extend(self, moves: Iterable[MoveRow]) -> None:
        for move in moves:
            if self.lost:
                self.lost += (move,)
                continue
            try:
                if move.version != self.last + 1:
                    raise ValueError(f"a gap in the log before version {move.version}")
                self._play(move)
            except Exception as error:  # this entry and those after it are lost
                self.lost, self.failure = (move,), error

    def _play(self, move: MoveRow) -> None:
        before, first = self.final, undo.taken_back(move.text)
        if first is None:
            after, events = self.game.play(before, move.seat, move.text)
            self.force.append(move)
            took: tuple[int, ...] = ()
        else:  # back to the state before the first move in force it takes back
            events = []
            took = tuple(m.version for m in self.force if m.version >= first)
            self.force = [m for m in self.force if m.version < first]
            after = self.state(took[0] - 1) if took else before
            self.took.update(took)
        version = move.version
        self.moves[version] = move
        self.steps.append(Step(version, move.seat, move.time, tuple(events), took))
        self.at[version] = self.steps[-1]
        if first is not None or version % self.every == 0:
            self.kept[version] = after
        self.last, self.final = version, after
        if self.turns is not None:
            self.turns.moved(version, move.seat, before, after, entry=first is not None)

    # -- states

    def state(self, version: int) -> Any:
        """The state at ``version`` (1: the deal), from 1 to ``last``."""
        for _, state in self.walk([version]):
            return state
        raise AssertionError("unreachable")

    def walk(self, versions: Iterable[int]) -> Iterator[tuple[int, Any]]:
        """The state at each of ``versions`` (ascending), each played on from the one
        before it, or from the nearest kept state (or the last) where that is nearer."""
        kept = sorted(self.kept)
        at, state = 0, None
        for version in versions:
            if not 1 <= version <= self.last:
                raise ValueError(f"version {version} is not in this timeline (1 to "
                                 f"{self.last})")
            if version == self.last:
                at, state = version, self.final
            base = kept[bisect.bisect_right(kept, version) - 1]
            if state is None or base > at or at > version:
                at, state = base, self.kept[base]
            for v in range(at + 1, version + 1):  # never an undo entry: each is kept
                move = self.moves[v]
                state, _ = self.game.play(state, move.seat, move.text)
            at = version
            yield version, state

    def in_force(self) -> list[MoveRow]:
        """The moves still in force, in order (``undo.in_force`` of the entries replayed)."""
        return list(self.force)

    @property
    def taken_back(self) -> frozenset[int]:
        """The versions of the moves an undo took back."""
        return frozenset(self.took)

    def step(self, version: int) -> Step:
        """The entry replayed that made ``version`` (2 to ``last``)."""
        return self.at[version]

    # -- turns

    def _turns(self) -> TurnEnds:
        if self.turns is None:
            raise ValueError("this timeline was not asked to tell turns (no ``computers``)")
        return self.turns

    @property
    def ends(self) -> list[int]:
        """The versions that end a turn, in order (1: the deal; the last, if a turn is
        still under way, ends at ``last`` for now: ``open``)."""
        return self._turns().now(self.last)[0]

    @property
    def movers(self) -> dict[int, tuple[int, ...]]:
        """A turn's end -> the seats that moved in it."""
        return self._turns().now(self.last)[1]

    @property
    def open(self) -> bool:
        """Whether the last turn is still under way."""
        return self._turns().now(self.last)[2]

    def turn_of(self, version: int) -> int:
        """Which turn ``version`` is part of (0: the deal)."""
        return bisect.bisect_left(self.ends, version)

    def turn_states(self) -> Iterator[tuple[tuple[int, ...], int, Any]]:
        """Each turn's movers, end and the state there: the deal first."""
        ends, movers, _ = self._turns().now(self.last)
        for version, state in self.walk(ends):
            yield movers.get(version, ()), version, state

    def steady(self, first: int, after: Iterable[int]) -> set[int]:
        """The seats awaited all through some moves: before version ``first`` and after
        each of the versions ``after`` (ascending). Those awaited at the end but not here
        are the *newly* awaited (``bot.steps.newly``), whom a turn message pings."""
        out = set(self.game.to_act(self.state(first - 1)))
        for _, state in self.walk(after):
            out &= self.game.to_act(state)
        return out

    # -- points

    def points(self, version: int) -> tuple[int, ...] | None:
        """Each seat's public points at ``version`` (``Game.points``)."""
        return self.game.points(self.state(version))

    def series(self) -> tuple[list[list[float]], list[dict[str, float]]]:
        """Per seat, its public points at the deal and after each version; and, for a game
        that tells how points were won (``Game.earned``, from the spectators' view before
        the move), what each way earned it."""
        points: list[list[float]] = [[] for _ in range(self.players)]
        earned: list[dict[str, float]] = [{} for _ in range(self.players)]
        before = None
        for _, state in self.walk(range(1, self.last + 1)):
            public = None
            for seat, now in enumerate(self.game.points(state) or ()):
                gained = now - points[seat][-1] if points[seat] else 0
                if gained:
                    public = public if public is not None else self.game.view(before, None)
                    way = self.game.earned(public, seat)
                    if way is not None:
                        earned[seat][way] = earned[seat].get(way, 0.0) + gained
                points[seat].append(float(now))
            before = state
        return points, earned


def story(game: rules.Game[Any], players: int, seed: int, options: dict[str, Any] | None,
          moves: Sequence[MoveRow], computers: Collection[int] = ()) -> Timeline:
    """The game's story: the moves in force only (a move taken back is no part of it,
    ``undo.in_force``), numbered on from the deal as if none had been taken back; turns
    told. The recap's points and its animation read it."""
    kept = undo.in_force(moves)
    return Timeline(game, players, seed, options,
                    [replace(m, version=n) for n, m in enumerate(kept, start=2)],
                    computers=computers)


def turn_ends(game: rules.Game[Any], players: int, seed: int, options: dict[str, Any] | None,
              moves: Iterable[tuple[int, str]], computers: Collection[int]) -> list[int]:
    """How many of the logged ``moves`` (those in force, in order, as ``(seat, text)``)
    had been played at the end of each turn after the deal."""
    line = story(game, players, seed, options,
                 [MoveRow(n, seat, text, 0.0) for n, (seat, text) in enumerate(moves, 2)],
                 computers)
    return [version - 1 for version in line.ends[1:]]  # the deal's turn is the deal
