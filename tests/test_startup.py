"""Start-up that explains itself: ``boardroom check`` (the commands against Discord's
documented limits, offline), and a start Discord refuses, or would refuse, ending in one
sentence and exit status 1 through ``python -m bot``'s own path (``bot.__main__.main``
over ``bot.app.run``), the bot started on SimCord with the refusal injected."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

import bot.__main__ as entry
from bot import app
from bot.discord.client import Boardroom, registration_refused
from tests import contract

ROOT = Path(__file__).resolve().parent.parent


def run_main(monkeypatch: pytest.MonkeyPatch, *argv: str) -> int:
    monkeypatch.setattr(sys, "argv", ["boardroom", *argv])
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert isinstance(stopped.value.code, int)
    return stopped.value.code


def lengthen_game_replace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bug of the first release: /game replace's description 107 characters long (its
    cog is loaded anew with the tree, so the loaded command is the one changed)."""
    load = Boardroom.load_commands

    async def load_and_lengthen(bot: Boardroom) -> None:
        await load(bot)
        game = bot.tree.get_command("game")
        assert isinstance(game, discord.app_commands.Group)
        replace = game.get_command("replace")
        assert replace is not None
        replace.description = "x" * 107

    monkeypatch.setattr(Boardroom, "load_commands", load_and_lengthen)


def test_check_on_the_real_tree_says_in_one_line_that_the_commands_fit(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)  # no token needed
    assert run_main(monkeypatch, "check") == 0
    out, err = capsys.readouterr()
    assert err == "" and out.count("\n") == 1
    assert out.startswith("Checked 12 slash commands (") and "fits Discord's" in out


def test_check_names_a_description_too_long_and_its_length(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lengthen_game_replace(monkeypatch)
    assert run_main(monkeypatch, "check") == 1
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err == ("boardroom check: /game replace: the description is 107 characters; "
                   "Discord allows 1-100.\n")


class SimStart(Boardroom):
    """The bot, whose ``start`` meets SimCord instead of Discord: the login, the setup and
    the command registration happen there, with ``faults`` injected (``Env.inject_error``);
    ``requests`` are the requests it made."""

    def __init__(self, path: str, faults: list[dict[str, Any]]) -> None:
        super().__init__(path, images=False)
        self.faults = faults
        self.requests: list[simcord.HttpLogEntry] = []

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        env = simcord.Env(self, approved_intents=discord.Intents.none())
        for fault in self.faults:
            env.inject_error(**fault)
        try:
            await env.start()
        finally:
            self.requests = env.http_requests
        await env.shutdown()  # started after all: stop at once
        raise AssertionError("The start was not refused.")


def start(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
          faults: list[dict[str, Any]]) -> tuple[int, SimStart]:
    """``python -m bot`` with a token, its bot started on SimCord; its exit status. (Logs
    at WARNING and above: a warning or an error logged would show in stderr.)"""
    bot = SimStart(str(tmp_path / "boardroom.db"), faults)
    monkeypatch.setattr(app, "create_bot", lambda database=None: bot)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("BOARDROOM_DB", str(tmp_path / "boardroom.db"))
    monkeypatch.setenv("BOARDROOM_LOG_LEVEL", "WARNING")  # so stderr holds no INFO lines
    status = run_main(monkeypatch)
    contract.check(bot.requests)  # refused, yet as Discord's specification wants them
    return status, bot


REFUSALS = [
    ({}, {"status": 400, "code": 50035, "message": "Invalid Form Body"},
     "boardroom: Discord refused to register the bot's commands globally (HTTP 400, error "
     "code 50035: Invalid Form Body), so the bot stopped: run 'boardroom check', fix what "
     "it names, then start the bot again.\n"),
    ({"DISCORD_GUILD": "123456789012345678"},
     {"status": 403, "code": 50001, "message": "Missing Access"},
     "boardroom: Discord refused to register the bot's commands in server "
     "123456789012345678 (DISCORD_GUILD) (HTTP 403, error code 50001: Missing Access), so "
     "the bot stopped: invite the bot to that server with the applications.commands scope "
     "(docs/discord.md), or correct or unset DISCORD_GUILD.\n"),
    ({}, {"status": 400, "code": 30034, "message": "Max number of daily application command "
                                                   "creates has been reached (200)"},
     "boardroom: Discord refused to register the bot's commands globally (HTTP 400, error "
     "code 30034: Max number of daily application command creates has been reached (200)), "
     "so the bot stopped: start it again once what Discord names is settled.\n"),
]


@pytest.mark.parametrize(("environment", "answer", "said"), REFUSALS)
def test_a_refused_command_registration_is_one_sentence_with_discords_answer_and_exit_1(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        environment: dict[str, str], answer: dict[str, Any], said: str) -> None:
    monkeypatch.delenv("DISCORD_GUILD", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    status, bot = start(monkeypatch, tmp_path, [
        {"method": "PUT", "path": "/applications/*/commands", **answer}])
    assert status == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err == said
    # The registration was asked once, not again and again.
    assert [r.method for r in bot.requests if r.path.endswith("/commands")] == ["PUT"]
    assert bot.is_closed()  # the connection and the database closed cleanly


def test_discords_field_errors_are_quoted_on_the_same_line() -> None:
    """What Discord answered the first release's registration: the field and the rule,
    in the one sentence."""

    class Response:
        status, reason = 400, "Bad Request"

    error = discord.HTTPException(Response(), {  # type: ignore[arg-type]
        "code": 50035, "message": "Invalid Form Body", "errors": {"0": {"options": {"3": {
            "description": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                         "message": "Must be 100 or fewer in length."}]}}}}}})
    assert registration_refused(error, None) == (
        "Discord refused to register the bot's commands globally (HTTP 400, error code "
        "50035: Invalid Form Body; In 0.options.3.description: Must be 100 or fewer in "
        "length.), so the bot stopped: run 'boardroom check', fix what it names, then start "
        "the bot again.")


