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
    "count": 2,  # a number that chooses the plural form
    # a table and its seats
    "game": "Cube Conquest",  # a game's name
    "player": "Ann",  # a player as the surface shows names (or a label: 'Ann (Blue)')
    "players": "Ann (Blue) and Bob (Red)",  # players, listed (rules.core.listing)
    "opener": "Ann",  # the player who opened the table
    "colour": "Blue",  # a seat's colour as the rules name it
    "seat": 2,  # a seat's number, from 1
    "range": "2-4 players",  # how many players a game takes (Game.players)
    "seated": "2 of 2-4 players seated: Ann and Bob.",  # table.seated, whole
    "reason": "Blue holds the most cubes.",  # a sentence of the rules (an outcome's reason)
    "typed": "'b1'",  # what a member typed, quoted short (rules.core.quote)
    "number": 12,  # a move's number
    "reply": 13,  # the number of a move that answered another
    "why": "it drew something at random",  # why not, a clause (undo.reason, ratings.reason)
    "other": "Bob",  # a second player in one sentence
    "games": "cube-conquest and go",  # game ids, listed
    "table": 7,  # a stored table's number
    "level": "expert",  # a computer player's level
    "levels": "quick, strong and expert",  # computer levels, listed
    "join": "/game join",  # how the surface spells the command that takes a seat
    "start": "/game start",  # ... that starts the game
    "seats": "1. Ann (Blue); 2. Bob (Red) (expert)",  # the seats, each said (looking.seat)
    "summary": "You hold 3 cubes.",  # a view summed up in a sentence (render.summary)
    "scores": "Ann 3, Bob 2",  # each player's final score, said (replies.score)
    "points": "12",  # a player's points, or where they came from (render.recap.sums)
    "unit": "points",  # what a game's points are called (Game.unit)
    "taken": 1,  # moves taken back
    "line": "Blue attacks Red.",  # a line of the channel's text
    "topics": "/rules topic:life",  # topics of a game's guide, each said (replies.topic)
    "lines": 30,  # how many lines
    "log": "/log count:6",  # how the surface spells the command listing the last moves
    "replay": "/game replay move:9",  # ... the command replaying a move
    "replay_last": "/game replay move:14",  # ... the command replaying the last move of several
    "most": 50,  # the most a command takes
    "option": "table",  # a command's option, by name
    "last": 40,  # the last move's number
    "turn": 3,  # a turn's number
    "turns": 12,  # how many turns
    "numbered": "#5",  # a move's number as the board marks it
    "heading": "Replay of Go, table 7",  # a heading, said whole
    "lock": "\N{LOCK}",  # the mark of a line only its reader sees (history.PRIVATE)
    "hands": "Ann (Blue): nothing",  # each seat's hidden part, said (replays.hand)
    "changes": "Ann 3.4 (+3.4), Bob -1.2 (-1.2)",  # each player's rating change, said
    "rating": "3.4",  # a rating as players see it
    "change": "+3.4",  # a rating's change, signed
    "place": 1,  # a place in a ranking
    "won": "1 win",  # wins, said (ratings.one_win, ratings.wins)
    "wins": "1.5",  # how many wins (half a win for a shared one)
    "nexts": "'at' or 'on'",  # the words that may follow, each quoted short
    "starts": "'draw' or 'sell'",  # the first words of a seat's legal moves, quoted short
    "example": "'place 1 at b2'",  # a move, quoted short
    "more": 3,  # how many more there are
    "move": "buy · costs 1 crystal",  # a move (with what it costs, as a list shows it)
    "game_id": "cube-conquest",  # a game's id, as typed
    "about": "A game of cubes and territory.",  # what something is, said
    "patient": "expert",  # the level for tables with long turns
    "hidden": "the other hands",  # what a game hides from its players (Game.hidden)
    "topic": "Life",  # a topic's title in a game's guide
    "text": "A paragraph of a guide.",  # a text, said whole
    "variants": "advanced: more cards",  # a game's variants, each said (rulebook.variant)
    "ask": "/rules topic:",  # how the surface asks for a topic
    "commitment": "9f86d081884c7d65",  # a fair shuffle's commitment (hex digits)
    "expected": "60303ae22b998861",  # the commitment worked out, to compare
    "hashed": "42:abc1",  # the text a commitment hashes, seed:salt
    "seed": 42,  # a game's seed
    "salt": "abc1",  # a game's salt (hex digits)
    "export": "/game export",  # how the surface says to save the move log
    "version": "1.4.0",  # Boardroom's version
    "path": "boardroom-go-table-7.json",  # a file's path
    "error": "No such file or directory",  # what went wrong, in the system's words
    "replayed": "not over",  # how a replayed game ends, said
    "recorded": "scores [3, 2], winning seats [0]",  # how a file says it ends, said
    "format": "boardroom-move-log",  # a file format's name
    "fields": "seed and moves",  # a file's fields, listed
    "totals": "[3, 2]",  # each seat's score, as a file lists them
    "winners": "[0]",  # the winning seats, as a file lists them
    "column": "Buchholz",  # a column's heading
    "figure": "7.5",  # a figure as a table shows it
    "rank": "=1.",  # a rank in standings ('=' when shared)
    "tiebreaks": "Buchholz 7.5, Sonneborn-Berger 5.25",  # tiebreaks, each said
    # time
    "time": 1767225600,  # a moment, as a Unix time
    "ago": "3 days ago",  # how long ago, said (replays.ago)
    "date": "2026-01-03",  # a date, written out
    "span": "2 hours 5 minutes",  # a length of time, said (recap.duration)
    "larger": "2 hours",  # the larger unit of a length
    "smaller": "5 minutes",  # the smaller unit of a length
    "duration": "2d",  # a span as players type it (scheduler.duration)
    "back": "1d",  # what a time bank gets back after each turn
    "clock": "turn time 2d",  # a table's clock, said whole (table.clock_*)
    # the surfaces' (history, Discord, terminal) and threads' fields
    "first": 3,  # the first of the move numbers a line names
    "since": 1767225600.0, "deadline": 1767312000.0,  # moments, as Unix times
    "before": 3,  # points before
    "patient_level": "expert",  # the computer level of tables with long turns
    "default": 10,  # an option's default
    "said": "Blue (Ann) places a cube on b1.",  # a sentence of the game's (its events)
    "total": 12, "yours": 1,  # how many in all; how many of them are the reader's
    "channel": 123456789,  # a channel's id
    "server": "Board Games",  # a server's name
    "status": "your turn since yesterday",  # a table's clauses, joined
    "bank": "1d 4h",  # a time bank, as shown
    "error_id": "1f2e3d4c",  # the id an unexpected error is logged under
    "mentions": "<@1> <@2>",  # members pinged (made by the adapter)
    "title": "Cube Conquest, table 12",  # a replay's table
    "paths": "boardroom-images/t1-v0002-board.png",  # one or more, space-separated
    "name": "Ann",  # a member's (or a terminal player's) name
    "quoted": "'place'",  # the same, as the member typed it, quoted (rules.core.quote)
    "played": 4,  # how many moves are played
    "commands": "'board', 'hand', 'quit'.",  # the terminal's other commands
    "permission": "Manage Threads",  # a permission's name in Discord's settings
    # clocks, digests, tending
    "settings": "Settings: turn time 2d; reminders on.",  # a table's settings sentence
    "banks": "Red (Ann) 2d 4h, running; Blue (Bob) 3d",
    "left": "2d 4h",  # a time left as shown
    "cap": 12,  # a limit (hours a day, days a year)
    "from_hour": 22,  # hours of a day, 0-23
    "to_hour": 7,
    "hours": 9,
    "hour": 8,
    "days_left": 14,
    "zone": "Europe/Paris",  # an IANA time zone
    # leagues (bot/words/en/leagues.toml)
    "league": 3,  # a league's number
    "pairing": "round-robin",  # a league's format: round-robin or swiss
    "size": 3,  # players at each of a league's tables
    "organiser": "Ann",  # the member who runs a league
    "former": "Cy",  # who held a league's place before
    "round": 2, "rounds": 5,  # a league's round, and how many it has
    "rule": "the computer plays out a table still running",  # the deadline rule, said
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
                      if name not in SAMPLES})
    assert not missing, f"fields with no sample in SAMPLES: {missing}"
    with words.speaking(surface):
        for key, entry in words.catalogue().items():
            # an entry with plural forms: each form ('one' for 1, 'other' for 2)
            for count in ((1, 2) if isinstance(entry, dict) else (SAMPLES["count"],)):
                text = words.say(key, **{**SAMPLES, "count": count})
                assert text.strip() and "{" not in text, (key, count)
                assert ("**" in text or "`" in text or "<t:" in text) <= (
                    surface is DISCORD), key


