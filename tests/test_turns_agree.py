"""One rule of what a turn is (``bot.steps``): the channel posts a new turn message where
the replay's "Turn ▶▶" and the recap's animation (both the timeline's turns,
``bot.timeline``) end a turn, over random play of every
game, with and without a computer player (issue 36: on simultaneous secret picks the
replay ended a turn after each pick, where the channel's turn message went on)."""

from __future__ import annotations

import random

import pytest

import rules
from bot.records import GameRow, MoveRow
from bot.service import TableService, replays
from bot.service.replays import rebuild
from bot.store import Store
from bot.timeline import turn_ends

CH = 930
USERS = (501, 502, 503)
MOVES = 160  # moves of each random game looked at (most games end before)


async def channel_turns(service: TableService, store: Store, game_id: str, computer: bool,
                        seed: int) -> tuple[set[int], list[MoveRow], list[int], GameRow]:
    """A random game through the service: the versions at which the channel starts a new
    turn message for a step (one that pings someone newly awaited, or the game's end), the
    move log, the computer seats and the last version."""
    await service.open(CH, 1, USERS[0], "Ann", game_id)
    await service.join(CH, USERS[1], "Bob")
    if computer:
        await service.add_computer(CH, USERS[0], "easy")
    await service.start(CH, USERS[0], seed=seed)
    rng = random.Random(seed)
    opened: set[int] = set()
    for _ in range(MOVES):
        awaited = [user for user, _ in await service.waiting(CH)]
        if not awaited:
            break
        user = rng.choice(sorted(awaited))
        reply = await service.play(CH, user, rng.choice(await service.legal_moves(CH, user)))
        if reply.newly or reply.over:
            opened.add(reply.version)
    row = await store.tables.latest_game(CH)
    assert row is not None
    moves = await store.tables.moves(row.id)
    seats = await store.seats.of(row.id)
    return opened, moves, [s.seat for s in seats if s.kind == "computer"], row


@pytest.mark.parametrize(("game_id", "computer"), [
    pytest.param(game_id, computer, id=f"{game_id}-{'with a computer' if computer else 'people'}")
    for game_id in sorted(rules.GAMES) for computer in (False, True)
    if not computer or rules.GAMES[game_id].max_players >= 3])  # a third seat for it
async def test_the_replays_turns_end_where_the_channel_starts_a_turn_message(
        service: TableService, store: Store, game_id: str, computer: bool) -> None:
    game = rules.GAMES[game_id]
    opened, moves, computers, row = await channel_turns(service, store, game_id, computer, 4)
    players, last = (3 if computer else 2), row.version
    assert opened, "random play reached no new turn"
    assert row.seed is not None
    # The replay's turn ends after the deal's (the last, if the game goes on, is only where
    # the log stops for now), and the recap's animation's, counted in moves (version - 1).
    past = rebuild(game, players, row.seed, None, moves, None, computers)
    cut = {last} if past.open else set()
    assert set(past.ends[1:]) - cut == opened
    log = [(m.seat, m.text) for m in moves]
    animated = turn_ends(game, players, row.seed, None, log, computers)
    assert {n + 1 for n in animated} - cut == opened


async def test_simultaneous_picks_end_turns_alike_in_the_channel_and_the_replay(
        service: TableService, store: Store) -> None:
    """Cube Conquest's fights have both sides pick a card in secret, both awaited at once:
    the replay's "Turn ▶▶" (the timeline's turn ends) stops exactly where the channel
    posted a new turn message, with the simultaneous picks inside one turn."""
    game = rules.GAMES["cube-conquest"]
    opened, moves, _, row = await channel_turns(service, store, game.id, False, 7)
    assert row.seed is not None
    line = rebuild(game, 2, row.seed, None, moves, None, ())
    awaited = [game.to_act(state) for _, state in line.walk(range(1, line.last + 1))]
    first_picks = [v for v in range(2, line.last + 1)  # one side picked, the other is to
                   if len(awaited[v - 2]) > 1 and awaited[v - 1] < awaited[v - 2]
                   and awaited[v - 1]]
    assert first_picks, "no simultaneous picks were played: the test proves nothing"
    cut = {line.last} if line.open else set()
    assert set(line.ends[1:]) - cut == opened
    assert not set(first_picks) & set(line.ends), "a turn ended between the two picks"
    jumps = [replays.jumps(line, v).turn_forward for v in range(1, line.last)]
    assert {j + 1 for j in jumps if j is not None} - cut <= opened


def test_secret_picks_are_one_turn_message_until_the_fight_is_settled() -> None:
    """The attacker declares (the defender is newly awaited: a turn ends), picks (nobody
    new is awaited: the turn goes on), the defender picks (the fight settles and the next
    player is awaited: a turn ends). Before, the replay ended a turn after every pick."""
    from bot.steps import TurnEnds
    from tests.test_cube_conquest import BLUE, GAME, RED, position

    third = 2  # Blue attacks the third seat; Red plays next
    state = position(cubes={"b2": (BLUE, 1), "b3": (third, 1), "a1": (BLUE, 1),
                            "e5": (RED, 1), "c5": (third, 1)},
                     players=3, decks=[["drop"] * 10] * 3,
                     hands=[["crown", "drop", "drop", "drop"], ["drop"], ["drop", "drop"]])
    ends = TurnEnds(GAME, 3, ())
    ends.dealt(state)
    for version, (seat, text) in enumerate(
            [(BLUE, "attack b3 from b2"), (BLUE, "pick crown"), (third, "pick drop")],
            start=2):
        after, _ = GAME.play(state, seat, text)
        ends.moved(version, seat, state, after)
        state = after
    assert ends.ends == [1, 2, 4]
    assert ends.movers == {1: (), 2: (BLUE,), 4: (BLUE, third)}
