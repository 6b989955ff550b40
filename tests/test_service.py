"""The table service: its refusals change nothing, moves are logged and replay, computer
players move by themselves, secrets stay private, racing plays never both apply, and the
outbox gives back what was never announced."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import threading
from collections.abc import Coroutine
from typing import Any

import pytest

import render
import rules
from bot.service import TableService
from bot.service import pictures as pictures_module
from bot.service import table as table_module
from bot.service.pictures import Picture
from bot.service.replies import Reply
from bot.service.table import TableError, encode, parse_options
from bot.store import Store
from bot.timeline import Timeline
from rules.core import listing
from tests.pg import sql as rows
from tests.pictures import pixels

pytestmark = pytest.mark.engines  # its tests of ``store`` run on both engines

GAME = "cube-conquest"
CH = 500
ANN, BOB, CY, DEE, EVE = 101, 102, 103, 104, 105
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy", DEE: "Dee", EVE: "Eve"}


@pytest.fixture
def service(store: Store) -> TableService:
    return TableService(store, images=False, level="normal")


async def snapshot(store: Store) -> tuple[list[Any], ...]:
    """Every stored row: a refusal must leave all of them as they were."""
    out = []
    for sql in ("SELECT * FROM games ORDER BY id", "SELECT * FROM seats ORDER BY game_id, seat",
                "SELECT * FROM moves ORDER BY game_id, version"):
        out.append(await rows(store, sql))
    return tuple(out)


async def refused(store: Store, call: Coroutine[Any, Any, Any], sentence: str) -> None:
    before = await snapshot(store)
    with pytest.raises(TableError) as info:
        await call
    assert str(info.value) == sentence
    assert await snapshot(store) == before


async def table(service: TableService, humans: int = 2, computers: int = 0,
                seed: int = 1) -> Reply:
    """A started table in CH: Ann opens, others join, computers fill the last seats."""
    await service.open(CH, 1, ANN, "Ann", GAME)
    for user in (BOB, CY, DEE)[: humans - 1]:
        await service.join(CH, user, NAMES[user])
    for _ in range(computers):
        await service.add_computer(CH, ANN)
    return await service.start(CH, ANN, seed=seed)


async def step(service: TableService, rng: random.Random, prefer: str = "") -> tuple[int, str,
                                                                                      Reply]:
    """The first awaited human plays a random legal move (one starting ``prefer`` if any)."""
    user = (await service.waiting(CH))[0][0]
    moves = await service.legal_moves(CH, user)
    liked = [m for m in moves if prefer and m.startswith(prefer)]
    move = rng.choice(liked or moves)
    return user, move, await service.play(CH, user, move)


async def check_log_replays(store: Store, channel: int = CH) -> None:
    row = await store.tables.latest_game(channel)
    assert row is not None and row.seed is not None and row.state is not None
    moves = await store.tables.moves(row.id)
    assert [m.version for m in moves] == list(range(2, row.version + 1))
    game = rules.GAMES[row.game]
    state = Timeline(game, len(await store.seats.of(row.id)), row.seed, row.options,
                     moves).whole().final
    assert encode(game, state) == row.state


# --------------------------------------------------------------------------- refusals


async def test_opening_refusals(service: TableService, store: Store) -> None:
    await refused(store, service.open(CH, 1, ANN, "Ann", "chess"),
                  "There is no game called 'chess'. Games: "
                  f"{listing(sorted(rules.GAMES))}.")
    reply = await service.open(CH, 1, ANN, "Ann", GAME)
    assert reply.public.startswith("Ann opened a table for Cube Conquest (2-4 players).")
    await refused(store, service.open(CH, 1, BOB, "Bob", GAME),
                  "This channel already has a table for Cube Conquest, opened by Ann and not "
                  "yet started: take a seat with /game join, or open yours in another channel.")


async def test_a_variant_of_fixed_size_opens_seats_and_starts_as_many(
        service: TableService, store: Store) -> None:
    """An audit's special-2p table said '2-4 players', seated a third and refused the
    start with no next step. The table says the variant's count and its options, and
    takes no more seats than it can start with."""
    opened = await service.open(CH, 1, ANN, "Ann", "block-buster", {"variant": "special-2p"})
    assert opened.public.startswith("Ann opened a table for Block Buster (2 players, "
                                    "variant=special-2p).")
    await service.join(CH, BOB, "Bob")
    await refused(store, service.join(CH, CY, "Cy"),
                  "The table is full: this Block Buster table takes at most 2 players.")
    await service.start(CH, ANN, seed=3)
    couples = CH + 1
    await service.open(couples, 1, ANN, "Ann", "block-buster", {"variant": "couples"})
    said = await service.join(couples, BOB, "Bob")
    assert "2 of 4 players seated" in said.public
    await refused(store, service.start(couples, ANN),
                  "Block Buster takes 4 players, variant=couples; this table has 2. Ask "
                  "someone to /game join, or add a computer player.")
    with pytest.raises(rules.IllegalMove, match=r"^Block Buster with variant=couples takes "
                       r"4 players, not 2\.$"):
        rules.GAMES["block-buster"].new(2, 1, {"variant": "couples"})


async def test_lobby_refusals(service: TableService, store: Store) -> None:
    no_table = "There is no game in this channel. Open one with /game new."
    await refused(store, service.join(CH, BOB, "Bob"), no_table)
    await refused(store, service.leave(CH, BOB), no_table)
    await refused(store, service.add_computer(CH, ANN), no_table)
    await refused(store, service.start(CH, ANN), no_table)
    await refused(store, service.end(CH, ANN), no_table)
    await refused(store, service.status(CH), no_table)
    await refused(store, service.board(CH), no_table)

    await service.open(CH, 1, ANN, "Ann", GAME)
    await refused(store, service.start(CH, ANN),
                  "Cube Conquest takes 2-4 players; this table has 1. Ask someone to "
                  "/game join, or add a computer player.")
    await refused(store, service.join(CH, ANN, "Ann"), "You already have a seat at this table.")
    await refused(store, service.leave(CH, BOB), "You have no seat at this table.")
    await refused(store, service.leave(CH, ANN), "You opened this table, so you can't leave "
                  "it; end it with /game end instead.")
    await service.join(CH, BOB, "Bob")
    await refused(store, service.add_computer(CH, BOB),
                  "Only Ann, who opened this table, can add a computer player.")
    await refused(store, service.start(CH, BOB),
                  "Only Ann, who opened this table, can start the game.")
    await refused(store, service.end(CH, BOB),
                  "Only Ann, who opened this table, or a moderator can end the game.")
    await refused(store, service.remove_computer(CH, ANN),
                  "There is no computer player at this table.")
    await refused(store, service.play(CH, ANN, "place b1"),
                  "The game hasn't started yet; Ann starts it with /game start.")
    await service.join(CH, CY, "Cy")
    await service.add_computer(CH, ANN)
    await refused(store, service.join(CH, DEE, "Dee"),
                  "The table is full: this Cube Conquest table takes at most 4 players.")
    await refused(store, service.add_computer(CH, ANN),
                  "The table is full: this Cube Conquest table takes at most 4 players.")
    assert (await service.status(CH)).public == (
        "Cube Conquest: waiting to start. 4 of 2-4 players seated: Ann, Bob, Cy and "
        "Computer 1. Ann starts it with /game start.\n"
        "Seats: 1. Ann; 2. Bob; 3. Cy; 4. Computer 1 (normal).")

    await service.start(CH, ANN, seed=3)
    started = "The game has already started; seats are fixed until it ends."
    await refused(store, service.join(CH, DEE, "Dee"), started)
    await refused(store, service.add_computer(CH, ANN), started)
    await refused(store, service.start(CH, ANN), "The game has already started.")
    await refused(store, service.leave(CH, BOB), "The game has started, so seats are fixed; "
                  "the opener or a moderator can stop it with /game end.")


async def test_leaving_frees_the_seat_and_seats_move_up(service: TableService) -> None:
    await service.open(CH, 1, ANN, "Ann", GAME)
    await service.join(CH, BOB, "Bob")
    await service.add_computer(CH, ANN)
    await service.join(CH, CY, "Cy")
    reply = await service.leave(CH, BOB)
    assert reply.public == "Bob leaves the table. 3 of 2-4 players seated: Ann, Computer 1 and Cy."
    reply = await service.remove_computer(CH, ANN)
    assert reply.public == "Computer 1 leaves the table. 2 of 2-4 players seated: Ann and Cy."
    await service.start(CH, ANN, seed=5)
    status = (await service.status(CH)).public
    assert status.endswith("Seats: 1. Ann (Blue); 2. Cy (Red).")


async def test_playing_refusals(service: TableService, store: Store) -> None:
    await table(service, seed=7)
    waiting = await service.waiting(CH)
    assert len(waiting) == 1
    mover, label = waiting[0]
    other = BOB if mover == ANN else ANN
    version = (await service.board(CH)).version
    move = (await service.legal_moves(CH, mover))[0]

    await refused(store, service.play(CH, EVE, move), "You have no seat in this game.")
    await refused(store, service.play(CH, other, move),
                  f"It is not your turn: the game is waiting for {label}.")
    await refused(store, service.play(CH, mover, move, version=version - 1),
                  "That button is from an earlier turn; the game has moved on. Look at the "
                  "latest board and try again.")
    await refused(store, service.hand(CH, EVE),
                  "You have no seat in this game; /board shows the table to everyone.")
    assert await service.legal_moves(CH, other) == []
    assert await service.legal_moves(CH, EVE) == []
    assert await service.legal_moves(CH + 1, mover) == []

    # Rules errors pass through unchanged, and change nothing either.
    before = await snapshot(store)
    with pytest.raises(rules.InvalidMove, match="That is not a move I understand"):
        await service.play(CH, mover, "fly")
    with pytest.raises(rules.InvalidMove, match=r"^Type a move"):
        await service.play(CH, mover, "", version=version)
    with pytest.raises(rules.IllegalMove, match="Your starting cubes go on your edge"):
        await service.play(CH, mover, "place c3")
    assert await snapshot(store) == before

    reply = await service.play(CH, mover, move, version=version)
    assert reply.version == version + 1


async def test_listed_moves_follow_the_game(service: TableService, store: Store) -> None:
    """The moves the service lists (and checks a play against) are worked out once per
    state: after every move, the listing is the new stored state's, for every seat, and a
    move that became illegal is refused even though an earlier listing held it."""
    game = rules.GAMES[GAME]
    await table(service, seed=21)
    rng = random.Random(21)
    said = None  # (user, move) of the last move played
    for _ in range(40):
        row = await store.tables.active_game(CH)
        assert row is not None and row.state is not None
        stored = game.load(json.loads(row.state))
        for user, seat in ((ANN, 0), (BOB, 1)):
            assert await service.legal_moves(CH, user) == game.legal_moves(stored, seat)
        if said is not None and said[1] not in await service.legal_moves(CH, said[0]):
            with pytest.raises(rules.GameError):  # rules' or the table's refusal
                await service.play(CH, *said)
        user = (await service.waiting(CH))[0][0]
        listed = await service.legal_moves(CH, user)
        with pytest.raises(rules.IllegalMove):
            await service.play(CH, user, "place c3")  # never legal here; still refused
        move = rng.choice(listed)
        reply = await service.play(CH, user, move)
        assert reply.version == row.version + 1
        said = (user, move)
    await check_log_replays(store)


async def test_ending(service: TableService, store: Store) -> None:
    await table(service)
    reply = await service.end(CH, BOB, moderator=True)
    ended, revealed = reply.public.splitlines()  # the seed and salt, now (bot/fairness.py)
    assert (ended, reply.over) == ("Bob ended the game of Cube Conquest.", True)
    assert revealed.startswith("Fair shuffle revealed: seed 1, salt ")
    over = "The game in this channel is over; open a new one with /game new."
    await refused(store, service.play(CH, ANN, "place b1"), over)
    await refused(store, service.join(CH, CY, "Cy"), over)
    assert await service.waiting(CH) == []
    assert (await service.status(CH)).public.startswith(
        "Cube Conquest: this game was ended before it finished.")
    # The channel is free again; a moderator without a seat can end the next one.
    await service.open(CH, 1, CY, "Cy", GAME)
    reply = await service.end(CH, EVE, moderator=True)
    assert reply.public == "A moderator ended the game of Cube Conquest."


# --------------------------------------------------------------------------- playing


async def test_a_whole_game_between_two_people(service: TableService, store: Store) -> None:
    start = await table(service, seed=11)
    # who starts and the words of the first turns, then the commitment (bot/fairness.py)
    begins, starts, *words, committed = start.public.splitlines()
    assert begins == "Cube Conquest begins: Ann (Blue) and Bob (Red)."
    assert committed.startswith("Fair shuffle: commitment `")
    assert starts in ("Blue (Ann) starts: drawn at random.",
                      "Red (Bob) starts: drawn at random.")
    assert any("drop 1, hammers 2" in line for line in words)
    assert start.version == 1
    assert sorted(p.user_id for p in start.private) == [ANN, BOB]
    rng = random.Random(11)
    reply = start
    version = 1
    while not reply.over:
        _, _, reply = await step(service, rng)
        # One version per move, and one per step the table made for a seat with one move
        forced = reply.public.count("has one move only, so the table makes it for them.")
        assert reply.version == version + 1 + forced
        version = reply.version
        # Secrets never reach the channel: private events all speak to "you".
        assert not any(line.startswith("You ") for line in reply.public.splitlines())
        for private in reply.private:
            assert private.user_id in (ANN, BOB)
            assert all(line.startswith("You ") for line in private.text.splitlines()), private.text
        assert all(line.startswith("You ") for line in reply.ephemeral.splitlines())
        if not reply.over:
            assert reply.mention == tuple(u for u, _ in await service.waiting(CH))
    assert reply.mention == ()
    assert any(line.startswith("Game over:") for line in reply.public.splitlines())
    assert (await store.tables.latest_game(CH)).status == "over"  # type: ignore[union-attr]
    await check_log_replays(store)
    assert (await service.board(CH)).public.startswith("Cube Conquest, game over:")


async def test_computer_players_move_until_a_human_must(service: TableService,
                                                        store: Store) -> None:
    reply = await table(service, humans=1, computers=3, seed=5)
    rng = random.Random(5)
    moves = 0
    while not reply.over:
        assert reply.mention == (ANN,)
        assert await service.waiting(CH) == [(ANN, "Ann (Blue)")]
        _, _, reply = await step(service, rng)
        moves += 1
        # Computers get no private messages; Ann only gets her own.
        assert all(p.user_id == ANN for p in reply.private)
    row = await store.tables.latest_game(CH)
    assert row is not None and row.status == "over"
    logged = await store.tables.moves(row.id)
    assert len(logged) > moves  # the computers moved too, each move logged
    assert {m.seat for m in logged} == {0, 1, 2, 3}
    await check_log_replays(store)


async def test_a_secret_pick_is_told_only_to_the_picker(service: TableService) -> None:
    await table(service, seed=2)
    rng = random.Random(2)
    for _ in range(400):
        _, _, reply = await step(service, rng, prefer="attack")
        if "Both choose a card in secret" in reply.public:
            break
    else:
        pytest.fail("no attack happened")
    waiting = [u for u, _ in await service.waiting(CH)]
    assert sorted(waiting) == [ANN, BOB]
    picker = waiting[0]
    move = (await service.legal_moves(CH, picker))[0]
    reply = await service.play(CH, picker, move)
    card = move.removeprefix("pick ")
    assert reply.ephemeral.startswith("You chose " + card)
    assert "has chosen." in reply.public
    assert card not in reply.public
    assert [p.user_id for p in reply.private] == [picker]
    assert reply.mention == tuple(u for u in waiting if u != picker)


async def test_names_and_colours_in_the_channel_text(service: TableService) -> None:
    await table(service, seed=7)
    mover, label = (await service.waiting(CH))[0]
    reply = await service.play(CH, mover, (await service.legal_moves(CH, mover))[0])
    colour = label.split("(")[1].rstrip(")")
    assert reply.public.startswith(f"{colour} ({NAMES[mover]}) places a cube on ")
    board = await service.board(CH)
    assert board.public.startswith("Cube Conquest, move 1: waiting for ")
    assert board.mention == ()
    hand = await service.hand(CH, ANN)
    assert hand.ephemeral.startswith("You are Ann (Blue). Cube Conquest")
    assert [p.user_id for p in hand.private] == [ANN]


async def test_pictures_show_names_and_hands(store: Store) -> None:
    service = TableService(store, images=True)
    start = await table(service, humans=1, computers=1, seed=4)
    assert start.picture is not None
    assert start.picture.png.startswith(b"\x89PNG\r\n\x1a\n")
    assert "Ann" in start.picture.summary and "Computer 1" in start.picture.summary
    assert "Your hand" not in start.picture.summary
    (mine,) = (await start.with_pictures()).private
    assert mine.user_id == ANN and mine.picture is not None
    assert "Your hand" in mine.picture.summary
    hand = await service.hand(CH, ANN)
    assert hand.private[0].picture == mine.picture  # same view, same picture (cached)


async def test_a_kept_picture_is_only_ever_the_view_it_was_drawn_for(store: Store) -> None:
    """Pictures are kept by table, version, seat and names: each seat gets its own, a move
    makes new ones, and each is the picture of its view drawn afresh."""
    service = TableService(store, images=True)
    await table(service, humans=2, seed=4)
    rng = random.Random(3)
    for _ in range(6):
        board = await service.board(CH)
        hands = {user: (await service.hand(CH, user)).private[0].picture
                 for user in (ANN, BOB)}
        assert board.picture is not None and None not in hands.values()
        row = await store.tables.active_game(CH)
        assert row is not None and row.state is not None
        state = table_module.decode(rules.GAMES[GAME], row.state)
        names = ["Ann", "Bob"]
        for seat, picture in ((None, board.picture), (0, hands[ANN]), (1, hands[BOB])):
            view = {**rules.GAMES[GAME].view(state, seat), "names": names}
            assert picture is not None
            drawn = render.pngs(GAME, view)
            assert [pixels(p) for p in (picture.png, *picture.more)] == [
                pixels(p) for p in drawn]
        await step(service, rng)


async def test_the_channel_part_is_ready_before_the_dms_pictures_are_drawn(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the channel hears of a move must not depend on what the DMs show: play()
    answers with the board while the DMs' pictures are still being drawn."""
    service = TableService(store, images=True)
    await table(service, humans=2, seed=4)
    release = threading.Event()
    draw = pictures_module.pictures

    def pictures(game_id: str, views: list[dict[str, Any]], table: bytes | None = None
                 ) -> list[Picture]:
        if any(view.get("seat") is not None for view in views):  # the DMs' job
            assert release.wait(timeout=30)
        return draw(game_id, views, table)

    monkeypatch.setattr(pictures_module, "pictures", pictures)  # bot/service/pictures.py
    for _ in range(200):  # to the first move that changes a hand (placing cubes does not)
        user = (await service.waiting(CH))[0][0]
        reply = await service.play(CH, user, (await service.legal_moves(CH, user))[0])
        if reply.drawing is not None:
            break
    assert reply.picture is not None and "Your hand" not in reply.picture.summary
    assert reply.private and all(p.picture is None for p in reply.private)
    assert reply.drawing is not None and not reply.drawing.done()
    release.set()
    done = await reply.with_pictures()
    assert done.drawing is None
    assert [(p.user_id, p.text) for p in done.private] == [
        (p.user_id, p.text) for p in reply.private]
    drawn = [p.picture for p in done.private if p.picture is not None]
    assert drawn and all("Your hand" in picture.summary for picture in drawn)


