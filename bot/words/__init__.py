"""One wording catalogue: every sentence a player reads, keyed by a message id.

The sentences live in TOML files beside this module, one per area (``en/table.toml``,
``en/discord.toml``...); together they are one catalogue whose keys are ``<area>.<name>``
(``table.busy``). An entry is a template for Python's ``string.Formatter`` with named
fields::

    busy = "A game of {game:strong} is already running here: {hint:code} shows it."

or, where a sentence depends on a number, one template per plural category (CLDR's, as
Babel names them: ``one``, ``other``; other languages add ``few``, ``many``...), chosen by the
field ``count``::

    [table.moves]
    one = "{count} legal move:"
    other = "{count} legal moves:"

Code never writes a sentence: it calls ``say("table.busy", game=..., hint=...)``.

**Markup belongs to the surface.** A template marks what a field *is* with a role in its
format spec, never with Discord markup: ``strong`` (said with emphasis), ``code`` (something
to type, or typed: a move, a command), ``mark`` (a label set in fixed type where the surface
has it, such as a move's number, and said bare elsewhere), ``R``/``f``/``t``/``D`` (a
moment, given as a Unix time: relative, full, short time, date), ``channel`` (a channel id).
The surface in use (``Surface``: ``PLAIN`` here for the terminal and logs; the Discord
adapter's own in ``bot.discord.words``, which makes ``**bold**``, code spans and ``<t:…:R>``
timestamps) renders each role. Which surface and which language a sentence is said in is the
caller's context (``speaking``, which the terminal sets around everything it does, as a web
framework activates a request's language); where no caller chose, the process's default
(``by_default``: plain text, until a Discord bot is made, which makes Discord's the
default).

A second language is one more folder of TOML files (``fr/``), and discord.py's
``app_commands.Translator`` reads command texts from the same catalogue
(``bot.discord.words``).
"""

from __future__ import annotations

import string
import time
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

HERE = Path(__file__).parent
LANGUAGE = "en"  # the language every entry exists in; others may leave entries out
MOMENTS = {"R", "f", "F", "t", "T", "d", "D"}  # Discord's timestamp styles


Entry = str | dict[str, str]


@cache
def catalogue(language: str = LANGUAGE) -> Mapping[str, Entry]:
    """Every entry of one language, keyed ``<area>.<name>`` (an area is a file's stem)."""
    entries: dict[str, Entry] = {}
    for path in sorted((HERE / language).glob("*.toml")):
        with path.open("rb") as file:
            _flatten(path.stem, tomllib.load(file), entries)
    return entries


def _flatten(prefix: str, table: Mapping[str, Any], into: dict[str, Entry]) -> None:
    for name, value in table.items():
        key = f"{prefix}.{name}"
        if isinstance(value, str):
            into[key] = value
        elif isinstance(value, dict) and "other" in value and all(
                isinstance(v, str) for v in value.values()):
            into[key] = dict(value)  # plural forms
        elif isinstance(value, dict):
            _flatten(key, value, into)
        else:
            raise TypeError(f"{key}: an entry is a template or a table of plural forms")


class Surface(string.Formatter):
    """Renders the roles of a template's fields for one surface; this one in plain text
    (the terminal, logs): emphasis and code marks dropped, moments as local dates."""

    name = "plain"

    def format_field(self, value: Any, format_spec: str) -> str:
        role, _, rest = format_spec.partition(":")
        if role == "strong":
            return self.strong(self.format_field(value, rest))
        if role == "code":
            return self.code(self.format_field(value, rest))
        if role == "mark":
            return self.mark(self.format_field(value, rest))
        if role in MOMENTS:
            return self.moment(float(value), role)
        if role == "channel":
            return self.channel(int(value))
        return str(super().format_field(value, format_spec))

    def strong(self, text: str) -> str:
        return text

    def code(self, text: str) -> str:
        return f"'{text}'"

    def mark(self, text: str) -> str:
        """A label in fixed type (a move's number): bare in plain text, not quoted."""
        return text

    def moment(self, unix: float, style: str) -> str:
        shape = "%H:%M" if style in {"t", "T"} else "%Y-%m-%d" if style in {"d", "D"} \
            else "%Y-%m-%d %H:%M"
        return time.strftime(shape, time.localtime(unix))

    def channel(self, channel_id: int) -> str:
        return f"channel {channel_id}"


PLAIN = Surface()


@dataclass(frozen=True)
class Speaking:
    surface: Surface
    language: str = LANGUAGE


_default: list[Speaking] = [Speaking(PLAIN)]
_speaking: ContextVar[Speaking | None] = ContextVar("speaking", default=None)


def by_default(surface: Surface, language: str = LANGUAGE) -> None:
    """The surface sentences are said in where no caller chose one (set by the Discord
    adapter at import, so the bot's default is its own markup)."""
    _default[0] = Speaking(surface, language)


def current() -> Speaking:
    return _speaking.get() or _default[0]


@contextmanager
def speaking(surface: Surface, language: str = LANGUAGE) -> Iterator[None]:
    """Say every sentence within in ``surface``'s markup and in ``language``."""
    token = _speaking.set(Speaking(surface, language))
    try:
        yield
    finally:
        _speaking.reset(token)


def template(key: str, count: int | None = None, language: str | None = None) -> str:
    """The template of ``key`` in ``language`` (falling back to English), its plural form
    chosen by ``count`` where it has several."""
    language = language or current().language
    entry = catalogue(language).get(key) or catalogue(LANGUAGE)[key]
    if isinstance(entry, str):
        return entry
    if count is None:
        raise KeyError(f"{key} has plural forms: say it with a count")
    form = _locale(language).plural_form(abs(count))
    return entry.get(form) or entry["other"]


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def say(key: str, /, **fields: Any) -> str:
    """The sentence ``key`` with ``fields``, in the current surface and language."""
    now = current()
    count = fields.get("count")
    return now.surface.format(template(key, count if isinstance(count, int) else None,
                                       now.language), **fields)

