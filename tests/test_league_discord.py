"""Leagues end to end on SimCord (issue 40): the league's commands, its Join button, its
message edited after every result and its tables opened in threads go through the
simulated Discord; the moves of the games are made through the service (every move through
SimCord would take minutes) and marked delivered, so what Discord shows is the league's
part. Time is SimCord's clock (a round's deadline passes in a moment)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import discord

from bot import leagues
from bot.discord.cogs.leagues import Leagues as LeagueCog
from bot.leagues import ranking
from tests.test_discord import World, message_text, said, world
from tests.test_league_service import play

DAY = 86400.0


def cog(w: World) -> LeagueCog:
    """The league cog (after a restart, of the module the new bot loaded again)."""
    found: Any = w.bot.get_cog("Leagues")
    assert type(found).__name__ == LeagueCog.__name__
    return found  # type: ignore[no-any-return]


def league_message(w: World) -> Any:
    """The league's message in its channel (the sign-up, then the standings), found
    apart from the notices of threads created (which name the league too)."""
    found = [m for m in w.public() if m.content.startswith(("League 1", "**alice** opens"))]
    assert len(found) == 1, [m.content[:60] for m in found]
    return found[0]


async def play_to_the_end(w: World, thread: int, rng: random.Random,
                          limit: int = 10**6) -> bool:
    """Random legal moves through the service (each reply marked delivered, the last one
    delivered on SimCord), up to ``limit``; whether the game ended. The league's part (its
    message, the next round's threads) then goes through SimCord."""
    service = w.bot.service
    service.images = False  # the moves' pictures are not what this test looks at
    await play(service, thread, rng, limit, last=w.bot.desk.deliver)  # the end: on Discord
    await cog(w).idle()
    await w.env.settle()
    return not await service.waiting(thread)


async def round_threads(w: World, seen: set[int]) -> list[Any]:
    threads = [t for t in w.channel.threads if t.id not in seen]
    seen.update(t.id for t in threads)
    return threads


