"""Taking a move back with consent, on the service and a fake clock: the other humans agree
or refuse, a request runs out, and what cannot be taken back is refused with a sentence
(a reveal, a random draw, another seat's move since, no seat). The log keeps the move and
the undo, replays to the state before the move, and a restart rebuilds it."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rules
from bot import undo
from bot.records import MoveRow
from bot.scheduler import DAY, HOUR, MINUTE
from bot.service import TableService
from bot.service.replies import Reply
from bot.service.table import TableError, decode, encode
from bot.store import Store
from bot.timeline import Timeline
from tests.conftest import Clock
from tests.test_service import check_log_replays, snapshot

CH = 900
ANN, BOB, CY, DEE = 301, 302, 303, 304
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy", DEE: "Dee"}


async def start(service: TableService, game: str, humans: tuple[int, ...] = (ANN, BOB),
                computers: int = 0, seed: int = 3) -> None:
    """A table for ``game`` in CH: Ann opens, the other ``humans`` join, computers last."""
    await service.open(CH, 1, humans[0], NAMES[humans[0]], game)
    for user in humans[1:]:
        await service.join(CH, user, NAMES[user])
    for _ in range(computers):
        await service.add_computer(CH, humans[0], "random")
    await service.start(CH, humans[0], seed=seed)


async def awaited(service: TableService) -> int:
    """The first human the game waits for."""
    return (await service.waiting(CH))[0][0]


async def stored(store: Store) -> tuple[Any, Any]:
    """The running game's rules and stored state."""
    row = await store.tables.latest_game(CH)
    assert row is not None and row.state is not None
    game = rules.GAMES[row.game]
    return game, decode(game, row.state)


async def state_text(store: Store) -> str:
    row = await store.tables.latest_game(CH)
    assert row is not None and row.state is not None
    return row.state


async def texts(store: Store) -> list[tuple[int, int, str]]:
    row = await store.tables.latest_game(CH)
    assert row is not None
    return [(m.version, m.seat, m.text) for m in await store.tables.moves(row.id)]


async def asked(service: TableService, user: int) -> undo.Asked:
    result = await service.ask_undo(CH, user)
    assert isinstance(result, undo.Asked), result
    return result


async def refused(store: Store, call: Any, *words: str) -> str:
    """The call is refused with a sentence holding ``words``, and nothing is written."""
    before = await snapshot(store)
    undos = list(await store.db.execute_fetchall("SELECT * FROM undos"))
    with pytest.raises(TableError) as info:
        await call
    sentence = str(info.value)
    for word in words:
        assert word in sentence, sentence
    assert await snapshot(store) == before
    assert list(await store.db.execute_fetchall("SELECT * FROM undos")) == undos
    return sentence


async def one_move(service: TableService, store: Store) -> tuple[int, str, str]:
    """The awaited human plays their first legal move: (who, the move, the state before)."""
    user = await awaited(service)
    before = await state_text(store)
    move = (await service.legal_moves(CH, user))[0]
    await service.play(CH, user, move)
    return user, move, before


# --------------------------------------------------------------------------- consent


async def test_everyone_agrees_and_the_move_is_taken_back(service: TableService,
                                                          store: Store) -> None:
    await start(service, "block-buster", (ANN, BOB, CY))
    mover, move, before = await one_move(service, store)
    others = [u for u in (ANN, BOB, CY) if u != mover]
    request = await asked(service, mover)
    assert request.asked == tuple(others)
    assert f"asks to take back their move 1. {NAMES[others[0]]} and {NAMES[others[1]]}: " \
           "agree or refuse" in request.text
    assert "within a day" in request.text
    version = (await service.status(CH)).version

    first = await service.answer_undo(CH, others[0], request.game, request.version,
                                      request.digest, agree=True)
    assert f"agrees to {NAMES[mover]}" in first.public
    assert f"waiting for {NAMES[others[1]]}" in first.public
    assert first.game == 0  # not a move: it marks nothing delivered
    assert (await service.status(CH)).version == version
    await refused(store, service.answer_undo(CH, others[0], request.game, request.version,
                                             request.digest, agree=True), "agreed already")

    done = await service.answer_undo(CH, others[1], request.game, request.version,
                                     request.digest, agree=True)
    assert "takes back move 1: the board is as it was before." in done.public
    assert done.version == version + 1 and done.mention == (mover,)
    assert await state_text(store) == before
    assert move in await service.legal_moves(CH, mover)
    # The log keeps both the move and the undo, and replays to the state before the move.
    logged = await texts(store)
    assert logged[-2][2] == move and logged[-1][2] == "undo 2"
    assert logged[-1][1] == logged[-2][1]
    await check_log_replays(store, CH)
    # The request is gone: its buttons are stale (the version moved on).
    await refused(store, service.answer_undo(CH, others[1], request.game, request.version,
                                             request.digest, agree=True), "out of date")


