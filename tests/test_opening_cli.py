"""A first game, smooth (issue 38), in the terminal: the try-it mode's first block says who
starts and how, and the words of the first turns; a line names its topic as the terminal
asks for it ('rules life', the plain code role), once per game; the help and the shared
topics give each game's own 'moves' example, one that narrows its real list, and name the
terminal's commands."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rules
from bot import rulebook
from bot.moves import Choices
from rules import guide as guides
from tests.test_cli import boardroom

OPENING = {  # a word of each game's notation its opening defines
    "battle-tiles": "north-east-south-west: a tile 4-2-5-3",
    "block-buster": "the leftmost square of its lowest row: '5p r0 ",
    "bomb-squares": "mint tin cards, face down",
    "crystallia": "'take 3'",
    "cube-conquest": "drop 1, hammers 2, circles 3",
}


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
def test_the_first_block_says_who_starts_and_the_first_words(tmp_path: Path,
                                                             game_id: str) -> None:
    done = boardroom(tmp_path, game_id, "--computers", "1", "--no-images", "--seed", "4",
                     stdin="help\nrules moves\nrules computer\nrules board\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    first = out.split("─" * 40)[1]  # the start's block
    how = "drawn by lot" if game_id == "block-buster" else "drawn at random"
    assert re.search(rf"^\S.* starts: {how}\.", first, re.MULTILINE), first
    assert OPENING[game_id] in first
    assert "/rules" not in out and "/play" not in out and "/game computer" not in out
    assert "No legal move" not in out
    # the help names a 'moves' example of this game
    helped = [line for line in out.splitlines() if line.startswith("Type a move, or:")]
    assert helped and all("'moves place 1'" not in line or game_id == "battle-tiles"
                          for line in helped)
    assert re.search(r"'moves [^']+'", helped[0]), helped[0]
    found = rulebook.example(game_id)
    assert f"`moves {found.narrow}` narrows the {found.offered:,} moves there to " \
           f"{found.narrowed}" in out
    assert "--level hard" in out and "`board text`" in out
    # the board topic says how this game's picture tells colours apart (no seat owns a
    # colour in Bomb Squares or Crystallia)
    assert rules.GAMES[game_id].board_colours in out
    owned = game_id not in ("bomb-squares", "crystallia")
    assert ("which letter is whose" in out) == owned


@pytest.mark.parametrize(("game_id", "options", "defined", "topic"), [
    ("crystallia", "advanced", "flip platforms to the advanced side ('flip red'", "advanced"),
    ("block-buster", "variant=special-2p", "Each player plays two colours: Player 1 (Blue "
     "and Yellow) against Computer 1 (Red and Green), the colours taking turns", "special-2p"),
    ("block-buster", "variant=couples", "Two teams of partners: Blue (Player 1) and Yellow "
     "(Computer 2) against Red (Computer 1) and Green (Computer 3).", "couples"),
    ("block-buster", "variant=official-2p", "Each colour has 32 blocks, two of each shape",
     "official-2p"),
])
def test_a_variants_first_block_says_its_own_words(tmp_path: Path, game_id: str,
                                                   options: str, defined: str,
                                                   topic: str) -> None:
    """A variant's first turns use words the standard game never needs ('flip', 'ready';
    a player's two colours; partners): the start's block says them, naming the topic once."""
    players = "4" if "couples" in options else "2"
    out = boardroom(tmp_path, game_id, "--computers", str(int(players) - 1), "--players",
                    players, "--options", options, "--no-images", "--seed", "4",
                    "--level", "easy", stdin="quit\n").stdout  # (quick computers)
    first = out.split("─" * 40)[1]
    assert defined in first, first
    assert out.count(f"'rules {topic}'") == 1, out


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
def test_every_games_moves_example_narrows_its_real_list(game_id: str) -> None:
    """The shared topic's example, replayed: at that point of the sample game, the words
    leave exactly as many of the seat's legal moves as it says, fewer than all."""
    game = rules.GAMES[game_id]
    found = rulebook.example(game_id)
    assert found.narrow and 2 <= found.narrowed < found.offered
    state, rng = game.new(game.min_players, 0), random.Random(0)
    for _ in range(found.step):
        seat = min(game.to_act(state))
        state, _ = game.play(state, seat, rng.choice(game.legal_moves(state, seat)))
    moves = game.legal_moves(state, min(game.to_act(state)))
    assert len(moves) == found.offered
    assert len(Choices(moves).matching(found.narrow)) == found.narrowed
    for surface, command in (("terminal", f"`moves {found.narrow}`"),
                             ("discord", f"`{found.narrow}`")):
        text = rulebook.page(game_id, "moves", ask="x", surface=surface)
        assert command in text and "{" not in text


