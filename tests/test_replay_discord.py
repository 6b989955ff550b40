"""Replays end to end on SimCord (``/game replay``): a finished game of each kind stepped
through with its buttons and its select, every picture the renderer's picture of the rules'
state at that move (the log replayed here, by the rules alone), every hand shown once the
game is over; a running game's replay answered to the caller alone, as they may see it,
whoever's button it is; stepping never changes a game; bad input is a sentence; the whole
game animated on demand, its frames the public boards."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import ImageChops

import render
import rules
from bot import timeline, undo
from bot.discord.replays import controls
from bot.records import GameRow, MoveRow
from bot.service.table import private_part
from render import animation, kit
from tests.pictures import decoded, pixels
from tests.test_discord import World, buttons, fixed_deal, message_text, said, world

__all__ = ["fixed_deal"]  # the autouse fixture: every game here is dealt from one seed

# A chooser's seed per game that ends the game dealt from the fixed seed soon (found by
# trying 12-28 seeds; Bomb Squares needs some 350 moves whatever the seed).
SHORT = {"cube-conquest": 9, "crystallia": 8, "block-buster": 8, "battle-tiles": 9,
         "bomb-squares": 28}
CONTROL_ID = re.compile(r"br:replay:\d+:\d+:\d+:(start|turn-back|back|next|turn-next|end)"
                        r"|br:replay-to:\d+:\d+|br:replay-gif:\d+:\d+")
START, TURN_BACK, BACK = "\u23ee Start", "\u25c0\u25c0 Turn", "\u25c0 Move"
NEXT, TURN_NEXT, END = "Move \u25b6", "Turn \u25b6\u25b6", "End \u23ed"
SHOWN = re.compile(r"move (\d+) of (\d+)")


def choose(moves: list[str], rng: random.Random) -> str:
    """Random legal play, attacking when it can (a Cube Conquest game ends sooner)."""
    attacks = [m for m in moves if m.startswith("attack")]
    return rng.choice(attacks or moves)


async def play(w: World, seed: int, *, limit: int = 10_000) -> int:
    """Random legal play through the service (without pictures: the moves' own are not
    what is looked at here) until the game ends or ``limit`` moves; returns how many."""
    service, made = w.bot.service, 0
    service.images = False
    rng = random.Random(seed)
    try:
        while made < limit and (waiting := await service.waiting(w.channel.id)):
            user = rng.choice(waiting)[0]
            await service.play(w.channel.id, user,
                               choose(await service.legal_moves(w.channel.id, user), rng))
            made += 1
    finally:
        service.images = True
    return made


async def seat_two(w: World, game_id: str) -> None:
    said(await w.alice.slash(w.channel, "game new", game=game_id))
    said(await w.bob.slash(w.channel, "game join"))
    said(await w.alice.slash(w.channel, "game start"))


async def stored(w: World) -> tuple[GameRow, list[MoveRow]]:
    row = await w.bot.service.store.tables.latest_game(w.channel.id)
    assert row is not None
    return row, await w.bot.service.store.tables.moves(row.id)


def state_at(row: GameRow, moves: list[MoveRow], move: int) -> Any:
    """The rules' state after ``move`` (0: the deal), replayed here from the seed."""
    game = rules.GAMES[row.game]
    assert row.seed is not None
    state = game.new(2, row.seed, row.options or None)
    for logged in moves[:move]:
        assert not undo.is_entry(logged.text)
        state, _ = game.play(state, logged.seat, logged.text)
    return state


def viewed(row: GameRow, state: Any, seat: int | None) -> dict[str, Any]:
    view = rules.GAMES[row.game].view(state, seat)
    view["names"] = ["alice", "bob"]
    return view


async def pictures(message: Any) -> dict[str, tuple[bytes, str]]:
    """A message's attachments: file name -> (bytes, alt text)."""
    return {a.filename: (await a.read(), a.description or "") for a in message.attachments}


def move_of(message: Any) -> tuple[int, int]:
    found = SHOWN.search(message_text(message))
    assert found, message_text(message)
    return int(found[1]), int(found[2])


def differ(got: bytes, wanted: bytes) -> str:
    """Where two pictures differ, to tell why one is not the picture expected."""
    a, b = decoded(got), decoded(wanted)
    if a.size != b.size:
        return f"sizes {a.size} and {b.size}"
    return f"size {a.size}, the pixels in {ImageChops.difference(a, b).getbbox()} differ"