async def test_a_round_robin_of_six_over_five_rounds(tmp_path: Path) -> None:
    # A round's tables open in one settling (SimCord waits up to 15 s on a loaded machine).
    async with world(tmp_path, settle_timeout=15.0) as w:
        members = [w.alice, w.bob, w.carol] + [
            w.guild.add_member(w.env.create_user(name)) for name in ("dave", "erin", "frank")]
        frank = members[-1]
        opened = said(await w.alice.slash(w.channel, "league new", game="battle-tiles",
                                          format="round-robin", rounds=5, round="7d"))
        assert "open for sign-up" in opened
        signup = league_message(w)
        assert "Join with the button below" in message_text(signup)
        for member in members:
            assert "signed up for league 1" in said(await member.click(signup, label="Join"))
        assert "Signed up (6)" in message_text(league_message(w))
        assert "Only **alice**" in said(await w.bob.slash(w.channel, "league start"))
        said(await w.alice.slash(w.channel, "league start"))
        await w.env.settle()
        rng = random.Random(11)
        seen: set[int] = set()
        service = w.bot.service
        for round_ in range(1, 6):
            threads = await round_threads(w, seen)
            expected = 3 if round_ < 4 else 2  # frank's games are forfeits from round 4
            assert len(threads) == expected, round_
            for thread in threads:
                assert f"round {round_}" in (thread.name or "")
                assert any("starts by itself" in message_text(m) for m in thread.history())
            if round_ == 2:  # one table runs past the deadline, and plays on
                first, late = threads[0], threads[1:]
                for thread in threads[2:]:
                    assert await play_to_the_end(w, thread.id, rng)
                assert not await play_to_the_end(w, late[0].id, rng, limit=2)
                assert await play_to_the_end(w, first.id, rng)
                await w.env.advance_time(8 * DAY)
                await cog(w).due(w.bot.now())  # the scheduler's job for leagues
                await cog(w).idle()
                assert "play on" in message_text(league_message(w))
                assert await round_threads(w, seen) == []  # the round waits for it
                assert await play_to_the_end(w, late[0].id, rng)
                continue
            if round_ == 3:  # frank withdraws mid-round: his table is a forfeit
                refused = said(await w.bob.slash(w.channel, "league withdraw", player=frank,
                                                 then="forfeit"))
                assert "Only **alice**" in refused
                assert "forfeited" in said(await w.alice.slash(
                    w.channel, "league withdraw", player=frank, then="forfeit"))
            if round_ == 4:  # a restart in the middle of the round
                assert await play_to_the_end(w, threads[0].id, rng)
                await w.restart()
                await w.env.settle()
                for thread in threads[1:]:
                    assert await play_to_the_end(w, thread.id, rng)
                continue
            for thread in threads:
                assert await play_to_the_end(w, thread.id, rng)

        row, held = await service.leagues.held(1)
        assert row.status == "over" and held.league is not None
        assert len(held.league.rounds) == 5
        forfeits = [r for r in held.league.results if r.forfeited]
        assert len(forfeits) == 3  # round 3 (mid-round), 4 and 5
        # The standings, as the message and /league standings show them, agree with the
        # results: points by place from every recorded table.
        points = {e.number: Fraction(0) for e in held.league.entries}
        for result in held.league.results:
            for player, got in zip(result.players, ranking.points_by_place(result.places),
                                   strict=True):
                points[player] += got
        table = leagues.standings(held.league)
        assert {r.entry: r.points for r in table.rows} == points
        answer = await w.carol.slash(w.channel, "league standings")
        text = said(answer)
        shown = await service.leagues.standings(1)
        for line, row_ in zip(shown.text.splitlines(), shown.picture["rows"], strict=True):
            assert line.startswith(f"{row_['rank']}. {row_['name']}")
            assert f": {row_['figures'][0]} point" in line
            assert line in text
        assert "is over" in text and "frank" in text and "(withdrawn)" in text
        files = answer.response.attachments
        assert len(files) == 1 and files[0].filename == "league-1.png"
        assert files[0].description and "league 1" in files[0].description
        assert league_message(w).attachments  # the channel's message has the picture too
        assert "League 1: **Battle Tiles**, round-robin, over" in said(
            await w.bob.slash(w.channel, "league list"))
        assert "rank" in said(await frank.slash(w.channel, "me leagues"))
        # Every table's thread is archived once its game is over (the threads' Keeper).
        for thread in w.channel.threads:
            fetched = await w.bot.fetch_channel(thread.id)
            assert isinstance(fetched, discord.Thread) and fetched.archived


