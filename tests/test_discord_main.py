"""``python -m bot``: the token check, the try-it hand-off and a clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

import bot.__main__ as entry
from bot import app
from bot.app import create_bot
from bot.discord import client
from tests import contract
from tests.test_discord import message_text


def test_without_a_token_it_says_what_to_set(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(sys, "argv", ["boardroom"])
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert stopped.value.code == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


class Session:
    async def close(self) -> None:
        pass


class FakeBot:
    """Stands in for the client: ``start`` runs until ``close``, as discord.py's does;
    ``failures`` are raised by the first calls of ``start`` (Discord out of reach)."""

    def __init__(self, failures: list[BaseException] | None = None) -> None:
        self.closed = asyncio.Event()
        self.token = ""
        self.failures = list(failures or [])
        self.starts = 0
        self.http = Session()  # ``run`` closes it before trying again

    async def __aenter__(self) -> FakeBot:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    def is_closed(self) -> bool:
        return self.closed.is_set()

    async def start(self, token: str) -> None:
        self.starts += 1
        if self.failures:
            raise self.failures.pop(0)
        self.token = token
        os.kill(os.getpid(), signal.SIGTERM)  # what `docker stop` sends
        await self.closed.wait()

    async def close(self) -> None:
        self.closed.set()


async def test_sigterm_closes_the_bot_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeBot()
    frozen: list[int] = []
    start = fake.start

    async def serving(token: str) -> None:  # what the collector skips while the bot serves
        frozen.append(gc.get_freeze_count())
        await start(token)

    monkeypatch.setattr(fake, "start", serving)
    monkeypatch.setattr(app, "create_bot", lambda database=None: fake)
    await asyncio.wait_for(app.run("not-a-real-token"), timeout=5)
    assert fake.closed.is_set() and fake.token == "not-a-real-token"
    # The start-up's objects were frozen while it served (the modules alone: thousands),
    # and thawed once it stopped.
    assert frozen and frozen[0] > 10_000 and gc.get_freeze_count() == 0
    # The handlers are removed again (False: there was none left to remove).
    loop = asyncio.get_running_loop()
    assert not loop.remove_signal_handler(signal.SIGTERM)
    assert not loop.remove_signal_handler(signal.SIGINT)


async def test_without_discord_it_says_so_in_a_sentence_and_tries_again(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """No network, then Discord's servers failing: one line each, no traceback, a growing
    wait; then the bot connects."""
    refused = aiohttp.ClientConnectionError("Cannot connect to host discord.com:443")
    fake = FakeBot([refused, OSError(101, "Network is unreachable"), refused])
    monkeypatch.setattr(app, "create_bot", lambda database=None: fake)
    with caplog.at_level("WARNING", logger="boardroom"):
        await asyncio.wait_for(app.run("token", first_wait=0.01, longest_wait=0.02),
                               timeout=5)
    assert fake.starts == 4 and fake.token == "token"
    said = [r for r in caplog.records if r.name == "boardroom"]
    assert [r.getMessage() for r in said] == [
        "Discord cannot be reached (ClientConnectionError: Cannot connect to host "
        "discord.com:443); trying again in 0 s.",
        "Discord cannot be reached (OSError: [Errno 101] Network is unreachable); trying "
        "again in 0 s.",
        "Discord cannot be reached (ClientConnectionError: Cannot connect to host "
        "discord.com:443); trying again in 0 s."]
    assert not any(r.exc_info for r in said)


async def test_the_real_bot_logs_in_afresh_at_each_try_and_a_signal_ends_its_wait(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        tmp_path: Path) -> None:
    """A server owner's audit: the real bot's second try to reach Discord reused the
    connection the first had closed ("RuntimeError: Session is closed": a crash, and the
    container's restarts spent); and SIGTERM during the wait was acted on only when it
    ended (up to 5 minutes, past docker stop's 10 s). Discord is out of reach here (a
    port nothing listens on): each try says so, and the signal stops the bot at once."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOARDROOM_DB", raising=False)
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")

    def tries() -> int:
        return sum("cannot be reached" in r.getMessage() for r in caplog.records
                   if r.name == "boardroom")

    with caplog.at_level("WARNING", logger="boardroom"):
        running = asyncio.create_task(app.run("a-token", first_wait=0.01, longest_wait=60))
        for _ in range(1000):  # three tries: 0.01 s, 0.02 s, then a long wait
            if tries() >= 3 or running.done():
                break
            await asyncio.sleep(0.01)
        assert not running.done(), running.exception()
        assert tries() >= 3
        os.kill(os.getpid(), signal.SIGTERM)  # during a wait of 0.04 s and more
        await asyncio.wait_for(running, timeout=5)
    assert not any(r.exc_info for r in caplog.records if r.name == "boardroom")


