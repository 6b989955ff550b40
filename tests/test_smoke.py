"""``boardroom smoke`` (bot/discord/smoke.py) against SimCord: run as a maintainer runs it
(``python -m bot smoke --guild ID --channel ID --user ID``, the token from DISCORD_TOKEN),
every step accepted and nothing left behind; a refusal injected, Discord's answer printed,
what was made still removed, and exit status 1."""

from __future__ import annotations

import re
import sys

import discord
import pytest
import simcord

import bot.__main__ as entry
from bot.discord import smoke
from tests import contract
from tests.test_startup import lengthen_game_replace


class SimSmoke(smoke.SmokeClient):
    """The smoke test's client, whose login meets SimCord instead of Discord: the world (a
    server, a channel, the maintainer) is made before ``python -m bot smoke`` runs, so
    the command line can name it."""

    def __init__(self, *, registered: bool = False) -> None:
        super().__init__(None)
        self.registered = registered  # the bot's commands registered in the server first
        self.env = simcord.Env(self, approved_intents=discord.Intents.none())
        guild = self.env.create_guild("Test server")
        self.guild = guild
        self.channel = guild.create_text_channel("smoke")
        self.person = self.env.create_user("maintainer")
        self.maintainer = guild.add_member(self.person)
        self.tokens: list[str] = []

    async def login(self, token: str) -> None:
        self.tokens.append(token)
        if len(self.tokens) == 1:
            await self.env.start()  # which logs in, on SimCord
            if self.registered:
                await self.load_commands()
                target = discord.Object(id=self.guild.id)
                self.tree.copy_global_to(guild=target)
                await self.tree.sync(guild=target)
        else:
            await super().login(token)

    async def close(self) -> None:
        if self.env is not None:
            env, self.env = self.env, None  # type: ignore[assignment]
            self.requests = env.http_requests
            await env.shutdown()
        await super().close()


def run_smoke(monkeypatch: pytest.MonkeyPatch, client: SimSmoke, *, user: bool = True,
              more: tuple[str, ...] = ()) -> int:
    """``python -m bot smoke --guild ID --channel ID [--user ID]`` on ``client``'s world;
    its exit status."""
    monkeypatch.setattr(smoke, "SmokeClient", lambda *args, **kwargs: client)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setattr(sys, "argv", [
        "boardroom", "smoke", "--guild", str(client.guild.id), "--channel",
        str(client.channel.id), *(["--user", str(client.maintainer.id)] if user else []),
        *more])
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert isinstance(stopped.value.code, int)
    contract.check(client.requests)  # every request as Discord's specification wants it
    return stopped.value.code