async def test_a_swiss_of_nine_at_three_player_tables_with_the_organisers_tools(
        tmp_path: Path) -> None:
    # The slower of the two (about 14 s on a loaded machine): nine tables of three-player
    # Crystallia played to the end at random (its rules' own time, about 2 s, and the
    # tables' waits), and a table played out by three computer players. The computer that
    # plays it out plays easy: it answers at once. The deadline's play-out is one settling
    # of seconds of CPU: SimCord waits up to 15 s (not 5) on a loaded machine.
    async with world(tmp_path, level="easy", settle_timeout=15.0) as w:
        members = [w.alice, w.bob, w.carol] + [
            w.guild.add_member(w.env.create_user(name))
            for name in ("dave", "erin", "frank", "gina", "hugo", "ines")]
        ivan = w.guild.add_member(w.env.create_user("ivan"))
        said(await w.alice.slash(w.channel, "league new", game="crystallia", format="swiss",
                                 rounds=3, round="3d", players=3, deadline="stand-in",
                                 turn_time="1d"))
        signup = league_message(w)
        for member in members:
            said(await member.click(signup, label="Join"))
        said(await members[8].click(signup, label="Leave"))
        assert "Signed up (8)" in message_text(league_message(w))
        said(await members[8].click(signup, label="Join"))
        said(await w.alice.slash(w.channel, "league start"))
        await w.env.settle()
        rng = random.Random(4)
        seen: set[int] = set()
        service = w.bot.service

        # Round 1: the organiser pauses and resumes (every table's clock stops meanwhile);
        # a player whose table has ended is replaced before round 2.
        threads = await round_threads(w, seen)
        assert len(threads) == 3
        assert "Only **alice**" in said(await w.bob.slash(w.channel, "league pause"))
        assert "is paused" in said(await w.alice.slash(w.channel, "league pause"))
        await cog(w).idle()
        assert await service.next_due() is None  # no turn clock runs, nor the round
        await w.env.advance_time(5 * DAY)
        assert "resumes" in said(await w.alice.slash(w.channel, "league resume"))
        await cog(w).idle()
        assert await play_to_the_end(w, threads[0].id, rng)
        game = await service.store.tables.latest_game(threads[0].id)
        assert game is not None
        leaving = next(s.user_id for s in await service.store.seats.of(game.id)
                       if s.user_id is not None)
        leaver = next(m for m in members if m.id == leaving)
        assert "takes over" in said(await w.alice.slash(w.channel, "league replace",
                                                        player=leaver, by=ivan))
        for thread in threads[1:]:
            assert await play_to_the_end(w, thread.id, rng)

        # Round 2: ivan plays in his place; one table runs past the deadline and the
        # computer plays it out at once.
        threads = await round_threads(w, seen)
        assert len(threads) == 3
        assert any("ivan" in (t.name or "") for t in threads)
        for thread in threads[1:]:
            assert await play_to_the_end(w, thread.id, rng)
        assert not await play_to_the_end(w, threads[0].id, rng, limit=1)
        # The bot's one loop runs the league's job (kind 'league') at the deadline.
        await w.env.advance_time(4 * DAY)
        await cog(w).idle()
        await w.env.settle()
        assert not await service.waiting(threads[0].id)

        # Round 3, then the standings.
        threads = await round_threads(w, seen)
        assert len(threads) == 3
        for thread in threads:
            assert await play_to_the_end(w, thread.id, rng)
        row, held = await service.leagues.held(1)
        assert row.status == "over" and held.league is not None
        assert len(held.league.results) == 9
        assert all(len(r.players) == 3 for r in held.league.results)
        table = leagues.standings(held.league)
        assert table.columns == ("Buchholz", "Sonneborn-Berger")
        assert sum(r.points for r in table.rows) == Fraction(27, 2)  # 9 tables x 1.5
        text = message_text(league_message(w))
        shown = await service.leagues.standings(1)
        assert shown.text in text and "is over" in text
        assert [r["name"] for r in shown.picture["rows"]] == [
            line.split(": ")[0].split(". ", 1)[1] for line in shown.text.splitlines()]
        assert "ended early" not in said(await w.alice.slash(w.channel, "league list"))
        assert "not under way" in said(await w.alice.slash(w.channel, "league end"))


async def test_a_table_whose_opening_stopped_after_its_thread_opens_in_that_thread(
        tmp_path: Path, caplog: Any) -> None:
    """The process stops between making a round table's thread and opening the table in
    it: after a restart the table opens in that thread, not in a second one."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "league new", game="battle-tiles",
                                 format="round-robin", rounds=1, round="7d"))
        for member in (w.alice, w.bob):
            said(await member.click(league_message(w), label="Join"))

        async def stopped(*_: Any) -> Any:
            raise RuntimeError("the process stops here")
        w.bot.service.leagues.seat = stopped  # type: ignore[method-assign]
        said(await w.alice.slash(w.channel, "league start"))
        await cog(w).idle()
        await w.env.settle()
        (thread,) = w.channel.threads
        assert await w.bot.service.game_of(thread.id) is None  # made, and nothing in it
        assert "Could not open table 0 of round 1" in caplog.text
        await w.env.advance_time(120)  # the claim has expired
        await w.restart()
        await cog(w).idle()
        await w.env.settle()
        assert [t.id for t in w.channel.threads] == [thread.id]
        assert await w.bot.service.waiting(thread.id)  # the table runs there
        (row,) = await w.bot.service.store.leagues.boards(1, 1)
        assert row.channel_id == thread.id and row.game_id is not None
