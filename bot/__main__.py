"""``python -m bot`` (or ``boardroom``): run the Discord bot.

The token comes from ``DISCORD_TOKEN``; the database path from ``BOARDROOM_DB``; commands
sync to the guild in ``DISCORD_GUILD`` when set. ``boardroom try ...`` plays a game in the
terminal instead, without Discord (see ``bot.cli``); ``boardroom verify FILE`` checks a
finished game's exported move log (see ``bot.fairness``); ``boardroom backup FILE`` copies
the running bot's SQLite database (``backup``); ``boardroom check`` checks the commands
against Discord's documented limits, offline (``check``); ``boardroom smoke`` tries what the
bot sends on a maintainer's test server (``bot.discord.smoke``). SIGTERM (``docker stop``)
and Ctrl-C close the connection and the database cleanly.

Exit status: 0 after a clean stop; 1 when the bot cannot start as it is (Discord refused
the token or the commands, or would refuse the commands; the database cannot be used),
said in one sentence each, which a restart would not change (the Dockerfile says how a
container ends then); 2 for a command line or an environment that is wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence

import discord

from bot.shards import ShardError, from_env
from bot.store.errors import StoreError

log = logging.getLogger("boardroom")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")  # BOARDROOM_LOG_LEVEL's values


USAGE = """\
usage: boardroom [try GAME [options] | verify FILE | backup FILE | migrate-db FROM TO |
                 check | smoke --guild ID --channel ID [--user ID] | --help]

  boardroom                 run the Discord bot: DISCORD_TOKEN from the environment
                            (BOARDROOM_DB: the database file or postgresql:// URL;
                            DISCORD_GUILD: sync commands to one server at once;
                            BOARDROOM_SHARD_IDS, BOARDROOM_SHARD_COUNT: run only
                            these shards, e.g. 0,1 of 4 (docs/scale.md);
                            BOARDROOM_LOG_LEVEL: INFO by default)
  boardroom try GAME ...    play in the terminal without Discord, hot-seat or against
                            computer players ('boardroom try --help' lists the options)
  boardroom verify FILE     check a finished game's move log from /game export: the
                            commitment, then every deal and roll replayed from the seed
                            (--events prints them; exit status 1 if it does not check out)
  boardroom backup FILE [--db DB]
                            write a consistent copy of the bot's SQLite database
                            (BOARDROOM_DB, or DB) to FILE while the bot runs; on
                            PostgreSQL, use pg_dump (docs/discord.md)
  boardroom migrate-db FROM TO
                            copy every table from one database (a SQLite file or a
                            postgresql:// URL) into another, empty one; stop the bot
                            first (docs/scale.md)
  boardroom check           check the slash commands against Discord's documented
                            limits (names, descriptions, options, choices), offline:
                            no token, no database; exit status 1 names each problem
  boardroom smoke --guild ID --channel ID [--user ID]
                            once, on a test server, before inviting players
                            (DISCORD_TOKEN from the environment): register the commands
                            in that server, post a turn message with a board picture in
                            that channel, edit it twice, DM the application's owner (or
                            --user) a button, then delete what it made, printing what
                            Discord answered; exit status 1 at the first refusal
  boardroom --help          this text

