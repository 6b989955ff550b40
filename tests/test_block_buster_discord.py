"""Block Buster in the Discord bot, end to end on SimCord: two members open a table, join,
start, and play a whole game through ``/play`` with seeded random legal moves."""

from __future__ import annotations

import random
from pathlib import Path

from tests.test_discord import fixed_deal, said, world  # noqa: F401 (fixed_deal: a fixture)


async def test_two_members_play_block_buster_to_the_end(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        assert "opened a table" in said(await w.alice.slash(w.channel, "game new",
                                                             game="block-buster"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        start = w.public()[-1]
        assert "Block Buster" in start.content
        assert start.attachments and start.attachments[0].filename == "board.png"
        assert (start.attachments[0].description or "").startswith("Block Buster, ")
        rng = random.Random(4)
        made, checked = 0, False
        while made < 200:
            awaited = [(m, moves) for m in w.players if (moves := await w.moves(m))]
            if not awaited:
                break
            assert len(awaited) == 1  # one colour places at a time
            member, moves = awaited[0]
            if not checked:  # autocomplete narrows to the block typed first
                offered = [c["value"] for c in
                           await member.autocomplete(w.channel, "play", "action", "5L")]
                assert offered and all(o.startswith("5l ") for o in offered)
                checked = True
            move = rng.choice(moves)
            before = await w.version()
            answer = said(await member.slash(w.channel, "play", action=move))
            assert await w.version() == before + 1, answer
            made += 1
        assert made >= 8 and not await w.moves(w.alice) and not await w.moves(w.bob)
        end = w.public()[-1]
        assert "Game over" in end.content and not end.components, end.content
        assert "game over" in said(await w.carol.slash(w.channel, "board"))
