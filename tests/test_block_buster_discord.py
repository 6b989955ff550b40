"""Block Buster in the Discord bot, end to end on SimCord: two members open a table, join,
start, and play a whole game through ``/play`` with seeded random legal moves."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from tests.test_discord import buttons, fixed_deal, message_text, said, world  # noqa: F401 (fixed_deal: a fixture)


async def test_two_members_play_block_buster_to_the_end(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        assert "opened a table" in said(await w.alice.slash(w.channel, "game new",
                                                             game="block-buster"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        start = w.public()[-1]
        assert "Block Buster" in message_text(start)
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
            assert await w.version() >= before + 1, answer  # (and any forced step)
            made += 1
        assert made >= 8 and not await w.moves(w.alice) and not await w.moves(w.bob)
        end = w.public()[-1]
        assert "Game over" in message_text(end) and not buttons(end), message_text(end)
        assert "game over" in said(await w.carol.slash(w.channel, "board"))


async def test_special_two_player_game_names_each_player_once_with_their_colours(
        tmp_path: Path) -> None:
    """Through the service: a seat playing two colours is named by its player's name, and
    the result names the winner once, with only their own colours."""
    from bot.service import TableService
    from bot.store import Store

    store = await Store.open(str(tmp_path / "s.db"))
    try:
        service = TableService(store, images=False)
        await service.open(7, 1, 101, "Ann", "block-buster", {"variant": "special-2p"})
        await service.join(7, 102, "Bob")
        await service.start(7, 101, seed=5)
        rng = random.Random(5)
        lines: list[str] = []
        while waiting := await service.waiting(7):
            user = waiting[0][0]
            reply = await service.play(7, user, rng.choice(await service.legal_moves(7, user)))
            lines.append(reply.public)
        assert any(line.startswith(("Blue (Ann) places", "Red (Bob) places")) for line in lines)
        last = lines[-1].splitlines()
        end = next(line for line in last if line.startswith("Game over"))
        if end.startswith("Game over. "):  # the game's own line said why, just before
            end = next(line for line in last if line.startswith("The game ends"))
        colours = {"Ann": "Blue and Yellow", "Bob": "Red and Green"}
        winner = next(name for name in colours if f"{name} ({colours[name]})" in end)
        loser = next(name for name in colours if name != winner)
        reason = end.split(" Final score: ")[0]
        assert reason.count(winner) == 1 and loser not in reason, end
        assert "Ann and Ann" not in end and "Bob and Bob" not in end
    finally:
        await store.close()


async def test_each_turn_brings_the_player_their_blocks_without_a_dm_for_their_own_move(
        tmp_path: Path) -> None:
    """Nothing is hidden in Block Buster, yet the blocks a player places from come with
    each of their turns: the DM that starts it carries their picture (the board and their
    blocks still to place), and the answer to their move shows the blocks left, with no
    DM of its own; one DM a move in all, to the player whose turn begins."""
    import rules
    from tests.test_discord import SEED

    game = rules.GAMES["block-buster"]
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="block-buster"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        state = game.new(2, SEED)  # the same game, followed move by move

        def blocks(seat: int) -> str:
            return "Your blocks: " + ", ".join(b.upper() for b in state.blocks[seat]) + "."

        rng = random.Random(8)
        for _ in range(6):
            ((member, moves),) = [(m, legal) for m in w.players if (legal := await w.moves(m))]
            seat = w.players.index(member)
            other = w.players[1 - seat]
            turn = w.dms(member)[-1]  # the DM their turn began with: their picture
            assert message_text(turn).startswith("Your turn in <#"), message_text(turn)
            assert turn.attachments and blocks(seat) in (turn.attachments[0].description or "")
            # two parts (the board, then their blocks), each saying which it is
            assert [(a.description or "").rsplit(" (Picture ", 1)[-1]
                    for a in turn.attachments] == ["1 of 2: the table.)",
                                                   "2 of 2: your part, under the table.)"]
            count, waiting = len(w.dms(member)), len(w.dms(other))
            move = rng.choice(moves)
            version = await w.version()
            result = await member.slash(w.channel, "play", action=move)
            said(result)
            state, _ = game.play(state, seat, move)
            assert await w.version() == version + 1  # no step the table made for someone
            assert result.response is not None and result.response.attachments
            assert blocks(seat) in (result.response.attachments[0].description or "")
            assert len(w.dms(member)) == count  # no DM for their own move
            assert len(w.dms(other)) == waiting + 1  # their turn's DM, with their blocks


async def test_a_colour_playing_on_alone_gets_its_blocks_with_the_answer_to_each_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once Red has passed for good, Blue places turn after turn, awaited all along: the
    answer to each of Blue's moves still shows the blocks it left them (their turn's DM is
    edited as before, with no DM of its own), and Red is sent nothing."""
    from tests.test_block_buster import BLUE, GAME, RED, RING_E5, position

    held = dict.fromkeys(RING_E5[:6], BLUE) | dict.fromkeys(RING_E5[6:9], RED)
    dealt = position(squares=held, previous=[["e6"], ["e7"]], turn=RED,
                     blocks=[["5i", "2i", "1i"], []])  # Red has none left: it passes
    monkeypatch.setattr(GAME, "new", lambda players, seed, options=None: copy.deepcopy(dealt))
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="block-buster"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        assert not await w.moves(w.bob)
        for left in ("2I, 1I", "1I"):
            moves = [m for m in await w.moves(w.alice) if m != "pass"]
            assert moves
            mine, theirs = len(w.dms(w.alice)), len(w.dms(w.bob))
            result = await w.alice.slash(w.channel, "play", action=moves[0])
            said(result)
            assert not await w.moves(w.bob) and await w.moves(w.alice)  # still Blue's turn
            assert result.response is not None and result.response.attachments
            shown = result.response.attachments[0]
            assert f"Your blocks: {left}." in (shown.description or ""), shown.description
            assert len(w.dms(w.alice)) == mine and len(w.dms(w.bob)) == theirs
            turn = w.dms(w.alice)[-1]  # the DM of their turn, edited: the same picture
            assert f"Your blocks: {left}." in (turn.attachments[0].description or "")