async def test_a_refusal_keeps_the_move_and_old_buttons_stay_dead(service: TableService,
                                                                  store: Store) -> None:
    await start(service, "block-buster")
    mover, move, _ = await one_move(service, store)
    other = BOB if mover == ANN else ANN
    after = await state_text(store)
    request = await asked(service, mover)
    reply = await service.answer_undo(CH, other, request.game, request.version,
                                      request.digest, agree=False)
    assert f"{NAMES[other]}" in reply.public and "refuses" in reply.public
    assert await state_text(store) == after
    await refused(store, service.answer_undo(CH, other, request.game, request.version,
                                             request.digest, agree=True), "closed")
    # Asked again at the same moment and version: a new request, which the first one's
    # buttons cannot answer.
    again = await asked(service, mover)
    assert again.version == request.version and again.digest != request.digest
    await refused(store, service.answer_undo(CH, other, request.game, request.version,
                                             request.digest, agree=True),
                  "replaced by a newer one")
    await service.answer_undo(CH, other, again.game, again.version, again.digest, agree=True)
    assert (await texts(store))[-1][2] == "undo 2"
    assert move in await service.legal_moves(CH, mover)


async def test_a_request_runs_out_after_a_day_or_the_turn_time(service: TableService,
                                                               store: Store,
                                                               clock: Clock) -> None:
    await start(service, "block-buster")
    mover, _, _ = await one_move(service, store)
    other = BOB if mover == ANN else ANN
    request = await asked(service, mover)
    await refused(store, service.ask_undo(CH, mover), "has already asked", NAMES[other])
    clock.t += DAY - MINUTE
    await refused(store, service.ask_undo(CH, mover), "has already asked")
    clock.t += MINUTE
    await refused(store, service.answer_undo(CH, other, request.game, request.version,
                                             request.digest, agree=True),
                  "nobody answered in time")
    # With a turn time, that is the request's time.
    await service.settings(CH, ANN, turn_time="2h")
    again = await asked(service, mover)
    assert "within the turn time (2h)" in again.text
    clock.t += 2 * HOUR
    await refused(store, service.answer_undo(CH, other, again.game, again.version,
                                             again.digest, agree=True), "in time")
    third = await asked(service, mover)
    clock.t += HOUR
    await service.answer_undo(CH, other, third.game, third.version, third.digest, agree=True)
    assert (await texts(store))[-1][2] == "undo 2"


async def test_a_move_makes_the_request_moot(service: TableService, store: Store) -> None:
    await start(service, "block-buster")
    mover, _, _ = await one_move(service, store)
    other = BOB if mover == ANN else ANN
    request = await asked(service, mover)
    await service.play(CH, other, (await service.legal_moves(CH, other))[0])
    await refused(store, service.answer_undo(CH, other, request.game, request.version,
                                             request.digest, agree=True), "out of date")
    await refused(store, service.ask_undo(CH, mover), f"{NAMES[other]}", "has moved since "
                  "your move 1")


# --------------------------------------------------------------------------- who may


