"""What players see of a game in Discord: the channel's traffic counted, and screenshots.

    .venv/bin/python -m benchmarks.conversation OUT [--games all|<game-id>] [--players 2 3]
        [--seed N] [--max-steps 400] [--turns 6] [--no-screenshots]

Every game of ``rules.GAMES`` at each player count asked for (where the game allows it) is
played once to the end on SimCord, the simulated Discord the tests use, with the real bot
on a fresh SQLite file and pictures off (they change no message count). Only humans sit at
the table (alice, bob, carol): ``/game new``, ``/game join``, ``/game start`` (the deal
drawn from ``--seed``), then, until nobody is awaited, one awaited member chosen at random
sends ``/play`` with one of their legal moves chosen at random (a ``random.Random`` seeded
by ``--seed``, the game and the count: a run is reproducible). A game still going after
``--max-steps`` versions is stopped and marked ``capped``.

Printed, one row per game and player count, and written to ``OUT/figures.txt``:

- steps: versions of the game (the deal, and each move);
- turns: turn changes, the steps after which some human is awaited who was not awaited
  just before it (awaited: the seats with a legal move, as the service says);
- posts, edits: messages the bot created in the game channel, and its edits of them
  (from SimCord's record of the bot's REST calls: ``POST``/``PATCH`` on the channel's
  messages, and interaction replies or updates that land there);
- pings: for each message the bot created in the channel, the users actually notified:
  mentioned in it (``<@id>``, in its text or its components' text) and let through by its
  ``allowed_mentions`` (plus the replied-to author, if allowed). An edit notifies nobody,
  as in Discord. ``pings/turn``: pings per turn change;
- DMs, DM edits: direct messages the bot posted to players, and its edits of them;
- cmds: commands the members sent (setup and ``/play``); ``cmds/turn`` median and mean:
  for each turn (from one turn change to the next, or to the end), the commands sent
  during it by each member the turn change newly awaited, one figure per such member;
- global/move: the bot's REST requests that count against Discord's global limit of 50
  a second, per ``/play``, and their split: ``chan`` (the game channel's messages), ``DM``
  (direct messages, their edits, and opening a DM channel: ``POST /users/@me/channels``),
  ``look-up`` (``GET /users/{id}``). Interaction endpoints are exempt ("Interaction
  endpoints are not bound to the bot's Global Rate Limit", Discord's rate-limit page,
  discord-api-docs #4416): the callback ``POST /interactions/{id}/{token}/callback`` and
  every ``/webhooks/{application id}/{token}`` call (the deferred answer, its edits and
  follow-ups) are not counted. What the bot asks once at start (the application, the command
  registration) is left out too; every other request counts. The summary gives the
  figure twice: over the whole game, and over the requests made while a ``/play`` was
  served alone (the lobby, the start message and the DMs of the deal, with the DM channels
  they open, are the table's setup, not a move's cost);
- ms/play: the median wall time of a ``/play``, from the member's command until SimCord
  has settled every request the bot made for it (the Discord adapter's latency, as far as
  the simulation shows it);
- s: wall seconds the game took.

Unless ``--no-screenshots``: each game (at the first player count asked for) is played
again with pictures on, for ``--turns`` turn changes, and SimCord's preview captures, in
``OUT/``: ``<game>-<n>p-channel-{phone,desktop}.png`` (alice's view of the game channel,
400 and 1200 px wide, one screen high: 860 and 800 px), ``...-channel-phone-tall.png`` (the
same at 400 px, 5,000 px high: several steps in a row), ``...-step-phone.png`` (the
channel's newest message alone at 400 px: its height is one step's height on a phone) and
``<game>-<n>p-dm-{phone,desktop}.png`` (alice's direct messages). ``OUT/screens.txt``
lists them with their sizes. The capture runs Playwright (``pip install -e '.[preview]'``)
on the system's Chromium (``--chromium``, default ``/usr/bin/chromium``; Debian:
``apt-get install chromium``), never a downloaded browser.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import discord
import simcord

import rules
from bot.app import create_bot
from bot.service import TableService
from bot.store import Store
from tests import contract

NAMES = ("alice", "bob", "carol")
EPHEMERAL = 1 << 6
MENTION = re.compile(r"<@!?(\d+)>")
CALLBACK = re.compile(r"^/interactions/\d+/([^/]+)/callback$")
WEBHOOK = re.compile(r"^/webhooks/\d+/([^/]+)(?:/messages/([^/?]+))?")
CHANNEL_MESSAGES = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
PHONE, DESKTOP = (400, 860), (1200, 800)
TALL = (400, 5000)


# --------------------------------------------------------------------------- counting


def text_of(payload: dict[str, Any]) -> str:
    """A message payload's text as Discord scans it for mentions: the content and the text
    of its components (Components V2 text displays, nested in containers and sections)."""
    parts = [str(payload.get("content") or "")]

    def walk(items: Any) -> None:
        for item in items or ():
            if isinstance(item, dict):
                if item.get("type") == 10:  # a text display
                    parts.append(str(item.get("content") or ""))
                walk(item.get("components"))
    walk(payload.get("components"))
    return "\n".join(parts)


def notified(payload: dict[str, Any], replied_to: int | None = None) -> list[int]:
    """The users a created message notifies: those mentioned that its ``allowed_mentions``
    lets through (none given: Discord's default, every mentioned user), and the replied-to
    author when ``replied_user`` allows it."""
    mentioned = list(dict.fromkeys(int(i) for i in MENTION.findall(text_of(payload))))
    policy = payload.get("allowed_mentions")
    if policy is None or "users" in (policy.get("parse") or ()):
        users = mentioned
    else:
        allowed = {int(i) for i in policy.get("users") or ()}
        users = [i for i in mentioned if i in allowed]
    if replied_to is not None and replied_to not in users and (
            policy is None or policy.get("replied_user", False)):
        users.append(replied_to)
    return users


@dataclass
class Traffic:
    """The bot's messages in one game channel and in its players' DMs."""

    posts: int = 0
    edits: int = 0
    pings: int = 0
    dms: int = 0
    dm_edits: int = 0
    answers: int = 0  # ephemeral answers (the deferred reply's edits), not counted above
    pinged: list[int] = field(default_factory=list)
    # requests under Discord's global limit, by kind (``LIMITED``), start-up's apart
    limited: Counter[str] = field(default_factory=Counter)


LIMITED = ("channel", "dm", "look-up")
USER = re.compile(r"^/users/(\d+)$")
STARTUP = re.compile(r"^/(oauth2/applications/@me|applications/\d+/(guilds/\d+/)?commands)$")


def limited(method: str, path: str, channel_id: int, dm_ids: set[int]) -> str | None:
    """What a request the global limit counts is for (``LIMITED``, else 'other'); None for
    one it exempts (an interaction endpoint) or start-up's."""
    if CALLBACK.match(path) or WEBHOOK.match(path) or STARTUP.match(path):
        return None
    if found := re.match(r"^/channels/(\d+)", path):
        target = int(found.group(1))
        return "channel" if target == channel_id else "dm" if target in dm_ids else "other"
    if path == "/users/@me/channels" and method == "POST":
        return "dm"
    if USER.match(path) and method == "GET":
        return "look-up"
    return "other"


def count(requests: Sequence[simcord.HttpLogEntry], channel_id: int, dm_ids: set[int]
          ) -> Traffic:
    """Classify the bot's REST calls (``env.http_requests``). Interactions are assumed to
    come from the game channel (every command here is sent there): a public interaction
    reply is a channel post, an update of the clicked message a channel edit."""
    traffic = Traffic()
    public_original: dict[str, bool] = {}  # interaction token -> original is public, unposted
    updates: set[str] = set()  # tokens whose original is the clicked (channel) message

    def post(payload: dict[str, Any]) -> None:
        traffic.posts += 1
        users = notified(payload)
        traffic.pings += len(users)
        traffic.pinged += users

    for entry in requests:
        payload = entry.json if isinstance(entry.json, dict) else {}
        path = entry.path.split("?")[0]
        kind = limited(entry.method, path, channel_id, dm_ids)
        if kind is not None:
            traffic.limited[kind] += 1
        if found := CHANNEL_MESSAGES.match(path):
            target, message = int(found.group(1)), found.group(2)
            if entry.method == "POST" and message is None:
                if target == channel_id:
                    post(payload)
                elif target in dm_ids:
                    traffic.dms += 1
            elif entry.method == "PATCH" and message is not None:
                if target == channel_id:
                    traffic.edits += 1
                elif target in dm_ids:
                    traffic.dm_edits += 1
        elif found := CALLBACK.match(path):
            token, kind = found.group(1), payload.get("type")
            flags = int((payload.get("data") or {}).get("flags") or 0)
            if kind == 4 and not flags & EPHEMERAL:
                post(payload.get("data") or {})
            elif kind == 5 and not flags & EPHEMERAL:
                public_original[token] = True
            elif kind == 7:
                traffic.edits += 1
            elif kind == 6:
                updates.add(token)
        elif found := WEBHOOK.match(path):
            token, message = found.group(1), found.group(2)
            if entry.method == "POST" and message is None:
                if int(payload.get("flags") or 0) & EPHEMERAL:
                    traffic.answers += 1
                else:
                    post(payload)
            elif entry.method == "PATCH" and message == "@original":
                if public_original.pop(token, False):
                    post(payload)  # a public deferral's first edit is its content
                elif token in updates:
                    traffic.edits += 1
                else:
                    traffic.answers += 1
            elif entry.method == "PATCH":
                traffic.answers += 1  # a follow-up's edit: ephemeral ones only, here
    return traffic


# --------------------------------------------------------------------------- a table


@dataclass
class Table:
    """One game channel on SimCord with its seated members and the bot's service."""

    env: simcord.Env
    channel: Any
    members: list[Any]
    commands: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds each /play took
    during: list[Any] = field(default_factory=list)  # the bot's requests while a /play ran

    @property
    def service(self) -> TableService:
        service: TableService = getattr(self.env.bot, "service")  # noqa: B009 (Boardroom)
        return service

    async def awaited(self) -> list[Any]:
        return [m for m in self.members
                if await self.service.legal_moves(self.channel.id, m.id)]

    async def version(self) -> int:
        try:
            return (await self.service.status(self.channel.id)).version
        except rules.GameError:
            return 0

    async def command(self, member: Any, name: str, **options: Any) -> str:
        self.commands += 1
        began, first = time.perf_counter(), len(self.env.http_requests)
        result = await member.slash(self.channel, name, **options)
        if name == "play":
            self.latencies.append(time.perf_counter() - began)
            self.during += self.env.http_requests[first:]
        response = result.response
        return str(response.content) if response is not None else ""

    def traffic(self, requests: Sequence[simcord.HttpLogEntry] | None = None) -> Traffic:
        """The traffic of ``requests``: by default every request of the game, its setup
        and start included."""
        dms = {m.user.dm_channel.id for m in self.members}
        return count(self.env.http_requests if requests is None else requests,
                     self.channel.id, dms)


@contextlib.asynccontextmanager
async def table(game: str, players: int, seed: int, *, images: bool) -> AsyncIterator[Table]:
    """A fresh bot and database; ``players`` members seated at ``game`` and dealt ``seed``."""
    with tempfile.TemporaryDirectory(prefix="conversation-") as folder:
        store = await Store.open(str(Path(folder) / "boardroom.db"), flush_delay=0)
        try:
            bot = create_bot(store, images=images, level="normal")
            # Every request checked against Discord's API at the end (tests/contract.py).
            async with contract.run(bot, approved_intents=discord.Intents.none()) as env:
                guild = env.create_guild("Game night")
                channel = guild.create_text_channel(game)
                members = [guild.add_member(env.create_user(name)) for name in NAMES]
                t = Table(env, channel, members[:players])
                await t.command(t.members[0], "game new", game=game)
                for member in t.members[1:]:
                    await t.command(member, "game join")
                yield t
        finally:
            await store.close()


@dataclass
class Play:
    """What one game's play-through did, observed after every command."""

    steps: int = 0
    turns: int = 0
    capped: bool = False
    over: bool = False
    per_turn: list[int] = field(default_factory=list)  # commands per turn holder per turn
    seconds: float = 0.0


async def play(t: Table, seed: int, rng: random.Random, *, max_steps: int,
               max_turns: int | None = None) -> Play:
    """Start the game (deal ``seed``) and play random legal moves until nobody is awaited,
    ``max_steps`` versions were written or ``max_turns`` turn changes happened."""
    began = time.perf_counter()
    result = Play()
    holders: dict[int, int] = {}  # the current turn's newly awaited members -> commands sent
    before = {m.id for m in await t.awaited()}

    def observe(after: set[int], member: Any) -> None:
        if member.id in holders:
            holders[member.id] += 1
        if after - before:  # a turn change: the turn before it is over
            result.turns += 1
            result.per_turn.extend(holders.values())
            holders.clear()
            holders.update(dict.fromkeys(after - before, 0))

    with mock.patch.object(secrets, "randbelow", lambda _n: seed):
        await t.command(t.members[0], "game start")
    after = {m.id for m in await t.awaited()}
    observe(after, t.members[0])
    before = after
    while before:
        if (await t.version()) >= max_steps or (max_turns is not None
                                                and result.turns >= max_turns):
            result.capped = max_turns is None
            break
        member = rng.choice([m for m in t.members if m.id in before])
        moves = await t.service.legal_moves(t.channel.id, member.id)
        version = await t.version()
        answer = await t.command(member, "play", action=rng.choice(moves))
        if await t.version() <= version:
            raise RuntimeError(f"{member.name}'s move was not played: {answer}")
        after = {m.id for m in await t.awaited()}
        observe(after, member)
        before = after
    else:
        result.over = True
        result.per_turn.extend(holders.values())  # the last turn, ended by the game's end
    result.steps = await t.version()
    result.seconds = time.perf_counter() - began
    return result


# --------------------------------------------------------------------------- figures


@dataclass
class Row:
    game: str
    players: int
    play: Play
    traffic: Traffic
    commands: int
    latencies: list[float] = field(default_factory=list)  # seconds each /play took
    moved: Traffic | None = None  # the requests made while a /play was served, alone


HEADER = ("game", "players", "steps", "turns", "posts", "edits", "pings", "pings/turn",
          "DMs", "DM edits", "cmds", "cmds/turn med", "mean", "global/move", "chan", "DM",
          "look-up", "ms/play", "s")


def per_move(row: Row, *, alone: bool = False) -> tuple[float, ...]:
    """Requests under the global limit per /play: all of them, then by ``LIMITED``;
    with ``alone``, only those made while a /play was served (the table's setup, its
    start and the DM channels opened then left out)."""
    moves = max(1, len(row.latencies))
    counted = (row.moved if alone and row.moved is not None else row.traffic).limited
    return (sum(counted.values()) / moves, *(counted[kind] / moves for kind in LIMITED))


def global_summary(rows: Sequence[Row]) -> str:
    """The global-limit requests per move, averaged over the rows and over the games (each
    game's player counts averaged first), with their split."""
    if not rows:
        return ""
    return "\n".join(_summary(rows, alone) for alone in (False, True))


def _summary(rows: Sequence[Row], alone: bool) -> str:
    games: dict[str, list[tuple[float, ...]]] = {}
    for row in rows:
        games.setdefault(row.game, []).append(per_move(row, alone=alone))

    def said(figures: Sequence[tuple[float, ...]]) -> str:
        means = [statistics.mean(values) for values in zip(*figures, strict=True)]
        split = ", ".join(f"{kind} {mean:.2f}" for kind, mean in zip(LIMITED, means[1:],
                                                                   strict=True))
        return f"{means[0]:.2f} ({split})"

    by_game = [tuple(statistics.mean(v) for v in zip(*f, strict=True)) for f in games.values()]
    what = ("Of those, made while a /play was served (setup and start left out)" if alone
            else "Requests under Discord's global limit per move")
    return (f"{what}: {said(by_game)}, the mean over {len(games)} games; "
            f"{said([per_move(r, alone=alone) for r in rows])} over {len(rows)} rows.")


def cells(row: Row) -> tuple[str, ...]:
    p, t = row.play, row.traffic
    per = p.per_turn or [0]
    steps = f"{p.steps}{' capped' if p.capped else ''}"
    return (row.game, str(row.players), steps, str(p.turns), str(t.posts), str(t.edits),
            str(t.pings), f"{t.pings / p.turns:.2f}" if p.turns else "-", str(t.dms),
            str(t.dm_edits), str(row.commands), f"{statistics.median(per):g}",
            f"{statistics.mean(per):.2f}",
            *(f"{value:.2f}" for value in per_move(row)),
            f"{1000 * statistics.median(row.latencies):.0f}" if row.latencies else "-",
            f"{p.seconds:.1f}")


def table_text(rows: Sequence[Row]) -> str:
    lines = [HEADER, *(cells(r) for r in rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    out = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                     for i, (c, w) in enumerate(zip(line, widths, strict=True))).rstrip()
           for line in lines]
    out.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(out)


async def figures(games: Sequence[str], counts: Sequence[int], seed: int, max_steps: int
                  ) -> list[Row]:
    rows = []
    for game in games:
        for n in counts:
            if not rules.GAMES[game].min_players <= n <= rules.GAMES[game].max_players:
                continue
            async with table(game, n, seed, images=False) as t:
                p = await play(t, seed, random.Random(f"{seed}:{game}:{n}"),
                               max_steps=max_steps)
                row = Row(game, n, p, t.traffic(), t.commands, t.latencies,
                          t.traffic(t.during))
            rows.append(row)
            print(table_text(rows).splitlines()[-1], flush=True)
    return rows


# --------------------------------------------------------------------------- screenshots


@contextlib.contextmanager
def system_chromium(executable: str) -> Iterator[None]:
    """Every Playwright Chromium launched meanwhile (SimCord's capture launches its own,
    with no way to name the browser) runs ``executable``: no browser download."""
    from playwright.async_api import BrowserType

    original = BrowserType.launch

    async def launch(self: BrowserType, **options: Any) -> Any:
        options.setdefault("executable_path", executable)
        return await original(self, **options)

    BrowserType.launch = launch  # type: ignore[method-assign]
    try:
        yield
    finally:
        BrowserType.launch = original  # type: ignore[method-assign]


async def shoot(preview: Any, path: Path, size: tuple[int, int], **options: Any) -> str:
    capture = await preview.screenshot(path, viewport=size, allow_incomplete=True, **options)
    note = "" if capture.complete else " (incomplete: " + "; ".join(
        str(d.get("message", d)) for d in capture.diagnostics) + ")"
    return f"{path.name}: {capture.output_width}x{capture.output_height}{note}"


async def screenshots(out: Path, games: Sequence[str], counts: Sequence[int], seed: int,
                      turns: int, chromium: str) -> list[str]:
    made = []
    with system_chromium(chromium):
        for game in games:
            fits = [n for n in counts
                    if rules.GAMES[game].min_players <= n <= rules.GAMES[game].max_players]
            if not fits:
                continue
            n = fits[0]
            async with table(game, n, seed, images=True) as t:
                p = await play(t, seed, random.Random(f"{seed}:{game}:{n}"),
                               max_steps=10_000, max_turns=turns)
                stem = f"{game}-{n}p"
                made.append(f"{stem}: {p.turns} turn changes, {p.steps} steps played")
                viewer = t.members[0]
                async with t.env.preview(t.channel, viewers=[viewer], layout="channel",
                                         display="fixed", width=PHONE[0],
                                         height=PHONE[1]) as preview:
                    made.append(await shoot(preview, out / f"{stem}-channel-phone.png", PHONE,
                                            mode="viewport"))
                    made.append(await shoot(preview, out / f"{stem}-channel-desktop.png",
                                            DESKTOP, mode="viewport"))
                    made.append(await shoot(preview, out / f"{stem}-channel-phone-tall.png",
                                            TALL, mode="viewport"))
                    newest = t.channel.history()[-1]
                    made.append(await shoot(preview, out / f"{stem}-step-phone.png",
                                            (PHONE[0], 4000), mode="surface",
                                            layout="message", target=newest))
                user = viewer.user
                async with t.env.preview(user.dm_channel, viewers=[user], layout="channel",
                                         display="fixed", width=PHONE[0],
                                         height=PHONE[1]) as preview:
                    made.append(await shoot(preview, out / f"{stem}-dm-phone.png", PHONE,
                                            mode="viewport"))
                    made.append(await shoot(preview, out / f"{stem}-dm-desktop.png", DESKTOP,
                                            mode="viewport"))
            print(*made[-7:], sep="\n", flush=True)
    return made


# --------------------------------------------------------------------------- the command


def commit() -> str:
    try:
        root = Path(__file__).resolve().parents[1]
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, capture_output=True, text=True).stdout.strip()
        return head + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", default="all", choices=["all", *rules.GAMES])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--max-steps", type=int, default=400)
    parser.add_argument("--turns", type=int, default=6, help="turn changes before screenshots")
    parser.add_argument("--no-screenshots", action="store_true")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    games = list(rules.GAMES) if args.games == "all" else [args.games]
    head = (f"Boardroom at {commit()}; seed {args.seed}; random legal /play by humans only; "
            f"pictures off")
    print(head, "\n", "  ".join(HEADER), sep="", flush=True)
    rows = await figures(games, args.players, args.seed, args.max_steps)
    text = f"{head}\n\n{table_text(rows)}\n\n{global_summary(rows)}\n"
    if any(r.play.capped for r in rows):
        text += f"\ncapped: stopped after {args.max_steps} steps, the game not over.\n"
    print("\n" + text)
    (args.out / "figures.txt").write_text(text, encoding="utf-8")
    if args.no_screenshots:
        return
    if not Path(args.chromium).exists():
        sys.exit(f"No screenshots: {args.chromium} is missing (apt-get install chromium).")
    made = await screenshots(args.out, games, args.players, args.seed, args.turns,
                             args.chromium)
    (args.out / "screens.txt").write_text(f"{head.replace('pictures off', 'pictures on')}\n"
                                          + "\n".join(made) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
