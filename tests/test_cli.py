"""``boardroom try``: a game in the terminal, driven through a pipe as a person would type."""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import io
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import traceback
import unittest.mock
from pathlib import Path

import pytest

from bot import cli

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
PNG = b"\x89PNG\r\n\x1a\n"


def boardroom(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``boardroom try ARGS`` run in ``tmp_path`` with ``stdin`` piped in, as the command line
    runs it (``bot.cli.main``), in this process: a Python started for each would cost the
    suite most of a second a call. The tests below that need a process of its own (Ctrl-C,
    a pipe fed line by line) start one."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    handler = signal.getsignal(signal.SIGINT)
    os.chdir(tmp_path)
    try:
        with (contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
              unittest.mock.patch.object(sys, "stdin", io.StringIO(stdin))):
            try:
                code = cli.main(["try", *args])
            except SystemExit as stop:  # argparse's refusals
                code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
            except Exception:  # as a process would end: a traceback on stderr, status 1
                traceback.print_exc()
                code = 1
    finally:
        os.chdir(here)
        signal.signal(signal.SIGINT, handler)
    return subprocess.CompletedProcess(["boardroom", "try", *args], code, out.getvalue(),
                                       err.getvalue())


def test_a_game_against_the_computer_prints_and_saves_pictures(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1",
                     "--seed", "3", stdin="moves\nplace b1\nfly\nhand\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Cube Conquest begins: Player 1 (Blue) and Computer 1 (Red)." in out
    assert "Computer 1 (hard) takes a seat." in out  # the default level
    assert "5 legal moves:\n  place a1\n  place b1\n  place c1\n  place d1\n  place e1\n" \
        in out
    assert "Blue (Player 1) places a cube on b1." in out
    assert "That is not a move I understand." in out
    assert "You are Player 1 (Blue)." in out
    assert out.rstrip().endswith("Stopped. The game is saved; continue it with --resume.")
    # Defaults: the database and the pictures in the working directory.
    assert (tmp_path / "boardroom-try.db").exists()
    pictures = sorted((tmp_path / "boardroom-images").iterdir())
    assert any(p.name.endswith("-board.png") for p in pictures)
    assert re.search(r"\(only Player 1\) \[picture \S+\.png\]", out)  # their own view
    assert all(p.read_bytes().startswith(PNG) for p in pictures)
    for path in re.findall(r"\[picture (\S+)\]", out):
        assert (tmp_path / path).exists()

    # --resume continues the same game from the same database.
    again = boardroom(tmp_path, "cube-conquest", "--resume", "--no-images",
                      stdin="moves\n")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resuming Cube Conquest from boardroom-try.db: the game "
                                   "that began ")
    assert "with Player 1 and Computer 1, " in again.stdout
    assert "Player 1 (Blue), your move:" in again.stdout
    with sqlite3.connect(tmp_path / "boardroom-try.db") as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
        logged = [row[0] for row in db.execute("SELECT text FROM moves WHERE seat = 0")]
    assert logged[0] == "place b1"


def test_the_end_of_input_stops_cleanly(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "cube-conquest", "--no-images", "--db", "x.db")
    assert done.returncode == 0, done.stderr
    # two people at one keyboard: the first is asked to take it before their hand shows
    assert re.search(r"Pass the keyboard to Player [12] \((Blue|Red)\)", done.stdout)
    assert done.stdout.rstrip().endswith("continue it with --resume.")
    assert (tmp_path / "x.db").exists()
    assert not (tmp_path / "boardroom-images").exists()


def test_bad_seat_counts_are_refused_before_anyone_sits(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "2")
    assert done.returncode == 2
    assert "Leave at least one seat for a person" in done.stderr
    for players, sentence in (("5", "Cube Conquest takes 2-4 players, not 5."),
                              ("1", "Cube Conquest takes 2-4 players, not 1.")):
        done = boardroom(tmp_path, "cube-conquest", "--players", players, "--no-images")
        assert done.returncode == 2
        assert sentence in done.stderr and "full" not in done.stderr
        assert done.stdout == ""  # nobody was seated
    done = boardroom(tmp_path, "battle-tiles", "--players", "3", "--no-images")
    assert "Battle Tiles takes 2 players, not 3." in done.stderr
    done = boardroom(tmp_path, "crystallia", "--options", "advanced=x", "--no-images")
    assert done.returncode == 2 and "The option 'advanced' is a switch" in done.stderr
    # No table was left behind that --resume would reopen into a dead end.
    done = boardroom(tmp_path, "cube-conquest", "--resume", "--no-images")
    assert done.returncode == 2 and "There is no unfinished game" in done.stderr
    done = boardroom(tmp_path, "chess")
    assert done.returncode == 2
    assert "invalid choice: 'chess'" in done.stderr
    done = boardroom(tmp_path, "cube-conquest", "--resume", "--db", "empty.db")
    assert done.returncode == 2
    assert "There is no unfinished game of Cube Conquest in empty.db to resume." in done.stderr


def listed(said: bytes) -> tuple[list[bytes], list[bytes]]:
    """What a 'moves' answer lists: its whole moves (without their costs) and the starts
    of several moves (its groups)."""
    lines = [line[2:] for line in said.split(b"\n")[1:]
             if line.startswith(b"  ") and not line.startswith(b"  (")]
    whole = [line.split(" · ".encode())[0] for line in lines if " … ".encode() not in line]
    groups = [line.split(" … ".encode())[0] for line in lines if " … ".encode() in line]
    return whole, groups


def hot_seat(tmp_path: Path, game: str, seed: int, names: str, limit: int = 10_000, *,
             db: str = "hot.db", after: tuple[bytes, ...] = ()) -> str:
    """Two people at one keyboard: each takes it when asked, then plays a random one of the
    moves shown, until the game ends (or ``limit`` moves), then types ``after``'s lines at
    the finished table. The whole transcript."""
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "try", game, "--players", "2",
         "--no-images", "--seed", str(seed), "--names", names, "--db", db],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
        env=ENV, bufsize=0)
    assert child.stdin is not None and child.stdout is not None
    rng = random.Random(seed)
    seen = b""

    def next_prompt() -> bytes | None:
        """The output up to and including the next prompt; None once the child is done."""
        nonlocal seen
        start = len(seen)
        while not seen.endswith((b"your move: ", b"see the screen. ", b"or 'quit': ")):
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
            if said.endswith(b"or 'quit': "):  # the game is over
                if not after:
                    break
                child.stdin.write(after[0] + b"\n")
                after = after[1:]
                continue
            if said.endswith(b"see the screen. "):
                child.stdin.write(b"\n")
                continue
            words = b""
            while True:  # narrow the list until it shows whole moves
                child.stdin.write(b"moves " + words + b"\n")
                answer = next_prompt()
                assert answer is not None
                whole, groups = listed(answer)
                if whole:
                    break
                assert groups and all(len(g) > len(words) for g in groups), answer
                words = rng.choice(groups)
            child.stdin.write(rng.choice(whole) + b"\n")
            moves += 1
    finally:
        child.stdin.close()
        child.wait(timeout=60)
    assert child.returncode == 0
    return seen.decode()


