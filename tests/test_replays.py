"""The replay service (``bot/service/replays.py``): the log replayed through the rules, its
turns where the animation ends them, the state at any version from a few kept ones (undo
entries too), where each control goes, the text of a step as each viewer may see it (a
running game's private lines the caller's alone; a finished game's every seat's), which
table is meant, the sentences of a refusal, and that a replay reads and never writes."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

import rules
from bot import history, undo
from bot.records import MoveRow, SeatRow
from bot.service import TableService
from bot.service import replays as replays_module
from bot.service.replays import CHOICES, ago, jumps, rebuild, turn_choices
from bot.service.table import Table, TableError, encode
from bot.timeline import Timeline, story
from render import animation
from tests.conftest import NEW_YEAR, Clock
from tests.pg import Database

GAME_IDS = sorted(rules.GAMES)
CH, OTHER = 700, 701
ANN, BOB, CY = 31, 32, 33
HOUR = 3600.0


@cache
def logged(game_id: str, seed: int = 2, cap: int = 400) -> tuple[MoveRow, ...]:
    """A seeded game of random legal moves (at most ``cap``), as the log stores it."""
    game = rules.GAMES[game_id]
    state = game.new(2, seed)
    rng = random.Random(f"replays/{game_id}/{seed}")
    rows: list[MoveRow] = []
    while game.outcome(state) is None and len(rows) < cap:
        seat = rng.choice(sorted(game.to_act(state)))
        text = rng.choice(game.legal_moves(state, seat))
        state, _ = game.play(state, seat, text)
        rows.append(MoveRow(len(rows) + 2, seat, text, NEW_YEAR + len(rows) * HOUR))
    return tuple(rows)


def replayed(game_id: str, moves: tuple[MoveRow, ...], seed: int = 2) -> Timeline:
    return rebuild(rules.GAMES[game_id], 2, seed, None, list(moves), None)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_turns_end_where_the_animation_ends_them(game_id: str) -> None:
    moves = logged(game_id)
    past = replayed(game_id, moves)
    turns = animation.turns(rules.GAMES[game_id],
                            story(rules.GAMES[game_id], 2, 2, None, moves).turn_states())
    assert past.ends == [t.moves + 1 for t in turns]
    assert [past.movers[v] for v in past.ends[1:]] == [t.seats for t in turns[1:]]
    assert past.last == len(moves) + 1 and not past.lost
    assert past.turn_of(1) == 0 and past.turn_of(past.last) == len(turns) - 1


def test_every_state_is_the_rules_state_at_its_version_undo_entries_too() -> None:
    game = rules.GAMES["bomb-squares"]
    moves = list(logged("bomb-squares", cap=120))
    # Take back moves from version 50 on at version 122, then play on from there.
    state = game.new(2, 2)
    for move in moves[:48]:
        state, _ = game.play(state, move.seat, move.text)
    moves.append(MoveRow(122, moves[-1].seat, undo.entry(50), NEW_YEAR))
    expected = {}
    replay = game.new(2, 2)
    expected[1] = game.dump(replay)
    for move in moves[:120]:
        replay, _ = game.play(replay, move.seat, move.text)
        expected[move.version] = game.dump(replay)
    expected[122] = game.dump(state)
    rng = random.Random(5)
    for version in range(123, 160):
        seat = rng.choice(sorted(game.to_act(state)))
        text = rng.choice(game.legal_moves(state, seat))
        state, _ = game.play(state, seat, text)
        moves.append(MoveRow(version, seat, text, NEW_YEAR))
        expected[version] = game.dump(state)
    past = rebuild(game, 2, 2, None, moves, encode(game, state))
    assert len(past.kept) < len(expected) / 5  # a few kept, the others played from them
    assert {v: game.dump(past.state(v)) for v in expected} == expected
    assert {v for v in past.taken_back} == set(range(50, 122))
    assert "(taken back)" in history.step_lines(past.step(60), None, ["A", "B"], str,
                                                past.taken_back)
    # The turn before an undo entry ends; the entry is a turn of its own (with the moves
    # the table then makes itself, such as a forced draw).
    assert 121 in past.ends and past.turn_of(122) == past.turn_of(121) + 1
    assert past.turn_of(122) != past.turn_of(past.last)


@pytest.mark.parametrize("game_id", ["bomb-squares", "cube-conquest"])
def test_a_replay_played_on_is_the_replay_of_the_whole_log(game_id: str) -> None:
    game = rules.GAMES[game_id]
    moves = logged(game_id)
    whole = replayed(game_id, moves)
    for cut in (1, 17, 40, 41, 42, len(moves) // 2):  # some in the middle of a turn
        part = replayed(game_id, moves[:cut])
        grown = replays_module.extend(part, moves[cut:], None)
        assert part.last == cut + 1 and grown.last == whole.last
        assert (grown.ends, grown.movers, grown.open) == (whole.ends, whole.movers,
                                                          whole.open)
        assert grown.steps == whole.steps and grown.moves == whole.moves
        for version in (1, cut, cut + 1, cut + 2, whole.last):
            assert game.dump(grown.state(version)) == game.dump(whole.state(version))
    part = replayed(game_id, moves[:20])  # an undo entry goes back to a kept state
    back = [*moves[:20], MoveRow(22, 0, undo.entry(5), NEW_YEAR)]
    grown = replays_module.extend(part, back[20:], None)
    whole = replayed(game_id, tuple(back))
    assert grown.taken_back == whole.taken_back == set(range(5, 22))
    assert game.dump(grown.final) == game.dump(whole.state(4))
    with pytest.raises(ValueError):  # a gap
        replays_module.extend(part, moves[21:], None)


def test_a_log_that_leads_elsewhere_than_the_stored_state_is_refused() -> None:
    game = rules.GAMES["battle-tiles"]
    moves = logged("battle-tiles")
    with pytest.raises(TableError, match="no longer replays"):
        rebuild(game, 2, 2, None, list(moves), encode(game, game.new(2, 2)))


def test_the_controls_go_a_move_a_turn_or_to_either_end() -> None:
    past = replayed("bomb-squares", logged("bomb-squares"))
    first = jumps(past, 1)
    assert (first.start, first.turn_back, first.back) == (None, None, None)
    assert first.forward == 1 and first.turn_forward == past.ends[1] - 1
    assert first.end == past.last - 1
    end = jumps(past, past.last)
    assert (end.forward, end.turn_forward, end.end) == (None, None, None)
    assert end.back == past.last - 2 and end.start == 0
    inside = next(v for v in range(2, past.last) if v not in past.ends)  # mid-turn
    middle = jumps(past, inside)
    assert middle.turn_back == max(e for e in past.ends if e < inside) - 1
    assert middle.turn_forward == min(e for e in past.ends if e > inside) - 1
    assert (middle.back, middle.forward) == (inside - 2, inside)


def test_the_select_offers_at_most_25_turns_spread_over_the_game() -> None:
    past = replayed("bomb-squares", logged("bomb-squares"))
    assert len(past.ends) > CHOICES
    table = Table(id=1, channel_id=CH, game=past.game, options={}, status="over",
                  opener_id=ANN, seats=[SeatRow(0, ANN, "Ann", "human"),
                                        SeatRow(1, BOB, "Bob", "human")])
    offered = turn_choices(table, past)
    assert len(offered) == CHOICES
    assert offered[0] == (0, "The deal (move 0)")
    assert offered[-1][0] == past.last - 1
    assert [m for m, _ in offered] == sorted({m for m, _ in offered})
    assert all(len(label) <= 100 and label.startswith("Turn ") for _, label in offered[1:])


def test_ago() -> None:
    assert ago(5, NEW_YEAR) == "just now"
    assert ago(120, NEW_YEAR) == "2 minutes ago"
    assert ago(3 * HOUR, NEW_YEAR) == "3 hours ago"
    assert ago(25 * HOUR, NEW_YEAR) == "1 day ago"
    assert ago(20 * 24 * HOUR, NEW_YEAR) == "on 2026-01-01"


# --------------------------------------------------------------------------- the service


async def seat_two(service: TableService, game_id: str, channel: int = CH,
                   seed: int = 2) -> None:
    await service.open(channel, 1, ANN, "Ann", game_id)
    await service.join(channel, BOB, "Bob")
    await service.start(channel, ANN, seed=seed)


async def play(service: TableService, clock: Clock, moves: int, channel: int = CH,
               seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        waiting = await service.waiting(channel)
        if not waiting:
            return
        user = rng.choice(waiting)[0]
        choices = await service.legal_moves(channel, user)
        await service.play(channel, user, rng.choice(
            [m for m in choices if m.startswith("attack")] or choices))
        clock.t += HOUR


def locked(text: str) -> list[str]:
    """A step's private lines."""
    return [line for line in text.splitlines() if line.startswith(f"\u2003{history.PRIVATE}")]


