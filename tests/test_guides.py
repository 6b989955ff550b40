"""Every game's guide for players (``rules/guides/<game>.md``): it covers the game's whole
vocabulary, and each part fits one Discord message.

A name a player meets (a token, card, ability or action in ``data/<game>.json``, a word of
the move notation) must find a topic of its own: a new name without a topic fails here.
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest

import rules
from bot import rulebook
from bot.service.computers import Levels
from rules import guide as guides
from rules.computer import LEVELS
from rules.core import load_data, normalize

GAME_IDS = sorted(rules.GAMES)
COORDINATE = re.compile(r"^[a-z]\d+$")
JOINING = {"at", "with", "to", "on", "of", "the", "a", "and", "from", "in", "for", "by"}


@cache
def notation_words(game_id: str) -> frozenset[str]:
    """The words of the move notation: every word of a legal move met in random games at
    each seat count and variant (squares, numbers and joining words left out)."""
    game = rules.GAMES[game_id]
    options: list[dict[str, Any] | None] = [None]
    for name, values in game.option_values.items():
        options += [{name: v} for v in values if v is not False]
    words: set[str] = set()
    for players in range(game.min_players, game.max_players + 1):
        for chosen in options:
            try:
                state = game.new(players, 7, chosen)
            except rules.GameError:
                continue
            rng = random.Random(f"{game_id}/{players}/{chosen}")
            for _ in range(300):
                if game.outcome(state) is not None:
                    break
                seat = rng.choice(sorted(game.to_act(state)))
                moves = game.legal_moves(state, seat)
                for move in moves:
                    words.update(w for w in move.split()
                                 if w.isalpha() and w not in JOINING and not COORDINATE.match(w))
                state, _ = game.play(state, seat, rng.choice(moves))
    return frozenset(words)


def component_names(game_id: str) -> set[str]:
    """The names of the tokens, cards, abilities and pieces in the game's data."""
    data = load_data(game_id)
    match game_id:
        case "battle-tiles":
            return {*data["power_tokens"], *data["side_icons"].values()}
        case "block-buster":
            return {*data["point_kinds"], *(b["name"] for b in data["blocks"])}
        case "bomb-squares":
            return {*(c["name"] for c in data["mint_tin_cards"]), *data["reactive_cards"],
                    "airplane", "lookout tower", "landmine", "bomb", "meeple", "crystal",
                    "token", "challenge", *(f"{c} die" for c in data["dice"])}
        case "crystallia":
            return {*(v for v in data["square_codes"].values() if v), data["wild"],
                    data["penalty"], "talisman", "supercrystal", "platform", "pyramid"}
        case "cube-conquest":
            return {s["name"] for s in data["symbols"]}
    raise AssertionError(f"no component names for {game_id}")


def covers(topic: guides.Topic, word: str) -> bool:
    """Whether ``word`` is the topic's key, one of its other names, or in its title."""
    wanted = normalize(word)
    return wanted in topic.names() or f" {wanted} " in f" {normalize(topic.title)} "


def covered(guide: guides.Guide, word: str) -> bool:
    return any(covers(topic, word) for topic in guide.topics)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_name_a_player_meets_has_a_topic(game_id: str) -> None:
    guide = guides.guide(game_id)
    names = component_names(game_id) | notation_words(game_id)
    missing = sorted(n for n in names if not covered(guide, n))
    assert not missing, f"{game_id}: no topic for {missing}"
    for name in names:  # and asking for it finds it
        topic = guide.find(name)
        assert topic is not None and covers(topic, name), name


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_part_fits_a_message_and_speaks_to_the_player(game_id: str) -> None:
    guide = guides.guide(game_id)
    assert guide.game == rules.GAMES[game_id].name
    assert 200 <= len(guide.overview) <= guides.MOST
    for word in ("you", "win"):
        assert word in guide.overview.lower(), word
    assert len(guide.topics) >= 6
    keys = [t.key for t in guide.topics]
    assert len(keys) == len(set(keys)), keys
    for topic in guide.topics:
        assert 40 <= len(topic.text) <= guides.MOST, topic.key
        assert re.search(r"\byou(r)?\b", topic.text, re.IGNORECASE), topic.key
        assert "`" in topic.text, f"{topic.key}: no example in the game's notation"
        for word in ("the seed", "Decision", "implemented"):  # the maintainers' record
            assert word not in topic.text, (topic.key, word)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_variant_has_a_topic(game_id: str) -> None:
    guide = guides.guide(game_id)
    for option in rules.GAMES[game_id].options_help:
        assert covered(guide, option), option


def test_a_guide_is_read_as_written() -> None:
    guide = guides.parse("# Game\nWin by having more.\n\n## death: The death token\n"
                         "also: skull, kill\nYou remove `x`.\n\n## life: The life token\n"
                         "You add `y`.\n")
    assert guide.game == "Game" and guide.overview == "Win by having more."
    assert [t.key for t in guide.topics] == ["death", "life"]
    assert guide.topics[0].also == ("skull", "kill")
    assert guide.topics[0].text == "You remove `x`."
    assert guide.find("Death") == guide.find("skull") == guide.topics[0]
    assert guide.find("life token") == guide.topics[1]
    assert guide.find("token") == guide.topics[0]  # a title's word: the first such topic
    assert guide.find("nothing like it") is None
    assert [t.key for t in guide.matching("li")] == ["life"]
    with pytest.raises(ValueError, match="key: Title"):
        guides.parse("# Game\nx\n## no colon here\ntext")
    with pytest.raises(ValueError, match="no text"):
        guides.parse("# Game\nx\n## empty: Nothing\n")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_see_names_a_topic_and_no_surface_s_command(game_id: str) -> None:
    """'see `bet`' names a topic of the guide, as both surfaces read it; 'see `rules bet`'
    would be the terminal's command on Discord too (a guide's own lines are shared)."""
    guide = guides.guide(game_id)
    texts = [guide.overview, *(topic.text for topic in guide.topics)]
    seen = [m for text in texts
            for m in re.findall(r"\b(?:[Ss]ee|type) `([^`]+)`", text)]
    assert seen, f"{game_id}: no topic is pointed to"
    for named in seen:
        assert not named.startswith(("rules ", "/rules")), named
        assert guide.find(named) is not None, named


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_computer_topic_names_every_level_and_who_stands_in(game_id: str) -> None:
    text = rulebook.page(game_id, "computer", ask="/rules topic:<topic>")
    for level in LEVELS:
        assert f"**{level}**" in text, level
    assert f"an **{Levels().patient}** computer plays that one turn for you" in text
    assert "table's level" not in text
    clock = rulebook.page(game_id, "clock", ask="/rules topic:<topic>")
    assert f"an **{Levels().patient}** computer plays that one turn" in clock
    # what it cannot see is guessed only where something is hidden
    assert ("guessed" in text) == bool(rules.GAMES[game_id].hidden)