async def assert_shows(message: Any, row: GameRow, moves: list[MoveRow], seat: int | None,
                       *, finished: bool) -> int:
    """The message shows its move as the rules have it: the board (as ``seat`` sees it;
    None: a spectator), and once the game is over every hidden part under it. Returns the
    move."""
    move, last = move_of(message)
    assert last == len(moves)
    game_id = row.game
    state = state_at(row, moves, move)
    view = viewed(row, state, seat)
    drawn = await pictures(message)
    expected = render.pngs(game_id, view)
    # Pictures are compared as they show (``pixels``), not as PNG bytes: the deflater now
    # and then encodes the same rows to other valid bytes (tests/pictures.py).
    board = pixels(drawn["board.png"][0])
    if board != pixels(expected[0]):  # which move's board it is, to tell why
        same = [m for m in range(last + 1) if board == pixels(
            render.pngs(game_id, viewed(row, state_at(row, moves, m), seat))[0])]
        pytest.fail(f"move {move}: not the rules' board but that of move(s) {same}; "
                    f"its alt text: {drawn['board.png'][1]!r}; "
                    f"{differ(drawn['board.png'][0], expected[0])}")
    assert drawn["board.png"][1] == render.summary(game_id, view)
    if len(expected) > 1:
        assert pixels(drawn["hand.png"][0]) == pixels(expected[1])
    public = viewed(row, state, None)
    hidden = [v for s in (0, 1) if private_part(v := viewed(row, state, s), public)]
    # Shown to everyone: 'Ann's hand', not 'Your hand, Ann'.
    hands = [h for v in hidden
             if (h := render.renderer(game_id).hand({**v, "for_all": True}, width=1000))]
    if finished and hands:
        assert pixels(drawn["hands.png"][0]) == pixels(kit.png(kit.stack(hands)))
        assert drawn["hands.png"][1].startswith(f"Every hand after move {move}.")
    else:
        assert "hands.png" not in drawn
    assert set(drawn) <= {"board.png", "hand.png", "hands.png"}
    text = message_text(message)
    assert f"`#{move}`" in text
    return move


def menus(message: Any) -> list[Any]:
    """The select menus on a message."""
    if hasattr(message, "message"):
        message = message.message
    return [c for row in message.components for c in getattr(row, "children", [])
            if isinstance(c, discord.SelectMenu)]


def control(message: Any, label: str) -> Any:
    return next(b for b in buttons(message) if b.label == label)


def turn_ends(row: GameRow, moves: list[MoveRow]) -> list[int]:
    """The moves that end a turn, as the animation counts turns (0: the deal)."""
    game = rules.GAMES[row.game]
    assert row.seed is not None
    log = [(m.seat, m.text) for m in moves]
    return [0, *timeline.turn_ends(game, 2, row.seed, row.options, log, ())]


def again(w: World, message: Any) -> Any:
    """The channel's message as it reads now (edited since)."""
    return next(m for m in w.public() if m.id == message.id)


