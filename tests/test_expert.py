"""The expert level in the service: the level a table takes by its clock, stand-ins, the
fair queue its searches wait in (``bot.service.computers``), its worker process, and the
remarks computers make in the channel (``Game.remark``, told after their moves)."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from typing import Any

import pytest

import rules
from bot.scheduler import HOUR
from bot.service import TableService
from bot.service import computers as computers_module
from bot.service.computers import FairQueue, Levels
from bot.service.pictures import cores
from bot.service.table import Table
from bot.service.turns import remark, with_remark
from bot.store import Store
from rules import computer
from rules.computer import Choice
from tests.conftest import Clock

CH = 910
ANN, BOB = 301, 302


@pytest.fixture
def product(store: Store, clock: Clock) -> TableService:
    """The service with the product's levels (none given): hard, expert where slow."""
    return TableService(store, images=False, now=clock)


def level_in(reply_text: str) -> str:
    """'Computer 1 (expert) takes a seat. ...' -> 'expert'."""
    return reply_text.split("(", 1)[1].split(")", 1)[0]


# --------------------------------------------------------------------------- default levels


@pytest.mark.parametrize(("settings", "level"), [
    ({}, "hard"),
    ({"turn_time": "59m"}, "hard"),
    ({"turn_time": "1h"}, "expert"),
    ({"turn_time": "2d"}, "expert"),
    ({"clock": "bank", "bank": "30m", "add": "0"}, "hard"),
    ({"clock": "bank", "bank": "3d"}, "expert"),
])
async def test_a_computer_seat_left_unchosen_takes_its_level_from_the_tables_clock(
        product: TableService, settings: dict[str, str], level: str) -> None:
    await product.open(CH, 1, ANN, "Ann", "battle-tiles")
    if settings:
        await product.settings(CH, ANN, **settings)
    assert level_in((await product.add_computer(CH, ANN)).public) == level


async def test_a_level_chosen_or_given_to_the_service_is_kept_whatever_the_clock(
        product: TableService, store: Store, clock: Clock) -> None:
    await product.open(CH, 1, ANN, "Ann", "cube-conquest")
    await product.settings(CH, ANN, turn_time="1d")
    assert level_in((await product.add_computer(CH, ANN, "easy")).public) == "easy"
    # a service told one level (tests, the terminal's --level) plays it everywhere
    quick = TableService(store, images=False, now=clock, level="normal")
    assert quick.levels == Levels("normal", "normal")
    await quick.open(CH + 1, 1, ANN, "Ann", "cube-conquest")
    await quick.settings(CH + 1, ANN, turn_time="1d")
    assert level_in((await quick.add_computer(CH + 1, ANN)).public) == "normal"
    assert Levels.of(None) == Levels(computer.DEFAULT, computer.PATIENT) == \
        Levels("hard", "expert")


