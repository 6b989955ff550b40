"""``boardroom try``: a game in the terminal, driven through a pipe as a person would type."""

from __future__ import annotations

import os
import random
import re
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
    assert "5 legal moves: place a1; place b1; place c1; place d1; place e1" in out
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
    assert again.stdout.startswith("Resuming Cube Conquest from boardroom-try.db.")
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
    assert "There is no unfinished game in empty.db to resume." in done.stderr


def test_two_people_hot_seat_to_the_end(tmp_path: Path) -> None:
    """Both seats answer their prompts, each picking one of the moves listed, until the
    game is over."""
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "try", "cube-conquest", "--players", "2",
         "--no-images", "--seed", "21", "--names", "Ann,Bob", "--db", "hot.db"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
        env=ENV, bufsize=0)
    assert child.stdin is not None and child.stdout is not None
    rng = random.Random(21)
    seen = b""

    def next_prompt() -> bytes | None:
        """The output up to and including the next prompt; None once the child is done."""
        nonlocal seen
        start = len(seen)
        while not seen.endswith(b"your move: "):
            chunk = os.read(child.stdout.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk:
                return None
            seen += chunk
        said = seen[start:]
        seen += b"\n"  # so the same prompt is not found again
        return said

    prompts = set()
    try:
        while (said := next_prompt()) is not None:
            prompts.add(said.rsplit(b"\n", 1)[-1])
            child.stdin.write(b"moves\n")
            listed = next_prompt()
            assert listed is not None
            moves = listed.split(b" legal moves: ", 1)[1].split(b"\n", 1)[0].split(b"; ")
            child.stdin.write(rng.choice(moves) + b"\n")
    finally:
        child.stdin.close()
        child.wait(timeout=60)
    assert child.returncode == 0
    out = seen.decode()
    assert "Game over:" in out
    assert prompts == {b"Ann (Blue), your move: ", b"Bob (Red), your move: "}
