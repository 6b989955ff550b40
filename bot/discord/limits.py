"""Discord's documented limits that its OpenAPI specification does not carry, written once.

Discord refuses a request that breaks one of these with HTTP 400, and SimCord accepts it,
so the bot checks what it can before it sends (``boardroom check`` and every start check
the command tree with ``command_problems``) and the tests check every request their
simulated Discord saw (``tests/contract.py``). Everything here is a pure function over the
JSON Discord receives. Each problem is one sentence naming the command or the field (a
message's fields by JSON path, ``$.components[0].custom_id``), and the limit.

- ``command_problems``: a command registration (names, descriptions, options, choices);
- ``choices_problems``: an option's choices, or an autocomplete's answers;
- ``message_problems``: a message, new or edited (content, embeds, custom ids, labels,
  selects, action rows, Components V2 and its 40 components and 4,000 characters of text,
  ``attachment://`` names);
- ``mention_problems``: whom a message may ping, named exactly.

Sources: Discord's developer documentation, "Application Commands" (names, descriptions,
options, choices, the 4,000 characters of a command), "Receiving and Responding"
(autocomplete answers), "Message Resource" (content, embeds, allowed mentions,
attachments), "Component Reference" (custom ids, labels, selects, action rows, Components V2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

NAME = 32  # a command's, subcommand's or option's name: 1-32 characters, lower case
DESCRIPTION = 100  # a chat command's, subcommand's or option's description: 1-100
OPTIONS = 25  # options (or subcommands) of one command or group
CHOICES = 25  # choices of an option, and the answers of an autocomplete
CHOICE = 100  # a choice's name, and a string choice's value
COMMAND_CHARACTERS = 4000  # names, descriptions and choice values of one command, in all
COMMANDS = 100  # chat commands of one application, globally or in one guild

CHAT_INPUT = 1  # the command type of slash commands (user and message commands differ)
SUBCOMMAND, GROUP = 1, 2  # option types that hold options of their own


def command_problems(commands: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every limit the command registration ``commands`` (the JSON body of ``PUT
    /applications/{id}/commands``) breaks, one sentence each: ``[]`` when Discord would
    take it."""
    problems: list[str] = []
    chat = [c for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT]
    if len(chat) > COMMANDS:
        problems.append(f"There are {len(chat)} slash commands; Discord allows {COMMANDS}.")
    names = [str(c.get("name", "")) for c in commands]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"/{name} is registered twice; command names must differ.")
    for command in commands:
        chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
        where = f"/{command.get('name', '')}" if chat_input else repr(command.get("name"))
        problems += _item_problems(command, where, chat_input=chat_input)
        if chat_input:
            total = sum(len(text) for text in _texts(command))
            if total > COMMAND_CHARACTERS:
                problems.append(f"{where} has {total:,} characters of names, descriptions "
                                f"and choices in all; Discord allows {COMMAND_CHARACTERS:,}.")
    return problems


def choices_problems(choices: Sequence[Mapping[str, Any]], where: str) -> list[str]:
    """What Discord refuses in a list of choices (an option's, or an autocomplete's answer):
    at most 25, each name 1-100 characters and a string value at most 100."""
    problems: list[str] = []
    if len(choices) > CHOICES:
        problems.append(f"{where} has {len(choices)} choices; Discord allows {CHOICES}.")
    for choice in choices:
        name = str(choice.get("name", ""))
        if not 1 <= len(name) <= CHOICE:
            problems.append(f"{where}: the choice {name[:40]!r} has a name of {len(name)} "
                            f"characters; Discord allows 1-{CHOICE}.")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE:
            problems.append(f"{where}: the choice {name[:40]!r} has a value of {len(value)} "
                            f"characters; Discord allows {CHOICE}.")
    return problems


def _item_problems(item: Mapping[str, Any], where: str, *, chat_input: bool) -> list[str]:
    """A command's or an option's own limits, then its options' (recursively)."""
    problems: list[str] = []
    name = str(item.get("name", ""))
    if not 1 <= len(name) <= NAME:
        problems.append(f"{where}: the name is {len(name)} characters; Discord allows "
                        f"1-{NAME}.")
    if chat_input and (name != name.lower()
                       or not all(ch.isalnum() or ch in "-_'" for ch in name)):
        problems.append(f"{where}: the name {name[:40]!r} must be lower case letters, digits, "
                        f"'-' or '_'.")
    if chat_input:
        description = str(item.get("description", ""))
        if not 1 <= len(description) <= DESCRIPTION:
            problems.append(f"{where}: the description is {len(description)} characters; "
                            f"Discord allows 1-{DESCRIPTION}.")
    options: Sequence[Mapping[str, Any]] = item.get("options") or []
    if len(options) > OPTIONS:
        problems.append(f"{where} has {len(options)} options; Discord allows {OPTIONS}.")
    seen_optional = False
    for option in options:
        label = f"{where} {option.get('name', '')}"
        if option.get("type") in (SUBCOMMAND, GROUP):
            problems += _item_problems(option, label, chat_input=chat_input)
            continue
        problems += _item_problems(option, f"{where} option {option.get('name', '')!r}",
                                   chat_input=chat_input)
        if option.get("required"):
            if seen_optional:
                problems.append(f"{where}: the required option {option.get('name')!r} "
                                f"comes after an optional one; Discord wants required first.")
        else:
            seen_optional = True
        problems += choices_problems(option.get("choices") or [],
                                     f"{where} option {option.get('name', '')!r}")
    return problems


