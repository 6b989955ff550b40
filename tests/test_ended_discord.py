"""A game ended while its channel waits for a retry (issue 36): every committed move and
the end are told, in order, and the old turn message's buttons come off; on SimCord, with
Discord's refusal injected, with and without a restart."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.test_discord import World, buttons, message_text, said, world
from tests.test_live_discord import MESSAGES, awaited, start

ALL = "/*"


async def step_not_shown(w: World, rng: random.Random) -> str:
    """A step whose channel message Discord fails (a 500 on its post or edit): the text of
    the move played, and what the mover was told."""
    w.env.inject_error("POST", MESSAGES.format(w.channel.id), status=500)
    w.env.inject_error("PATCH", MESSAGES.format(w.channel.id) + ALL, status=500)
    member, moves = next(iter((await awaited(w)).items()))
    move = rng.choice(moves)
    answer = said(await member.slash(w.channel, "play", action=move))
    w.env.backend.faults.clear()  # the one of the two the step did not meet
    return answer


@pytest.mark.parametrize("restart", [False, True], ids=["running", "after a restart"])
async def test_a_game_ended_while_a_step_waits_for_its_retry_is_told_in_order(
        tmp_path: Path, restart: bool) -> None:
    async with world(tmp_path) as w:
        await start(w, "cube-conquest")
        rng = random.Random(3)
        for _ in range(4):  # a few steps shown as usual
            member, moves = next(iter((await awaited(w)).items()))
            said(await member.slash(w.channel, "play", action=rng.choice(moves)))
        turn = w.public()[-1]
        assert buttons(turn)
        before = len(w.public())
        version = await w.version()
        answer = await step_not_shown(w, rng)
        assert "saved" in answer
        assert await w.version() == version + 1
        said(await w.alice.slash(w.channel, "game end"))
        assert "ended the game" not in message_text(w.public()[-1])  # not before the step
        if restart:
            await w.restart()
        await w.env.advance_time(120)  # the retry (30 s), or the restart, tells them
        shown = w.public()[before:]
        text = "\n".join(message_text(m) for m in shown)
        assert "ended the game of Cube Conquest" in text
        # The step first, then the end: the step's message comes before the end's.
        told = [message_text(m) for m in shown]
        last = next(i for i, t in enumerate(told) if "ended the game" in t)
        assert last == len(told) - 1 and "ended the game" not in "\n".join(told[:-1]) and (
            told[:-1] or "ended the game" in told[-1])
        assert text.count("ended the game") == 1
        # Nothing offers a move any more: the old turn message's buttons came off.
        assert not any(buttons(m) for m in w.public()[before - 1:])
        assert not buttons(next(m for m in w.public() if m.id == turn.id))
        await w.restart()  # told once: nothing is posted again
        assert len(w.public()) == before + len(shown)


async def test_a_game_the_rules_end_while_its_last_step_waits_is_told_after_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last fight of a game (Blue on 9 points) is refused by Discord (a 500): after a
    restart the channel is told the fight and the end, and the turn message before it
    offers no move any more."""
    from tests.test_cube_conquest import BLUE, GAME, RED, position

    def near_the_end(players: int, seed: int, options: object = None) -> object:
        return position(cubes={"b2": (BLUE, 1), "b3": (RED, 1), "a1": (BLUE, 1),
                               "e5": (RED, 1)}, points=[9, 0],
                        hands=[["crown", "drop", "drop", "drop"], ["drop", "hammers"]],
                        decks=[["drop", "crown", "arrow"] * 3] * 2)

    monkeypatch.setattr(GAME, "new", near_the_end)
    async with world(tmp_path) as w:
        await start(w, "cube-conquest")
        blue, red = w.alice, w.bob  # the opener sits first
        said(await blue.slash(w.channel, "play", action="attack b3 from b2"))
        said(await blue.slash(w.channel, "play", action="pick crown"))
        offering = [m for m in w.public() if buttons(m)]
        before = len(w.public())
        w.env.inject_error("POST", MESSAGES.format(w.channel.id), status=500)
        w.env.inject_error("PATCH", MESSAGES.format(w.channel.id) + ALL, status=500)
        assert "saved" in said(await red.slash(w.channel, "play", action="pick drop"))
        w.env.backend.faults.clear()
        assert len(w.public()) == before
        await w.restart()
        shown = [message_text(m) for m in w.public()[before:]]
        assert len(shown) == 1 and "Game over" in shown[0] and "10 points" in shown[0]
        # The turn message that offered moves (the fight's) offers none now.
        assert offering and "attacks from b2" in message_text(offering[-1])
        assert not buttons(next(m for m in w.public() if m.id == offering[-1].id))
