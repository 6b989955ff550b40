"""The wording catalogue (bot/words): every entry formats with sample fields in every
surface, every key said in the code exists and every entry is said somewhere, and no
sentence a player reads is built outside the catalogue."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from bot import words
from bot.discord.words import DISCORD

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"

# What each field name holds, for formatting every entry: a field of a new name gets a
# sample here (a name says one thing everywhere: `count` is always a number).
SAMPLES: dict[str, object] = {
    "command": "/game new",
    # tables in threads (threads.toml)
    "game": "Cube Conquest",  # a game's name
    "player": "Ann",  # a member's name, as the surface shows it
    "players": "Ann and Bob",  # members' names, listed
    "winners": "Ann",  # the winners' names, listed
    "scores": "Ann 12, Bob 9",  # each seat's name and final points
    "channel": 123456789012345678,  # a channel's id (a thread's)
    "table": 12,  # a table's number
    "permission": "Manage Threads",  # a permission's name in Discord's settings
    "why": "HTTP 403, error code 50013: Missing Permissions",  # Discord's refusal
    "place": "in a new thread of that channel",  # where tables open (threads.place.*)
    "option": "thread:",  # a command's option, as typed
    # clocks, digests, tending
    "typed": "'frobnicate'",  # what a member typed, quoted short (rules.core.quote)
    "settings": "Settings: turn time 2d; reminders on.",  # a table's settings sentence
    "banks": "Red (Ann) 2d 4h, running; Blue (Bob) 3d",
    "seat": "Red (Ann)",  # a seat's label: its colour and its player
    "left": "2d 4h",  # a time left as shown
    "cap": 12,  # a limit (hours a day, days a year)
    "from_hour": 22,  # hours of a day, 0-23
    "to_hour": 7,
    "hours": 9,
    "hour": 8,
    "days_left": 14,
    "zone": "Europe/Paris",  # an IANA time zone
    "number": 12,  # a move's number
    "time": 1767225600,  # a moment, Unix time
}


def fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0]
            for _, name, _, _ in string.Formatter().parse(template) if name}


def templates() -> list[tuple[str, str]]:
    found = []
    for key, entry in words.catalogue().items():
        forms = entry.values() if isinstance(entry, dict) else [entry]
        found += [(key, form) for form in forms]
    return found


@pytest.mark.parametrize("surface", [words.PLAIN, DISCORD], ids=lambda s: s.name)
def test_every_entry_formats_with_sample_fields(surface: words.Surface) -> None:
    missing = sorted({f"{key}: {name}" for key, form in templates() for name in fields(form)
                      if name not in SAMPLES and name != "count"})  # count: given below
    assert not missing, f"fields with no sample in SAMPLES: {missing}"
    with words.speaking(surface):
        for key in words.catalogue():
            text = words.say(key, **SAMPLES, count=2)
            assert text.strip() and "{" not in text, key
            assert ("**" in text or "`" in text or "<t:" in text) <= (surface is DISCORD), key


def test_roles_are_markup_only_on_discord() -> None:
    sample = {"command": "/game new", "count": 1}
    with words.speaking(words.PLAIN):
        plain = words.say("table.set_aside", **sample)
    with words.speaking(DISCORD):
        marked = words.say("table.set_aside", **sample)
    assert "'/game new'" in plain and "`" not in plain
    assert "`/game new`" in marked


def said_keys() -> dict[str, list[str]]:
    """Every literal key given to ``words.say`` (or ``say``) in bot/, with where."""
    keys: dict[str, list[str]] = {}
    for path in BOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                    and KEY.match(node.args[0].value)
                    and (getattr(node.func, "attr", None) in {"say", "described"}
                         or getattr(node.func, "id", None) in {"say", "described"})):
                keys.setdefault(node.args[0].value, []).append(
                    f"{path.relative_to(ROOT)}:{node.lineno}")
    return keys


def test_every_key_said_exists_and_every_entry_is_said() -> None:
    said = said_keys()
    entries = set(words.catalogue())
    assert not {k: v for k, v in said.items() if k not in entries}, "keys not in the catalogue"
    assert not entries - set(said), "entries no code says"


KEY = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")
# Three words and more, or two and a full stop: a sentence or a piece of one.
SENTENCE = re.compile(r"[A-Za-z]{2,}\W+[A-Za-z]+\W+[A-Za-z]{2,}|[A-Za-z]{2,} [A-Za-z]+[.:!?]")
NOT_SENTENCES = re.compile(r"^(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WITH|PRAGMA)\b")
# Calls whose text is for maintainers, not players: logs, programming errors, arguments.
FOR_MAINTAINERS = {"debug", "info", "warning", "error", "exception", "critical",
                   "RuntimeError", "ValueError", "TypeError", "KeyError", "AssertionError",
                   "NotImplementedError", "add_argument", "ArgumentParser", "SystemExit"}


def built_sentences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)):
            skip.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in FOR_MAINTAINERS:
                skip.update(id(n) for arg in [*node.args, *(k.value for k in node.keywords)]
                            for n in ast.walk(arg))
            if name in {"say", "described"} and node.args:
                skip.add(id(node.args[0]))  # a catalogue key
        if isinstance(node, ast.Assert) and node.msg is not None:
            skip.update(id(n) for n in ast.walk(node.msg))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values
                           if isinstance(v, ast.Constant | ast.FormattedValue))
            skip.update(id(v) for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if SENTENCE.search(text) and not NOT_SENTENCES.match(text):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:60]!r}")
    return found


# The modules whose sentences are already in the catalogue; every bot/ module belongs here
# but those in MAINTAINERS_ONLY.
CATALOGUED: list[str] = [
    "bot/service/threads.py", "bot/discord/threads.py", "bot/discord/cogs/threads.py",
    "bot/scheduler.py", "bot/service/clocks.py", "bot/service/digests.py",
    "bot/service/jobs.py", "bot/service/tending.py", "bot/discord/loop.py",
]


@pytest.mark.parametrize("module", CATALOGUED)
def test_no_sentence_is_built_outside_the_catalogue(module: str) -> None:
    assert built_sentences(ROOT / module) == []