def _texts(item: Mapping[str, Any]) -> Iterator[str]:
    """The texts Discord counts towards a command's 4,000 characters."""
    yield str(item.get("name", ""))
    yield str(item.get("description", ""))
    for choice in item.get("choices") or []:
        yield str(choice.get("name", ""))
        yield str(choice.get("value", ""))
    for option in item.get("options") or []:
        yield from _texts(option)


# --------------------------------------------------------------------------- messages

CONTENT = 2000  # a message's content
CUSTOM_ID = 100  # a component's custom id
LABEL = 80  # a button's label
SELECT_OPTIONS = 25  # a select menu's options
SELECT_OPTION = 100  # an option's label, value and description
PLACEHOLDER = 150  # a select menu's placeholder
ROWS, ROW = 5, 5  # a legacy message: action rows, and buttons in a row
V2_FLAG = 1 << 15  # IS_COMPONENTS_V2: the message is its components only
V2_COMPONENTS = 40  # components of a V2 message, nested ones counted
V2_TEXT = 4000  # the characters of all a V2 message's text displays together
EMBEDS = 10
EMBED_TOTAL = 6000  # characters of all a message's embeds together
EMBED_FIELDS = 25
EMBED_TEXT = {"title": 256, "description": 4096}
FIELD_TEXT = {"name": 256, "value": 1024}
ATTACHMENT = "attachment://"
MENTION = re.compile(r"<@!?(\d+)>")  # a member mentioned in a text

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable and channel selects
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9, 10, 11, 12, 13, 14, 17)
LAYOUT_ONLY = (SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)


def message_problems(body: Mapping[str, Any], *, edit: bool = False,
                     kept: Mapping[str, str] | None = None) -> list[str]:
    """Every documented limit a message's JSON body (a new message, an edit with ``edit``,
    an interaction's or a webhook's message) breaks, one sentence each beginning with the
    field's JSON path (``$.components[0].custom_id: ...``); ``[]`` when Discord would take
    it. ``kept`` names the files of kept attachments (id -> filename) whose entries in
    ``attachments`` do not carry their filename (discord.py's always do)."""
    problems: list[str] = []
    flags = body.get("flags") or 0  # a flags that is no integer: the schema names it
    components: Sequence[Mapping[str, Any]] = body.get("components") or []
    v2 = isinstance(flags, int) and bool(flags & V2_FLAG)
    if not v2 and components and any(c.get("type") in LAYOUT_ONLY for c in components):
        if not edit:  # an edit keeps the flag the message was posted with
            problems.append("$.flags: layout components (sections, text displays, media, "
                            "containers) need the IS_COMPONENTS_V2 flag (1 << 15).")
        v2 = True
    content = body.get("content")
    if v2:
        if content:
            problems.append("$.content: a Components V2 message may not have content; "
                            "put the text in a text display.")
        if body.get("embeds"):
            problems.append("$.embeds: a Components V2 message may not have embeds.")
        if body.get("poll"):
            problems.append("$.poll: a Components V2 message may not have a poll.")
        count = sum(1 for _ in _walk(components, "$.components"))
        if count > V2_COMPONENTS:
            problems.append(f"$.components: {count} components in all (nested ones "
                            f"counted); Discord allows {V2_COMPONENTS}.")
        text = sum(len(str(c.get("content", ""))) for c, _ in _walk(components, "$.components")
                   if c.get("type") == TEXT_DISPLAY)
        if text > V2_TEXT:
            problems.append(f"$.components: {text:,} characters of text displays in all; "
                            f"Discord allows {V2_TEXT:,}.")
    else:
        if isinstance(content, str) and len(content) > CONTENT:
            problems.append(f"$.content: {len(content):,} characters; Discord allows "
                            f"{CONTENT:,}.")
        problems += _legacy_rows(components)
    problems += component_problems(components, "$.components")
    problems += embed_problems(body.get("embeds") or [])
    problems += attachment_problems(body, kept or {})
    return problems


