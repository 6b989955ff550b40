"""``/game undo`` end to end on SimCord: the request pings exactly the players asked, its
Agree and Refuse buttons answer that request only (an old one does nothing once the game
moved on or a newer request replaced it), a request outlives a restart and runs out on the
simulated clock, and a move that uncovered something is refused with a sentence."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest

import rules
from bot import undo
from bot.scheduler import DAY, MINUTE
from bot.service.table import decode
from tests.test_discord import World, buttons, labels, message_text, said, world
from tests.test_hardening_discord import pinged

SEED = 20261121
UNDO_ID = re.compile(r"br:undo:\d+:\d+:\d+:[0-9a-f]{12}:(yes|no)")


@pytest.fixture(autouse=True)
def fixed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.secrets.randbelow", lambda _n: SEED)
    monkeypatch.delenv("DISCORD_GUILD", raising=False)


async def two_at(w: World, game: str) -> None:
    """Alice opens ``game``, Bob joins, Alice starts; Carol only watches."""
    said(await w.alice.slash(w.channel, "game new", game=game))
    said(await w.bob.slash(w.channel, "game join"))
    said(await w.alice.slash(w.channel, "game start"))


async def first_move(w: World) -> tuple[Any, Any, str]:
    """The awaited player makes their first legal move: (them, the other, the move)."""
    mover = (await w.awaited())[0]
    move = (await w.moves(mover))[0]
    said(await mover.slash(w.channel, "play", action=move))
    return mover, (w.bob if mover is w.alice else w.alice), move


async def ask(w: World, member: Any) -> discord.Message:
    """``member`` asks to take back their move; the request posted in the channel."""
    answer = said(await member.slash(w.channel, "game undo"))
    assert answer.startswith("Your request is posted"), answer
    request = w.public()[-1]
    assert labels(request) == ["Agree", "Refuse"]
    assert all(UNDO_ID.fullmatch(b.custom_id or "") for b in buttons(request))
    return request


def fresh(w: World, message: discord.Message) -> discord.Message:
    """The message as the channel shows it now (after any edit)."""
    return next(m for m in w.public() if m.id == message.id)


async def test_the_other_player_agrees_with_a_button(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await two_at(w, "block-buster")
        mover, other, move = await first_move(w)
        at = await w.version()
        assert "no move in this game" in said(await other.slash(w.channel, "game undo"))
        assert "no seat" in said(await w.carol.slash(w.channel, "game undo"))
        assert await w.version() == at

        request = await ask(w, mover)
        assert f"<@{other.id}>" in message_text(request)
        assert "asks to take back their move 1" in message_text(request)
        assert pinged(w.env, request) == {other.id}  # the player asked, nobody else
        assert "Only" in said(await w.carol.click(request, label="Agree"))
        assert "You asked" in said(await mover.click(request, label="Agree"))
        assert await w.version() == at

        assert said(await other.click(request, label="Agree")) == (
            "You agreed, and the move is taken back.")
        assert await w.version() == at + 1
        board = w.public()[-1]
        assert "takes back move 1: the board is as it was before." in message_text(board)
        assert board.attachments and board.attachments[0].filename == "board.png"
        assert pinged(w.env, board) == {mover.id}  # their turn again
        assert move in await w.moves(mover) and not await w.moves(other)
        assert not buttons(fresh(w, request))  # answered: its buttons are gone
        # The move and the undo both stay in the log.
        row = await w.bot.service.store.tables.latest_game(w.channel.id)
        assert row is not None
        logged = [m.text for m in await w.bot.service.store.tables.moves(row.id)]
        assert logged[-2:] == [move, "undo 2"]


async def test_a_refusal_and_an_old_button_after_the_game_moved_on(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await two_at(w, "block-buster")
        mover, other, _ = await first_move(w)
        request = await ask(w, mover)
        assert said(await other.click(request, label="Refuse")) == (
            "You refused; the move stands.")
        assert "refuses" in message_text(w.public()[-1])
        assert pinged(w.env, w.public()[-1]) == set()
        assert not buttons(fresh(w, request))

        again = await ask(w, mover)  # asked again: a new request
        reply_move = (await w.moves(other))[0]
        said(await other.slash(w.channel, "play", action=reply_move))
        at = await w.version()
        stale = said(await other.click(again, label="Agree"))
        assert "out of date" in stale
        assert await w.version() == at
        assert "has moved since your move 1" in said(await mover.slash(w.channel,
                                                                       "game undo"))
        assert await w.version() == at


async def test_a_request_outlives_a_restart_and_runs_out(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await two_at(w, "block-buster")
        mover, other, move = await first_move(w)
        first = await ask(w, mover)
        await w.restart()
        await w.env.advance_time(DAY - MINUTE)
        assert "already asked" in said(await mover.slash(w.channel, "game undo"))
        await w.env.advance_time(MINUTE)
        assert "nobody answered in time" in said(await other.click(first, label="Agree"))
        second = await ask(w, mover)
        assert "replaced by a newer one" in said(await other.click(first, label="Agree"))
        await w.restart()
        said(await other.click(second, label="Agree"))
        assert "takes back move 1" in message_text(w.public()[-1])
        assert move in await w.moves(mover)


async def test_a_reveal_cannot_be_taken_back(tmp_path: Path) -> None:
    """Crystallia turns a face-down stone up when the stone in front of it is taken: such a
    take is refused with the reason, and nothing is posted or written."""
    async with world(tmp_path) as w:
        await two_at(w, "crystallia")
        store = w.bot.service.store
        rng = random.Random(3)
        for _ in range(200):
            mover = (await w.awaited())[0]
            row = await store.tables.latest_game(w.channel.id)
            assert row is not None and row.state is not None
            game = rules.GAMES[row.game]
            state = decode(game, row.state)
            seat = 0 if mover is w.alice else 1
            moves = await w.moves(mover)
            reveals = [m for m in moves if m.startswith("take")  # (why_not plays each)
                       and undo.why_not(game, state, seat, m) == undo.HIDDEN]
            said(await mover.slash(w.channel, "play", action=rng.choice(reveals or moves)))
            if reveals:
                break
        else:
            raise AssertionError("no take turned a stone face up")
        assert "turned face up" in message_text(w.public()[-1])
        posts, at = len(w.public()), await w.version()
        refusal = said(await mover.slash(w.channel, "game undo"))
        assert refusal == f"Your move {at - 1} can't be taken back: {undo.reason(undo.HIDDEN)}."
        assert len(w.public()) == posts and await w.version() == at
