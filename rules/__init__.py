"""Boardroom's game rules: pure, deterministic, one module per game.

``GAMES`` maps each game id to its rules object; every game follows the contract in
``rules.core.Game``.
"""

from rules.battle_tiles import BattleTiles
from rules.block_buster import BlockBuster
from rules.bomb_squares import BombSquares
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
from rules.crystallia import Crystallia
from rules.cube_conquest import CubeConquest

GAMES: dict[str, Game] = {game.id: game for game in (  # type: ignore[type-arg]
    CubeConquest(), Crystallia(), BlockBuster(), BattleTiles(), BombSquares())}

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
