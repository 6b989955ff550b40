"""Crystallia through the Discord bot on SimCord: two members play a whole game with /play.

The only hidden thing in Crystallia is the face-down back row of the pyramid; the channel
must never name a stone before it is turned face up.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import rules
from rules.crystallia import CrystalliaState, shape, stone_name
from tests.test_discord import World, buttons, fixed_deal, message_text, said, world

__all__ = ["fixed_deal"]  # the autouse fixture: every game here is dealt from one seed

GAME = rules.GAMES["crystallia"]
SEED = 20261121  # what ``fixed_deal`` makes /game start use


def first_words(moves: list[str]) -> set[str]:
    return {m.split()[0] for m in moves}


async def test_two_members_play_a_whole_crystallia_game(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        assert "opened a table" in said(await w.alice.slash(w.channel, "game new",
                                                             game="crystallia"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        assert any("Crystallia begins" in message_text(m) for m in w.public()[-3:])
        deal = GAME.new(2, SEED)
        rng = random.Random(11)
        made = 0
        verbs: set[str] = set()
        while made < 400:
            awaited = [(m, moves) for m in w.players if (moves := await w.moves(m))]
            if not awaited:
                break
            assert len(awaited) == 1, "one player acts at a time"
            member, moves = awaited[0]
            verbs |= first_words(moves)
            move = rng.choice(moves)
            before = await w.version()
            answer = await member.slash(w.channel, "play", action=move)
            assert await w.version() >= before + 1, f"{move!r} was not played: {said(answer)}"
            made += 1
        assert made < 400, "the game did not end"
        assert {"take", "place"} <= verbs
        end = w.public()[-1]
        assert "Game over" in message_text(end) and not buttons(end)
        assert end.attachments and end.attachments[0].filename == "board.png"
        assert "Crystallia" in (end.attachments[0].description or "")
        assert_no_stone_named_before_it_is_face_up(w, deal)
        # after the end, /play says the game is over
        assert "over" in said(await w.alice.slash(w.channel, "play", action="take 1"))


def assert_no_stone_named_before_it_is_face_up(w: World, deal: CrystalliaState) -> None:
    """A back-row stone is named in public only once it was turned face up, and as it was
    dealt; at least one was taken, so the check is not empty."""
    revealed: set[int] = set()
    taken_from_the_back = 0
    for message in w.public():
        text = message_text(message) + " " + " ".join(a.description or "" for a in
                                                message.attachments)
        # in the order they are told: a turn's message may turn a stone up, then (a
        # second turn) take it
        for found in re.finditer(r"takes stone (\d+) \(|Stone (\d+) is turned face up: "
                                 r"(\S+)\.", text):
            taken, turned, name = found.groups()
            if taken is not None and shape(deal).face_down[int(taken) - 1]:
                assert int(taken) in revealed, f"stone {taken} was named while face down"
                taken_from_the_back += 1
            if turned is not None:
                assert name == stone_name(deal.pyramid[int(turned) - 1])
                revealed.add(int(turned))
    assert taken_from_the_back


async def test_a_computers_long_ability_chain_is_told_in_short_with_every_line_in_the_log(
        tmp_path: Path) -> None:
    """Issue 38: a computer's turn of over 25 lines (an ability chain) filled the channel.
    The channel tells it in short (the game's own summary) and says how many lines there
    were and where to read them: ``/log`` and ``/game replay`` keep every line."""
    # The computer's turns think for seconds of real time on a loaded machine: SimCord
    # waits up to 15 s (not 5) for the bot to settle after a command.
    async with world(tmp_path, settle_timeout=15.0) as w:
        said(await w.alice.slash(w.channel, "game new", game="crystallia"))
        said(await w.alice.slash(w.channel, "game computer", level="normal"))
        said(await w.alice.slash(w.channel, "game start"))
        rng = random.Random(4)  # with this deal, Ann's 27th move brings a long chain
        folded: list[str] = []
        for _ in range(60):
            moves = await w.moves(w.alice)
            assert moves, "the game ended before the computer's long turn"
            await w.alice.slash(w.channel, "play", action=rng.choice(moves))
            folded = [message_text(m) for m in w.public() if "told in short" in
                      message_text(m)]
            if folded:
                break
        assert len(folded) == 1
        found = re.search(r"\(Computer 1's (\d+) moves, (\d+) lines, told in short: `/log "
                          r"count:(\d+)` lists them, and `/game replay move:(\d+)` steps "
                          r"through them one by one\.\)", folded[0])
        assert found, folded[0]
        moves_made, lines, count, first = map(int, found.groups())
        assert lines > 25 and count == moves_made
        told = [line for line in folded[0].splitlines() if line.startswith("Computer 1")]
        assert len(told) < lines and "Computer 1 takes stone" in folded[0]
        assert "Computer 1 uses the abilities they covered: " in folded[0]
        # what the channel left out is in the log, move by move, every one of the run's
        # moves whole (in more than one message where one would not hold them), to Ann alone
        asked = await w.alice.slash(w.channel, "log", count=count)
        parts = [said(asked)] + [m.content for m in asked.followups]
        assert all(m.ephemeral for m in asked.followups)
        assert all(len(part) <= 2000 for part in parts)
        log = "\n".join(parts)
        assert "Computer 1 covered the" in log and "Computer 1 covered the" not in folded[0]
        assert "left out to fit" not in log and f"the last {count} of" in parts[0]
        for number in range(first, first + count):
            assert f"#{number}" in log, number
        replayed = said(await w.alice.slash(w.channel, "game replay", move=first))
        assert f"#{first}" in replayed and "Computer 1" in replayed
