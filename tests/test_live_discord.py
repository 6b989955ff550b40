"""One live message per turn, on SimCord: a turn's steps edit its message, a turn change
posts a new one pinging exactly the newly awaited, and Discord's refusals (the edit cap of
an old message, a passing error, a restart in between) lose nothing and double nothing.

Bomb Squares is played here: its turns have many steps (draw, place, bomb, meeple, roll,
done), and its draws are forced steps the table makes for the player.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord.live import EVENTS, TurnMessages, earlier, told, told_in
from bot.service.replies import Reply
from render import kit
from rules.bomb_squares import state as bs_state
from tests.test_discord import SECRET_WORDS, World, fixed_deal, labels, message_text, said, world

__all__ = ["fixed_deal"]  # the autouse fixture: every game here is dealt from one seed
# Steps a player pressing on would not take, to keep games short.
ASIDE = ("sell", "landmine", "tower", "airplane", "unmine", "redraw", "reroll", "switch",
         "second", "keep", "card", "arm", "from", "buy")
MESSAGES = "/channels/{}/messages"


async def start(w: World, game: str = "bomb-squares") -> None:
    said(await w.alice.slash(w.channel, "game new", game=game))
    said(await w.bob.slash(w.channel, "game join"))
    said(await w.alice.slash(w.channel, "game start"))


def pinged(w: World, message: discord.Message) -> set[int]:
    """Whom Discord (simulated) notified with a message, after its allowed mentions."""
    return set(w.env.backend.get_message(message.channel.id, message.id).ping_user_ids)


async def awaited(w: World) -> dict[Any, list[str]]:
    return {m: moves for m in w.players if (moves := await w.moves(m))}


async def step(w: World, rng: random.Random, *, aside: tuple[str, ...] = ASIDE
               ) -> tuple[Any, str, str]:
    """One step by an awaited player: a random move a player pressing on would make."""
    member, moves = next(iter((await awaited(w)).items()))
    pressing = [m for m in moves if m.split()[0] not in aside] or moves
    move = rng.choice(pressing)
    return member, move, said(await member.slash(w.channel, "play", action=move))


async def mid_turn(w: World, rng: random.Random) -> Any:
    """Steps until one player, alone awaited, is in the middle of their turn: them."""
    mover, _, _ = await step(w, rng)
    while set(await awaited(w)) != {mover}:
        mover, _, _ = await step(w, rng)
    return mover


def channel_texts(w: World) -> list[str]:
    """What every message the bot posted or edited in the channel said, as sent: its text,
    its layout's text displays and its pictures' alt texts, from the whole payload."""
    path = MESSAGES.format(w.channel.id)

    def words(node: Any) -> list[str]:
        if isinstance(node, dict):
            return [str(value) for key, value in node.items()
                    if key in ("content", "description") and isinstance(value, str)] + [
                word for value in node.values() for word in words(value)]
        if isinstance(node, list):
            return [word for value in node for word in words(value)]
        return []

    return ["\n".join(words(entry.json)) for entry in w.env.http_requests
            if entry.path.split("?")[0].startswith(path) and isinstance(entry.json, dict)
            and entry.method in ("POST", "PATCH")]


@pytest.fixture(autouse=True)
def short(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bs_state, "TO_WIN", 9)  # a game to 9 crystals, not 75


async def test_a_turn_is_one_message_edited_and_each_turn_pings_the_newly_awaited(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w)
        began = w.public()[-1]
        assert "Bomb Squares begins" in message_text(began)
        rng = random.Random(4)
        changes = edits = 0
        turn: discord.Message | None = None
        while changes < 4:
            before = set(await awaited(w))
            count = len(w.public())
            await step(w, rng)
            now = set(await awaited(w))
            latest = w.public()[-1]
            if now - before:  # the turn changed hands: a new message, pinging them alone
                assert len(w.public()) == count + 1
                assert pinged(w, latest) == {m.id for m in now - before}
                changes += 1
            elif turn is None:  # the first step after the start begins the turn message
                assert len(w.public()) == count + 1 and not pinged(w, latest)
            else:  # a step of the same turn: the same message, edited; nobody pinged
                assert len(w.public()) == count and latest.id == turn.id
                assert message_text(latest) != message_text(turn)
                assert not pinged(w, latest)
                edits += 1
            turn = latest
        assert edits >= 4, "Bomb Squares' turns have several steps each"
        # The start stays its own message, and spectators read no secret in any text sent.
        assert w.public()[0].id == began.id or began in w.public()
        sent = channel_texts(w)
        assert any("Bomb Squares begins" in text for text in sent)  # the text is in there
        assert any("\nBomb Squares: " in text for text in sent)  # and the alt text
        for text in sent:
            for secret in SECRET_WORDS:
                assert secret not in text


async def test_the_turn_messages_buttons_act_on_the_current_step(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(5)
        for _ in range(3):
            await step(w, rng)
            turn = w.public()[-1]
            for who in w.players:
                shown = await who.click(turn, label="Your moves")
                moves = await w.moves(who)
                assert shown.response is not None
                if 1 < len(moves) <= 10:  # (a costly move's label says its cost)
                    shown_moves = [label.split(" · ")[0] for label in labels(shown.response)]
                    assert sorted(shown_moves) == sorted(moves)
                elif not moves:
                    assert "not your turn" in message_text(shown.response)


def requests_to(w: World, message_id: int | None = None) -> list[Any]:
    """The bot's requests to the channel's messages (to one message's, with its id)."""
    path = MESSAGES.format(w.channel.id) + ("" if message_id is None else f"/{message_id}")
    return [e for e in w.env.http_requests if e.path.split("?")[0] == path
            or (message_id is None and e.path.split("?")[0].startswith(path))]


def uploads(entry: Any) -> int:
    """The files a request uploads: its attachments that are not kept (a kept one is
    listed with its id and the address Discord gave it)."""
    listed = entry.json.get("attachments") or [] if isinstance(entry.json, dict) else []
    return sum(1 for item in listed if "url" not in item)


@pytest.mark.parametrize(("status", "code", "text"), [
    (400, 50035, "Invalid Form Body: unfurled media attachment not found"),
    (400, 30046, "Maximum number of edits to messages older than 1 hour reached."),
    (404, 10008, "Unknown Message"),
])
async def test_a_refused_edit_posts_the_turn_anew_at_once_and_carries_it_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, status: int, code: int,
        text: str) -> None:
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(6)
        mover = await mid_turn(w, rng)
        turn = w.public()[-1]
        shown = told_in(turn)
        assert shown and labels(turn), "setup: a turn message with lines and buttons"
        w.env.inject_error("PATCH", MESSAGES.format(w.channel.id) + "/*", status=status,
                           code=code, message=text)
        count = len(w.public())
        _, _, answer = await step(w, rng)
        assert answer.startswith("Played") and "saved" not in answer  # shown at once
        carried = w.public()[-1]
        assert len(w.public()) == count + 1 and carried.id != turn.id
        # The turn carried on: every line the old message told, then the step's.
        lines = told_in(carried)
        assert lines[:len(shown)] == shown and len(lines) > len(shown)
        assert carried.attachments and labels(carried)
        # Nobody is pinged: the request allowed no one, and Discord notified no one.
        (post,) = [e for e in requests_to(w) if e.method == "POST"][-1:]
        assert post.json["allowed_mentions"]["users"] == []
        assert not post.json["allowed_mentions"]["parse"]
        assert not pinged(w, carried)
        # Discord's answer is in the log: its status and its code.
        assert any(f"HTTP {status}, error code {code}" in r.getMessage() for r in caplog.records
                   if r.name == "boardroom.discord")
        # The old message: its buttons off where Discord may still edit it (one try); a
        # capped or deleted message is not asked again.
        edits = [e for e in requests_to(w, turn.id) if e.method == "PATCH"]
        old = next(m for m in w.public() if m.id == turn.id)
        assert told_in(old) == shown and old.attachments == turn.attachments  # kept
        if code == 50035:
            assert len(edits) == 2 and not labels(old)
            assert [int(a["id"]) for a in edits[-1].json["attachments"]] == [
                a.id for a in turn.attachments] and uploads(edits[-1]) == 0
        else:
            assert len(edits) == 1 and labels(old)
        # The turn goes on in the new message.
        while set(await awaited(w)) == {mover}:
            await step(w, rng)
            if set(await awaited(w)) == {mover}:
                assert w.public()[-1].id == carried.id and len(w.public()) == count + 1
                assert told_in(w.public()[-1])[:len(lines)] == lines


