"""Each game's guide for players: an overview, then one topic per thing a player meets.

The text lives in ``rules/guides/<game id>.md``, written for players in the second person;
``rules/<game>.md`` stays the maintainers' record of how each rule was implemented. Every
surface (``/rules`` in Discord, ``rules`` in the terminal) reads the guide from here, so
there is one source. A guide file reads::

    # Battle Tiles
    The overview: the goal, a turn in a few steps, how the game ends and who wins.

    ## death: the death token
    also: skull
    terms: death token, death strikes
    A few sentences with an example in the game's notation, e.g. `place 2 at c3 with death`.

``rules/guides/table.md`` holds, in the same form, the topics every game shares.

A topic's *key* (before the colon) is what a player types to ask for it; its title says what
it is; the optional ``also:`` line lists other words that find it (each name a player meets
in the game, such as a card or an ability, finds its topic). Each topic and the overview
fit one Discord message. The optional ``terms:`` line lists the words of the game's own
lines (events) that this topic explains: the first line of a game that uses one names the
topic, once per game (``Guide.cites``). Only words a topic alone explains go there, never
ordinary ones such as 'tile', so that a line names a topic where it helps.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

from rules.core import normalize

MOST = 1800  # characters in a topic's text: with its heading, one Discord message (2,000)


@dataclass(frozen=True)
class Topic:
    """One part of a game a player meets: a token, a card, an action, a scoring rule."""

    key: str  # what to type: 'death'
    title: str  # what it is: 'The death token'
    text: str  # a few sentences for players, with an example
    also: tuple[str, ...] = ()  # other words that find it
    terms: tuple[str, ...] = ()  # words of the game's lines that this topic explains

    def names(self) -> tuple[str, ...]:
        """Every word or phrase that finds this topic."""
        return (self.key, *self.also)


@dataclass(frozen=True)
class Guide:
    """A game's guide: its overview and topics, in the order a player meets them."""

    game: str  # the game's name, e.g. 'Battle Tiles'
    overview: str
    topics: tuple[Topic, ...]

    def find(self, asked: str) -> Topic | None:
        """The topic a player asked for: by its key or another of its names, then by a
        word of its title; None if nothing fits."""
        wanted = normalize(asked)
        if not wanted:
            return None
        for topic in self.topics:
            if wanted in topic.names():
                return topic
        for topic in self.topics:  # 'tok' for 'tokens', 'death token' for 'death'
            if any(n.startswith(wanted) or wanted.startswith(n + " ") for n in topic.names()):
                return topic
        for topic in self.topics:
            if wanted in normalize(topic.title).split() or wanted in normalize(topic.title):
                return topic
        return None

    def cites(self, line: str) -> list[Topic]:
        """The topics one of whose ``terms`` the line uses (a whole word or phrase, in any
        case), in the order the line first uses them."""
        found = []
        for topic in self.topics:
            at = [m.start() for term in topic.terms
                  if (m := _term(term).search(line)) is not None]
            if at:
                found.append((min(at), topic))
        return [topic for _, topic in sorted(found, key=lambda f: f[0])]

    def matching(self, typed: str) -> list[Topic]:
        """Topics whose key, names or title contain what is typed, in guide order."""
        wanted = normalize(typed)
        return [t for t in self.topics
                if not wanted or any(wanted in n for n in (*t.names(), normalize(t.title)))]


_HEADING = re.compile(r"^## +(?P<key>[^:]+?) *: *(?P<title>.+?) *$")
_ALSO = re.compile(r"^also *: *(?P<words>.+)$", re.IGNORECASE)
_TERMS = re.compile(r"^terms *: *(?P<words>.+)$", re.IGNORECASE)


@functools.cache
def _term(term: str) -> re.Pattern[str]:
    """A term as a whole word or phrase of a line, in any case."""
    return re.compile(r"(?<!\w)" + re.escape(term) + r"(?!\w)", re.IGNORECASE)


def parse(text: str) -> Guide:
    """A guide from its Markdown (see the module's docstring for the form)."""
    lines = text.strip().splitlines()
    if not lines or not lines[0].startswith("# "):
        raise ValueError("A guide starts with '# <the game's name>'.")
    sections: list[list[str]] = [[]]  # the overview, then one list of lines a topic
    for line in lines[1:]:
        if line.startswith("## "):
            sections.append([])
        sections[-1].append(line)
    return Guide(lines[0][2:].strip(), "\n".join(sections[0]).strip(),
                 tuple(_topic(section) for section in sections[1:]))


def _topic(lines: list[str]) -> Topic:
    """One topic from its heading, its optional 'also:' line and its text."""
    heading = _HEADING.match(lines[0])
    if heading is None:
        raise ValueError(f"A topic's heading reads '## key: Title', not {lines[0]!r}.")
    body = "\n".join(lines[1:]).strip().splitlines()
    found: dict[str, tuple[str, ...]] = {}
    while body and len(found) < 2:  # 'also:' and 'terms:', in either order
        line = _ALSO.match(body[0]) or _TERMS.match(body[0])
        if line is None:
            break
        kind = "also" if line.re is _ALSO else "terms"
        found[kind] = tuple(normalize(w) for w in line["words"].split(",") if w.strip())
        body = body[1:]
    text = "\n".join(body).strip()
    if not text:
        raise ValueError(f"The topic {heading['key']!r} has no text.")
    return Topic(normalize(heading["key"]), heading["title"], text, found.get("also", ()),
                 found.get("terms", ()))


@functools.cache
def guide(game_id: str) -> Guide:
    """The guide of ``game_id``, read from ``rules/guides/<game_id>.md``, followed by the
    topics every game shares (``rules/guides/table.md``: computer players, reading the
    board)."""
    folder = resources.files("rules").joinpath("guides")
    own = parse(folder.joinpath(f"{game_id}.md").read_text(encoding="utf-8"))
    shared = parse(folder.joinpath("table.md").read_text(encoding="utf-8"))
    return Guide(own.game, own.overview, own.topics + shared.topics)
