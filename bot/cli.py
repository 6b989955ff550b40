"""``boardroom try``: play a game in the terminal, hot-seat, without Discord.

The same table service and database as the bot: each seat in turn is asked for a move,
computer players fill the last seats when asked for, the channel's text and each picture's
one-line summary are printed, and every picture is saved as a PNG. The terminal has its own
commands (``commands``: its 'moves' example from the player's own moves), and the
service's sentences name them, never Discord's (a line naming a guide topic says `rules
<topic>`). Input may be piped: the end of input stops cleanly, and the game stays saved
(``--resume`` continues it). When a game ends, its move log is saved beside the database
as a file named by game, table and date (``export``; never over an earlier one), so
``boardroom verify`` can be tried on it offline, and the finished table stays open for
``export``, ``replay N`` and ``board`` until ``quit``. A picture is saved once: one
identical to a picture already saved is named by the file it is in.

    boardroom try cube-conquest --players 2 --computers 1
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import re
import signal
import sys
import time
from collections.abc import Coroutine
from typing import Any, TextIO

import rules
from bot import rulebook
from bot.moves import Choices
from bot.service import TableService
from bot.service.pictures import Picture
from bot.service.replies import Commands, Reply
from bot.service.table import clean_name, parse_options
from bot.store import Store
from rules.computer import DEFAULT, LEVELS, level_of
from rules.core import listing, quote

DEFAULT_DB = "boardroom-try.db"
DEFAULT_IMAGES = "boardroom-images"
COMMANDS = ("'board' ('board text': the table as text), 'hand', 'rules' ('rules <topic>': "
            "one part of the game explained), 'replay [N]' (move N as you saw it; 0, the "
            "deal, when left out), 'export' (the move log, once the game is over), 'quit'.")
# What the service's sentences say of commands: everyone is seated by the options given,
# and the move log is saved with 'export'.
TERMINAL = Commands(join="", start="", export="'export' (saved by itself at the end)",
                    end="", topic="`rules {}`",
                    log="'replay {first}' to 'replay {last}' show them one by one")
LISTED = 30  # lines a list of moves shows at most: more are grouped by their next word
CLEAR = "\033[2J\033[H"  # clear a terminal screen, cursor to the top


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="boardroom try", description="Play a Boardroom game in the terminal, hot-seat, "
        "without Discord. Each board is saved as a PNG.")
    p.add_argument("game", choices=sorted(rules.GAMES), help="the game to play")
    p.add_argument("--players", type=int, default=None,
                   help="seats at the table (default: the fewest the game takes)")
    p.add_argument("--computers", type=int, default=0,
                   help="computer players, in the last seats (default 0)")
    p.add_argument("--level", type=level_of, default=DEFAULT, metavar="|".join(LEVELS),
                   help=f"how well the computer players play (default {DEFAULT}; the older "
                        "names random, greedy and strong still work)")
    p.add_argument("--names", default="",
                   help="comma-separated names for the human seats (default Player 1, ...)")
    p.add_argument("--db", default=DEFAULT_DB,
                   help="the SQLite file, or a postgresql:// URL, to keep the game in "
                        f"(default {DEFAULT_DB})")
    p.add_argument("--images", default=DEFAULT_IMAGES,
                   help=f"folder for the PNG pictures (default {DEFAULT_IMAGES})")
    p.add_argument("--no-images", action="store_true", help="draw no pictures")
    p.add_argument("--seed", type=int, default=None,
                   help="the deal's seed, to replay the same game")
    p.add_argument("--options", default="",
                   help="game variants, e.g. 'advanced' or 'variant=couples'")
    p.add_argument("--resume", action="store_true",
                   help="continue the latest unfinished game of this kind in the database")
    return p


def commands(game: rules.Game[Any], choices: Choices) -> str:
    """The terminal's commands, with a 'moves' example that narrows the player's own list
    of moves now (``Choices.example``), so that it never answers "No legal move"; where
    their list cannot be narrowed (a few moves alike), the game's own example and when it
    applies (``rulebook.example``)."""
    found = choices.example()
    if found:
        moves = (f"'moves' (your legal moves; 'moves {found[0]}' lists the {found[1]} that "
                 f"start with {quote(found[0], 40)})")
    else:
        later = rulebook.example(game.id)
        when = ("at the start" if not later.step
                else f"once {later.step} moves are played")
        moves = ("'moves' (your legal moves; with the first words of a move, those that "
                 f"start so: in {game.name}, {when}, 'moves {later.narrow}' lists "
                 f"{later.narrowed} of {later.offered:,})")
    return f"Type a move, or: {moves}, {COMMANDS}"


def listed(choices: Choices, words: str = "") -> list[str]:
    """Lines listing the legal moves that match ``words``, one a line (a costly move with
    its cost, free ones first); where more match than ``LISTED``, grouped by the next word
    to type, each group with its count, so that typing more narrows the list."""
    found = choices.matching(words)
    about = f" matching {quote(words, 40)}" if words.strip() else ""
    if not found:
        return [f"No legal move{about}." if about else "You have no legal move now."]
    entries = choices.narrow(words, LISTED)
    lines = [f"{len(found)} legal move{'s' if len(found) != 1 else ''}{about}:"]
    lines += [f"  {entry.label()}" for entry in entries]
    group = next((entry for entry in entries if not entry.whole), None)
    if group is not None:
        lines.append(f"  ('moves {group.text}' lists the moves that start so.)")
    return lines


def plain(line: str) -> str:
    """A line of Discord text for the terminal: no bold or code marks, times as local."""
    line = re.sub(r"<t:(\d+):\w>", lambda found: time.strftime(
        "%Y-%m-%d %H:%M", time.localtime(int(found[1]))), line)
    return line.replace("**", "").replace("`", "")


def slug(name: str) -> str:
    """A name as part of a file name: 'Ann B.' -> 'ann-b-'."""
    return "".join(c if c.isalnum() else "-" for c in name.lower())


def rules_lines(game: rules.Game[Any], topic: str = "") -> list[str]:
    """The game's guide as the terminal prints it: the overview, or one topic."""
    return rulebook.page(game.id, topic, ask="rules <topic>", surface="terminal"
                         ).replace("**", "").splitlines()


