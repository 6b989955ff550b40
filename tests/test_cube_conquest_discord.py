"""Cube Conquest's fight through the Discord bot on SimCord (issue 38): the attacker is
asked to pick a card as the defender is, each in private (the attacker's answer and DM,
the defender's DM, with the pick buttons), never in the channel; the channel's board
shows every discard pile."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cube_conquest import BLUE, GAME, RED, position
from tests.test_discord import buttons, labels, message_text, said, world
from tests.test_live_discord import start


@pytest.fixture
def fight(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table starts at a fight waiting to happen: Blue's cube on b2 beside Red's on
    b3 (a bricks tile), Blue to act."""

    def dealt(players: int, seed: int, options: object = None) -> object:
        return position(cubes={"b2": (BLUE, 1), "b3": (RED, 1), "a1": (BLUE, 1),
                               "e5": (RED, 1)}, points=[3, 0],
                        hands=[["crown", "drop", "drop", "drop"], ["drop", "hammers"]],
                        decks=[["drop", "crown", "arrow"] * 3] * 2,
                        discards=[["arrow", "circles"], ["bricks"]])

    monkeypatch.setattr(GAME, "new", dealt)


@pytest.mark.usefixtures("fight")
async def test_the_attacker_is_asked_to_pick_as_the_defender_is(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w, "cube-conquest")
        blue, red = w.alice, w.bob  # the opener sits first
        channel_before = len(w.public())
        answer = said(await blue.slash(w.channel, "play", action="attack b3 from b2"))
        prompt = ("You now pick your card for the attack on b3 in secret: drop (1) or crown "
                  "(5) ('pick crown'). Ties go to you; Red (bob) adds +1 with a bricks card.")
        assert answer == prompt
        # The attacker's DM says it too, with the pick buttons; so does the defender's.
        mine = w.dms(blue)[-1]
        assert prompt in message_text(mine) and labels(mine) == ["pick drop", "pick crown"]
        theirs = w.dms(red)[-1]
        assert ("You now pick your card to defend b3 in secret: drop (1) or hammers (2) "
                "('pick hammers'). Ties go to Blue (alice); you add +1 with a bricks card."
                ) in message_text(theirs)
        assert labels(theirs) == ["pick drop", "pick hammers"]
        # Nothing of either hand reaches the channel.
        shown = "\n".join(message_text(m) for m in w.public()[channel_before - 1:])
        assert "You now pick" not in shown and "('pick" not in shown
        assert "Both choose a card in secret." in shown
        # Whoever picks first, the other is still asked by their own DM's buttons.
        said(await red.slash(w.channel, "play", action="pick hammers"))
        assert labels(w.dms(blue)[-1]) == ["pick drop", "pick crown"]
        assert not buttons(w.dms(red)[-1])  # Red's pick is in


@pytest.mark.usefixtures("fight")
async def test_the_board_as_text_lists_every_discard_pile(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        await start(w, "cube-conquest")
        text = said(await w.carol.slash(w.channel, "board", text=True))
        assert "alice's discard pile, face up: arrow, circles (2 cards, the last" in text
        assert "bob's discard pile, face up: bricks (1 card, the last" in text