async def test_options_are_kept_and_names_cleaned(service: TableService,
                                                  store: Store) -> None:
    await service.open(CH, 1, ANN, "  Ann \n the   Bold " + "x" * 40, GAME, {})
    row = await store.tables.active_game(CH)
    assert row is not None and row.options == {}
    seats = await store.seats.of(row.id)
    assert seats[0].name == ("Ann the Bold " + "x" * 40)[:32]


# --------------------------------------------------------------------------- races


async def test_racing_plays_on_one_version_apply_exactly_once(service: TableService,
                                                              store: Store) -> None:
    await table(service, seed=8)
    stale = ("That button is from an earlier turn; the game has moved on. Look at the "
             "latest board and try again.")
    for _ in range(12):
        user = (await service.waiting(CH))[0][0]
        version = (await service.board(CH)).version
        moves = await service.legal_moves(CH, user)
        tries = [service.play(CH, user, moves[i % len(moves)], version=version)
                 for i in range(40)]
        results = await asyncio.gather(*tries, return_exceptions=True)
        applied = [r for r in results if isinstance(r, Reply)]
        assert len(applied) == 1
        assert applied[0].version == version + 1
        assert all(isinstance(r, TableError) and str(r) == stale
                   for r in results if not isinstance(r, Reply))
        row = await store.tables.latest_game(CH)
        assert row is not None and row.version == version + 1
    await check_log_replays(store)