async def test_who_may_ask_and_who_may_answer(service: TableService, store: Store) -> None:
    await start(service, "block-buster", (ANN, BOB, CY))
    first = await awaited(service)
    await refused(store, service.ask_undo(CH, first), "You have no move in this game to "
                  "take back.")
    mover, _, _ = await one_move(service, store)
    await refused(store, service.ask_undo(CH, DEE), "You have no seat in this game")
    request = await asked(service, mover)
    others = [NAMES[u] for u in (ANN, BOB, CY) if u != mover]
    await refused(store, service.answer_undo(CH, DEE, request.game, request.version,
                                             request.digest, agree=True),
                  f"Only {others[0]} and {others[1]}, who were asked")
    await refused(store, service.answer_undo(CH, mover, request.game, request.version,
                                             request.digest, agree=True),
                  "You asked to take back your move")
    await refused(store, service.answer_undo(CH, BOB, request.game + 1, request.version,
                                             request.digest, agree=True), "earlier game")
    await refused(store, service.answer_undo(CH, BOB, request.game, request.version,
                                             "0" * 12, agree=True), "its buttons do nothing")


async def test_a_finished_game_takes_nothing_back(service: TableService, store: Store
                                                  ) -> None:
    await start(service, "block-buster")
    mover, _, _ = await one_move(service, store)
    await service.end(CH, ANN)
    with pytest.raises(TableError, match="is over"):
        await service.ask_undo(CH, mover)


async def test_a_typed_undo_is_no_move(service: TableService, store: Store) -> None:
    """A player cannot forge an undo entry: a logged text is a canonical move of the game
    (and the service refuses to log one that reads like an entry)."""
    await start(service, "block-buster")
    await one_move(service, store)
    other = await awaited(service)
    before = await snapshot(store)
    for text in ("undo 2", "UNDO 2", "undo"):
        with pytest.raises(rules.GameError):
            await service.play(CH, other, text)
    assert await snapshot(store) == before
    assert all(not undo.is_entry(m) for game in rules.GAMES.values()
               for m in game.legal_moves(game.new(game.min_players, 1), 0))


# --------------------------------------------------------------------------- what cannot be


async def play_until(service: TableService, store: Store, reason: str | None,
                     limit: int = 400, among: Callable[[str], bool] = lambda move: True
                     ) -> tuple[int, str]:
    """Humans play seeded moves until the awaited one has a move that ``undo.why_not``
    answers with ``reason`` (asked only of the moves ``among`` accepts: each answer plays
    the move in several worlds); that move is played: (who, the move)."""
    rng = random.Random(5)
    row = await store.tables.latest_game(CH)
    assert row is not None
    seats = {s.user_id: s.seat for s in await store.seats.of(row.id)}
    for _ in range(limit):
        user = await awaited(service)
        game, state = await stored(store)
        seat = seats[user]
        moves = await service.legal_moves(CH, user)
        wanted = [m for m in moves if among(m) and undo.why_not(game, state, seat, m) == reason]
        if wanted:
            move = rng.choice(wanted)
            await service.play(CH, user, move)
            return user, move
        await service.play(CH, user, rng.choice(moves))
    raise AssertionError(f"no move found for {reason!r}")


async def test_a_move_that_uncovers_a_face_down_stone_is_refused(service: TableService,
                                                                 store: Store) -> None:
    await start(service, "crystallia")
    mover, _ = await play_until(service, store, undo.HIDDEN,
                                   among=lambda move: move.startswith("take"))
    sentence = await refused(store, service.ask_undo(CH, mover), "can't be taken back")
    assert sentence.endswith(f"{undo.reason(undo.HIDDEN)}.")


async def test_a_crystallia_move_that_uncovers_nothing_is_taken_back(
        service: TableService, store: Store) -> None:
    await start(service, "crystallia")
    mover, _ = await play_until(service, store, None)
    other = BOB if mover == ANN else ANN
    before = await texts(store)
    request = await asked(service, mover)
    reply = await service.answer_undo(CH, other, request.game, request.version,
                                      request.digest, agree=True)
    assert "takes back move" in reply.public
    assert (await texts(store))[-1] == (before[-1][0] + 1, before[-1][1],
                                        f"undo {before[-1][0]}")
    await check_log_replays(store, CH)


async def test_a_move_that_drew_at_random_is_refused(service: TableService,
                                                     store: Store) -> None:
    await start(service, "bomb-squares")
    mover, _ = await play_until(service, store, undo.RANDOM)
    sentence = await refused(store, service.ask_undo(CH, mover), "can't be taken back")
    assert sentence.endswith(f"{undo.reason(undo.RANDOM)}.")