def test_two_people_hot_seat_to_the_end(tmp_path: Path) -> None:
    """Both seats answer their prompts, each picking one of the moves listed (narrowing
    the list word by word), until the game is over; its move log is then saved, and
    'boardroom verify' checks it."""
    out = hot_seat(tmp_path, "cube-conquest", 21, "Ann,Bob")
    assert "Game over:" in out
    prompts = set(re.findall(r"\n(\w+ \(\w+\)), your move: ", out))
    assert prompts == {"Ann (Blue)", "Bob (Red)"}
    saved = re.search(r"The move log is saved as (\S+): check every deal and roll with "
                      r"'boardroom verify \1'\.", out)
    assert saved is not None and (tmp_path / saved.group(1)).exists()
    assert "/game" not in out  # the terminal's own words, never Discord's
    checked = subprocess.run([sys.executable, "-m", "bot", "verify", saved.group(1)],
                             capture_output=True, text=True, cwd=tmp_path, env=ENV,
                             timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_finished_table_stays_open_and_keeps_every_move_log(tmp_path: Path) -> None:
    """At the end the move log is saved beside the database, named by game, table and date;
    'export', 'replay N' and 'board' still answer until 'quit'; a later game's log, even one
    of the same table number in a new database, never overwrites an earlier one."""
    (tmp_path / "games").mkdir()
    look = (b"export", b"replay 3", b"board", b"board text", b"place e1", b"help", b"quit")
    out = hot_seat(tmp_path, "battle-tiles", 4, "Ann,Bob", db="games/try.db", after=look)
    day = datetime.date.today().isoformat()
    first = f"games/boardroom-battle-tiles-table-1-{day}.json"
    assert out.count(f"The move log is saved as {first}: check every deal") == 2
    assert "('replay N' shows move N, 0 to " in out
    assert "The game is over: no more moves." in out
    answers = out.split("or 'quit': ")[-len(look):]  # what each of them was answered
    as_text = answers[3]  # 'board text', shown to whoever has the keyboard
    assert "(only Bob) Battle Tiles, game over" in as_text, as_text  # Bob moved last
    helped = out[out.rindex("help"):]  # the finished table's help: what still answers
    assert "The game is over. Type 'board'" in helped and "'moves'" not in helped, helped
    assert "'hand'" not in helped and "Type a move" not in helped, helped
    assert re.search(r"Battle Tiles, .*Game over", out) or "Game over" in out
    assert out.rstrip().endswith("quit") and "Stopped." not in out
    (tmp_path / "games" / "try.db").unlink()  # a new database: table 1 again
    again = hot_seat(tmp_path, "battle-tiles", 5, "Ann,Bob", db="games/try.db")
    second = first.replace(".json", "-2.json")
    assert f"The move log is saved as {second}:" in again
    assert (tmp_path / first).read_bytes() != (tmp_path / second).read_bytes()
    assert not list(tmp_path.glob("*.json"))  # nothing in the working folder


def test_a_picture_is_saved_once(tmp_path: Path) -> None:
    """A picture identical to one already saved (the board seen again, a hand with nothing
    new) is named by the file it is in, not written again."""
    done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1",
                     "--level", "easy", "--seed", "3", stdin="place b1\nboard\nhand\nquit\n")
    shown = re.findall(r"\[picture (\S+)\]", done.stdout)
    written = sorted(p.name for p in (tmp_path / "boardroom-images").iterdir())
    assert len(shown) > len(written) == len(set(shown))
    contents = [p.read_bytes() for p in (tmp_path / "boardroom-images").iterdir()]
    assert len(set(contents)) == len(contents)
    # Resumed, a board and a hand already in the folder are not written again.
    resumed = boardroom(tmp_path, "cube-conquest", "--resume", stdin="board\nhand\nquit\n")
    again = re.findall(r"\[picture (\S+)\]", resumed.stdout)
    assert again and set(again) <= set(shown), resumed.stdout
    assert sorted(p.name for p in (tmp_path / "boardroom-images").iterdir()) == written


