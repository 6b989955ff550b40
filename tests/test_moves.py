"""Lists of moves that narrow (``bot.moves``): at every depth of the largest move sets of
every game, each entry is a move or the start of several, every move is reachable, and
typing an entry's words always shows something new."""

from __future__ import annotations

import random
from functools import cache

import pytest

import rules
from bot.moves import Choices, Entry, plain
from tests.test_bomb_squares import random_game

GAME_IDS = sorted(rules.GAMES)


@cache
def largest(game_id: str) -> tuple[str, ...]:
    """The largest set of legal moves met in a seeded random game of ``game_id``."""
    game = rules.GAMES[game_id]
    state = game.new(2, 11)
    rng = random.Random(game_id)
    best: list[str] = []
    for _ in range(120):
        if game.outcome(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        moves = game.legal_moves(state, seat)
        best = max(best, moves, key=len)
        state, _ = game.play(state, seat, rng.choice(moves))
    return tuple(best)


def walk(choices: Choices, typed: str, limit: int, seen: list[str]) -> None:
    """Follow every entry of the list for ``typed`` down to whole moves, checking each
    list on the way."""
    entries = choices.narrow(typed, limit)
    found = choices.matching(typed)
    assert 0 < len(entries) <= limit
    if len(found) <= limit:
        assert [e.text for e in entries] == found and all(e.whole for e in entries)
    else:
        assert sum(e.count for e in entries) == len(found)  # nothing lost, nothing twice
    for entry in entries:
        if entry.whole:
            seen.append(entry.text)
            continue
        assert len(entry.text) > len(typed.strip()), (typed, entry)  # typing it narrows
        below = choices.narrow(entry.text, limit)
        assert below != entries, f"{entry.text!r} shows the same list again"
        assert len(choices.matching(entry.text)) == entry.count
        walk(choices, entry.text, limit, seen)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("limit", [25, 30])  # /play's suggestions, the terminal's list
def test_every_move_is_reached_by_narrowing(game_id: str, limit: int) -> None:
    moves = list(largest(game_id))
    assert moves
    choices = Choices.of(moves, {})
    seen: list[str] = []
    walk(choices, "", limit, seen)
    assert sorted(seen) == sorted(moves)


def test_the_largest_sets_named_in_the_issue_narrow() -> None:
    """Cube Conquest's 'move', Crystallia's 'place' and Block Buster's '4o': groups by
    the next word, with counts, never the same four examples again."""
    for game_id, word in (("cube-conquest", "move"), ("crystallia", "place"),
                          ("block-buster", "4o")):
        choices = Choices.of(list(largest(game_id)), {})
        found = choices.matching(word)
        entries = choices.narrow(word, 25)
        assert len(found) > 25, game_id
        assert not all(e.whole for e in entries), game_id
        assert all(e.label().endswith(" moves") for e in entries if not e.whole)
        deeper = choices.narrow(next(e for e in entries if not e.whole).text, 25)
        assert deeper != entries


def test_a_list_too_short_for_every_letter_shows_the_first() -> None:
    """Ten lines for moves whose next words start with twenty letters: the first ten
    letters, each a group (the rest are reached by typing)."""
    moves = [f"go {chr(ord('a') + f)}{r}" for f in range(20) for r in range(1, 4)]
    entries = Choices.of(moves, {}).narrow("go", 10)
    assert [e.label() for e in entries[:2]] == ["go a … 3 moves", "go b … 3 moves"]
    assert len(entries) == 10 and sum(e.count for e in entries) == 30


def test_free_moves_come_first_and_costs_are_shown() -> None:
    choices = Choices.of(["place a1", "place a2 skip", "place b1", "pass"],
                         {"place a2 skip": "1 skip: -2"})
    assert choices.moves == ["place a1", "place b1", "pass", "place a2 skip"]
    labels = [e.label() for e in choices.narrow("place", 25)]
    assert labels == ["place a1", "place b1", "place a2 skip · 1 skip: -2"]
    assert plain(labels[-1]) == "place a2 skip"
    assert plain("place 1 … 120 moves") == "place 1"
    assert Entry("place 1", 120).label() == "place 1 … 120 moves"


def test_a_group_of_moves_of_one_price_shows_it_before_it_is_opened() -> None:
    """An audit's report: 'meeple e4 buy … 3 moves' showed no price until opened. A group
    whose moves all cost the same says so; one of mixed prices, or free, says none."""
    costly = [f"meeple e4 buy meeple e4 {end}" for end in ("roll yellow", "done", "roll")]
    choices = Choices.of(["meeple e4", *costly, "place a1", "place a2 skip"],
                         dict.fromkeys(costly, "costs 1 crystal") | {"place a2 skip": "-2"})
    labels = {e.text: e.label(100) for e in choices.narrow("", 4)}
    assert labels["meeple e4 buy"] == "meeple e4 buy … 3 moves · costs 1 crystal"
    assert [e.label(100) for e in choices.narrow("", 2)] == [
        "meeple … 4 moves", "place … 2 moves"]  # one free, the others not: no price
    assert plain(labels["meeple e4 buy"]) == "meeple e4 buy"
    assert Entry("meeple e4 buy", 3, "costs 1 crystal").label(30) == "meeple e4 buy … 3 moves"


def test_matching_prefers_the_start_of_a_move() -> None:
    choices = Choices.of(["place 1 at a1", "place 2 at a1", "place 1 at b2", "pass"], {})
    assert choices.matching("place 1") == ["place 1 at a1", "place 1 at b2"]
    assert choices.matching("pl") == ["place 1 at a1", "place 2 at a1", "place 1 at b2"]
    assert choices.matching("a1") == ["place 1 at a1", "place 2 at a1"]  # anywhere, else
    assert choices.matching("zzz") == []


def test_an_unfinished_move_is_told_what_may_follow() -> None:
    choices = Choices.of(["place 1 at a1", "place 1 at b2", "place 2 at a1", "pass"], {})
    said = choices.unfinished("place 1")
    assert said is not None
    assert said.startswith("'place 1' is only the start of 2 moves: go on with 'at'")
    assert choices.unfinished("place 1 … 2 moves") == said  # a group's label sent back
    assert choices.unfinished("pass") is None  # a whole move
    assert choices.unfinished("jump") is None
    assert choices.unfinished("") is None
    # a word that ends a costly move says its price
    priced = Choices.of(["place d6", "place f6", "keep"], {"place f6": "costs 1 crystal"})
    assert priced.unfinished("place") == ("'place' is only the start of 2 moves: go on with "
                                          "'d6', 'f6' (costs 1 crystal), for example "
                                          "'place d6'.")


def test_a_games_notes_order_the_list_and_go_beside_each_move() -> None:
    """``game.notes`` orders the moves (free ones still first) and says what each does,
    between the move and its cost; a move typed from a label is the move alone."""
    legal = ["b a2", "a a1", "b a1", "pass"]
    notes = {"a a1": "covers a1", "b a1": "covers a1 b1", "b a2": "covers a2 b2", "pass": ""}
    choices = Choices.of(legal, {"b a1": "skips 1: -2"}, notes)
    assert choices.moves == ["a a1", "b a2", "pass", "b a1"]
    assert [e.label() for e in choices.narrow("", 10)] == [
        "a a1 · covers a1", "b a2 · covers a2 b2", "pass", "b a1 · covers a1 b1 · skips 1: -2"]
    assert plain("b a1 · covers a1 b1 · skips 1: -2") == "b a1"
    assert Choices.of(legal, {}).moves == legal  # no notes: the game's order


def test_a_costly_move_that_extends_a_free_one_goes_beside_it_where_the_game_says() -> None:
    """``costly_beside``: 'meeple e5 buy meeple e5 roll' follows the free moves beginning
    'meeple e5', not every free move; a costly move that extends none goes last."""
    legal = ["meeple e5", "meeple e5 done", "meeple e5 buy meeple e5 done", "meeple f5",
             "meeple f5 done", "redraw meeple"]
    costs = {"meeple e5 buy meeple e5 done": "1 crystal", "redraw meeple": "1 crystal"}
    beside = Choices.of(legal, costs, beside=True)
    assert beside.moves == legal
    assert Choices.of(legal, costs).moves == [
        "meeple e5", "meeple e5 done", "meeple f5", "meeple f5 done",
        "meeple e5 buy meeple e5 done", "redraw meeple"]


def test_bomb_squares_lists_each_cards_meeple_moves_together() -> None:
    """In random play, the moves naming a card's meeple ('meeple e5 ...') are one run of
    the list a player sees, the extra meeple bought with it included."""
    game = rules.GAMES["bomb-squares"]
    assert game.costly_beside
    met = 0
    for state in random_game(2, 3):  # (Bomb Squares' costs tests' game, played once)
        if state.phase != "meeple":  # the lists with meeple moves (costs: milliseconds)
            continue
        seat = min(game.to_act(state))
        listed = Choices.of(game.legal_moves(state, seat), game.costs(state, seat),
                            game.notes(state, seat), beside=game.costly_beside).moves
        cards = [m.split()[1] for m in listed if m.startswith("meeple ")]
        runs = [c for i, c in enumerate(cards) if i == 0 or cards[i - 1] != c]
        assert len(runs) == len(set(runs)), listed
        met += any(" buy meeple " in m for m in listed if m.startswith("meeple "))
    assert met, "random play met an extra meeple bought with a meeple"


def test_a_label_cut_to_discord_s_length_keeps_the_move_and_its_cost_whole() -> None:
    # Bomb Squares' longest joined meeple moves: a suggestion (100) or a button (80) cut at
    # its end lost the price
    entry = Entry("meeple e5 buy meeple e5 second card", cost="costs 1 crystal",
                  note="fills e5: +3 crystals; no bomb or meeple for it; ends your turn")
    assert entry.label() == ("meeple e5 buy meeple e5 second card · fills e5: +3 crystals; "
                             "no bomb or meeple for it; ends your turn · costs 1 crystal")
    for limit in (100, 80, 70):
        cut = entry.label(limit)
        assert len(cut) <= limit and cut.endswith("… · costs 1 crystal"), cut
        assert cut.startswith("meeple e5 buy meeple e5 second card · fills")
    assert entry.label(200) == entry.label()
    # no room for a note: the move and its cost alone
    assert entry.label(56) == "meeple e5 buy meeple e5 second card · costs 1 crystal"


def test_groups_open_a_word_further_while_they_all_fit() -> None:
    """'meeple … 26 moves' beside 'redraw meeple' told nothing before 'meeple' was typed:
    each group opens by the word that follows while every group still fits the list."""
    cards = ["e4", "e5", "f5", "f6", "g6", "g7"]
    moves = [f"meeple {c} {then}" for c in cards
             for then in ("done", "roll", "yellow", "second", "switch")] + ["redraw meeple"]
    entries = Choices.of(moves, {}).narrow("", 25)
    assert [e.label() for e in entries] == [
        *(f"meeple {c} … 5 moves" for c in cards), "redraw meeple"]  # 31 would not fit
    # two levels open where both fit: a verb, then its squares
    two = ["move a1 a2", "move a1 b1", "move c3 c4", "prepare drop take crown", "pass"]
    shown = [e.label() for e in Choices.of(two, {}).narrow("", 4)]
    assert shown == ["move a1 … 2 moves", "move c3 c4", "prepare drop take crown", "pass"]
    # never more than the list holds: a level that would overflow stays closed
    wide = [f"go {s}{n}" for s in "abcdefgh" for n in range(1, 5)] + ["stop"]
    assert [e.label() for e in Choices.of(wide, {}).narrow("", 5)] == [
        "go … 32 moves", "stop"]
