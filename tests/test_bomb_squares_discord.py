"""Bomb Squares through the Discord bot on SimCord: two members play a whole game with /play.

To keep it to seconds the game is played to 9 crystals instead of 75 (the rules read the
target when crystals change), and each move is a random one of the service's legal moves
that a player pressing on would make (no sales, shopping or do-overs).
The channel must never name a mint tin card before it is played.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules.bomb_squares import KINDS
from rules.bomb_squares import state as bs_state
from tests.test_discord import buttons, fixed_deal, message_text, said, world

__all__ = ["fixed_deal"]  # the autouse fixture: every game here is dealt from one seed
ASIDE = ("sell", "landmine", "tower", "airplane", "unmine", "redraw", "reroll", "switch",
         "second", "keep", "card", "arm", "from", "buy")


async def test_two_members_play_a_whole_bomb_squares_game(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(bs_state, "TO_WIN", 9)
    async with world(tmp_path) as w:
        assert "opened a table" in said(await w.alice.slash(w.channel, "game new",
                                                             game="bomb-squares"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        assert any("Bomb Squares begins" in message_text(m) for m in w.public()[-3:])
        rng = random.Random(1)
        made = 0
        verbs: set[str] = set()
        while made < 300:
            awaited = [(m, moves) for m in w.players if (moves := await w.moves(m))]
            if not awaited:
                break
            member, moves = rng.choice(awaited)
            assert len(moves) < 200, "autocomplete lists stay short"
            verbs |= {m.split()[0] for m in moves}
            move = rng.choice([m for m in moves if not m.startswith(ASIDE)] or moves)
            before = await w.version()
            answer = await member.slash(w.channel, "play", action=move)
            assert await w.version() >= before + 1, f"{move!r} was not played: {said(answer)}"
            made += 1
        assert made < 300, "the game did not end"
        assert {"draw", "place", "meeple", "bomb"} <= verbs
        end = w.public()[-1]
        assert "Game over" in message_text(end) and not buttons(end)
        assert end.attachments and end.attachments[0].filename == "board.png"
        assert "Bomb Squares" in (end.attachments[0].description or "")
        for message in w.public():
            assert "You draw" not in message_text(message)
            for kind in KINDS:
                assert f"buy a '{kind}'" not in message_text(message)
        assert "over" in said(await w.alice.slash(w.channel, "play", action="draw"))
        text = said(await w.alice.slash(w.channel, "rules", game="bomb-squares"))
        assert "Bomb Squares" in text


async def test_the_next_player_moves_on_from_a_sale_without_answering_it(tmp_path: Path
                                                                          ) -> None:
    """Issue 38: at a sale the next player's own first move answers 'no buy' for them. The
    suggestions offer it beside 'buy' and 'no buy', saying what it does, and /play draw
    answers the sale and draws in one command."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="bomb-squares"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        (seller,) = await w.awaited()
        assert "sell" in await w.moves(seller), "the fixed deal lets the first player sell"
        said(await seller.slash(w.channel, "play", action="sell"))
        (buyer,) = await w.awaited()
        assert buyer is not seller
        offered = await buyer.autocomplete(w.channel, "play", "action", "")
        names = [c["name"] for c in offered]
        assert names[0] == "no buy" and "buy · costs 1 crystal" in names
        assert "draw · buys nothing at this sale" in names
        before = await w.version()
        said(await buyer.slash(w.channel, "play", action="draw"))
        assert await w.version() == before + 1  # one command, one version
        text = " ".join(message_text(m) for m in w.public()[-2:])
        assert "does not buy." in text and "draws a square card." in text
        assert await w.awaited() == [buyer]
