"""Direct messages end to end on SimCord: each member's DM channel is opened once and kept
(no look-up of the member before a DM, none opened again after a restart), and a member
whose DMs are closed costs one refused request, then none until a day passes or they are
back with /hand. The mover's own view, which tells them nothing their answer does not,
goes with that answer and their next turn's DM rather than a DM of its own."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import rules
from bot.scheduler import DAY
from tests.test_battle_tiles_discord import SEED, hand_line
from tests.test_discord import World, fixed_deal, message_text, said, seat_two, world

__all__ = ["fixed_deal"]  # the autouse fixture: every game here is dealt from one seed
TILES = rules.GAMES["battle-tiles"]

NOTICE = "could not send a direct message"


def requests(w: World, method: str, pattern: str) -> int:
    """How many of the bot's REST calls so far were ``method`` on a path starting so."""
    return sum(1 for e in w.env.http_requests
               if e.method == method and e.path.split("?")[0].startswith(pattern))


def sends_to(w: World, member: Any) -> int:
    """The bot's tries to post in the member's DM channel (refused ones too)."""
    return requests(w, "POST", f"/channels/{member.user.dm_channel.id}/messages")


async def play(w: World, rng: random.Random, moves: int) -> None:
    """``moves`` moves by /play (never /hand); the game must last that long. Pictures
    off: they change no request here, and drawing them is most of a move's time."""
    w.bot.service.images = False
    for _ in range(moves):
        awaited = [(m, legal) for m in w.players if (legal := await w.moves(m))]
        assert awaited, "the game ended too soon for the test"
        member, legal = rng.choice(awaited)
        move = rng.choice(legal)  # at random: a long game
        before = await w.version()
        said(await member.slash(w.channel, "play", action=move))
        assert await w.version() > before