async def test_racing_plays_without_versions_never_corrupt(service: TableService,
                                                           store: Store) -> None:
    await table(service, seed=9)
    rng = random.Random(9)
    for _ in range(15):
        tries = []
        for user in (ANN, BOB, ANN, BOB):
            moves = await service.legal_moves(CH, user)
            tries += [service.play(CH, user, rng.choice(moves)) for _ in range(5) if moves]
        before = (await service.board(CH)).version
        results = await asyncio.gather(*tries, return_exceptions=True)
        applied = [r for r in results if isinstance(r, Reply)]
        assert all(isinstance(r, (Reply, rules.GameError)) for r in results)
        assert sorted(r.version for r in applied) == list(
            range(before + 1, before + 1 + len(applied)))
    await check_log_replays(store)


async def test_two_processes_racing_on_one_table(service: TableService, store: Store) -> None:
    """Two services over two connections (as two bot processes would be): the version in
    the write keeps one of two simultaneous moves, and the other is told why."""
    other_store = await Store.open(store.path)
    try:
        other = TableService(other_store, images=False)
        await table(service, seed=10)
        for _ in range(6):
            await other.board(CH)  # both now hold the same version in memory
            user = (await service.waiting(CH))[0][0]
            moves = await service.legal_moves(CH, user)
            version = (await service.board(CH)).version
            # Each process checks its table against the database before a command, so the
            # loser either lost the conditional write or already saw the winner's move.
            results = await asyncio.gather(service.play(CH, user, moves[0], version=version),
                                           other.play(CH, user, moves[-1], version=version),
                                           return_exceptions=True)
            applied = [r for r in results if isinstance(r, Reply)]
            lost = [r for r in results if not isinstance(r, Reply)]
            assert len(applied) == 1 and len(lost) == 1
            assert str(lost[0]) in (
                "Someone else moved at the same moment and the game moved on. Look at the "
                "latest board and try again.",
                "That button is from an earlier turn; the game has moved on. Look at the "
                "latest board and try again.")
            assert (await store.tables.latest_game(CH)).version == version + 1  # type: ignore[union-attr]
        await check_log_replays(store)
    finally:
        await other_store.close()


