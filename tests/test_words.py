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
from bot.discord.client import Boardroom
from bot.discord.words import DISCORD, Translator

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"

# What each field name holds, for formatting every entry: a field of a new name gets a
# sample here (a name says one thing everywhere: `count` is always a number).
SAMPLES: dict[str, object] = {
    "command": "/game new",
    # bot/history.py
    "number": "#5",  # a move's number, as the board numbers moves
    "first": 3, "last": 5,  # the first and last of the move numbers a line names
    "time": 1767225600.0, "since": 1767225600.0,  # moments, as Unix times
    "deadline": 1767312000.0,
    "said": "Blue (Ann) places a cube on b1.",  # a sentence of the game's (its events)
    "player": "Blue (Ann)", "players": "Ann and Bob",  # a seat's label; a listing of them
    "seat": 2,  # a seat's number, from 1
    "game": "Cube Conquest",  # a game's name
    "reason": "Blue holds the most cubes.", "scores": "Blue (Ann) 5, Red (Bob) 3",
    "points": 5, "before": 3, "changes": "Blue (Ann) 3 \u2192 5, Red (Bob) 2",
    "total": 12, "yours": 1,  # how many in all; how many of them are the reader's
    "lock": "\N{LOCK}",
    "heading": "Since your last move",  # a heading said in emphasis, from the catalogue
    "summary": "Blue 5 cubes, Red 3 cubes.",  # a view's one-line summary
    "channel": 123456789,  # a channel's id
    "server": "Board Games",  # a server's name
    "seated": "Ann and Bob sit there.",
    "status": "your turn since yesterday",  # a table's clauses, joined
    "bank": "1d 4h",  # a time bank, as shown
    # bot/discord/
    "error_id": "1f2e3d4c",  # the id an unexpected error is logged under
    "move": "place b1",  # a move, as typed or as its button shows it
    "mentions": "<@1> <@2>",  # members pinged (made by the adapter)
    "title": "Cube Conquest, table 12",  # a replay's table
    "level": "hard", "patient_level": "expert",  # computer levels
    "most": 25, "default": 10,  # an option's bounds
    # bot/terminal.py, bot/cli.py
    "path": "games/try.db",  # a file's path
    "paths": "boardroom-images/t1-v0002-board.png",  # one or more, space-separated
    "name": "Ann",  # a member's (or a terminal player's) name
    "start": "place",  # the first words of a move, to narrow a list of moves
    "quoted": "'place'",  # the same, as the member typed it, quoted (rules.core.quote)
    "played": 4,  # how many moves are played
    "commands": "'board', 'hand', 'quit'.",  # the terminal's other commands
    # tables in threads (threads.toml)
    "winners": "Ann",  # the winners' names, listed
    "table": 12,  # a table's number
    "permission": "Manage Threads",  # a permission's name in Discord's settings
    "why": "HTTP 403, error code 50013: Missing Permissions",  # Discord's refusal
    "place": "in a new thread of that channel",  # where tables open (threads.place.*)
    "option": "thread:",  # a command's option, as typed
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
NOT_SENTENCES = re.compile(r"^(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WITH|PRAGMA)\b"
                           # a component's custom id, or its template: an identifier no player
                           # reads (bot/discord/buttons.py lists them)
                           r"|^br:"
                           # a slash command as a member types it ('/rank game:Cube Conquest'),
                           # the field of a template that says where to type it
                           r"|^/[a-z]+ [a-z]+( [a-z]+)?:"
                           # a file's name ('t1-board.png', 'boardroom-try.db')
                           r"|^[\w-]+\.(png|gif|db|json)$")
# Functions whose text is for maintainers' logs, not players: who did what where, and
# Discord's own answer to a refused request.
LOGGED = {("bot/discord/answer.py", "describe"), ("bot/discord/answer.py", "refusal")}
# Calls whose text is for maintainers, not players: logs, programming errors, arguments.
FOR_MAINTAINERS = {"debug", "info", "warning", "error", "exception", "critical",
                   "RuntimeError", "ValueError", "TypeError", "KeyError", "AssertionError",
                   "NotImplementedError", "add_argument", "ArgumentParser", "SystemExit"}


def built_sentences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    where = str(path.relative_to(ROOT))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (where, node.name) in LOGGED:
            skip.update(id(n) for n in ast.walk(node))
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
                skip.add(id(node.args[0]))  # a key of the catalogue ('history.since.points')
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
    "bot/history.py", "bot/terminal.py", "bot/cli.py", "bot/service/threads.py",
    *(f"bot/discord/{name}.py" for name in (
        "__init__", "answer", "buttons", "choices", "delivery", "desk", "direct", "host",
        "live", "loop", "replays", "threads", "words")),
    *(f"bot/discord/cogs/{name}.py" for name in (
        "__init__", "guide", "looking_back", "me", "play", "ranks", "tables", "threads")),
]
# Modules that speak to maintainers alone, with why.
MAINTAINERS_ONLY: dict[str, str] = {
    "bot/discord/limits.py": "the problems of a command tree Discord would refuse, for the "
                             "operator starting the bot",
    "bot/discord/smoke.py": "the smoke test's steps, run by a maintainer against Discord",
    "bot/discord/client.py": "why the bot refuses to start, for its operator, and its cogs' "
                             "module paths (its error hook answers members through answer.py)",
}


def test_every_surface_module_is_catalogued_or_for_maintainers() -> None:
    surfaces = [*(BOT / "discord").rglob("*.py"), *(BOT / name for name in (
        "history.py", "terminal.py", "cli.py"))]
    listed = set(CATALOGUED) | set(MAINTAINERS_ONLY)
    assert sorted(str(p.relative_to(ROOT)) for p in surfaces
                  if str(p.relative_to(ROOT)) not in listed) == []


@pytest.mark.parametrize("module", CATALOGUED)
def test_no_sentence_is_built_outside_the_catalogue(module: str) -> None:
    assert built_sentences(ROOT / module) == []


def bare(payload: object) -> object:
    """A registration body without the empty localizations a translator adds."""
    if isinstance(payload, list):
        return [bare(item) for item in payload]
    if isinstance(payload, dict):
        return {k: bare(v) for k, v in payload.items()
                if not (k.endswith("_localizations") and v == {})}
    return payload


async def test_the_translator_registers_the_same_commands_in_english_alone() -> None:
    """Command texts come from the catalogue: what registration sends is the English text,
    and with no second language the translator adds nothing but empty localizations."""
    bot = Boardroom()
    await bot.load_commands()
    translator = Translator()
    sent = [await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()]
    assert bare(sent) == bot.registration()
    play = next(c for c in bot.registration() if c["name"] == "play")
    assert play["description"] == words.say("commands.play")


async def test_a_second_language_is_one_more_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    english = words.catalogue()
    french = {"commands.log_count": "Combien de coups (1-{most} ; {default} par défaut)"}
    monkeypatch.setattr(words, "catalogue",
                        lambda language="en": {"en": english, "fr": french}.get(language, {}))
    bot = Boardroom()
    await bot.load_commands()
    log = next(c for c in bot.tree.get_commands() if c.name == "log")
    sent = await log.get_translated_payload(bot.tree, Translator())
    count = sent["options"][0]
    assert count["description"] == "How many moves (1-25; 10 when left out)"
    assert count["description_localizations"] == {"fr": "Combien de coups (1-25 ; 10 par défaut)"}
    assert sent["description_localizations"] == {}  # not translated: English for everyone
