"""Games over days, end to end on SimCord with its simulated clock: computer seats, table
settings, turn times with stand-ins, reminders with quiet hours, restarts, and a channel
post that fails and is retried.

The bot's clock is ``discord.utils.utcnow()``, which ``env.advance_time`` drives, so a
test plays a week in seconds. SimCord's clock starts at 2026-01-01 00:00 UTC.
"""

from __future__ import annotations

import itertools
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import service as service_module
from bot.discord.client import discord_clock
from bot.discord.loop import SWEEP_EVERY, SWEEP_GRACE
from bot.scheduler import DAY, HOUR
from bot.service import TableService
from bot.store import Store
from tests.test_discord import (
    World,
    assert_nothing_secret_public,
    buttons,
    choose,
    message_text,
    play_on,
    said,
    seat_two,
    world,
)

# --------------------------------------------------------------------------- helpers


def over(w: World) -> bool:
    return any("Game over" in message_text(m) for m in w.public())


def reminders(w: World, member: Any) -> list[discord.Message]:
    return [m for m in w.dms(member) if message_text(m).startswith("It is your turn")]


async def first_awaited(w: World) -> Any:
    return (await w.awaited())[0]


async def alice_plays_when_awaited(w: World, rng: random.Random) -> bool:
    """Alice makes her move if she is awaited; whether she did."""
    moves = await w.moves(w.alice)
    if not moves:
        return False
    move = choose(w, w.alice, moves, rng)
    if move.startswith("attack"):
        w.attacker = w.alice.id
    said(await w.alice.slash(w.channel, "play", action=move))
    return True


# --------------------------------------------------------------------------- computer seats


async def test_a_computer_player_takes_a_seat_with_its_level(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="cube-conquest"))
        assert "took a seat" in said(await w.alice.slash(w.channel, "game computer"))
        assert "Computer 1 (normal) takes a seat" in message_text(w.public()[-1])  # the bot's
        said(await w.alice.slash(w.channel, "game computer", level="easy"))
        assert "Computer 2 (easy) takes a seat" in message_text(w.public()[-1])
        assert "Only alice" in said(await w.bob.slash(w.channel, "game computer"))
        row = await w.bot.service.store.tables.active_game(w.channel.id)
        assert row is not None
        seats = await w.bot.service.store.seats.of(row.id)
        assert [(s.kind, s.level) for s in seats] == [
            ("human", None), ("computer", "normal"), ("computer", "easy")]
        said(await w.alice.slash(w.channel, "game start"))
        rng = random.Random(2)
        for _ in range(300):
            if over(w) or not await alice_plays_when_awaited(w, rng):
                break
        assert over(w)
        assert_nothing_secret_public(w)


async def test_a_strong_computer_thinks_in_a_worker_process(tmp_path: Path) -> None:
    # A hard decision is some 0.4 s of CPU, in a worker process forked at the first: on a
    # loaded machine, seconds of wall time, past SimCord's 5 s for an answer to settle.
    async with world(tmp_path, settle_timeout=15.0) as w:
        said(await w.alice.slash(w.channel, "game new", game="cube-conquest"))
        said(await w.alice.slash(w.channel, "game computer", level="hard"))
        said(await w.alice.slash(w.channel, "game start"))
        rng = random.Random(1)
        for _ in range(3):
            await alice_plays_when_awaited(w, rng)
        assert w.bot.service.computers.thinkers is not None
        assert any("Red (Computer 1)" in message_text(m) or "Red " in message_text(m)
                   for m in w.public()[3:])


