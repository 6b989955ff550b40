"""Learning a game at the table, end to end on SimCord: ``/rules`` and its topics, moves that
narrow and say what they cost, the board as text."""

from __future__ import annotations

import random
import re
from pathlib import Path

import rules
from bot import rulebook
from rules.guide import guide
from tests.test_discord import buttons, fixed_deal, message_text, said, seat_two, world  # noqa: F401

GAMES = [game.name for game in rules.GAMES.values()]


async def test_rules_lists_every_game_with_its_player_count(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        text = said(await w.carol.slash(w.channel, "rules"))
        assert len(text) <= 2000
        for game in rules.GAMES.values():
            assert f"**{game.name}** (`{game.id}`, {game.players()})" in text
        assert "(`bomb-squares`, 2-4 players)" in text and "(`battle-tiles`, 2 players)" in text
        assert "easy" in text and "hard" in text  # the computer levels, said once


async def test_rules_in_a_table_s_channel_names_its_game(tmp_path: Path) -> None:
    """'This channel's table: Settings: ...' named no game, and sat on top of another
    game's guide when one was asked for."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="block-buster"))
        text = said(await w.carol.slash(w.channel, "rules"))
        assert text.startswith("This channel's table plays **Block Buster**. ")
        assert "(`crystallia`, " in text  # still every game, as /rules is
        other = said(await w.carol.slash(w.channel, "rules", game="crystallia"))
        assert "This channel's table" not in other and "Crystallia" in other


async def test_a_topic_is_asked_for_and_offered_as_typed(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        offered = await w.carol.autocomplete(w.channel, "rules", "topic", "de",
                                             game="battle-tiles")
        assert {"name": "death: The death token", "value": "death"} in offered \
            or any(c["value"] == "death" for c in offered)
        text = said(await w.carol.slash(w.channel, "rules", game="battle-tiles",
                                        topic="death"))
        assert text.startswith("**Battle Tiles: ") and "death" in text.lower()
        assert "not a move I understand" not in text and len(text) <= 2000
        missing = said(await w.carol.slash(w.channel, "rules", game="battle-tiles",
                                           topic="frobnicate"))
        assert "has no topic 'frobnicate'" in missing and "Topics (" in missing
        # In a channel with a table, the topic is of that table's game.
        await seat_two(w)
        offered = await w.carol.autocomplete(w.channel, "rules", "topic", "")
        keys = [t.key for t in guide("cube-conquest").topics]
        assert [c["value"] for c in offered] == keys[:25]
        text = said(await w.carol.slash(w.channel, "rules", topic=keys[0]))
        assert text.startswith("**Cube Conquest: ")


def test_every_page_of_every_guide_fits_one_message() -> None:
    for game_id in rules.GAMES:
        pages = [rulebook.page(game_id, None, ask="`/rules topic:`")]
        pages += [rulebook.page(game_id, t.key, ask="`/rules topic:`")
                  for t in guide(game_id).topics]
        for page in pages:
            assert 0 < len(page) <= 2000, (game_id, page[:80])
        assert "Topics (" in pages[0]  # the overview names topics to ask for next


async def test_moves_narrow_and_a_start_of_a_move_is_told_what_follows(
        tmp_path: Path) -> None:
    """Block Buster's 2,000 moves: /play's suggestions group them by the next word with
    counts; each word typed narrows; a group sent as it is gets a sentence, changes
    nothing; 'Your moves' lists the groups."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="block-buster"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        member = (await w.awaited())[0]
        moves = await w.moves(member)
        assert len(moves) > 500
        typed = ""
        seen: list[list[str]] = []
        while True:
            offered = await member.autocomplete(w.channel, "play", "action", typed)
            names = [c["name"] for c in offered]
            assert 0 < len(offered) <= 25 and names not in seen
            seen.append(names)
            groups = [c for c in offered if re.search(r" … \d+ moves$", c["name"])]
            if not groups:
                break
            assert all(c["name"].startswith(c["value"]) for c in groups)
            assert all(len(c["value"]) > len(typed) for c in groups)
            typed = groups[0]["value"]
        assert len(seen) >= 2  # it narrowed at least once
        assert all(c["value"] in moves for c in offered)
        before = await w.version()
        told = said(await member.slash(w.channel, "play", action=seen[0][0].split(" … ")[0]))
        assert "is only the start of" in told and await w.version() == before
        turn = next(m for m in reversed(w.public()) if buttons(m))
        listed = said(await member.click(turn, label="Your moves"))
        assert f"You have {len(moves)} possible moves" in listed
        assert re.search(r"• `\S+ … \d+ moves`", listed)


async def test_a_costly_move_says_its_cost_in_suggestions_and_buttons(tmp_path: Path
                                                                      ) -> None:
    """Block Buster: a placement that skips spaces is listed after the free ones with its
    cost; playing it says what it cost."""
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="block-buster"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        rng = random.Random(2)
        for _ in range(60):
            member = (await w.awaited())[0]
            choices = await w.bot.service.choices(w.channel.id, member.id)
            if choices.costs:
                break
            said(await member.slash(w.channel, "play", action=rng.choice(choices.moves)))
        assert choices.costs, "no costly move came up"
        costly = next(iter(choices.costs))
        free = [m for m in choices.moves if m not in choices.costs]
        assert choices.moves[: len(free)] == free  # free ones first
        offered = await member.autocomplete(w.channel, "play", "action", costly)
        # The squares it covers (``game.notes``), then its cost.
        name = f"{costly} · {choices.notes[costly]} · {choices.costs[costly]}"
        assert choices.notes[costly].startswith("covers ")
        assert {"name": name, "value": costly} in offered
        answer = said(await member.slash(w.channel, "play", action=costly))
        assert "Played" in answer or answer
        posted = message_text(w.public()[-1])
        assert re.search(r"penalt|skip", posted, re.IGNORECASE), posted


async def test_the_board_as_text_as_each_viewer_may_see_it(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w)
        board = await w.carol.slash(w.channel, "board")
        assert board.response is not None
        assert [b.label for b in buttons(board.response)] == ["Board as text"]
        spectator = said(await w.carol.click(board.response, label="Board as text"))
        assert "Cube Conquest, move " in spectator and len(spectator.splitlines()) >= 3
        assert "alice" in spectator and "bob" in spectator
        assert said(await w.carol.slash(w.channel, "board", text=True)) == spectator
        turn = next(m for m in reversed(w.public()) if buttons(m))
        player = said(await w.alice.click(turn, label="Board as text"))
        assert player != spectator  # Alice's own view: her hand too
        assert not any(secret in spectator for secret in ("Your hand", "You hold"))
