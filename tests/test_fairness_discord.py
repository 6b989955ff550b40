"""Fair shuffles end to end on SimCord: /game start posts the commitment, nothing the bot
sends before the end holds the seed or the salt, the last move reveals both, and
/game export gives anyone the move log as a file that ``boardroom verify`` accepts."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from bot import fairness
from tests.test_discord import World, buttons, fixed_deal, message_text, said, world

__all__ = ["fixed_deal"]  # the autouse fixture: /game start deals from SEED

SEED = 20261121  # what ``fixed_deal`` makes /game start use


def everything_shown(w: World) -> str:
    """Every message anyone can see (channel posts, ephemeral answers, DMs) with its
    attachments' names and alt texts and its buttons' labels and custom ids."""
    seen = [m for member in [*w.players, w.carol]
            for m in w.channel.history(viewer=member) + w.dms(member)]
    parts = []
    for message in seen:
        parts.append(message_text(message))
        parts += [f"{a.filename} {a.description}" for a in message.attachments]
        parts += [f"{b.label} {b.custom_id}" for b in buttons(message)]
    return "\n".join(parts)


async def test_a_game_commits_reveals_and_exports_a_log_that_verifies(
        tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        said(await w.bob.slash(w.channel, "game join"))
        said(await w.alice.slash(w.channel, "game start"))
        row = await w.bot.service.store.tables.active_game(w.channel.id)
        assert row is not None and row.salt is not None and row.commitment is not None
        salt = row.salt
        committed = hashlib.sha256(f"{SEED}:{salt}".encode()).hexdigest()
        assert row.commitment == committed
        opening = next(m for m in w.public() if "Battle Tiles begins" in message_text(m))
        assert f"Fair shuffle: commitment `{committed}`" in message_text(opening)

        # While the game runs, anyone asking for the log is told why not, with no file.
        early = await w.carol.slash(w.channel, "game export")
        assert said(early).startswith("The move log is given once the game is over")
        assert early.response is not None and not early.response.attachments

        rng = random.Random(4)
        for _ in range(200):
            awaited = [(m, moves) for m in w.players if (moves := await w.moves(m))]
            member, moves = awaited[0]
            # The game is not over yet: nothing the bot sent to Discord (channel posts,
            # DMs, ephemeral answers, buttons, alt texts) holds the seed or the salt.
            sent = everything_shown(w)
            assert committed in sent and "Your hand" in sent  # DMs and all
            assert salt not in sent and str(SEED) not in sent
            said(await member.slash(w.channel, "play", action=rng.choice(moves)))
            if any("Game over" in message_text(m) for m in w.public()[-2:]):
                break
        last = w.public()[-1]
        assert "Game over" in message_text(last)
        assert fairness.revealed(SEED, salt, committed) in message_text(last)

        # After the end, a spectator gets the log as a file, only for them.
        result = await w.carol.slash(w.channel, "game export")
        text = said(result)
        assert "boardroom verify" in text
        assert result.response is not None
        (attachment,) = result.response.attachments
        assert attachment.filename == f"boardroom-battle-tiles-table-{row.id}.json"
        data = await attachment.read()
        doc = json.loads(data.decode("utf-8"))
        assert (doc["seed"], doc["salt"], doc["commitment"]) == (SEED, salt, committed)
        logged = await w.bot.service.store.tables.moves(row.id)
        assert [(m["seat"], m["text"]) for m in doc["moves"]] == [
            (m.seat, m.text) for m in logged]
        assert [p["name"] for p in doc["players"]] == ["alice", "bob"]
        assert not any(m.attachments and m.attachments[0].filename.endswith(".json")
                       for m in w.public())  # the file went to Carol alone

        by_number = await w.alice.slash(w.channel, "game export", table=row.id)
        said(by_number)
        assert by_number.response is not None
        assert await by_number.response.attachments[0].read() == data
        assert "no table 999" in said(await w.alice.slash(w.channel, "game export",
                                                          table=999))

        # The file checks out, as `boardroom verify` reads it.
        path = tmp_path / attachment.filename
        path.write_bytes(data)
        assert fairness.main([str(path)]) == 0
        checked = fairness.verify(data)
        assert len(checked.moves) == len(logged) and checked.outcome is not None
