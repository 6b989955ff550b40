"""What a careless moderator or a mischievous member cannot make the bot do, on SimCord.

A button from an earlier game plays nothing in the new one; a nickname made of mentions and
markdown pings nobody and reads as written; every message names whom it may ping; bad
option text and very long moves get a short sentence with the hint kept.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import service as service_module
from bot.app import create_bot
from bot.store import Store
from tests import contract
from tests.test_discord import buttons, labels, message_text, said

SEED = 20261121


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module.secrets, "randbelow", lambda _n: SEED)
    monkeypatch.delenv("DISCORD_GUILD", raising=False)


@asynccontextmanager
async def guild(tmp_path: Path, alice_nick: str | None = None, bob_nick: str | None = None
                ) -> AsyncIterator[tuple[Any, Any, Any, Any, Any]]:
    """(env, channel, alice, bob, carol) on a fresh database; Carol only watches."""
    store = await Store.open(str(tmp_path / "h.db"), flush_delay=0)
    try:
        async with contract.run(create_bot(store),
                               approved_intents=discord.Intents.none()) as env:
            place = env.create_guild("Game night")
            channel = place.create_text_channel("games")
            carol = place.add_member(env.create_user("carol"))
            nick = None if alice_nick is None else alice_nick.replace("CAROL", str(carol.id))
            alice = place.add_member(env.create_user("alice"), nick=nick)
            bob = place.add_member(env.create_user("bob"), nick=bob_nick)
            yield env, channel, alice, bob, carol
    finally:
        await store.close()


async def open_and_start(channel: Any, alice: Any, bob: Any) -> None:
    said(await alice.slash(channel, "game new", game="cube-conquest"))
    said(await bob.slash(channel, "game join"))
    said(await alice.slash(channel, "game start"))


def dm_with_buttons(member: Any) -> discord.Message:
    return next(m for m in reversed(member.user.dm_channel.history()) if buttons(m))


async def version(env: Any, channel: Any) -> tuple[int, int]:
    status = await env.bot.service.status(channel.id)
    return status.game, status.version


async def first_mover(env: Any, channel: Any, *members: Any) -> Any:
    for member in members:
        if await env.bot.service.legal_moves(channel.id, member.id):
            return member
    raise AssertionError("nobody is awaited")


async def test_a_button_from_an_earlier_game_plays_nothing_in_the_new_one(tmp_path: Path
                                                                          ) -> None:
    async with guild(tmp_path) as (env, channel, alice, bob, _carol):
        await open_and_start(channel, alice, bob)
        mover = await first_mover(env, channel, alice, bob)
        old = dm_with_buttons(mover)  # the first placement, in game 1 at version 1
        old_labels = labels(old)
        assert old_labels and all(label.startswith("place ") for label in old_labels)
        # A game's end takes its DM buttons off; a restart in between forgets which DMs
        # carry some (they are remembered in memory), so an old one may stay pressable.
        env.bot.desk.delivery._asked.clear()
        said(await alice.slash(channel, "game end"))
        await open_and_start(channel, alice, bob)
        assert await first_mover(env, channel, alice, bob) is mover  # the same deal
        game, at = await version(env, channel)
        assert at == 1  # the new game is at the version the old button names
        fresh = dm_with_buttons(mover)
        assert fresh.id != old.id
        answer = said(await mover.user.click(old, label=old_labels[-1]))
        assert answer.startswith("That button is from an earlier game in this channel")
        assert await version(env, channel) == (game, at)  # nothing was played
        assert "Your choices now:" in answer
        # The fresh buttons play exactly what they show.
        move = labels(fresh)[0]
        played = said(await mover.user.click(fresh, label=move))
        assert played == f"Played '{move}'."
        assert await version(env, channel) == (game, at + 1)
        # The mover's own DM of this turn was edited, not sent again: its buttons now
        # carry the current step, so pressing one plays a move of that step.
        now = dm_with_buttons(mover)
        assert now.id == fresh.id
        ids = [c.custom_id for row in now.components for c in row.children]  # type: ignore[union-attr]
        assert ids and all(f":{game}:{at + 1}:" in str(i) for i in ids), ids


async def test_a_games_end_takes_its_dm_buttons_off(tmp_path: Path) -> None:
    """A DM's buttons stayed pressable under a finished game, which the DM never told."""
    async with guild(tmp_path) as (env, channel, alice, bob, _carol):
        await open_and_start(channel, alice, bob)
        mover = await first_mover(env, channel, alice, bob)
        old = dm_with_buttons(mover)
        said(await alice.slash(channel, "game end"))
        ended = next(m for m in mover.user.dm_channel.history() if m.id == old.id)
        assert not buttons(ended)
        assert "the game is over; its result is in" in message_text(ended)


def pinged(env: Any, message: discord.Message) -> set[int]:
    """Whom Discord (simulated) pinged with a message, after its allowed mentions."""
    return set(env.backend.get_message(message.channel.id, message.id).ping_user_ids)


