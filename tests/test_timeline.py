"""The one timeline (``bot/timeline.py``): the state after any version is the log replayed
from scratch, undo entries too; turns end where ``bot.steps``' rule ends them, told move by
move; a state is played from the nearest kept one, and a timeline grown by new moves plays
those alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from bot import undo
from bot.records import MoveRow
from bot.steps import TurnEnds
from bot.timeline import EVERY, Timeline, story

GAME_IDS = sorted(rules.GAMES)


def logged(game_id: str, seed: int, count: int, *, undos: bool = False) -> list[MoveRow]:
    """Random legal moves (and, with ``undos``, an undo entry now and then, taking back
    the last one to three moves in force), as the log stores them."""
    game = rules.GAMES[game_id]
    rng = random.Random(f"timeline/{game_id}/{seed}")
    log: list[MoveRow] = []
    state = game.new(2, seed)
    for version in range(2, count + 2):
        if game.outcome(state) is not None:
            break
        force = undo.in_force(log)
        if undos and len(force) > 3 and rng.random() < 0.08:
            text = undo.entry(force[-rng.randint(1, 3)].version)
            log.append(MoveRow(version, 0, text, float(version)))
            state = scratch(game, seed, log)
            continue
        seat = rng.choice(sorted(game.to_act(state)))
        text = rng.choice(game.legal_moves(state, seat))
        state, _ = game.play(state, seat, text)
        log.append(MoveRow(version, seat, text, float(version)))
    return log


def scratch(game: rules.Game[Any], seed: int, log: list[MoveRow]) -> Any:
    """The state after ``log``, played from the deal: the moves in force, in order."""
    state = game.new(2, seed)
    for move in undo.in_force(log):
        state, _ = game.play(state, move.seat, move.text)
    return state


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_state_at_each_version_is_the_log_replayed_from_scratch(game_id: str) -> None:
    game = rules.GAMES[game_id]
    log = logged(game_id, 1, 90, undos=game_id in ("block-buster", "battle-tiles",
                                                   "cube-conquest"))
    line = Timeline(game, 2, 1, None, log)
    assert not line.lost and line.last == len(log) + 1
    expected = {1: game.dump(game.new(2, 1))}
    expected |= {m.version: game.dump(scratch(game, 1, log[:n + 1]))
                 for n, m in enumerate(log)}
    assert {v: game.dump(line.state(v)) for v in expected} == expected
    assert {v: game.dump(s) for v, s in line.walk(sorted(expected))} == expected
    assert line.in_force() == undo.in_force(log)
    assert line.points(line.last) == game.points(line.final)


def test_an_undo_entry_is_told_and_goes_back_without_a_replay() -> None:
    game = rules.GAMES["block-buster"]  # nothing hidden: any move may be taken back
    log = logged("block-buster", 2, 40)
    back = MoveRow(len(log) + 2, 0, undo.entry(log[-3].version), 0.0)
    line = Timeline(game, 2, 2, None, [*log, back])
    assert line.step(back.version).took_back == tuple(m.version for m in log[-3:])
    assert line.taken_back == {m.version for m in log[-3:]}
    assert game.dump(line.final) == game.dump(line.state(log[-4].version))
    assert back.version in line.kept  # an undo entry's state is kept: nothing plays over it


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_turns_end_where_the_rule_of_bot_steps_ends_them(game_id: str) -> None:
    """The timeline's turn ends are ``TurnEnds`` told each move with the states before
    and after it, with a computer seat and without."""
    game = rules.GAMES[game_id]
    log = logged(game_id, 3, 150)
    for computers in ((), (1,)):
        ends = TurnEnds(game, 2, computers)
        state = game.new(2, 3)
        ends.dealt(state)
        for move in log:
            after, _ = game.play(state, move.seat, move.text)
            ends.moved(move.version, move.seat, state, after)
            state = after
        line = Timeline(game, 2, 3, None, log, computers=computers)
        assert (line.ends, line.movers, line.open) == ends.now(line.last)
        assert [v for _, v, _ in line.turn_states()] == line.ends


class Counting:
    """Counts the moves a game plays (``play`` calls)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, game: rules.Game[Any]) -> None:
        self.count = 0
        real = type(game).play

        def counted(this: Any, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(this, *args, **kwargs)

        monkeypatch.setattr(type(game), "play", counted)


def test_a_state_is_played_from_the_nearest_kept_one(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    game = rules.GAMES["cube-conquest"]
    log = logged("cube-conquest", 4, 200)
    line = Timeline(game, 2, 4, None, log, computers=())
    assert len(line.kept) <= len(log) // EVERY + 2
    plays = Counting(monkeypatch, game)
    for version in range(1, line.last + 1):
        before = plays.count
        line.state(version)
        assert plays.count - before < EVERY
    plays.count = 0
    list(line.walk(range(1, line.last + 1)))  # in order: each state played on once
    assert plays.count <= line.last


def test_a_grown_timeline_plays_only_the_new_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rules.GAMES["bomb-squares"]
    log = logged("bomb-squares", 5, 160)
    back = MoveRow(len(log) + 2, 0, undo.entry(log[-2].version), 0.0)
    whole = Timeline(game, 2, 5, None, [*log, back], computers=())
    for cut in (1, 17, 40, len(log) // 2):
        part = Timeline(game, 2, 5, None, log[:cut], computers=())
        plays = Counting(monkeypatch, game)
        grown = part.grown([*log[cut:], back])
        assert plays.count <= len(log) - cut + EVERY  # the new moves (the undo: a lookup)
        monkeypatch.undo()
        assert part.last == cut + 1  # the one grown from is left as it was
        assert (grown.ends, grown.movers, grown.open) == (whole.ends, whole.movers,
                                                          whole.open)
        assert grown.steps == whole.steps and grown.taken_back == whole.taken_back
        for version in (1, cut, cut + 1, whole.last - 1, whole.last):
            assert game.dump(grown.state(version)) == game.dump(whole.state(version))
    gap = MoveRow(whole.last + 2, 0, "x", 0.0)
    assert whole.grown([gap]).lost == (gap,)  # a gap in the log: lost, not guessed at
    with pytest.raises(ValueError):
        whole.grown([gap]).grown([])


def test_a_move_that_no_longer_replays_is_lost_with_those_after_it() -> None:
    game = rules.GAMES["cube-conquest"]
    log = logged("cube-conquest", 6, 30)
    odd = MoveRow(len(log) + 2, 0, "no such move", 0.0)
    after = MoveRow(odd.version + 1, 1, "pass", 0.0)
    line = Timeline(game, 2, 6, None, [*log, odd, after])
    assert line.lost == (odd, after) and line.last == odd.version - 1
    assert isinstance(line.failure, rules.GameError)
    with pytest.raises(ValueError):
        line.grown([])


def test_the_story_leaves_out_the_moves_taken_back_and_its_points_end_as_the_scores(
        ) -> None:
    game = rules.GAMES["cube-conquest"]
    log = logged("cube-conquest", 7, 2000)
    final = scratch(game, 7, log)
    back = MoveRow(len(log) + 2, 0, undo.entry(log[-1].version), 0.0)
    told = story(game, 2, 7, None, [*log, back])
    assert told.last == len(log) and told.in_force() == [
        MoveRow(n, m.seat, m.text, m.time) for n, m in enumerate(log[:-1], start=2)]
    points, _ = Timeline(game, 2, 7, None, log).series()
    outcome = game.outcome(final)
    assert outcome is not None and [line[-1] for line in points] == list(outcome.scores)
    assert [len(line) for line in points] == [len(log) + 1] * 2


def test_who_stayed_awaited_through_some_moves() -> None:
    """``steady``: the seats awaited before the first move and after each one given; the
    others awaited after them are the newly awaited ones a turn message pings."""
    game = rules.GAMES["cube-conquest"]  # both sides awaited at once in a fight
    log = logged("cube-conquest", 8, 600)
    line = Timeline(game, 2, 8, None, log)
    for first in range(2, line.last - 3, 7):
        versions = list(range(first, first + 3))
        expected = set(game.to_act(line.state(first - 1)))
        for version in versions:
            expected &= game.to_act(line.state(version))
        assert line.steady(first, versions) == expected
    fights = [v for v in range(2, line.last + 1) if len(game.to_act(line.state(v - 1))) > 1]
    assert fights and any(line.steady(v, [v]) for v in fights)  # the other side still picks