async def test_many_tables_at_once(service: TableService, store: Store) -> None:
    channels = range(1, 21)

    async def run(channel: int) -> None:
        rng = random.Random(channel)
        await service.open(channel, 1, ANN, "Ann", GAME)
        await service.add_computer(channel, ANN, "easy")
        await service.start(channel, ANN, seed=channel)
        for _ in range(15):
            moves = await service.legal_moves(channel, ANN)
            if not moves:
                break
            await service.play(channel, ANN, rng.choice(moves))

    await asyncio.gather(*(run(c) for c in channels))
    for channel in channels:
        await check_log_replays(store, channel)
        game = await store.tables.latest_game(channel)
        assert game is not None and game.version > 2  # the member and the computer moved


# --------------------------------------------------------------------------- the outbox


async def test_what_was_not_announced_is_announced_after_a_restart(
        service: TableService, store: Store) -> None:
    start = await table(service, seed=12)
    await service.delivered(start)
    assert await service.undelivered() == []
    rng = random.Random(12)
    _, _, first = await step(service, rng)
    await service.delivered(first)
    _, _, second = await step(service, rng)
    _, _, third = await step(service, rng)  # two replies never posted

    restarted = TableService(store, images=False)
    ((channel, again),) = await restarted.undelivered()
    assert channel == CH
    assert again.version == third.version
    assert again.public == "\n".join(
        ["(Posted after a restart.)", second.public, third.public])
    assert again.mention == third.mention
    assert {p.user_id for p in again.private} == {
        p.user_id for p in second.private + third.private}
    await restarted.delivered(again)
    assert await restarted.undelivered() == []
    assert await TableService(store, images=False).undelivered() == []