async def test_a_resigned_seat_at_a_slow_table_is_played_by_expert(
        product: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = fake_decide(product, monkeypatch)
    await product.open(CH, 1, ANN, "Ann", "battle-tiles")
    await product.join(CH, BOB, "Bob")
    await product.settings(CH, ANN, turn_time="12h")
    await product.start(CH, ANN, seed=1)
    reply = await product.resign(CH, BOB)
    assert "a computer player (expert) plays their seat" in reply.public
    await play_until_computer(product, chosen)
    assert set(chosen) == {"expert"}


# --------------------------------------------------------------------------- stand-ins


def fake_decide(service: TableService, monkeypatch: pytest.MonkeyPatch,
                line: str | None = None) -> list[str]:
    """Computers that take their first legal move at once (no search: the levels asked
    for are recorded in the list returned)."""
    asked: list[str] = []

    async def decide(table: Table, seat: int, level: str) -> Choice:
        asked.append(level)
        return Choice(sorted(table.moves(seat))[0], 0.75)

    monkeypatch.setattr(service.computers, "decide", decide)
    return asked


async def play_until_computer(service: TableService, asked: list[str]) -> None:
    """The human awaited plays their first legal move until a computer has moved."""
    for _ in range(20):
        if asked:
            return
        for user, _ in await service.waiting(CH):
            moves = await service.legal_moves(CH, user)
            await service.play(CH, user, sorted(moves)[0])
            break
    raise AssertionError("no computer moved")


async def test_a_stand_in_plays_expert_even_at_a_table_of_easy_computers(
        product: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = fake_decide(product, monkeypatch)
    await product.open(CH, 1, ANN, "Ann", "cube-conquest")
    await product.add_computer(CH, ANN, "easy")
    await product.join(CH, BOB, "Bob")
    await product.settings(CH, ANN, turn_time="1h", reminders=False)
    await product.start(CH, ANN, seed=2)
    await play_until_computer(product, asked)  # the seated computer plays its own level
    assert set(asked) == {"easy"}
    asked.clear()
    clock.t += 3 * HOUR  # whoever is awaited now runs out of time
    due = await product.due(clock.t)
    assert due
    tended = await product.tend(due[0])
    assert tended is not None and tended.reply is not None
    assert "a computer player (expert) stands in for this turn" in tended.reply.public
    assert asked and set(asked[:1]) == {"expert"}


# --------------------------------------------------------------------------- the fair queue


class Manual(Executor):
    """An executor that runs nothing: the test finishes each job by hand, in the order
    they were started (``started``: the first argument of each, its future)."""

    def __init__(self) -> None:
        self.started: list[tuple[str, Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.started.append((args[0], future))
        return future

    def names(self) -> list[str]:
        return [name for name, _ in self.started]

    async def finish(self, name: str) -> None:
        dict(self.started)[name].set_result(f"{name} done")
        for _ in range(5):  # the callbacks, the waiter, its next job
            await asyncio.sleep(0)


def job(name: str) -> str:
    return name


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_one_tables_chain_of_searches_queues_behind_the_others() -> None:
    manual = Manual()
    queue = FairQueue(1, lambda: manual)
    results: list[str] = []

    async def chain(table: str, count: int) -> None:  # a table's computers, one by one
        for n in range(1, count + 1):
            results.append(await queue.run(table, job, f"{table}{n}"))

    a = asyncio.create_task(chain("A", 3))
    await settle()
    b = asyncio.create_task(chain("B", 2))
    c = asyncio.create_task(chain("C", 1))
    await settle()
    assert manual.names() == ["A1"]  # one slot: B and C wait
    for name in ("A1", "B1", "C1", "A2", "B2", "A3"):
        assert manual.names()[-1] == name
        await manual.finish(name)
    await asyncio.gather(a, b, c)
    assert manual.names() == ["A1", "B1", "C1", "A2", "B2", "A3"]
    assert results == [f"{n} done" for n in manual.names()]


async def test_a_table_with_several_searches_waiting_takes_turns_with_the_others() -> None:
    manual = Manual()
    queue = FairQueue(2, lambda: manual)
    runs = [asyncio.create_task(queue.run(table, job, f"{table}{n}"))
            for table, n in (("A", 1), ("A", 2), ("A", 3), ("A", 4), ("B", 1), ("C", 1))]
    await settle()
    assert manual.names() == ["A1", "A2"] and queue.running == 2  # two slots
    await manual.finish("A1")
    assert manual.names()[2:] == ["B1"]  # A still runs one: B, which runs none, first
    await manual.finish("B1")
    assert manual.names()[3:] == ["C1"]  # and C before A's third
    await manual.finish("A2")
    assert manual.names()[4:] == ["A3"]  # A runs none now, and waited longest
    for name in ("C1", "A3", "A4"):
        await manual.finish(name)
    assert manual.names() == ["A1", "A2", "B1", "C1", "A3", "A4"]
    assert [r.result() for r in runs] == ["A1 done", "A2 done", "A3 done", "A4 done",
                                          "B1 done", "C1 done"]
    assert queue.running == 0 and not queue.waiting


async def test_a_search_nobody_waits_for_is_never_started_and_errors_reach_the_table(
        ) -> None:
    manual = Manual()
    queue = FairQueue(1, lambda: manual)
    first = asyncio.create_task(queue.run("A", job, "A1"))
    gone = asyncio.create_task(queue.run("B", job, "B1"))
    last = asyncio.create_task(queue.run("C", job, "C1"))
    await settle()
    gone.cancel()
    await manual.finish("A1")
    assert manual.names() == ["A1", "C1"]
    dict(manual.started)["C1"].set_exception(ValueError("no move"))
    await settle()
    with pytest.raises(ValueError, match="no move"):
        await last
    assert await first == "A1 done" and queue.running == 0
    # a worker process killed breaks its pool: that search fails, the next gets a new pool
    broken = asyncio.create_task(queue.run("A", job, "A2"))
    await settle()
    dict(manual.started)["A2"].set_exception(BrokenExecutor("a worker died"))
    with pytest.raises(BrokenExecutor):
        await broken
    assert queue.executor is None
    again = asyncio.create_task(queue.run("A", job, "A3"))
    await settle()
    assert queue.executor is manual and manual.names()[-1] == "A3"
    queue.close()
    with pytest.raises(asyncio.CancelledError):
        await again


def test_expert_searches_run_one_per_core_at_most() -> None:
    thinking = computers_module.Computers()
    try:
        assert thinking.experts.slots == cores() and thinking.experts.executor is None
    finally:
        thinking.close()


async def test_expert_thinks_in_a_worker_process_of_its_own(
        product: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    # one playout a move (the worker is forked after this, so it plays the same way)
    monkeypatch.setattr(computer, "EXPERT_FACTOR", 0)
    product.computers.experts.start = lambda: ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("fork"))
    await product.open(CH, 1, ANN, "Ann", "battle-tiles")
    await product.settings(CH, ANN, turn_time="1d")
    await product.add_computer(CH, ANN)
    await product.start(CH, ANN, seed=3)
    for _ in range(3):
        moves = await product.legal_moves(CH, ANN)
        if moves:
            await product.play(CH, ANN, sorted(moves)[0])
    assert isinstance(product.computers.experts.executor, ProcessPoolExecutor)
    product.close()
    assert product.computers.experts.executor is None
    status = await product.status(CH)
    assert status.version > 3


# --------------------------------------------------------------------------- remarks


async def first_move(service: TableService, game_id: str) -> tuple[Table, int, str]:
    """Ann and Bob at a started table of ``game_id``: the table, its awaited seat and a
    move of theirs."""
    await service.open(CH, 1, ANN, "Ann", game_id)
    await service.join(CH, BOB, "Bob")
    await service.start(CH, ANN, seed=4)
    table = await service.tables.running(CH)
    seat = min(table.awaited())
    return table, seat, sorted(table.moves(seat))[0]


async def test_a_remark_is_told_from_the_spectators_view_in_one_escaped_line(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    game = rules.GAMES["cube-conquest"]
    heard: list[tuple[Any, ...]] = []

    def says(self: Any, public: dict[str, Any], seat: int, move: str,
             chance: float | None) -> str:
        heard.append((public, seat, move, chance))
        return "Blue *expects* to win\n@everyone <@1>"

    monkeypatch.setattr(type(game), "remark", says)
    table, seat, move = await first_move(service, game.id)
    ((by, event),) = remark(table, seat, Choice(move, 0.62))
    # its cards are its own: a chance that weighed them is not told (it would tell of them)
    assert heard == [(game.view(table.state, None), seat, move, None)]
    assert game.view(table.state, None) != game.view(table.state, seat)  # hidden parts
    assert by == seat and event.to is None and event.kind == "remark"
    assert event.text == "Blue *expects* to win @everyone <@1>"  # shown=str: the terminal
    table.shown = lambda text: text.replace("@", "@\u200b")  # as a surface escapes
    assert "@\u200beveryone" in remark(table, seat, Choice(move, None))[0][1].text
    monkeypatch.setattr(type(game), "remark", lambda *a: "x" * 500)
    assert len(remark(table, seat, Choice(move))[0][1].text) == 200

    def fails(*_: Any) -> str:
        raise RuntimeError("a bug in a game's remark")

    monkeypatch.setattr(type(game), "remark", fails)
    assert remark(table, seat, Choice(move)) == []  # logged; the move goes on
    monkeypatch.setattr(type(game), "remark", lambda *a: None)
    assert remark(table, seat, Choice(move)) == []


async def test_a_computers_remark_follows_its_move_in_the_channel(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    game = rules.GAMES["battle-tiles"]
    heard: list[tuple[int, str, float | None]] = []

    def says(self: Any, public: dict[str, Any], seat: int, move: str,
             chance: float | None) -> str | None:
        heard.append((seat, move, chance))
        return f"It chose {move} on purpose."

    monkeypatch.setattr(type(game), "remark", says)
    asked = fake_decide(service, monkeypatch)  # its chance: 0.75
    await service.open(CH, 1, ANN, "Ann", game.id)
    await service.add_computer(CH, ANN, "hard")
    await service.start(CH, ANN, seed=5)
    moves = await service.legal_moves(CH, ANN)
    reply = await service.play(CH, ANN, sorted(moves)[0])
    assert asked == ["hard"] and heard and heard[0][0] == 1
    assert heard[0][2] is None  # its hand of tiles weighed in its 0.75: not told
    lines = reply.public.splitlines()
    told = [n for n, line in enumerate(lines) if line == f"It chose {heard[0][1]} on purpose."]
    assert len(told) == 1, lines
    assert told[0] > 1  # after the events of the moves before it (Ann's, the computer's)


def test_a_remark_follows_its_move_s_own_line_not_what_followed_from_it() -> None:
    """A remark has no subject ('Lays its stone on d8, ...'): told after the game's end or
    a second turn, it would seem to speak of those."""
    move = rules.Event("Computer 1 places the stone on d8 d9.")
    private = rules.Event("You hold nothing now.", to=frozenset({1}))
    after = [rules.Event("The game ends: Computer 1 wins."), rules.Event("Final score: 3-1.")]
    said = rules.Event("Lays its stone on d8, the square of another turn.", kind="remark")
    told = with_remark(1, [private, move, *after], [(1, said)])
    assert [e for _, e in told] == [private, move, said, *after]
    assert all(by == 1 for by, _ in told)
    assert [e for _, e in with_remark(1, [], [(1, said)])] == [said]


def listen(monkeypatch: pytest.MonkeyPatch, game: Any, said: str
           ) -> list[tuple[str, float | None]]:
    """The game's remark replaced by ``said``; what each call was given (move, chance)."""
    heard: list[tuple[str, float | None]] = []

    def says(self: Any, public: dict[str, Any], seat: int, move: str,
             chance: float | None) -> str:
        heard.append((move, chance))
        return said

    monkeypatch.setattr(type(game), "remark", says)
    return heard


async def test_a_computer_that_knows_nothing_others_do_not_tells_its_chance(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    game = rules.GAMES["block-buster"]  # nothing hidden: its chance tells of no hand
    heard = listen(monkeypatch, game, "It expects to win.")
    table, seat, move = await first_move(service, game.id)
    remark(table, seat, Choice(move, 0.62))
    assert heard == [(move, 0.62)]


async def test_an_easy_computer_gives_no_reason_for_a_move_drawn_at_random(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    game = rules.GAMES["battle-tiles"]
    heard = listen(monkeypatch, game, "Places it there: nothing pays more just now.")
    await service.open(CH, 1, ANN, "Ann", game.id)
    await service.add_computer(CH, ANN, "easy")
    await service.start(CH, ANN, seed=5)
    moves = await service.legal_moves(CH, ANN)
    reply = await service.play(CH, ANN, sorted(moves)[0])
    assert "Computer 1" in reply.public  # the computer moved after Ann
    assert heard == [] and "nothing pays more" not in reply.public
