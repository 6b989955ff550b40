"""The daily digest end to end on SimCord with its simulated clock: ``/me digest`` over three
servers and several tables (some waiting for the member, some not), quiet hours covering
the digest hour, restarts around the due moment (no duplicate, no loss), the reminders it
stands for (no daily reminder; the 80% and 95% warnings of a turn time still come),
nothing hidden from the member in it, ``/me digest at:off``, and closed DMs.

SimCord's clock starts at 2026-01-01 00:00 UTC (01:00 in Paris).
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

import render
from bot import scheduler
from bot import service as service_module
from bot.records import WaitRow
from bot.scheduler import DAY, HOUR, MINUTE
from tests.test_discord import SEED, World, message_text, said, world

NEW_YEAR = datetime(2026, 1, 1, tzinfo=UTC).timestamp()


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module.secrets, "randbelow", lambda _n: SEED)


def digests(w: World, member: Any) -> list[discord.Message]:
    return [m for m in w.dms(member) if message_text(m).startswith("**Your daily digest**")]


def reminders(w: World, member: Any) -> list[discord.Message]:
    return [m for m in w.dms(member) if message_text(m).startswith("It is your turn")]


def at(message: discord.Message) -> float:
    return message.created_at.timestamp()


async def awaited(w: World, channel: Any, members: list[Any]) -> list[Any]:
    return [m for m in members
            if await w.bot.service.legal_moves(channel.id, m.id)]


async def table(w: World, channel: Any, opener: Any, joiner: Any, *, waits_for: Any,
                turn_time: str | None = None, moves: int = 0) -> None:
    """A Cube Conquest table of two in ``channel``, played on (at random) for ``moves``
    moves at least, until it waits for ``waits_for``."""
    said(await opener.slash(channel, "game new", game="cube-conquest"))
    said(await joiner.slash(channel, "game join"))
    if turn_time is not None:
        said(await opener.slash(channel, "game settings", turn_time=turn_time))
    said(await opener.slash(channel, "game start"))
    rng = random.Random(channel.id)
    for played in itertools.count():
        now = await awaited(w, channel, [opener, joiner])
        if played >= moves and any(m.id == waits_for.id for m in now):
            return
        assert played < 60, "the table never waited for the member"
        mover = now[0]
        move = rng.choice(await w.bot.service.legal_moves(channel.id, mover.id))
        said(await mover.slash(channel, "play", action=move))


def hand(w: World, channel_id: int, user_id: int) -> str:
    """'Your hand: ...' as the member's own summary says it."""
    found = [t for t in w.bot.service.tables.held() if t.channel_id == channel_id]
    table = found[0]
    seat = table.seat_of(user_id)
    assert seat is not None and table.state is not None
    view = table.game.view(table.state, seat)
    view["names"] = [table.shown(n) for n in table.names()]
    summary = render.summary(table.game.id, view)
    return summary[summary.index("Your hand:"):]


