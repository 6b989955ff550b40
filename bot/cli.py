"""``boardroom try``: play a game in the terminal, hot-seat, without Discord.

The same table service and database as the bot: each seat in turn is asked for a move,
computer players fill the last seats when asked for, the channel's text and each picture's
one-line summary are printed, and every picture is saved as a PNG. The terminal has its own
commands (``bot.terminal.commands``: its 'moves' example from the player's own moves), and the
service's sentences name them, never Discord's (a line naming a guide topic says `rules
<topic>`). Input may be piped: the end of input stops cleanly, and the game stays saved
(``--resume`` continues it). When a game ends, its move log is saved beside the database
as a file named by game, table and date (``export``; never over an earlier one), so
``boardroom verify`` can be tried on it offline, and the finished table stays open for
``export``, ``replay N`` and ``board`` until ``quit``. A picture is saved once: one
identical to a picture already saved is named by the file it is in.

This module reads the command line and opens, seats and starts the table (or resumes one);
``bot.terminal.Terminal`` then prints, reads and saves until the game ends or input stops.
Everything is said in plain text (``run`` speaks ``words.PLAIN``): the terminal's sentences,
this module's (``bot/words/en/cli.toml``) and the service's alike.

    boardroom try cube-conquest --players 2 --computers 1
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from collections.abc import Coroutine
from typing import Any, TextIO

import rules
from bot import words
from bot.moves import Choices
from bot.service import TableService
from bot.service.replies import Commands
from bot.service.table import clean_name, parse_options
from bot.store import Store, is_postgres
from bot.store.errors import StoreError
from bot.terminal import Terminal, commands
from rules.computer import DEFAULT, LEVELS, level_of
from rules.core import listing

DEFAULT_DB = "boardroom-try.db"
DEFAULT_IMAGES = "boardroom-images"
# What the service's sentences say of commands: everyone is seated by the options given,
# and the move log is saved with 'export' (a clause of the catalogue's). Commands are
# spellings: a sentence gives them the code role, which the terminal shows in quotes.
TERMINAL = Commands(join="", start="", export=words.say("cli.export"), end="",
                    topic="rules {}", log="", replay="replay {}", undo="", guide="rules")


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



async def run(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Play a game in the terminal; the exit status. Every sentence in plain text, the
    service's too."""
    with words.speaking(words.PLAIN):
        return await play(args, out, stdin)


async def play(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    game = rules.GAMES[args.game]
    players = game.min_players if args.players is None else args.players
    humans = players - args.computers
    try:  # every check before a table is opened, so none is left that cannot start
        game.check_players(players)
        options = parse_options(args.options)
        game.check_options(options)
        game.new(players, 0, options)  # what only a deal checks ('couples' with 2 players)
    except rules.GameError as error:
        print(words.say("cli.bad_options", said=error), file=sys.stderr)
        return 2
    if args.computers < 0 or humans < 1:
        print(words.say("cli.no_person"), file=sys.stderr)
        return 2
    given = [n.strip() for n in args.names.split(",") if n.strip()]
    names = {u: clean_name(given[u - 1]) if u - 1 < len(given)
             else words.say("cli.player", seat=u) for u in range(1, humans + 1)}
    images = None if args.no_images else args.images
    if args.resume and not is_postgres(args.db) and not os.path.exists(args.db):
        print(words.say("cli.nothing_to_resume", game=game.name, path=args.db),
              file=sys.stderr)  # and no empty database made for it
        return 2
    try:
        store = await Store.open(args.db)
    except StoreError as error:  # no folder for it, a damaged file: one sentence
        print(error, file=sys.stderr)
        return 2
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
        print(words.say("cli.nothing_to_resume", game=game.name, path=args.db),
              file=sys.stderr)
        return 2
    row = tables[-1]
    seats = await store.seats.of(row.id)
    names = {s.user_id: s.name for s in seats if s.user_id is not None and s.kind == "human"}
    term = Terminal(service, game, row.channel_id, images, names, out, stdin,
                    logs=log_folder(args.db))
    term.say(words.say("cli.resuming", game=game.name, path=args.db,
                       time=row.started or row.created,
                       players=listing([s.name for s in seats]), count=max(0, row.version - 1)))
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
        print("\n" + words.say("terminal.stopped"), flush=True)
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