async def test_an_unannounced_start_is_announced(service: TableService, store: Store) -> None:
    start = await table(service, seed=13)
    ((channel, again),) = await TableService(store, images=False).undelivered()
    assert (channel, again.version) == (CH, start.version)
    assert again.public == "(Posted after a restart.)\n" + start.public
    assert sorted(p.user_id for p in again.private) == [ANN, BOB]


async def test_computers_left_waiting_by_a_failure_move_after_a_restart(
        service: TableService, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    start = await table(service, humans=1, computers=1, seed=14)
    await service.delivered(start)
    real = store.tables.commit_move
    calls = 0

    async def failing(*args: Any, **kwargs: Any) -> bool:
        nonlocal calls
        if args[2] == 1:  # the computer's seat
            calls += 2
            raise RuntimeError("disk unplugged")
        return await real(*args, **kwargs)

    monkeypatch.setattr(store.tables, "commit_move", failing)
    rng = random.Random(14)
    for _ in range(20):  # Ann's moves are kept; the computer's first move fails
        _, _, reply = await step(service, rng)
        if calls > 1:
            break
        await service.delivered(reply)
    assert reply.mention == ()
    assert await service.waiting(CH) == []
    monkeypatch.setattr(store.tables, "commit_move", real)

    restarted = TableService(store, images=False)
    ((channel, again),) = await restarted.undelivered()
    assert channel == CH
    assert again.version > reply.version
    assert again.public.startswith("(Posted after a restart.)\n" + reply.public)
    assert "Red (Computer 1)" in again.public
    assert again.mention == (ANN,) or again.over
    await check_log_replays(store)


def test_encoding_a_state_is_the_games_dump() -> None:
    game = rules.GAMES[GAME]
    state = game.new(3, 77)
    rng = random.Random(77)
    for _ in range(60):
        seat = min(game.to_act(state))
        text = encode(game, state)
        assert json.loads(text) == game.dump(state)
        assert text == json.dumps(game.dump(state), separators=(",", ":"))
        assert encode(game, game.load(json.loads(text))) == text
        state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))


