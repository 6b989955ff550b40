"""``boardroom try``: a game in the terminal, driven through a pipe as a person would type."""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
PNG = b"\x89PNG\r\n\x1a\n"


def boardroom(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", "try", *args], input=stdin,
                          capture_output=True, text=True, cwd=tmp_path, env=ENV, timeout=120)


def test_a_game_against_the_computer_prints_and_saves_pictures(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1",
                     "--seed", "3", stdin="moves\nplace b1\nfly\nhand\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Cube Conquest begins: Player 1 (Blue) and Computer 1 (Red)." in out
    assert "5 legal moves:\n  place (5): place a1; place b1; place c1; place d1; and 1 more" \
        in out
    assert "Blue (Player 1) places a cube on b1." in out
    assert "That is not a move I understand." in out
    assert "You are Player 1 (Blue)." in out
    assert out.rstrip().endswith("Stopped. The game is saved; continue it with --resume.")
    # Defaults: the database and the pictures in the working directory.
    assert (tmp_path / "boardroom-try.db").exists()
    pictures = sorted((tmp_path / "boardroom-images").iterdir())
    assert any(p.name.endswith("-board.png") for p in pictures)
    assert any(p.name.endswith("-player-1.png") for p in pictures)
    assert all(p.read_bytes().startswith(PNG) for p in pictures)
    for path in re.findall(r"\[picture (\S+)\]", out):
        assert (tmp_path / path).exists()

    # --resume continues the same game from the same database.
    again = boardroom(tmp_path, "cube-conquest", "--resume", "--no-images",
                      stdin="moves\n")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resuming Cube Conquest from boardroom-try.db: the game "
                                   "begun ")
    assert "with Player 1 and Computer 1, " in again.stdout
    assert "Player 1 (Blue), your move:" in again.stdout
    with sqlite3.connect(tmp_path / "boardroom-try.db") as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
        logged = [row[0] for row in db.execute("SELECT text FROM moves WHERE seat = 0")]
    assert logged[0] == "place b1"


def test_the_end_of_input_stops_cleanly(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "cube-conquest", "--no-images", "--db", "x.db")
    assert done.returncode == 0, done.stderr
    assert "Player 1 (Blue), your move:" in done.stdout or "Player 2 (Red), your move:" \
        in done.stdout
    assert done.stdout.rstrip().endswith("continue it with --resume.")
    assert (tmp_path / "x.db").exists()
    assert not (tmp_path / "boardroom-images").exists()


def test_bad_seat_counts_are_refused(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "2")
    assert done.returncode == 2
    assert "Leave at least one seat for a person" in done.stderr
    done = boardroom(tmp_path, "cube-conquest", "--players", "5", "--no-images")
    assert done.returncode == 2
    assert "The table is full: Cube Conquest takes at most 4 players." in done.stderr
    done = boardroom(tmp_path, "chess")
    assert done.returncode == 2
    assert "invalid choice: 'chess'" in done.stderr
    done = boardroom(tmp_path, "cube-conquest", "--resume", "--db", "empty.db")
    assert done.returncode == 2
    assert "There is no unfinished game of Cube Conquest in empty.db to resume." in done.stderr


def listed_moves(said: bytes) -> list[bytes]:
    """The moves the grouped 'moves' answer shows (the first few of each kind)."""
    return [m for line in said.split(b"\n")[1:] if b"): " in line
            for m in line.split(b"): ", 1)[1].split(b"; ") if not m.startswith(b"and ")]