# --------------------------------------------------------------------------- finished


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
async def test_a_finished_game_steps_through_the_rules_states_for_everyone(
        tmp_path: Path, game_id: str) -> None:
    async with world(tmp_path) as w:
        await seat_two(w, game_id)
        await play(w, SHORT[game_id])
        row, moves = await stored(w)
        assert row.status == "over", "the chooser's seed no longer ends the game"
        version, count = row.version, len(w.public())
        ends = turn_ends(row, moves)
        last = len(moves)

        asked = said(await w.carol.slash(w.channel, "game replay"))
        assert "posted in the channel" in asked
        assert len(w.public()) == count + 1
        shown = w.public()[-1]
        assert not shown.flags.ephemeral
        assert await assert_shows(shown, row, moves, None, finished=True) == 0
        assert control(shown, START).disabled and control(shown, BACK).disabled
        ids = [b.custom_id or "" for b in buttons(shown)]
        assert all(CONTROL_ID.fullmatch(i) for i in ids), ids

        async def click(member: Any, label: str, to: int) -> None:
            nonlocal shown
            await member.click(shown, label=label)
            shown = again(w, shown)
            assert await assert_shows(shown, row, moves, None, finished=True) == to
        # Anyone steps the one public message: each click edits it, for everyone.
        await click(w.alice, NEXT, 1)
        await click(w.bob, TURN_NEXT, min(e for e in ends if e > 1))
        middle = ends[len(ends) // 2]
        chosen = await w.carol.select(shown, [str(middle)])
        assert chosen.acknowledged
        shown = again(w, shown)
        assert await assert_shows(shown, row, moves, None, finished=True) == middle
        await click(w.carol, BACK, middle - 1)
        await click(w.alice, TURN_BACK, max(e for e in ends if e < middle - 1))
        await click(w.bob, END, last)
        assert control(shown, NEXT).disabled and control(shown, END).disabled
        assert "Game over" in message_text(shown)
        await click(w.carol, START, 0)
        assert len(w.public()) == count + 1  # one message, edited in place
        after, _ = await stored(w)
        assert after.version == version and after.updated == row.updated


# --------------------------------------------------------------------------- running


async def test_a_running_games_replay_is_the_callers_own_view_alone(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w, "cube-conquest")
        await play(w, SHORT["cube-conquest"], limit=8)
        row, moves = await stored(w)
        assert row.status == "playing" and len(moves) == 8
        count = len(w.public())
        answers = {}
        for member, seat in ((w.alice, 0), (w.bob, 1), (w.carol, None)):
            result = await member.slash(w.channel, "game replay", move=3)
            assert result.ephemeral and result.response is not None
            assert await assert_shows(result.response, row, moves, seat, finished=False) == 3
            answers[member.name] = result.response
        assert len(w.public()) == count  # nothing reached the channel
        assert "(\N{LOCK}: only you)" in message_text(answers["alice"])
        assert "\N{LOCK}" not in message_text(answers["carol"])
        assert "hand.png" not in await pictures(answers["carol"])
        # The controls name the game and the move, never the viewer: the same for all,
        # and the menu's turns name only who moved.
        ids = {name: [b.custom_id for b in buttons(m)] + [c.custom_id for c in menus(m)]
               for name, m in answers.items()}
        assert ids["alice"] == ids["bob"] == ids["carol"]
        assert all(CONTROL_ID.fullmatch(i or "") for i in ids["alice"])
        offered = [o.label for menu in menus(answers["alice"]) for o in menu.options]
        assert offered[0] == "The deal (move 0)" and len(offered) > 2
        assert all(re.fullmatch(r"Turn \d+ of \d+, move \d+: (alice \(Blue\)|bob \(Red\))"
                                r"( and (alice \(Blue\)|bob \(Red\)))?", label)
                   for label in offered[1:]), offered
        # Each steps their own answer, seeing only their own view.
        for member, seat in ((w.alice, 0), (w.carol, None)):
            message = answers[member.name]
            for label in (NEXT, TURN_NEXT, END, START):
                result = await member.click(message, label=label)
                assert result.acknowledged
                message = result.response
                assert message is not None and message.ephemeral
                await assert_shows(message, row, moves, seat, finished=False)
        # The game moves on; an old control still shows only what its clicker may see,
        # and stepping changes nothing.
        await play(w, SHORT["cube-conquest"], limit=2)
        row, moves = await stored(w)
        result = await w.bob.click(answers["bob"], label=END)
        assert result.response is not None and move_of(result.response) == (8, 10)
        await assert_shows(result.response, row, moves, 1, finished=False)
        assert (await stored(w))[0].version == row.version
        assert len(w.public()) == count


async def test_a_running_games_step_never_lands_on_a_public_message(tmp_path: Path) -> None:
    """Should a running game's controls ever stand on a public message, a click answers the
    clicker alone and leaves that message as it was."""
    async with world(tmp_path) as w:
        await seat_two(w, "cube-conquest")
        await play(w, SHORT["cube-conquest"], limit=4)
        frame = await w.bot.service.replay(w.channel.id, w.carol.id, None, 0)
        channel = w.bot.get_channel(w.channel.id)
        assert channel is not None and hasattr(channel, "send")
        posted = await channel.send("A replay's controls", view=controls(frame))
        public = next(m for m in w.public() if m.id == posted.id)
        result = await w.bob.click(public, label=NEXT)
        assert again(w, public).content == "A replay's controls"
        assert not again(w, public).attachments
        [alone] = result.followups
        assert alone.ephemeral
        row, moves = await stored(w)
        await assert_shows(alone, row, moves, 1, finished=False)


# --------------------------------------------------------------------------- refusals


async def test_bad_input_is_a_sentence(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        assert "no game to replay in this channel" in said(
            await w.carol.slash(w.channel, "game replay"))
        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        assert "no game to replay" in said(await w.carol.slash(w.channel, "game replay"))
        row, _ = await stored(w)
        assert "hasn't started yet" in said(
            await w.carol.slash(w.channel, "game replay", table=row.id))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        await play(w, SHORT["battle-tiles"])
        row, moves = await stored(w)
        assert f"has moves 0 to {len(moves)}" in said(
            await w.carol.slash(w.channel, "game replay", move=len(moves) + 1))
        assert "no table 999 in this channel" in said(
            await w.carol.slash(w.channel, "game replay", table=999))
        other = w.guild.create_text_channel("elsewhere")
        assert "no game to replay" in said(await w.carol.slash(other, "game replay"))
        assert f"no table {row.id} in this channel" in said(
            await w.carol.slash(other, "game replay", table=row.id))
        # The table option lists this channel's tables, and nothing of another channel.
        offered = await w.carol.autocomplete(w.channel, "game replay", "table", "")
        assert [c["value"] for c in offered] == [row.id]
        assert offered[0]["name"].startswith(f"Battle Tiles · table {row.id} · ended")
        assert await w.carol.autocomplete(other, "game replay", "table", "") == []


async def test_when_discord_refuses_the_replay_says_so(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w, "battle-tiles")
        await play(w, SHORT["battle-tiles"])
        row, moves = await stored(w)
        count = len(w.public())
        # No permission to post: the replay comes to the caller alone instead.
        w.env.inject_error("POST", f"/channels/{w.channel.id}/messages", status=403,
                           code=50013, message="Missing Permissions", times=1)
        result = await w.alice.slash(w.channel, "game replay")
        assert result.ephemeral and result.response is not None
        assert "this replay is for you alone" in message_text(result.response)
        await assert_shows(result.response, row, moves, None, finished=True)
        assert len(w.public()) == count
        # An edit Discord refuses (the cap on an older message's edits) says how to go on.
        said(await w.alice.slash(w.channel, "game replay", move=2))
        shown = w.public()[-1]
        w.env.inject_error("PATCH", "/webhooks/*/messages/@original", status=400,
                           code=30046, message="Maximum number of edits", times=1)
        result = await w.bob.click(shown, label=NEXT)
        [told] = result.followups
        assert told.ephemeral
        assert f"`/game replay table:{row.id} move:3` shows that move afresh" in told.content
        assert move_of(again(w, shown)) == (2, len(moves))


async def test_a_failing_control_and_a_failing_command_answer_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One error policy (``answer.failed``): a replay control that fails and a command that
    fails both tell the member alone the same thing: a player's mistake as its sentence,
    anything else as the apology with the id it is logged under. The replay's public
    message stays as it was."""
    async with world(tmp_path) as w:
        await seat_two(w, "battle-tiles")
        await play(w, SHORT["battle-tiles"])
        said(await w.alice.slash(w.channel, "game replay", move=2))
        shown = w.public()[-1]
        for error in (RuntimeError("disk on fire"), rules.GameError("No such move here.")):
            async def broken(*args: Any, error: Exception = error, **kwargs: Any) -> Any:
                raise error

            monkeypatch.setattr(w.bot.service, "replay", broken)
            [told] = (await w.bob.click(shown, label=NEXT)).followups
            assert told.ephemeral
            commanded = said(await w.bob.slash(w.channel, "game replay", move=3))
            if isinstance(error, rules.GameError):
                assert told.content == commanded == "No such move here."
            else:
                assert told.content != commanded  # each with its own id
                shapes = {re.sub(r"`[0-9a-f]{8}`", "`ID`", text)
                          for text in (told.content, commanded)}
                assert len(shapes) == 1 and shapes.pop().startswith("Sorry, something went")
                assert "disk on fire" not in told.content
            assert move_of(again(w, shown))[0] == 2  # the public replay is as it was


# --------------------------------------------------------------------------- animation


async def test_the_whole_game_animated_on_demand_is_the_public_boards(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await seat_two(w, "battle-tiles")
        await play(w, SHORT["battle-tiles"])
        row, moves = await stored(w)
        said(await w.alice.slash(w.channel, "game replay"))
        result = await w.carol.click(w.public()[-1], label="\N{FILM FRAMES} Whole game")
        assert "The whole game (Battle Tiles" in said(result)
        assert result.response is not None
        [gif] = result.response.attachments
        assert gif.filename == "game.gif"
        assert row.seed is not None
        told = timeline.story(rules.GAMES[row.game], 2, row.seed, row.options, moves)
        shown = animation.turns(rules.GAMES[row.game], told.turn_states(), ["alice", "bob"])
        expected = animation.animate(row.game, [t.view for t in shown],
                                     captions=animation.captions(shown))
        assert await gif.read() == expected
