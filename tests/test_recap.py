"""The recap when a game ends by its rules: each seat's public points over the game, replayed
from the move log; where the final points came from, adding up to the outcome's scores; the
chart held to the pictures' rules; and the final reply through the service, after a restart
too."""

from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
import rules
from bot.records import MoveRow
from bot.service import TableService, recap
from bot.store import Store
from render import gallery, kit
from render import recap as chart_picture
from tests.pictures import decoded, pixels

GAME_IDS = sorted(rules.GAMES)
# Set-ups whose points are counted differently: seat counts and the variants that change
# scoring (flipped platforms, teams).
SETUPS: dict[str, list[tuple[int, dict[str, Any] | None]]] = {
    "battle-tiles": [(2, None)],
    "block-buster": [(2, None), (3, None), (4, {"variant": "couples"})],
    "bomb-squares": [(2, None), (4, None)],
    "crystallia": [(2, None), (3, {"advanced": True}), (4, None)],
    "cube-conquest": [(2, None), (3, None)],
}


def played(game_id: str, players: int, seed: int, options: dict[str, Any] | None = None
           ) -> tuple[Any, list[MoveRow]]:
    """A seeded random game to its end: the final state and its log as the store keeps it."""
    game = rules.GAMES[game_id]
    state = game.new(players, seed, options)
    rng = random.Random(f"recap/{game_id}/{players}/{seed}")
    log: list[MoveRow] = []
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_moves(state, seat))
        state, _ = game.play(state, seat, move)
        log.append(MoveRow(len(log) + 2, seat, move, 60.0 * len(log)))
    return state, log


