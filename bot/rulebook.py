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
from bot.words import say
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
    filled = {
        "game": game.name, "id": game.id,
        "secret": (say("rulebook.secret_hidden", hidden=game.hidden) if game.hidden
                   else say("rulebook.secret_none", game=game.name)),
        "guessed": say("rulebook.guessed") if game.hidden else "",
        "narrow": found.narrow, "narrowed": str(found.narrowed),
        "offered": f"{found.offered:,}",
        "when": (say("rulebook.when_start", game=game.name) if not found.step else
                 say("rulebook.when_later", game=game.name, count=found.step)),
        "costs": (say("rulebook.costs", move=found.cost) if found.cost else
                  say("rulebook.costs_none", game=game.name)),
        "board_colours": game.board_colours,
    }
    return _FILLED.sub(lambda m: filled.get(m[1], m[0]), text)


def games() -> str:
    """Every game with its player count and what it is, in a sentence each."""
    lines = [say("rulebook.game", game=game.name, game_id=game.id, range=game.players(),
                 about=_first_sentence(game.id))
             for game in rules.GAMES.values()]
    levels = "; ".join(say("rulebook.level", level=level, about=LEVEL_WORDS[level])
                       for level in LEVELS)
    return "\n".join([*lines, say("rulebook.computers", levels=levels, level=DEFAULT,
                                  patient=PATIENT),
                      say("rulebook.ask_guide", command="/rules game:<game>")])


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
            return _fitted(say("rulebook.no_topic", game=game.name, typed=quote(asked)),
                           book.topics, ask)
        heading = say("rulebook.topic_heading", game=game.name, topic=topic.title)
        return _fitted(say("rulebook.topic", heading=heading,
                           text=speak(game_id, topic.text, surface)),
                       _others(book.topics, topic), ask)
    head = say("rulebook.overview", game=game.name, range=game.players(), text=book.overview)
    if game.options_help:
        variants = "; ".join(say("rulebook.variant", option=name, about=what)
                             for name, what in game.options_help.items())
        head += "\n" + say("rulebook.variants", variants=variants)
    return _fitted(head, book.topics, ask)


def _fitted(text: str, topics: tuple[Topic, ...] | list[Topic], ask: str) -> str:
    """``text`` with as much of the topic list as fits one message after it."""
    keys = [t.key for t in topics]
    for shown in range(len(keys), -1, -1):
        listed = ", ".join(keys[:shown]) + (", …" if shown < len(keys) else "")
        tail = "\n" + say("rulebook.topics", ask=ask, topics=listed) if shown else ""
        if len(text) + len(tail) <= LIMIT:
            return text + tail
    return text[:LIMIT]


def _others(topics: tuple[Topic, ...], shown: Topic) -> list[Topic]:
    return [t for t in topics if t is not shown]


def _first_sentence(game_id: str) -> str:
    overview = " ".join(guide(game_id).overview.split())
    match = re.match(r"(.+?[.!?])(\s|$)", overview)
    return match.group(1) if match else overview
