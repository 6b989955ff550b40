"""``boardroom try``: play a game in the terminal, hot-seat, without Discord.

The same table service and database as the bot: each seat in turn is asked for a move,
computer players fill the last seats when asked for, the channel's text and each picture's
one-line summary are printed, and every picture is saved as a PNG. Input may be piped: the
end of input stops cleanly, and the game stays saved (``--resume`` continues it).

    boardroom try cube-conquest --players 2 --computers 1
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import TextIO

import rules
from bot.service import Picture, Reply, TableService, parse_options
from bot.store import Store

DEFAULT_DB = "boardroom-try.db"
DEFAULT_IMAGES = "boardroom-images"
HELP = ("Type a move, or: 'moves' (your legal moves), 'board', 'hand', 'help', 'quit'.")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="boardroom try", description="Play a Boardroom game in the terminal, hot-seat, "
        "without Discord. Each board is saved as a PNG.")
    p.add_argument("game", choices=sorted(rules.GAMES), help="the game to play")
    p.add_argument("--players", type=int, default=None,
                   help="seats at the table (default: the fewest the game takes)")
    p.add_argument("--computers", type=int, default=0,
                   help="computer players, in the last seats (default 0)")
    p.add_argument("--names", default="",
                   help="comma-separated names for the human seats (default Player 1, ...)")
    p.add_argument("--db", default=DEFAULT_DB,
                   help=f"the SQLite database to keep the game in (default {DEFAULT_DB})")
    p.add_argument("--images", default=DEFAULT_IMAGES,
                   help=f"folder for the PNG pictures (default {DEFAULT_IMAGES})")
    p.add_argument("--no-images", action="store_true", help="draw no pictures")
    p.add_argument("--seed", type=int, default=None,
                   help="the deal's seed, to replay the same game")
    p.add_argument("--options", default="",
                   help="game variants, e.g. 'advanced' or 'variant=couples'")
    p.add_argument("--resume", action="store_true",
                   help="continue the last unfinished game in the database")
    return p


class Terminal:
    """Prints replies, saves pictures, and reads moves for the awaited seats."""

    def __init__(self, service: TableService, channel_id: int, images: str | None,
                 names: dict[int, str], out: TextIO, stdin: TextIO) -> None:
        self.service = service
        self.channel_id = channel_id
        self.images = images
        self.names = names
        self.out = out
        self.stdin = stdin

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def _save(self, picture: Picture, name: str) -> None:
        if self.images is None:
            return
        os.makedirs(self.images, exist_ok=True)
        path = os.path.join(self.images, name)
        with open(path, "wb") as file:
            file.write(picture.png)
        self.say(f"  [picture {path}] {picture.summary}")

    async def show(self, reply: Reply) -> None:
        """Print a reply as the channel and each player would see it; then mark it posted."""
        if reply.public:
            self.say(reply.public)
        prefix = f"t{-self.channel_id}-v{reply.version:04d}"
        if reply.picture is not None:
            self._save(reply.picture, f"{prefix}-board.png")
        if reply.ephemeral:
            self.say(f"  (only you) {reply.ephemeral}")
        reply = await reply.with_pictures()
        for private in reply.private:
            who = self.names.get(private.user_id, str(private.user_id))
            if private.text:
                for line in private.text.splitlines():
                    self.say(f"  (only {who}) {line}")
            if private.picture is not None:
                self._save(private.picture, f"{prefix}-{who.replace(' ', '-').lower()}.png")
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

    async def loop(self) -> int:
        """Ask the awaited seats for moves until the game ends or input stops."""
        while True:
            waiting = await self.service.waiting(self.channel_id)
            if not waiting:
                status = await self.service.status(self.channel_id)
                self.say(status.public)
                return 0
            user_id, label = waiting[0]
            line = self.ask(f"{label}, your move: ")
            if line is None or line.lower() in ("quit", "exit", "q"):
                self.say("Stopped. The game is saved; continue it with --resume.")
                return 0
            command = line.lower()
            if command in ("help", "?"):
                self.say(HELP)
            elif command == "moves":
                moves = await self.service.legal_moves(self.channel_id, user_id)
                self.say(f"{len(moves)} legal moves: " + "; ".join(moves))
            elif command == "board":
                board = await self.service.board(self.channel_id)
                self.say(board.public)
                if board.picture is not None:
                    self._save(board.picture, f"t{-self.channel_id}-board.png")
            elif command == "hand":
                hand = await self.service.hand(self.channel_id, user_id)
                self.say(hand.ephemeral)
            else:
                try:
                    reply = await self.service.play(self.channel_id, user_id, line)
                except rules.GameError as error:
                    self.say(f"  {error}")
                    continue
                await self.show(reply)


async def run(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    game = rules.GAMES[args.game]
    players = game.min_players if args.players is None else args.players
    humans = players - args.computers
    if args.computers < 0 or humans < 1:
        print("Leave at least one seat for a person: --computers must be less than "
              "--players.", file=sys.stderr)
        return 2
    given = [n.strip() for n in args.names.split(",") if n.strip()]
    names = {u: given[u - 1] if u - 1 < len(given) else f"Player {u}"
             for u in range(1, humans + 1)}
    store = await Store.open(args.db)
    try:
        service = TableService(store, images=not args.no_images)
        images = None if args.no_images else args.images
        tables = [g for g in await store.games() if g.channel_id < 0]
        if args.resume:
            if not tables:
                print(f"There is no unfinished game in {args.db} to resume.", file=sys.stderr)
                return 2
            row = tables[-1]
            seats = await store.seats(row.id)
            names = {s.user_id: s.name for s in seats if s.user_id is not None}
            term = Terminal(service, row.channel_id, images, names, out, stdin)
            term.say(f"Resuming {rules.GAMES[row.game].name} from {args.db}.")
            for channel_id, reply in await service.undelivered():
                if channel_id == row.channel_id:
                    await term.show(reply)
            term.say((await service.status(row.channel_id)).public)
            return await term.loop()
        # A try-it table lives in its own made-up channel: negative, so never a Discord one.
        used = [g.channel_id for g in await store.games(
            statuses=("open", "playing", "over", "ended")) if g.channel_id < 0]
        channel_id = min(used, default=0) - 1
        term = Terminal(service, channel_id, images, names, out, stdin)
        try:
            await term.show(await service.open(channel_id, None, 1, names[1], game.id,
                                               parse_options(args.options)))
            for user_id in range(2, humans + 1):
                await term.show(await service.join(channel_id, user_id, names[user_id]))
            for _ in range(args.computers):
                await term.show(await service.add_computer(channel_id, 1))
            await term.show(await service.start(channel_id, 1, seed=args.seed))
        except rules.GameError as error:
            print(error, file=sys.stderr)
            return 2
        term.say(HELP)
        return await term.loop()
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    """``boardroom try <game> [options]``; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "try":
        args = args[1:]
    parsed = parser().parse_args(args)
    try:
        return asyncio.run(run(parsed, sys.stdout, sys.stdin))
    except KeyboardInterrupt:
        print("\nStopped. The game is saved; continue it with --resume.")
        return 130


if __name__ == "__main__":
    sys.exit(main())