class Terminal:
    """Prints replies, saves pictures, and reads moves for the awaited seats.

    Hot seat, with two or more people at one keyboard, keeps each player's secrets: a
    player's private lines wait until that player has the keyboard, and before the
    keyboard changes hands the screen is cleared and the next player asked to take it.
    With one person and computers, private lines are printed at once.
    """

    def __init__(self, service: TableService, game: rules.Game[Any], channel_id: int,
                 images: str | None, names: dict[int, str], out: TextIO, stdin: TextIO,
                 logs: str = "") -> None:
        self.service = service
        self.logs = logs  # the folder move logs are saved in: the database's
        self.saved: dict[str, str] = {}  # each picture written, by its bytes' digest
        self.log_path: str | None = None  # where this game's move log was saved
        self.game = game
        self.channel_id = channel_id
        self.images = images
        self.names = names
        self.out = out
        self.stdin = stdin
        self.keyboard: int | None = None  # the person at the keyboard (hot seat)
        self.held: dict[int, list[str]] = {user: [] for user in names}
        self.missed: dict[int, list[str]] = {user: [] for user in names}

    @property
    def hot_seat(self) -> bool:
        return len(self.names) > 1

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def public(self, text: str) -> None:
        """Channel lines: printed, and kept for the players who will take the keyboard."""
        if not text:
            return
        self.say(text)
        if self.keyboard is None:
            return  # nobody has had the keyboard yet: everyone has seen it
        for user, missed in self.missed.items():
            if user != self.keyboard:
                missed.extend(text.splitlines())

    def private(self, user: int, lines: list[str]) -> None:
        """Lines for ``user`` alone, each labelled; held until they have the keyboard."""
        who = self.names.get(user, str(user))
        labelled = [f"  (only {who}) {line}" for line in lines]
        if self.hot_seat and user != self.keyboard:
            self.held.setdefault(user, []).extend(labelled)
        else:
            for line in labelled:
                self.say(line)

    def write_png(self, png: bytes, name: str) -> str:
        """Save a picture in the pictures folder as ``name``, unless the same picture was
        saved already (a hand that did not change, a board seen again): the path it is at."""
        digest = hashlib.sha256(png).hexdigest()
        path = self.saved.get(digest)
        if path is None or not os.path.exists(path):
            assert self.images is not None
            os.makedirs(self.images, exist_ok=True)
            path = self.saved[digest] = os.path.join(self.images, name)
            with open(path, "wb") as file:
                file.write(png)
        return path

    def _save(self, picture: Picture, name: str) -> str:
        """Write the picture (if pictures are wanted); the line that says where it is."""
        if self.images is None:
            return picture.summary
        paths = [self.write_png(png, name if not n else name.replace(".png", f"-{n}.png"))
                 for n, png in enumerate((picture.png, *picture.more))]
        return f"[picture {' '.join(paths)}] {picture.summary}"

    async def show(self, reply: Reply, caller: int | None = None) -> None:
        """Print a reply as the channel and each player would see it; then mark it posted.

        ``caller`` made the move: what the reply tells them alone (``ephemeral``) is
        printed once, not again among their private lines.
        """
        if reply.version and (not reply.step or reply.newly):  # a new turn, as Discord
            self.public(TURN_RULE)                                 # starts a new message
        self.public(reply.public)
        prefix = f"t{-self.channel_id}-v{reply.version:04d}"
        if reply.picture is not None and self.images is not None:
            self.public("  " + self._save(reply.picture, f"{prefix}-board.png"))
        told = reply.ephemeral.splitlines() if caller is not None else []
        if caller is not None and told:
            self.private(caller, told)
        reply = await reply.with_pictures()
        for private in reply.private:
            who = self.names.get(private.user_id, str(private.user_id))
            lines = [line for line in private.text.splitlines()
                     if not (private.user_id == caller and line in told)]
            if private.picture is not None:
                lines.append(self._save(private.picture, f"{prefix}-{slug(who)}.png"))
            self.private(private.user_id, lines)
        await self.service.delivered(reply)

    def ask(self, prompt: str) -> str | None:
        """One line of input; None at the end of input."""
        print(prompt, end="", file=self.out, flush=True)
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        if not self.stdin.isatty():
            self.say(line.rstrip("\n"))  # echo piped input, so the transcript reads well
        return line.strip()

    def hand_over(self, user: int, label: str) -> bool:
        """Give ``user`` the keyboard: ask for them, clear the screen, show what they missed
        and their private lines. False if input ended."""
        if not self.hot_seat or user == self.keyboard:
            return True
        if (self.keyboard is not None or self.held.get(user)) and self.ask(
                f"Pass the keyboard to {label}; {self.names[user]}, press Enter when nobody "
                "else can see the screen. ") is None:
            return False
        if self.keyboard is not None:  # the last player's secrets may be on the screen
            self.say(CLEAR if self.out.isatty() else f"--- {self.names[user]} at the "
                     "keyboard ---")
        self.keyboard = user
        missed, self.missed[user] = self.missed.get(user, [])[-40:], []
        if missed:
            self.say("Since your last turn:")
            for line in missed:
                self.say(line)
        held, self.held[user] = self.held.get(user, []), []
        for line in held:
            self.say(line)
        return True

    async def command(self, user: int, line: str) -> None:
        """One line typed by ``user``: a terminal command, or a move."""
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("help", "?", "rules"):
            for text in rules_lines(self.game, rest) if word == "rules" else []:
                self.say(text)
            hint = await self.service.hint(self.channel_id, user)
            if hint and not rest:
                self.say(f"Your move now: {hint}")
            if not rest:
                self.say(commands(self.game, await self.service.choices(self.channel_id,
                                                                        user)))
        elif word == "moves":
            for text in listed(await self.service.choices(self.channel_id, user), rest):
                self.say(text)
        elif word == "board" and rest.lower() == "text":  # as this seat may see it
            lines = (await self.service.board_text(self.channel_id, user)).splitlines()
            if self.hot_seat:
                self.private(user, lines)
            else:
                for text in lines:
                    self.say(text)
        elif word == "board" and not rest:
            board = await self.service.board(self.channel_id)
            self.say(board.public)
            if board.picture is not None and self.images is not None:
                self.say("  " + self._save(board.picture, f"t{-self.channel_id}-board.png"))
        elif word == "export" and not rest:
            await self.export()
        elif word == "replay" and (not rest or rest.isdigit()):
            await self.replay(user, int(rest) if rest else None)
        elif word == "hand" and not rest:
            hand = await self.service.hand(self.channel_id, user)
            lines = hand.ephemeral.splitlines()
            for private in hand.private:
                if private.picture is not None and self.images is not None:
                    path = self._save(private.picture, f"t{-self.channel_id}-hand-"
                                      f"{slug(self.names[user])}.png")
                    lines.append(path.removesuffix(f" {private.picture.summary}"))
            self.private(user, lines)
        else:
            try:
                reply = await self.service.play(self.channel_id, user, line)
            except rules.GameError as error:
                self.say(f"  {error}")
                return
            await self.show(reply, user)

    async def replay(self, user: int, move: int | None) -> None:
        """'replay [N]': move N (the deal without N) as this seat may see it, with its
        pictures saved; a seat's own lines are its own (hot seat)."""
        try:
            frame = await self.service.replay(self.channel_id, user, None, move)
        except rules.GameError as error:
            self.say(f"  {error}")
            return
        lines = [plain(line) for line in frame.text.splitlines()]
        if self.images is not None:
            for image in frame.images:
                path = self.write_png(image.png, f"t{-self.channel_id}-replay-"
                                      f"{frame.move:04d}-{image.name}")
                lines.append(f"  [picture {path}] {image.alt}")
        lines.append(f"  ('replay N' shows move N, 0 to {frame.last}.)")
        if self.hot_seat and not frame.finished:
            self.private(user, lines)
        else:
            for line in lines:
                self.say(line)

    async def export(self) -> bool:
        """Save the finished game's move log beside the database, named by game, table and
        date, never over an earlier game's file, and say how to check it (once saved, the
        same file is named again); a running game's is refused with the service's
        sentence."""
        try:
            name, data = await self.service.export(self.channel_id)
        except rules.GameError as error:
            self.say(f"  {error}")
            return False
        if self.log_path is None or not os.path.exists(self.log_path):
            self.log_path = fresh_path(self.logs, name.removesuffix(".json")
                                       + time.strftime("-%Y-%m-%d") + ".json")
            with open(self.log_path, "wb") as file:
                file.write(data)
        self.say(f"The move log is saved as {self.log_path}: check every deal and roll with "
                 f"'boardroom verify {self.log_path}'.")
        return True

    async def loop(self) -> int:
        """Ask the awaited seats for moves until the game ends or input stops; at the end,
        save the move log, and stay for a look back until 'quit'."""
        while True:
            waiting = await self.service.waiting(self.channel_id)
            if not waiting:
                status = await self.service.status(self.channel_id)
                self.say(status.public)
                await self.export()
                return await self.after()
            user, label = waiting[0]
            line = self.ask(f"{label}, your move: ") if self.hand_over(user, label) else None
            if line is None or line.lower() in ("quit", "exit", "q"):
                self.say(STOPPED)
                return 0
            if line:
                await self.command(user, line)


    async def after(self) -> int:
        """The game is over: 'export', 'replay N', 'board' ('board text') and 'rules' still
        answer, as at a finished table, until 'quit' or the end of input."""
        user = min(self.names)
        while True:
            line = self.ask(AFTER)
            if line is None or line.lower() in ("quit", "exit", "q"):
                return 0
            word = line.split(" ")[0].lower()
            if word in ("export", "replay", "board", "rules", "help", "?"):
                await self.command(user, line)
            elif line:
                self.say("The game is over: no more moves. " + AFTER.rstrip(": ") + ".")