async def test_a_turn_message_gone_after_a_restart_is_posted_anew_and_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """After a restart the turn message is read back from Discord; one deleted meanwhile
    (Discord answers 10008) is posted anew at once, pinging nobody, and the log says why."""
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(6)
        await mid_turn(w, rng)
        turn, count = w.public()[-1], len(w.public())
        await w.restart()
        w.env.inject_error("GET", MESSAGES.format(w.channel.id) + "/*", status=404,
                           code=10008, message="Unknown Message")
        _, _, answer = await step(w, rng)
        assert answer.startswith("Played") and "saved" not in answer
        anew = w.public()[-1]
        assert anew.id != turn.id and len(w.public()) == count + 1 and anew.attachments
        assert not pinged(w, anew)
        assert not [e for e in requests_to(w, turn.id) if e.method == "PATCH"]
        assert any("HTTP 404, error code 10008" in r.getMessage() and str(turn.id)
                   in r.getMessage() for r in caplog.records if r.name == "boardroom.discord")


async def test_an_edit_keeps_the_board_already_uploaded_where_it_did_not_change(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(14)
        mover = await mid_turn(w, rng)
        service, desk = w.bot.service, w.bot.desk
        turn = w.public()[-1]
        uploaded = sum(uploads(e) for e in requests_to(w))
        # A step of the turn that changes the board: the edit uploads the new one.
        moves = await w.moves(mover)
        reply = await service.play(w.channel.id, mover.id, rng.choice(
            [m for m in moves if m.split()[0] not in ASIDE] or moves))
        assert reply.step and not reply.newly and reply.picture is not None
        await desk.deliver(w.channel.id, reply, mover.id)
        (edit,) = [e for e in requests_to(w, turn.id) if e.method == "PATCH"][-1:]
        assert uploads(edit) == 1
        first = next(m for m in w.public() if m.id == turn.id).attachments
        # A step that shows the same board (its picture is the one of the same view): the
        # edit lists the attachment Discord holds, by its id, and uploads nothing.
        board = await service.board(w.channel.id)
        assert board.picture == reply.picture and board.picture.key == reply.picture.key
        same = Reply(public="Nothing the board shows has changed.", picture=board.picture,
                     step=True, game=reply.game, version=reply.version,
                     mention=reply.mention, accent=reply.accent)
        await desk.delivery.turns.post(w.bot.get_partial_messageable(w.channel.id), same)
        (edit,) = [e for e in requests_to(w, turn.id) if e.method == "PATCH"][-1:]
        assert uploads(edit) == 0
        assert [int(a["id"]) for a in edit.json["attachments"]] == [a.id for a in first]
        kept = next(m for m in w.public() if m.id == turn.id)
        assert kept.attachments == first and told_in(kept)[-1] == same.public
        (box,) = kept.components  # the gallery still shows the picture it names
        assert isinstance(box, discord.components.Container)
        (gallery,) = [c for c in box.children
                      if isinstance(c, discord.components.MediaGalleryComponent)]
        assert [item.media.url for item in gallery.items] == [a.url for a in first]
        gallery_sent = [c for c in edit.json["components"][0]["components"]
                        if c["type"] == 12]
        assert [i["media"]["url"] for i in gallery_sent[0]["items"]] == [
            "attachment://board.png"]
        # Over the whole turn, one upload per board shown, none for the one kept.
        assert sum(uploads(e) for e in requests_to(w)) - uploaded == 1


async def test_an_edit_that_fails_is_retried_and_lands_once(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(7)
        await mid_turn(w, rng)
        count, turn = len(w.public()), w.public()[-1]
        w.env.inject_error("PATCH", MESSAGES.format(w.channel.id) + "/*", status=500)
        version = await w.version()
        _, _, answer = await step(w, rng)
        assert "saved" in answer and "as soon as Discord answers" in answer
        assert message_text(w.public()[-1]) == message_text(turn)  # not yet
        assert await w.version() > version
        await w.env.advance_time(60)  # the retry
        after = w.public()[-1]
        assert after.id == turn.id and len(w.public()) == count
        old, new = told_in(turn), told_in(after)
        assert new[:len(old)] == old and len(new) > len(old)
        added = new[len(old):]  # the step's lines, told once (not a block told twice)
        half = len(added) // 2
        assert not (len(added) % 2 == 0 and added[:half] == added[half:]), added
        await w.restart()  # delivered once: nothing more to post or edit
        assert message_text(w.public()[-1]) == message_text(after) and len(w.public()) == count


async def test_a_restart_between_commit_and_edit_neither_loses_nor_doubles(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(8)
        mover = await mid_turn(w, rng)
        count, turn = len(w.public()), w.public()[-1]
        # Committed and edited, but the bot stops before marking the step posted.
        service = w.bot.service

        async def lost(*_: Any) -> None:
            return None

        monkeypatch.setattr(service, "delivered", lost)
        await step(w, rng)
        edited = w.public()[-1]
        assert edited.id == turn.id and message_text(edited) != message_text(turn)
        monkeypatch.undo()
        await w.restart()
        assert len(w.public()) == count and message_text(w.public()[-1]) == message_text(edited)
        # Committed, never edited: the restart edits the turn's message, once.
        if set(await awaited(w)) == {mover}:
            member, moves = next(iter((await awaited(w)).items()))
            pressing = [m for m in moves if m.split()[0] not in ASIDE] or moves
            await w.bot.service.play(w.channel.id, member.id, rng.choice(pressing))
            await w.restart()
            again = w.public()[-1]
            assert len(w.public()) == count and again.id == turn.id
            assert message_text(again).startswith(message_text(edited).rsplit("\n", 1)[0])
            assert message_text(again) != message_text(edited)


async def test_a_players_own_steps_edit_their_dm(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(9)
        mover = await mid_turn(w, rng)
        dms = len(w.dms(mover))
        steps = 0
        while set(await awaited(w)) == {mover} and steps < 4:
            await step(w, rng)
            steps += 1
            if set(await awaited(w)) == {mover}:
                assert len(w.dms(mover)) == dms, "a step of one's own turn edits the DM"


async def test_forced_steps_play_themselves_and_say_so(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(10)
        for _ in range(60):
            await step(w, rng, aside=())  # a redrawn bomb leaves one square to bomb
            if any("has one move only" in message_text(m) for m in w.public()):
                break
        forced = [line for m in w.public() for line in message_text(m).splitlines()
                  if "has one move only" in line]
        assert forced and all("the table makes it for them" in line for line in forced)
        # Nobody is ever left awaited with a single move to make.
        for moves in (await awaited(w)).values():
            assert len(moves) != 1


async def test_a_stand_in_plays_the_whole_late_turn_in_one_message(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w)
        said(await w.alice.slash(w.channel, "game settings", turn_time="1h"))
        rng = random.Random(11)
        late = await mid_turn(w, rng)
        count, version = len(w.public()), await w.version()
        await w.env.advance_time(3700)  # the turn time runs out
        assert set(await awaited(w)) != {late}, "the stand-in finished the turn"
        assert await w.version() > version + 1, "several steps"
        told = w.public()[count:]
        assert len(told) == 1, [message_text(m) for m in told]
        assert "ran out of time" in message_text(told[0])
        assert pinged(w, told[0]) == {m.id for m in await awaited(w)}


async def test_the_turn_message_is_a_layout_in_the_awaited_seats_colour(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="cube-conquest"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        turn = w.public()[-1]
        assert turn.flags.components_v2 and not turn.content
        (box,) = turn.components
        assert isinstance(box, discord.components.Container)
        (waiting,) = [m for m in w.players if await w.moves(m)]
        fill = kit.seat_colour("Blue" if waiting is w.alice else "Red").fill  # seat order
        assert box.accent_colour is not None
        assert box.accent_colour.value == (fill[0] << 16) | (fill[1] << 8) | fill[2]
        kinds = [type(c).__name__ for c in box.children]
        assert kinds == ["TextDisplay", "MediaGalleryComponent", "TextDisplay", "ActionRow"]
        gallery = box.children[1]
        assert isinstance(gallery, discord.components.MediaGalleryComponent)
        (item,) = gallery.items
        assert item.media.url.endswith("board.png")
        assert item.description and item.description.startswith("Cube Conquest")
        assert item.description == turn.attachments[0].description
        whose = box.children[2]
        assert isinstance(whose, discord.components.TextDisplay)
        assert whose.content == f"Your turn, <@{waiting.id}>." and pinged(w, turn) == {
            waiting.id}
        assert labels(turn) == ["Your moves", "Your hand", "Board as text"]


async def test_a_computers_whole_turn_is_one_message_not_one_per_step(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="bomb-squares"))
        said(await w.alice.slash(w.channel, "game computer", level="easy"))
        said(await w.alice.slash(w.channel, "game start"))
        rng = random.Random(12)
        path = MESSAGES.format(w.channel.id)
        for _ in range(30):  # until alice hands the turn to the computer
            version = await w.version()
            calls = sum(1 for e in w.env.http_requests if e.path.split("?")[0].startswith(path))
            member, moves = next(iter((await awaited(w)).items()))
            pressing = [m for m in moves if m.split()[0] not in ASIDE] or moves
            move = rng.choice(pressing)
            said(await member.slash(w.channel, "play", action=move))
            if await w.version() > version + 3:  # the computer's steps followed hers
                break
        else:
            raise AssertionError("the computer never took a turn of several steps")
        # Alice's last step, then the computer's steps, then alice's turn again: one post
        # (her turn began anew: it pings her), not one request per step.
        sent = [e for e in w.env.http_requests if e.path.split("?")[0].startswith(path)]
        assert len(sent) - calls == 1 and sent[-1].method == "POST"
        assert pinged(w, w.public()[-1]) == {w.alice.id}


async def test_steps_that_queue_behind_a_slow_post_go_out_as_one_edit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with world(tmp_path) as w:
        await start(w)
        rng = random.Random(13)
        mover = await mid_turn(w, rng)
        service, desk = w.bot.service, w.bot.desk
        replies = []  # three steps of one turn, committed, not yet told
        while len(replies) < 3 and set(await awaited(w)) == {mover}:
            moves = await w.moves(mover)
            pressing = [m for m in moves if m.split()[0] not in ASIDE] or moves
            replies.append(await service.play(w.channel.id, mover.id, rng.choice(pressing)))
        joinable = [r for r in replies[1:] if not r.newly]
        assert len(replies) == 3 and len(joinable) == 2, "setup: three steps of one turn"
        post = desk.delivery.turns.post
        calls: list[int] = []

        async def slow(channel: Any, reply: Any) -> None:  # Discord slows the channel down
            calls.append(reply.version)
            if len(calls) == 1:
                await asyncio.sleep(0.05)
            await post(channel, reply)

        monkeypatch.setattr(desk.delivery.turns, "post", slow)
        path = MESSAGES.format(w.channel.id)
        before = sum(1 for e in w.env.http_requests if e.path.split("?")[0].startswith(path))
        told = await asyncio.gather(*(desk.deliver(w.channel.id, r, mover.id)
                                      for r in replies))
        assert told == ["posted"] * 3
        # The first step alone, then the two that queued behind it together.
        assert calls == [replies[0].version, replies[2].version]
        sent = [e for e in w.env.http_requests if e.path.split("?")[0].startswith(path)]
        assert len(sent) - before == 2
        text = message_text(w.public()[-1])
        for reply in replies:
            for line in reply.public.splitlines():
                assert line in text
        monkeypatch.undo()
        count = len(w.public())
        await w.restart()  # every step was marked told: nothing is posted again
        assert len(w.public()) == count and message_text(w.public()[-1]) == text


class _Channel:
    """Just enough of a channel for ``TurnMessages``: posts and edits, recorded."""

    id = 1

    def __init__(self) -> None:
        self.sent: list[discord.ui.LayoutView] = []

    async def send(self, *, view: discord.ui.LayoutView, **_: object) -> object:
        self.sent.append(view)
        return SimpleNamespace(id=len(self.sent), attachments=[])

    def get_partial_message(self, message_id: int) -> object:
        async def edit(*, view: discord.ui.LayoutView, **_: object) -> object:
            self.sent[message_id - 1] = view
            return SimpleNamespace(id=message_id, attachments=[])
        return SimpleNamespace(edit=edit)


class _Service:
    """The turn message a game's steps edit, as the store keeps it."""

    def __init__(self) -> None:
        self.message = 0

    async def turn_message(self, game: int) -> int:
        return self.message

    async def set_turn_message(self, game: int, message_id: int, version: int) -> None:
        self.message = message_id


async def test_a_step_that_reads_like_the_one_before_is_told_all_the_same() -> None:
    """Two steps of a turn may say the same ('Ann draws a card.' twice): the message tells
    both, and a step that ends the way an earlier one did is not taken for told."""
    channel, service = _Channel(), _Service()
    turns = TurnMessages(service)  # type: ignore[arg-type]
    for version, line in enumerate(["Ann draws a card.", "Ann draws a card.",
                                    "Ann takes 2 and Bob takes 1.", "Bob takes 1."], 2):
        await turns.post(channel,  # type: ignore[arg-type]
                         Reply(public=line, step=True, game=7, version=version,
                               mention=(5,)))
    (view,) = channel.sent
    events = next(item for item in view.walk_children()
                  if isinstance(item, discord.ui.TextDisplay) and item.id == EVENTS)
    assert events.content.split("\n") == ["Ann draws a card.", "Ann draws a card.",
                                          "Ann takes 2 and Bob takes 1.", "Bob takes 1."]


def test_a_message_too_long_gives_way_by_whole_lines_and_never_opens_mid_sentence() -> None:
    # one element of many lines (a game's end: its last steps, then the count)
    steps = [f"Green places block {n} at a{n}, and holds {n} of the 12 spaces there."
             for n in range(80)]
    count = ["At the count, Blue wins 3 point blocks.", "Blue wins with 41 points."]
    text = told(["\n".join([*steps, *count])], 1000)
    assert len(text) <= 1000
    lines = text.split("\n")
    assert lines[:2] == [steps[0], earlier()] and lines[-2:] == count  # the move that began
    assert set(lines[2:-2]) <= set(steps) and lines[-3] == steps[-1]  # it stays (an audit:
    assert len(text) > 1000 - len(steps[1])  # a player's own move was the line left out)
    # where even the first line and the newest do not fit together, the newest stays
    short = told([steps[0], steps[1], "\n".join(count)], len(earlier()) + 60)
    assert short.split("\n") == [earlier(), count[-1]]
    # a line too long alone keeps its beginning, cut after a word
    alone = told(["word " * 300], 100)
    assert len(alone) <= 100 and alone.startswith("word word") and alone.endswith("word…")