async def test_a_postgresql_url_is_not_checked_as_a_file(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The start's file check took a postgresql:// URL for a path ('There is no folder
    postgresql://u:p@...', the password shown): no PostgreSQL bot could start."""
    monkeypatch.setenv("BOARDROOM_DB", "postgresql://u:secret@127.0.0.1:1/x")
    made: list[bool] = []

    def create(database: object = None) -> Any:
        made.append(True)
        raise RuntimeError("made")
    monkeypatch.setattr(app, "create_bot", create)
    with pytest.raises(RuntimeError, match=r"^made$"):
        await app.run("a-token")
    assert made


def test_a_wrong_token_is_one_sentence_and_exit_status_1(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fake = FakeBot([discord.LoginFailure("Improper token has been passed.")])
    monkeypatch.setattr(app, "create_bot", lambda database=None: fake)
    monkeypatch.setenv("DISCORD_TOKEN", "wrong")
    monkeypatch.setattr(sys, "argv", ["boardroom"])
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert stopped.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("boardroom: Discord refused the token in DISCORD_TOKEN")


async def test_a_bot_over_a_path_opens_and_closes_its_own_database(tmp_path: Path) -> None:
    path = tmp_path / "own.db"
    bot = create_bot(str(path))
    async with contract.run(bot) as env:
        channel = env.create_guild().create_text_channel("games")
        alice = env.guild.add_member(env.create_user("alice"))
        await alice.slash(channel, "game new", game="cube-conquest")
        assert "opened a table" in message_text(channel.last_message)
        store = bot.service.store
    await bot.close()
    assert path.exists()
    with pytest.raises(ValueError):  # the bot closed the store it opened
        await store.tables.active_game(channel.id)


ROOT = Path(__file__).resolve().parent.parent


def test_every_bot_module_is_installed() -> None:
    """A real install (the Docker image) holds only the packages pyproject lists: every
    package under bot/, and the one of every cog, must be listed."""
    import tomllib

    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]
    packages = {str(p.parent.relative_to(ROOT)).replace("/", ".")
                for p in (ROOT / "bot").rglob("__init__.py")}
    assert packages <= set(listed)
    for extension in client.EXTENSIONS:
        assert extension.rsplit(".", 1)[0] in listed


def test_the_image_runs_the_bot_as_a_non_root_user_with_the_database_on_a_volume() -> None:
    lines = [line.split() for line in (ROOT / "Dockerfile").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    first = {words[0]: words[1:] for words in reversed(lines)}  # the first of each
    last = {words[0]: words[1:] for words in lines}  # the last of each
    assert first["FROM"][0].startswith("python:3.1") and "slim" in first["FROM"][0]
    assert last["USER"] and last["USER"][0] not in ("root", "0")
    assert any("/data" in " ".join(words[1:]) for words in lines if words[0] == "VOLUME")
    assert "BOARDROOM_DB=/data/boardroom.db" in " ".join(last["ENV"])
    assert last["CMD"] == ['["python",', '"-m",', '"bot"]']


def test_try_hands_over_to_the_terminal_game(tmp_path: Path) -> None:
    """``python -m bot try ...`` (and ``boardroom try ...``) plays without Discord."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "bot", "try", "cube-conquest", "--players", "2",
         "--computers", "1", "--db", str(tmp_path / "try.db"), "--no-images", "--seed", "3"],
        input="quit\n", capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**os.environ, "DISCORD_TOKEN": ""})
    assert done.returncode == 0, done.stderr
    assert "Cube Conquest begins" in done.stdout and "DISCORD_TOKEN" not in done.stderr
    assert (tmp_path / "try.db").exists()