def fresh_path(folder: str, name: str) -> str:
    """``folder/name``, or ``folder/name-2`` (-3, ...) where that file exists already."""
    stem, dot, ending = name.rpartition(".")
    path, n = os.path.join(folder, name), 1
    while os.path.exists(path):
        n += 1
        path = os.path.join(folder, f"{stem}-{n}{dot}{ending}")
    return path


STOPPED = "Stopped. The game is saved; continue it with --resume."
AFTER = "The game is over. Type 'export', 'replay N', 'board' or 'quit': "
# Printed before each turn's block, as Discord starts a new message: the steps of a turn
# follow one another without it.
TURN_RULE = "─" * 40


async def run(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    game = rules.GAMES[args.game]
    players = game.min_players if args.players is None else args.players
    humans = players - args.computers
    try:  # every check before a table is opened, so none is left that cannot start
        game.check_players(players)
        options = parse_options(args.options)
        game.check_options(options)
    except rules.GameError as error:
        print(f"{error} (--players, --options)", file=sys.stderr)
        return 2
    if args.computers < 0 or humans < 1:
        print("Leave at least one seat for a person: --computers must be less than "
              "--players.", file=sys.stderr)
        return 2
    given = [n.strip() for n in args.names.split(",") if n.strip()]
    names = {u: clean_name(given[u - 1]) if u - 1 < len(given) else f"Player {u}"
             for u in range(1, humans + 1)}
    images = None if args.no_images else args.images
    store = await Store.open(args.db)
    try:
        service = TableService(store, images=not args.no_images, commands=TERMINAL,
                               level=args.level)
        if args.resume:
            return await resume(service, store, args, game, images, out, stdin)
        # A try-it table lives in its own made-up channel: negative, so never a Discord one.
        used = [g.channel_id for g in await store.tables.games(
            statuses=("open", "playing", "over", "ended")) if g.channel_id < 0]
        channel_id = min(used, default=0) - 1
        term = Terminal(service, game, channel_id, images, names, out, stdin,
                        logs=log_folder(args.db))
        try:
            await term.show(await service.open(channel_id, None, 1, names[1], game.id,
                                               options))
            for user_id in range(2, humans + 1):
                await term.show(await service.join(channel_id, user_id, names[user_id]))
            for _ in range(args.computers):
                await term.show(await service.add_computer(channel_id, 1, args.level))
            await term.show(await service.start(channel_id, 1, seed=args.seed))
        except rules.GameError as error:
            await service.end(channel_id, 1)  # nothing left that --resume cannot start
            print(error, file=sys.stderr)
            return 2
        waiting = await service.waiting(channel_id)
        term.say(commands(game, await service.choices(channel_id, waiting[0][0])
                          if waiting else Choices()))
        return await term.loop()
    finally:
        await store.close()


async def resume(service: TableService, store: Store, args: argparse.Namespace,
                 game: rules.Game[Any], images: str | None, out: TextIO, stdin: TextIO
                 ) -> int:
    """Continue the latest unfinished try-it game of ``game`` in the database."""
    tables = [g for g in await store.tables.games(statuses=("playing",))
              if g.channel_id < 0 and g.game == game.id]
    if not tables:
        print(f"There is no unfinished game of {game.name} in {args.db} to resume.",
              file=sys.stderr)
        return 2
    row = tables[-1]
    seats = await store.seats.of(row.id)
    names = {s.user_id: s.name for s in seats if s.user_id is not None and s.kind == "human"}
    term = Terminal(service, game, row.channel_id, images, names, out, stdin,
                    logs=log_folder(args.db))
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.started or row.created))
    played = max(0, row.version - 1)
    term.say(f"Resuming {game.name} from {args.db}: the game begun {when} with "
             f"{listing([s.name for s in seats])}, {played} move{'s' if played != 1 else ''} "
             "played.")
    for channel_id, reply in await service.undelivered():
        if channel_id == row.channel_id:
            await term.show(reply)
    term.public((await service.status(row.channel_id)).public)
    return await term.loop()


def log_folder(db: str) -> str:
    """Where move logs are saved: beside the SQLite file (the working folder for a
    PostgreSQL URL)."""
    return "" if "://" in db else os.path.dirname(db)


def main(argv: list[str] | None = None) -> int:
    """``boardroom try <game> [options]``; returns the exit status.

    Ctrl-C stops at once, at a prompt or mid-move, with one sentence: every move already
    made is saved, and a move is one transaction, so nothing is half done.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "try":
        args = args[1:]
    parsed = parser().parse_args(args)
    try:
        return asyncio.run(_interruptible(run(parsed, sys.stdout, sys.stdin)))
    except KeyboardInterrupt:
        print(f"\n{STOPPED}", flush=True)
        return 130


async def _interruptible(work: Coroutine[Any, Any, int]) -> int:
    """Let the first Ctrl-C stop the game even while waiting for a line of input.

    asyncio's own handler only cancels the main task, which a blocking ``readline`` never
    notices; Python's default handler raises ``KeyboardInterrupt`` where the program is, and
    ``run`` still closes the database on the way out.
    """
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return await work


if __name__ == "__main__":
    sys.exit(main())