async def test_a_player_resigns_and_the_game_goes_on(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        assert "no seat" in said(await w.carol.slash(w.channel, "game resign"))
        assert "You resigned" in said(await w.bob.slash(w.channel, "game resign"))
        assert "bob resigns; a computer player (normal) plays their seat" in (
            message_text(w.public()[-1]))
        rng = random.Random(8)
        for _ in range(300):
            if over(w) or not await alice_plays_when_awaited(w, rng):
                break
        assert over(w)
        assert "decided with a resignation" in said(await w.carol.slash(w.channel, "board"))


async def test_the_opener_hands_an_absent_seat_to_another_member(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        assert "Only alice" in said(await w.carol.slash(w.channel, "game replace",
                                                        player=w.bob, seat=w.carol))
        said(await w.alice.slash(w.channel, "game replace", player=w.bob, seat=w.carol))
        assert "bob's seat is handed to carol" in message_text(w.public()[-1])
        assert await w.bot.service.legal_moves(w.channel.id, w.bob.id) == []
        status = await w.bot.service.status(w.channel.id)
        assert "carol" in status.public and "bob" not in status.public


# --------------------------------------------------------------------------- settings


async def test_settings_are_the_openers_and_show_on_the_board(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        assert "no turn time; reminders on" in said(await w.carol.slash(w.channel, "board"))
        refused = said(await w.alice.slash(w.channel, "game settings", turn_time="3x"))
        assert refused == ("'3x' is not a turn time; write off, or minutes, hours or days "
                           "such as 90m, 12h or 2d.")
        assert "Only alice" in said(await w.bob.slash(w.channel, "game settings",
                                                      turn_time="2d"))
        said(await w.alice.slash(w.channel, "game settings", turn_time="12h",
                                 reminders="off"))
        assert "turn time 12h; reminders off" in message_text(w.public()[-1])
        assert "turn time 12h; reminders off" in said(await w.carol.slash(w.channel, "board"))
        assert "turn time 12h" in said(await w.carol.slash(w.channel, "rules",
                                                           game="cube-conquest"))
        row = await w.bot.service.store.tables.active_game(w.channel.id)
        assert row is not None and (row.turn_time, row.reminders) == (12 * HOUR, False)


# --------------------------------------------------------------------------- time runs out


async def test_a_player_vanishes_for_a_week_and_the_others_finish(tmp_path: Path) -> None:
    # The game's end draws its recap and animation in a thread: on a loaded machine that
    # takes over SimCord's 5 s of real time to settle, so this test waits up to 15.
    async with world(tmp_path, settle_timeout=15.0) as w:
        await seat_two(w)
        said(await w.alice.slash(w.channel, "game settings", turn_time="1h"))
        start = w.env.now()
        rng = random.Random(3)
        for _ in range(400):
            if over(w):
                break
            if not await alice_plays_when_awaited(w, rng):
                await w.env.advance_time(HOUR)  # Bob never comes back
        assert over(w)
        assert (w.env.now() - start).total_seconds() < 7 * DAY
        stand_ins = [line for m in w.public() for line in message_text(m).splitlines()
                     if "ran out of time:" in line]
        assert stand_ins
        assert all("bob" in line and "a computer player (normal) stands in" in line
                   for line in stand_ins)
        assert not any("alice" in line.split(" ran out")[0] for line in stand_ins)
        assert_nothing_secret_public(w)


async def test_the_player_takes_the_seat_back_by_acting(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        said(await w.alice.slash(w.channel, "game settings", turn_time="2h"))
        rng = random.Random(4)
        late = await first_awaited(w)
        await w.env.advance_time(2 * HOUR + 60)
        assert "ran out of time" in message_text(w.public()[-2]) + message_text(w.public()[-1])
        # Whoever is awaited now plays at once: no stand-in for them.
        for _ in range(6):
            for member in await w.awaited():
                move = choose(w, member, await w.moves(member), rng)
                said(await member.slash(w.channel, "play", action=move))
            await w.env.advance_time(HOUR)
        stand_ins = [m for m in w.public() if "ran out of time" in message_text(m)]
        assert len(stand_ins) == 1 and late.name in message_text(stand_ins[0])


async def test_a_time_bank_shows_drains_and_runs_out_into_a_stand_in(tmp_path: Path) -> None:
    """/game settings clock:bank: the banks show on /board and in /games; the late
    player's drains, with a reminder at half of it, and runs out into a stand-in, after
    which it holds the hour it gets back; quiet hours stop it; a quick turn refills it."""
    async with world(tmp_path) as w:
        await seat_two(w)
        refused = said(await w.alice.slash(w.channel, "game settings", clock="per-turn",
                                           bank="3h"))
        assert "for clock:bank" in refused
        said(await w.alice.slash(w.channel, "game settings", clock="bank", bank="3h",
                                 add="1h"))
        assert ("a time bank of 3h per player, 1h back after each turn (up to 3h)"
                in message_text(w.public()[-1]))
        late = await first_awaited(w)

        async def bank() -> str:
            """The late player's bank as /board shows it to a spectator."""
            board = said(await w.carol.slash(w.channel, "board"))
            found = re.search(rf"Time banks:.*\b{late.name} \(\w+\) ([^;.]+)", board)
            assert found, board
            return found[1]

        assert await bank() in ("3h, running", "2h 59m, running")  # seconds pass in SimCord
        await w.env.advance_time(HOUR + 40 * 60)  # over half the bank: one reminder
        assert any("of your time bank is left" in message_text(m) for m in w.dms(late))
        assert await bank() in ("1h 20m, running", "1h 19m, running")
        assert re.search(r"your time bank: 1h (20|19)m", said(await late.slash(w.channel,
                                                                               "games")))
        await w.env.advance_time(HOUR + 30 * 60)  # the bank is spent
        stand_in = [m for m in w.public() if "ran out of time" in message_text(m)]
        assert len(stand_in) == 1 and late.name in message_text(stand_in[0])
        # The stand-in played the turn: the bank holds the hour it gets back.
        assert await bank() == "1h"
        rng = random.Random(2)
        for _ in range(20):  # the others play at once until the late player's turn
            if late in await w.awaited():
                break
            for member in await w.awaited():
                said(await member.slash(w.channel, "play",
                                        action=choose(w, member, await w.moves(member), rng)))
        assert late in await w.awaited()
        # Quiet hours (from this hour for eight) stop the bank while they last.
        hour = w.env.now().astimezone(UTC).hour
        said(await late.slash(w.channel, "me quiet", **{"from": hour, "to": (hour + 8) % 24},
                              timezone="UTC"))
        await w.env.advance_time(4 * HOUR)
        assert await bank() in ("1h, running", "59m, running")
        assert len([m for m in w.public() if "ran out of time" in message_text(m)]) == 1
        # A quick turn refills it: the hour back, up to the start.
        while late in await w.awaited():
            said(await late.slash(w.channel, "play",
                                  action=choose(w, late, await w.moves(late), rng)))
        assert await bank() in ("2h", "1h 59m")
        assert_nothing_secret_public(w)


# --------------------------------------------------------------------------- reminders


async def test_reminders_daily_at_most_three_never_in_quiet_hours(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        late = await first_awaited(w)
        other = w.bob if late is w.alice else w.alice
        quiet = said(await late.slash(w.channel, "me quiet", **{"from": 22, "to": 9},
                                      timezone="Europe/Paris"))
        assert "at most 12 hours a day" in quiet
        await w.env.advance_time(DAY + HOUR)  # 02:00 in Paris: quiet, so not yet
        assert not reminders(w, late)
        await w.env.advance_time(8 * HOUR)  # 10:00 in Paris
        assert len(reminders(w, late)) == 1
        await w.restart()  # nothing twice across a restart
        await w.env.advance_time(HOUR)
        assert len(reminders(w, late)) == 1
        await w.env.advance_time(5 * DAY)
        sent = reminders(w, late)
        assert len(sent) == 3 and not reminders(w, other)
        for message in sent:
            said_there = message_text(message)
            assert f"<#{w.channel.id}>" in said_there and "Cube Conquest" in said_there
            local = message.created_at.astimezone(_paris()).hour
            assert 9 <= local < 22, message.created_at
        # A move ends the wait: no reminder after it.
        rng = random.Random(5)
        while await w.moves(late):
            said(await late.slash(w.channel, "play",
                                  action=choose(w, late, await w.moves(late), rng)))
        await w.env.advance_time(HOUR)
        assert len(reminders(w, late)) == 3


async def test_quiet_hours_and_time_away_are_capped(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        refused = said(await w.alice.slash(w.channel, "me quiet", **{"from": 20, "to": 10},
                                           timezone="UTC"))
        assert refused == "Quiet hours are at most 12 a day; 20:00 to 10:00 is 14."
        assert "time zone" in said(await w.alice.slash(w.channel, "me quiet",
                                                       **{"from": 1, "to": 7},
                                                       timezone="Mars/Olympus"))
        assert "14 of 21 days" in said(await w.alice.slash(w.channel, "me away", days=7))
        assert "you have 14 left" in said(await w.alice.slash(w.channel, "me away", days=15))


async def test_a_player_with_closed_dms_is_mentioned_at_most_once_a_day(tmp_path: Path
                                                                        ) -> None:
    async with world(tmp_path) as w:
        for member in w.players:
            dm = member.user.dm_channel
            w.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                               message="Cannot send messages to this user", times=None)
        await seat_two(w)
        late = await first_awaited(w)
        seen = len(w.public())
        await w.env.advance_time(3 * DAY + HOUR)
        mentions = [m for m in w.public()[seen:] if "it is your turn here" in message_text(m)]
        assert 1 <= len(mentions) <= 3
        times = [m.created_at for m in mentions]
        assert all((b - a).total_seconds() >= DAY for a, b in itertools.pairwise(times))
        assert all([u.id for u in m.mentions] == [late.id] for m in mentions)


# --------------------------------------------------------------------------- the outbox


@pytest.mark.parametrize("failures", [1, 2])
async def test_a_failed_channel_post_is_retried_in_move_order(tmp_path: Path,
                                                              failures: int) -> None:
    """With ``failures`` 2 the first retry (after 30 s) fails too, and the next one (a
    minute later) posts it: a failed retry keeps trying, in move order."""
    async with world(tmp_path) as w:
        await seat_two(w)
        rng = random.Random(6)
        mover = await first_awaited(w)
        seen = len(w.public())
        w.env.inject_error("POST", f"/channels/{w.channel.id}/messages", status=500,
                           times=failures)
        move = choose(w, mover, await w.moves(mover), rng)
        told = said(await mover.slash(w.channel, "play", action=move))
        # A passing failure: the move is saved and shows once Discord answers (not a
        # word about permissions, which only a 403 is about).
        assert "saved" in told and "as soon as Discord answers" in told
        assert "permission" not in told and "please check" not in told
        assert len(w.public()) == seen
        # The next move waits for the missed one: nothing is posted out of order, and its
        # mover hears nothing alarming.
        for nxt in (await w.awaited())[:1]:
            waiting = said(await nxt.slash(w.channel, "play",
                                           action=choose(w, nxt, await w.moves(nxt), rng)))
            assert "right after the moves before it" in waiting
            assert "could not" not in waiting and "Discord did not" not in waiting
        assert len(w.public()) == seen
        await w.env.advance_time(60)
        if failures == 2:
            assert len(w.public()) == seen  # the first retry failed: the next one posts
            await w.env.advance_time(60)
        late = w.public()[seen:]
        assert len(late) >= 1 and message_text(late[0]).startswith("(Posted late")
        assert move.split()[1] in message_text(late[0])
        await w.restart()  # delivered once: nothing more to post
        assert len(w.public()) == seen + len(late)


async def test_a_move_another_process_wrote_but_never_posted_is_swept(tmp_path: Path
                                                                      ) -> None:
    """Another bot process on the same database wrote a move and stopped before posting
    it; this bot (one of several processes: it sweeps) posts the next move at once, and
    the lost one on its next sweep of the outbox once ``SWEEP_GRACE`` has passed, once."""
    async with world(tmp_path) as w:
        await seat_two(w)
        await w.restart(sweep=True)
        rng = random.Random(8)
        other = await Store.open(w.path)
        w.stores.append(other)
        gone = TableService(other, images=False, now=discord_clock)  # the process that stopped
        mover = await first_awaited(w)
        move = choose(w, mover, await w.moves(mover), rng)
        await gone.play(w.channel.id, mover.id, move)  # written, never posted
        seen = len(w.public())
        nxt = await first_awaited(w)
        said(await nxt.slash(w.channel, "play",
                             action=choose(w, nxt, await w.moves(nxt), rng)))
        assert len(w.public()) == seen + 1  # the next move, at once
        await w.env.advance_time(SWEEP_GRACE + SWEEP_EVERY + 1)
        late = w.public()[seen + 1:]
        assert len(late) == 1 and message_text(late[0]).startswith("(Posted late: a bot process")
        assert move.split()[1] in message_text(late[0])
        await w.env.advance_time(SWEEP_GRACE + SWEEP_EVERY + 1)
        await w.restart(sweep=True)  # posted once: nothing more, now or after a restart
        assert len(w.public()) == seen + 2


@pytest.mark.parametrize("seed", [0, 9, 12])
async def test_dm_buttons_made_stale_by_another_seat_are_taken_off(
        tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals 9 and 12 lead to a DM sent without buttons and then edited to carry some
    (a step of the player's own turn): those buttons too come off when they go stale."""
    monkeypatch.setattr(service_module.secrets, "randbelow", lambda _n: seed)
    async with world(tmp_path) as w:
        await seat_two(w)
        rng = random.Random(5)
        while len(await w.awaited()) < 2:  # into a secret attack: both sides to pick
            assert await play_on(w, rng, limit=1) == 1
        first, second = w.players
        asked = [m for m in w.dms(second) if buttons(m)]
        assert asked
        old = asked[-1]
        said(await first.slash(w.channel, "play",
                               action=choose(w, first, await w.moves(first), rng)))
        edited = next(m for m in w.dms(second) if m.id == old.id)
        assert await w.moves(second)  # still to pick: asked again, the old buttons gone
        assert not buttons(edited) and "out of date" in message_text(edited).lower()
        assert buttons(w.dms(second)[-1]) and w.dms(second)[-1].id != old.id


def _paris() -> Any:
    from zoneinfo import ZoneInfo
    return ZoneInfo("Europe/Paris")


def test_the_simulated_clock_starts_on_new_year() -> None:
    assert datetime(2026, 1, 1, tzinfo=UTC).timestamp() % DAY == 0