async def test_the_daily_digest_over_three_servers(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        w.bot.service.images = False  # six tables of a dozen moves: seconds, not pictures
        env, alice, bob, carol = w.env, w.alice, w.bob, w.carol
        night, first = w.guild, w.channel
        second_guild = env.create_guild("Second table")
        third_guild = env.create_guild("Third table")
        other = night.create_text_channel("crystals")
        second = second_guild.create_text_channel("cubes")
        elsewhere = second_guild.create_text_channel("others")
        third = third_guild.create_text_channel("cubes")
        later = third_guild.create_text_channel("later")
        there = {g.id: {m.user.id: g.add_member(m.user) for m in (alice, bob, carol)}
                 for g in (second_guild, third_guild)}
        a2, b2, c2 = (there[second_guild.id][m.user.id] for m in (alice, bob, carol))
        a3, b3 = (there[third_guild.id][m.user.id] for m in (alice, bob))
        # Quiet hours 22:00 to 09:00 in Paris, set before the tables start (a change applies
        # from the moment it is made), cover the digest's 08:00: it comes at 09:00 Paris,
        # 08:00 UTC; the zone is the quiet hours'.
        said(await alice.slash(first, "me quiet", **{"from": 22, "to": 9},
                               timezone="Europe/Paris"))
        # Waiting for Alice: two tables in Game night (one a second channel), one in each
        # other server, the one in Second table with a turn time of 2 days.
        await table(w, first, alice, bob, waits_for=alice, moves=12)  # cards in hand
        await table(w, other, bob, alice, waits_for=alice)
        await table(w, second, a2, b2, waits_for=a2, turn_time="2d")
        await table(w, third, b3, a3, waits_for=a3)
        # Not waiting for Alice: Bob and Carol's table, and one of Alice's waiting for Bob.
        await table(w, elsewhere, b2, c2, waits_for=c2)
        await table(w, later, a3, b3, waits_for=b3)
        mine = {first.id, other.id, second.id, third.id}
        own, hidden = hand(w, first.id, alice.id), hand(w, first.id, bob.id)
        assert own != hidden  # Bob holds other cards than Alice
        theirs = {line for m in w.dms(bob) for line in message_text(m).splitlines()[1:]
                  if message_text(m).startswith("In <#")} - {
            line for m in w.dms(alice) for line in message_text(m).splitlines()}

        told = said(await alice.slash(first, "me digest", at="8"))
        due = NEW_YEAR + 8 * HOUR
        assert "8:00, Europe/Paris time" in told and f"<t:{int(due)}:f>" in told
        assert "the warnings at 80% and 95% of a turn time still come" in told
        refused = said(await alice.slash(first, "me digest", at="25"))
        assert refused.startswith("'25' is not an hour")
        assert "is not a time zone" in said(await alice.slash(first, "me digest", at="9",
                                                              timezone="Mars/Olympus"))
        assert f"<t:{int(due)}:f>" in said(await alice.slash(first, "me digest"))  # unchanged

        await env.advance_time(due - NEW_YEAR - 30)  # 08:59:30 in Paris: not yet
        assert not digests(w, alice)
        await w.restart(images=False)  # a restart just before the due moment loses nothing
        await env.advance_time(60)
        sent = digests(w, alice)
        assert len(sent) == 1 and at(sent[0]) == due
        await w.restart(images=False)  # nor sends it again
        await env.advance_time(10 * HOUR)
        assert len(digests(w, alice)) == 1

        text = message_text(sent[0])
        assert len(text) <= 2000 and not sent[0].mentions
        assert text.startswith("**Your daily digest**: 4 tables wait for you.")
        assert set(map(int, re.findall(r"<#(\d+)>", text))) == mine
        for name in ("(Game night)", "(Second table)", "(Third table)"):
            assert name in text
        assert text.count("**Cube Conquest** in") == 4
        assert text.index(f"<#{second.id}>") < text.index(f"<#{first.id}>")  # time runs out
        # The turn time runs out on the clock that stops in Alice's quiet hours: 48 hours
        # of 13 a day from New Year's 09:00 in Paris, on 4 January at 18:00 in Paris.
        end = NEW_YEAR + 3 * DAY + 17 * HOUR
        assert text.count("the turn time runs out") == 1
        assert f"the turn time runs out <t:{int(end)}:R>" in text
        assert "your turn as alice" in text and "> **Since" in text
        # Nothing hidden from Alice: not Bob's hand, nor a line of his private events, in
        # the message, nor in her lines of that table at any length.
        assert hidden not in text
        assert not [line for line in theirs if line and line in text]
        found = await w.bot.service.digests.awaiting(alice.id)
        lines = next(a for a in found if a.channel_id == first.id).lines
        assert own in lines(2000) and hidden not in lines(2000)
        assert theirs and not [line for line in theirs if line and line in lines(2000)]

        # Four days: a digest a day at 09:00 Paris; no daily reminder for Alice's tables
        # without a turn time; the warnings at 80% and 95% of the turn time (never the
        # one at half). Bob, without a digest, is reminded daily.
        await env.advance_time(NEW_YEAR + 3 * DAY + 16 * HOUR - env.now().timestamp())
        days = digests(w, alice)
        assert [at(m) for m in days] == [due + n * DAY for n in range(4)]
        warned = reminders(w, alice)
        assert len(warned) == 2 and all(f"<#{second.id}>" in message_text(m) for m in warned)
        wait = WaitRow(0, 0, NEW_YEAR)
        player = await w.bot.service.clocks.player(alice.id)
        assert [at(m) for m in warned] == [
            pytest.approx(scheduler.clock_after(wait.since, 2 * DAY * f, player), abs=MINUTE)
            for f in (0.8, 0.95)]
        assert reminders(w, bob)

        # Off: no more digests, and the daily reminders come again.
        assert "is off" in said(await alice.slash(first, "me digest", at="off"))
        await env.advance_time(DAY)
        assert len(digests(w, alice)) == 4
        back = [m for m in reminders(w, alice)[2:]
                if f"<#{first.id}>" in message_text(m) or f"<#{third.id}>" in message_text(m)]
        assert back


async def test_a_digest_to_closed_dms_is_a_mention_at_most_once_a_day(tmp_path: Path
                                                                      ) -> None:
    async with world(tmp_path) as w:
        w.bot.service.images = False
        await table(w, w.channel, w.alice, w.bob, waits_for=w.alice)
        said(await w.alice.slash(w.channel, "me digest", at="8", timezone="UTC"))
        dm = w.alice.user.dm_channel
        w.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
        seen = len(w.public())
        await w.env.advance_time(3 * DAY + HOUR)
        mentions = [m for m in w.public()[seen:] if "it is your turn here" in message_text(m)]
        assert 1 <= len(mentions) <= 3
        assert all([u.id for u in m.mentions] == [w.alice.id] for m in mentions)
        times = [at(m) for m in mentions]
        assert all(b - a >= DAY for a, b in itertools.pairwise(times))
        # Recorded each day as sent (no retry): the last on 3 January, the next on the 4th.
        player = await w.bot.service.store.members.player(w.alice.id)
        assert player.digest_sent == NEW_YEAR + 2 * DAY + 8 * HOUR
        assert player.digest_due == NEW_YEAR + 3 * DAY + 8 * HOUR