def component_problems(components: Sequence[Mapping[str, Any]], path: str) -> list[str]:
    """The limits of each component, nested ones too: custom ids (at most 100 characters,
    each used once), button labels, select menus and their options, action rows."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for component, where in _walk(components, path):
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if not 1 <= len(custom_id) <= CUSTOM_ID:
                problems.append(f"{where}.custom_id: {len(custom_id)} characters; Discord "
                                f"allows 1-{CUSTOM_ID}.")
            if custom_id in seen:
                problems.append(f"{where}.custom_id: {custom_id[:40]!r} is used twice (also "
                                f"{seen[custom_id]}); custom ids must differ.")
            seen.setdefault(custom_id, where)
        if kind == BUTTON and len(str(component.get("label") or "")) > LABEL:
            problems.append(f"{where}.label: {len(component['label'])} characters; Discord "
                            f"allows {LABEL}.")
        if kind == ACTION_ROW:
            children = component.get("components") or []
            buttons = sum(1 for c in children if c.get("type") == BUTTON)
            selects = sum(1 for c in children if c.get("type") in SELECTS)
            if buttons > ROW:
                problems.append(f"{where}.components: {buttons} buttons in a row; Discord "
                                f"allows {ROW}.")
            if selects and len(children) > 1:
                problems.append(f"{where}.components: a select menu fills its row alone.")
        if kind in SELECTS:
            problems += _select_problems(component, where)
    return problems


def embed_problems(embeds: Sequence[Mapping[str, Any]]) -> list[str]:
    """An embed's limits: titles, descriptions, fields, footers and authors, and 6,000
    characters of all a message's embeds together."""
    problems: list[str] = []
    if len(embeds) > EMBEDS:
        problems.append(f"$.embeds: {len(embeds)} embeds; Discord allows {EMBEDS}.")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"$.embeds[{i}]"
        texts = {key: str(embed.get(key) or "") for key in EMBED_TEXT}
        texts["footer.text"] = str((embed.get("footer") or {}).get("text") or "")
        texts["author.name"] = str((embed.get("author") or {}).get("name") or "")
        limits = {**EMBED_TEXT, "footer.text": 2048, "author.name": 256}
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            problems.append(f"{where}.fields: {len(fields)} fields; Discord allows "
                            f"{EMBED_FIELDS}.")
        for j, item in enumerate(fields):
            for key, limit in FIELD_TEXT.items():
                texts[f"fields[{j}].{key}"] = str(item.get(key) or "")
                limits[f"fields[{j}].{key}"] = limit
        for key, text in texts.items():
            total += len(text)
            if len(text) > limits[key]:
                problems.append(f"{where}.{key}: {len(text):,} characters; Discord allows "
                                f"{limits[key]:,}.")
    if total > EMBED_TOTAL:
        problems.append(f"$.embeds: {total:,} characters in all; Discord allows "
                        f"{EMBED_TOTAL:,}.")
    return problems


def attachment_problems(body: Mapping[str, Any], kept: Mapping[str, str]) -> list[str]:
    """Every ``attachment://NAME`` the message shows (a media gallery's items, a thumbnail,
    a file component, an embed's image) names a file in the body's ``attachments``: an
    upload (``{"id": index, "filename": ...}``) or a kept attachment (``{"id": snowflake}``,
    its filename from the entry or from ``kept``). An edit that shows an attachment lists
    it, even one the message already has."""
    listed: set[str] = set()
    unnamed: list[str] = []
    for entry in body.get("attachments") or []:
        name = entry.get("filename") or kept.get(str(entry.get("id")))
        if name:
            listed.add(str(name))
        else:
            unnamed.append(str(entry.get("id")))
    problems: list[str] = []
    for url, where in _media_urls(body):
        if not url.startswith(ATTACHMENT):
            continue
        name = url[len(ATTACHMENT):]
        if name not in listed:
            why = (f" (kept attachments {', '.join(unnamed)} carry no filename)"
                   if unnamed else "")
            problems.append(f"{where}: {url} names no file in $.attachments{why}.")
    return problems


