"""The catalogue's sentences in Discord's markup, and command texts through discord.py's
``app_commands.Translator``.

``bot.words`` keeps every sentence with its fields' roles (``strong``, ``code``, ``mark``, a
moment's style, ``channel``); this is the one place that turns a role into Discord's markup:
bold, a code span (for ``code`` and ``mark`` alike), a ``<t:UNIX:R>`` timestamp (each reader
sees their own time zone), a ``<#id>`` channel link. ``create_bot`` makes it the process's
default surface.

Command and option descriptions are catalogue entries too (``described``): the English text
is what registration sends, and ``Translator`` gives Discord each further language the
catalogue holds, by the same key.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import words


class DiscordSurface(words.Surface):
    name = "discord"

    def strong(self, text: str) -> str:
        return f"**{text}**" if text else text

    def code(self, text: str) -> str:
        fence = "``" if "`" in text else "`"
        pad = " " if fence == "``" else ""
        return f"{fence}{pad}{text}{pad}{fence}"

    def mark(self, text: str) -> str:
        return self.code(text)

    def moment(self, unix: float, style: str) -> str:
        return f"<t:{int(unix)}:{style}>"

    def channel(self, channel_id: int) -> str:
        return f"<#{channel_id}>"


DISCORD = DiscordSurface()


def described(key: str, /, **fields: Any) -> app_commands.locale_str:
    """A command's, option's or choice's text from the catalogue, in English, keyed (with
    its fields) for ``Translator``."""
    with words.speaking(DISCORD):
        return app_commands.locale_str(words.say(key, **fields), key=key, fields=fields)


class Translator(app_commands.Translator):
    """Command texts in the languages the catalogue has besides English (none yet: every
    text falls back to the English one registration sends)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        language = locale.value.split("-")[0]
        if key is None or language == words.LANGUAGE or key not in words.catalogue(language):
            return None
        with words.speaking(DISCORD, language):
            return words.say(key, **string.extras.get("fields", {}))
