"""Ratings per game per server (openskill): a game of humans that ends by its rules is rated
exactly once, with its last move; games with a stand-in, a resignation, a seat handed on or
a computer player, or outside a server, are marked and do not count; /rank's table is
ordered best first and shows names escaped."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules
from bot import ratings, words
from bot.discord.answer import shown_name
from bot.records import RatingRow
from bot.service import TableService
from bot.service.replies import Reply
from bot.store import Store
from tests.conftest import Clock

GAME = "battle-tiles"  # two players, 24 placements: a whole game is short
ANN, BOB, CY = 11, 12, 13
GUILD = 1


async def seat(service: TableService, channel: int, *, guild: int | None = GUILD,
               computer: bool = False, seed: int = 1) -> Reply:
    """Ann opens, Bob (or a computer player) sits, Ann starts."""
    await service.open(channel, guild, ANN, "Ann", GAME)
    if computer:
        await service.add_computer(channel, ANN)
    else:
        await service.join(channel, BOB, "Bob")
    return await service.start(channel, ANN, seed=seed)


async def finish(service: TableService, channel: int, clock: Clock, seed: int = 1
                 ) -> Reply:
    """The humans awaited play seeded random moves until the game is over."""
    rng = random.Random(seed)
    while True:
        clock.t += 60
        waiting = await service.waiting(channel)
        if not waiting:
            break
        user = waiting[0][0]
        reply = await service.play(channel, user, rng.choice(
            await service.legal_moves(channel, user)))
        if reply.over:
            return reply
    raise AssertionError("the game did not end by a human's move")


async def rows(store: Store, game: str = GAME) -> dict[int, RatingRow]:
    return {r.user_id: r for r in await store.tables.ratings(GUILD, game)}


async def unrated(store: Store, game_id: int) -> str | None:
    return await store.tables.unrated(game_id)


# --------------------------------------------------------------------------- rated once


async def test_a_game_of_humans_is_rated_when_it_ends(service: TableService, store: Store,
                                                      clock: Clock) -> None:
    await seat(service, 800)
    assert await rows(store) == {}
    reply = await finish(service, 800, clock)
    row = await store.tables.game(reply.game)
    assert row is not None and row.state is not None
    outcome = rules.GAMES[GAME].outcome(rules.GAMES[GAME].load(json.loads(row.state)))
    assert outcome is not None and len(outcome.winners) == 1
    (winner,) = outcome.winners
    rated = await rows(store)
    assert set(rated) == {ANN, BOB}
    assert all(r.games == 1 and r.updated == clock.t for r in rated.values())
    won, lost = rated[[ANN, BOB][winner]], rated[[ANN, BOB][1 - winner]]
    assert won.wins == 1 and lost.wins == 0
    assert ratings.shown(won) > 0 > ratings.shown(lost)
    assert await unrated(store, reply.game) is None
    line = next(x for x in reply.public.splitlines() if x.startswith("Rated"))
    assert f"Ann {ratings.shown(rated[ANN]):.1f} (+" in line or \
        f"Ann {ratings.shown(rated[ANN]):.1f} (-" in line
    assert f"Bob {ratings.shown(rated[BOB]):.1f}" in line


async def test_the_rating_is_applied_once_whatever_is_retried(service: TableService,
                                                              store: Store,
                                                              clock: Clock) -> None:
    await seat(service, 801)
    reply = await finish(service, 801, clock)
    after = await rows(store)
    moves = await store.tables.moves(reply.game)
    last = moves[-1]
    row = await store.tables.game(reply.game)
    assert row is not None and row.state is not None

    def never(guild: int, before: list[RatingRow | None]) -> list[RatingRow]:
        raise AssertionError("rated a second time")

    # The same last move written again (a retry, another process) finds the game moved on.
    again = await store.tables.finish_game(reply.game, last.version - 1, last.seat, last.text,
                                    row.state, users=(ANN, BOB), unrated=None, rate=never)
    assert again is None
    # A restart rebuilds the unannounced final reply from the log: no rating again.
    later = TableService(store, images=False, now=clock)
    posted = [r for channel, r in await later.undelivered() if channel == 801]
    assert posted and "Recap:" in posted[-1].public
    assert await rows(store) == after
    assert len(await store.tables.moves(reply.game)) == len(moves)


async def test_the_rating_and_the_last_move_are_one_transaction(
        service: TableService, store: Store, clock: Clock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """If the rating cannot be written, neither is the move: the game stays where it was
    and the next try rates it (once)."""
    await seat(service, 802)
    real = ratings.rater
    failing = True

    def flaky(*args: Any) -> Any:
        rate = real(*args)

        def maybe(guild: int, before: list[RatingRow | None]) -> list[RatingRow]:
            if failing:
                raise RuntimeError("the disk went away")
            return rate(guild, before)
        return maybe

    monkeypatch.setattr(ratings, "rater", flaky)
    rng = random.Random(1)
    version = 0
    with pytest.raises(RuntimeError):
        while True:
            user = (await service.waiting(802))[0][0]
            version = (await service.status(802)).version
            await service.play(802, user, rng.choice(await service.legal_moves(802, user)))
    row = await store.tables.active_game(802)
    assert row is not None and row.status == "playing" and row.version == version
    assert len(await store.tables.moves(row.id)) == version - 1
    assert await rows(store) == {}
    failing = False
    reply = await finish(service, 802, clock, seed=2)
    assert reply.over and {r.games for r in (await rows(store)).values()} == {1}


async def test_a_second_game_moves_the_same_ratings_on(service: TableService, store: Store,
                                                       clock: Clock) -> None:
    await seat(service, 803, seed=1)
    await finish(service, 803, clock, seed=1)
    first = await rows(store)
    await seat(service, 803, seed=2)
    await finish(service, 803, clock, seed=2)
    second = await rows(store)
    assert {r.games for r in second.values()} == {2}
    assert sum(r.wins for r in second.values()) == pytest.approx(2)
    assert all(second[u].sigma < first[u].sigma for u in (ANN, BOB)), "surer after two"


# --------------------------------------------------------------------------- not rated


async def not_rated(store: Store, reply: Reply, why: str) -> None:
    assert reply.over
    assert words.say("ratings.not_rated", why=ratings.reason(why)) in reply.public
    assert await unrated(store, reply.game) == why
    assert await rows(store) == {}


async def test_a_game_with_a_computer_player_is_not_rated(service: TableService,
                                                          store: Store, clock: Clock) -> None:
    await seat(service, 810, computer=True)
    await not_rated(store, await finish(service, 810, clock), ratings.COMPUTER)


async def test_a_resignation_keeps_the_game_from_counting(service: TableService,
                                                          store: Store, clock: Clock) -> None:
    await seat(service, 811)
    reply = await service.resign(811, BOB)
    assert await unrated(store, reply.game) == ratings.RESIGNED
    await not_rated(store, await finish(service, 811, clock), ratings.RESIGNED)


async def test_a_seat_handed_on_keeps_the_game_from_counting(service: TableService,
                                                             store: Store, clock: Clock
                                                             ) -> None:
    await seat(service, 812)
    await service.replace(812, ANN, BOB, CY, "Cy")
    await not_rated(store, await finish(service, 812, clock), ratings.REPLACED)


async def test_a_stand_in_keeps_the_game_from_counting(service: TableService, store: Store,
                                                       clock: Clock) -> None:
    await seat(service, 813)
    await service.settings(813, ANN, turn_time="1h", reminders=False)
    clock.t += 3600 + 1
    (due,) = await service.due(clock.t)
    tended = await service.tend(due)
    assert tended is not None and tended.reply is not None
    assert "stands in for this turn" in tended.reply.public
    await service.settings(813, ANN, turn_time="off")
    await not_rated(store, await finish(service, 813, clock), ratings.STOOD_IN)


async def test_a_game_outside_a_server_is_not_rated(service: TableService, store: Store,
                                                    clock: Clock) -> None:
    await seat(service, -814, guild=None)
    await not_rated(store, await finish(service, -814, clock), ratings.NO_SERVER)


async def test_a_finished_game_keeps_the_first_reason_it_does_not_count(store: Store) -> None:
    await store.tables.create_game(820, GUILD, GAME, {}, ANN, "Ann")
    row = await store.tables.active_game(820)
    assert row is not None
    await store.tables.mark_unrated(row.id, ratings.STOOD_IN)
    await store.tables.mark_unrated(row.id, ratings.RESIGNED)
    assert await store.tables.unrated(row.id) == ratings.STOOD_IN


# --------------------------------------------------------------------------- the table


def outcome(scores: tuple[int, ...], winners: set[int]) -> rules.Outcome:
    return rules.Outcome(scores, frozenset(winners), "")


def test_places_follow_the_winners_then_the_points() -> None:
    assert ratings.ranks(outcome((10, 6), {0})) == [0, 1]
    assert ratings.ranks(outcome((4, 9, 4, 2), {1})) == [1, 0, 1, 2]
    assert ratings.ranks(outcome((5, 5, 3), {0, 1})) == [0, 0, 1]
    # a tie broken by the rules: the winner first even on equal points
    assert ratings.ranks(outcome((7, 7), {1})) == [1, 0]


def rating(user: int, name: str, mu: float, sigma: float, games: int = 3) -> RatingRow:
    return RatingRow(GUILD, GAME, user, name, mu, sigma, games, 1.0, 0.0)


def test_the_table_is_best_first_by_the_conservative_rating() -> None:
    sure = rating(1, "Steady", 28.0, 2.0)  # ordinal 22
    lucky = rating(2, "Lucky", 35.0, 6.0)  # higher mu, less sure: ordinal 17
    new = rating(3, "New", 25.0, 25 / 3, games=1)  # ordinal 0
    text = ratings.table_text("Battle Tiles", [new, lucky, sure], shown_name)
    lines = text.splitlines()
    assert lines[0].startswith("**Battle Tiles** ratings in this server")
    assert lines[1].startswith("1. Steady: 22.0 (3 games, 1 win)")
    assert lines[2].startswith("2. Lucky: 17.0")
    assert lines[3].startswith("3. New: 0.0 (1 game, 1 win)")


def test_the_table_escapes_names_and_mentions() -> None:
    sly = rating(4, "**Boss** <@123> @everyone", 30.0, 3.0)
    text = ratings.table_text("Battle Tiles", [sly], shown_name)
    assert "**Boss**" not in text and "<@123>" not in text and "@everyone" not in text
    assert shown_name(sly.name) in text


def test_an_empty_table_says_how_a_game_counts() -> None:
    assert "Nobody has a rating at Crystallia" in ratings.table_text("Crystallia", [],
                                                                     shown_name)


def test_the_table_lists_the_top_twenty() -> None:
    many = [rating(n, f"P{n}", 20.0 + n, 3.0) for n in range(25)]
    lines = ratings.table_text("Battle Tiles", many, shown_name).splitlines()
    assert len(lines) == 1 + ratings.TOP + 1 and lines[1].startswith("1. P24:")
    assert lines[-1] == "... and 5 more."