def mention_problems(body: Mapping[str, Any]) -> list[str]:
    """Whom a message may ping, named exactly. ``allowed_mentions`` is present (without it
    Discord pings everyone the text mentions, @everyone and roles too); it pings no role
    and not @everyone (``parse`` names neither, ``roles`` lists none: the bot never means
    to); a member is pinged only when ``users`` lists them, so ``parse: ["users"]`` is
    refused where the text mentions anyone (it would ping them unlisted), and ``users``
    lists only members the text mentions; a reply does not ping its author. A member
    mentioned in the text and not listed is shown as a mention and pinged by nobody: that
    is how a message names a player without a ping."""
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return ["$.allowed_mentions: missing, so Discord would ping everyone the text "
                "mentions (@everyone and roles too); name whom it may ping."]
    problems: list[str] = []
    parse = allowed.get("parse") or []
    for kind in ("everyone", "roles"):
        if kind in parse:
            problems.append(f"$.allowed_mentions.parse: {kind!r} lets the text ping "
                            f"{'@everyone and @here' if kind == 'everyone' else 'roles'}; "
                            f"the bot pings members only.")
    if allowed.get("roles"):
        problems.append("$.allowed_mentions.roles: lists roles to ping; the bot pings "
                        "members only.")
    mentioned = {user_id for text, _ in _texts_of(body) for user_id in MENTION.findall(text)}
    for user_id in allowed.get("users") or []:
        if str(user_id) not in mentioned:
            problems.append(f"$.allowed_mentions.users: lists {user_id} to ping, whom the "
                            f"text does not mention.")
    if "users" in parse:
        if allowed.get("users"):
            problems.append("$.allowed_mentions: parse 'users' beside a users list; "
                            "Discord refuses the two together.")
        for text, where in _texts_of(body):
            for user_id in MENTION.findall(text):
                problems.append(f"{where}: <@{user_id}> would be pinged without being "
                                f"listed in $.allowed_mentions.users (parse has 'users').")
    if body.get("message_reference") and allowed.get("replied_user"):
        problems.append("$.allowed_mentions.replied_user: the reply would ping its author.")
    return problems


def _texts_of(body: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """The texts of a message that can mention someone, with their JSON paths: its
    content and its text displays."""
    if isinstance(body.get("content"), str):
        yield body["content"], "$.content"
    for component, where in _walk(body.get("components") or [], "$.components"):
        if component.get("type") == TEXT_DISPLAY:
            yield str(component.get("content", "")), f"{where}.content"


def _walk(components: Sequence[Mapping[str, Any]], path: str
          ) -> Iterator[tuple[Mapping[str, Any], str]]:
    """Every component with its JSON path, nested ones (rows, sections' accessories,
    containers) after their parent."""
    for i, component in enumerate(components):
        where = f"{path}[{i}]"
        yield component, where
        yield from _walk(component.get("components") or [], f"{where}.components")
        accessory = component.get("accessory")
        if accessory:
            yield accessory, f"{where}.accessory"


def _legacy_rows(components: Sequence[Mapping[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(components) > ROWS:
        problems.append(f"$.components: {len(components)} action rows; Discord allows "
                        f"{ROWS}.")
    for i, row in enumerate(components):
        if row.get("type") != ACTION_ROW:
            problems.append(f"$.components[{i}]: a message without the IS_COMPONENTS_V2 "
                            f"flag holds action rows only (type {row.get('type')}).")
    return problems


def _select_problems(select: Mapping[str, Any], where: str) -> list[str]:
    problems: list[str] = []
    placeholder = str(select.get("placeholder") or "")
    if len(placeholder) > PLACEHOLDER:
        problems.append(f"{where}.placeholder: {len(placeholder)} characters; Discord "
                        f"allows {PLACEHOLDER}.")
    options = select.get("options") or []
    if len(options) > SELECT_OPTIONS:
        problems.append(f"{where}.options: {len(options)} options; Discord allows "
                        f"{SELECT_OPTIONS}.")
    for j, option in enumerate(options):
        for key in ("label", "value", "description"):
            text = str(option.get(key) or "")
            if len(text) > SELECT_OPTION:
                problems.append(f"{where}.options[{j}].{key}: {len(text)} characters; "
                                f"Discord allows {SELECT_OPTION}.")
    return problems


def _media_urls(body: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """The URLs a message shows media from, each with its JSON path."""
    for component, where in _walk(body.get("components") or [], "$.components"):
        kind = component.get("type")
        if kind == MEDIA_GALLERY:
            for j, item in enumerate(component.get("items") or []):
                yield str((item.get("media") or {}).get("url", "")), \
                    f"{where}.items[{j}].media.url"
        elif kind == THUMBNAIL:
            yield str((component.get("media") or {}).get("url", "")), f"{where}.media.url"
        elif kind == FILE:
            yield str((component.get("file") or {}).get("url", "")), f"{where}.file.url"
    for i, embed in enumerate(body.get("embeds") or []):
        for key in ("image", "thumbnail"):
            url = (embed.get(key) or {}).get("url")
            if url:
                yield str(url), f"$.embeds[{i}].{key}.url"
