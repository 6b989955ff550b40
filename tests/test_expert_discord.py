"""The computer levels and remarks end to end on SimCord: ``/game computer`` offers expert
and says how long each level thinks, ``/rules`` too, and a computer's remark on its move
shows in the turn's message as one escaped line that pings nobody."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rules
from rules import computer
from tests.test_discord import fixed_deal, message_text, said, world
from tests.test_live_discord import pinged

__all__ = ["fixed_deal"]  # the autouse fixture: every game here is dealt from one seed


async def test_the_levels_say_what_they_do_and_how_long_they_think(tmp_path: Path) -> None:
    async with world(tmp_path, level=None) as w:  # the product's levels
        registered = {c["name"]: c for c in w.bot.registration()}
        (command,) = [o for o in registered["game"]["options"] if o["name"] == "computer"]
        (level,) = command["options"]
        assert [c["value"] for c in level["choices"]] == list(computer.LEVELS)
        assert any("10 s" in c["name"] for c in level["choices"] if c["value"] == "expert")
        assert "expert" in level["description"] and "1h" in level["description"]
        rules_text = said(await w.carol.slash(w.channel, "rules"))
        assert "expert plays out ten times as many, up to 10 s a move" in rules_text
        assert "one standing in for a late player plays expert" in rules_text
        said(await w.alice.slash(w.channel, "game new", game="battle-tiles"))
        said(await w.alice.slash(w.channel, "game settings", turn_time="1d"))
        said(await w.alice.slash(w.channel, "game computer"))  # left out: by the clock
        assert "Computer 1 (expert) takes a seat" in message_text(w.public()[-1])


async def test_a_computers_remark_is_one_escaped_line_that_pings_nobody(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = rules.GAMES["battle-tiles"]
    heard: list[Any] = []

    async with world(tmp_path) as w:
        def says(self: Any, public: dict[str, Any], seat: int, move: str,
                 chance: float | None) -> str:
            heard.append((seat, move, chance))
            return f"Blue is **sure** of it,\n@everyone <@{w.bob.id}>"

        monkeypatch.setattr(type(game), "remark", says)
        said(await w.alice.slash(w.channel, "game new", game=game.id))
        said(await w.alice.slash(w.channel, "game computer", level="normal"))
        said(await w.alice.slash(w.channel, "game start"))
        for _ in range(6):  # until the computer has moved
            if heard:
                break
            said(await w.alice.slash(w.channel, "play",
                                     action=(await w.moves(w.alice))[0]))
        assert heard and heard[0][2] is None  # normal makes none (nor is one told here)
        told = [(m, line) for m in w.public() for line in message_text(m).splitlines()
                if "of it," in line]
        assert told, ([message_text(m) for m in w.public()], heard)
        message, line = told[-1]
        assert "\\*\\*sure\\*\\*" in line and "@\u200beveryone" in line  # as written
        assert "\\<@" in line  # no mention, shown as text
        assert w.bob.id not in pinged(w, message)
        assert not w.env.backend.get_message(message.channel.id, message.id).mention_everyone
