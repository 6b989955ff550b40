"""A first game, smooth (issue 38), end to end on SimCord: the start message says who starts
and how they were drawn and defines the words of the first turns; the first line to use a
term a topic explains names the topic, `/rules topic:...`, once per game, also after a
restart; shared topics speak of the game at hand with Discord's own commands."""

from __future__ import annotations

import random
import re
from pathlib import Path

import rules
from bot import rulebook
from bot.moves import Choices
from rules.guide import guide
from tests.test_discord import message_text, said, world

CITED = re.compile(r"`/rules topic:([^`]+)`")


def channel_text(w) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(message_text(m) for m in w.public())


async def test_the_start_says_who_starts_and_the_words_of_the_first_turns(tmp_path: Path
                                                                          ) -> None:
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        start = next(message_text(m) for m in w.public() if "Battle Tiles begins" in
                     message_text(m))
        first = (await w.awaited())[0]
        colour = "Red" if first is w.alice else "Blue"
        assert f"{colour} ({first.user.name}) starts: drawn at random." in start
        assert "north-east-south-west: a tile 4-2-5-3" in start
        assert "power tokens" in start and "with life" in start
        # the opening's own terms name their topics, as Discord asks for them
        assert "`/rules topic:piercer`" in start and "`/rules topic:tokens`" in start
        assert "rules piercer`" not in start.replace("/rules topic:", "")


async def test_a_line_names_a_topic_once_per_game_across_a_restart(tmp_path: Path) -> None:
    """Battle Tiles played at random: every topic named, on a line that uses one of its
    terms, once in the whole game, before and after a restart; nothing named in a DM."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        rng = random.Random(38)
        book = guide("battle-tiles")
        for turn in range(16):
            if turn == 8:
                await w.restart()
            awaited = await w.awaited()
            if not awaited:
                break
            member = awaited[0]
            said(await member.slash(w.channel, "play",
                                    action=rng.choice(await w.moves(member))))
        text = channel_text(w)
        named = CITED.findall(text)
        assert len(named) >= 4, text
        assert len(named) == len(set(named)), named  # once per game
        for line in text.splitlines():
            for key in CITED.findall(line):
                topic = book.find(key)
                assert topic is not None and any(
                    t.key == key for t in book.cites(CITED.sub("", line))), line
        for member in (w.alice, w.bob):  # never in private
            assert not any("/rules topic:" in message_text(m) for m in w.dms(member))
        asked = said(await w.carol.slash(w.channel, "rules", topic=named[0]))
        assert asked.startswith("**Battle Tiles: ")


async def test_shared_topics_speak_of_the_game_and_of_discord(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        for game_id in rules.GAMES:
            game = rules.GAMES[game_id]
            moves = said(await w.carol.slash(w.channel, "rules", game=game_id, topic="moves"))
            assert "`/play`" in moves and "`moves " not in moves and "terminal" not in moves
            found = rulebook.example(game_id)
            assert f"`{found.narrow}` narrows the {found.offered:,} moves there to the " \
                   f"{found.narrowed} that start so" in moves
            assert ("costs 2 crystals" in moves) == ("costs 2 crystals" in found.cost)
            computer = said(await w.carol.slash(w.channel, "rules", game=game_id,
                                                topic="computer"))
            assert "/game computer level:hard" in computer and "--level" not in computer
            assert "cards, tiles or stones" not in computer
            assert (game.hidden in computer) if game.hidden else "nothing is hidden" in computer
            board = said(await w.carol.slash(w.channel, "rules", game=game_id, topic="board"))
            assert "/board" in board and "`board text`" not in board
            assert "{" not in moves + computer + board


async def test_a_topics_example_narrows_the_real_list_on_discord(tmp_path: Path) -> None:
    """The moves topic's example, typed into /play at the point of the sample game it was
    drawn from, narrows the suggestions to exactly as many moves as it says."""
    for game_id in ("block-buster", "crystallia"):  # both at the very start
        found = rulebook.example(game_id)
        assert found.step == 0
        (tmp_path / game_id).mkdir()
        async with world(tmp_path / game_id) as w:
            said(await w.alice.slash(w.channel, "game new", game=game_id))
            said(await w.bob.slash(w.channel, "game join"))
            said(await w.alice.slash(w.channel, "game start"))
            member = (await w.awaited())[0]
            moves = await w.moves(member)
            assert len(Choices(moves).matching(found.narrow)) < len(moves)
            offered = await member.autocomplete(w.channel, "play", "action", found.narrow)
            assert offered and all(c["value"].startswith(found.narrow) for c in offered)
