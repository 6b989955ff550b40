"""What the service says: every event names players by their names, in the channel and in
private, and the end of a game says why it ended (the outcome's own sentence)."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import rules
from bot.service import TableService
from bot.service.replies import untold
from bot.store import Store

CH = 700
ANN, BOB, CY = 201, 202, 203


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(str(tmp_path / "a.db"))
    yield TableService(store, images=False)
    await store.close()


async def play_out(service: TableService, game: str, seed: int) -> list[str]:
    """Ann, Bob and Cy (if the game takes three) play ``game`` with random moves to its end;
    every line said, in the channel (as is) and in private (prefixed 'private: ')."""
    await service.open(CH, 1, ANN, "Ann", game)
    await service.join(CH, BOB, "Bob")
    if rules.GAMES[game].max_players >= 3:
        await service.join(CH, CY, "Cy")
    replies = [await service.start(CH, ANN, seed=seed)]
    rng = random.Random(seed)
    while waiting := await service.waiting(CH):
        user = rng.choice(waiting)[0]
        moves = await service.legal_moves(CH, user)
        replies.append(await service.play(CH, user, rng.choice(moves)))
    said = []
    for reply in replies:
        said += reply.public.splitlines()
        said += [f"private: {line}" for p in reply.private for line in p.text.splitlines()]
        said += [f"private: {line}" for line in reply.ephemeral.splitlines()]
    return said


async def test_crystallia_names_players_not_seat_numbers(service: TableService) -> None:
    said = await play_out(service, "crystallia", 4)
    assert not [line for line in said if re.search(r"\bPlayer [1-4]\b", line)]
    assert any(line.startswith("Bob takes stone ") for line in said)
    assert sum(line.startswith("Game over") for line in said) == 1


@pytest.mark.parametrize("game", sorted(rules.GAMES))
async def test_the_end_says_why_in_the_outcomes_words(service: TableService, game: str
                                                      ) -> None:
    """The closing line is the outcome's reason with names put in, and the final score."""
    said = await play_out(service, game, 7)
    (closing,) = [line for line in said if line.startswith("Game over")]
    if closing.startswith("Game over. "):  # the game's own closing line said why
        state_reason = next(line for line in reversed(said)
                            if line.startswith("The game ends"))
    else:
        state_reason = closing.removeprefix("Game over: ").split(" Final score: ")[0]
    assert state_reason and state_reason.endswith((".", "!"))
    assert re.search(r"Final score: Ann -?\d+, Bob -?\d+(, Cy -?\d+)?\.$", closing)
    assert (any(name in state_reason for name in ("Ann", "Bob", "Cy"))
            or "draw" in state_reason.lower())
    # 'The game ends: Every tile has been placed.' was followed by 'Game over: Every tile
    # has been placed. Red wins ...': the closing line now says only what is new
    for end in [line for line in said if line.startswith("The game ends")]:
        why = end.split(": ", 1)[-1].split(". ")[0].rstrip(".")
        assert why not in closing, (end, closing)


def test_untold_keeps_what_the_lines_did_not_say() -> None:
    reason = "Every tile has been placed. Red wins with 6 points."
    assert untold(reason, ["The game ends: Every tile has been placed."]) == \
        "Red wins with 6 points."
    assert untold(reason, [f"x {reason}"]) == ""
    assert untold(reason, ["Red moves."]) == reason
