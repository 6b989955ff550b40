"""What a turn is, written once: the channel's turn messages and the replay's turns follow it.

A *step* is what one command does to a table: a player's move (or a stand-in's), then the
moves the table makes on its own after it, each a version of its own: computer players',
and a human's *forced* step (their one legal move, plain to everyone). A step that awaits a
human who was not awaited all through it (*newly* awaited) starts a new turn: the channel
posts a new message that pings them, and the replay's "Turn ▶▶" stops at the board it
shows. A step that newly awaits nobody carries on the turn under way (the channel edits the
turn's message). The end of the game ends a turn too.

So a turn ends after a step, not after a move: when a player declares an attack and both
sides pick a card in secret, the defender is newly awaited (a turn ends); the attacker's
pick awaits nobody new (the same turn goes on); the defender's pick settles the fight and
awaits the next player (a turn ends).

``Turns`` (``bot.service.turns``) applies this to each step as it is played (``newly``,
``forced``); ``TurnEnds`` to a log replayed (``bot.timeline``, which the replay, the
recap's animation and the rest read), where it tells the table's own moves from the
others by the same tests.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterable
from typing import Any

import rules

PUBLIC_DRAWS = 4  # states drawn from the public view to check a forced step is plain


def newly(awaited: Iterable[int], steady: Collection[int], humans: Collection[int]
          ) -> tuple[int, ...]:
    """The human seats ``awaited`` after a step that were not awaited all through it
    (``steady``: awaited before its first move and after each of its moves), in order."""
    return tuple(s for s in sorted(awaited) if s in humans and s not in steady)


def forced(game: rules.Game[Any], state: Any, version: int, seat: int,
           legal: Collection[str]) -> str | None:
    """The move ``seat`` must make at ``state`` (version ``version``), when its legal moves
    (``legal``) are that one move and everyone can tell: in every state the public view
    allows (``determinize`` from a spectator's view, ``PUBLIC_DRAWS`` draws, seeded by the
    version) it is the seat's one move. A move alone because of hidden cards (a secret pick
    from a hand of one kind) is not forced: the table making it would tell what the hand
    holds."""
    if len(legal) != 1:
        return None
    (only,) = legal
    for draw in range(PUBLIC_DRAWS):
        guess = game.determinize(state, None, version * PUBLIC_DRAWS + draw)
        if list(game.moves(guess, seat)) != [only]:
            return None
    return only


class TurnEnds:
    """Where turns end in a log replayed through the rules, told the deal and then each
    move in order with the states before and after it. ``computers``: the seats computer
    players hold. A step carries on after a move while the table would make the next move
    itself (a computer seat is awaited, or a human's forced step: ``Turns.play_on``'s
    chain); when it stops, the step ends a turn if it newly awaits a human or ends the
    game. The deal and an undo entry (``undo``) are turns of their own, with the moves the
    table made after them; an undo entry ends the turn it interrupts."""

    def __init__(self, game: rules.Game[Any], players: int, computers: Collection[int]
                 ) -> None:
        self.game, self.computers = game, frozenset(computers)
        self.humans = frozenset(range(players)) - self.computers
        self.ends: list[int] = []  # the versions that end a turn, in order
        self.movers: dict[int, tuple[int, ...]] = {}  # a turn's end -> who moved in it
        self.turn: list[int] = []  # who moved in the turn under way
        self.stepping = False  # the table makes the next move of the step under way
        self.own = True  # the step under way is the deal or an undo entry
        self.steady: set[int] = set()  # awaited all through the step under way

    def copy(self) -> TurnEnds:
        twin = copy.copy(self)
        twin.ends, twin.movers = list(self.ends), dict(self.movers)
        twin.turn, twin.steady = list(self.turn), set(self.steady)
        return twin

    def dealt(self, state: Any) -> None:
        """The deal (version 1) led to ``state``."""
        self._begin(state, own=True)
        self._after(1, state)

    def moved(self, version: int, seat: int, before: Any, after: Any, *, entry: bool = False
              ) -> None:
        """The move of ``seat`` that made ``version`` led from ``before`` to ``after``;
        ``entry``: it is an undo entry."""
        if entry:
            if self.turn:
                self._close(version - 1)
            self._begin(before, own=True)
        elif not self.stepping:
            self._begin(before, own=False)
        if seat not in self.turn:
            self.turn.append(seat)
        self._after(version, after)

    def now(self, last: int) -> tuple[list[int], dict[int, tuple[int, ...]], bool]:
        """The ends and movers so far, a turn still under way ending at ``last`` for now;
        and whether there is one."""
        if not self.turn or (self.ends and self.ends[-1] == last):
            return list(self.ends), dict(self.movers), False
        return [*self.ends, last], {**self.movers, last: tuple(self.turn)}, True

    def _begin(self, before: Any, *, own: bool) -> None:
        self.own, self.stepping = own, False
        self.steady = set(self.game.to_act(before))

    def _after(self, version: int, state: Any) -> None:
        awaited = self.game.to_act(state)
        self.steady &= awaited
        if self.game.outcome(state) is not None:
            self.stepping = False
            self._close(version)
            return
        ends = self.own or bool(newly(awaited, self.steady, self.humans))
        # A forced step the table makes next belongs to this step. Where this step ends no
        # turn, reading that move as a step of its own ends none either (the seat was
        # awaited all through), so it is looked for only where it would move a turn's end.
        self.stepping = bool(awaited & self.computers) or (
            ends and self._forced_next(state, version, awaited))
        if ends and not self.stepping:
            self._close(version)

    def _forced_next(self, state: Any, version: int, awaited: frozenset[int]) -> bool:
        """Whether the one seat awaited has a forced step (``forced``) at ``state``."""
        if len(awaited) != 1:
            return False
        (seat,) = awaited
        return forced(self.game, state, version, seat, list(self.game.moves(state, seat))
                      ) is not None

    def _close(self, version: int) -> None:
        self.ends.append(version)
        self.movers[version] = tuple(self.turn)
        self.turn = []