def test_every_step_is_accepted_and_the_channel_ends_empty(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    client = SimSmoke()
    assert run_smoke(monkeypatch, client) == 0
    out = capsys.readouterr().out.splitlines()
    assert client.tokens[0] == "a-token"
    assert [re.sub(r"[0-9]{5,}", "ID", line.split(": ", 1)[0]) for line in out[1:-1]] == [
        "1. read the bot's commands in server ID", "2. register the bot's 12 commands in "
        "server ID", "3. post a turn message with a board picture in channel ID",
        "4. edit it with a new picture (the board after the first move)",
        "5. edit it again keeping the picture", "6. open a DM channel with user ID",
        "7. DM user ID a hand with 10 buttons",
        "8. post a table's notice in channel ID",
        "9. start a thread from it, archived after a week without messages",
        "10. post in thread ID", "11. archive it, as after a table's recap",
        "12. open it again, as for a running table Discord archived",
        "13. delete the thread ID", "14. delete the notice ID", "15. delete the DM ID",
        "16. delete the turn message ID",
        "17. remove the commands from server ID (it had none before)"]
    assert all(": accepted" in line for line in out[1:-1]), out
    assert out[-1].startswith("Discord accepted every request the smoke test made")
    # Nothing is left behind: no message in the channel or the DM, no thread, no command in
    # the server.
    assert client.person.dm_channel.history() == [] and client.channel.threads == []
    # (SimCord's own "thread created" line stays: Discord posts none for a thread started
    # from a message just posted.)
    assert [m.type for m in client.channel.history()] == [discord.MessageType.thread_created]
    assert client.maintainer.available_commands(client.channel) == ()
    assert [f"{r.method} {re.sub(r'[0-9]{5,}', 'ID', r.path)}" for r in client.requests] == [
        "GET /oauth2/applications/@me", "GET /applications/ID/guilds/ID/commands",
        "PUT /applications/ID/guilds/ID/commands", "POST /channels/ID/messages",
        "PATCH /channels/ID/messages/ID", "PATCH /channels/ID/messages/ID",
        "POST /users/@me/channels", "POST /channels/ID/messages",
        "GET /channels/ID", "POST /channels/ID/messages",
        "POST /channels/ID/messages/ID/threads",
        "POST /channels/ID/messages", "PATCH /channels/ID", "PATCH /channels/ID",
        "DELETE /channels/ID", "DELETE /channels/ID/messages/ID",
        "DELETE /channels/ID/messages/ID", "DELETE /channels/ID/messages/ID",
        "PUT /applications/ID/guilds/ID/commands"]
    # The first edit uploads a new picture; the second lists the one kept, uploading none.
    first, second = client.requests[4].json, client.requests[5].json
    assert first["attachments"] == [{"id": 0, "filename": "board.png",
                                     "description": first["attachments"][0]["description"]}]
    kept = out[4].rsplit("attachment ", 1)[1].rstrip(")")  # what the first edit uploaded
    assert [str(a["id"]) for a in second["attachments"]] == [kept]
    assert out[5].endswith(f"keeps board.png (attachment {kept})")
    assert second["flags"] & 1 << 15  # Components V2, as every turn message
    assert "attachment://board.png" in str(second["components"])


def test_a_refusal_prints_discords_answer_removes_what_was_made_and_exits_1(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    client = SimSmoke()
    client.env.inject_error("PATCH", "/channels/*/messages/*", status=400, code=50035,
                            message="Invalid Form Body")
    assert run_smoke(monkeypatch, client) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[4] == ("4. edit it with a new picture (the board after the first move): "
                      "refused (HTTP 400, error code 50035: Invalid Form Body)")
    assert out[5].startswith("5. delete the turn message ") and out[5].endswith(": accepted")
    assert out[6] == (f"6. remove the commands from server {client.guild.id} (it had none "
                      f"before): accepted")
    assert out[7].startswith("The smoke test failed") and len(out) == 8
    assert client.channel.history() == []
    assert not [r for r in client.requests if "users/@me/channels" in r.path]  # no DM


def test_the_dm_goes_to_the_applications_owner_unless_told(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --user, the DM goes to the application's owner: on SimCord, the bot itself,
    which Discord does not let it write to (a maintainer with closed DMs gets the same)."""
    client = SimSmoke()
    assert run_smoke(monkeypatch, client, user=False) == 1
    out = capsys.readouterr().out.splitlines()
    assert client.user is not None
    assert out[0].endswith(f"the DM goes to user {client.user.id}.")
    assert out[7].startswith(f"7. DM user {client.user.id} a hand with 10 buttons: refused "
                             f"(HTTP 403, error code 50007")
    assert "allow them from this server's members" in out[8]
    assert out[9].startswith("8. delete the turn message") and out[9].endswith("accepted")
    assert client.channel.history() == []


def test_a_server_that_had_the_commands_keeps_them(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A server where the bot registers its commands (DISCORD_GUILD) keeps them: the smoke
    test does not take away what the running bot relies on."""
    client = SimSmoke(registered=True)
    assert run_smoke(monkeypatch, client) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].endswith("accepted, 12 commands")
    assert out[2].endswith("(the server had the bot's commands before: they stay)")
    assert not any("remove the commands" in line for line in out)
    assert "play" in client.maintainer.available_commands(client.channel)


def test_a_server_without_threads_leaves_them_out(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    client = SimSmoke()
    assert run_smoke(monkeypatch, client, more=("--no-threads",)) == 0
    out = capsys.readouterr().out
    assert "thread" not in out and "7. DM user" in out and "8. delete the DM" in out
    assert not [r for r in client.requests if "/threads" in r.path]


def test_commands_that_break_a_limit_stop_it_before_any_request(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lengthen_game_replace(monkeypatch)
    client = SimSmoke()
    assert run_smoke(monkeypatch, client) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["/game replace: the description is 107 characters; Discord allows 1-100, so "
                   "the bot stopped before asking Discord anything (this version of Boardroom "
                   "cannot register its commands: run another one, or report it)."]
    assert client.requests == []


def test_without_a_token_or_ids_it_says_what_to_give(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr(sys, "argv", ["boardroom", "smoke", "--guild", "1", "--channel", "2"])
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert stopped.value.code == 2
    assert capsys.readouterr().err == (
        "boardroom smoke: set DISCORD_TOKEN to your bot's token (see docs/discord.md).\n")
    monkeypatch.setattr(sys, "argv", ["boardroom", "smoke", "--channel", "2"])
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert stopped.value.code == 2
    assert "--guild" in capsys.readouterr().err