games: {games}
"""


def backup(argv: Sequence[str]) -> int:
    """``boardroom backup FILE [--db DB]``: a consistent copy of the bot's SQLite database
    (``Store.backup``: SQLite's online backup, so the running bot's writes go on) in FILE;
    Python alone, since the Docker image has no ``sqlite3`` program."""
    from bot.store import Store, is_postgres
    from bot.store.sqlite import default_path

    parser = argparse.ArgumentParser(
        prog="boardroom backup", description="Write a consistent copy of the bot's SQLite "
        "database to FILE while the bot runs (on PostgreSQL, use pg_dump).")
    parser.add_argument("target", metavar="FILE", help="the copy (replaced if it exists)")
    parser.add_argument("--db", help="the database (default: BOARDROOM_DB, else "
                                     "boardroom.db)")
    args = parser.parse_args(argv)
    where = args.db or default_path()

    async def copy() -> None:
        if not is_postgres(where) and not os.path.isfile(where):
            raise StoreError(f"There is no database file {where}, so nothing was backed up.")
        store = await Store.open(where)
        try:
            await store.backup(args.target)
        finally:
            await store.close()

    try:
        asyncio.run(copy())
    except StoreError as error:
        print(f"boardroom backup: {error}", file=sys.stderr)
        return 1
    print(f"Backed up {where} to {args.target} "
          f"({os.path.getsize(args.target) / 2**20:.1f} MB), a whole SQLite database.")
    return 0


def check(argv: Sequence[str]) -> int:
    """``boardroom check``: the bot's commands, built as the bot builds them (its cogs
    loaded, offline), against Discord's documented limits (``bot.discord.limits``): one
    line saying they fit, or one sentence per problem and exit status 1."""
    from bot.app import registration
    from bot.discord.limits import command_problems

    argparse.ArgumentParser(
        prog="boardroom check", description="Check the bot's slash commands against "
        "Discord's documented limits, offline: no token, no network, no database.",
    ).parse_args(argv)
    commands = asyncio.run(registration())
    problems = command_problems(commands)
    for problem in problems:
        print(f"boardroom check: {problem}", file=sys.stderr)
    if problems:
        return 1
    subcommands = sum(1 for command in commands for option in command.get("options") or []
                      if option.get("type") in (1, 2))
    print(f"Checked {len(commands)} slash commands ({subcommands} subcommands and groups): "
          f"every name, description, option and choice fits Discord's documented limits.")
    return 0


def main() -> None:
    """The console script: the bot, ``boardroom try ...`` for a game without Discord, or
    ``boardroom verify FILE`` to check an exported move log."""
    import rules

    if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help", "help"):
        print(USAGE.format(games=", ".join(sorted(rules.GAMES))), end="")
        raise SystemExit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "try":
        from bot import cli

        raise SystemExit(cli.main(sys.argv[1:]))
    if len(sys.argv) > 1 and sys.argv[1] == "verify":
        from bot import fairness

        raise SystemExit(fairness.main(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "backup":
        raise SystemExit(backup(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "check":
        raise SystemExit(check(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "smoke":
        from bot.discord import smoke

        raise SystemExit(smoke.main(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "migrate-db":
        from bot import migrate_db

        raise SystemExit(migrate_db.main(sys.argv[2:]))
    if len(sys.argv) > 1:
        print(f"boardroom: unknown command {sys.argv[1][:40]!r}\n", file=sys.stderr)
        print(USAGE.format(games=", ".join(sorted(rules.GAMES))), end="", file=sys.stderr)
        raise SystemExit(2)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("Set DISCORD_TOKEN to your bot's token (see docs/discord.md), or run "
              "'boardroom try cube-conquest' to play in the terminal without Discord.",
              file=sys.stderr)
        raise SystemExit(2)
    try:
        shards = from_env()
    except ShardError as error:
        print(f"boardroom: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    level = os.environ.get("BOARDROOM_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LEVELS:
        print(f"boardroom: BOARDROOM_LOG_LEVEL must be {', '.join(LEVELS[:-1])} or "
              f"{LEVELS[-1]}, not {level[:20]!r}; unset it for INFO.", file=sys.stderr)
        raise SystemExit(2)
    numeric = logging.getLevelNamesMapping()[level]
    discord.utils.setup_logging(level=numeric)
    # The bot has no voice, so discord.py's "PyNaCl/davey is not installed, voice will NOT
    # be supported" says nothing to an owner, yet came first in every start's output.
    logging.getLogger("discord.client").addFilter(
        lambda record: "voice will NOT be supported" not in record.getMessage())
    # aiosqlite's DEBUG lines hold every statement's values: states with their seeds, and
    # the salt, which must stay secret until a game is over (bot/fairness.py).
    logging.getLogger("aiosqlite").setLevel(max(numeric, logging.INFO))
    # discord.py's DEBUG lines hold every request's body: each DM, with a player's hand.
    logging.getLogger("discord.http").setLevel(max(numeric, logging.INFO))
    from bot import app
    from bot.discord.client import StartRefused, start_refused

    try:
        asyncio.run(app.run(token, shards))
    except KeyboardInterrupt:
        pass
    except discord.LoginFailure:
        print("boardroom: Discord refused the token in DISCORD_TOKEN; copy it again from the "
              "Developer Portal (see docs/discord.md).", file=sys.stderr)
        raise SystemExit(1) from None
    except StartRefused as refused:  # the commands, or where they go: one sentence each
        for sentence in refused.sentences:
            print(f"boardroom: {sentence}", file=sys.stderr)
        raise SystemExit(1) from None
    except StoreError as error:  # the database cannot be used: one sentence, no traceback
        print(f"boardroom: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    except discord.HTTPException as error:  # refused elsewhere in the start (a 5xx waits)
        print(f"boardroom: {start_refused(error)}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
