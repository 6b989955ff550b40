"""Rule-based players: simple strategies written the way people play each game, to measure
the computer players against play that shares nothing with their search.

Each module here is one game's (``GAME``, its id) and holds ``PEOPLE``: a name for how the
strategy plays -> a function ``(view, legal, rng) -> move``. The function reads only the
seat's own view (``game.view(state, seat)``) and its legal moves, never the state, the
game's ``evaluate`` or anything of ``rules.computer``: a few dozen lines of plain play
(take what pays now, keep a strong card back, keep a chain open, attack when likely to
win).
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable
from typing import Any

Person = Callable[[dict[str, Any], list[str], random.Random], str]


def people() -> dict[str, dict[str, Person]]:
    """Game id -> strategy name -> player, from every module of this package."""
    found: dict[str, dict[str, Person]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found[module.GAME] = dict(module.PEOPLE)
    return found
