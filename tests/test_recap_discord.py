"""Recaps and ratings end to end on SimCord: two members play a whole game of Battle Tiles
with /play; its last post carries the recap (the score broken down, the game's length, the
rating change) with the chart of points over the game attached under the board; /rank then
shows the server's table for the game, best first, names escaped, pinging nobody."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import discord
from PIL import Image

from bot import ratings
from bot.discord.cogs.ranks import which
from tests.test_discord import fixed_deal, message_text, said, world

__all__ = ["fixed_deal"]  # the autouse fixture: every game here is dealt from one seed

NICK = "**Dave** <@1> @everyone"  # a nickname of markdown and mentions


def pinged(env: Any, message: discord.Message) -> set[int]:
    """Whom Discord (simulated) pinged with a message, after its allowed mentions."""
    return set(env.backend.get_message(message.channel.id, message.id).ping_user_ids)


async def test_a_whole_game_ends_with_its_recap_and_counts_for_rank(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        dave = w.guild.add_member(w.env.create_user("dave"), nick=NICK)
        assert said(await w.carol.slash(w.channel, "rank")) == which()
        assert "Nobody has a rating at Battle Tiles" in said(
            await w.carol.slash(w.channel, "rank", game="battle-tiles"))

        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        said(await dave.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        players = [w.alice, dave]
        rng = random.Random(3)
        for _ in range(200):
            awaited = [(m, moves) for m in players if (moves := await w.moves(m))]
            if not awaited:
                break
            member, moves = awaited[0]
            said(await member.slash(w.channel, "play", action=rng.choice(moves)))
        end = w.public()[-1]
        assert "Game over" in message_text(end) and "Recap:" in message_text(end)
        assert [a.filename for a in end.attachments] == ["board.png", "recap.png",
                                                          "game.gif"]
        chart = end.attachments[1]
        assert (chart.description or "").startswith("Points over ")
        with Image.open(io.BytesIO(await chart.read())) as picture:
            assert picture.width == 1000 and picture.height <= 1250
        # The whole game animated: one frame for the deal and one a turn (a short game:
        # none left out), each as wide as a phone shows it well.
        gif = end.attachments[2]
        assert gif.description == "The whole game, the board after each turn."
        with Image.open(io.BytesIO(await gif.read())) as animation:
            assert animation.format == "GIF" and animation.width == 600
            assert 2 <= animation.n_frames <= 64
        rated = await w.bot.service.store.tables.ratings(w.guild.id, "battle-tiles")
        assert {r.user_id for r in rated} == {w.alice.id, dave.id}
        assert all(r.games == 1 for r in rated)
        assert "Rated (openskill's ordinal" in message_text(end)
        recap_lines = message_text(end)[message_text(end).index("Recap:"):]
        assert "• alice (Red):" in recap_lines or "• alice (Blue):" in recap_lines
        assert "<@1>" not in message_text(end) and "@everyone" not in message_text(end)
        assert pinged(w.env, end) == set()

        # /rank: this channel's game, best first; the same with the game named, anywhere
        table = said(await w.carol.slash(w.channel, "rank"))
        assert table.startswith("**Battle Tiles** ratings in this server")
        best, second = ratings.ranking(rated)
        lines = table.splitlines()[1:]
        names = {w.alice.id: "alice", dave.id: "\\*\\*Dave\\*\\* \\<@\u200b1> @\u200beveryone"}
        assert lines[0].startswith(f"1. {names[best.user_id]}: {ratings.shown(best):.1f}")
        assert lines[1].startswith(f"2. {names[second.user_id]}: {ratings.shown(second):.1f}")
        assert "<@1>" not in table and "@everyone" not in table
        other = w.guild.create_text_channel("elsewhere")
        assert said(await w.carol.slash(other, "rank", game="battle-tiles")) == table
        assert said(await w.carol.slash(other, "rank")) == which()
        assert "Nobody has a rating at Cube Conquest" in said(
            await w.carol.slash(w.channel, "rank", game="cube-conquest"))