# --------------------------------------------------------------------------- game options


def test_options_are_read_as_players_type_them() -> None:
    assert parse_options("advanced") == {"advanced": True}
    assert parse_options(" Variant=Couples, connect=any ") == {"variant": "couples",
                                                              "connect": "any"}
    assert parse_options("size=5 fast=false") == {"size": 5, "fast": False}
    assert parse_options(None) == {} and parse_options("") == {}
    with pytest.raises(TableError, match="'=x' is not an option"):
        parse_options("=x")


async def test_a_variant_that_needs_four_players_opens_and_checks_the_count_at_the_start(
        service: TableService, store: Store) -> None:
    await service.open(CH, 1, ANN, "Ann", "block-buster", parse_options("variant=couples"))
    await service.join(CH, BOB, "Bob")
    before = await snapshot(store)
    with pytest.raises(rules.GameError, match="takes 4 players, variant=couples; this table has 2"):
        await service.start(CH, ANN)
    assert await snapshot(store) == before
    for user in (CY, DEE):
        await service.join(CH, user, NAMES[user])
    reply = await service.start(CH, ANN, seed=3)
    assert reply.version == 1 and (await store.tables.active_game(CH)) is not None


async def test_unknown_options_are_refused_when_the_table_opens(
        service: TableService, store: Store) -> None:
    before = await snapshot(store)
    with pytest.raises(rules.IllegalMove) as refusal:
        await service.open(CH, 1, ANN, "Ann", "crystallia", {"advance": True})
    assert str(refusal.value) == "Crystallia has no option 'advance'; it knows advanced."
    with pytest.raises(rules.IllegalMove) as refusal:
        await service.open(CH, 1, ANN, "Ann", "cube-conquest", {"advanced": True})
    assert str(refusal.value) == "Cube Conquest has no option 'advanced'; it has none."
    assert await snapshot(store) == before
    await service.open(CH, 1, ANN, "Ann", "crystallia", {"advanced": True})
    row = await store.tables.active_game(CH)
    assert row is not None and row.options == {"advanced": True}


async def test_a_pick_alone_because_of_hidden_cards_is_left_to_the_player(
        service: TableService) -> None:
    """A secret pick from a hand of one kind is the player's only move, but the table must
    not make it: 'has one move only' then 'has chosen' would tell everyone what the hand
    holds (deal 4 with these random moves led there before the check). A forced step the
    public view shows (nothing in any hand it allows but that one move) is still made."""
    await service.open(CH, 1, ANN, "Ann", "cube-conquest")
    await service.join(CH, BOB, "Bob")
    await service.start(CH, ANN, seed=4)
    rng = random.Random(4)
    for _ in range(300):
        waiting = await service.waiting(CH)
        if not waiting:
            break
        user = rng.choice(waiting)[0]
        reply = await service.play(CH, user, rng.choice(await service.legal_moves(CH, user)))
        lines = reply.public.splitlines()
        for line, after in itertools.pairwise(lines):
            if "has one move only" in line:
                assert not (after.startswith(line.split(" has")[0]) and "has chosen" in after)