def test_a_new_game_in_the_same_folder_writes_over_no_picture(tmp_path: Path) -> None:
    """Two games into one pictures folder from two databases: a picture the first game
    saved is reused where the second's is the same, and a file of the same name holding
    another picture is never written over (the new one gets a number)."""
    def play(db: str) -> list[str]:
        done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1",
                         "--db", db, "--level", "easy", "--seed", "3", stdin="place b1\nquit\n")
        return re.findall(r"\[picture (\S+)\]", done.stdout)

    folder = tmp_path / "boardroom-images"
    first = play("one.db")
    assert play("two.db") == first  # the same game again: every picture reused
    kept = folder / Path(first[-1]).name
    kept.write_bytes(b"another game's picture")  # a name the next game will want
    third = play("three.db")
    assert kept.read_bytes() == b"another game's picture"
    assert third[-1].endswith("-2.png")
    assert (tmp_path / third[-1]).read_bytes().startswith(b"\x89PNG")
    contents = [p.read_bytes() for p in folder.iterdir()]
    assert len(set(contents)) == len(contents)


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
                     "--level", "greedy", "--seed", "3", "--no-images", stdin="hand\nquit\n")
    assert "Pass the keyboard" not in done.stdout
    assert "(only Player 1) You are Player 1 (Blue)." in done.stdout


