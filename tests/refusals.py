"""The one check every rules test uses for a refused move."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules import Game


def assert_refused(game: Game, state: Any, seat: int, text: str,  # type: ignore[type-arg]
                   error: type[Exception], message: str) -> None:
    """``text`` is refused with exactly this class and sentence, and nothing changes.

    Each game's tests bind their game once: ``refused = partial(assert_refused, GAME)``.
    """
    before = json.dumps(game.dump(state), sort_keys=True)
    with pytest.raises(error) as caught:
        game.play(state, seat, text)
    assert type(caught.value) is error
    assert str(caught.value) == message
    assert json.dumps(game.dump(state), sort_keys=True) == before
