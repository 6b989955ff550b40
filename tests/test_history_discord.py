"""Looking back, end to end on SimCord: ``/games``, ``/log [count]``, ``/since`` and the
reminder DM that carries the digest. Every answer is ephemeral, pings nobody, and shows a
member only what their seat may see (a spectator the public events alone).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from bot.history import PRIVATE
from bot.scheduler import DAY, HOUR
from tests.test_discord import (
    World,
    assert_nothing_secret_public,
    choose,
    message_text,
    play_on,
    said,
    seat_two,
    world,
)


def private_lines(w: World, member: Any) -> set[str]:
    """The lines of the member's DMs that tell them their private events ('You draw ...')."""
    return {line for m in w.dms(member) for line in message_text(m).splitlines()[1:]
            if message_text(m).startswith("In <#")}


def numbered(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"^`#(\d+)`", text, re.M)]


async def test_the_commands_are_there(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        assert {"games", "log", "since"} <= set(w.alice.available_commands(w.channel))


def whole_log(result: Any) -> str:
    """/log's answer, and the messages after it where one would not hold it all: each to
    the asker alone, each Discord's length at most."""
    parts = [said(result), *(m.content for m in result.followups)]
    assert all(m.ephemeral for m in result.followups)
    assert all(len(part) <= 2000 for part in parts) and len(parts) <= 5
    return "\n".join(parts)


async def test_log_shows_each_member_what_their_seat_may_see(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        await play_on(w, random.Random(7), limit=12)
        seen = len(w.public())
        version = await w.version()
        logs = {m.name: whole_log(await m.slash(w.channel, "log", count=25))
                for m in (w.alice, w.bob, w.carol)}
        assert len(w.public()) == seen  # nothing reached the channel
        for text in logs.values():
            # The move that made version v is move v - 1, as the board counts them.
            assert numbered(text)[-1] == version - 1
            assert numbered(text) == list(range(numbered(text)[0], version))
        # A spectator reads the public events only.
        assert "as everyone sees them" in logs["carol"]
        assert PRIVATE not in logs["carol"].split("\n", 1)[1]
        for member, other in ((w.alice, w.bob), (w.bob, w.alice)):
            mine = logs[member.name]
            # Their own private events are there, marked; the other's never are.
            own = {line for line in private_lines(w, member) if line.startswith("You draw")}
            assert own and any(f"{PRIVATE} {line}" in mine for line in own)
            # The other's lines, less any that reads word for word like one of the member's
            # own (both chose a crown: 'You chose crown (5).'), which no text can tell
            # apart; the mover's own view may come with their answer instead of a DM.
            own_told = {line.split(f"{PRIVATE} ", 1)[1] for line in mine.splitlines()
                        if f"{PRIVATE} " in line}
            theirs = private_lines(w, other) - private_lines(w, member) - own_told
            assert theirs and not [line for line in theirs if line in mine]
            assert not [line for line in theirs if line in logs["carol"]]
        # Fewer moves when asked.
        assert len(numbered(said(await w.carol.slash(w.channel, "log", count=3)))) == 3
        # The default is ten, less any the message cannot hold, which it says.
        default = whole_log(await w.carol.slash(w.channel, "log"))
        left = re.search(r"\((\d+) earlier moves? left out to fit\.\)", default)
        assert len(numbered(default)) + (int(left[1]) if left else 0) == min(
            10, version - 1)
        assert_nothing_secret_public(w)


async def test_since_says_what_happened_since_your_last_move(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        rng = random.Random(3)
        await play_on(w, rng, limit=6)
        mover = (await w.awaited())[0]
        other = next(m for m in w.players if m is not mover)
        said(await mover.slash(w.channel, "play",
                               action=choose(w, mover, await w.moves(mover), rng)))
        mark = await w.version()
        await w.env.advance_time(2 * HOUR)
        for _ in range(8):  # the other side plays on while the mover is away
            if mover in await w.awaited():
                break
            member = (await w.awaited())[0]
            said(await member.slash(w.channel, "play",
                                    action=choose(w, member, await w.moves(member), rng)))
        result = await mover.slash(w.channel, "since")
        text = said(result)
        assert text.startswith(f"**Since your last move** (`#{mark - 1}`, <t:")
        assert numbered(text) == list(range(mark, await w.version()))
        assert f"\nNow: you are {mover.name} (" in text
        if mover in await w.awaited():
            assert text.endswith("It is your turn.")
        assert result.response is not None and result.response.attachments  # their hand
        theirs = private_lines(w, other) - private_lines(w, mover)
        assert not [line for line in theirs if line in text]
        assert "no seat" in said(await w.carol.slash(w.channel, "since"))


async def test_games_lists_your_tables_your_turn_first(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        second = w.guild.create_text_channel("crystallia")
        said(await w.bob.slash(second, "game new", game="crystallia"))
        said(await w.alice.slash(second, "game join"))
        said(await w.bob.slash(second, "game start"))
        await seat_two(w)
        said(await w.alice.slash(w.channel, "game settings", turn_time="2d"))
        started = w.env.now().timestamp()
        mover = (await w.awaited())[0]
        await w.env.advance_time(HOUR)
        text = said(await mover.slash(w.channel, "games"))
        lines = text.splitlines()
        assert lines[0].startswith("Your tables in this server: 2, your turn at")
        here = next(line for line in lines if f"<#{w.channel.id}>" in line)
        assert here.startswith(f"\u2022 <#{w.channel.id}> Cube Conquest: **your turn** "
                               "since <t:")
        since = int(re.findall(r"since <t:(\d+):R>", here)[0])
        assert abs(since - started) < 60
        assert here.endswith(f"; the turn time runs out <t:{since + 2 * 86400}:R>.")
        turns = ["**your turn**" in line for line in lines[1:]]
        assert turns == sorted(turns, reverse=True)  # the caller's turns first
        assert f"<#{second.id}> Crystallia" in text
        assert "You have no tables" in said(await w.carol.slash(w.channel, "games"))
        # Only the caller's own tables, and never a mention that pings.
        assert not re.search(r"<@!?\d+>", text)


async def test_a_reminder_dm_carries_the_digest(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        await play_on(w, random.Random(5), limit=9)
        late = (await w.awaited())[0]
        other = next(m for m in w.players if m is not late)
        await w.env.advance_time(DAY + HOUR)
        sent = [m for m in w.dms(late) if message_text(m).startswith("It is your turn")]
        assert len(sent) == 1
        reminder = message_text(sent[0])
        assert len(reminder) <= 2000 and not sent[0].mentions
        head, digest = reminder.split("\n\n", 1)
        assert f"<#{w.channel.id}>" in head
        assert digest.startswith(("**Since your last move**", "**Since the game began**"))
        assert f"\nNow: you are {late.name} (" in digest
        assert digest == said(await late.slash(w.channel, "since"))
        theirs = private_lines(w, other) - private_lines(w, late)
        assert not [line for line in theirs if line in reminder]
        assert_nothing_secret_public(w)