# --------------------------------------------------------------------------- points over time


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_points_over_time_are_each_seats_public_points_after_each_move(game_id: str) -> None:
    game = rules.GAMES[game_id]
    for players, options in SETUPS[game_id]:
        final, log = played(game_id, players, 3, options)
        replayed = recap.replay(game, players, 3, options, log)
        assert game.dump(replayed.state) == game.dump(final)
        assert [len(line) for line in replayed.points] == [len(log) + 1] * players
        # followed independently: the state after each move, read at a few moments
        state = game.new(players, 3, options)
        moments = {0, 1, len(log) // 2, len(log)}
        for k in range(len(log) + 1):
            if k:
                state, _ = game.play(state, log[k - 1].seat, log[k - 1].text)
            if k in moments:
                shown = list(game.points(state) or ())
                assert [line[k] for line in replayed.points] == shown, (players, k)
        outcome = game.outcome(final)
        assert outcome is not None
        assert [line[-1] for line in replayed.points] == list(outcome.scores)


def test_the_points_start_where_each_game_starts() -> None:
    """Cube Conquest's points start at 0, Bomb Squares' crystals at 5 each."""
    for game_id, start in (("cube-conquest", 0), ("bomb-squares", 5)):
        _, log = played(game_id, 2, 4)
        replayed = recap.replay(rules.GAMES[game_id], 2, 4, None, log)
        assert [line[0] for line in replayed.points] == [start, start]
        assert any(len(set(line)) > 1 for line in replayed.points), "the points moved"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_replay_reads_only_the_spectators_view(game_id: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing hidden can reach the recap: it never asks for a seat's view."""
    game = rules.GAMES[game_id]
    _, log = played(game_id, 2, 5)
    asked: list[int | None] = []
    real = type(game).view

    def recording(self: Any, state: Any, seat: int | None) -> dict[str, Any]:
        asked.append(seat)
        view: dict[str, Any] = real(self, state, seat)
        return view

    monkeypatch.setattr(type(game), "view", recording)
    recap.replay(game, 2, 5, None, log)
    assert asked and set(asked) == {None}


# --------------------------------------------------------------------------- breakdowns


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_breakdown_adds_up_to_the_final_scores(game_id: str) -> None:
    game = rules.GAMES[game_id]
    for players, options in SETUPS[game_id]:
        for seed in (1, 2):
            final, log = played(game_id, players, seed, options)
            replayed = recap.replay(game, players, seed, options, log)
            outcome = game.outcome(final)
            assert outcome is not None
            terms = chart_picture.breakdown(game_id, game.view(final, None), replayed.earned)
            assert len(terms) == players
            for seat, seat_terms in enumerate(terms):
                assert sum(t.points for t in seat_terms) == outcome.scores[seat], (
                    players, options, seed, seat, seat_terms)
                assert all(t.what for t in seat_terms)
            if any(outcome.scores):
                assert any(seat_terms for seat_terms in terms)


def test_cube_conquest_says_which_fights_won_the_points() -> None:
    """Each point is a fight won: attacking (the attacker's card was at least the defence)
    or defending, as the combat events of the log say."""
    game = rules.GAMES["cube-conquest"]
    final, log = played("cube-conquest", 2, 6)
    wins = [{"attack won": 0, "defence held": 0} for _ in range(2)]
    state = game.new(2, 6)
    for move in log:
        attacker = state.attack["attacker"] if state.attack else None
        state, events = game.play(state, move.seat, move.text)
        for event in events:
            if event.kind == "combat":
                winner = event.data["winner"]
                wins[winner]["attack won" if winner == attacker else "defence held"] += 1
    replayed = recap.replay(game, 2, 6, None, log)
    terms = chart_picture.breakdown("cube-conquest", game.view(final, None), replayed.earned)
    for seat in range(2):
        said = {t.what.replace("attacks", "attack").replace("defences", "defence"): t.points
                for t in terms[seat]}
        assert said == {k: v for k, v in wins[seat].items() if v}


def test_sums_and_durations_read_as_sentences() -> None:
    terms = [chart_picture.Term(7, "attacks won"), chart_picture.Term(-3, "black crystals")]
    assert chart_picture.sums(4, terms, "points") == "4 points = 7 attacks won - 3 black crystals"
    assert chart_picture.sums(1, [], "points") == "1 point"
    assert chart_picture.sums(-2, [chart_picture.Term(-2, "x")], "points") == "-2 points = -2 x"
    assert recap.duration(30) == "under a minute"
    assert recap.duration(5 * 60) == "5 minutes"
    assert recap.duration(2 * 3600 + 5 * 60) == "2 hours 5 minutes"
    assert recap.duration(3 * 86400 + 4 * 3600 + 59) == "3 days 4 hours"
    assert recap.duration(86400 + 60) == "1 day 1 minute"


# --------------------------------------------------------------------------- the chart


@functools.cache
def charts() -> dict[str, Any]:
    """The gallery's recap chart of every game (drawn when a test first asks, not while the
    tests are collected)."""
    return {game_id: gallery.recap_chart(game_id) for game_id in GAME_IDS}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_chart_fits_the_message_column(game_id: str) -> None:
    for width in (600, 1000, 1400):
        image = decoded(chart_picture.png(charts()[game_id], width=width))
        assert image.width == width
        assert image.height <= kit.MAX_RATIO * width, image.size


def test_the_chart_has_no_text_under_24_px_at_1000_px(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    sizes: list[int] = []
    real = kit.text

    def recording(image: Image.Image, xy: tuple[float, float], line: str, size: int,
                  fill: kit.RGB, **options: Any) -> kit.Box:
        sizes.append(size)
        return real(image, xy, line, size, fill, **options)

    monkeypatch.setattr(kit, "text", recording)
    for chart in charts().values():
        chart_picture.draw(chart, width=1000)
    assert sizes and min(sizes) >= 24
    source = Path(chart_picture.__file__).read_text(encoding="utf-8")
    assert "ImageFont" not in source and not re.search(r"\.text\(\s*\(", source)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_chart_is_a_pure_function_of_its_data(game_id: str) -> None:
    chart = charts()[game_id]
    kept = json.loads(json.dumps(chart))
    first = chart_picture.png(chart)
    assert chart == kept, "drawing changed the chart"
    assert pixels(chart_picture.png(kept)) == pixels(first)
    line = chart_picture.summary(chart)
    assert "\n" not in line and line.startswith(chart["unit"].capitalize() + " over ")


def test_each_seat_is_drawn_in_its_table_colour_with_its_letter() -> None:
    """Cube Conquest's seats are blue and red on the table, so on the chart; a game whose
    seats have no colour (Crystallia: numbered grey chips) draws them in ink."""
    cube = chart_picture.draw(charts()["cube-conquest"])
    colours = {c for _, c in cube.getcolors(1 << 20) or []}
    assert {kit.seat_colour("blue").fill, kit.seat_colour("red").fill} <= colours
    assert charts()["crystallia"]["colours"] is None
    crystallia = chart_picture.draw(charts()["crystallia"])
    shown = {c for _, c in crystallia.getcolors(1 << 20) or []}
    assert kit.NUMBERED in shown and kit.seat_colour("blue").fill not in shown
    view = rules.GAMES["block-buster"].view(rules.GAMES["block-buster"].new(2, 1), None)
    assert chart_picture.colours("block-buster", view) == [
        view["colours"][view["owners"].index(s)] for s in range(2)]


def test_every_game_has_a_recap_chart_in_the_gallery() -> None:
    assert set(charts()) == set(render.RENDERERS)
    for game_id, chart in charts().items():
        assert len(chart["points"]) == rules.GAMES[game_id].min_players
        assert chart["names"] == gallery.NAMES[: len(chart["points"])]


# --------------------------------------------------------------------------- the final reply


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.time = 1_800_000_000.0

    def __call__(self) -> float:
        return self.time


async def play_to_the_end(service: TableService, channel: int, clock: Clock,
                          game_id: str = "battle-tiles", seed: int = 1) -> Any:
    """Ann and Bob (two humans, in server 1) play a seeded game to its end, an hour a move."""
    await service.open(channel, 1, 11, "Ann", game_id)
    await service.join(channel, 12, "Bob")
    reply = await service.start(channel, 11, seed=seed)
    rng = random.Random(seed)
    while not reply.over:
        clock.time += 3600
        user = (await service.waiting(channel))[0][0]
        reply = await service.play(channel, user, rng.choice(
            await service.legal_moves(channel, user)))
    return reply


async def test_the_final_reply_has_the_recap_and_its_chart(store: Store) -> None:
    clock = Clock()
    service = TableService(store, images=True, now=clock)
    try:
        reply = await play_to_the_end(service, 700, clock)
    finally:
        service.close()
    moves = await store.tables.moves(reply.game)
    text = reply.public
    assert f"Recap: {len(moves)} moves in {recap.duration(3600 * len(moves))}." in text
    assert text.index("Game over") < text.index("Recap:")
    game = rules.GAMES["battle-tiles"]
    row = await store.tables.game(reply.game)
    assert row is not None and row.state is not None
    outcome = game.outcome(game.load(json.loads(row.state)))
    assert outcome is not None
    for seat, name in enumerate(("Ann (Red)", "Bob (Blue)")):
        assert f"• {name}: {outcome.scores[seat]} point" in text
    assert reply.recap is not None and reply.picture is not None
    image = decoded(reply.recap.png)
    assert image.width == 1000 and image.height <= 1250
    assert reply.recap.summary == (f"Points over {len(moves)} moves: Ann {outcome.scores[0]}, "
                                   f"Bob {outcome.scores[1]}.")


async def test_without_pictures_the_recap_is_text_alone(store: Store) -> None:
    clock = Clock()
    service = TableService(store, images=False, now=clock)
    reply = await play_to_the_end(service, 701, clock, "block-buster")
    assert reply.recap is None and "Recap:" in reply.public
    assert "from point blocks" in reply.public


async def test_a_reply_posted_after_a_restart_has_the_recap_too(store: Store) -> None:
    clock = Clock()
    first = TableService(store, images=False, now=clock)
    reply = await play_to_the_end(first, 702, clock, "crystallia")
    assert "Rated (openskill's ordinal" in reply.public
    # never delivered: a new process posts it from the outbox, rebuilt from the log
    later = TableService(store, images=True, now=clock)
    try:
        posted = [r for channel, r in await later.undelivered() if channel == 702]
    finally:
        later.close()
    assert posted and posted[-1].over
    assert "Recap:" in posted[-1].public and posted[-1].recap is not None
    assert "Ratings: see /rank" in posted[-1].public


async def test_a_game_ended_by_the_opener_has_no_recap(store: Store) -> None:
    service = TableService(store, images=False)
    await service.open(703, 1, 11, "Ann", "battle-tiles")
    await service.join(703, 12, "Bob")
    await service.start(703, 11, seed=1)
    reply = await service.end(703, 11)
    assert "Recap" not in reply.public and reply.recap is None


class Logged:
    """The store as the recap reads it (its tables), with a move and its undo entry slipped
    into the log before move ``at`` (versions after it shifted by two, as the bot would have
    logged)."""

    def __init__(self, store: Store, extra: MoveRow, at: int) -> None:
        self.store, self.extra, self.at = store, extra, at
        self.tables = self

    async def moves(self, game_id: int) -> list[MoveRow]:
        logged = await self.store.tables.moves(game_id)
        shifted = [MoveRow(m.version + 2, m.seat, m.text, m.time) for m in logged[self.at:]]
        undo_entry = MoveRow(self.extra.version + 1, self.extra.seat,
                             f"undo {self.extra.version}", self.extra.time)
        return [*logged[: self.at], self.extra, undo_entry, *shifted]

    async def game(self, game_id: int) -> Any:
        return await self.store.tables.game(game_id)

    async def unrated(self, game_id: int) -> str | None:
        return await self.store.tables.unrated(game_id)


async def test_moves_taken_back_are_not_part_of_the_story(store: Store) -> None:
    clock = Clock()
    service = TableService(store, images=True, now=clock)
    try:
        reply = await play_to_the_end(service, 704, clock, "block-buster")
        row = await store.tables.game(reply.game)
        assert row is not None and row.seed is not None
        logged = await store.tables.moves(reply.game)
        game = rules.GAMES["block-buster"]
        state = game.new(2, row.seed)
        for move in logged[:3]:
            state, _ = game.play(state, move.seat, move.text)
        seat = logged[3].seat
        other = next(m for m in game.legal_moves(state, seat) if m != logged[3].text)
        extra = MoveRow(logged[3].version, seat, other, logged[3].time)
        table = await service.tables.load(row)
        told = await recap.build(Logged(store, extra, 3), table, painter=service.pictures.painter())
        plain = await recap.build(store, table, painter=service.pictures.painter())
    finally:
        service.close()
    assert told.lines[0].startswith(f"Recap: {len(logged)} moves (1 taken back) in ")
    assert told.lines[1:] == plain.lines[1:]
    assert told.picture is not None and plain.picture is not None
    assert pixels(told.picture.png) == pixels(plain.picture.png)