async def test_a_running_game_shows_the_caller_their_own_lines_and_after_the_end_all(
        service: TableService, clock: Clock) -> None:
    await seat_two(service, "cube-conquest")
    await play(service, clock, 10)
    row = await service.store.tables.latest_game(CH)
    assert row is not None and row.status == "playing" and row.seed is not None
    moves = await service.store.tables.moves(row.id)
    past = Timeline(rules.GAMES["cube-conquest"], 2, row.seed, None, moves)
    labels = ["Ann (Blue)", "Bob (Red)"]
    told = {seat: 0 for seat in (0, 1)}
    for step in past.steps:
        move = undo.number(step.version)
        for user, seat in ((ANN, 0), (BOB, 1), (CY, None)):
            frame = await service.replay(CH, user, None, move)
            assert not frame.finished and frame.move == move and frame.last == len(moves)
            mine = locked(history.step_lines(step, seat, labels, str))
            assert len(locked(frame.text)) == len(mine)
            seen = {e.text for e in step.events if e.visible_to(seat)}
            for event in step.events:  # another seat's secret is nowhere in the text
                if not event.visible_to(seat) and event.text not in seen:
                    assert event.text not in frame.text
            if seat is not None:
                told[seat] += len(mine)
            assert frame.images == ()  # pictures are off here
    assert told[0] and told[1], "no private line to hide"
    spectator = await service.replay(CH, CY, None, 0)
    assert "As everyone sees it" in spectator.text
    # Played to the end, the same moves show every seat's private lines, named.
    await play(service, clock, 500)
    row = await service.store.tables.latest_game(CH)
    assert row is not None and row.status == "over"
    for step in past.steps:
        frame = await service.replay(CH, CY, None, undo.number(step.version))
        assert frame.finished
        everyone = [line for seat in (0, 1)
                    for line in locked(history.step_lines(step, seat, labels, str))]
        assert len(locked(frame.text)) == len(everyone)
    last = await service.replay(CH, CY, None, frame.last)
    assert "Game over:" in last.text and last.jumps.end is None


