"""Boardroom's game rules: pure, deterministic, one module per game.

``GAMES`` maps each game id to its rules object; every game follows the contract in
``rules.core.Game``.
"""

from rules.core import (
    Event,
    Game,
    GameError,
    GameOver,
    IllegalMove,
    InvalidMove,
    NotYourTurn,
    Outcome,
    State,
)
from rules.cube_conquest import CubeConquest

GAMES: dict[str, Game] = {game.id: game for game in (CubeConquest(),)}  # type: ignore[type-arg]

__all__ = [
    "GAMES",
    "Event",
    "Game",
    "GameError",
    "GameOver",
    "IllegalMove",
    "InvalidMove",
    "NotYourTurn",
    "Outcome",
    "State",
]
