"""The fixed choices slash commands offer: the games, the computer levels, on and off,
the clocks."""

from __future__ import annotations

from discord import app_commands

import rules
from rules.computer import LEVEL_WORDS, LEVELS

GAME_CHOICES = [app_commands.Choice(name=game.name, value=game.id)
                for game in rules.GAMES.values()]
LEVEL_CHOICES = [app_commands.Choice(name=f"{level}: {LEVEL_WORDS[level]}", value=level)
                 for level in LEVELS]
SWITCH_CHOICES = [app_commands.Choice(name=word, value=word) for word in ("on", "off")]
CLOCK_CHOICES = [app_commands.Choice(name="per-turn: the turn time for every turn",
                                     value="per-turn"),
                 app_commands.Choice(name="bank: a time bank per player, topped up each turn",
                                     value="bank")]