def test_a_start_with_a_description_too_long_asks_discord_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    lengthen_game_replace(monkeypatch)
    status, bot = start(monkeypatch, tmp_path, [])
    assert status == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err == ("boardroom: /game replace: the description is 107 characters; Discord "
                   "allows 1-100, so the bot stopped before asking Discord anything (this "
                   "version of Boardroom cannot register its commands: run another one, or "
                   "report it).\n")
    assert bot.requests == []  # not even the login


def test_a_guild_that_is_no_id_is_one_sentence_before_any_request(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setenv("DISCORD_GUILD", "my test server")
    status, bot = start(monkeypatch, tmp_path, [])
    assert status == 1 and bot.requests == []
    assert capsys.readouterr().err == (
        "boardroom: DISCORD_GUILD must be a server id (digits only), not 'my test "
        "server'; unset it to register the commands globally.\n")


def test_another_refused_request_of_the_start_is_one_sentence_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """The login asks for the application's details; Discord refusing them (403, Missing
    Access) is a sentence with its answer and status 1, not a traceback."""
    status, bot = start(monkeypatch, tmp_path, [
        {"method": "GET", "path": "/oauth2/applications/@me", "status": 403, "code": 50001,
         "message": "Missing Access"}])
    assert status == 1
    assert capsys.readouterr().err == (
        "boardroom: Discord refused a request of the bot's start (HTTP 403, error code "
        "50001: Missing Access), so the bot stopped: check the token, the application and "
        "the bot's permissions in the Developer Portal (docs/discord.md), then start it "
        "again.\n")
    assert bot.is_closed()


def test_discords_voice_warnings_stay_out_of_the_start(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        tmp_path: Path) -> None:
    """The bot has no voice: discord.py's warning that PyNaCl or davey is missing (once a
    process, when the first client is made) is not shown, so a refused start is one
    sentence; its other warnings are."""
    lengthen_game_replace(monkeypatch)
    assert start(monkeypatch, tmp_path, [])[0] == 1
    caplog.clear()
    logger = logging.getLogger("discord.client")
    logger.warning("PyNaCl is not installed, voice will NOT be supported")
    logger.warning("davey is not installed, voice will NOT be supported")
    logger.warning("Something else")
    assert [r.getMessage() for r in caplog.records] == ["Something else"]


def test_requests_bodies_stay_out_of_the_log_even_at_debug(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A privacy review: at BOARDROOM_LOG_LEVEL=DEBUG discord.py logged every request's
    body, each DM with a player's hand. Its HTTP logger stays at INFO, as aiosqlite's."""
    lengthen_game_replace(monkeypatch)
    monkeypatch.setattr(logging.getLogger("discord.http"), "level", logging.NOTSET)
    monkeypatch.setattr(logging.getLogger(), "level", logging.getLogger().level)  # restored
    monkeypatch.setattr(logging.getLogger("boardroom"), "level", logging.NOTSET)
    bot = SimStart(str(tmp_path / "boardroom.db"), [])
    monkeypatch.setattr(app, "create_bot", lambda database=None: bot)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("BOARDROOM_LOG_LEVEL", "DEBUG")
    assert run_main(monkeypatch) == 1
    assert not logging.getLogger("discord.http").isEnabledFor(logging.DEBUG)
    assert logging.getLogger("boardroom").isEnabledFor(logging.DEBUG)


def test_a_log_level_that_is_none_is_one_sentence(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A server owner's audit: BOARDROOM_LOG_LEVEL=LOUD became INFO without a word."""
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("BOARDROOM_LOG_LEVEL", "loud")
    assert run_main(monkeypatch) == 2
    assert capsys.readouterr().err == (
        "boardroom: BOARDROOM_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, "
        "not 'LOUD'; unset it for INFO.\n")


def test_the_container_does_not_restart_into_a_refused_start_for_ever() -> None:
    """A refused start exits with status 1, and so would every restart: the bot's
    containers restart on failure a few times at most (``docker run --restart`` and
    compose's ``restart``), never ``always`` or ``unless-stopped``; the Dockerfile and the
    docs say so."""
    compose = (ROOT / "docs" / "compose.yaml").read_text()
    bot_part = compose.split("x-bot:")[1].split("services:")[0]
    assert "restart: on-failure:5" in bot_part
    docs = (ROOT / "docs" / "discord.md").read_text()
    assert "--restart on-failure:5" in docs and "--restart unless-stopped" not in docs
    dockerfile = " ".join((ROOT / "Dockerfile").read_text().replace("#", " ").split())
    assert "--restart on-failure:5" in dockerfile and "exit status 1" in dockerfile