def test_the_guide_and_moves_that_narrow(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "block-buster", "--players", "2", "--computers", "1",
                     "--level", "easy", "--seed", "1", "--no-images",
                     stdin="rules\nrules penalty\nrules 5l\nrules nonsense\nmoves\n"
                           "moves 5l\nmoves 5l r90\nmoves prepare\nboard text\nexport\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Block Buster (2-4 players)\n" in out and "**" not in out
    assert "Variants: 'variant': " in out  # the plain code role
    assert "Topics (rules <topic>): " in out
    assert re.search(r"Your move now: A move is block, turn, square: '\w+ r90 [a-t]\d+' is "
                     r"the \w+ turned a quarter clockwise", out)
    assert "Block Buster: " in out.split("your move: rules penalty\n", 1)[1].splitlines()[0]
    assert "no topic 'nonsense'" in out
    listing = out.split("your move: moves\n", 1)[1].split("your move:", 1)[0]
    lines = listing.splitlines()
    assert int(lines[0].split()[0]) > 500
    assert len(lines) <= 32 and all(len(line) < 100 for line in lines)
    assert re.search(r"\n  5l … \d+ moves\n", listing)  # grouped by the next word
    deeper = out.split("your move: moves 5l\n", 1)[1].split("your move:", 1)[0]
    assert "5l r90 … " in deeper and deeper != listing
    filtered = out.split("your move: moves 5l r90\n", 1)[1].splitlines()[0]
    assert re.match(r"\d+ legal moves matching '5l r90':", filtered)
    nothing = out.split("your move: moves prepare\n", 1)[1].splitlines()[0]
    assert re.fullmatch(r"No legal move of yours starts with 'prepare' now: your [\d,]+ legal "
                        r"moves start with '5i', '5l', .*\.", nothing), nothing
    text = out.split("your move: board text\n", 1)[1].split("your move:", 1)[0]
    assert "Block Buster, move " in text and len(text.splitlines()) >= 3
    assert "The move log is given once the game is over" in out  # export, too early
    assert "/game" not in out


def test_resume_takes_the_named_game_and_says_which(tmp_path: Path) -> None:
    boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1", "--level", "easy",
              "--no-images",
              "--names", "Cat", stdin="quit\n")
    boardroom(tmp_path, "block-buster", "--players", "2", "--computers", "1", "--level", "easy",
              "--no-images",
              "--names", "Dan", stdin="quit\n")
    again = boardroom(tmp_path, "cube-conquest", "--resume", "--no-images", stdin="")
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Resuming Cube Conquest from boardroom-try.db: the game "
                                   "that began ")
    assert re.search(r"with Cat and Computer 1, \d+ moves? played\.$",
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


def test_each_turn_is_one_block(tmp_path: Path) -> None:
    """A rule line starts each turn, as Discord starts a new message; a turn's further
    steps follow without one."""
    done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1",
                     "--seed", "3", "--no-images", stdin="place b1\nplace c1\nquit\n")
    assert done.returncode == 0, done.stderr
    blocks = done.stdout.split("─" * 40)
    assert len(blocks) == 3  # before the start; the first turn; the computer's, then Blue's
    assert "places a cube on b1" in blocks[1] and "places a cube on c1" in blocks[2]
    assert "Red (Computer 1) places a cube" in blocks[2]


