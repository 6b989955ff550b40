"""What ``/rules`` and the terminal's ``rules`` say: the games, and each game's guide for
players (``rules.guide``) an overview or a topic at a time, each within one Discord message.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass

import rules
from bot.moves import PRICE, Choices
from rules.computer import DEFAULT, LEVEL_WORDS, LEVELS, PATIENT
from rules.core import quote
from rules.guide import Topic, guide

LIMIT = 2000  # one Discord message
SURFACES = ("discord", "terminal")  # a topic's line marked 'discord:' is read there alone
_FILLED = re.compile(r"\{(\w+)\}")
EXAMPLE_STEPS = 300  # moves of a sample game looked through for a topic's examples


@dataclass(frozen=True)
class Example:
    """A real example of a game's list of moves, for the topics every game shares: words
    that narrow it, met ``step`` moves into a sample game (0: at the very start), and
    the first costly move met, with its cost."""

    narrow: str  # the first words of some moves: 'place 1'
    narrowed: int  # how many moves they leave
    offered: int  # how many moves the list holds
    step: int
    cost: str  # 'buy · costs 1 crystal', or '' when none was met


@functools.cache
def example(game_id: str) -> Example:
    """The examples of ``game_id``'s list of moves, from a sample game played at random
    (seed 0, the fewest players): the first list some words narrow (``Choices.example``),
    and the first move with a cost (``Game.costs``)."""
    game = rules.GAMES[game_id]
    state = game.new(game.min_players, 0)
    rng = random.Random(0)
    found: tuple[str, int, int, int] | None = None
    cost = ""
    for step in range(EXAMPLE_STEPS):
        if game.outcome(state) is not None or (found and cost):
            break
        seat = min(game.to_act(state))
        moves = game.legal_moves(state, seat)
        costs = game.costs(state, seat)
        choices = Choices.of(moves, costs)
        narrowing = choices.example()
        if found is None and narrowing is not None:
            found = (*narrowing, len(moves), step)
        if not cost and costs:
            move, price = next(iter(costs.items()))
            cost = f"{move}{PRICE}{price}"
        state, _ = game.play(state, seat, rng.choice(moves))
    words, count, offered, step = found or ("", 0, 0, 0)
    return Example(words, count, offered, step, cost)


def speak(game_id: str, text: str, surface: str) -> str:
    """A topic's text as ``surface`` reads it: the lines marked for the other surface left
    out, the marks taken off, and the words in braces filled in for the game at hand (its
    name, what it hides, a real example from its own moves: ``rules/guides/table.md``)."""
    kept = []
    for line in text.splitlines():
        mark, _, rest = line.partition(": ")
        if mark in SURFACES:
            if mark != surface:
                continue
            line = rest
        kept.append(line)
    text = "\n".join(kept)
    if "{" not in text:
        return text
    game = rules.GAMES[game_id]
    found = example(game_id)
    words = {
        "game": game.name, "id": game.id,
        "secret": (f": {game.hidden} stay hidden from it, as from any player" if game.hidden
                   else f"; in {game.name} nothing is hidden, so it sees what you see"),
        "guessed": ", each with what it cannot see guessed afresh" if game.hidden else "",
        "narrow": found.narrow, "narrowed": str(found.narrowed),
        "offered": f"{found.offered:,}",
        "when": (f"at the start of {game.name}" if not found.step else
                 f"in {game.name}, once {found.step} moves are played"),
        "costs": (f"A move that costs something says so beside it (`{found.cost}`), and "
                  "free moves come first." if found.cost else
                  f"In {game.name} a move costs nothing beyond what it names, so the list "
                  "shows no costs."),
    }
    return _FILLED.sub(lambda m: words.get(m[1], m[0]), text)


def games() -> str:
    """Every game with its player count and what it is, in a sentence each."""
    lines = [f"**{game.name}** (`{game.id}`, {game.players()}): {_first_sentence(game.id)}"
             for game in rules.GAMES.values()]
    levels = "; ".join(f"{level} {LEVEL_WORDS[level]}" for level in LEVELS)
    return "\n".join([*lines, f"Computer players: {levels}. Left unchosen, a computer seat "
                      f"plays {DEFAULT}, or {PATIENT} at a table whose turns may take an "
                      f"hour or more; one standing in for a late player plays {PATIENT}.",
                      "Ask for a game's guide with `/rules game:<game>`, then a topic."])


def page(game_id: str, asked: str | None, *, ask: str, surface: str = "discord") -> str:
    """The guide's overview (``asked`` empty) or the topic asked for, with the topics one
    may ask next; ``ask`` shows how to ask for one, e.g. "/rules topic:<topic>". A topic
    nothing fits gets a sentence and the list. A topic speaks of the game at hand and of
    ``surface``'s own commands (``speak``)."""
    book = guide(game_id)
    game = rules.GAMES[game_id]
    if asked:
        topic = book.find(asked)
        if topic is None:
            return _fitted(f"The guide to {game.name} has no topic {quote(asked)}.",
                           book.topics, ask)
        return _fitted(f"**{game.name}: {topic.title}**\n"
                       f"{speak(game_id, topic.text, surface)}",
                       _others(book.topics, topic), ask)
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