def test_roles_are_markup_only_on_discord() -> None:
    sample = {"command": "/game new", "count": 1}
    with words.speaking(words.PLAIN):
        plain = words.say("table.set_aside", **sample)
    with words.speaking(DISCORD):
        marked = words.say("table.set_aside", **sample)
    assert "'/game new'" in plain and "`" not in plain
    assert "`/game new`" in marked


# Functions given a key of the catalogue, and where: its position among their arguments.
SAYERS = {"say": 0, "described": 0, "seat_for": 1}  # (Table.seat_for: the refusal's key)


def said_keys() -> dict[str, list[str]]:
    """Every literal key given to ``words.say`` (or another of SAYERS) in bot/, with where."""
    keys: dict[str, list[str]] = {}
    for path in BOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            at = SAYERS.get(name or "")
            if (at is not None and len(node.args) > at
                    and isinstance(node.args[at], ast.Constant)
                    and isinstance(node.args[at].value, str)
                    and KEY.match(node.args[at].value)):
                keys.setdefault(node.args[at].value, []).append(
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
                           # a command as a member types it, given to a sentence as a field
                           r"|^/[a-z]+( [a-z]+)*( [a-z_]+:(\{\}|<[a-z]+>))?$"
                           # a file's name ('t1-board.png', 'boardroom-try.db')
                           r"|^[\w-]+\.(png|gif|db|json)$"
                           # a name in kebab case: a file's, a file format's
                           r"|^[a-z]+(-[a-z]+)+(\.json)?$")
