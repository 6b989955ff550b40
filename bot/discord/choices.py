"""The fixed choices slash commands offer: the games, the computer levels, on and off,
the clocks."""

from __future__ import annotations

from discord import app_commands

import rules
from bot.discord.words import described
from rules.computer import LEVEL_WORDS, LEVELS

# The games' names and the levels' words are the games' own (rules/), not the catalogue's.
GAME_CHOICES = [app_commands.Choice(name=game.name, value=game.id)
                for game in rules.GAMES.values()]
LEVEL_CHOICES = [app_commands.Choice(name=f"{level}: {LEVEL_WORDS[level]}", value=level)
                 for level in LEVELS]
SWITCH_CHOICES = [app_commands.Choice(name=described("choices.on"), value="on"),
                  app_commands.Choice(name=described("choices.off"), value="off")]
CLOCK_CHOICES = [app_commands.Choice(name=described("choices.per_turn"), value="per-turn"),
                 app_commands.Choice(name=described("choices.bank"), value="bank")]