def test_replay_prints_a_move_as_the_seat_saw_it(tmp_path: Path) -> None:
    done = boardroom(tmp_path, "cube-conquest", "--players", "2", "--computers", "1",
                     "--seed", "3", stdin="place b1\nreplay 1\nreplay\nreplay 99\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Replay of Cube Conquest, table 1: move 1 of " in out  # no Discord markdown
    assert "As you see it, Player 1 (Blue)" in out
    assert re.search(r"\n#1 \d{4}-\d\d-\d\d \d\d:\d\d Blue \(Player 1\) places a cube on "
                     r"b1\.", out)  # a move number bare, its time a local date
    assert "\n#0 The deal, " in out and "<t:" not in out
    # the picture of move 1 as it was: the one saved when it was played
    saved = {path.name: hashlib.sha256(path.read_bytes()).hexdigest()[:12]
             for path in sorted((tmp_path / "boardroom-images").iterdir())}
    assert re.search(r"#1 .*\n(.*\n)*  \[picture boardroom-images/t1-v0002-board\.png\]",
                     out), (out[out.index("Replay of"):], saved)  # (what to look at if not)
    assert "there is no move 99." in out


class Typist:
    """Input for an in-process game: the lines queued first, then, at each prompt for a
    move, 'moves' narrowed word by word until it lists whole moves and one of them; at the
    finished table ``after``'s lines, then 'quit'."""

    def __init__(self, out: io.StringIO, first: list[str], after: list[str], seed: int):
        self.out, self.first, self.after = out, first, after
        self.rng = random.Random(seed)
        self.asked: int | None = None  # where the last 'moves' answer starts in ``out``

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        said = self.out.getvalue()
        if said.endswith("or 'quit': "):
            return (self.after.pop(0) if self.after else "quit") + "\n"
        if self.first:
            return self.first.pop(0) + "\n"
        if self.asked is not None:
            whole, groups = listed(said[self.asked:].encode())
            self.asked = None
            if whole:
                return self.rng.choice(whole).decode() + "\n"
            self.asked = len(said)
            return f"moves {self.rng.choice(groups).decode()}\n"
        self.asked = len(said)
        return "moves\n"


async def test_the_terminal_says_a_whole_game_in_plain_text(tmp_path: Path) -> None:
    """In the test process, where Discord's markup is the default (conftest), the terminal
    says everything plain, the service's sentences too: no Discord timestamp, no channel
    link from the first line to the last."""
    from bot import cli

    out = io.StringIO()
    args = cli.parser().parse_args([
        "cube-conquest", "--players", "2", "--computers", "1", "--level", "easy",
        "--no-images", "--seed", "5", "--db", str(tmp_path / "plain.db")])
    typist = Typist(out, ["help", "hand", "board", "board text", "rules", "board foo",
                          "hand 2", "export now", "replay x"],
                    ["replay 2", "replay", "export", "board", "rules", "replay x",
                     "board foo"], seed=5)
    assert await cli.run(args, out, typist) == 0  # type: ignore[arg-type]
    said = out.getvalue()
    # the terminal's own words with what they do not take say how they are typed, during
    # the game and after it (not "I don't know 'board'", not Discord's "/game new")
    for usage, times in (("Type 'board' (the table's picture) or 'board text'", 2),
                         ("Type 'hand' alone", 1), ("Type 'export' alone", 1),
                         ("Type 'replay N', N a move number", 2)):
        assert said.count(usage) == times, usage
    assert "I don't know" not in said and "/game new" not in said
    assert "Game over" in said and "The move log is saved as " in said
    assert re.search(r"\n#2 \d{4}-\d\d-\d\d \d\d:\d\d ", said)  # a move of the replay
    assert "<t:" not in said and "<#" not in said


class Screen(io.StringIO):
    """A terminal's screen: what is printed, read as a tty."""

    def isatty(self) -> bool:
        return True


class Seated(Typist):
    """A Typist who takes the keyboard when called (Enter), then plays on."""

    def readline(self) -> str:
        if self.out.getvalue().endswith("see the screen. "):
            self.asked = None
            return "\n"
        return super().readline()


async def test_hot_seat_on_a_screen_clears_it_before_the_next_player_is_called(
        tmp_path: Path) -> None:
    """On a real terminal the last player's secrets leave the screen (and its scrollback)
    before the call for the next player, who would otherwise read them while taking the
    keyboard; and again once they have it."""
    from bot import cli
    from bot.terminal import CLEAR

    out = Screen()
    args = cli.parser().parse_args([
        "battle-tiles", "--players", "2", "--names", "Ann,Bob", "--no-images", "--seed",
        "5", "--db", str(tmp_path / "screen.db")])
    typist = Seated(out, ["hand"], [], seed=5)
    assert await cli.run(args, out, typist) == 0  # type: ignore[arg-type]
    said = out.getvalue()
    calls = [m.start() for m in re.finditer("Pass the keyboard to", said)]
    assert len(calls) >= 3
    for at in calls[1:]:  # (the first call comes before anyone has seen a secret)
        assert said.rfind(CLEAR, 0, at) > said.rfind("(only ", 0, at), said[:at][-300:]
    assert "\033[3J" in CLEAR  # the scrollback too


async def test_a_database_in_a_folder_that_is_not_there_is_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot import cli

    missing = tmp_path / "nosuchdir" / "x.db"
    args = cli.parser().parse_args(["battle-tiles", "--computers", "1", "--no-images",
                                    "--db", str(missing)])
    assert await cli.run(args, io.StringIO(), io.StringIO()) == 2  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert err == (f"There is no folder {missing.parent} for the database file {missing}: "
                   "make it first, or name another file.\n")
    assert not missing.parent.exists()


async def test_a_database_sqlite_cannot_make_is_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A server owner's audit: a folder the database cannot be made in (here /proc, which
    even root cannot write a file in) ended in a traceback."""
    from bot import cli

    args = cli.parser().parse_args(["battle-tiles", "--computers", "1", "--no-images",
                                    "--db", "/proc/boardroom-test.db"])
    assert await cli.run(args, io.StringIO(), io.StringIO()) == 2  # type: ignore[arg-type]
    assert capsys.readouterr().err == (
        "The database file /proc/boardroom-test.db could not be opened or made: unable to "
        "open database file. Check that the folder can be written, or name another file.\n")


async def test_what_only_a_deal_checks_and_a_resume_of_nothing_make_no_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'couples' needs 4 players: refused before any table is opened (the file is not even
    made); '--resume' of a file that is not there says so and makes none."""
    from bot import cli

    db = tmp_path / "none.db"
    couples = cli.parser().parse_args(["block-buster", "--players", "2", "--options",
                                       "variant=couples", "--db", str(db)])
    assert await cli.run(couples, io.StringIO(), io.StringIO()) == 2  # type: ignore[arg-type]
    assert "couples" in capsys.readouterr().err and not db.exists()
    resume = cli.parser().parse_args(["crystallia", "--resume", "--db", str(db)])
    assert await cli.run(resume, io.StringIO(), io.StringIO()) == 2  # type: ignore[arg-type]
    assert capsys.readouterr().err == (f"There is no unfinished game of Crystallia in {db} "
                                       "to resume.\n")
    assert not db.exists()