def test_the_help_example_narrows_the_players_own_list(tmp_path: Path) -> None:
    """Block Buster (the issue's 'moves place 1' answered "No legal move matching"): the
    help's example, typed, lists as many moves as it says."""
    first = boardroom(tmp_path, "block-buster", "--computers", "1", "--no-images",
                      "--seed", "4", stdin="help\nquit\n").stdout
    words, count = re.search(r"'moves ([^']+)' lists the (\d+) that start", first).groups()
    again = boardroom(tmp_path, "block-buster", "--resume", "--no-images",
                      stdin=f"moves {words}\nquit\n").stdout
    assert f"{count} legal moves matching '{words}':" in again


def test_a_line_names_its_topic_once_as_the_terminal_asks(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "battle-tiles", "--computers", "1", "--no-images",
                     "--seed", "6", stdin="quit\n")
    out = done.stdout
    named = re.findall(r"'rules ([a-z][a-z-]*)'", out)  # not the help's 'rules <topic>'
    assert "piercer" in named and "tokens" in named, out
    assert len(named) == len(set(named))
    assert "('rules piercer', 'rules barrier')" in out
    asked = boardroom(tmp_path, "battle-tiles", "--resume", "--no-images",
                      stdin="".join(f"rules {key}\n" for key in named) + "quit\n").stdout
    assert "has no topic" not in asked  # each names a topic the terminal's 'rules' finds
    assert asked.count("Battle Tiles: ") >= len(named)


@pytest.mark.parametrize(("game_id", "topic", "said", "not_said"), [
    ("crystallia", "advanced", "`--options advanced`", None),
    ("crystallia", "symbols", "The board as text (`board text`)", "/board"),
    ("battle-tiles", "drawing", "you alone are told", "the bot tells you privately"),
    ("block-buster", "blocks", "comes to you alone", None),
])
def test_a_topic_read_in_the_terminal_names_the_terminals_way(
        game_id: str, topic: str, said: str, not_said: str | None) -> None:
    text = rulebook.page(game_id, topic, ask="rules", surface="terminal")
    assert said in text and (not_said is None or not_said not in text)


@pytest.mark.parametrize("game_id", sorted(rules.GAMES))
def test_no_topic_read_in_the_terminal_names_a_slash_command(game_id: str) -> None:
    """Crystallia's 'symbols' told the terminal of '/board'."""
    guide = guides.guide(game_id)
    for key in [None, *(topic.key for topic in guide.topics)]:
        text = rulebook.page(game_id, key, ask="rules", surface="terminal")
        assert not re.search(r"`/[a-z]", text), (key, text)


def test_the_terminals_board_names_no_clock(tmp_path: Path) -> None:
    """The try-it mode has no turn time or time bank: 'board' does not speak of them."""
    out = boardroom(tmp_path, "cube-conquest", "--computers", "1", "--no-images", "--seed",
                    "4", stdin="board\nquit\n").stdout
    assert "Cube Conquest, move" in out.split("your move: ")[1]  # the board's own line
    assert "Settings:" not in out and "turn time" not in out