def hot_seat(tmp_path: Path, game: str, seed: int, names: str, limit: int = 10_000) -> str:
    """Two people at one keyboard: each takes it when asked, then plays a random one of the
    moves shown, until the game ends (or ``limit`` moves). The whole transcript."""
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "try", game, "--players", "2",
         "--no-images", "--seed", str(seed), "--names", names, "--db", "hot.db"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
        env=ENV, bufsize=0)
    assert child.stdin is not None and child.stdout is not None
    rng = random.Random(seed)
    seen = b""

    def next_prompt() -> bytes | None:
        """The output up to and including the next prompt; None once the child is done."""
        nonlocal seen
        start = len(seen)
        while not seen.endswith((b"your move: ", b"see the screen. ")):
            chunk = os.read(child.stdout.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk:
                return None
            seen += chunk
        said = seen[start:]
        seen += b"\n"  # so the same prompt is not found again
        return said

    moves = 0
    try:
        while (said := next_prompt()) is not None and moves < limit:
            if said.endswith(b"see the screen. "):
                child.stdin.write(b"\n")
                continue
            child.stdin.write(b"moves\n")
            listed = next_prompt()
            assert listed is not None
            child.stdin.write(rng.choice(listed_moves(listed)) + b"\n")
            moves += 1
    finally:
        child.stdin.close()
        child.wait(timeout=60)
    assert child.returncode == 0
    return seen.decode()


def test_two_people_hot_seat_to_the_end(tmp_path: Path) -> None:
    """Both seats answer their prompts, each picking one of the moves listed, until the
    game is over."""
    out = hot_seat(tmp_path, "cube-conquest", 21, "Ann,Bob")
    assert "Game over:" in out
    prompts = set(re.findall(r"\n(\w+ \(\w+\)), your move: ", out))
    assert prompts == {"Ann (Blue)", "Bob (Red)"}


def test_hot_seat_shows_each_player_only_their_own_secrets(tmp_path: Path) -> None:
    """Before a player's private lines the keyboard is handed over: every private line
    printed between two hand-overs is the keyboard holder's, each is labelled, and a secret
    card chosen is told once."""
    out = hot_seat(tmp_path, "cube-conquest", 5, "Ann,Bob", limit=200)
    turns = re.split(r"--- (\w+) at the keyboard ---", out)
    assert len(turns) > 20  # many hand-overs happened
    first, rest = turns[0], turns[1:]
    assert "(only " not in first.split("Pass the keyboard to")[0].split("begins:")[1]
    private = 0
    for holder, said in zip(rest[::2], rest[1::2], strict=True):
        for who in re.findall(r"\(only (\w+)\)", said):
            assert who == holder, said
            private += 1
        for chosen in re.findall(r"You chose [^\n]+", said):
            assert said.count(chosen) == 1
    assert private > 20
    assert "Pass the keyboard to Bob (Red); Bob, press Enter" in out


def test_with_one_person_private_lines_come_at_once(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1",
                     "--seed", "3", "--no-images", stdin="hand\nquit\n")
    assert "Pass the keyboard" not in done.stdout
    assert "(only Player 1) You are Player 1 (Blue)." in done.stdout


def test_rules_help_and_grouped_moves(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "block-buster", "--players", "2", "--computers", "1",
                     "--seed", "1", "--no-images", stdin="rules\nmoves\nmoves 5l r90\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Block Buster (2 to 4 players): " in out
    assert "Options (--options):\n  variant: " in out
    assert "Your move now: Moves look like '5l r90 c4'" in out
    listing = out.split("your move: moves\n", 1)[1].split("your move:", 1)[0]
    lines = listing.splitlines()
    total = int(lines[0].split()[0])
    assert total > 500
    assert len(lines) <= 25 and all(len(line) < 160 for line in lines[:-1])
    assert re.search(r"\n  5l \(\d+\): 5l r0 \w+; ", listing)
    filtered = out.split("your move: moves 5l r90\n", 1)[1].splitlines()[0]
    assert re.match(r"\d+ legal moves with '5l' 'r90':", filtered)


def test_resume_takes_the_named_game_and_says_which(tmp_path: Path) -> None:
    boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1", "--no-images",
              "--names", "Cat", stdin="quit\n")
    boardroom(tmp_path, "block-buster", "--players", "2", "--computers", "1", "--no-images",
              "--names", "Dan", stdin="quit\n")
    again = boardroom(tmp_path, "cube-conquest", "--resume", "--no-images", stdin="")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resuming Cube Conquest from boardroom-try.db: the game "
                                   "begun ")
    assert re.search(r"with Cat and Computer 1, \d+ moves played\.$",
                     again.stdout.splitlines()[0])
    assert "Cat (Blue), your move:" in again.stdout
    none = boardroom(tmp_path, "crystallia", "--resume", "--no-images", stdin="")
    assert none.returncode == 2
    assert "no unfinished game of Crystallia in boardroom-try.db" in none.stderr


def test_ctrl_c_stops_at_the_prompt_with_one_sentence(tmp_path: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "try", "cube-conquest", "--no-images", "--players",
         "2", "--computers", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, cwd=tmp_path, env=ENV, bufsize=0)
    assert child.stdout is not None
    seen = b""
    while not seen.endswith(b"your move: "):
        chunk = child.stdout.read(1)
        assert chunk, "the game ended before its first prompt"
        seen += chunk
    child.send_signal(signal.SIGINT)  # once
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert out.decode().strip() == "Stopped. The game is saved; continue it with --resume."
    assert err == b""


def test_boardroom_help_lists_the_commands() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True,
                          text=True, env=ENV, timeout=60)
    assert done.returncode == 0
    assert "boardroom try GAME" in done.stdout and "DISCORD_TOKEN" in done.stdout
    assert "cube-conquest" in done.stdout
    wrong = subprocess.run([sys.executable, "-m", "bot", "frobnicate"], capture_output=True,
                           text=True, env=ENV, timeout=60)
    assert wrong.returncode == 2 and "unknown command 'frobnicate'" in wrong.stderr