def test_hot_seat_shows_each_player_their_hand_as_they_sit_down(tmp_path: Path) -> None:
    """In Battle Tiles the hand came only after one's own move, just before the screen
    was cleared for the other player: back at the keyboard, nobody saw their tiles."""
    done = boardroom(tmp_path, "battle-tiles", "--players", "2", "--seed", "5",
                     "--no-images", stdin="\nplace 3 at c3\n\nplace 3 at c4\n\nquit\n")
    assert done.returncode == 0, done.stderr
    back = done.stdout.split("--- Player 1 at the keyboard ---")[1].split("your move:")[0]
    assert "(only Player 1) You are Player 1 (Red)." in back and "Your hand: 1: " in back
    assert "(only Player 2)" not in back
    second = done.stdout.split("--- Player 2 at the keyboard ---")[1].split("your move:")[0]
    assert "(only Player 2) You are Player 2 (Blue)." in second


def test_hot_seat_shows_a_player_their_pieces_picture_as_they_sit_down(tmp_path: Path
                                                                        ) -> None:
    """Block Buster hides nothing, but each player's blocks come with each turn of theirs:
    as they take the keyboard, a picture of them with what it shows."""
    done = boardroom(tmp_path, "block-buster", "--players", "2", "--seed", "3",
                     stdin="\n5i r0 i1\n\nquit\n")
    assert done.returncode == 0, done.stderr
    back = done.stdout.split("--- Player 1 at the keyboard ---")[1].split("your move:")[0]
    assert re.search(r"\(only Player 1\) \[picture [^\]]*hand-player-1[^\]]*\] .*Your "
                     r"blocks: ", back)
    first = done.stdout.split("Pass the keyboard to Player 2")[1].split("your move:")[0]
    assert "(only Player 2) [picture " in first  # asked for the keyboard first, then shown


def test_a_move_typed_while_the_keyboard_is_handed_over_is_said_not_played(
        tmp_path: Path) -> None:
    """A new player typed their move at 'press Enter when nobody else can see the
    screen', and it went without a word. It is said now, and nothing is played."""
    done = boardroom(tmp_path, "battle-tiles", "--players", "2", "--names", "Ann,Bob",
                     "--no-images", "--seed", "4", stdin="place 1 at c3\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "'place 1 at c3' was not played: the keyboard was being handed over. Type it " \
           "again at your prompt." in done.stdout
    assert "places a tile" not in done.stdout.split("was not played")[1]
