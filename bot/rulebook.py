"""What ``/rules`` and the terminal's ``rules`` say: the games, and each game's guide for
players (``rules.guide``) an overview or a topic at a time, each within one Discord message.
"""

from __future__ import annotations

import re

import rules
from rules.computer import DEFAULT, LEVEL_WORDS, LEVELS, PATIENT
from rules.core import quote
from rules.guide import Topic, guide

LIMIT = 2000  # one Discord message


def games() -> str:
    """Every game with its player count and what it is, in a sentence each."""
    lines = [f"**{game.name}** (`{game.id}`, {game.players()}): {_first_sentence(game.id)}"
             for game in rules.GAMES.values()]
    levels = "; ".join(f"{level} {LEVEL_WORDS[level]}" for level in LEVELS)
    return "\n".join([*lines, f"Computer players: {levels}. Left unchosen, a computer seat "
                      f"plays {DEFAULT}, or {PATIENT} at a table whose turns may take an "
                      f"hour or more; one standing in for a late player plays {PATIENT}.",
                      "Ask for a game's guide with `/rules game:<game>`, then a topic."])


def page(game_id: str, asked: str | None, *, ask: str) -> str:
    """The guide's overview (``asked`` empty) or the topic asked for, with the topics one
    may ask next; ``ask`` shows how to ask for one, e.g. "/rules topic:<topic>". A topic
    nothing fits gets a sentence and the list."""
    book = guide(game_id)
    game = rules.GAMES[game_id]
    if asked:
        topic = book.find(asked)
        if topic is None:
            return _fitted(f"The guide to {game.name} has no topic {quote(asked)}.",
                           book.topics, ask)
        return _fitted(f"**{game.name}: {topic.title}**\n{topic.text}", _others(book.topics,
                                                                               topic), ask)
    head = f"**{game.name}** ({game.players()})\n{book.overview}"
    if game.options_help:
        head += "\nVariants: " + "; ".join(f"`{name}`: {what}"
                                          for name, what in game.options_help.items())
    return _fitted(head, book.topics, ask)


def _fitted(text: str, topics: tuple[Topic, ...] | list[Topic], ask: str) -> str:
    """``text`` with as much of the topic list as fits one message after it."""
    keys = [t.key for t in topics]
    for shown in range(len(keys), -1, -1):
        listed = ", ".join(keys[:shown]) + (", …" if shown < len(keys) else "")
        tail = f"\nTopics ({ask}): {listed}" if shown else ""
        if len(text) + len(tail) <= LIMIT:
            return text + tail
    return text[:LIMIT]


def _others(topics: tuple[Topic, ...], shown: Topic) -> list[Topic]:
    return [t for t in topics if t is not shown]


def _first_sentence(game_id: str) -> str:
    overview = " ".join(guide(game_id).overview.split())
    match = re.match(r"(.+?[.!?])(\s|$)", overview)
    return match.group(1) if match else overview