async def test_a_nickname_of_mentions_and_markdown_pings_nobody(tmp_path: Path) -> None:
    async with guild(tmp_path, alice_nick="<@CAROL> **M**", bob_nick="[Bob](https://e.co)"
                     ) as (env, channel, alice, bob, carol):
        await open_and_start(channel, alice, bob)
        for _ in range(6):  # a few placements, each pinging whoever is next
            for member in (alice, bob):
                moves = await env.bot.service.legal_moves(channel.id, member.id)
                if moves:
                    said(await member.slash(channel, "play", action=moves[0]))
        posts = channel.history()
        assert len(posts) > 8
        assert any(f"\\<@\u200b{carol.id}> \\*\\*M\\*\\* (Blue)" in message_text(post)
                   for post in posts)
        assert any("\\[Bob\\](https://e.co) (Red)" in message_text(post) for post in posts)
        awaited_ever = {alice.id, bob.id}
        for post in posts:
            assert carol.id not in pinged(env, post), message_text(post)
            assert pinged(env, post) <= awaited_ever
            turn = [line for line in message_text(post).splitlines()
                    if line.startswith(("Your turn, ", "Waiting for "))]
            if not turn:
                assert pinged(env, post) == set(), message_text(post)
        for member in (alice, bob):
            for dm in member.user.dm_channel.history():
                assert pinged(env, dm) == set()
        # /hand's summary names the players as the channel does: escaped, no mention pill
        hand = said(await alice.slash(channel, "hand"))
        assert f"<@{carol.id}>" not in hand and "**M**" not in hand, hand
        assert f"\\<@\u200b{carol.id}> \\*\\*M\\*\\*" in hand, hand


async def test_bad_option_text_gets_a_sentence_naming_the_option(tmp_path: Path) -> None:
    async with guild(tmp_path) as (_env, channel, alice, _bob, _carol):
        for options, sentence in (
                ("x=²", "Cube Conquest has no option 'x'; it has none."),
                ("advanced=²", "Cube Conquest has no option 'advanced'; it has none."),
                ("advanced=" + "9" * 6000, "Cube Conquest has no option 'advanced'")):
            answer = said(await alice.slash(channel, "game new", game="cube-conquest",
                                            options=options))
            assert answer.startswith(sentence), answer
        for options, sentence in (
                ("advanced=²", "The option 'advanced' is a switch"),
                ("advanced=" + "9" * 6000, "The option 'advanced' is a switch"),
                ("advanced=x", "The option 'advanced' is a switch")):
            answer = said(await alice.slash(channel, "game new", game="crystallia",
                                            options=options))
            assert answer.startswith(sentence), answer
            assert len(answer) < 200
        assert not channel.history()  # nothing was opened


async def test_a_huge_move_is_refused_short_with_the_hint(tmp_path: Path) -> None:
    async with guild(tmp_path) as (env, channel, alice, bob, _carol):
        await open_and_start(channel, alice, bob)
        mover = await first_mover(env, channel, alice, bob)
        before = await version(env, channel)
        answer = said(await mover.slash(channel, "play", action="place " + "b1" * 3000))
        assert re.match(r"That is too long for a move \(6,006 characters\)\. Place a "
                        r"starting cube on your edge, the \w+ edge \([^)]+\), e\.g\. 'place ",
                        answer), answer
        assert len(answer) < 200
        answer = said(await mover.slash(channel, "play", action="frobnicate" * 9))
        assert len(answer) < 200 and "e.g. 'place " in answer
        assert "frobnicate" * 3 not in answer
        assert await version(env, channel) == before


async def test_a_surface_command_typed_as_a_move_points_to_the_command(tmp_path: Path) -> None:
    """'undo' or 'help' typed in /play is no move of any game: the answer names the command
    that does it, then what to type now, and nothing changes."""
    async with guild(tmp_path) as (env, channel, alice, bob, _carol):
        await open_and_start(channel, alice, bob)
        mover = await first_mover(env, channel, alice, bob)
        before = await version(env, channel)
        answer = said(await mover.slash(channel, "play", action="undo"))
        assert answer.startswith("'undo' is not a move: /game undo asks the table to take your "
                                 "last move back. Place a starting cube on your edge"), answer
        answer = said(await mover.slash(channel, "play", action="Help"))
        assert answer.startswith("'help' is not a move: /rules game:cube-conquest gives the "
                                 "game's guide."), answer
        assert await version(env, channel) == before


async def test_what_was_typed_is_quoted_escaped_in_a_refusal(tmp_path: Path) -> None:
    """A move or an option of markdown and mentions is quoted as typed, escaped as names
    are: neither formatting nor a mention pill; the sentence's own words are left as
    they are, and nothing changes."""
    async with guild(tmp_path) as (env, channel, alice, bob, carol):
        await open_and_start(channel, alice, bob)
        mover = await first_mover(env, channel, alice, bob)
        before = await version(env, channel)
        answer = said(await mover.slash(channel, "play", action=f"frob <@{carol.id}>"))
        assert f"'\\<@\u200b{carol.id}>'" in answer and f"<@{carol.id}>" not in answer, answer
        answer = said(await mover.slash(channel, "play", action="place _b1_"))
        assert answer.startswith("I don't know '\\_b1\\_'. Place a starting cube on your "
                                 "edge"), answer
        assert answer.endswith("e.g. 'place c5'.") or "e.g. 'place " in answer, answer
        assert await version(env, channel) == before
        answer = said(await carol.slash(channel, "rules", game="crystallia", topic="**x**"))
        assert "'\\*\\*x\\*\\*'" in answer and "'**x**'" not in answer, answer
        answer = said(await carol.slash(channel, "rules", game="crystallia",
                                        topic="x__" * 40))  # quoted cut short, still escaped
        assert "'x\\_\\_x" in answer and "…'" in answer and "x__" not in answer, answer
