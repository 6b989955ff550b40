"""A computer's long run of moves told in short in the channel (``replies.fold``, issue
38): generic, for every game; what a game sums up is its own (``Game.fold``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import rules
from bot import words
from bot.service.replies import DISCORD, FOLD, Made, fold
from bot.service.table import Table
from rules.core import Event

GAME = rules.GAMES["cube-conquest"]  # any game: the default summary


def table() -> Table:
    """What ``fold`` reads of a table: its game and the seats' names."""
    stand_in: Any = SimpleNamespace(game=GAME, who=lambda seat: f"Computer {seat}")
    return stand_in  # type: ignore[no-any-return]


def steps(seat: int, moves: int, lines: int, start: int, version: int
          ) -> tuple[list[tuple[int | None, Event]], list[Made]]:
    said: list[tuple[int | None, Event]] = []
    made = []
    for k in range(moves):
        events = [(seat, Event(f"Computer {seat}, move {k}, line {n}.")) for n in range(lines)]
        made.append(Made(seat, start + len(said), start + len(said) + lines, version + k))
        said += events
    return said, made


def test_a_long_run_is_told_in_short_and_says_where_every_line_is() -> None:
    human = [(0, Event("Ann places a cube."))]
    run, made = steps(1, moves=6, lines=5, start=1, version=10)
    private = (1, Event("Only Ann reads this.", to=frozenset({0})))
    said = [*human, *run, private]
    made[-1] = Made(1, made[-1].start, made[-1].end + 1, made[-1].version)  # its secret
    fold(table(), said, made, DISCORD)
    texts = [e.text for _, e in said]
    assert texts[0] == "Ann places a cube."  # the human's own move is told whole
    # the default summary: each step's first line, and the run's last
    assert texts[1:8] == [f"Computer 1, move {k}, line 0." for k in range(6)] + [
        "Computer 1, move 5, line 4."]
    assert texts[8] == ("(Computer 1's 6 moves, 30 lines, told in short: `/log count:6` lists "
                        "them, and `/game replay move:9` steps through them one by one.)")
    assert said[-1] == private  # private events are kept as they were


def test_short_runs_and_runs_of_different_seats_are_told_whole() -> None:
    first, made_first = steps(1, moves=3, lines=FOLD // 3, start=0, version=5)
    second, made_second = steps(2, moves=3, lines=FOLD // 3, start=len(first), version=8)
    said = [*first, *second]  # 2 x 24 lines: more than FOLD together, not each
    whole = list(said)
    fold(table(), said, [*made_first, *made_second], DISCORD)
    assert said == whole


def test_the_terminal_points_to_its_own_replay_command() -> None:
    from bot.cli import TERMINAL
    said, made = steps(1, moves=2, lines=FOLD, start=0, version=20)
    with words.speaking(words.PLAIN):  # the terminal's surface
        fold(table(), said, made, TERMINAL)
    assert said[-1][1].text == ("(Computer 1's 2 moves, 50 lines, told in short: 'replay 19' "
                                "to 'replay 20' show them one by one.)")
