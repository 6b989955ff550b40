"""Looking back (``bot/history.py`` and the service's ``games``, ``log`` and ``since``): the
log and the digest show each seat what it may see and nothing more, checked over random
games of every game with ``determinize`` as the conformance test does; their text (move
numbers, times, points, the limit of a Discord message); the list of a player's tables;
and the reminder that carries the digest."""

from __future__ import annotations

import copy
import random
import re
from dataclasses import replace
from typing import Any

import pytest

import rules
from bot import history, scheduler, undo
from bot.history import Seated, Step
from bot.records import MoveRow
from bot.scheduler import DAY, HOUR
from bot.service import TableService
from bot.service.table import TableError
from bot.timeline import Timeline
from rules import Event
from tests.conftest import NEW_YEAR, Clock

GAME_IDS = sorted(rules.GAMES)
BIG = 10**6  # a limit no text reaches: every line is shown
HIDDEN_INFO = {"cube-conquest", "battle-tiles", "bomb-squares"}  # games with private events


def same(text: str) -> str:
    return text


def played(game_id: str, players: int, seed: int, moves: int) -> tuple[list[MoveRow], Any]:
    """A seeded random game of up to ``moves`` moves, as the log stores it (one move an
    hour); and its final state."""
    game = rules.GAMES[game_id]
    state = game.new(players, seed)
    rng = random.Random(f"history/{seed}")
    rows = []
    for version in range(2, moves + 2):
        if game.outcome(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        text = rng.choice(game.legal_moves(state, seat))
        state, _ = game.play(state, seat, text)
        rows.append(MoveRow(version, seat, text, NEW_YEAR + version * HOUR))
    return rows, state


def labels_of(players: int) -> list[str]:
    return [f"Seat{s + 1}" for s in range(players)]


def twin(past: Timeline, seat: int | None, rng: random.Random) -> tuple[Timeline, int]:
    """A timeline ``seat`` cannot tell from ``past`` (one that keeps every state): every
    state determinized for it, and every event it may not see replaced by another text.
    Also how many were replaced."""
    game = past.game
    swapped = 0

    def hide(event: Event) -> Event:
        nonlocal swapped
        if event.visible_to(seat):
            return event
        swapped += 1
        return replace(event, text=f"Something else {rng.randrange(10**9)}.")

    other = copy.copy(past)
    other.steps = [replace(s, events=tuple(hide(e) for e in s.events)) for s in past.steps]
    other.at = {s.version: s for s in other.steps}
    other.kept = {v: game.determinize(state, seat, rng.randrange(10**9))
                  for v, state in past.kept.items()}
    other.final = game.determinize(past.final, seat, rng.randrange(10**9))
    for version, state in past.kept.items():  # the twin is one the seat cannot tell apart
        assert game.view(other.kept[version], seat) == game.view(state, seat)
    return other, swapped


def seen_by(seat: int | None, past: Timeline, *, mark: MoveRow | None, limit: int
            ) -> list[str]:
    """The logs and (for a seat) the digest, as ``seat`` reads them."""
    players = past.final.players
    names = labels_of(players)
    texts = [history.log_text(past, seat, count=count, labels=names, annotate=same,
                              limit=limit) for count in (history.LOG_MOST, 3)]
    if seat is not None:
        texts.append(history.digest(past, seat, past.final, mark=mark, labels=names,
                                    names=names, annotate=same, limit=limit))
    return texts


# --------------------------------------------------------------------------- hidden information


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("players", [2, 3])
def test_the_log_and_the_digest_show_a_seat_only_what_it_may_see(game_id: str,
                                                                 players: int) -> None:
    game = rules.GAMES[game_id]
    players = min(players, game.max_players)
    rng = random.Random(f"twins/{game_id}/{players}")
    swapped_total = 0
    for seed in (1, 2):
        moves, final = played(game_id, players, seed, 60)
        past = Timeline(game, players, seed, None, moves, every=1)
        assert [s.version for s in past.steps] == [m.version for m in moves]
        assert not past.lost and game.dump(past.final) == game.dump(final)
        for seat in [None, *range(players)]:
            marks: list[MoveRow | None] = [None]
            if seat is not None:
                own = [m for m in moves if m.seat == seat]
                marks = [history.last_move(moves, seat), own[len(own) // 2] if own else None]
            for mark in marks:
                for limit in (BIG, history.LIMIT):
                    mine = seen_by(seat, past, mark=mark, limit=limit)
                    other, swapped = twin(past, seat, rng)
                    swapped_total += swapped
                    assert seen_by(seat, other, mark=mark, limit=limit) == mine
                    assert all(len(text) <= limit for text in mine)
            # No private event of another seat shows, unless the seat saw the same words.
            everyone = "\n".join(seen_by(seat, past, mark=None, limit=BIG))
            visible = {e.text for s in past.steps for e in s.events if e.visible_to(seat)}
            for step in past.steps:
                for event in step.events:
                    if not event.visible_to(seat) and event.text not in visible:
                        assert event.text not in everyone, (seat, event)
    if game_id in HIDDEN_INFO:
        assert swapped_total, "no private event was ever hidden: the check proved nothing"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_seat_reads_its_own_private_events_marked(game_id: str) -> None:
    game = rules.GAMES[game_id]
    moves, _ = played(game_id, 2, 3, 40)
    past = Timeline(game, 2, 3, None, moves)
    for seat in (0, 1):
        text = history.log_text(past, seat, count=history.LOG_MOST, labels=labels_of(2),
                                annotate=same, limit=BIG)
        private = [e.text for s in past.steps[-history.LOG_MOST:] for e in s.events
                   if e.to is not None and seat in e.to]
        for line in private:
            assert f"{history.PRIVATE} {line}" in text
        spectator = history.log_text(past, None, count=history.LOG_MOST,
                                     labels=labels_of(2), annotate=same, limit=BIG)
        assert history.PRIVATE not in spectator.split("\n", 1)[1]
    if game_id in HIDDEN_INFO:
        assert any(e.to is not None for s in past.steps for e in s.events)


# --------------------------------------------------------------------------- the text


def test_the_log_numbers_moves_as_the_board_does_with_discord_times() -> None:
    moves, _ = played("cube-conquest", 2, 5, 30)
    past = Timeline(rules.GAMES["cube-conquest"], 2, 5, None, moves)
    text = history.log_text(past, None, count=4, labels=labels_of(2), annotate=same)
    lines = [line for line in text.splitlines() if line.startswith("`#")]
    assert text.startswith("Cube Conquest: the last 4 of 30 moves, as everyone sees them:")
    # The move that made version v is move v - 1: the board says "move 30" after it.
    assert [line.split()[0] for line in lines] == ["`#27`", "`#28`", "`#29`", "`#30`"]
    for line, move in zip(lines, moves[-4:], strict=True):
        assert f"<t:{int(move.time)}:R>" in line
    assert history.log_text(past, 0, count=4, labels=labels_of(2), annotate=same).startswith(
        "Cube Conquest: the last 4 of 30 moves, as you see them (\N{LOCK}: only you):")
    every = history.log_text(past, 0, count=25, labels=labels_of(2), annotate=same,
                             limit=BIG)
    assert every.startswith("Cube Conquest: the last 25 of 30 moves")
    short = history.log_text(past, 0, count=25, labels=labels_of(2), annotate=same,
                             limit=600)
    assert len(short) <= 600
    left = re.search(r"\((\d+) earlier moves left out to fit\.\)", short)
    assert left is not None
    kept = len([x for x in short.splitlines() if x.startswith("`#")])
    assert kept == 25 - int(left[1])
    # the head counts the moves it shows, not the 25 asked for
    assert short.startswith(f"Cube Conquest: the last {kept} of 30 moves")
    assert short.rstrip().endswith(every.rstrip()[-40:])  # the newest moves are kept


def test_a_finished_game_ends_its_log_with_the_result() -> None:
    game = rules.GAMES["block-buster"]
    moves, final = played("block-buster", 2, 1, 500)
    outcome = game.outcome(final)
    assert outcome is not None
    past = Timeline(game, 2, 1, None, moves)
    text = history.log_text(past, None, count=3, labels=["Ann", "Bob"], annotate=same)
    assert text.endswith(f"Game over: {outcome.reason} Final score: "
                         f"Ann {outcome.scores[0]}, Bob {outcome.scores[1]}.")


def test_a_move_that_no_longer_replays_is_listed_without_its_events() -> None:
    game = rules.GAMES["cube-conquest"]
    moves, _ = played("cube-conquest", 2, 5, 8)
    odd = MoveRow(moves[-1].version + 1, 0, "undo", moves[-1].time + 60)
    after = MoveRow(odd.version + 1, 1, moves[0].text, odd.time + 60)
    past = Timeline(game, 2, 5, None, [*moves, odd, after])
    assert len(past.steps) == len(moves) and past.lost == (odd, after)
    text = history.log_text(past, None, count=3, labels=["Ann", "Bob"], annotate=same)
    assert text.startswith("Cube Conquest: the last 3 of 10 moves")
    assert text.endswith(f"`#{after.version - 1}` <t:{int(after.time)}:R> Bob made a move (it "
                         "can't be shown: it no longer replays).")
    assert "undo" not in text


def test_the_digest_says_what_changed_since_the_seats_last_move() -> None:
    game = rules.GAMES["cube-conquest"]
    moves, final = played("cube-conquest", 2, 11, 80)
    mark = history.last_move(moves[:-3], 0)
    assert mark is not None
    past = Timeline(game, 2, 11, None, moves)
    text = history.digest(past, 0, final, mark=mark, labels=["Ann (Blue)", "Bob (Red)"],
                          names=["Ann", "Bob"], annotate=same)
    assert text.startswith(f"**Since your last move** (`#{mark.version - 1}`, "
                           f"<t:{int(mark.time)}:R>) in Cube Conquest:")
    numbers = [int(n) for n in re.findall(r"^`#(\d+)`", text, re.M)]
    assert numbers == [m.version - 1 for m in moves if m.version > mark.version]
    before = game.view(past.state(mark.version), None)["points"]
    now = game.view(final, None)["points"]
    if before == now:
        assert "Points unchanged." in text
    else:
        changed = [f"{name} {b} \u2192 {p}" for name, b, p in
                   zip(["Ann (Blue)", "Bob (Red)"], before, now, strict=True) if b != p]
        assert all(c in text for c in changed), text
    assert "\nNow: you are Ann (Blue). Cube Conquest" in text
    # Since the deal, when the seat has not moved yet.
    first = Timeline(game, 2, 11, None, moves[:1])
    seat = 1 - moves[0].seat
    fresh = history.digest(first, seat, first.final, mark=None, labels=["A", "B"],
                           names=["A", "B"], annotate=same)
    assert fresh.startswith("**Since the game began** in Cube Conquest:\n`#1`")


def test_a_long_digest_keeps_the_newest_moves_and_its_picture_line() -> None:
    game = rules.GAMES["bomb-squares"]
    moves, final = played("bomb-squares", 2, 4, 200)
    past = Timeline(game, 2, 4, None, moves)
    text = history.digest(past, 0, final, mark=None, labels=["A", "B"], names=["A", "B"],
                          annotate=same, limit=900)
    assert len(text) <= 900
    assert "earlier moves left out; /log shows more.)" in text
    assert f"`#{moves[-1].version - 1}`" in text and "\nNow: you are A." in text


def test_points_are_public_and_end_as_the_scores() -> None:
    """``Game.points``, which the digest and the recap read: the same in every state a
    spectator cannot tell apart (nothing hidden counts), and the outcome's scores at the
    end."""
    for game_id in GAME_IDS:
        game = rules.GAMES[game_id]
        for seed in (1, 2):
            moves, final = played(game_id, 2, seed, 400)
            state = game.new(2, seed)
            for move in moves[: len(moves) // 2]:
                state, _ = game.play(state, move.seat, move.text)
            for k in range(4):
                assert game.points(game.determinize(state, None, k)) == game.points(state)
            outcome = game.outcome(final)
            if outcome is not None:
                assert game.points(final) == outcome.scores, game_id


def test_the_list_of_tables_puts_the_players_turns_first() -> None:
    tables = [
        Seated(3, "Crystallia", True, waiting=("Bob (seat 2)",), since=NEW_YEAR),
        Seated(4, "Block Buster", False, seated="1 of 2-4 players seated: Ann."),
        Seated(2, "Cube Conquest", True, yours=True, since=NEW_YEAR + HOUR,
               deadline=NEW_YEAR + DAY),
        Seated(1, "Battle Tiles", True, yours=True, since=NEW_YEAR),
    ]
    assert history.games_text(tables).splitlines() == [
        "Your tables in this server: 4, your turn at 2.",
        f"\u2022 <#1> Battle Tiles: **your turn** since <t:{int(NEW_YEAR)}:R>.",
        f"\u2022 <#2> Cube Conquest: **your turn** since <t:{int(NEW_YEAR + HOUR)}:R>; the "
        f"turn time runs out <t:{int(NEW_YEAR + DAY)}:R>.",
        f"\u2022 <#3> Crystallia: waiting for Bob (seat 2) since <t:{int(NEW_YEAR)}:R>.",
        "\u2022 <#4> Block Buster: waiting to start. 1 of 2-4 players seated: Ann.",
    ]
    many = [Seated(n, "Cube Conquest", True, waiting=("X" * 30,), since=NEW_YEAR)
            for n in range(100)]
    text = history.games_text(many)
    assert len(text) <= history.LIMIT and re.search(r"\u2026 and \d+ more\.$", text)
    assert history.games_text([]).startswith("You have no tables in this server.")


def test_an_undo_in_the_log_is_shown_as_one_and_its_move_marked() -> None:
    game = rules.GAMES["block-buster"]  # no hidden information: any move may be taken back
    moves, _ = played("block-buster", 2, 1, 6)
    last = moves[-1]
    back = MoveRow(last.version + 1, last.seat, undo.entry(last.version), last.time + 60)
    again = MoveRow(back.version + 1, last.seat,
                    game.legal_moves(Timeline(game, 2, 1, None, [*moves, back]).final,
                                     last.seat)[0], back.time + 60)
    log = [*moves, back, again]
    past = Timeline(game, 2, 1, None, log)
    assert not past.lost
    assert game.dump(past.state(back.version)) == game.dump(
        Timeline(game, 2, 1, None, moves[:-1]).final)
    text = history.log_text(past, None, count=3, labels=["Ann", "Bob"], annotate=same)
    lines = text.splitlines()[1:]
    assert lines[0].startswith(f"`#{last.version - 1}` (taken back) <t:")
    who = ["Ann", "Bob"][last.seat]
    assert lines[1] == (f"`#{back.version - 1}` <t:{int(back.time)}:R> {who} took back "
                        f"move {last.version - 1}.")
    assert lines[2].startswith(f"`#{again.version - 1}` <t:")


# --------------------------------------------------------------------------- the service

CH, OTHER, ELSEWHERE = 900, 901, 902
GUILD, GUILD_2 = 1, 2
ANN, BOB, CY, DEE = 301, 302, 303, 304


async def two(service: TableService, game_id: str, channel: int = CH, guild: int = GUILD,
              seed: int = 1) -> None:
    await service.open(channel, guild, ANN, "Ann", game_id)
    await service.join(channel, BOB, "Bob")
    await service.start(channel, ANN, seed=seed)


async def play_some(service: TableService, clock: Clock, rng: random.Random, moves: int,
                    channel: int = CH) -> None:
    for _ in range(moves):
        waiting = await service.waiting(channel)
        if not waiting:
            return
        user = rng.choice(waiting)[0]
        await service.play(channel, user, rng.choice(await service.legal_moves(channel, user)))
        clock.t += 20 * 60


async def stored(service: TableService, channel: int = CH) -> tuple[Timeline, list[MoveRow]]:
    row = await service.store.tables.latest_game(channel)
    assert row is not None and row.seed is not None
    moves = await service.store.tables.moves(row.id)
    game = rules.GAMES[row.game]
    return Timeline(game, 2, row.seed, row.options, moves), moves


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_the_service_shows_each_seat_its_own_log_and_digest(
        service: TableService, clock: Clock, game_id: str) -> None:
    await two(service, game_id)
    rng = random.Random(game_id)
    await play_some(service, clock, rng, 40)
    past, moves = await stored(service)
    labels = ["Ann", "Bob"]
    texts = {}
    for user, seat in ((ANN, 0), (BOB, 1), (CY, None)):
        text = (await service.log(CH, user, history.LOG_MOST)).ephemeral
        numbers = [int(n) for n in re.findall(r"^`#(\d+)`", text, re.M)]
        assert numbers == [m.version - 1 for m in moves][-len(numbers):] and numbers
        # in as many messages as it takes, each one Discord's length at most
        assert len(text) <= history.LOG_PAGES * history.LIMIT
        assert all(len(page) <= history.LIMIT for page in history.pages(text))
        assert len(history.pages(text)) <= history.LOG_PAGES
        assert "\n".join(history.pages(text)) == text
        if seat is not None:
            digest = (await service.since(CH, user)).ephemeral
            mark = history.last_move(moves, seat)
            assert digest.startswith("**Since your last move**" if mark else
                                     "**Since the game began**")
            assert len(digest) <= history.LIMIT
            text += "\n" + digest
        texts[seat] = text
        # It equals what a determinize twin of the game would show this seat.
        other, _ = twin(past, seat, random.Random(seat))
        direct = history.log_text(past, seat, count=history.LOG_MOST, labels=labels,
                                  annotate=same)
        assert history.log_text(other, seat, count=history.LOG_MOST, labels=labels,
                                annotate=same) == direct
    for seat, text in texts.items():
        visible = {e.text for s in past.steps for e in s.events if e.visible_to(seat)}
        hidden = {e.text for s in past.steps for e in s.events
                  if not e.visible_to(seat)} - visible
        assert not [h for h in hidden if h in text], (seat, hidden)
        if seat is None:
            assert history.PRIVATE not in text.split("\n", 1)[1]


async def test_the_services_answers_refuse_with_sentences(service: TableService) -> None:
    with pytest.raises(TableError, match="There is no game in this channel"):
        await service.log(CH, ANN)
    await service.open(CH, GUILD, ANN, "Ann", "cube-conquest")
    with pytest.raises(TableError) as refused:
        await service.log(CH, ANN)
    assert str(refused.value) == ("The game hasn't started yet, so there are no moves to "
                                  "show.")
    with pytest.raises(TableError) as refused:
        await service.since(CH, ANN)
    assert str(refused.value) == "The game hasn't started yet, so nothing has happened."
    await service.join(CH, BOB, "Bob")
    await service.start(CH, ANN, seed=1)
    for count in (0, 26):
        with pytest.raises(TableError) as refused:
            await service.log(CH, ANN, count)
        assert str(refused.value) == "Ask for 1 to 25 moves."
    with pytest.raises(TableError) as refused:
        await service.since(CH, CY)
    assert str(refused.value) == ("You have no seat in this game; /log shows its moves to "
                                  "everyone.")
    assert (await service.log(CH, CY)).ephemeral == "Cube Conquest: no moves yet."


async def test_a_finished_game_can_still_be_looked_back_at(service: TableService,
                                                           clock: Clock) -> None:
    await two(service, "block-buster")
    await play_some(service, clock, random.Random(2), 500)
    assert not await service.waiting(CH)
    text = (await service.log(CH, CY, 2)).ephemeral
    assert "\nGame over: " in text and "Final score: Ann " in text
    assert "Game over: " in (await service.since(CH, ANN)).ephemeral


async def test_games_lists_the_callers_tables_in_this_server(service: TableService,
                                                             clock: Clock) -> None:
    assert (await service.games(GUILD, ANN)).startswith("You have no tables")
    await two(service, "cube-conquest", CH)
    await service.settings(CH, ANN, turn_time="12h")
    await two(service, "crystallia", OTHER)
    await service.open(ELSEWHERE, GUILD_2, ANN, "Ann", "bomb-squares")  # another server
    await service.open(ELSEWHERE + 1, GUILD, BOB, "Bob", "battle-tiles")  # not Ann's
    # Make it Ann's turn in CH and Bob's in OTHER.
    rng = random.Random(4)
    for channel, wanted in ((CH, ANN), (OTHER, BOB)):
        for _ in range(20):
            waiting = [u for u, _ in await service.waiting(channel)]
            if waiting == [wanted]:
                break
            user = waiting[0]
            await service.play(channel, user, rng.choice(await service.legal_moves(channel,
                                                                                   user)))
        assert [u for u, _ in await service.waiting(channel)] == [wanted]
    clock.t += HOUR
    lines = (await service.games(GUILD, ANN)).splitlines()
    assert lines[0] == "Your tables in this server: 2, your turn at 1."
    waits = {w.seat: w for w in await service.store.jobs.waits(
        (await service.store.tables.active_game(CH)).id)}  # type: ignore[union-attr]
    since = waits[0].since
    deadline = scheduler.deadline(waits[0], 12 * HOUR, await service.store.members.player(ANN))
    assert deadline == since + 12 * HOUR
    assert lines[1] == (f"\u2022 <#{CH}> Cube Conquest: **your turn** since "
                        f"<t:{int(since)}:R>; the turn time runs out <t:{int(deadline)}:R>.")
    assert lines[2].startswith(f"\u2022 <#{OTHER}> Crystallia: waiting for Bob (seat 2) "
                               "since <t:")
    assert len(lines) == 3
    bob = (await service.games(GUILD, BOB)).splitlines()
    assert bob[0] == "Your tables in this server: 3, your turn at 1."
    assert bob[1].startswith(f"\u2022 <#{OTHER}> Crystallia: **your turn**")
    assert bob[3] == (f"\u2022 <#{ELSEWHERE + 1}> Battle Tiles: waiting to start. 1 of 2 "
                      "players seated: Bob.")
    # An ended table is no longer listed.
    await service.end(OTHER, ANN)
    assert len((await service.games(GUILD, ANN)).splitlines()) == 2


async def test_a_reminder_carries_the_digest(service: TableService, clock: Clock) -> None:
    await two(service, "cube-conquest")
    await play_some(service, clock, random.Random(6), 12)
    (user, _), = await service.waiting(CH)
    seat = 0 if user == ANN else 1
    clock.t += DAY + HOUR
    due = await service.due(clock.t)
    assert [(j.kind, j.part) for j in due] == [("wait", seat)]
    tended = await service.tend(due[0])
    assert tended is not None and tended.user_id == user
    reminder, digest = tended.text.split("\n\n", 1)
    assert reminder.startswith("It is your turn in Cube Conquest")
    assert digest == (await service.since(CH, user)).ephemeral
    assert len(tended.text) <= history.LIMIT


async def test_a_long_reminder_is_shortened_to_one_message(service: TableService,
                                                          clock: Clock) -> None:
    await service.open(CH, GUILD, ANN, "Ann", "bomb-squares")
    for user, name in ((BOB, "Bob"), (CY, "Cy"), (DEE, "Dee")):
        await service.join(CH, user, name)
    await service.start(CH, ANN, seed=2)
    rng = random.Random(1)
    for _ in range(600):  # until what happened since Ann's last move fills a message
        waiting = [u for u, _ in await service.waiting(CH)]
        if waiting == [ANN] and "left out" in (await service.since(CH, ANN)).ephemeral:
            break
        user = rng.choice(waiting)
        await service.play(CH, user, rng.choice(await service.legal_moves(CH, user)))
    else:
        pytest.fail("Ann's digest never grew longer than a message")
    clock.t += DAY + HOUR
    tended = await service.tend((await service.due(clock.t))[0])
    assert tended is not None and tended.user_id == ANN
    assert len(tended.text) <= history.LIMIT
    assert tended.text.startswith("It is your turn in Bomb Squares")
    assert "earlier moves left out; /log shows more.)" in tended.text
    assert "\nNow: you are Ann" in tended.text


def test_steps_are_plain_values() -> None:
    step = Step(2, 0, NEW_YEAR, (Event("Blue passes."),))
    assert step_text(step) == f"`#1` <t:{int(NEW_YEAR)}:R> Blue passes."
    quiet = Step(3, 1, NEW_YEAR, (Event("You pick 5.", frozenset({1})),))
    assert step_text(quiet, seat=0) == f"`#2` <t:{int(NEW_YEAR)}:R> Bob made a move."
    assert step_text(quiet, seat=1) == (f"`#2` <t:{int(NEW_YEAR)}:R>\n\u2003\N{LOCK} "
                                        "You pick 5.")


def step_text(step: Step, seat: int | None = None) -> str:
    return history.step_lines(step, seat, ["Ann", "Bob"], same)
