"""The bot's cogs, one per feature: tables (``/game``, ``/board``, ``/hand``, ``/rules``) and
play (``/play`` with its autocomplete)."""

EXTENSIONS = ("bot.cogs.tables", "bot.cogs.play")