async def test_which_table_and_the_tables_offered(service: TableService, clock: Clock) -> None:
    with pytest.raises(TableError, match="no game to replay in this channel"):
        await service.replay(CH, CY)
    assert await service.replay_tables(CH) == []
    await seat_two(service, "block-buster")
    running = await service.replay(CH, CY)  # none finished: the running one
    assert not running.finished
    await play(service, clock, 500)
    first = running.game
    await seat_two(service, "battle-tiles")
    await play(service, clock, 3)
    second = (await service.replay(CH, CY, first + 1)).game
    assert second == first + 1
    assert (await service.replay(CH, CY)).game == first  # the last finished one
    clock.t += 3 * 24 * HOUR
    offered = await service.replay_tables(CH)
    assert [t.game for t in offered] == [second, first]
    assert offered[0].label == f"Battle Tiles · table {second} · running, move 3"
    assert offered[1].label == f"Block Buster · table {first} · ended 3 days ago"
    assert [t.game for t in await service.replay_tables(CH, "block")] == [first]
    assert [t.game for t in await service.replay_tables(CH, str(second))] == [second]
    assert [t.game for t in await service.replay_tables(CH, f"table {first}")] == [first]
    assert await service.replay_tables(OTHER) == []
    # A game ended before it finished is told in full too: its seed is given then.
    await service.end(CH, ANN)
    ended = await service.replay(CH, BOB)
    assert ended.game == second and ended.finished and ended.last == 3
    assert "The game was ended before it finished: every hand" in ended.text
    assert (await service.replay(CH, BOB, None, 3)).text.endswith(
        "this game was ended before it finished.")


async def test_refusals_are_sentences(service: TableService, clock: Clock) -> None:
    await service.open(OTHER, 1, ANN, "Ann", "crystallia")
    with pytest.raises(TableError, match="hasn't started yet"):
        await service.replay(OTHER, ANN, 1)
    with pytest.raises(TableError, match="no table 1 in this channel"):
        await service.replay(CH, ANN, 1)
    with pytest.raises(TableError, match="no table 99 in this channel"):
        await service.replay(OTHER, ANN, 99)
    await seat_two(service, "battle-tiles")
    await play(service, clock, 4)
    with pytest.raises(TableError, match=r"has moves 0 to 4 so far \(0 is the deal\); "
                                         r"there is no move 5\."):
        await service.replay(CH, ANN, None, 5)
    row = await service.store.tables.latest_game(CH)
    assert row is not None
    await service.store.tables.set_aside(row.id, "test")
    with pytest.raises(TableError, match="set aside"):
        await service.replay(CH, ANN, row.id)