# Functions whose text is for maintainers' logs, not players: who did what where, and
# Discord's own answer to a refused request.
LOGGED = {("bot/discord/answer.py", "describe"), ("bot/discord/answer.py", "refusal")}
# Constants whose text is part of a file's format, the same in every language: the move
# log's description of its commitment (bot/fairness.py), which verifiers read.
FILE_FORMAT = {"HASHED"}
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
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in FILE_FORMAT for t in node.targets):
            skip.add(id(node.value))
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
    "bot/scheduler.py", "bot/service/clocks.py", "bot/service/digests.py",
    "bot/service/jobs.py", "bot/service/tending.py",
    *(f"bot/discord/{name}.py" for name in (
        "__init__", "answer", "buttons", "choices", "delivery", "desk", "direct", "host",
        "live", "loop", "replays", "threads", "words")),
    *(f"bot/discord/cogs/{name}.py" for name in (
        "__init__", "guide", "looking_back", "me", "play", "ranks", "tables", "threads")),
    "bot/service/table.py",
    "bot/service/tables.py",
    "bot/service/seats.py",
    "bot/service/turns.py",
    "bot/service/takeback.py",
    "bot/undo.py",
    "bot/service/looking.py",
    "bot/service/looking_back.py",
    "bot/service/outbox.py",
    "bot/service/recap.py",
    "bot/service/replies.py",
    "bot/service/replays.py",
    "bot/ratings.py",
    "bot/moves.py",
    "bot/rulebook.py",
    "bot/fairness.py",
    "bot/leagues/ranking.py",
    "bot/service/__init__.py",
    "bot/service/computers.py",
    "bot/service/direct.py",
    "bot/service/pictures.py",
    "bot/steps.py",
    "bot/timeline.py",
    "bot/__init__.py", "bot/app.py", "bot/records.py", "bot/words/__init__.py",
    "bot/leagues/__init__.py", "bot/leagues/pairing.py", "bot/leagues/records.py",
    "bot/store/engine.py",
    "bot/service/leagues.py", "bot/service/league_tables.py", "bot/service/league_records.py",
    "bot/service/league_words.py", "bot/leagues/codec.py", "bot/discord/cogs/leagues.py",
]
# Modules that speak to maintainers alone, with why.
MAINTAINERS_ONLY: dict[str, str] = {
    "bot/discord/limits.py": "the problems of a command tree Discord would refuse, for the "
                             "operator starting the bot",
    "bot/discord/smoke.py": "the smoke test's steps, run by a maintainer against Discord",
    "bot/discord/client.py": "why the bot refuses to start, for its operator, and its cogs' "
                             "module paths (its error hook answers members through answer.py)",
    "bot/__main__.py": "the command line's usage and the backup's report, for the operator",
    "bot/migrate_db.py": "migrate-db's report and refusals, for the operator",
    "bot/shards.py": "how to name the shards a process runs, for the operator",
    **{f"bot/store/{name}.py": "SQL, and the store's sentences for the operator (those a "
                               "player reads are the catalogue's store.*, said by errors.py)"
       for name in ("__init__", "deliveries", "errors", "jobs", "members", "postgres", "rows",
                    "schema", "seats", "sqlite", "tables", "threads", "leagues")},
}


def test_every_bot_module_is_catalogued_or_for_maintainers() -> None:
    modules = [str(p.relative_to(ROOT)) for p in BOT.rglob("*.py")]
    listed = set(CATALOGUED) | set(MAINTAINERS_ONLY)
    assert sorted(m for m in modules if m not in listed) == []
    assert listed <= set(modules), "a listed module that no longer exists"


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
