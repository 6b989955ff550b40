"""Battle Tiles through the Discord bot on SimCord: two members play a whole game with /play.

Hands are hidden: each member must get their own hand by DM, as a picture numbered the way
moves name the tiles, and no hand may ever show in the channel.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import render
import rules
from tests.test_discord import buttons, fixed_deal, message_text, said, world

__all__ = ["fixed_deal"]  # the autouse fixture: every game here is dealt from one seed

GAME = rules.GAMES["battle-tiles"]
SEED = 20261121  # what ``fixed_deal`` makes /game start use
HAND = re.compile(r"Your hand: [^.]*\.")


def hand_line(state: object, seat: int) -> str:
    """How a seat's hand is said in the summary of its private picture."""
    found = HAND.search(render.summary("battle-tiles", GAME.view(state, seat)))
    assert found
    return found.group(0)


async def test_two_members_play_a_whole_battle_tiles_game(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        assert "opened a table" in said(await w.alice.slash(w.channel, "game new",
                                                             game="battle-tiles"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        assert any("Battle Tiles begins" in message_text(m) for m in w.public()[-3:])
        state = GAME.new(2, SEED)  # the same game, followed move by move
        hands: list[set[str]] = [{hand_line(state, 0)}, {hand_line(state, 1)}]
        rng = random.Random(5)
        made = 0
        while made < 200:
            awaited = [(m, moves) for m in w.players if (moves := await w.moves(m))]
            if not awaited:
                break
            assert len(awaited) == 1, "one player acts at a time"
            member, moves = awaited[0]
            seat = w.players.index(member)
            legal, costs = GAME.legal_moves(state, seat), GAME.costs(state, seat)
            # free moves first, then those that spend a power token, each in the game's order
            assert moves == [m for m in legal if m not in costs] + [m for m in legal
                                                                   if m in costs]
            powered = [m for m in moves if " with " in m]
            move = rng.choice(powered if powered and rng.random() < 0.4 else moves)
            before = await w.version()
            answer = await member.slash(w.channel, "play", action=move)
            assert await w.version() == before + 1, f"{move!r} was not played: {said(answer)}"
            state, _ = GAME.play(state, seat, move)
            for s in (0, 1):
                hands[s].add(hand_line(state, s))
            made += 1
        assert 24 <= made < 200 and GAME.outcome(state) is not None
        end = w.public()[-1]
        assert "Game over" in message_text(end) and not buttons(end)
        assert end.attachments and end.attachments[0].filename == "board.png"
        assert "Battle Tiles" in (end.attachments[0].description or "")
        # Each hand reached its own player privately, as a picture with its summary.
        for seat, member in enumerate(w.players):
            said_in_dm = [a.description or "" for m in w.dms(member) for a in m.attachments
                          if a.filename == "hand.png"]
            assert len(said_in_dm) >= 10, "the hand is sent again as it changes"
            for line in said_in_dm:
                found = HAND.search(line)
                assert found and found.group(0) in hands[seat], line
            assert any("You draw" in message_text(m) for m in w.dms(member))
        # ... and never in the channel: no hand, no drawn tile, no hand picture.
        every_hand = hands[0] | hands[1]
        for message in w.public():
            text = message_text(message) + " ".join(a.description or ""
                                                    for a in message.attachments)
            assert "Your hand" not in text and "You draw" not in text
            assert not any(line in text for line in every_hand)
            assert all(a.filename in ("board.png", "recap.png", "game.gif")  # recap: the game's end
                       for a in message.attachments)
        assert "over" in said(await w.alice.slash(w.channel, "play", action="place 1 at a1"))


async def test_the_dm_that_starts_a_turn_shows_the_table_as_it_stands(tmp_path: Path) -> None:
    """A player's own move showed them their hand in its answer; the DM that starts their
    next turn says so, and its picture is the table as it stands then (the other player's
    move on it, as /hand draws it), not the one their own move left them."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        rng, checked = random.Random(3), 0
        for _ in range(12):
            (member, moves), = [(m, mv) for m in w.players if (mv := await w.moves(m))]
            other = next(m for m in w.players if m is not member)
            before = len(w.dms(other))
            said(await member.slash(w.channel, "play", action=rng.choice(moves)))
            started = [d for d in w.dms(other)[before:] if d.attachments]
            if not started or not await w.moves(other):
                continue
            dm = started[-1]
            hand = await other.slash(w.channel, "hand")
            assert hand.response is not None and hand.response.attachments
            assert dm.content.startswith("Your turn in "), dm.content
            assert dm.attachments[0].description == hand.response.attachments[0].description
            checked += 1
        assert checked >= 4


async def test_the_second_player_s_first_turn_begins_with_a_dm(tmp_path: Path) -> None:
    """Every later turn began with a DM (the view the player's own move left them), but
    the second player's first one did not: nothing was owed to them yet."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        (first,) = [m for m in w.players if await w.moves(m)]
        (second,) = [m for m in w.players if m is not first]
        seen = len(w.dms(second))
        said(await first.slash(w.channel, "play", action=(await w.moves(first))[0]))
        assert await w.moves(second)
        new = w.dms(second)[seen:]
        assert len(new) == 1 and message_text(new[0]).startswith("Your turn in ")