def test_every_private_event_and_draw_is_refused() -> None:
    """Over seeded games of every registered game: a move with a private event (other than
    a prompt, which only asks a seat for a move), a draw from the generator, or a reveal of
    a face-down stone can never be taken back; and a game without hidden information or
    chance can take back any move."""
    for game in rules.GAMES.values():
        rng = random.Random(game.id)
        state = game.new(game.min_players, 7)
        for _ in range(120):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            move = rng.choice(game.legal_moves(state, seat))
            after, events = game.play(state, seat, move)
            why = undo.why_not(game, state, seat, move)
            told = [e for e in events if e.to is not None and e.kind != "prompt"]
            if after.draws != state.draws or told:
                assert why is not None, (game.id, move)
            if game.id == "crystallia" and any(e.kind == "reveal" for e in events):
                unknown = len(state.left_out) + sum(
                    1 for p, up in zip(state.pyramid, state.face_up, strict=True)
                    if p >= 0 and not up)
                assert why == undo.HIDDEN or unknown < 2, move
            if game.id == "block-buster":
                assert why is None, move
            state = after


# --------------------------------------------------------------------------- alone


async def test_with_only_computers_the_undo_is_at_once(service: TableService,
                                                       store: Store) -> None:
    await start(service, "block-buster", (ANN,), computers=1)
    await service.play(CH, ANN, (await service.legal_moves(CH, ANN))[0])
    logged = await texts(store)
    # Ann's move was answered by the computer: both go back.
    ann = [v for v, seat, _ in logged if seat == 0][-1]
    assert logged[-1][1] == 1
    row = await store.tables.latest_game(CH)
    assert row is not None and row.seed is not None
    game = rules.GAMES["block-buster"]
    earlier = [MoveRow(*m, 0.0) for m in logged if m[0] < ann]
    wanted = Timeline(game, 2, row.seed, None, earlier).whole().final
    reply = await service.ask_undo(CH, ANN)
    assert isinstance(reply, Reply)
    replies = len(logged) - logged.index(next(m for m in logged if m[0] == ann)) - 1
    assert f"takes back move {ann - 1} and the {replies} computer repl" in reply.public
    assert await state_text(store) == encode(game, wanted)
    assert reply.mention == (ANN,)
    assert (await texts(store))[-1] == (row.version + 1, 0, f"undo {ann}")
    await check_log_replays(store, CH)


# --------------------------------------------------------------------------- the log


def test_the_log_in_force_and_its_replay() -> None:
    log = [MoveRow(2, 0, "a", 0), MoveRow(3, 1, "b", 0), MoveRow(4, 0, "undo 3", 0),
           MoveRow(5, 1, "c", 0), MoveRow(6, 0, "d", 0), MoveRow(7, 1, "e", 0),
           MoveRow(8, 0, "undo 6", 0)]
    assert [m.text for m in undo.in_force(log)] == ["a", "c"]
    assert undo.taken_back("undo 6") == 6 and undo.taken_back("undo") is None
    assert undo.taken_back("pass") is None and undo.entry(6) == "undo 6"


async def test_a_restart_rebuilds_the_undone_state(tmp_path: Path, clock: Clock) -> None:
    path = str(tmp_path / "restart.db")
    store = await Store.open(path)
    service = TableService(store, images=False, now=clock)
    await start(service, "block-buster")
    mover, move, before = await one_move(service, store)
    other = BOB if mover == ANN else ANN
    request = await asked(service, mover)
    await store.close()
    # The request survives a restart; the undo does too.
    store = await Store.open(path)
    service = TableService(store, images=False, now=clock)
    await service.answer_undo(CH, other, request.game, request.version, request.digest,
                              agree=True)
    await store.close()
    store = await Store.open(path)
    try:
        service = TableService(store, images=False, now=clock)
        assert await state_text(store) == before
        assert move in await service.legal_moves(CH, mover)
        await check_log_replays(store, CH)
        # The outbox rebuilds every reply from the log, the undo among them.
        posted = [reply for channel, reply in await service.undelivered() if channel == CH]
        assert len(posted) == 1
        assert "takes back move 1: the board is as it was before." in posted[0].public
        assert "here is the board" not in posted[0].public
    finally:
        await store.close()
