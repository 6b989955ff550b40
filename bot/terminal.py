"""The terminal's table: what ``boardroom try`` prints and reads once a game is open.

``Terminal`` prints each reply as the channel and each player would see it (a player's
private lines held until that player has the keyboard, hot seat), saves every picture once
as a PNG, reads the awaited seat's line and answers the terminal's own commands ('moves',
'board', 'hand', 'rules', 'replay N', 'export'), and at the end saves the move log beside
the database and stays for a look back until 'quit'. ``bot.cli`` reads the command line,
opens or resumes the table and hands it to ``Terminal.loop``.

Every sentence is the catalogue's (``bot/words/en/terminal.toml``), said in plain text: the
command line's ``run`` says all within ``words.speaking(words.PLAIN)``, so the service's
sentences come out plain too (a time as a local date, never a Discord timestamp).
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Any, TextIO

import render
import rules
from bot import rulebook, words
from bot.moves import Choices
from bot.service import TableService
from bot.service.pictures import Picture
from bot.service.replies import Reply
from rules.core import quote

LISTED = 30  # lines a list of moves shows at most: more are grouped by their next word
CLEAR = "\033[3J\033[2J\033[H"  # clear a terminal screen and its scrollback, cursor on top


def commands(game: rules.Game[Any], choices: Choices) -> str:
    """The terminal's commands, with a 'moves' example that narrows the player's own list
    of moves now (``Choices.example``), so that it never answers "No legal move"; where
    their list cannot be narrowed (a few moves alike), the game's own example and when it
    applies (``rulebook.example``)."""
    found = choices.example()
    others = words.say("terminal.commands")
    if found:
        return words.say("terminal.help_narrowing", start=found[0], count=found[1],
                         quoted=quote(found[0], 40), commands=others)
    later = rulebook.example(game.id)
    example = {"game": game.name, "start": later.narrow, "count": later.narrowed,
               "total": later.offered, "played": later.step, "commands": others}
    if not later.step:
        return words.say("terminal.help_at_start", **example)
    return words.say("terminal.help_later", **example)


def listed(choices: Choices, typed: str = "") -> list[str]:
    """Lines listing the legal moves that match ``typed``, one a line (a costly move with
    its cost, free ones first); where more match than ``LISTED``, grouped by the next word
    to type, each group with its count, so that typing more narrows the list."""
    found = choices.matching(typed)
    quoted = quote(typed, 40)
    if not found and choices.moves and typed.strip():  # what their moves start with now
        starts = list(dict.fromkeys(m.split()[0] for m in choices.moves))
        return [words.say("terminal.no_move_matching", quoted=quoted,
                          count=len(choices.moves),
                          starts=rules.core.listing([quote(w, 20) for w in starts[:8]], "or")
                          + (", ..." if len(starts) > 8 else ""))]
    if not found:
        return [words.say("terminal.no_legal_move")]
    entries = choices.narrow(typed, LISTED)
    lines = [words.say("terminal.legal_moves_matching", count=len(found), quoted=quoted)
             if typed.strip() else words.say("terminal.legal_moves", count=len(found))]
    lines += [f"  {entry.label()}" for entry in entries]
    group = next((entry for entry in entries if not entry.whole), None)
    if group is not None:
        lines.append("  " + words.say("terminal.narrow_further", start=group.text))
    return lines


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
        self.saved: dict[str, str] = {}  # each picture written, by what it shows
        self.on_disk: dict[str, str] | None = None  # the folder's pictures, by their bytes
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
        self.over = False  # the game is over: the finished table's commands alone answer

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
        labelled = ["  " + words.say("terminal.only_for", name=who, said=line)
                    for line in lines]
        if self.hot_seat and user != self.keyboard:
            self.held.setdefault(user, []).extend(labelled)
        else:
            for line in labelled:
                self.say(line)

    def write_png(self, png: bytes, name: str) -> str:
        """Save a picture in the pictures folder as ``name``, unless the same picture was
        saved already (a hand that did not change, a board seen again, by this game or an
        earlier one into the same folder): the path it is at. Pictures of this run are told
        apart by what they show (``render.shown``), the folder's others by their bytes; a
        name an earlier game took gets a number ('-2'), so no picture is written over."""
        assert self.images is not None
        if self.on_disk is None:  # saved by an earlier game or run into the same folder
            folder = Path(self.images)
            self.on_disk = {hashlib.sha256(f.read_bytes()).hexdigest(): str(f)
                            for f in sorted(folder.glob("*.png"))} if folder.is_dir() else {}
        sha = hashlib.sha256(png).hexdigest()
        same = self.on_disk.get(sha)
        if same is not None and os.path.exists(same):
            return same
        digest = render.shown(png)
        path = self.saved.get(digest)
        if path is None or not os.path.exists(path):
            os.makedirs(self.images, exist_ok=True)
            path = os.path.join(self.images, name)
            stem, n = path.removesuffix(".png"), 1
            while os.path.exists(path):  # another picture of an earlier game: kept
                n += 1
                path = f"{stem}-{n}.png"
            self.saved[digest] = path
            with open(path, "wb") as file:
                file.write(png)
            self.on_disk[sha] = path
        return path

    def _save(self, picture: Picture, name: str) -> str:
        """Write the picture (if pictures are wanted); the line that says where it is."""
        if self.images is None:
            return picture.summary
        paths = [self.write_png(png, name if not n else name.replace(".png", f"-{n}.png"))
                 for n, png in enumerate((picture.png, *picture.more))]
        return words.say("terminal.picture", paths=" ".join(paths), summary=picture.summary)

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
            away = self.hot_seat and private.user_id != self.keyboard
            if private.picture is not None and not away:  # (away: drawn as they sit down)
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

    async def hand_over(self, user: int, label: str) -> bool:
        """Give ``user`` the keyboard: ask for them, clear the screen, show what they missed,
        their private lines and their own view as the table stands (not as their last move
        left it). False if input ended."""
        if not self.hot_seat or user == self.keyboard:
            return True
        if self.keyboard is not None and self.out.isatty():
            self.say(CLEAR)  # the last player's secrets go before the next one sits down
        typed = self.ask(words.say("terminal.pass_keyboard", player=label,
                                   name=self.names[user]))
        if typed is None:
            return False  # (their own view is shown next: asked before the first turn too)
        if self.keyboard is not None:  # (the prompt itself is cleared from the screen too)
            self.say(CLEAR if self.out.isatty()
                     else words.say("terminal.at_keyboard", name=self.names[user]))
        if typed.strip():  # a move typed too soon: said, not lost without a word
            self.say(words.say("terminal.typed_at_handover", typed=quote(typed.strip(), 60)))
        self.keyboard = user
        missed, self.missed[user] = self.missed.get(user, [])[-40:], []
        if missed:
            self.say(words.say("terminal.since_last_turn"))
            for line in missed:
                self.say(line)
        held, self.held[user] = self.held.get(user, []), []
        for line in held:
            self.say(line)
        await self.hand(user, sitting_down=True)
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
                self.say(words.say("terminal.your_move_now", said=hint))
            if not rest:
                self.say(words.say("terminal.help_after") if self.over else commands(
                    self.game, await self.service.choices(self.channel_id, user)))
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
            board = await self.service.board(self.channel_id, clocks=False)  # none here
            self.say(board.public)
            if board.picture is not None and self.images is not None:
                self.say("  " + self._save(board.picture, f"t{-self.channel_id}-board.png"))
        elif word == "export" and not rest:
            await self.export()
        elif word == "replay" and (not rest or rest.isdigit()):
            await self.replay(user, int(rest) if rest else None)
        elif word == "hand" and not rest:
            await self.hand(user)
        elif word == "board":  # the terminal's own words, with what they do not take
            self.say("  " + words.say("terminal.usage_board"))
        elif word == "hand":
            self.say("  " + words.say("terminal.usage_hand"))
        elif word == "export":
            self.say("  " + words.say("terminal.usage_export"))
        elif word == "replay":
            self.say("  " + words.say("terminal.usage_replay"))
        else:
            try:
                reply = await self.service.play(self.channel_id, user, line)
            except rules.GameError as error:
                self.say(f"  {error}")
                return
            await self.show(reply, user)

    async def hand(self, user: int, *, sitting_down: bool = False) -> None:
        """``user``'s own view, as 'hand' shows it; ``sitting_down`` (their turn in a
        hot-seat game, the keyboard theirs again): only where they hold something."""
        hand = await self.service.hand(self.channel_id, user)
        if sitting_down and not hand.private:
            return
        lines = hand.ephemeral.splitlines()
        for private in hand.private:
            if private.picture is not None and self.images is not None:
                path = self._save(private.picture, f"t{-self.channel_id}-hand-"
                                  f"{slug(self.names[user])}.png")
                lines = [path] if sitting_down else [  # the picture says what it shows
                    *lines, path.removesuffix(f" {private.picture.summary}")]
        self.private(user, lines)

    async def replay(self, user: int, move: int | None) -> None:
        """'replay [N]': move N (the deal without N) as this seat may see it, with its
        pictures saved; a seat's own lines are its own (hot seat)."""
        try:
            frame = await self.service.replay(self.channel_id, user, None, move)
        except rules.GameError as error:
            self.say(f"  {error}")
            return
        lines = frame.text.splitlines()
        if self.images is not None:
            for image in frame.images:
                path = self.write_png(image.png, f"t{-self.channel_id}-replay-"
                                      f"{frame.move:04d}-{image.name}")
                lines.append("  " + words.say("terminal.picture", paths=path,
                                              summary=image.alt))
        lines.append("  " + words.say("terminal.replay_range", last=frame.last))
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
        self.say(words.say("terminal.saved", path=self.log_path))
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
            line = (self.ask(words.say("terminal.your_move", player=label))
                    if await self.hand_over(user, label) else None)
            if line is None or line.lower() in ("quit", "exit", "q"):
                self.say(words.say("terminal.stopped"))
                return 0
            if line:
                await self.command(user, line)


    async def after(self) -> int:
        """The game is over: 'export', 'replay N', 'board' ('board text') and 'rules' still
        answer, as at a finished table, until 'quit' or the end of input."""
        # answered for whoever has the keyboard: an answer held for another player (hot
        # seat) would never be shown
        user = min(self.names) if self.keyboard is None else self.keyboard
        self.over = True
        while True:
            line = self.ask(words.say("terminal.after"))
            if line is None or line.lower() in ("quit", "exit", "q"):
                return 0
            word = line.split(" ")[0].lower()
            if word in ("export", "replay", "board", "rules", "help", "?"):
                await self.command(user, line)
            elif line:
                self.say(words.say("terminal.no_more_moves"))


def fresh_path(folder: str, name: str) -> str:
    """``folder/name``, or ``folder/name-2`` (-3, ...) where that file exists already."""
    stem, dot, ending = name.rpartition(".")
    path, n = os.path.join(folder, name), 1
    while os.path.exists(path):
        n += 1
        path = os.path.join(folder, f"{stem}-{n}{dot}{ending}")
    return path


# Printed before each turn's block, as Discord starts a new message: the steps of a turn
# follow one another without it.
TURN_RULE = "─" * 40