async def test_dms_look_up_nobody_and_open_each_channel_once_across_a_restart(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        rng = random.Random(3)
        await play(w, rng, 8)
        opened = requests(w, "POST", "/users/@me/channels")
        assert opened == 2 and all(w.dms(m) for m in w.players)
        await w.restart()
        before = {m.id: len(w.dms(m)) for m in w.players}
        await play(w, rng, 8)
        assert all(len(w.dms(m)) > before[m.id] for m in w.players)  # DMs go on
        assert requests(w, "POST", "/users/@me/channels") == opened  # not opened again
        assert requests(w, "GET", "/users/") == 0  # no look-up of a member, ever


async def test_a_kept_dm_channel_discord_no_longer_knows_is_opened_anew_once(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        rng = random.Random(4)
        await play(w, rng, 4)
        await w.restart()  # the channel kept in the database is the one tried first
        dm = w.alice.user.dm_channel
        w.env.inject_error("POST", f"/channels/{dm.id}/messages", status=404, code=10003,
                           message="Unknown Channel", times=1)
        opened, count = requests(w, "POST", "/users/@me/channels"), len(w.dms(w.alice))
        while len(w.dms(w.alice)) == count:
            await play(w, rng, 1)
        assert requests(w, "POST", "/users/@me/channels") == opened + 1
        assert not any(NOTICE in message_text(m) for m in w.public())


async def test_closed_dms_are_tried_once_then_after_a_day_or_after_hand(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        dm = w.bob.user.dm_channel
        w.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
        await seat_two(w)
        rng = random.Random(11)
        await play(w, rng, 8)
        assert sends_to(w, w.bob) == 1  # one refused request, then none
        assert sum(NOTICE in message_text(m) for m in w.public()) == 1
        await w.restart()  # the refusal is kept: no new try after a restart either
        await play(w, rng, 4)
        assert sends_to(w, w.bob) == 1
        # A day later (the bot's clock) a DM is tried again: one more refused request.
        await w.env.advance_time(DAY + 60)
        while sends_to(w, w.bob) == 1:
            await play(w, rng, 1)
        assert sends_to(w, w.bob) == 2
        await play(w, rng, 4)
        assert sends_to(w, w.bob) == 2
        # Bob allows DMs again and uses /hand: his next private news reaches him by DM.
        w.env.backend.faults.clear()
        hand = said(await w.bob.slash(w.channel, "hand"))
        assert "refused my last direct message" in hand
        assert "refused" not in said(await w.bob.slash(w.channel, "hand"))  # said once
        while not w.dms(w.bob):
            await play(w, rng, 1)
        assert sends_to(w, w.bob) == 3 and w.dms(w.bob)
        assert requests(w, "GET", "/users/") == 0


async def test_the_movers_own_view_comes_with_the_answer_and_again_at_their_turn(
        tmp_path: Path) -> None:
    """Battle Tiles: a move changes the mover's hand alone (a tile placed, one drawn). The
    answer to the move shows it, and no DM of its own goes for it; when the mover's turn
    comes again, their newest DM shows the hand they hold, with the tile drawn."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        state = TILES.new(2, SEED)
        rng = random.Random(6)
        checked = 0
        for _ in range(6):
            ((member, moves),) = [(m, legal) for m in w.players if (legal := await w.moves(m))]
            seat, count = w.players.index(member), len(w.dms(member))
            move = rng.choice(moves)
            result = await member.slash(w.channel, "play", action=move)
            state, _ = TILES.play(state, seat, move)
            assert result.response is not None and "You draw" in said(result)
            assert hand_line(state, seat) in (result.response.attachments[0].description or "")
            if await w.moves(member):
                continue  # still their turn
            assert len(w.dms(member)) == count  # no DM for their own move
            ((other, _),) = [(m, legal) for m in w.players if (legal := await w.moves(m))]
            newest = [m for m in w.dms(other) if m.attachments][-1]
            assert hand_line(state, 1 - seat) in (newest.attachments[0].description or "")
            checked += 1
        assert checked >= 4



async def test_a_turns_dm_edited_for_new_buttons_shows_the_table_as_it_stands(
        tmp_path: Path) -> None:
    """A phone player's audit (Crystallia): a step of one's own turn edited the turn's DM
    with new buttons ('gain red', ...) under the picture of the turn's start ('take a
    stone'). An edit that brings buttons but no picture of its own draws the view as it
    stands (or takes the old one off)."""
    def alt(message: Any) -> str:
        return (message.attachments[0].description or "").split(" Points")[0]

    async with world(tmp_path) as w:
        await seat_two(w, "crystallia")
        rng, checked = random.Random(1), 0
        for _ in range(40):
            awaited = [(m, mv) for m in w.players if (mv := await w.moves(m))]
            if not awaited:
                break
            member, moves = awaited[0]
            said(await member.slash(w.channel, "play", action=rng.choice(moves)))
            board = next(m for m in reversed(w.public()) if m.attachments)
            for m in w.players:
                dm = w.dms(m)[-1] if w.dms(m) else None
                if dm is not None and dm.components and dm.attachments and await w.moves(m):
                    assert alt(dm) == alt(board), (message_text(dm), alt(dm), alt(board))
                    checked += 1
            if checked >= 2:
                break
        assert checked >= 2


async def test_closed_dms_are_told_in_the_channel_once_however_often_hand_is_used(
        tmp_path: Path) -> None:
    """A phone player's audit: Bob, his DMs closed, used /hand at each of his turns, as the
    channel's notice says; each /hand let one DM be tried (refused), and a turn with no DM
    to send counted as one that got through, so the notice came again, pinging him, turn
    after turn. It comes once; a refused try after /hand is all it costs."""
    async with world(tmp_path) as w:
        dm = w.bob.user.dm_channel
        w.env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
        await seat_two(w, "crystallia")
        rng = random.Random(3)
        for _ in range(12):
            ((member, moves), *_) = [(m, mv) for m in w.players if (mv := await w.moves(m))]
            if member is w.bob:
                said(await w.bob.slash(w.channel, "hand"))
            said(await member.slash(w.channel, "play", action=rng.choice(moves)))
        assert sum(NOTICE in message_text(m) for m in w.public()) == 1
        assert sends_to(w, w.bob) > 2  # each /hand let one DM be tried
