"""Discord's documented limits that its OpenAPI specification does not carry, written once.

Discord refuses a request that breaks one of these with HTTP 400, and SimCord accepts it,
so the bot checks what it can before it sends (``boardroom check`` and every start check
the command tree with ``command_problems``) and the tests check every request their
simulated Discord saw (``tests/contract.py``). Each problem is one sentence naming the
command or the field, and the limit.

Sources: Discord's developer documentation, "Application Commands" (names, descriptions,
options, choices, the 4,000 characters of a command) and "Receiving and Responding"
(autocomplete answers).
"""

from __future__ import annotations

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
