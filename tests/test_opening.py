"""The start message's own lines (``Game.opening``) and the terms that name a guide topic
(``terms:``, ``Guide.cites``): issue 38, items 1 and 5, at the rules' level."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import rules
from rules import battle_tiles, block_buster, bomb_squares, crystallia, cube_conquest
from rules.guide import guide, parse

FIRST: dict[str, Any] = {  # how each game's lines name the seat it awaits first
    "battle-tiles": lambda s: battle_tiles.colour(min(rules.GAMES["battle-tiles"].to_act(s))),
    "block-buster": lambda s: block_buster.colour_said(s, s.turn),
    "bomb-squares": lambda s: bomb_squares.player(s.turn),
    "crystallia": lambda s: crystallia.player(s.turn),
    "cube-conquest": lambda s: cube_conquest.colour(s.turn),
}


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
def test_the_opening_says_who_starts_and_how_then_the_first_words(game_id: str) -> None:
    game = rules.GAMES[game_id]
    starters = set()
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(8):
            state = game.new(players, seed)
            events = game.opening(state)
            assert events and all(e.to is None for e in events)  # public
            how = "by lot" if game_id == "block-buster" else "at random"
            assert events[0].text == f"{FIRST[game_id](state)} starts: drawn {how}."
            starters.add(events[0].text)
            assert len(events) >= 2  # the words of the first turns, with one to type
            assert any(re.search(r"'[^']+'", e.text) for e in events[1:]), events
            assert game.opening(state) == events  # the same state, the same words
    assert len(starters) >= 2  # drawn: not always the same seat


def test_a_guide_reads_its_terms_and_finds_them_as_whole_words() -> None:
    book = parse("# Game\nWin by having more.\n\n## life: The life token\n"
                 "terms: life token\nalso: l\nYou add `y`.\n\n## chain: Chains\n"
                 "also: chains\nterms: chain\nYou go on `x`.\n")
    assert book.topics[0].terms == ("life token",) and book.topics[0].also == ("l",)
    assert book.topics[1].terms == ("chain",) and book.topics[1].also == ("chains",)
    assert book.topics[0].text == "You add `y`."
    assert [t.key for t in book.cites("Its CHAIN goes on, with the Life Token.")] == [
        "chain", "life"]
    assert book.cites("Chains of lifetokens") == []  # whole words only


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
def test_terms_are_the_games_own_words_each_of_one_topic(game_id: str) -> None:
    book = guide(game_id)
    terms = [term for topic in book.topics for term in topic.terms]
    assert len(terms) >= 5
    assert len(terms) == len(set(terms)), "a term names one topic"
    for ordinary in ("tile", "card", "stone", "cube", "block", "move", "turn", "player"):
        assert ordinary not in terms, ordinary


def test_bomb_squares_dice_lines_name_the_dice_topics() -> None:
    """The first roll names the dice step's topic, a yellow roll or a move of meeples the
    yellow die's."""
    book = guide("bomb-squares")
    assert [t.key for t in book.cites("Ann rolls red 5, blue 1 and yellow 4.")][:1] == ["dice"]
    assert "yellow die" in [t.key for t in book.cites("Ann rolls yellow 2.")]
    assert "yellow die" in [t.key for t in book.cites(
        "Ann moves meeples from f5, leaving at least one behind.")]


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
def test_the_opening_names_every_word_a_players_first_turns_offer(game_id: str) -> None:
    """Every first word of a move offered to the first four turns of each seat (random
    play, a few deals) is in the start message, so no move list offers a word the table
    has not said: 'prepare' and 'outpost' in Cube Conquest, 'switch' and 'landmine' in
    Bomb Squares' dice step. Block Buster's and Battle Tiles' moves begin with a piece or
    a tile, which the opening's notation covers, so only their words are checked."""
    game = rules.GAMES[game_id]
    rng = random.Random(game_id)
    for seed in range(4):
        state = game.new(2, seed)
        said = " ".join(e.text for e in game.opening(state)).lower()
        turns: dict[int, int] = {}
        offered: set[str] = set()
        while game.outcome(state) is None:
            awaited = sorted(game.to_act(state))
            for seat in awaited:
                offered |= {m.split()[0] for m in game.legal_moves(state, seat)
                            if m.split()[0].isalpha() and not re.match(r"^\d", m)}
            seat = rng.choice(awaited)
            before = state
            state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
            if game.to_act(state) != game.to_act(before):
                turns[seat] = turns.get(seat, 0) + 1
            if min(turns.get(s, 0) for s in range(2)) >= 4:
                break
        words = {w for w in offered if w not in ("bet", "no", "buy", "challenge", "use",
                                                   "pick", "pass", "arm", "card", "unmine")}
        missing = sorted(w for w in words if not re.search(rf"\b{w}", said))
        assert not missing, (missing, said)