async def test_stepping_reads_the_log_once_and_writes_nothing(
        service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    await seat_two(service, "cube-conquest")
    await play(service, clock, 12)
    store = service.store
    reads = 0
    moves = store.tables.moves

    async def counted(game_id: int) -> list[MoveRow]:
        nonlocal reads
        reads += 1
        return await moves(game_id)

    monkeypatch.setattr(store.tables, "moves", counted)
    rebuilt = 0
    rebuild = replays_module.rebuild

    def counting(*args: Any) -> Timeline:
        nonlocal rebuilt
        rebuilt += 1
        return rebuild(*args)

    monkeypatch.setattr(replays_module, "rebuild", counting)
    row = await store.tables.latest_game(CH)
    assert row is not None
    changes = store.db.total_changes
    for move in (0, 5, 12, 7, 1):
        await service.replay(CH, ANN, None, move)
    assert reads == 1
    assert store.db.total_changes == changes
    assert await store.tables.latest_game(CH) == row
    # One more move: a new version is replayed afresh; the kept replays stay few.
    monkeypatch.setattr(replays_module, "KEPT", 1)
    await play(service, clock, 1)
    await service.replay(CH, ANN, None, 13)
    assert reads == 2
    assert rebuilt == 1  # played on from the replay kept, not from the deal
    assert list(service.replays._rebuilt) == [(row.id, row.version + 1)]


async def test_pictures_are_drawn_once_the_game_is_over_with_every_hand(
        service: TableService, clock: Clock) -> None:
    await seat_two(service, "cube-conquest")
    await play(service, clock, 500)
    service.images = True
    frames = [await service.replay(CH, CY, None, 0)]
    frames += [await service.replay(CH, CY, None, m) for m in range(1, frames[0].last + 1)]
    held = [f for f in frames if len(f.images) == 2]
    assert held, "no hand held at any move"
    for frame in frames:
        assert [i.name for i in frame.images] in (["board.png"], ["board.png", "hands.png"])
    assert held[0].images[1].alt.startswith(
        f"Every hand after move {held[0].move}. Ann (Blue): Your hand: ")
    name, gif = await service.replay_animation(CH)
    assert name.startswith("The whole game (Cube Conquest, table 1)")
    assert gif.startswith(b"GIF89a")
    assert (await service.replay_animation(CH))[1] is gif  # kept




async def test_a_channels_started_tables_newest_first_on_both_engines(
        database: Database) -> None:
    store = await database.open()
    try:
        ids = []
        game = rules.GAMES["battle-tiles"]
        for n in range(4):
            row = await store.tables.create_game(CH, 1, "battle-tiles", {}, ANN, "Ann")
            await store.seats.add(row.id, 1, BOB, "Bob", "human")
            ids.append(row.id)
            if n != 1:  # the second never starts
                assert await store.tables.start_game(row.id, 5, encode(game, game.new(2, 5)))
            if n != 3:  # the last one runs
                assert await store.tables.end_game(row.id)
        await store.tables.create_game(OTHER, 1, "crystallia", {}, ANN, "Ann")
        found = await store.tables.started_games(CH, 2)
        assert [r.id for r in found] == [ids[3], ids[2]]
        assert [r.status for r in found] == ["playing", "ended"]
        assert [r.id for r in await store.tables.started_games(CH)] == [ids[3], ids[2], ids[0]]
        assert await store.tables.started_games(OTHER) == []
    finally:
        await store.close()


async def test_an_animation_whose_log_no_longer_plays_tells_no_rules_sentence(
        service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal of the rules may name a seat's hand ('Your hand: ...'): a log that no
    longer plays gives the replay's own sentence instead, to anyone."""
    await seat_two(service, "cube-conquest")
    await play(service, clock, 3)
    service.images = True

    def refused(*_: object) -> bytes:
        raise rules.IllegalMove("You can't play that. Your hand: crown (5), arrow (6).")

    monkeypatch.setattr(replays_module, "animated", refused)
    with pytest.raises(TableError) as error:
        await service.replay_animation(CH)
    assert "no longer replays" in str(error.value) and "hand" not in str(error.value)
